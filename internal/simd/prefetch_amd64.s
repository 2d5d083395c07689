// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// func Prefetch(x []float64)
TEXT ·Prefetch(SB), NOSPLIT, $0-24
	MOVQ x_base+0(FP), AX
	MOVQ x_len+8(FP), CX
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

// func PrefetchInts(x []int)
TEXT ·PrefetchInts(SB), NOSPLIT, $0-24
	JMP ·Prefetch(SB)

// func PrefetchRows(w []float64, K int, rows []int)
TEXT ·PrefetchRows(SB), NOSPLIT, $0-56
	MOVQ w_base+0(FP), SI
	MOVQ K+24(FP), BX
	MOVQ rows_base+32(FP), DI
	MOVQ rows_len+40(FP), CX
	SHLQ $3, BX          // the bytes of a row of w
	TESTQ CX, CX
	JZ   rows_done

rows_next:
	MOVQ  (DI), AX
	IMULQ BX, AX
	ADDQ  SI, AX         // the start of the row
	LEAQ  (AX)(BX*1), DX // its end
	ANDQ  $-64, AX

rows_line:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	CMPQ AX, DX
	JB   rows_line
	ADDQ $8, DI
	DECQ CX
	JNZ  rows_next

rows_done:
	RET
