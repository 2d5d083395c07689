// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// weightsOf returns random weights of n rows, some 0.
func weightsOf(rnd *rand.Rand, n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		if rnd.IntN(4) != 0 {
			w[i] = 3 * rnd.Float64()
		}
	}
	return w
}

// TestSetWeights checks that a Set's Weights must be a finite weight >= 0
// for each row, and that Subset, Rows, Split and Fold keep the weights of
// their rows.
func TestSetWeights(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 4))
	dense, sparse := modelData(rnd, 60, 4, 3)
	w := weightsOf(rnd, 60)
	for _, s := range []*data.Set{dense, sparse} {
		s.Weights = w
		sub, err := s.Subset([]int{5, 2, 59})
		if err != nil {
			t.Fatal(err)
		}
		if want := []float64{w[5], w[2], w[59]}; !slices.Equal(sub.Weights, want) {
			t.Errorf("Subset keeps the weights %v, want %v", sub.Weights, want)
		}
		part, err := s.Rows(10, 20)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(part.Weights, w[10:20]) {
			t.Errorf("Rows keeps the weights %v, want %v", part.Weights, w[10:20])
		}
	}
	// Split and Fold: rows that hold their index, and their weights.
	X := mat.NewDense(60, 2, nil)
	y := make([]float64, 60)
	for i := range 60 {
		X.Set(i, 0, float64(i))
		y[i] = float64(i % 3)
	}
	s := &data.Set{X: X, Y: y, Classes: []string{"a", "b", "c"}, Weights: w}
	train, test, err := data.Split(s, 0.25, 7)
	if err != nil {
		t.Fatal(err)
	}
	ftrain, ftest, err := data.Fold(s, 4, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*data.Set{train, test, ftrain, ftest} {
		for i, v := range p.Weights {
			if r := int(p.X.At(i, 0)); v != w[r] {
				t.Fatalf("row %d, row %d of the Set, has the weight %v, want %v", i, r, v, w[r])
			}
		}
		if n, _ := p.X.Dims(); len(p.Weights) != n {
			t.Fatalf("%d weights for %d rows", len(p.Weights), n)
		}
	}

	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		w    []float64
		want string
		kind error
	}{
		{[]float64{1, 2}, "data: Weights has 2 weights and X 60 rows, want one a row", perceptron.ErrShape},
		{append(slices.Repeat([]float64{1}, 59), nan), "data: Weights[59] is NaN, want a finite weight >= 0", perceptron.ErrNonFinite},
		{append([]float64{inf}, slices.Repeat([]float64{1}, 59)...), "data: Weights[0] is +Inf, want a finite weight >= 0", perceptron.ErrNonFinite},
		{append([]float64{1, -1}, slices.Repeat([]float64{1}, 58)...), "data: Weights[1] is -1, want a finite weight >= 0", nil},
	} {
		s := &data.Set{X: dense.X, Y: dense.Y, Classes: dense.Classes, Weights: c.w}
		_, err := s.Subset([]int{0})
		if err == nil || err.Error() != c.want || c.kind != nil && !errors.Is(err, c.kind) {
			t.Errorf("Subset of weights %v: %v, want %q", c.w[:2], err, c.want)
		}
		m := &data.Model{Classifier: &perceptron.Perceptron{}}
		if err := m.Fit(s); err == nil || err.Error() != c.want || m.Classes != nil {
			t.Errorf("Fit of weights %v: %v, want %q", c.w[:2], err, c.want)
		}
	}
}

