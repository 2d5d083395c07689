// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// eps is the unit roundoff of float64.
const eps = 0x1p-53

// labels returns the classes of counts[c] rows of each class c, in a
// random order.
func labels(rnd *rand.Rand, counts []int) []float64 {
	var y []float64
	for c, n := range counts {
		for range n {
			y = append(y, float64(c))
		}
	}
	rnd.Shuffle(len(y), func(a, b int) { y[a], y[b] = y[b], y[a] })
	return y
}

// denseSet returns a Set of counts[c] rows of each class c, of d random
// normal values: no two rows are alike.
func denseSet(rnd *rand.Rand, counts []int, d int) *data.Set {
	y := labels(rnd, counts)
	X := mat.NewDense(len(y), d, nil)
	for i := range len(y) {
		for j := range d {
			X.Set(i, j, rnd.NormFloat64())
		}
	}
	return &data.Set{X: X, Y: y, Classes: classNames(len(counts)), Features: classNames(d)}
}

// sparseSet returns a Set of counts[c] rows of each class c, as a CSR of
// d columns: every row but one holds at least one random normal value,
// at random columns, and the one holds none, so that no two rows are
// alike.
func sparseSet(rnd *rand.Rand, counts []int, d int) *data.Set {
	y := labels(rnd, counts)
	empty := rnd.IntN(len(y))
	ptr := []int{0}
	var ind []int
	var val []float64
	for i := range y {
		if i != empty {
			first := rnd.IntN(d)
			for j := range d {
				if j == first || rnd.IntN(4) == 0 {
					ind = append(ind, j)
					val = append(val, rnd.NormFloat64())
				}
			}
		}
		ptr = append(ptr, len(ind))
	}
	X, err := perceptron.NewCSR(len(y), d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return &data.Set{X: X, Y: y, Classes: classNames(len(counts))}
}

func classNames(k int) []string {
	names := make([]string, k)
	for c := range names {
		names[c] = fmt.Sprintf("c%d", c)
	}
	return names
}

// rowKey returns row i of X as text, its stored columns with their values
// for a CSR, so that two rows of the same key are alike.
func rowKey(X mat.Matrix, i int) string {
	if m, ok := X.(*perceptron.CSR); ok {
		var b strings.Builder
		m.DoRowNonZero(i, func(_, j int, v float64) { fmt.Fprintf(&b, "%d:%x ", j, v) })
		return b.String()
	}
	return fmt.Sprintf("%x", mat.Row(nil, i, X))
}

// origins returns, for each row of the part, the index of the row of s
// that it is, failing t if a row is not one of s's, or its class is not.
func origins(t *testing.T, s, part *data.Set) []int {
	t.Helper()
	at := map[string]int{}
	n, d := s.X.Dims()
	for i := range n {
		at[rowKey(s.X, i)] = i
	}
	if len(at) != n {
		t.Fatalf("the set has %d rows but %d different ones", n, len(at))
	}
	r, c := part.X.Dims()
	if c != d || r != len(part.Y) {
		t.Fatalf("a part of %d×%d and %d labels from %d×%d", r, c, len(part.Y), n, d)
	}
	if _, sparse := s.X.(*perceptron.CSR); sparse {
		if _, ok := part.X.(*perceptron.CSR); !ok {
			t.Fatalf("a part of sparse rows is a %T", part.X)
		}
	}
	idx := make([]int, r)
	for k := range r {
		i, ok := at[rowKey(part.X, k)]
		if !ok {
			t.Fatalf("row %d of a part, %v, is none of the set's", k, mat.Row(nil, k, part.X))
		}
		if part.Y[k] != s.Y[i] {
			t.Fatalf("row %d of a part is row %d of the set, of class %v, but has %v", k, i, s.Y[i], part.Y[k])
		}
		idx[k] = i
	}
	return idx
}

// checkSplit checks that train and test are a partition of the rows of s,
// each in the order of s, with the fraction frac of each class in test,
// and returns the rows of s in test.
func checkSplit(t *testing.T, s, train, test *data.Set, frac float64) []int {
	t.Helper()
	in, out := origins(t, s, test), origins(t, s, train)
	if !slices.IsSorted(in) || !slices.IsSorted(out) {
		t.Errorf("the parts are not in the order of the set: %v, %v", out, in)
	}
	all := slices.Sorted(slices.Values(append(slices.Clone(in), out...)))
	for i, k := range all {
		if i != k {
			t.Fatalf("the parts %v and %v do not partition %d rows", out, in, len(s.Y))
		}
	}
	if len(all) != len(s.Y) {
		t.Fatalf("the parts hold %d rows of %d", len(all), len(s.Y))
	}
	count, tested := make([]int, len(s.Classes)), make([]int, len(s.Classes))
	for _, c := range s.Y {
		count[int(c)]++
	}
	for _, c := range test.Y {
		tested[int(c)]++
	}
	for c := range count {
		if want := int(math.Round(frac * float64(count[c]))); tested[c] != want {
			t.Errorf("class %d: %d of %d rows in test, want round(%v·%d) = %d", c, tested[c], count[c], frac, count[c], want)
		}
	}
	for _, p := range []*data.Set{train, test} {
		if !slices.Equal(p.Classes, s.Classes) || !slices.Equal(p.Features, s.Features) {
			t.Errorf("a part has Classes %q and Features %q, want %q and %q", p.Classes, p.Features, s.Classes, s.Features)
		}
	}
	if m, ok := s.X.(*perceptron.CSR); ok {
		if nnz := train.X.(*perceptron.CSR).NNZ() + test.X.(*perceptron.CSR).NNZ(); nnz != m.NNZ() {
			t.Errorf("the parts store %d values, the set %d", nnz, m.NNZ())
		}
	}
	return in
}

// TestSplitCounts checks the counts of a split by hand: round(frac·n) of
// each class, halves rounded up.
func TestSplitCounts(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	s := denseSet(rnd, []int{50, 37, 16}, 3)
	for _, tc := range []struct {
		frac float64
		want []int
	}{
		{0.25, []int{13, 9, 4}}, // 12.5, 9.25, 4
		{0.5, []int{25, 19, 8}}, // 25, 18.5, 8
		{0.1, []int{5, 4, 2}},   // 5, 3.7, 1.6
		{0.99, []int{50, 37, 16}},
	} {
		train, test, err := data.Split(s, tc.frac, 7)
		if tc.frac == 0.99 {
			// Every class entirely in test leaves train empty.
			if err == nil || !strings.HasPrefix(err.Error(), "data: ") || train != nil || test != nil {
				t.Errorf("fraction 0.99: %v, %v, %v; want an error and no sets", train, test, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got := make([]int, 3)
		for _, c := range test.Y {
			got[int(c)]++
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("fraction %v: test counts %v, want %v", tc.frac, got, tc.want)
		}
		checkSplit(t, s, train, test, tc.frac)
	}
}

// TestSplit checks random splits of random dense and sparse sets.
func TestSplit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for trial := range 60 {
		k := 1 + rnd.IntN(5)
		counts := make([]int, k)
		for c := range counts {
			counts[c] = 2 + rnd.IntN(40)
		}
		if k > 1 && trial%3 == 0 {
			counts[rnd.IntN(k)] = 0 // a class of no rows
		}
		var s *data.Set
		if trial%2 == 0 {
			s = denseSet(rnd, counts, 1+rnd.IntN(5))
		} else {
			s = sparseSet(rnd, counts, 1+rnd.IntN(8))
		}
		frac := []float64{0.1, 0.2, 0.25, 1.0 / 3, 0.5, 0.7}[rnd.IntN(6)]
		before := dense(s.X)
		y := slices.Clone(s.Y)
		seed := rnd.Uint64()
		train, test, err := data.Split(s, frac, seed)
		tested := 0
		for _, n := range counts {
			tested += int(math.Round(frac * float64(n)))
		}
		if tested == 0 || tested == len(s.Y) {
			if err == nil || train != nil || test != nil {
				t.Fatalf("trial %d: counts %v, fraction %v: %v, %v, %v; want an error, a part being empty", trial, counts, frac, train, test, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: counts %v, fraction %v: %v", trial, counts, frac, err)
		}
		checkSplit(t, s, train, test, frac)
		if !sameRows(dense(s.X), before) || !slices.Equal(s.Y, y) {
			t.Fatalf("trial %d: Split changed its set", trial)
		}

		// The same seed, the same split.
		train2, test2, err := data.Split(s, frac, seed)
		if err != nil {
			t.Fatal(err)
		}
		if !sameRows(dense(train2.X), dense(train.X)) || !sameRows(dense(test2.X), dense(test.X)) ||
			!slices.Equal(train2.Y, train.Y) || !slices.Equal(test2.Y, test.Y) {
			t.Fatalf("trial %d: two splits of seed %d differ", trial, seed)
		}
	}
}

// TestSplitSeeds checks that different seeds draw different rows: of 60
// and 40 rows of two classes, the 18 and 12 in test are one choice of
// C(60,18)·C(40,12) > 5·10^24, so that ten seeds drawing two alike would
// be a fault of the seeding.
func TestSplitSeeds(t *testing.T) {
	s := denseSet(rand.New(rand.NewPCG(5, 6)), []int{60, 40}, 2)
	seen := map[string]uint64{}
	for seed := range uint64(10) {
		train, test, err := data.Split(s, 0.3, seed)
		if err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprint(checkSplit(t, s, train, test, 0.3))
		if prev, ok := seen[key]; ok {
			t.Errorf("seeds %d and %d draw the same rows", prev, seed)
		}
		seen[key] = seed
	}
}

func TestSplitErrors(t *testing.T) {
	s := denseSet(rand.New(rand.NewPCG(7, 8)), []int{5, 5}, 2)
	for _, frac := range []float64{0, 1, -0.1, 1.5, math.NaN(), math.Inf(1), math.Inf(-1)} {
		train, test, err := data.Split(s, frac, 1)
		if err == nil || train != nil || test != nil {
			t.Errorf("fraction %v: %v, %v, %v; want an error", frac, train, test, err)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "data: ") || !strings.Contains(msg, fmt.Sprint(frac)) {
			t.Errorf("fraction %v: error %q, want one of data: naming the fraction", frac, msg)
		}
	}

	unlabelled := &data.Set{X: s.X}
	if _, _, err := data.Split(unlabelled, 0.5, 1); err == nil || !strings.HasPrefix(err.Error(), "data: ") {
		t.Errorf("no labels: error %v, want one of data:", err)
	}

	// One row of each of three classes: a fraction of 0.4 rounds every
	// class's share to no row, and 0.6 to all of it.
	tiny := denseSet(rand.New(rand.NewPCG(9, 10)), []int{1, 1, 1}, 2)
	for _, frac := range []float64{0.4, 0.6} {
		train, test, err := data.Split(tiny, frac, 1)
		if err == nil || train != nil || test != nil {
			t.Errorf("three rows, fraction %v: %v, %v, %v; want an error", frac, train, test, err)
		} else if !strings.HasPrefix(err.Error(), "data: ") || !strings.Contains(err.Error(), "empty") {
			t.Errorf("three rows, fraction %v: error %q", frac, err)
		}
	}
}

// naiveStats returns the mean and the population standard deviation of
// x, in two passes.
func naiveStats(x []float64) (mean, std float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)))
}

// column returns column j of X, zeros included.
func column(X mat.Matrix, j int) []float64 { return mat.Col(nil, j, X) }

// statsTolerance returns the errors allowed in the mean and the deviation
// of x, as two computations of them in float64 may differ: each mean
// adds n values with a relative error of eps each, so that they differ by
// at most 2n·eps·max|x|; the two-pass and the running (Welford) sums of
// squared deviations have relative errors below n·eps·κ, where κ =
// sqrt(1 + mean²/var) is the condition of the variance (Chan, Golub and
// LeVeque, 1983), and the deviation half that of the variance. Twice the
// bounds, for the constants the bounds leave out.
func statsTolerance(x []float64, mean, std float64) (tm, ts float64) {
	n := float64(len(x))
	most := 0.0
	for _, v := range x {
		most = max(most, math.Abs(v))
	}
	kappa := 1.0
	if std > 0 {
		kappa = math.Sqrt(1 + mean*mean/(std*std))
	}
	return 4 * n * eps * most, 2 * n * eps * kappa * std
}

// scalerData returns n rows of columns of different kinds: standard
// normal, normal about 5, about -1000 with deviation 100, uniform in
// [0, 1e-3), a constant, and small integers.
func scalerData(rnd *rand.Rand, n int) *mat.Dense {
	X := mat.NewDense(n, 6, nil)
	for i := range n {
		X.SetRow(i, []float64{
			rnd.NormFloat64(),
			5 + 2*rnd.NormFloat64(),
			-1000 + 100*rnd.NormFloat64(),
			1e-3 * rnd.Float64(),
			3.25,
			float64(rnd.IntN(10)),
		})
	}
	return X
}

func TestScalerDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 3, 10, 100, 1000} {
		X := scalerData(rnd, n)
		before := mat.DenseCopyOf(X)
		s, err := data.NewScaler(X)
		if err != nil {
			t.Fatalf("%d rows: %v", n, err)
		}
		_, d := X.Dims()
		if len(s.Mean) != d || len(s.Scale) != d {
			t.Fatalf("%d rows: %d means and %d scales, want %d", n, len(s.Mean), len(s.Scale), d)
		}
		for j := range d {
			x := column(X, j)
			mean, std := naiveStats(x)
			tm, ts := statsTolerance(x, mean, std)
			if math.Abs(s.Mean[j]-mean) > tm {
				t.Errorf("%d rows, column %d: mean %v, want %v ± %.2g", n, j, s.Mean[j], mean, tm)
			}
			want := std
			if std == 0 {
				want, ts = 1, 0 // a column of one value is divided by 1
			}
			if math.Abs(s.Scale[j]-want) > ts {
				t.Errorf("%d rows, column %d: scale %v, want %v ± %.2g", n, j, s.Scale[j], want, ts)
			}
		}
		if s.Mean[4] != 3.25 || s.Scale[4] != 1 {
			t.Errorf("%d rows: a constant column has mean %v and scale %v, want 3.25 and 1", n, s.Mean[4], s.Scale[4])
		}

		Z, err := s.Transform(X)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(X, before) {
			t.Fatal("Transform changed its input")
		}
		if _, ok := Z.(*mat.Dense); !ok {
			t.Fatalf("Transform of dense rows gives a %T", Z)
		}
		for j := range d {
			x, z := column(X, j), column(Z, j)
			mean, std := naiveStats(x)
			zm, zs := naiveStats(z)
			if std == 0 {
				if slices.ContainsFunc(z, func(v float64) bool { return v != 0 }) {
					t.Errorf("%d rows, column %d of one value: standardised to %v, want zeros", n, j, z)
				}
				continue
			}
			// Each standardised value has an error of a few eps relative
			// to (|x| + |mean|)/std, and its mean and deviation add n
			// such errors.
			most := 0.0
			for _, v := range x {
				most = max(most, math.Abs(v))
			}
			tol := 8 * float64(n) * eps * ((most+math.Abs(mean))/std + 1)
			if math.Abs(zm) > tol || math.Abs(zs-1) > tol {
				t.Errorf("%d rows, column %d: standardised to mean %v and deviation %v, want 0 and 1 ± %.2g", n, j, zm, zs, tol)
			}
		}
	}
}

