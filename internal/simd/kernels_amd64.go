// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

package simd

// scoresAsm is Scores in assembly, if the processor has AVX2, on at most
// 32 scores at once with AVX-512 and 16 with AVX2, each in a lane of its
// own. It reports whether it ran.
func scoresAsm(dst, w, x []float64) bool {
	K := len(dst)
	switch {
	case useAVX512:
		for c := 0; c < K; c += 32 {
			r := min(K-c, 32)
			scoresAVX512(&dst[c], &w[c], &x[0], len(x), K, (r+7)/8, 1<<r-1)
		}
	case useAVX2:
		for c := 0; c < K; c += 16 {
			r := min(K-c, 16)
			scoresAVX2(&dst[c], &w[c], &x[0], len(x), K, r)
		}
	default:
		return false
	}
	return true
}

// scoresAVX512 sets dst[c] to the sum over j < d of x[j]·w[j·K+c] for
// the c whose bits are set in mask, in acc registers of 8 lanes, 1 to 4:
// byte i of mask holds the lanes of register i.
//
//go:noescape
func scoresAVX512(dst, w, x *float64, d, K, acc int, mask uint64)

// scoresAVX2 sets dst[c] to the sum over j < d of x[j]·w[j·K+c] for c < r,
// r at most 16.
//
//go:noescape
func scoresAVX2(dst, w, x *float64, d, K, r int)

// dotRowsAsm sets dst[i] as DotRows does for as many rows from the first
// as it can take four at a time, with AVX2, and returns their number.
func dotRowsAsm(dst, x []float64, stride int, w []float64) int {
	if !useAVX2 || len(w) == 0 {
		return 0
	}
	n := len(dst) &^ 3
	for i := 0; i < n; i += 4 {
		dotRows4AVX2(&dst[i], &x[i*stride], stride, &w[0], len(w))
	}
	return n
}

// dotRows4AVX2 sets dst[0:4] to the dot products of the n values of w
// with those of the 4 rows from x, stride apart. Each row's sum is held
// in four lanes, as gonum's DotUnitary holds it in two registers of two:
// lane l sums the terms j ≡ l mod 4 of the whole groups of four, lane 0
// then the rest in order, and the lanes add as (l0+l2)+(l1+l3).
//
//go:noescape
func dotRows4AVX2(dst, x *float64, stride int, w *float64, n int)

// axpyColumnsAsm is AxpyColumns in assembly: one pass over x for both
// columns, where gonum makes two. It reports whether it ran: not for a
// zero step, which gonum skips, nor on processors older than AVX2, which
// this kernel would not speed up.
func axpyColumnsAsm(w []float64, K int, x []float64, a float64, up int, b float64, down int) bool {
	if !useAVX2 || a == 0 || b == 0 {
		return false
	}
	axpyColumnsSSE2(&w[up], &w[down], K, &x[0], len(x), a, b)
	return true
}

// axpyColumnsSSE2 adds a·x[j] to up[j·K] and then b·x[j] to down[j·K], for
// j < n.
//
//go:noescape
func axpyColumnsSSE2(up, down *float64, K int, x *float64, n int, a, b float64)

// scoresRowsAsm sets the scores of ScoresRows for as many rows from the
// first as it can take a block at a time, and returns their number. Where
// the K scores fill the 8 lanes of AVX-512's registers, or nearly, as
// classesInLanes says, the scores of a row lie across the lanes, four
// rows at a time; otherwise the rows lie across the lanes, 16 rows at a
// time with AVX-512, and then 4 at a time with AVX2, in as few calls of
// the kernel as its registers allow, with nearly equal numbers of
// classes.
func scoresRowsAsm(dst, w, x []float64, K, d, stride int) int {
	n := len(dst) / K
	i := 0
	if useAVX512 {
		if classesInLanes(K) {
			for ; i+4 <= n; i += 4 {
				for c := 0; c < K; c += 16 {
					r := min(K-c, 16)
					scoresRows4AVX512(&dst[i*K+c], &w[c], &x[i*stride], stride, d, K, (r+7)/8, 1<<r-1)
				}
			}
			return i
		}
		i = rowsInLanes(dst, w, x, K, d, stride, 0, 16, 11, scoresRows16AVX512)
	}
	if useAVX2 {
		i = rowsInLanes(dst, w, x, K, d, stride, i, 4, 8, scoresRows4AVX2)
	}
	return i
}

// classesInLanes reports whether the kernel with the scores of a row
// across the lanes is the faster for K scores on AVX-512, as measured: if
// K is a multiple of 8, where it wastes no lane, and from 12 to 16, where
// the kernel with the rows across the lanes must read the rows twice.
func classesInLanes(K int) bool { return K%8 == 0 || 12 <= K && K <= 16 }

