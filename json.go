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
	"strings"
)

// A fitted classifier saves as one JSON object of the same shape for every
// type:
//
//	{"type": "Perceptron", "version": 1,
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
// Rand and OnUpdate are not data, and are not saved.
type settingsJSON struct {
	Epochs      int       `json:"epochs"`
	Rate        float64   `json:"rate"`
	NoBias      bool      `json:"noBias"`
	InitWeights []float64 `json:"initWeights"`
	InitBias    float64   `json:"initBias"`
}

// linearJSON is the JSON form of a hyperplane.
type linearJSON struct {
	Weights []float64 `json:"weights"`
	Bias    float64   `json:"bias"`
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
// rejects unknown fields, so that a misspelt or foreign file is not read as
// a model with default values. It leaves s and m alone on error.
func unmarshalModel[S, M any](data []byte, typ string, version int, s *S, m *M) (Stats, error) {
	v0, err := modelVersion(data, typ)
	if err != nil {
		return Stats{}, err
	}
	if v0 != version {
		return Stats{}, fmt.Errorf("perceptron: %s model format version %d, want %d", typ, v0, version)
	}
	var v modelJSON[S, M]
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return Stats{}, fmt.Errorf("perceptron: %s model: %v", typ, err)
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

func (s settings) json() settingsJSON {
	return settingsJSON{
		Epochs:      s.epochs,
		Rate:        s.rate,
		NoBias:      s.noBias,
		InitWeights: s.w0,
		InitBias:    s.b0,
	}
}

func (j settingsJSON) settings() settings {
	return settings{
		epochs: j.Epochs,
		rate:   j.Rate,
		noBias: j.NoBias,
		w0:     j.InitWeights,
		b0:     j.InitBias,
	}
}

// loadLinear checks a decoded hyperplane and the settings it was trained
// with, and returns the hyperplane.
func loadLinear(typ string, s settingsJSON, m linearJSON) (linear, error) {
	switch {
	case len(m.Weights) == 0:
		return linear{}, fmt.Errorf("perceptron: %s model has no weights", typ)
	case s.NoBias && m.Bias != 0:
		return linear{}, fmt.Errorf("perceptron: %s model has bias %v with noBias set, want 0", typ, m.Bias)
	}
	if _, err := s.settings().resolve(len(m.Weights)); err != nil {
		return linear{}, err
	}
	return linear{w: m.Weights, b: m.Bias}, nil
}

// perceptronVersion is the version of the JSON form of Perceptron.
const perceptronVersion = 1

// MarshalJSON returns the JSON form of the fitted perceptron: its type and
// format version, the settings Epochs, Rate, NoBias, InitWeights and
// InitBias, the weights and bias, and Stats. Rand and OnUpdate are not
// saved. MarshalJSON returns an error if the perceptron has not been
// fitted, or if the settings are not valid, so that it writes only what
// UnmarshalJSON reads.
func (p *Perceptron) MarshalJSON() ([]byte, error) {
	return marshalLinear("Perceptron", perceptronVersion, p.settings(), p.lin, p.stats)
}

// UnmarshalJSON sets the perceptron to the fitted model in data, as written
// by MarshalJSON: its settings, weights, bias and Stats. Rand and OnUpdate
// keep the values they had. The loaded perceptron predicts exactly as the
// saved one did, and Learn goes on from its weights.
//
// UnmarshalJSON returns an error, and changes nothing, if data is not the
// JSON form of a Perceptron of this format version or is not valid. As
// encoding/json asks, the JSON null changes nothing.
func (p *Perceptron) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	s, lin, st, err := unmarshalLinear(data, "Perceptron", perceptronVersion)
	if err != nil {
		return err
	}
	p.Epochs, p.Rate, p.NoBias, p.InitWeights, p.InitBias = s.Epochs, s.Rate, s.NoBias, s.InitWeights, s.InitBias
	p.lin, p.stats = lin, st
	return nil
}

// marshalLinear returns the JSON form of a classifier of type typ that
// predicts with the hyperplane l, or an error if l has not been fitted or
// the settings s are not valid.
func marshalLinear(typ string, version int, s settings, l linear, st Stats) ([]byte, error) {
	if !l.fitted() {
		return nil, errors.New("perceptron: MarshalJSON called before Fit")
	}
	sj, m := s.json(), linearJSON{Weights: l.w, Bias: l.b}
	if _, err := loadLinear(typ, sj, m); err != nil {
		return nil, err
	}
	return marshalModel(typ, version, sj, m, st)
}

// unmarshalLinear reads the JSON form that marshalLinear writes.
func unmarshalLinear(data []byte, typ string, version int) (settingsJSON, linear, Stats, error) {
	var s settingsJSON
	var m linearJSON
	st, err := unmarshalModel(data, typ, version, &s, &m)
	if err != nil {
		return s, linear{}, Stats{}, err
	}
	lin, err := loadLinear(typ, s, m)
	return s, lin, st, err
}

// pocketVersion is the version of the JSON form of Pocket. Version 1 had
// the setting checkAll where version 2 has ratchet.
const pocketVersion = 2

// pocketSettingsJSON is the JSON form of the settings of Pocket.
type pocketSettingsJSON struct {
	settingsJSON
	Ratchet bool `json:"ratchet"`
}

// pocketSettingsV1 is the JSON form of the settings of Pocket in version 1.
type pocketSettingsV1 struct {
	settingsJSON
	CheckAll bool `json:"checkAll"`
}

// pocketJSON is the JSON form of the pocket: its hyperplane and the number
// of training rows it misclassifies.
type pocketJSON struct {
	linearJSON
	Misclassified int `json:"misclassified"`
}

// MarshalJSON returns the JSON form of the fitted pocket: its type and
// format version, the settings Epochs, Rate, NoBias, InitWeights, InitBias
// and Ratchet, the pocket weights and bias, Misclassified, and Stats. Rand
// and OnUpdate are not saved. MarshalJSON returns an error if the pocket
// has not been fitted, or if the settings are not valid.
func (p *Pocket) MarshalJSON() ([]byte, error) {
	if !p.lin.fitted() {
		return nil, errors.New("perceptron: MarshalJSON called before Fit")
	}
	s := pocketSettingsJSON{p.settings().json(), p.Ratchet}
	m := pocketJSON{linearJSON{Weights: p.lin.w, Bias: p.lin.b}, p.misclassified}
	if _, err := loadLinear("Pocket", s.settingsJSON, m.linearJSON); err != nil {
		return nil, err
	}
	return marshalModel("Pocket", pocketVersion, s, m, p.stats)
}

// UnmarshalJSON sets the pocket to the fitted model in data, as written by
// MarshalJSON: its settings, pocket weights and bias, Misclassified and
// Stats. Rand and OnUpdate keep the values they had. The loaded pocket
// predicts exactly as the saved one did.
//
// A model of format version 1 loads if its checkAll was set, which kept
// the pocket as Fit now does by default. Otherwise its pocket was kept by
// a rule that Pocket no longer has, so that its settings would train
// another model, and UnmarshalJSON returns an error naming checkAll.
//
// UnmarshalJSON returns an error, and changes nothing, if data is not the
// JSON form of a Pocket of format version 1 or 2 or is not valid. As
// encoding/json asks, the JSON null changes nothing.
func (p *Pocket) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var s pocketSettingsJSON
	var m pocketJSON
	var st Stats
	version, err := modelVersion(data, "Pocket")
	if err != nil {
		return err
	}
	if version == 1 {
		var s1 pocketSettingsV1
		st, err = unmarshalModel(data, "Pocket", 1, &s1, &m)
		if err == nil && !s1.CheckAll {
			err = errors.New("perceptron: Pocket model of format version 1 with checkAll false: its pocket rule is gone, refit it")
		}
		s.settingsJSON = s1.settingsJSON
	} else {
		st, err = unmarshalModel(data, "Pocket", pocketVersion, &s, &m)
	}
	if err != nil {
		return err
	}
	lin, err := loadLinear("Pocket", s.settingsJSON, m.linearJSON)
	if err != nil {
		return err
	}
	switch {
	case m.Misclassified < 0:
		return fmt.Errorf("perceptron: Pocket model misclassifies %d rows, want >= 0", m.Misclassified)
	case st.Converged && m.Misclassified != 0:
		// A run that converged separated the data, and so does its pocket.
		return fmt.Errorf("perceptron: Pocket model misclassifies %d rows of a run that converged, want 0", m.Misclassified)
	}
	p.Epochs, p.Rate, p.NoBias, p.InitWeights, p.InitBias, p.Ratchet = s.Epochs, s.Rate, s.NoBias, s.InitWeights, s.InitBias, s.Ratchet
	p.lin, p.misclassified, p.stats = lin, m.Misclassified, st
	return nil
}

