// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// The JSON forms of Perceptron, Pocket, Averaged and Voted. Format version
// 1 of each knew two classes, -1 and +1, and one bias; version 2 saves the
// classes, the biases and the labels setting. Every version that was ever
// written still loads, with its classes -1 and +1.

// errNotFitted is MarshalJSON's error on a classifier not fitted.
var errNotFitted = errors.New("perceptron: MarshalJSON called before Fit")

// linearModelJSON is the JSON form of a linear model and its classes.
type linearModelJSON struct {
	Classes []float64 `json:"classes"`
	linearJSON
}

// perceptronVersion is the version of the JSON form of Perceptron.
const perceptronVersion = 2

// MarshalJSON returns the JSON form of the fitted perceptron: its type and
// format version, the settings Epochs, Rate, NoBias, InitWeights,
// InitBias and Labels, the classes, weights and biases, and Stats. Rand
// and OnUpdate are not saved. MarshalJSON returns an error if the
// perceptron has not been fitted, or if the settings are not valid, so
// that it writes only what UnmarshalJSON reads. It has a value receiver,
// so that json.Marshal saves a Perceptron as well as a *Perceptron.
func (p Perceptron) MarshalJSON() ([]byte, error) {
	m, err := linearModel("Perceptron", p.settings(), p.classes, p.lin)
	if err != nil {
		return nil, err
	}
	return marshalModel("Perceptron", perceptronVersion, p.settings().json(), m, p.stats)
}

// linearModel returns the JSON form of the linear model l of the classes,
// fitted with the settings s, or an error if it is not fitted or s is not
// valid for it.
func linearModel(typ string, s settings, classes []float64, l linear) (linearModelJSON, error) {
	if !l.fitted() {
		return linearModelJSON{}, errNotFitted
	}
	m := linearModelJSON{classes, linearJSON{Weights: l.w, Biases: l.b}}
	_, err := loadLinear(typ, s.json(), classes, m.linearJSON)
	return m, err
}

// UnmarshalJSON sets the perceptron to the fitted model in data, as written
// by MarshalJSON: its settings, classes, weights, biases and Stats. Rand
// and OnUpdate keep the values they had. The loaded perceptron predicts
// exactly as the saved one did, and Learn goes on from its weights.
//
// UnmarshalJSON returns an error, and changes nothing, if data is not the
// JSON form of a Perceptron of format version 1 or 2 or is not valid. As
// encoding/json asks, the JSON null changes nothing.
func (p *Perceptron) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	s, classes, lin, st, err := unmarshalLinear(data, "Perceptron", perceptronVersion)
	if err != nil {
		return err
	}
	p.Epochs, p.Rate, p.NoBias, p.InitWeights, p.InitBias, p.Labels = s.Epochs, s.Rate, s.NoBias, s.InitWeights, s.InitBias, s.Labels
	p.lin, p.classes, p.stats = lin, classes, st
	return nil
}

// unmarshalLinear reads the JSON form of a linear model of type typ in
// format version 1 or in version, the current one, with the settings of
// all classifiers.
func unmarshalLinear(data []byte, typ string, version int) (settingsJSON, []float64, linear, Stats, error) {
	var s settingsJSON
	m, st, err := decodeLinear(data, typ, version, &s)
	if err != nil {
		return s, nil, linear{}, Stats{}, err
	}
	lin, err := loadLinear(typ, s, m.Classes, m.linearJSON)
	return s, m.Classes, lin, st, err
}

// decodeLinear decodes a linear model of type typ: in format version 1 a
// linearV1, of the classes -1 and +1, and in version, the current one, a
// linearModelJSON. It decodes the settings into s and returns the model
// and the Stats.
func decodeLinear(data []byte, typ string, version int, s *settingsJSON) (linearModelJSON, Stats, error) {
	v, err := modelVersion(data, typ)
	if err != nil {
		return linearModelJSON{}, Stats{}, err
	}
	if v == 1 {
		var m1 linearV1
		st, err := unmarshalModel(data, typ, 1, s, &m1)
		return linearModelJSON{Classes: defaultClasses, linearJSON: m1.linear()}, st, err
	}
	var m linearModelJSON
	st, err := unmarshalModel(data, typ, version, s, &m)
	if err == nil {
		err = loadClasses(typ, m.Classes)
	}
	return m, st, err
}

// pocketVersion is the version of the JSON form of Pocket. Version 1 had
// the setting checkAll where version 2 has ratchet.
const pocketVersion = 2

