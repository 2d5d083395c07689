// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// The max-margin solver, nearest, is in two files: this one holds its
// type and the corral of its minor cycles; nearestsolve.go starts it and
// runs its passes over the data and its cycles on the working set to the
// stopping rule.

// nearest finds the point of least norm in the convex hull of the points
// z_i = y_i·(x_i, aug) (one group), or in the difference of the hulls of the
// positive and the negative rows (two groups), which is the set of points
// Σ α_i z_i with α >= 0 summing to 1 on each label. The point p = Σ α_i z_i
// is kept as its first d coordinates p and its last pc.
//
// The solver is Wolfe's algorithm (1976), extended to one simplex of
// weights per group. It keeps a corral of affinely independent points with
// positive weights, at whose affine hull's point of least norm p lies. A
// major cycle adds the point of least score z_i·p; minor cycles move p to
// the point of least norm of the new affine hull, stopping where a weight
// empties and dropping that point. It terminates in finitely many cycles
// with the exact nearest point, and its gap, the least score against p·p,
// is the Wolfe duality gap that the stopping rule needs.
//
// The algorithms that step towards one point at a time are much slower to
// a tolerance of 1e-6. Gilbert's algorithm and the Schlesinger-Kozinec
// algorithm converge as O(1/k), zig-zagging near the optimum. The
// algorithm of Mitchell, Dem'yanov and Malozemov (MDM), which moves weight
// between pairs of points, converges linearly, but slowly once many points
// support the optimum, each of its steps a pass over the data. Wolfe's
// algorithm needs few passes, and linear solves of the size of the
// corral, at most d+2.
//
// The points that matter are few: the corral and the points of least
// score. So the cycles run on a working set of them, with their Gram
// matrix; one pass over all the data then checks the stopping rule with
// exact scores and picks the next working set, as SVM solvers shrink their
// problems.
type nearest struct {
	ds     *dataset
	groups int
	aug    float64
	tol    float64
	limit  int
	r      float64 // the scale of the data, see DatasetMargin and MistakeBound

	alpha []float64 // the weights of the rows
	s     []float64 // the scores of the rows in the last pass
	p     []float64
	pc    float64

	// With two groups p does not change if every row moves by the same
	// vector, so the rows are taken about their mean, center, which
	// keeps far-off data as well conditioned as data about the origin.
	// pcen is p·center, and cc center·center.
	center []float64
	pcen   float64
	cc     float64
	least  [2]float64 // the least score of each group in the last pass

	// The working set: its rows, their Gram matrix and scores, and the
	// corral as indices into the working set, with the Cholesky
	// factorization of its matrix M (see affine).
	set    []int
	rows   []float64 // the points z_i of the working set, about the center, on dense rows
	xc     []float64 // x_i·center of the working set, on sparse rows
	gram   []float64
	ws     []float64
	corral []int
	l      []float64 // the Cholesky factor of M, see factorL
	shift  float64
	col, q []float64
	wp     []float64 // p on the working set
	pp     float64   // its squared norm
	cand   []int

	b, lower, upper float64
	iters           int
}

// group returns the group of row i: with two groups 1 for the label -1,
// and 0 otherwise.
func (np *nearest) group(i int) int {
	if np.groups == 2 && np.ds.y[i] < 0 {
		return 1
	}
	return 0
}

// The corral of Wolfe's algorithm: the points of the working set, and the
// linear algebra of the affine hulls that the minor cycles move on.
//
// The points of the working set are z_a = y_a(x_a - center) on their
// first d coordinates. On dense rows work copies them, about the center,
// which keeps far-off data as well conditioned as data about the origin;
// on sparse rows, where the copies would be dense, product, addPoint and
// pointDot expand the products instead, in O(non-zeros).

// product returns z_a·z_c over the first d coordinates.
func (np *nearest) product(a, c int) float64 {
	ds, d := np.ds, np.ds.d
	if !ds.sparse() {
		return floats.Dot(np.rows[a*d:a*d+d], np.rows[c*d:c*d+d])
	}
	ia, ic := np.set[a], np.set[c]
	p := ds.row(ia).dotVec(ds.row(ic)) - np.xc[a] - np.xc[c] + np.cc
	return ds.sign(ia) * ds.sign(ic) * p
}

// addPoint adds coef·z_a to the dense w, and returns the multiple of the
// center that it leaves the caller to subtract.
func (np *nearest) addPoint(w []float64, a int, coef float64) float64 {
	ds, d := np.ds, np.ds.d
	if !ds.sparse() {
		floats.AddScaled(w, coef, np.rows[a*d:a*d+d])
		return 0
	}
	i := np.set[a]
	x := ds.row(i)
	x.addTo(w, coef*ds.sign(i))
	if np.center == nil {
		return 0
	}
	return coef * ds.sign(i)
}

// pointDot returns w·z_a over the first d coordinates; wcen is w·center on
// sparse rows.
func (np *nearest) pointDot(w []float64, a int, wcen float64) float64 {
	ds, d := np.ds, np.ds.d
	if !ds.sparse() {
		return floats.Dot(w, np.rows[a*d:a*d+d])
	}
	i := np.set[a]
	x := ds.row(i)
	return ds.sign(i) * (x.dot(w) - wcen)
}

