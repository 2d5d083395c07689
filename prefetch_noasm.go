// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !amd64 || noasm || gccgo || safe

package perceptron

// prefetch does nothing: Go has no portable prefetch, and loads that the
// visit must wait for would cost what they save.
func prefetch(x *float64, n int) {}

// prefetchColumns does nothing, as prefetch.
func prefetchColumns(w *float64, ind *int, n, S int) {}

// prefetchInts does nothing, as prefetch.
func prefetchInts(x *int, n int) {}
