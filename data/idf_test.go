// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seed5ae3614e/perceptron/data"
)

// NewIDFCounts of the counts of parts of the rows, summed, is NewIDF of
// all the rows, to the bit, whatever the parts.
func TestNewIDFCounts(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 14))
	for trial := range 20 {
		n, d := 1+rnd.IntN(60), 1+rnd.IntN(9)
		dense, sparse := modelData(rnd, n, d, 2)
		X := dense.X
		if trial%2 == 1 {
			X = sparse.X
		}
		want, err := data.NewIDF(X)
		if err != nil {
			t.Fatal(err)
		}
		// The counts of parts of the rows, every parts-th row from p in
		// part p, summed.
		df := make([]int, d)
		parts := 1 + rnd.IntN(4)
		for p := range parts {
			for i := range n {
				if i%parts != p {
					continue
				}
				for j := range d {
					if X.At(i, j) != 0 {
						df[j]++
					}
				}
			}
		}
		got, err := data.NewIDFCounts(n, df)
		if err != nil {
			t.Fatal(err)
		}
		if got.Mean != nil || len(got.Scale) != d {
			t.Fatalf("Mean %v, %d scales, want none and %d", got.Mean, len(got.Scale), d)
		}
		for j := range d {
			if math.Float64bits(got.Scale[j]) != math.Float64bits(want.Scale[j]) {
				t.Errorf("trial %d, column %d: scale %v, NewIDF's %v", trial, j, got.Scale[j], want.Scale[j])
			}
		}
	}
	for _, tc := range []struct {
		n    int
		df   []int
		want string
	}{
		{0, []int{0}, "data: no rows to weigh by"},
		{3, []int{1, -1}, "data: column 2: a count of -1 rows, want 0 to 3"},
		{3, []int{4}, "data: column 1: a count of 4 rows, want 0 to 3"},
	} {
		if _, err := data.NewIDFCounts(tc.n, tc.df); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("NewIDFCounts(%d, %v): error %v, want %q", tc.n, tc.df, err, tc.want)
		}
	}
}
