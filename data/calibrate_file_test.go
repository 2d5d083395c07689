// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/seed5ae3614e/perceptron"
)

// A Model's file keeps its Calibration to the bit, and LoadModel refuses
// one that is not of the scores of its classifier, naming it; WriteTo
// refuses to write one.
func TestCalibrationFile(t *testing.T) {
	for i, m := range fittedModels(t) {
		S := scoresOf(len(m.Classes))
		m.Calibration = &Calibration{OneVsRest: i%2 == 0, A: make([]float64, S), B: make([]float64, S)}
		for k := range S {
			m.Calibration.A[k], m.Calibration.B[k] = -1.0/3-float64(k), 0.1*float64(k)+1e-17
		}
		var b bytes.Buffer
		if _, err := m.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		text, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range [][]byte{b.Bytes(), text} {
			got, err := decodeText(bytes.Clone(form))
			if err != nil {
				t.Fatal(err)
			}
			if got.Calibration.OneVsRest != m.Calibration.OneVsRest || !slices.Equal(got.Calibration.A, m.Calibration.A) || !slices.Equal(got.Calibration.B, m.Calibration.B) {
				t.Errorf("saved %+v, loaded %+v", m.Calibration, got.Calibration)
			}
		}
	}
	m := fittedModels(t)[2] // of two classes: one sigmoid
	m.Calibration = &Calibration{A: []float64{-2}, B: []float64{0.5}}
	text, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	good := `"calibration":{"a":[-2],"b":[0.5]}`
	if !bytes.Contains(text, []byte(good)) {
		t.Fatalf("no %s in %s", good, text)
	}
	for _, c := range []struct{ member, want string }{
		{`"calibration":{"a":[-2,1],"b":[0.5,0]}`, "calibration: slopes and intercepts are 2 and 2, want 1 of each"},
		{`"calibration":{"a":[-2]}`, "calibration: slopes and intercepts are 1 and 0"},
		{`"calibration":{"a":[-2],"b":[0.5],"c":[1]}`, `calibration: json: unknown field "c"`},
		{`"calibration":{"oneVsRest":1,"a":[-2],"b":[0.5]}`, "calibration: oneVsRest: json: cannot unmarshal number into Go value of type bool"},
		{`"calibration":{"a":[-2],"b":[1e999]}`, "calibration: b: json: cannot unmarshal number 1e999"},
		{`"calibration":[1]`, "calibration: json: cannot unmarshal array"},
	} {
		text := bytes.Replace(text, []byte(good), []byte(c.member), 1)
		_, err := decodeModel(text)
		if !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.member, err, c.want)
		}
	}
	m.Calibration.B = nil
	if _, err := m.WriteTo(io.Discard); err == nil || !strings.Contains(err.Error(), "slopes and intercepts are 1 and 0") {
		t.Errorf("WriteTo of a Calibration of no intercepts: %v", err)
	}
	// The binary form's Calibration is checked as the JSON form's.
	m.Calibration.B = []float64{0.5}
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	form := b.Bytes()
	at := bytes.Index(form, []byte("CALB"))
	bad := bytes.Clone(form)
	bad[at+12+1] = 3 // the slopes' encoding
	if _, err := decodeText(bad); !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), "the Calibration: a at byte 1: a float array of encoding 3") {
		t.Errorf("a Calibration of another encoding: %v", err)
	}
}
