// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"context"
	"encoding"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// train runs the run: a scan of the shards for their columns, classes,
// rows and IDF where the run needs them, then an epoch at a time a
// pipeline in which each shard trains from the mixed model of the epoch
// before and the blocks of their models are mixed, until the model
// converges, the stopping rule ends it or the epochs run out; and it saves
// the last epoch's model to the run's Output.
func (r *run) train(ctx context.Context) (*Result, error) {
	rd, err := r.reading(ctx)
	if err != nil {
		return nil, err
	}
	res := &Result{Cols: r.Cols}
	if rd.Format == formatText {
		res.Cols = 1 << cmp.Or(rd.Hashing.Bits, 20)
	}
	classes := r.Classes
	rows := 0 // of all the shards, if the scan counts them
	var idf *data.Scaler
	scan := "" // the file of the summary of the shards, which the workers read for the IDF
	if !r.NoIDF || !r.NoStop || res.Cols == 0 || classes == nil {
		out := r.file("scan.json")
		if err := r.execute(ctx, scanPipeline(r.id, r.shards, rd, res.Cols, classes, !r.NoIDF, out), "the scan of the shards"); err != nil {
			return nil, err
		}
		all, err := readSummary(ctx, out)
		if err != nil {
			return nil, fmt.Errorf("ipm: the scan of the shards: %w", err)
		}
		if res.Cols == 0 {
			res.Cols = all.Cols
		}
		if classes == nil {
			classes = all.Classes
		}
		rows = all.Rows
		if r.NoIDF {
			r.remove(ctx, out)
		} else {
			if idf, err = all.idf(res.Cols); err != nil {
				return nil, fmt.Errorf("ipm: the scan of the shards: %w", err)
			}
			scan = out
		}
	}
	if err := checkClasses(classes); err != nil {
		return nil, fmt.Errorf("ipm: the classes of the shards: %w", err)
	}
	labels := make([]float64, len(classes))
	for k := range labels {
		labels[k] = float64(k)
	}
	m := model{Averaged: !r.Perceptron, Epochs: r.Epochs, Rate: r.Rate, NoBias: r.NoBias, Labels: labels}
	block := r.block
	if block == 0 {
		block = blockFeatures(len(labels))
	}
	files := func(prefix string) []string {
		f := make([]string, blocks(res.Cols, block))
		for b := range f {
			f[b] = blockFile(prefix, b)
		}
		return f
	}
	limit := r.Epochs
	if limit == 0 {
		limit = 1000 // as Perceptron and Averaged take a zero Epochs
	}
	var stop *stopRule
	if !r.NoStop {
		stop = &stopRule{tol: cmp.Or(r.Tol, 1e-3) * float64(rows), noChange: cmp.Or(r.NoChange, 5), best: math.Inf(1)}
	}
	learn := learnFn{Run: r.id, Model: m, Read: rd, Cols: res.Cols, Classes: classes, Block: block,
		Scan: scan, Normalize: !r.NoNormalize, Shuffle: !r.InOrder, Seed: r.Seed}
	for e := 1; e <= limit; e++ {
		began := time.Now()
		to := r.prefix + fmt.Sprintf(".epoch-%04d", e)
		for _, f := range files(to) {
			r.files[f] = true
		}
		learn.Epoch = e
		if err := r.execute(ctx, epochPipeline(learn, r.shards, r.ByMistakes, to), fmt.Sprintf("epoch %d", e)); err != nil {
			return nil, err
		}
		if learn.From != "" {
			r.remove(ctx, files(learn.From)...)
		}
		learn.From = to
		// The head of every block holds the Stats.
		b, err := readFile(ctx, blockFile(to, 0))
		var c perceptron.Classifier
		if err == nil {
			c, err = m.decode(b)
		}
		if err != nil {
			return nil, fmt.Errorf("ipm: the model of epoch %d: %w", e, err)
		}
		st := c.(interface{ Stats() perceptron.Stats }).Stats()
		mistakes := st.EpochMistakes[len(st.EpochMistakes)-1]
		if r.OnEpoch != nil {
			r.OnEpoch(e, mistakes, time.Since(began))
		}
		if st.Converged || stop.done(float64(mistakes)) {
			break
		}
	}
	forget(r.id) // before the model is whole in the driver too
	c, err := m.load(ctx, learn.From, res.Cols, block)
	if err != nil {
		return nil, fmt.Errorf("ipm: the model of the last epoch: %w", err)
	}
	res.Model = &data.Model{Classifier: c.(perceptron.Scorer), Classes: classes, Scaler: idf, Normalize: !r.NoNormalize}
	if rd.Format == formatText {
		h := rd.Hashing
		res.Model.Hashing = &h
	}
	r.files[r.tmp] = true
	err = replace(ctx, r.Output, r.tmp, func(w io.Writer) error { return writeModel(w, res.Model, r.Output) })
	if err != nil {
		return nil, fmt.Errorf("ipm: writing the model: %w", err)
	}
	return res, nil
}

