// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// marginTestTol is the tolerance of a zero MarginSettings.Tol, as its
// documentation gives it.
const marginTestTol = 1e-6

// naiveMargin is the geometric margin min y(w·x+b)/‖w‖ by plain loops.
func naiveMargin(X mat.Matrix, y, w []float64, b float64) float64 {
	n, d := X.Dims()
	var nw float64
	for _, v := range w {
		nw += v * v
	}
	nw = math.Sqrt(nw)
	least := math.Inf(1)
	for i := range n {
		s := b
		for j := range d {
			s += w[j] * X.At(i, j)
		}
		least = math.Min(least, y[i]*s/nw)
	}
	return least
}

// primalSeparable decides separability by the linear program as the issue
// states it: is y_i(w·x_i+b) >= 1 feasible? Written as -y_i(w·x_i+b) <= -1
// in the free variables (w, b) and converted to standard form, each pivot
// of the simplex method solves an n×n system, so it serves small sets
// only, as a reference. Columns of zeros are dropped, since lp.Simplex
// rejects them and they play no part.
func primalSeparable(X mat.Matrix, y []float64) (bool, error) {
	n, d := X.Dims()
	var cols []int
	for j := range d {
		for i := range n {
			if X.At(i, j) != 0 {
				cols = append(cols, j)
				break
			}
		}
	}
	k := len(cols) + 1
	G := mat.NewDense(n, k, nil)
	h := make([]float64, n)
	for i := range n {
		for c, j := range cols {
			G.Set(i, c, -y[i]*X.At(i, j))
		}
		G.Set(i, k-1, -y[i])
		h[i] = -1
	}
	c, A, bb := lp.Convert(make([]float64, k), G, h, nil, nil)
	_, _, err := lp.Simplex(c, A, bb, 1e-10, nil)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, lp.ErrInfeasible):
		return false, nil
	}
	return false, err
}

// mdmMargin is an independent reference for DatasetMargin: the algorithm
// of Mitchell, Dem'yanov and Malozemov by plain loops, one pass over the
// points per step. It returns bounds on the margin after the relative gap
// falls to tol or steps run out, and the number of steps.
func mdmMargin(X mat.Matrix, y []float64, noBias bool, tol float64, limit int) (lower, upper float64, steps int) {
	n, d := X.Dims()
	groups := 2
	if noBias {
		groups = 1
	}
	group := func(i int) int {
		if groups == 2 && y[i] < 0 {
			return 1
		}
		return 0
	}
	z := make([][]float64, n)
	for i := range z {
		z[i] = make([]float64, d)
		for j := range d {
			z[i][j] = y[i] * X.At(i, j)
		}
	}
	dot := func(a, b []float64) float64 {
		s := 0.0
		for j := range a {
			s += a[j] * b[j]
		}
		return s
	}
	alpha := make([]float64, n)
	for g := range groups {
		for i := range n {
			if group(i) == g {
				alpha[i] = 1
				break
			}
		}
	}
	p := make([]float64, d)
	for ; ; steps++ {
		clear(p)
		for i := range n {
			for j := range d {
				p[j] += alpha[i] * z[i][j]
			}
		}
		norm := math.Sqrt(dot(p, p))
		lo := [2]float64{math.Inf(1), math.Inf(1)}
		hi := [2]float64{math.Inf(-1), math.Inf(-1)}
		var k, j [2]int
		for i := range n {
			s, g := dot(z[i], p), group(i)
			if s < lo[g] {
				lo[g], k[g] = s, i
			}
			if alpha[i] > 0 && s > hi[g] {
				hi[g], j[g] = s, i
			}
		}
		if groups == 1 {
			lo[1], hi[1] = 0, 0
		}
		upper = norm / float64(groups)
		lower = (lo[0] + lo[1]) / (float64(groups) * norm)
		if norm == 0 || upper-lower <= tol*upper || steps == limit {
			return lower, upper, steps
		}
		g := 0
		if hi[1]-lo[1] > hi[0]-lo[0] {
			g = 1
		}
		diff := make([]float64, d)
		for c := range d {
			diff[c] = z[k[g]][c] - z[j[g]][c]
		}
		t := math.Min(alpha[j[g]], (hi[g]-lo[g])/dot(diff, diff))
		alpha[j[g]] -= t
		alpha[k[g]] += t
	}
}

