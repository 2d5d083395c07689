// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"math"

	"github.com/seed5ae3614e/perceptron"
	"gonum.org/v1/gonum/mat"
)

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
		if s := math.Float64frombits(b); !math.IsInf(s, 1) && (math.Ldexp(s, -w.exp[j]) < 0x1p-200 || int64(w.n) > 1<<40) {
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

// grow makes room for the columns of the row, all of them if the rows are
// dense, and returns an error if the row is not as the rows before, or if
// the columns do not fit in the memory left.
func (w *columns) grow(row Row, sparse bool) error {
	d := len(row.Val)
	switch {
	case sparse != (row.Ind != nil):
		return errorAt(perceptron.ErrShape, row.Line, -1, -1, "data: line %d: a row dense or sparse where the rows before are not", row.Line)
	case sparse && d > 0:
		d = row.Ind[d-1] + 1
	case !sparse && d != w.d && (w.n > 0 || w.d > 0):
		return errorAt(perceptron.ErrShape, row.Line, -1, -1, "data: line %d: a row of %d values, want %d", row.Line, d, w.d)
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
				return nil, errorAt(perceptron.ErrNonFinite, 0, -1, j, "data: column %d: a value is not finite", j+1)
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
