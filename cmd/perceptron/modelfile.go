// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
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

// loadModel reads the model file at path, gzipped or not, streaming: it
// refuses at once what is not JSON, and a file whose text is longer than
// the memory available allows.
func loadModel(path string) (*saved, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	avail, _ := memoryAvailable()
	s, err := readModel(f, modelLimit(avail))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// modelTextCost is the memory that loading a model takes per byte of its
// text: the text, its members, the library's part once more, and the
// numbers parsed.
const modelTextCost = 5

// modelLimit returns the longest text of a model file that loads in the
// memory avail.
func modelLimit(avail uint64) int64 {
	return int64(min(avail/modelTextCost, math.MaxInt64))
}

// tooLong is the error of a model file longer than the limit.
type tooLong struct{ limit int64 }

func (e tooLong) Error() string {
	return fmt.Sprintf("the model's text is longer than %s, as much as loading it can take in the memory available", bytesize(uint64(e.limit)))
}

// limitReader reads from r until limit bytes have been read, and then
// fails with tooLong.
type limitReader struct {
	r     io.Reader
	limit int64
	n     int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n >= l.limit {
		// One byte more tells a file of limit bytes from a longer one.
		var b [1]byte
		n, err := io.ReadFull(l.r, b[:])
		if n > 0 {
			return 0, tooLong{l.limit}
		}
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		return 0, err
	}
	if rest := l.limit - l.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := l.r.Read(p)
	l.n += int64(n)
	return n, err
}

// readModel reads a model file from r, gzipped or not, of at most limit
// bytes of text.
func readModel(r io.Reader, limit int64) (*saved, error) {
	br := bufio.NewReader(r)
	var in io.Reader = br
	if magic, _ := br.Peek(2); string(magic) == "\x1f\x8b" {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		in = zr
	}
	dec := json.NewDecoder(&limitReader{r: in, limit: limit})
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		if errors.As(err, new(tooLong)) {
			return nil, err
		}
		return nil, fmt.Errorf("not a model: %s", shortError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		if errors.As(err, new(tooLong)) {
			return nil, err
		}
		return nil, errors.New("not a model: more after the object")
	}
	return decodeModel(obj)
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

// decodeModel returns the model of the members of a model file.
func decodeModel(obj map[string]json.RawMessage) (*saved, error) {
	if obj == nil {
		return nil, errors.New("not a model: not an object")
	}
	if _, ok := obj["format"]; ok {
		return nil, errors.New("a model file of the command's old format, which holds a form of the library's that it no longer reads: train the model again")
	}
	var typ string
	if err := json.Unmarshal(obj["type"], &typ); err != nil || typ == "" {
		return nil, errors.New("not a model file of this command, nor a model of the library: no type")
	}
	m, ok := newModel(strings.ToLower(typ), &options{})
	if !ok || reflect.TypeOf(m).Elem().Name() != typ {
		return nil, fmt.Errorf("the model is of type %s, which the command does not know: want %s", quote(typ), typeNames())
	}
	command, hasCommand := obj["command"]
	delete(obj, "command")
	lib, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("not a model: %v", err)
	}
	if err := m.UnmarshalJSON(lib); err != nil {
		return nil, errors.New(libError(err))
	}
	s := &saved{classifier: strings.ToLower(typ), m: m, features: modelFeatures(m, lib)}
	if !hasCommand {
		s.bare, s.label, s.classes = true, defaultLabel, valueClasses(m.Classes())
		return s, nil
	}
	var c commandJSON
	dec := json.NewDecoder(bytes.NewReader(command))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("member command: %s", shortError(err))
	}
	values := m.Classes()
	switch {
	case c.Version != modelVersion:
		return nil, fmt.Errorf("member command of version %d, want %d: train the model again", c.Version, modelVersion)
	case c.Features != s.features:
		return nil, fmt.Errorf("%s, but the model has %d", plural(c.Features, "feature"), s.features)
	case c.Label == "" || !validText(c.Label):
		return nil, errors.New("no label column, want the -label of training")
	case len(c.Classes) != len(values):
		return nil, fmt.Errorf("%d class labels, but the model has %d classes", len(c.Classes), len(values))
	case c.Names != nil && len(c.Names) != len(values):
		return nil, fmt.Errorf("%d class names, but the model has %d classes", len(c.Names), len(values))
	case c.Picked && !slices.Equal(values, []float64{-1, 1}):
		return nil, fmt.Errorf("classes picked by -pos and -neg, but the model's classes are %v, not -1 and +1", values)
	case !(c.RMS >= 0 && c.RMS <= math.MaxFloat64):
		return nil, fmt.Errorf("rms %v, want a finite number >= 0", c.RMS)
	}
	if err := checkLabels("class label", c.Classes, sameLabel); err != nil {
		return nil, err
	}
	if c.Names == nil {
		c.Names = c.Classes
	} else if err := checkLabels("class name", c.Names, func(a, b string) bool { return a == b }); err != nil {
		return nil, err
	}
	sc, err := checkScaler(c.Mean, c.Scale, c.Features)
	if err != nil {
		return nil, err
	}
	s.label, s.sc, s.rms = c.Label, sc, c.RMS
	s.classes = &classSet{labels: c.Classes, names: c.Names, values: values, picked: c.Picked}
	return s, nil
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
