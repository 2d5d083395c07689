// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// A model crosses between the driver and the workers in its binary form,
// MarshalBinary's, cut into blocks of features: the mix of a block needs
// that block of every shard's part and nothing else, since perceptron.Mix
// adds the parts feature by feature. The block of features [lo, hi) of a
// model is itself the binary form of a model, of hi-lo columns: the
// header with the width hi-lo, the same head, and the rows lo to hi of
// each table. Package data documents the layout that this file reads,
// version 3 of the classifier's binary form, where MarshalBinary writes
// every table dense: a header of 32 bytes whose little-endian words at 8,
// 16 and 24 are the columns d, the scores S and the length of the head,
// then the head, then the tables, each d·S float64s held feature by
// feature.

// formHeader is the length of the header of a binary form, and the
// offsets of its words of the columns, the scores and the head.
const (
	formHeader = 32
	formD      = 8
	formS      = 16
	formHead   = 24
)

// header returns the columns, the scores and the length of the head of
// the binary form f, which holds a header.
func header(f []byte) (d, S, head uint64) {
	le := binary.LittleEndian
	return le.Uint64(f[formD:]), le.Uint64(f[formS:]), le.Uint64(f[formHead:])
}

// layout returns the columns, the scores and the length of the header
// and head of the binary form f, and the number of its tables, or an error
// if f is not laid out as a binary form.
func layout(f []byte) (d, S, head, tables int, err error) {
	if len(f) < formHeader {
		return 0, 0, 0, 0, fmt.Errorf("a model of %d bytes, shorter than the header of its binary form", len(f))
	}
	ud, uS, uh := header(f)
	rest := uint64(len(f) - formHeader)
	words := (rest - uh) / 8
	if uh > rest || (rest-uh)%8 != 0 || uS == 0 || uS > words || ud == 0 || ud > words/uS || words%(ud*uS) != 0 {
		return 0, 0, 0, 0, fmt.Errorf("a model of %d bytes is not laid out as a binary form of %d columns by %d scores with a head of %d bytes", len(f), ud, uS, uh)
	}
	return int(ud), int(uS), formHeader + int(uh), int(words / (ud * uS)), nil
}

// withWidth returns a copy of the header and head h of a binary form,
// with the width d.
func withWidth(h []byte, d int) []byte {
	c := append([]byte(nil), h...)
	binary.LittleEndian.PutUint64(c[formD:], uint64(d))
	return c
}

// blocks returns the number of blocks of n features each of a model of d
// columns.
func blocks(d, n int) int { return (d + n - 1) / n }

// blockRange returns the features [lo, hi) of block b of n features each,
// of d columns.
func blockRange(b, n, d int) (lo, hi int) { return b * n, min(d, (b+1)*n) }

// tableRows returns the bytes of features [lo, hi) of table t of the
// binary form f, laid out as layout says.
func tableRows(f []byte, d, S, head, t, lo, hi int) []byte {
	start := head + 8*t*d*S
	return f[start+8*lo*S : start+8*hi*S]
}

// join returns the binary form of d columns whose blocks of n features
// are the forms that block returns, in order: the header and head of the
// first block, with the width d, and the tables of each. It returns an
// error if a block is not laid out as a binary form, if it is not of the
// width, scores, head and tables of the first one, or if the blocks are
// fewer or more than d needs.
func join(d, n int, block func(b int) ([]byte, error)) ([]byte, error) {
	var out []byte
	var S, head, tables int
	for b := range blocks(d, n) {
		f, err := block(b)
		if err != nil {
			return nil, err
		}
		bd, bS, bh, bt, err := layout(f)
		if err != nil {
			return nil, fmt.Errorf("block %d: %w", b, err)
		}
		lo, hi := blockRange(b, n, d)
		if b == 0 {
			S, head, tables = bS, bh, bt
			size := float64(head) + 8*float64(tables)*float64(d)*float64(S)
			if size > math.MaxInt {
				return nil, fmt.Errorf("a model of %d columns by %d scores is too large", d, S)
			}
			out = make([]byte, int(size))
			copy(out, withWidth(f[:head], d))
		}
		if bd != hi-lo || bS != S || bt != tables || bh != head || string(f[formHeader:bh]) != string(out[formHeader:head]) {
			return nil, fmt.Errorf("block %d is of %d columns by %d scores, %d tables and a head of %d bytes, not of block 0's head and %d columns", b, bd, bS, bt, bh, hi-lo)
		}
		for t := range tables {
			copy(tableRows(out, d, S, head, t, lo, hi), f[head+8*t*bd*S:head+8*(t+1)*bd*S])
		}
	}
	return out, nil
}

// The delta of a block of a shard's part is its tables as runs of words
// of 8 bytes against the tables of the same block of the model the shard
// learned from, its reference: words equal to the reference's, words of
// zero bits, and words given. A shard changes the weights of the features
// of its mistakes only, and an Averaged's part sums from zero, so that
// most of its words are one or the other. Each run is a uvarint, its
// length times 4 plus its kind, and the words of a run of given words
// follow it.
const (
	runSame = iota
	runZero
	runGiven
)

// appendDelta appends the delta of the words x against the words ref, or
// against zeros if ref is nil, to dst.
func appendDelta(dst, x, ref []byte) []byte {
	kind := func(i int) int {
		w := binary.LittleEndian.Uint64(x[i:])
		switch {
		case ref != nil && w == binary.LittleEndian.Uint64(ref[i:]):
			return runSame
		case w == 0:
			return runZero
		}
		return runGiven
	}
	for i := 0; i < len(x); {
		k := kind(i)
		j := i + 8
		for j < len(x) && kind(j) == k {
			j += 8
		}
		dst = binary.AppendUvarint(dst, uint64((j-i)/8)<<2|uint64(k))
		if k == runGiven {
			dst = append(dst, x[i:j]...)
		}
		i = j
	}
	return dst
}

// applyDelta sets the words of dst to those that delta codes against ref,
// or against zeros if ref is nil. It returns an error if delta does not
// code exactly len(dst) bytes.
func applyDelta(dst, delta, ref []byte) error {
	i := 0
	for len(delta) > 0 {
		v, n := binary.Uvarint(delta)
		if n <= 0 || v>>2 > uint64(len(dst)-i)/8 {
			return errors.New("a run of a delta is malformed or too long")
		}
		delta = delta[n:]
		end := i + 8*int(v>>2)
		switch v & 3 {
		case runSame:
			if ref != nil {
				copy(dst[i:end], ref[i:end])
				break
			}
			fallthrough
		case runZero:
			clear(dst[i:end])
		case runGiven:
			if len(delta) < end-i {
				return errors.New("a delta ends within a run of words")
			}
			delta = delta[copy(dst[i:end], delta):]
		default:
			return errors.New("a run of a delta is of no kind")
		}
		i = end
	}
	if i != len(dst) {
		return fmt.Errorf("a delta codes %d bytes, want %d", i, len(dst))
	}
	return nil
}
