// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// Every product is formed as w·x with w the first operand, or in
// Products a·x with the matrix element first, and every sum as
// acc+product with acc the first, as gonum's kernels do, so that of two
// NaNs the same one propagates.

// maskTable is 16 lanes set and 16 clear: the 16 lanes from
// maskTable+8·(16-r) are the masks of the first r of them.
DATA maskTable<>+0x00(SB)/8, $-1
DATA maskTable<>+0x08(SB)/8, $-1
DATA maskTable<>+0x10(SB)/8, $-1
DATA maskTable<>+0x18(SB)/8, $-1
DATA maskTable<>+0x20(SB)/8, $-1
DATA maskTable<>+0x28(SB)/8, $-1
DATA maskTable<>+0x30(SB)/8, $-1
DATA maskTable<>+0x38(SB)/8, $-1
DATA maskTable<>+0x40(SB)/8, $-1
DATA maskTable<>+0x48(SB)/8, $-1
DATA maskTable<>+0x50(SB)/8, $-1
DATA maskTable<>+0x58(SB)/8, $-1
DATA maskTable<>+0x60(SB)/8, $-1
DATA maskTable<>+0x68(SB)/8, $-1
DATA maskTable<>+0x70(SB)/8, $-1
DATA maskTable<>+0x78(SB)/8, $-1
DATA maskTable<>+0x80(SB)/8, $0
DATA maskTable<>+0x88(SB)/8, $0
DATA maskTable<>+0x90(SB)/8, $0
DATA maskTable<>+0x98(SB)/8, $0
DATA maskTable<>+0xa0(SB)/8, $0
DATA maskTable<>+0xa8(SB)/8, $0
DATA maskTable<>+0xb0(SB)/8, $0
DATA maskTable<>+0xb8(SB)/8, $0
DATA maskTable<>+0xc0(SB)/8, $0
DATA maskTable<>+0xc8(SB)/8, $0
DATA maskTable<>+0xd0(SB)/8, $0
DATA maskTable<>+0xd8(SB)/8, $0
DATA maskTable<>+0xe0(SB)/8, $0
DATA maskTable<>+0xe8(SB)/8, $0
DATA maskTable<>+0xf0(SB)/8, $0
DATA maskTable<>+0xf8(SB)/8, $0
GLOBL maskTable<>(SB), RODATA|NOPTR, $256

// One accumulator of scoresAVX512: the term of the x_j in xz with the
// weights at off(row), into acc.
#define ACC512(row, off, k, xz, tmp, acc) \
	VMOVUPD.Z off(row), k, tmp \
	VMULPD    xz, tmp, tmp     \
	VADDPD    tmp, acc, acc

#define FEAT1(row, xz, tmp0) \
	ACC512(row, 0, K1, xz, tmp0, Z0)

#define FEAT2(row, xz, tmp0, tmp1) \
	ACC512(row, 0, K1, xz, tmp0, Z0) \
	ACC512(row, 64, K2, xz, tmp1, Z1)

#define FEAT3(row, xz, tmp0, tmp1, tmp2) \
	ACC512(row, 0, K1, xz, tmp0, Z0) \
	ACC512(row, 64, K2, xz, tmp1, Z1) \
	ACC512(row, 128, K3, xz, tmp2, Z2)

#define FEAT4(row, xz, tmp0, tmp1, tmp2, tmp3) \
	ACC512(row, 0, K1, xz, tmp0, Z0) \
	ACC512(row, 64, K2, xz, tmp1, Z1) \
	ACC512(row, 128, K3, xz, tmp2, Z2) \
	ACC512(row, 192, K4, xz, tmp3, Z3)

// func scoresAVX512(dst, w, x *float64, d, K, acc int, mask uint64)
//
// Two features a step, so that the work of the loop itself is spread
// over more terms; each accumulator still adds its terms in order.
TEXT ·scoresAVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ x+16(FP), DX
	MOVQ d+24(FP), CX
	MOVQ K+32(FP), R9
	SHLQ $3, R9          // the bytes of a row of w
	MOVQ mask+48(FP), AX
	KMOVW AX, K1
	SHRQ $8, AX
	KMOVW AX, K2
	SHRQ $8, AX
	KMOVW AX, K3
	SHRQ $8, AX
	KMOVW AX, K4
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	MOVQ CX, BX
	SHRQ $1, BX          // the pairs of features
	ANDQ $1, CX          // and the last one, if d is odd
	MOVQ acc+40(FP), AX
	CMPQ AX, $2
	JB   one
	JE   two
	CMPQ AX, $3
	JE   three

