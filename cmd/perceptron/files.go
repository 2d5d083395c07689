// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
)

// The model file of the command is the library's JSON form of the fitted
// classifier, {"type", "version", "settings", "model", "stats"}, with one
// member more, "command", which holds what the command needs to read rows
// as train read them: the version of the member, the number of features,
// the label column of a CSV file, the labels of the classes in the order
// of the model's class values, whether -pos and -neg picked them, and the
// standardisation of the features, means and scales, or scales alone for
// sparse rows, which are scaled, not centred, or neither. A file whose
// name ends in .gz is gzipped.
//
// A program reads a model file with json.Unmarshal into a classifier of
// its type, which ignores the member. What a program writes with
// json.Marshal of a classifier reads as a model file without the member: its classes are named by
// their values, its features are not standardised, and the label column
// of a CSV file is the last, as in training.
//
// Files of versions 1 and 2 wrapped the library's form in an object of
// their own, {"format": "perceptron-command-model", "version", "classifier",
// "features", "pos", "neg", "label", "mean", "scale", "model"}; version 1
// had no label column, and predict's default for it was none, which such
// a file keeps. They still load, as models of the classes -pos and -neg.
const (
	modelFormat  = "perceptron-command-model"
	modelVersion = 3
)

// commandJSON is the member "command" of a model file.
type commandJSON struct {
	Version  int       `json:"version"`
	Features int       `json:"features"`
	Label    string    `json:"label"`
	Classes  []string  `json:"classes"`
	Picked   bool      `json:"picked"`
	Mean     []float64 `json:"mean"`
	Scale    []float64 `json:"scale"`
}

// oldModelFile is a model file of version 1 or 2.
type oldModelFile struct {
	Format     string          `json:"format"`
	Version    int             `json:"version"`
	Classifier string          `json:"classifier"`
	Features   int             `json:"features"`
	Pos        string          `json:"pos"`
	Neg        string          `json:"neg"`
	Label      string          `json:"label"`
	Mean       []float64       `json:"mean"`
	Scale      []float64       `json:"scale"`
	Model      json.RawMessage `json:"model"`
}

// saved is a model as the command saves and loads it.
type saved struct {
	classifier string
	m          model
	features   int
	classes    *classSet
	label      string  // the -label of training
	sc         *scaler // nil if the features are not standardised

	// bare says that the file is the library's JSON alone.
	bare bool
}

func (s *saved) encode() ([]byte, error) {
	m, err := json.Marshal(s.m)
	if err != nil {
		return nil, err
	}
	c := commandJSON{
		Version:  modelVersion,
		Features: s.features,
		Label:    s.label,
		Classes:  s.classes.names,
		Picked:   s.classes.picked,
	}
	if s.sc != nil {
		c.Mean, c.Scale = s.sc.mean, s.sc.scale
	}
	cb, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	if !bytes.HasSuffix(m, []byte("}")) {
		return nil, fmt.Errorf("the library's JSON of the model is not an object: %.20q", m)
	}
	out := append(m[:len(m)-1:len(m)-1], `,"command":`...)
	out = append(out, cb...)
	return append(out, "}\n"...), nil
}

