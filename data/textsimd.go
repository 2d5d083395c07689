// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import "github.com/seed5ae3614e/perceptron/internal/simd"

// useAVX512 and useWordsAVX512 say whether hashesAsm and wordsAsm run
// internal/simd's kernels, where the processor has what they need. The
// tests turn them off to run the other path.
var useAVX512, useWordsAVX512 = simd.HasHashWords, simd.HasSplitWords

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
	simd.HashWords(&h.words[:cap(h.words)][0], &h.starts[0], w, pairs, &h.keys[0], h.seed, h.mask, h.signBit)
	return true
}

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
	end, count := simd.SplitWords(s, &h.words[:cap(h.words)][0], n, &h.starts[:cap(h.starts)][k])
	if end < 0 {
		return false
	}
	h.words, h.starts = h.words[:end], h.starts[:k+count]
	return true
}