four:
	TESTQ BX, BX
	JZ    four_last

four_pairs:
	LEAQ         (SI)(R9*1), R10
	VBROADCASTSD (DX), Z8
	VBROADCASTSD 8(DX), Z13
	FEAT4(SI, Z8, Z9, Z10, Z11, Z12)
	FEAT4(R10, Z13, Z14, Z15, Z16, Z17)
	ADDQ         $16, DX
	LEAQ         (SI)(R9*2), SI
	DECQ         BX
	JNZ          four_pairs

four_last:
	TESTQ        CX, CX
	JZ           four_store
	VBROADCASTSD (DX), Z8
	FEAT4(SI, Z8, Z9, Z10, Z11, Z12)

four_store:
	VMOVUPD Z3, K4, 192(DI)
	JMP three_store

three:
	TESTQ BX, BX
	JZ    three_last

three_pairs:
	LEAQ         (SI)(R9*1), R10
	VBROADCASTSD (DX), Z8
	VBROADCASTSD 8(DX), Z13
	FEAT3(SI, Z8, Z9, Z10, Z11)
	FEAT3(R10, Z13, Z14, Z15, Z16)
	ADDQ         $16, DX
	LEAQ         (SI)(R9*2), SI
	DECQ         BX
	JNZ          three_pairs

three_last:
	TESTQ        CX, CX
	JZ           three_store
	VBROADCASTSD (DX), Z8
	FEAT3(SI, Z8, Z9, Z10, Z11)

three_store:
	VMOVUPD Z2, K3, 128(DI)
	JMP two_store

two:
	TESTQ BX, BX
	JZ    two_last

two_pairs:
	LEAQ         (SI)(R9*1), R10
	VBROADCASTSD (DX), Z8
	VBROADCASTSD 8(DX), Z13
	FEAT2(SI, Z8, Z9, Z10)
	FEAT2(R10, Z13, Z14, Z15)
	ADDQ         $16, DX
	LEAQ         (SI)(R9*2), SI
	DECQ         BX
	JNZ          two_pairs

two_last:
	TESTQ        CX, CX
	JZ           two_store
	VBROADCASTSD (DX), Z8
	FEAT2(SI, Z8, Z9, Z10)

two_store:
	VMOVUPD Z1, K2, 64(DI)
	JMP one_store

one:
	TESTQ BX, BX
	JZ    one_last

one_pairs:
	LEAQ         (SI)(R9*1), R10
	VBROADCASTSD (DX), Z8
	VBROADCASTSD 8(DX), Z13
	FEAT1(SI, Z8, Z9)
	FEAT1(R10, Z13, Z14)
	ADDQ         $16, DX
	LEAQ         (SI)(R9*2), SI
	DECQ         BX
	JNZ          one_pairs

one_last:
	TESTQ        CX, CX
	JZ           one_store
	VBROADCASTSD (DX), Z8
	FEAT1(SI, Z8, Z9)

one_store:
	VMOVUPD Z0, K1, (DI)
	VZEROUPPER
	RET

// One accumulator of scoresAVX2 on the row of w at SI, x_j in Y8.
#define ACC2(off, mask, tmp, acc) \
	VMASKMOVPD off(SI), mask, tmp \
	VMULPD     Y8, tmp, tmp       \
	VADDPD     tmp, acc, acc

// func scoresAVX2(dst, w, x *float64, d, K, r int)
TEXT ·scoresAVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ x+16(FP), DX
	MOVQ d+24(FP), CX
	MOVQ K+32(FP), R9
	SHLQ $3, R9          // the bytes of a row of w
	MOVQ r+40(FP), BX
	LEAQ maskTable<>+0x80(SB), AX
	SHLQ $3, BX
	SUBQ BX, AX
	VMOVUPD (AX), Y12
	VMOVUPD 32(AX), Y13
	VMOVUPD 64(AX), Y14
	VMOVUPD 96(AX), Y15
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	CMPQ BX, $32
	JBE  one
	CMPQ BX, $64
	JBE  two
	CMPQ BX, $96
	JBE  three