// averagedVersion is the version of the JSON form of Averaged. Version 1
// saved the averaged weights and bias, version 2 their sums and the
// number of visits.
const averagedVersion = 2

// averagedJSON is the JSON form of the model of Averaged: the sums of the
// weights and biases after each visit, and the number of visits.
type averagedJSON struct {
	SumWeights []float64 `json:"sumWeights"`
	SumBias    float64   `json:"sumBias"`
	Visits     int       `json:"visits"`
}

// MarshalJSON returns the JSON form of the fitted averaged perceptron: its
// type and format version, the settings Epochs, Rate, NoBias, InitWeights
// and InitBias, the sums of the weights and biases and the number of
// visits, and Stats. Rand and OnUpdate are not saved. MarshalJSON returns
// an error if the averaged perceptron has not been fitted, or if the
// settings are not valid.
func (a *Averaged) MarshalJSON() ([]byte, error) {
	if !a.sum.fitted() {
		return nil, errors.New("perceptron: MarshalJSON called before Fit")
	}
	s := a.settings().json()
	if _, err := loadLinear("Averaged", s, linearJSON{Weights: a.sum.w, Bias: a.sum.b}); err != nil {
		return nil, err
	}
	return marshalModel("Averaged", averagedVersion, s, averagedJSON{a.sum.w, a.sum.b, int(a.visits)}, a.stats)
}

