// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"iter"
	"math"

	"github.com/seed5ae3614e/perceptron"
	"gonum.org/v1/gonum/mat"
)

// Scaler standardises features, as scikit-learn's StandardScaler does: it
// subtracts the mean of each column and divides by its standard
// deviation, or, for sparse rows, whose zeros centring would fill, only
// divides. A column of one value is divided by 1.
type Scaler struct {
	// Mean holds the mean of each column, or is nil for sparse rows.
	Mean []float64

	// Scale holds what each column is divided by: its standard
	// deviation, or 1 where that is zero, or, for a Scaler of NewIDF, the
	// inverse of its weight.
	Scale []float64
}

// NewScaler returns the Scaler of the columns of X, dense or sparse, as
// the training rows give them. It returns an error if X is nil or has no
// rows, or naming the column of a value that is not finite.
//
// NewScaler reads the rows once, a block at a time, and holds 56 bytes for
// each column, of which the Scaler keeps 16 of dense rows and 8 of sparse
// ones, and checks them first. It takes Welford's running mean and sum of
// squared deviations of each column of values divided by a power of two
// near the column's largest magnitude, so that they cannot overflow however
// large the values are; a column whose values span more than 2^200, as no
// data set's do, it reads a second time.
func NewScaler(X mat.Matrix) (*Scaler, error) {
	if X == nil {
		return nil, errorf(perceptron.ErrShape, "data: no rows to scale by: X is nil")
	}
	n, d := X.Dims()
	if n == 0 {
		return nil, errorf(perceptron.ErrShape, "data: no rows to scale by")
	}
	if err := checkMemory(56*float64(d), "data: scaling %d columns", d); err != nil {
		return nil, err
	}
	w := newColumns(X)
	w.onePass()
	return w.scaler(w.sparse != nil)
}

// NewScalerRows returns the Scaler of the columns of the rows, dense or
// sparse, as NewScaler returns that of a Set of them, to the bit, and its
// errors: of cols columns, or of those of the rows if they have more, as
// when cols is 0, the largest column of a sparse row. It reads the rows
// once, and a second time for the columns that NewScaler reads a second
// time, and holds what NewScaler holds.
func NewScalerRows(rows iter.Seq2[Row, error], cols int) (*Scaler, error) {
	w := &columns{}
	if cols > 0 {
		if err := w.grow(Row{Ind: []int{cols - 1}, Val: []float64{0}}, true); err != nil {
			return nil, err
		}
	}
	sparse := false
	for row, err := range rows {
		if err != nil {
			return nil, err
		}
		if w.n == 0 {
			sparse = row.Ind != nil
		}
		if err := w.grow(row, sparse); err != nil {
			return nil, err
		}
		w.addRow(row)
		w.n++
	}
	if w.n == 0 {
		return nil, errorf(perceptron.ErrShape, "data: no rows to scale by")
	}
	if again := w.again(); again != nil && !w.bad {
		for row, err := range rows {
			if err != nil {
				return nil, err
			}
			for k, v := range row.Val {
				if j := rowCol(row, k); again[j] {
					w.add(j, v)
				}
			}
		}
	}
	return w.scaler(sparse)
}

// Transform returns the rows of X standardised: a new *mat.Dense of dense
// X, or a new *perceptron.CSR of sparse X, which only a Scaler without
// Mean takes. It returns an error if s is not a Scaler that NewScaler could
// return (Scale of finite non-zero values, Mean nil or of finite values as
// many), if X is nil or has not the Scaler's columns, or naming the row
// and the column of the first value that is not finite or that
// standardising makes overflow.
//
// Transform holds the rows it returns, and checks their memory first: 8 bytes
// for each value of dense rows, or 16 bytes for each non-zero and 8 bytes for
// each row of sparse ones.
func (s *Scaler) Transform(X mat.Matrix) (mat.Matrix, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if X == nil {
		return nil, errorf(perceptron.ErrShape, "data: no rows to transform: X is nil")
	}
	if err := s.fits(X); err != nil {
		return nil, err
	}
	return transformRows(X, 0, s, false, false, nil)
}

