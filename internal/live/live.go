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
// atomic additions, on one counter, or, once reads are seen to run at
// once, each on a counter of its processor's, so that reads on many cores
// do not contend for one cache line. Double buffering of this kind,
// rather than a lock, keeps reads from ever waiting on training; rather
// than a copy of the whole model at every call of training, the trainer
// copies only what the call changed.
package live

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// View is a model of type M as the readers read it.
type View[M any] struct {
	M M

	// readers count the reads of a view that a Learn will write again
	// once none reads it, and are nil for a view never written again.
	readers []counter
}

// counter is one of a view's counts of its readers, alone on its pair of
// cache lines. Reads count on the first until two are seen to read at
// once; from then on each counts on the counter of its token, which
// usually stays with the processor that runs it, so that reads on many
// cores keep each its own line rather than take one line from each other
// at every read.
type counter struct {
	n atomic.Int64
	_ [120]byte
}

// tokens holds the tokens of the counters, an int each, which sync.Pool
// keeps with the processor that last put them.
var tokens = sync.Pool{New: func() any { k := int(lastToken.Add(1)); return &k }}

var lastToken atomic.Int64

// token returns a token, which usually stays with the processor that runs
// it: sync.Pool may move it to another, and drops it in a collection.
func token() int {
	t := tokens.Get().(*int)
	k := *t
	tokens.Put(t)
	return k
}

// A Reading is one read of a view, which Done ends, once: a read ended
// twice leaves a count that a Swap waits on for ever.
type Reading[M any] struct {
	*View[M]
	n *atomic.Int64 // the counter of the read, nil for a view never written again
}

// Done ends the read. It must be called once for each read.
func (r Reading[M]) Done() {
	if r.n != nil {
		r.n.Add(-1)
	}
}

// Live holds the view of a model that its readers read, none in its zero
// value. Its methods but Read are for the one goroutine that trains.
type Live[M any] struct {
	cur atomic.Pointer[View[M]]

	// spread is set once two reads have been seen to read at once.
	spread atomic.Bool

	// spare holds the counters of the view that the last Swap replaced,
	// for the next Swap's view, so that a Learn allocates none but the
	// first two sets, and after the turn to many. They are never set to
	// zero: a read that found that view replaced may still count itself
	// in on one of them, and then out.
	spare []counter
}

// Read returns a read of the view, which the caller must end by Done,
// once, when it has read it, unless the view is Fixed; its View is nil if
// there is none. It never waits.
func (l *Live[M]) Read() Reading[M] {
	// The view of a model that is never written again is returned by a
	// function small enough for the compiler to inline.
	if v := l.cur.Load(); v == nil || v.readers == nil {
		return Reading[M]{View: v}
	}
	return l.count()
}

// count is Read of a view that counts its readers.
func (l *Live[M]) count() Reading[M] {
	for {
		v := l.cur.Load()
		if v == nil || v.readers == nil {
			return Reading[M]{View: v}
		}
		n := &v.readers[0].n
		if l.spread.Load() {
			n = &v.readers[token()&(len(v.readers)-1)].n
			n.Add(1)
		} else if n.Add(1) > 1 {
			l.spread.Store(true) // another read reads at the same time
		}
		// A view that is still published after the count is one that
		// no Learn writes until its counts are back to zero.
		if l.cur.Load() == v {
			return Reading[M]{v, n}
		}
		n.Add(-1)
	}
}

// Fixed reports whether v is never to be written again, so that a read of
// it may skip Done. It may run concurrently with anything: whether a view
// is fixed is set before Live publishes it.
func (v *View[M]) Fixed() bool { return v.readers == nil }

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
	// One counter, until two reads are seen at once; then a power of
	// two, for the tokens, a few times the processors that may read at
	// once, up to 64, 8 KiB.
	size := 1
	if l.spread.Load() {
		size = min(1<<bits.Len(uint(4*runtime.GOMAXPROCS(0)-1)), 64)
	}
	readers := l.spare
	if len(readers) != size {
		readers = make([]counter, size)
	}
	was := l.cur.Swap(&View[M]{M: m, readers: readers})
	if was == nil || was.readers == nil {
		l.spare = nil
		return old, false
	}
	// Calls that read the view take as long as their rows. A short one
	// ends while the trainer looks again; for a longer one it sleeps,
	// longer as the call lasts. It does not yield by runtime.Gosched,
	// which, where every processor has goroutines to run, puts it behind
	// all of them each time: it would wait for the rest of the program.
	wait := time.Microsecond
	for spin, k := time.Now(), 0; k < len(was.readers); {
		// A count that is zero stays so but for a read that counts
		// itself in and, seeing the view replaced, out again.
		if was.readers[k].n.Load() == 0 {
			k++
			continue
		}
		if time.Since(spin) < spinFor {
			continue
		}
		time.Sleep(wait)
		wait = min(2*wait, time.Millisecond)
	}
	l.spare = was.readers
	return was.M, true
}
