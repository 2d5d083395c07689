// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// Split returns the rows of s in two sets, the second holding the fraction
// test of the rows of each class, rounded to the nearest whole row, drawn
// at random with a source of the seed, and the first the others, each in
// the order of s. The same seed gives the same split. Split returns an
// error if test is not in (0, 1), if s has no labels, if either set would
// have no row, or if s is not a Set that Subset takes.
//
// Split holds the two sets, a copy of the rows of s, and 9 bytes for each row
// and 16 for each class besides while it draws them.
func Split(s *Set, test float64, seed uint64) (train, tests *Set, err error) {
	if !(test > 0 && test < 1) {
		return nil, nil, fmt.Errorf("data: test fraction %v, want one in (0, 1)", test)
	}
	if err := s.check(); err != nil {
		return nil, nil, err
	}
	if s.Y == nil {
		return nil, nil, errors.New("data: a split is by the classes, and the set has no labels")
	}
	n, k := len(s.Y), len(s.Classes)
	byClass, start, err := s.classOrder("splitting", seed, 0x73706c6974) // "split"
	if err != nil {
		return nil, nil, err
	}
	isTest := make([]bool, n)
	for c := range k {
		rows := byClass[start[c]:start[c+1]]
		for _, i := range rows[:int(math.Round(test*float64(len(rows))))] {
			isTest[i] = true
		}
	}
	// The training rows in order at the front, and the test rows at the
	// back, in the array the classes held.
	out, in := byClass[:0], len(byClass)
	for i := range n {
		if !isTest[i] {
			out = append(out, i)
		}
	}
	for i := n - 1; i >= 0; i-- {
		if isTest[i] {
			in--
			byClass[in] = i
		}
	}
	if len(out) == 0 || len(out) == n {
		return nil, nil, fmt.Errorf("data: a test fraction of %v of %d rows leaves a set empty", test, n)
	}
	if train, err = s.Subset(out); err != nil {
		return nil, nil, err
	}
	if tests, err = s.Subset(byClass[in:]); err != nil {
		return nil, nil, err
	}
	return train, tests, nil
}

// Fold returns the i-th of the k folds of the rows of s, counted from 0,
// for k-fold cross-validation: the rows of fold i as the test set, and the
// rows of the other folds as the training set, each in the order of s. The
// folds are stratified, as scikit-learn's StratifiedKFold makes them: the
// rows of each class, in an order drawn at random with a source of the
// seed, are dealt to the folds in turn, so that each fold holds a k-th of
// each class, to a row. The same seed gives the same folds, whatever i.
// Fold returns an error if k is not from 2 to the number of rows, if i is
// not from 0 to k-1, if s has no labels, or if s is not a Set that Subset
// takes.
//
// Fold holds the two sets, a copy of the rows of s, and 9 bytes for each row
// and 16 for each class besides while it draws them.
func Fold(s *Set, k, i int, seed uint64) (train, test *Set, err error) {
	if err := s.check(); err != nil {
		return nil, nil, err
	}
	if s.Y == nil {
		return nil, nil, errors.New("data: folds are by the classes, and the set has no labels")
	}
	n := len(s.Y)
	switch {
	case k < 2 || k > n:
		return nil, nil, fmt.Errorf("data: %d folds of %d rows, want from 2 to %d", k, n, n)
	case i < 0 || i >= k:
		return nil, nil, fmt.Errorf("data: fold %d of %d, want one from 0 to %d", i, k, k-1)
	}
	byClass, _, err := s.classOrder("folding", seed, 0x666f6c64) // "fold"
	if err != nil {
		return nil, nil, err
	}
	// Each class's rows dealt in turn, the first fold of a class following
	// the last of the class before, so that the folds differ by a row at
	// most. byClass holds the training rows, then the test rows, as in
	// Split.
	isTest := make([]bool, n)
	next := 0
	for _, r := range byClass {
		isTest[r] = next == i
		next = (next + 1) % k
	}
	out, in := byClass[:0], n
	for r := range n {
		if !isTest[r] {
			out = append(out, r)
		}
	}
	for r := n - 1; r >= 0; r-- {
		if isTest[r] {
			in--
			byClass[in] = r
		}
	}
	if train, err = s.subset(out); err != nil {
		return nil, nil, err
	}
	if test, err = s.subset(byClass[in:]); err != nil {
		return nil, nil, err
	}
	return train, test, nil
}