// The hyperplane w·x+b = 0 with w = (1, 1), b = -2.5 on six rows, by hand:
// y(w·x+b) is 2.5, 0.5, -0.5, 3.5, 0 (a -1 row on the hyperplane,
// predicted +1) and 0 (a +1 row on it, predicted +1).
func TestHyperplaneMargins(t *testing.T) {
	X := mat.NewDense(6, 2, []float64{
		0, 0,
		2, 0,
		0, 2,
		3, 3,
		1, 1.5,
		2, 0.5,
	})
	y := []float64{-1, -1, 1, 1, -1, 1}
	w, b := []float64{1, 1}, -2.5
	for _, tc := range []struct {
		name string
		f    func(mat.Matrix, []float64, []float64, float64) (float64, error)
		want float64
	}{
		{"FunctionalMargin", FunctionalMargin, -0.5},
		{"GeometricMargin", GeometricMargin, -0.5 / math.Sqrt2},
		{"PerceptronCriterion", PerceptronCriterion, 0.5},
		{"ZeroOneError", ZeroOneError, 2.0 / 6},
	} {
		got, err := tc.f(X, y, w, b)
		if err != nil || math.Abs(got-tc.want) > 1e-15*math.Abs(tc.want) {
			t.Errorf("%s = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}

	// A zero normal puts every row infinitely far on the side of the bias.
	for _, tc := range []struct {
		b    float64
		want float64
	}{{1, math.Inf(-1)}, {0, math.Inf(-1)}, {-1, math.Inf(-1)}} {
		if got, _ := GeometricMargin(X, y, []float64{0, 0}, tc.b); got != tc.want {
			t.Errorf("GeometricMargin with w=0, b=%v = %v, want %v", tc.b, got, tc.want)
		}
	}
	pos := []float64{1, 1, 1, 1, 1, 1}
	if got, _ := GeometricMargin(X, pos, []float64{0, 0}, 2); got != math.Inf(1) {
		t.Errorf("GeometricMargin of one class with w=0, b=2 = %v, want +Inf", got)
	}
}

// The losses agree with their definitions computed through a fitted
// perceptron's own scores and Predict.
func TestLossesOfFittedPerceptron(t *testing.T) {
	X, y := pavRealSet(300, 5)
	p := &Perceptron{Epochs: 3}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	var crit float64
	wrong := 0
	least := math.Inf(1)
	for i := range 300 {
		x := X.RawRowView(i)
		a := y[i] * rowScores(p, x)[0]
		crit += math.Max(0, -a)
		least = math.Min(least, a)
		if p.Predict(x) != y[i] {
			wrong++
		}
	}
	w, bs := p.Weights()
	b := bs[0]
	if got, _ := PerceptronCriterion(X, y, w, b); math.Abs(got-crit) > 1e-9*crit {
		t.Errorf("PerceptronCriterion = %v, want %v", got, crit)
	}
	if got, _ := ZeroOneError(X, y, w, b); got != float64(wrong)/300 {
		t.Errorf("ZeroOneError = %v, want %v", got, float64(wrong)/300)
	}
	if got, _ := FunctionalMargin(X, y, w, b); math.Abs(got-least) > 1e-12*math.Abs(least) {
		t.Errorf("FunctionalMargin = %v, want %v", got, least)
	}
	if wrong == 0 || least >= 0 {
		t.Fatalf("the data should not be separated: %d wrong", wrong)
	}
}

func TestMarginErrors(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	y := []float64{1, -1, 1}
	bad := mat.NewDense(3, 2, []float64{1, 2, 3, math.NaN(), 5, 6})
	huge := mat.NewDense(3, 2, []float64{1, 2, 1e300, 1e300, 5, 6})
	hyper := map[string]func(mat.Matrix, []float64, []float64, float64) (float64, error){
		"FunctionalMargin":    FunctionalMargin,
		"GeometricMargin":     GeometricMargin,
		"PerceptronCriterion": PerceptronCriterion,
		"ZeroOneError":        ZeroOneError,
	}
	for name, f := range hyper {
		for _, tc := range []struct {
			X    mat.Matrix
			y, w []float64
			b    float64
			want string
		}{
			{X, y, []float64{1}, 0, "perceptron: w has length 1, want 2 (the number of columns of X)"},
			{X, y, []float64{1, math.Inf(1)}, 0, "perceptron: w[1] is +Inf, want a finite value"},
			{X, y, []float64{1, 1}, math.NaN(), "perceptron: b is NaN, want a finite value"},
			{X, []float64{1, 2, 1}, []float64{1, 1}, 0, "perceptron: y[1] is 2, not one of the classes [-1 1]"},
			{X, y[:2], []float64{1, 1}, 0, "perceptron: len(y) is 2, want 3 (the number of rows of X)"},
			{bad, y, []float64{1, 1}, 0, "perceptron: X[1, 1] is NaN, want a finite value"},
			{huge, y, []float64{1e10, 1e10}, 0, "perceptron: w·x+b overflows at row 1"},
		} {
			_, err := f(tc.X, tc.y, tc.w, tc.b)
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s: error %v, want %q", name, err, tc.want)
			}
		}
	}

	if _, err := Separable(bad, y); err == nil || err.Error() != "perceptron: X[1, 1] is NaN, want a finite value" {
		t.Errorf("Separable: error %v", err)
	}
	for _, tc := range []struct {
		s    *MarginSettings
		want string
	}{
		{&MarginSettings{Tol: -1}, "perceptron: Tol is -1, want 0 <= Tol < 1"},
		{&MarginSettings{Tol: 1}, "perceptron: Tol is 1, want 0 <= Tol < 1"},
		{&MarginSettings{Tol: math.NaN()}, "perceptron: Tol is NaN, want 0 <= Tol < 1"},
	} {
		if _, err := DatasetMargin(X, y, tc.s); err == nil || err.Error() != tc.want {
			t.Errorf("DatasetMargin(%+v): error %v, want %q", *tc.s, err, tc.want)
		}
		if _, err := NovikoffBound(X, y, tc.s); err == nil || err.Error() != tc.want {
			t.Errorf("NovikoffBound(%+v): error %v, want %q", *tc.s, err, tc.want)
		}
	}
	if _, err := DatasetMargin(bad, y, nil); err == nil || err.Error() != "perceptron: X[1, 1] is NaN, want a finite value" {
		t.Errorf("DatasetMargin: error %v", err)
	}
	if _, err := NovikoffBound(bad, y, nil); err == nil || err.Error() != "perceptron: X[1, 1] is NaN, want a finite value" {
		t.Errorf("NovikoffBound: error %v", err)
	}
}

// Margins worked by hand.
func TestDatasetMarginByHand(t *testing.T) {
	for _, tc := range []struct {
		name   string
		X      *mat.Dense
		y      []float64
		noBias bool
		want   float64
	}{
		// Two points 2 apart: half the distance.
		{"pair", mat.NewDense(2, 2, []float64{0, 0, 2, 0}), []float64{1, -1}, false, 1},
		// The AND gate: (1,1) is 1/√2 from the segment (0,1)-(1,0).
		{"and", mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1}), []float64{-1, -1, -1, 1}, false, 1 / (2 * math.Sqrt2)},
		// The 3-point exercise through the origin: the hull of (1,2),
		// (1,-2), (0,1) is nearest the origin at (0.3, 0.1), on the edge
		// from (0,1) to (1,-2).
		{"three points", mat.NewDense(3, 2, []float64{1, 2, -1, 2, 0, -1}), []float64{1, -1, -1}, true, math.Sqrt(0.1)},
		// Collinear, split: the gap from 1 to 3 on a line.
		{"collinear split", mat.NewDense(4, 2, []float64{0, 0, 1, 1, 3, 3, 4, 4}), []float64{1, 1, -1, -1}, false, math.Sqrt2},
		// XOR: the diagonals cross.
		{"xor", mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0}), []float64{1, 1, -1, -1}, false, 0},
		// Touching: (1,0) lies on the segment from (0,0) to (2,0).
		{"touching", mat.NewDense(4, 2, []float64{0, 0, 2, 0, 1, 0, 1, 1}), []float64{1, 1, -1, -1}, false, 0},
		// Touching at a shared vertex of two squares' hulls.
		{"shared vertex", mat.NewDense(4, 2, []float64{0, 0, 1, 1, 1, 1, 2, 0}), []float64{1, 1, -1, -1}, false, 0},
		// Collinear, alternating labels.
		{"collinear alternating", mat.NewDense(3, 1, []float64{0, 1, 2}), []float64{1, -1, 1}, false, 0},
		// Duplicate points with opposite labels.
		{"duplicates", mat.NewDense(3, 2, []float64{1, 2, 1, 2, 5, 5}), []float64{1, -1, 1}, false, 0},
		{"duplicates through origin", mat.NewDense(3, 2, []float64{1, 2, 1, 2, 5, 5}), []float64{1, -1, 1}, true, 0},
		// A zero row has no side through the origin.
		{"zero row", mat.NewDense(2, 2, []float64{0, 0, 1, 1}), []float64{1, 1}, true, 0},
		// One class through the origin: the hull of (1,1), (3,1) is nearest
		// the origin at (1,1).
		{"one class through origin", mat.NewDense(2, 2, []float64{1, 1, 3, 1}), []float64{1, 1}, true, math.Sqrt2},
		// One class, through the origin, on both sides of it.
		{"one class around origin", mat.NewDense(2, 1, []float64{-1, 1}), []float64{-1, -1}, true, 0},
		// A column of zeros changes nothing.
		{"zero column", mat.NewDense(2, 3, []float64{0, 0, 0, 2, 0, 0}), []float64{1, -1}, false, 1},
	} {
		m, err := DatasetMargin(tc.X, tc.y, &MarginSettings{NoBias: tc.noBias})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		checkCertificate(t, tc.name, tc.X, tc.y, m, marginTestTol)
		if tc.want > 0 {
			if m.Lower > tc.want*(1+1e-12) || m.Upper < tc.want*(1-1e-12) || m.Upper-m.Lower > marginTestTol*m.Upper {
				t.Errorf("%s: margin in [%v, %v], want %v", tc.name, m.Lower, m.Upper, tc.want)
			}
		} else if m.Lower > 0 || m.Upper > 1e-12 {
			t.Errorf("%s: margin in [%v, %v], want 0", tc.name, m.Lower, m.Upper)
		}
		sep, err := Separable(tc.X, tc.y)
		if err != nil {
			t.Errorf("%s: Separable: %v", tc.name, err)
		}
		if !tc.noBias && sep != (tc.want > 0) {
			t.Errorf("%s: Separable = %t, want %t", tc.name, sep, tc.want > 0)
		}
	}

	// With a bias, one class has an infinite margin.
	X := mat.NewDense(2, 2, []float64{1, 1, 3, 1})
	m, err := DatasetMargin(X, []float64{-1, -1}, nil)
	if err != nil || m.Lower != math.Inf(1) || m.Upper != math.Inf(1) || m.B != -1 || m.W[0] != 0 || m.W[1] != 0 {
		t.Errorf("one class: %+v, %v", m, err)
	}
	if sep, err := Separable(X, []float64{-1, -1}); !sep || err != nil {
		t.Errorf("one class: Separable = %t, %v", sep, err)
	}
}

