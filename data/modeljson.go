// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
	"github.com/seed5ae3614e/perceptron/internal/memory"
	"github.com/seed5ae3614e/perceptron/internal/scorer"
)

// modelVersion is the version of the format of a Model's file.
const modelVersion = 1

// modelJSON is the JSON form of a Model, but its classifier, which follows
// it as the member "classifier".
type modelJSON struct {
	Version   int         `json:"version"`
	Classes   []string    `json:"classes"`
	Names     []string    `json:"names,omitempty"`
	Label     string      `json:"label,omitempty"`
	Hashing   *Hashing    `json:"hashing,omitempty"`
	Scaler    *scalerJSON `json:"scaler,omitempty"`
	Normalize bool        `json:"normalize,omitempty"`
	Rows      *rowStats   `json:"rows,omitempty"`

	Calibration *Calibration `json:"calibration,omitempty"`
}

type scalerJSON struct {
	Mean  []float64 `json:"mean,omitempty"`
	Scale []float64 `json:"scale"`
}

// MarshalJSON returns the Model in its JSON form, which the package's
// documentation gives, as WriteTo writes the binary form, with its
// errors, and errors of the Classifier's MarshalJSON. It holds the JSON of
// the Classifier, and the form, twice the size. It may run concurrently as
// WriteTo.
func (m *Model) MarshalJSON() ([]byte, error) {
	if err := m.checkSave(); err != nil {
		return nil, err
	}
	marshaler, ok := m.Classifier.(json.Marshaler)
	if !ok {
		return nil, errorf(perceptron.ErrSetting, "data: the Classifier, a %T, has no MarshalJSON", m.Classifier)
	}
	lib, err := marshaler.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if err := m.fitsWidth(scorer.Width(m.Classifier)); err != nil {
		return nil, err
	}
	head := modelJSON{Version: modelVersion, Classes: m.Classes, Names: m.Names, Label: m.Label, Hashing: m.Hashing, Normalize: m.Normalize, Calibration: m.Calibration}
	if m.Scaler != nil {
		head.Scaler = &scalerJSON{Mean: m.Scaler.Mean, Scale: m.Scaler.Scale}
	}
	if m.rows.Rows > 0 {
		head.Rows = &m.rows
	}
	hb, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	if err := checkMemory(float64(len(hb)+len(lib)), "data: the JSON form of the Model, of %d bytes:", len(hb)+len(lib)); err != nil {
		return nil, err
	}
	return slices.Concat(hb[:len(hb)-1], []byte(`,"classifier":`), lib, []byte("}")), nil
}

// decodeModel returns the Model of a model file's text, in which it may
// cut out the member "command" of a file of the command's version 4.
func decodeModel(text []byte) (*Model, error) {
	if firstMember(text) != "version" {
		return decodeAnyModel(text)
	}
	// The package's own form, as it writes it, which one walk checks and
	// decodes, the classifier's JSON in the library's walk.
	m, err := decodePipeline(text, jsonscan.Decode)
	if err == nil {
		return m, nil
	}
	// Its error stands where the text is of that form as modelMembers
	// tells it, and only then did the walk load the classifier: the walk
	// of every form would say the same. Otherwise that walk says what is
	// wrong, as it says it of every form.
	_, by, ferr := modelMembers(text)
	switch {
	case ferr != nil:
		return nil, ferr
	case by["classifier"] != nil && by["format"] == nil:
		return nil, err
	}
	return decodeAnyModel(text)
}

// modelMembers returns the members of a model file's text, in their order
// and by name, or an error if it is not JSON of an object whose members
// have a name each.
func modelMembers(text []byte) ([]jsonscan.Member, map[string]*jsonscan.Member, error) {
	notModel := func(format string, args ...any) error {
		return errorf(perceptron.ErrFormat, "not a model: "+format, args...)
	}
	if !jsonscan.Valid(text) {
		// Unmarshal names the offset of the first error.
		return nil, nil, notModel("%s", shortError(json.Unmarshal(text, new(struct{}))))
	}
	members, err := jsonscan.Members(text)
	if err != nil {
		return nil, nil, notModel("%v", err)
	}
	by := map[string]*jsonscan.Member{}
	for k, m := range members {
		if _, ok := by[m.Name]; ok {
			return nil, nil, notModel("the member %s twice", quote(m.Name))
		}
		by[m.Name] = &members[k]
	}
	return members, by, nil
}

