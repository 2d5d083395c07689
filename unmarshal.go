// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/seed5ae3614e/perceptron/internal/binform"
	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
	"github.com/seed5ae3614e/perceptron/internal/scorer"
)

// Loading a saved classifier of any type: Unmarshal.

// Unmarshal returns the classifier saved in data by json.Marshal or
// Marshal, of whichever type and form it is, fitted and with its
// settings. It returns an error if data is not such a classifier, naming
// what is wrong.
func Unmarshal(data []byte) (Scorer, error) {
	f := form{data: data, binary: isBinary(data)}
	typ, err := f.savedType()
	if err != nil {
		return nil, err
	}
	return unmarshalAs(f, typ)
}

func init() { scorer.Width = widthOf }

// widthOf is scorer.Width: the columns of the rows that c scores, if c is
// a model of this package or a OneVsRest of them, and 0 otherwise.
func widthOf(c any) int {
	if o, ok := c.(*OneVsRest); ok {
		if o.oneVsRestState == nil {
			return 0
		}
		defer o.reading("Width").RUnlock()
		if len(o.models) == 0 {
			return 0
		}
		c = o.models[0]
	}
	if m, ok := c.(model); ok {
		return m.width()
	}
	return 0
}

// unmarshalAs is Unmarshal of the form f whose type savedType has told.
func unmarshalAs(f form, typ string) (Scorer, error) {
	var m interface {
		Scorer
		load(form) error
	}
	switch typ {
	case "Perceptron":
		m = &Perceptron{}
	case "Pocket":
		m = &Pocket{}
	case "Averaged":
		m = &Averaged{}
	case "Voted":
		m = &Voted{}
	case "Kernel":
		m = &Kernel{}
	case "OneVsRest":
		m = &OneVsRest{}
	}
	if err := m.load(f); err != nil {
		return nil, f.syntaxFirst("", err)
	}
	return m, nil
}

// savedType returns the type of the classifier saved in f, JSON or
// binary, or an error if it is not one of this package's.
func (f form) savedType() (string, error) {
	data := f.data
	if f.binary {
		if len(data) < binform.HeaderSize {
			return "", errorf(ErrFormat, "perceptron: not a saved classifier: %d bytes, fewer than the header of a binary form", len(data))
		}
		t := binform.ReadHeader(data).Type
		if int(t) >= len(binaryTypes) || binaryTypes[t] == "" {
			return "", errorf(ErrFormat, "perceptron: not a saved classifier: the binary form of type %d, which is no classifier of this package", t)
		}
		return binaryTypes[t], nil
	}
	typ, err := jsonType(data)
	if err != nil {
		return "", f.syntaxFirst("", err)
	}
	return typ, nil
}

// jsonType returns the type of the classifier saved in the JSON data: the
// member type of an object, found by a walk of its members up to it, the
// first as this package writes it, where encoding/json would scan all of
// data; the decoding of the envelope checks the syntax of all of it, and
// refuses the members of other names, and type given twice.
func jsonType(data []byte) (string, error) {
	var head struct {
		Type string `json:"type"`
	}
	notSaved := func(err error) (string, error) {
		return "", errorf(ErrFormat, "perceptron: not a saved classifier: %v", err)
	}
	s := jsonscan.Scanner{Text: data}
	s.Space()
	object := s.I < len(data) && data[s.I] == '{'
	if !object {
		// encoding/json names what is not an object, and takes null.
		if err := json.Unmarshal(data, &head); err != nil {
			return notSaved(err)
		}
	}
	for object && s.Next() {
		name, err := s.Name()
		at := s.I
		s.Skip()
		switch {
		case err != nil:
			return notSaved(err)
		case name == "type":
			if err := jsonscan.Decode(data[at:s.I], &head.Type); err != nil {
				return "", errorf(ErrFormat, "perceptron: not a saved classifier: type: %v", err)
			}
			object = false
		case strings.EqualFold(name, "type"):
			return "", errorf(ErrFormat, "perceptron: not a saved classifier: unknown member %.40q", name)
		}
	}
	switch {
	case head.Type == "":
		return "", errorf(ErrFormat, "perceptron: not a saved classifier: it has no type")
	case !slices.Contains(binaryTypes, head.Type):
		return "", errorf(ErrFormat, "perceptron: not a saved classifier: type %.40q is not a classifier of this package", head.Type)
	}
	return head.Type, nil
}

// syntaxFirst returns err, an error of loading the form f as a saved typ,
// or as any classifier if typ is "", unless f is JSON whose syntax is
// wrong, and then the error of its syntax: a load checks the syntax as it
// decodes, and says what a check of all of it first would say.
func (f form) syntaxFirst(typ string, err error) error {
	switch {
	case f.binary || jsonscan.Valid(f.data):
		return err
	case typ == "":
		// encoding/json names what is wrong.
		return errorf(ErrFormat, "perceptron: not a saved classifier: %v", json.Unmarshal(f.data, new(struct{})))
	}
	return formatError(jsonscan.Syntax(f.data), "perceptron: not a saved %s:", typ)
}
