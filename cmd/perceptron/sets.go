// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron/data"
)

// The command reads, splits, scales and reports through package data.
// What it adds is a layer over a data.Set: the class values that the
// classifiers learn, the names that -classes gives the classes, and the
// two classes that -pos and -neg pick.

// dataset is a data file read into a Set, with the command's view of its
// classes.
type dataset struct {
	name string
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
}

// classSet is the classes of a problem: the labels as the data write
// them, the names the command prints, and the class values that the
// classifiers learn.
//
// Labels that are all numbers are classes by their value, which is the
// class value; other labels are classes by their text, with the values 0,
// 1, … in the order of the labels, sorted, as data reads them. With -pos
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
		numbers = numbers && err == nil
		c.values[k] = v
	}
	// data sorts labels that are numbers by value, and makes equal values
	// one class.
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

// readSpec says how to read a data file.
type readSpec struct {
	format    string // csv, libsvm or idx; empty means to tell by the name
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

	// names are the names of -classes, by label; pos and neg the labels
	// of -pos and -neg.
	names    map[string]string
	namesOf  string // the -classes file
	pos, neg string
}

// formatOf returns the format of the data file at path: spec's, or the one
// its name says.
func formatOf(path string, spec readSpec) (string, error) {
	if spec.format != "" {
		return spec.format, nil
	}
	// A gzipped file is named for its content, and .gz.
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(path)), ".gz")
	switch {
	case strings.HasSuffix(base, ".csv"):
		return "csv", nil
	case strings.HasSuffix(base, ".svm"), strings.HasSuffix(base, ".libsvm"), strings.HasSuffix(base, ".svmlight"):
		return "libsvm", nil
	case strings.Contains(base, "idx") && strings.Contains(base, "ubyte"):
		return "idx", nil
	}
	return "", usagef("cannot tell the format of %s from its name: use -format csv, libsvm or idx", quote(path))
}

// readData reads the data file at path as spec says. An IDX data set is
// two files, IMAGES,LABELS, or the images alone if their name tells that
// of the labels.
func readData(path string, spec readSpec) (*dataset, error) {
	format, err := formatOf(path, spec)
	if err != nil {
		return nil, err
	}
	var known []string
	if spec.known != nil {
		known = spec.known.labels
	} else if spec.names != nil {
		known = sortedLabels(spec.names)
	}
	var set *data.Set
	name := path
	switch format {
	case "idx":
		set, name, err = readIDX(path, spec, known)
	case "csv", "libsvm":
		var f *os.File
		if f, err = os.Open(path); err != nil {
			return nil, err
		}
		defer f.Close()
		if format == "csv" {
			label := spec.label
			if !spec.labels && label != "none" {
				// The label column is there, and skipped.
				label = cmpOr(label, defaultLabel)
			}
			set, err = data.CSV{Comma: spec.comma, Header: spec.header, Label: label, Classes: known}.Read(f)
		} else {
			set, err = data.LIBSVM{Cols: spec.width, Classes: known}.Read(f)
		}
		if err != nil {
			err = fmt.Errorf("%s: %v", path, err)
		}
	default:
		return nil, usagef("-format %s: want csv, libsvm or idx", quote(format))
	}
	if err != nil {
		return nil, err
	}
	ds := &dataset{name: name, Set: set}
	if _, d := set.X.Dims(); spec.width > 0 && d != spec.width {
		hint := ""
		if format == "csv" {
			switch {
			case set.Y != nil && d+1 == spec.width:
				hint = " (if the file has no label column, use -label none)"
			case set.Y == nil && d-1 == spec.width:
				hint = " (if a column is the label, name it with -label)"
			}
		}
		return nil, fmt.Errorf("%s: rows of %s, want %d as the model has%s", name, plural(d, "feature"), spec.width, hint)
	}
	if !spec.labels || set.Y == nil {
		ds.Y, ds.Classes = nil, nil
		return ds, nil
	}
	if err := ds.nameClasses(spec); err != nil {
		return nil, err
	}
	return ds, nil
}

// cmpOr returns a, or b if a is empty.
func cmpOr(a, b string) string {
	if a == "" {
		return b
	}
	return a
}

// readIDX reads the IDX data set path: IMAGES,LABELS, or the images alone,
// with the labels of the file that their name tells if spec reads labels.
func readIDX(path string, spec readSpec, known []string) (*data.Set, string, error) {
	imPath, lbPath, ok := strings.Cut(path, ",")
	if !ok && spec.labels {
		dir, base := filepath.Split(path)
		if !strings.Contains(base, "images-idx3") {
			if spec.keepRows {
				// predict labels images without labels.
				return readIDXFiles(imPath, "", known)
			}
			return nil, path, usagef("%s: name the IDX labels file too, as IMAGES,LABELS", quote(path))
		}
		lbPath = dir + strings.Replace(base, "images-idx3", "labels-idx1", 1)
		if _, err := os.Stat(lbPath); err != nil && spec.keepRows {
			return readIDXFiles(imPath, "", known)
		}
	}
	if !spec.labels {
		lbPath = ""
	}
	return readIDXFiles(imPath, lbPath, known)
}

// readIDXFiles reads the IDX images at imPath, with the labels at lbPath
// unless it is empty.
func readIDXFiles(imPath, lbPath string, known []string) (*data.Set, string, error) {
	im, err := os.Open(imPath)
	if err != nil {
		return nil, imPath, err
	}
	defer im.Close()
	var lb io.Reader
	if lbPath != "" {
		f, err := os.Open(lbPath)
		if err != nil {
			return nil, imPath, err
		}
		defer f.Close()
		lb = f
	}
	set, err := data.IDX{Classes: known}.Read(im, lb)
	if err != nil {
		return nil, imPath, fmt.Errorf("%s: %v", strings.TrimSuffix(imPath+","+lbPath, ","), err)
	}
	return set, imPath, nil
}

// inputFiles returns the files that readData reads for path.
func inputFiles(path string, spec readSpec) []string {
	if format, err := formatOf(path, spec); err == nil && format == "idx" {
		im, lb, ok := strings.Cut(path, ",")
		if !ok && strings.Contains(filepath.Base(path), "images-idx3") {
			dir, base := filepath.Split(path)
			lb = dir + strings.Replace(base, "images-idx3", "labels-idx1", 1)
		}
		if lb != "" {
			return []string{im, lb}
		}
		return []string{im}
	}
	return []string{path}
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
	ds.Set = &data.Set{X: ds.Subset(keep).X, Y: y, Classes: ds.classes.names, Features: ds.Features, Dropped: ds.Dropped}
	if ds.left > 0 {
		ds.part = " among the rows of the two labels"
	}
	return nil
}

// quoteAll quotes the first most of labels, joined.
func quoteAll(labels []string, most int) string {
	var q []string
	for _, l := range labels[:min(len(labels), most)] {
		q = append(q, quote(l))
	}
	if len(labels) > most {
		q = append(q, "…")
	}
	return strings.Join(q, ", ")
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
