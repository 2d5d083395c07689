// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package simd

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// Scores sets each dst[c] to the sum over j of x[j]·w[j·K+c], for K =
// len(dst): the K products of x with the columns of the len(x)×K matrix
// w, held row by row. Each sum starts at zero and adds its terms in the
// order of j, as gonum's matrix-vector product does, which leaves dst as
// it is if x is empty. It panics if w is shorter than len(x)·K.
func Scores(dst, w, x []float64) {
	K := len(dst)
	if len(w) < len(x)*K {
		panic("simd: short w")
	}
	if K == 0 || len(x) == 0 {
		return // as gonum leaves dst
	}
	if !scoresAsm(dst, w, x) {
		scoresGo(dst, w, x)
	}
}

// scoresGo is Scores by gonum, the code that the kernels must equal.
func scoresGo(dst, w, x []float64) {
	K := len(dst)
	blas64.Gemv(blas.Trans, 1,
		blas64.General{Rows: len(x), Cols: K, Stride: K, Data: w},
		blas64.Vector{N: len(x), Inc: 1, Data: x},
		0, blas64.Vector{N: K, Inc: 1, Data: dst})
}

// DotRows sets each dst[i] to the dot product of w with the len(w)
// values of x from x[i·stride], as gonum's floats.Dot forms it: the
// dot products of len(dst) rows of a matrix held row by row. It panics
// if stride < len(w) with more than one row, or if x is too short.
func DotRows(dst, x []float64, stride int, w []float64) {
	n := len(dst)
	if n == 0 {
		return
	}
	if n > 1 && stride < len(w) {
		panic("simd: stride < len(w)")
	}
	if len(x) < (n-1)*stride+len(w) {
		panic("simd: short x")
	}
	if i := dotRowsAsm(dst, x, stride, w); i < n {
		dotRowsGo(dst[i:], x[i*stride:], stride, w)
	}
}

// dotRowsGo is DotRows by gonum.
func dotRowsGo(dst, x []float64, stride int, w []float64) {
	for i := range dst {
		dst[i] = floats.Dot(x[i*stride:i*stride+len(w)], w)
	}
}

// AxpyColumns adds a·x[j] to w[j·K+up] and then b·x[j] to w[j·K+down],
// for every j: a step of each of two columns of the len(x)×K matrix w,
// held row by row. Each element becomes the sum of the rounded product
// and its old value, as gonum's Axpy forms it, and a zero step leaves its
// column as it is, as gonum's does. It panics if up or down is
// not a column, or if w is shorter than len(x)·K.
func AxpyColumns(w []float64, K int, x []float64, a float64, up int, b float64, down int) {
	if up < 0 || up >= K || down < 0 || down >= K {
		panic("simd: no such column")
	}
	if len(x) == 0 {
		return
	}
	if len(w) < len(x)*K {
		panic("simd: short w")
	}
	if !axpyColumnsAsm(w, K, x, a, up, b, down) {
		axpyColumnsGo(w, K, x, a, up, b, down)
	}
}

// axpyColumnsGo is AxpyColumns by gonum.
func axpyColumnsGo(w []float64, K int, x []float64, a float64, up int, b float64, down int) {
	n := len(x)
	if n == 0 {
		return
	}
	blas64.Axpy(a, blas64.Vector{N: n, Inc: 1, Data: x}, blas64.Vector{N: n, Inc: K, Data: w[up:]})
	blas64.Axpy(b, blas64.Vector{N: n, Inc: 1, Data: x}, blas64.Vector{N: n, Inc: K, Data: w[down:]})
}

// ScoresRows sets dst[i·K:(i+1)·K] to the Scores of w with the d values
// of x from x[i·stride], for the len(dst)/K rows of a matrix held row by
// row: each score to the bit as Scores forms it, several rows at once. It
// leaves dst as it is if d is 0, as Scores does, and panics if len(dst)
// is not a multiple of K, if stride < d with more than one row, or if w
// or x is too short.
func ScoresRows(dst, w, x []float64, K, d, stride int) {
	if K < 1 || len(dst)%K != 0 {
		panic("simd: len(dst) is not a multiple of K")
	}
	n := len(dst) / K
	if n == 0 || d == 0 {
		return
	}
	if n > 1 && stride < d {
		panic("simd: stride < d")
	}
	if len(w) < d*K {
		panic("simd: short w")
	}
	if len(x) < (n-1)*stride+d {
		panic("simd: short x")
	}
	for i := scoresRowsAsm(dst, w, x, K, d, stride); i < n; i++ {
		Scores(dst[i*K:i*K+K], w[:d*K], x[i*stride:i*stride+d])
	}
}

