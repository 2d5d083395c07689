// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"encoding/binary"
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// murmur3 returns MurmurHash3_x86_32 of s with seed, in one go, by mix and
// finish.
func murmur3(s string, seed uint32) uint32 {
	b := append([]byte(s), 0, 0, 0, 0)
	h, off := seed, 0
	for ; off+4 <= len(s); off += 4 {
		h = mix(h, binary.LittleEndian.Uint32(b[off:]))
	}
	return finish(h, binary.LittleEndian.Uint32(b[off:]), len(s)-off, len(s))
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

// TestHashesRunOn checks the keys of the n-grams of texts, whose hashes
// run on from one n-gram to the next from the same word, against the
// hash of each n-gram alone, for words of every length of tail, pairs
// shorter and longer than the pairBlocks blocks that hashes takes without
// a branch, texts of any number of words around the 16 that the assembly
// takes at once, with and without it, and checks that no key beyond them
// is written.
func TestHashesRunOn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	defer func(use bool) { useAVX512 = use }(useAVX512)
	for _, asm := range []bool{false, useAVX512} {
		useAVX512 = asm
		for trial := range 400 {
			n := []int{1, 2, 3, 5}[trial%4]
			b := []int{30, 7, 19}[trial%3]
			h, err := newHasher(Hashing{NGrams: n, Bits: b, Signed: trial%2 == 0, Seed: uint32(trial)})
			if err != nil {
				t.Fatal(err)
			}
			long := []int{4*pairBlocks + 4, 8, 40}[trial%3]
			words := make([]string, 1+rnd.IntN(50))
			for i := range words {
				w := make([]byte, 1+rnd.IntN(long))
				for k := range w {
					w[k] = byte('a' + rnd.IntN(26))
				}
				words[i] = string(w)
			}
			if err := h.add(strings.Join(words, " "), 0); err != nil {
				t.Fatal(err)
			}
			h.starts = append(h.starts, len(h.words))
			m := min(n, len(words))
			k := m * (2*len(words) - m + 1) / 2
			h.keys = make([]uint32, k+20)
			for i := range h.keys {
				h.keys[i] = 1<<32 - 1
			}
			h.keys = h.keys[:k]
			h.hashes(m)
			want := map[uint32]int{}
			for i := range words {
				for j := i + 1; j <= min(i+n, len(words)); j++ {
					hash := int32(murmur3(strings.Join(words[i:j], " "), uint32(trial)))
					key := uint32(hash)
					if hash < 0 {
						key = -key
					}
					key = key&(1<<b-1)<<1 | uint32(hash)>>31&h.signBit
					want[key]++
				}
			}
			got := map[uint32]int{}
			for _, key := range h.keys {
				got[key]++
			}
			if !maps.Equal(got, want) {
				t.Fatalf("assembly %t, %d-grams of %q: keys %v, want %v", asm, n, words, got, want)
			}
			for _, key := range h.keys[k:cap(h.keys)] {
				if key != 1<<32-1 {
					t.Fatalf("assembly %t, %d-grams of %q: a key beyond the %d", asm, n, words, k)
				}
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

// TestFoldASCII checks the bytes of words that foldASCII finds 8 at a
// time against fold, a byte at a time, for each byte of ASCII in each
// place among random others.
func TestFoldASCII(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for c := range utf8.RuneSelf {
		for at := range 8 {
			var b [8]byte
			for k := range b {
				b[k] = byte(rnd.IntN(utf8.RuneSelf))
			}
			b[at] = byte(c)
			lower, word := foldASCII(binary.LittleEndian.Uint64(b[:]))
			for k := range b {
				f := fold[b[k]]
				if isWord := word>>(8*k+7)&1 == 1; isWord != (f != 0) {
					t.Fatalf("%q: byte %d of words %t, want %t", b[:], k, isWord, f != 0)
				}
				if got := byte(lower >> (8 * k)); f != 0 && got != f {
					t.Fatalf("%q: byte %d folds to %q, want %q", b[:], k, got, f)
				}
			}
		}
	}
}

// TestAddWords checks the words that add finds, 8 bytes at a time where
// they are ASCII, or 64 with AVX-512, against the runs of letters, marks
// and digits of the text lower-cased a rune at a time, in texts of words
// of every length around 8 bytes, of ASCII and not, between separators of
// ASCII and not, of every length around 64 bytes, added one after the
// other to the words of a row.
func TestAddWords(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	letters := []string{"a", "Z", "q", "0", "9", "é", "Σ", "東", "\u0301", "İ"}
	seps := []string{" ", ",", "_", "'", "\t", "@", "[", "`", "{", "/", ":", "\u00a0", "\u2014"}
	defer func(use bool) { useWordsAVX512 = use }(useWordsAVX512)
	for _, asm := range []bool{false, useWordsAVX512} {
		useWordsAVX512 = asm
		for trial := range 3000 {
			ascii := trial%2 == 0
			h, err := newHasher(Hashing{})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			var texts []string
			for range 1 + rnd.IntN(3) {
				var sb strings.Builder
				for range rnd.IntN(20) {
					for range rnd.IntN(20) {
						if !ascii && rnd.IntN(8) == 0 {
							sb.WriteString(letters[rnd.IntN(len(letters))])
						} else {
							sb.WriteByte(byte('a' + rnd.IntN(26) - 32*rnd.IntN(2)))
						}
					}
					for range 1 + rnd.IntN(2) {
						if ascii {
							sb.WriteString(seps[rnd.IntN(len(seps)-2)])
						} else {
							sb.WriteString(seps[rnd.IntN(len(seps))])
						}
					}
				}
				s := sb.String()
				if rnd.IntN(2) == 0 {
					s = strings.TrimRight(s, " ,_'\t@[`{/:")
				}
				texts = append(texts, s)
				for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !isWord(r) }) {
					want = append(want, strings.Map(unicode.ToLower, f))
				}
				if err := h.add(s, 0); err != nil {
					t.Fatal(err)
				}
			}
			got := strings.Fields(string(h.words))
			if strings.Join(got, " ")+" " != string(h.words) && len(got) > 0 || strings.Join(got, " ") != strings.Join(want, " ") || len(h.starts) != len(want) {
				t.Fatalf("assembly %t, %q: words %q, want %q", asm, texts, h.words, want)
			}
			for i, at := range h.starts {
				if !strings.HasPrefix(string(h.words[at:]), want[i]+" ") || at > 0 && h.words[at-1] != ' ' {
					t.Fatalf("assembly %t, %q: word %d starts at %d of %q", asm, texts, i, at, h.words)
				}
			}
		}
	}
}

// TestMerge checks the columns and sums that merge makes of keys in
// order but for some, as bucketKeys leaves them, and of keys in any
// order, against a sort and a count, with many keys of a column and of
// both signs.
func TestMerge(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	for trial := range 3000 {
		n := rnd.IntN(300)
		cols := 1 + rnd.IntN(2*n+1)
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = uint32(rnd.IntN(cols))<<1 | uint32(rnd.IntN(2))
		}
		if trial%2 == 0 {
			h := &hasher{keys: keys, mask: 1<<bits.Len(uint(cols)) - 1}
			if err := h.bucketKeys(); err != nil {
				t.Fatal(err)
			}
			keys = h.keys
		}
		sums := map[int]float64{}
		for _, key := range keys {
			sums[int(key>>1)] += 1 - 2*float64(key&1)
		}
		ind, val := make([]int, n), make([]float64, n)
		m := merge(keys, ind, val)
		want := slices.Sorted(maps.Keys(sums))
		if !slices.Equal(ind[:m], want) {
			t.Fatalf("%v: columns %v, want %v", keys, ind[:m], want)
		}
		for k, j := range want {
			if val[k] != sums[j] {
				t.Fatalf("%v: column %d sums %v, want %v", keys, j, val[k], sums[j])
			}
		}
	}
}
