// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"context"
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

// TestSettingKinds checks that every setting of a float64 is refused, when
// NaN or infinite, with an error of kind ErrNonFinite, and when finite but
// out of its range with one of kind ErrSetting, as the settings of an int
// are; each naming the setting.
func TestSettingKinds(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0})
	y := []float64{-1, 1, 1, -1}
	fit := func(c Scorer) error { return c.Fit(X, y) }
	margin := func(s *MarginSettings) error { _, err := DatasetMargin(X, y, s); return err }
	floats := []struct {
		name string
		bad  float64 // finite and out of range
		err  func(v float64) error
	}{
		{"Rate", -1, func(v float64) error { return fit(&Perceptron{Rate: v}) }},
		{"Rate", -1, func(v float64) error { return fit(&Pocket{Rate: v}) }},
		{"Rate", -1, func(v float64) error { return fit(&Averaged{Rate: v}) }},
		{"Rate", -1, func(v float64) error { return fit(&Voted{Rate: v}) }},
		{"Rate", -1, func(v float64) error { return fit(&Kernel{Rate: v}) }},
		{"Stop.Tol", -1, func(v float64) error { return fit(&Averaged{Stop: &Stop{Tol: v}}) }},
		{"Stop.Validation", 1, func(v float64) error { return fit(&Perceptron{Stop: &Stop{Validation: v}}) }},
		{"Poly.Gamma", -1, func(v float64) error { return fit(&Kernel{Func: Poly{Gamma: v}}) }},
		{"Poly.Coef0", math.NaN(), func(v float64) error { return fit(&Kernel{Func: Poly{Coef0: v}}) }},
		{"RBF.Gamma", -1, func(v float64) error { return fit(&Kernel{Func: RBF{Gamma: v}}) }},
		{"ClassWeight[1]", 0, func(v float64) error { return fit(&Voted{ClassWeight: map[float64]float64{1: v}}) }},
		{"ClassWeight weighs", 2, func(v float64) error { return fit(&Perceptron{ClassWeight: map[float64]float64{v: 1}}) }},
		{"ClassWeight[1]", -1, func(v float64) error { return fit(&OneVsRest{ClassWeight: map[float64]float64{1: v}}) }},
		{"Labels", 2, func(v float64) error { return fit(&Perceptron{Labels: []float64{v, v}}) }},
		{"Tol", 1, func(v float64) error { return margin(&MarginSettings{Tol: v}) }},
	}
	check := func(name string, v float64, err, kind error) {
		t.Helper()
		other := ErrSetting
		if kind == ErrSetting {
			other = ErrNonFinite
		}
		if !errors.Is(err, kind) || errors.Is(err, other) || !strings.HasPrefix(err.Error(), "perceptron: "+name) {
			t.Errorf("%s %v: %v, want an error of kind %v alone, about %s", name, v, err, kind, name)
		}
	}
	for _, c := range floats {
		for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			check(c.name, v, c.err(v), ErrNonFinite)
		}
		if !math.IsNaN(c.bad) {
			check(c.name, c.bad, c.err(c.bad), ErrSetting)
		}
	}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"Epochs", fit(&Perceptron{Epochs: -1})},
		{"Stop.NoChange", fit(&Pocket{Stop: &Stop{NoChange: -1}})},
		{"Stop.Validation", fit(&Perceptron{Stop: &Stop{Validation: 0.01}})},
		{"Budget", fit(&Kernel{Budget: -1})},
		{"Poly.Degree", fit(&Kernel{Func: Poly{Degree: -1}})},
		{"Custom", fit(&Kernel{Func: Custom(nil)})},
		{"Prediction", fit(&Kernel{Prediction: PredictAveraged + 1})},
		{"Labels", fit(&Averaged{Labels: []float64{1}})},
		{"OneVsRest.New", fit(&OneVsRest{New: func() Scorer { return &Averaged{ClassWeight: map[float64]float64{1: 2}} }})},
	} {
		check(c.name, 0, c.err, ErrSetting)
	}
}

// TestOneVsRestNewTwice checks that Fit refuses a New that returns one
// classifier for two classes, which would train it from several
// goroutines at once and leave every class with the same model, with an
// error of kind ErrSetting that names both classes, and leaves the
// OneVsRest as it was; as the race detector checks too.
func TestOneVsRestNewTwice(t *testing.T) {
	X := mat.NewDense(6, 1, []float64{0, 1, 2, 3, 4, 5})
	y := []float64{1, 2, 3, 1, 2, 3}
	for _, c := range []struct {
		name string
		new  func() func() Scorer
		want string
	}{
		{"one for all", func() func() Scorer {
			one := &Perceptron{}
			return func() Scorer { return one }
		}, "the same *perceptron.Perceptron for class 2 as for class 1"},
		{"the first again", func() func() Scorer {
			var first Scorer
			return func() Scorer {
				if first == nil {
					first = &Averaged{}
					return first
				}
				if _, ok := first.(*Averaged); ok {
					first = &Voted{} // a new one second, the first third
					return first
				}
				return first
			}
		}, "the same *perceptron.Voted for class 3 as for class 2"},
	} {
		o := &OneVsRest{New: c.new()}
		err := o.Fit(X, y)
		if !errors.Is(err, ErrSetting) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error of kind ErrSetting containing %q", c.name, err, c.want)
		}
		if o.Models() != nil {
			t.Errorf("%s: a failed Fit left %d models", c.name, len(o.Models()))
		}
	}
}