// checkCertificate checks that m.Lower is the margin of (m.W, m.B) on the
// data by plain loops, and that the bounds are ordered.
func checkCertificate(t *testing.T, name string, X mat.Matrix, y []float64, m MaxMargin, tol float64) {
	t.Helper()
	got := naiveMargin(X, y, m.W, m.B)
	if math.IsInf(m.Lower, 0) {
		if got != m.Lower && !(math.IsNaN(got) && math.IsInf(m.Lower, -1)) {
			t.Errorf("%s: Lower = %v, but the hyperplane has margin %v", name, m.Lower, got)
		}
	} else if math.Abs(got-m.Lower) > 1e-12*(math.Abs(m.Lower)+scale(X, m.W, m.B)) {
		t.Errorf("%s: Lower = %v, but the hyperplane has margin %v", name, m.Lower, got)
	}
	if m.Lower > m.Upper || m.Upper < 0 {
		t.Errorf("%s: bounds [%v, %v] out of order", name, m.Lower, m.Upper)
	}
	if m.Lower > 0 && m.Upper-m.Lower > tol*m.Upper {
		t.Errorf("%s: bounds [%v, %v] further apart than %v", name, m.Lower, m.Upper, tol)
	}
}

// scale is the size of the terms of y(w·x+b)/‖w‖, to which its rounding
// is relative.
func scale(X mat.Matrix, w []float64, b float64) float64 {
	r := maxNorm(X, 0)
	nw := 0.0
	for _, v := range w {
		nw += v * v
	}
	return r + math.Abs(b)/math.Sqrt(nw)
}

