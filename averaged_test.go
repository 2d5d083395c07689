// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// naiveAverage is the average of the weights and biases after every visit
// of the naive run of all its epochs, as Daumé's algorithm runs them,
// summed visit by visit.
func naiveAverage(X [][]float64, y []float64, tr trial) (w []float64, b float64) {
	visits, _ := naiveVisits(X, y, tr, false)
	w = make([]float64, len(X[0]))
	for _, v := range visits {
		for j := range w {
			w[j] += v.w[j]
		}
		b += v.b
	}
	T := float64(len(visits))
	for j := range w {
		w[j] /= T
	}
	return w, b / T
}

func TestAveragedMatchesNaive(t *testing.T) {
	// On whole numbers, with rates that are powers of two, every sum is
	// exact, so the trick must give the naive average to the last bit:
	// both divide the same exact sum by the same number of visits.
	rnd := rand.New(rand.NewPCG(41, 42))
	early := 0 // the runs that converge before their last epoch
	for k := range 400 {
		n, d := 1+rnd.IntN(25), 1+rnd.IntN(5)
		rows, X, y := intSet(rnd, n, d)
		tr := randomTrial(rnd, d)
		var a Averaged
		set(&a, tr.settings())
		if err := a.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if st := a.Stats(); st.Converged && st.Epochs < tr.epochs {
			early++
		}
		w, b := naiveAverage(rows, y, tr)
		if !slices.Equal(a.Weights(), w) || a.Bias() != b {
			t.Fatalf("trial %d (%+v): averaged w=%v b=%v, naive average w=%v b=%v", k, tr, a.Weights(), a.Bias(), w, b)
		}
		// The sums are exact, so the prediction is the sign of the exact
		// summed score, +1 on a tie.
		test, _, _ := intSet(rnd, 30, d)
		for _, x := range append(test, rows...) {
			exact := b
			for j := range x {
				exact += w[j] * x[j]
			}
			if got, want := a.Predict(x), sign(exact); got != want && math.Abs(exact) > 1e-9 {
				t.Fatalf("trial %d: Predict(%v) = %v, the naive average scores %v", k, x, got, exact)
			}
		}
	}
	if early == 0 {
		t.Error("no run converged before its last epoch: the epochs left are not tested")
	}
}

// TestAveragedExactTie checks that a point on the averaged hyperplane is
// +1, as a score of zero is for every classifier, although the averaged
// weights, rounded, may score it a little below zero; and that Kernel's
// averaged rule with the linear kernel agrees.
func TestAveragedExactTie(t *testing.T) {
	rnd := rand.New(rand.NewPCG(45, 46))
	ties := 0
	for k := range 300 {
		n := 2 + rnd.IntN(20)
		rows, X, y := intSet(rnd, n, 2)
		tr := randomTrial(rnd, 2)
		tr.bias, tr.b0 = false, 0
		var a Averaged
		set(&a, tr.settings())
		if err := a.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		// The exact sums through the origin, and a point on their
		// hyperplane.
		visits, _ := naiveVisits(rows, y, tr, false)
		sw := make([]float64, 2)
		for _, v := range visits {
			floats.Add(sw, v.w)
		}
		if sw[0] == 0 && sw[1] == 0 {
			continue
		}
		x := []float64{sw[1], -sw[0]}
		if a.Predict(x) != 1 {
			t.Fatalf("trial %d: the summed weights %v score %v exactly 0, Predict says %v", k, sw, x, a.Predict(x))
		}
		if aw := a.Weights(); aw[0]*x[0]+aw[1]*x[1] < 0 {
			ties++ // the rounded average would have said -1
		}
		kn := &Kernel{Prediction: PredictAveraged, Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: true, Labels: binaryLabels}
		if tr.w0 != nil {
			continue // Kernel starts from the empty hypothesis
		}
		if err := kn.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if kn.Predict(x) != 1 {
			t.Fatalf("trial %d: Kernel's averaged rule says %v on the tie", k, kn.Predict(x))
		}
	}
	if ties == 0 {
		t.Error("no rounded average fell below zero on a tie: the tie rule is not tested")
	}
}

func TestAveragedTraces(t *testing.T) {
	for _, tc := range []struct {
		name string
		X    *mat.Dense
		y    []float64
		a    Averaged
		w    []float64
		b    float64
	}{
		// ExampleAveraged: the weights after the 10 visits are 2, 2, 2,
		// 2, -1, 1, 1, 2, 2, -1 and the biases 1, 1, 1, 1, 0, 1, 1, 0, 0,
		// -1, so the average is w=12/10, b=5/10.
		{"line", mat.NewDense(5, 1, []float64{2, 1, -1, -2, 3}), []float64{1, 1, -1, -1, -1},
			Averaged{Epochs: 2}, []float64{1.2}, 0.5},
		// The 3-point exercise of notes 004, through the origin from
		// (1, -0.8): the three updates of epoch 1 leave (2, 1.2), (3,
		// -0.8) and (3, 0.2), and the three visits of epoch 2 keep
		// (3, 0.2), so the average is (17/6, (1.2-0.8+4·0.2)/6) = (17/6,
		// 0.2) up to rounding in the second weight.
		{"3 points", mat.NewDense(3, 2, []float64{1, 2, -1, 2, 0, -1}), []float64{1, -1, -1},
			Averaged{Epochs: 2, NoBias: true, InitWeights: []float64{1, -0.8}}, []float64{17.0 / 6, 0.2}, 0},
		// The zero value averages DefaultEpochs epochs, the last 999
		// passed in closed form: (3, 0.2) survives 2997 visits, and the
		// average is ((2+3+3+2997·3)/3000, (1.2-0.8+0.2+2997·0.2)/3000) =
		// (8999/3000, 0.2).
		{"3 points, all epochs", mat.NewDense(3, 2, []float64{1, 2, -1, 2, 0, -1}), []float64{1, -1, -1},
			Averaged{NoBias: true, InitWeights: []float64{1, -0.8}}, []float64{8999.0 / 3000, 0.2}, 0},
	} {
		a := tc.a
		if err := a.Fit(tc.X, tc.y); err != nil {
			t.Fatal(err)
		}
		w := a.Weights()
		for j := range w {
			// 1e-15 allows the rounding of -0.8+1 (notes' errata).
			if diff := w[j] - tc.w[j]; diff > 1e-15 || diff < -1e-15 {
				t.Errorf("%s: averaged w=%v b=%v, want w=%v b=%v", tc.name, w, a.Bias(), tc.w, tc.b)
			}
		}
		if a.Bias() != tc.b {
			t.Errorf("%s: averaged b=%v, want %v", tc.name, a.Bias(), tc.b)
		}
	}
}

func TestAveragedRateScales(t *testing.T) {
	// From zero weights and bias the rate scales every weight vector of
	// the run, so their average too.
	rnd := rand.New(rand.NewPCG(43, 44))
	for range 50 {
		_, X, y := intSet(rnd, 20, 4)
		one, half := &Averaged{Epochs: 7}, &Averaged{Epochs: 7, Rate: 0.5}
		if err := one.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if err := half.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		w1, wh := one.Weights(), half.Weights()
		for j := range w1 {
			if wh[j] != w1[j]/2 {
				t.Fatalf("rate 0.5 gave w=%v, want half of %v", wh, w1)
			}
		}
		if half.Bias() != one.Bias()/2 {
			t.Fatalf("rate 0.5 gave b=%v, want half of %v", half.Bias(), one.Bias())
		}
	}
}