// fits returns an error if the Scaler, checked, does not take the rows X:
// rows of other columns, or rows that are not sparse for a Scaler of
// sparse rows.
func (s *Scaler) fits(X mat.Matrix) error {
	if _, d := X.Dims(); d != len(s.Scale) {
		return errorf(perceptron.ErrShape, "data: %d columns, want %d, the scaler's", d, len(s.Scale))
	}
	if _, sparse := X.(mat.RowNonZeroDoer); s.Mean == nil && !sparse && !isDense(X) {
		return errorf(perceptron.ErrShape, "data: a Scaler of sparse rows transforms sparse rows")
	}
	return nil
}

// transformRows returns the rows of X with the values of each column scaled
// by s, if it is not nil, and then each row scaled to unit length if unit
// is set: dense rows in a new *mat.Dense, or in place if inPlace is set and
// X is read through its raw data, and sparse rows, a mat.RowNonZeroDoer
// that is not, in a new *perceptron.CSR, or in place if inPlace is set and
// X is a *perceptron.CSR, unless the Scaler centres them, which fills their
// zeros, into a new *mat.Dense. It returns an error naming the row and the
// column of the first value that is not finite or that scaling makes so, or
// of a row whose length overflows: rows are numbered from first+1. Rows it
// transformed in place before an error stay so, and the row of the error
// may be in part. If acc is not nil, it adds each row to it before it
// transforms the row, as statsOf reads it.
//
// It checks the memory of the rows it makes first: 8 bytes for each value
// of dense rows, or 16 bytes for each non-zero and 8 bytes for each row of
// sparse ones.
func transformRows(X mat.Matrix, first int, s *Scaler, unit, inPlace bool, acc *rowAcc) (mat.Matrix, error) {
	n, d := X.Dims()
	what := "normalising"
	var mean, scale []float64
	if s != nil {
		what, mean, scale = "standardising", s.Mean, s.Scale
	}
	bad := func(i, j int, v float64) error {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return errorAt(perceptron.ErrNonFinite, 0, first+i, j, "data: row %d, column %d: %v, want a finite value", first+i+1, j+1, v)
		}
		return errorAt(perceptron.ErrNonFinite, 0, first+i, j, "data: row %d, column %d: %s overflows (the value is %v)", first+i+1, j+1, what, v)
	}
	// row scales the values of a row of columns ind, or of every column if
	// ind is nil, from src into dst, which may be src.
	row := func(i int, ind []int, src, dst []float64) error {
		if acc != nil {
			acc.add(src)
		}
		switch {
		case mean != nil:
			for j, v := range src {
				// A scale of 0 or not finite, or a mean not finite, makes
				// w or 1/scale not finite: then the Scaler is the fault.
				w := (v - mean[j]) / scale[j]
				if w-w != 0 || 1/scale[j] == 0 {
					return s.bad(j, bad(i, j, v))
				}
				dst[j] = w
			}
		case scale != nil && ind == nil:
			scale := scale[:len(src)]
			for j, v := range src {
				w := v / scale[j]
				if w-w != 0 || 1/scale[j] == 0 {
					return s.bad(j, bad(i, j, v))
				}
				dst[j] = w
			}
		case scale != nil:
			for k, v := range src {
				w := v / scale[ind[k]]
				if w-w != 0 || 1/scale[ind[k]] == 0 {
					return s.bad(ind[k], bad(i, ind[k], v))
				}
				dst[k] = w
			}
		default:
			for k, v := range src {
				if v-v != 0 {
					j := k
					if ind != nil {
						j = ind[k]
					}
					return bad(i, j, v)
				}
				dst[k] = v
			}
		}
		if unit {
			if err := normalize(dst); err != nil {
				return wrapAt(err, 0, first+i, -1, "data: row %d: %w", first+i+1, err)
			}
		}
		return nil
	}
	if c, ok := X.(*perceptron.CSR); ok && inPlace && mean == nil {
		ptr, ind, val := c.RawCSR()
		for i := range n {
			lo, hi := ptr[i], ptr[i+1]
			if err := row(i, ind[lo:hi], val[lo:hi], val[lo:hi]); err != nil {
				return nil, err
			}
		}
		return X, nil
	}
	if m, ok := X.(mat.RowNonZeroDoer); ok && mean == nil && !isDense(X) {
		nnz := 0
		if c, ok := X.(interface{ NNZ() int }); ok {
			nnz = c.NNZ()
		} else {
			for i := range n {
				m.DoRowNonZero(i, func(_, _ int, _ float64) { nnz++ })
			}
		}
		if err := checkMemory(16*float64(nnz)+8*float64(n+1), "data: %s %d sparse rows of %d non-zeros", what, n, nnz); err != nil {
			return nil, err
		}
		ptr := make([]int, 1, n+1)
		ind, val := make([]int, 0, nnz), make([]float64, 0, nnz)
		for i := range n {
			m.DoRowNonZero(i, func(_, j int, v float64) {
				ind = append(ind, j)
				val = append(val, v)
			})
			lo := ptr[i]
			if err := row(i, ind[lo:], val[lo:], val[lo:]); err != nil {
				return nil, err
			}
			ptr = append(ptr, len(ind))
		}
		return perceptron.NewCSR(n, d, ptr, ind, val)
	}
	raw, _ := X.(mat.RawMatrixer)
	if inPlace && raw != nil {
		for i := range n {
			r := denseRow(X, raw, i, nil)
			if err := row(i, nil, r, r); err != nil {
				return nil, err
			}
		}
		return X, nil
	}
	if err := checkMemory(8*float64(n)*float64(d), "data: %s %d rows of %d columns", what, n, d); err != nil {
		return nil, err
	}
	if n == 0 || d == 0 {
		return mat.NewDense(1, max(d, 1), nil).Slice(0, 0, 0, d), nil // gonum makes no Dense of no rows
	}
	out := mat.NewDense(n, d, nil)
	var buf []float64
	for i := range n {
		r := denseRow(X, raw, i, buf)
		if raw == nil {
			buf = r
		}
		if err := row(i, nil, r, out.RawRowView(i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// check returns an error if s is not a Scaler that NewScaler could return.
func (s *Scaler) check() error {
	if err := s.checkShape(); err != nil {
		return err
	}
	for j := range s.Scale {
		if err := s.checkColumn(j); err != nil {
			return err
		}
	}
	return nil
}

// checkShape returns an error if s is nil or has not as many means as
// scales, or none: what check finds without reading the values, which
// the transforms of rows check as they use them.
func (s *Scaler) checkShape() error {
	switch {
	case s == nil:
		return errorf(perceptron.ErrSetting, "data: the Scaler is nil")
	case s.Mean != nil && len(s.Mean) != len(s.Scale):
		return errorf(perceptron.ErrShape, "data: the Scaler has %d means and %d scales, want as many", len(s.Mean), len(s.Scale))
	}
	return nil
}

// checkColumn returns an error if the scale of column j is not a finite
// value other than 0, or its mean, if any, not a finite value.
func (s *Scaler) checkColumn(j int) error {
	switch v := s.Scale[j]; {
	case math.IsInf(v, 0) || math.IsNaN(v):
		return errorf(perceptron.ErrNonFinite, "data: the Scaler's Scale[%d] is %v, want a finite value other than 0", j, v)
	case v == 0:
		return errorf(perceptron.ErrSetting, "data: the Scaler's Scale[%d] is 0, want a finite value other than 0", j)
	}
	if s.Mean != nil {
		if v := s.Mean[j]; math.IsInf(v, 0) || math.IsNaN(v) {
			return errorf(perceptron.ErrNonFinite, "data: the Scaler's Mean[%d] is %v, want a finite value", j, v)
		}
	}
	return nil
}

// bad returns the error of a value of column j that the transform of a
// row made not finite, err, unless the Scaler's own numbers of column j
// are at fault, whose error it returns then.
func (s *Scaler) bad(j int, err error) error {
	if cerr := s.checkColumn(j); cerr != nil {
		return cerr
	}
	return err
}
