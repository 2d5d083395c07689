// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// A fitted classifier saves as one JSON object of the same shape for every
// type:
//
//	{"type": "Perceptron", "version": 2,
//	 "settings": {...}, "model": {...}, "stats": {...}}
//
// The type and version come first so that a reader can tell what a file is
// before it decodes the rest. Each type has its own version, raised when
// its settings or model change form, so that a change to one type leaves
// the files of the others readable. Floats are written in the shortest form
// that reads back to the same bits, so a loaded model predicts exactly as
// the saved one did.

// modelJSON is the JSON form of a fitted classifier with settings S and
// model M.
type modelJSON[S, M any] struct {
	Type     string    `json:"type"`
	Version  int       `json:"version"`
	Settings S         `json:"settings"`
	Model    M         `json:"model"`
	Stats    statsJSON `json:"stats"`
}

// statsJSON is the JSON form of Stats.
type statsJSON struct {
	Epochs        int   `json:"epochs"`
	Converged     bool  `json:"converged"`
	Mistakes      int   `json:"mistakes"`
	EpochMistakes []int `json:"epochMistakes"`
}

// settingsJSON is the JSON form of the settings that all classifiers share.
// Rand and OnUpdate are not data, and are not saved. Format version 1 of
// every type had no labels.
type settingsJSON struct {
	Epochs      int       `json:"epochs"`
	Rate        float64   `json:"rate"`
	NoBias      bool      `json:"noBias"`
	InitWeights []float64 `json:"initWeights"`
	InitBias    float64   `json:"initBias"`
	Labels      []float64 `json:"labels"`
}

func (s settings) json() settingsJSON {
	return settingsJSON{
		Epochs:      s.epochs,
		Rate:        s.rate,
		NoBias:      s.noBias,
		InitWeights: s.w0,
		InitBias:    s.b0,
		Labels:      s.labels,
	}
}

func (j settingsJSON) settings() settings {
	return settings{
		epochs: j.Epochs,
		rate:   j.Rate,
		noBias: j.NoBias,
		w0:     j.InitWeights,
		b0:     j.InitBias,
		labels: j.Labels,
	}
}

// linearJSON is the JSON form of a linear model, laid out as Weights and
// Biases lay it out.
type linearJSON struct {
	Weights []float64 `json:"weights"`
	Biases  []float64 `json:"biases"`
}

// linearV1 is the JSON form of a hyperplane in format version 1, whose
// classes were -1 and +1.
type linearV1 struct {
	Weights []float64 `json:"weights"`
	Bias    float64   `json:"bias"`
}

func (l linearV1) linear() linearJSON {
	return linearJSON{Weights: l.Weights, Biases: []float64{l.Bias}}
}

// loadLinear checks a decoded linear model of the classes and the settings
// it was trained with, and returns the model.
func loadLinear(typ string, s settingsJSON, classes []float64, m linearJSON) (linear, error) {
	S := len(m.Biases)
	switch {
	case S != scores(classes):
		return linear{}, fmt.Errorf("perceptron: %s model has %d biases for %d classes, want %d", typ, S, len(classes), scores(classes))
	case len(m.Weights) == 0 || len(m.Weights)%S != 0:
		return linear{}, fmt.Errorf("perceptron: %s model has %d weights for %d biases, want a multiple, at least 1", typ, len(m.Weights), S)
	case s.NoBias && nonZero(m.Biases):
		return linear{}, fmt.Errorf("perceptron: %s model has biases %v with noBias set, want 0", typ, m.Biases)
	}
	if _, err := s.settings().resolve(len(m.Weights)/S, S); err != nil {
		return linear{}, err
	}
	return linear{w: m.Weights, b: m.Biases}, nil
}

// loadClasses checks decoded classes, which must be finite, ascending and
// at least two.
func loadClasses(typ string, classes []float64) error {
	if j := nonFinite(classes); j >= 0 {
		return fmt.Errorf("perceptron: %s model's class %d is %v, want a finite value", typ, j, classes[j])
	}
	if len(classes) < 2 || !slices.IsSorted(classes) || len(slices.Compact(slices.Clone(classes))) != len(classes) {
		return fmt.Errorf("perceptron: %s model has classes %v, want at least two, ascending", typ, classes)
	}
	return nil
}

