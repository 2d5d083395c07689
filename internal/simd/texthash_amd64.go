// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

package simd

import "golang.org/x/sys/cpu"

// HasHashWords and HasSplitWords say whether HashWords and SplitWords
// run: where the processor has AVX-512 with its DQ extension and BMI2,
// and for SplitWords its BW and VBMI2 extensions, BMI1 and POPCNT besides,
// and the operating system saves the registers.
var (
	HasHashWords  = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasBMI2
	HasSplitWords = HasHashWords && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI2 && cpu.X86.HasBMI1 && cpu.X86.HasPOPCNT
)

// HashWords sets keys[i] to the key of word i of the w words, each
// followed by a space, whose offsets in words starts holds, and then the
// end of the last word's space, and if pairs is 1, keys[w+i] to the key
// of the pair of word i and word i+1, for i < w-1: package data's keys of
// MurmurHash3_x86_32 with the seed, the mask of the columns and the bit
// of the sign, 16 words at a time. The last word's blocks, its tail and
// the 4 bytes after it must be within words, and each offset below 2^31.
//
//go:noescape
func HashWords(words *byte, starts *int, w, pairs int, keys *uint32, seed, mask, signBit uint32)

// SplitWords writes the words of s, ASCII, into words from n,
// lower-cased, each followed by a space, and where each starts into
// starts, as package data's add does, 64 bytes at a time, and returns the
// end of the words and their number, or -1 if s is not ASCII. words must
// have room for 64 bytes beyond n+len(s), and starts for (len(s)+1)/2.
//
//go:noescape
func SplitWords(s string, words *byte, n int, starts *int) (end, count int)
