// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
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
		return nil, nil, errorf(perceptron.ErrSetting, "data: test fraction %v, want one in (0, 1)", test)
	}
	if err := s.check(); err != nil {
		return nil, nil, err
	}
	if s.Y == nil {
		return nil, nil, errorf(perceptron.ErrLabels, "data: a split is by the classes, and the set has no labels")
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
		return nil, nil, errorf(perceptron.ErrSetting, "data: a test fraction of %v of %d rows leaves a set empty", test, n)
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
		return nil, nil, errorf(perceptron.ErrLabels, "data: folds are by the classes, and the set has no labels")
	}
	n := len(s.Y)
	switch {
	case k < 2 || k > n:
		return nil, nil, errorf(perceptron.ErrSetting, "data: %d folds of %d rows, want from 2 to %d", k, n, n)
	case i < 0 || i >= k:
		return nil, nil, errorf(perceptron.ErrSetting, "data: fold %d of %d, want one from 0 to %d", i, k, k-1)
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
// their order, with their labels and weights if s has them: a
// *perceptron.CSR of sparse rows, and a *mat.Dense of dense ones, or of no
// rows a matrix of no rows. It returns an error if an index is not a row
// of s, or if s is not a Set: X nil, Y that is not nil and not the class
// of each row of X, a whole number that indexes Classes, or Weights that
// are not nil and not a finite weight >= 0 for each row.
//
// Subset holds the rows it copies, and checks their memory first: 8 bytes for
// each value of dense rows, or 16 bytes for each non-zero and 8 bytes for each
// row of sparse ones, and 8 bytes for the label and the weight of each row.
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
			return nil, errorf(perceptron.ErrShape, "data: rows[%d] is %d, want a row of the %d of X", k, i, n)
		}
	}
	m := len(rows)
	labels := 0.0 // and weights
	if s.Y != nil {
		labels = 8 * float64(m)
	}
	if s.Weights != nil {
		labels += 8 * float64(m)
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
			return nil, errorf(perceptron.ErrShape, "data: X has rows of no columns, and a *mat.Dense cannot hold them")
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
	if s.Weights != nil {
		sub.Weights = make([]float64, m)
		for k, i := range rows {
			sub.Weights[k] = s.Weights[i]
		}
	}
	return sub, nil
}

// Rows returns the Set of the rows of s from lo to hi-1, with their
// labels and weights, if s has them: the rows of a *mat.Dense or a
// *perceptron.CSR and their labels and weights in place, as the Dense's
// Slice and the CSR's RowSlice give them, and other rows copied into a new
// *perceptron.CSR or *mat.Dense, as Subset copies them. A Set of sparse
// rows thus cuts into mini-batches as a Set of dense rows does. It
// returns an error if lo and hi are not 0 <= lo <= hi <= the rows of s,
// if X is nil, if Y or Weights is not nil and not as long as X
// has rows, or if a label of the rows lo to hi-1 is not a class or a
// weight not a finite weight >= 0: Rows takes the time of those rows
// alone.
//
// Rows holds the rows it copies, and their labels and weights, and checks
// their memory first, as Subset does.
func (s *Set) Rows(lo, hi int) (*Set, error) {
	if s != nil && s.X != nil {
		if n, _ := s.X.Dims(); lo < 0 || hi < lo || hi > n {
			return nil, errorf(perceptron.ErrShape, "data: rows %d to %d, want a range of the %d rows of X", lo, hi, n)
		}
	}
	// Only the classes and weights of the rows are checked: mini-batches
	// would otherwise check all of them for each.
	if err := s.checkRows(lo, hi); err != nil {
		return nil, err
	}
	var X mat.Matrix
	switch m := s.X.(type) {
	case *mat.Dense:
		if lo < hi {
			_, d := m.Dims()
			X = m.Slice(lo, hi, 0, d)
		}
	case *perceptron.CSR:
		X = m.RowSlice(lo, hi)
	}
	if X == nil {
		rows := make([]int, hi-lo)
		for k := range rows {
			rows[k] = lo + k
		}
		return s.subset(rows)
	}
	sub := &Set{X: X, Classes: s.Classes, Features: s.Features}
	if s.Y != nil {
		sub.Y = s.Y[lo:hi:hi]
	}
	if s.Weights != nil {
		sub.Weights = s.Weights[lo:hi:hi]
	}
	return sub, nil
}

// isDense reports whether X is read through its raw data.
func isDense(X mat.Matrix) bool {
	_, ok := X.(mat.RawMatrixer)
	return ok
}
