// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// Separable reports whether some hyperplane w·x+b = 0 separates the rows of
// X with label +1 from those with label -1, so that y_i(w·x_i+b) > 0 for
// every row; equivalently, whether the convex hulls of the two classes are
// disjoint. Data of a single class are separable. Separable decides by
// linear programming, independently of DatasetMargin: exactly for data
// that no hyperplane separates and for data that one with
// |w_j| <= 1/max_i |x_ij| separates with y_i(w·x_i+b) > 1.2e-9·(d+1); in
// between, where float64 cannot tell, either answer may come. It returns
// an error if the dense linear program, of d+2 rows and n+2d columns,
// would have more than 2^27 elements, if X and y are not valid as Fit
// requires, or if the simplex method fails.
func Separable(X mat.Matrix, y []float64) (bool, error) {
	ds, err := newDataset(X, y, binaryLabels)
	if err != nil {
		return false, err
	}
	if err := ds.check(nil); err != nil {
		return false, err
	}
	if ds.single() {
		return true, nil
	}

	// y_i(w·x_i+b) >= 1 is feasible exactly when the linear program
	//
	//	maximize t subject to y_i(w·x_i+b) >= t, |w_j| <= 1
	//
	// has a positive optimum, the columns of X being scaled to at most 1 in
	// size. Written for the simplex method, with the free w, b and t split,
	// it has n+2d rows, and every pivot solves a system of that size. Its
	// dual has d+2 rows:
	//
	//	minimize Σ μ_j + ν_j subject to
	//	Σ λ_i y_i x_ij + μ_j - ν_j = 0, Σ λ_i y_i = 0, Σ λ_i = 1,
	//	λ, μ, ν >= 0,
	//
	// in standard form, with the same optimum. λ puts weight 1/2 on each
	// class, and the optimum is 0 exactly when the two weighted means can
	// coincide, at a point common to both hulls. A feasible basis is at
	// hand: weight 1/2 on a row of each class, and μ_j or ν_j taking up the
	// difference of the two rows in each column, and starting from it
	// spares lp.Simplex a phase one.
	n, d := ds.n, ds.d
	if (d+2)*(n+2*d) > maxSimplex {
		return false, errorf(ErrTooLarge, "perceptron: Separable: the linear program of %d rows and %d columns is too large for the simplex method, at most %d elements", d+2, n+2*d, maxSimplex)
	}
	scale := make([]float64, d)
	for i := range n {
		ds.row(i).each(func(j int, v float64) {
			scale[j] = math.Max(scale[j], math.Abs(v))
		})
	}
	for j, v := range scale {
		if v == 0 {
			scale[j] = 1
		}
	}
	a := mat.NewDense(d+2, n+2*d, nil)
	cost := make([]float64, n+2*d)
	for i := range n {
		ds.row(i).each(func(j int, v float64) {
			a.Set(j, i, ds.sign(i)*v/scale[j])
		})
		a.Set(d, i, ds.sign(i))
		a.Set(d+1, i, 1)
	}
	for j := range d {
		a.Set(j, n+j, 1)
		a.Set(j, n+d+j, -1)
		cost[n+j], cost[n+d+j] = 1, 1
	}
	// lp.Simplex turns to Bland's rule only for steps of exactly zero
	// length, and at a degenerate vertex, which repeated rows and touching
	// hulls make, it can cycle on steps of rounding size. Perturbing the
	// zero right-hand sides by distinct multiples of ε, well above its
	// tolerances, leaves no such vertex; it moves the optimum by at most
	// ε·Σ_j u_j|w_j| + ε·u_b·|b|, less than 6ε(d+1) at the optimum, where
	// |b| <= 2d for columns of size at most 1.
	const eps = 1e-10
	rhs := make([]float64, d+2)
	for j := range d + 1 {
		_, u := math.Modf(float64(j) * math.Phi)
		rhs[j] = eps * (1 + u)
	}
	rhs[d+1] = 1

	pos := slices.Index(ds.y, 1)
	neg := slices.Index(ds.y, -1)
	lpos, lneg := (1+rhs[d])/2, (1-rhs[d])/2
	basis := make([]int, 0, d+2)
	for j := range d {
		if rhs[j]-lpos*a.At(j, pos)-lneg*a.At(j, neg) >= 0 {
			basis = append(basis, n+j)
		} else {
			basis = append(basis, n+d+j)
		}
	}
	basis = append(basis, pos, neg)

	// The reduced costs are within rounding of 0 at the optimum, and for
	// repeated rows exactly 0 in exact arithmetic: with no tolerance the
	// simplex method can pivot between such columns forever.
	t, _, err := lp.Simplex(cost, a, rhs, 1e-12, basis)
	if err != nil {
		return false, errorf(ErrNotConverged, "perceptron: the simplex method failed in Separable: %w", err)
	}
	return t > 6*eps*float64(d+1), nil
}

// maxSimplex is the most elements of the dense linear program that
// Separable solves: 2^27 float64s take a gigabyte.
const maxSimplex = 1 << 27
