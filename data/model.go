// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// Model is a classifier together with what is done to the rows before it
// sees them, as scikit-learn's Pipeline is: it predicts from rows as a
// reader returns them. The command perceptron saves its models as Models,
// which LoadModel loads.
//
// The rows go through the steps in this order: the Scaler scales their
// columns, if it is not nil, and then each row is scaled to unit length,
// if Normalize is set. The classifier takes the rows that come out, and
// the Calibration, if it is not nil, turns its scores into probabilities.
//
// A Model of text has a Hashing, the one that turned the texts of its
// training rows into rows. Its methods take rows, not texts, as they take
// the rows of any reader: Text{Hashing: *m.Hashing} reads them from a
// file, and m.Hashing.Transform makes them of texts, so that a text
// becomes the row that it became in training, and the steps after the
// Hashing apply to it as to any row. The methods check that the rows have
// the Hashing's 2^Bits columns; they cannot tell rows that another Hashing
// of as many columns made.
type Model struct {
	// Classifier is the fitted classifier.
	Classifier perceptron.Scorer

	// Classes are the labels of the classes of the Classifier, in the
	// order of its Classes: Classes[k] is the label of the class of value
	// Classifier.Classes()[k]. Predict returns indices into Classes, and a
	// reader given Classes as its own reads the labels of rows to test the
	// model on by them, as Predict numbers them.
	Classes []string

	// Names, if not nil, are the names of the classes, one for each of
	// Classes, that reports show in place of the labels.
	Names []string

	// Label is the label column of the CSV rows the model was trained on,
	// as CSV's Label says it, or "" if they were not CSV.
	Label string

	// Hashing, if not nil, is the Hashing that turned the texts of the
	// training rows into rows, of 2^Bits columns, and that turns new
	// texts into the rows that the Model takes.
	Hashing *Hashing

	// Scaler, if not nil, scales the columns of the rows: it standardises
	// them, as NewScaler's does, or weighs them, as NewIDF's does.
	Scaler *Scaler

	// Normalize scales each row to unit Euclidean length, after the
	// Scaler, dividing its values by its length; a row of zeros stays so.
	Normalize bool

	// Calibration, if not nil, turns the Classifier's scores into the
	// probabilities of the classes that Probabilities and Top give:
	// Calibrate fits it to rows that the Classifier did not train on.
	// Fit, which trains the Classifier anew, sets it to nil; Learn keeps
	// it, fitted to the scores that the Classifier gave before, which
	// Calibrate fits again.
	Calibration *Calibration

	features int      // the columns of the rows, 0 if not known
	rows     rowStats // of the training rows, as read
}

// Features returns the number of features of the rows that the model
// takes: those of the rows that Fit was given, or those of the model that
// LoadModel loaded; for a Model made otherwise, those that its Hashing
// gives, if it has one that Transform takes, or its Scaler's, if any, and
// 0 otherwise.
func (m *Model) Features() int {
	switch {
	case m.features != 0:
		return m.features
	case m.Hashing != nil:
		cols, _ := m.hashingCols()
		return cols
	case m.Scaler != nil:
		return len(m.Scaler.Scale)
	}
	return 0
}

// checkHashing returns an error if the Model has a Hashing that Transform
// does not take, or that gives other than the d columns of the rows.
func (m *Model) checkHashing(d int) error {
	cols, err := m.hashingCols()
	if err == nil && cols > 0 && cols != d {
		err = errorf(perceptron.ErrShape, "data: the rows have %d columns, and the Model's Hashing gives %d", d, cols)
	}
	return err
}

// hashingCols returns the number of columns of the rows that the Model's
// Hashing gives, or 0 if it has none, and an error if it is not one that
// Transform takes.
func (m *Model) hashingCols() (int, error) {
	if m.Hashing == nil {
		return 0, nil
	}
	h, err := newHasher(*m.Hashing)
	if err != nil {
		return 0, fmt.Errorf("data: %w", err)
	}
	return h.cols(), nil
}

