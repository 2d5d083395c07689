// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// The hashing of word n-grams into rows of a CSR, which Text's Read and
// Hashing's Transform share.

// wordByte says which ASCII bytes are word characters: letters and digits.
var wordByte = func() (t [utf8.RuneSelf]bool) {
	for b := range t {
		t[b] = 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
	}
	return t
}()

// isWord reports whether r is a character of words: a letter, a mark or
// a decimal digit.
func isWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r)
}

// hasher turns texts into the rows of a CSR, one at a time, as a Hashing
// says. It holds the words of the text being turned and its n-grams, and
// the rows so far.
type hasher struct {
	n      int    // the longest n-gram, in words
	mask   uint32 // the columns less 1
	seed   uint32
	signed bool
	values string // "count", "binary" or "tf"
	l2     bool

	words  []byte   // the words of the text, lower-cased, each followed by a space
	starts []int    // where each word starts in words
	keys   []uint32 // the column of each n-gram, shifted left by 1, or'ed with 1 if its sign is -1

	ptr []int
	ind []int
	val []float64
}

// newHasher returns the hasher of h, or an error if h is not a Hashing
// that Transform takes.
func newHasher(h Hashing) (*hasher, error) {
	b := h.Bits
	switch {
	case b == 0:
		b = defaultBits
	case b < 1 || b > maxBits:
		return nil, fmt.Errorf("the Hashing's Bits is %d, want 0 (for %d) or a number of bits from 1 to %d", h.Bits, defaultBits, maxBits)
	}
	n := h.NGrams
	switch {
	case n == 0:
		n = 1
	case n < 0:
		return nil, fmt.Errorf("the Hashing's NGrams is %d, want 0 (for 1) or more", h.NGrams)
	}
	v := h.Values
	switch v {
	case "":
		v = "count"
	case "count", "binary", "tf":
	default:
		return nil, fmt.Errorf("the Hashing's Values is %s, want \"count\" or \"\", \"binary\" or \"tf\"", quote(v))
	}
	return &hasher{n: n, mask: 1<<b - 1, seed: h.Seed, signed: h.Signed, values: v, l2: !h.NoNorm, ptr: []int{0}}, nil
}

// cols returns the number of columns, 2^Bits.
func (h *hasher) cols() int { return int(h.mask) + 1 }

// add adds the words of s to the text of the row being turned. It returns
// an error giving the position of the first byte of s that is not UTF-8,
// counted from at, or an error of kind perceptron.ErrTooLarge if the
// words do not fit in the memory left.
func (h *hasher) add(s string, at int) error {
	// Lower-casing turns a character of 2 bytes into one of 3 at most,
	// and a word takes one more byte after it than its text may.
	var err error
	if h.words, err = grow(h.words, len(s)+len(s)/2+1); err == nil {
		h.starts, err = grow(h.starts, (len(s)+1)/2+1) // and an end after the last
	}
	if err != nil {
		return tooLarge(err, "holding the words of the text")
	}
	in := false // whether the last character was of a word
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if !wordByte[c] {
				in = h.end(in)
				continue
			}
			if !in {
				h.starts = append(h.starts, len(h.words))
				in = true
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			h.words = append(h.words, c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return &utf8Error{at: at + i}
		}
		i += size
		if !isWord(r) {
			in = h.end(in)
			continue
		}
		if !in {
			h.starts = append(h.starts, len(h.words))
			in = true
		}
		h.words = utf8.AppendRune(h.words, unicode.ToLower(r))
	}
	h.end(in)
	return nil
}

// end ends the word being read, if in says there is one, and returns
// false.
func (h *hasher) end(in bool) bool {
	if in {
		h.words = append(h.words, ' ')
	}
	return false
}

// utf8Error is the error of a byte that is not UTF-8 at a position of a
// text.
type utf8Error struct{ at int }

func (e *utf8Error) Error() string {
	return fmt.Sprintf("byte %d is not UTF-8", e.at+1)
}

// notUTF8 returns the error of the first byte of s that is not UTF-8, or
// nil if s is UTF-8.
func notUTF8(s string) error {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return &utf8Error{at: i}
			}
		}
	}
	return nil
}

