// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// naivePocket is the pocket of the naive run, as an independent reference.
// With checkAll it is the earliest weights of the run with the fewest
// misclassified rows. Otherwise it is Gallant's ratchet written out
// without Pocket's economies: every candidate is counted in full, and
// counted again at every step of its run.
func naivePocket(X [][]float64, y []float64, tr trial, checkAll bool) (w []float64, b float64, errors int) {
	visits, perEpoch := naiveVisits(X, y, tr)
	w = make([]float64, len(X[0]))
	copy(w, tr.w0)
	b = tr.b0
	errors = naiveErrors(X, y, w, b)
	if checkAll {
		for _, v := range visits {
			if !v.mistake {
				continue
			}
			if e := naiveErrors(X, y, v.w, v.b); e < errors {
				w, b, errors = v.w, v.b, e
			}
		}
	} else {
		// record is the run of the pocket weights, which grows with run
		// while they are the current weights.
		run, record, pocketed := 0, 0, true
		for _, v := range visits {
			switch {
			case v.mistake:
				run, pocketed = 0, false
			case pocketed:
				run++
				record = run
			default:
				run++
				if run > record {
					if e := naiveErrors(X, y, v.w, v.b); e < errors {
						w, b, errors = v.w, v.b, e
						record, pocketed = run, true
					}
				}
			}
		}
	}
	if perEpoch[len(perEpoch)-1] == 0 && errors > 0 {
		last := visits[len(visits)-1]
		w, b, errors = last.w, last.b, 0
	}
	return w, b, errors
}

func TestPocketMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 32))
	for k := range 400 {
		n, d := 1+rnd.IntN(25), 1+rnd.IntN(4)
		rows, X, y := intSet(rnd, n, d)
		tr := randomTrial(rnd, d)
		for _, checkAll := range []bool{false, true} {
			s := tr.settings()
			p := &Pocket{Epochs: s.Epochs, Rate: s.Rate, Rand: s.Rand, NoBias: s.NoBias, InitWeights: s.InitWeights, InitBias: s.InitBias, CheckAll: checkAll}
			if err := p.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			w, b, errors := naivePocket(rows, y, tr, checkAll)
			if !slices.Equal(p.Weights(), w) || p.Bias() != b || p.Misclassified() != errors {
				t.Fatalf("trial %d, CheckAll %t: pocket w=%v b=%v with %d misclassified, want w=%v b=%v with %d",
					k, checkAll, p.Weights(), p.Bias(), p.Misclassified(), w, b, errors)
			}
		}
	}
}

func TestPocketProperties(t *testing.T) {
	// On real data, where the exact comparison with the naive run does
	// not apply, the pocket still obeys what its definition implies.
	rnd := rand.New(rand.NewPCG(33, 34))
	for k := range 100 {
		n, d := 1+rnd.IntN(200), 1+rnd.IntN(10)
		X, y := benchData(n, d)
		rows := make([][]float64, n)
		for i := range rows {
			rows[i] = X.RawRowView(i)
		}
		tr := randomTrial(rnd, d)
		tr.epochs = 1 + rnd.IntN(30)
		var ratchet, all Pocket
		set(&ratchet, tr.settings())
		set(&all, tr.settings())
		all.CheckAll = true
		last := tr.settings()
		for _, c := range []Classifier{&ratchet, &all, &last} {
			if err := c.Fit(X, y); err != nil {
				t.Fatal(err)
			}
		}
		start := naiveErrors(rows, y, make([]float64, d), tr.b0)
		if tr.w0 != nil {
			start = naiveErrors(rows, y, tr.w0, tr.b0)
		}
		final := naiveErrors(rows, y, last.Weights(), last.Bias())
		for name, p := range map[string]*Pocket{"ratchet": &ratchet, "CheckAll": &all} {
			wrong := 0
			for i, x := range rows {
				if p.Predict(x) != y[i] {
					wrong++
				}
			}
			if p.Misclassified() != wrong {
				t.Fatalf("trial %d, %s: Misclassified %d, but Predict gets %d rows wrong", k, name, p.Misclassified(), wrong)
			}
			if wrong > start {
				t.Fatalf("trial %d, %s: the pocket misclassifies %d rows, the starting weights %d", k, name, wrong, start)
			}
		}
		// Both pockets are weights of the same run, and CheckAll's is the
		// best of them all.
		if all.Misclassified() > ratchet.Misclassified() || all.Misclassified() > final {
			t.Fatalf("trial %d: CheckAll's pocket misclassifies %d rows, the ratchet's %d, the last weights %d",
				k, all.Misclassified(), ratchet.Misclassified(), final)
		}
	}
}

