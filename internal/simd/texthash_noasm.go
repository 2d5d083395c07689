// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !amd64 || noasm || gccgo || safe

package simd

// Without assembly the words of a text are hashed and split one at a
// time, by package data's Go.
const HasHashWords, HasSplitWords = false, false

func HashWords(words *byte, starts *int, w, pairs int, keys *uint32, seed, mask, signBit uint32) {
	panic("simd: HashWords without AVX-512")
}

func SplitWords(s string, words *byte, n int, starts *int) (end, count int) {
	panic("simd: SplitWords without AVX-512")
}
