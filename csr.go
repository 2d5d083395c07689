// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"slices"

	"gonum.org/v1/gonum/mat"
)

// CSR is a sparse matrix in compressed sparse row form, the form of text
// and other high-dimensional data: each row holds its non-zero elements
// as the columns and the values that NewCSR was given, and every other
// element is zero. It is a mat.Matrix and a mat.RowNonZeroDoer; every
// classifier reads it in place, in O(non-zeros) per row, and never
// densifies it. The zero value is a matrix of no rows and no columns.
type CSR struct {
	r, c int
	ptr  []int
	ind  []int
	val  []float64
}

var (
	_ mat.Matrix         = (*CSR)(nil)
	_ mat.RowNonZeroDoer = (*CSR)(nil)
)

// NewCSR returns the r×c matrix whose row i holds val[ptr[i]:ptr[i+1]] at
// the columns ind[ptr[i]:ptr[i+1]]. The matrix uses the three slices as
// its own: the caller must not modify them afterwards, but for the values,
// as RawCSR allows.
//
// NewCSR returns an error if r or c is negative, if ptr does not have r+1
// elements that start at 0, never decrease and end at len(ind), if ind and
// val differ in length, or if in some row the columns are not sorted and
// unique or in [0, c), or a value is NaN or infinite; the error names the
// row and the column. Explicit zeros are allowed.
func NewCSR(r, c int, ptr, ind []int, val []float64) (*CSR, error) {
	switch {
	case r < 0 || c < 0:
		return nil, errorf(ErrShape, "perceptron: NewCSR: dimensions %d×%d, want them >= 0", r, c)
	case len(ptr)-1 != r: // r+1 would overflow at math.MaxInt
		return nil, errorf(ErrShape, "perceptron: NewCSR: ptr has %d elements, want %d (rows+1)", len(ptr), uint64(r)+1)
	case ptr[0] != 0:
		return nil, errorf(ErrFormat, "perceptron: NewCSR: ptr[0] is %d, want 0", ptr[0])
	case len(ind) != len(val):
		return nil, errorf(ErrShape, "perceptron: NewCSR: %d column indices and %d values, want as many", len(ind), len(val))
	case ptr[r] != len(ind):
		return nil, errorf(ErrFormat, "perceptron: NewCSR: ptr[%d] is %d, want %d (the number of values)", r, ptr[r], len(ind))
	}
	for i := range r {
		lo, hi := ptr[i], ptr[i+1]
		if hi < lo || hi > len(ind) {
			return nil, errorAt(ErrFormat, i, -1, "perceptron: NewCSR: row %d spans [%d, %d), want a span of [0, %d)", i, lo, hi, len(ind))
		}
		if err := checkSparseRow(i, ind[lo:hi], val[lo:hi], c); err != nil {
			return nil, wrapf(err, "perceptron: NewCSR: row %d: %w", i, err)
		}
	}
	if ind == nil {
		ind, val = noColumns, []float64{} // a row of no elements is sparse, not dense
	}
	return &CSR{r: r, c: c, ptr: ptr, ind: ind, val: val}, nil
}

// checkSparseRow returns an error about the first column of row i, of c
// columns, that is out of order, repeated or out of range, or whose value
// is NaN or infinite.
func checkSparseRow(i int, ind []int, val []float64, c int) error {
	// A pass of few branches finds most rows good; the one below names
	// what is wrong.
	prev, ok := -1, len(val) == len(ind)
	for k, j := range ind {
		v := val[k]
		ok = ok && j > prev && j < c && v-v == 0
		prev = j
	}
	if ok {
		return nil
	}
	for k, j := range ind {
		switch {
		case j < 0 || j >= c:
			return errorAt(ErrShape, i, j, "column %d is out of range [0, %d)", j, c)
		case k > 0 && j == ind[k-1]:
			return errorAt(ErrFormat, i, j, "column %d appears twice", j)
		case k > 0 && j < ind[k-1]:
			return errorAt(ErrFormat, i, j, "column %d comes after column %d, want increasing columns", j, ind[k-1])
		case !finite(val[k]):
			return errorAt(ErrNonFinite, i, j, "column %d is %v, want a finite value", j, val[k])
		}
	}
	return nil
}

// Dims returns the number of rows and columns of m.
func (m *CSR) Dims() (r, c int) { return m.r, m.c }

// At returns the element at row i and column j, by a binary search of the
// row. It panics if i or j is out of range.
func (m *CSR) At(i, j int) float64 {
	ind, val := m.row(i)
	if j < 0 || j >= m.c {
		panic(mat.ErrColAccess)
	}
	if k, ok := slices.BinarySearch(ind, j); ok {
		return val[k]
	}
	return 0
}

// T returns the transpose of m, as an implicit transpose.
func (m *CSR) T() mat.Matrix { return mat.Transpose{Matrix: m} }

// NNZ returns the number of stored elements of m.
func (m *CSR) NNZ() int { return len(m.ind) }

// RawCSR returns the slices that m holds, in the layout that NewCSR
// takes: row i holds val[ptr[i]:ptr[i+1]] at the columns
// ind[ptr[i]:ptr[i+1]]; the zero CSR gives nil slices. They are m's own,
// not copies, so that a caller may scale the values in place, as
// mat.Dense's RawMatrix allows: a value may be set to another finite value
// while no method of m, or of a CSR that shares its values, reads it; ptr
// and ind must not be modified. RawCSR may run concurrently with any
// method of m.
func (m *CSR) RawCSR() (ptr, ind []int, val []float64) { return m.ptr, m.ind, m.val }

// RowSlice returns the rows i to k-1 of m as a CSR that shares m's columns
// and values, as mat.Dense's Slice shares its elements: it copies only
// where each row starts, an int a row. It panics if i or k is out of range
// or k < i. It may run concurrently with any method of m, and with
// changes of m's values through RawCSR, as it reads none.
func (m *CSR) RowSlice(i, k int) *CSR {
	if i < 0 || k > m.r || k < i {
		panic(mat.ErrIndexOutOfRange)
	}
	if m.ptr == nil { // the zero CSR
		return &CSR{c: m.c}
	}
	lo, hi := m.ptr[i], m.ptr[k]
	ptr := make([]int, k-i+1)
	for r := range ptr {
		ptr[r] = m.ptr[i+r] - lo
	}
	return &CSR{r: k - i, c: m.c, ptr: ptr, ind: m.ind[lo:hi:hi], val: m.val[lo:hi:hi]}
}

// DoRowNonZero calls fn for each stored element of row i, in the order of
// the columns. It panics if i is out of range.
func (m *CSR) DoRowNonZero(i int, fn func(i, j int, v float64)) {
	ind, val := m.row(i)
	for k, j := range ind {
		fn(i, j, val[k])
	}
}

// row returns the columns and the values of the stored elements of row i,
// panicking if i is out of range.
func (m *CSR) row(i int) (ind []int, val []float64) {
	if i < 0 || i >= m.r {
		panic(mat.ErrRowAccess)
	}
	lo, hi := m.ptr[i], m.ptr[i+1]
	return m.ind[lo:hi:hi], m.val[lo:hi:hi]
}

// noColumns are the columns of a sparse row of zeros, which must not be
// nil.
var noColumns = []int{}
