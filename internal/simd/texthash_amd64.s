// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// The kernels of package data's hashes and add (data/murmur.go and
// data/texthash.go), in the lanes of ZMM registers. Those of hashes hold
// MurmurHash3's constants throughout: Z30 and Z29 its c1 and c2, Z28 the
// constant of a block's mixing, Z27 and Z26 those of its finish; Z31 the
// seed, Z25 the mask of the columns, Z24 the sign's bit; Z23, Z22 and Z21
// the integers 1, 4 and 3 in each lane.

// MIX mixes the blocks of block into the states of state, as mix does,
// for the lanes of mask, with t a register of its own.
#define MIX(block, state, t, mask) \
	VPMULLD    Z30, block, block \
	VPROLD     $15, block, block \
	VPMULLD    Z29, block, block \
	VPXORD     block, state, t   \
	VPROLD     $13, t, t         \
	VPSLLD     $2, t, block      \
	VPADDD     block, t, t       \
	VPADDD     Z28, t, t         \
	VMOVDQA32  t, mask, state

// KEYS sets keys, of the lanes of mask, to the keys of the texts of
// length bytes, whose whole blocks are mixed into state, and whose tails
// start at the blocks blocks of start, as finish and key do; gathering
// with the mask gather; t, u and v are registers of their own.
#define KEYS(start, length, blocks, state, mask, gather, keys, t, u, v) \
	VPSLLD      $2, blocks, t         \
	VPADDD      start, t, t           \
	KMOVW       mask, gather          \
	VPXORD      u, u, u               \
	VPGATHERDD  (AX)(t*1), gather, u  \
	VPANDD      Z21, length, v        \
	VPSLLD      $3, v, v              \
	VPSLLVD     v, Z23, v             \
	VPSUBD      Z23, v, v             \
	VPANDD      v, u, u               \
	VPMULLD     Z30, u, u             \
	VPROLD      $15, u, u             \
	VPMULLD     Z29, u, u             \
	VPXORD      u, state, state       \
	VPXORD      length, state, state  \
	VPSRLD      $16, state, u         \
	VPXORD      u, state, state       \
	VPMULLD     Z27, state, state     \
	VPSRLD      $13, state, u         \
	VPXORD      u, state, state       \
	VPMULLD     Z26, state, state     \
	VPSRLD      $16, state, u         \
	VPXORD      u, state, state       \
	VPSRLD      $31, state, u         \
	VPANDD      Z24, u, u             \
	VPABSD      state, state          \
	VPANDD      Z25, state, state     \
	VPSLLD      $1, state, state      \
	VPORD       u, state, state       \
	VMOVDQU32   state, mask, keys

// LOAD16 sets dst to the 16 ints from off(R12), of the lanes of lo and
// hi, the first 8 and the last 8, as 32-bit integers; tmp is a register
// of its own, and dsty and tmpy the halves of dst and tmp.
#define LOAD16(off, lo, hi, dst, dsty, tmp, tmpy) \
	VMOVDQU64.Z   off(R12), lo, dst     \
	VMOVDQU64.Z   64+off(R12), hi, tmp  \
	VPMOVQD       dst, dsty           \
	VPMOVQD       tmp, tmpy           \
	VINSERTI32X8  $1, tmpy, dst, dst

// func HashWords(words *byte, starts *int, w, pairs int, keys *uint32, seed, mask, signBit uint32)
TEXT ·HashWords(SB), NOSPLIT, $0-52
	MOVQ words+0(FP), AX
	MOVQ starts+8(FP), SI
	MOVQ w+16(FP), CX
	MOVQ pairs+24(FP), R8
	MOVQ keys+32(FP), DI
	LEAQ (DI)(CX*4), R11 // the keys of the pairs
	MOVL seed+40(FP), DX
	VPBROADCASTD DX, Z31
	MOVL mask+44(FP), DX
	VPBROADCASTD DX, Z25
	MOVL signBit+48(FP), DX
	VPBROADCASTD DX, Z24
	MOVL $0xcc9e2d51, DX
	VPBROADCASTD DX, Z30
	MOVL $0x1b873593, DX
	VPBROADCASTD DX, Z29
	MOVL $0xe6546b64, DX
	VPBROADCASTD DX, Z28
	MOVL $0x85ebca6b, DX
	VPBROADCASTD DX, Z27
	MOVL $0xc2b2ae35, DX
	VPBROADCASTD DX, Z26
	MOVL $1, DX
	VPBROADCASTD DX, Z23
	MOVL $4, DX
	VPBROADCASTD DX, Z22
	MOVL $3, DX
	VPBROADCASTD DX, Z21
	XORQ R10, R10 // the first word of the 16

