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
// The library refuses members that its format does not define, so a
// program reads a model file by removing the member "command" and giving
// the rest to perceptron.Unmarshal, or to the UnmarshalJSON of a
// classifier of its type, as the command does. What a program writes
// with json.Marshal of a classifier reads as a model file without the
// member: its classes are named by their values, its features are not
// standardised, and the label column of a CSV file is the last, as in
// training.
//
// Files of versions 1 and 2 wrapped the library's form in an object of
// their own, {"format": "perceptron-command-model", ...}. The library's
// form in them is one that the library no longer reads, so the command
// tells such a file apart only to say so.
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
		Format  string `json:"format"`
		Type    string `json:"type"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a model: %v", err)
	}
	switch {
	case head.Format == modelFormat:
		return nil, fmt.Errorf("a model file of the command's old format, version %d, which holds a form of the library's that it no longer reads: train the model again", head.Version)
	case head.Format != "" || head.Type == "":
		return nil, errors.New("not a model file of this command, nor a model of the library: no type")
	}
	m, ok := newModel(strings.ToLower(head.Type), &options{})
	if !ok || reflect.TypeOf(m).Elem().Name() != head.Type {
		return nil, fmt.Errorf("the model is of type %q, which the command does not know: want %s", head.Type, typeNames())
	}
	lib, command, err := splitCommand(data)
	if err != nil {
		return nil, err
	}
	if err := m.UnmarshalJSON(lib); err != nil {
		return nil, errors.New(libError(err))
	}
	s := &saved{classifier: strings.ToLower(head.Type), m: m, features: modelFeatures(m, lib)}
	if command == nil {
		s.bare, s.label, s.classes = true, defaultLabel, valueClasses(m.Classes())
		return s, nil
	}
	var c commandJSON
	dec := json.NewDecoder(bytes.NewReader(command))
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

// splitCommand returns the model file data without its member "command",
// the library's JSON of the classifier, and the member, nil if there is
// none: the library refuses the members that it does not define.
func splitCommand(data []byte) (lib, command json.RawMessage, err error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, nil, fmt.Errorf("not a model: %v", err)
	}
	command, ok := obj["command"]
	if !ok {
		return data, nil, nil
	}
	delete(obj, "command")
	lib, err = json.Marshal(obj)
	return lib, command, err
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
// whose JSON form is lib, which has loaded into m.
func modelFeatures(m model, lib []byte) int {
	if w, ok := m.(interface{ Weights() (w, b []float64) }); ok {
		w, _ := w.Weights()
		return len(w) / numScores(m)
	}
	// Voted has no weights of its own, and a kernel's support vectors may
	// be none: the JSON form tells, by the weights of the first voter and
	// by the kernel's features.
	var j struct {
		Model struct {
			Features int       `json:"features"`
			Weights  []float64 `json:"weights"`
		} `json:"model"`
	}
	json.Unmarshal(lib, &j)
	if j.Model.Features > 0 {
		return j.Model.Features
	}
	return len(j.Model.Weights) / numScores(m)
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
