// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

package simd

// The processor's features that the kernels need, read once: the
// instruction sets, and the operating system's saving of their registers,
// without which the processor faults on them.
var hasAVX2, hasAVX512 = features()

// useAVX2 and useAVX512 choose the kernels: the best the processor has,
// and the tests turn them off to run every path on it.
var useAVX2, useAVX512 = hasAVX2, hasAVX512

// features reports whether the processor and the operating system support
// AVX2, and AVX-512 with its DQ, BW and VL extensions.
func features() (avx2, avx512 bool) {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false, false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false, false
	}
	// The XMM and YMM state, then the mask registers and the upper halves
	// of ZMM0-15 and ZMM16-31.
	xcr0, _ := xgetbv()
	if xcr0&0x6 != 0x6 {
		return false, false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const avx2Bit, f, dq, bw, vl = 1 << 5, 1 << 16, 1 << 17, 1 << 30, 1 << 31
	avx2 = ebx7&avx2Bit != 0
	avx512 = avx2 && xcr0&0xe0 == 0xe0 && ebx7&(f|dq|bw|vl) == f|dq|bw|vl
	return avx2, avx512
}

// cpuid returns the registers of the CPUID instruction for the leaf
// eaxArg and subleaf ecxArg.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns the extended control register XCR0.
func xgetbv() (eax, edx uint32)
