// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unicode"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// The hashing of word n-grams into rows of a CSR, which Text's Read and
// Hashing's Transform share.

// fold is each byte of ASCII as a word holds it, lower-cased, or 0 for a
// character that is not of words.
var fold = func() (t [utf8.RuneSelf]byte) {
	for b := range t {
		switch {
		case 'a' <= b && b <= 'z' || '0' <= b && b <= '9':
			t[b] = byte(b)
		case 'A' <= b && b <= 'Z':
			t[b] = byte(b) + 'a' - 'A'
		}
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
	n       int    // the longest n-gram, in words
	mask    uint32 // the columns less 1
	seed    uint32
	signBit uint32 // 1 if a key holds the sign of its n-gram, Signed
	values  string // "count", "binary" or "tf"
	l2      bool

	words  []byte   // the words of the text, lower-cased, each followed by a space
	starts []int    // where each word starts in words
	keys   []uint32 // the column of each n-gram, shifted left by 1, or'ed with 1 if its sign is -1

	ptr []int
	ind []int
	val []float64

	sorted []uint32 // the keys, dealt by bucketKeys
	counts []uint32 // the keys of each bucket of bucketKeys
	text   *lines   // the text the rows are read from, or nil
}

// newHasher returns the hasher of h, or an error if h is not a Hashing
// that Transform takes.
func newHasher(h Hashing) (*hasher, error) {
	b := h.Bits
	switch {
	case b == 0:
		b = defaultBits
	case b < 1 || b > maxBits:
		return nil, errorf(perceptron.ErrSetting, "the Hashing's Bits is %d, want 0 (for %d) or a number of bits from 1 to %d", h.Bits, defaultBits, maxBits)
	}
	n := h.NGrams
	switch {
	case n == 0:
		n = 1
	case n < 0:
		return nil, errorf(perceptron.ErrSetting, "the Hashing's NGrams is %d, want 0 (for 1) or more", h.NGrams)
	}
	v := h.Values
	switch v {
	case "":
		v = "count"
	case "count", "binary", "tf":
	default:
		return nil, errorf(perceptron.ErrSetting, "the Hashing's Values is %s, want \"count\" or \"\", \"binary\" or \"tf\"", quote(v))
	}
	var sign uint32
	if h.Signed {
		sign = 1
	}
	return &hasher{signBit: sign, n: n, mask: 1<<b - 1, seed: h.Seed, values: v, l2: !h.NoNorm, ptr: []int{0}, ind: []int{}, val: []float64{}}, nil
}

// cols returns the number of columns, 2^Bits.
func (h *hasher) cols() int { return int(h.mask) + 1 }

// add adds the words of s to the text of the row being turned. It returns
// an error giving the position of the first byte of s that is not UTF-8,
// counted from at, or an error of kind perceptron.ErrTooLarge if the
// words do not fit in the memory left.
func (h *hasher) add(s string, at int) error {
	// Lower-casing turns a character of 2 bytes into one of 3 at most,
	// and a word takes one more byte after it than its text may; hashes
	// reads up to 4·pairBlocks+3 bytes beyond the start of the last word,
	// and wordsAsm writes 64 bytes at a time. The starts of 8 bytes of
	// ASCII are written two at least, which may be 2 beyond the last,
	// one of them the room for the end after the last that row adds.
	var err error
	if h.words, err = grow(h.words, len(s)+len(s)/2+64); err == nil {
		h.starts, err = grow(h.starts, (len(s)+1)/2+2)
	}
	if err != nil {
		return tooLarge(err, "holding the words of the text")
	}
	if wordsAsm(h, s) {
		return nil
	}
	w, n := h.words[:cap(h.words)], len(h.words)
	starts, c := h.starts[:cap(h.starts)], len(h.starts)
	// Each byte of s gives its byte of words, lower-cased if it is of a
	// word, a space if it is the first after a word, and nothing if it
	// follows another that is not of words. in is 0x80, the high bit of
	// the first byte of a uint64, if the byte before i is of a word, and
	// else 0.
	var in uint64
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			// 8 bytes at a time while they are ASCII, each 8 after the
			// last: where they start does not wait on the words before,
			// as it would if it were the end of the last word, and no
			// branch depends on where words end.
			if x := load64(s[i:]); x&highBits == 0 {
				lower, word := foldASCII(x)
				after := word<<8 | in // the bytes after a byte of a word
				in = word >> 56
				all := (word >> 7) * 0xff // each byte of a word, all ones
				y := lower&all | spaces&^all
				first := word &^ after
				d := 0
				if drop := highBits &^ (word | after); drop != 0 {
					y, first, d = squeeze(y, first, drop)
				}
				binary.LittleEndian.PutUint64(w[n:n+8], y)
				// The starts of the first two words that start in
				// the 8 bytes, if there are, and else beyond them,
				// which the next overwrite: without a branch on their
				// number, 0, 1 or 2 for words of more than 2 letters.
				second := first & (first - 1)
				starts[c] = n + bits.TrailingZeros64(first)>>3
				starts[c+1] = n + bits.TrailingZeros64(second)>>3
				if more := second & (second - 1); more != 0 {
					starts[c+2] = n + bits.TrailingZeros64(more)>>3
					if more &= more - 1; more != 0 { // no more than 4, each after a space
						starts[c+3] = n + bits.TrailingZeros64(more)>>3
					}
				}
				c += bits.OnesCount64(first)
				n += 8 - d
				i += 8
				continue
			}
		}
		// A character at a time, at the end of s and where it is not
		// ASCII.
		var r rune
		if b := s[i]; b < utf8.RuneSelf {
			r = rune(fold[b]) // 0 if it is not of words
			i++
		} else {
			var size int
			r, size = utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return errorf(perceptron.ErrFormat, "byte %d is not UTF-8", at+i+1)
			}
			i += size
			if isWord(r) {
				r = unicode.ToLower(r)
			} else {
				r = 0
			}
		}
		switch {
		case r != 0:
			if in == 0 {
				starts[c] = n
				c++
			}
			w = utf8.AppendRune(w[:n], r)
			n, w, in = len(w), w[:cap(w)], 0x80
		case in != 0:
			w[n] = ' '
			n, in = n+1, 0
		}
	}
	if in != 0 {
		w[n] = ' '
		n++
	}
	h.words, h.starts = w[:n], starts[:c]
	return nil
}