four:
	VBROADCASTSD (DX), Y8
	ACC2(0, Y12, Y4, Y0)
	ACC2(32, Y13, Y5, Y1)
	ACC2(64, Y14, Y6, Y2)
	ACC2(96, Y15, Y7, Y3)
	ADDQ $8, DX
	ADDQ R9, SI
	DECQ CX
	JNZ  four
	VMASKMOVPD Y3, Y15, 96(DI)
	JMP  store3

three:
	VBROADCASTSD (DX), Y8
	ACC2(0, Y12, Y4, Y0)
	ACC2(32, Y13, Y5, Y1)
	ACC2(64, Y14, Y6, Y2)
	ADDQ $8, DX
	ADDQ R9, SI
	DECQ CX
	JNZ  three

store3:
	VMASKMOVPD Y2, Y14, 64(DI)
	JMP  store2

two:
	VBROADCASTSD (DX), Y8
	ACC2(0, Y12, Y4, Y0)
	ACC2(32, Y13, Y5, Y1)
	ADDQ $8, DX
	ADDQ R9, SI
	DECQ CX
	JNZ  two

store2:
	VMASKMOVPD Y1, Y13, 32(DI)
	JMP  store1

one:
	VBROADCASTSD (DX), Y8
	ACC2(0, Y12, Y4, Y0)
	ADDQ $8, DX
	ADDQ R9, SI
	DECQ CX
	JNZ  one

store1:
	VMASKMOVPD Y0, Y12, (DI)
	VZEROUPPER
	RET

// The terms of the whole groups of four of one row of dotRows4AVX2, at
// row, into acc.
#define DOT4(row, tmp, acc) \
	VMOVUPD (row)(AX*1), tmp \
	VMULPD  Y8, tmp, tmp     \
	VADDPD  tmp, acc, acc

// The term of one of the rest into lane 0 of acc.
#define DOT1(row, tmp, acc) \
	VMOVSD (row)(AX*1), tmp \
	VMULSD X8, tmp, tmp     \
	VADDSD tmp, acc, acc

// The sum (l0+l2)+(l1+l3) of the lanes of a row, low in lo and high in
// hi, into dst.
#define SUM(lo, hi, dst) \
	VADDPD    hi, lo, lo  \
	VUNPCKHPD lo, lo, hi  \
	VADDSD    lo, hi, hi  \
	VMOVSD    hi, dst

