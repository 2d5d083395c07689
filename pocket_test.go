// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// naivePocket is the pocket of the naive run, as an independent reference.
// By default it is the earliest of the starting weights and the weights
// after each update with the fewest misclassified rows. With ratchet it is
// Gallant's ratchet written out without Pocket's economies: a pocket that
// starts empty, and the current weights counted in full at every step of
// their run longer than the pocket's. errors is the number of rows that
// the pocket misclassifies.
func naivePocket(X [][]float64, y []float64, tr pavTrial, ratchet bool) (w []float64, b float64, errors int) {
	visits, perEpoch := pavVisits(X, y, tr, true)
	w = make([]float64, len(X[0]))
	copy(w, tr.w0)
	errors = pavErrors(X, y, w, b)
	if !ratchet {
		for _, v := range visits {
			if !v.mistake {
				continue
			}
			if e := pavErrors(X, y, v.w, v.b); e < errors {
				w, b, errors = v.w, v.b, e
			}
		}
		return w, b, errors
	}
	best, run, record := len(X), 0, 0
	for _, v := range visits {
		if v.mistake {
			run = 0
			continue
		}
		run++
		if run > record {
			if e := pavErrors(X, y, v.w, v.b); e < best {
				w, b, best, record = v.w, v.b, e, run
			}
		}
	}
	if best < len(X) {
		errors = best
	}
	if perEpoch[len(perEpoch)-1] == 0 && errors > 0 {
		last := visits[len(visits)-1]
		w, b, errors = last.w, last.b, 0
	}
	return w, b, errors
}

// pavCheckPocket fails t unless p's pocket is w, b and PredictRows gets
// errors rows of X wrong.
func pavCheckPocket(t *testing.T, name string, p *Pocket, X mat.Matrix, y, w []float64, b float64, errors int) {
	t.Helper()
	pw, pb := p.Weights()
	if wrong := pavWrong(p, X, y); !slices.Equal(pw, w) || len(pb) != 1 || pb[0] != b || wrong != errors {
		t.Fatalf("%s: pocket w=%v b=%v with %d misclassified, want w=%v b=%v with %d", name, pw, pb, wrong, w, b, errors)
	}
}

func TestPocketMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(31, 32))
	for k := range 400 {
		n, d := 1+rnd.IntN(25), 1+rnd.IntN(4)
		rows, X, y := intSet(rnd, n, d)
		tr := pavRandomTrial(rnd, d)
		for _, ratchet := range []bool{false, true} {
			p := tr.pocket(ratchet)
			if err := p.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			w, b, errors := naivePocket(rows, y, tr, ratchet)
			pavCheckPocket(t, fmt.Sprintf("trial %d (%+v), Ratchet %t", k, tr, ratchet), p, X, y, w, b, errors)
		}
	}
}

// TestPocketNoisy checks the exact pocket against the naive one on many
// larger noisy sets of integers, where the counts are long enough for the
// batches, the order of the rows and the early stops to matter.
func TestPocketNoisy(t *testing.T) {
	rnd := rand.New(rand.NewPCG(35, 36))
	for k := range 40 {
		n, d := 50+rnd.IntN(250), 1+rnd.IntN(6)
		rows, X, y := intSet(rnd, n, d)
		// Labels from a hyperplane, one in ten flipped.
		for i, x := range rows {
			y[i] = sign(x[0] - x[d-1] + 0.5)
			if rnd.IntN(10) == 0 {
				y[i] = -y[i]
			}
		}
		tr := pavRandomTrial(rnd, d)
		tr.epochs = 1 + rnd.IntN(8)
		p := tr.pocket(false)
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		w, b, errors := naivePocket(rows, y, tr, false)
		pavCheckPocket(t, fmt.Sprintf("trial %d (%+v)", k, tr), p, X, y, w, b, errors)
	}
}

