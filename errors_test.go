// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// panicOf returns what f panics with, or nil.
func panicOf(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// TestPanicKinds checks that the prediction methods of every type panic,
// on a classifier not fitted, on a nil X and on rows or a dst of the wrong
// size, with an error of the kind that says why and a message that says
// what.
func TestPanicKinds(t *testing.T) {
	X := mat.NewDense(2, 1, []float64{0, 1})
	y := []float64{-1, 1}
	for _, c := range []Scorer{&Perceptron{}, &Pocket{}, &Averaged{}, &Voted{}, &Kernel{}, &OneVsRest{}} {
		check := func(what string, kind error, want string, f func()) {
			t.Helper()
			r := panicOf(f)
			err, ok := r.(error)
			if !ok || !errors.Is(err, kind) || !strings.Contains(err.Error(), want) {
				t.Errorf("%T: %s panics with %v, want an error of kind %v containing %q", c, what, r, kind, want)
			}
		}
		check("ScoreRows before Fit", ErrNotFitted, "ScoreRows called before Fit", func() { c.ScoreRows(nil, nil) })
		check("PredictRows before Fit", ErrNotFitted, "PredictRows called before Fit", func() { c.PredictRows(nil, X) })
		check("Predict before Fit", ErrNotFitted, "Predict called before Fit", func() { c.Predict([]float64{0}) })
		if err := c.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		check("ScoreRows(nil, nil)", ErrShape, "X is nil", func() { c.ScoreRows(nil, nil) })
		check("PredictRows of a nil *mat.Dense", ErrShape, "X is nil", func() { c.PredictRows(nil, (*mat.Dense)(nil)) })
		check("ScoreRows of a nil *CSR", ErrShape, "X is nil", func() { c.ScoreRows(nil, (*CSR)(nil)) })
		check("Predict of 2 values", ErrShape, "x has length 2, want 1", func() { c.Predict([]float64{0, 1}) })
		check("ScoreRows of 2 columns", ErrShape, "X has 2 columns, want 1", func() { c.ScoreRows(nil, mat.NewDense(1, 2, nil)) })
		check("PredictRows into 3", ErrShape, "dst has length 3, want 2", func() { c.PredictRows(make([]float64, 3), X) })
	}
}

// TestNilErrors checks the errors of a nil where a value is needed.
func TestNilErrors(t *testing.T) {
	X := mat.NewDense(2, 1, []float64{0, 1})
	y := []float64{-1, 1}
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"OneVsRest.New returning a typed nil", (&OneVsRest{New: func() Scorer { var p *Perceptron; return p }}).Fit(X, y), "OneVsRest.New returned a nil *perceptron.Perceptron"},
		{"OneVsRest.New returning nil", (&OneVsRest{New: func() Scorer { return nil }}).Fit(X, y), "OneVsRest.New returned nil"},
		{"Fit of a nil *mat.Dense", (&Averaged{}).Fit((*mat.Dense)(nil), y), "X is nil"},
		{"Fit of a nil *CSR", (&Kernel{}).Fit((*CSR)(nil), y), "X is nil"},
		{"NewCSR of math.MaxInt rows", func() error { _, err := NewCSR(math.MaxInt, 1, []int{0}, nil, nil); return err }(), fmt.Sprintf("want %d (rows+1)", uint64(math.MaxInt)+1)},
	} {
		if c.err == nil || !strings.HasPrefix(c.err.Error(), "perceptron: ") || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, c.err, c.want)
		}
	}
}

// TestErrorKinds checks that the errors of bad data, of a file that is
// not a saved classifier are of their kinds, with their messages;
// TestDatasetMarginIterationLimit checks ErrNotConverged.
func TestErrorKinds(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 0, 1, 1, 0, 1})
	y := []float64{-1, 1, 1}
	nan := mat.NewDense(3, 2, []float64{0, 0, 1, math.NaN(), 0, 1})
	fitted := &Perceptron{}
	if err := fitted.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	good, err := fitted.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		err  error
		kind error
		want string
	}{
		{"NaN in X", (&Averaged{}).Fit(nan, y), ErrNonFinite, "X[1, 1] is NaN"},
		{"NaN in y", (&Voted{}).Fit(X, []float64{-1, math.NaN(), 1}), ErrNonFinite, "y[1] is NaN"},
		{"Inf in InitWeights", (&Perceptron{InitWeights: []float64{0, math.Inf(1)}}).Fit(X, y), ErrNonFinite, "InitWeights[1] is +Inf"},
		{"an overflow", (&Perceptron{Rate: math.MaxFloat64}).Learn(mat.NewDense(2, 1, []float64{2, -2}), nil), ErrNotFitted, "set Labels"},
		{"a short y", (&Kernel{}).Fit(X, y[:2]), ErrShape, "len(y) is 2, want 3"},
		{"Learn of 3 columns", fitted.Learn(mat.NewDense(1, 3, nil), []float64{1}), ErrShape, "X has 3 columns, want 2"},
		{"a file of nothing", json.Unmarshal([]byte(`{}`), &Averaged{}), ErrFormat, `of type "", not Averaged`},
		{"a file of another type", json.Unmarshal(good, &Voted{}), ErrFormat, "of type \"Perceptron\", not Voted"},
		{"a command's member", json.Unmarshal(append(good[:len(good)-1:len(good)-1], `,"command":{}}`...), &Perceptron{}), ErrFormat, `unknown field "command"`},
		{"Unmarshal of a number", func() error { _, err := Unmarshal([]byte(`1`)); return err }(), ErrFormat, "not a saved classifier"},
	} {
		if !errors.Is(c.err, c.kind) || !strings.HasPrefix(c.err.Error(), "perceptron: ") || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want an error of kind %v containing %q", c.name, c.err, c.kind, c.want)
		}
	}
	// An overflow in Learn, of kind ErrNonFinite.
	p := &Perceptron{Rate: math.MaxFloat64, Labels: []float64{-1, 1}}
	err = p.Learn(mat.NewDense(2, 1, []float64{2, -2}), []float64{1, -1})
	if !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("an overflowing Learn: %v, want an error of kind ErrNonFinite", err)
	}
}
