// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package jsonscan

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// The strict decoding of a value: one walk of the value beside the Go
// value it decodes into, which checks its syntax, refuses unknown and
// repeated members, makes slices of numbers of the right length, and
// decodes each value where it stands: by the UnmarshalJSON of its Go type,
// or by encoding/json, value by value, so that no text is scanned again
// to find the value that encoding/json would decode. A model's text is
// mostly arrays of numbers, which the walk counts many bytes at a time
// and parses once, checking their syntax as it parses them.

// Decode decodes the one JSON value of data into v, as encoding/json
// would, but refusing members that v does not define, members that it
// defines in another case, repeated members, and null for a struct; null
// for a number, a bool or a string leaves it as it is, as encoding/json
// does. It checks the syntax as it decodes, in one walk, and on an error
// returns Syntax's error if the text is not JSON, so that its errors are
// those of a check of the syntax first; v may then hold part of the value.
// It leaves unchecked the text of a Raw, which its user decodes and
// checks, as Decode does, counting the depth of its arrays and objects
// from the Raw's. It checks the memory of every slice before it
// decodes into it, and makes each the length of its JSON array, so that
// decoding allocates what the elements take, not the doublings of a
// growing slice. An error of the memory wraps the *memory.Error of
// memory.Check.
func Decode(data []byte, v any) error {
	if data == nil {
		return errors.New("missing")
	}
	c := checker{Scanner: Scanner{Text: data}, check: true}
	err := c.value(reflect.ValueOf(v).Elem())
	if err == nil && Space(data, c.I) != len(data) {
		err = errSyntax
	}
	if err == nil {
		return nil
	}
	if serr := Syntax(data); serr != nil {
		return serr
	}
	return err
}

// errSyntax is the error of the walk at text that is not JSON, which
// Decode replaces by Syntax's, and which Decode returns only if its walk
// and Valid disagree.
var errSyntax = errors.New("jsonscan: the walk and Valid disagree on the syntax")

// DecodeValid is Decode on data whose syntax is known to be right, such
// as a value within a document that Syntax has checked, or nil if it is
// missing: it checks no syntax, and may take text that Decode refuses.
func DecodeValid(data []byte, v any) error {
	if data == nil {
		return errors.New("missing")
	}
	_, err := DecodePrefix(data, v)
	return err
}

// DecodePrefix is DecodeValid of the value at the start of data, whose
// text may go on after it, as the elements of an array do: it returns the
// length of the value's text, with the white space before it.
func DecodePrefix(data []byte, v any) (int, error) {
	c := checker{Scanner: Scanner{Text: data}}
	err := c.value(reflect.ValueOf(v).Elem())
	return c.I, err
}

// Syntax returns an error if data is not one JSON value, as a
// json.Decoder says it: what Decode checks before DecodeValid.
func Syntax(data []byte) error {
	if data == nil {
		return errors.New("missing")
	}
	if Valid(data) {
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
			return err // Valid and json.Unmarshal disagree: refuse
		case strings.HasSuffix(syn.Error(), "after top-level value"):
			return errors.New("data after the value")
		case syn.Offset == int64(len(data)):
			return io.ErrUnexpectedEOF
		}
		return err
	}
	return nil
}

// Raw is a JSON value as it stands in the data that Decode, or
// json.Unmarshal, decodes, which hands each value to UnmarshalJSON as a
// slice of its own input: Raw keeps that slice, where json.RawMessage
// copies it, and so lives as long as the data and changes with it.
type Raw []byte

// UnmarshalJSON sets r to data itself, not a copy.
func (r *Raw) UnmarshalJSON(data []byte) error {
	*r = data
	return nil
}

// MarshalJSON returns r, or null if r is nil, as json.RawMessage does.
func (r Raw) MarshalJSON() ([]byte, error) { return json.RawMessage(r).MarshalJSON() }

// checker walks a JSON value beside the Go value it decodes into, and
// decodes it, as Decode says, checking its syntax if check is set, as
// Decode does, and as DecodeValid does not.
type checker struct {
	Scanner
	check bool
	depth int // the arrays and objects around c.I, which Decode counts
}

