// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package data reads data sets for the classifiers of package perceptron,
// splits and scales them, and reports how a classifier does on them.
//
// The readers take the formats of LIBSVM, CSV and IDX (MNIST's), and
// return a Set: rows of features, dense as a *mat.Dense or sparse as a
// *perceptron.CSR, and the class of each row as an index into the names of
// the classes. They read a line, or an IDX file, into memory in proportion
// to what it holds, refuse a line longer than a limit by its number, and
// name the line and the field of anything they refuse; their errors start
// there, with no prefix, for the caller to put the file's name before.
package data

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// Set is a data set: rows of features, and their classes.
type Set struct {
	// X holds the rows, one sample a row: a *mat.Dense, or a
	// *perceptron.CSR for the sparse rows of LIBSVM.
	X mat.Matrix

	// Y holds the class of each row, as an index into Classes, or is nil
	// if the rows were read without their labels.
	Y []float64

	// Classes holds the names of the classes: the labels as the data
	// write them.
	Classes []string

	// Features names the columns of X, as a CSV header does, or is nil.
	Features []string

	// Dropped is the number of values that a reader of a fixed width left
	// out, as they were in columns beyond it.
	Dropped int
}

// defaultMaxLine is the longest line a reader takes when its MaxLine is
// zero: 16 MiB, far beyond the longest line of text data sets.
const defaultMaxLine = 1 << 24

// classes turns the labels of a file into classes. With known classes, a
// label among them is its class, by its text or, for a number, by its
// value, and any other label becomes a class after them; without, the
// classes are the labels, sorted by value if all are numbers and by text
// otherwise.
type classes struct {
	names []string
	ids   map[string]int // the index in names of each label text read
	fixed int            // the number of classes known in advance
	rows  []string       // without known classes, the label of each row
}

func newClasses(known []string) *classes {
	c := &classes{names: slices.Clone(known), ids: map[string]int{}, fixed: len(known)}
	for k, name := range known {
		c.ids[name] = k
	}
	return c
}

// add reads the label s of the next row. It returns an error if s is
// empty, or would break a line of output: tabs and ends of lines.
func (c *classes) add(s string) error {
	switch {
	case s == "":
		return errors.New("the label is empty")
	case strings.ContainsAny(s, "\t\n\r") || !utf8.ValidString(s):
		return fmt.Errorf("the label %s holds a tab, an end of line or bytes that are not UTF-8", quote(s))
	}
	if c.fixed == 0 {
		c.rows = append(c.rows, s)
		return nil
	}
	if _, ok := c.ids[s]; !ok {
		k := c.find(s)
		if k < 0 {
			k = len(c.names)
			c.names = append(c.names, s)
		}
		c.ids[s] = k
	}
	c.rows = append(c.rows, s)
	return nil
}

// find returns the index of the known class whose label is the number s,
// written otherwise, or -1.
func (c *classes) find(s string) int {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return -1
	}
	for k, name := range c.names[:c.fixed] {
		if w, err := strconv.ParseFloat(name, 64); err == nil && w == v {
			return k
		}
	}
	return -1
}

// finish returns the classes and the class of each row.
func (c *classes) finish() ([]string, []float64) {
	if c.fixed == 0 {
		c.names = slices.Compact(slices.Sorted(slices.Values(c.rows)))
		byValue := true
		values := map[string]float64{}
		for _, s := range c.names {
			v, err := strconv.ParseFloat(s, 64)
			byValue = byValue && err == nil && !math.IsNaN(v)
			values[s] = v
		}
		if byValue {
			slices.SortStableFunc(c.names, func(a, b string) int { return cmp.Compare(values[a], values[b]) })
			// Equal numbers written otherwise, 1 and 1.0, are one class.
			c.names = slices.CompactFunc(c.names, func(a, b string) bool { return values[a] == values[b] })
			for _, s := range c.rows {
				if _, ok := c.ids[s]; !ok {
					c.ids[s], _ = slices.BinarySearchFunc(c.names, values[s], func(n string, v float64) int { return cmp.Compare(values[n], v) })
				}
			}
		} else {
			for k, s := range c.names {
				c.ids[s] = k
			}
		}
	}
	y := make([]float64, len(c.rows))
	for i, s := range c.rows {
		y[i] = float64(c.ids[s])
	}
	return c.names, y
}

// quote returns s quoted, cut to its first 40 bytes: an error quotes a
// short, printable prefix of a bad token, however long the token.
func quote(s string) string {
	const most = 40
	if len(s) <= most {
		return strconv.QuoteToASCII(s)
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.QuoteToASCII(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
}

// number parses a feature value, which must be a finite number.
func number(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, errors.New("empty, want a number")
	}
	v, err := strconv.ParseFloat(t, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%s is not a number", quote(s))
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("%s is not a finite number", quote(s))
	}
	return v, nil
}
