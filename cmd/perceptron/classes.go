// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron/data"
)

// classSet is the classes of a problem: the labels as the data write
// them, the names the command prints, and the class values that the
// classifiers learn.
//
// Labels that are all finite numbers are classes by their value, which is
// the class value; other labels are classes by their text, or, as "inf",
// by a value that no classifier takes, with the values 0, 1, … in the
// order of the labels, sorted, as data reads them. With -pos
// and -neg the two labels they name are the classes, -neg of value -1 and
// -pos of value +1.
type classSet struct {
	labels []string  // as the data write them
	names  []string  // as the command prints them: -classes names, or the labels
	values []float64 // ascending

	// picked says that -pos and -neg picked the two classes, labels[1]
	// and labels[0], and that rows of other labels are left out.
	picked bool
}

// newClassSet returns the classes of the labels, with their names, or the
// labels if names is nil.
func newClassSet(labels, names []string) *classSet {
	c := &classSet{labels: labels, names: names, values: make([]float64, len(labels))}
	if c.names == nil {
		c.names = labels
	}
	numbers := true
	for k, l := range labels {
		v, err := strconv.ParseFloat(l, 64)
		numbers = numbers && err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
		c.values[k] = v
	}
	// data sorts labels that are numbers by value, and makes equal values
	// one class: the values of finite labels ascend, as the classifiers
	// take them.
	if !numbers {
		for k := range c.values {
			c.values[k] = float64(k)
		}
	}
	return c
}

// pickedClasses returns the classes that -pos and -neg pick, with their
// names.
func pickedClasses(neg, pos, negName, posName string) *classSet {
	return &classSet{labels: []string{neg, pos}, names: []string{negName, posName}, values: []float64{-1, 1}, picked: true}
}

// valueClasses returns the classes of the class values of a model of the
// library, named by them.
func valueClasses(values []float64) *classSet {
	var labels []string
	for _, v := range values {
		labels = append(labels, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return &classSet{labels: labels, names: labels, values: slices.Clone(values)}
}

// describe returns the classes for a summary: which name is +1 and which
// -1 for two picked classes, and the names otherwise, the first twenty of
// many.
func (c *classSet) describe() string {
	if c.picked {
		return fmt.Sprintf("+1 is %s, -1 is %s", quote(c.names[1]), quote(c.names[0]))
	}
	// The names fit on a line of their own.
	var q []string
	width := 0
	for k, name := range c.names {
		w := len(quote(name)) + 2
		if width+w > 90 && k < len(c.names)-1 {
			q = append(q, "…")
			break
		}
		q = append(q, quote(name))
		width += w
	}
	s := fmt.Sprintf("%d classes: %s", len(c.names), strings.Join(q, ", "))
	if len(c.names) == 2 {
		s += fmt.Sprintf(" (a score >= 0 is %s)", quote(c.names[1]))
	}
	return s
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

// readClassNames reads a -classes file: the names of the classes by their
// labels, which are numbers. A line is either a number, a name and
// optionally a count, as the Debian sections' classes.txt has them, or a
// name alone, the name of the label that is the number of the line from
// 0, as a list of Fashion-MNIST's classes has them; blank lines and lines
// that start with # are skipped. It returns an error naming the line of a
// name that is not valid or named twice, or of a label named twice.
func readClassNames(r io.Reader) (map[string]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<16)
	names := map[string]string{}
	used := map[string]int{}
	numbered, k := -1, 0
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		_, err := strconv.Atoi(f[0])
		isNumbered := err == nil && len(f) >= 2
		if numbered < 0 {
			numbered = map[bool]int{false: 0, true: 1}[isNumbered]
		}
		var label, name string
		switch {
		case numbered == 1 && !isNumbered:
			return nil, fmt.Errorf("line %d: %s: want a number and a name, as the lines before", line, quote(text))
		case numbered == 1:
			label = f[0]
			rest := f[1:]
			if len(rest) > 1 {
				if _, err := strconv.Atoi(rest[len(rest)-1]); err == nil {
					rest = rest[:len(rest)-1] // the count
				}
			}
			name = strings.Join(rest, " ")
		default:
			label, name = strconv.Itoa(k), text
			k++
		}
		switch {
		case !utf8.ValidString(name) || strings.ContainsAny(name, "\t\r\n"):
			return nil, fmt.Errorf("line %d: the name %s is not UTF-8 text of one line without tabs", line, quote(name))
		case used[name] > 0:
			return nil, fmt.Errorf("line %d: the name %s again, as on line %d", line, quote(name), used[name])
		}
		for l := range names {
			if sameLabel(l, label) {
				return nil, fmt.Errorf("line %d: the label %s again", line, quote(label))
			}
		}
		names[label] = name
		used[name] = line
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, errors.New("a line longer than 64 KiB")
		}
		return nil, err
	}
	if len(names) == 0 {
		return nil, errors.New("no class names")
	}
	return names, nil
}