// classOrder returns the rows of s, which has labels, class by class, each
// class's rows in an order drawn at random with a source of the seed and of
// stream, and where each class starts among them, and where they all end. It
// checks the memory of 9 bytes for each row and 16 for each class first, for
// what, which it names in its error.
func (s *Set) classOrder(what string, seed, stream uint64) (byClass, start []int, err error) {
	n, k := len(s.Y), len(s.Classes)
	if err := checkMemory(9*float64(n)+16*float64(k+1), "data: %s %d rows of %d classes", what, n, k); err != nil {
		return nil, nil, err
	}
	start = make([]int, k+1)
	for _, y := range s.Y {
		start[int(y)+1]++
	}
	for c := range k {
		start[c+1] += start[c]
	}
	next := slices.Clone(start[:k])
	byClass = make([]int, n)
	for i, y := range s.Y {
		byClass[next[int(y)]] = i
		next[int(y)]++
	}
	rnd := rand.New(rand.NewPCG(seed, stream))
	for c := range k {
		rows := byClass[start[c]:start[c+1]]
		rnd.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
	}
	return byClass, start, nil
}

// Subset returns a Set of copies of the rows of s at the indices rows, in
// their order, with their labels if s has labels: a *perceptron.CSR of
// sparse rows, and a *mat.Dense of dense ones, or of no rows a matrix of
// no rows. It returns an error if an index is not a row of s, or if s is
// not a Set: X nil, or Y that is not nil and not the class of each row of
// X, a whole number that indexes Classes.
//
// Subset holds the rows it copies, and checks their memory first: 8 bytes for
// each value of dense rows, or 16 bytes for each non-zero and 8 bytes for each
// row of sparse ones, and 8 bytes for the label of each row.
func (s *Set) Subset(rows []int) (*Set, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	return s.subset(rows)
}

// subset is Subset of a Set that check has checked.
func (s *Set) subset(rows []int) (*Set, error) {
	n, d := s.X.Dims()
	for k, i := range rows {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("data: rows[%d] is %d, want a row of the %d of X", k, i, n)
		}
	}
	m := len(rows)
	labels := 0.0
	if s.Y != nil {
		labels = 8 * float64(m)
	}
	sub := &Set{Classes: s.Classes, Features: s.Features}
	if doer, ok := s.X.(mat.RowNonZeroDoer); ok && !isDense(s.X) {
		nnz := 0
		for _, i := range rows {
			doer.DoRowNonZero(i, func(_, _ int, _ float64) { nnz++ })
		}
		if err := checkMemory(16*float64(nnz)+8*float64(m+1)+labels, "data: a copy of %d sparse rows of %d non-zeros", m, nnz); err != nil {
			return nil, err
		}
		ptr := make([]int, 1, m+1)
		ind, val := make([]int, 0, nnz), make([]float64, 0, nnz)
		for _, i := range rows {
			doer.DoRowNonZero(i, func(_, j int, v float64) {
				ind = append(ind, j)
				val = append(val, v)
			})
			ptr = append(ptr, len(ind))
		}
		sub.X, _ = perceptron.NewCSR(m, d, ptr, ind, val) // the rows of a valid matrix are valid
	} else {
		if err := checkMemory(8*float64(m)*float64(d)+labels, "data: a copy of %d rows of %d columns", m, d); err != nil {
			return nil, err
		}
		switch {
		case d == 0:
			return nil, errors.New("data: X has rows of no columns, and a *mat.Dense cannot hold them")
		case m == 0:
			sub.X = mat.NewDense(1, d, nil).Slice(0, 0, 0, d) // gonum makes no Dense of no rows
		default:
			X := mat.NewDense(m, d, nil)
			for k, i := range rows {
				copy(X.RawRowView(k), rowOf(s.X, i))
			}
			sub.X = X
		}
	}
	if s.Y != nil {
		sub.Y = make([]float64, m)
		for k, i := range rows {
			sub.Y[k] = s.Y[i]
		}
	}
	return sub, nil
}

// Rows returns the Set of the rows of s from lo to hi-1, with their
// labels, if s has labels: the rows of a *mat.Dense and their labels in
// place, as the Dense's Slice gives them, and other rows and their labels
// copied into a new *perceptron.CSR or *mat.Dense, as Subset copies them.
// A Set of sparse rows thus cuts into mini-batches as a Set of dense rows
// does. It returns an error if lo and hi are not 0 <= lo <= hi <= the rows
// of s, if X is nil, if Y is not nil and not as long as X has rows, or if
// a label of the rows lo to hi-1 is not a class: Rows takes the time of
// those rows alone.
//
// Rows holds the rows it copies, and their labels, and checks their memory
// first, as Subset does.
func (s *Set) Rows(lo, hi int) (*Set, error) {
	if s != nil && s.X != nil {
		if n, _ := s.X.Dims(); lo < 0 || hi < lo || hi > n {
			return nil, fmt.Errorf("data: rows %d to %d, want a range of the %d rows of X", lo, hi, n)
		}
	}
	// Only the classes of the rows are checked: mini-batches would
	// otherwise check all the classes for each.
	if err := s.checkRows(lo, hi); err != nil {
		return nil, err
	}
	_, d := s.X.Dims()
	dense, ok := s.X.(*mat.Dense)
	if !ok || lo == hi {
		rows := make([]int, hi-lo)
		for k := range rows {
			rows[k] = lo + k
		}
		return s.subset(rows)
	}
	sub := &Set{X: dense.Slice(lo, hi, 0, d), Classes: s.Classes, Features: s.Features}
	if s.Y != nil {
		sub.Y = s.Y[lo:hi:hi]
	}
	return sub, nil
}