// Scores3 sets dst[0:K], dst[K:2K] and dst[2K:3K] to the Scores of w
// with x0, x1 and x2, for K = len(dst)/3, each to the bit as Scores forms
// it: the scores of three rows in much less time than three calls of
// Scores where Scores3Pays reports true. It panics if len(dst) is not a multiple of 3, if the rows
// differ in length, or if w is shorter than len(x0)·K.
func Scores3(dst, w, x0, x1, x2 []float64) {
	if len(dst)%3 != 0 {
		panic("simd: len(dst) is not a multiple of 3")
	}
	K, d := len(dst)/3, len(x0)
	if len(x1) != d || len(x2) != d {
		panic("simd: rows of different lengths")
	}
	if len(w) < d*K {
		panic("simd: short w")
	}
	if K == 0 || d == 0 {
		return // as Scores leaves dst
	}
	if !scores3Asm(dst, w, x0, x1, x2) {
		Scores(dst[:K], w, x0)
		Scores(dst[K:2*K], w, x1)
		Scores(dst[2*K:], w, x2)
	}
}

// Scores3Pays reports whether Scores3 takes much less time than three
// calls of Scores, whose time the latency of a row's K sums, each a chain
// of additions, bounds: whether its kernel runs on this processor.
func Scores3Pays() bool { return useAVX512 }

// ScoresSparse sets each dst[c] to the sum over k of val[k]·w[ind[k]·K+c],
// for K = len(dst): the K products of the sparse row of values val at the
// columns ind with the columns of the matrix w of K columns, held row by
// row. Each sum starts at zero and adds its terms in the order of k, as
// gonum's AddScaled of the rows of w forms it. It panics if val is shorter
// than ind or if a column in ind is not a row of w.
func ScoresSparse(dst, w []float64, ind []int, val []float64) {
	K := len(dst)
	if K == 0 {
		return
	}
	if len(val) < len(ind) {
		panic("simd: short val")
	}
	rows := uint(len(w) / K)
	for _, j := range ind {
		if uint(j) >= rows {
			panic("simd: column out of range")
		}
	}
	if !scoresSparseAsm(dst, w, ind, val) {
		scoresSparseGo(dst, w, ind, val)
	}
}

// scoresSparseGo is ScoresSparse by gonum.
func scoresSparseGo(dst, w []float64, ind []int, val []float64) {
	K := len(dst)
	clear(dst)
	for k, j := range ind {
		floats.AddScaled(dst, val[k], w[j*K:j*K+K])
	}
}

// Stream returns the exclusive or of the bits of the values of x: it
// reads every value once and computes next to nothing, the least that a
// pass over rows can cost, which the benchmarks measure their passes
// against.
func Stream(x []float64) uint64 {
	if len(x) == 0 {
		return 0
	}
	if s, ok := streamAsm(x); ok {
		return s
	}
	return streamGo(x)
}

// streamGo is Stream in Go.
func streamGo(x []float64) uint64 {
	var s0, s1, s2, s3 uint64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 ^= math.Float64bits(x[i])
		s1 ^= math.Float64bits(x[i+1])
		s2 ^= math.Float64bits(x[i+2])
		s3 ^= math.Float64bits(x[i+3])
	}
	for ; i < len(x); i++ {
		s0 ^= math.Float64bits(x[i])
	}
	return s0 ^ s1 ^ s2 ^ s3
}

// ProductsMost is the most vectors that Products takes at once.
const ProductsMost = 16

// ProductsWork returns the length of the work that Products needs for
// vectors of length d and up to m rows.
func ProductsWork(d, m int) int { return packLen(d) + 2*ProductsMost*m }

