// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// The calls that a context stops: the Context forms of Fit, Learn,
// FitShards, DatasetMargin and NovikoffBound, each a function that takes
// the context first, as Go's convention asks, where a context among the
// settings of a classifier would outlive the call and travel with the
// classifier's copies. The context reaches the work through the data set
// of the call, which lives as long as the call, as a halt (halt.go) that
// the long loops poll. Without a context, or with one that is never done,
// the halt is nil, and a poll costs a comparison with nil.

// FitContext is the Fit of c, a classifier of this package, with the
// weights of the rows w, if given, stopped when ctx is done, as the
// package documentation says: it polls ctx at every epoch, every few
// visits, within the counts of the exact pocket and the blocks of Kernel,
// and at every class of OneVsRest, but not within the passes over the
// rows before and after the epochs. OnUpdate may have been called for the
// updates before the stop. It returns the errors of c's Fit and of w,
// which must hold a finite weight >= 0 for each row, and of kind
// ErrSetting if c is nil or of another package.
func FitContext(ctx context.Context, c Classifier, X mat.Matrix, y []float64, w ...float64) error {
	h, err := newHalt(ctx)
	if err != nil {
		return err
	}
	switch c := c.(type) {
	case *OneVsRest:
		if c != nil {
			return c.fit(X, y, w, h)
		}
	case model:
		if !isNil(c) {
			return fitData(c, X, y, w, h)
		}
	}
	return errorf(ErrSetting, "perceptron: FitContext of a %s: want a classifier of this package", typeName(c))
}

// LearnContext is the Learn of c, a Perceptron, an Averaged, a Voted, a
// Kernel or a OneVsRest, with the weights of the rows w, if given, as
// FitContext has them, stopped when ctx is done, as the package
// documentation says: it polls ctx as FitContext does, and a Kernel at
// every visit. A stopped LearnContext leaves c as it was, as a Learn that
// fails does, at no cost but Learn's own. It returns the errors of c's
// Learn and those of w that FitContext returns, and an error if c is nil
// or none of those types. It may run concurrently as c's Learn.
func LearnContext(ctx context.Context, c Classifier, X mat.Matrix, y []float64, w ...float64) error {
	h, err := newHalt(ctx)
	if err != nil {
		return err
	}
	switch c := c.(type) {
	case *OneVsRest:
		if c != nil {
			return c.learnData(X, y, w, h)
		}
	case member:
		if !isNil(c) {
			return learnWith(c, X, y, w, h)
		}
	}
	return errorf(ErrSetting, "perceptron: LearnContext of a %s: want a Perceptron, an Averaged, a Voted, a Kernel or a OneVsRest", typeName(c))
}

// FitShardsContext is FitShards, stopped when ctx is done, as the package
// documentation says; it polls ctx as FitContext does, and at every round.
func FitShardsContext(ctx context.Context, m Classifier, X []mat.Matrix, y [][]float64, byMistakes bool) error {
	h, err := newHalt(ctx)
	if err != nil {
		return err
	}
	return fitShards(m, X, y, byMistakes, h)
}

// DatasetMarginContext is DatasetMargin, stopped when ctx is done, as the
// package documentation says, with the zero MaxMargin. It polls ctx within
// the passes over the rows and the cycles on the working set.
func DatasetMarginContext(ctx context.Context, X mat.Matrix, y []float64, s *MarginSettings) (MaxMargin, error) {
	h, err := newHalt(ctx)
	if err != nil {
		return MaxMargin{}, err
	}
	return datasetMargin(X, y, s, h)
}

// NovikoffBoundContext is NovikoffBound, stopped when ctx is done, as
// DatasetMarginContext is, with the zero MistakeBound.
func NovikoffBoundContext(ctx context.Context, X mat.Matrix, y []float64, s *MarginSettings) (MistakeBound, error) {
	h, err := newHalt(ctx)
	if err != nil {
		return MistakeBound{}, err
	}
	return novikoffBound(X, y, s, h)
}

// typeName returns the type of c for messages, and says if it is nil.
func typeName(c any) string {
	if c != nil && isNil(c) {
		return fmt.Sprintf("nil %T", c)
	}
	return fmt.Sprintf("%T", c)
}
