// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package stream joins the training of package perceptron on a stream of
// rows to package data, which reads the rows: a stream comes a chunk of
// rows at a time, and is read again for each epoch. It holds what a
// training on a stream keeps of each row beyond memory: the shares of the
// averaged perceptron, in a file that it reads back in the order of the
// rows.
package stream

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// Chunk is a run of consecutive rows of a stream: the rows X, their class
// values Y, and their weights W, or nil for 1 each.
type Chunk struct {
	X    mat.Matrix
	Y, W []float64
}

// Pass is a pass over the rows of a stream: it calls yield with each chunk
// of the rows in turn, until yield returns false, and returns the error
// that ended the rows early, if any. Each call reads the rows again, the
// same rows in the same chunks.
type Pass func(yield func(Chunk) bool) error

// Shares are numbers kept for the rows of a stream, of which a pass of
// training over the chunks loads those of each chunk, adds to them, and
// stores them, in the order of the rows: the numbers from index i of the
// whole, as if they were one slice, are those from row i/S of S numbers
// each. A number never stored is 0. A pass starts when Load is called at
// an index below the end of the last Load; it loads what the pass before
// stored.
type Shares interface {
	Load(dst []float64, i int) error
	Store(src []float64, i int) error
}

// Fit is package perceptron's Fit of the classifier c on the rows that
// pass gives, reading them again for each epoch, stopped when ctx is
// done, keeping the shares of an averaged perceptron in shares. Package
// perceptron sets it when it is loaded.
var Fit func(ctx context.Context, c any, pass Pass, shares Shares) error

// Memory is Shares held in memory: 8 bytes for each number up to the
// last stored other than +0.
type Memory struct{ v []float64 }

// Load sets dst to the numbers from index i.
func (m *Memory) Load(dst []float64, i int) error {
	clear(dst)
	if i < len(m.v) {
		copy(dst, m.v[i:])
	}
	return nil
}

// Store sets the numbers from index i to src, or returns an error if they
// do not fit in the memory left.
func (m *Memory) Store(src []float64, i int) error {
	end := i + len(src)
	for end > i && math.Float64bits(src[end-i-1]) == 0 {
		end--
	}
	if end > len(m.v) {
		if err := memory.Check(8 * float64(end-len(m.v))); err != nil {
			return fmt.Errorf("holding the shares of the rows of a stream: %w", err)
		}
		m.v = append(m.v, make([]float64, end-len(m.v))...)
	}
	if i < len(m.v) {
		copy(m.v[i:], src) // those beyond are 0
	}
	return nil
}

// Spill is Shares held in two files of a directory, the one that a pass
// reads and the one that it writes, each the numbers other than +0 in the
// order of their index: the difference of each index with the one before,
// a varint, and the bits of the number, 8 bytes.
type Spill struct {
	files [2]*os.File
	r     *bufio.Reader // of the file read, files[0]
	w     *bufio.Writer // of the file written, files[1]
	next  int           // the index after the last loaded
	last  int           // the index of the last number written, or -1
	read  int           // the index of the number read ahead, or -1 at the end
	ahead float64       // and the number
	prev  int           // the index of the last number read
}

// NewSpill returns Shares in two new files of the directory dir, which
// Close removes.
func NewSpill(dir string) (*Spill, error) {
	s := &Spill{last: -1, read: -1, prev: -1}
	for k := range s.files {
		f, err := os.CreateTemp(dir, ".perceptron-shares-*")
		if err != nil {
			s.Close()
			return nil, err
		}
		s.files[k] = f
	}
	s.w = bufio.NewWriterSize(s.files[1], 1<<16)
	return s, nil
}

// Close removes the files.
func (s *Spill) Close() error {
	var errs []error
	for _, f := range s.files {
		if f != nil {
			errs = append(errs, f.Close(), os.Remove(f.Name()))
		}
	}
	return errors.Join(errs...)
}

// Load sets dst to the numbers from index i.
func (s *Spill) Load(dst []float64, i int) error {
	if i < s.next || s.next == 0 && s.r == nil {
		if err := s.turn(); err != nil {
			return err
		}
	}
	clear(dst)
	end := i + len(dst)
	for s.read >= 0 && s.read < end {
		if s.read >= i {
			dst[s.read-i] = s.ahead
		}
		if err := s.readNext(); err != nil {
			return err
		}
	}
	s.next = end
	return nil
}

// Store writes the numbers other than +0 of src, from index i, after those
// written before in this pass, whose indices are lower.
func (s *Spill) Store(src []float64, i int) error {
	var buf [binary.MaxVarintLen64 + 8]byte
	for k, v := range src {
		if math.Float64bits(v) == 0 {
			continue // as a number never stored, 0
		}
		n := binary.PutUvarint(buf[:], uint64(i+k-s.last))
		binary.LittleEndian.PutUint64(buf[n:], math.Float64bits(v))
		if _, err := s.w.Write(buf[:n+8]); err != nil {
			return err
		}
		s.last = i + k
	}
	return nil
}

// turn starts a pass: the file written becomes the file read, from its
// start, and the other the file written, empty.
func (s *Spill) turn() error {
	if err := s.w.Flush(); err != nil {
		return err
	}
	s.files[0], s.files[1] = s.files[1], s.files[0]
	for _, f := range s.files {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
	}
	if err := s.files[1].Truncate(0); err != nil {
		return err
	}
	s.r = bufio.NewReaderSize(s.files[0], 1<<16)
	s.w.Reset(s.files[1])
	s.last, s.prev, s.next = -1, -1, 0
	return s.readNext()
}

// readNext reads the next number of the file read ahead, or sets read to
// -1 at its end.
func (s *Spill) readNext() error {
	d, err := binary.ReadUvarint(s.r)
	if err == io.EOF {
		s.read = -1
		return nil
	}
	var b [8]byte
	if err == nil {
		_, err = io.ReadFull(s.r, b[:])
	}
	if err != nil {
		return fmt.Errorf("reading the shares of the rows of a stream: %w", err)
	}
	s.prev += int(d)
	s.read, s.ahead = s.prev, math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
	return nil
}
