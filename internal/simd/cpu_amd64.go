// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

package simd

import "golang.org/x/sys/cpu"

// hasAVX2 and hasAVX512 report the processor's features that the kernels
// need: the instruction sets, each where the operating system saves its
// registers, without which the processor faults on them; AVX-512 with
// its DQ, BW and VL extensions.
var (
	hasAVX2   = cpu.X86.HasAVX && cpu.X86.HasAVX2
	hasAVX512 = hasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ &&
		cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL
)

// useAVX2 and useAVX512 choose the kernels: the best the processor has,
// and the tests turn them off to run every path on it.
var useAVX2, useAVX512 = hasAVX2, hasAVX512
