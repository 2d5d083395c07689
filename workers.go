// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// workers returns the number of goroutines that parallel work is spread
// over: GOMAXPROCS, which the package reads here and nowhere else.
func workers() int { return runtime.GOMAXPROCS(0) }

// parallel makes the calls work(i) for every i in [0, n), spread over at
// most workers() goroutines, the caller's among them, and returns when
// every call has returned. Each goroutine takes its work function from
// newWork, called once on it, so that the function can hold scratch space
// of its own. Which calls a goroutine makes is not fixed, so the result
// must not depend on it. If a call panics, the goroutines take no more
// work, and parallel panics with the first value on the caller's
// goroutine.
func parallel(n int, newWork func() func(i int)) {
	c := newCrew(min(workers(), n), newWork)
	defer c.stop()
	c.do(n)
}

// crew is a set of goroutines that make the calls of parallel batch after
// batch, for work that comes in many small batches: the goroutines start
// once, and a batch allocates nothing.
type crew struct {
	work  []func(int) // work[0] is the caller's
	start chan struct{}
	done  sync.WaitGroup
	n     int
	next  atomic.Int64
	mu    sync.Mutex
	first any // the first panic of the batch
}

// newCrew returns a crew of size goroutines, the caller's among them,
// each with its work function from newWork.
func newCrew(size int, newWork func() func(i int)) *crew {
	c := &crew{work: make([]func(int), max(size, 1)), start: make(chan struct{}, size)}
	c.work[0] = newWork()
	var ready sync.WaitGroup
	for h := 1; h < len(c.work); h++ {
		ready.Add(1)
		go func() {
			c.work[h] = newWork()
			ready.Done()
			for range c.start {
				c.run(h)
				c.done.Done()
			}
		}()
	}
	ready.Wait()
	return c
}

// do makes the calls work(i) for every i in [0, n) as parallel does.
func (c *crew) do(n int) {
	c.n = n
	c.next.Store(0)
	c.first = nil
	helpers := max(min(len(c.work), n)-1, 0)
	c.done.Add(helpers)
	for range helpers {
		c.start <- struct{}{}
	}
	c.run(0)
	c.done.Wait()
	if c.first != nil {
		panic(c.first)
	}
}

// run makes calls of the batch on goroutine h until none is left.
func (c *crew) run(h int) {
	defer func() {
		if p := recover(); p != nil {
			c.mu.Lock()
			if c.first == nil {
				c.first = p
			}
			c.mu.Unlock()
			c.next.Store(int64(c.n))
		}
	}()
	for {
		i := int(c.next.Add(1)) - 1
		if i >= c.n {
			return
		}
		c.work[h](i)
	}
}

// stop ends the crew's goroutines.
func (c *crew) stop() { close(c.start) }

// background starts workers()-1 goroutines that run f, for work that goes
// on beside the caller's, and returns a function that waits for them to
// return. f must not panic.
func background(f func()) (wait func()) {
	var wg sync.WaitGroup
	for range workers() - 1 {
		wg.Go(f)
	}
	return wg.Wait
}

// scratch holds the buffers in which the predictions of Voted and Kernel
// compute one term per voter or support vector, pooled by the base 2 log
// of their capacity, so that concurrent predictions with models of any
// size allocate nothing once the pools are warm.
var scratch [64]sync.Pool

// getScratch returns a buffer of length n from the pools.
func getScratch(n int) *[]float64 {
	c := bits.Len(uint(max(n, 1) - 1))
	if buf, ok := scratch[c].Get().(*[]float64); ok {
		*buf = (*buf)[:n]
		return buf
	}
	buf := make([]float64, n, 1<<c)
	return &buf
}

// putScratch returns a buffer from getScratch to the pools.
func putScratch(buf *[]float64) {
	scratch[bits.Len(uint(cap(*buf)-1))].Put(buf)
}
