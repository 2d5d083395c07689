// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !linux

package data

// runtimeReserve returns 0: beyond Linux, only Go's memory limit bounds
// the budget, and it counts what the runtime maps, not what it reserves.
func runtimeReserve() float64 { return 0 }
