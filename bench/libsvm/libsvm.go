// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package libsvm reads files of the sparse text format of LIBSVM into
// compressed sparse rows, and builds the class pairs of the Debian
// sections data set that this module's sparse benchmarks use. It returns
// the rows as plain slices, for perceptron.NewCSR, so that the package's
// own benchmarks can import it.
package libsvm

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// Set is a set of labelled sparse rows: row i holds Val[Ptr[i]:Ptr[i+1]]
// at the 0-based columns Ind[Ptr[i]:Ptr[i+1]], in increasing order, and
// has the label Y[i].
type Set struct {
	Rows, Cols int
	Ptr, Ind   []int
	Val, Y     []float64
}

// Bytes returns the size of the rows in compressed sparse row form:
// Rows+1 and NNZ ints, and NNZ float64 values.
func (s *Set) Bytes() int {
	return 8 * (len(s.Ptr) + len(s.Ind) + len(s.Val))
}

// Normalize scales every row of s that is not empty to unit Euclidean
// length, the usual scaling of rows of word counts or presence: unscaled,
// a long text weighs more in every update than a short one.
func (s *Set) Normalize() {
	for i := range s.Rows {
		v := s.Val[s.Ptr[i]:s.Ptr[i+1]]
		var q float64
		for _, a := range v {
			q += a * a
		}
		if q > 0 {
			q = math.Sqrt(q)
			for k := range v {
				v[k] /= q
			}
		}
	}
}

// Read reads the rows of r, one a line: a label, then index:value pairs
// with indices from 1 in increasing order. label maps the label of a line
// to the label of its row, or reports that the line is left out, and
// then not read further. Cols is the largest index read.
func Read(r io.Reader, label func(c float64) (y float64, keep bool)) (*Set, error) {
	s := &Set{Ptr: []int{0}}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		// Read the label alone first: most lines of a class pair are left
		// out.
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		head, rest := text, ""
		if k := strings.IndexFunc(text, unicode.IsSpace); k >= 0 {
			head, rest = text[:k], text[k:]
		}
		c, err := strconv.ParseFloat(head, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: label %q is not a number", line, head)
		}
		y, keep := label(c)
		if !keep {
			continue
		}
		prev := 0
		for _, f := range strings.Fields(rest) {
			is, vs, ok := strings.Cut(f, ":")
			if !ok {
				return nil, fmt.Errorf("line %d: %q is not index:value", line, f)
			}
			j, err := strconv.Atoi(is)
			if err != nil || j <= prev {
				return nil, fmt.Errorf("line %d: %q: index %q after %d, want increasing indices from 1", line, f, is, prev)
			}
			v, err := strconv.ParseFloat(vs, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %q: value %q is not a number", line, f, vs)
			}
			prev = j
			s.Ind = append(s.Ind, j-1)
			s.Val = append(s.Val, v)
		}
		s.Cols = max(s.Cols, prev)
		s.Ptr = append(s.Ptr, len(s.Ind))
		s.Y = append(s.Y, y)
		s.Rows++
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// ReadFile reads the file at path, gzipped if its name ends in .gz, as
// Read does. Its errors name the file.
func ReadFile(path string, label func(c float64) (y float64, keep bool)) (*Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 1<<16)
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		defer zr.Close()
		r = zr
	}
	s, err := Read(r, label)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// DebianDir is where the Debian sections data set is, relative to the
// root of the module.
const DebianDir = "../shared/data/debian-sections"

// DebianFeatures is the number of features of the Debian sections data
// set.
const DebianFeatures = 284_746

// Class numbers of the Debian sections used by the standard pairs.
const (
	LibDevel = 14
	Libs     = 15
)

// DebianClasses is the number of classes of the Debian sections data
// set, numbered 0 to DebianClasses-1.
const DebianClasses = 35

// DebianPair returns the training and test rows of the Debian sections
// data set in dir whose class is pos, labelled +1, or neg, labelled -1,
// in the order of the files. Both sets have DebianFeatures columns, or as
// many as the largest index in either file.
func DebianPair(dir string, pos, neg int) (train, test *Set, err error) {
	return debian(dir, func(c float64) (float64, bool) {
		switch c {
		case float64(pos):
			return 1, true
		case float64(neg):
			return -1, true
		}
		return 0, false
	})
}

// DebianAll returns every training and test row of the Debian sections
// data set in dir, in the order of the files, labelled with their class
// numbers. Both sets have DebianFeatures columns, or as many as the
// largest index in either file.
func DebianAll(dir string) (train, test *Set, err error) {
	return debian(dir, func(c float64) (float64, bool) { return c, true })
}

// debian reads the training and test files of the Debian sections data
// set in dir, as ReadFile does with label, and gives both sets the same
// columns.
func debian(dir string, label func(c float64) (y float64, keep bool)) (train, test *Set, err error) {
	train, err = ReadFile(filepath.Join(dir, "debian-sections.train.svm.gz"), label)
	if err != nil {
		return nil, nil, err
	}
	test, err = ReadFile(filepath.Join(dir, "debian-sections.test.svm.gz"), label)
	if err != nil {
		return nil, nil, err
	}
	cols := max(DebianFeatures, train.Cols, test.Cols)
	train.Cols, test.Cols = cols, cols
	return train, test, nil
}