// On hundreds of random separable sets the perceptron, from zero weights
// at any rate and in any order, converges within the Novikoff bound.
func TestNovikoffBoundHolds(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 1))
	rates := []float64{1, 0.01, 7.5}
	tight := 0.0
	for set := range 300 {
		n := 2 + rnd.IntN(200)
		d := 1 + rnd.IntN(30)
		gap := 0.02 + 0.28*rnd.Float64()
		noBias := set%4 == 3
		X, y, _, b := marginSet(rnd, n, d, gap, !noBias)
		nb, err := NovikoffBound(X, y, &MarginSettings{NoBias: noBias})
		if err != nil {
			t.Fatalf("set %d: %v", set, err)
		}

		// R by plain loops; the generating hyperplane, augmented, has margin
		// at least gap/‖(w, b)‖, so the bound can be no worse than that.
		aug := 1.0
		if noBias {
			aug = 0
		}
		R := maxNorm(X, aug)
		if math.Abs(nb.R-R) > 1e-14*R {
			t.Fatalf("set %d: R = %v, want %v", set, nb.R, R)
		}
		if want := (R / nb.Margin) * (R / nb.Margin); math.Abs(nb.Bound-want) > 1e-12*want {
			t.Fatalf("set %d: Bound = %v, want (R/Margin)² = %v", set, nb.Bound, want)
		}
		if gen := gap / math.Hypot(1, b); nb.Margin < gen*(1-marginTestTol) || math.IsInf(nb.Bound, 0) {
			t.Fatalf("set %d: margin %v below that of the generating hyperplane, %v", set, nb.Margin, gen)
		}

		p := &Perceptron{
			NoBias: noBias,
			Rate:   rates[set%len(rates)],
			Epochs: int(nb.Bound) + 2,
		}
		if set%2 == 1 {
			p.Rand = rand.New(rand.NewPCG(uint64(set), 9))
		}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		st := p.Stats()
		if !st.Converged || float64(st.Mistakes) > nb.Bound {
			t.Errorf("set %d (n=%d, d=%d): %d mistakes, converged %t, bound %v", set, n, d, st.Mistakes, st.Converged, nb.Bound)
		}
		tight = math.Max(tight, float64(st.Mistakes)/nb.Bound)
	}
	t.Logf("largest mistakes/bound: %.3f", tight)
}

// The Novikoff bound by hand. For the AND gate the augmented rows (x, 1)
// have R = √3, and their hull is nearest the origin at (2, 2, -3)/17, of
// norm 1/√17, so the bound is 3·17 = 51; the perceptron makes 18 updates.
func TestNovikoffBoundByHand(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1})
	y := []float64{-1, -1, -1, 1}
	nb, err := NovikoffBound(X, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	if nb.R != math.Sqrt(3) || math.Abs(nb.Margin-1/math.Sqrt(17)) > 1e-12 || math.Abs(nb.Bound-51) > 1e-10 {
		t.Errorf("AND: %+v, want R=√3, Margin=1/√17, Bound=51", nb)
	}
	var p Perceptron
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if got := p.Stats().Mistakes; got != 18 {
		t.Errorf("AND: %d mistakes, want 18", got)
	}

	// One row, or one row repeated: the bound, 1, is met, and rounding
	// must not put it below. Through the origin R = γ = ‖x‖, and with a
	// bias R = γ = ‖(x, 1)‖.
	for _, row := range [][]float64{{3, -4}, {1, 1}, {0.1, 0.7}, {-2.5, 1e-3}} {
		for _, noBias := range []bool{false, true} {
			for _, label := range []float64{-1, 1} {
				X := mat.NewDense(3, 2, slices.Concat(row, row, row))
				y := []float64{label, label, label}
				nb, err := NovikoffBound(X, y, &MarginSettings{NoBias: noBias})
				if err != nil || nb.Margin > nb.R || nb.Bound < 1 || nb.Bound-1 > 1e-12 {
					t.Errorf("row %v, noBias=%t, label %v: %+v, %v", row, noBias, label, nb, err)
				}
				p := &Perceptron{NoBias: noBias, Labels: binaryLabels}
				if err := p.Fit(X, y); err != nil || p.Stats().Mistakes != 1 {
					t.Errorf("row %v, noBias=%t, label %v: %d mistakes, %v", row, noBias, label, p.Stats().Mistakes, err)
				}
			}
		}
	}

	// XOR is not separable: no bound.
	nb, err = NovikoffBound(mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0}), []float64{1, 1, -1, -1}, nil)
	if err != nil || nb.Margin != 0 || !math.IsInf(nb.Bound, 1) {
		t.Errorf("XOR: %+v, %v", nb, err)
	}
}

