// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"encoding/binary"
	"math/bits"
)

// signs are the signs of a key's n-gram, by its last bit.
var signs = [2]float64{1, -1}

// hashes sets keys to the key of each n-gram of the words, of n words at
// most, in an order of its own: its column, shifted left by 1, or'ed with
// 1 if its sign is -1.
//
// The hash of an n-gram is MurmurHash3_x86_32 (Austin Appleby, public
// domain) of its bytes, whose 4-byte blocks it mixes, then the bytes of
// its tail, then its length. The n-grams that start at a word are
// prefixes of one text, whose blocks the hash mixes once, running on from
// one n-gram to the next; it reads a tail as a block, its bytes beyond
// the tail masked off, which the room that add leaves after the words
// allows.
func (h *hasher) hashes(n int) {
	if hashesAsm(h, n) {
		return
	}
	words, starts, keys := h.words[:cap(h.words)], h.starts, h.keys
	seed, mask, signBit := h.seed, h.mask, h.signBit
	w := len(starts) - 1
	k := 0
	for i := 0; i < w; i++ {
		start, last := starts[i], min(i+n, w)
		one, most := starts[i+1]-1-start, starts[last]-1-start
		if last-i <= 2 && most < 4*pairBlocks && start+4*pairBlocks+4 <= len(words) {
			// A word and its pair, short: the states after each of
			// the blocks of the pair, of which those after the blocks
			// of the word and of the pair are picked by their lengths,
			// which vary from one word to the next and would take
			// branches that the processor mispredicts.
			text := (*[4*pairBlocks + 4]byte)(words[start:])
			m1 := mix(seed, binary.LittleEndian.Uint32(text[0:]))
			m2 := mix(m1, binary.LittleEndian.Uint32(text[4:]))
			m3 := mix(m2, binary.LittleEndian.Uint32(text[8:]))
			m4 := mix(m3, binary.LittleEndian.Uint32(text[12:]))
			mixed := [pairBlocks + 1]uint32{seed, m1, m2, m3, m4}
			b := one >> 2
			keys[k] = key(finish(mixed[b], binary.LittleEndian.Uint32(text[4*b:]), one&3, one), mask, signBit)
			k++
			if most != one {
				b := most >> 2
				keys[k] = key(finish(mixed[b], binary.LittleEndian.Uint32(text[4*b:]), most&3, most), mask, signBit)
				k++
			}
			continue
		}
		mixed, off := seed, start
		for j := i + 1; j <= last; j++ {
			end := starts[j] - 1
			for ; off+4 <= end; off += 4 {
				mixed = mix(mixed, binary.LittleEndian.Uint32(words[off:off+4]))
			}
			keys[k] = key(finish(mixed, binary.LittleEndian.Uint32(words[off:off+4]), end-off, end-start), mask, signBit)
			k++
		}
	}
}

// pairBlocks is the most blocks of a word and the next whose hashes
// hashes takes without a branch: the words of a pair of less than
// 4·pairBlocks bytes, with the space between them.
const pairBlocks = 4

// key returns the key of an n-gram of hash f, of columns mask+1, and its
// sign if signBit is 1: the column is |f| modulo 2^Bits, as scikit-learn
// takes it, and the sign that of f, read as an int32.
func key(f, mask, signBit uint32) uint32 {
	neg := f >> 31
	col := (f ^ -neg) + neg
	return (col&mask)<<1 | neg&signBit
}

// The constants of MurmurHash3_x86_32.
const (
	murmurC1 = 0xcc9e2d51
	murmurC2 = 0x1b873593
)

// mix returns the state h of MurmurHash3_x86_32 with the block k mixed in.
func mix(h, k uint32) uint32 {
	k *= murmurC1
	k = bits.RotateLeft32(k, 15)
	k *= murmurC2
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

// tailMask keeps the bytes of a tail of 0 to 3 bytes of a block.
var tailMask = [4]uint32{0, 0xff, 0xffff, 0xffffff}

// finish returns the hash of a text of length bytes whose whole blocks are
// mixed into h, and whose last tail bytes, less than 4, start the block k.
// A tail of no bytes mixes in nothing, as k is then 0: no branch.
func finish(h, k uint32, tail, length int) uint32 {
	k &= tailMask[tail&3]
	k *= murmurC1
	k = bits.RotateLeft32(k, 15)
	k *= murmurC2
	h ^= k
	h ^= uint32(length)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	return h ^ h>>16
}
