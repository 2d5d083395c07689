// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"errors"
	"fmt"
	"iter"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
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
		return nil, errors.New("data: no rows to scale by: X is nil")
	}
	n, d := X.Dims()
	if n == 0 {
		return nil, errors.New("data: no rows to scale by")
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
		return nil, errors.New("data: no rows to scale by")
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

// grow makes room for the columns of the row, all of them if the rows are
// dense, and returns an error if the row is not as the rows before, or if
// the columns do not fit in the memory left.
func (w *columns) grow(row Row, sparse bool) error {
	d := len(row.Val)
	switch {
	case sparse != (row.Ind != nil):
		return fmt.Errorf("data: line %d: a row dense or sparse where the rows before are not", row.Line)
	case sparse && d > 0:
		d = row.Ind[d-1] + 1
	case !sparse && d != w.d && (w.n > 0 || w.d > 0):
		return errorf(perceptron.ErrShape, "data: line %d: a row of %d values, want %d", row.Line, d, w.d)
	}
	if d <= w.d {
		return nil
	}
	if err := checkMemory(56*float64(d-w.d), "data: scaling %d columns", d); err != nil {
		return err
	}
	more := d - w.d
	w.big = append(w.big, make([]uint64, more)...)
	w.mean = append(w.mean, make([]float64, more)...)
	w.m2 = append(w.m2, make([]float64, more)...)
	w.count = append(w.count, make([]float64, more)...)
	w.exp = append(w.exp, make([]int, more)...)
	for range more {
		w.small = append(w.small, math.Float64bits(math.Inf(1)))
		w.pow = append(w.pow, 1)
	}
	w.d = d
	return nil
}

// rowCol returns the column of value k of the row.
func rowCol(row Row, k int) int {
	if row.Ind == nil {
		return k
	}
	return row.Ind[k]
}

// addRow adds the values of the row to the moments, as onePass adds those
// of the last row of a block: its magnitudes, and then its values, by the
// power of two of the largest magnitude so far.
func (w *columns) addRow(row Row) {
	for k, v := range row.Val {
		j := rowCol(row, k)
		a := math.Float64bits(v) &^ (1 << 63)
		if a > w.big[j] {
			w.big[j] = a
			if _, e := math.Frexp(math.Float64frombits(a)); e != w.exp[j] {
				w.mean[j] = math.Ldexp(w.mean[j], w.exp[j]-e)
				w.m2[j] = math.Ldexp(w.m2[j], 2*(w.exp[j]-e))
				w.setExp(j, e)
			}
		}
		if a-1 < w.small[j]-1 {
			w.small[j] = a
		}
	}
	for k, v := range row.Val {
		w.add(rowCol(row, k), v)
	}
}

// scaler returns the Scaler of the moments of the columns of all the rows,
// of sparse rows if sparse is set, or an error naming the first column of a
// value that is not finite.
func (w *columns) scaler(sparse bool) (*Scaler, error) {
	if w.bad {
		// The first column of a value that is not finite.
		for j, b := range w.big {
			if b >= math.Float64bits(math.Inf(1)) {
				return nil, errorf(perceptron.ErrNonFinite, "data: column %d: a value is not finite", j+1)
			}
		}
	}
	s := &Scaler{Mean: w.mean, Scale: w.m2}
	mean, m2, count := w.mean, w.m2, w.count
	// The zeros a sparse column leaves out join its non-zeros.
	total := float64(w.n)
	for j := range w.d {
		if zeros := total - count[j]; zeros > 0 && count[j] > 0 {
			m2[j] += mean[j] * mean[j] * count[j] * zeros / total
			mean[j] = mean[j] * count[j] / total
		}
	}
	for j := range w.d {
		mean[j] = math.Ldexp(mean[j], w.exp[j])
		s.Scale[j] = math.Ldexp(math.Sqrt(m2[j]/total), w.exp[j])
		if s.Scale[j] == 0 {
			s.Scale[j] = 1
		}
	}
	if sparse {
		s.Mean = nil
	}
	return s, nil
}

// columns are the running means and sums of squared deviations of the
// columns of rows, as NewScaler takes them: Welford's, of each value divided
// by 2^exp of its column, where exp is the exponent of the column's largest
// magnitude, as math.Frexp gives it.
//
// The rows read so far give the largest magnitude so far, which a later row
// may raise: the moments so far are then those of a smaller power of two,
// and multiplied by the powers of two between, of the mean and of the sum of
// squares, they are those of the larger, to the bit. For the rounding of a
// sum, a difference, a product or a quotient of float64 values, and of a
// value divided by a power of two, is the same at any scale, a power of two
// apart, where the results are normal numbers: the moments of one power are
// those of the other wherever no result of either is subnormal, and none
// overflows, as neither can with the values at most 1 in magnitude.
//
// The results of Welford's steps are subnormal only for values that span a
// range that data do not: a sum or a difference that cancels gives a result
// of at least 2^-53 of its terms, and a mean that such a sum makes tiny,
// less than the smallest magnitude over the rows, cannot cancel again; the
// zeros of a column shrink its mean by the share of its rows at most. With
// the smallest magnitude of a column m, divided by its power, and n rows,
// every mean, difference and quotient that is not zero is at least
// m·2^-107/n³, and every product and sum of squares its square; for n up
// to 2^40 and m at least 2^-200, at least 2^-1010. A column of values of a
// smaller m, onePass takes again, by the power of its largest magnitude
// from the start.
type columns struct {
	X      mat.Matrix
	dense  mat.RawMatrixer    // X, if it is read through its raw data
	sparse mat.RowNonZeroDoer // X, if its rows are sparse
	n, d   int

	big, small      []uint64  // the bits of the largest magnitude of each column, and of the smallest other than 0
	mean, m2, count []float64 // for each column
	exp             []int
	pow             []float64 // 2^-exp, or 0 where float64 holds no such power
	bad             bool      // whether a value is not finite
}

// newColumns returns the moments of the columns of no rows of X.
func newColumns(X mat.Matrix) *columns {
	n, d := X.Dims()
	w := &columns{X: X, n: n, d: d,
		big: make([]uint64, d), small: make([]uint64, d), mean: make([]float64, d), m2: make([]float64, d),
		count: make([]float64, d), exp: make([]int, d), pow: make([]float64, d)}
	if m, ok := X.(mat.RawMatrixer); ok {
		w.dense = m
	} else if m, ok := X.(mat.RowNonZeroDoer); ok {
		w.sparse = m
	}
	for j := range w.pow {
		w.pow[j] = 1
		w.small[j] = math.Float64bits(math.Inf(1))
	}
	return w
}

// row returns row i of dense rows, as denseRow does.
func (w *columns) row(i int, buf []float64) []float64 {
	return denseRow(w.X, w.dense, i, buf)
}

// denseRow returns row i of X, in place if raw, X's raw data, is not nil,
// and otherwise in buf, or a new slice if buf is nil, which it returns.
func denseRow(X mat.Matrix, raw mat.RawMatrixer, i int, buf []float64) []float64 {
	if raw != nil {
		m := raw.RawMatrix()
		return m.Data[i*m.Stride : i*m.Stride+m.Cols]
	}
	return mat.Row(buf, i, X)
}

// setExp sets the power of two of column j to 2^e.
func (w *columns) setExp(j, e int) {
	w.exp[j] = e
	w.pow[j] = 0
	if e >= -1023 && e <= 1074 {
		w.pow[j] = math.Ldexp(1, -e)
	}
}

// onePass takes the moments in one pass over the rows, a block of rows at a
// time: the largest and the smallest magnitudes of a block, then its values,
// while the block is in the cache. Then it takes again the columns whose
// smallest magnitude is too small for their moments to be those of their
// power of two, reading the rows a second time for them.
func (w *columns) onePass() {
	block := max(1, (256<<10)/(8*max(w.d, 1)))
	var buf []float64
	for lo := 0; lo < w.n; lo += block {
		hi := min(w.n, lo+block)
		w.magnitudes(lo, hi, &buf)
		for j, b := range w.big {
			if _, e := math.Frexp(math.Float64frombits(b)); e != w.exp[j] {
				// Moments of the new power, the larger.
				w.mean[j] = math.Ldexp(w.mean[j], w.exp[j]-e)
				w.m2[j] = math.Ldexp(w.m2[j], 2*(w.exp[j]-e))
				w.setExp(j, e)
			}
		}
		w.sums(lo, hi, &buf, nil)
	}
	if again := w.again(); again != nil && !w.bad {
		w.sums(0, w.n, &buf, again)
	}
}

// again returns the columns whose moments are to be taken again, from the
// start, in a second pass over the rows, which it sets to none: those whose
// smallest magnitude is too small for their moments to be those of their
// power of two, or every column of more than 2^40 rows; or nil if there
// are none, or if a value is not finite, which it then notes in bad.
func (w *columns) again() []bool {
	// A value that is not finite makes its column's largest magnitude so.
	for _, b := range w.big {
		if b >= math.Float64bits(math.Inf(1)) {
			w.bad = true
			return nil
		}
	}
	var again []bool
	for j, b := range w.small {
		if s := math.Float64frombits(b); !math.IsInf(s, 1) && (math.Ldexp(s, -w.exp[j]) < 0x1p-200 || w.n > 1<<40) {
			if again == nil {
				again = make([]bool, w.d)
			}
			again[j] = true
			w.count[j], w.mean[j], w.m2[j] = 0, 0, 0
		}
	}
	return again
}

// magnitudes takes the largest and the smallest magnitude of each column
// over rows lo to hi-1. It compares their bits, as those of float64 values
// of one sign are in the order of the values, with NaN's beyond the
// infinity's, and 0's, less 1, beyond all.
func (w *columns) magnitudes(lo, hi int, buf *[]float64) {
	big, small := w.big, w.small
	if w.sparse != nil {
		for i := lo; i < hi; i++ {
			w.sparse.DoRowNonZero(i, func(_, j int, v float64) {
				a := math.Float64bits(v) &^ (1 << 63)
				if a > big[j] {
					big[j] = a
				}
				if a-1 < small[j]-1 {
					small[j] = a
				}
			})
		}
		return
	}
	for i := lo; i < hi; i++ {
		row := w.row(i, *buf)
		*buf = row
		big, small := big[:len(row)], small[:len(row)]
		for j, v := range row {
			a := math.Float64bits(v) &^ (1 << 63)
			if a > big[j] {
				big[j] = a
			}
			if a-1 < small[j]-1 {
				small[j] = a
			}
		}
	}
}

// sums adds the values of rows lo to hi-1 to the moments, of every column
// or of those that only says, if it is not nil.
func (w *columns) sums(lo, hi int, buf *[]float64, only []bool) {
	if w.sparse != nil {
		for i := lo; i < hi; i++ {
			w.sparse.DoRowNonZero(i, func(_, j int, v float64) {
				if only == nil || only[j] {
					w.add(j, v)
				}
			})
		}
		return
	}
	if only != nil {
		for i := lo; i < hi; i++ {
			row := w.row(i, *buf)
			*buf = row
			for j, v := range row {
				if only[j] {
					w.add(j, v)
				}
			}
		}
		return
	}
	mean, m2, count, pow := w.mean, w.m2, w.count, w.pow
	for i := lo; i < hi; i++ {
		row := w.row(i, *buf)
		*buf = row
		mean, m2, count, pow := mean[:len(row)], m2[:len(row)], count[:len(row)], pow[:len(row)]
		for j, v := range row {
			if p := pow[j]; p != 0 {
				v *= p // exactly math.Ldexp(v, -w.exp[j]), rounded once
			} else {
				v = math.Ldexp(v, -w.exp[j])
			}
			count[j]++
			delta := v - mean[j]
			mean[j] += delta / count[j]
			m2[j] += delta * (v - mean[j])
		}
	}
}

// add adds the value v of column j to the moments, as sums does.
func (w *columns) add(j int, v float64) {
	if p := w.pow[j]; p != 0 {
		v *= p
	} else {
		v = math.Ldexp(v, -w.exp[j])
	}
	w.count[j]++
	delta := v - w.mean[j]
	w.mean[j] += delta / w.count[j]
	w.m2[j] += delta * (v - w.mean[j])
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
		return nil, errors.New("data: no rows to transform: X is nil")
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
		return errors.New("data: a Scaler of sparse rows transforms sparse rows")
	}
	return nil
}

