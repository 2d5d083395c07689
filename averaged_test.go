// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// pavAverageSums returns the sums of the weights and biases after every
// visit, summed visit by visit, and the number of visits.
func pavAverageSums(visits []pavVisit) (sw []float64, sb float64, T int) {
	sw = make([]float64, len(visits[0].w))
	for _, v := range visits {
		for j := range sw {
			sw[j] += v.w[j]
		}
		sb += v.b
	}
	return sw, sb, len(visits)
}

// pavCheckAverage checks a, trained on integers with rates that are
// powers of two, where every sum is exact, against the naive visits: its
// weights are the naive sums divided by the visits to the last bit, and
// on each row of test its prediction is the sign of the exact summed
// score, +1 on a tie, and its score that summed score divided by the
// visits.
func pavCheckAverage(t *testing.T, name string, a *Averaged, visits []pavVisit, test [][]float64) {
	t.Helper()
	sw, sb, T := pavAverageSums(visits)
	w := make([]float64, len(sw))
	for j := range w {
		w[j] = sw[j] / float64(T)
	}
	b := sb / float64(T)
	aw, ab := a.Weights()
	if !slices.Equal(aw, w) || len(ab) != 1 || ab[0] != b {
		t.Fatalf("%s: averaged w=%v b=%v, naive average w=%v b=%v", name, aw, ab, w, b)
	}
	X := mat.NewDense(len(test), len(sw), nil)
	for i, x := range test {
		X.SetRow(i, x)
	}
	scores, preds := a.ScoreRows(nil, X), a.PredictRows(nil, X)
	for i, x := range test {
		sum := sb
		for j := range x {
			sum += sw[j] * x[j]
		}
		if got, want := a.Predict(x), sign(sum); got != want || preds[i] != want {
			t.Fatalf("%s: Predict(%v) = %v, PredictRows %v; the naive sums score %v", name, x, got, preds[i], sum)
		}
		if want := sum / float64(T); scores[i] != want {
			t.Fatalf("%s: score of %v is %v, want %v/%d = %v", name, x, scores[i], sum, T, want)
		}
	}
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
		tr := pavRandomTrial(rnd, d)
		a := tr.averaged()
		if err := a.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if st := a.Stats(); st.Converged && st.Epochs < tr.epochs {
			early++
		}
		visits, _ := pavVisits(rows, y, tr, false)
		test, _, _ := intSet(rnd, 30, d)
		pavCheckAverage(t, fmt.Sprintf("trial %d (%+v)", k, tr), a, visits, append(test, rows...))
	}
	if early == 0 {
		t.Error("no run converged before its last epoch: the epochs left are not tested")
	}
}

