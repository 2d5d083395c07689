// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// intClasses returns n rows of d integers in [-3, 3] with labels among
// classes: the class whose row of a random integer teacher scores the
// row highest, one label in five replaced at random, so that the data are
// not separable and every sum of a perceptron with rate 1 is exact.
func intClasses(rnd *rand.Rand, n, d int, classes []float64) (*mat.Dense, []float64) {
	k := len(classes)
	teacher := make([]float64, k*d)
	for j := range teacher {
		teacher[j] = float64(rnd.IntN(7) - 3)
	}
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		x := X.RawRowView(i)
		for j := range x {
			x[j] = float64(rnd.IntN(7) - 3)
		}
		best, c := 0.0, 0
		for cc := range k {
			s := 0.0
			for j, v := range x {
				s += teacher[cc*d+j] * v
			}
			if cc == 0 || s > best {
				best, c = s, cc
			}
		}
		if rnd.IntN(5) == 0 {
			c = rnd.IntN(k)
		}
		y[i] = classes[c]
	}
	return X, y
}

// TestOneVsRestSklearn runs the OneVsRest check on small integer data of
// four classes, and requires that OneVsRest and scikit-learn's Perceptron
// agree on every prediction and on every weight.
func TestOneVsRestSklearn(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	// scikit-learn takes whole numbers for classes, not 2.5.
	classes := []float64{-1, 0, 2, 7}
	X, y := intClasses(rnd, 400, 6, classes)
	ds := oneVsRest(&dataSet{name: "ints", about: "integers",
		train: X.Slice(0, 300, 0, 6).(*mat.Dense), ytrain: y[:300],
		test: X.Slice(300, 400, 0, 6).(*mat.Dense), ytest: y[300:]})
	r := &run{
		ds: ds, dir: t.TempDir(), epochs: 7, repeat: 1,
		python: "/usr/bin/python3",
		fitted: map[string]perceptron.Scorer{},
	}
	if failed := r.all(); failed != 0 {
		t.Fatalf("%d failures: %q %q", failed, r.notes, r.checkLines)
	}
	if !r.sklearnRan {
		t.Skip(r.notes)
	}
	want := []string{
		"check: OneVsRest Perceptron = scikit-learn Perceptron after 7 epochs: train predictions: agree (300 of 300 rows predicted alike)",
		"check: OneVsRest Perceptron = scikit-learn Perceptron after 7 epochs: test predictions: agree (100 of 100 rows predicted alike)",
		"check: OneVsRest Perceptron = scikit-learn Perceptron after 7 epochs: weights and biases of every class: agree (equal bit for bit)",
	}
	if !reflect.DeepEqual(r.checkLines, want) {
		t.Errorf("checks:\n%s\nwant\n%s", strings.Join(r.checkLines, "\n"), strings.Join(want, "\n"))
	}
	// The data are not separable, so that the models did learn: a
	// perceptron of each class that stopped at once would agree too.
	if m := r.fitted["OneVsRest Perceptron"].(*perceptron.OneVsRest).Models()[0].(*perceptron.Perceptron); m.Stats().Epochs != 7 {
		t.Errorf("the classifier of class %v ran %d epochs, want 7", classes[0], m.Stats().Epochs)
	}
	// A model of one epoch fewer must fail every check.
	o := &perceptron.OneVsRest{New: func() perceptron.Scorer { return &perceptron.Perceptron{Epochs: 6} }}
	if err := o.Fit(ds.train, ds.ytrain); err != nil {
		t.Fatal(err)
	}
	r.fitted["OneVsRest Perceptron"], r.checkLines, r.failed = o, nil, 0
	r.checkOneVsRest()
	if r.failed != 3 {
		t.Errorf("%d of 3 checks failed for a model of 6 epochs against 7:\n%s", r.failed, strings.Join(r.checkLines, "\n"))
	}
}

func TestSamePredictions(t *testing.T) {
	for _, c := range []struct {
		ours, theirs []float64
		ok           bool
		detail       string
	}{
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, true, "3 of 3 rows predicted alike"},
		{[]float64{1, 2, 3}, []float64{1, 0, 0}, false, "1 of 3 rows predicted alike; the first that differs is row 1: ours 2, theirs 0"},
		{[]float64{1, 2, 3}, []float64{1, 2}, false, "the peer has 2 predictions, want 3"},
	} {
		if got := samePredictions(c.ours, c.theirs); got.ok != c.ok || got.detail != c.detail {
			t.Errorf("%v against %v: got %+v, want %t, %q", c.ours, c.theirs, got, c.ok, c.detail)
		}
	}
}