// transformRows returns the rows of X with the values of each column
// scaled by s, if it is not nil, and then each row scaled to unit length if
// unit is set: dense rows in a new *mat.Dense, or in place if inPlace
// is set and X is read through its raw data, and sparse rows, a
// mat.RowNonZeroDoer that is not, in a new *perceptron.CSR, unless the
// Scaler centres them, which fills their zeros, into a new *mat.Dense. It
// returns an error naming the row and the column of the first value that
// is not finite or that scaling makes so, or of a row whose length
// overflows: rows are numbered from first+1. Rows it transformed in place
// before an error stay so. If acc is not nil, it adds each row to it before
// it transforms the row, as statsOf reads it.
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
			return errorf(perceptron.ErrNonFinite, "data: row %d, column %d: %v, want a finite value", first+i+1, j+1, v)
		}
		return errorf(perceptron.ErrNonFinite, "data: row %d, column %d: %s overflows (the value is %v)", first+i+1, j+1, what, v)
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
				return fmt.Errorf("data: row %d: %w", first+i+1, err)
			}
		}
		return nil
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
		return errors.New("data: the Scaler is nil")
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

// rowOf returns row i of X: in place for a *mat.Dense, and a copy
// otherwise.
func rowOf(X mat.Matrix, i int) []float64 {
	if m, ok := X.(*mat.Dense); ok {
		return m.RawRowView(i)
	}
	return mat.Row(nil, i, X)
}
