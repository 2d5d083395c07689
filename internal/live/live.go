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
//
// Lock, for models that training publishes together, as OneVsRest's
// classes, is a read-write lock whose reads spread over the processors
// in the same way.
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

	// one counts the reads of a view that a Learn will write again once
	// none reads it, and is nil, only, for a view never written again;
	// many, if not nil, count the reads from the time two were seen at
	// once, each read on the counter of its token. A view that Swap
	// publishes after that time has many from the start; before it, the
	// read that sees another puts them in place. many is set once, and
	// never changes after. The counters come from the view that the Swap
	// before last published, and a read of that view that found it
	// replaced may still count itself in on them, and then out.
	one  []counter
	many atomic.Pointer[[]counter]
}

// counter is a count of a view's readers, alone on its pair of cache
// lines, so that reads on many cores, each on the counter of its token,
// which usually stays with the processor that runs it, keep each its own
// line rather than take one line from each other at every read.
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

// many returns the number of counters or locks that reads on many
// processors spread over: a power of two, for the tokens, a few times the
// processors that may read at once, up to 64, 8 KiB of them.
func many() int { return min(1<<bits.Len(uint(4*runtime.GOMAXPROCS(0)-1)), 64) }

// A Lock is a read-write lock for data that many processors read at once:
// a read locks the lock of its token, alone on its cache lines, so that
// reads on many cores do not contend for one line, as they would for the
// count of readers of one sync.RWMutex; a write locks them all, in order.
// As with a sync.RWMutex, a goroutine that holds a read must not lock l
// again, for reading or writing. Its zero value is unlocked; it must not
// be copied after first use.
type Lock struct {
	once  sync.Once
	locks []paddedLock
}

// paddedLock is one of a Lock's locks, on a pair of cache lines.
type paddedLock struct {
	sync.RWMutex
	_ [128 - 24]byte
}

// all returns l's locks, made at the first call.
func (l *Lock) all() []paddedLock {
	l.once.Do(func() { l.locks = make([]paddedLock, many()) })
	return l.locks
}

// RLock locks l for reading, and returns the lock to unlock by RUnlock,
// once, when the read is done. It waits while a write holds l, or waits
// for the lock it would take.
func (l *Lock) RLock() *sync.RWMutex {
	locks := l.all()
	m := &locks[token()&(len(locks)-1)].RWMutex
	m.RLock()
	return m
}

// Lock locks l for writing, once every read has ended.
func (l *Lock) Lock() {
	for i := range l.all() {
		l.locks[i].Lock()
	}
}

// Unlock unlocks l, which Lock locked.
func (l *Lock) Unlock() {
	for i := range l.all() {
		l.locks[i].Unlock()
	}
}

// A Reading is one read of a view, which Done ends, once: a read ended
// twice leaves a count that a Swap waits on for ever.
type Reading[M any] struct {
	*View[M]
	n *atomic.Int64 // the counter of the read, nil for a view never written again
}

// Done ends the read. It must be called once for each read, and may run
// concurrently with anything.
func (r Reading[M]) Done() {
	if r.n != nil {
		r.n.Add(-1)
	}
}

// Live holds the view of a model that its readers read, none in its zero
// value. Its methods but Read are for the one goroutine that trains.
type Live[M any] struct {
	cur atomic.Pointer[View[M]]

	// spread is set once two reads have been seen to read at once, so
	// that the views that Swap publishes from then on have many counters
	// from the start.
	spread atomic.Bool

	// spareOne and spare hold the counters of the view that the last
	// Swap replaced, for the next Swap's view, so that a Learn allocates
	// none but the first two sets, and after the turn to many. They are
	// never set to zero: a read that found that view replaced may still
	// count itself in on one of them, and then out.
	spareOne []counter
	spare    *[]counter
}

// Read returns a read of the view, which the caller must end by Done,
// once, when it has read it, unless the view is Fixed; its View is nil if
// there is none. It never waits.
func (l *Live[M]) Read() Reading[M] {
	// The view of a model that is never written again is returned by a
	// function small enough for the compiler to inline.
	if v := l.cur.Load(); v == nil || v.one == nil {
		return Reading[M]{View: v}
	}
	return l.count()
}

// count is Read of a view that counts its readers.
func (l *Live[M]) count() Reading[M] {
	for {
		v := l.cur.Load()
		if v == nil || v.one == nil {
			return Reading[M]{View: v}
		}
		var n *atomic.Int64
		if cs := v.many.Load(); cs != nil {
			n = &(*cs)[token()&(len(*cs)-1)].n
			n.Add(1)
		} else if n = &v.one[0].n; n.Add(1) > 1 {
			// Another read reads at the same time: the reads after this
			// one spread, and so do those of every view Swap publishes.
			if v.many.Load() == nil {
				cs := make([]counter, many())
				v.many.CompareAndSwap(nil, &cs)
			}
			l.spread.Store(true)
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
func (v *View[M]) Fixed() bool { return v.one == nil }

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
	v := &View[M]{M: m, one: l.spareOne}
	if v.one == nil {
		v.one = make([]counter, 1)
	}
	if l.spread.Load() {
		if l.spare == nil {
			cs := make([]counter, many())
			l.spare = &cs
		}
		v.many.Store(l.spare)
	}
	l.spareOne, l.spare = nil, nil
	was := l.cur.Swap(v)
	if was == nil || was.one == nil {
		return old, false
	}
	// many is loaded after the Swap, which is what makes the wait
	// whole: reads that count on many counters put in place before it
	// are waited for, and a read that puts them in place after it finds
	// the view replaced, and counts itself out, as do the reads on them.
	wait(was.one)
	cs := was.many.Load()
	if cs != nil {
		wait(*cs)
	}
	l.spareOne, l.spare = was.one, cs
	return was.M, true
}

// wait returns once every count of cs is zero, for Swap.
func wait(cs []counter) {
	// Calls that read the view take as long as their rows. A short one
	// ends while the trainer looks again; for a longer one it sleeps,
	// longer as the call lasts. It does not yield by runtime.Gosched,
	// which, where every processor has goroutines to run, puts it behind
	// all of them each time: it would wait for the rest of the program.
	nap := time.Microsecond
	for spin, k := time.Now(), 0; k < len(cs); {
		// A count that is zero stays so but for a read that counts
		// itself in and, seeing the view replaced, out again.
		if cs[k].n.Load() == 0 {
			k++
			continue
		}
		if time.Since(spin) < spinFor {
			continue
		}
		time.Sleep(nap)
		nap = min(2*nap, time.Millisecond)
	}
}
