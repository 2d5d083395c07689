// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"

	// The default runner, in this process.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/seed5ae3614e/perceptron/data"
)

// Config is a training run. Its zero values are the command perceptron's
// defaults for the rows of its shards.
type Config struct {
	// Shards are the files of the rows, one shard each, in the order of
	// the shards, on any file system registered with Beam: local paths,
	// which Run makes absolute, or gs://... with Beam's gcs file system
	// imported. Glob lists the files of a pattern. The files may be
	// gzipped.
	Shards []string

	// Format is the format of every shard: "libsvm", LIBSVM rows, read by
	// data.LIBSVM, or "text", lines of text, read by data.Text, each
	// shard in fastText's format or as a label, a tab and a text, as its
	// first line says. Empty tells it by the first shard, as the command
	// perceptron tells a training file's: LIBSVM if its name ends in
	// .svm, .libsvm or .svmlight, and otherwise by its first line.
	Format string

	// Hashing turns the text of a line into a row. Nil is the command's:
	// the words and the pairs of words of a line, in 2^19 columns, their
	// counts not scaled, as the steps after it weigh and scale them.
	Hashing *data.Hashing

	// NoIDF leaves out the first step before the classifier, which weighs
	// each column by its inverse document frequency over the rows of all
	// the shards, as data.NewIDF of their union does. NoNormalize leaves
	// out the second, which scales each row to unit length.
	NoIDF, NoNormalize bool

	// Perceptron trains a perceptron.Perceptron, and otherwise a
	// perceptron.Averaged, the command's default.
	Perceptron bool

	// Epochs is the most epochs, each a round of mixing, as the
	// classifier's Epochs: zero means 1000. The training stops earlier,
	// after an epoch without a mistake, or by the stopping rule.
	Epochs int

	// Rate and NoBias are the classifier's settings.
	Rate   float64
	NoBias bool

	// ByMistakes weights each shard's model in the mix by its mistakes in
	// the epoch, and otherwise they weigh the same.
	ByMistakes bool

	// InOrder visits the rows of each shard in their order in every
	// epoch, as perceptron.FitShards does. Otherwise each epoch of each
	// shard visits them in an order drawn from Seed, the shard and the
	// epoch, as the command's -shuffle does, which the same Seed draws
	// again on any runner.
	InOrder bool
	Seed    uint64

	// NoStop stops only after an epoch without a mistake, or at Epochs.
	// Otherwise the training stops early once NoChange epochs in a row
	// have not lowered the mistakes of an epoch by Tol times the rows
	// below the fewest before them: the command's rule, but of the
	// mistakes, which a mix counts, where the command measures the
	// training loss, which a mix does not. Zero Tol means 1e-3, and zero
	// NoChange 5.
	NoStop   bool
	Tol      float64
	NoChange int

	// Cols, if not zero, is the width of LIBSVM rows, as data.LIBSVM's:
	// the values beyond it are left out and counted in the Beam counter
	// "dropped values beyond the width" of namespace "ipm", of the
	// pipeline that reads the shard. If zero, it is the largest index in
	// the shards. Text has the Hashing's 2^Bits columns.
	Cols int

	// Classes, if not nil, are the classes, as the readers' Classes; a
	// label in a shard that is none of them is an error. If nil, they are
	// those of all the shards: sorted by value, if all are numbers, and
	// by text otherwise, as a reader sorts the labels of one file. The
	// classifier's classes are their indices, 0 to len(Classes)-1.
	Classes []string

	// Output is the model file, written as data.Model's Save writes it,
	// in the JSON form if its name ends in .json or .json.gz and in the
	// binary form otherwise, gzipped if it ends in .gz, on any file system
	// registered with Beam: data.LoadModel and the command perceptron read
	// it. A failed run writes nothing there.
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

	// Timeout, if not zero, is the most time that a pipeline of the run,
	// the scan of the shards or an epoch, may take: a pipeline that runs
	// longer fails the run, and Run cancels its job, as it does when ctx
	// is done. A runner may wait for a worker that it has lost: prism, in
	// a process of its own, waits without end for one lost before it
	// connected.
	Timeout time.Duration

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
	// Model is the model written to Output: the classifier, its classes,
	// and the steps before it.
	Model *data.Model

	// Cols is the width of the rows, as read.
	Cols int
}