// On random separable sets the returned hyperplane attains the margin it
// claims, no hyperplane found otherwise beats the upper bound, and the
// bounds meet the tolerance.
func TestDatasetMarginCertificate(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 3))
	for set := range 200 {
		n := 2 + rnd.IntN(150)
		d := 1 + rnd.IntN(12)
		gap := 0.02 + 0.2*rnd.Float64()
		noBias := set%3 == 2
		X, y, w, b := marginSet(rnd, n, d, gap, !noBias)
		tol := []float64{marginTestTol, 1e-3, 1e-9}[set%3]
		m, err := DatasetMargin(X, y, &MarginSettings{NoBias: noBias, Tol: tol})
		name := fmt.Sprintf("set %d (n=%d, d=%d, noBias=%t)", set, n, d, noBias)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkCertificate(t, name, X, y, m, tol)
		if m.Lower <= 0 {
			t.Errorf("%s: Lower = %v, the data are separable", name, m.Lower)
		}
		// The generating hyperplane has margin at least gap.
		if gen := naiveMargin(X, y, w, b); gen < gap*(1-1e-12) || gen > m.Upper*(1+1e-12) {
			t.Errorf("%s: generating hyperplane has margin %v (gap %v), Upper %v", name, gen, gap, m.Upper)
		}
		// So do the perceptron's hyperplanes, however trained.
		for k := range 3 {
			p := &Perceptron{NoBias: noBias, Rand: rand.New(rand.NewPCG(uint64(set), uint64(k)))}
			if err := p.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			pw, pb := p.Weights()
			if got := naiveMargin(X, y, pw, pb[0]); got > m.Upper*(1+1e-12) {
				t.Errorf("%s: a perceptron has margin %v > Upper %v", name, got, m.Upper)
			}
		}
		// And random hyperplanes near the best one.
		v := make([]float64, d)
		for range 20 {
			for j := range v {
				v[j] = m.W[j] + 0.1*rnd.NormFloat64()*math.Abs(m.W[j])
			}
			c := m.B * (1 + 0.1*rnd.NormFloat64())
			if noBias {
				c = 0
			}
			if got := naiveMargin(X, y, v, c); got > m.Upper*(1+1e-12) {
				t.Errorf("%s: a hyperplane has margin %v > Upper %v", name, got, m.Upper)
			}
		}
	}
}

// DatasetMargin agrees with an independent solver, MDM by plain loops, in
// any dimension: the two certified intervals overlap.
func TestDatasetMarginAgainstMDM(t *testing.T) {
	rnd := rand.New(rand.NewPCG(29, 5))
	for set := range 60 {
		n := 2 + rnd.IntN(60)
		d := 1 + rnd.IntN(8)
		noBias := set%2 == 1
		X, y, _, _ := marginSet(rnd, n, d, 0.05+0.1*rnd.Float64(), !noBias)
		lower, upper, steps := mdmMargin(X, y, noBias, 1e-8, 200000)
		if upper-lower > 1e-8*upper {
			t.Fatalf("set %d: MDM did not converge in %d steps", set, steps)
		}
		m, err := DatasetMargin(X, y, &MarginSettings{NoBias: noBias})
		if err != nil {
			t.Fatal(err)
		}
		if m.Lower > upper*(1+1e-12) || lower > m.Upper*(1+1e-12) {
			t.Errorf("set %d (n=%d, d=%d, noBias=%t): margin in [%v, %v], MDM says [%v, %v]", set, n, d, noBias, m.Lower, m.Upper, lower, upper)
		}
	}
}

// planeMargin is the margin of data in the plane by brute force: the
// distance between two disjoint convex polygons is the least distance from
// a vertex of one to an edge of the other, and the distance from the
// origin to a polygon not holding it is its least distance to an edge.
func planeMargin(X mat.Matrix, y []float64, noBias bool) float64 {
	segment := func(p, a, b [2]float64) float64 {
		dx, dy := b[0]-a[0], b[1]-a[1]
		t := 0.0
		if l := dx*dx + dy*dy; l > 0 {
			t = math.Max(0, math.Min(1, ((p[0]-a[0])*dx+(p[1]-a[1])*dy)/l))
		}
		return math.Hypot(p[0]-a[0]-t*dx, p[1]-a[1]-t*dy)
	}
	n, _ := X.Dims()
	var pos, neg [][2]float64
	for i := range n {
		x := [2]float64{X.At(i, 0), X.At(i, 1)}
		switch {
		case noBias:
			pos = append(pos, [2]float64{y[i] * x[0], y[i] * x[1]})
		case y[i] > 0:
			pos = append(pos, x)
		default:
			neg = append(neg, x)
		}
	}
	least := math.Inf(1)
	if noBias {
		for _, a := range pos {
			for _, b := range pos {
				least = math.Min(least, segment([2]float64{}, a, b))
			}
		}
		return least
	}
	for _, p := range pos {
		for _, a := range neg {
			for _, b := range neg {
				least = math.Min(least, segment(p, a, b))
			}
		}
	}
	for _, p := range neg {
		for _, a := range pos {
			for _, b := range pos {
				least = math.Min(least, segment(p, a, b))
			}
		}
	}
	return least / 2
}