// pocketSettingsJSON is the JSON form of the settings of Pocket.
type pocketSettingsJSON struct {
	settingsJSON
	Ratchet  bool  `json:"ratchet"`
	CheckAll *bool `json:"checkAll,omitempty"` // version 1
}

// pocketJSON is the JSON form of the pocket: its model and the number of
// training rows it misclassifies.
type pocketJSON struct {
	linearModelJSON
	Misclassified int `json:"misclassified"`
}

// MarshalJSON returns the JSON form of the fitted pocket: its type and
// format version, the settings Epochs, Rate, NoBias, InitWeights,
// InitBias, Labels and Ratchet, the classes and the pocket weights and
// biases, Misclassified, and Stats. Rand and OnUpdate are not saved.
// MarshalJSON returns an error if the pocket has not been fitted, or if
// the settings are not valid.
func (p Pocket) MarshalJSON() ([]byte, error) {
	m, err := linearModel("Pocket", p.settings(), p.classes, p.lin)
	if err != nil {
		return nil, err
	}
	return marshalModel("Pocket", pocketVersion, pocketSettingsJSON{settingsJSON: p.settings().json(), Ratchet: p.Ratchet}, pocketJSON{m, p.misclassified}, p.stats)
}

// UnmarshalJSON sets the pocket to the fitted model in data, as written by
// MarshalJSON: its settings, classes, pocket weights and biases,
// Misclassified and Stats. Rand and OnUpdate keep the values they had. The
// loaded pocket predicts exactly as the saved one did.
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
	version, err := modelVersion(data, "Pocket")
	if err != nil {
		return err
	}
	if version != 1 {
		version = pocketVersion
	}
	var s pocketSettingsJSON
	var m struct {
		Classes []float64 `json:"classes"`
		linearJSON
		Bias          *float64 `json:"bias"` // version 1
		Misclassified int      `json:"misclassified"`
	}
	st, err := unmarshalModel(data, "Pocket", version, &s, &m)
	if err != nil {
		return err
	}
	switch {
	case version == 1 && (s.CheckAll == nil || m.Bias == nil || m.Classes != nil || m.Biases != nil):
		return errors.New("perceptron: Pocket model of format version 1 without checkAll and bias, or with ratchet, classes or biases")
	case version == 1 && !*s.CheckAll:
		return errors.New("perceptron: Pocket model of format version 1 with checkAll false: its pocket rule is gone, refit it")
	case version == 1:
		m.Classes, m.Biases = defaultClasses, []float64{*m.Bias}
	case s.CheckAll != nil || m.Bias != nil:
		return errors.New("perceptron: Pocket model of format version 2 with checkAll or bias, which version 1 had")
	}
	if err := loadClasses("Pocket", m.Classes); err != nil {
		return err
	}
	lin, err := loadLinear("Pocket", s.settingsJSON, m.Classes, m.linearJSON)
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
	p.Epochs, p.Rate, p.NoBias, p.InitWeights, p.InitBias, p.Labels, p.Ratchet = s.Epochs, s.Rate, s.NoBias, s.InitWeights, s.InitBias, s.Labels, s.Ratchet
	p.lin, p.classes, p.misclassified, p.stats = lin, m.Classes, m.Misclassified, st
	return nil
}

// averagedVersion is the version of the JSON form of Averaged. Version 1
// saved the averaged weights and bias, version 2 their sums and the
// number of visits.
const averagedVersion = 2

// averagedJSON is the JSON form of the model of Averaged: the classes, the
// sums of the weights and biases after each visit, and the number of
// visits.
type averagedJSON struct {
	Classes    []float64 `json:"classes"`
	SumWeights []float64 `json:"sumWeights"`
	SumBiases  []float64 `json:"sumBiases"`
	Visits     int       `json:"visits"`
}

// MarshalJSON returns the JSON form of the fitted averaged perceptron: its
// type and format version, the settings Epochs, Rate, NoBias, InitWeights,
// InitBias and Labels, the classes, the sums of the weights and biases and
// the number of visits, and Stats. Rand and OnUpdate are not saved.
// MarshalJSON returns an error if the averaged perceptron has not been
// fitted, or if the settings are not valid.
func (a Averaged) MarshalJSON() ([]byte, error) {
	m, err := linearModel("Averaged", a.settings(), a.classes, a.sum)
	if err != nil {
		return nil, err
	}
	return marshalModel("Averaged", averagedVersion, a.settings().json(), averagedJSON{m.Classes, m.Weights, m.Biases, int(a.visits)}, a.stats)
}

