// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package synth generates the seeded synthetic data of this module's
// benchmarks, so that the Go benchmarks and the harness under bench/ train
// on the same kind of data.
package synth

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Data returns n rows of d features in [0, 1) labelled by a random
// hyperplane through their centre, at least half a standard deviation of
// the score away from it, with one label in twenty flipped so that no line
// separates them. The same n and d give the same data.
func Data(n, d int) (*mat.Dense, []float64) {
	rnd := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	w := make([]float64, d)
	for j := range w {
		w[j] = rnd.NormFloat64()
	}
	// The score of a uniform row has standard deviation ||w||/sqrt(12).
	gap := floats.Norm(w, 2) / math.Sqrt(12) / 2
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		x := X.RawRowView(i)
		s := 0.0
		for math.Abs(s) < gap {
			s = 0
			for j := range x {
				x[j] = rnd.Float64()
				s += w[j] * (x[j] - 0.5)
			}
		}
		y[i] = 1
		if s < 0 {
			y[i] = -1
		}
		if rnd.IntN(20) == 0 {
			y[i] = -y[i]
		}
	}
	return X, y
}