// rowsJSON is the compact JSON form of stored rows, exact to the bit:
// Values holds their float64s, little-endian, in base64. Dense rows hold
// every value, one row after another; the elements of sparse row i are
// the Values from Starts[i] up to Starts[i+1], at the columns Indices.
type rowsJSON struct {
	Rows    int        `json:"rows"`
	Cols    int        `json:"cols"`
	Sparse  bool       `json:"sparse"`
	Starts  []int      `json:"starts,omitempty"`
	Indices []int      `json:"indices,omitempty"`
	Values  floatsJSON `json:"values"`
}

// rowsToJSON returns the JSON form of the store r.
func rowsToJSON(r *rows) rowsJSON {
	j := rowsJSON{Rows: r.n, Cols: r.d, Sparse: r.sparse()}
	if !j.Sparse {
		j.Values = r.data[:r.n*r.d]
		return j
	}
	lo, hi := r.ptr[0], r.ptr[r.n]
	j.Starts = make([]int, r.n+1)
	for i, p := range r.ptr[:r.n+1] {
		j.Starts[i] = p - lo
	}
	j.Indices, j.Values = r.ind[lo:hi], r.data[lo:hi]
	return j
}

// rows returns the store that j describes, or an error naming what is
// wrong with it; what names the rows in the error.
func (j *rowsJSON) rows(what string) (*rows, error) {
	switch {
	case j.Rows < 0 || j.Cols < 1:
		return nil, fmt.Errorf("%s: %d rows of %d columns, want at least 1 column", what, j.Rows, j.Cols)
	case !j.Sparse && len(j.Values) != j.Rows*j.Cols:
		return nil, fmt.Errorf("%s: %d values for %d rows of %d, want as many", what, len(j.Values), j.Rows, j.Cols)
	case !j.Sparse && (j.Starts != nil || j.Indices != nil):
		return nil, fmt.Errorf("%s: dense rows with starts or indices", what)
	case j.Sparse && len(j.Starts) != j.Rows+1:
		return nil, fmt.Errorf("%s: %d starts for %d sparse rows, want one more", what, len(j.Starts), j.Rows)
	case j.Sparse && (j.Starts[0] != 0 || j.Starts[j.Rows] != len(j.Values) || len(j.Indices) != len(j.Values)):
		return nil, fmt.Errorf("%s: starts from %d to %d for %d indices and %d values, want from 0 to as many as both", what, j.Starts[0], j.Starts[j.Rows], len(j.Indices), len(j.Values))
	}
	if j.Sparse {
		for i := range j.Rows {
			lo, hi := j.Starts[i], j.Starts[i+1]
			if hi < lo || hi > len(j.Values) {
				return nil, fmt.Errorf("%s: row %d spans [%d, %d)", what, i, lo, hi)
			}
			if err := checkSparseRow(j.Indices[lo:hi], j.Values[lo:hi], j.Cols); err != nil {
				return nil, fmt.Errorf("%s: row %d: %v", what, i, err)
			}
		}
		return &rows{n: j.Rows, d: j.Cols, ptr: j.Starts, ind: j.Indices, data: j.Values}, nil
	}
	if k := nonFinite(j.Values); k >= 0 {
		return nil, fmt.Errorf("%s: row %d: column %d is %v, want a finite value", what, k/j.Cols, k%j.Cols, j.Values[k])
	}
	return &rows{n: j.Rows, d: j.Cols, stride: j.Cols, data: j.Values}, nil
}

// denseRows returns rows given as slices of d values, as format version 1
// of Voted and Kernel saved them, or an error naming what is wrong.
func denseRows(x [][]float64, d int, what string) (*rows, error) {
	r := newRows(d, len(x), false)
	for i, xi := range x {
		if len(xi) != d {
			return nil, fmt.Errorf("%s %d has length %d, want %d", what, i, len(xi), d)
		}
		r.append(vec{val: xi})
	}
	return r, nil
}

// floatsJSON is float64s in JSON as their little-endian bytes in base64:
// exact, and about half as long as the shortest decimals of most values.
type floatsJSON []float64

