// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// A worker keeps, for each run, the rows of the shards it has read, through
// the steps, the IDF of the steps, and the model its shards learn from in
// the epoch at hand, in the process;
// not the model's binary form, whose blocks it reads again from their
// files as it needs them, which costs less than its memory would:
// where a runner runs the pipelines of several epochs in one process, as
// prism and the direct runner do in the driver's, each shard is parsed
// once a run, and each epoch's model is loaded once. A runner whose
// workers are new processes for each pipeline, as Dataflow's are for each
// job, parses the shards every epoch. The driver forgets its run when it
// ends; a worker process of a runner that keeps it from job to job keeps
// the last maxRuns runs, and a small entry of each run it has served.

// maxRuns is the most runs whose rows and model a process keeps.
const maxRuns = 4

// runCache is what a process keeps of a run, and whether the run has
// stopped.
type runCache struct {
	used    uint64 // the tick of the cache when the run was last used
	mu      sync.Mutex
	shards  map[string]*shardRows // by path
	startMu sync.Mutex
	start   *startModel
	idfMu   sync.Mutex
	idfFrom string       // the file of the summary that scaler is of
	scaler  *data.Scaler // of the IDF
	stopped bool
	active  sync.WaitGroup // the steps of the run that the process runs
}

// errStopped is the error of a step of a run that has stopped.
var errStopped = errors.New("ipm: the run has stopped")

// begin returns errStopped if the run has stopped, and otherwise counts a
// step of it as running until end.
func (rc *runCache) begin() error {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.stopped {
		return errStopped
	}
	rc.active.Add(1)
	return nil
}

func (rc *runCache) end() { rc.active.Done() }

// stop makes the steps of the run that start in this process from now on
// fail, and drops its shards, IDF and model. The process keeps the entry of
// the run, so that steps of the run that a runner goes on running find it
// stopped.
func (rc *runCache) stop() {
	rc.mu.Lock()
	rc.stopped = true
	rc.mu.Unlock()
	rc.drop()
}

// shardRows is a shard's rows, as read with classes, and its rows and
// their classes for training, once they are known.
type shardRows struct {
	mu      sync.Mutex
	read    bool
	classes []string
	set     *data.Set
	X       mat.Matrix
	y       []float64
}

// startModel is the model that the shards of an epoch learn from, whose
// blocks are the files from.
type startModel struct {
	from  string
	model perceptron.Classifier
}

// cache is the process's runCaches, by run.
var cache = struct {
	sync.Mutex
	tick uint64
	runs map[string]*runCache
}{runs: map[string]*runCache{}}

// cached returns what the process keeps of the run. A run that is new
// to the process drops what it keeps of the runs before the last maxRuns
// that it has used: the entry of a run stays, with whether it has stopped
// and the steps that run, but its shards and model go.
func cached(run string) *runCache {
	cache.Lock()
	cache.tick++
	rc := cache.runs[run]
	var stale []*runCache
	if rc == nil {
		rc = &runCache{shards: map[string]*shardRows{}}
		stale = slices.Collect(maps.Values(cache.runs))
		slices.SortFunc(stale, func(a, b *runCache) int { return cmp.Compare(b.used, a.used) })
		stale = stale[min(len(stale), maxRuns-1):]
		cache.runs[run] = rc
	}
	rc.used = cache.tick
	cache.Unlock()
	for _, old := range stale {
		old.drop()
	}
	return rc
}

// forget drops what the process keeps of the run, and its entry.
func forget(run string) {
	cache.Lock()
	delete(cache.runs, run)
	cache.Unlock()
}

// drop drops the shards, the IDF and the model that the process keeps of
// the run.
func (rc *runCache) drop() {
	rc.mu.Lock()
	clear(rc.shards)
	rc.mu.Unlock()
	rc.startMu.Lock()
	rc.start = nil
	rc.startMu.Unlock()
	rc.idfMu.Lock()
	rc.scaler = nil
	rc.idfMu.Unlock()
}

// entry returns the entry of the shard's rows.
func (rc *runCache) entry(path string) *shardRows {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	e := rc.shards[path]
	if e == nil {
		e = &shardRows{}
		if !rc.stopped {
			rc.shards[path] = e
		}
	}
	return e
}

// scanned reads the shard's rows as rd says, with cols and classes, as the
// scan of the shards reads them, unless they are read already, and
// returns them.
func (rc *runCache) scanned(ctx context.Context, sh shard, rd reading, cols int, classes []string) (*data.Set, error) {
	e := rc.entry(sh.Path)
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.read {
		set, err := readShard(ctx, sh, rd, cols, classes)
		if err != nil {
			return nil, err
		}
		e.read, e.classes, e.set = true, classes, set
	}
	return e.set, nil
}

