// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !amd64 || noasm || gccgo || safe

package simd

// Without assembly every kernel leaves the work to gonum, and the tests
// find no features to turn off.
var hasAVX2, hasAVX512, useAVX2, useAVX512 bool

func scoresAsm(dst, w, x []float64) bool { return false }
func dotRowsAsm(dst, x []float64, stride int, w []float64) int {
	return 0
}

func axpyColumnsAsm(w []float64, K int, x []float64, a float64, up int, b float64, down int) bool {
	return false
}

func scoresRowsAsm(dst, w, x []float64, K, d, stride int) int { return 0 }

func scoresSparseAsm(dst, w []float64, ind []int, val []float64) bool { return false }

func streamAsm(x []float64) (uint64, bool) { return 0, false }

func scores3Asm(dst, w, x0, x1, x2 []float64) bool { return false }

func productsAsm(out, a []float64, stride int, pack []float64, d, n int) int { return 0 }
