// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPrefetches checks when a shuffled epoch prefetches the row of its
// next visit: on dense rows of at least prefetchBytes, never on sparse
// ones; and when an epoch on sparse rows prefetches the weights of the
// next visit's columns: for weight tables of many scores of at least
// prefetchBytes.
func TestPrefetches(t *testing.T) {
	defer func(b int) { prefetchBytes = b }(prefetchBytes)
	X, _ := jtClassData(rand.New(rand.NewPCG(1, 2)), 8, 3, 2, true) // 192 bytes
	dense, err := rowsOf(X)
	if err != nil {
		t.Fatal(err)
	}
	sparse, err := rowsOf(jtCSR(X))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		bytes int
		want  bool
	}{{1, true}, {191, true}, {192, true}, {193, false}, {1 << 20, false}} {
		prefetchBytes = c.bytes
		if dense.prefetches() != c.want || sparse.prefetches() {
			t.Errorf("prefetchBytes %d: 192 bytes of dense rows prefetch %t, sparse ones %t", c.bytes, dense.prefetches(), sparse.prefetches())
		}
		// A table of 3 features and 8 scores is 192 bytes.
		if sparse.prefetchesWeights(8) != c.want || sparse.prefetchesWeights(1) || dense.prefetchesWeights(8) {
			t.Errorf("prefetchBytes %d: weights prefetched for 8 scores of sparse rows %t, for 1 %t, for 8 of dense rows %t",
				c.bytes, sparse.prefetchesWeights(8), sparse.prefetchesWeights(1), dense.prefetchesWeights(8))
		}
	}
}

// TestPrefetchChangesNothing checks that prefetching a row changes no
// value, on the rows of a view whose stride exceeds its columns, and on
// sparse rows with their columns' weights, the last column's up to the
// end of the table. (internal/simd tests its prefetches on any run of
// values.)
func TestPrefetchChangesNothing(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	buf := make([]float64, 70)
	for i := range buf {
		buf[i] = rnd.NormFloat64()
	}
	want := append([]float64(nil), buf...)
	big := mat.NewDense(10, 7, buf[:70:70])
	view := big.Slice(0, 10, 2, 5).(*mat.Dense) // stride 7, 3 columns
	r, err := rowsOf(view)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.n {
		r.prefetchRow(i)
	}
	if !sameBits(buf[:70], want[:70]) {
		t.Fatalf("prefetchRow changes the rows")
	}
	// The weights of every column of sparse rows, for tables of 1 to 13
	// scores, the last column's up to the end of the table.
	sp, err := rowsOf(jtCSR(mat.NewDense(2, 5, []float64{0, 1, 0, 0, 2, 3, 0, 0, 0, 4})))
	if err != nil {
		t.Fatal(err)
	}
	for S := 1; S <= 13; S++ {
		w := buf[: 5*S : 5*S]
		for i := range sp.n {
			sp.prefetchSparse(i)
			sp.prefetchWeights(w, i, S)
		}
	}
	if !sameBits(buf, want) {
		t.Fatalf("prefetchWeights changes the weights")
	}
}

// TestPrefetchSameRun checks that shuffled epochs that prefetch their rows
// make the run they make without, bit for bit, for every classifier that
// visits rows in epochs, on rows of two classes and more, dense, and dense
// in a view whose stride exceeds its columns; and that Perceptron
// prefetches on its own goroutine, starting none. On sparse rows of more
// than two classes the epochs ask for the weights of the next row's
// columns instead, where the table is large enough.
func TestPrefetchSameRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defer func(b int) { prefetchBytes = b }(prefetchBytes)
	before := runtime.NumGoroutine()
	rnd := rand.New(rand.NewPCG(211, 212))
	trials := 40
	if testing.Short() || raceEnabled {
		trials = 12
	}
	for k := range trials {
		K := 2 + rnd.IntN(3)
		n, d := K+rnd.IntN(200), 1+rnd.IntN(20)
		X, y := jtClassData(rnd, n, d, K, true)
		for i := range n {
			for j := range d {
				if rnd.IntN(3) == 0 {
					X.Set(i, j, 0)
				}
			}
		}
		// The same rows in a view of stride d+3.
		wide := mat.NewDense(n, d+3, nil)
		view := wide.Slice(0, n, 1, d+1).(*mat.Dense)
		view.Copy(X)
		data := map[string]mat.Matrix{"dense": X, "view": view, "sparse": jtCSR(X)}
		T, _ := jtClassData(rnd, 30, d, K, true)
		seed := rnd.Uint64()
		fit := func(m Scorer, kind string) []float64 {
			r := rand.New(rand.NewPCG(seed, 5))
			goroutines := -1
			switch m := m.(type) {
			case *Perceptron:
				m.Rand, m.Epochs = r, 5
				m.OnUpdate = func(Update) { goroutines = max(goroutines, runtime.NumGoroutine()) }
				// The helpers of the fits before end just after their
				// pools close.
				checkGoroutines(t, before, "the fits before")
			case *Pocket:
				m.Rand, m.Epochs = r, 5
			case *Averaged:
				m.Rand, m.Epochs = r, 5
			case *Voted:
				m.Rand, m.Epochs = r, 5
			case *Kernel:
				m.Rand, m.Epochs = r, 3
			}
			if err := m.Fit(data[kind], y); err != nil {
				t.Fatal(err)
			}
			if goroutines > before {
				t.Fatalf("trial %d: Perceptron's Fit on %s rows runs on %d goroutines, %d before", k, kind, goroutines, before)
			}
			if k, ok := m.(*Kernel); ok {
				var s []float64
				for _, p := range jtRules {
					k.Prediction = p
					s = append(s, k.ScoreRows(nil, T)...)
				}
				return s
			}
			return m.ScoreRows(nil, T)
		}
		for _, kind := range []string{"dense", "view", "sparse"} {
			for _, m := range []func() Scorer{
				func() Scorer { return &Perceptron{} },
				func() Scorer { return &Pocket{} },
				func() Scorer { return &Pocket{Ratchet: true} },
				func() Scorer { return &Averaged{} },
				func() Scorer { return &Voted{} },
				func() Scorer { return &Kernel{Func: Poly{Degree: 2, Coef0: 1}} },
			} {
				prefetchBytes = math.MaxInt
				want := fit(m(), kind)
				// Every dense set prefetches, or the sets of at least 8d or
				// 64d rows, or exactly this one.
				prefetchBytes = []int{1, 64 * d, 512 * d, 8 * n * d}[k%4]
				if got := fit(m(), kind); !sameBits(got, want) {
					t.Fatalf("trial %d, %T on %s rows: prefetching changes the scores from %v to %v", k, m(), kind, want, got)
				}
			}
		}
	}
	checkGoroutines(t, before, "fits that prefetch")

	// A NaN found mid-epoch ends Fit while rows are being prefetched.
	prefetchBytes = 8
	X, y := jtClassData(rnd, 500, 3, 3, true)
	X.Set(321, 1, math.NaN())
	for k := range 20 {
		for _, m := range []Scorer{&Perceptron{}, &Voted{}, &Averaged{}, &Pocket{}, &Kernel{}} {
			jtSetRand(m, rand.New(rand.NewPCG(rnd.Uint64(), 1)))
			if err := m.Fit(X, y); err == nil || err.Error() != "perceptron: X[321, 1] is NaN, want a finite value" {
				t.Fatalf("%d: %T.Fit on a NaN returns %v", k, m, err)
			}
		}
	}
	checkGoroutines(t, before, "fits that stop on a NaN")
}