// func dotRows4AVX2(dst, x *float64, stride int, w *float64, n int)
TEXT ·dotRows4AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), R8
	MOVQ stride+16(FP), BX
	SHLQ $3, BX
	LEAQ (R8)(BX*1), R9
	LEAQ (R9)(BX*1), R10
	LEAQ (R10)(BX*1), R11
	MOVQ w+24(FP), SI
	MOVQ n+32(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	XORQ AX, AX          // the offset of the terms in bytes
	MOVQ CX, DX
	SHRQ $2, DX          // the groups of four
	ANDQ $3, CX          // the rest
	TESTQ DX, DX
	JZ    rest

groups:
	VMOVUPD (SI)(AX*1), Y8
	DOT4(R8, Y4, Y0)
	DOT4(R9, Y5, Y1)
	DOT4(R10, Y6, Y2)
	DOT4(R11, Y7, Y3)
	ADDQ $32, AX
	DECQ DX
	JNZ  groups

rest:
	// The scalar sums of the rest clear the upper halves: take the lanes
	// l2 and l3 out first.
	VEXTRACTF128 $1, Y0, X4
	VEXTRACTF128 $1, Y1, X5
	VEXTRACTF128 $1, Y2, X6
	VEXTRACTF128 $1, Y3, X7
	TESTQ CX, CX
	JZ    sums

restloop:
	VMOVSD (SI)(AX*1), X8
	DOT1(R8, X9, X0)
	DOT1(R9, X10, X1)
	DOT1(R10, X11, X2)
	DOT1(R11, X12, X3)
	ADDQ $8, AX
	DECQ CX
	JNZ  restloop

sums:
	SUM(X0, X4, 0(DI))
	SUM(X1, X5, 8(DI))
	SUM(X2, X6, 16(DI))
	SUM(X3, X7, 24(DI))
	VZEROUPPER
	RET

// One step of axpyColumnsSSE2 at x+off: the products x·a and x·b, each
// then added to the element of its column, in gonum's Axpy's order.
#define AXPY2(off) \
	MOVSD off(SI), X2 \
	MOVAPD X2, X3     \
	MULSD X14, X2     \
	MULSD X15, X3     \
	ADDSD (R8), X2    \
	MOVSD X2, (R8)    \
	ADDSD (R9), X3    \
	MOVSD X3, (R9)    \
	ADDQ BX, R8       \
	ADDQ BX, R9

// func axpyColumnsSSE2(up, down *float64, K int, x *float64, n int, a, b float64)
TEXT ·axpyColumnsSSE2(SB), NOSPLIT, $0-56
	MOVQ  up+0(FP), R8
	MOVQ  down+8(FP), R9
	MOVQ  K+16(FP), BX
	SHLQ  $3, BX
	MOVQ  x+24(FP), SI
	MOVQ  n+32(FP), CX
	MOVSD a+40(FP), X14
	MOVSD b+48(FP), X15
	MOVQ  CX, DX
	SHRQ  $1, DX
	JZ    odd

pairs:
	AXPY2(0)
	AXPY2(8)
	ADDQ $16, SI
	DECQ DX
	JNZ  pairs

odd:
	TESTQ $1, CX
	JZ    done
	AXPY2(0)

done:
	RET

// The terms of x_j of the four rows, in Z8 to Z11, with the weights in wz,
// into the accumulators a0 to a3.
#define ROWS4(wz, a0, a1, a2, a3) \
	VMULPD Z8, wz, Z14    \
	VMULPD Z9, wz, Z15    \
	VMULPD Z10, wz, Z16   \
	VMULPD Z11, wz, Z17   \
	VADDPD Z14, a0, a0    \
	VADDPD Z15, a1, a1    \
	VADDPD Z16, a2, a2    \
	VADDPD Z17, a3, a3

// The x_j of the four rows, broadcast into Z8 to Z11.
#define XS4 \
	VBROADCASTSD (R8), Z8   \
	VBROADCASTSD (R10), Z9  \
	VBROADCASTSD (R11), Z10 \
	VBROADCASTSD (R12), Z11 \
	ADDQ $8, R8             \
	ADDQ $8, R10            \
	ADDQ $8, R11            \
	ADDQ $8, R12

// func scoresRows4AVX512(dst, w, x *float64, stride, d, K, acc int, mask uint64)
TEXT ·scoresRows4AVX512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ x+16(FP), R8
	MOVQ stride+24(FP), BX
	SHLQ $3, BX
	LEAQ (R8)(BX*1), R10
	LEAQ (R10)(BX*1), R11
	LEAQ (R11)(BX*1), R12
	MOVQ d+32(FP), CX
	MOVQ K+40(FP), R9
	SHLQ $3, R9          // the bytes of a row of w, and of dst
	MOVQ mask+56(FP), AX
	KMOVW AX, K1
	SHRQ $8, AX
	KMOVW AX, K2
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	VXORPD Z4, Z4, Z4
	VXORPD Z5, Z5, Z5
	VXORPD Z6, Z6, Z6
	VXORPD Z7, Z7, Z7
	MOVQ acc+48(FP), AX
	CMPQ AX, $2
	JB   rows_one

rows_two:
	VMOVUPD.Z (SI), K1, Z12
	VMOVUPD.Z 64(SI), K2, Z13
	XS4
	ROWS4(Z12, Z0, Z1, Z2, Z3)
	ROWS4(Z13, Z4, Z5, Z6, Z7)
	ADDQ R9, SI
	DECQ CX
	JNZ  rows_two
	VMOVUPD Z4, K2, 64(DI)
	VMOVUPD Z0, K1, (DI)
	ADDQ    R9, DI
	VMOVUPD Z5, K2, 64(DI)
	VMOVUPD Z1, K1, (DI)
	ADDQ    R9, DI
	VMOVUPD Z6, K2, 64(DI)
	VMOVUPD Z2, K1, (DI)
	ADDQ    R9, DI
	VMOVUPD Z7, K2, 64(DI)
	VMOVUPD Z3, K1, (DI)
	VZEROUPPER
	RET

rows_one:
	VMOVUPD.Z (SI), K1, Z12
	XS4
	ROWS4(Z12, Z0, Z1, Z2, Z3)
	ADDQ R9, SI
	DECQ CX
	JNZ  rows_one
	VMOVUPD Z0, K1, (DI)
	ADDQ    R9, DI
	VMOVUPD Z1, K1, (DI)
	ADDQ    R9, DI
	VMOVUPD Z2, K1, (DI)
	ADDQ    R9, DI
	VMOVUPD Z3, K1, (DI)
	VZEROUPPER
	RET

// One accumulator of scoresSparseAVX512 on the row of w at R10, x_k in
// Z8: the sum is product+acc, as gonum's AddScaled forms it.
#define SPARSE512(off, k, tmp, acc) \
	VMOVUPD.Z off(R10), k, tmp \
	VMULPD    Z8, tmp, tmp     \
	VADDPD    acc, tmp, acc

// The row of w of the column of element k, into R10, and its value,
// broadcast into Z8.
#define SPARSEROW \
	MOVQ         (R8), AX   \
	IMULQ        R9, AX     \
	LEAQ         (SI)(AX*1), R10 \
	VBROADCASTSD (DX), Z8

// The step to the next element.
#define SPARSENEXT \
	ADDQ $8, R8 \
	ADDQ $8, DX \
	DECQ CX

// func scoresSparseAVX512(dst, w *float64, ind *int, val *float64, nnz, K, acc int, mask uint64)
TEXT ·scoresSparseAVX512(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ ind+16(FP), R8
	MOVQ val+24(FP), DX
	MOVQ nnz+32(FP), CX
	MOVQ K+40(FP), R9
	SHLQ $3, R9          // the bytes of a row of w
	MOVQ mask+56(FP), AX
	KMOVW AX, K1
	SHRQ $8, AX
	KMOVW AX, K2
	SHRQ $8, AX
	KMOVW AX, K3
	SHRQ $8, AX
	KMOVW AX, K4
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	MOVQ acc+48(FP), BX
	TESTQ CX, CX
	JZ   sp_store
	CMPQ BX, $2
	JB   sp_one
	JE   sp_two
	CMPQ BX, $3
	JE   sp_three

sp_four:
	SPARSEROW
	SPARSE512(0, K1, Z9, Z0)
	SPARSE512(64, K2, Z10, Z1)
	SPARSE512(128, K3, Z11, Z2)
	SPARSE512(192, K4, Z12, Z3)
	SPARSENEXT
	JNZ sp_four
	JMP sp_store

sp_three:
	SPARSEROW
	SPARSE512(0, K1, Z9, Z0)
	SPARSE512(64, K2, Z10, Z1)
	SPARSE512(128, K3, Z11, Z2)
	SPARSENEXT
	JNZ sp_three
	JMP sp_store

sp_two:
	SPARSEROW
	SPARSE512(0, K1, Z9, Z0)
	SPARSE512(64, K2, Z10, Z1)
	SPARSENEXT
	JNZ sp_two
	JMP sp_store

sp_one:
	SPARSEROW
	SPARSE512(0, K1, Z9, Z0)
	SPARSENEXT
	JNZ sp_one

sp_store:
	// The registers past acc hold zeros, and their masks no lanes.
	VMOVUPD Z0, K1, (DI)
	VMOVUPD Z1, K2, 64(DI)
	VMOVUPD Z2, K3, 128(DI)
	VMOVUPD Z3, K4, 192(DI)
	VZEROUPPER
	RET

// func streamAVX2(x *float64, n int) uint64
TEXT ·streamAVX2(SB), NOSPLIT, $0-24
	MOVQ  x+0(FP), SI
	MOVQ  n+8(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	MOVQ  CX, DX
	SHRQ  $4, DX          // the groups of 16 values, two cache lines
	ANDQ  $15, CX
	TESTQ DX, DX
	JZ    st_rest

st_groups:
	VPXOR (SI), Y0, Y0
	VPXOR 32(SI), Y1, Y1
	VPXOR 64(SI), Y2, Y2
	VPXOR 96(SI), Y3, Y3
	ADDQ  $128, SI
	DECQ  DX
	JNZ   st_groups

st_rest:
	VPXOR        Y1, Y0, Y0
	VPXOR        Y3, Y2, Y2
	VPXOR        Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPXOR        X1, X0, X0
	VPSRLDQ      $8, X0, X1
	VPXOR        X1, X0, X0
	VMOVQ        X0, AX
	TESTQ        CX, CX
	JZ           st_done

st_one:
	XORQ (SI), AX
	ADDQ $8, SI
	DECQ CX
	JNZ  st_one

st_done:
	VZEROUPPER
	MOVQ AX, ret+16(FP)
	RET

// One step of productsAVX512 for row r of four, whose pair of terms is in
// b: the pairs of the 16 vectors in Z16-Z19 times b, into the four
// accumulators of the row.
#define PAIRS4(b, a0, a1, a2, a3) \
	VMULPD Z16, b, Z24 \
	VMULPD Z17, b, Z25 \
	VMULPD Z18, b, Z26 \
	VMULPD Z19, b, Z27 \
	VADDPD Z24, a0, a0 \
	VADDPD Z25, a1, a1 \
	VADDPD Z26, a2, a2 \
	VADDPD Z27, a3, a3

// The sum of the lanes of each pair of acc, the even lane first, as
// gonum's HADDPD forms it, plus the term of the last feature in tmp if
// there is one (DX nonzero); stored whole at off(DI). gonum's store then
// adds the sum to its cleared result, zero, which leaves every sum that
// starts at +0 as it is: such a sum is never -0.
#define FINISH512(acc, xt, bt, tmp, off) \
	VPERMILPD $0x55, acc, tmp \
	VADDPD    tmp, acc, acc   \
	TESTQ     DX, DX          \
	JZ        3(PC)           \
	VMULPD    xt, bt, tmp     \
	VADDPD    tmp, acc, acc   \
	VMOVUPD   acc, off(DI)

#define FINISHROW512(bt, a0, a1, a2, a3, off) \
	FINISH512(a0, Z16, bt, Z24, off) \
	FINISH512(a1, Z17, bt, Z25, off+64) \
	FINISH512(a2, Z18, bt, Z26, off+128) \
	FINISH512(a3, Z19, bt, Z27, off+192)

// func productsAVX512(out, a *float64, stride int, pack *float64, pairs, tail int)
//
// out[r·32+2e] is the product of row r of the four from a, stride values
// apart, with vector e of the 16 packed in pack, as gonum's GemvN forms
// it for a row of a block of four or two: the terms of the even and of
// the odd features summed apart, each in order, then the two sums added,
// then the last feature's term if the length is odd (tail nonzero).
TEXT ·productsAVX512(SB), NOSPLIT, $0-48
	MOVQ    out+0(FP), DI
	MOVQ    a+8(FP), SI
	MOVQ    stride+16(FP), BX
	SHLQ    $3, BX
	LEAQ    (BX)(BX*2), R8
	MOVQ    pack+24(FP), R9
	MOVQ    pairs+32(FP), CX
	MOVQ    tail+40(FP), DX
	VXORPD  Z0, Z0, Z0
	VMOVAPD Z0, Z1
	VMOVAPD Z0, Z2
	VMOVAPD Z0, Z3
	VMOVAPD Z0, Z4
	VMOVAPD Z0, Z5
	VMOVAPD Z0, Z6
	VMOVAPD Z0, Z7
	VMOVAPD Z0, Z8
	VMOVAPD Z0, Z9
	VMOVAPD Z0, Z10
	VMOVAPD Z0, Z11
	VMOVAPD Z0, Z12
	VMOVAPD Z0, Z13
	VMOVAPD Z0, Z14
	VMOVAPD Z0, Z15
	TESTQ   CX, CX
	JZ      pr512_end

pr512_loop:
	VMOVUPD         (R9), Z16
	VMOVUPD         64(R9), Z17
	VMOVUPD         128(R9), Z18
	VMOVUPD         192(R9), Z19
	VBROADCASTF64X2 (SI), Z20
	VBROADCASTF64X2 (SI)(BX*1), Z21
	VBROADCASTF64X2 (SI)(BX*2), Z22
	VBROADCASTF64X2 (SI)(R8*1), Z23
	PAIRS4(Z20, Z0, Z1, Z2, Z3)
	PAIRS4(Z21, Z4, Z5, Z6, Z7)
	PAIRS4(Z22, Z8, Z9, Z10, Z11)
	PAIRS4(Z23, Z12, Z13, Z14, Z15)
	ADDQ            $256, R9
	ADDQ            $16, SI
	DECQ            CX
	JNZ             pr512_loop

pr512_end:
	// The last feature's values of the vectors, and of the rows.
	TESTQ          DX, DX
	JZ             pr512_sums
	VMOVUPD        (R9), Z16
	VMOVUPD        64(R9), Z17
	VMOVUPD        128(R9), Z18
	VMOVUPD        192(R9), Z19
	VBROADCASTSD   (SI), Z20
	VBROADCASTSD   (SI)(BX*1), Z21
	VBROADCASTSD   (SI)(BX*2), Z22
	VBROADCASTSD   (SI)(R8*1), Z23

pr512_sums:
	FINISHROW512(Z20, Z0, Z1, Z2, Z3, 0)
	FINISHROW512(Z21, Z4, Z5, Z6, Z7, 256)
	FINISHROW512(Z22, Z8, Z9, Z10, Z11, 512)
	FINISHROW512(Z23, Z12, Z13, Z14, Z15, 768)
	VZEROUPPER
	RET

// One accumulator of productsAVX2: the pairs of two vectors at off(R9)
// times the row's pair in Y8, into acc.
#define PAIRS2(off, acc) \
	VMULPD off(R9), Y8, Y9 \
	VADDPD Y9, acc, acc

// FINISH512 for productsAVX2.
#define FINISH2(acc, off) \
	VPERMILPD $0x5, acc, Y9   \
	VADDPD    Y9, acc, acc    \
	TESTQ     DX, DX          \
	JZ        3(PC)           \
	VMULPD    off(R9), Y8, Y9 \
	VADDPD    Y9, acc, acc    \
	VMOVUPD   acc, off(DI)

// func productsAVX2(out, a *float64, stride int, pack *float64, pairs, tail int)
//
// productsAVX2 is productsAVX512 one row at a time, in registers of four
// lanes.
TEXT ·productsAVX2(SB), NOSPLIT, $0-48
	MOVQ   out+0(FP), DI
	MOVQ   a+8(FP), SI
	MOVQ   stride+16(FP), BX
	SHLQ   $3, BX
	MOVQ   tail+40(FP), DX
	MOVQ   $4, R10

pr2_row:
	MOVQ    pack+24(FP), R9
	MOVQ    pairs+32(FP), CX
	MOVQ    SI, R11
	VXORPD  Y0, Y0, Y0
	VMOVAPD Y0, Y1
	VMOVAPD Y0, Y2
	VMOVAPD Y0, Y3
	VMOVAPD Y0, Y4
	VMOVAPD Y0, Y5
	VMOVAPD Y0, Y6
	VMOVAPD Y0, Y7
	TESTQ   CX, CX
	JZ      pr2_end

pr2_loop:
	VBROADCASTF128 (R11), Y8
	PAIRS2(0, Y0)
	PAIRS2(32, Y1)
	PAIRS2(64, Y2)
	PAIRS2(96, Y3)
	PAIRS2(128, Y4)
	PAIRS2(160, Y5)
	PAIRS2(192, Y6)
	PAIRS2(224, Y7)
	ADDQ           $256, R9
	ADDQ           $16, R11
	DECQ           CX
	JNZ            pr2_loop

pr2_end:
	TESTQ        DX, DX
	JZ           pr2_sums
	VBROADCASTSD (R11), Y8

pr2_sums:
	FINISH2(Y0, 0)
	FINISH2(Y1, 32)
	FINISH2(Y2, 64)
	FINISH2(Y3, 96)
	FINISH2(Y4, 128)
	FINISH2(Y5, 160)
	FINISH2(Y6, 192)
	FINISH2(Y7, 224)
	ADDQ $256, DI
	ADDQ BX, SI
	DECQ R10
	JNZ  pr2_row
	VZEROUPPER
	RET
