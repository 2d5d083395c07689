// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// func prefetch(x *float64, n int)
TEXT ·prefetch(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), AX
	MOVQ n+8(FP), CX
	SHLQ $3, CX          // the bytes of the n float64s
	LEAQ (AX)(CX*1), CX  // their end
	ANDQ $-64, AX        // the start of the first cache line

loop:
	CMPQ AX, CX
	JAE  done
	PREFETCHT0 (AX)
	ADDQ $64, AX
	JMP  loop

done:
	RET