func (f floatsJSON) MarshalJSON() ([]byte, error) {
	b := make([]byte, 8*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return json.Marshal(b)
}

func (f *floatsJSON) UnmarshalJSON(data []byte) error {
	var b []byte
	if err := json.Unmarshal(data, &b); err != nil {
		return err
	}
	if len(b)%8 != 0 {
		return fmt.Errorf("%d bytes of float64s, want a multiple of 8", len(b))
	}
	v := make(floatsJSON, len(b)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	*f = v
	return nil
}

// marshalModel returns the JSON form of a fitted classifier of type typ.
func marshalModel[S, M any](typ string, version int, s S, m M, st Stats) ([]byte, error) {
	return json.Marshal(modelJSON[S, M]{
		Type:     typ,
		Version:  version,
		Settings: s,
		Model:    m,
		Stats:    statsJSON(st),
	})
}

// modelVersion returns the format version of the JSON form of a fitted
// classifier of type typ, or an error if data is not such a form.
func modelVersion(data []byte, typ string) (int, error) {
	var head struct {
		Type    string `json:"type"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return 0, fmt.Errorf("perceptron: not %s model: %v", article(typ), err)
	}
	switch {
	case head.Type == "":
		return 0, fmt.Errorf("perceptron: not %s model: no type", article(typ))
	case head.Type != typ:
		return 0, fmt.Errorf("perceptron: the model is %s, not %s", article(head.Type), article(typ))
	}
	return head.Version, nil
}

// article returns the name of a classifier type with its indefinite
// article.
func article(typ string) string {
	if strings.ContainsRune("AEIOU", rune(typ[0])) {
		return "an " + typ
	}
	return "a " + typ
}

// unmarshalModel decodes the JSON form of a fitted classifier of type typ
// and the given version into s and m, and returns its checked Stats. It
// rejects unknown fields within the settings, the model and the stats, so
// that a misspelt or foreign file is not read as a model with default
// values, and ignores other members beside them, so that a program can
// keep its own data in the same file. It leaves s and m alone on error.
func unmarshalModel[S, M any](data []byte, typ string, version int, s *S, m *M) (Stats, error) {
	v0, err := modelVersion(data, typ)
	if err != nil {
		return Stats{}, err
	}
	if v0 != version {
		return Stats{}, fmt.Errorf("perceptron: %s model format version %d, want %d", typ, v0, version)
	}
	var raw struct {
		Settings, Model, Stats json.RawMessage
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Stats{}, fmt.Errorf("perceptron: %s model: %v", typ, err)
	}
	var v modelJSON[S, M]
	for _, part := range []struct {
		raw json.RawMessage
		dst any
	}{{raw.Settings, &v.Settings}, {raw.Model, &v.Model}, {raw.Stats, &v.Stats}} {
		if part.raw == nil {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(part.raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(part.dst); err != nil {
			return Stats{}, fmt.Errorf("perceptron: %s model: %v", typ, err)
		}
	}
	st := Stats(v.Stats)
	if err := st.check(); err != nil {
		return Stats{}, fmt.Errorf("perceptron: %s model: %v", typ, err)
	}
	*s, *m = v.Settings, v.Model
	return st, nil
}

// check returns an error if s is not a description that Fit could have
// produced.
func (s Stats) check() error {
	if s.Epochs < 0 || len(s.EpochMistakes) != s.Epochs {
		return fmt.Errorf("stats: %d epochs with %d epoch mistake counts", s.Epochs, len(s.EpochMistakes))
	}
	sum := 0
	for e, m := range s.EpochMistakes {
		if m < 0 {
			return fmt.Errorf("stats: epoch %d has %d mistakes", e+1, m)
		}
		sum += m
	}
	switch {
	case s.Mistakes != sum:
		return fmt.Errorf("stats: %d mistakes, but the epochs made %d", s.Mistakes, sum)
	case s.Converged && (s.Epochs == 0 || s.EpochMistakes[s.Epochs-1] != 0):
		return errors.New("stats: converged, but the last epoch made mistakes")
	}
	return nil
}
