// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"context"
	"math"
	"runtime/debug"
	"strings"

	"github.com/seed5ae3614e/perceptron"
	"gonum.org/v1/gonum/mat"
)

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
// dense rows, a *mat.Dense or another mat.RawMatrixer, and sparse rows, a
// *perceptron.CSR, that the Scaler does not centre, it transforms where
// they are, through their raw data; other rows it transforms into a copy,
// as Fit does, that takes the place of s.X, and of the rows if the caller
// keeps them nowhere else: their memory then goes back to the system
// (debug.FreeOSMemory) before the Classifier allocates its model.
// Afterwards s.X holds the rows as the Classifier took them, for the
// Classifier, not the Model's methods, whose steps would transform them
// again. The statistics that CheckRows compares rows with are those of the
// rows as they were given. A FitInPlace that fails may leave the rows of s
// transformed, all or some, and the row of an error in part. It may run
// concurrently as Fit.
func (m *Model) FitInPlace(ctx context.Context, s *Set) error { return m.fit(ctx, s, true) }

// fit is FitContext, or FitInPlace if inPlace is set.
func (m *Model) fit(ctx context.Context, s *Set, inPlace bool) error {
	if err := s.check(); err != nil {
		return err
	}
	switch {
	case s.Y == nil:
		return errorf(perceptron.ErrLabels, "data: Fit needs the labels of the rows, and the Set has none")
	case m.Classifier == nil:
		return errorf(perceptron.ErrSetting, "data: the Model has no Classifier to fit")
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
			return nil, errorf(perceptron.ErrLabels, "data: the Classifier has the class %v, which is none of the %d Classes of the Set: its Labels are not the indices of the Classes", v, len(classes))
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
		return errorf(perceptron.ErrLabels, "data: Learn needs the labels of the rows, and the Set has none")
	}
	c, ok := m.Classifier.(interface {
		Learn(X mat.Matrix, y []float64) error
	})
	if !ok {
		return errorf(perceptron.ErrSetting, "data: the Classifier, a %T, has no method Learn", m.Classifier)
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
				return errorf(perceptron.ErrLabels, "data: the Set's classes %s, want the Model's, %s, first", quoteAll(s.Classes), quoteAll(m.Classes))
			}
		}
		if err := checkMemory(8*float64(len(y)), "data: the class values of %d rows", len(y)); err != nil {
			return err
		}
		values := m.Classifier.Classes()
		y = make([]float64, len(s.Y))
		for i, k := range s.Y {
			if int(k) >= len(values) {
				return errorAt(perceptron.ErrLabels, 0, i, -1, "data: row %d is of the class %s, which is none of the Model's", i+1, quote(s.Classes[int(k)]))
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
