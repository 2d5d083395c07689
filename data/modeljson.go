// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
	"github.com/seed5ae3614e/perceptron/internal/memory"
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
	d, _ := modelFeatures(lib)
	if err := m.fitsWidth(d); err != nil {
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
	notModel := func(format string, args ...any) error {
		return errorf(perceptron.ErrFormat, "not a model: "+format, args...)
	}
	if !jsonscan.Valid(text) {
		// Unmarshal names the offset of the first error.
		return nil, notModel("%s", shortError(json.Unmarshal(text, new(struct{}))))
	}
	members, err := jsonscan.Members(text)
	if err != nil {
		return nil, notModel("%v", err)
	}
	by := map[string]jsonscan.Member{}
	for _, m := range members {
		if _, ok := by[m.Name]; ok {
			return nil, notModel("the member %s twice", quote(m.Name))
		}
		by[m.Name] = m
	}
	if _, ok := by["format"]; ok {
		return nil, errorf(perceptron.ErrFormat, "a model file of the command's old format, which holds a form of the library's that is no longer read: train the model again")
	}
	if c, ok := by["classifier"]; ok {
		return decodePipeline(text, c.Of(text), members)
	}
	if _, ok := by["type"]; !ok {
		return nil, notModel("no member classifier, nor type, as the library's JSON of a classifier has")
	}
	lib := text
	var old *commandJSON
	if cm, ok := by["command"]; ok {
		if old, err = decodeCommand(cm.Of(text)); err != nil {
			return nil, err
		}
		lib = jsonscan.Remove(text, members, slices.Index(members, cm))
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

// decodePipeline returns the Model of a file of the package's own form,
// whose members are those of the text and whose classifier's JSON is lib.
func decodePipeline(text, lib []byte, members []jsonscan.Member) (*Model, error) {
	if err := checkMembers("", text, members, reflect.TypeFor[modelJSON](), "classifier"); err != nil {
		return nil, err
	}
	// Each member but the classifier is decoded from its place in the
	// text, without a copy. The scaler's numbers, the bulk of the rest,
	// go into slices made to their length, 8 bytes a number, which
	// encoding/json fills without growing them; the names hold at most
	// twice their text.
	var mj modelJSON
	var names float64
	mean, scale := -1, -1 // the lengths of the scaler's arrays, if it has them
	for _, m := range members {
		switch m.Name {
		case "classifier":
		case "scaler":
			inner, err := jsonscan.Members(m.Of(text))
			if err != nil {
				return nil, errorf(perceptron.ErrFormat, "not a model: scaler: %v", err)
			}
			for _, f := range inner {
				switch f.Name {
				case "mean":
					mean = jsonscan.Length(f.Of(m.Of(text)))
				case "scale":
					scale = jsonscan.Length(f.Of(m.Of(text)))
				}
			}
		case "calibration":
			// A number of at least two bytes of text, in a slice that
			// grows as append grows it.
			names += 8 * float64(m.End-m.Key)
		default:
			names += float64(m.End - m.Key)
		}
	}
	if err := memory.Check(8*float64(max(mean, 0)+max(scale, 0)) + 2*names); err != nil {
		head := float64(len(text) - len(lib))
		return nil, tooLarge(err, "reading the %s of the model besides its classifier:", memory.Bytes(head))
	}
	if slices.ContainsFunc(members, func(m jsonscan.Member) bool { return m.Name == "scaler" }) {
		mj.Scaler = new(scalerJSON)
		if mean >= 0 {
			mj.Scaler.Mean = make([]float64, 0, mean)
		}
		if scale >= 0 {
			mj.Scaler.Scale = make([]float64, 0, scale)
		}
	}
	fields := jsonscan.Fields(reflect.TypeFor[modelJSON]())
	for _, m := range members {
		if m.Name == "classifier" {
			continue
		}
		// A member that strictMembers has accepted decodes into its
		// field; the scaler into the scalerJSON made for it.
		k := slices.IndexFunc(fields, func(f jsonscan.Field) bool { return f.Name == m.Name })
		if k < 0 {
			panic("data: modelJSON has no field " + m.Name + ", which strictMembers accepted")
		}
		into := reflect.ValueOf(&mj).Elem().FieldByIndex(fields[k].Index).Addr().Interface()
		if m.Name == "scaler" {
			into = mj.Scaler
		}
		if err := json.Unmarshal(m.Of(text), into); err != nil {
			return nil, errorf(perceptron.ErrFormat, "not a model: %s: %s", m.Name, shortError(err))
		}
	}
	if mj.Version != modelVersion {
		return nil, errorf(perceptron.ErrFormat, "a model of version %d, want %d", mj.Version, modelVersion)
	}
	c, d, err := loadClassifier(lib)
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

// modelFeatures returns the number of features of the rows that the
// classifier of the library's JSON lib scores, which has loaded: the
// "features" of its "model", or the length of its "weights" over that of
// its "biases", or that of the first of its "models" for OneVsRest. A
// Scorer does not tell it; loadClassifier checks it with accepts. It reads
// lib once, up to the end of the model, and no further.
func modelFeatures(lib []byte) (int, bool) {
	return classifierFeatures(&jsonscan.Scanner{Text: lib})
}

// classifierFeatures is modelFeatures of the classifier's JSON at s.I,
// the first of its members named "model".
func classifierFeatures(s *jsonscan.Scanner) (int, bool) {
	if !isObject(s) {
		return 0, false
	}
	for s.Next() {
		name, err := s.Name()
		if err != nil {
			return 0, false
		}
		if name == "model" {
			return features(s)
		}
		s.Skip()
	}
	return 0, false
}

// features is modelFeatures of the JSON of a classifier's model at s.I.
func features(s *jsonscan.Scanner) (int, bool) {
	if !isObject(s) {
		return 0, false
	}
	length := map[string]int{}
	for s.Next() {
		name, err := s.Name()
		if err != nil {
			return 0, false
		}
		switch name {
		case "features":
			start := s.I
			s.Skip()
			var d int
			err := json.Unmarshal(s.Text[start:s.I], &d)
			return d, err == nil
		case "weights", "biases", "sumWeights", "sumBiases":
			length[name] = arrayLength(s)
		case "models":
			// The first classifier of OneVsRest, an object in an array.
			if s.Next() && s.Text[s.I] == '{' {
				return classifierFeatures(s)
			}
			return 0, false
		default:
			s.Skip()
		}
	}
	if length["biases"] == 0 {
		// An Averaged that holds what its predictions read alone.
		length["weights"], length["biases"] = length["sumWeights"], length["sumBiases"]
	}
	if length["biases"] == 0 {
		return 0, false
	}
	return length["weights"] / length["biases"], true
}

// isObject reports whether the value at s.I, after white space, is an
// object.
func isObject(s *jsonscan.Scanner) bool {
	s.Space()
	return s.I < len(s.Text) && s.Text[s.I] == '{'
}

// arrayLength returns the number of elements of the value at s.I, as
// jsonscan.Length does, or 0 if it is not an array, and moves past it.
func arrayLength(s *jsonscan.Scanner) int {
	s.Space()
	if s.I == len(s.Text) || s.Text[s.I] != '[' {
		s.Skip()
		return 0
	}
	n := 0
	for ; s.Next(); n++ {
		s.Skip()
	}
	return n
}

// strictMembers returns an error if the JSON object text, valid JSON, has
// a member that is not the JSON name of a field of the struct type t, nor
// one of more, or a member twice, by its exact name, here or in an object
// that a field of struct type holds; what names the object in messages.
func strictMembers(what string, text []byte, t reflect.Type, more ...string) error {
	members, err := jsonscan.Members(text)
	if err != nil {
		return errorf(perceptron.ErrFormat, "%s%v", what, err)
	}
	return checkMembers(what, text, members, t, more...)
}

// checkMembers is strictMembers of the members of text, which
// jsonscan.Members gave.
func checkMembers(what string, text []byte, members []jsonscan.Member, t reflect.Type, more ...string) error {
	fields := jsonscan.Fields(t)
	for k, m := range members {
		f := slices.IndexFunc(fields, func(f jsonscan.Field) bool { return f.Name == m.Name })
		switch {
		case slices.Contains(more, m.Name):
			continue
		case f < 0:
			return errorf(perceptron.ErrFormat, "%sunknown member %s", what, quote(m.Name))
		case slices.ContainsFunc(members[:k], func(o jsonscan.Member) bool { return o.Name == m.Name }):
			return errorf(perceptron.ErrFormat, "%sthe member %s twice", what, quote(m.Name))
		}
		ft := t.FieldByIndex(fields[f].Index).Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if v := m.Of(text); ft.Kind() == reflect.Struct && v[0] == '{' {
			if err := strictMembers(what+m.Name+": ", v, ft); err != nil {
				return err
			}
		}
	}
	return nil
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
