// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// The rows of a dataset are a *mat.Dense, or a *perceptron.CSR for a
// sparse file, which the command never densifies whole: text has hundreds
// of thousands of features, almost all of them zero in any row. The
// helpers here take either.

// copyCSR returns the rows of m that rows lists, in its order, or all of
// them if rows is nil, in a new matrix of c columns, c being at least
// those of m. If scale is not nil, each value of column j is divided by
// scale[j]; the error is that of a value that overflows.
func copyCSR(m *perceptron.CSR, rows []int, c int, scale []float64) (*perceptron.CSR, error) {
	n, _ := m.Dims()
	if rows != nil {
		n = len(rows)
	}
	row := func(k int) int {
		if rows == nil {
			return k
		}
		return rows[k]
	}
	nnz := m.NNZ()
	if rows != nil {
		nnz = 0
		for _, i := range rows {
			m.DoRowNonZero(i, func(_, _ int, _ float64) { nnz++ })
		}
	}
	ptr := make([]int, 1, n+1)
	ind := make([]int, 0, nnz)
	val := make([]float64, 0, nnz)
	for k := range n {
		m.DoRowNonZero(row(k), func(_, j int, v float64) {
			if scale != nil {
				v /= scale[j]
			}
			ind = append(ind, j)
			val = append(val, v)
		})
		ptr = append(ptr, len(ind))
	}
	return perceptron.NewCSR(n, c, ptr, ind, val)
}

// subCSR returns the rows of m that rows lists, or all of them if rows is
// nil, in a new matrix of c columns, c being at least those of m.
func subCSR(m *perceptron.CSR, rows []int, c int) *perceptron.CSR {
	sub, err := copyCSR(m, rows, c, nil)
	if err != nil {
		// The rows of a valid matrix make one.
		panic(err)
	}
	return sub
}

// denseOf returns the sparse rows m as dense rows, for the few places that
// need them, each of which guards against a matrix too large to hold.
func denseOf(m *perceptron.CSR) *mat.Dense {
	n, c := m.Dims()
	X := mat.NewDense(n, c, nil)
	for i := range n {
		x := X.RawRowView(i)
		m.DoRowNonZero(i, func(_, j int, v float64) { x[j] = v })
	}
	return X
}

// takeRows returns the rows of X that rows lists, in its order, in a new
// matrix of the same kind.
func takeRows(X mat.Matrix, rows []int) mat.Matrix {
	_, c := X.Dims()
	if m, ok := X.(*perceptron.CSR); ok {
		return subCSR(m, rows, c)
	}
	D := X.(*mat.Dense)
	T := mat.NewDense(len(rows), c, nil)
	for k, i := range rows {
		T.SetRow(k, D.RawRowView(i))
	}
	return T
}

// rowRange returns rows lo to hi-1 of X: dense rows in place, sparse rows
// copied.
func rowRange(X mat.Matrix, lo, hi int) mat.Matrix {
	_, c := X.Dims()
	m, ok := X.(*perceptron.CSR)
	if !ok {
		return X.(*mat.Dense).Slice(lo, hi, 0, c)
	}
	rows := make([]int, hi-lo)
	for k := range rows {
		rows[k] = lo + k
	}
	return subCSR(m, rows, c)
}

// widen returns the sparse rows of ds with d columns: a sparse file has
// as many features as its largest index, and its rows are zero beyond.
func widen(ds *dataset, d int) *dataset {
	if _, c := ds.X.Dims(); c == d {
		return ds
	}
	w := *ds
	w.X = subCSR(ds.X.(*perceptron.CSR), nil, d)
	return &w
}

// isSparse reports whether X is sparse.
func isSparse(X mat.Matrix) bool {
	_, ok := X.(*perceptron.CSR)
	return ok
}

// nonZeros returns, for sparse rows X, their non-zeros and the fraction of
// the elements that they are, as ", 901234 non-zeros (0.032%)": two
// significant figures of a fraction that text makes small. It returns ""
// for dense rows.
func nonZeros(X mat.Matrix) string {
	m, ok := X.(*perceptron.CSR)
	if !ok {
		return ""
	}
	n, d := m.Dims()
	p := 100 * float64(m.NNZ()) / (float64(n) * float64(d))
	prec := 2
	if p > 0 && p < 1 {
		prec = 1 - int(math.Floor(math.Log10(p)))
	}
	return fmt.Sprintf(", %s (%s%%)", plural(m.NNZ(), "non-zero"), strconv.FormatFloat(p, 'f', prec, 64))
}
