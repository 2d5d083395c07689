// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stream

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// Spill and Memory load, pass after pass, what the pass before stored, the
// same bits as a slice that holds every number, over chunks of every size
// and numbers of every kind, most of them zero; Close removes the files.
func TestShares(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 1))
	dir := t.TempDir()
	for trial := range 50 {
		n := 1 + rnd.IntN(2000)
		want := make([]float64, n)
		spill, err := NewSpill(dir)
		if err != nil {
			t.Fatal(err)
		}
		shares := []Shares{spill, &Memory{}}
		for pass := range 4 {
			next := slices.Clone(want)
			for i := 0; i < n; {
				size := min(n-i, 1+rnd.IntN(300))
				for _, s := range shares {
					got := make([]float64, size)
					for k := range got {
						got[k] = math.NaN() // Load sets every number
					}
					if err := s.Load(got, i); err != nil {
						t.Fatal(err)
					}
					if !slices.EqualFunc(got, want[i:i+size], func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
						t.Fatalf("trial %d, pass %d, %T: from %d %v, want %v", trial, pass, s, i, got, want[i:i+size])
					}
				}
				for k := range size {
					switch rnd.IntN(8) {
					case 0:
						next[i+k] = rnd.NormFloat64() * math.Ldexp(1, rnd.IntN(200)-100)
					case 1:
						next[i+k] = 0
					case 2:
						next[i+k] = math.Copysign(0, -1)
					}
				}
				if pass < 3 {
					for _, s := range shares {
						if err := s.Store(next[i:i+size], i); err != nil {
							t.Fatal(err)
						}
					}
				}
				i += size
			}
			if pass < 3 {
				want = next
			}
		}
		if err := spill.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}