// rowsInLanes sets the scores of the rows from row i by the kernel of
// block rows and at most most classes a call, and returns the row after
// the last block.
func rowsInLanes(dst, w, x []float64, K, d, stride, i, block, most int, kernel func(dst, w, x *float64, stride, d, K, nc int)) int {
	n := len(dst) / K
	calls := (K + most - 1) / most
	for ; i+block <= n; i += block {
		for c, k := 0, 0; k < calls; k++ {
			nc := (K - c) / (calls - k)
			kernel(&dst[i*K+c], &w[c], &x[i*stride], stride, d, K, nc)
			c += nc
		}
	}
	return i
}

// scoresRows16AVX512 sets dst[i·K+c] to the sum over j < d of
// x[i·stride+j]·w[j·K+c], for the 16 rows i and c < nc, nc at most 11.
//
//go:noescape
func scoresRows16AVX512(dst, w, x *float64, stride, d, K, nc int)

// scoresRows4AVX2 sets dst[i·K+c] to the sum over j < d of
// x[i·stride+j]·w[j·K+c], for the 4 rows i and c < nc, nc at most 8.
//
//go:noescape
func scoresRows4AVX2(dst, w, x *float64, stride, d, K, nc int)

// scoresRows4AVX512 sets dst[i·K+c] to the sum over j < d of
// x[i·stride+j]·w[j·K+c], for the 4 rows i and the c whose bits are set
// in mask, in acc registers of 8 lanes a row, 1 or 2: byte a of mask
// holds the lanes of register a.
//
//go:noescape
func scoresRows4AVX512(dst, w, x *float64, stride, d, K, acc int, mask uint64)

// scoresSparseAsm is ScoresSparse in assembly, with AVX-512, on at most
// 32 scores at once. It reports whether it ran.
func scoresSparseAsm(dst, w []float64, ind []int, val []float64) bool {
	if !useAVX512 {
		return false
	}
	K := len(dst)
	var i *int
	var v *float64
	if len(ind) > 0 {
		i, v = &ind[0], &val[0]
	}
	for c := 0; c < K; c += 32 {
		r := min(K-c, 32)
		scoresSparseAVX512(&dst[c], &w[c], i, v, len(ind), K, (r+7)/8, 1<<r-1)
	}
	return true
}

// scoresSparseAVX512 sets dst[c] to the sum over k < nnz of
// val[k]·w[ind[k]·K+c] for the c whose bits are set in mask, in acc
// registers of 8 lanes, 1 to 4: byte i of mask holds the lanes of
// register i.
//
//go:noescape
func scoresSparseAVX512(dst, w *float64, ind *int, val *float64, nnz, K, acc int, mask uint64)

// streamAsm is Stream in assembly, with AVX2. It reports whether it ran.
func streamAsm(x []float64) (uint64, bool) {
	if !useAVX2 {
		return 0, false
	}
	return streamAVX2(&x[0], len(x)), true
}

// streamAVX2 returns the exclusive or of the bits of the n values from x.
//
//go:noescape
func streamAVX2(x *float64, n int) uint64

// scores3Asm is Scores3 in assembly, with AVX-512, on at most 32 scores
// of each row at once. It reports whether it ran.
func scores3Asm(dst, w, x0, x1, x2 []float64) bool {
	if !useAVX512 {
		return false
	}
	K := len(dst) / 3
	for c := 0; c < K; c += 32 {
		r := min(K-c, 32)
		scores3AVX512(&dst[c], &w[c], &x0[0], &x1[0], &x2[0], len(x0), K, (r+7)/8, 1<<r-1)
	}
	return true
}

// scores3AVX512 sets dst[r·K+c] to the sum over j < d of xr[j]·w[j·K+c],
// for the 3 rows r and the c whose bits are set in mask, in acc registers
// of 8 lanes a row, 1 to 4: byte k of mask holds the lanes of register k.
//
//go:noescape
func scores3AVX512(dst, w, x0, x1, x2 *float64, d, K, acc int, mask uint64)

// productsAsm sets out[i·32+2e] to the product of row i of a with vector
// e of pack, as productsAVX512 says, for the rows of every block of four
// up to row n, and returns the row after the last block.
func productsAsm(out, a []float64, stride int, pack []float64, d, n int) int {
	var kernel func(out, a *float64, stride int, pack *float64, pairs, tail int)
	switch {
	case useAVX512:
		kernel = productsAVX512
	case useAVX2:
		kernel = productsAVX2
	default:
		return 0
	}
	i := 0
	for ; i+4 <= n; i += 4 {
		kernel(&out[i*32], &a[i*stride], stride, &pack[0], d/2, d%2)
	}
	return i
}

// productsAVX512 sets out[r·32+2e], for the four rows r from a, stride
// values apart, and the 16 vectors e packed in pack, to the product of
// the two as gonum's GemvN forms it for a row of a block of four: lane 0
// sums the terms of the even features and lane 1 those of the odd, each
// in order, 16 vectors of 4 rows at once; the two lanes are then added,
// then the term of the last feature if the length is odd (tail is 1).
//
//go:noescape
func productsAVX512(out, a *float64, stride int, pack *float64, pairs, tail int)

// productsAVX2 is productsAVX512 a row at a time, with AVX2.
//
//go:noescape
func productsAVX2(out, a *float64, stride int, pack *float64, pairs, tail int)