// TestAveragedLearnMatchesNaive checks the lazy average that Learn keeps
// against the naive average of the weights after every visit: on whole
// numbers it is exact, after each of several calls of Learn on batches
// of rows in any order, repeated or not, from a fresh model or after a
// Fit, whose visits the average goes on counting.
func TestAveragedLearnMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(47, 48))
	fitted, fresh := 0, 0
	for k := range 300 {
		n, d := 1+rnd.IntN(20), 1+rnd.IntN(5)
		rows, X, y := intSet(rnd, n, d)
		tr := pavRandomTrial(rnd, d)
		var a *Averaged
		var visits []pavVisit
		var s *pavState
		mistakes := 0
		if rnd.IntN(2) == 0 {
			a = tr.averaged()
			if err := a.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			visits, _ = pavVisits(rows, y, tr, false)
			last := visits[len(visits)-1]
			// Learn goes on from the running weights, not InitWeights.
			s = &pavState{w: slices.Clone(last.w), b: last.b, rate: pavStart(tr, d).rate, bias: tr.bias}
			for _, v := range visits {
				if v.mistake {
					mistakes++
				}
			}
			fitted++
		} else {
			// A fresh model, with InitWeights or not.
			a = &Averaged{Rate: tr.rate, NoBias: !tr.bias, InitWeights: tr.w0, Labels: binaryLabels}
			s = pavStart(tr, d)
			fresh++
		}
		test, _, _ := intSet(rnd, 20, d)
		for call := range 1 + rnd.IntN(4) {
			// A batch of the rows, in a random order, some repeated.
			m := 1 + rnd.IntN(2*n)
			B := mat.NewDense(m, d, nil)
			yb := make([]float64, m)
			for i := range m {
				r := rnd.IntN(n)
				B.SetRow(i, rows[r])
				yb[i] = y[r]
			}
			if err := a.Learn(B, yb); err != nil {
				t.Fatal(err)
			}
			for i := range m {
				v := s.visit(i, B.RawRowView(i), yb[i])
				if v.mistake {
					mistakes++
				}
				visits = append(visits, v)
			}
			name := fmt.Sprintf("trial %d (%+v), Learn %d", k, tr, call+1)
			if got := a.Stats().Mistakes; got != mistakes {
				t.Fatalf("%s: %d mistakes, the naive run %d", name, got, mistakes)
			}
			pavCheckAverage(t, name, a, visits, append(test, rows...))
		}
	}
	if fitted == 0 || fresh == 0 {
		t.Errorf("%d fitted and %d fresh models: both starts are not tested", fitted, fresh)
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
		tr := pavRandomTrial(rnd, 2)
		tr.bias = false
		a := tr.averaged()
		if err := a.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		// The exact sums through the origin, and a point on their
		// hyperplane.
		visits, _ := pavVisits(rows, y, tr, false)
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
		if aw, _ := a.Weights(); aw[0]*x[0]+aw[1]*x[1] < 0 {
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
		name   string
		X      *mat.Dense
		y      []float64
		a      Averaged
		learns int // if not 0, Learn that many times on X in place of Fit
		w      []float64
		b      float64
	}{
		// ExampleAveraged: the weights after the 10 visits are 2, 2, 2,
		// 2, -1, 1, 1, 2, 2, -1 and the biases 1, 1, 1, 1, 0, 1, 1, 0, 0,
		// -1, so the average is w=12/10, b=5/10.
		{"line", mat.NewDense(5, 1, []float64{2, 1, -1, -2, 3}), []float64{1, 1, -1, -1, -1},
			Averaged{Epochs: 2}, 0, []float64{1.2}, 0.5},
		// Learn twice visits the rows as the two epochs do.
		{"line, Learn twice", mat.NewDense(5, 1, []float64{2, 1, -1, -2, 3}), []float64{1, 1, -1, -1, -1},
			Averaged{Labels: []float64{1, -1}}, 2, []float64{1.2}, 0.5},
		// Once, the average of the first 5: w=(2+2+2+2-1)/5, b=4/5.
		{"line, Learn once", mat.NewDense(5, 1, []float64{2, 1, -1, -2, 3}), []float64{1, 1, -1, -1, -1},
			Averaged{Labels: []float64{1, -1}}, 1, []float64{7.0 / 5}, 4.0 / 5},
		// The 3-point exercise of notes 004, through the origin from
		// (1, -0.8): the three updates of epoch 1 leave (2, 1.2), (3,
		// -0.8) and (3, 0.2), and the three visits of epoch 2 keep
		// (3, 0.2), so the average is (17/6, (1.2-0.8+4·0.2)/6) = (17/6,
		// 0.2) up to rounding in the second weight.
		{"3 points", mat.NewDense(3, 2, []float64{1, 2, -1, 2, 0, -1}), []float64{1, -1, -1},
			Averaged{Epochs: 2, NoBias: true, InitWeights: []float64{1, -0.8}}, 0, []float64{17.0 / 6, 0.2}, 0},
		// The same by Learn, which starts from InitWeights: after the
		// first call the average of the three updates, (8/3, 0.6/3).
		{"3 points, Learn twice", mat.NewDense(3, 2, []float64{1, 2, -1, 2, 0, -1}), []float64{1, -1, -1},
			Averaged{NoBias: true, InitWeights: []float64{1, -0.8}, Labels: []float64{-1, 1}}, 2, []float64{17.0 / 6, 0.2}, 0},
		{"3 points, Learn once", mat.NewDense(3, 2, []float64{1, 2, -1, 2, 0, -1}), []float64{1, -1, -1},
			Averaged{NoBias: true, InitWeights: []float64{1, -0.8}, Labels: []float64{-1, 1}}, 1, []float64{8.0 / 3, 0.2}, 0},
		// The zero value averages 1000 epochs, the last 999 passed in
		// closed form: (3, 0.2) survives 2997 visits, and the average is
		// ((2+3+3+2997·3)/3000, (1.2-0.8+0.2+2997·0.2)/3000) =
		// (8999/3000, 0.2).
		{"3 points, all epochs", mat.NewDense(3, 2, []float64{1, 2, -1, 2, 0, -1}), []float64{1, -1, -1},
			Averaged{NoBias: true, InitWeights: []float64{1, -0.8}}, 0, []float64{8999.0 / 3000, 0.2}, 0},
	} {
		a := tc.a
		if tc.learns == 0 {
			if err := a.Fit(tc.X, tc.y); err != nil {
				t.Fatal(err)
			}
		}
		for range tc.learns {
			if err := a.Learn(tc.X, tc.y); err != nil {
				t.Fatal(err)
			}
		}
		w, b := a.Weights()
		for j := range w {
			// 1e-15 allows the rounding of -0.8+1 (notes' errata).
			if diff := w[j] - tc.w[j]; diff > 1e-15 || diff < -1e-15 {
				t.Errorf("%s: averaged w=%v b=%v, want w=%v b=%v", tc.name, w, b, tc.w, tc.b)
			}
		}
		if len(w) != len(tc.w) || len(b) != 1 || b[0] != tc.b {
			t.Errorf("%s: averaged w=%v b=%v, want w=%v b=%v", tc.name, w, b, tc.w, tc.b)
		}
	}
}

