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
	"strings"

	"github.com/seed5ae3614e/perceptron"
)

// The model file of the command holds the library's JSON form of the
// fitted classifier and what the command needs to read rows as it did in
// training: the number of features, the labels that +1 and -1 stand for,
// the standardisation of the features, and the label column of a CSV file.
// A file whose name ends in .gz is gzipped.
//
// Version 1 had no label column; predict's default for it was none, which
// such a file keeps. A model trained on sparse rows has scales and no
// means: its features are scaled, not centred.
const (
	modelFormat  = "perceptron-command-model"
	modelVersion = 2
)

type modelFile struct {
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
	pos, neg   string
	label      string  // the -label of training
	sc         *scaler // nil if the features are not standardised
}

func (s *saved) encode() ([]byte, error) {
	m, err := json.Marshal(s.m)
	if err != nil {
		return nil, err
	}
	f := modelFile{
		Format:     modelFormat,
		Version:    modelVersion,
		Classifier: s.classifier,
		Features:   s.features,
		Pos:        s.pos,
		Neg:        s.neg,
		Label:      s.label,
		Model:      m,
	}
	if s.sc != nil {
		f.Mean, f.Scale = s.sc.mean, s.sc.scale
	}
	data, err := json.Marshal(f)
	return append(data, '\n'), err
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
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil || head.Format != modelFormat {
		return nil, errors.New("not a model file of this command")
	}
	if head.Version != modelVersion && head.Version != 1 {
		return nil, fmt.Errorf("model file version %d, want %d or 1", head.Version, modelVersion)
	}
	var f modelFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	switch {
	case head.Version == 1 && f.Label != "":
		return nil, errors.New("a label column in a model file of version 1, which has none")
	case head.Version == 1:
		f.Label = "none"
	case f.Label == "":
		return nil, errors.New("no label column, want the -label of training")
	case f.Features < 1:
		return nil, fmt.Errorf("%d features, want at least 1", f.Features)
	case f.Pos == "" || f.Neg == "" || sameLabel(f.Pos, f.Neg):
		return nil, fmt.Errorf("labels %q and %q, want two different labels", f.Pos, f.Neg)
	case f.Scale != nil && len(f.Scale) != f.Features || f.Mean != nil && len(f.Mean) != len(f.Scale):
		return nil, fmt.Errorf("standardisation of %d means and %d scales, want %d scales, and as many means or none", len(f.Mean), len(f.Scale), f.Features)
	}
	for j, v := range f.Scale {
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("scale %d is %v, want a finite number > 0", j+1, v)
		}
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
	if !takes(m, f.Features) {
		return nil, fmt.Errorf("the %s model does not take %d features", f.Classifier, f.Features)
	}
	s := &saved{classifier: f.Classifier, m: m, features: f.Features, pos: f.Pos, neg: f.Neg, label: f.Label}
	if f.Scale != nil {
		s.sc = &scaler{mean: f.Mean, scale: f.Scale}
	}
	return s, nil
}

// takes reports whether m scores rows of d features. The classifiers
// panic on rows of the wrong width, and have no other way to tell. The row
// is sparse: d may be large.
func takes(m model, d int) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	zero, err := perceptron.NewCSR(1, d, []int{0, 0}, nil, nil)
	if err != nil {
		return false
	}
	m.ScoreRows(nil, zero)
	return true
}