func TestPocketTraces(t *testing.T) {
	for _, tc := range []struct {
		name     string
		X        *mat.Dense
		y        []float64
		p        Pocket
		w        []float64
		b        float64
		errors   int
		perEpoch []int
	}{
		// ExamplePocket: the weights (2, 1) that the first update makes
		// misclassify only the noisy point, and their run of 3 is never
		// beaten.
		{"line", mat.NewDense(5, 1, []float64{2, 1, -1, -2, 3}), []float64{1, 1, -1, -1, -1},
			Pocket{Epochs: 3}, []float64{2}, 1, 1, []int{2, 3, 2}},
		// XOR in order: the first count, of (0, 0; 1), ties with the
		// starting weights, and from epoch 2 on every visit is a mistake,
		// so no weights have a run: the ratchet keeps the starting
		// weights. ExamplePocket_xor: CheckAll finds (-1, -1; 0), made by
		// the first update of epoch 2, which gets 3 of 4 right.
		{"XOR", mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0}), []float64{1, 1, -1, -1},
			Pocket{Epochs: 3}, []float64{0, 0}, 0, 2, []int{3, 4, 4}},
		{"XOR CheckAll", mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0}), []float64{1, 1, -1, -1},
			Pocket{Epochs: 3, CheckAll: true}, []float64{-1, -1}, 0, 1, []int{3, 4, 4}},
		// The simple dataset of the notes: ExamplePocket_simpleDataset.
		{"simple", mat.NewDense(4, 2, []float64{1, 1, 2, 2, 1, 2, 2, 1}), []float64{1, 1, -1, -1},
			Pocket{Epochs: 4}, []float64{0, 0}, 0, 2, []int{2, 2, 2, 4}},
		{"simple CheckAll", mat.NewDense(4, 2, []float64{1, 1, 2, 2, 1, 2, 2, 1}), []float64{1, 1, -1, -1},
			Pocket{Epochs: 4, CheckAll: true}, []float64{2, -2}, 1, 1, []int{2, 2, 2, 4}},
		// AND converges in epoch 9 (ExamplePerceptron_and): the pocket is
		// the last weights, which misclassify nothing.
		{"AND", mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1}), []float64{-1, -1, -1, 1},
			Pocket{}, []float64{3, 2}, -4, 0, []int{2, 3, 3, 2, 2, 3, 2, 1, 0}},
		// CheckAll finds earlier weights that misclassify nothing: (2, 1;
		// -3), made in epoch 5, scores 0 on (1, 1), which Predict labels
		// +1 but the perceptron's rule counts as a mistake. The pocket
		// keeps them, the earliest of the weights without a misclassified
		// row.
		{"AND CheckAll", mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1}), []float64{-1, -1, -1, 1},
			Pocket{CheckAll: true}, []float64{2, 1}, -3, 0, []int{2, 3, 3, 2, 2, 3, 2, 1, 0}},
	} {
		p := tc.p
		if err := p.Fit(tc.X, tc.y); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Weights(), tc.w) || p.Bias() != tc.b || p.Misclassified() != tc.errors || !slices.Equal(p.Stats().EpochMistakes, tc.perEpoch) {
			t.Errorf("%s: pocket w=%v b=%v with %d misclassified, mistakes per epoch %v; want w=%v b=%v with %d, %v",
				tc.name, p.Weights(), p.Bias(), p.Misclassified(), p.Stats().EpochMistakes, tc.w, tc.b, tc.errors, tc.perEpoch)
		}
	}
}

// TestPocketSharedCounts checks that counts shared among goroutines, on a
// set large enough for them, give the pocket that one goroutine gives, on
// rows in order and shuffled.
func TestPocketSharedCounts(t *testing.T) {
	X, y := benchData(1500, 100)
	if n, d := X.Dims(); n*d < minTally {
		t.Fatalf("%d×%d set: counts are not shared", n, d)
	}
	fit := func(procs int, shuffle bool) *Pocket {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		p := &Pocket{Epochs: 20}
		if shuffle {
			p.Rand = rand.New(rand.NewPCG(5, 6))
		}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// On integer rows, where float64 sums are exact, against the naive
	// pocket.
	rnd := rand.New(rand.NewPCG(7, 8))
	rows, Xi, yi := intSet(rnd, 1400, 96)
	procs := runtime.GOMAXPROCS(3)
	for _, random := range []bool{false, true} {
		tr := trial{epochs: 3, rate: 1, seed: 9, random: random, bias: true}
		var p Pocket
		set(&p, tr.settings())
		if err := p.Fit(Xi, yi); err != nil {
			t.Fatal(err)
		}
		w, b, e := naivePocket(rows, yi, tr, false)
		if !slices.Equal(p.Weights(), w) || p.Bias() != b || p.Misclassified() != e {
			t.Errorf("shuffle %v: the pocket misclassifies %d rows, the naive pocket %d, or their weights differ", random, p.Misclassified(), e)
		}
	}
	runtime.GOMAXPROCS(procs)
	for _, shuffle := range []bool{false, true} {
		one, three := fit(1, shuffle), fit(3, shuffle)
		if !slices.Equal(one.Weights(), three.Weights()) || one.Bias() != three.Bias() || one.Misclassified() != three.Misclassified() {
			t.Errorf("shuffle %v: with 3 goroutines the pocket misclassifies %d rows, with 1 %d, or its weights differ",
				shuffle, three.Misclassified(), one.Misclassified())
		}
		wrong := 0
		for i := range y {
			if three.Predict(X.RawRowView(i)) != y[i] {
				wrong++
			}
		}
		if wrong != three.Misclassified() {
			t.Errorf("shuffle %v: Misclassified %d, but Predict gets %d rows wrong", shuffle, three.Misclassified(), wrong)
		}
		if three.Stats().Epochs != 20 || one.Misclassified() == 0 {
			t.Errorf("shuffle %v: the run converged: no count was tested", shuffle)
		}
	}
}