loop:
	CMPQ R10, CX
	JGE  done

	// K1: the lanes of words, min(16, w-i); K2: of pairs, min(16, w-1-i)
	// if pairs, else none.
	MOVQ    $16, R9
	MOVQ    CX, BX
	SUBQ    R10, BX
	CMPQ    BX, R9
	CMOVQGT R9, BX
	MOVQ    $1, DX
	SHLXQ   BX, DX, DX
	DECQ    DX
	KMOVW   DX, K1
	MOVQ    CX, BX
	SUBQ    R10, BX
	DECQ    BX
	CMPQ    BX, R9
	CMOVQGT R9, BX
	IMULQ   R8, BX
	MOVQ    $1, DX
	SHLXQ   BX, DX, DX
	DECQ    DX
	KMOVW   DX, K2
	KSHIFTRW $8, K1, K3
	KSHIFTRW $8, K2, K4

	// Z0: the starts of the words; Z1: the length of each; Z3: of its
	// pair, or of the word where it has none.
	LEAQ   (SI)(R10*8), R12
	LOAD16(0, K1, K3, Z0, Y0, Z11, Y11)
	LOAD16(8, K1, K3, Z1, Y1, Z11, Y11)
	LOAD16(16, K2, K4, Z2, Y2, Z11, Y11)
	VPSUBD    Z0, Z1, Z1
	VPSUBD    Z23, Z1, Z1
	VPSUBD    Z0, Z2, Z2
	VPSUBD    Z23, Z2, Z2
	VMOVDQA32 Z1, Z3
	VMOVDQA32 Z2, K2, Z3

	// Z4, Z5: the whole blocks of the word and of the pair; Z6: the
	// state of the blocks mixed, Z10 of them at Z9; Z7, Z8: the states
	// after the blocks of the word and of the pair.
	VPSRLD    $2, Z1, Z4
	VPSRLD    $2, Z3, Z5
	VMOVDQA32 Z31, Z6
	VMOVDQA32 Z31, Z7
	VMOVDQA32 Z31, Z8
	VMOVDQA32 Z0, Z9
	VPXORD    Z10, Z10, Z10

blocks:
	VPCMPUD    $6, Z10, Z5, K1, K5 // the lanes with a block more
	KORTESTW   K5, K5
	JZ         tails
	KMOVW      K5, K6
	VPGATHERDD (AX)(Z9*1), K6, Z12
	MIX(Z12, Z6, Z13, K5)
	VPADDD     Z23, Z10, Z10
	VPADDD     Z22, Z9, Z9
	VPCMPEQD   Z10, Z4, K6
	VMOVDQA32  Z6, K6, Z7
	VPCMPEQD   Z10, Z5, K6
	VMOVDQA32  Z6, K6, Z8
	JMP        blocks

tails:
	KEYS(Z0, Z1, Z4, Z7, K1, K6, (DI)(R10*4), Z12, Z13, Z14)
	KORTESTW K2, K2
	JZ       next
	KEYS(Z0, Z3, Z5, Z8, K2, K6, (R11)(R10*4), Z12, Z13, Z14)

next:
	ADDQ $16, R10
	JMP  loop

done:
	VZEROUPPER
	RET

// SplitWords takes s 64 bytes at a time, the last chunk's bytes beyond s
// masked off as the bytes between words: in a 64-bit mask the bytes of
// words, and by a shift with the last of the chunk before, the first of
// each word and the byte after each word, which becomes its space; it
// compresses the bytes of words and those spaces to the start of a ZMM
// register, stores all 64 bytes, and moves on by their number. The room
// that add leaves in words takes the bytes beyond them.
//
// func SplitWords(s string, words *byte, n int, starts *int) (end, count int)
TEXT ·SplitWords(SB), NOSPLIT, $0-56
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), CX
	MOVQ words+16(FP), DI
	MOVQ n+24(FP), R8
	MOVQ starts+32(FP), R9
	XORQ R10, R10 // the words
	XORQ R11, R11 // whether the last byte of the bytes before was of a word
	MOVL $0x20202020, DX
	VPBROADCASTD DX, Z31
	MOVL $0x61616161, DX // a
	VPBROADCASTD DX, Z30
	MOVL $0x19191919, DX // z - a
	VPBROADCASTD DX, Z29
	MOVL $0x30303030, DX // 0
	VPBROADCASTD DX, Z28
	MOVL $0x09090909, DX // 9 - 0
	VPBROADCASTD DX, Z27

chunk:
	TESTQ CX, CX
	JLE   end
	MOVQ  $-1, AX
	CMPQ  CX, $64
	JGE   full
	BZHIQ CX, AX, AX

full:
	KMOVQ       AX, K1
	VMOVDQU8.Z  (SI), K1, Z0
	VPMOVB2M    Z0, K2
	KORTESTQ    K2, K2
	JNZ         other
	VPORD       Z31, Z0, Z1 // the letters lower-cased
	VPSUBB      Z30, Z1, Z2
	VPCMPUB     $2, Z29, Z2, K3
	VPSUBB      Z28, Z0, Z2
	VPCMPUB     $2, Z27, Z2, K4
	KORQ        K3, K4, K3
	KMOVQ       K3, AX // the bytes of words
	LEAQ        (R11)(AX*2), BX // of words before each
	MOVQ        AX, R11
	SHRQ        $63, R11
	MOVQ        BX, DX
	NOTQ        DX
	ANDQ        AX, DX // the first bytes of words
	MOVQ        AX, R12
	NOTQ        R12
	ANDQ        BX, R12
	ORQ         AX, R12 // the bytes of words and the byte after each
	KMOVQ       R12, K5
	VMOVDQA64   Z31, Z3 // spaces
	VMOVDQU8    Z1, K3, Z3
	VPCOMPRESSB Z3, K5, Z4
	VMOVDQU8    Z4, (DI)(R8*1)
	PEXTQ       R12, DX, DX // the first bytes of words among those kept
	TESTQ       DX, DX
	JZ          advance

word:
	TZCNTQ DX, BX
	ADDQ   R8, BX
	MOVQ   BX, (R9)(R10*8)
	INCQ   R10
	BLSRQ  DX, DX
	JNZ    word

advance:
	POPCNTQ R12, BX
	ADDQ    BX, R8
	ADDQ    $64, SI
	SUBQ    $64, CX
	JMP     chunk

end:
	TESTQ R11, R11
	JZ    done
	MOVB  $0x20, (DI)(R8*1)
	INCQ  R8

done:
	MOVQ R8, end+40(FP)
	MOVQ R10, count+48(FP)
	VZEROUPPER
	RET

other:
	MOVQ $-1, end+40(FP)
	MOVQ $0, count+48(FP)
	VZEROUPPER
	RET
