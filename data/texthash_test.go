// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"math/rand/v2"
	"testing"
	"unicode"
	"unicode/utf8"
)

// murmur3 returns MurmurHash3_x86_32 of s with seed, in one go.
func murmur3(s string, seed uint32) uint32 {
	m := murmur{h: seed}
	return m.sum([]byte(s), len(s))
}

// TestMurmur3 checks the hash against the test vectors of
// MurmurHash3_x86_32 that its users publish, which scikit-learn 1.2.1's
// murmurhash3_32(key, seed, positive=True) gives too: the empty text,
// every length of tail, a block of zeros and texts of many blocks.
func TestMurmur3(t *testing.T) {
	for _, tc := range []struct {
		s    string
		seed uint32
		want uint32
	}{
		{"", 0, 0},
		{"", 1, 0x514e28b7},
		{"", 0xffffffff, 0x81f16f39},
		{"\x00\x00\x00\x00", 0, 0x2362f9de},
		{"a", 0x9747b28c, 0x7fa09ea6},
		{"aa", 0x9747b28c, 0x5d211726},
		{"aaa", 0x9747b28c, 0x283e0130},
		{"aaaa", 0x9747b28c, 0x5a97808a},
		{"ab", 0x9747b28c, 0x74875592},
		{"abc", 0x9747b28c, 0xc84a62dd},
		{"abcd", 0x9747b28c, 0xf0478627},
		{"Hello, world!", 0x9747b28c, 0x24884cba},
		{"The quick brown fox jumps over the lazy dog", 0x9747b28c, 0x2fa826cd},
		{"The quick brown fox jumps over the lazy dog", 0, 0x2e4ff723},
		{"new york", 0, 0x2e1ee5c0},
		{"señor", 7, 0xc3d7d574},
	} {
		if got := murmur3(tc.s, tc.seed); got != tc.want {
			t.Errorf("murmur3(%q, %#x) = %#08x, want %#08x", tc.s, tc.seed, got, tc.want)
		}
	}
}

// TestMurmurRunsOn checks that the hashes of the prefixes of a text, taken
// one after another from one murmur, are those of each prefix alone, from
// any start.
func TestMurmurRunsOn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	text := make([]byte, 64)
	for i := range text {
		text[i] = byte(rnd.Uint32())
	}
	for start := range 9 {
		m := murmur{h: 42, start: start, off: start}
		for end := start; end <= len(text); end += 1 + rnd.IntN(6) {
			if got, want := m.sum(text, end), murmur3(string(text[start:end]), 42); got != want {
				t.Fatalf("text[%d:%d]: %#08x after the shorter prefixes, %#08x alone", start, end, got, want)
			}
		}
	}
}

// TestLowerLength checks what the room that add keeps for the words of a
// text rests on: no rune, lower-cased, takes more than 1.5 times its bytes
// in UTF-8, nor more bytes than it does unless it takes 2.
func TestLowerLength(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) || !isWord(r) {
			continue
		}
		n, m := utf8.RuneLen(r), utf8.RuneLen(unicode.ToLower(r))
		if 2*m > 3*n || m > n && n != 2 {
			t.Errorf("%U of %d bytes lower-cases to %U of %d", r, n, unicode.ToLower(r), m)
		}
	}
}