// sparseScalerData returns n rows of a CSR of columns of different
// kinds: a quarter of normals about 2, all standard normals, none, a
// single value, a constant in every row, and a twentieth of values of
// magnitude up to 1000.
func sparseScalerData(rnd *rand.Rand, n int) *perceptron.CSR {
	ptr := []int{0}
	var ind []int
	var val []float64
	single := rnd.IntN(n)
	for i := range n {
		add := func(j int, v float64) {
			ind = append(ind, j)
			val = append(val, v)
		}
		if rnd.IntN(4) == 0 {
			add(0, 2+rnd.NormFloat64())
		}
		add(1, rnd.NormFloat64())
		if i == single {
			add(3, -7.5)
		}
		add(4, 7)
		if rnd.IntN(20) == 0 {
			add(5, 1000*(rnd.Float64()-0.3))
		}
		ptr = append(ptr, len(ind))
	}
	X, err := perceptron.NewCSR(n, 6, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return X
}

func TestScalerSparse(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 2, 5, 40, 300, 2000} {
		X := sparseScalerData(rnd, n)
		s, err := data.NewScaler(X)
		if err != nil {
			t.Fatalf("%d rows: %v", n, err)
		}
		if s.Mean != nil || len(s.Scale) != 6 {
			t.Fatalf("%d rows: Mean %v and %d scales, want nil and 6", n, s.Mean, len(s.Scale))
		}
		for j := range 6 {
			x := column(X, j)
			mean, std := naiveStats(x)
			_, ts := statsTolerance(x, mean, std)
			want := std
			if std == 0 {
				want, ts = 1, 0
			}
			if math.Abs(s.Scale[j]-want) > ts {
				t.Errorf("%d rows, column %d: scale %v, want %v ± %.2g", n, j, s.Scale[j], want, ts)
			}
		}
		if s.Scale[2] != 1 || s.Scale[4] != 1 {
			t.Errorf("%d rows: an empty column has scale %v and a constant one %v, want 1", n, s.Scale[2], s.Scale[4])
		}

		Z, err := s.Transform(X)
		if err != nil {
			t.Fatal(err)
		}
		zc, ok := Z.(*perceptron.CSR)
		if !ok {
			t.Fatalf("Transform of sparse rows gives a %T", Z)
		}
		if zc.NNZ() != X.NNZ() {
			t.Errorf("%d rows: Transform stores %d values of %d", n, zc.NNZ(), X.NNZ())
		}
		for j := range 6 {
			x, z := column(X, j), column(Z, j)
			for i := range x {
				if z[i] != x[i]/s.Scale[j] {
					t.Fatalf("%d rows: row %d, column %d: %v standardised to %v, want %v/%v", n, i, j, x[i], z[i], x[i], s.Scale[j])
				}
			}
			mean, std := naiveStats(x)
			_, zs := naiveStats(z)
			if std == 0 {
				continue
			}
			// The deviation of the standardised column, zeros included,
			// is 1 but for the errors of the two deviations.
			_, ts := statsTolerance(x, mean, std)
			if tol := 4 * (ts/std + float64(n)*eps); math.Abs(zs-1) > tol {
				t.Errorf("%d rows, column %d: standardised to deviation %v, want 1 ± %.2g", n, j, zs, tol)
			}
		}
	}
}

