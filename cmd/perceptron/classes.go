// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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
