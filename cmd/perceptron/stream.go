// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
	"gonum.org/v1/gonum/mat"
)

// A stream is a data file read one block of rows at a time, in memory
// independent of its rows: the rows that the readers of package data give
// one at a time, gathered into blocks of data.BlockRows rows, which the
// command predicts as it predicts rows in memory, to the same bits. It
// reads the rows again, from the first, for each pass, if the file is one
// that seeks, as a file does; standard input it reads once.

// stream is a data file read a block of rows at a time.
type stream struct {
	*input
	rows  iter.Seq2[data.Row, error]
	files []*os.File

	// What the last pass counted: the rows, their non-zero values, the
	// rows of other labels that -pos and -neg left out, the values beyond
	// the width, and the classes of the rows, those of the spec and then
	// the labels that are none of them.
	n, nnz, left, dropped int
	classes               []string

	// check, if not nil, says whether the rows look unlike those a model
	// was trained on, as data.Model's CheckRows does: the first pass
	// warns on warn if the rows of its first block do.
	check func(mat.Matrix) error
	warn  io.Writer

	// early ends a block of rows of standard input where the rows read
	// run out, before more are read, when the command would wait for
	// them: a model whose scores of a row do not depend on the rows
	// scored with it gives the same bits, and predict writes each row's
	// class as soon as the row is read.
	early bool
}

// openStream opens the data file at path to read as spec says, a block of
// rows at a time. The caller closes it.
func openStream(path string, spec readSpec) (*stream, error) {
	in, err := newInput(path, spec)
	if err != nil {
		return nil, err
	}
	s := &stream{input: in}
	var r io.Reader
	head := in.stdin
	if head != nil {
		r = head
	}
	if in.format == "idx" && in.stdin == nil {
		imPath, lbPath, _ := strings.Cut(path, ",")
		f := data.IDX{Classes: in.known}
		if lbPath == "" {
			lbPath = f.LabelsFile(imPath)
			if _, err := os.Stat(lbPath); lbPath != "" && errors.Is(err, os.ErrNotExist) {
				lbPath = ""
			}
		}
		in.name = imPath
		for _, p := range []string{imPath, lbPath} {
			if p == "" {
				continue
			}
			file, err := os.Open(p)
			if err != nil {
				s.close()
				return nil, err
			}
			s.files = append(s.files, file)
		}
		var lb io.Reader
		if len(s.files) == 2 {
			lb = s.files[1]
		}
		s.rows = f.Rows(s.files[0], lb)
		return s, nil
	}
	if head == nil {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		s.files = append(s.files, f)
		r, head = f, bufio.NewReaderSize(io.NewSectionReader(f, 0, math.MaxInt64), 64<<10)
	}
	switch in.format {
	case "idx":
		s.rows = data.IDX{Classes: in.known}.Rows(r, nil)
	case "csv":
		s.rows = in.csv().Rows(r)
	case "libsvm":
		s.rows = data.LIBSVM{Cols: spec.width, Classes: in.known}.Rows(r)
	case "text":
		s.rows = in.text(peekText(head)).Rows(r)
	}
	return s, nil
}

// close closes the files of the stream.
func (s *stream) close() {
	for _, f := range s.files {
		f.Close()
	}
}

