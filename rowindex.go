// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import "math"

// rowIndex finds the rows of a store by their columns and values, and a
// key of the caller's, so that a row stored once is found again rather
// than stored twice. The rows of a hash form a chain, so that the index
// allocates nothing per row.
type rowIndex struct {
	head map[uint64]int // the last row of each hash
	next []int          // per row, the row before it of its hash, or -1
	hash []uint64       // per row, its hash
}

// newRowIndex returns the index of the rows of r, of the keys, or of no
// keys if keys is nil, with room for more rows.
func newRowIndex(r *rows, keys []float64, more int) *rowIndex {
	ix := &rowIndex{head: make(map[uint64]int, r.n+more)}
	for i := range r.n {
		key := 0.0
		if keys != nil {
			key = keys[i]
		}
		ix.add(hash(r.row(i), key))
	}
	return ix
}

// hash returns a hash of x, of its columns and the bits of its values,
// and of key. Zeros are left out, so that a dense and a sparse x with the
// same values hash alike.
func hash(x vec, key float64) uint64 {
	h := mix(math.Float64bits(key))
	for k, v := range x.val {
		if v != 0 {
			h = mix(h ^ uint64(x.col(k))*0x9e3779b97f4a7c15 ^ math.Float64bits(v))
		}
	}
	return h
}

// mix is the finalizer of MurmurHash3: every bit of h changes about half
// the bits of the result.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// find returns the index of the row of r equal to x whose key is key,
// keys holding the key of each row, or if keys is nil the row equal to x,
// or -1, and the hash of x and key.
func (ix *rowIndex) find(r *rows, keys []float64, x vec, key float64) (int, uint64) {
	h := hash(x, key)
	i, ok := ix.head[h]
	for ; ok && i >= 0; i = ix.next[i] {
		if (keys == nil || keys[i] == key) && sameRow(r.row(i), x) {
			return i, h
		}
	}
	return -1, h
}

// add adds the next row of the store, of hash h.
func (ix *rowIndex) add(h uint64) {
	ix.next = append(ix.next, -1)
	ix.hash = append(ix.hash, h)
	ix.link(len(ix.hash)-1, h)
}

// link makes row i, of hash h, the head of the chain of h.
func (ix *rowIndex) link(i int, h uint64) {
	ix.next[i], ix.hash[i] = -1, h
	if prev, ok := ix.head[h]; ok {
		ix.next[i] = prev
	}
	ix.head[h] = i
}

// swapRemove removes row i, as rows.swapRemove does: the last row takes
// its place.
func (ix *rowIndex) swapRemove(i int) {
	ix.unlink(i)
	end := len(ix.hash) - 1
	if i != end {
		ix.unlink(end)
		ix.link(i, ix.hash[end])
	}
	ix.next, ix.hash = ix.next[:end], ix.hash[:end]
}

// unlink takes row i out of the chain of its hash.
func (ix *rowIndex) unlink(i int) {
	h := ix.hash[i]
	if ix.head[h] == i {
		if ix.next[i] < 0 {
			delete(ix.head, h)
		} else {
			ix.head[h] = ix.next[i]
		}
		return
	}
	for k := ix.head[h]; k >= 0; k = ix.next[k] {
		if ix.next[k] == i {
			ix.next[k] = ix.next[i]
			return
		}
	}
}

// sameRow reports whether x and z hold the same non-zero values, bit for
// bit, in the same columns.
func sameRow(x, z vec) bool {
	a, b := 0, 0
	for {
		ja, va, oka := x.next(&a)
		jb, vb, okb := z.next(&b)
		if !oka || !okb {
			return oka == okb
		}
		if ja != jb || math.Float64bits(va) != math.Float64bits(vb) {
			return false
		}
	}
}

// next returns the column and value of the first non-zero element of x
// at or after position *k, and moves *k past it.
func (x vec) next(k *int) (int, float64, bool) {
	for ; *k < len(x.val); *k++ {
		if v := x.val[*k]; v != 0 {
			j := x.col(*k)
			*k++
			return j, v, true
		}
	}
	return 0, 0, false
}