// isDense reports whether X is read through its raw data.
func isDense(X mat.Matrix) bool {
	_, ok := X.(mat.RawMatrixer)
	return ok
}

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
// NewScaler holds 32 bytes for each column, of which the Scaler keeps 16 of
// dense rows and 8 of sparse ones, and checks them first.
func NewScaler(X mat.Matrix) (*Scaler, error) {
	if X == nil {
		return nil, errors.New("data: no rows to scale by: X is nil")
	}
	n, d := X.Dims()
	if n == 0 {
		return nil, errors.New("data: no rows to scale by")
	}
	if err := checkMemory(32*float64(d), "data: scaling %d columns", d); err != nil {
		return nil, err
	}
	doer, sparse := X.(mat.RowNonZeroDoer)
	sparse = sparse && !isDense(X)
	each := func(fn func(j int, v float64)) {
		if sparse {
			for i := range n {
				doer.DoRowNonZero(i, func(_, j int, v float64) { fn(j, v) })
			}
			return
		}
		for i := range n {
			for j, v := range rowOf(X, i) {
				fn(j, v)
			}
		}
	}
	s := &Scaler{Mean: make([]float64, d), Scale: make([]float64, d)}
	// Each column is divided by a power of two near its largest magnitude,
	// which is exact, so that the sums below cannot overflow however
	// large the values are. Scale holds the magnitudes, then the sums of
	// squared deviations.
	big := s.Scale
	each(func(j int, v float64) { big[j] = max(big[j], math.Abs(v)) })
	exp := make([]int, d)
	for j, b := range big {
		if math.IsInf(b, 0) || math.IsNaN(b) {
			return nil, errorf(perceptron.ErrNonFinite, "data: column %d: a value is not finite", j+1)
		}
		_, exp[j] = math.Frexp(b)
	}
	// Welford's running mean and sum of squared deviations.
	mean, m2, count := s.Mean, s.Scale, make([]float64, d)
	clear(m2)
	each(func(j int, v float64) {
		v = math.Ldexp(v, -exp[j])
		count[j]++
		delta := v - mean[j]
		mean[j] += delta / count[j]
		m2[j] += delta * (v - mean[j])
	})
	// The zeros a sparse column leaves out join its non-zeros.
	total := float64(n)
	for j := range d {
		if zeros := total - count[j]; zeros > 0 && count[j] > 0 {
			m2[j] += mean[j] * mean[j] * count[j] * zeros / total
			mean[j] = mean[j] * count[j] / total
		}
	}
	for j := range d {
		mean[j] = math.Ldexp(mean[j], exp[j])
		s.Scale[j] = math.Ldexp(math.Sqrt(m2[j]/total), exp[j])
		if s.Scale[j] == 0 {
			s.Scale[j] = 1
		}
	}
	if sparse {
		s.Mean = nil
	}
	return s, nil
}

