// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// classes turns the labels of a file into classes. With known classes, a
// label among them is its class, by its text or, for a number, by its
// value, and any other label becomes a class after them; without, the
// classes are the labels, sorted by value if all are numbers and by text
// otherwise. If all the labels and the known classes are numbers, a label
// that is NaN, infinite or beyond the range of float64 is an error.
//
// It holds a class for each row, and each distinct label once: the labels
// of a million rows of two classes take 8 MB, not a string a row.
type classes struct {
	names   []string       // the known classes, then the labels read in the order of their first rows
	values  []float64      // the value of each name, NaN if it is no number
	numbers bool           // whether every name is a number, finite or not
	ids     map[string]int // the index in names of each label text read
	fixed   int            // the number of classes known in advance
	y       []float64      // the index in names of the label of each row
	checked int            // the number of distinct labels whose memory was checked
	held    int            // the bytes of their text
	bad     error          // the error of the first label that is a number but not finite
	rows    bool           // whether the lines that label gets are rows, from 1, of JSON
}

// perLabel is what a distinct label holds besides its text, at most: its
// entry in ids, while the map grows too, its name and its value.
const perLabel = 128

// newClasses returns the classes of the labels of a file, with the known
// classes first. It returns an error if a known class is twice in known,
// by its text or, for a number, by its value, or is no label a reader
// takes.
func newClasses(known []string) (*classes, error) {
	c := &classes{ids: map[string]int{}, fixed: len(known), numbers: true}
	for k, s := range known {
		if first, ok := c.ids[s]; ok {
			return nil, errorf(perceptron.ErrSetting, "the known classes %d and %d are both %s", first+1, k+1, quote(s))
		}
		if _, err := c.label(s, 0, 0); err != nil {
			return nil, wrapf(err, "known class %d: %w", k+1, err)
		}
		if v := c.values[k]; !math.IsNaN(v) {
			if first := slices.Index(c.values[:k], v); first >= 0 {
				return nil, errorf(perceptron.ErrSetting, "the known classes %d and %d, %s and %s, are the same number", first+1, k+1, quote(c.names[first]), quote(s))
			}
		}
	}
	return c, nil
}

// index returns the class of the label of a row, which is at field of
// line, or the whole line if field is 0, having made it a class if it is
// none. It returns an error if the label is empty, would break a line of
// output, as control characters such as tabs and ends of lines would, holds
// a byte-order mark or bytes that are not UTF-8, or does not fit in the
// memory left.
func (c *classes) index(label string, line, field int) (int, error) {
	if k, ok := c.ids[label]; ok {
		return k, nil
	}
	return c.label(label, line, field)
}

// push holds the class k of the next row.
func (c *classes) push(k int) error {
	if len(c.y) == cap(c.y) {
		var err error
		if c.y, err = grow(c.y, 1); err != nil {
			return tooLarge(err, "holding a class for each row up to it")
		}
	}
	c.y = append(c.y, float64(k))
	return nil
}

// label returns the class of a label s not read before, at field of line,
// having made it a class if it is none, and checked the memory of the
// labels to come as that of the labels so far, each time their number
// doubles.
func (c *classes) label(s string, line, field int) (int, error) {
	switch {
	case s == "":
		return 0, errorf(perceptron.ErrFormat, "the label is empty")
	case !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == '\ufeff' }):
		return 0, errorf(perceptron.ErrFormat, "the label %s holds a tab or another control character, U+FEFF or bytes not UTF-8", quote(s))
	}
	if len(c.ids) >= c.checked {
		n := max(2*c.checked, 64)
		each := perLabel + float64(c.held+len(s))/float64(len(c.ids)+1)
		if err := memory.Check(float64(n) * each); err != nil {
			return 0, tooLarge(err, "holding %d distinct labels", n)
		}
		c.checked = n
	}
	s = strings.Clone(s) // not the line it was cut from
	v, kind := parseNumber([]byte(s))
	number := kind != numSyntax
	if kind == numNonFinite && c.bad == nil && line > 0 {
		in := ""
		if field > 0 {
			in = fmt.Sprintf("field %d: ", field)
		}
		c.bad = errorAt(perceptron.ErrNonFinite, line, -1, -1, "line %d: %sthe label %s is not a finite number", line, in, quote(s))
		if c.rows {
			c.bad = errorAt(perceptron.ErrNonFinite, 0, line-1, -1, "row %d: the label %s is not a finite number", line, quote(s))
		}
	}
	k := -1
	if number && len(c.ids) >= c.fixed {
		k = slices.Index(c.values[:c.fixed], v)
	}
	if k < 0 {
		k = len(c.names)
		if !number {
			v, c.numbers = math.NaN(), false
		}
		c.names = append(c.names, s)
		c.values = append(c.values, v)
	}
	c.ids[s] = k
	c.held += len(s)
	return k, nil
}

// badNumber returns the error of the first label that is a number but not
// finite, if every label and every known class is a number, and nil
// otherwise.
func (c *classes) badNumber() error {
	if c.numbers && c.bad != nil {
		return c.bad
	}
	return nil
}

// finish returns the classes and the class of each row. It returns an
// error naming the first label that is a number but not finite, if every
// label and every known class is a number.
func (c *classes) finish() ([]string, []float64, error) {
	if err := c.badNumber(); err != nil {
		return nil, nil, err
	}
	if c.fixed > 0 {
		return c.names, c.y, nil
	}
	// The labels in order, and the class of each, where two labels may
	// be one class: equal numbers written otherwise, 1 and 1.0.
	k := len(c.names)
	if err := memory.Check(float64(k) * 32); err != nil {
		return nil, nil, tooLarge(err, "sorting %d distinct labels", k)
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	if c.numbers {
		slices.SortFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(c.values[a], c.values[b]), strings.Compare(c.names[a], c.names[b]))
		})
	} else {
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(c.names[a], c.names[b]) })
	}
	class := make([]float64, k)
	names := make([]string, 0, k)
	for i, a := range order {
		if i == 0 || !c.numbers || c.values[a] != c.values[order[i-1]] {
			names = append(names, c.names[a])
		}
		class[a] = float64(len(names) - 1)
	}
	for i, id := range c.y {
		c.y[i] = class[int(id)]
	}
	return names, c.y, nil
}

// SortClasses returns the classes of the labels of rows, as Read makes
// them of the labels of a file: sorted by value if every label is a
// number, the labels of one value one class, and by text otherwise; and
// the class of each label, an index into classes. The Rows of a reader
// give the labels of their rows as they come, which SortClasses sorts, and
// a reader given the classes numbers the rows as Read does. It returns an
// error naming a label that the readers refuse.
func SortClasses(labels []string) (classes []string, class []int, err error) {
	c, _ := newClasses(nil)
	for _, l := range labels {
		k, err := c.index(l, 0, 0)
		if err == nil {
			err = c.push(k)
		}
		if err != nil {
			return nil, nil, wrapf(err, "data: %w", err)
		}
	}
	classes, y, _ := c.finish()
	class = make([]int, len(y))
	for i, k := range y {
		class[i] = int(k)
	}
	return classes, class, nil
}