// UnmarshalJSON sets the averaged perceptron to the fitted model in data,
// as written by MarshalJSON: its settings, classes, sums of weights and
// biases, number of visits, and Stats. Rand and OnUpdate keep the values
// they had. The loaded averaged perceptron predicts exactly as the saved
// one did. A model of format version 1 holds the averaged weights and
// bias; it loads as their sums over one visit, and so predicts as it did.
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
		var m1 linearV1
		st, err = unmarshalModel(data, "Averaged", 1, &s, &m1)
		m = averagedJSON{defaultClasses, m1.Weights, []float64{m1.Bias}, 1}
	} else {
		st, err = unmarshalModel(data, "Averaged", averagedVersion, &s, &m)
		if err == nil {
			err = loadClasses("Averaged", m.Classes)
		}
	}
	if err != nil {
		return err
	}
	sum, err := loadLinear("Averaged", s, m.Classes, linearJSON{Weights: m.SumWeights, Biases: m.SumBiases})
	if err != nil {
		return err
	}
	if m.Visits < 1 {
		return fmt.Errorf("perceptron: Averaged model has %d visits, want at least 1", m.Visits)
	}
	a.Epochs, a.Rate, a.NoBias, a.InitWeights, a.InitBias, a.Labels = s.Epochs, s.Rate, s.NoBias, s.InitWeights, s.InitBias, s.Labels
	a.sum, a.visits, a.classes, a.stats = sum, float64(m.Visits), m.Classes, st
	return nil
}

// votedVersion is the version of the JSON form of Voted. Version 1 saved
// two classes, the first bias and the rows as arrays of numbers; version
// 2 the classes, the first biases, the rows in the compact form of
// rowsJSON, dense or sparse, and with more than two classes the classes
// that each mistake moved.
const votedVersion = 2

// votedJSON is the JSON form of the voters of Voted, as Voted keeps them.
// The last weights are not saved: they are the first moved by the steps
// of every mistake, and loading computes them so.
type votedJSON struct {
	Classes       []float64       `json:"classes"`
	First         json.RawMessage `json:"first"`         // w_0 and b_0: a linearJSON, or in version 1 a linearV1
	ThroughOrigin bool            `json:"throughOrigin"` // the steps leave the biases alone
	Rows          json.RawMessage `json:"rows"`          // the distinct mistaken rows, in the order of their first mistake
	Steps         []float64       `json:"steps"`         // the step of each row
	MistakeRows   []int           `json:"mistakeRows"`   // the row, in Rows, of each mistake
	MistakeUp     []int           `json:"mistakeUp,omitempty"`
	MistakeDown   []int           `json:"mistakeDown,omitempty"` // the classes each mistake moved, with more than two
	Counts        []int           `json:"counts"`                // c_0, then the count of the voter each mistake made
}

