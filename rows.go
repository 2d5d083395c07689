// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// rows is a matrix of samples as the algorithms read it, one row at a
// time. Every algorithm reads its data through rows and vec, and through
// nothing else.
type rows struct {
	n, d   int
	stride int
	data   []float64
}

// vec is one row: its d values.
type vec struct {
	val []float64
}

// rowsOf returns the rows of X: those of a mat.RawMatrixer, such as
// *mat.Dense, in place, and those of any other matrix copied once.
func rowsOf(X mat.Matrix) *rows {
	rm, ok := X.(mat.RawMatrixer)
	if !ok {
		rm = mat.DenseCopyOf(X)
	}
	raw := rm.RawMatrix()
	return &rows{n: raw.Rows, d: raw.Cols, stride: raw.Stride, data: raw.Data}
}

// newRows returns an empty store of rows of length d, which append fills,
// with room for size rows.
func newRows(d, size int) *rows {
	return &rows{d: d, stride: d, data: make([]float64, 0, size*d)}
}

// row returns row i.
func (r *rows) row(i int) vec {
	off := i * r.stride
	return vec{r.data[off : off+r.d : off+r.d]}
}

// sub returns rows lo to hi-1 of r, in place.
func (r *rows) sub(lo, hi int) rows {
	return rows{n: hi - lo, d: r.d, stride: r.stride, data: r.data[lo*r.stride:]}
}

// reset empties a store from newRows, keeping its memory.
func (r *rows) reset() {
	r.n, r.data = 0, r.data[:0]
}

// append adds a copy of x as the last row of a store from newRows.
func (r *rows) append(x vec) {
	r.data = append(r.data, x.val...)
	r.n++
}

// swapRemove removes row i of a store from newRows, moving the last row
// into its place.
func (r *rows) swapRemove(i int) {
	last := r.n - 1
	copy(r.data[i*r.d:(i+1)*r.d], r.data[last*r.d:])
	r.data = r.data[:last*r.d]
	r.n--
}

// products sets dst[q] = a_q·v for the len(dst) rows a_q of r, all at
// once, with gonum's matrix-vector product, whose rounding may differ from
// that of dot.
func (r *rows) products(dst []float64, v vec) {
	blas64.Gemv(blas.NoTrans, 1,
		blas64.General{Rows: len(dst), Cols: r.d, Stride: r.stride, Data: r.data},
		blas64.Vector{N: r.d, Inc: 1, Data: v.val},
		0, blas64.Vector{N: len(dst), Inc: 1, Data: dst})
}

// dot returns x·w.
func (x vec) dot(w []float64) float64 { return floats.Dot(x.val, w) }

// addTo adds a·x to w.
func (x vec) addTo(w []float64, a float64) { floats.AddScaled(w, a, x.val) }

// norm2 returns x·x.
func (x vec) norm2() float64 { return floats.Dot(x.val, x.val) }

// norm returns the Euclidean norm of x, computed with care against
// overflow.
func (x vec) norm() float64 { return floats.Norm(x.val, 2) }

// distance returns the Euclidean distance between x and the dense z.
func (x vec) distance(z []float64) float64 { return floats.Distance(x.val, z, 2) }

// each calls f with every stored element of x and its column.
func (x vec) each(f func(j int, v float64)) {
	for j, v := range x.val {
		f(j, v)
	}
}

// denseTo writes x into dst, of length d.
func (x vec) denseTo(dst []float64) { copy(dst, x.val) }

// bad returns the column and value of the first NaN or infinity in x, or
// -1.
func (x vec) bad() (j int, v float64) {
	if j := nonFinite(x.val); j >= 0 {
		return j, x.val[j]
	}
	return -1, 0
}

// finiteAfter reports whether w+a·x is finite.
func (x vec) finiteAfter(w []float64, a float64) bool {
	for j, v := range x.val {
		if math.IsInf(w[j]+a*v, 0) {
			return false
		}
	}
	return true
}

// rowError returns an error naming the first NaN or infinity in row i, or
// nil if the row has none.
func (r *rows) rowError(i int) error {
	if j, v := r.row(i).bad(); j >= 0 {
		return fmt.Errorf("perceptron: X[%d, %d] is %v, want a finite value", i, j, v)
	}
	return nil
}

// check returns an error naming the first NaN or infinity in the rows
// taken in order, or in index order if order is nil, for the routines that
// must trust every row before they read any. The products of a row with
// zeros are all zero unless an element is NaN or infinite, so a dot
// product finds a bad row at the speed of the assembly, and the slow
// search runs only on a bad row.
func (r *rows) check(order []int) error {
	zeros := make([]float64, r.d)
	for p := range r.n {
		i := p
		if order != nil {
			i = order[p]
		}
		if r.row(i).dot(zeros) != 0 {
			if err := r.rowError(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// dataset is a training set: rows of checked shape, and their labels,
// -1 or +1. The visits check the values of the rows.
type dataset struct {
	*rows
	y []float64
}

// newDataset checks the shape of X and the labels y and returns them as a
// dataset.
func newDataset(X mat.Matrix, y []float64) (*dataset, error) {
	if d, ok := X.(*mat.Dense); X == nil || ok && d == nil {
		return nil, errors.New("perceptron: X is nil")
	}
	if e, ok := X.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
		return nil, errors.New("perceptron: X has no rows")
	}
	n, d := X.Dims()
	switch {
	case n == 0:
		return nil, errors.New("perceptron: X has no rows")
	case d == 0:
		return nil, errors.New("perceptron: X has no columns")
	case len(y) != n:
		return nil, fmt.Errorf("perceptron: len(y) is %d, want %d (the number of rows of X)", len(y), n)
	}
	if err := checkLabels(y); err != nil {
		return nil, err
	}
	return &dataset{rows: rowsOf(X), y: y}, nil
}

// checkExample returns an error if (x, y) is not a valid example of
// length d, for Learn.
func checkExample(x []float64, y float64, d int) error {
	if len(x) == 0 {
		return errors.New("perceptron: x is empty")
	}
	if len(x) != d {
		return fmt.Errorf("perceptron: x has length %d, want %d", len(x), d)
	}
	if y != -1 && y != 1 {
		return fmt.Errorf("perceptron: y is %v, want -1 or +1", y)
	}
	if j := nonFinite(x); j >= 0 {
		return fmt.Errorf("perceptron: x[%d] is %v, want a finite value", j, x[j])
	}
	return nil
}

// checkLabels returns an error naming the first label that is not -1 or +1.
func checkLabels(y []float64) error {
	for i, v := range y {
		if v == -1 || v == 1 {
			continue
		}
		if zeroOne(y) {
			return fmt.Errorf("perceptron: y[%d] is %v, want -1 or +1 (the labels look like 0/1: map 0 to -1)", i, v)
		}
		return fmt.Errorf("perceptron: y[%d] is %v, want -1 or +1", i, v)
	}
	return nil
}

func zeroOne(y []float64) bool {
	for _, v := range y {
		if v != 0 && v != 1 {
			return false
		}
	}
	return true
}

// finite reports whether v is neither NaN nor an infinity.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// nonFinite returns the index of the first NaN or infinity in x, or -1.
func nonFinite(x []float64) int {
	for j, v := range x {
		if !finite(v) {
			return j
		}
	}
	return -1
}
