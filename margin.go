// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// FunctionalMargin returns the functional margin of the hyperplane
// w·x+b = 0 on the rows of X with labels y: the least y_i(w·x_i+b). It is
// negative if the hyperplane puts a row on the wrong side.
//
// It returns an error, as the margin functions and losses below do, if X
// and y are not valid as Fit requires, if a label is not -1 or +1, if
// len(w) is not the number of columns, or if w or b is not finite.
func FunctionalMargin(X mat.Matrix, y, w []float64, b float64) (float64, error) {
	ds, err := hyperplaneData(X, y, w, b)
	if err != nil {
		return 0, err
	}
	return ds.functionalMargin(w, b)
}

// GeometricMargin returns the geometric margin of the hyperplane w·x+b = 0
// on the rows of X with labels y: the least y_i(w·x_i+b)/‖w‖, the signed
// distance from the hyperplane to the nearest row. It is negative if the
// hyperplane puts a row on the wrong side. If w is zero, the margin is +Inf
// if every y_i·b is positive, and -Inf otherwise.
func GeometricMargin(X mat.Matrix, y, w []float64, b float64) (float64, error) {
	m, err := FunctionalMargin(X, y, w, b)
	if err != nil {
		return 0, err
	}
	return geometric(m, floats.Norm(w, 2)), nil
}

// PerceptronCriterion returns the perceptron criterion of the hyperplane
// w·x+b = 0 on the rows of X with labels y: the sum of max(0, -y_i(w·x_i+b)),
// the loss whose stochastic subgradient steps are the perceptron's updates.
func PerceptronCriterion(X mat.Matrix, y, w []float64, b float64) (float64, error) {
	ds, err := hyperplaneData(X, y, w, b)
	if err != nil {
		return 0, err
	}
	var sum float64
	err = ds.margins(w, b, func(_ int, m float64) {
		if m < 0 {
			sum -= m
		}
	})
	return sum, err
}

// ZeroOneError returns the zero-one error of the linear classifier
// sign(w·x+b) on the rows of X with labels y: the fraction of rows whose
// label it predicts wrongly. A row on the hyperplane is predicted +1, as
// Predict does, so unlike the perceptron's mistake test y(w·x+b) <= 0 it is
// an error only if its label is -1.
func ZeroOneError(X mat.Matrix, y, w []float64, b float64) (float64, error) {
	ds, err := hyperplaneData(X, y, w, b)
	if err != nil {
		return 0, err
	}
	wrong := 0
	err = ds.margins(w, b, func(i int, m float64) {
		if m < 0 || m == 0 && ds.y[i] < 0 {
			wrong++
		}
	})
	return float64(wrong) / float64(ds.n), err
}

// hyperplaneData checks X and y as Fit does, and w and b against them.
// The rows are checked by margins as they are read.
func hyperplaneData(X mat.Matrix, y, w []float64, b float64) (*dataset, error) {
	ds, err := newDataset(X, y, binaryLabels)
	if err != nil {
		return nil, err
	}
	if len(w) != ds.d {
		return nil, errorf(ErrShape, "perceptron: w has length %d, want %d (the number of columns of X)", len(w), ds.d)
	}
	if j := nonFinite(w); j >= 0 {
		return nil, errorf(ErrNonFinite, "perceptron: w[%d] is %v, want a finite value", j, w[j])
	}
	if !finite(b) {
		return nil, errorf(ErrNonFinite, "perceptron: b is %v, want a finite value", b)
	}
	return ds, nil
}

// margins calls f with the functional margin y_i(w·x_i+b) of every row i
// of ds, in order. A row that holds NaN or an infinity has a margin that is
// not finite, so the rows are checked at no cost on the way: margins
// returns an error at the first row whose margin is not finite, naming the
// bad value, or saying that the margin overflows if the row is finite. It
// returns the error of the halt of ds if it stops it.
func (ds *dataset) margins(w []float64, b float64, f func(i int, m float64)) error {
	halt, mask := ds.halt, ds.rowMask(1)
	for i := range ds.n {
		if err := halt.poll(i, mask); err != nil {
			return err
		}
		x := ds.row(i)
		m := ds.sign(i) * (x.dot(w) + b)
		if !finite(m) {
			if err := ds.rowError(i); err != nil {
				return err
			}
			return errorAt(ErrNonFinite, i, -1, "perceptron: w·x+b overflows at row %d", i)
		}
		f(i, m)
	}
	return nil
}

func (ds *dataset) functionalMargin(w []float64, b float64) (float64, error) {
	least := math.Inf(1)
	err := ds.margins(w, b, func(_ int, m float64) {
		least = math.Min(least, m)
	})
	return least, err
}

// geometric returns the functional margin m of a hyperplane whose normal
// has norm nw as a distance. A zero normal is the limit of ever smaller
// ones: every point is infinitely far on the side of the sign of the bias.
func geometric(m, nw float64) float64 {
	if nw == 0 {
		if m > 0 {
			return math.Inf(1)
		}
		return math.Inf(-1)
	}
	return m / nw
}

// binaryLabels are the labels of the margin routines: a hyperplane's
// sides.
var binaryLabels = []float64{-1, 1}