// NewIDF returns the Scaler that weighs each column of X by its inverse
// document frequency, as scikit-learn's TfidfTransformer does by default:
// idf = ln((1+n)/(1+df)) + 1, where n is the number of rows of X and df
// the number of rows in which the column is not zero, so that a column of
// few rows weighs more than one of many. The Scaler has no Mean, and its
// Scale is 1/idf, by which Transform divides: it keeps the zeros of sparse
// rows. NewIDF returns an error if X is nil or has no rows.
//
// NewIDF holds 8 bytes for each column, which the Scaler keeps, and checks
// them first.
func NewIDF(X mat.Matrix) (*Scaler, error) {
	if X == nil {
		return nil, errors.New("data: no rows to weigh by: X is nil")
	}
	n, d := X.Dims()
	if n == 0 {
		return nil, errors.New("data: no rows to weigh by")
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
		for i := range n {
			for j, v := range rowOf(X, i) {
				if v != 0 {
					df[j]++
				}
			}
		}
	}
	for j, f := range df {
		df[j] = inverseIDF(n, f)
	}
	return &Scaler{Scale: df}, nil
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
	return copyRows(X, 0, "standardising", s.Mean != nil, s.standardise, nil)
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

// standardise returns the value v of column j standardised.
func (s *Scaler) standardise(j int, v float64) float64 {
	if s.Mean != nil {
		v -= s.Mean[j]
	}
	return v / s.Scale[j]
}

// copyRows returns a copy of the rows of X in which each value v of
// column j is f(j, v), which does what, for messages, and each row is then
// given to post, if not nil, to change in place. It copies sparse rows, a
// mat.RowNonZeroDoer that is not a mat.RawMatrixer, into a new
// *perceptron.CSR of their non-zeros, unless dense says to fill them, and
// all others into a new *mat.Dense. It returns an error naming the row and
// the column of the first value that is not finite or that f makes so, or
// the error of post, which it puts the row's number before: rows are
// numbered from first+1.
//
// It checks the memory of the copy first: 8 bytes for each value of dense
// rows, or 16 bytes for each non-zero and 8 bytes for each row of sparse ones.
func copyRows(X mat.Matrix, first int, what string, dense bool, f func(j int, v float64) float64, post func(row []float64) error) (mat.Matrix, error) {
	n, d := X.Dims()
	bad := func(i, j int, v float64) error {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return errorf(perceptron.ErrNonFinite, "data: row %d, column %d: %v, want a finite value", first+i+1, j+1, v)
		}
		return errorf(perceptron.ErrNonFinite, "data: row %d, column %d: %s overflows (the value is %v)", first+i+1, j+1, what, v)
	}
	if m, ok := X.(mat.RowNonZeroDoer); ok && !dense && !isDense(X) {
		nnz := 0
		for i := range n {
			m.DoRowNonZero(i, func(_, _ int, _ float64) { nnz++ })
		}
		if err := checkMemory(16*float64(nnz)+8*float64(n+1), "data: %s %d sparse rows of %d non-zeros", what, n, nnz); err != nil {
			return nil, err
		}
		ptr := make([]int, 1, n+1)
		ind, val := make([]int, 0, nnz), make([]float64, 0, nnz)
		var err error
		for i := range n {
			m.DoRowNonZero(i, func(_, j int, v float64) {
				w := f(j, v)
				if (math.IsInf(w, 0) || math.IsNaN(w)) && err == nil {
					err = bad(i, j, v)
				}
				ind = append(ind, j)
				val = append(val, w)
			})
			if err != nil {
				return nil, err
			}
			if post != nil {
				if err := post(val[ptr[i]:]); err != nil {
					return nil, fmt.Errorf("data: row %d: %w", first+i+1, err)
				}
			}
			ptr = append(ptr, len(ind))
		}
		return perceptron.NewCSR(n, d, ptr, ind, val)
	}
	if err := checkMemory(8*float64(n)*float64(d), "data: %s %d rows of %d columns", what, n, d); err != nil {
		return nil, err
	}
	if n == 0 || d == 0 {
		return mat.NewDense(1, max(d, 1), nil).Slice(0, 0, 0, d), nil // gonum makes no Dense of no rows
	}
	out := mat.NewDense(n, d, nil)
	for i := range n {
		row := out.RawRowView(i)
		copy(row, rowOf(X, i))
		for j, v := range row {
			w := f(j, v)
			if math.IsInf(w, 0) || math.IsNaN(w) {
				return nil, bad(i, j, v)
			}
			row[j] = w
		}
		if post != nil {
			if err := post(row); err != nil {
				return nil, fmt.Errorf("data: row %d: %w", first+i+1, err)
			}
		}
	}
	return out, nil
}

// check returns an error if s is not a Scaler that NewScaler could return.
func (s *Scaler) check() error {
	switch {
	case s == nil:
		return errors.New("data: the Scaler is nil")
	case s.Mean != nil && len(s.Mean) != len(s.Scale):
		return errorf(perceptron.ErrShape, "data: the Scaler has %d means and %d scales, want as many", len(s.Mean), len(s.Scale))
	}
	for j, v := range s.Scale {
		switch {
		case math.IsInf(v, 0) || math.IsNaN(v):
			return errorf(perceptron.ErrNonFinite, "data: the Scaler's Scale[%d] is %v, want a finite value other than 0", j, v)
		case v == 0:
			return fmt.Errorf("data: the Scaler's Scale[%d] is 0, want a finite value other than 0", j)
		}
	}
	for j, v := range s.Mean {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return errorf(perceptron.ErrNonFinite, "data: the Scaler's Mean[%d] is %v, want a finite value", j, v)
		}
	}
	return nil
}

// rowOf returns row i of X: in place for a *mat.Dense, and a copy
// otherwise.
func rowOf(X mat.Matrix, i int) []float64 {
	if m, ok := X.(*mat.Dense); ok {
		return m.RawRowView(i)
	}
	return mat.Row(nil, i, X)
}
