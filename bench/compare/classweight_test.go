// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// weightSpec returns the class weights cw as the script takes them:
// CLASS=WEIGHT pairs, each float64 in the shortest form that reads back
// to its bits.
func weightSpec(cw map[float64]float64) string {
	var pairs []string
	for _, c := range slices.Sorted(maps.Keys(cw)) {
		pairs = append(pairs, strconv.FormatFloat(c, 'g', -1, 64)+"="+strconv.FormatFloat(cw[c], 'g', -1, 64))
	}
	return strings.Join(pairs, ",")
}

// TestSklearnClassWeight runs scikit-learn's Perceptron(class_weight=…,
// shuffle=False, tol=None, eta0=1) on small integer data of two classes
// and of four, with weights given per class and with "balanced", and
// requires that Perceptron, for two classes, and OneVsRest of Perceptron,
// for four, with the same weights, end with its coef_ and intercept_ bit
// for bit. scikit-learn weighs a two-class problem by the weights of both
// classes, and the problem of each class against the rest by the weight
// of the class and 1 for the rest, as OneVsRest does. The weights of
// powers of two keep every sum exact, whatever the order of its terms;
// the others, and the balanced weights of the counts of these labels,
// round, and the weights agree to the bit because the updates round alike
// and no score lands within rounding of zero.
func TestSklearnClassWeight(t *testing.T) {
	t.Parallel()
	const epochs = 9
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		classes []float64
		weights []map[float64]float64 // nil for balanced
	}{
		{[]float64{0, 3}, []map[float64]float64{{0: 0.5, 3: 2}, {3: 1.0 / 3}, nil}},
		{[]float64{-1, 0, 2, 7}, []map[float64]float64{{-1: 2, 2: 0.25, 7: 4}, {-1: 0.7, 0: 1.0 / 3, 2: 5, 7: 1.25}, nil}},
	} {
		X, y := intClasses(rnd, 400, 6, c.classes)
		ds := &dataSet{name: "ints", train: X.Slice(0, 300, 0, 6).(*mat.Dense), ytrain: y[:300],
			test: X.Slice(300, 400, 0, 6).(*mat.Dense), ytest: y[300:]}
		dir := t.TempDir()
		if err := sklearnFiles(dir, ds); err != nil {
			t.Fatal(err)
		}
		var fits []string
		for _, cw := range c.weights {
			spec := "balanced"
			if cw != nil {
				spec = weightSpec(cw)
			}
			fits = append(fits, fmt.Sprintf("perceptron:%d:1:%s", epochs, spec))
		}
		res, _, err := runSklearn("/usr/bin/python3", dir, ds, fits)
		if _, ok := err.(errMissing); ok {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		for k, cw := range c.weights {
			name := fmt.Sprintf("%d classes, %s", len(c.classes), strings.SplitN(fits[k], ":", 4)[3])
			if cw == nil {
				cw = perceptron.Balanced(ds.ytrain)
			}
			var w, b []float64
			if len(c.classes) == 2 {
				p := &perceptron.Perceptron{Epochs: epochs, ClassWeight: cw}
				if err := p.Fit(ds.train, ds.ytrain); err != nil {
					t.Fatal(err)
				}
				w, b = p.Weights()
			} else {
				o := &perceptron.OneVsRest{ClassWeight: cw, New: func() perceptron.Scorer { return &perceptron.Perceptron{Epochs: epochs} }}
				if err := o.Fit(ds.train, ds.ytrain); err != nil {
					t.Fatal(err)
				}
				// scikit-learn's coef_ holds a row of weights per class,
				// then intercept_ a bias per class.
				for _, m := range o.Models() {
					pw, pb := m.(*perceptron.Perceptron).Weights()
					w, b = append(w, pw...), append(b, pb...)
				}
			}
			coef, err := readFloats(filepath.Join(dir, fmt.Sprintf("perceptron-%d-w%d.coef", epochs, k)))
			if err != nil {
				t.Fatal(err)
			}
			if got := compareWeights(slices.Concat(w, b), coef); got.detail != "equal bit for bit" {
				t.Errorf("%s: weights and biases %s", name, got.detail)
			}
			if res[k].NIter != epochs {
				t.Errorf("%s: scikit-learn ran %d epochs, want %d", name, res[k].NIter, epochs)
			}
			// The weights make a difference: without them the model
			// differs.
			plain := &perceptron.OneVsRest{New: func() perceptron.Scorer { return &perceptron.Perceptron{Epochs: epochs} }}
			if err := plain.Fit(ds.train, ds.ytrain); err != nil {
				t.Fatal(err)
			}
			var pw []float64
			for _, m := range plain.Models() {
				mw, _ := m.(*perceptron.Perceptron).Weights()
				pw = append(pw, mw...)
			}
			if slices.Equal(pw, w) {
				t.Errorf("%s: the weights change nothing", name)
			}
		}
	}
}