// Fit fits the Classifier to the rows of s, transformed as Transform
// transforms them, with the class values 0, 1, … that s.Y holds and the
// weights of s.Weights, and sets Classes to the labels of the classes
// that the Classifier then has:
// those of s.Classes, or some of them if the rows lack a class and the
// Classifier's settings do not name it. The Scaler, if any, is used as it
// is: NewScaler of the rows of s fits one. Fit also records the number of
// the rows' features and statistics of the rows, by which CheckRows tells
// rows unlike them, sets Calibration to nil, and keeps no reference to s.
//
// Fit returns an error if s is not a Set that Subset takes or has no
// labels, if the Classifier is nil or its Fit fails, if the Model has a
// Hashing that Transform does not take or that gives other than the
// columns of s, or if Transform fails; and if s has Weights and the
// Classifier is not one of package perceptron, which alone take them. A
// failed Fit leaves the Model as it was, but for what the Classifier's Fit
// leaves. It holds the transformed rows while the Classifier fits, if
// there are steps before it. It may run concurrently with none of the
// Model's methods.
func (m *Model) Fit(s *Set) error { return m.fit(context.Background(), s, false) }

// FitContext is Fit, with the Classifier's Fit stopped when ctx is done,
// as perceptron.FitContext stops it, which then leaves the Model as it
// was. With a ctx that may be done, the Classifier must be one of package
// perceptron. It may run concurrently as Fit.
func (m *Model) FitContext(ctx context.Context, s *Set) error { return m.fit(ctx, s, false) }

// FitInPlace is FitContext, but it transforms the rows of s in place,
// where FitContext transforms a copy of them, so that it holds them once:
// dense rows, a *mat.Dense or another mat.RawMatrixer, it transforms where
// they are; other rows, sparse ones among them, whose values a
// *perceptron.CSR keeps to itself, it transforms into a copy, as Fit does,
// that takes the place of s.X, and of the rows if the caller keeps them
// nowhere else: their memory then goes back to the system
// (debug.FreeOSMemory) before the Classifier allocates its model.
// Afterwards s.X holds the rows as the Classifier took them, for the
// Classifier, not the Model's methods, whose steps would transform them
// again. The statistics that CheckRows compares rows with are those of the
// rows as they were given. A FitInPlace that fails may leave the rows of s
// transformed, all or some. It may run concurrently as Fit.
func (m *Model) FitInPlace(ctx context.Context, s *Set) error { return m.fit(ctx, s, true) }

// fit is FitContext, or FitInPlace if inPlace is set.
func (m *Model) fit(ctx context.Context, s *Set, inPlace bool) error {
	if err := s.check(); err != nil {
		return err
	}
	switch {
	case s.Y == nil:
		return errors.New("data: Fit needs the labels of the rows, and the Set has none")
	case m.Classifier == nil:
		return errors.New("data: the Model has no Classifier to fit")
	}
	_, d := s.X.Dims()
	if err := m.checkHashing(d); err != nil {
		return err
	}
	// The statistics of the rows as given, which change in place: taken
	// as each row is transformed, if any is.
	var acc *rowAcc
	if inPlace {
		acc = new(rowAcc)
	}
	raw := s.X
	X, err := m.transform(raw, 0, inPlace, acc)
	if err != nil {
		return err
	}
	if inPlace {
		s.X = X
	}
	// The statistics of the rows as they were, before the Classifier's
	// fit: rows transformed into a copy in place of them then go before
	// it allocates its model, their memory returned to the system.
	var rows rowStats
	if acc != nil && acc.n > 0 {
		rows = acc.stats()
	} else {
		rows = statsOf(raw) // the rows as they were: no step changed them
	}
	if inPlace && X != raw {
		raw = nil
		debug.FreeOSMemory()
	}
	if s.Weights == nil && ctx != nil && ctx.Done() == nil {
		err = m.Classifier.Fit(X, s.Y)
	} else {
		err = perceptron.FitContext(ctx, m.Classifier, X, s.Y, s.Weights...)
	}
	if err != nil {
		return err
	}
	classes, err := labelsOf(m.Classifier.Classes(), s.Classes)
	if err != nil {
		return err
	}
	m.features, m.Classes, m.rows, m.Calibration = d, classes, rows, nil
	return nil
}

// labelsOf returns the labels of the class values, indices into the
// classes of the rows, or an error if one is not.
func labelsOf(values []float64, classes []string) ([]string, error) {
	labels := make([]string, len(values))
	for k, v := range values {
		if v != math.Trunc(v) || v < 0 || v >= float64(len(classes)) {
			return nil, fmt.Errorf("data: the Classifier has the class %v, which is none of the %d Classes of the Set: its Labels are not the indices of the Classes", v, len(classes))
		}
		labels[k] = classes[int(v)]
	}
	return labels, nil
}

