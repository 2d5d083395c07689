// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// MarginSettings are the settings of DatasetMargin and NovikoffBound. A nil
// *MarginSettings, like the zero value, means hyperplanes with a bias and
// a tolerance of 1e-6.
type MarginSettings struct {
	// NoBias restricts the hyperplanes to those through the origin,
	// w·x = 0.
	NoBias bool

	// Tol is the relative tolerance of the margin: the iterations stop
	// when the margin is known to within Tol times its size. Zero means
	// 1e-6. Tol must be less than 1.
	Tol float64
}

func (s *MarginSettings) resolve() (MarginSettings, error) {
	var r MarginSettings
	if s != nil {
		r = *s
	}
	if !(r.Tol >= 0 && r.Tol < 1) {
		return r, badSetting(r.Tol, "perceptron: Tol is %v, want 0 <= Tol < 1", r.Tol)
	}
	if r.Tol == 0 {
		r.Tol = 1e-6
	}
	return r, nil
}

// marginData returns the data set and the resolved settings of a margin
// routine, or the first error in the shape and labels of the data, the
// settings, and the values of the data, in that order.
func marginData(X mat.Matrix, y []float64, s *MarginSettings) (*dataset, MarginSettings, error) {
	ds, err := newDataset(X, y, binaryLabels)
	if err != nil {
		return nil, MarginSettings{}, err
	}
	set, err := s.resolve()
	if err != nil {
		return nil, MarginSettings{}, err
	}
	return ds, set, ds.check(nil)
}

// MaxMargin is the result of DatasetMargin: a hyperplane of nearly the
// largest margin, with a certificate of how near.
type MaxMargin struct {
	// W and B are the hyperplane w·x+b = 0. B is zero through the origin.
	W []float64
	B float64

	// Lower is the geometric margin of W and B on the data, a lower bound
	// on the margin of the data. It is not positive if the data are not
	// separable.
	Lower float64

	// Upper is an upper bound on the margin of the data: no hyperplane has
	// a larger geometric margin. It is not negative.
	Upper float64
}

// DatasetMargin returns the margin of the rows of X with labels y, the
// largest geometric margin of any hyperplane (Daumé, A Course in Machine
// Learning, chapter 4), and a hyperplane that nearly attains it: with a
// bias, half the distance between the convex hulls of the classes;
// through the origin, the distance from the origin to the hull of the
// y_i·x_i. For data that are not separable it is 0, and W may be zero,
// with Lower -Inf; for data of one class, with a bias, +Inf, with W zero
// and B the label.
//
// The margin lies between Lower, the hyperplane's, and Upper. It stops
// when Lower > 0 and Upper-Lower <= Tol·Upper, or when Upper <= Tol·R, R
// the radius of the rows about their mean, or the origin without a bias:
// the data are then taken as not separable. Each iteration is a pass over
// the data and O(d³) work at most.
//
// DatasetMargin returns an error if X and y are not valid as Fit requires,
// if a setting is not valid, or if the scale of the rows is above 2^200 or
// below 2^-200: scale X by a power of two, which scales the margin
// exactly. If the iterations run out, or rounding stops them short of Tol,
// it returns the bounds it reached, with an error.
func DatasetMargin(X mat.Matrix, y []float64, s *MarginSettings) (MaxMargin, error) {
	return datasetMargin(X, y, s, nil)
}

// datasetMargin is DatasetMargin, stopped by h if it is not nil.
func datasetMargin(X mat.Matrix, y []float64, s *MarginSettings, h *halt) (MaxMargin, error) {
	ds, set, err := marginData(X, y, s)
	if err != nil {
		return MaxMargin{}, err
	}
	ds.halt = h
	if !set.NoBias && ds.single() {
		return MaxMargin{W: make([]float64, ds.d), B: ds.sign(0), Lower: math.Inf(1), Upper: math.Inf(1)}, nil
	}
	groups := 1
	if !set.NoBias {
		groups = 2
	}
	np, err := newNearest(ds, groups, 0, set.Tol)
	if err != nil {
		return MaxMargin{}, err
	}
	if err = np.solve(); h.stopped(err) {
		return MaxMargin{}, err
	}
	return MaxMargin{W: np.p, B: np.b, Lower: np.lower, Upper: np.upper}, err
}

// MistakeBound is the bound of Block and Novikoff on the number of mistakes
// that the perceptron makes on a data set: at most (R/γ)², if every row has
// norm at most R and a hyperplane through the origin has margin γ.
//
// With a bias, R and γ are those of the rows (x, 1) and the hyperplane
// (w, b), unlike DatasetMargin's: the least y(w·x+b)/‖(w, b)‖.
type MistakeBound struct {
	// R is the largest norm of a row, augmented with a 1 with a bias.
	R float64

	// Margin is the margin γ of a hyperplane through the origin on the
	// (augmented) rows, within the tolerance of the largest, or 0 if the
	// data are not separable.
	Margin float64

	// Bound is (R/Margin)², or +Inf if the data are not separable.
	Bound float64
}

// NovikoffBound returns the bound of Block and Novikoff on the mistakes of
// the perceptron trained on the rows of X with labels y from zero weights:
// Perceptron's Stats().Mistakes never exceeds its Bound, whatever the Rate,
// the order of the rows and the number of epochs. The settings are those
// of DatasetMargin; NoBias must match the perceptron's. Because the margin
// that the bound uses is attained by a hyperplane, the bound holds, and it
// is within a factor 1/(1-Tol)² of (R/γ)² for the largest margin γ.
//
// NovikoffBound returns the errors that DatasetMargin returns, its scale
// being R. If the iterations run out, or rounding stops them, the bound it
// returns with the error still holds, though further from (R/γ)².
func NovikoffBound(X mat.Matrix, y []float64, s *MarginSettings) (MistakeBound, error) {
	return novikoffBound(X, y, s, nil)
}

// novikoffBound is NovikoffBound, stopped by h if it is not nil.
func novikoffBound(X mat.Matrix, y []float64, s *MarginSettings, h *halt) (MistakeBound, error) {
	ds, set, err := marginData(X, y, s)
	if err != nil {
		return MistakeBound{}, err
	}
	ds.halt = h
	aug := 1.0
	if set.NoBias {
		aug = 0
	}
	np, err := newNearest(ds, 1, aug, set.Tol)
	if err != nil {
		return MistakeBound{}, err
	}
	if err = np.solve(); h.stopped(err) {
		return MistakeBound{}, err
	}
	mb := MistakeBound{R: np.r, Bound: math.Inf(1)}
	if np.lower > 0 {
		// No margin exceeds the norm of a row, but rounding can put the
		// margin of rows of one norm just above it, and the bound below 1.
		mb.Margin = min(np.lower, np.r)
		mb.Bound = (np.r / mb.Margin) * (np.r / mb.Margin)
	}
	return mb, err
}
