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

// unmarshalModel decodes the JSON form of a fitted classifier of type typ
// and the given version into s and m, and returns its checked Stats. It
// rejects unknown fields, so that a misspelt or foreign file is not read as
// a model with default values. It leaves s and m alone on error.
func unmarshalModel[S, M any](data []byte, typ string, version int, s *S, m *M) (Stats, error) {
	var head struct {
		Type    string `json:"type"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Stats{}, fmt.Errorf("perceptron: not a %s model: %v", typ, err)
	}
	switch {
	case head.Type == "":
		return Stats{}, fmt.Errorf("perceptron: not a %s model: no type", typ)
	case head.Type != typ:
		return Stats{}, fmt.Errorf("perceptron: the model is a %s, not a %s", head.Type, typ)
	case head.Version != version:
		return Stats{}, fmt.Errorf("perceptron: %s model format version %d, want %d", typ, head.Version, version)
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
// fitted.
func (p *Perceptron) MarshalJSON() ([]byte, error) {
	if !p.lin.fitted() {
		return nil, errors.New("perceptron: MarshalJSON called before Fit")
	}
	m := linearJSON{Weights: p.lin.w, Bias: p.lin.b}
	return marshalModel("Perceptron", perceptronVersion, p.settings().json(), m, p.stats)
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
	var s settingsJSON
	var m linearJSON
	st, err := unmarshalModel(data, "Perceptron", perceptronVersion, &s, &m)
	if err != nil {
		return err
	}
	lin, err := loadLinear("Perceptron", s, m)
	if err != nil {
		return err
	}
	p.Epochs, p.Rate, p.NoBias, p.InitWeights, p.InitBias = s.Epochs, s.Rate, s.NoBias, s.InitWeights, s.InitBias
	p.lin, p.stats = lin, st
	return nil
}
