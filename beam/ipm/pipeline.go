// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"context"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

func init() {
	for _, t := range []any{shard{}, blockPart{}, summary{}, scanAcc{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn3x1[context.Context, shard, func(summary), error](&scanFn{})
	register.DoFn3x1[context.Context, shard, func(int, blockPart), error](&learnFn{})
	register.DoFn4x1[context.Context, int, func(*blockPart) bool, func(int), error](&mixFn{})
	register.DoFn1x1[int, error](&checkFn{})
	register.Function2x1(sum)
	register.Emitter1[int]()
	register.DoFn2x1[context.Context, []byte, error](&writeFn{})
	register.Combiner3[scanAcc, summary, []byte](&unionFn{})
	register.Emitter1[summary]()
	register.Emitter2[int, blockPart]()
	register.Iter1[blockPart]()
}

// shard is a file of rows and its index in the shards.
type shard struct {
	Index int
	Path  string
}

// dropped counts the values beyond the width that the shards hold.
var dropped = beam.NewCounter("ipm", "dropped values beyond the width")

func shardError(sh shard, err error) error {
	return fmt.Errorf("ipm: shard %d (%s): %w", sh.Index, sh.Path, err)
}

// summary is the number of rows, the width and the classes of a shard, or
// of all of them, and if the IDF is wanted the number of rows in which
// each column is not zero.
type summary struct {
	Shard   int
	Rows    int
	Cols    int
	Classes []string
	DF      []int `json:",omitempty"`
}

// scanFn reads a shard for its summary, as the training reads it: as Read
// says, with Cols, if it is not zero, and Classes, if not nil; it counts
// the rows of each column if Count is set. The process keeps the rows for
// the training of the run Run.
type scanFn struct {
	Run     string
	Read    reading
	Cols    int
	Classes []string
	Count   bool
}

func (f *scanFn) ProcessElement(ctx context.Context, sh shard, emit func(summary)) error {
	rc := cached(f.Run)
	if err := rc.begin(); err != nil {
		return err
	}
	defer rc.end()
	set, err := rc.scanned(ctx, sh, f.Read, f.Cols, f.Classes)
	if err != nil {
		return err
	}
	_, d := set.X.Dims()
	s := summary{Shard: sh.Index, Rows: len(set.Y), Cols: d, Classes: set.Classes}
	if f.Count {
		s.DF = documents(set.X)
	}
	emit(s)
	return nil
}

// scanAcc holds the summaries of shards, without their counts, and the
// sum of their counts.
type scanAcc struct {
	Parts []summary
	DF    []int
}

// unionFn combines the summaries of Shards shards into that of all of
// them, as JSON: their rows, the greatest width, the union of their
// classes and the sum of their counts of the rows of each column.
type unionFn struct {
	Shards int
}

func (f *unionFn) CreateAccumulator() scanAcc { return scanAcc{} }

func (f *unionFn) AddInput(a scanAcc, s summary) scanAcc {
	a.DF = addCounts(a.DF, s.DF)
	s.DF = nil
	a.Parts = append(a.Parts, s)
	return a
}

func (f *unionFn) MergeAccumulators(a, b scanAcc) scanAcc {
	a.DF = addCounts(a.DF, b.DF)
	a.Parts = append(a.Parts, b.Parts...)
	return a
}

// addCounts adds the counts b to a, as long as the longer.
func addCounts(a, b []int) []int {
	if len(b) > len(a) {
		a, b = b, a
	}
	for j, v := range b {
		a[j] += v
	}
	return a
}

func (f *unionFn) ExtractOutput(a scanAcc) ([]byte, error) {
	parts := slices.SortedFunc(slices.Values(a.Parts), func(a, b summary) int { return a.Shard - b.Shard })
	if err := checkShards(len(parts), f.Shards, func(k int) int { return parts[k].Shard }); err != nil {
		return nil, fmt.Errorf("ipm: the scan of the shards: %w", err)
	}
	all := summary{Shard: -1, DF: a.DF}
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

// blockPart is block Block of the part of shard Shard in an epoch: the
// header and head of its binary form, of the block's width, and the delta
// of its Tables tables against the same block of the model it learned
// from.
type blockPart struct {
	Block  int
	Shard  int
	Head   []byte
	Tables int
	Delta  []byte
}

// learnFn learns epoch Epoch of a shard with perceptron.LearnShard, from
// the model whose blocks are the files of From, or from a fresh one if
// From is empty, and emits the blocks of Block features of the shard's
// part, each keyed by its block. It reads the shard as Read says, with
// Cols and Classes, whose indices are the classes of Model, and takes
// its rows through the steps: the IDF of the counts of the summary in
// the file Scan, if not empty, and the unit length of each row if
// Normalize is set. With Shuffle it visits them in the order that order
// draws from Seed. The rows and the model are those that the process
// keeps for the run Run, if it does.
type learnFn struct {
	Run       string
	Model     model
	Read      reading
	Cols      int
	Classes   []string
	Block     int
	From      string
	Scan      string
	Normalize bool
	Shuffle   bool
	Seed      uint64
	Epoch     int
}

func (f *learnFn) ProcessElement(ctx context.Context, sh shard, emit func(int, blockPart)) error {
	rc := cached(f.Run)
	if err := rc.begin(); err != nil {
		return err
	}
	defer rc.end()
	X, y, err := rc.rows(ctx, sh, f.Read, f.Cols, f.Classes, func(X mat.Matrix) (mat.Matrix, error) {
		var idf *data.Scaler
		if f.Scan != "" {
			var err error
			if idf, err = rc.idf(ctx, f.Scan, f.Cols); err != nil {
				return nil, fmt.Errorf("the IDF of the shards: %w", err)
			}
		}
		return steps(idf, f.Normalize).Transform(X)
	})
	if err != nil {
		return err
	}
	if f.Shuffle {
		set, err := (&data.Set{X: X, Y: y, Classes: f.Classes}).Subset(order(len(y), f.Seed, sh.Index, f.Epoch))
		if err != nil {
			return shardError(sh, err)
		}
		X, y = set.X, set.Y
	}
	m := f.Model.fresh()
	if f.From != "" {
		m, err = rc.model(f.From, func() (perceptron.Classifier, error) {
			return f.Model.load(ctx, f.From, f.Cols, f.Block)
		})
		if err != nil {
			return fmt.Errorf("ipm: the model the shards learn from: %w", err)
		}
	}
	learned, err := perceptron.LearnShard(m, X, y)
	if err != nil {
		return shardError(sh, err)
	}
	return f.encode(ctx, learned, sh, emit)
}

// encode emits the blocks of Block features of the part learned, of the
// shard sh, each keyed by its block: the head of its binary form, and its
// tables as a delta against the same block of the model of From, or of
// zeros if From is empty.
func (f *learnFn) encode(ctx context.Context, learned perceptron.Classifier, sh shard, emit func(int, blockPart)) error {
	form, err := learned.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return shardError(sh, err)
	}
	d, S, head, tables, err := layout(form)
	if err == nil && d != f.Cols {
		err = fmt.Errorf("a part of %d columns, want %d", d, f.Cols)
	}
	if err != nil {
		return shardError(sh, err)
	}
	var buf []byte // of the blocks of the model learned from
	for b := range blocks(d, f.Block) {
		lo, hi := blockRange(b, f.Block, d)
		// The tables of the block of the model learned from, or nil for
		// a fresh one.
		var ref []byte
		if f.From != "" {
			start, err := readFileTo(ctx, blockFile(f.From, b), buf)
			buf = start
			var bd, bS, bh, bt int
			if err == nil {
				bd, bS, bh, bt, err = layout(start)
			}
			if err == nil && (bd != hi-lo || bS != S || bt != tables) {
				err = fmt.Errorf("block %d of the model learned from is of %d columns by %d scores and %d tables, the part's of %d by %d and %d", b, bd, bS, bt, hi-lo, S, tables)
			}
			if err != nil {
				return fmt.Errorf("ipm: the model the shards learn from: %w", err)
			}
			ref = start[bh:]
		}
		var delta []byte
		for t := range tables {
			var r []byte
			if ref != nil {
				r = ref[8*t*(hi-lo)*S : 8*(t+1)*(hi-lo)*S]
			}
			delta = appendDelta(delta, tableRows(form, d, S, head, t, lo, hi), r)
		}
		emit(b, blockPart{Block: b, Shard: sh.Index, Head: withWidth(form[:head], hi-lo), Tables: tables, Delta: delta})
	}
	return nil
}

// mixFn mixes block b of the parts of Shards shards after epoch Epoch, in
// the order of the shards, with the same block of the model they learned
// from, whose blocks are the files of From, or a fresh one if From is
// empty, and writes the block of the mixed model to its file of To. The
// blocks are of Block features each, of Cols. An Averaged whose epoch
// made no mistake counts the epochs left to Model.Epochs, as
// perceptron.FitShards does. The step is of the run Run.
type mixFn struct {
	Run        string
	Model      model
	Shards     int
	Epoch      int
	ByMistakes bool
	Cols       int
	Block      int
	From, To   string

	// The buffers of a block of the model learned from and of a part,
	// which the blocks of a bundle use in turn.
	start, form []byte
}

func (f *mixFn) ProcessElement(ctx context.Context, b int, parts func(*blockPart) bool, emit func(int)) error {
	rc := cached(f.Run)
	if err := rc.begin(); err != nil {
		return err
	}
	defer rc.end()
	var all []blockPart
	var p blockPart
	for parts(&p) {
		all = append(all, p)
	}
	form, err := f.mix(ctx, b, all)
	if err == nil {
		err = writeFile(ctx, blockFile(f.To, b), form)
	}
	if err != nil {
		return fmt.Errorf("ipm: the mix of epoch %d, block %d: %w", f.Epoch, b, err)
	}
	emit(1)
	return nil
}

// sum is the Combine of the blocks mixed.
func sum(a, b int) int { return a + b }

// checkFn checks that Blocks blocks were mixed in epoch Epoch. A step
// that ends a pipeline also keeps prism from waiting on the step before
// it in a loop that takes a core: prism waits so for a step that has no
// output.
type checkFn struct {
	Blocks, Epoch int
}

func (f *checkFn) ProcessElement(n int) error {
	if n != f.Blocks {
		return fmt.Errorf("ipm: the mix of epoch %d: %d of %d blocks mixed", f.Epoch, n, f.Blocks)
	}
	return nil
}

// mix returns the binary form of block b of the mixed model.
func (f *mixFn) mix(ctx context.Context, b int, parts []blockPart) ([]byte, error) {
	slices.SortFunc(parts, func(a, b blockPart) int { return a.Shard - b.Shard })
	if err := checkShards(len(parts), f.Shards, func(k int) int { return parts[k].Shard }); err != nil {
		return nil, err
	}
	lo, hi := blockRange(b, f.Block, f.Cols)
	if b < 0 || lo >= hi {
		return nil, fmt.Errorf("no block %d of %d columns", b, f.Cols)
	}
	m := f.Model.fresh()
	var ref []byte // the tables of the block of m
	if f.From != "" {
		start, err := readFileTo(ctx, blockFile(f.From, b), f.start)
		f.start = start
		if err == nil {
			m, err = f.Model.decode(start)
		}
		if err != nil {
			return nil, fmt.Errorf("the model the shards learned from: %w", err)
		}
		_, _, head, _, _ := layout(start) // laid out, as it loaded
		ref = start[head:]
	}
	shards := make([]perceptron.Classifier, len(parts))
	for k, p := range parts {
		if len(p.Head) < formHeader || p.Tables < 1 || p.Tables > 2 {
			return nil, fmt.Errorf("shard %d: a block of no model", k)
		}
		_, S, _ := header(p.Head)
		size := uint64(p.Tables) * uint64(hi-lo) * 8
		if S == 0 || S > math.MaxInt/size || ref != nil && int(size*S) != len(ref) {
			return nil, fmt.Errorf("shard %d: a block of %d tables of %d by %d", k, p.Tables, hi-lo, S)
		}
		form := slices.Grow(f.form[:0], len(p.Head)+int(size*S))[:len(p.Head)+int(size*S)]
		f.form = form // the model decoded from it holds none of it
		copy(form, p.Head)
		if err := applyDelta(form[len(p.Head):], p.Delta, ref); err != nil {
			return nil, fmt.Errorf("shard %d: %w", k, err)
		}
		var err error
		if shards[k], err = f.Model.decode(form); err != nil {
			return nil, fmt.Errorf("shard %d: %w", k, err)
		}
	}
	// Mix also counts, for an Averaged, the epochs left after one without
	// a mistake, as FitShards does.
	if err := perceptron.Mix(m, shards, f.ByMistakes); err != nil {
		return nil, err
	}
	return m.(encoding.BinaryMarshaler).MarshalBinary()
}

// blockFile returns the file of block b of a model whose blocks are the
// files of prefix.
func blockFile(prefix string, b int) string { return fmt.Sprintf("%s.%05d.bin", prefix, b) }

// writeFn writes its one element to the file Path, on its Beam file
// system, for the run Run.
type writeFn struct {
	Run  string
	Path string
}

func (f *writeFn) ProcessElement(ctx context.Context, b []byte) error {
	rc := cached(f.Run)
	if err := rc.begin(); err != nil {
		return err
	}
	defer rc.end()
	return writeFile(ctx, f.Path, b)
}

// scanPipeline returns the pipeline of the run run that reads the shards
// as rd says, with cols and classes, and writes their summary as JSON to
// out, with the counts of the rows of each column if count is set.
func scanPipeline(run string, shards []shard, rd reading, cols int, classes []string, count bool, out string) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	sh := beam.CreateList(s.Scope("shards"), shards)
	sums := beam.ParDo(s.Scope("scan"), &scanFn{Run: run, Read: rd, Cols: cols, Classes: classes, Count: count}, sh)
	all := beam.Combine(s.Scope("union"), &unionFn{Shards: len(shards)}, sums)
	beam.ParDo0(s.Scope("write"), &writeFn{Run: run, Path: out}, all)
	return p
}

// epochPipeline returns the pipeline of the epoch of learn: it learns the
// shards as learn says, mixes them block by block, uniformly or
// byMistakes, writes the blocks of the mixed model to the files of to,
// and checks that it mixed every block.
func epochPipeline(learn learnFn, shards []shard, byMistakes bool, to string) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	sh := beam.CreateList(s.Scope("shards"), shards)
	parts := beam.ParDo(s.Scope("learn"), &learn, sh)
	byBlock := beam.GroupByKey(s.Scope("by block"), parts)
	mix := &mixFn{Run: learn.Run, Model: learn.Model, Shards: len(shards), Epoch: learn.Epoch, ByMistakes: byMistakes,
		Cols: learn.Cols, Block: learn.Block, From: learn.From, To: to}
	mixed := beam.ParDo(s.Scope("mix"), mix, byBlock)
	beam.ParDo0(s.Scope("check"), &checkFn{Blocks: blocks(learn.Cols, learn.Block), Epoch: learn.Epoch}, beam.Combine(s.Scope("count"), sum, mixed))
	return p
}