// TestKindsAndPlaces checks errors of every kind at representative sites:
// bad labels, a nil X, classifiers that cannot do what is asked, a
// malformed saved classifier in both forms, and NewCSR; and that errors.As
// gives the *Error with the row and the column at fault, -1 where none.
func TestKindsAndPlaces(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 0, 1, 1, 0, 1})
	y := []float64{-1, 1, 1}
	p := &Perceptron{}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	good, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	v := &Voted{}
	if err := v.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	voted, err := v.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	csr := func(r, c int, ptr, ind []int, val []float64) error {
		_, err := NewCSR(r, c, ptr, ind, val)
		return err
	}
	nan := math.NaN()
	var nilContext context.Context
	for _, c := range []struct {
		name     string
		err      error
		kind     error
		row, col int
	}{
		{"a single class", (&Perceptron{}).Fit(X, []float64{1, 1, 1}), ErrLabels, -1, -1},
		{"a label not among Labels", (&Averaged{Labels: []float64{-1, 1}}).Fit(X, []float64{-1, 1, 2}), ErrLabels, 2, -1},
		{"a NaN label", (&Kernel{}).Fit(X, []float64{-1, nan, 1}), ErrNonFinite, 1, -1},
		{"a NaN in a *mat.Dense", (&Averaged{}).Fit(mat.NewDense(3, 2, []float64{0, 0, 1, 1, nan, 1}), y), ErrNonFinite, 2, 0},
		{"a nil X", (&Voted{}).Fit(nil, y), ErrShape, -1, -1},
		{"a single class in every shard", FitShards(&Perceptron{}, []mat.Matrix{X}, [][]float64{{1, 1, 1}}, false), ErrLabels, -1, -1},
		{"a NaN label in a shard", FitShards(&Averaged{}, []mat.Matrix{X, X}, [][]float64{y, {1, -1, nan}}, false), ErrNonFinite, 2, -1},
		{"FitShards of a Pocket", FitShards(&Pocket{}, []mat.Matrix{X}, [][]float64{y}, false), ErrSetting, -1, -1},
		{"Mix of no shards", Mix(&Perceptron{}, nil, false), ErrSetting, -1, -1},
		{"a nil Context", FitContext(nilContext, &Perceptron{}, X, y), ErrSetting, -1, -1},
		{"a negative sample weight", FitContext(context.Background(), &Perceptron{}, X, y, 1, -1, 1), ErrSetting, 1, -1},
		{"a malformed JSON", func() error { _, err := Unmarshal(good[:len(good)-1]); return err }(), ErrFormat, -1, -1},
		{"a bad voter count", json.Unmarshal([]byte(strings.Replace(string(voted), `"counts":[0,1,`, `"counts":[0,0,`, 1)), &Voted{}), ErrFormat, -1, -1},
		{"a cut binary form", (&Perceptron{}).UnmarshalBinary(bin[:len(bin)-1]), ErrFormat, -1, -1},
		{"NewCSR of -1 rows", csr(-1, 1, []int{0}, nil, nil), ErrShape, -1, -1},
		{"NewCSR's columns out of order", csr(2, 3, []int{0, 1, 3}, []int{0, 2, 1}, []float64{1, 1, 1}), ErrFormat, 1, 1},
		{"NewCSR's column out of range", csr(2, 3, []int{0, 1, 2}, []int{0, 3}, []float64{1, 1}), ErrShape, 1, 3},
		{"a NaN in NewCSR", csr(2, 3, []int{0, 1, 3}, []int{0, 1, 2}, []float64{1, 1, nan}), ErrNonFinite, 1, 2},
	} {
		var e *Error
		if !errors.Is(c.err, c.kind) || !errors.As(c.err, &e) || e.Row != c.row || e.Col != c.col || !strings.HasPrefix(c.err.Error(), "perceptron: ") {
			t.Errorf("%s: %v (%#v), want an *Error of kind %v at row %d, column %d", c.name, c.err, e, c.kind, c.row, c.col)
		}
	}
}

// TestMarshalKeepsKind checks that a classifier whose InitWeights no longer
// fit refuses to save with an error of kind ErrShape, as Fit does, in every
// form, and so does a OneVsRest of it.
func TestMarshalKeepsKind(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 0, 1, 1, 0, 1})
	for _, y := range [][]float64{{-1, 1, 1}, {0, 1, 2}} {
		p := &Averaged{}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		p.InitWeights = []float64{1}
		o := &OneVsRest{}
		if err := o.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		o.Labels = []float64{1}
		for _, c := range []struct {
			name string
			kind error
			err  func() ([]byte, error)
		}{
			{"Fit", ErrShape, func() ([]byte, error) { return nil, p.Fit(X, y) }},
			{"MarshalJSON", ErrShape, p.MarshalJSON},
			{"MarshalBinary", ErrShape, p.MarshalBinary},
			{"Marshal", ErrShape, func() ([]byte, error) { return Marshal(p) }},
			{"json.Marshal", ErrShape, func() ([]byte, error) { return json.Marshal(p) }},
			{"OneVsRest's Marshal", ErrSetting, func() ([]byte, error) { return Marshal(o) }},
		} {
			if _, err := c.err(); !errors.Is(err, c.kind) {
				t.Errorf("%d classes: %s: %v, want an error of kind %v", len(y), c.name, err, c.kind)
			}
		}
	}
}
