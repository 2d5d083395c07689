// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package live

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestLiveWhole checks that readers of a live model see only models that a
// writer published whole: the writer writes each model as a run of equal
// numbers into the copy that no reader reads, and a reader that saw two
// different numbers in one read would have seen a model in the making.
func TestLiveWhole(t *testing.T) {
	const size, rounds, readers = 256, 300, 2
	first := make([]int, size)
	l := new(Live[[]int])
	l.Set(first)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var reads atomic.Int64
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := 0
			for !stop.Load() {
				v := l.Read()
				m := v.M
				for _, x := range m {
					if x != m[0] {
						t.Errorf("a read saw %d and %d in one model", m[0], x)
						v.Done()
						return
					}
				}
				if m[0] < last {
					t.Errorf("a read saw model %d after model %d", m[0], last)
				}
				last = m[0]
				v.Done()
				reads.Add(1)
				runtime.Gosched() // lets the writer run on a loaded machine
			}
		}()
	}
	// The first Learn writes a copy of the model that is never written
	// again, and after it the writer writes the copy it gets back.
	work := append([]int(nil), first...)
	for r := 1; r <= rounds; r++ {
		for reads.Load() < int64(r) {
			runtime.Gosched() // so that the rounds overlap the reads
		}
		for k := range work {
			work[k] = r
		}
		old, ok := l.Swap(work)
		if !ok {
			old = append([]int(nil), work...)
		} else {
			// Catches up in two halves, with a pause between them in
			// which a read of old would see two models.
			copy(old[:size/2], work)
			runtime.Gosched()
			copy(old[size/2:], work[size/2:])
		}
		work = old
	}
	stop.Store(true)
	wg.Wait()
	if m := l.Current(); m[0] != rounds {
		t.Errorf("the published model is %d, want %d", m[0], rounds)
	}
}