// row turns the words added since the last row into the next row, and
// returns an error of kind perceptron.ErrTooLarge if it does not fit in
// the memory left.
func (h *hasher) row() error {
	w := len(h.starts)
	h.starts = append(h.starts, len(h.words)) // an end for the last word
	// The n-grams: w of 1 word, w-1 of 2, and so on.
	n := min(h.n, w)
	k := float64(n) * float64(2*w-n+1) / 2
	if k > float64(cap(h.keys)) {
		// Checked as a float first, as the count may pass an int.
		if err := memory.Check(4 * k); err != nil {
			return tooLarge(err, "holding the %.0f n-grams of the text", k)
		}
	}
	var err error
	if h.keys, err = grow(h.keys[:0], int(k)); err != nil {
		return tooLarge(err, "holding the %.0f n-grams of the text", k)
	}
	for i := range w {
		// The n-grams that start at word i are prefixes of one text,
		// whose hash runs on from one to the next.
		m := murmur{h: h.seed, start: h.starts[i], off: h.starts[i]}
		for j := i + 1; j <= min(i+n, w); j++ {
			hash := int32(m.sum(h.words, h.starts[j]-1))
			// The column is |hash| modulo 2^Bits, as scikit-learn takes
			// it, and the sign that of hash.
			col := uint32(hash)
			if hash < 0 {
				col = -col
			}
			key := (col & h.mask) << 1
			if h.signed && hash < 0 {
				key |= 1
			}
			h.keys = append(h.keys, key)
		}
	}
	slices.Sort(h.keys)
	distinct := 0
	for i, key := range h.keys {
		if i == 0 || key>>1 != h.keys[i-1]>>1 {
			distinct++
		}
	}
	if h.ind, err = grow(h.ind, distinct); err == nil {
		if h.val, err = grow(h.val, distinct); err == nil {
			h.ptr, err = grow(h.ptr, 1)
		}
	}
	if err != nil {
		return tooLarge(err, "holding the rows up to it")
	}
	first := len(h.ind)
	for i := 0; i < len(h.keys); {
		col := h.keys[i] >> 1
		count := 0.0
		for ; i < len(h.keys) && h.keys[i]>>1 == col; i++ {
			count += float64(1 - 2*int(h.keys[i]&1))
		}
		v := count
		switch h.values {
		case "binary":
			v = math.Copysign(1, count)
		case "tf":
			v = count / float64(len(h.keys))
		}
		if count == 0 { // signs that cancel
			continue
		}
		h.ind = append(h.ind, int(col))
		h.val = append(h.val, v)
	}
	if h.l2 {
		row := h.val[first:]
		sum := 0.0
		for _, v := range row {
			sum += float64(v * v) // rounded before the sum, never fused
		}
		norm := math.Sqrt(sum)
		for k := range row {
			row[k] /= norm
		}
	}
	h.ptr = append(h.ptr, len(h.ind))
	h.words, h.starts = h.words[:0], h.starts[:0]
	return nil
}

// murmur is MurmurHash3_x86_32 (Austin Appleby, public domain) of the
// bytes of a text from start on, the 4-byte blocks of which it has mixed
// into h up to off.
type murmur struct {
	h     uint32
	start int
	off   int
}

const (
	murmurC1 = 0xcc9e2d51
	murmurC2 = 0x1b873593
)

// sum returns the hash of text[m.start:end], having mixed its whole
// blocks into m, so that the hash of a longer text from the same start
// goes on from them.
func (m *murmur) sum(text []byte, end int) uint32 {
	h := m.h
	for ; m.off+4 <= end; m.off += 4 {
		k := binary.LittleEndian.Uint32(text[m.off:])
		k *= murmurC1
		k = bits.RotateLeft32(k, 15)
		k *= murmurC2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	m.h = h
	var k uint32
	switch tail := text[m.off:end]; len(tail) {
	case 3:
		k ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(tail[0])
		k *= murmurC1
		k = bits.RotateLeft32(k, 15)
		k *= murmurC2
		h ^= k
	}
	h ^= uint32(end - m.start)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}
