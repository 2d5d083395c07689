// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	// The default runner, in this process.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/seed5ae3614e/perceptron"
)

// Config is a training run.
type Config struct {
	// Shards are the LIBSVM files of the rows, one shard each, in the
	// order of the shards, on any file system registered with Beam: local
	// paths, or gs://... with Beam's gcs file system imported. Glob lists
	// the files of a pattern. The files may be gzipped.
	Shards []string

	// Averaged trains a perceptron.Averaged, and otherwise a
	// perceptron.Perceptron.
	Averaged bool

	// Epochs is the most epochs, each a round of mixing, as the
	// classifier's Epochs: zero means 1000. The training stops earlier,
	// after the first epoch without a mistake.
	Epochs int

	// Rate and NoBias are the classifier's settings.
	Rate   float64
	NoBias bool

	// ByMistakes weights each shard's model in the mix by its mistakes in
	// the epoch, and otherwise they weigh the same.
	ByMistakes bool

	// Cols, if not zero, is the width of the rows, as data.LIBSVM's: the
	// values beyond it are left out and counted in the Beam counter
	// "dropped values beyond the width" of namespace "ipm", of the
	// pipeline that reads the shard. If zero, it is the largest index in
	// the shards.
	Cols int

	// Classes, if not nil, are the classes, as data.LIBSVM's; a label in
	// a shard that is none of them is an error. If nil, they are those of
	// all the shards: sorted by value, if all are numbers, and by text
	// otherwise. The model's classes are their values if all are finite
	// numbers, and otherwise their indices in Classes.
	Classes []string

	// Output is the file the model is written to, as json.Marshal saves
	// it, on any file system registered with Beam. A failed run writes
	// nothing there.
	Output string

	// Work, if not empty, is the folder for the files that pass a model
	// from one epoch's pipeline to the next, which the workers and the
	// driver must both reach. If empty, they are written beside Output.
	// The run removes them.
	Work string

	// Runner is the Beam runner, by its name: if empty, that of Beam's
	// flag --runner, and if that is empty "prism", which runs the
	// pipelines in this process.
	Runner string

	// OnEpoch, if not nil, is called by Run after each epoch with the
	// epoch, from 1, the mistakes of the shards in it, and the time it
	// took.
	OnEpoch func(epoch, mistakes int, took time.Duration)

	// block is the number of features of a block of the model, if not
	// zero, for the tests; zero is blockFeatures's.
	block int
}

// Result is a finished training run.
type Result struct {
	// Model is the model written to Output.
	Model perceptron.Scorer

	// Saved is the model as it was written: its json.Marshal.
	Saved []byte

	// Classes are the names of the classes, as the shards write the
	// labels, and Labels the class of each in the model.
	Classes []string
	Labels  []float64

	// Cols is the width of the rows.
	Cols int
}

// Run trains the model of c on Beam, an epoch a pipeline, and writes it
// to c.Output. Run may be called from several goroutines at once: their
// pipelines take turns. It returns an error, and writes no model, if c is not
// valid, or if a pipeline fails: as when a shard is missing or cannot be
// read, the error naming the file and the line, or when the training
// returns an error, or when ctx is done. It removes the files of the run
// as it ends, and if it fails and cannot remove some, its error names
// them.
func Run(ctx context.Context, c Config) (*Result, error) {
	switch {
	case len(c.Shards) == 0:
		return nil, errors.New("ipm: no shards")
	case c.Epochs < 0:
		return nil, fmt.Errorf("ipm: %d epochs, want 0 (for 1000) or more", c.Epochs)
	case c.Cols < 0:
		return nil, fmt.Errorf("ipm: %d columns, want 0 (to find them) or more", c.Cols)
	case c.Output == "":
		return nil, errors.New("ipm: no output file")
	case c.Classes != nil:
		if _, err := labelValues(c.Classes); err != nil {
			return nil, fmt.Errorf("ipm: the classes: %w", err)
		}
	}
	runner := c.Runner
	if runner == "" {
		runner = *runners.Runner
	}
	if runner == "" {
		runner = "prism"
	}
	token := make([]byte, 8)
	rand.Read(token)
	id := hex.EncodeToString(token)
	r := &run{Config: c, runner: runner, id: id, tmp: c.Output + ".ipm-" + id + ".tmp", files: map[string]bool{}}
	if c.Work == "" {
		r.prefix = c.Output + ".ipm-" + id
	} else {
		r.prefix = strings.TrimSuffix(c.Work, "/") + "/ipm-" + id
	}
	for k, path := range c.Shards {
		r.shards = append(r.shards, shard{Index: k, Path: path})
	}
	res, err := r.train(ctx)
	if ctx.Err() != nil {
		// Steps of the run may still run in this process, which must end
		// before its files go.
		rc := cached(r.id)
		rc.stop()
		rc.active.Wait()
	} else {
		forget(r.id)
	}
	// The files go even after ctx is done.
	if left := r.remove(context.WithoutCancel(ctx), slices.Sorted(maps.Keys(r.files))...); len(left) > 0 && err != nil {
		err = fmt.Errorf("%w; %s", err, r.left(left))
	}
	return res, err
}

// left says which files of the run, left, it could not remove: each, or
// if they are many, how many and the start of their names.
func (r *run) left(left []string) string {
	const most = 5
	if len(left) <= most {
		return "the run could not remove its files " + strings.Join(left, ", ")
	}
	names := strings.Join(left[:most], ", ") + ", …"
	if !slices.ContainsFunc(left, func(f string) bool { return !strings.HasPrefix(f, r.prefix) }) {
		names = r.prefix + "*"
	}
	return fmt.Sprintf("the run could not remove %d of its files: %s", len(left), names)
}

