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
	count := make([]int, len(ds.Classes))
	for _, c := range ds.Y {
		count[int(c)]++
	}
	c, err := classesOf(spec, ds.name, ds.format, ds.Classes, count)
	if err != nil {
		return err
	}
	ds.classes = c
	if c.picked && !spec.keepRows {
		return ds.keepPicked()
	}
	return nil
}

// classesOf returns the classes of rows of the labels, count[k] of them
// of labels[k], of the file name of the format, as spec reads them: those
// the spec knows, or the labels, named by -classes, or the two that -pos
// and -neg pick, the first two, of which training rows must have both. It
// returns an error if the labels are fewer than two, or look like the
// values of a feature (classLike), unless -many-classes, or if the rows
// of picked classes are none.
func classesOf(spec readSpec, name, format string, labels []string, count []int) (*classSet, error) {
	switch {
	case spec.known != nil:
		if spec.known.picked && !spec.keepRows && count[0]+count[1] == 0 {
			return nil, fmt.Errorf("%s: no row has the label %s or %s", name, quote(spec.known.labels[1]), quote(spec.known.labels[0]))
		}
		return spec.known, nil
	case spec.pos != "":
		// The reader read them as the first two classes.
		c := &classSet{labels: labels[:2:2], picked: true}
		for _, l := range c.labels {
			n, _ := spec.names.nameOf(l)
			c.names = append(c.names, n)
		}
		if count[0] == 0 || count[1] == 0 {
			var absent []string
			for k, flag := range []string{"-neg", "-pos"} {
				if count[k] == 0 {
					absent = append(absent, fmt.Sprintf("%s (%s)", quote(c.names[k]), flag))
				}
			}
			var present []string
			for k, l := range labels {
				if k >= 2 || count[k] > 0 {
					present = append(present, l)
				}
			}
			return nil, fmt.Errorf("%s: no row has the label %s; the labels are %s", name, joinWords(absent, "or"), quoteAll(present, 20))
		}
		return c, nil
	}
	c := newClassSet(labels, nil)
	if spec.names != nil {
		var names []string
		for _, l := range labels {
			n, ok := spec.names.nameOf(l)
			if !ok {
				if _, err := strconv.ParseFloat(l, 64); err != nil {
					return nil, usagef("-classes %s names numbered labels, and %s has the label %s, which is no number", spec.names.file, name, quote(l))
				}
				return nil, fmt.Errorf("%s: the label %s is no class of -classes %s", name, quote(l), spec.names.file)
			}
			names = append(names, n)
		}
		c = newClassSet(labels, names)
	}
	if len(labels) < 2 {
		hint := ""
		if format == "csv" {
			hint = fmt.Sprintf(" (the label column is %s, %s)", quote(spec.label), spec.labelFlag)
		}
		return nil, fmt.Errorf("%s: every row has the label %s: want two classes or more%s", name, quote(labels[0]), hint)
	}
	if !spec.manyClasses {
		return c, classLike(spec, name, format, labels, count)
	}
	return c, nil
}

// classLike returns an error if the labels, more than 10, count[k] rows
// of labels[k] of the file name of the format, look like the values of a
// feature, not classes: if more than half the rows have a label that no
// other row has, or if the labels are numbers not all whole, as when the
// label column is not where -label says.
func classLike(spec readSpec, name, format string, labels []string, count []int) error {
	alone, rows := 0, 0
	for _, n := range count {
		rows += n
		if n == 1 {
			alone++
		}
	}
	fraction := ""
	for _, l := range labels {
		if v, err := strconv.ParseFloat(l, 64); err == nil && v != math.Trunc(v) {
			fraction = l
			break
		}
	}
	var why string
	switch {
	case len(labels) <= 10:
		return nil
	case 2*alone > rows:
		why = fmt.Sprintf("%d of its %s have a label of their own", alone, plural(rows, "row"))
	case fraction != "":
		why = fmt.Sprintf("its %d labels are numbers, not all whole, as %s", len(labels), quote(fraction))
	default:
		return nil
	}
	fix := "if they are classes, give -many-classes"
	if format == "csv" {
		fix = fmt.Sprintf("the label column is %s (%s): name another with -label, and give -header if line 1 names the columns; %s", quote(spec.label), spec.labelFlag, fix)
	}
	return fmt.Errorf("%s: the labels look like the values of a feature, not classes: %s; %s", name, why, fix)
}

// keepPicked keeps the rows of the two classes that -pos and -neg picked,
// the first two of ds, and leaves out the others.
func (ds *dataset) keepPicked() error {
	var keep []int
	for i, c := range ds.Y {
		if c < 2 {
			keep = append(keep, i)
		}
	}
	ds.left = len(ds.Y) - len(keep)
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
