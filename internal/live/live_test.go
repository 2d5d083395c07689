// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package live

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// TestLiveWhole checks that readers of a live model see only models that a
// writer published whole: the writer writes each model as a run of equal
// numbers into the copy that no reader reads, and a reader that saw two
// different numbers in one read would have seen a model in the making.
func TestLiveWhole(t *testing.T) {
	// One reader counts on one counter; two at once turn to the counter of
	// each one's processor, as they do from the start if spread.
	for _, c := range []struct {
		readers int
		spread  bool
	}{{1, false}, {2, false}, {2, true}} {
		t.Run(fmt.Sprintf("readers=%d,spread=%t", c.readers, c.spread), func(t *testing.T) {
			testLiveWhole(t, c.readers, c.spread)
		})
	}
}

func testLiveWhole(t *testing.T, readers int, spread bool) {
	const size, rounds = 256, 300
	first := make([]int, size)
	l := new(Live[[]int])
	l.spread.Store(spread)
	l.Set(first)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var reads atomic.Int64
	var torn atomic.Bool
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := 0
			for !stop.Load() {
				v := l.Read()
				m := v.M
				// A reader that failed goes on reading, for the writer
				// waits for reads.
				for _, x := range m {
					if x != m[0] {
						if torn.CompareAndSwap(false, true) {
							t.Errorf("a read saw %d and %d in one model", m[0], x)
						}
						break
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
	if readers == 1 && l.spread.Load() {
		t.Error("one reader turned to the counters of the processors")
	}
}

// TestSwapWaitsForEveryRead checks that Swap waits for every read of the
// view it replaces, on whichever counter it counted: a read on the one
// counter, the read that, seeing it, puts many counters in place, and a
// read on the counter of its token; that views published after that have
// many counters from the start; and that Swap hands the counters from
// view to view.
func TestSwapWaitsForEveryRead(t *testing.T) {
	l := new(Live[int])
	// swap runs Swap(m) beside the reads rs, and checks that it returns
	// the model before m only once every read has ended.
	swap := func(m int, rs ...Reading[int]) {
		t.Helper()
		done := make(chan int)
		go func() {
			old, _ := l.Swap(m)
			done <- old
		}()
		for k, r := range rs {
			select {
			case <-done:
				t.Fatalf("Swap(%d) returned with %d of %d reads still reading", m, len(rs)-k, len(rs))
			case <-time.After(10 * time.Millisecond):
			}
			r.Done()
		}
		// Long enough to tell a hang, and only a failure waits for it.
		select {
		case old := <-done:
			if old != m-1 {
				t.Errorf("Swap(%d) returned model %d, want %d", m, old, m-1)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("Swap(%d) still waits after every read ended", m)
		}
	}
	// token1 makes the next read on this processor take token 1, and so
	// counter 1 of many.
	token1 := func() {
		tokens.Get()
		one := 1
		tokens.Put(&one)
	}
	l.Set(0)
	if _, writable := l.Swap(1); writable {
		t.Fatal("Swap returned the view that Set published as writable")
	}
	if l.cur.Load().many.Load() != nil {
		t.Fatal("a view has many counters before two reads at once")
	}
	r1 := l.Read()
	r2 := l.Read()
	cs := l.cur.Load().many.Load()
	if cs == nil || len(*cs) < 4 {
		t.Fatal("two reads at once did not put many counters in place")
	}
	token1()
	r3 := l.Read()
	swap(2, r3, r1, r2)
	if cs := l.cur.Load().many.Load(); cs == nil || len(*cs) < 4 {
		t.Fatal("a view published after two reads at once has not many counters")
	}
	token1()
	swap(3, l.Read())
	if allocs := testing.AllocsPerRun(10, func() { l.Swap(4) }); allocs > 1 {
		t.Errorf("Swap allocates %v times, want once, its view", allocs)
	}
}

// TestLock checks that a write of a Lock waits for a read on each of its
// locks, that a read waits for a write, and that reads on many goroutines
// never see a write half made.
func TestLock(t *testing.T) {
	var l Lock
	for i := range l.all() {
		m := &l.locks[i].RWMutex
		m.RLock()
		locked := make(chan bool)
		go func() {
			l.Lock()
			defer l.Unlock()
			locked <- true
		}()
		select {
		case <-locked:
			t.Fatalf("Lock returned while a read held lock %d", i)
		case <-time.After(time.Millisecond):
		}
		m.RUnlock()
		<-locked
	}
	// The next read on this processor takes token 1, and so lock 1.
	tokens.Get()
	one := 1
	tokens.Put(&one)
	r := l.RLock()
	locked := make(chan bool)
	go func() {
		l.Lock()
		locked <- true
	}()
	select {
	case <-locked:
		t.Fatal("Lock returned while a read held the lock")
	case <-time.After(10 * time.Millisecond):
	}
	r.RUnlock()
	// Long enough to tell a hang, and only a failure waits for it.
	select {
	case <-locked:
	case <-time.After(20 * time.Second):
		t.Fatal("Lock still waits after the read ended")
	}
	read := make(chan bool)
	go func() {
		l.RLock().RUnlock()
		read <- true
	}()
	select {
	case <-read:
		t.Fatal("RLock returned while a write held the lock")
	case <-time.After(10 * time.Millisecond):
	}
	l.Unlock()
	select {
	case <-read:
	case <-time.After(20 * time.Second):
		t.Fatal("RLock still waits after the write ended")
	}

	var pair [2]int // written in two steps, under the lock
	var stop atomic.Bool
	var wg sync.WaitGroup
	var torn atomic.Bool
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				m := l.RLock()
				if a, b := pair[0], pair[1]; a != b && torn.CompareAndSwap(false, true) {
					t.Errorf("a read saw %d and %d", a, b)
				}
				m.RUnlock()
			}
		}()
	}
	for k := 1; k <= 300; k++ {
		l.Lock()
		pair[0] = k
		runtime.Gosched()
		pair[1] = k
		l.Unlock()
	}
	stop.Store(true)
	wg.Wait()
}

// TestMemory checks the sizes behind the root package's documentation:
// counters and locks of 128 bytes, and at most 64 of them whatever
// GOMAXPROCS, a power of two at least 4 times the processors up to that.
// A Live holds two sets, its view's counters and the spare ones (its
// fields spareOne and spare), so at most 2·(1+64)·128 bytes, under 17
// KiB, and a Lock 8 KiB.
func TestMemory(t *testing.T) {
	if c, l := unsafe.Sizeof(counter{}), unsafe.Sizeof(paddedLock{}); c != 128 || l != 128 {
		t.Errorf("a counter takes %d bytes and a lock %d, want 128", c, l)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3, 16, 17, 1000} {
		runtime.GOMAXPROCS(procs)
		n := many()
		if n > 64 || n&(n-1) != 0 || n < min(4*procs, 64) {
			t.Errorf("GOMAXPROCS %d: %d counters, want a power of two of at least %d, at most 64", procs, n, min(4*procs, 64))
		}
	}
}
