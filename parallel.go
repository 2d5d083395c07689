// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/bits"
	"runtime"
	"sync"
)

// Every goroutine of the package starts here. Work is split in an order
// fixed by the data and the settings alone, and the pieces are combined
// in that order, so that no result depends on the number of goroutines.

// workers returns the number of goroutines that parallel work is spread
// over: GOMAXPROCS, which the package reads here and nowhere else.
func workers() int { return runtime.GOMAXPROCS(0) }

// parallel makes the calls work(i) for every i in [0, n), spread over at
// most workers() goroutines, the caller's among them, and returns when
// every call has returned. Each goroutine takes its work function from
// newWork, called once on it, so that the function can hold scratch space
// of its own. If a call panics, parallel panics with its value on the
// caller's goroutine. A single call runs on the caller's goroutine, with
// no pool.
func parallel(n int, newWork func() func(i int)) {
	if n == 1 {
		newWork()(0)
		return
	}
	p := newPool(min(workers(), n), func() any { return newWork() })
	defer p.close()
	b := &batch{n: n, work: func(i int, work any) { work.(func(int))(i) }}
	p.submit(b)
	p.wait(b)
}

// pool is a set of goroutines that make the calls of batches of work
// beside the caller's goroutine, the oldest batch first, for work that
// comes in many small batches or that runs ahead of the caller: the
// goroutines start once, and the caller takes part in the batch it waits
// for. Each goroutine has scratch space of its own, which every call it
// makes is given.
type pool struct {
	scratch []any // scratch[0] is the caller's
	mu      sync.Mutex
	cond    sync.Cond // a batch was submitted or finished, or stop
	queue   []*batch  // batches with calls left to hand out
	stop    bool
	done    sync.WaitGroup
}

// batch is the calls work(i, scratch) for i in [0, n). A batch is made
// once and submitted as often as its work comes, so that the work of a
// loop allocates nothing.
type batch struct {
	n        int
	work     func(i int, scratch any)
	handed   int // calls handed out
	finished int // calls returned
	panic    any // the first panic of a call
}

// newPool returns a pool of size-1 goroutines beside the caller's, each
// with scratch space from newScratch.
func newPool(size int, newScratch func() any) *pool {
	p := &pool{scratch: make([]any, max(size, 1))}
	p.cond.L = &p.mu
	for h := range p.scratch {
		p.scratch[h] = newScratch()
	}
	for h := 1; h < len(p.scratch); h++ {
		p.done.Go(func() { p.help(h) })
	}
	return p
}

// submit queues b, whose calls are not under way: its n calls of work.
func (p *pool) submit(b *batch) {
	p.mu.Lock()
	b.handed, b.finished, b.panic = 0, 0, nil
	p.queue = append(p.queue, b)
	p.cond.Broadcast()
	p.mu.Unlock()
}

// wait makes calls of b on the caller's goroutine until none is left to
// hand out, waits for the others, and panics if a call did.
func (p *pool) wait(b *batch) {
	p.mu.Lock()
	for b.finished < b.n {
		if b.handed < b.n {
			p.call(b, 0)
		} else {
			p.cond.Wait()
		}
	}
	p.prune()
	v := b.panic
	p.mu.Unlock()
	if v != nil {
		panic(v)
	}
}

// help is the loop of goroutine h: it makes the calls of the oldest
// batch until close.
func (p *pool) help(h int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		p.prune()
		switch {
		case p.stop:
			return
		case len(p.queue) == 0:
			p.cond.Wait()
		default:
			p.call(p.queue[0], h)
		}
	}
}

// call hands out the next call of b and makes it on goroutine h. It is
// called, and returns, with p.mu held. After a panic b hands out no more
// calls.
func (p *pool) call(b *batch, h int) {
	i := b.handed
	b.handed++
	p.mu.Unlock()
	v := try(b.work, i, p.scratch[h])
	p.mu.Lock()
	if v != nil && b.panic == nil {
		b.panic, b.n = v, b.handed
	}
	if b.finished++; b.finished == b.n {
		p.cond.Broadcast()
	}
}

// try makes the call work(i, scratch) and returns the value of its panic,
// or nil.
func try(work func(int, any), i int, scratch any) (v any) {
	defer func() { v = recover() }()
	work(i, scratch)
	return nil
}

// prune drops from the queue the batches with no call left to hand out.
// It is called with p.mu held.
func (p *pool) prune() {
	k := 0
	for k < len(p.queue) && p.queue[k].handed == p.queue[k].n {
		k++
	}
	p.queue = p.queue[:copy(p.queue, p.queue[k:])]
}

// close stops the goroutines once they have made the calls handed out.
func (p *pool) close() {
	p.mu.Lock()
	p.stop = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.done.Wait()
}

// buffers holds the scratch in which predictions compute one term per
// voter or support vector, or the scores of a row, pooled by the base 2
// log of their capacity, so that concurrent predictions with models of
// any size allocate nothing once the pools are warm.
var buffers [64]sync.Pool

// getBuffer returns a buffer of length n from the pools.
func getBuffer(n int) *[]float64 {
	c := bits.Len(uint(max(n, 1) - 1))
	if buf, ok := buffers[c].Get().(*[]float64); ok {
		*buf = (*buf)[:n]
		return buf
	}
	buf := make([]float64, n, 1<<c)
	return &buf
}

// putBuffer returns a buffer from getBuffer to the pools.
func putBuffer(buf *[]float64) {
	buffers[bits.Len(uint(cap(*buf)-1))].Put(buf)
}

// spread calls f on parts [lo, hi) of [0, n), spreading large n over the
// workers; each element is in one part, so the result does not depend on
// them.
func spread(n int, f func(lo, hi int)) {
	const part = 1 << 16
	parallel((n+part-1)/part, func() func(int) {
		return func(b int) { f(b*part, min(n, (b+1)*part)) }
	})
}