func TestPocketProperties(t *testing.T) {
	// On real data, where the exact comparison with the naive run does
	// not apply, the pocket still obeys what its definition implies: the
	// exact pocket is the earliest of the starting weights and the
	// weights after each update of the run, as OnUpdate sees them, with
	// the fewest misclassified rows, counted by plain loops.
	rnd := rand.New(rand.NewPCG(33, 34))
	for k := range 100 {
		n, d := 1+rnd.IntN(200), 1+rnd.IntN(10)
		X, y := pavRealSet(n, d)
		rows := pavRows(X)
		tr := pavRandomTrial(rnd, d)
		tr.epochs = 1 + rnd.IntN(30)
		ratchet, exact, last := tr.pocket(true), tr.pocket(false), tr.perceptron()
		var cands [][]float64 // the weights and bias of each candidate
		start := make([]float64, d+1)
		copy(start, tr.w0)
		cands = append(cands, start)
		exact.OnUpdate = func(u Update) {
			cands = append(cands, append(slices.Clone(u.Weights), u.Biases[0]))
		}
		for _, c := range []Classifier{ratchet, exact, last} {
			if err := c.Fit(X, y); err != nil {
				t.Fatal(err)
			}
		}
		best, bestErrors := -1, n+1
		for c, wb := range cands {
			if e := pavErrors(rows, y, wb[:d], wb[d]); e < bestErrors {
				best, bestErrors = c, e
			}
		}
		if got := exact.Stats().Mistakes + 1; len(cands) != got {
			t.Fatalf("trial %d: %d candidates for %d mistakes", k, len(cands), got-1)
		}
		ew, eb := exact.Weights()
		wrong := pavWrong(exact, X, y)
		if !slices.Equal(append(ew, eb[0]), cands[best]) || wrong != bestErrors {
			t.Fatalf("trial %d: the exact pocket is w=%v b=%v with %d misclassified, want candidate %d of %d, %v with %d",
				k, ew, eb, wrong, best, len(cands), cands[best], bestErrors)
		}
		// The counts of PredictRows are those of Predict.
		for name, p := range map[string]*Pocket{"Ratchet": ratchet, "exact": exact} {
			byPredict := 0
			for i, x := range rows {
				if p.Predict(x) != y[i] {
					byPredict++
				}
			}
			if got := pavWrong(p, X, y); got != byPredict {
				t.Fatalf("trial %d, %s: PredictRows gets %d rows wrong, Predict %d", k, name, got, byPredict)
			}
		}
		// Both pockets are weights of the same run, and the exact one is
		// the best of them all.
		lw, lb := last.Weights()
		final := pavErrors(rows, y, lw, lb[0])
		first := pavErrors(rows, y, start[:d], 0)
		if r := pavWrong(ratchet, X, y); wrong > r || wrong > final || wrong > first {
			t.Fatalf("trial %d: the exact pocket misclassifies %d rows, the ratchet's %d, the last weights %d, the starting weights %d",
				k, wrong, r, final, first)
		}
	}
}