// TestModelWeights checks that a Model's Fit and Learn weigh the rows by
// the Set's Weights as perceptron.FitContext and LearnContext weigh the
// transformed rows, to the bit, and that a Classifier of another package
// takes no weights.
func TestModelWeights(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 5))
	ctx := context.Background()
	for _, k := range []int{2, 3} {
		_, set := modelData(rnd, 120, 5, k)
		set.Weights = weightsOf(rnd, 120)
		sc, err := data.NewIDF(set.X)
		if err != nil {
			t.Fatal(err)
		}
		for _, newC := range []func() perceptron.Scorer{
			func() perceptron.Scorer { return &perceptron.Averaged{Epochs: 7} },
			func() perceptron.Scorer { return &perceptron.Pocket{Epochs: 7} },
			func() perceptron.Scorer { return &perceptron.OneVsRest{} },
		} {
			m := &data.Model{Scaler: sc, Normalize: true, Classifier: newC()}
			if err := m.Fit(set); err != nil {
				t.Fatal(err)
			}
			Z, err := m.Transform(set.X)
			if err != nil {
				t.Fatal(err)
			}
			ref := newC()
			if err := perceptron.FitContext(ctx, ref, Z, set.Y, set.Weights...); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.Classifier.ScoreRows(nil, Z), ref.ScoreRows(nil, Z)) {
				t.Errorf("%T of %d classes: Model's Fit weighs the rows otherwise", ref, k)
			}
			plain := newC()
			if err := plain.Fit(Z, set.Y); err != nil {
				t.Fatal(err)
			}
			if slices.Equal(plain.ScoreRows(nil, Z), ref.ScoreRows(nil, Z)) {
				t.Errorf("%T of %d classes: the weights change nothing", ref, k)
			}
			if _, ok := ref.(interface {
				Learn(mat.Matrix, []float64) error
			}); !ok {
				continue
			}
			for lo := 0; lo < 120; lo += 50 {
				b, err := set.Rows(lo, min(120, lo+50))
				if err != nil {
					t.Fatal(err)
				}
				if err := m.Learn(b); err != nil {
					t.Fatal(err)
				}
				Zb, _ := m.Transform(b.X)
				if err := perceptron.LearnContext(ctx, ref, Zb, b.Y, b.Weights...); err != nil {
					t.Fatal(err)
				}
			}
			if !slices.Equal(m.Classifier.ScoreRows(nil, Z), ref.ScoreRows(nil, Z)) {
				t.Errorf("%T of %d classes: Model's Learn weighs the rows otherwise", ref, k)
			}
		}
	}

	// A classifier of another package takes no weights, and no context
	// that may be done; without either it fits.
	_, set := modelData(rnd, 40, 3, 2)
	m := &data.Model{Classifier: other{&perceptron.Perceptron{}}}
	if err := m.Fit(set); err != nil {
		t.Errorf("a classifier of another package: %v", err)
	}
	set.Weights = weightsOf(rnd, 40)
	if err := m.Fit(set); err == nil || !strings.Contains(err.Error(), "want a classifier of this package") {
		t.Errorf("a classifier of another package with weights: %v", err)
	}
}

// other is a classifier of another package.
type other struct{ perceptron.Scorer }

// TestModelContext checks that a done context stops a Model's Fit and
// Learn, which leave the Model as it was.
func TestModelContext(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 6))
	dense, _ := modelData(rnd, 80, 4, 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := &data.Model{Classifier: &perceptron.Averaged{}}
	if err := m.FitContext(ctx, dense); !errors.Is(err, context.Canceled) || m.Classes != nil || m.Features() != 0 {
		t.Errorf("FitContext with a done context: %v, classes %v", err, m.Classes)
	}
	if err := m.Fit(dense); err != nil {
		t.Fatal(err)
	}
	var before bytes.Buffer
	if _, err := m.WriteTo(&before); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*data.Set{dense, {X: dense.X, Y: dense.Y, Classes: dense.Classes, Weights: weightsOf(rnd, 80)}} {
		if err := m.LearnContext(ctx, s); !errors.Is(err, context.Canceled) {
			t.Errorf("LearnContext with a done context: %v", err)
		}
		var after bytes.Buffer
		if _, err := m.WriteTo(&after); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(after.Bytes(), before.Bytes()) {
			t.Errorf("a stopped LearnContext changed the model")
		}
	}
	// A context never done is Fit.
	a, b := &data.Model{Classifier: &perceptron.Voted{Epochs: 3}}, &data.Model{Classifier: &perceptron.Voted{Epochs: 3}}
	live, stop := context.WithCancel(context.Background())
	defer stop()
	if err := a.FitContext(live, dense); err != nil {
		t.Fatal(err)
	}
	if err := b.Fit(dense); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Classifier.ScoreRows(nil, dense.X), b.Classifier.ScoreRows(nil, dense.X)) {
		t.Errorf("FitContext gives another model than Fit")
	}
}
