// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/seed5ae3614e/perceptron"
)

// fitMemory bounds the heap's high-water mark during a Fit: whatever Fit
// frees on the way, the live heap can grow by no more than the bytes that
// Fit allocates, the difference of the heap's TotalAlloc before and after
// it.
type fitMemory struct {
	live      uint64 // the live heap before Fit, after a collection
	allocated uint64 // the bytes that Fit allocated
}

// ours fits the classifier of e, times it, scores it, and measures the
// memory of its last fit.
func (r *run) ours(e entry) error {
	epochs, reps := cmp.Or(e.epochs, r.epochs), r.reps(e.repeat)
	var (
		c             perceptron.Scorer
		best          time.Duration
		before, after runtime.MemStats
	)
	for k := range reps {
		c = e.new(epochs)
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		var err error
		pprof.Do(context.Background(), pprof.Labels("fit", r.ds.name+"/"+e.name), func(context.Context) {
			err = c.Fit(r.ds.train, r.ds.ytrain)
		})
		t := time.Since(start)
		runtime.ReadMemStats(&after)
		if err != nil {
			return err
		}
		if k == 0 || t < best {
			best = t
		}
	}
	mem := fitMemory{live: before.HeapAlloc, allocated: after.TotalAlloc - before.TotalAlloc}
	ran := epochs
	if s, ok := c.(interface{ Stats() perceptron.Stats }); ok {
		ran = s.Stats().Epochs
	}
	r.fitted[e.name] = c
	var predict time.Duration
	for k := range reps {
		start := time.Now()
		c.PredictRows(nil, r.ds.test)
		if t := time.Since(start); k == 0 || t < predict {
			predict = t
		}
	}
	r.rows = append(r.rows, row{
		system: "this library", model: e.name, epochs: ran, fit: best, mem: mem,
		train:   accuracy(c.PredictRows(nil, r.ds.train), r.ds.ytrain),
		test:    accuracy(c.PredictRows(nil, r.ds.test), r.ds.ytest),
		predict: predict,
	})
	return nil
}

// sklearn runs scikit-learn's models, and the extra fits that the checks
// need.
func (r *run) sklearn() {
	ps := r.active("scikit-learn")
	if len(ps) == 0 {
		return
	}
	var fits []string
	for _, p := range ps {
		fits = append(fits, fmt.Sprintf("%s:%d:%d", p.key, max(cmp.Or(p.epochs, r.epochs), 0), r.reps(p.repeat)))
	}
	progress("%s: scikit-learn: %s", r.ds.name, strings.Join(fits, " "))
	if err := sklearnFiles(r.dir, r.ds); err != nil {
		r.fail("scikit-learn: writing the data: %v", err)
		return
	}
	res, versions, err := runSklearn(r.python, r.dir, r.ds, fits)
	if err != nil {
		if _, ok := err.(errMissing); ok {
			r.note("%v", err)
		} else {
			r.fail("%v", err)
		}
		return
	}
	r.sklearnRan = true
	r.note("scikit-learn %s, numpy %s", versions["scikit-learn"], versions["numpy"])
	if r.ds.sparse() {
		r.note("scikit-learn fits on a scipy %s csr_matrix of the same rows, float64 values and int32 indices", versions["scipy"])
	}
	for i, p := range ps {
		f := res[i]
		ran := f.NIter
		if p.epochs == noEpochs {
			ran = noEpochs
		}
		r.rows = append(r.rows, row{
			system: p.system, model: p.name, epochs: ran, fit: f.fastest(),
			train: f.Train, test: f.Test, vs: p.vs,
		})
		for _, w := range f.Warnings {
			r.note("scikit-learn %s warned: %s", p.name, w)
		}
	}
}

// weka runs Weka's VotedPerceptron.
func (r *run) weka() {
	ps := r.active("Weka")
	if len(ps) == 0 {
		return
	}
	train, test := filepath.Join(r.dir, "train.arff"), filepath.Join(r.dir, "test.arff")
	Xtr, Xte := r.ds.dense()
	n, _ := Xtr.Dims()
	order := wekaOrder(n, wekaSeed)
	err := create(train, func(w io.Writer) error { return writeARFF(w, r.ds.name+"-train", Xtr, r.ds.ytrain, order) })
	if err == nil {
		err = create(test, func(w io.Writer) error { return writeARFF(w, r.ds.name+"-test", Xte, r.ds.ytest, nil) })
	}
	if err != nil {
		r.fail("Weka: writing the data: %v", err)
		return
	}
	for _, p := range ps {
		e, _ := strconv.Atoi(p.key)
		progress("%s: Weka %s", r.ds.name, p.name)
		f, err := runWeka(r.wekaJar, train, test, e)
		if err != nil {
			if _, ok := err.(errMissing); ok {
				r.note("%v", err)
				return
			}
			r.fail("%v", err)
			continue
		}
		r.rows = append(r.rows, row{
			system: p.system, model: p.name, epochs: p.epochs, fit: f.build,
			train: f.train.accuracy(), test: f.test.accuracy(), vs: p.vs,
		})
		r.wekaRuns = append(r.wekaRuns, wekaRun{p, f})
	}
}

// library returns the row of our classifier called name, and whether it
// ran.
func (r *run) library(name string) (row, bool) {
	for _, w := range r.rows {
		if w.system == "this library" && w.model == name {
			return w, true
		}
	}
	return row{}, false
}