// modelData returns the model file's bytes for a file at path: gzipped if
// the name ends in .gz.
func (s *saved) modelData(path string) ([]byte, error) {
	data, err := s.encode()
	if err != nil || !isGzipName(path) {
		return data, err
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func isGzipName(path string) bool {
	return strings.HasSuffix(strings.ToLower(path), ".gz")
}

// loadModel reads the model file at path, gzipped or not. A file that
// cannot be opened is a usage error.
func loadModel(path string) (*saved, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usageError{err}
	}
	// JSON never starts with gzip's magic number: the content tells,
	// whatever the name.
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err == nil {
			data, err = io.ReadAll(zr)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	s, err := decodeModel(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

func decodeModel(data []byte) (*saved, error) {
	var head struct {
		Format  string          `json:"format"`
		Type    string          `json:"type"`
		Version int             `json:"version"`
		Command json.RawMessage `json:"command"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a model: %v", err)
	}
	switch {
	case head.Format == modelFormat:
		return decodeOld(data, head.Version)
	case head.Format != "" || head.Type == "":
		return nil, errors.New("not a model file of this command, nor a model of the library: no type")
	}
	m, ok := newModel(strings.ToLower(head.Type), &options{})
	if !ok || reflect.TypeOf(m).Elem().Name() != head.Type {
		return nil, fmt.Errorf("the model is of type %q, which the command does not know: want %s", head.Type, typeNames())
	}
	// The library ignores members beside its own; a misspelt "command"
	// would lose the standardisation without a word.
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, err
	}
	for k := range obj {
		switch k {
		case "type", "version", "settings", "model", "stats", "command":
		default:
			return nil, fmt.Errorf("unknown member %q, want type, version, settings, model, stats and command", k)
		}
	}
	lib := data
	if err := json.Unmarshal(lib, m); err != nil {
		return nil, errors.New(libError(err))
	}
	s := &saved{classifier: strings.ToLower(head.Type), m: m, features: modelFeatures(m, lib)}
	if head.Command == nil {
		s.bare, s.label, s.classes = true, defaultLabel, valueClasses(m.Classes())
		return s, nil
	}
	var c commandJSON
	dec := json.NewDecoder(bytes.NewReader(head.Command))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("member command: %v", err)
	}
	values := m.Classes()
	switch {
	case c.Version != modelVersion:
		return nil, fmt.Errorf("member command of version %d, want %d", c.Version, modelVersion)
	case c.Features != s.features:
		return nil, fmt.Errorf("%s, but the model has %d", plural(c.Features, "feature"), s.features)
	case c.Label == "":
		return nil, errors.New("no label column, want the -label of training")
	case len(c.Classes) != len(values):
		return nil, fmt.Errorf("%d class labels, but the model has %d classes", len(c.Classes), len(values))
	case c.Picked && !slices.Equal(values, []float64{-1, 1}):
		return nil, fmt.Errorf("classes picked by -pos and -neg, but the model's classes are %v, not -1 and +1", values)
	}
	for k, name := range c.Classes {
		if strings.TrimSpace(name) != name || name == "" || slices.Contains(c.Classes[:k], name) {
			return nil, fmt.Errorf("class label %q, want a label that is not empty, without spaces around it, and different from the others", name)
		}
	}
	sc, err := checkScaler(c.Mean, c.Scale, c.Features)
	if err != nil {
		return nil, err
	}
	s.label, s.sc = c.Label, sc
	s.classes = &classSet{names: c.Classes, values: values, picked: c.Picked}
	return s, nil
}

// decodeOld decodes a model file of version 1 or 2.
func decodeOld(data []byte, version int) (*saved, error) {
	if version != 2 && version != 1 {
		return nil, fmt.Errorf("model file version %d, want %d, 2 or 1", version, modelVersion)
	}
	var f oldModelFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	switch {
	case version == 1 && f.Label != "":
		return nil, errors.New("a label column in a model file of version 1, which has none")
	case version == 1:
		f.Label = "none"
	case f.Label == "":
		return nil, errors.New("no label column, want the -label of training")
	}
	switch {
	case f.Features < 1:
		return nil, fmt.Errorf("%d features, want at least 1", f.Features)
	case f.Pos == "" || f.Neg == "" || sameLabel(f.Pos, f.Neg):
		return nil, fmt.Errorf("labels %q and %q, want two different labels", f.Pos, f.Neg)
	}
	sc, err := checkScaler(f.Mean, f.Scale, f.Features)
	if err != nil {
		return nil, err
	}
	m, ok := newModel(f.Classifier, &options{})
	if !ok {
		return nil, fmt.Errorf("classifier %q is not one of %s", f.Classifier, classifierNames())
	}
	// The command names the types itself: the library's message would
	// put "a" before any name.
	var typ struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(f.Model, &typ) == nil && typ.Type != "" {
		if want := reflect.TypeOf(m).Elem().Name(); typ.Type != want {
			return nil, fmt.Errorf("the model is %s %s, not %s %s", article(typ.Type), typ.Type, article(want), want)
		}
	}
	if err := json.Unmarshal(f.Model, m); err != nil {
		return nil, errors.New(libError(err))
	}
	if d := modelFeatures(m, f.Model); d != f.Features {
		return nil, fmt.Errorf("%s, but the model has %d", plural(f.Features, "feature"), d)
	}
	if values := m.Classes(); !slices.Equal(values, []float64{-1, 1}) {
		return nil, fmt.Errorf("the model's classes are %v, want -1 and +1", values)
	}
	return &saved{classifier: f.Classifier, m: m, features: f.Features, classes: pickedClasses(f.Pos, f.Neg), label: f.Label, sc: sc}, nil
}

// checkScaler returns the standardisation of means and scales of d
// features, or nil if there are none, or an error if they are not one.
func checkScaler(mean, scale []float64, d int) (*scaler, error) {
	if scale != nil && len(scale) != d || mean != nil && len(mean) != len(scale) {
		return nil, fmt.Errorf("standardisation of %d means and %d scales, want %d scales, and as many means or none", len(mean), len(scale), d)
	}
	for j, v := range scale {
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("scale %d is %v, want a finite number > 0", j+1, v)
		}
	}
	for j, v := range mean {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("mean %d is %v, want a finite number", j+1, v)
		}
	}
	if scale == nil {
		return nil, nil
	}
	return &scaler{mean: mean, scale: scale}, nil
}

// modelFeatures returns the number of features of the rows that m scores,
// whose JSON form is lib.
func modelFeatures(m model, lib []byte) int {
	if w, ok := m.(interface{ Weights() []float64 }); ok {
		return len(w.Weights()) / numScores(m)
	}
	// A kernel's support vectors may be none: its JSON form tells.
	var k struct {
		Model struct {
			Features int `json:"features"`
		} `json:"model"`
	}
	json.Unmarshal(lib, &k)
	return k.Model.Features
}

// typeNames returns the types of the library's classifiers that the
// command knows, for messages.
func typeNames() string {
	var names []string
	for _, c := range classifiers {
		m, _ := newModel(c.name, &options{})
		names = append(names, reflect.TypeOf(m).Elem().Name())
	}
	return joinWords(names, "or")
}
