// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
	"gonum.org/v1/gonum/mat"
)

// The command reads, splits, scales and reports through package data.
// What it adds is a layer over a data.Set: the class values that the
// classifiers learn, the names that -classes gives the classes, and the
// two classes that -pos and -neg pick.

// dataset is a data file read into a Set, with the command's view of its
// classes.
type dataset struct {
	name   string
	format string // csv, libsvm, idx or text
	*data.Set

	// classes are the classes of the rows: the first len(classes.labels)
	// classes of Set.Classes, which may hold more, the labels of a test
	// file that are no class of the model. Nil if the labels were not
	// read.
	classes *classSet

	// left is the number of rows of other labels that -pos and -neg left
	// out.
	left int

	// part says which of the rows of the file the rows are, for the
	// messages that count them: " among the test rows of the split", or "".
	part string

	// first is the number of rows of the file before these, a block of
	// a stream, by which the messages count them.
	first int

	// scaled, if not nil, is the model whose steps before its classifier
	// transformed the rows in place: they are the rows that a classifier
	// of those steps takes. The command holds the rows once. It holds no
	// classifier, which would outlive its use; scaledClasses are the
	// classes of the one that fitted it.
	scaled        *data.Model
	scaledClasses []float64
}

// readSpec says how to read a data file.
type readSpec struct {
	format    string // csv, libsvm, idx or text; empty means to tell by the name or the first line
	header    bool
	comma     rune
	label     string // the CSV label column, as data.CSV's Label
	labelFlag string // where label comes from, for messages

	// labels says to read the labels; known, if not nil, are the classes
	// to read them by, those of the training rows or of a model.
	labels bool
	known  *classSet

	// keepRows keeps the rows of labels that are no class of known, as
	// predict labels every row, where eval leaves out those that -pos and
	// -neg did.
	keepRows bool

	// width, if not zero, is the number of features of the rows: LIBSVM
	// values beyond it are left out and counted; CSV and IDX rows of
	// another width are an error.
	width int

	// names are the names of -classes; pos and neg the labels, or the
	// names, of -pos and -neg.
	names    *classNames
	pos, neg string

	// manyClasses takes the labels of training rows as classes even if
	// they look like the values of a feature.
	manyClasses bool

	// weights, if not "", is the file of the weights of the rows.
	weights string

	// hashing is the Hashing that turns lines of text into rows: that of
	// the flags in training, or of a model of text; nil for a model of
	// rows of features, which takes no text. textFlags are the flags of
	// hashing that were set, which a file of another format refuses.
	hashing   *data.Hashing
	textFlags []string
}

// rowError returns the error err of package data about a row of ds, with
// the name of its file and which rows it counts.
func (ds *dataset) rowError(err error) error {
	msg := renumber(errText(err), ds.first)
	if ds.part == "" {
		return fmt.Errorf("%s: %s", ds.name, msg)
	}
	return fmt.Errorf("%s: %s (rows counted%s)", ds.name, msg, strings.TrimPrefix(ds.part, ","))
}

// isSparse reports whether X is sparse.
func isSparse(X mat.Matrix) bool {
	_, ok := X.(*perceptron.CSR)
	return ok
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

// rowBlocks are rows that come a block at a time: a data set in memory,
// one block, or a stream, many.
type rowBlocks interface {
	blocks(size int, fn func(b *dataset) error) error
}

// blocks calls fn with the data set itself, one block.
func (ds *dataset) blocks(_ int, fn func(b *dataset) error) error { return fn(ds) }

// classCounts returns the rows of ds of each of its classes.
func classCounts(ds *dataset) []int {
	count := make([]int, len(ds.classes.labels))
	for _, c := range ds.Y {
		count[int(c)]++
	}
	return count
}

// leftOut says how many rows of ds were left out, if any.
func leftOut(ds *dataset) string { return leftOf(ds.left) }

// leftOf says that left rows of other labels were left out, if any were.
func leftOf(left int) string {
	if left == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s of other labels left out)", plural(left, "row"))
}

// renumber returns the message of an error of package data about row k
// of rows counted from first+1, "row k...", about row first+k, as the
// rows of the file count.
func renumber(msg string, first int) string {
	rest, ok := strings.CutPrefix(msg, "row ")
	if !ok || first == 0 {
		return msg
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	k, err := strconv.Atoi(rest[:end])
	if err != nil {
		return msg
	}
	return "row " + strconv.Itoa(first+k) + rest[end:]
}