// Run trains the model of c on Beam, an epoch a pipeline, and writes it
// to c.Output. Run may be called from several goroutines at once: their
// pipelines take turns. It returns an error, and writes no model, if c is not
// valid, or if a pipeline fails: as when a shard is missing or cannot be
// read, the error naming the file and the line, or when the training
// returns an error, or when ctx is done. An error of a file that the
// workers cannot reach where Run can says so. It removes the files of the
// run as it ends, and if it fails and cannot remove some, its error names
// them.
func Run(ctx context.Context, c Config) (*Result, error) {
	switch {
	case len(c.Shards) == 0:
		return nil, errors.New("ipm: no shards")
	case c.Format != "" && c.Format != formatLIBSVM && c.Format != formatText:
		return nil, fmt.Errorf("ipm: the format %q, want libsvm or text", c.Format)
	case c.Epochs < 0:
		return nil, fmt.Errorf("ipm: %d epochs, want 0 (for 1000) or more", c.Epochs)
	case c.Cols < 0:
		return nil, fmt.Errorf("ipm: %d columns, want 0 (to find them) or more", c.Cols)
	case !(c.Tol >= 0) || math.IsInf(c.Tol, 1):
		return nil, fmt.Errorf("ipm: Tol %v, want 0 (for 1e-3) or more", c.Tol)
	case c.NoChange < 0:
		return nil, fmt.Errorf("ipm: NoChange %d, want 0 (for 5) or more", c.NoChange)
	case c.Timeout < 0:
		return nil, fmt.Errorf("ipm: Timeout %v, want 0 (for none) or more", c.Timeout)
	case c.Output == "":
		return nil, errors.New("ipm: no output file")
	}
	if c.Hashing != nil {
		if _, err := c.Hashing.Transform(nil); err != nil {
			return nil, fmt.Errorf("ipm: %w", err)
		}
	}
	if c.Classes != nil {
		if err := checkClasses(c.Classes); err != nil {
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
	// The workers' working folder is not the driver's.
	var err error
	if c.Output, err = absolute(c.Output); err == nil {
		c.Work, err = absolute(c.Work)
	}
	c.Shards = slices.Clone(c.Shards)
	for k := range c.Shards {
		if err == nil {
			c.Shards[k], err = absolute(c.Shards[k])
		}
	}
	if err != nil {
		return nil, fmt.Errorf("ipm: %w", err)
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

// absolute returns the path of a local file, one without a scheme, made
// absolute, and other paths as they are.
func absolute(path string) (string, error) {
	if path == "" || strings.Contains(path, "://") {
		return path, nil
	}
	return filepath.Abs(path)
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

// blockWords is the number of weights of a block of a table of the model
// that a run mixes at a time, 1 MiB of them.
const blockWords = 1 << 17

// blockFeatures returns the features of a block of a model of the
// classes.
func blockFeatures(classes int) int { return max(1, blockWords/classes) }

// reading returns how the run reads the shards: their format, as the
// Config gives it or the first shard tells it, and the Hashing of text.
func (r *run) reading(ctx context.Context) (reading, error) {
	rd := reading{Format: r.Format, Hashing: defaultHashing}
	if r.Hashing != nil {
		rd.Hashing = *r.Hashing
	}
	if rd.Format == "" {
		text, err := fileHead(ctx, r.shards[0].Path)
		if err == nil {
			rd.Format, err = formatOf(r.shards[0].Path, text)
		}
		if err != nil {
			return rd, shardError(r.shards[0], err)
		}
	}
	if rd.Format == formatText && r.Cols != 0 {
		return rd, fmt.Errorf("ipm: %d columns given for text, which has the Hashing's 2^Bits", r.Cols)
	}
	return rd, nil
}

// readSummary returns the summary of the shards in the file path.
func readSummary(ctx context.Context, path string) (*summary, error) {
	var s summary
	b, err := readFile(ctx, path)
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// idf returns the Scaler of the IDF of the rows of cols columns that the
// summary of all the shards counts.
func (s *summary) idf(cols int) (*data.Scaler, error) {
	if len(s.DF) > cols {
		return nil, fmt.Errorf("counts of %d columns, of rows of %d", len(s.DF), cols)
	}
	df := make([]int, cols)
	copy(df, s.DF)
	return data.NewIDFCounts(s.Rows, df)
}

// fileHead returns the first headSize bytes of the text of the file path,
// on its Beam file system, as head does.
func fileHead(ctx context.Context, path string) ([]byte, error) {
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	f, err := fsys.OpenRead(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return head(bufio.NewReaderSize(f, headSize)), nil
}
