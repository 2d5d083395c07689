// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !linux

package memory

import (
	"math"
	"unsafe"
)

// osRoom returns +Inf: beyond Linux, only Go's memory limit bounds the
// budget.
func osRoom() (float64, string) { return math.Inf(1), "" }

// advise does nothing: the hint is Linux's.
func advise(unsafe.Pointer, uintptr, bool) {}

// drop does nothing: it serves Linux's hint.
func drop(unsafe.Pointer, uintptr) {}
