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
