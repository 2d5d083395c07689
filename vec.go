// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"

	"github.com/seed5ae3614e/perceptron/internal/simd"
)

// A row as the algorithms read it, dense or sparse, and its arithmetic:
// the dot products, updates and norms that every algorithm computes on
// rows.

// vec is one row: all its values, or if ind is not nil the values val at
// the columns ind, in increasing order, and zeros elsewhere.
type vec struct {
	ind []int
	val []float64
}

// sortVec sorts the elements of a sparse x by their columns.
func sortVec(x vec) {
	p := make([]int, len(x.ind))
	for k := range p {
		p[k] = k
	}
	slices.SortStableFunc(p, func(a, b int) int { return x.ind[a] - x.ind[b] })
	ind, val := slices.Clone(x.ind), slices.Clone(x.val)
	for k, q := range p {
		x.ind[k], x.val[k] = ind[q], val[q]
	}
}

// dot returns x·w for a dense w.
func (x *vec) dot(w []float64) float64 {
	if x.ind == nil {
		return floats.Dot(x.val, w)
	}
	return sparseDot(x.ind, x.val, w)
}

// sparseDot returns the dot product of the values val at the columns ind
// with w. It is a function of its own so that dot, on dense rows, inlines.
func sparseDot(ind []int, val, w []float64) float64 {
	// Four sums, so that the loads of w, which miss the cache more often
	// than not on wide rows, do not wait on one chain of additions.
	val = val[:len(ind)]
	var s0, s1, s2, s3 float64
	k := 0
	for ; k+4 <= len(ind); k += 4 {
		s0 += val[k] * w[ind[k]]
		s1 += val[k+1] * w[ind[k+1]]
		s2 += val[k+2] * w[ind[k+2]]
		s3 += val[k+3] * w[ind[k+3]]
	}
	for ; k < len(ind); k++ {
		s0 += val[k] * w[ind[k]]
	}
	return (s0 + s1) + (s2 + s3)
}

// dotVec returns x·z: for two sparse rows, from a merge of their columns.
func (x vec) dotVec(z vec) float64 {
	switch {
	case z.ind == nil:
		return x.dot(z.val)
	case x.ind == nil:
		return z.dot(x.val)
	}
	var s float64
	a, b := 0, 0
	for a < len(x.ind) && b < len(z.ind) {
		switch ja, jb := x.ind[a], z.ind[b]; {
		case ja == jb:
			s += x.val[a] * z.val[b]
			a++
			b++
		case ja < jb:
			a++
		default:
			b++
		}
	}
	return s
}

// addTo adds a·x to the dense w.
func (x *vec) addTo(w []float64, a float64) {
	if x.ind == nil {
		floats.AddScaled(w, a, x.val)
		return
	}
	for k, j := range x.ind {
		w[j] += a * x.val[k]
	}
}

// addStrided adds a·x to every S-th element of w, from w[0]: to one
// column of a d×S matrix held row by row.
func (x *vec) addStrided(w []float64, S int, a float64) {
	if x.ind == nil && S == 1 {
		// Two classes, the common case: blas64.Axpy's checks cost a
		// short row as much as its arithmetic, which is the same.
		floats.AddScaled(w[:len(x.val)], a, x.val)
		return
	}
	if x.ind == nil {
		blas64.Axpy(a, blas64.Vector{N: len(x.val), Inc: 1, Data: x.val}, blas64.Vector{N: len(x.val), Inc: S, Data: w})
		return
	}
	for k, j := range x.ind {
		w[j*S] += a * x.val[k]
	}
}

// norm2 returns x·x.
func (x vec) norm2() float64 { return floats.Dot(x.val, x.val) }

// norm returns the Euclidean norm of x, computed with care against
// overflow.
func (x vec) norm() float64 { return floats.Norm(x.val, 2) }

// distance returns the Euclidean distance between x and the dense z,
// whose squared norm is zz. For a sparse x it takes ||x||² - 2x·z + zz, in
// O(non-zeros), which loses precision on rows far from the origin compared
// with their distance.
func (x vec) distance(z []float64, zz float64) float64 {
	if x.ind == nil {
		return floats.Distance(x.val, z, 2)
	}
	return math.Sqrt(max(0, x.norm2()-2*x.dot(z)+zz))
}

// col returns the column of the k-th stored element of x.
func (x vec) col(k int) int {
	if x.ind == nil {
		return k
	}
	return x.ind[k]
}

// each calls f with every stored element of x and its column.
func (x vec) each(f func(j int, v float64)) {
	for k, v := range x.val {
		f(x.col(k), v)
	}
}

// denseTo writes x into dst, of length d.
func (x vec) denseTo(dst []float64) {
	if x.ind == nil {
		copy(dst, x.val)
		return
	}
	clear(dst)
	for k, j := range x.ind {
		dst[j] = x.val[k]
	}
}

// finiteAfter reports whether w[j·S]+a·x_j stays finite for every stored
// element of x: whether addStrided keeps w finite.
func (x vec) finiteAfter(w []float64, S int, a float64) bool {
	ok := true
	x.each(func(j int, v float64) {
		if !finite(w[j*S] + a*v) {
			ok = false
		}
	})
	return ok
}

// full returns the values of x with its zeros: x.val itself if x is
// dense, and otherwise buf, of length d, which it writes them into.
func (x vec) full(buf []float64) []float64 {
	if x.ind == nil {
		return x.val
	}
	x.denseTo(buf)
	return buf
}

// touch loads a weight from every cache line of the S weights of each
// column in ind, and returns their sum. A sparse row's scores read these
// lines from all over the weights; loads that depend on nothing let the
// processor fetch them all at once, where the sums that need them would
// wait for each in turn. It is not inlined, so that the loads are kept.
//
//go:noinline
func touch(w []float64, ind []int, S int) float64 {
	var t float64
	for _, j := range ind {
		row := w[j*S : j*S+S]
		for c := 0; c < S; c += 8 {
			t += row[c]
		}
		t += row[S-1]
	}
	return t
}

// gemvT sets dst to the S products of the columns of the d×S matrix w,
// held row by row, with x.
func gemvT(dst, w, x []float64, S int) { simd.Scores(dst[:S], w[:len(x)*S], x) }

// nonZero reports whether some element of x is not zero.
func nonZero(x []float64) bool {
	return slices.ContainsFunc(x, func(v float64) bool { return v != 0 })
}
