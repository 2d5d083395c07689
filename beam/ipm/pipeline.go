// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

func init() {
	for _, t := range []any{shard{}, part{}, summary{}, mixAcc{}, scanAcc{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn3x1[context.Context, shard, func(summary), error](&scanFn{})
	register.DoFn4x1[context.Context, shard, []byte, func(part), error](&learnFn{})
	register.DoFn3x1[context.Context, []byte, func([]byte), error](&readFn{})
	register.DoFn2x1[context.Context, []byte, error](&writeFn{})
	register.Function2x0(asStart)
	register.Combiner3[scanAcc, summary, []byte](&unionFn{})
	register.Combiner3[mixAcc, part, []byte](&mixFn{})
	register.Emitter1[summary]()
	register.Emitter1[part]()
	register.Emitter1[[]byte]()
}

// shard is a file of rows and its index in the shards.
type shard struct {
	Index int
	Path  string
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

// load returns the model saved in b, which must be of m's type, or a
// fresh one if b is empty.
func (m model) load(b []byte) (perceptron.Classifier, error) {
	if len(b) == 0 {
		return m.fresh(), nil
	}
	c, err := perceptron.Unmarshal(b)
	if err != nil {
		return nil, err
	}
	switch c.(type) {
	case *perceptron.Averaged:
		if m.Averaged {
			return c, nil
		}
	case *perceptron.Perceptron:
		if !m.Averaged {
			return c, nil
		}
	}
	return nil, fmt.Errorf("a saved %T, not of the type trained", c)
}

// readShard reads the rows of the shard sh with f, opening it on its
// Beam file system. Its errors name the shard's file, and the line.
func readShard(ctx context.Context, sh shard, f data.LIBSVM) (*data.Set, error) {
	set, err := func() (*data.Set, error) {
		fsys, err := filesystem.New(ctx, sh.Path)
		if err != nil {
			return nil, err
		}
		defer fsys.Close()
		r, err := fsys.OpenRead(ctx, sh.Path)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) && pe.Path == sh.Path {
				err = pe.Err // the error names the file anyway
			}
			return nil, err
		}
		defer r.Close()
		return f.Read(r)
	}()
	if err != nil {
		return nil, shardError(sh, err)
	}
	if f.Classes != nil && len(set.Classes) > len(f.Classes) {
		// A label among none of the classes became a class after them.
		i := slices.IndexFunc(set.Y, func(c float64) bool { return int(c) >= len(f.Classes) })
		return nil, shardError(sh, fmt.Errorf("row %d: the label %q is none of the classes %q", i+1, set.Classes[int(set.Y[i])], f.Classes))
	}
	if set.Dropped > 0 {
		dropped.Inc(ctx, int64(set.Dropped))
	}
	return set, nil
}

// dropped counts the values beyond the width that the shards hold.
var dropped = beam.NewCounter("ipm", "dropped values beyond the width")

func shardError(sh shard, err error) error {
	return fmt.Errorf("ipm: shard %d (%s): %w", sh.Index, sh.Path, err)
}

// summary is the number of rows, the width and the classes of a shard, or
// of all of them.
type summary struct {
	Shard   int
	Rows    int
	Cols    int
	Classes []string
}

// scanFn reads a shard for its summary, as the training reads it: with
// Cols, if it is not zero, and Classes, if not nil.
type scanFn struct {
	Cols    int
	Classes []string
}

func (f *scanFn) ProcessElement(ctx context.Context, sh shard, emit func(summary)) error {
	set, err := readShard(ctx, sh, data.LIBSVM{Cols: f.Cols, Classes: f.Classes})
	if err != nil {
		return err
	}
	_, d := set.X.Dims()
	emit(summary{Shard: sh.Index, Rows: len(set.Y), Cols: d, Classes: set.Classes})
	return nil
}

// scanAcc holds the summaries of shards.
type scanAcc struct {
	Parts []summary
}

// unionFn combines the summaries of Shards shards into that of all of
// them, as JSON: their rows, the greatest width and the union of their
// classes.
type unionFn struct {
	Shards int
}

func (f *unionFn) CreateAccumulator() scanAcc { return scanAcc{} }

func (f *unionFn) AddInput(a scanAcc, s summary) scanAcc {
	a.Parts = append(a.Parts, s)
	return a
}

func (f *unionFn) MergeAccumulators(a, b scanAcc) scanAcc {
	a.Parts = append(a.Parts, b.Parts...)
	return a
}

func (f *unionFn) ExtractOutput(a scanAcc) ([]byte, error) {
	parts := slices.SortedFunc(slices.Values(a.Parts), func(a, b summary) int { return a.Shard - b.Shard })
	if err := checkShards(len(parts), f.Shards, func(k int) int { return parts[k].Shard }); err != nil {
		return nil, fmt.Errorf("ipm: the scan of the shards: %w", err)
	}
	all := summary{Shard: -1}
	names := make([][]string, len(parts))
	for k, p := range parts {
		if p.Rows > math.MaxInt-all.Rows {
			return nil, errors.New("ipm: the shards hold more rows than an int counts")
		}
		all.Rows += p.Rows
		all.Cols = max(all.Cols, p.Cols)
		names[k] = p.Classes
	}
	all.Classes = unionClasses(names)
	return json.Marshal(all)
}

// checkShards returns an error unless the n sorted indices index(k), k
// < n, are those of want shards, each once: 0 to want-1.
func checkShards(n, want int, index func(int) int) error {
	if n != want {
		return fmt.Errorf("%d results of %d shards", n, want)
	}
	for k := range n {
		if index(k) != k {
			return fmt.Errorf("no result of shard %d, or two", k)
		}
	}
	return nil
}

// part is a model of an epoch, as JSON: that of shard Shard after it
// learned its rows, or, for Shard -1, the model they learned from, which
// is empty for a fresh one.
type part struct {
	Shard int
	Model []byte
}

// asStart emits the model that the shards learn from as the part of
// shard -1.
func asStart(b []byte, emit func(part)) { emit(part{Shard: -1, Model: b}) }

// learnFn learns one epoch of a shard with perceptron.LearnShard, from
// the model of its side input, reading the shard with Cols and Classes,
// Model.Labels giving each class its label, and emits the shard's part
// of the round.
type learnFn struct {
	Model   model
	Cols    int
	Classes []string
}

func (f *learnFn) ProcessElement(ctx context.Context, sh shard, start []byte, emit func(part)) error {
	set, err := readShard(ctx, sh, data.LIBSVM{Cols: f.Cols, Classes: f.Classes})
	if err != nil {
		return err
	}
	y := make([]float64, len(set.Y))
	for i, c := range set.Y {
		y[i] = f.Model.Labels[int(c)]
	}
	m, err := f.Model.load(start)
	if err != nil {
		return fmt.Errorf("ipm: the model the shards learn from: %w", err)
	}
	learned, err := perceptron.LearnShard(m, set.X, y)
	if err != nil {
		return shardError(sh, err)
	}
	b, err := json.Marshal(learned)
	if err != nil {
		return shardError(sh, err)
	}
	emit(part{Shard: sh.Index, Model: b})
	return nil
}

// mixAcc holds parts of an epoch.
type mixAcc struct {
	Parts []part
}

// mixFn mixes the models of Shards shards after epoch Epoch, in the order
// of the shards, with the model they learned from, and returns the mixed
// model as JSON. An Averaged whose epoch made no mistake counts the
// epochs left to Model.Epochs, as perceptron.FitShards does.
type mixFn struct {
	Model      model
	Shards     int
	Epoch      int
	ByMistakes bool
}

func (f *mixFn) CreateAccumulator() mixAcc { return mixAcc{} }

func (f *mixFn) AddInput(a mixAcc, p part) mixAcc {
	a.Parts = append(a.Parts, p)
	return a
}

func (f *mixFn) MergeAccumulators(a, b mixAcc) mixAcc {
	a.Parts = append(a.Parts, b.Parts...)
	return a
}

func (f *mixFn) ExtractOutput(a mixAcc) ([]byte, error) {
	b, err := f.mix(a.Parts)
	if err != nil {
		return nil, fmt.Errorf("ipm: the mix of epoch %d: %w", f.Epoch, err)
	}
	return b, nil
}

func (f *mixFn) mix(parts []part) ([]byte, error) {
	parts = slices.SortedFunc(slices.Values(parts), func(a, b part) int { return a.Shard - b.Shard })
	if len(parts) == 0 || parts[0].Shard != -1 || len(parts) > 1 && parts[1].Shard == -1 {
		return nil, errors.New("not one model that the shards learned from")
	}
	start, parts := parts[0], parts[1:]
	if err := checkShards(len(parts), f.Shards, func(k int) int { return parts[k].Shard }); err != nil {
		return nil, err
	}
	m, err := f.Model.load(start.Model)
	if err != nil {
		return nil, fmt.Errorf("the model the shards learned from: %w", err)
	}
	shards := make([]perceptron.Classifier, len(parts))
	for k, p := range parts {
		if len(p.Model) == 0 {
			return nil, fmt.Errorf("shard %d has no model", k)
		}
		if shards[k], err = f.Model.load(p.Model); err != nil {
			return nil, fmt.Errorf("shard %d: %w", k, err)
		}
	}
	// Mix also counts, for an Averaged, the epochs left after one without
	// a mistake, as FitShards does.
	if err := perceptron.Mix(m, shards, f.ByMistakes); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// readFn emits the contents of the file Path, on its Beam file system.
type readFn struct {
	Path string
}

func (f *readFn) ProcessElement(ctx context.Context, _ []byte, emit func([]byte)) error {
	b, err := readFile(ctx, f.Path)
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

// writeFn writes its one element to the file Path, on its Beam file
// system.
type writeFn struct {
	Path string
}

func (f *writeFn) ProcessElement(ctx context.Context, b []byte) error {
	return writeFile(ctx, f.Path, b)
}

// scanPipeline returns the pipeline that reads the shards with cols and
// classes and writes their summary as JSON to out.
func scanPipeline(shards []shard, cols int, classes []string, out string) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	sh := beam.CreateList(s.Scope("shards"), shards)
	sums := beam.ParDo(s.Scope("scan"), &scanFn{Cols: cols, Classes: classes}, sh)
	all := beam.Combine(s.Scope("union"), &unionFn{Shards: len(shards)}, sums)
	beam.ParDo0(s.Scope("write"), &writeFn{Path: out}, all)
	return p
}

// epochPipeline returns the pipeline of epoch e: it learns the shards
// from the model saved in the file from, or a fresh one if from is empty,
// mixes them and writes the mixed model as JSON to out.
func epochPipeline(shards []shard, m model, cols int, classes []string, byMistakes bool, e int, from, out string) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	var start beam.PCollection
	if from == "" {
		start = beam.Create(s.Scope("fresh"), []byte{})
	} else {
		start = beam.ParDo(s.Scope("read model"), &readFn{Path: from}, beam.Impulse(s))
	}
	sh := beam.CreateList(s.Scope("shards"), shards)
	learned := beam.ParDo(s.Scope("learn"), &learnFn{Model: m, Cols: cols, Classes: classes}, sh, beam.SideInput{Input: start})
	base := beam.ParDo(s.Scope("start"), asStart, start)
	mixed := beam.Combine(s.Scope("mix"), &mixFn{Model: m, Shards: len(shards), Epoch: e, ByMistakes: byMistakes}, beam.Flatten(s, base, learned))
	beam.ParDo0(s.Scope("write"), &writeFn{Path: out}, mixed)
	return p
}
