// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestPrefetchSameRun checks that shuffled epochs that prefetch their rows
// make the run they make without, bit for bit, for every linear
// classifier, on rows of two classes and more, reading ahead by few rows
// and by many, and that the prefetching goroutines are gone when Fit
// returns, also with an error. Sparse rows, which are not prefetched,
// check the test.
func TestPrefetchSameRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defer func(b int) { prefetchBytes = b }(prefetchBytes)
	before := runtime.NumGoroutine()
	rnd := rand.New(rand.NewPCG(211, 212))
	for k := range 40 {
		K := 2 + rnd.IntN(3)
		n, d := K+rnd.IntN(200), 1+rnd.IntN(20)
		_, X, y := classSet(rnd, n, d, K)
		for i := range n {
			for j := range d {
				if rnd.IntN(3) == 0 {
					X.Set(i, j, 0)
				} else {
					X.Set(i, j, X.At(i, j)+rnd.Float64())
				}
			}
		}
		S := csrOf(X)
		_, T, _ := classSet(rnd, 30, d, K)
		seed := rnd.Uint64()
		fit := func(m Scorer, data string) []float64 {
			r := rand.New(rand.NewPCG(seed, 5))
			switch m := m.(type) {
			case *Perceptron:
				m.Rand, m.Epochs = r, 5
			case *Pocket:
				m.Rand, m.Epochs = r, 5
			case *Averaged:
				m.Rand, m.Epochs = r, 5
			case *Voted:
				m.Rand, m.Epochs = r, 5
			}
			var err error
			if data == "dense" {
				err = m.Fit(X, y)
			} else {
				err = m.Fit(S, y)
			}
			if err != nil {
				t.Fatal(err)
			}
			return m.ScoreRows(nil, T)
		}
		for _, data := range []string{"dense", "sparse"} {
			for _, m := range []func() Scorer{
				func() Scorer { return &Perceptron{} },
				func() Scorer { return &Pocket{} },
				func() Scorer { return &Averaged{} },
				func() Scorer { return &Voted{} },
			} {
				prefetchBytes = math.MaxInt / 8
				want := fit(m(), data)
				prefetchBytes = []int{1, 8 * d, 64 * d}[k%3]
				if got := fit(m(), data); !sameBits(got, want) {
					t.Fatalf("trial %d, %T on %s rows: prefetching changes the scores from %v to %v", k, m(), data, want, got)
				}
			}
		}
	}
	checkGoroutines(t, before, "fits that prefetch")

	// A NaN found mid-epoch ends Fit while rows are being prefetched.
	prefetchBytes = 8
	_, X, y := classSet(rnd, 500, 3, 3)
	X.Set(321, 1, math.NaN())
	for range 20 {
		p := &Perceptron{Rand: rand.New(rand.NewPCG(rnd.Uint64(), 1)), Epochs: 3}
		if err := p.Fit(X, y); err == nil || err.Error() != "perceptron: X[321, 1] is NaN, want a finite value" {
			t.Fatalf("Fit on a NaN returns %v", err)
		}
	}
	checkGoroutines(t, before, "fits that stop on a NaN")
}
