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

// func prefetchColumns(w *float64, ind *int, n, S int)
TEXT ·prefetchColumns(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), SI
	MOVQ ind+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ S+24(FP), BX
	SHLQ $3, BX          // the bytes of a row of w
	TESTQ CX, CX
	JZ   cols_done

cols_next:
	MOVQ  (DI), AX
	IMULQ BX, AX
	ADDQ  SI, AX         // the start of the row
	LEAQ  (AX)(BX*1), DX // its end
	ANDQ  $-64, AX

cols_line:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	CMPQ AX, DX
	JB   cols_line
	ADDQ $8, DI
	DECQ CX
	JNZ  cols_next

cols_done:
	RET

// func prefetchInts(x *int, n int)
TEXT ·prefetchInts(SB), NOSPLIT, $0-16
	JMP ·prefetch(SB)
