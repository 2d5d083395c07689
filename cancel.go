// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// The calls that a context stops: the Context forms of Fit, Learn,
// FitShards, DatasetMargin and NovikoffBound, each a function that takes
// the context first, as Go's convention asks, where a context among the
// settings of a classifier would outlive the call and travel with the
// classifier's copies. The context reaches the work through the data set
// of the call, which lives as long as the call, as a halt that the long
// loops poll. Without a context, or with one that is never done, the halt
// is nil, and a poll costs a comparison with nil.

// FitContext is the Fit of c, a classifier of this package, stopped when
// ctx is done: Fit then returns an error that wraps ctx.Err(), and leaves
// c as it was, as a failed Fit does. It polls ctx after at most about 2^20
// multiplications of work: at every epoch, every few visits, within the
// counts of the exact pocket and the blocks of Kernel, and at every class
// of OneVsRest; it does not stop within the few passes over the rows, or
// the copies of them, before and after the epochs. If ctx is done before
// the call, FitContext returns at once. OnUpdate may have been called for
// the updates before the stop. FitContext returns the errors of c's Fit
// otherwise, and an error if c is not a classifier of this package or is
// nil. With a ctx that is never done, such as context.Background(), it is
// Fit.
func FitContext(ctx context.Context, c Classifier, X mat.Matrix, y []float64) error {
	h, err := newHalt(ctx)
	if err != nil {
		return err
	}
	switch c := c.(type) {
	case *OneVsRest:
		if c != nil {
			return c.fit(X, y, h)
		}
	case model:
		if !isNil(c) {
			return fitData(c, X, y, h)
		}
	}
	return fmt.Errorf("perceptron: FitContext of a %s: want a classifier of this package", typeName(c))
}

// LearnContext is the Learn of c, a Perceptron, an Averaged, a Voted or a
// Kernel, stopped when ctx is done: Learn then returns an error that wraps
// ctx.Err(), and leaves c as it was before the call, though it had
// learned some of the rows. It polls ctx as FitContext does, and a Kernel
// at every visit, which scores the row with every support vector; it does
// not stop within the check of the rows, or the copy of the model that a
// stop sets it back to. It makes the copy once the checks of Learn have
// passed: a
// Perceptron's weights, an Averaged's
// weights and their sums, a Voted's last weights, or a Kernel's support
// vectors and mistakes; this costs as much as the model's size, and
// returns an error of kind ErrTooLarge if the copy does not fit in the
// memory left. With a model much larger than the rows, such as one of
// hashed features, a check of ctx between calls of Learn costs less. If
// ctx is done before the call, LearnContext returns at once. It returns
// the errors of c's Learn otherwise, and an error if c is none of those
// types or is nil. With a ctx that is never done, such as
// context.Background(), it is Learn, and copies nothing.
func LearnContext(ctx context.Context, c Classifier, X mat.Matrix, y []float64) error {
	h, err := newHalt(ctx)
	if err != nil {
		return err
	}
	if l, ok := c.(online); ok && !isNil(c) {
		return l.learnData(X, y, h)
	}
	return fmt.Errorf("perceptron: LearnContext of a %s: want a Perceptron, an Averaged, a Voted or a Kernel", typeName(c))
}

// FitShardsContext is FitShards, stopped when ctx is done: it then
// returns an error that wraps ctx.Err(), and leaves m as it was. It polls
// ctx as FitContext does, and at every round.
func FitShardsContext(ctx context.Context, m Classifier, X []mat.Matrix, y [][]float64, byMistakes bool) error {
	h, err := newHalt(ctx)
	if err != nil {
		return err
	}
	return fitShards(m, X, y, byMistakes, h)
}

// DatasetMarginContext is DatasetMargin, stopped when ctx is done: it then
// returns the zero MaxMargin and an error that wraps ctx.Err(). It polls
// ctx after at most about 2^20 multiplications of work, within the passes
// over the rows and the cycles on the working set, but not within the
// pass that checks the rows first.
func DatasetMarginContext(ctx context.Context, X mat.Matrix, y []float64, s *MarginSettings) (MaxMargin, error) {
	h, err := newHalt(ctx)
	if err != nil {
		return MaxMargin{}, err
	}
	return datasetMargin(X, y, s, h)
}

