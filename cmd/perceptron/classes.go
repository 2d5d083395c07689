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
)

// classSet is the classes of a problem: the labels as the data write
// them, in the order of the classes, as a data.Set's Classes holds them,
// and the names that the command prints.
//
// The classifiers learn the classes by their indices, as a data.Set's Y
// holds them; -pos and -neg make the labels they name the two classes, -neg
// the first, -1, and -pos the second, +1.
type classSet struct {
	labels []string
	names  []string // -classes names, or the labels

	// picked says that -pos and -neg picked the two classes, and that rows
	// of other labels are left out.
	picked bool
}

// newClassSet returns the classes of the labels, with their names, or the
// labels if names is nil.
func newClassSet(labels, names []string) *classSet {
	if names == nil {
		names = labels
	}
	return &classSet{labels: labels, names: names}
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

// classNames are the names of classes that a -classes file gives: the
// labels, numbers, in the order of the file, and their names.
type classNames struct {
	file          string
	labels, names []string
}

// nameOf returns the name of the label l, or l if the file does not name
// it, and whether it does.
func (c *classNames) nameOf(l string) (string, bool) {
	if c != nil {
		if k := slices.Index(c.labels, l); k >= 0 {
			return c.names[k], true
		}
	}
	return l, false
}

// labelOf returns the label that s is, a label or a name of the file, or s
// if it is neither.
func (c *classNames) labelOf(s string) string {
	if c != nil && !slices.Contains(c.labels, s) {
		if k := slices.Index(c.names, s); k >= 0 {
			return c.labels[k]
		}
	}
	return s
}

// readClassNames reads a -classes file: the names of the classes by their
// labels, which are numbers. A line is either a number, a name and
// optionally a count, as the Debian sections' classes.txt has them, or a
// name alone, the name of the label that is the number of the line from
// 0, as a list of Fashion-MNIST's classes has them; blank lines and lines
// that start with # are skipped. It returns an error naming the line of a
// name that is not valid or named twice, of a label named twice, or, a
// usage error, of three fields or more apart by commas, semicolons or
// tabs, which is a row of data, not a name.
// Labels that are the same number written otherwise, as 1 and 1.0, are
// refused by the reader that reads the data with them.
func readClassNames(r io.Reader) (*classNames, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<16)
	c := &classNames{}
	used := map[string]int{}
	numbered, k := -1, 0
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		for _, sep := range []string{",", ";", "\t"} {
			if n := strings.Count(text, sep) + 1; n >= 3 {
				return nil, usagef("line %d, %s, holds %d fields apart by %s, as a row of data does, not a name: -classes names the classes of numbered labels", line, quote(text), n, quote(sep))
			}
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
		case slices.Contains(c.labels, label):
			return nil, fmt.Errorf("line %d: the label %s again", line, quote(label))
		}
		c.labels = append(c.labels, label)
		c.names = append(c.names, name)
		used[name] = line
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, errors.New("a line longer than 64 KiB")
		}
		return nil, err
	}
	if len(c.labels) == 0 {
		return nil, errors.New("no class names")
	}
	return c, nil
}