// In the plane the margin is known exactly by brute force.
func TestDatasetMarginPlane(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 4))
	for set := range 100 {
		n := 2 + rnd.IntN(30)
		noBias := set%2 == 1
		X, y, _, _ := marginSet(rnd, n, 2, 0.01+0.2*rnd.Float64(), !noBias)
		want := planeMargin(X, y, noBias)
		m, err := DatasetMargin(X, y, &MarginSettings{NoBias: noBias, Tol: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		if m.Lower > want*(1+1e-12) || m.Upper < want*(1-1e-12) || m.Lower < want*(1-1e-9) {
			t.Errorf("set %d (noBias=%t): margin in [%v, %v], want %v", set, noBias, m.Lower, m.Upper, want)
		}
	}
}

// The figures that ExampleNovikoffBound prints, computed independently:
// the margin of the data by brute force in the plane, the margin of the
// rows (x, 1) by MDM, and the updates by a plain perceptron loop that
// visits the rows in the orders Perceptron's shuffles give.
func TestNovikoffBoundExample(t *testing.T) {
	rnd := rand.New(rand.NewPCG(85, 1))
	X := mat.NewDense(85, 2, nil)
	aug := mat.NewDense(85, 3, nil)
	y := make([]float64, 85)
	for i := 0; i < 85; {
		u, v := 2*rnd.Float64()-1, 2*rnd.Float64()-1
		s := 0.6*u + 0.8*v - 0.1
		if math.Abs(s) < 0.1 {
			continue
		}
		X.Set(i, 0, u)
		X.Set(i, 1, v)
		aug.SetRow(i, []float64{u, v, 1})
		y[i] = math.Copysign(1, s)
		i++
	}
	R := maxNorm(X, 1)
	lower, upper, _ := mdmMargin(aug, y, true, 1e-12, 10000000)
	gamma := (lower + upper) / 2
	got := []string{
		fmt.Sprintf("margin of the data: %.4f", planeMargin(X, y, false)),
		fmt.Sprintf("R = %.4f, margin of the rows (x, 1): %.4f, bound (R/margin)² = %.0f", R, gamma, R*R/(gamma*gamma)),
	}
	for k := 1; k <= 4; k++ {
		rnd := rand.New(rand.NewPCG(uint64(k), 85))
		order := make([]int, 85)
		for i := range order {
			order[i] = i
		}
		var w [2]float64
		var b float64
		updates, epochs := 0, 0
		for {
			epochs++
			rnd.Shuffle(85, func(i, j int) { order[i], order[j] = order[j], order[i] })
			mistakes := 0
			for _, i := range order {
				if y[i]*(w[0]*X.At(i, 0)+w[1]*X.At(i, 1)+b) <= 0 {
					w[0] += y[i] * X.At(i, 0)
					w[1] += y[i] * X.At(i, 1)
					b += y[i]
					mistakes++
				}
			}
			updates += mistakes
			if mistakes == 0 {
				break
			}
		}
		got = append(got, fmt.Sprintf("order %d: %d updates in %d epochs, boundary's margin %.4f", k, updates, epochs, naiveMargin(X, y, w[:], b)))
	}
	want := []string{
		"margin of the data: 0.1019",
		"R = 1.5989, margin of the rows (x, 1): 0.1014, bound (R/margin)² = 249",
		"order 1: 29 updates in 10 epochs, boundary's margin 0.0098",
		"order 2: 27 updates in 6 epochs, boundary's margin 0.0004",
		"order 3: 26 updates in 8 epochs, boundary's margin 0.0027",
		"order 4: 27 updates in 10 epochs, boundary's margin 0.0085",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Separable agrees with the literal linear program, with the margin, and
// with the perceptron on random sets: separable ones, ones made
// inseparable by a point inside the other class's hull (possibly on its
// boundary), and ones with flipped labels.
func TestSeparableAgrees(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 8))
	counts := map[bool]int{}
	for set := range 150 {
		n := 3 + rnd.IntN(25)
		d := 1 + rnd.IntN(5)
		X, y, _, _ := marginSet(rnd, n, d, 0.05*rnd.Float64(), true)
		switch set % 3 {
		case 1:
			// Replace row 0 by a convex combination of rows of the other
			// class, with an edge case of weight exactly on one row.
			x := X.RawRowView(0)
			var others []int
			for i := 1; i < n; i++ {
				if y[i] != y[0] {
					others = append(others, i)
				}
			}
			for j := range x {
				x[j] = 0
			}
			wts := make([]float64, len(others))
			sum := 0.0
			for k := range wts {
				if set%2 == 0 {
					wts[k] = rnd.Float64()
				}
				sum += wts[k]
			}
			if sum == 0 {
				wts[0], sum = 1, 1
			}
			for k, i := range others {
				for j := range x {
					x[j] += wts[k] / sum * X.At(i, j)
				}
			}
		case 2:
			for i := range y {
				if rnd.IntN(6) == 0 {
					y[i] = -y[i]
				}
			}
		}
		name := fmt.Sprintf("set %d (n=%d, d=%d)", set, n, d)
		sep, err := Separable(X, y)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		counts[sep]++
		if set%3 == 0 && !sep || set%3 == 1 && sep {
			t.Errorf("%s: Separable = %t", name, sep)
		}
		if ref, err := primalSeparable(X, y); err != nil || ref != sep {
			t.Errorf("%s: Separable = %t, the primal program says %t, %v", name, sep, ref, err)
		}
		m, err := DatasetMargin(X, y, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkCertificate(t, name, X, y, m, marginTestTol)
		if (m.Lower > 0) != sep {
			t.Errorf("%s: Separable = %t, margin in [%v, %v]", name, sep, m.Lower, m.Upper)
		}
		p := &Perceptron{Epochs: 2000}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if p.Stats().Converged && !sep {
			t.Errorf("%s: the perceptron separated data that Separable calls inseparable", name)
		}
	}
	if counts[true] < 40 || counts[false] < 40 {
		t.Errorf("unbalanced cases: %v", counts)
	}
}

// Through the origin, separability reduces to separability with a bias:
// the points y_i·x_i lie strictly on one side of a hyperplane through the
// origin exactly when they can be separated from the origin itself.
func TestSeparableThroughOrigin(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 2))
	for set := range 60 {
		n := 2 + rnd.IntN(20)
		d := 1 + rnd.IntN(4)
		X, y, _, _ := marginSet(rnd, n, d, 0.05, set%2 == 0)
		Z := mat.NewDense(n+1, d, nil)
		labels := make([]float64, n+1)
		for i := range n {
			for j := range d {
				Z.Set(i, j, y[i]*X.At(i, j))
			}
			labels[i] = 1
		}
		labels[n] = -1
		sep, err := Separable(Z, labels)
		if err != nil {
			t.Fatal(err)
		}
		m, err := DatasetMargin(X, y, &MarginSettings{NoBias: true})
		if err != nil {
			t.Fatal(err)
		}
		if (m.Lower > 0) != sep {
			t.Errorf("set %d: separable through the origin %t, margin in [%v, %v]", set, sep, m.Lower, m.Upper)
		}
	}
}

