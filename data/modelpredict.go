// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"math"

	"github.com/seed5ae3614e/perceptron"
	"gonum.org/v1/gonum/mat"
)

// Predict returns the class of each row of X, as an index into Classes,
// as a Set's Y holds them: the class that the Classifier's scores of the
// row, transformed, choose, as perceptron.Scorer says. It returns an
// error if the Model is not one that Fit or LoadModel gives (a Classifier,
// with a label in Classes for each of its classes, as many Names or none,
// and a Hashing of the Classifier's columns or none), if X has not the
// columns of the Classifier, if Transform fails, or naming the row of a
// score that is not finite, as when the row's values are too large for
// the weights.
//
// Predict transforms and scores the rows a block of BlockRows at a time,
// or fewer for dense rows of more than 16384 columns, and holds a block
// besides the classes it returns. It may run concurrently with the
// Model's other methods that predict, and with one Learn of a Classifier
// of package perceptron, each block of rows seeing the model before the
// Learn or after it; not with Fit, Calibrate, or a change of the Model's
// fields.
func (m *Model) Predict(X mat.Matrix) ([]float64, error) {
	if X == nil {
		return nil, errorf(perceptron.ErrShape, "data: no rows to predict: X is nil")
	}
	n, _ := X.Dims()
	if err := checkMemory(8*float64(n), "data: the classes of %d rows", n); err != nil {
		return nil, err
	}
	pred := make([]float64, n)
	err := m.score(X, func(lo int, scores []float64, S int) {
		for i := range len(scores) / S {
			pred[lo+i] = float64(choose(scores[i*S : (i+1)*S]))
		}
	})
	if err != nil {
		return nil, err
	}
	return pred, nil
}

// choose returns the class that the scores of a row choose: for one score,
// the second class if it is >= 0 and the first otherwise; for more, the
// first of the greatest.
func choose(scores []float64) int {
	if len(scores) == 1 {
		if scores[0] >= 0 {
			return 1
		}
		return 0
	}
	best := 0
	for c, v := range scores {
		if v > scores[best] {
			best = c
		}
	}
	return best
}

// Score returns the scores of the rows of X, transformed, as the Classifier's
// ScoreRows gives them: S scores for each row, one for two classes and one for
// each class for more, in the order of Classes. It returns the errors that
// Predict returns, and holds the scores besides what Predict holds. It may
// run concurrently as Predict.
func (m *Model) Score(X mat.Matrix) ([]float64, error) {
	if X == nil {
		return nil, errorf(perceptron.ErrShape, "data: no rows to score: X is nil")
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	S := scoresOf(len(m.Classes))
	if err := checkMemory(8*float64(n)*float64(S), "data: the scores of %d rows", n); err != nil {
		return nil, err
	}
	all := make([]float64, 0, n*S)
	err := m.score(X, func(_ int, scores []float64, _ int) { all = append(all, scores...) })
	if err != nil {
		return nil, err
	}
	return all, nil
}

// scoresOf returns the number of scores of a row for K classes: one for
// two, and one for each class for more.
func scoresOf(K int) int {
	if K > 2 {
		return K
	}
	return 1
}

// BlockRows is the number of rows that Predict and Score transform and
// score at a time, unless the rows are dense and wider than 16384 columns,
// when a block is the largest power of two of rows of at most 2²⁴ values.
// A Kernel's scores of a row may differ in their last bits with the rows
// scored with it, as its kernel values come from matrix products of them:
// rows that a caller gives Predict in parts of a multiple of BlockRows rows
// are scored in the same blocks as all the rows at once, and so to the
// same bits.
const BlockRows = 1024

// blockValues is the most values of dense rows in a block. Tests lower it.
var blockValues = 1 << 24

// blockRows returns the rows of a block of the rows X, with d columns.
func blockRows(X mat.Matrix, d int) int {
	block := BlockRows
	if _, sparse := X.(mat.RowNonZeroDoer); !sparse || isDense(X) {
		for block > 1 && block*d > blockValues {
			block /= 2
		}
	}
	return block
}

// score calls fn with the scores of the rows of X, transformed, a block of
// rows at a time: the first row of the block, the scores, and their number for
// each row. It returns an error naming the row of a score that is not finite.
func (m *Model) score(X mat.Matrix, fn func(lo int, scores []float64, S int)) error {
	if err := m.check(); err != nil {
		return err
	}
	n, d := X.Dims()
	if !accepts(m.Classifier, d) {
		if want := m.Features(); want > 0 {
			return errorf(perceptron.ErrShape, "data: the rows have %d columns, and the model takes %d", d, want)
		}
		return errorf(perceptron.ErrShape, "data: the rows have %d columns, which the model does not take", d)
	}
	S := scoresOf(len(m.Classes))
	block := min(blockRows(X, d), n)
	if err := checkMemory(8*float64(block)*float64(S), "data: the scores of %d rows", block); err != nil {
		return err
	}
	buf := make([]float64, block*S)
	for lo := 0; lo < n; lo += block {
		hi := min(n, lo+block)
		B, err := rowRange(X, lo, hi)
		if err != nil {
			return err
		}
		if B, err = m.transform(B, lo, false, nil); err != nil {
			return err
		}
		scores := m.Classifier.ScoreRows(buf[:(hi-lo)*S], B)
		for k, v := range scores {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return errorAt(perceptron.ErrNonFinite, 0, lo+k/S, -1, "data: row %d: the model's score is %v: the values of the row are too large for its weights", lo+k/S+1, v)
			}
		}
		fn(lo, scores, S)
	}
	return nil
}

// rowRange returns rows lo to hi-1 of X: those of a *mat.Dense and a
// *perceptron.CSR in place, and others copied, as Subset copies them.
func rowRange(X mat.Matrix, lo, hi int) (mat.Matrix, error) {
	n, c := X.Dims()
	if lo == 0 && hi == n {
		return X, nil
	}
	switch X := X.(type) {
	case *mat.Dense:
		return X.Slice(lo, hi, 0, c), nil
	case *perceptron.CSR:
		return X.RowSlice(lo, hi), nil
	}
	rows := make([]int, hi-lo)
	for k := range rows {
		rows[k] = lo + k
	}
	sub, err := (&Set{X: X}).Subset(rows)
	if err != nil {
		return nil, err
	}
	return sub.X, nil
}
