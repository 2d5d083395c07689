// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

package perceptron

// prefetch asks the processor to load the cache lines of the n float64s
// from x, without waiting for them. It changes no value.
//
//go:noescape
func prefetch(x *float64, n int)

// prefetchColumns asks the processor to load the cache lines of the rows
// ind[k] of S float64s each of the matrix from w, held row by row, for
// k < n, without waiting for them. It changes no value.
//
//go:noescape
func prefetchColumns(w *float64, ind *int, n, S int)

// prefetchInts is prefetch of the n ints from x.
//
//go:noescape
func prefetchInts(x *int, n int)