// nameClasses sets the classes of ds, which has its labels: those the
// spec knows, or those of the rows, named by -classes, or the two that -pos
// and -neg pick, leaving out the rows of the others.
func (ds *dataset) nameClasses(spec readSpec) error {
	switch {
	case spec.known != nil:
		ds.classes = spec.known
		if spec.known.picked && !spec.keepRows {
			return ds.keepPicked(false)
		}
		return nil
	case spec.pos != "":
		// The reader read them as the first two classes.
		ds.classes = &classSet{labels: ds.Classes[:2:2], picked: true}
		for _, l := range ds.classes.labels {
			name, _ := spec.names.nameOf(l)
			ds.classes.names = append(ds.classes.names, name)
		}
		return ds.keepPicked(true)
	case spec.names != nil:
		var names []string
		for _, l := range ds.Classes {
			name, ok := spec.names.nameOf(l)
			if !ok {
				if _, err := strconv.ParseFloat(l, 64); err != nil {
					return usagef("-classes %s names numbered labels, and %s has the label %s, which is no number", spec.names.file, ds.name, quote(l))
				}
				return fmt.Errorf("%s: the label %s is no class of -classes %s", ds.name, quote(l), spec.names.file)
			}
			names = append(names, name)
		}
		ds.classes = newClassSet(ds.Classes, names)
	default:
		ds.classes = newClassSet(ds.Classes, nil)
	}
	if len(ds.Classes) < 2 {
		hint := ""
		if ds.format == "csv" {
			hint = fmt.Sprintf(" (the label column is %s, %s)", quote(spec.label), spec.labelFlag)
		}
		return fmt.Errorf("%s: every row has the label %s: want two classes or more%s", ds.name, quote(ds.Classes[0]), hint)
	}
	if !spec.manyClasses {
		return ds.classLike(spec)
	}
	return nil
}

// classLike returns an error if the labels of ds, more than 10, look like
// the values of a feature, not classes: if more than half the rows have a
// label that no other row has, or if the labels are numbers not all whole,
// as when the label column is not where -label says.
func (ds *dataset) classLike(spec readSpec) error {
	count := make([]int, len(ds.Classes))
	for _, c := range ds.Y {
		count[int(c)]++
	}
	alone := 0
	for _, n := range count {
		if n == 1 {
			alone++
		}
	}
	fraction := ""
	for _, l := range ds.Classes {
		if v, err := strconv.ParseFloat(l, 64); err == nil && v != math.Trunc(v) {
			fraction = l
			break
		}
	}
	var why string
	switch {
	case len(ds.Classes) <= 10:
		return nil
	case 2*alone > len(ds.Y):
		why = fmt.Sprintf("%d of its %s have a label of their own", alone, plural(len(ds.Y), "row"))
	case fraction != "":
		why = fmt.Sprintf("its %d labels are numbers, not all whole, as %s", len(ds.Classes), quote(fraction))
	default:
		return nil
	}
	fix := "if they are classes, give -many-classes"
	if ds.format == "csv" {
		fix = fmt.Sprintf("the label column is %s (%s): name another with -label, and give -header if line 1 names the columns; %s", quote(spec.label), spec.labelFlag, fix)
	}
	return fmt.Errorf("%s: the labels look like the values of a feature, not classes: %s; %s", ds.name, why, fix)
}

// keepPicked keeps the rows of the two classes that -pos and -neg picked,
// the first two of ds, and leaves out the others; training says that the
// rows are training rows, which must have both classes.
func (ds *dataset) keepPicked(training bool) error {
	var keep []int
	var count [2]int
	for i, c := range ds.Y {
		if c < 2 {
			keep = append(keep, i)
			count[int(c)]++
		}
	}
	ds.left = len(ds.Y) - len(keep)
	if training && (count[0] == 0 || count[1] == 0) {
		var absent []string
		for k, flag := range []string{"-neg", "-pos"} {
			if count[k] == 0 {
				absent = append(absent, fmt.Sprintf("%s (%s)", quote(ds.classes.names[k]), flag))
			}
		}
		var labels []string
		for k, l := range ds.Classes {
			if k >= 2 || count[k] > 0 {
				labels = append(labels, l)
			}
		}
		return fmt.Errorf("%s: no row has the label %s; the labels are %s", ds.name, joinWords(absent, "or"), quoteAll(labels, 20))
	}
	if len(keep) == 0 {
		return fmt.Errorf("%s: no row has the label %s or %s", ds.name, quote(ds.classes.labels[1]), quote(ds.classes.labels[0]))
	}
	if ds.left == 0 {
		ds.Classes = ds.Classes[:2:2]
		return nil
	}
	sub, err := ds.Subset(keep)
	if err != nil {
		return err
	}
	sub.Classes, sub.Dropped = ds.Classes[:2:2], ds.Dropped
	ds.Set = sub
	ds.part = " among the rows of the two labels"
	return nil
}