// blocks reads the rows, again from the first if they were read, and calls
// fn with each block of at most size of them, in order, as a data set of
// the rows with their classes, of the classes of the rows read so far,
// whose rows are counted from first+1, as the rows of the file are. It
// leaves out the rows of labels other than the two that -pos and -neg
// picked, unless spec keeps every row, and returns the error of fn, or
// an error naming the file and the line of a row it cannot read.
func (s *stream) blocks(size int, fn func(b *dataset) error) error {
	spec := s.spec
	picked := spec.known != nil && spec.known.picked && !spec.keepRows
	sparse := s.format == "libsvm" || s.format == "text"
	d := spec.width
	var (
		ptr        = []int{0}
		ind        []int
		val, dense []float64
		y, w       []float64
		labelled   bool
	)
	s.n, s.nnz, s.left, s.dropped, s.classes = 0, 0, 0, 0, nil
	first := 0
	flush := func() error {
		rows := len(ptr) - 1
		if rows == 0 {
			return nil
		}
		var X mat.Matrix
		if sparse {
			c, err := perceptron.NewCSR(rows, d, ptr, ind, val)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			X = c
		} else {
			X = mat.NewDense(rows, d, dense)
		}
		set := &data.Set{X: X, Classes: s.classes}
		if labelled && spec.labels {
			set.Y = y
		} else {
			set.Classes = nil
		}
		if spec.weights != "" {
			set.Weights = w
		}
		b := &dataset{name: s.name, format: s.format, Set: set, classes: spec.known, first: first}
		if s.check != nil {
			if err := s.check(X); err != nil {
				fmt.Fprintf(s.warn, "perceptron: warning: %s: %v\n", s.name, err)
			}
			s.check = nil
		}
		if err := fn(b); err != nil {
			return err
		}
		first += rows
		ptr, ind, val, dense, y, w = ptr[:1], ind[:0], val[:0], dense[:0], y[:0], w[:0]
		return nil
	}
	var failed error // of a block that early ended
	if s.early && s.wait != nil {
		s.wait.before = func() {
			if failed == nil {
				failed = flush()
			}
		}
		defer func() { s.wait.before = nil }()
	}
	for row, err := range s.each() {
		if failed != nil {
			return failed
		}
		if err != nil {
			return err
		}
		s.dropped += row.Dropped
		if row.Class >= 0 {
			s.classes, labelled = row.Classes, true
		}
		if picked && row.Class >= 2 {
			s.left++
			continue
		}
		if !sparse {
			if d == 0 {
				d = len(row.Val)
			}
			if len(row.Val) != d {
				return widthError(s.name, s.format, len(row.Val), d, row.Class >= 0)
			}
			dense = append(dense, row.Val...)
		} else {
			ind = append(ind, row.Ind...)
			val = append(val, row.Val...)
		}
		ptr = append(ptr, len(val))
		y, w = append(y, float64(row.Class)), append(w, row.Weight)
		s.n++
		s.nnz += len(row.Val)
		if len(ptr)-1 == size {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	s.classes = slices.Clone(s.classes)
	if failed != nil {
		return failed
	}
	return flush()
}

// notes says on stderr what the last pass left out: the values beyond the
// width of the model.
func (s *stream) notes(stderr io.Writer) {
	dropped(stderr, s.name, s.dropped, s.spec.width)
}

// describeRows describes the rows, as "NAME: 12 test rows, 901 non-zeros
// (0.32%)" for the noun "test row": a stream, as its last pass counted
// them.
func describeRows(rows rowBlocks, noun string) string {
	switch t := rows.(type) {
	case *dataset:
		n, _ := t.X.Dims()
		return fmt.Sprintf("%s: %s%s%s", t.name, plural(n, noun), nonZeros(t.X), leftOut(t))
	case *stream:
		nz := ""
		if t.format == "libsvm" || t.format == "text" {
			nz = nonZerosOf(t.nnz, t.n, t.spec.width)
		}
		return fmt.Sprintf("%s: %s%s%s", t.name, plural(t.n, noun), nz, leftOf(t.left))
	}
	return ""
}

// noLabels returns the error of test rows read without labels.
func noLabels(ds *dataset) error {
	if ds.format == "text" {
		return fmt.Errorf("%s: read as text, as TRAIN is, the lines have no labels to test on: a line's label is a token that starts with __label__, or what comes before a tab", ds.name)
	}
	return fmt.Errorf("%s: the rows have no labels to test the model on", ds.name)
}

// memoryShare is the share of the memory that the command may take that
// the rows of a file may take in memory: beyond it, the command reads
// them a block at a time. Training holds the rows, and sparse rows again
// as the steps before the classifier transform them.
const memoryShare = 0.5

// bytesPerByte is, for each format, about the most bytes of memory that
// the rows of a byte of its text take: 16 bytes for a value of LIBSVM,
// of at least 8 bytes of text; some 4 for a byte of text, whose words
// and pairs of words are values; 8 for a value of CSV, of at least 2; 8
// for a pixel of IDX, of one.
var bytesPerByte = map[string]float64{"libsvm": 2, "text": 4, "csv": 4, "idx": 8}

// tooLarge reports whether the rows of the data file of in would take
// more than memoryShare of the memory left to the command, as the size
// of the file, or of its text if it is gzipped, tells: its size, or the
// size that the end of a gzipped file gives, if it is one member of less
// than 4 GiB.
func (in *input) tooLarge() bool {
	size := 0.0
	for _, p := range inputFiles(in.path, in.spec) {
		size += textSize(p)
	}
	room := data.MemoryLeft()
	return size*bytesPerByte[in.format] > memoryShare*room
}

// textSize returns the bytes of the file at path, or of its text if it is
// gzipped, as far as it tells them, or 0 if it cannot be read.
func textSize(path string) float64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	size := float64(fi.Size())
	var head [2]byte
	var tail [4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil || head != [2]byte{0x1f, 0x8b} || fi.Size() < 18 {
		return size
	}
	if _, err := f.ReadAt(tail[:], fi.Size()-4); err != nil {
		return size
	}
	// The size of the text modulo 2^32: at least the file's.
	return max(size, float64(binary.LittleEndian.Uint32(tail[:])))
}

// testRows returns the test rows of the file at path, read as spec says:
// in memory, or, with -stream, the flag streamed, or if they would not
// fit, as a stream, which the caller closes.
func testRows(path string, spec readSpec, streamed switchFlag, stderr io.Writer) (rowBlocks, error) {
	ds, err := inMemory(path, spec, streamed, stderr)
	switch {
	case err != nil:
		return nil, err
	case ds != nil:
		if ds.Y == nil {
			return nil, noLabels(ds)
		}
		dropped(stderr, ds.name, ds.Dropped, spec.width)
		return ds, nil
	}
	return openStream(path, spec)
}

// laterRows are test rows read when they are first needed, after a fit,
// which then holds none of them.
type laterRows struct {
	read func() (rowBlocks, error)
	rows rowBlocks
}

// resolve returns the rows, read once.
func (l *laterRows) resolve() (rowBlocks, error) {
	if l.rows == nil {
		rows, err := l.read()
		if err != nil {
			return nil, err
		}
		l.rows = rows
	}
	return l.rows, nil
}

func (l *laterRows) blocks(size int, fn func(b *dataset) error) error {
	rows, err := l.resolve()
	if err != nil {
		return err
	}
	return rows.blocks(size, fn)
}

// close closes the rows if they were read as a stream.
func (l *laterRows) close() {
	if s, ok := l.rows.(*stream); ok {
		s.close()
	}
}

// inMemory returns the rows of the file at path, read as spec says, or nil
// if they are to be read as a stream: with -stream, the flag streamed, if
// they would not fit, as their size tells, or if the reader finds that
// they do not fit, which it then says on stderr.
func inMemory(path string, spec readSpec, streamed switchFlag, stderr io.Writer) (*dataset, error) {
	switch {
	case streamed.set && streamed.on:
		return nil, nil
	case streamed.set:
		return readData(path, spec)
	}
	if path == "-" {
		// Read once: whatever its size.
		return readData(path, spec)
	}
	in, err := newInput(path, spec)
	if err != nil {
		return nil, err
	}
	if in.tooLarge() {
		fmt.Fprintf(stderr, "perceptron: %s: the rows would take more than half the memory left: reading them a block at a time\n", in.name)
		return nil, nil
	}
	// The reader checks what it holds against the memory limit, which
	// leaves it a share of the memory: a file whose rows do not fit there
	// leaves the rest to its stream, also under a limit of address space,
	// of which Go's runtime gives nothing back.
	room := data.MemoryLeft()
	was := debug.SetMemoryLimit(-1)
	if limit := goHeld() + memoryShare*room; limit < float64(was) {
		debug.SetMemoryLimit(int64(limit))
	}
	ds, err := readData(path, spec)
	debug.SetMemoryLimit(was)
	if errors.Is(err, perceptron.ErrTooLarge) {
		fmt.Fprintf(stderr, "perceptron: %s: the rows do not fit in half the memory left: reading them a block at a time\n", in.name)
		return nil, nil
	}
	return ds, err
}

// each returns the rows of the stream, their errors after the name of the
// file, with their weights if -weights gives them, a line of its file
// for each row of the file.
func (s *stream) each() iter.Seq2[data.Row, error] {
	return func(yield func(data.Row, error) bool) {
		var w *weightLines
		if s.spec.weights != "" {
			var err error
			if w, err = openWeights(s.spec.weights); err != nil {
				yield(data.Row{}, err)
				return
			}
			defer w.close()
		}
		n := 0
		for row, err := range s.rows {
			if err != nil {
				if s.format == "csv" {
					err = csvFlags(err)
				}
				yield(row, fmt.Errorf("%s: %w", s.name, err))
				return
			}
			if w != nil {
				if row.Weight, err = w.next(n, s.name); err != nil {
					yield(row, err)
					return
				}
			}
			n++
			if !yield(row, nil) {
				return
			}
		}
		if w != nil {
			if err := w.end(n, s.name); err != nil {
				yield(data.Row{}, err)
			}
		}
	}
}
