// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build race

package simd

// The race detector slows the tests' own loops some twentyfold: they run
// a tenth of their trials under it.
const trialShare = 10
