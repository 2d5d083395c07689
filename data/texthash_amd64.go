// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !noasm && !gccgo && !safe

package data

import "golang.org/x/sys/cpu"

// useAVX512 says whether hashesAsm runs: where the processor has AVX-512
// with its DQ extension, and BMI2, and the operating system saves its
// registers. The tests turn it off to run the other path.
var useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ && cpu.X86.HasBMI2

// hashesAsm sets the keys of the words of h and, if n is 2, of their
// pairs, as hashes does, 16 words at a time with AVX-512, and reports
// whether it ran: not for n of more than 2, nor for words whose offsets
// do not fit in 31 bits, which its gathers take.
func hashesAsm(h *hasher, n int) bool {
	w := len(h.starts) - 1
	if !useAVX512 || n > 2 || w < 1 || len(h.words) > 1<<31-64 {
		return false
	}
	// The last word's blocks, its tail and the 4 bytes after it are
	// within words: add leaves the room.
	pairs := 0
	if n == 2 {
		pairs = 1
	}
	_ = h.keys[w-1+pairs*(w-1)]
	hashesAVX512(&h.words[:cap(h.words)][0], &h.starts[0], w, pairs, &h.keys[0], h.seed, h.mask, h.signBit)
	return true
}

// hashesAVX512 sets keys[i] to the key of word i of the w words, each
// followed by a space, whose offsets in words starts holds, and then the
// end of the last word's space, and if pairs is 1, keys[w+i] to the key of
// the pair of word i and word i+1, for i < w-1.
//
//go:noescape
func hashesAVX512(words *byte, starts *int, w, pairs int, keys *uint32, seed, mask, signBit uint32)

// useWordsAVX512 says whether wordsAsm runs: where the processor has
// besides AVX-512's BW and VBMI2 extensions, BMI1 and POPCNT.
var useWordsAVX512 = useAVX512 && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI2 && cpu.X86.HasBMI1 && cpu.X86.HasPOPCNT

// wordsAsm adds the words of s to h, as add does, 64 bytes at a time
// with AVX-512, if s is ASCII, and reports whether it did: add's words
// and starts have the room.
func wordsAsm(h *hasher, s string) bool {
	if !useWordsAVX512 || len(s) == 0 {
		return false
	}
	n, k := len(h.words), len(h.starts)
	_ = h.words[:n+len(s)+64]
	_ = h.starts[:k+(len(s)+1)/2]
	end, count := wordsAVX512(s, &h.words[:cap(h.words)][0], n, &h.starts[:cap(h.starts)][k])
	if end < 0 {
		return false
	}
	h.words, h.starts = h.words[:end], h.starts[:k+count]
	return true
}

// wordsAVX512 writes the words of s, ASCII, into words from n, lower-cased,
// each followed by a space, and where each starts into starts, and returns
// the end of the words and their number, or -1 if s is not ASCII.
//
//go:noescape
func wordsAVX512(s string, words *byte, n int, starts *int) (end, count int)
