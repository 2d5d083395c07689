// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"math"

	"github.com/seed5ae3614e/perceptron"
	"gonum.org/v1/gonum/mat"
)

// Set is a data set: rows of features, and their classes.
type Set struct {
	// X holds the rows, one sample in each row: a *mat.Dense, or a
	// *perceptron.CSR for the sparse rows of LIBSVM and Text.
	X mat.Matrix

	// Y holds the class of each row, as an index into Classes, or is nil
	// if the rows were read without their labels.
	Y []float64

	// Classes holds the names of the classes: the labels as the data
	// write them.
	Classes []string

	// Features names the columns of X, as a CSV header does, or is nil.
	Features []string

	// Dropped is the number of values that a reader of a fixed width left
	// out, as they were in columns beyond it.
	Dropped int

	// Weights, if not nil, holds the weight of each row, a finite value
	// >= 0, by which Model's Fit and Learn weigh the step of a mistake on
	// the row, as perceptron.FitContext does; nil weighs every row 1.
	// Subset and Rows keep the weights of their rows.
	Weights []float64
}

// check returns an error if s is not a Set that the functions of the
// package take: a nil Set or X, Y that is not nil and not the class of
// each row of X, a whole number that indexes Classes, or Weights that are
// not nil and not a finite weight >= 0 for each row. The errors of Y and
// Weights are of kinds perceptron.ErrShape and perceptron.ErrNonFinite.
func (s *Set) check() error {
	return s.checkRows(0, -1)
}

// checkRows is check with the classes of Y and the Weights checked from
// row lo to hi-1 alone, or to the end if hi is negative.
func (s *Set) checkRows(lo, hi int) error {
	switch {
	case s == nil:
		return errorf(perceptron.ErrShape, "data: the Set is nil")
	case s.X == nil:
		return errorf(perceptron.ErrShape, "data: the Set has no rows: X is nil")
	}
	n, _ := s.X.Dims()
	if hi < 0 {
		hi = n
	}
	if s.Weights != nil {
		if len(s.Weights) != n {
			return errorf(perceptron.ErrShape, "data: Weights has %d weights and X %d rows, want one a row", len(s.Weights), n)
		}
		for i, w := range s.Weights[lo:hi] {
			i += lo
			switch {
			case math.IsNaN(w) || math.IsInf(w, 0):
				return errorAt(perceptron.ErrNonFinite, 0, i, -1, "data: Weights[%d] is %v, want a finite weight >= 0", i, w)
			case w < 0:
				return errorAt(perceptron.ErrSetting, 0, i, -1, "data: Weights[%d] is %v, want a finite weight >= 0", i, w)
			}
		}
	}
	if s.Y == nil {
		return nil
	}
	if len(s.Y) != n {
		return errorf(perceptron.ErrShape, "data: Y has %d classes and X %d rows, want one a row", len(s.Y), n)
	}
	k := len(s.Classes)
	for i, y := range s.Y[lo:hi] {
		i += lo
		switch {
		case math.IsNaN(y) || math.IsInf(y, 0):
			return errorAt(perceptron.ErrNonFinite, 0, i, -1, "data: Y[%d] is %v, want a class: an index into Classes", i, y)
		case k == 0:
			return errorAt(perceptron.ErrLabels, 0, i, -1, "data: Y[%d] is %v, and Classes is empty: want a class for each index of Y", i, y)
		case y != math.Trunc(y) || y < 0 || y >= float64(k):
			return errorAt(perceptron.ErrLabels, 0, i, -1, "data: Y[%d] is %v, want a class: a whole number from 0 to %d, an index into the %d Classes", i, y, k-1, k)
		}
	}
	return nil
}