// Learn trains the Classifier on the rows of s, transformed as Transform
// transforms them, visiting each row once with its Learn, as
// perceptron.Perceptron's Learn does, from the model it has. The classes
// of s must be those of the Model: if the Model has Classes, s.Classes
// must start with them, as a reader gives them Classes to read the labels
// by, and every row must be of one of them; if it has none, the
// Classifier starts from its Labels, which must be the indices of the
// classes of s, and Learn sets Classes as Fit does. It also adds the rows
// to the statistics that CheckRows compares rows with.
//
// Learn returns an error, and changes nothing, if s is not a Set that
// Subset takes or has no labels, if a row is of a class that is none of
// the Model's, naming it, if the Classifier has no method Learn, as
// perceptron.Pocket has not, if the Model has a Hashing that Transform
// does not take or that gives other than the columns of s, if Transform
// fails, or if s has Weights and the Classifier is not one of package
// perceptron; and the errors of the Classifier's Learn, which then
// changes nothing, as those of package perceptron do. It holds the transformed rows and
// their class values while the Classifier learns. It may run concurrently
// with the methods that predict, as Predict says, but not with another
// Learn, with WriteTo, Save or CheckRows, which read the statistics of the
// rows that it adds to.
func (m *Model) Learn(s *Set) error { return m.LearnContext(context.Background(), s) }

// LearnContext is Learn, with the Classifier's Learn stopped when ctx is
// done, as perceptron.LearnContext stops it, which then leaves the Model
// as it was. With a ctx that may be done, the Classifier must be one of
// package perceptron. It may run concurrently as Learn.
func (m *Model) LearnContext(ctx context.Context, s *Set) error {
	if err := s.check(); err != nil {
		return err
	}
	if s.Y == nil {
		return errors.New("data: Learn needs the labels of the rows, and the Set has none")
	}
	c, ok := m.Classifier.(interface {
		Learn(X mat.Matrix, y []float64) error
	})
	if !ok {
		return fmt.Errorf("data: the Classifier, a %T, has no method Learn", m.Classifier)
	}
	_, d := s.X.Dims()
	if err := m.checkHashing(d); err != nil {
		return err
	}
	y := s.Y
	if m.Classes != nil {
		if err := m.check(); err != nil {
			return err
		}
		for k, l := range m.Classes {
			if k >= len(s.Classes) || s.Classes[k] != l {
				return fmt.Errorf("data: the Set's classes %s, want the Model's, %s, first", quoteAll(s.Classes), quoteAll(m.Classes))
			}
		}
		if err := checkMemory(8*float64(len(y)), "data: the class values of %d rows", len(y)); err != nil {
			return err
		}
		values := m.Classifier.Classes()
		y = make([]float64, len(s.Y))
		for i, k := range s.Y {
			if int(k) >= len(values) {
				return fmt.Errorf("data: row %d is of the class %s, which is none of the Model's", i+1, quote(s.Classes[int(k)]))
			}
			y[i] = values[int(k)]
		}
	}
	X, err := m.Transform(s.X)
	if err != nil {
		return err
	}
	if s.Weights == nil && ctx != nil && ctx.Done() == nil {
		err = c.Learn(X, y)
	} else {
		err = perceptron.LearnContext(ctx, m.Classifier, X, y, s.Weights...)
	}
	if err != nil {
		return err
	}
	if m.Classes == nil {
		classes, err := labelsOf(m.Classifier.Classes(), s.Classes)
		if err != nil {
			return err
		}
		m.features, m.Classes = d, classes
	}
	m.rows = m.rows.merge(statsOf(s.X))
	return nil
}

// quoteAll returns the labels quoted, the first ten of many.
func quoteAll(labels []string) string {
	var q []string
	for _, l := range labels[:min(len(labels), 10)] {
		q = append(q, quote(l))
	}
	if len(labels) > 10 {
		q = append(q, "…")
	}
	return strings.Join(q, ", ")
}

