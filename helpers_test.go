// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

// The test data and the helpers that the test files share. Every
// generator is seeded by its caller, so a test sees the same data on
// every run.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// intSet returns n rows of d small integers in [-3, 3] and random labels,
// as a matrix and as its row slices, so that every sum the perceptron and
// the linear and polynomial kernels form is exact in float64, and no line
// is likely to separate the rows.
func intSet(rnd *rand.Rand, n, d int) ([][]float64, *mat.Dense, []float64) {
	rows := make([][]float64, n)
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range rows {
		rows[i] = X.RawRowView(i)
		for j := range rows[i] {
			rows[i][j] = float64(rnd.IntN(7) - 3)
		}
		y[i] = float64(2*rnd.IntN(2) - 1)
	}
	return rows, X, y
}

// ballSet returns n rows of d values in [0, 1) labelled by whether they
// lie inside a ball about the centre, with a tenth of the labels flipped.
func ballSet(rnd *rand.Rand, n, d int) (*mat.Dense, []float64) {
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		var r2 float64
		for j := range d {
			v := rnd.Float64()
			X.Set(i, j, v)
			r2 += (v - 0.5) * (v - 0.5)
		}
		y[i] = 1
		if r2 > float64(d)/12 {
			y[i] = -1
		}
		if rnd.IntN(10) == 0 {
			y[i] = -y[i]
		}
	}
	return X, y
}

// marginSet returns n rows of d features uniform in [-1, 1), labelled by
// the side of the unit-normal hyperplane w·x+b = 0 for a random w and, if
// bias, a random b in [-0.3, 0.3], keeping only rows at least gap from it,
// so that the hyperplane has margin at least gap. Both labels occur if n
// is at least 2.
func marginSet(rnd *rand.Rand, n, d int, gap float64, bias bool) (X *mat.Dense, y, w []float64, b float64) {
	w = make([]float64, d)
	for {
		norm := 0.0
		for j := range w {
			w[j] = rnd.NormFloat64()
			norm += w[j] * w[j]
		}
		if norm > 0 {
			for j := range w {
				w[j] /= math.Sqrt(norm)
			}
			break
		}
	}
	if bias {
		b = 0.6*rnd.Float64() - 0.3
	}
	X = mat.NewDense(n, d, nil)
	y = make([]float64, n)
	for i := range n {
		x := X.RawRowView(i)
		for {
			s := b
			for j := range x {
				x[j] = 2*rnd.Float64() - 1
				s += w[j] * x[j]
			}
			// Force the second row to the other side from the first.
			if math.Abs(s) >= gap && (i != 1 || sign(s) != y[0]) {
				y[i] = sign(s)
				break
			}
		}
	}
	return X, y, w, b
}

// sameBits reports whether a and b hold the same float64s, bit for bit.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// near reports whether a and b are equal, or if not exact within a
// relative 1e-9.
func near(a, b float64, exact bool) bool {
	if exact {
		return a == b
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// panics reports whether f panics.
func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

// mustPanic reports an error named name unless f panics with a value whose
// text contains want.
func mustPanic(t *testing.T, name, want string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), want) {
			t.Errorf("%s: panic %v, want one containing %q", name, r, want)
		}
	}()
	f()
}

// checkGoroutines fails t if the goroutines have not fallen back within
// a second to before, their number before what says.
func checkGoroutines(t *testing.T, before int, what string) {
	t.Helper()
	for range 100 {
		if runtime.NumGoroutine() <= before {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after %s, %d before", n, what, before)
	}
}

// rowScores returns the scores of the one row x under m, as ScoreRows
// gives them.
func rowScores(m Scorer, x []float64) []float64 {
	return m.ScoreRows(nil, mat.NewDense(1, len(x), x))
}

// learner is a classifier that learns online.
type onlineLearner interface {
	Scorer
	Learn(X mat.Matrix, y []float64) error
}

// learnOne trains m on the one example (x, y) with Learn.
func learnOne(m onlineLearner, x []float64, y float64) error {
	return m.Learn(mat.NewDense(1, len(x), x), []float64{y})
}
