// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Prediction while learning. The prediction methods of a classifier read
// a view of its model that training publishes whole, at the end of Fit or
// of each Learn, so that one goroutine may train while others predict,
// each prediction reading the model as one whole call left it.
//
// A view that Fit or loading publishes is never written again: a Learn
// writes a copy of it, and so a prediction reads it as it is. A Learn
// publishes the copy it wrote, and then brings the view it replaced up to
// date, to write it in the next Learn, as soon as no prediction reads it:
// the calls that read such a view count themselves in and out. So a model
// that learns online is held twice, and a Learn copies what it changed
// once more, which costs what its updates cost; a prediction costs two
// atomic additions more, where a view is never written again costs none.
// Double buffering of this kind, rather than a lock, keeps predictions
// from ever waiting on a Learn; rather than a copy of the whole model at
// every Learn, it copies only what the Learn changed.

// view is a model of type M as the prediction methods read it.
type view[M any] struct {
	m M

	// counted is set for a view that a Learn will write again once no
	// call reads it, and readers counts the calls that read it.
	counted bool
	readers atomic.Int64
}

// live holds the view of a classifier's model that its prediction methods
// read. Its methods but read are for the one goroutine that trains.
type live[M any] struct {
	cur atomic.Pointer[view[M]]
}

// newLive returns a live that publishes m, never to be written again.
func newLive[M any](m M) *live[M] {
	l := new(live[M])
	l.set(m)
	return l
}

// read returns the view to read, which the caller must pass to done when
// it has read it. It never waits.
func (l *live[M]) read() *view[M] {
	for {
		v := l.cur.Load()
		if !v.counted {
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

// done ends a read of v.
func (v *view[M]) done() {
	if v.counted {
		v.readers.Add(-1)
	}
}

// set publishes m, which is never to be written again.
func (l *live[M]) set(m M) { l.cur.Store(&view[M]{m: m}) }

// current returns the published model, for the goroutine that trains.
func (l *live[M]) current() (m M, counted bool) {
	v := l.cur.Load()
	return v.m, v.counted
}

// swap publishes m, which the next Learn but one will write again, and
// returns the model of the view that it replaces, once no call reads it,
// and whether it may be written: not if it was never to be written again.
func (l *live[M]) swap(m M) (old M, writable bool) {
	was := l.cur.Swap(&view[M]{m: m, counted: true})
	if was == nil || !was.counted {
		return old, false
	}
	// Calls that read the view take as long as their rows: wait for
	// them without holding a processor, longer as they last.
	wait := time.Microsecond
	for spins := 0; was.readers.Load() != 0; spins++ {
		if spins < 100 {
			runtime.Gosched()
			continue
		}
		time.Sleep(wait)
		wait = min(2*wait, time.Millisecond)
	}
	return was.m, true
}

// changed is a mistake of a Learn, by which a copy of the weights that did
// not learn it catches up: the row and the update.
type changed struct {
	i  int
	mv move
}

// catchUp sets l, a copy of the weights src before the mistakes log on the
// rows of ds, to src: the weights of the scores that each mistake moved at
// the columns of its row, or all of them where that is less work, and the
// biases.
func (l *table) catchUp(src *table, ds *dataset, log []changed) {
	copy(l.b, src.b)
	work := 0
	for _, c := range log {
		work += 2 * len(ds.row(c.i).val) // at most two scores a mistake
		if work >= len(l.w) {
			copy(l.w, src.w)
			return
		}
	}
	for _, c := range log {
		x := ds.row(c.i)
		l.copyScore(src, &x, c.mv.up)
		if c.mv.down >= 0 {
			l.copyScore(src, &x, c.mv.down)
		}
	}
}

// copyScore sets the weights of score c of l at the columns of x to those
// of src.
func (l *table) copyScore(src *table, x *vec, c int) {
	S := len(l.b)
	if x.ind == nil {
		for j := c; j < len(l.w); j += S {
			l.w[j] = src.w[j]
		}
		return
	}
	for _, j := range x.ind {
		l.w[j*S+c] = src.w[j*S+c]
	}
}