// The margin with a bias does not depend on where the origin is, and
// scales with the data.
func TestDatasetMarginInvariance(t *testing.T) {
	rnd := rand.New(rand.NewPCG(19, 6))
	X, y, _, _ := marginSet(rnd, 200, 6, 0.05, true)
	base, err := DatasetMargin(X, y, &MarginSettings{Tol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	var moved mat.Dense
	moved.Apply(func(_, j int, v float64) float64 { return 3*v + 100*float64(j+1) }, X)
	m, err := DatasetMargin(&moved, y, &MarginSettings{Tol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(m.Lower-3*base.Lower) > 1e-8*m.Lower {
		t.Errorf("margin of moved data %v, want %v", m.Lower, 3*base.Lower)
	}
}

// Scaling the rows by a power of two scales the margin exactly, as long
// as the scale of the rows is at most 2^200 and at least 2^-200; outside,
// DatasetMargin returns an error rather than a margin that rounding made up.
func TestMarginScale(t *testing.T) {
	rnd := rand.New(rand.NewPCG(23, 7))
	for _, d := range []int{1, 3, 50} {
		X, y, _, _ := marginSet(rnd, 200, d, 0.1, true)
		base, err := DatasetMargin(X, y, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{-190, -100, 100, 190} {
			var scaled mat.Dense
			scaled.Scale(math.Ldexp(1, k), X)
			m, err := DatasetMargin(&scaled, y, nil)
			if err != nil || m.Lower != math.Ldexp(base.Lower, k) || m.Upper != math.Ldexp(base.Upper, k) {
				t.Errorf("d=%d, rows scaled by 2^%d: %+v, %v; want the bounds of %+v scaled", d, k, m, err, base)
			}
			// With a bias the rows are augmented with 1, which is not
			// scaled: only the error is certain.
			if _, err := NovikoffBound(&scaled, y, nil); err != nil {
				t.Errorf("d=%d, rows scaled by 2^%d: NovikoffBound: %v", d, k, err)
			}
		}
		for _, k := range []int{-220, 220} {
			var scaled mat.Dense
			scaled.Scale(math.Ldexp(1, k), X)
			const want = "perceptron: the scale of the rows"
			if _, err := DatasetMargin(&scaled, y, nil); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("d=%d: DatasetMargin of rows scaled by 2^%d: error %v", d, k, err)
			}
		}
	}
}

// When the iterations run out, the bounds are still valid, and so is the
// mistake bound. The limit is the internal marginIterations, lowered here.
func TestDatasetMarginIterationLimit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(23, 1))
	X, y, _, _ := marginSet(rnd, 500, 20, 0.01, true)
	full, err := DatasetMargin(X, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	fullBound, err := NovikoffBound(X, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func(k int) { marginIterations = k }(marginIterations)
	marginIterations = 1
	m, err := DatasetMargin(X, y, nil)
	if !errors.Is(err, ErrNotConverged) || !strings.HasPrefix(err.Error(), "perceptron: the margin did not converge in 1 iterations") {
		t.Fatalf("error %v", err)
	}
	checkCertificate(t, "limited", X, y, m, 1)
	if full.Lower > m.Upper*(1+1e-12) || full.Upper < m.Lower*(1-1e-12) {
		t.Errorf("bounds [%v, %v] after one iteration miss the margin in [%v, %v]", m.Lower, m.Upper, full.Lower, full.Upper)
	}
	// A limited bound is of a margin that a hyperplane attains, so no
	// more than the largest: it is no tighter than the full bound, less
	// its tolerance, and the perceptron keeps within it. The first
	// iterations find no separating hyperplane, and the bound is +Inf.
	p := &Perceptron{Epochs: int(fullBound.Bound) + 2}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if !st.Converged {
		t.Fatalf("the perceptron did not converge in %d epochs", st.Epochs)
	}
	finite := 0
	for k := 1; k <= 1000; k++ {
		marginIterations = k
		nb, err := NovikoffBound(X, y, nil)
		if err == nil {
			break
		}
		if want := fmt.Sprintf("perceptron: the margin did not converge in %d iterations", k); !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("NovikoffBound, %d iterations: error %v", k, err)
		}
		if nb.R != fullBound.R || nb.Margin > fullBound.Margin/(1-marginTestTol) || nb.Bound < fullBound.Bound*(1-marginTestTol)*(1-marginTestTol) {
			t.Errorf("%d iterations: bound %+v, in full %+v", k, nb, fullBound)
		}
		if float64(st.Mistakes) > nb.Bound {
			t.Errorf("%d iterations: %d mistakes, bound %v", k, st.Mistakes, nb.Bound)
		}
		if !math.IsInf(nb.Bound, 1) {
			finite++
		}
	}
	if finite == 0 {
		t.Error("no limited bound was finite: the bound of a limited run is not tested")
	}
}

// maxNorm is the largest norm of the rows (x, aug) of X, by plain loops.
func maxNorm(X mat.Matrix, aug float64) float64 {
	n, d := X.Dims()
	r := 0.0
	for i := range n {
		s := aug * aug
		for j := range d {
			s += X.At(i, j) * X.At(i, j)
		}
		r = math.Max(r, math.Sqrt(s))
	}
	return r
}

// radius is the radius of the rows of X about their mean.
func radius(X mat.Matrix) float64 {
	n, d := X.Dims()
	mean := make([]float64, d)
	for i := range n {
		for j := range d {
			mean[j] += X.At(i, j) / float64(n)
		}
	}
	r := 0.0
	for i := range n {
		s := 0.0
		for j := range d {
			s += (X.At(i, j) - mean[j]) * (X.At(i, j) - mean[j])
		}
		r = math.Max(r, math.Sqrt(s))
	}
	return r
}

// rounding reports whether err says that rounding stopped DatasetMargin.
func rounding(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "perceptron: rounding stops the margin")
}

// FuzzMarginValidation feeds the validation of the margin functions small
// data sets built from bytes, with NaN, infinities, bad labels and wrong
// lengths, and checks that each function either returns an error that
// names a row or a setting, or a value within its range.
func FuzzMarginValidation(f *testing.F) {
	f.Add([]byte{2, 2, 1, 2, 3, 4, 1, 0, 5, 5, 0})
	f.Add([]byte{3, 1, 255, 2, 3, 1, 0, 1, 4, 0})
	f.Add([]byte{1, 3, 0, 0, 0, 1, 7, 7, 7, 254})
	f.Add([]byte{2, 2, 9, 9, 9, 9, 0, 0, 3, 253, 1})
	// Found by fuzzing: a margin 1/250,000 of the radius, which a solver
	// working from the Gram matrix alone cannot resolve; a degenerate
	// inseparable vertex that lp.Simplex's phase one rejects; repeated rows
	// on which the simplex method without a tolerance cycles; a degenerate
	// vertex at which it cycles on steps of rounding size.
	f.Add([]byte("01\x8e001001101"))
	f.Add([]byte("00\a  !11"))
	f.Add([]byte("00SS0011"))
	f.Add([]byte("17000\xc4\xc4\xc4\xc4\xc4\xc41\x0f\xc3\xb3\xc3\x80\x00000\xc2101"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		n, d := int(data[0]%5)+1, int(data[1]%4)+1
		data = data[2:]
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		value := func(b byte) float64 {
			switch b {
			case 255:
				return math.NaN()
			case 254:
				return math.Inf(1)
			case 253:
				return math.Inf(-1)
			}
			return float64(int8(b)) / 8
		}
		X := mat.NewDense(n, d, nil)
		for i := range n {
			for j := range d {
				X.Set(i, j, value(next()))
			}
		}
		y := make([]float64, n)
		for i := range y {
			y[i] = []float64{-1, 1, 1, -1, 0, 2}[next()%6]
		}
		wl := d
		if next()%7 == 0 {
			wl = d + 1
		}
		w := make([]float64, wl)
		for j := range w {
			w[j] = value(next())
		}
		b := value(next())

		dataValid := true
		for i := range n {
			dataValid = dataValid && (y[i] == 1 || y[i] == -1) && nonFinite(X.RawRowView(i)) < 0
		}
		valid := dataValid && wl == d && nonFinite(w) < 0 && !math.IsNaN(b) && !math.IsInf(b, 0)
		check := func(name string, v float64, err error, lo, hi float64) {
			if (err == nil) != valid {
				t.Fatalf("%s: error %v, valid %t", name, err, valid)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "perceptron: ") {
				t.Fatalf("%s: error %q", name, err)
			}
			if err == nil && !(v >= lo && v <= hi) {
				t.Fatalf("%s = %v, want in [%v, %v]", name, v, lo, hi)
			}
		}
		v, err := FunctionalMargin(X, y, w, b)
		check("FunctionalMargin", v, err, math.Inf(-1), math.Inf(1))
		v, err = GeometricMargin(X, y, w, b)
		check("GeometricMargin", v, err, math.Inf(-1), math.Inf(1))
		v, err = PerceptronCriterion(X, y, w, b)
		check("PerceptronCriterion", v, err, 0, math.Inf(1))
		v, err = ZeroOneError(X, y, w, b)
		check("ZeroOneError", v, err, 0, 1)

		// The data alone decide the rest.
		valid = dataValid
		sep, err := Separable(X, y)
		check("Separable", 0, err, 0, 0)
		for _, noBias := range []bool{false, true} {
			m, err := DatasetMargin(X, y, &MarginSettings{NoBias: noBias})
			if rounding(err) {
				// Margins below 1e-4 of the radius of these data cannot
				// be resolved to the tolerance; the bounds still hold.
				err = nil
			}
			check("DatasetMargin", m.Upper, err, 0, math.Inf(1))
			if err == nil && !(m.Lower <= m.Upper) {
				t.Fatalf("bounds [%v, %v]", m.Lower, m.Upper)
			}
			// Each has a tolerance: DatasetMargin takes margins below
			// Tol·R as 0, Separable takes margins below about 1e-9 of the
			// data's size as 0.
			if r := radius(X); err == nil && !noBias && (sep && m.Lower <= 0 && m.Upper > marginTestTol*r || !sep && m.Lower > 1e-8*r) {
				t.Fatalf("Separable = %t, margin in [%v, %v]", sep, m.Lower, m.Upper)
			}
			nb, err := NovikoffBound(X, y, &MarginSettings{NoBias: noBias})
			if rounding(err) {
				err = nil
			}
			check("NovikoffBound", nb.Bound, err, 0, math.Inf(1))
		}
	})
}