// squeeze returns the 8 bytes of y, and the high bits of first, without
// the bytes whose high bits drop holds, the bytes after each moved down
// in its place, and the number of bytes dropped.
func squeeze(y, first, drop uint64) (uint64, uint64, int) {
	d := 0
	for drop != 0 {
		below := (drop&-drop)>>7 - 1 // the bytes below the lowest to drop
		y = y&below | y>>8&^below
		first = first&below | first>>8&^below
		drop = drop >> 8 &^ below
		d++
	}
	return y, first, d
}

// spaces are 8 spaces.
const spaces = 0x2020202020202020

// highBits are the high bits of the bytes of a uint64, which are 0 for
// the bytes of ASCII.
const highBits = 0x8080808080808080

// load64 returns the first 8 bytes of s, the first the lowest.
func load64(s string) uint64 {
	s = s[:8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// foldASCII returns the 8 bytes of ASCII x, their letters lower-cased,
// and the high bit of each that is of words, as fold says, set: a byte
// of x plus a constant below 0x80 carries into its high bit, not beyond,
// if and only if it is at least 0x80 less the constant.
func foldASCII(x uint64) (lower, word uint64) {
	const ones = 0x0101010101010101
	lower = x | 0x20*ones // A to Z to a to z; a to z and 0 to 9 are kept
	letter := (lower + (0x80-'a')*ones) &^ (lower + (0x7f-'z')*ones)
	digit := (x + (0x80-'0')*ones) &^ (x + (0x7f-'9')*ones)
	return lower, (letter | digit) & highBits
}

// notUTF8 returns the error of the first byte of s that is not UTF-8, or
// nil if s is UTF-8.
func notUTF8(s string) error {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return errorf(perceptron.ErrFormat, "byte %d is not UTF-8", i+1)
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
	h.keys = h.keys[:int(k)]
	h.hashes(n)
	if err := h.bucketKeys(); err != nil {
		return tooLarge(err, "holding the %.0f n-grams of the text", k)
	}
	// Room for a column for each n-gram, at most.
	keys := h.keys
	if h.ind, err = growText(h.ind, len(keys), h.text); err == nil && cap(h.val) < cap(h.ind) {
		h.val, err = growRows(h.val, cap(h.ind), h.text)
	}
	if err == nil {
		h.ptr, err = growText(h.ptr, 1, h.text)
	}
	if err != nil {
		return tooLarge(err, "holding the rows up to it")
	}
	first := len(h.ind)
	ind, val := h.ind[first:first+len(keys)], h.val[first:first+len(keys)]
	m := merge(keys, ind, val)
	if binary, tf := h.values == "binary", h.values == "tf"; h.signBit != 0 || binary || tf {
		// The values of the sums, less those of signs that cancel.
		k := 0
		for i, sum := range val[:m] {
			v := sum
			switch {
			case sum == 0:
				continue
			case binary:
				v = math.Copysign(1, sum)
			case tf:
				v = sum / float64(len(keys))
			}
			ind[k], val[k] = ind[i], v
			k++
		}
		m = k
	}
	h.ind, h.val = h.ind[:first+m], h.val[:first+m]
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

// bucketKeys puts the keys in order but for a few, in the time of a few
// passes over them: for more than a few, it deals them to as many
// buckets as the keys, to twice as many, by their first bits, which keeps
// them in order but for the keys of a bucket, which are few, as the hashes
// are uniform. It holds the keys twice, and 8 bytes a key for the counts
// of the buckets, and returns the budget's error if they do not fit.
func (h *hasher) bucketKeys() error {
	keys := h.keys
	n := len(keys)
	if n <= 16 {
		return nil
	}
	width := uint(bits.Len32(h.mask)) + 1 // the bits of a key, 32 at most
	b := min(uint(bits.Len(uint(n))), width)
	shift := (width - b) & 31 // which the compiler then knows is less than 32
	var err error
	if cap(h.counts) < 1<<b+1 {
		if h.counts, err = growTo(h.counts[:0], 1<<b+1); err != nil {
			return err
		}
	}
	counts := h.counts[:1<<b+1]
	clear(counts)
	for _, key := range keys {
		counts[key>>shift+1]++
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	if cap(h.sorted) < n {
		if h.sorted, err = growTo(h.sorted[:0], cap(keys)); err != nil {
			return err
		}
	}
	sorted := h.sorted[:n]
	for _, key := range keys {
		b := key >> shift
		at := counts[b]
		sorted[at] = key
		counts[b] = at + 1
	}
	h.keys, h.sorted = sorted, keys
	return nil
}

// merge sets ind and val to the columns of the keys, in increasing order,
// and the sums of their signs, and returns the number of columns. The
// keys of a column, most often one after the other, add to its sum
// without a branch, which the processor would mispredict for the common
// words of a text; it puts a key that comes after a key of a larger
// column among the columns before it, moving them: in the time of the
// keys and of the pairs of them out of order, which bucketKeys leaves
// few.
func merge(keys []uint32, ind []int, val []float64) int {
	m, last, sum := 0, -1, 0.0 // the columns so far, the last, its sum
	for _, key := range keys[:min(len(keys), len(ind), len(val))] {
		col, sign := int(key>>1), signs[key&1]
		if col >= last {
			same := 0
			if col == last {
				same = 1
			}
			m += 1 - same
			sum = sum*float64(same) + sign
			ind[m-1], val[m-1] = col, sum
			last = col
			continue
		}
		j := m - 1 // the first column at least col
		for j > 0 && ind[j-1] >= col {
			j--
		}
		if ind[j] == col {
			val[j] += sign
			continue
		}
		for k := m; k > j; k-- {
			ind[k], val[k] = ind[k-1], val[k-1]
		}
		ind[j], val[j] = col, sign
		m++
	}
	return m
}