// Transform returns the rows of X as the Classifier takes them: a copy of
// X that the Scaler has standardised and Normalize has scaled, dense or
// sparse as the Scaler's Transform returns them, or X itself if the Model
// has neither step. It returns an error if X is nil or has not the
// Scaler's columns, or naming the row and the column of a value that is
// not finite or that a step makes overflow. The rows of a Model of text
// are those that its Hashing made of the texts: Transform applies the
// steps after it.
//
// Transform holds the rows it returns, and checks their memory first, as
// Scaler's Transform does. It may run concurrently as Predict.
func (m *Model) Transform(X mat.Matrix) (mat.Matrix, error) {
	if X == nil {
		return nil, errors.New("data: no rows to transform: X is nil")
	}
	return m.transform(X, 0, false, nil)
}

// TransformInPlace is Transform, but it transforms dense rows, a
// *mat.Dense or another mat.RawMatrixer, in place, and returns X; other
// rows it transforms into a copy, as Transform does. The rows it returns
// are those that the Classifier takes, not the Model's methods, whose
// steps would transform them again. It returns the errors of Transform,
// after which the rows before the one of the error stay transformed. It
// may run concurrently as Transform, with no other call that reads X.
func (m *Model) TransformInPlace(X mat.Matrix) (mat.Matrix, error) {
	if X == nil {
		return nil, errors.New("data: no rows to transform: X is nil")
	}
	return m.transform(X, 0, true, nil)
}

// transform is Transform of the rows X, or TransformInPlace if inPlace is
// set, which are the rows of a larger matrix from row first on, as errors
// number them; it adds the rows it transforms to acc, if not nil.
func (m *Model) transform(X mat.Matrix, first int, inPlace bool, acc *rowAcc) (mat.Matrix, error) {
	if s := m.Scaler; s != nil {
		// The values of the Scaler are checked as the rows use them, so
		// that a row costs its own columns.
		if err := s.checkShape(); err != nil {
			return nil, err
		}
		if err := s.fits(X); err != nil {
			return nil, err
		}
	} else if !m.Normalize {
		return X, nil
	}
	return transformRows(X, first, m.Scaler, m.Normalize, inPlace, acc)
}

// normalize divides the values of a row by its Euclidean length, unless it
// is 0, and returns an error if the length overflows.
func normalize(row []float64) error {
	norm := floats.Norm(row, 2)
	switch {
	case math.IsInf(norm, 0):
		return errorf(perceptron.ErrNonFinite, "the length of the row overflows")
	case norm > 0:
		for k := range row {
			row[k] /= norm
		}
	}
	return nil
}

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
		return nil, errors.New("data: no rows to predict: X is nil")
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
		return nil, errors.New("data: no rows to score: X is nil")
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
				return errorf(perceptron.ErrNonFinite, "data: row %d: the model's score is %v: the values of the row are too large for its weights", lo+k/S+1, v)
			}
		}
		fn(lo, scores, S)
	}
	return nil
}

// check returns an error if m is not a Model that Predict takes.
func (m *Model) check() error {
	if m.Classifier == nil {
		return errors.New("data: the Model has no Classifier")
	}
	if K := len(m.Classifier.Classes()); len(m.Classes) != K {
		return errorf(perceptron.ErrShape, "data: the Model has %d Classes, and its Classifier %d classes", len(m.Classes), K)
	}
	if m.Names != nil && len(m.Names) != len(m.Classes) {
		return errorf(perceptron.ErrShape, "data: the Model has %d Names and %d Classes, want as many", len(m.Names), len(m.Classes))
	}
	cols, err := m.hashingCols()
	if err == nil && cols > 0 && !accepts(m.Classifier, cols) {
		err = errorf(perceptron.ErrShape, "data: the Model's Hashing gives %d columns, which its Classifier does not take", cols)
	}
	return err
}

// accepts reports whether the classifier c takes rows of d columns. The
// Scorer's methods panic on rows of other columns, which is all that tells
// them, as a Scorer has no method that gives its columns.
func accepts(c perceptron.Scorer, d int) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	none, err := perceptron.NewCSR(0, d, []int{0}, nil, nil)
	if err != nil {
		return false
	}
	c.ScoreRows(nil, none)
	return true
}

// rowRange returns rows lo to hi-1 of X: dense rows in place, and others
// copied, as Subset copies them.
func rowRange(X mat.Matrix, lo, hi int) (mat.Matrix, error) {
	n, c := X.Dims()
	if lo == 0 && hi == n {
		return X, nil
	}
	if d, ok := X.(*mat.Dense); ok {
		return d.Slice(lo, hi, 0, c), nil
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
