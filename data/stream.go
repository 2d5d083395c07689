// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"context"
	"iter"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/stream"
)

// Stream is a data set that a Model trains on a chunk of rows at a time,
// in memory that does not grow with its rows, reading them again for
// each epoch, as Vowpal Wabbit reads its cache and scikit-learn's
// partial_fit takes batches.
type Stream struct {
	// Rows are the rows and their classes, as the Rows of a reader give
	// them, which read them again, the same rows in the same order, each
	// time they are ranged over.
	Rows iter.Seq2[Row, error]

	// Weighted weighs each row by its Weight, as a Set's Weights weigh
	// them: a finite value >= 0. If not set, each row weighs 1.
	Weighted bool

	// Dir, if not "", is the directory of the file in which an averaged
	// perceptron keeps, from epoch to epoch, a number for each score of
	// each row that was a mistake, some 10 bytes each, and which it
	// removes. If "", it keeps them in memory, 8 bytes for each score of
	// each row up to the last of a mistake.
	Dir string
}

// chunkValues is the most values of the rows of a chunk of a Stream, or
// of its one row if that has more: 16 MiB of sparse rows' values and
// columns, and as much again for their transformed copy. Tests lower it.
var chunkValues = 1 << 20

// FitStream fits the Classifier to the rows of s, transformed as
// Transform transforms them, with the class values 0, 1, … of their
// classes and their weights, reading them again for each epoch, as Fit
// fits it to the rows of a Set: it sets Classes, the features, the
// statistics of the rows and Calibration as Fit does, the labels of the
// classes being the Classes of the last row. The Classifier must be a
// perceptron.Perceptron, Averaged or Voted, or a OneVsRest of them, whose
// Stop holds out no rows. A Classifier without Labels reads the rows once
// more first, for their classes; a Model of sparse rows without a Hashing
// nor a Scaler, which give their columns, reads them once more first, for
// their columns.
//
// FitStream reads the rows a chunk at a time, of at most 2^20 values or
// one row, in their order, or, with a Rand, in a fresh random order within
// each chunk in every epoch, the chunks in order: rows in an order that is
// not random, sorted by class say, are best shuffled once before, as
// Vowpal Wabbit's users shuffle theirs. In the order of the rows, the
// Classifier is the one that its Fit makes of the rows of a Set, bit for
// bit, and stops when it does. It holds a chunk of rows, its
// transformed copy and their classes, the model, and what an averaged
// perceptron keeps in memory (see Dir).
//
// FitStream returns the errors of Fit, naming the line of a row, an error
// if a row has no label, a column beyond those of the Model, or a weight
// that is not a finite value >= 0; and those of the readers. A
// failed FitStream leaves the Model as it was. It stops when ctx is done,
// as perceptron.FitContext does. As Fit, it may run concurrently with none
// of the Model's methods.
func (m *Model) FitStream(ctx context.Context, s Stream) error {
	switch {
	case s.Rows == nil:
		return errorf(perceptron.ErrSetting, "data: the Stream has no Rows")
	case m.Classifier == nil:
		return errorf(perceptron.ErrSetting, "data: the Model has no Classifier to fit")
	}
	d, err := m.hashingCols()
	if err != nil {
		return err
	}
	if d == 0 && m.Scaler != nil {
		d = len(m.Scaler.Scale)
	}
	if d == 0 {
		if d, err = widthOf(s.Rows); err != nil {
			return err
		}
	}
	// The statistics of the rows as given, on the first pass.
	var acc rowAcc
	c := &chunker{m: m, s: s, d: d, acc: &acc, stats: true}
	var shares stream.Shares
	if s.Dir != "" {
		spill, err := stream.NewSpill(s.Dir)
		if err != nil {
			return wrapf(err, "data: the shares of the averaged perceptron: %w", err)
		}
		defer spill.Close()
		shares = spill
	}
	if err := stream.Fit(ctx, m.Classifier, c.pass, shares); err != nil {
		return err
	}
	classes, err := labelsOf(m.Classifier.Classes(), c.classes)
	if err != nil {
		return err
	}
	m.features, m.Classes, m.rows, m.Calibration = d, classes, acc.stats(), nil
	return nil
}