// mcol sets np.col to the column of M for point a of the working set
// against the corral, followed by its diagonal element.
//
// The point of least norm of the affine hull of the corral, with weights μ
// summing to 1 in each group, solves G μ = E ν, Eᵀ μ = 1, for G the Gram
// matrix of the corral and E the indicator of the groups. With
// M = G + c·E Eᵀ, which is positive definite exactly when the corral is
// affinely independent (for a positive c), and the weights α of p, the step
// δ = μ - α solves M δ = E ν' - s, Eᵀ δ = 0, where s are the scores of the
// corral: δ = Q ν' - M⁻¹ s, with Q = M⁻¹ E and (Eᵀ Q) ν' = Eᵀ M⁻¹ s. Taken
// from accurate scores, the step corrects the rounding of the last one, as
// iterative refinement does. The shift c is of the size of G to keep M
// well conditioned.
func (np *nearest) mcol(a int) []float64 {
	m, k := len(np.set), len(np.corral)
	col := np.col[:k+1]
	g := np.group(np.set[a])
	for u, c := range np.corral {
		col[u] = np.gram[a*m+c]
		if np.group(np.set[c]) == g {
			col[u] += np.shift
		}
	}
	col[k] = np.gram[a*m+a] + np.shift
	return col
}

// factorL returns the Cholesky factor L of M for the corral, M = L Lᵀ.
func (np *nearest) factorL() blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: len(np.corral), Data: np.l, Stride: len(np.set) + 1}
}

// factor computes the Cholesky factorization of M for the corral.
func (np *nearest) factor() bool {
	l := np.factorL()
	for u, a := range np.corral {
		copy(l.Data[u*l.Stride:], np.mcol(a)[:u+1])
	}
	_, ok := lapack64.Potrf(blas64.Symmetric{Uplo: l.Uplo, N: l.N, Data: l.Data, Stride: l.Stride})
	return ok
}

// add adds point a of the working set to the corral, with weight zero,
// and extends the factorization by a row. It reports false if a is
// affinely dependent on the corral to working precision.
func (np *nearest) add(a int) bool {
	l := np.factorL()
	col := np.mcol(a)
	k := l.N
	blas64.Trsv(blas.NoTrans, l, blas64.Vector{N: k, Data: col, Inc: 1})
	pivot := col[k] - floats.Dot(col[:k], col[:k])
	if pivot <= 1e-14*col[k] {
		return false
	}
	copy(l.Data[k*l.Stride:], col[:k])
	l.Data[k*l.Stride+k] = math.Sqrt(pivot)
	np.corral = append(np.corral, a)
	return true
}

// step moves the weights towards the point of least norm of the affine
// hull of the corral, as far as keeps them non-negative, and drops the
// points whose weights it empties. It reports whether it dropped any, and
// false if rounding stops it.
func (np *nearest) step() (dropped, ok bool) {
	k, G := len(np.corral), np.groups
	// q holds M⁻¹ [E s], column by column.
	q := np.q[:k*(G+1)]
	clear(q)
	for u, c := range np.corral {
		q[np.group(np.set[c])*k+u] = 1
		q[G*k+u] = np.ws[c]
	}
	l := np.factorL()
	for h := range G + 1 {
		v := blas64.Vector{N: k, Data: q[h*k : h*k+k], Inc: 1}
		blas64.Trsv(blas.NoTrans, l, v)
		blas64.Trsv(blas.Trans, l, v)
	}
	var a [2][3]float64
	for u, c := range np.corral {
		g := np.group(np.set[c])
		for h := range G + 1 {
			a[g][h] += q[h*k+u]
		}
	}
	var nu [2]float64
	if G == 1 {
		nu[0] = a[0][1] / a[0][0]
	} else {
		det := a[0][0]*a[1][1] - a[0][1]*a[1][0]
		nu[0] = (a[1][1]*a[0][2] - a[0][1]*a[1][2]) / det
		nu[1] = (a[0][0]*a[1][2] - a[1][0]*a[0][2]) / det
	}
	delta := np.col[:k]
	for u := range k {
		delta[u] = -q[G*k+u]
		for h := range G {
			delta[u] += q[h*k+u] * nu[h]
		}
	}
	if nonFinite(delta) >= 0 {
		return false, false
	}

	theta, block := 1.0, -1
	for u, c := range np.corral {
		al := np.alpha[np.set[c]]
		if delta[u] < 0 && al < -theta*delta[u] {
			theta, block = al/-delta[u], u
		}
	}
	if theta == 0 {
		return false, false
	}
	for u, c := range np.corral {
		i := np.set[c]
		np.alpha[i] = math.Max(0, np.alpha[i]+theta*delta[u])
	}
	if block >= 0 {
		np.alpha[np.set[np.corral[block]]] = 0
	}
	for u := k - 1; u >= 0; u-- {
		if np.alpha[np.set[np.corral[u]]] == 0 {
			np.drop(u)
			dropped = true
		}
	}
	return dropped, true
}

// drop removes the point at u of the corral and its row and column of M
// from the factorization. Deleting row u of L leaves the rows below it one
// column too wide; rotating each pair of adjacent columns from u on
// restores the triangle, in O(k²) rather than the O(k³) of factoring anew.
func (np *nearest) drop(u int) {
	l := np.factorL()
	k, st, L := l.N, l.Stride, l.Data
	for r := u; r < k-1; r++ {
		copy(L[r*st:r*st+r+2], L[(r+1)*st:(r+1)*st+r+2])
	}
	for r := u; r < k-1; r++ {
		a, b := L[r*st+r], L[r*st+r+1]
		h := math.Hypot(a, b)
		c, s := a/h, b/h
		L[r*st+r], L[r*st+r+1] = h, 0
		for q := r + 1; q < k-1; q++ {
			x, y := L[q*st+r], L[q*st+r+1]
			L[q*st+r], L[q*st+r+1] = c*x+s*y, c*y-s*x
		}
	}
	np.corral = slices.Delete(np.corral, u, u+1)
}
