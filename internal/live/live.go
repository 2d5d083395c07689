// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package live publishes a model that one goroutine trains to goroutines
// that read it at the same time, each read seeing the model as a whole
// call of training left it.
//
// A view that Set publishes is never written again: training writes a
// copy of it, and so a read reads it as it is. Swap publishes the copy
// that training wrote, and returns the view it replaced as soon as no
// read reads it, for training to bring up to date and write next: the
// reads of such a view count themselves in and out, at the cost of two
// atomic additions. Double buffering of this kind, rather than a lock,
// keeps reads from ever waiting on training; rather than a copy of the
// whole model at every call of training, the trainer copies only what
// the call changed.
package live

import (
	"sync/atomic"
	"time"
)

// View is a model of type M as the readers read it.
type View[M any] struct {
	M M

	// counted is set for a view that a Learn will write again once no
	// call reads it, and readers counts the calls that read it.
	counted bool
	readers atomic.Int64
}

// Live holds the view of a model that its readers read, none in its zero
// value. Its methods but Read are for the one goroutine that trains.
type Live[M any] struct {
	cur atomic.Pointer[View[M]]
}

// Read returns the view to read, which the caller must pass to Done when
// it has read it, unless it is Fixed, or nil if there is none. It never
// waits.
func (l *Live[M]) Read() *View[M] {
	// The view of a model that is never written again is returned by a
	// function small enough for the compiler to inline.
	if v := l.cur.Load(); v == nil || !v.counted {
		return v
	}
	return l.count()
}

// count is Read of a view that counts its readers.
func (l *Live[M]) count() *View[M] {
	for {
		v := l.cur.Load()
		if v == nil || !v.counted {
			return v
		}
		v.readers.Add(1)
		// A view that is still published after the count is one that
		// no Learn writes until the count is back to zero.
		if l.cur.Load() == v {
			return v
		}
		v.readers.Add(-1)
	}
}

// Fixed reports whether v is never to be written again, so that a read of
// it may skip Done. It may run concurrently with anything: whether a view
// is fixed is set before Live publishes it.
func (v *View[M]) Fixed() bool { return !v.counted }

// Done ends a read of v.
func (v *View[M]) Done() {
	if v.counted {
		v.readers.Add(-1)
	}
}

// Set publishes m, which is never to be written again.
func (l *Live[M]) Set(m M) { l.cur.Store(&View[M]{M: m}) }

// Current returns the published model, for the goroutine that trains, or
// that of a view never to be written again, for any goroutine; the zero
// M if there is none.
func (l *Live[M]) Current() M {
	if v := l.cur.Load(); v != nil {
		return v.M
	}
	var none M
	return none
}

// spinFor is how long Swap looks for the end of the calls that read the
// view it replaced before it sleeps: about the time of a prediction of a
// few rows.
const spinFor = 20 * time.Microsecond

// Swap publishes m, which the next Learn but one will write again, and
// returns the model of the view that it replaces, once no call reads it,
// and whether it may be written: not if it was never to be written again.
func (l *Live[M]) Swap(m M) (old M, writable bool) {
	was := l.cur.Swap(&View[M]{M: m, counted: true})
	if was == nil || !was.counted {
		return old, false
	}
	// Calls that read the view take as long as their rows. A short one
	// ends while the trainer looks again; for a longer one it sleeps,
	// longer as the call lasts. It does not yield by runtime.Gosched,
	// which, where every processor has goroutines to run, puts it behind
	// all of them each time: it would wait for the rest of the program.
	wait := time.Microsecond
	for spin := time.Now(); was.readers.Load() != 0; {
		if time.Since(spin) < spinFor {
			continue
		}
		time.Sleep(wait)
		wait = min(2*wait, time.Millisecond)
	}
	return was.M, true
}
