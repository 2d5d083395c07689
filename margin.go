// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
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
// bad value, or saying that the margin overflows if the row is finite.
func (ds *dataset) margins(w []float64, b float64, f func(i int, m float64)) error {
	for i := range ds.n {
		x := ds.row(i)
		m := ds.sign(i) * (x.dot(w) + b)
		if !finite(m) {
			if err := ds.rowError(i); err != nil {
				return err
			}
			return errorf(ErrNonFinite, "perceptron: w·x+b overflows at row %d", i)
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

// Separable reports whether some hyperplane w·x+b = 0 separates the rows of
// X with label +1 from those with label -1, so that y_i(w·x_i+b) > 0 for
// every row; equivalently, whether the convex hulls of the two classes are
// disjoint. Data of a single class are separable. Separable decides by
// linear programming, independently of DatasetMargin: exactly for data
// that no hyperplane separates and for data that one with
// |w_j| <= 1/max_i |x_ij| separates with y_i(w·x_i+b) > 1.2e-9·(d+1); in
// between, where float64 cannot tell, either answer may come. It returns
// an error if the dense linear program, of d+2 rows and n+2d columns,
// would have more than 2^27 elements, if X and y are not valid as Fit
// requires, or if the simplex method fails.
func Separable(X mat.Matrix, y []float64) (bool, error) {
	ds, err := newDataset(X, y, binaryLabels)
	if err != nil {
		return false, err
	}
	if err := ds.check(nil); err != nil {
		return false, err
	}
	if ds.single() {
		return true, nil
	}

	// y_i(w·x_i+b) >= 1 is feasible exactly when the linear program
	//
	//	maximize t subject to y_i(w·x_i+b) >= t, |w_j| <= 1
	//
	// has a positive optimum, the columns of X being scaled to at most 1 in
	// size. Written for the simplex method, with the free w, b and t split,
	// it has n+2d rows, and every pivot solves a system of that size. Its
	// dual has d+2 rows:
	//
	//	minimize Σ μ_j + ν_j subject to
	//	Σ λ_i y_i x_ij + μ_j - ν_j = 0, Σ λ_i y_i = 0, Σ λ_i = 1,
	//	λ, μ, ν >= 0,
	//
	// in standard form, with the same optimum. λ puts weight 1/2 on each
	// class, and the optimum is 0 exactly when the two weighted means can
	// coincide, at a point common to both hulls. A feasible basis is at
	// hand: weight 1/2 on a row of each class, and μ_j or ν_j taking up the
	// difference of the two rows in each column, and starting from it
	// spares lp.Simplex a phase one.
	n, d := ds.n, ds.d
	if (d+2)*(n+2*d) > maxSimplex {
		return false, fmt.Errorf("perceptron: Separable: the linear program of %d rows and %d columns is too large for the simplex method, at most %d elements", d+2, n+2*d, maxSimplex)
	}
	scale := make([]float64, d)
	for i := range n {
		ds.row(i).each(func(j int, v float64) {
			scale[j] = math.Max(scale[j], math.Abs(v))
		})
	}
	for j, v := range scale {
		if v == 0 {
			scale[j] = 1
		}
	}
	a := mat.NewDense(d+2, n+2*d, nil)
	cost := make([]float64, n+2*d)
	for i := range n {
		ds.row(i).each(func(j int, v float64) {
			a.Set(j, i, ds.sign(i)*v/scale[j])
		})
		a.Set(d, i, ds.sign(i))
		a.Set(d+1, i, 1)
	}
	for j := range d {
		a.Set(j, n+j, 1)
		a.Set(j, n+d+j, -1)
		cost[n+j], cost[n+d+j] = 1, 1
	}
	// lp.Simplex turns to Bland's rule only for steps of exactly zero
	// length, and at a degenerate vertex, which repeated rows and touching
	// hulls make, it can cycle on steps of rounding size. Perturbing the
	// zero right-hand sides by distinct multiples of ε, well above its
	// tolerances, leaves no such vertex; it moves the optimum by at most
	// ε·Σ_j u_j|w_j| + ε·u_b·|b|, less than 6ε(d+1) at the optimum, where
	// |b| <= 2d for columns of size at most 1.
	const eps = 1e-10
	rhs := make([]float64, d+2)
	for j := range d + 1 {
		_, u := math.Modf(float64(j) * math.Phi)
		rhs[j] = eps * (1 + u)
	}
	rhs[d+1] = 1

	pos := slices.Index(ds.y, 1)
	neg := slices.Index(ds.y, -1)
	lpos, lneg := (1+rhs[d])/2, (1-rhs[d])/2
	basis := make([]int, 0, d+2)
	for j := range d {
		if rhs[j]-lpos*a.At(j, pos)-lneg*a.At(j, neg) >= 0 {
			basis = append(basis, n+j)
		} else {
			basis = append(basis, n+d+j)
		}
	}
	basis = append(basis, pos, neg)

	// The reduced costs are within rounding of 0 at the optimum, and for
	// repeated rows exactly 0 in exact arithmetic: with no tolerance the
	// simplex method can pivot between such columns forever.
	t, _, err := lp.Simplex(cost, a, rhs, 1e-12, basis)
	if err != nil {
		return false, fmt.Errorf("perceptron: the simplex method failed in Separable: %w", err)
	}
	return t > 6*eps*float64(d+1), nil
}

// binaryLabels are the labels of the margin routines: a hyperplane's
// sides.
var binaryLabels = []float64{-1, 1}

// maxSimplex is the most elements of the dense linear program that
// Separable solves: 2^27 float64s take a gigabyte.
const maxSimplex = 1 << 27

// single reports whether every row of ds has the same label.
func (ds *dataset) single() bool {
	for _, c := range ds.y {
		if c != ds.y[0] {
			return false
		}
	}
	return true
}

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

// marginIterations is the most iterations of DatasetMargin and
// NovikoffBound, each a pass over the data and work on the few rows that
// the pass picks; a few tens are usual. Tests lower it.
var marginIterations = 1000

func (s *MarginSettings) resolve() (MarginSettings, error) {
	var r MarginSettings
	if s != nil {
		r = *s
	}
	if r.Tol < 0 || r.Tol >= 1 || math.IsNaN(r.Tol) {
		return r, fmt.Errorf("perceptron: Tol is %v, want 0 <= Tol < 1", r.Tol)
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
	ds, set, err := marginData(X, y, s)
	if err != nil {
		return MaxMargin{}, err
	}
	if !set.NoBias && ds.single() {
		return MaxMargin{W: make([]float64, ds.d), B: ds.sign(0), Lower: math.Inf(1), Upper: math.Inf(1)}, nil
	}
	groups := 1
	if !set.NoBias {
		groups = 2
	}
	np, err := newNearest(ds, groups, 0, set)
	if err != nil {
		return MaxMargin{}, err
	}
	err = np.solve()
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
	ds, set, err := marginData(X, y, s)
	if err != nil {
		return MistakeBound{}, err
	}
	aug := 1.0
	if set.NoBias {
		aug = 0
	}
	np, err := newNearest(ds, 1, aug, set)
	if err != nil {
		return MistakeBound{}, err
	}
	err = np.solve()
	mb := MistakeBound{R: np.r, Bound: math.Inf(1)}
	if np.lower > 0 {
		// No margin exceeds the norm of a row, but rounding can put the
		// margin of rows of one norm just above it, and the bound below 1.
		mb.Margin = min(np.lower, np.r)
		mb.Bound = (np.r / mb.Margin) * (np.r / mb.Margin)
	}
	return mb, err
}