// TestClassTargets checks that the targets of a multiclass set are met
// at their bounds and missed beyond them.
func TestClassTargets(t *testing.T) {
	goal := classGoal{minTest: 0.84, minPeer: 9.9, maxStream: 1.5, maxPredict: 1.2}
	for _, c := range []struct {
		test, peerTest float64
		floor, stream  time.Duration
		predict        time.Duration
		lines          []string
	}{
		{0.84, 0.84, 181818182 * time.Nanosecond, 133333334 * time.Nanosecond, 1200 * time.Millisecond, []string{
			"target: Averaged: test accuracy 84.00%: met (want >= 84.0%)",
			"target: Averaged: scikit-learn SGD fit / ours 9.90x, both 5 epochs, test accuracy 84.00% against ours 84.00%: met (want >= 9.9x at no lower accuracy)",
			"LIBLINEAR -s 1 fit / Averaged's: 30.0x",
			"target: Averaged: ours per epoch / floor 1.10x: met (want <= 1.1x)",
			"target: Averaged: ours per epoch / stream floor 1.50x: met (want <= 1.5x)",
			"target: Averaged: PredictRows of the test rows / their stream floor 1.20x: met (want <= 1.2x)",
		}},
		{0.8399, 0.85, 180180180 * time.Nanosecond, 133333332 * time.Nanosecond, 1210 * time.Millisecond, []string{
			"!!! target: Averaged: test accuracy 83.99%: MISSED (want >= 84.0%)",
			"!!! target: Averaged: scikit-learn SGD fit / ours 9.90x, both 5 epochs, test accuracy 85.00% against ours 83.99%: MISSED (want >= 9.9x at no lower accuracy)",
			"LIBLINEAR -s 1 fit / Averaged's: 30.0x",
			"!!! target: Averaged: ours per epoch / floor 1.11x: MISSED (want <= 1.1x)",
			"!!! target: Averaged: ours per epoch / stream floor 1.50x: MISSED (want <= 1.5x)",
			"!!! target: Averaged: PredictRows of the test rows / their stream floor 1.21x: MISSED (want <= 1.2x)",
		}},
	} {
		r := &run{floor: c.floor, stream: c.stream, testStream: time.Second, rows: []row{
			{system: "this library", model: "Averaged", epochs: 5, fit: time.Second, test: c.test, predict: c.predict},
			{system: "scikit-learn", model: "SGD", epochs: 5, fit: 9900 * time.Millisecond, vs: "Averaged", test: c.peerTest},
			{system: "LIBLINEAR", model: "liblinear-train -s 1", epochs: noEpochs, fit: 30 * time.Second},
		}}
		r.classTargets(goal)
		want := c.lines
		if !reflect.DeepEqual(r.checkLines, want) {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(r.checkLines, "\n"), strings.Join(want, "\n"))
		}
		if wantFailed := strings.Count(strings.Join(want, "\n"), "MISSED"); r.failed != wantFailed {
			t.Errorf("%d failures, want %d", r.failed, wantFailed)
		}
	}
}

// TestWriteLibsvm writes sparse rows in LIBSVM's format and reads them
// back with package data.
func TestWriteLibsvm(t *testing.T) {
	X, err := perceptron.NewCSR(3, 5, []int{0, 2, 2, 4}, []int{0, 4, 1, 3}, []float64{0.1, 1, -2.5e-7, 1.0 / 3})
	if err != nil {
		t.Fatal(err)
	}
	y := []float64{3, 0, 34}
	var buf bytes.Buffer
	if err := writeLibsvm(&buf, X, y); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "3 1:0.1 5:1\n0\n34 2:-2.5e-07 4:0.3333333333333333\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	s, err := data.LIBSVM{Cols: 5}.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// The classes are the labels, sorted by value.
	if !mat.Equal(s.X, X) || !reflect.DeepEqual(s.Classes, []string{"0", "3", "34"}) || !reflect.DeepEqual(s.Y, []float64{1, 0, 2}) {
		t.Errorf("read back %v, classes %q of the rows %v", mat.Formatted(s.X), s.Classes, s.Y)
	}
}

func TestParseLiblinear(t *testing.T) {
	c, err := parseLiblinear([]byte("Accuracy = 83.8744% (10127/12074)\n"))
	if err != nil || c != (classified{10127, 12074}) {
		t.Errorf("got %+v, %v; want 10127 of 12074", c, err)
	}
	for _, out := range []string{"", "Accuracy = 0% (0/0)\n", "Segmentation fault\n"} {
		if _, err := parseLiblinear([]byte(out)); err == nil {
			t.Errorf("%q parsed", out)
		}
	}
}

// TestLiblinear runs LIBLINEAR's solvers through the command on three
// classes that a word of their own tells apart, which both must then
// classify without a mistake.
func TestLiblinear(t *testing.T) {
	t.Parallel()
	const n = 30
	ptr, ind, val, y := []int{0}, []int(nil), []float64(nil), []float64(nil)
	for i := range n {
		c := i % 3
		ind = append(ind, c, 3+i)
		val = append(val, 1, 1)
		ptr = append(ptr, len(ind))
		y = append(y, float64(c))
	}
	X, err := perceptron.NewCSR(n, 3+n, ptr, ind, val)
	if err != nil {
		t.Fatal(err)
	}
	r := &run{
		ds:  &dataSet{name: "words", train: X, ytrain: y, test: X, ytest: y, peers: liblinearPeers},
		dir: t.TempDir(),
	}
	r.liblinear()
	if r.failed != 0 {
		t.Fatal(r.notes)
	}
	if len(r.rows) == 0 {
		t.Skip(r.notes)
	}
	if len(r.rows) != len(liblinearPeers) {
		t.Fatalf("%d rows, want %d: %q", len(r.rows), len(liblinearPeers), r.notes)
	}
	for _, w := range r.rows {
		if w.train != 1 || w.test != 1 || w.fit <= 0 {
			t.Errorf("%s: train %v, test %v, fit %v; want 1, 1 and a time", w.model, w.train, w.test, w.fit)
		}
	}
}
