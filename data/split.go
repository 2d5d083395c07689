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
// error if test is not in (0, 1), if s has no labels, or if either set
// would have no row.
func Split(s *Set, test float64, seed uint64) (train, tests *Set, err error) {
	switch {
	case !(test > 0 && test < 1):
		return nil, nil, fmt.Errorf("data: test fraction %v, want one in (0, 1)", test)
	case s.Y == nil:
		return nil, nil, errors.New("data: a split is by the classes, and the set has no labels")
	}
	byClass := make([][]int, len(s.Classes))
	for i, c := range s.Y {
		byClass[int(c)] = append(byClass[int(c)], i)
	}
	rnd := rand.New(rand.NewPCG(seed, 0x73706c6974)) // "split"
	var in []int
	for _, rows := range byClass {
		rnd.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		in = append(in, rows[:int(math.Round(test*float64(len(rows))))]...)
	}
	slices.Sort(in)
	out := make([]int, 0, len(s.Y)-len(in))
	for i, k := 0, 0; i < len(s.Y); i++ {
		if k < len(in) && in[k] == i {
			k++
			continue
		}
		out = append(out, i)
	}
	if len(in) == 0 || len(out) == 0 {
		return nil, nil, fmt.Errorf("data: a test fraction of %v of %d rows leaves a set empty", test, len(s.Y))
	}
	return s.Subset(out), s.Subset(in), nil
}

// Subset returns a Set of copies of the rows of s at the indices rows, in
// their order, with their labels if s has labels: a *perceptron.CSR of
// sparse rows, and a *mat.Dense of dense ones, or of no rows a matrix of
// no rows. It panics if an index is out of range.
func (s *Set) Subset(rows []int) *Set {
	sub := &Set{Classes: s.Classes, Features: s.Features}
	if s.Y != nil {
		sub.Y = make([]float64, len(rows))
		for k, i := range rows {
			sub.Y[k] = s.Y[i]
		}
	}
	_, d := s.X.Dims()
	if m, ok := s.X.(mat.RowNonZeroDoer); ok && !isDense(s.X) {
		ptr := []int{0}
		var ind []int
		var val []float64
		for _, i := range rows {
			m.DoRowNonZero(i, func(_, j int, v float64) {
				ind = append(ind, j)
				val = append(val, v)
			})
			ptr = append(ptr, len(ind))
		}
		sub.X, _ = perceptron.NewCSR(len(rows), d, ptr, ind, val) // the rows of a valid matrix are valid
		return sub
	}
	if len(rows) == 0 {
		sub.X = mat.NewDense(1, d, nil).Slice(0, 0, 0, d) // gonum makes no Dense of no rows
		return sub
	}
	X := mat.NewDense(len(rows), d, nil)
	for k, i := range rows {
		copy(X.RawRowView(k), rowOf(s.X, i))
	}
	sub.X = X
	return sub
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

	// Scale holds the standard deviation of each column, or 1 where it is
	// zero.
	Scale []float64
}

// NewScaler returns the Scaler of the columns of X, dense or sparse, as
// the training rows give them. It returns an error if X has no rows, or
// naming the column of a value that is not finite.
func NewScaler(X mat.Matrix) (*Scaler, error) {
	n, d := X.Dims()
	if n == 0 {
		return nil, errors.New("data: no rows to scale by")
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
	// Each column is divided by a power of two near its largest magnitude,
	// which is exact, so that the sums below cannot overflow however
	// large the values are.
	big := make([]float64, d)
	each(func(j int, v float64) { big[j] = max(big[j], math.Abs(v)) })
	exp := make([]int, d)
	for j, b := range big {
		if math.IsInf(b, 0) || math.IsNaN(b) {
			return nil, fmt.Errorf("data: column %d: a value is not finite", j+1)
		}
		_, exp[j] = math.Frexp(b)
	}
	// Welford's running mean and sum of squared deviations.
	mean, m2, count := make([]float64, d), make([]float64, d), make([]float64, d)
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
	s := &Scaler{Mean: mean, Scale: make([]float64, d)}
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

// Transform returns the rows of X standardised: a new *mat.Dense of dense
// X, or a new *perceptron.CSR of sparse X, which only a Scaler without
// Mean takes. It returns an error if X has not the Scaler's columns, or
// naming the row and the column of the first value that standardising
// makes overflow.
func (s *Scaler) Transform(X mat.Matrix) (mat.Matrix, error) {
	n, d := X.Dims()
	if d != len(s.Scale) {
		return nil, fmt.Errorf("data: %d columns, want %d, the scaler's", d, len(s.Scale))
	}
	bad := func(i, j int) error {
		return fmt.Errorf("data: row %d, column %d: standardising overflows", i+1, j+1)
	}
	if !isDense(X) {
		m, ok := X.(mat.RowNonZeroDoer)
		if ok && s.Mean == nil {
			ptr := []int{0}
			var ind []int
			var val []float64
			var err error
			for i := range n {
				m.DoRowNonZero(i, func(_, j int, v float64) {
					v /= s.Scale[j]
					if math.IsInf(v, 0) && err == nil {
						err = bad(i, j)
					}
					ind = append(ind, j)
					val = append(val, v)
				})
				ptr = append(ptr, len(ind))
			}
			if err != nil {
				return nil, err
			}
			return perceptron.NewCSR(n, d, ptr, ind, val)
		}
		if s.Mean == nil {
			return nil, errors.New("data: a Scaler of sparse rows transforms sparse rows")
		}
	}
	out := mat.NewDense(n, d, nil)
	for i := range n {
		row := out.RawRowView(i)
		copy(row, rowOf(X, i))
		for j, v := range row {
			if s.Mean != nil {
				v -= s.Mean[j]
			}
			v /= s.Scale[j]
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return nil, bad(i, j)
			}
			row[j] = v
		}
	}
	return out, nil
}

// rowOf returns row i of X: in place for a *mat.Dense, and a copy
// otherwise.
func rowOf(X mat.Matrix, i int) []float64 {
	if m, ok := X.(*mat.Dense); ok {
		return m.RawRowView(i)
	}
	return mat.Row(nil, i, X)
}
