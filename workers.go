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
	var (
		next  atomic.Int64
		wg    sync.WaitGroup
		once  sync.Once
		first any
	)
	run := func() {
		defer func() {
			if p := recover(); p != nil {
				once.Do(func() { first = p })
				next.Store(int64(n))
			}
		}()
		work := newWork()
		for {
			i := int(next.Add(1)) - 1
			if i >= n {
				return
			}
			work(i)
		}
	}
	for range min(workers(), n) - 1 {
		wg.Go(run)
	}
	run()
	wg.Wait()
	if first != nil {
		panic(first)
	}
}

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
