// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"iter"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// NewIDF returns the Scaler that weighs each column of X by its inverse
// document frequency, as scikit-learn's TfidfTransformer does by default:
// idf = ln((1+n)/(1+df)) + 1, where n is the number of rows of X and df
// the number of rows in which the column is not zero, so that a column of
// few rows weighs more than one of many. The Scaler has no Mean, and its
// Scale is 1/idf, by which Transform divides: it keeps the zeros of sparse
// rows. NewIDF returns an error if X is nil or has no rows.
//
// NewIDF reads the rows once, and holds 8 bytes for each column, which the
// Scaler keeps, and checks them first.
func NewIDF(X mat.Matrix) (*Scaler, error) {
	if X == nil {
		return nil, errorf(perceptron.ErrShape, "data: no rows to weigh by: X is nil")
	}
	n, d := X.Dims()
	if n == 0 {
		return nil, errorf(perceptron.ErrShape, "data: no rows to weigh by")
	}
	if err := checkMemory(8*float64(d), "data: weighing %d columns", d); err != nil {
		return nil, err
	}
	df := make([]float64, d)
	if m, ok := X.(mat.RowNonZeroDoer); ok && !isDense(X) {
		for i := range n {
			m.DoRowNonZero(i, func(_, j int, v float64) {
				if v != 0 {
					df[j]++
				}
			})
		}
	} else {
		raw, _ := X.(mat.RawMatrixer)
		var buf []float64
		for i := range n {
			row := denseRow(X, raw, i, buf)
			buf = row
			df := df[:len(row)]
			for j, v := range row {
				if v != 0 {
					df[j]++
				}
			}
		}
	}
	return &Scaler{Scale: idf(df, n)}, nil
}

// NewIDFRows returns the Scaler that weighs each column of the rows by its
// inverse document frequency, as NewIDF returns that of a Set of them, and
// its errors: of cols columns, or of those of the rows if they have more,
// as NewScalerRows has them. It reads the rows once, and holds 8 bytes for
// each column.
func NewIDFRows(rows iter.Seq2[Row, error], cols int) (*Scaler, error) {
	if err := checkMemory(8*float64(cols), "data: weighing %d columns", cols); err != nil {
		return nil, err
	}
	df := make([]float64, cols)
	n := 0
	for row, err := range rows {
		if err != nil {
			return nil, err
		}
		d := len(row.Val)
		if row.Ind != nil && d > 0 {
			d = row.Ind[d-1] + 1
		}
		if d > len(df) {
			if err := checkMemory(8*float64(d), "data: weighing %d columns", d); err != nil {
				return nil, err
			}
			df = append(df, make([]float64, d-len(df))...)
		}
		for k, v := range row.Val {
			if v != 0 {
				df[rowCol(row, k)]++
			}
		}
		n++
	}
	if n == 0 {
		return nil, errorf(perceptron.ErrShape, "data: no rows to weigh by")
	}
	return &Scaler{Scale: idf(df, n)}, nil
}

// idf returns df, the rows of n in which each column is not zero, as the
// inverse of the weight of each column.
func idf(df []float64, n int) []float64 {
	for j, f := range df {
		df[j] = inverseIDF(n, f)
	}
	return df
}

// NewIDFCounts returns the Scaler that NewIDF returns for rows of which n
// are counted and df[j] are not zero in column j, to the bit. The counts of
// parts of the rows add up to those of all of them, so that the Scaler of
// rows read in parts, as shards on machines of their own, is NewIDF's of
// their union. It returns an error if n is less than 1, or naming the
// column of a count that is negative or more than n.
//
// NewIDFCounts holds 8 bytes for each column, which the Scaler keeps, and
// checks them first.
func NewIDFCounts(n int, df []int) (*Scaler, error) {
	if n < 1 {
		return nil, errorf(perceptron.ErrShape, "data: no rows to weigh by")
	}
	for j, f := range df {
		if f < 0 || f > n {
			return nil, errorAt(perceptron.ErrSetting, 0, -1, j, "data: column %d: a count of %d rows, want 0 to %d", j+1, f, n)
		}
	}
	if err := checkMemory(8*float64(len(df)), "data: weighing %d columns", len(df)); err != nil {
		return nil, err
	}
	scale := make([]float64, len(df))
	for j, f := range df {
		scale[j] = inverseIDF(n, float64(f))
	}
	return &Scaler{Scale: scale}, nil
}

// idfCounts returns the counts of the rows in which each column is not
// zero from which NewIDFCounts makes the scales of s of n rows, to the
// bit, or nil if s has means or no such counts give its scales.
func idfCounts(s *Scaler, n int) ([]int, error) {
	if s.Mean != nil || n < 1 {
		return nil, nil
	}
	if err := checkMemory(8*float64(len(s.Scale)), "data: counting %d columns", len(s.Scale)); err != nil {
		return nil, err
	}
	df := make([]int, len(s.Scale))
	for j, v := range s.Scale {
		// inverseIDF solved for df, then the integers around it tried.
		f := (1+float64(n))/math.Exp(1/v-1) - 1
		if !(f > -1 && f < float64(n)+1) { // NaN too
			return nil, nil
		}
		c := int(math.Round(f))
		switch {
		case c >= 0 && c <= n && inverseIDF(n, float64(c)) == v:
		case c > 0 && inverseIDF(n, float64(c-1)) == v:
			c--
		case c < n && inverseIDF(n, float64(c+1)) == v:
			c++
		default:
			return nil, nil
		}
		df[j] = c
	}
	return df, nil
}

// inverseIDF returns the inverse of the inverse document frequency of a
// column not zero in df of n rows.
func inverseIDF(n int, df float64) float64 {
	return 1 / (math.Log((1+float64(n))/(1+df)) + 1)
}