// widthOf returns the columns of the rows: the values of the first, if it
// is dense, and otherwise the largest index of a column of a row and 1.
func widthOf(rows iter.Seq2[Row, error]) (int, error) {
	d := 0
	for row, err := range rows {
		if err != nil {
			return 0, err
		}
		if row.Ind == nil {
			return len(row.Val), nil
		}
		if k := len(row.Ind); k > 0 {
			d = max(d, row.Ind[k-1]+1)
		}
	}
	if d == 0 {
		return 0, errorf(perceptron.ErrShape, "data: the rows have no columns")
	}
	return d, nil
}

// chunker makes chunks of the rows of a Stream for a Model's steps.
type chunker struct {
	m     *Model
	s     Stream
	d     int
	acc   *rowAcc
	stats bool // whether the next pass adds the rows to acc

	classes []string // of the last row read

	// The chunk: sparse rows, or dense ones, their classes and weights.
	ptr, ind []int
	val, y   []float64
	w        []float64
}

// pass is a stream.Pass over the chunks of the rows, transformed.
func (c *chunker) pass(yield func(stream.Chunk) bool) error {
	first, dense := 0, false
	c.ptr, c.ind, c.val, c.y, c.w = append(c.ptr[:0], 0), c.ind[:0], c.val[:0], c.y[:0], c.w[:0]
	flush := func() (bool, error) {
		n := len(c.y)
		if n == 0 {
			return true, nil
		}
		var X mat.Matrix
		if dense {
			X = mat.NewDense(n, c.d, c.val)
		} else {
			var err error
			if X, err = perceptron.NewCSR(n, c.d, c.ptr, c.ind, c.val); err != nil {
				return false, err
			}
		}
		X, err := c.m.transform(X, first, true, nil)
		if err != nil {
			return false, err
		}
		ch := stream.Chunk{X: X, Y: c.y}
		if c.s.Weighted {
			ch.W = c.w
		}
		first += n
		c.ptr, c.ind, c.val, c.y, c.w = c.ptr[:1], c.ind[:0], c.val[:0], c.y[:0], c.w[:0]
		return yield(ch), nil
	}
	for row, err := range c.s.Rows {
		if err != nil {
			return err
		}
		if err := c.add(row, &dense); err != nil {
			return err
		}
		if len(c.val) >= chunkValues {
			if more, err := flush(); err != nil || !more {
				return err
			}
		}
	}
	c.stats = false
	_, err := flush()
	return err
}

// add adds a row to the chunk, as dense or sparse as the rows before.
func (c *chunker) add(row Row, dense *bool) error {
	switch {
	case row.Class < 0:
		return errorAt(perceptron.ErrLabels, row.Line, -1, -1, "data: line %d: the row has no label to train on", row.Line)
	case row.Ind == nil && len(row.Val) != c.d:
		return errorAt(perceptron.ErrShape, row.Line, -1, -1, "data: line %d: a row of %d values, want %d", row.Line, len(row.Val), c.d)
	case len(row.Ind) > 0 && row.Ind[len(row.Ind)-1] >= c.d:
		return errorAt(perceptron.ErrShape, row.Line, -1, row.Ind[len(row.Ind)-1], "data: line %d: a value in column %d, beyond the %d of the model", row.Line, row.Ind[len(row.Ind)-1]+1, c.d)
	case c.s.Weighted && !(row.Weight >= 0 && row.Weight <= math.MaxFloat64):
		return errorAt(perceptron.ErrNonFinite, row.Line, -1, -1, "data: line %d: the weight of the row is %v, want a finite value >= 0", row.Line, row.Weight)
	}
	if len(c.y) == 0 {
		*dense = row.Ind == nil
	} else if *dense != (row.Ind == nil) {
		return errorAt(perceptron.ErrShape, row.Line, -1, -1, "data: line %d: a row dense or sparse where the rows before are not", row.Line)
	}
	if c.stats {
		c.acc.add(row.Val)
	}
	c.ind = append(c.ind, row.Ind...)
	c.val = append(c.val, row.Val...)
	c.ptr = append(c.ptr, len(c.val))
	c.y = append(c.y, float64(row.Class))
	c.w = append(c.w, row.Weight)
	c.classes = row.Classes
	return nil
}
