// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// classSet is the classes of a problem: the labels as a data file writes
// them, and the class values that the classifiers learn.
//
// Labels that are all numbers are classes by their value, which is the
// class value, and each is named as the training file first wrote it;
// other labels are classes by their text, with the class values 0, 1, …
// in the order of the names, sorted. With -pos and -neg the two labels
// they name are the classes, with the values -1 (-neg) and +1 (-pos), and
// the rows of other labels are left out.
type classSet struct {
	// names are the labels of the classes, in the order of values.
	names []string

	// values are the class values, in ascending order.
	values []float64

	// picked says that -pos and -neg picked the two classes, names[1]
	// and names[0]: the rows of other labels are left out.
	picked bool
}

// pickedClasses returns the classes that -pos and -neg pick.
func pickedClasses(pos, neg string) *classSet {
	return &classSet{names: []string{neg, pos}, values: []float64{-1, 1}, picked: true}
}

// valueClasses returns the classes of the class values, named by them, as
// a model of the library has them.
func valueClasses(values []float64) *classSet {
	c := &classSet{values: slices.Clone(values)}
	for _, v := range values {
		c.names = append(c.names, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return c
}

// index returns the index of the class of value v.
func (c *classSet) index(v float64) (int, bool) {
	return slices.BinarySearch(c.values, v)
}

// find returns the index of the class whose label is s: the same text,
// or, for a number, the same number.
func (c *classSet) find(s string) (int, bool) {
	if k := slices.Index(c.names, s); k >= 0 {
		return k, true
	}
	if _, err := parseNumber(s); err == nil {
		for k, name := range c.names {
			if sameLabel(s, name) {
				return k, true
			}
		}
	}
	return 0, false
}

// describe returns the classes for a summary: which label is +1 and which
// -1 for two picked classes, and the labels otherwise, the first twenty
// of many.
func (c *classSet) describe() string {
	if c.picked {
		return fmt.Sprintf("+1 is %q, -1 is %q", c.names[1], c.names[0])
	}
	const most = 20
	var q []string
	for _, name := range c.names[:min(len(c.names), most)] {
		q = append(q, strconv.Quote(name))
	}
	if len(c.names) > most {
		q = append(q, "…")
	}
	s := fmt.Sprintf("%d classes: %s", len(c.names), strings.Join(q, ", "))
	if len(c.names) == 2 {
		s += fmt.Sprintf(" (a score >= 0 is %q)", c.names[1])
	}
	return s
}

// labelSpec says how to read the labels of a file.
type labelSpec struct {
	// pos and neg are the labels of -pos and -neg, or empty.
	pos, neg string

	// known, if not nil, are the classes of the training rows or of a
	// model, by which test rows are read; if nil, the classes are the
	// labels of the file.
	known *classSet
}

// labeler reads the labels of the rows of one file: it gives each row the
// index of its class, or leaves the row out.
type labeler struct {
	pos, neg string
	known    *classSet

	// ids holds the index of each label text read: into spell in
	// training, and otherwise into the classes, or beyond them into
	// others.
	ids    map[string]int
	spell  []string // in training, the labels in the order first read
	others []string // labels of no class of known
	y      []int    // the index of each row kept
	left   int      // the rows left out
	seen   [2]bool  // whether a row of -neg, -pos was read
}

func newLabeler(s *labelSpec) *labeler {
	l := &labeler{pos: s.pos, neg: s.neg, known: s.known, ids: map[string]int{}}
	if k := s.known; k != nil && k.picked {
		l.pos, l.neg = k.names[1], k.names[0]
	}
	return l
}

// add reads the label s of a row, and reports whether the row is kept.
func (l *labeler) add(s string) (keep bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return false, errors.New("empty label, want that of a class")
	}
	if l.pos != "" {
		switch {
		case sameLabel(s, l.pos):
			l.seen[1] = true
			l.y = append(l.y, 1)
		case sameLabel(s, l.neg):
			l.seen[0] = true
			l.y = append(l.y, 0)
		default:
			l.left++
			return false, nil
		}
		return true, nil
	}
	id, ok := l.ids[s]
	switch {
	case ok:
	case l.known == nil:
		id = len(l.spell)
		l.spell = append(l.spell, s)
	default:
		if id, ok = l.known.find(s); ok {
			break
		}
		// Labels of no class are one label as classes are.
		k := slices.IndexFunc(l.others, func(o string) bool { return sameLabel(s, o) })
		if k < 0 {
			k = len(l.others)
			l.others = append(l.others, s)
		}
		id = len(l.known.names) + k
	}
	l.ids[s] = id
	l.y = append(l.y, id)
	return true, nil
}

// finish sets the labels of ds, the file called name, to those read.
func (l *labeler) finish(ds *dataset) error {
	ds.left = l.left
	switch {
	case l.pos != "":
		// A test file may lack a class, unless rows are left out, when
		// the label may be mistyped.
		if !(l.seen[0] && l.seen[1]) && (l.known == nil || l.left > 0) {
			var absent []string
			for _, c := range []struct {
				flag, label string
				seen        bool
			}{{"-pos", l.pos, l.seen[1]}, {"-neg", l.neg, l.seen[0]}} {
				if !c.seen {
					absent = append(absent, fmt.Sprintf("%q (%s)", c.label, c.flag))
				}
			}
			msg := fmt.Sprintf("%s: no row has the label %s", ds.name, joinWords(absent, "or"))
			if l.left > 0 {
				msg += fmt.Sprintf(", and %s of other labels are left out", plural(l.left, "row"))
			}
			return errors.New(msg)
		}
		ds.classes, ds.y = l.known, l.y
		if ds.classes == nil {
			ds.classes = pickedClasses(l.pos, l.neg)
		}
		return nil
	case l.known != nil:
		ds.classes, ds.y, ds.others = l.known, l.y, l.others
		return nil
	}
	classes, index := classesOf(l.spell)
	if len(classes.names) < 2 {
		return fmt.Errorf("%s: every row has the label %q: want two classes or more", ds.name, l.spell[0])
	}
	for i, id := range l.y {
		l.y[i] = index[id]
	}
	ds.classes, ds.y = classes, l.y
	return nil
}

// classesOf returns the classes of the labels spell, distinct texts in
// the order first read, and the index of the class of each.
func classesOf(spell []string) (*classSet, []int) {
	index := make([]int, len(spell))
	numbers := make([]float64, len(spell))
	numeric := true
	for i, s := range spell {
		v, err := parseNumber(s)
		if err != nil {
			numeric = false
			break
		}
		numbers[i] = v
	}
	c := &classSet{}
	if !numeric {
		c.names = slices.Sorted(slices.Values(spell))
		for i, s := range spell {
			index[i], _ = slices.BinarySearch(c.names, s)
		}
		for k := range c.names {
			c.values = append(c.values, float64(k))
		}
		return c, index
	}
	c.values = slices.Compact(slices.Sorted(slices.Values(numbers)))
	c.names = make([]string, len(c.values))
	for i, v := range numbers {
		k, _ := slices.BinarySearch(c.values, v)
		index[i] = k
		// The first text of a number names it.
		if c.names[k] == "" {
			c.names[k] = spell[i]
		}
	}
	return c, index
}

// sameLabel reports whether a and b are the same label: the same text, or
// equal numbers, so that 1, 1.0 and +1 are one label.
func sameLabel(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}
