// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !amd64 || noasm || gccgo || safe

package simd

// Prefetch does nothing: Go has no portable prefetch, and loads that the
// caller must wait for would cost what they save.
func Prefetch(x []float64) {}

// PrefetchInts does nothing, as Prefetch.
func PrefetchInts(x []int) {}

// PrefetchRows does nothing, as Prefetch.
func PrefetchRows(w []float64, K int, rows []int) {}