// TestScalerMixed transforms dense rows by a Scaler of sparse rows, which
// only divides, and sparse rows by a Scaler of dense rows, which centres
// them too, into dense rows.
func TestScalerMixed(t *testing.T) {
	rnd := rand.New(rand.NewPCG(15, 16))
	sp := sparseScalerData(rnd, 50)
	dn := mat.DenseCopyOf(sp)
	ss, err := data.NewScaler(sp)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := data.NewScaler(dn)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		s    *data.Scaler
		X    mat.Matrix
	}{{"dense rows, sparse scaler", ss, dn}, {"sparse rows, dense scaler", ds, sp}} {
		Z, err := tc.s.Transform(tc.X)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, ok := Z.(*mat.Dense); !ok {
			t.Fatalf("%s: a %T, want a *mat.Dense", tc.name, Z)
		}
		n, d := tc.X.Dims()
		for i := range n {
			for j := range d {
				want := tc.X.At(i, j)
				if tc.s.Mean != nil {
					want -= tc.s.Mean[j]
				}
				want /= tc.s.Scale[j]
				if got := Z.At(i, j); got != want {
					t.Fatalf("%s: row %d, column %d: %v, want %v", tc.name, i, j, got, want)
				}
			}
		}
	}
}

// TestScalerOverflow checks that a Scaler is fitted on values near the
// largest float64, whose mean and deviation are finite, and that
// NewScaler refuses a value that is not finite, naming its column.
func TestScalerOverflow(t *testing.T) {
	const huge = 1.7e308
	dense := mat.NewDense(3, 3, []float64{
		1, huge, 2,
		2, -huge, 3,
		3, huge, 4,
	})
	sparse, err := perceptron.NewCSR(3, 3, []int{0, 2, 3, 5}, []int{0, 1, 1, 0, 1}, []float64{1, huge, -huge, 3, huge})
	if err != nil {
		t.Fatal(err)
	}
	// Column 2 holds huge, -huge and huge: its mean is huge/3, and its
	// deviations from it are 2/3·huge, 4/3·huge and 2/3·huge, of root
	// mean square huge·sqrt(8)/3.
	mean, scale := huge/3, huge*math.Sqrt(8)/3
	for _, X := range []mat.Matrix{dense, sparse} {
		s, err := data.NewScaler(X)
		if err != nil {
			t.Errorf("%T: %v", X, err)
			continue
		}
		if math.Abs(s.Scale[1]-scale) > 16*eps*scale {
			t.Errorf("%T: scale %v, want %v", X, s.Scale[1], scale)
		}
		if s.Mean != nil && math.Abs(s.Mean[1]-mean) > 16*eps*mean {
			t.Errorf("%T: mean %v, want %v", X, s.Mean[1], mean)
		}
	}
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		X := mat.NewDense(2, 3, []float64{1, 2, 3, 4, v, 6})
		s, err := data.NewScaler(X)
		if err == nil {
			t.Errorf("a value of %v: %+v, want an error", v, s)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "data: column 2:") || !strings.Contains(msg, "finite") {
			t.Errorf("a value of %v: error %q, want one of data: naming column 2", v, msg)
		}
	}

	// Fitted on values of deviation 1e-3 in column 2, a Scaler makes a
	// value of 1e308 there overflow.
	train := mat.NewDense(3, 2, []float64{1, 0, 2, 1e-3, 3, 2e-3})
	trainSparse, err := perceptron.NewCSR(3, 2, []int{0, 1, 3, 5}, []int{0, 0, 1, 0, 1}, []float64{1, 2, 1e-3, 3, 2e-3})
	if err != nil {
		t.Fatal(err)
	}
	test := mat.NewDense(3, 2, []float64{1, 0, 2, 1e-3, 1, 1e308})
	testSparse, err := perceptron.NewCSR(3, 2, []int{0, 1, 3, 5}, []int{0, 0, 1, 0, 1}, []float64{1, 2, 1e-3, 1, 1e308})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		train, test mat.Matrix
	}{{train, test}, {trainSparse, testSparse}} {
		s, err := data.NewScaler(tc.train)
		if err != nil {
			t.Fatal(err)
		}
		Z, err := s.Transform(tc.test)
		if err == nil || Z != nil {
			t.Errorf("%T: %v, %v; want an error", tc.test, Z, err)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "data: row 3, column 2:") || !strings.Contains(msg, "overflow") {
			t.Errorf("%T: error %q, want one of data: naming row 3 and column 2", tc.test, msg)
		}
	}
}