// packLen returns the length of the vectors of length d packed for the
// kernels of Products: a pair of values of each of 16 vectors a step.
func packLen(d int) int { return 2 * ProductsMost * ((d + 1) / 2) }

// Products sets dst[e·m+i] to the dot product of xs[e] with row i of a,
// the d = len(xs[e]) values from a[i·stride], for each vector e and each
// row i < n[e], where m = len(dst)/len(xs): the products of up to 16
// vectors with the first rows of a matrix held row by row. Each is to the
// bit as gonum's matrix-vector product of the first n[e] rows with xs[e]
// forms it, which leaves dst as it is if d is 0. The elements from n[e]
// to m are left as they are. work holds at least ProductsWork(d, m)
// values. It panics if there are more than 16 vectors or they differ in
// length, if len(n) is not len(xs) or an n[e] is negative or above m, if
// stride < d with more than one row, or if a or work is too short.
func Products(dst, a []float64, stride int, xs [][]float64, n []int, work []float64) {
	ne := len(xs)
	if ne == 0 {
		return
	}
	if ne > ProductsMost {
		panic("simd: more than 16 vectors")
	}
	if len(n) != ne {
		panic("simd: len(n) != len(xs)")
	}
	m, d, rows := len(dst)/ne, len(xs[0]), 0
	for e, x := range xs {
		if len(x) != d {
			panic("simd: vectors of different lengths")
		}
		if n[e] < 0 || n[e] > m {
			panic("simd: n[e] out of range")
		}
		rows = max(rows, n[e])
	}
	if d == 0 || rows == 0 {
		return
	}
	if rows > 1 && stride < d {
		panic("simd: stride < d")
	}
	if len(a) < (rows-1)*stride+d {
		panic("simd: short a")
	}
	if len(work) < ProductsWork(d, m) {
		panic("simd: short work")
	}
	done := 0
	if useAVX2 && ne >= productsFew && rows >= 4 {
		pack, out := work[:packLen(d)], work[packLen(d):]
		packProducts(pack, xs)
		done = productsAsm(out, a, stride, pack, d, rows)
		for e, x := range xs {
			k := min(n[e], done)
			for i := range k {
				dst[e*m+i] = out[i*2*ProductsMost+2*e]
			}
			if k == n[e] && k%2 == 1 && d%2 == 1 {
				// The last of an odd number of rows gonum forms on its
				// own, with the last feature's term in the sum of the
				// even ones.
				gemvN(dst[e*m+k-1:e*m+k], a[(k-1)*stride:], stride, d, x)
			}
		}
	}
	for e, x := range xs {
		if n[e] > done {
			// The rows after the last block of four, as gonum forms them
			// after its blocks of four rows.
			gemvN(dst[e*m+done:e*m+n[e]], a[done*stride:], stride, d, x)
		}
	}
}

// productsFew is the fewest vectors on which Products runs its kernels,
// which take 16 whatever their number: as measured, the AVX2 kernel
// pays from 8, the AVX-512 one from fewer.
const productsFew = 8

// packProducts lays out the vectors xs for the kernels of Products: the
// pair of values 2t and 2t+1 of vector e at pack[t·32+2e], and the last
// value of an odd length at pack[t·32+2e] for t = len/2, with zeros for
// the vectors after the last.
func packProducts(pack []float64, xs [][]float64) {
	d := len(xs[0])
	for t := 0; t < (d+1)/2; t++ {
		p := pack[t*2*ProductsMost : (t+1)*2*ProductsMost]
		for e := range ProductsMost {
			var x0, x1 float64
			if e < len(xs) {
				x := xs[e]
				x0 = x[2*t]
				if 2*t+1 < d {
					x1 = x[2*t+1]
				}
			}
			p[2*e], p[2*e+1] = x0, x1
		}
	}
}

// gemvN sets dst to the products of x with the len(dst) rows of d values
// from a, stride apart, by gonum.
func gemvN(dst, a []float64, stride, d int, x []float64) {
	blas64.Gemv(blas.NoTrans, 1,
		blas64.General{Rows: len(dst), Cols: d, Stride: max(stride, d), Data: a},
		blas64.Vector{N: d, Inc: 1, Data: x},
		0, blas64.Vector{N: len(dst), Inc: 1, Data: dst})
}