// decodeAnyModel is decodeModel of a text of any form: it checks its
// syntax, and then walks its members to tell its form.
func decodeAnyModel(text []byte) (*Model, error) {
	members, by, err := modelMembers(text)
	if err != nil {
		return nil, err
	}
	switch {
	case by["format"] != nil:
		return nil, errorf(perceptron.ErrFormat, "a model file of the command's old format, which holds a form of the library's that is no longer read: train the model again")
	case by["classifier"] != nil:
		return decodePipeline(text, jsonscan.DecodeValid)
	case by["type"] == nil:
		return nil, errorf(perceptron.ErrFormat, "not a model: no member classifier, nor type, as the library's JSON of a classifier has")
	}
	lib := text
	var old *commandJSON
	if cm := by["command"]; cm != nil {
		if old, err = decodeCommand(cm.Of(text)); err != nil {
			return nil, err
		}
		lib = jsonscan.Remove(text, members, slices.Index(members, *cm))
	}
	c, d, err := loadClassifier(lib)
	if err != nil {
		return nil, err
	}
	m := &Model{Classifier: c, features: d}
	if old == nil {
		// The library's JSON alone: the classes are named by their values.
		m.Classes = classValues(c)
		return m, nil
	}
	if err := old.check(d); err != nil {
		return nil, err
	}
	m.Classes, m.Names, m.Label = old.Classes, old.Names, old.Label
	if old.Scale != nil {
		m.Scaler = &Scaler{Mean: old.Mean, Scale: old.Scale}
	}
	return m, m.checkLoaded()
}

// pipelineJSON is the JSON of a model file of the package's own form: the
// modelJSON, and the classifier's JSON as it stands in the text.
type pipelineJSON struct {
	modelJSON
	Classifier jsonscan.Raw `json:"classifier"`
}

// decodePipeline returns the Model of the text of a file of the package's
// own form, which decode, jsonscan's Decode or DecodeValid, walks. One walk
// of the text decodes each member where it stands, refuses unknown and
// repeated members, and checks the memory of each array before it makes
// it; the classifier's JSON is decoded, and checked, in place by
// loadClassifier.
func decodePipeline(text []byte, decode func([]byte, any) error) (*Model, error) {
	var mj pipelineJSON
	if err := decode(text, &mj); err != nil {
		return nil, decodeError(err, "")
	}
	if mj.Version != modelVersion {
		return nil, errorf(perceptron.ErrFormat, "a model of version %d, want %d", mj.Version, modelVersion)
	}
	c, d, err := loadClassifier(mj.Classifier)
	if err != nil {
		return nil, err
	}
	m := &Model{Classifier: c, features: d, Classes: mj.Classes, Names: mj.Names, Label: mj.Label, Hashing: mj.Hashing, Normalize: mj.Normalize, Calibration: mj.Calibration}
	if mj.Scaler != nil {
		m.Scaler = &Scaler{Mean: mj.Scaler.Mean, Scale: mj.Scaler.Scale}
	}
	if mj.Rows != nil {
		if err := mj.Rows.check(); err != nil {
			return nil, errorf(perceptron.ErrFormat, "rows: %v", err)
		}
		m.rows = *mj.Rows
	}
	return m, m.checkLoaded()
}

// firstMember returns the name of the first member of the object of the
// JSON text, or "" if it has none, or is not one that starts so.
func firstMember(text []byte) string {
	s := jsonscan.Scanner{Text: text}
	s.Space()
	if s.I == len(text) || text[s.I] != '{' || !s.Next() {
		return ""
	}
	name, _ := s.Name()
	return name
}

// decodeError returns err, of jsonscan's decoding of a member of the
// model's JSON at path, or of the whole if path is "", as an error of kind
// perceptron.ErrTooLarge if the memory left refused it, and of kind
// perceptron.ErrFormat otherwise.
func decodeError(err error, path string) error {
	if memory.Refused(err) {
		return tooLarge(err, "%s", strings.TrimSpace("reading the model: "+path))
	}
	return errorf(perceptron.ErrFormat, "not a model: %s%s", path, shortError(err))
}

// shortError returns the message of err cut to a short prefix: a JSON
// error may quote much of the file.
func shortError(err error) string {
	s := err.Error()
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}