// TestScalerLargeValues fits a Scaler on values of magnitude 1e200,
// whose squares overflow, though their mean and population deviation do
// not.
func TestScalerLargeValues(t *testing.T) {
	const big = 1e200
	dense := mat.NewDense(4, 2, []float64{big, 1, -big, 2, big, 3, -big, 4})
	sparse, err := perceptron.NewCSR(4, 2, []int{0, 2, 4, 6, 8}, []int{0, 1, 0, 1, 0, 1, 0, 1}, []float64{big, 1, -big, 2, big, 3, -big, 4})
	if err != nil {
		t.Fatal(err)
	}
	// Column 1 of one value of 1e200 among three zeros: its mean is 2.5e199
	// and its deviation sqrt(3)/4·1e200.
	single, err := perceptron.NewCSR(4, 1, []int{0, 1, 1, 1, 1}, []int{0}, []float64{big})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		X     mat.Matrix
		scale float64
	}{{dense, big}, {sparse, big}, {single, math.Sqrt(3) / 4 * big}} {
		s, err := data.NewScaler(tc.X)
		if err != nil {
			t.Errorf("%T of values of 1e200: %v", tc.X, err)
			continue
		}
		if math.Abs(s.Scale[0]-tc.scale) > 16*eps*tc.scale {
			t.Errorf("%T of values of 1e200: scale %v, want %v", tc.X, s.Scale[0], tc.scale)
		}
	}
}