// UnmarshalJSON sets the averaged perceptron to the fitted model in data,
// as written by MarshalJSON: its settings, sums of weights and biases,
// number of visits, and Stats. Rand and OnUpdate keep the values they
// had. The loaded averaged perceptron predicts exactly as the saved one
// did. A model of format version 1 holds the averaged weights and bias;
// it loads as their sums over one visit, and so predicts as it did.
//
// UnmarshalJSON returns an error, and changes nothing, if data is not the
// JSON form of an Averaged of format version 1 or 2 or is not valid. As
// encoding/json asks, the JSON null changes nothing.
func (a *Averaged) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	version, err := modelVersion(data, "Averaged")
	if err != nil {
		return err
	}
	var s settingsJSON
	var m averagedJSON
	var st Stats
	if version == 1 {
		var m1 linearJSON
		st, err = unmarshalModel(data, "Averaged", 1, &s, &m1)
		m = averagedJSON{m1.Weights, m1.Bias, 1}
	} else {
		st, err = unmarshalModel(data, "Averaged", averagedVersion, &s, &m)
	}
	if err != nil {
		return err
	}
	sum, err := loadLinear("Averaged", s, linearJSON{Weights: m.SumWeights, Bias: m.SumBias})
	if err != nil {
		return err
	}
	if m.Visits < 1 {
		return fmt.Errorf("perceptron: Averaged model has %d visits, want at least 1", m.Visits)
	}
	a.Epochs, a.Rate, a.NoBias, a.InitWeights, a.InitBias = s.Epochs, s.Rate, s.NoBias, s.InitWeights, s.InitBias
	a.sum, a.visits, a.stats = sum, float64(m.Visits), st
	return nil
}

// votedVersion is the version of the JSON form of Voted. Version 1 saved
// the rows as arrays of numbers, version 2 in the compact form of rowsJSON,
// dense or sparse.
const votedVersion = 2

// votedJSON is the JSON form of the voters of Voted, as Voted keeps them.
// The last weights are not saved: they are the first moved by the step of
// every mistake, and loading computes them so.
type votedJSON struct {
	First         linearJSON      `json:"first"`         // w_0 and b_0
	ThroughOrigin bool            `json:"throughOrigin"` // the steps leave the bias alone
	Rows          json.RawMessage `json:"rows"`          // the distinct mistaken rows, in the order of their first mistake
	Steps         []float64       `json:"steps"`         // Rate·y of each row
	MistakeRows   []int           `json:"mistakeRows"`   // the row, in Rows, of each mistake
	Counts        []int           `json:"counts"`        // c_0, then the count of the voter each mistake made
}

// MarshalJSON returns the JSON form of the fitted voted perceptron: its
// type and format version, the settings Epochs, Rate, NoBias, InitWeights
// and InitBias, the voters as Voted keeps them (the first weights and bias,
// whether the run went through the origin, the distinct rows that were
// mistakes with their steps, the row of each mistake and the count of each
// voter), and Stats. Rand and OnUpdate are not saved. MarshalJSON returns
// an error if the voted perceptron has not been fitted, or if the settings
// are not valid.
func (v *Voted) MarshalJSON() ([]byte, error) {
	if !v.last.fitted() {
		return nil, errors.New("perceptron: MarshalJSON called before Fit")
	}
	d := v.last.dim()
	if _, err := v.settings().resolve(d); err != nil {
		return nil, err
	}
	s := v.settings().json()
	rows, err := json.Marshal(rowsToJSON(v.rows))
	if err != nil {
		return nil, err
	}
	m := votedJSON{
		First:         linearJSON{Weights: v.first.w, Bias: v.first.b},
		ThroughOrigin: v.unit == 0,
		Rows:          rows,
		Steps:         v.steps,
		MistakeRows:   make([]int, len(v.votes)-1),
		Counts:        make([]int, len(v.votes)),
	}
	for k, vt := range v.votes {
		if k > 0 {
			m.MistakeRows[k-1] = vt.row
		}
		m.Counts[k] = vt.count
	}
	return marshalModel("Voted", votedVersion, s, m, v.stats)
}