func TestAveragedRateScales(t *testing.T) {
	// From zero weights and bias the rate scales every weight vector of
	// the run, so their average too, by Fit and by Learn.
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
		lone, lhalf := &Averaged{Labels: binaryLabels}, &Averaged{Rate: 0.5, Labels: binaryLabels}
		for range 3 {
			if err := lone.Learn(X, y); err != nil {
				t.Fatal(err)
			}
			if err := lhalf.Learn(X, y); err != nil {
				t.Fatal(err)
			}
		}
		for _, pair := range [][2]*Averaged{{one, half}, {lone, lhalf}} {
			w1, b1 := pair[0].Weights()
			wh, bh := pair[1].Weights()
			for j := range w1 {
				if wh[j] != w1[j]/2 {
					t.Fatalf("rate 0.5 gave w=%v, want half of %v", wh, w1)
				}
			}
			if bh[0] != b1[0]/2 {
				t.Fatalf("rate 0.5 gave b=%v, want half of %v", bh, b1)
			}
		}
	}
}

// TestRowShares checks the shares of Averaged's Fit, kept in a map of many
// scores until it fills an array, against an array from the start, over
// seeded sequences of mistakes that fill one or not: the same bits, in
// the order of the rows.
func TestRowShares(t *testing.T) {
	rnd := rand.New(rand.NewPCG(91, 1))
	filled, kept := 0, 0 // the trials whose map filled an array, and not
	for trial := range 40 {
		n, S := 1+rnd.IntN(50), 16+rnd.IntN(20)
		g, ref := newRowShares(n, S), &rowShares{n: n, S: S, dense: make([]float64, n*S)}
		if g.sparse == nil {
			t.Fatalf("%d scores: the shares start in an array", S)
		}
		for range rnd.IntN(n * S / 4) {
			i, up, down := rnd.IntN(n), rnd.IntN(S), rnd.IntN(S+1)-1
			if down == up {
				down = -1
			}
			a := float64(rnd.IntN(1000)) * (0.1 + rnd.Float64())
			g.add(i, up, down, a)
			ref.add(i, up, down, a)
		}
		if g.dense != nil {
			filled++
		} else {
			kept++
		}
		want := map[int][]float64{}
		ref.rows(func(i int, share []float64) {
			if nonZero(share) {
				want[i] = slices.Clone(share)
			}
		})
		last := -1
		g.rows(func(i int, share []float64) {
			if i <= last {
				t.Fatalf("trial %d: row %d after row %d", trial, i, last)
			}
			last = i
			if w, ok := want[i]; nonZero(share) && (!ok || !sameBits(share, w)) {
				t.Fatalf("trial %d: row %d's shares %v, want %v", trial, i, share, w)
			}
			delete(want, i)
		})
		if len(want) != 0 {
			t.Fatalf("trial %d: rows %v left out", trial, slices.Collect(maps.Keys(want)))
		}
	}
	if filled == 0 || kept == 0 {
		t.Errorf("%d trials filled an array and %d kept the map: want both", filled, kept)
	}
}

// TestScaledClone checks that scaledClone gives, to the bit, what
// floats.Scale gives on a clone, the two passes it replaces, on tables
// shorter than a part of the copy, of one part, and across parts, with
// values of every magnitude, subnormal ones included.
func TestScaledClone(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{0, 1, 7, partLen, 2*partLen + 13} {
		for _, c := range []float64{1, 3, 48081, 1 << 40} {
			l := newTable(n, 1, nil, false)
			for i := range l.w {
				l.w[i] = rnd.NormFloat64() * math.Ldexp(1, rnd.IntN(2000)-1000-rnd.IntN(80))
			}
			l.b[0] = -rnd.NormFloat64()
			want := l.clone()
			floats.Scale(c, want.w)
			floats.Scale(c, want.b)
			got := l.scaledClone(c)
			for i := range want.w {
				if math.Float64bits(got.w[i]) != math.Float64bits(want.w[i]) {
					t.Fatalf("n=%d c=%v: weight %d is %v, want %v", n, c, i, got.w[i], want.w[i])
				}
			}
			if math.Float64bits(got.b[0]) != math.Float64bits(want.b[0]) || len(got.w) != n {
				t.Fatalf("n=%d c=%v: bias %v, %d weights; want %v, %d", n, c, got.b[0], len(got.w), want.b[0], n)
			}
		}
	}
}
