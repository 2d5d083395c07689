// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

package simd

// Prefetch asks the processor to load the cache lines of x, without
// waiting for them. It changes no value, and costs a few instructions a
// line.
//
//go:noescape
func Prefetch(x []float64)

// PrefetchInts is Prefetch of ints.
//
//go:noescape
func PrefetchInts(x []int)

// PrefetchRows asks the processor to load the cache lines of the rows
// rows[k] of the matrix w of K columns, held row by row, without waiting
// for them: the K weights w[j·K:(j+1)·K] of each column j of a sparse
// row. It changes no value, and checks no row: the processor ignores a
// prefetch of memory that it cannot read.
//
//go:noescape
func PrefetchRows(w []float64, K int, rows []int)
