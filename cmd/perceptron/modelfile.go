// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron/data"
)

// The model file of the command is the library's JSON form of the fitted
// classifier, {"type", "version", "settings", "model", "stats"}, with one
// member more, "command", which holds what the command needs to read rows
// as train read them: the version of the member, the number of features,
// the label column of a CSV file, the labels of the classes in the order
// of the model's class values and the names that -classes gave them,
// whether -pos and -neg picked them, the standardisation of the features,
// means and scales, or scales alone for sparse rows, which are scaled,
// not centred, or neither, and the root mean square of the training
// values as the classifier saw them. A file whose name ends in .gz is
// gzipped.
//
// The library refuses members that its format does not define, and says
// how to load a file with "command": a program removes the member and
// gives the rest to perceptron.Unmarshal, as the command does. What a
// program writes with json.Marshal of a classifier reads as a model file
// without the member: its classes are named by their values, its
// features are not standardised, and the label column of a CSV file is
// the last, as in training.
const (
	oldModelFormat = "perceptron-command-model"
	modelVersion   = 4
)

// commandJSON is the member "command" of a model file.
type commandJSON struct {
	Version  int       `json:"version"`
	Features int       `json:"features"`
	Label    string    `json:"label"`
	Classes  []string  `json:"classes"`
	Names    []string  `json:"names,omitempty"`
	Picked   bool      `json:"picked"`
	Mean     []float64 `json:"mean"`
	Scale    []float64 `json:"scale"`
	RMS      float64   `json:"rms"`
}

// saved is a model as the command saves and loads it.
type saved struct {
	classifier string
	m          model
	features   int
	classes    *classSet
	label      string       // the -label of training
	sc         *data.Scaler // nil if the features are not standardised

	// rms is the root mean square of the values of the training rows,
	// zeros included, as the classifier saw them, or 0 if not known.
	rms float64

	// bare says that the file is the library's JSON alone.
	bare bool
}

// write writes the model file to w: the library's JSON of the
// classifier, with the member "command" added before its end.
func (s *saved) write(w io.Writer) error {
	lib, err := s.m.MarshalJSON()
	if err != nil {
		return err
	}
	if !bytes.HasSuffix(lib, []byte("}")) {
		return fmt.Errorf("the library's JSON of the model is not an object: %.20q", lib)
	}
	c := commandJSON{
		Version:  modelVersion,
		Features: s.features,
		Label:    s.label,
		Classes:  s.classes.labels,
		Picked:   s.classes.picked,
		RMS:      s.rms,
	}
	if !slices.Equal(s.classes.names, s.classes.labels) {
		c.Names = s.classes.names
	}
	if s.sc != nil {
		c.Mean, c.Scale = s.sc.Mean, s.sc.Scale
	}
	cb, err := json.Marshal(c)
	if err != nil {
		return err
	}
	for _, b := range [][]byte{lib[:len(lib)-1], []byte(`,"command":`), cb, []byte("}\n")} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// writer returns the function that writes the model file at path: gzipped
// if the name ends in .gz.
func (s *saved) writer(path string) func(io.Writer) error {
	if !strings.HasSuffix(strings.ToLower(path), ".gz") {
		return s.write
	}
	return func(w io.Writer) error {
		zw := gzip.NewWriter(w)
		if err := s.write(zw); err != nil {
			return err
		}
		return zw.Close()
	}
}

// encode returns the model file's bytes, for tests.
func (s *saved) encode() ([]byte, error) {
	var b bytes.Buffer
	err := s.write(&b)
	return b.Bytes(), err
}

// validText reports whether s is a label or a name as the readers give
// them: not empty, UTF-8 of one line without tabs, and without spaces
// around it, which the readers trim.
func validText(s string) bool {
	return s != "" && utf8.ValidString(s) && !strings.ContainsAny(s, "\t\r\n") && strings.TrimSpace(s) == s
}

// checkLabels returns an error if a label is not valid text or is the
// same as one before it.
func checkLabels(what string, labels []string, same func(a, b string) bool) error {
	for k, l := range labels {
		if !validText(l) {
			return fmt.Errorf("%s %s, want text of one line, not empty, without tabs or spaces around it", what, quote(l))
		}
		if slices.ContainsFunc(labels[:k], func(m string) bool { return same(l, m) }) {
			return fmt.Errorf("%s %s twice", what, quote(l))
		}
	}
	return nil
}

// checkScaler returns the standardisation of means and scales of d
// features, or nil if there are none, or an error if they are not one.
func checkScaler(mean, scale []float64, d int) (*data.Scaler, error) {
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
	return &data.Scaler{Mean: mean, Scale: scale}, nil
}