// NovikoffBoundContext is NovikoffBound, stopped when ctx is done: it then
// returns the zero MistakeBound and an error that wraps ctx.Err(). It
// polls ctx as DatasetMarginContext does.
func NovikoffBoundContext(ctx context.Context, X mat.Matrix, y []float64, s *MarginSettings) (MistakeBound, error) {
	h, err := newHalt(ctx)
	if err != nil {
		return MistakeBound{}, err
	}
	return novikoffBound(X, y, s, h)
}

// online is a classifier with Learn: learnData is its Learn, stopped by
// h if h is not nil, which then leaves the model as it was.
type online interface {
	Classifier
	Learn(X mat.Matrix, y []float64) error
	learnData(X mat.Matrix, y []float64, h *halt) error
}

// halt stops the work of one call when the call's context is done. A nil
// *halt never stops it.
type halt struct {
	ctx  context.Context
	done <-chan struct{}
}

// newHalt returns the halt of a call with the context ctx: nil if ctx is
// never done. It returns the error of a stopped call if ctx is done
// already, and an error if ctx is nil.
func newHalt(ctx context.Context) (*halt, error) {
	if ctx == nil {
		return nil, errors.New("perceptron: the Context is nil: want one, such as context.Background()")
	}
	done := ctx.Done()
	if done == nil {
		return nil, nil
	}
	h := &halt{ctx: ctx, done: done}
	return h, h.err()
}

// err returns the error of a stopped call if the context is done, and nil
// otherwise or if h is nil. It costs a receive that does not wait, so the
// loops call it after a block of work, not at every element. It is not
// inlined, so that poll is, at no more cost than a comparison with nil
// at each iteration of a loop.
//
//go:noinline
func (h *halt) err() error {
	if h == nil {
		return nil
	}
	select {
	case <-h.done:
		return h.stoppedError()
	default:
		return nil
	}
}

// poll returns err() at the iterations i of a loop with i&mask == 0, as
// pollMask spaces them, and nil at the others or if h is nil.
func (h *halt) poll(i, mask int) error {
	if h == nil || i&mask != 0 {
		return nil
	}
	return h.err()
}

// stoppedError returns the error of a call stopped by its context: it
// wraps ctx.Err(), and the cause of the cancellation if it has another.
func (h *halt) stoppedError() error {
	err := h.ctx.Err()
	if cause := context.Cause(h.ctx); cause != nil && cause != err {
		return fmt.Errorf("perceptron: stopped: %w: %w", err, cause)
	}
	return fmt.Errorf("perceptron: stopped: %w", err)
}

// stopped reports whether err is the error of a call that h stopped.
func (h *halt) stopped(err error) bool {
	return h != nil && err != nil && errors.Is(err, h.ctx.Err())
}

// pollMask returns the mask of the iterations of a loop that poll a halt,
// those whose index i has i&mask == 0, for iterations of about per
// multiplications each: a power of two of them, at most 1024, that makes
// at most about 2^20 multiplications between two polls, few enough for a
// prompt stop and many enough that the polls cost nothing measurable.
func pollMask(per float64) int {
	k := 1024
	for k > 1 && float64(k)*per > 1<<20 {
		k /= 2
	}
	return k - 1
}

// rowMask returns the mask of pollMask for a loop whose iterations each
// read S times a row of ds of the rows' average length.
func (ds *dataset) rowMask(S int) int {
	return pollMask(float64(S) * ds.words() / float64(max(ds.n, 1)))
}

// typeName returns the type of c for messages, and says if it is nil.
func typeName(c any) string {
	if c != nil && isNil(c) {
		return fmt.Sprintf("nil %T", c)
	}
	return fmt.Sprintf("%T", c)
}