// value decodes the JSON value at c.I into v, and moves past it.
func (c *checker) value(v reflect.Value) error {
	c.Space()
	if c.I == len(c.Text) {
		return errSyntax
	}
	start, b := c.I, c.Text[c.I]
	switch {
	case v.Kind() == reflect.Slice && b == '[' && (numbers(v.Type().Elem()) || !reflect.PointerTo(v.Type()).Implements(unmarshalerType)):
		// Numbers among them, which decode into the slice made here.
		return c.array(v)
	case reflect.PointerTo(v.Type()).Implements(unmarshalerType):
		if err := c.skip(v.Type() != rawType); err != nil {
			return err
		}
		return v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(c.Text[start:c.I])
	case v.Kind() == reflect.Pointer && b != 'n':
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return c.value(v.Elem())
	case v.Kind() == reflect.Struct && b == 'n':
		return errors.New("null, want an object")
	case v.Kind() == reflect.Struct && b == '{':
		return c.object(v)
	}
	// A value of another type, or of JSON that it does not take, is
	// encoding/json's to decode or refuse, but for the plain literals
	// that leaf decodes as it does, without its decoder's allocations.
	if err := c.skip(true); err != nil {
		return err
	}
	if leaf(c.Text[start:c.I], v) {
		return nil
	}
	return json.Unmarshal(c.Text[start:c.I], v.Addr().Interface())
}

// leaf decodes the JSON literal text into v, as encoding/json would, where
// it is plain: a number into an int or a float64 that holds it, true or
// false into a bool, a string of UTF-8 without escapes into a string, and
// null into a pointer, a slice, a map or an interface. It reports whether
// it did.
func leaf(text []byte, v reflect.Value) bool {
	return !reflect.PointerTo(v.Type()).Implements(textUnmarshalerType) && plain(text, v)
}

// plain is leaf for a value whose type has no UnmarshalText, which
// encoding/json would call.
func plain(text []byte, v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Bool:
		if b := string(text); b == "true" || b == "false" {
			v.SetBool(b == "true")
			return true
		}
	case reflect.Int:
		if n, err := strconv.ParseInt(string(text), 10, 64); err == nil && !v.OverflowInt(n) {
			v.SetInt(n)
			return true
		}
	case reflect.Float64:
		// A JSON number: what ParseFloat takes of valid JSON.
		if f, err := strconv.ParseFloat(string(text), 64); err == nil {
			v.SetFloat(f)
			return true
		}
	case reflect.String:
		if len(text) >= 2 && text[0] == '"' && bytes.IndexByte(text, '\\') < 0 && utf8.Valid(text) {
			v.SetString(string(text[1 : len(text)-1]))
			return true
		}
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		if string(text) == "null" {
			v.SetZero()
			return true
		}
	}
	return false
}

// skip moves past white space and the value that follows it, checking
// its syntax if c checks and check is set.
func (c *checker) skip(check bool) error {
	if !c.check || !check {
		c.Skip()
		return nil
	}
	if c.I = valueEnd(c.Text, c.I, c.depth); c.I < 0 {
		return errSyntax
	}
	return nil
}

// next is Next, which, if c checks, checks the punctuation before the
// member or element that it reports, or the close, which is closer: at the
// open of the object or array if first, and after one of its members or
// elements if not.
func (c *checker) next(first bool, close byte) (bool, error) {
	if !c.check {
		return c.Next(), nil
	}
	c.Space()
	if c.I == len(c.Text) {
		return false, errSyntax
	}
	switch b := c.Text[c.I]; {
	case first && (b == '{' || b == '['):
		c.I = Space(c.Text, c.I+1)
		if c.I < len(c.Text) && c.Text[c.I] == close {
			c.I++
			return false, nil
		}
	case !first && b == ',':
		c.I = Space(c.Text, c.I+1)
	case !first && b == close:
		c.I++
		return false, nil
	default:
		return false, errSyntax
	}
	if c.I == len(c.Text) || close == '}' && c.Text[c.I] != '"' {
		return false, errSyntax
	}
	return true, nil
}

// name is Name, which, if c checks, checks the name's string and the
// colon after it.
func (c *checker) name() (string, error) {
	if c.check {
		i := str(c.Text, c.I)
		if i < 0 {
			return "", errSyntax
		}
		if i = Space(c.Text, i); i == len(c.Text) || c.Text[i] != ':' {
			return "", errSyntax
		}
	}
	return c.Name()
}

// open counts an array or an object that opens at c.I, and reports
// whether the depth that Decode checks allows it, as Valid's does.
func (c *checker) open() bool {
	c.depth++
	return !c.check || c.depth <= maxDepth
}

// close counts the end of an array or object that open counted.
func (c *checker) close() { c.depth-- }

