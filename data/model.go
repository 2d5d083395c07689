// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/scorer"
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
// gives, if it has one that Transform takes, or its Scaler's, if any, or
// its Classifier's, if it is one of package perceptron's, fitted or
// loaded, and 0 otherwise.
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
	return scorer.Width(m.Classifier)
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
		return 0, wrapf(err, "data: %w", err)
	}
	return h.cols(), nil
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
		return nil, errorf(perceptron.ErrShape, "data: no rows to transform: X is nil")
	}
	return m.transform(X, 0, false, nil)
}

// TransformInPlace is Transform, but it transforms dense rows, a
// *mat.Dense or another mat.RawMatrixer, and sparse rows, a
// *perceptron.CSR, that the Scaler does not centre, in place, through
// their raw data, and returns X; other rows it transforms into a copy, as
// Transform does. The rows it returns are those that the Classifier
// takes, not the Model's methods, whose steps would transform them again.
// It returns the errors of Transform, after which the rows before the one
// of the error stay transformed, and that row may be in part. It may run
// concurrently as Transform, with no other call that reads X.
func (m *Model) TransformInPlace(X mat.Matrix) (mat.Matrix, error) {
	if X == nil {
		return nil, errorf(perceptron.ErrShape, "data: no rows to transform: X is nil")
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

// check returns an error if m is not a Model that Predict takes.
func (m *Model) check() error {
	if m.Classifier == nil {
		return errorf(perceptron.ErrNotFitted, "data: the Model has no Classifier")
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

// accepts reports whether the classifier c takes rows of d columns: those
// of its width, if it is one of package perceptron's, fitted or loaded.
// Another Scorer's methods panic on rows of other columns, which is all
// that tells them, as a Scorer has no method that gives its columns.
func accepts(c perceptron.Scorer, d int) (ok bool) {
	if w := scorer.Width(c); w > 0 {
		return w == d
	}
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