func TestPocketTraces(t *testing.T) {
	line := mat.NewDense(5, 1, []float64{2, 1, -1, -2, 3})
	xor := mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0})
	simple := mat.NewDense(4, 2, []float64{1, 1, 2, 2, 1, 2, 2, 1})
	and := mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1})
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
		// ExamplePocket: the weights (2; 1) that the first update makes
		// misclassify only the noisy point; (2; 0) and (1; 0) later tie
		// with them. By the ratchet they are the first weights counted,
		// after a run of 1, and the later ones do not beat them.
		{"line", line, []float64{1, 1, -1, -1, -1}, Pocket{Epochs: 3}, []float64{2}, 1, 1, []int{2, 3, 2}},
		{"line Ratchet", line, []float64{1, 1, -1, -1, -1}, Pocket{Epochs: 3, Ratchet: true}, []float64{2}, 1, 1, []int{2, 3, 2}},
		// XOR in order (ExamplePocket_xor): (-1, -1; 0), made by the first
		// update of epoch 2, gets 3 of 4 right, every other weights 2. The
		// ratchet counts only (0, 0; 1), the one weights with a run, and
		// pockets it in place of the uncounted starting weights; from
		// epoch 2 on every visit is a mistake.
		{"XOR", xor, []float64{1, 1, -1, -1}, Pocket{Epochs: 3}, []float64{-1, -1}, 0, 1, []int{3, 4, 4}},
		{"XOR Ratchet", xor, []float64{1, 1, -1, -1}, Pocket{Epochs: 3, Ratchet: true}, []float64{0, 0}, 1, 2, []int{3, 4, 4}},
		// The simple dataset of the notes (ExamplePocket_simpleDataset):
		// (2, -2; 1), made by the third update of epoch 4, gets 3 of 4
		// right, every other weights 2. The ratchet counts (1, 1; 1) after
		// a run of 1, and no later weights have a run of 2.
		{"simple", simple, []float64{1, 1, -1, -1}, Pocket{Epochs: 4}, []float64{2, -2}, 1, 1, []int{2, 2, 2, 4}},
		{"simple Ratchet", simple, []float64{1, 1, -1, -1}, Pocket{Epochs: 4, Ratchet: true}, []float64{1, 1}, 1, 2, []int{2, 2, 2, 4}},
		// AND converges in epoch 9 (ExamplePerceptron_and). (2, 1; -3),
		// made in epoch 5, scores 0 on (1, 1), which Predict labels +1 but
		// the perceptron's rule counts as a mistake: the exact pocket
		// keeps them, the earliest weights without a misclassified row.
		// The ratchet keeps the last weights, which misclassify nothing.
		{"AND", and, []float64{-1, -1, -1, 1}, Pocket{}, []float64{2, 1}, -3, 0, []int{2, 3, 3, 2, 2, 3, 2, 1, 0}},
		{"AND Ratchet", and, []float64{-1, -1, -1, 1}, Pocket{Ratchet: true}, []float64{3, 2}, -4, 0, []int{2, 3, 3, 2, 2, 3, 2, 1, 0}},
	} {
		p := tc.p
		if err := p.Fit(tc.X, tc.y); err != nil {
			t.Fatal(err)
		}
		w, b := p.Weights()
		wrong := pavWrong(&p, tc.X, tc.y)
		if !slices.Equal(w, tc.w) || len(b) != 1 || b[0] != tc.b || wrong != tc.errors || !slices.Equal(p.Stats().EpochMistakes, tc.perEpoch) {
			t.Errorf("%s: pocket w=%v b=%v with %d misclassified, mistakes per epoch %v; want w=%v b=%v with %d, %v",
				tc.name, w, b, wrong, p.Stats().EpochMistakes, tc.w, tc.b, tc.errors, tc.perEpoch)
		}
	}
}

// TestPocketWorkers checks that the pocket does not depend on the number
// of goroutines that count, on rows in order and shuffled, for both rules.
func TestPocketWorkers(t *testing.T) {
	X, y := pavRealSet(1500, 100)
	fit := func(procs int, shuffle, ratchet bool) *Pocket {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		p := &Pocket{Epochs: 8, Ratchet: ratchet}
		if shuffle {
			p.Rand = rand.New(rand.NewPCG(5, 6))
		}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, shuffle := range []bool{false, true} {
		for _, ratchet := range []bool{false, true} {
			one, three := fit(1, shuffle, ratchet), fit(3, shuffle, ratchet)
			w1, b1 := one.Weights()
			w3, b3 := three.Weights()
			e1, e3 := pavWrong(one, X, y), pavWrong(three, X, y)
			if !slices.Equal(w1, w3) || !slices.Equal(b1, b3) || e1 != e3 {
				t.Errorf("shuffle %v, Ratchet %v: with 3 goroutines the pocket misclassifies %d rows, with 1 %d, or its weights differ",
					shuffle, ratchet, e3, e1)
			}
			wrong := 0
			for i := range y {
				if three.Predict(X.RawRowView(i)) != y[i] {
					wrong++
				}
			}
			if wrong != e3 {
				t.Errorf("shuffle %v, Ratchet %v: PredictRows gets %d rows wrong, Predict %d", shuffle, ratchet, e3, wrong)
			}
			if three.Stats().Converged || e1 == 0 {
				t.Errorf("shuffle %v, Ratchet %v: the run converged: no count was tested", shuffle, ratchet)
			}
		}
	}
}