// TestScalerNoRows checks that a Scaler of no rows is refused, but not for
// values too large: there are none.
func TestScalerNoRows(t *testing.T) {
	X, err := perceptron.NewCSR(0, 2, []int{0}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := data.NewScaler(X)
	if err == nil {
		t.Fatalf("a Scaler of no rows: %+v", s)
	}
	if strings.Contains(err.Error(), "too large") || strings.Contains(err.Error(), "overflow") {
		t.Errorf("a Scaler of no rows: error %q blames values that are not there", err)
	}
}

func TestScalerWidth(t *testing.T) {
	s, err := data.NewScaler(mat.NewDense(2, 2, []float64{1, 2, 3, 4}))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := perceptron.NewCSR(1, 3, []int{0, 1}, []int{2}, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, X := range []mat.Matrix{mat.NewDense(1, 3, nil), mat.NewDense(1, 1, nil), sp} {
		Z, err := s.Transform(X)
		_, d := X.Dims()
		if err == nil || Z != nil {
			t.Errorf("%d columns: %v, %v; want an error", d, Z, err)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "data: ") || !strings.Contains(msg, fmt.Sprintf("%d columns, want 2", d)) {
			t.Errorf("%d columns: error %q", d, msg)
		}
	}
}

// TestSubset checks Subset on dense and sparse rows, with and without
// labels: the rows at the indices, in their order, repeated where the
// indices repeat, copied, and of no rows for no indices.
func TestSubset(t *testing.T) {
	dense := mat.NewDense(4, 3, []float64{1, 0, 2, 0, 0, 0, 3, 4, 0, 0, 5, 6})
	sparse, err := perceptron.NewCSR(4, 3, []int{0, 2, 2, 4, 6}, []int{0, 2, 0, 1, 1, 2}, []float64{1, 2, 3, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	for _, X := range []mat.Matrix{dense, sparse} {
		for _, y := range [][]float64{{0, 1, 1, 0}, nil} {
			s := &data.Set{X: X, Y: y, Classes: []string{"a", "b"}, Features: []string{"f", "g", "h"}}
			for _, rows := range [][]int{{2, 0, 2}, {1}, {}} {
				sub, err := s.Subset(rows)
				if err != nil {
					t.Fatalf("%T, rows %v: %v", X, rows, err)
				}
				n, d := sub.X.Dims()
				if n != len(rows) || d != 3 || !slices.Equal(sub.Classes, s.Classes) || !slices.Equal(sub.Features, s.Features) {
					t.Fatalf("%T, rows %v: %d×%d, %v %v", X, rows, n, d, sub.Classes, sub.Features)
				}
				if _, isCSR := X.(*perceptron.CSR); isCSR != isCSRMatrix(sub.X) {
					t.Fatalf("%T, rows %v: a %T", X, rows, sub.X)
				}
				if (y == nil) != (sub.Y == nil) {
					t.Fatalf("%T, rows %v: labels %v from %v", X, rows, sub.Y, y)
				}
				for k, i := range rows {
					for j := range 3 {
						if sub.X.At(k, j) != X.At(i, j) {
							t.Fatalf("%T, rows %v: row %d is not row %d", X, rows, k, i)
						}
					}
					if y != nil && sub.Y[k] != y[i] {
						t.Fatalf("%T, rows %v: label %v of row %d, want %v", X, rows, sub.Y[k], k, y[i])
					}
				}
			}
		}
	}
	// A copy: changing it leaves s alone.
	s := &data.Set{X: dense}
	sub, err := s.Subset([]int{0})
	if err != nil {
		t.Fatal(err)
	}
	sub.X.(*mat.Dense).Set(0, 0, 9)
	if dense.At(0, 0) != 1 {
		t.Error("Subset's rows are not copies")
	}
}

func isCSRMatrix(X mat.Matrix) bool {
	_, ok := X.(*perceptron.CSR)
	return ok
}

// TestHandBuiltSets checks that Split and Subset refuse, with an error
// that says what is wrong, a Set built by hand that is not one: labels
// that are no classes, X and Y of different lengths, no X.
func TestHandBuiltSets(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	ab := []string{"a", "b"}
	for _, tc := range []struct {
		name string
		s    *data.Set
		kind error
		subs []string
	}{
		{"nil Set", nil, nil, []string{"nil"}},
		{"nil X", &data.Set{Y: []float64{0, 1, 0}, Classes: ab}, nil, []string{"X is nil"}},
		{"Y past Classes", &data.Set{X: X, Y: []float64{0, 2, 1}, Classes: ab}, nil, []string{"Y[1] is 2", "from 0 to 1"}},
		{"Y negative", &data.Set{X: X, Y: []float64{0, -1, 1}, Classes: ab}, nil, []string{"Y[1] is -1"}},
		{"Y not whole", &data.Set{X: X, Y: []float64{0, 1, 0.5}, Classes: ab}, nil, []string{"Y[2] is 0.5", "whole number"}},
		{"Y NaN", &data.Set{X: X, Y: []float64{math.NaN(), 1, 0}, Classes: ab}, perceptron.ErrNonFinite, []string{"Y[0] is NaN"}},
		{"Y infinite", &data.Set{X: X, Y: []float64{0, math.Inf(1), 0}, Classes: ab}, perceptron.ErrNonFinite, []string{"Y[1] is +Inf"}},
		{"nil Classes", &data.Set{X: X, Y: []float64{0, 1, 0}}, nil, []string{"Y[0] is 0", "Classes is empty"}},
		{"Y longer than X", &data.Set{X: X, Y: []float64{0, 1, 0, 1}, Classes: ab}, perceptron.ErrShape, []string{"Y has 4 classes and X 3 rows"}},
		{"Y shorter than X", &data.Set{X: X, Y: []float64{0, 1}, Classes: ab}, perceptron.ErrShape, []string{"Y has 2 classes and X 3 rows"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check := func(what string, err error) {
				t.Helper()
				if err == nil {
					t.Fatalf("%s: no error", what)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, "data: ") {
					t.Errorf("%s: error %q does not start with data:", what, msg)
				}
				for _, sub := range tc.subs {
					if !strings.Contains(msg, sub) {
						t.Errorf("%s: error %q does not hold %q", what, msg, sub)
					}
				}
				if tc.kind != nil && !errors.Is(err, tc.kind) {
					t.Errorf("%s: error %q is not of kind %v", what, msg, tc.kind)
				}
			}
			train, test, err := data.Split(tc.s, 0.5, 1)
			if train != nil || test != nil {
				t.Errorf("Split: sets with the error %v", err)
			}
			check("Split", err)
			sub, err := tc.s.Subset([]int{0})
			if sub != nil {
				t.Errorf("Subset: a set with the error %v", err)
			}
			check("Subset", err)
		})
	}

	// Subset refuses an index that is not a row.
	s := &data.Set{X: X}
	for _, rows := range [][]int{{0, 3}, {-1}} {
		if sub, err := s.Subset(rows); sub != nil || err == nil || !strings.Contains(err.Error(), "want a row of the 3 of X") {
			t.Errorf("Subset(%v) = %v, %v; want an error", rows, sub, err)
		}
	}
	// A Set of no columns that a *mat.Dense cannot hold.
	if sub, err := (&data.Set{X: &mat.Dense{}}).Subset(nil); sub != nil || err == nil {
		t.Errorf("Subset of a Set of no columns = %v, %v; want an error", sub, err)
	}
}

// TestHandBuiltScalers checks that NewScaler and Transform refuse no rows
// and a Scaler built by hand that NewScaler could not have returned, with
// an error that says what is wrong.
func TestHandBuiltScalers(t *testing.T) {
	if s, err := data.NewScaler(nil); s != nil || err == nil || !strings.Contains(err.Error(), "X is nil") {
		t.Errorf("NewScaler(nil) = %v, %v; want an error", s, err)
	}
	X := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	for _, tc := range []struct {
		name string
		s    *data.Scaler
		X    mat.Matrix
		kind error
		sub  string
	}{
		{"nil Scaler", nil, X, nil, "the Scaler is nil"},
		{"nil X", &data.Scaler{Scale: []float64{1, 1}}, nil, nil, "X is nil"},
		{"Mean and Scale of different lengths", &data.Scaler{Mean: []float64{0}, Scale: []float64{1, 1}}, X, perceptron.ErrShape, "1 means and 2 scales"},
		{"Scale of 0", &data.Scaler{Scale: []float64{1, 0}}, X, nil, "Scale[1] is 0"},
		{"Scale NaN", &data.Scaler{Scale: []float64{math.NaN(), 1}}, X, perceptron.ErrNonFinite, "Scale[0] is NaN"},
		{"Mean infinite", &data.Scaler{Mean: []float64{0, math.Inf(-1)}, Scale: []float64{1, 1}}, X, perceptron.ErrNonFinite, "Mean[1] is -Inf"},
		{"X of NaN", &data.Scaler{Scale: []float64{1, 1}}, mat.NewDense(1, 2, []float64{1, math.NaN()}), perceptron.ErrNonFinite, "row 1, column 2: NaN, want a finite value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			Z, err := tc.s.Transform(tc.X)
			if Z != nil || err == nil {
				t.Fatalf("Transform = %v, %v; want an error", Z, err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "data: ") || !strings.Contains(msg, tc.sub) {
				t.Errorf("error %q, want one of data: holding %q", msg, tc.sub)
			}
			if tc.kind != nil && !errors.Is(err, tc.kind) {
				t.Errorf("error %q is not of kind %v", err, tc.kind)
			}
		})
	}
}

// TestFold checks that the k folds of a set partition its rows, each fold
// the test set of one of them with the other rows as its training set,
// both in the order of the set; that each class is shared out among the
// folds to a row, and the folds among them too; and that the seed draws
// the folds.
func TestFold(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, s := range []*data.Set{denseSet(rnd, []int{30, 7, 1, 52}, 3), sparseSet(rnd, []int{9, 41}, 40)} {
		n := len(s.Y)
		for _, k := range []int{2, 5, 10} {
			seen := make([]int, n)
			var sizes []int
			perClass := make([][]int, len(s.Classes))
			for i := range k {
				train, test, err := data.Fold(s, k, i, 7)
				if err != nil {
					t.Fatal(err)
				}
				in := origins(t, s, test)
				out := origins(t, s, train)
				if !slices.IsSorted(in) || !slices.IsSorted(out) || len(in)+len(out) != n {
					t.Fatalf("fold %d of %d: %d and %d rows, in order %v, %v", i, k, len(out), len(in), slices.IsSorted(out), slices.IsSorted(in))
				}
				for _, r := range in {
					seen[r]++
				}
				for _, r := range out {
					if slices.Contains(in, r) {
						t.Fatalf("fold %d: row %d in both sets", i, r)
					}
				}
				sizes = append(sizes, len(in))
				count := make([]int, len(s.Classes))
				for _, c := range test.Y {
					count[int(c)]++
				}
				for c, m := range count {
					perClass[c] = append(perClass[c], m)
				}
			}
			for r, m := range seen {
				if m != 1 {
					t.Fatalf("%d folds: row %d in %d test sets", k, r, m)
				}
			}
			for _, counts := range append(perClass, sizes) {
				if slices.Max(counts)-slices.Min(counts) > 1 {
					t.Errorf("%d folds: counts %v differ by more than a row", k, counts)
				}
			}
		}
		_, a, _ := data.Fold(s, 5, 2, 7)
		_, b, _ := data.Fold(s, 5, 2, 7)
		_, c, _ := data.Fold(s, 5, 2, 8)
		if !slices.Equal(origins(t, s, a), origins(t, s, b)) || slices.Equal(origins(t, s, a), origins(t, s, c)) {
			t.Error("the seed does not draw the folds")
		}
	}
	s := denseSet(rnd, []int{3, 3}, 2)
	for _, c := range []struct {
		s    *data.Set
		k, i int
		want string
	}{
		{s, 1, 0, "1 folds of 6 rows, want from 2 to 6"},
		{s, 7, 0, "7 folds of 6 rows"},
		{s, 3, 3, "fold 3 of 3, want one from 0 to 2"},
		{&data.Set{X: s.X}, 2, 0, "no labels"},
	} {
		if _, _, err := data.Fold(c.s, c.k, c.i, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}
