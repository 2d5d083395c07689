// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"context"
	"errors"
)

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
		return nil, errorf(ErrSetting, "perceptron: the Context is nil: want one, such as context.Background()")
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
		return wrapf(err, "perceptron: stopped: %w: %w", err, cause)
	}
	return wrapf(err, "perceptron: stopped: %w", err)
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