// UnmarshalJSON sets the voted perceptron to the fitted model in data, as
// written by MarshalJSON: its settings, voters and Stats. Rand and OnUpdate
// keep the values they had. The loaded voted perceptron predicts exactly as
// the saved one did.
//
// UnmarshalJSON returns an error, and changes nothing, if data is not the
// JSON form of a Voted of format version 1 or 2 or is not valid, as when the
// parts of the voters do not agree in length with each other, with the
// number of weights or with Stats. As encoding/json asks, the JSON null
// changes nothing.
func (v *Voted) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	version, err := modelVersion(data, "Voted")
	if err != nil {
		return err
	}
	if version != 1 {
		version = votedVersion
	}
	var sj settingsJSON
	var m votedJSON
	st, err := unmarshalModel(data, "Voted", version, &sj, &m)
	if err != nil {
		return err
	}
	d := len(m.First.Weights)
	if d == 0 {
		return errors.New("perceptron: Voted model has no weights")
	}
	if _, err := sj.settings().resolve(d); err != nil {
		return err
	}
	var rows *rows
	if version == 1 {
		var x [][]float64
		if err = json.Unmarshal(m.Rows, &x); err == nil {
			rows, err = denseRows(x, d, "row")
		}
	} else {
		var j rowsJSON
		if err = json.Unmarshal(m.Rows, &j); err == nil {
			rows, err = j.rows("rows")
		}
		if err == nil && j.Cols != d {
			err = fmt.Errorf("rows of %d columns, want %d", j.Cols, d)
		}
	}
	if err != nil {
		return fmt.Errorf("perceptron: Voted model's %v", err)
	}
	switch {
	case m.ThroughOrigin && m.First.Bias != 0:
		return fmt.Errorf("perceptron: Voted model through the origin has first bias %v, want 0", m.First.Bias)
	case len(m.Steps) != rows.n:
		return fmt.Errorf("perceptron: Voted model has %d rows and %d steps, want as many", rows.n, len(m.Steps))
	case len(m.Counts) != len(m.MistakeRows)+1:
		return fmt.Errorf("perceptron: Voted model has %d mistakes and %d counts, want one count more", len(m.MistakeRows), len(m.Counts))
	case len(m.MistakeRows) != st.Mistakes:
		return fmt.Errorf("perceptron: Voted model has %d mistakes, but Stats %d", len(m.MistakeRows), st.Mistakes)
	case m.Counts[0] < 0:
		return fmt.Errorf("perceptron: Voted model's first count is %d, want >= 0", m.Counts[0])
	}
	votes := make([]vote, len(m.Counts))
	votes[0] = vote{row: -1, count: m.Counts[0]}
	first := linear{w: m.First.Weights, b: m.First.Bias}
	last := first.clone()
	seen := 0
	for k, r := range m.MistakeRows {
		switch {
		case r < 0 || r >= rows.n:
			return fmt.Errorf("perceptron: Voted model's mistake %d is on row %d, want one of its %d rows", k+1, r, rows.n)
		case r > seen:
			// Fit numbers the rows in the order of their first mistake.
			return fmt.Errorf("perceptron: Voted model's mistake %d is the first on row %d, want row %d", k+1, r, seen)
		case m.Counts[k+1] < 1:
			return fmt.Errorf("perceptron: Voted model's count %d is %d, want >= 1", k+1, m.Counts[k+1])
		}
		if r == seen {
			seen++
		}
		votes[k+1] = vote{row: r, count: m.Counts[k+1]}
		last.move(rows.row(r), m.Steps[r], !m.ThroughOrigin)
	}
	if seen != rows.n {
		return fmt.Errorf("perceptron: Voted model has %d rows, but its mistakes are on %d", rows.n, seen)
	}
	if last.checkFinite() != nil {
		return errors.New("perceptron: Voted model's last weights overflow")
	}
	unit := 1.0
	if m.ThroughOrigin {
		unit = 0
	}
	v.Epochs, v.Rate, v.NoBias, v.InitWeights, v.InitBias = sj.Epochs, sj.Rate, sj.NoBias, sj.InitWeights, sj.InitBias
	v.first, v.last, v.rows, v.steps, v.unit, v.votes, v.stats = first, last, rows, m.Steps, unit, votes, st
	return nil
}