// MarshalJSON returns the JSON form of the fitted voted perceptron: its
// type and format version, the settings Epochs, Rate, NoBias, InitWeights,
// InitBias and Labels, the voters as Voted keeps them (the classes, the
// first weights and biases, whether the run went through the origin, the
// distinct rows that were mistakes with their steps, the row of each
// mistake and the classes it moved, and the count of each voter), and
// Stats. Rand and OnUpdate are not saved. MarshalJSON returns an error if
// the voted perceptron has not been fitted, or if the settings are not
// valid.
func (v Voted) MarshalJSON() ([]byte, error) {
	first, err := linearModel("Voted", v.settings(), v.classes, v.first)
	if err != nil {
		return nil, err
	}
	firstJSON, err := json.Marshal(first.linearJSON)
	if err != nil {
		return nil, err
	}
	rows, err := json.Marshal(rowsToJSON(v.rows))
	if err != nil {
		return nil, err
	}
	m := votedJSON{
		Classes:       v.classes,
		First:         firstJSON,
		ThroughOrigin: v.unit == 0,
		Rows:          rows,
		Steps:         v.steps,
		MistakeRows:   make([]int, len(v.votes)-1),
		Counts:        make([]int, len(v.votes)),
	}
	multi := len(v.classes) > 2
	if multi {
		m.MistakeUp, m.MistakeDown = make([]int, len(v.votes)-1), make([]int, len(v.votes)-1)
	}
	for k, vt := range v.votes {
		if k > 0 {
			m.MistakeRows[k-1] = vt.row
			if multi {
				m.MistakeUp[k-1], m.MistakeDown[k-1] = v.moves[k-1].up, v.moves[k-1].down
			}
		}
		m.Counts[k] = vt.count
	}
	return marshalModel("Voted", votedVersion, v.settings().json(), m, v.stats)
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
	var first linearJSON
	var rows *rows
	if version == 1 {
		var f linearV1
		var x [][]float64
		if m.Classes != nil || m.MistakeUp != nil || m.MistakeDown != nil {
			return errors.New("perceptron: Voted model of format version 1 with classes, which version 2 has")
		}
		m.Classes = defaultClasses
		if err := json.Unmarshal(m.First, &f); err != nil {
			return fmt.Errorf("perceptron: Voted model's first weights: %v", err)
		}
		first = f.linear()
		if err = json.Unmarshal(m.Rows, &x); err == nil {
			rows, err = denseRows(x, len(first.Weights), "row")
		}
		if err != nil {
			return fmt.Errorf("perceptron: Voted model's %v", err)
		}
	} else {
		if err := loadClasses("Voted", m.Classes); err != nil {
			return err
		}
		dec := json.NewDecoder(bytes.NewReader(m.First))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&first); err != nil {
			return fmt.Errorf("perceptron: Voted model's first weights: %v", err)
		}
	}
	w0, err := loadLinear("Voted", sj, m.Classes, first)
	if err != nil {
		return err
	}
	d, S := w0.dim(), len(w0.b)
	if version != 1 {
		var j rowsJSON
		if err = json.Unmarshal(m.Rows, &j); err == nil {
			rows, err = j.rows("rows")
		}
		if err == nil && j.Cols != d {
			err = fmt.Errorf("rows of %d columns, want %d", j.Cols, d)
		}
		if err != nil {
			return fmt.Errorf("perceptron: Voted model's %v", err)
		}
	}
	n := len(m.MistakeRows)
	switch {
	case m.ThroughOrigin && nonZero(w0.b):
		return fmt.Errorf("perceptron: Voted model through the origin has first biases %v, want 0", w0.b)
	case len(m.Steps) != rows.n:
		return fmt.Errorf("perceptron: Voted model has %d rows and %d steps, want as many", rows.n, len(m.Steps))
	case len(m.Counts) != n+1:
		return fmt.Errorf("perceptron: Voted model has %d mistakes and %d counts, want one count more", n, len(m.Counts))
	case S > 1 && (len(m.MistakeUp) != n || len(m.MistakeDown) != n):
		return fmt.Errorf("perceptron: Voted model has %d mistakes and %d and %d classes they moved, want as many", n, len(m.MistakeUp), len(m.MistakeDown))
	case S == 1 && (m.MistakeUp != nil || m.MistakeDown != nil):
		return errors.New("perceptron: Voted model of two classes with the classes its mistakes moved")
	case n != st.Mistakes:
		return fmt.Errorf("perceptron: Voted model has %d mistakes, but Stats %d", n, st.Mistakes)
	case m.Counts[0] < 0:
		return fmt.Errorf("perceptron: Voted model's first count is %d, want >= 0", m.Counts[0])
	}
	votes := make([]vote, len(m.Counts))
	votes[0] = vote{row: -1, count: m.Counts[0]}
	var moves []moved
	if S > 1 {
		moves = make([]moved, n)
	}
	last := w0.clone()
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
		x := rows.row(r)
		if S > 1 {
			mv := moved{up: m.MistakeUp[k], down: m.MistakeDown[k]}
			if mv.up < 0 || mv.up >= S || mv.down < 0 || mv.down >= S || mv.up == mv.down {
				return fmt.Errorf("perceptron: Voted model's mistake %d moves classes %d and %d, want two of the %d", k+1, mv.up, mv.down, S)
			}
			last.move(&x, mv.up, m.Steps[r], !m.ThroughOrigin)
			last.move(&x, mv.down, -m.Steps[r], !m.ThroughOrigin)
			moves[k] = mv
		} else {
			last.move(&x, 0, m.Steps[r], !m.ThroughOrigin)
		}
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
	v.Epochs, v.Rate, v.NoBias, v.InitWeights, v.InitBias, v.Labels = sj.Epochs, sj.Rate, sj.NoBias, sj.InitWeights, sj.InitBias, sj.Labels
	v.first, v.last, v.rows, v.steps, v.unit, v.votes, v.moves, v.classes, v.stats = w0, last, rows, m.Steps, unit, votes, moves, m.Classes, st
	return nil
}
