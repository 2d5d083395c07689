// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package simd

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPrefetchChangesNothing checks that the prefetches change no value
// and return, on every run of float64s and ints of a buffer, whatever its
// length, empty included, and its alignment to the cache lines, up to the
// end of the memory that holds it; and on the rows of every list of rows
// of tables of 1 to 13 columns, the last row up to the end of the table.
func TestPrefetchChangesNothing(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	buf := values(rnd, 70, 0.05)
	ints := make([]int, len(buf))
	for i := range ints {
		ints[i] = rnd.Int()
	}
	want, wantInts := slices.Clone(buf), slices.Clone(ints)
	same := func() bool {
		for i := range buf {
			if math.Float64bits(buf[i]) != math.Float64bits(want[i]) {
				return false
			}
		}
		return slices.Equal(ints, wantInts)
	}
	Prefetch(nil)
	PrefetchInts(nil)
	for lo := range len(buf) + 1 {
		for hi := lo; hi <= len(buf); hi++ {
			Prefetch(buf[lo:hi])
			PrefetchInts(ints[lo:hi])
		}
	}
	if !same() {
		t.Fatalf("Prefetch or PrefetchInts changes their values")
	}
	rows := []int{4, 0, 2, 2, 1, 3}
	for K := 1; K <= 13; K++ {
		w := buf[: 5*K : 5*K]
		PrefetchRows(w, K, nil)
		for lo := range len(rows) + 1 {
			for hi := lo; hi <= len(rows); hi++ {
				PrefetchRows(w, K, rows[lo:hi])
				PrefetchRows(w[1:], K, rows[lo:hi]) // rows astride the lines
			}
		}
	}
	if !same() {
		t.Fatalf("PrefetchRows changes the rows")
	}
}