// TestSklearnSampleWeight runs scikit-learn's Perceptron(shuffle=False,
// tol=None, eta0=1).fit(X, y, sample_weight=w) on small integer data of
// two classes and of four, with weights of the rows alone and with class
// weights too, and requires that FitContext of Perceptron, for two
// classes, and of OneVsRest of Perceptron, for four, with the same
// weights, end with its coef_ and intercept_ bit for bit: a mistake
// steps by the class's weight times the row's, and a row of weight 0
// makes none. It fits scikit-learn's perceptron stopped by its loss too,
// tol=1e-3 as Stop's zero value, and requires the epochs that Stop runs:
// the loss counts every row, of weight 0 too, unweighted. The weights
// of the rows, 0 to 4 in quarters and some of 0.3 and 1.7, round as the
// class weights of TestSklearnClassWeight do. With two classes, the
// averaged SGDClassifier's weights, which average its steps, one a row
// whatever its weight, are Averaged's up to rounding, as checkAveraged
// compares them.
func TestSklearnSampleWeight(t *testing.T) {
	t.Parallel()
	const epochs = 9
	rnd := rand.New(rand.NewPCG(5, 6))
	ctx := context.Background()
	for _, classes := range [][]float64{{0, 3}, {-1, 0, 2, 7}} {
		X, y := intClasses(rnd, 400, 6, classes)
		w := make([]float64, 300)
		for i := range w {
			w[i] = []float64{0, 0.25, 0.5, 1, 1.5, 2, 4, 0.3, 1.7}[rnd.IntN(9)]
		}
		ds := &dataSet{name: "ints", train: X.Slice(0, 300, 0, 6).(*mat.Dense), ytrain: y[:300],
			test: X.Slice(300, 400, 0, 6).(*mat.Dense), ytest: y[300:], wtrain: w}
		dir := t.TempDir()
		if err := sklearnFiles(dir, ds); err != nil {
			t.Fatal(err)
		}
		cw := map[float64]float64{classes[0]: 2, classes[1]: 0.7}
		fits := []string{
			fmt.Sprintf("perceptron:%d:1", epochs),
			fmt.Sprintf("perceptron:%d:1:%s", epochs, weightSpec(cw)),
			fmt.Sprintf("perceptron-tol:%d:1", 1000),
			fmt.Sprintf("sgd-avg:%d:1", epochs),
		}
		res, _, err := runSklearn("/usr/bin/python3", dir, ds, fits)
		if _, ok := err.(errMissing); ok {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		for k, c := range []struct {
			cw     map[float64]float64
			stop   *perceptron.Stop
			epochs int
			file   string
		}{
			{nil, nil, epochs, fmt.Sprintf("perceptron-%d.coef", epochs)},
			{cw, nil, epochs, fmt.Sprintf("perceptron-%d-w1.coef", epochs)},
			{nil, &perceptron.Stop{}, 1000, "perceptron-tol-1000.coef"},
		} {
			name := fmt.Sprintf("%d classes, %s", len(classes), fits[k])
			newP := func() *perceptron.Perceptron { return &perceptron.Perceptron{Epochs: c.epochs, Stop: c.stop} }
			var w, b []float64
			var ran []int
			if len(classes) == 2 {
				p := newP()
				p.ClassWeight = c.cw
				if err := perceptron.FitContext(ctx, p, ds.train, ds.ytrain, ds.wtrain...); err != nil {
					t.Fatal(err)
				}
				w, b = p.Weights()
				ran = append(ran, p.Stats().Epochs)
			} else {
				o := &perceptron.OneVsRest{ClassWeight: c.cw, New: func() perceptron.Scorer { return newP() }}
				if err := perceptron.FitContext(ctx, o, ds.train, ds.ytrain, ds.wtrain...); err != nil {
					t.Fatal(err)
				}
				for _, m := range o.Models() {
					pw, pb := m.(*perceptron.Perceptron).Weights()
					w, b = append(w, pw...), append(b, pb...)
					ran = append(ran, m.(*perceptron.Perceptron).Stats().Epochs)
				}
			}
			coef, err := readFloats(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := compareWeights(slices.Concat(w, b), coef); got.detail != "equal bit for bit" {
				t.Errorf("%s: weights and biases %s", name, got.detail)
			}
			// scikit-learn's n_iter_ is the most epochs of its classes.
			if want := slices.Max(ran); res[k].NIter != want {
				t.Errorf("%s: scikit-learn ran %d epochs, Perceptron %v", name, res[k].NIter, ran)
			}
			if c.stop != nil && slices.Max(ran) == c.epochs {
				t.Errorf("%s: the loss did not stop the run", name)
			}
		}
		if len(classes) == 2 {
			a := &perceptron.Averaged{Epochs: epochs}
			if err := perceptron.FitContext(ctx, a, ds.train, ds.ytrain, ds.wtrain...); err != nil {
				t.Fatal(err)
			}
			coef, err := readFloats(filepath.Join(dir, fmt.Sprintf("sgd-avg-%d.coef", epochs)))
			if err != nil {
				t.Fatal(err)
			}
			w, b := a.Weights()
			if got := compareScaled(w, b[0], coef, averageTol(300*epochs)); !got.ok {
				t.Errorf("Averaged and the averaged SGDClassifier of the weights: %s", got.detail)
			}
		}
		// The weights make a difference: without them the model differs.
		p, q := &perceptron.Perceptron{Epochs: epochs}, &perceptron.Perceptron{Epochs: epochs}
		if err := perceptron.FitContext(ctx, p, ds.train, ds.ytrain, ds.wtrain...); err != nil {
			t.Fatal(err)
		}
		if err := q.Fit(ds.train, ds.ytrain); err != nil {
			t.Fatal(err)
		}
		if pw, _ := p.Weights(); slices.Equal(pw, func() []float64 { qw, _ := q.Weights(); return qw }()) {
			t.Errorf("%d classes: the weights of the rows change nothing", len(classes))
		}
	}
}