// sortedLabels returns the labels of names, sorted by value.
func sortedLabels(names map[string]string) []string {
	var labels []string
	for l := range names {
		labels = append(labels, l)
	}
	slices.SortFunc(labels, func(a, b string) int {
		x, _ := strconv.ParseFloat(a, 64)
		y, _ := strconv.ParseFloat(b, 64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return strings.Compare(a, b)
	})
	return labels
}

// nameClasses sets the classes of ds, which has its labels: those the
// spec knows, or those of the rows, named by -classes, and the two that
// -pos and -neg pick, leaving out the rows of the others.
func (ds *dataset) nameClasses(spec readSpec) error {
	switch {
	case spec.known != nil:
		ds.classes = spec.known
		if spec.known.picked && !spec.keepRows {
			return ds.pick(spec.known.labels[0], spec.known.labels[1], true)
		}
		return nil
	case spec.names != nil:
		var names []string
		for _, l := range ds.Classes {
			name, ok := spec.names[l]
			if !ok {
				return fmt.Errorf("%s: the label %s is no class of %s", ds.name, quote(l), spec.namesOf)
			}
			names = append(names, name)
		}
		ds.classes = newClassSet(ds.Classes, names)
	default:
		ds.classes = newClassSet(ds.Classes, nil)
	}
	if spec.pos != "" {
		return ds.pick(spec.neg, spec.pos, false)
	}
	if len(ds.Classes) < 2 {
		return fmt.Errorf("%s: every row has the label %s: want two classes or more", ds.name, quote(ds.Classes[0]))
	}
	return nil
}

// pick keeps the rows of the classes neg and pos, which name labels, or
// classes by their names, and leaves out the others; known says that the
// classes are those of a model, which a test file may lack.
func (ds *dataset) pick(neg, pos string, known bool) error {
	find := func(s string) int {
		for k, l := range ds.Classes {
			if sameLabel(l, s) {
				return k
			}
		}
		if ds.classes != nil && !known {
			for k, name := range ds.classes.names {
				if name == s {
					return k
				}
			}
		}
		return -1
	}
	kn, kp := find(neg), find(pos)
	var keep []int
	y := make([]float64, 0, len(ds.Y))
	for i, c := range ds.Y {
		switch int(c) {
		case kn:
			keep = append(keep, i)
			y = append(y, 0)
		case kp:
			keep = append(keep, i)
			y = append(y, 1)
		}
	}
	ds.left = len(ds.Y) - len(keep)
	if !known && (kn < 0 || kp < 0 || len(keep) == 0) {
		var absent []string
		for _, c := range []struct {
			flag, label string
			k           int
		}{{"-pos", pos, kp}, {"-neg", neg, kn}} {
			if c.k < 0 {
				absent = append(absent, fmt.Sprintf("%s (%s)", quote(c.label), c.flag))
			}
		}
		return fmt.Errorf("%s: no row has the label %s; the labels are %s", ds.name, joinWords(absent, "or"), quoteAll(ds.Classes, 20))
	}
	if len(keep) == 0 {
		return fmt.Errorf("%s: no row has the label %s or %s", ds.name, quote(pos), quote(neg))
	}
	names := func(k int, label string) string {
		if ds.classes != nil && k >= 0 && !known {
			return ds.classes.names[k]
		}
		return label
	}
	if !known {
		// The labels as the file writes them, which a test file matches.
		nl, pl := neg, pos
		if kn >= 0 {
			nl = ds.Classes[kn]
		}
		if kp >= 0 {
			pl = ds.Classes[kp]
		}
		ds.classes = pickedClasses(nl, pl, names(kn, neg), names(kp, pos))
	}
	sub, err := ds.Subset(keep)
	if err != nil {
		return err
	}
	ds.Set = &data.Set{X: sub.X, Y: y, Classes: ds.classes.names, Features: ds.Features, Dropped: ds.Dropped}
	if ds.left > 0 {
		ds.part = " among the rows of the two labels"
	}
	return nil
}

// values returns the class value of each row, for training: the rows of
// a training file have a class each.
func (ds *dataset) values() []float64 {
	v := make([]float64, len(ds.Y))
	for i, k := range ds.Y {
		v[i] = ds.classes.values[int(k)]
	}
	return v
}