// object checks the members of the object at c.I for the fields of the
// struct v.
func (c *checker) object(v reflect.Value) error {
	if !c.open() {
		return errSyntax
	}
	defer c.close()
	fields := Fields(v.Type())
	seen := make([]bool, len(fields))
	for first := true; ; first = false {
		more, err := c.next(first, '}')
		if !more || err != nil {
			return err
		}
		key := c.I
		name, err := c.name()
		if err != nil {
			return err
		}
		k := slices.IndexFunc(fields, func(f Field) bool { return f.Name == name })
		switch {
		case k < 0 && !slices.ContainsFunc(fields, func(f Field) bool { return strings.EqualFold(f.Name, name) }):
			return unknownField(c.written(key, name))
		case k < 0:
			// encoding/json would take it, in another case.
			return fmt.Errorf("unknown member %.40q", name)
		case seen[k]:
			return fmt.Errorf("member %.40q more than once", name)
		}
		seen[k] = true
		if err := c.value(v.FieldByIndex(fields[k].Index)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
}

// written returns the name of the member whose key starts at the offset
// key as the text has it, unless it has escapes to undo, and otherwise
// name: the name that the message of an unknown member quotes, which
// differs from name only where the text is not UTF-8, so that the message
// shows the bytes at fault.
func (c *checker) written(key int, name string) string {
	s := Scanner{Text: c.Text, I: key}
	s.Skip()
	if b := c.Text[key+1 : s.I-1]; bytes.IndexByte(b, '\\') < 0 {
		return string(b)
	}
	return name
}

// unknownField is the error of a member that no field has, in any case,
// as a json.Decoder that disallows unknown fields says it.
type unknownField string

func (u unknownField) Error() string { return fmt.Sprintf("json: unknown field %.40q", string(u)) }

// array decodes the array at c.I into the slice v, which it makes as long
// as the array after it checks the memory: an array of numbers by the
// slice's UnmarshalJSON, or number by number, or by encoding/json; the
// elements of any other each where it stands.
func (c *checker) array(v reflect.Value) error {
	if !c.open() {
		return errSyntax
	}
	defer c.close()
	elem := v.Type().Elem()
	start, n := c.I, 0
	if count, end, ok := countScalars(c.Text, c.I); ok {
		n, c.I = count, end
	} else {
		for ; c.Next(); n++ {
			c.Skip()
		}
	}
	what := "elements"
	if numbers(elem) {
		what = "numbers"
	}
	if err := memory.Check(float64(n) * float64(elem.Size())); err != nil {
		return fmt.Errorf("an array of %d %s %w", n, what, err)
	}
	v.Set(reflect.MakeSlice(v.Type(), n, n))
	if !numbers(elem) {
		end := c.I
		c.I = start
		k := 0
		for ; ; k++ {
			more, err := c.next(k == 0, ']')
			if err != nil {
				return err
			}
			if !more {
				break
			}
			if k == n {
				return errSyntax // text that is not JSON, counted wrong
			}
			if err := c.value(v.Index(k)); err != nil {
				return fmt.Errorf("element %d: %w", k, err)
			}
		}
		if k != n || c.I != end {
			return errSyntax
		}
		return nil
	}
	text := c.Text[start:c.I]
	if u, ok := v.Addr().Interface().(json.Unmarshaler); ok {
		return u.UnmarshalJSON(text)
	}
	textual := reflect.PointerTo(elem).Implements(textUnmarshalerType)
	e := checker{Scanner: Scanner{Text: text}, check: c.check, depth: c.depth}
	k := 0
	for ; ; k++ {
		more, err := e.next(k == 0, ']')
		if err != nil {
			return err
		}
		if !more {
			break
		}
		at := e.I
		if err := e.skip(true); err != nil {
			return err
		}
		if k == n {
			return errSyntax
		}
		if textual || !plain(text[at:e.I], v.Index(k)) {
			// encoding/json says what is wrong.
			v.SetLen(0)
			return json.Unmarshal(text, v.Addr().Interface())
		}
	}
	if k != n || e.I != len(text) {
		return errSyntax
	}
	return nil
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	rawType             = reflect.TypeFor[Raw]()
)

// numbers reports whether the elements of a slice, of type elem, are
// numbers, whose slice array makes as long as its JSON array.
func numbers(elem reflect.Type) bool {
	return elem.Kind() == reflect.Float64 || elem.Kind() == reflect.Int
}

// Field is a field of a struct that JSON names: its member's name, exact,
// and its index for reflect's FieldByIndex.
type Field struct {
	Name  string
	Index []int
}

// fieldCache holds Fields' result for each type it has seen.
var fieldCache sync.Map // reflect.Type → []Field

// Fields returns the fields of the struct type t that JSON names, those
// of embedded structs among them, in their order. It panics if a field
// has the option string, or if two have one name, where encoding/json's
// rules, which Decode does not follow, would decide.
func Fields(t reflect.Type) []Field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]Field)
	}
	var fields []Field
	for _, f := range reflect.VisibleFields(t) {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && !f.Anonymous && name != "-" {
			if name == "" {
				name = f.Name
			}
			if slices.Contains(strings.Split(opts, ","), "string") || slices.ContainsFunc(fields, func(g Field) bool { return g.Name == name }) {
				panic(fmt.Sprintf("jsonscan: field %s of %v: the option string, or a name that another field has, which Decode does not decode", f.Name, t))
			}
			fields = append(fields, Field{name, f.Index})
		}
	}
	fieldCache.Store(t, fields)
	return fields
}