// run is a training run.
type run struct {
	Config
	runner string
	id     string // of the run, in its files and in what the workers keep
	prefix string // of the files of the run
	tmp    string // the file the model is written to, renamed to Output
	shards []shard
	files  map[string]bool // the files of the run that may be there
}

// file returns the file of the run of the name, and keeps it for removal.
func (r *run) file(name string) string {
	f := r.prefix + "." + name
	r.files[f] = true
	return f
}

// remove removes the files of the run, and returns those it could not
// remove.
func (r *run) remove(ctx context.Context, files ...string) []string {
	var left []string
	for _, f := range files {
		if err := remove(ctx, f); err != nil {
			left = append(left, f)
			continue
		}
		delete(r.files, f)
	}
	return left
}

// running holds a pipeline that runs: Beam's runners set global flags as
// they start, prism its endpoint, so that two pipelines that start at once
// race.
var running sync.Mutex

// execute runs the pipeline p, of what it does. When ctx is done, it
// stops the run, whose steps that start then fail, so that the pipeline
// fails; but it does not cancel Beam's Run, since prism, on a done
// context, panics, or goes on running the pipeline as Run returns.
func (r *run) execute(ctx context.Context, p *beam.Pipeline, what string) error {
	running.Lock()
	defer running.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ipm: stopped before %s: %w", what, context.Cause(ctx))
	}
	ended := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			cached(r.id).stop()
		case <-ended:
		}
	}()
	_, err := beam.Run(context.WithoutCancel(ctx), r.runner, p)
	close(ended)
	if ctx.Err() != nil {
		return fmt.Errorf("ipm: stopped in %s: %w", what, context.Cause(ctx))
	}
	if err != nil {
		return &PipelineError{What: what, Runner: r.runner, Err: err}
	}
	return nil
}

// PipelineError is the failure of a pipeline of a run.
type PipelineError struct {
	What   string // what the pipeline does: "the scan of the shards", "epoch 3"
	Runner string // the runner that ran it
	Err    error  // Beam's error
}

// Error returns the error of the step that failed, as Beam's error quotes
// it, if it is one of this package's, and otherwise Beam's error, which
// runners write with the plan of the pipeline and more.
func (e *PipelineError) Error() string {
	msg := e.Err.Error()
	if i := strings.LastIndex(msg, "ipm: "); i >= 0 {
		msg, _, _ = strings.Cut(msg[i:], "\n")
		return fmt.Sprintf("%s (in the pipeline of %s, on runner %s)", msg, e.What, e.Runner)
	}
	return fmt.Sprintf("ipm: the pipeline of %s, on runner %s: %s", e.What, e.Runner, msg)
}

// Unwrap returns Beam's error.
func (e *PipelineError) Unwrap() error { return e.Err }

// blockWords is the number of weights of a block of a table of the model
// that a run mixes at a time, 1 MiB of them.
const blockWords = 1 << 17

// blockFeatures returns the features of a block of a model of the
// classes.
func blockFeatures(classes int) int { return max(1, blockWords/classes) }

func (r *run) train(ctx context.Context) (*Result, error) {
	res := &Result{Classes: r.Classes, Cols: r.Cols}
	if r.Cols == 0 || r.Classes == nil {
		out := r.file("scan.json")
		if err := r.execute(ctx, scanPipeline(r.id, r.shards, r.Cols, r.Classes, out), "the scan of the shards"); err != nil {
			return nil, err
		}
		var all summary
		b, err := readFile(ctx, out)
		if err == nil {
			err = json.Unmarshal(b, &all)
		}
		if err != nil {
			return nil, fmt.Errorf("ipm: the scan of the shards: %w", err)
		}
		r.remove(ctx, out)
		if res.Cols == 0 {
			res.Cols = all.Cols
		}
		if res.Classes == nil {
			res.Classes = all.Classes
		}
	}
	labels, err := labelValues(res.Classes)
	if err != nil {
		return nil, fmt.Errorf("ipm: the classes of the shards: %w", err)
	}
	res.Labels = labels
	m := model{Averaged: r.Averaged, Epochs: r.Epochs, Rate: r.Rate, NoBias: r.NoBias, Labels: labels}
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
	from := ""
	for e := 1; e <= limit; e++ {
		began := time.Now()
		to := r.prefix + fmt.Sprintf(".epoch-%04d", e)
		for _, f := range files(to) {
			r.files[f] = true
		}
		if err := r.execute(ctx, epochPipeline(r.id, r.shards, m, res.Cols, block, res.Classes, r.ByMistakes, e, from, to), fmt.Sprintf("epoch %d", e)); err != nil {
			return nil, err
		}
		if from != "" {
			r.remove(ctx, files(from)...)
		}
		from = to
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
		if r.OnEpoch != nil {
			r.OnEpoch(e, st.EpochMistakes[len(st.EpochMistakes)-1], time.Since(began))
		}
		if st.Converged {
			break
		}
	}
	forget(r.id) // before the model is whole in the driver too
	c, err := m.load(ctx, from, res.Cols, block)
	if err != nil {
		return nil, fmt.Errorf("ipm: the model of the last epoch: %w", err)
	}
	saved, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("ipm: the model of the last epoch: %w", err)
	}
	res.Model, res.Saved = c.(perceptron.Scorer), saved
	r.files[r.tmp] = true
	if err := replace(ctx, r.Output, r.tmp, res.Saved); err != nil {
		return nil, fmt.Errorf("ipm: writing the model: %w", err)
	}
	return res, nil
}