// rows returns the shard's rows of cols columns as prepare makes them of
// the rows as read, and the class of each, its index in classes: of the
// rows that the scan of the shards read, if it did, or else of the
// shard's file, read once as rd says.
func (rc *runCache) rows(ctx context.Context, sh shard, rd reading, cols int, classes []string, prepare func(mat.Matrix) (mat.Matrix, error)) (mat.Matrix, []float64, error) {
	e := rc.entry(sh.Path)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.X != nil {
		return e.X, e.y, nil
	}
	var X mat.Matrix
	var y []float64
	if e.read {
		X, y = fromScan(e, cols, classes)
	}
	if X == nil {
		set, err := readShard(ctx, sh, rd, cols, classes)
		if err != nil {
			return nil, nil, err
		}
		X, y = set.X, set.Y // read with the classes, whose indices they are
	}
	X, err := prepare(X)
	if err != nil {
		return nil, nil, shardError(sh, err)
	}
	e.set, e.X, e.y = nil, X, y
	return X, y, nil
}

// fromScan returns the rows that the scan read, into e, as the shard's
// reader would read them with cols and classes, and their classes; or nil
// if it cannot tell. The scan read them with its Cols, which are cols or
// zero, for the largest index of the shard, at most cols; and with its
// Classes, which are classes or nil, for the shard's own, whose names are
// among classes. A label of a shard without known classes is a class by
// its text, or by its value if it is a number: if the classes are all
// numbers, a class is its value, which the shard's class has too; if not,
// the shard's classes are its labels as written, unless all are numbers,
// of which the shard made one class of 1 and 1.0, which classes may hold
// as two.
func fromScan(e *shardRows, cols int, classes []string) (mat.Matrix, []float64) {
	names := e.set.Classes
	class := make([]float64, len(names)) // the index in classes of each class of the shard
	if e.classes != nil {
		if !slices.Equal(e.classes, classes) {
			return nil, nil
		}
		for k := range class {
			class[k] = float64(k) // the shard's extra classes are an error of readShard
		}
	} else {
		values, byValue := numbers(classes)
		shardValues, shardByValue := numbers(names)
		if !byValue && shardByValue {
			return nil, nil
		}
		for k, name := range names {
			c := slices.Index(classes, name)
			if byValue {
				c = slices.Index(values, shardValues[k])
			}
			if c < 0 {
				return nil, nil
			}
			class[k] = float64(c)
		}
	}
	X := e.set.X
	if _, d := X.Dims(); d != cols {
		var err error
		if X, err = widen(X, cols); err != nil {
			return nil, nil
		}
	}
	y := make([]float64, len(e.set.Y))
	for i, c := range e.set.Y {
		y[i] = class[int(c)]
	}
	return X, y
}

// widen returns the sparse rows of X, a *perceptron.CSR, as rows of d
// columns, at least X's.
func widen(X mat.Matrix, d int) (mat.Matrix, error) {
	C, ok := X.(*perceptron.CSR)
	if !ok {
		return nil, fmt.Errorf("rows of a %T, not sparse", X)
	}
	r, _ := C.Dims()
	ptr := make([]int, 1, r+1)
	ind := make([]int, 0, C.NNZ())
	val := make([]float64, 0, C.NNZ())
	for i := range r {
		C.DoRowNonZero(i, func(_, j int, v float64) { ind, val = append(ind, j), append(val, v) })
		ptr = append(ptr, len(ind))
	}
	return perceptron.NewCSR(r, d, ptr, ind, val)
}

// idf returns the Scaler of the IDF of rows of cols columns that the
// summary of all the shards in the file scan counts: the one kept if it is
// scan's, or else the one read, which the run then keeps.
func (rc *runCache) idf(ctx context.Context, scan string, cols int) (*data.Scaler, error) {
	rc.idfMu.Lock()
	defer rc.idfMu.Unlock()
	if rc.idfFrom == scan && rc.scaler != nil {
		return rc.scaler, nil
	}
	s, err := readSummary(ctx, scan)
	if err != nil {
		return nil, err
	}
	if rc.scaler, err = s.idf(cols); err != nil {
		return nil, err
	}
	rc.idfFrom = scan
	return rc.scaler, nil
}

// model returns the model that the shards of an epoch learn from, whose
// blocks are the files from: the one kept if it is from's, or else the
// one that load returns, which the run then keeps in place of the one
// before.
func (rc *runCache) model(from string, load func() (perceptron.Classifier, error)) (perceptron.Classifier, error) {
	rc.startMu.Lock()
	defer rc.startMu.Unlock()
	if rc.start != nil && rc.start.from == from {
		return rc.start.model, nil
	}
	rc.start = nil // before the next one is loaded
	m, err := load()
	if err != nil {
		return nil, err
	}
	rc.start = &startModel{from, m}
	return m, nil
}