// writeModel writes the model m to w as data.Model's Save writes the file
// path: in the JSON form, MarshalJSON's and a newline, if the name ends in
// .json or .json.gz, and otherwise in the binary form of WriteTo; gzipped
// if it ends in .gz.
func writeModel(w io.Writer, m *data.Model, path string) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	name := strings.ToLower(path)
	var out io.Writer = bw
	var zw *gzip.Writer
	if strings.HasSuffix(name, ".gz") {
		zw = gzip.NewWriter(bw)
		out = zw
	}
	var err error
	if strings.HasSuffix(strings.TrimSuffix(name, ".gz"), ".json") {
		var b []byte
		if b, err = m.MarshalJSON(); err == nil {
			_, err = out.Write(b)
		}
		if err == nil {
			_, err = io.WriteString(out, "\n")
		}
	} else {
		_, err = m.WriteTo(out)
	}
	if err == nil && zw != nil {
		err = zw.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	return err
}

// stopRule follows the mistakes of the epochs of a run: a nil rule never
// stops.
type stopRule struct {
	tol      float64 // the least fall of the mistakes that counts
	noChange int     // the epochs in a row without one that stop the run
	best     float64 // the fewest mistakes of an epoch so far
	still    int     // the epochs since the last fall by tol
}

// done reports whether the epoch of the mistakes m ends the run, as the
// library's Stop ends a Fit by the training loss.
func (s *stopRule) done(m float64) bool {
	if s == nil {
		return false
	}
	if m <= s.best-s.tol {
		s.still = 0
	} else {
		s.still++
	}
	s.best = min(s.best, m)
	return s.still >= s.noChange
}

// model holds the settings of the models that the pipelines train.
type model struct {
	Averaged bool
	Epochs   int
	Rate     float64
	NoBias   bool
	Labels   []float64
}

// fresh returns a model that has learned nothing, with the classes of
// Labels.
func (m model) fresh() perceptron.Classifier {
	if m.Averaged {
		return &perceptron.Averaged{Epochs: m.Epochs, Rate: m.Rate, NoBias: m.NoBias, Labels: m.Labels}
	}
	return &perceptron.Perceptron{Epochs: m.Epochs, Rate: m.Rate, NoBias: m.NoBias, Labels: m.Labels}
}

// decode returns the model whose binary form is b, which must be of m's
// type.
func (m model) decode(b []byte) (perceptron.Classifier, error) {
	c := m.fresh()
	if err := c.(encoding.BinaryUnmarshaler).UnmarshalBinary(b); err != nil {
		return nil, err
	}
	return c, nil
}

// load returns the model of d columns whose blocks of n features are the
// files of prefix.
func (m model) load(ctx context.Context, prefix string, d, n int) (perceptron.Classifier, error) {
	var buf []byte // each block in turn, which join copies
	form, err := join(d, n, func(b int) ([]byte, error) {
		f, err := readFileTo(ctx, blockFile(prefix, b), buf)
		buf = f
		return f, err
	})
	if err != nil {
		return nil, err
	}
	return m.decode(form)
}
