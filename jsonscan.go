// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// The strict decoding of a saved classifier: its syntax first, then each
// value against the Go value it decodes into, which refuses unknown and
// repeated members and prepares slices of numbers of the right length,
// before encoding/json decodes it.

// strict decodes the one JSON value of data into v, refusing members that
// v does not define, members that it defines in another case, repeated
// members, and null where v holds a value that is not a pointer, a slice
// or a raw value. It checks the memory of every slice of numbers before
// encoding/json decodes into it, and makes each the length of its JSON
// array, so that decoding allocates what the numbers take, not the
// doublings of a growing slice.
func strict(data []byte, v any) error {
	if err := syntax(data); err != nil {
		return err
	}
	return decodeValid(data, v)
}

// decodeValid is strict on data whose syntax is known to be right, such
// as a raw value of a valid envelope, or nil if it is missing.
func decodeValid(data []byte, v any) error {
	if data == nil {
		return errors.New("missing")
	}
	s := scanner{data: data}
	if err := s.value(reflect.ValueOf(v).Elem()); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// syntax returns an error if data is not one JSON value, as a
// json.Decoder says it.
func syntax(data []byte) error {
	if data == nil {
		return errors.New("missing")
	}
	if json.Valid(data) {
		return nil
	}
	// Unmarshal checks the syntax of all of data before it decodes any,
	// and says where it fails.
	if err := json.Unmarshal(data, &struct{}{}); err != nil {
		var syn *json.SyntaxError
		switch {
		case len(bytes.TrimSpace(data)) == 0:
			return io.EOF
		case !errors.As(err, &syn):
			return nil // valid, but no object: for decoding to refuse
		case strings.HasSuffix(syn.Error(), "after top-level value"):
			return errors.New("data after the value")
		case syn.Offset == int64(len(data)):
			return io.ErrUnexpectedEOF
		}
		return err
	}
	return nil
}

// scanner walks a JSON value that is known to be valid, beside the Go
// value it decodes into, for what strict checks and prepares.
type scanner struct {
	data []byte
	i    int
}

// value checks the JSON value at s.i for v, and moves past it.
func (s *scanner) value(v reflect.Value) error {
	s.space()
	c := s.data[s.i]
	switch {
	case v.Kind() == reflect.Slice && c == '[':
		// numbersJSON among them, which decodes into the slice made here.
		return s.array(v)
	case reflect.PointerTo(v.Type()).Implements(unmarshalerType):
		// Checked by its own UnmarshalJSON.
	case v.Kind() == reflect.Pointer && c != 'n':
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return s.value(v.Elem())
	case v.Kind() == reflect.Struct && c == 'n':
		return errors.New("null, want an object")
	case v.Kind() == reflect.Struct && c == '{':
		return s.object(v)
	}
	// A value of another type is encoding/json's to refuse.
	s.skip()
	return nil
}

// object checks the members of the object at s.i for the fields of the
// struct v.
func (s *scanner) object(v reflect.Value) error {
	fields := jsonFields(v.Type())
	seen := make([]bool, len(fields))
	s.i++ // {
	for {
		s.space()
		if s.data[s.i] == '}' {
			s.i++
			return nil
		}
		if s.data[s.i] == ',' {
			s.i++
			s.space()
		}
		name, err := s.name()
		if err != nil {
			return err
		}
		k := slices.IndexFunc(fields, func(f jsonField) bool { return f.name == name })
		switch {
		case k < 0 && !slices.ContainsFunc(fields, func(f jsonField) bool { return strings.EqualFold(f.name, name) }):
			return unknownField(name)
		case k < 0:
			// encoding/json would take it, in another case.
			return fmt.Errorf("unknown member %.40q", name)
		case seen[k]:
			return fmt.Errorf("member %.40q more than once", name)
		}
		seen[k] = true
		s.space()
		s.i++ // :
		if err := s.value(v.FieldByIndex(fields[k].index)); err != nil {
			if _, ok := err.(unknownField); ok {
				return err
			}
			return fmt.Errorf("%s: %w", name, err)
		}
	}
}

// unknownField is the error of a member that no field has, in any case,
// as a json.Decoder that disallows unknown fields says it.
type unknownField string

func (u unknownField) Error() string { return fmt.Sprintf("json: unknown field %.40q", string(u)) }

// name returns the member name at s.i, and moves past it.
func (s *scanner) name() (string, error) {
	start := s.i
	s.skip()
	b := s.data[start:s.i]
	if !bytes.Contains(b, []byte{'\\'}) {
		return string(b[1 : len(b)-1]), nil
	}
	var name string
	err := json.Unmarshal(b, &name)
	return name, err
}

// array checks the array at s.i for the slice v: a slice of numbers it
// makes as long as the array, after it checks the memory; the elements of
// a slice of anything else it checks in turn.
func (s *scanner) array(v reflect.Value) error {
	elem := v.Type().Elem()
	numbers := elem.Kind() == reflect.Float64 || elem.Kind() == reflect.Int
	s.i++ // [
	for n := 0; ; n++ {
		s.space()
		if s.data[s.i] == ',' {
			s.i++
			s.space()
		}
		if s.data[s.i] == ']' {
			s.i++
			if !numbers {
				return nil
			}
			if err := memory.Check(float64(n) * float64(elem.Size())); err != nil {
				return errorf(ErrTooLarge, "an array of %d numbers %v", n, err)
			}
			v.Set(reflect.MakeSlice(v.Type(), 0, n))
			return nil
		}
		if numbers {
			s.skip()
		} else if err := s.value(reflect.New(elem).Elem()); err != nil {
			return fmt.Errorf("element %d: %w", n, err)
		}
	}
}

// skip moves past the value at s.i.
func (s *scanner) skip() {
	depth := 0
	for {
		s.space()
		switch s.data[s.i] {
		case '"':
			for s.i++; s.data[s.i] != '"'; s.i++ {
				if s.data[s.i] == '\\' {
					s.i++
				}
			}
			s.i++
		case '{', '[':
			depth++
			s.i++
		case '}', ']':
			depth--
			s.i++
		case ',', ':':
			s.i++
		default: // a number, true, false or null
			for s.i < len(s.data) && !delimiter(s.data[s.i]) {
				s.i++
			}
		}
		if depth == 0 {
			return
		}
	}
}

// space moves past white space.
func (s *scanner) space() {
	for s.i < len(s.data) && isSpace(s.data[s.i]) {
		s.i++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// delimiter reports whether c ends a number or a literal.
func delimiter(c byte) bool { return c == ',' || c == ']' || c == '}' || c == ':' || isSpace(c) }

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// jsonField is a field of a struct that the format names: its member's
// name, exact, and its index for FieldByIndex.
type jsonField struct {
	name  string
	index []int
}

// fieldCache holds jsonFields' result for each type it has seen.
var fieldCache sync.Map // reflect.Type → []jsonField

// jsonFields returns the fields of the struct type t that JSON names,
// those of embedded structs among them.
func jsonFields(t reflect.Type) []jsonField {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]jsonField)
	}
	var fields []jsonField
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && !f.Anonymous && name != "-" {
			if name == "" {
				name = f.Name
			}
			fields = append(fields, jsonField{name, f.Index})
		}
	}
	fieldCache.Store(t, fields)
	return fields
}
