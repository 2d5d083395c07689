// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed5ae3614e/perceptron/data"
)

// formatOf returns the format of the data file at path: spec's, the one
// its name says, or the one its first line says, as sniff tells it.
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
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return sniff(bufio.NewReaderSize(f, 1<<16), quote(path)+" from its name nor", spec.comma)
}

// input is a data file to read as a readSpec says: its name and format,
// and what its reader is given.
type input struct {
	path, name, format string
	spec               readSpec
	known              []string      // the classes to read the labels by
	stdin              *bufio.Reader // standard input, for a path of -
	wait               *waiting      // under stdin
}

// newInput returns the data file at path, to read as spec says, having
// told its format. An IDX data set is two files, IMAGES,LABELS, or the
// images alone if their name tells that of the labels.
func newInput(path string, spec readSpec) (*input, error) {
	in := &input{path: path, name: path, format: spec.format, spec: spec}
	var err error
	if path == "-" {
		in.wait = &waiting{r: stdin}
		in.stdin, in.name = bufio.NewReaderSize(in.wait, 1<<16), stdinName
		if in.format == "" {
			in.format, err = sniff(in.stdin, stdinName, spec.comma)
		}
	} else {
		in.format, err = formatOf(path, spec)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case in.format != "text" && len(spec.textFlags) > 0:
		return nil, usagef("-%s: only text is read into word n-grams, and %s is %s", spec.textFlags[0], quote(in.name), in.format)
	case in.format == "text" && spec.hashing == nil:
		return nil, fmt.Errorf("%s: lines of text, and the model was not trained on text: it takes rows of features", in.name)
	}
	switch {
	case spec.known != nil:
		in.known = spec.known.labels
	case spec.pos != "":
		in.known = []string{spec.names.labelOf(spec.neg), spec.names.labelOf(spec.pos)}
	case spec.names != nil:
		in.known = spec.names.labels
	}
	return in, nil
}

// csv returns the reader of the file as CSV.
func (in *input) csv() data.CSV {
	label := in.spec.label
	if !in.spec.labels && label != "none" {
		// The label column is there, and skipped.
		label = cmp.Or(label, defaultLabel)
	}
	return data.CSV{Comma: in.spec.comma, Header: in.spec.header, Label: label, Classes: in.known}
}

// text returns the reader of the file as text, whose beginning head is, as
// peekText gives it: in fastText's format, or as a label, a tab and a text
// if the first line that is not blank has a tab and no token that starts
// with __label__.
func (in *input) text(head []byte) data.Text {
	tab := false
	for line := range strings.Lines(string(head)) {
		if f := strings.Fields(line); len(f) > 0 {
			tab = strings.Contains(line, "\t") && !slices.ContainsFunc(f, isLabel)
			break
		}
	}
	return data.Text{Hashing: *in.spec.hashing, Tab: tab, Classes: in.known}
}

// read reads the rows of the file into a Set, its errors after the name of
// the file.
func (in *input) read() (*data.Set, error) {
	if in.format == "idx" && in.stdin == nil {
		set, name, err := readIDX(in.path, in.spec, in.known)
		in.name = name
		return set, err
	}
	// A file is read as itself, whose size the readers take to grow
	// their arrays at once.
	var r io.Reader
	head := in.stdin
	if head != nil {
		r = head
	} else {
		f, err := os.Open(in.path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, head = f, bufio.NewReaderSize(io.NewSectionReader(f, 0, math.MaxInt64), 64<<10)
	}
	var set *data.Set
	var err error
	switch in.format {
	case "idx":
		set, err = data.IDX{Classes: in.known}.Read(r, nil)
	case "csv":
		if set, err = in.csv().Read(r); err != nil {
			err = csvFlags(err)
		}
	case "libsvm":
		set, err = data.LIBSVM{Cols: in.spec.width, Classes: in.known}.Read(r)
	case "text":
		set, err = in.text(peekText(head)).Read(r)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.name, err)
	}
	return set, nil
}

// readData reads the data file at path as spec says.
func readData(path string, spec readSpec) (*dataset, error) {
	in, err := newInput(path, spec)
	if err != nil {
		return nil, err
	}
	set, err := in.read()
	if err != nil {
		return nil, err
	}
	name, format := in.name, in.format
	if spec.weights != "" {
		n, _ := set.X.Dims()
		if set.Weights, err = readWeights(spec.weights, n, name); err != nil {
			return nil, err
		}
	}
	ds := &dataset{name: name, format: format, Set: set}
	if _, d := set.X.Dims(); spec.width > 0 && d != spec.width {
		return nil, widthError(name, format, d, spec.width, set.Y != nil)
	}
	if spec.labels && spec.known == nil && set.Y == nil {
		return nil, fmt.Errorf("%s: the rows have no labels to train on", name)
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

// csvFlags returns the error of data.CSV with the flags that set its
// settings in place of their names, which its errors give.
func csvFlags(err error) error {
	r := strings.NewReplacer("CSV's Header", "-header", "CSV's Label", "-label", "CSV's Comma", "-delimiter")
	return errors.New(r.Replace(err.Error()))
}

// stdin is what the data file - reads: standard input, which tests
// replace.
var stdin io.Reader = os.Stdin

// waiting is a reader that calls before, if it is not nil, before each
// read: when the readers above it have run out of bytes, and a pipe would
// make them wait for more.
type waiting struct {
	r      io.Reader
	before func()
}

func (w *waiting) Read(p []byte) (int, error) {
	if w.before != nil {
		w.before()
	}
	return w.r.Read(p)
}

// stdinName names standard input in messages.
const stdinName = "standard input"

// sniff returns the format of the data that r starts with, gzipped or
// not, as their first 64 KiB tell it: IDX if they start with the magic
// number of unsigned bytes; otherwise as their first line that is not
// blank nor a comment, #, tells it: text if a token of the line starts
// with __label__, as in fastText's format; LIBSVM if its fields after the
// first are all INDEX:VALUE, up to a comment; text if it is a label, a tab
// and words, as labelled says, unless the CSV delimiter comma is a tab;
// and CSV if it holds comma. The error names the data, and where else
// their format was looked for, by what.
func sniff(r *bufio.Reader, what string, comma rune) (string, error) {
	head := peekText(r)
	if len(head) >= 3 && head[0] == 0 && head[1] == 0 && head[2] == 0x08 {
		return "idx", nil
	}
	for line := range strings.Lines(string(head)) {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
			continue
		case slices.ContainsFunc(f, isLabel):
			return "text", nil
		case len(f) >= 2 && indexValues(f[1:]):
			return "libsvm", nil
		case comma != '\t' && labelled(line):
			return "text", nil
		case strings.ContainsRune(line, comma):
			return "csv", nil
		}
		break
	}
	return "", usagef("cannot tell the format of %s from its first line: use -format csv, libsvm, idx or text", what)
}

// peekText returns the first 64 KiB of r, or as much of their text as they
// give if they are gzipped, without reading r, and without the byte-order
// mark that they may start with, as the readers skip it. It returns fewer
// once they hold a line that is not blank nor a comment, #, which is all
// that tells their format, so that it does not wait for more of a pipe
// whose lines come one at a time.
func peekText(r *bufio.Reader) []byte {
	const most = 64 << 10
	for n := 1; ; {
		_, err := r.Peek(min(n, most)) // n bytes, or all there are
		head, _ := r.Peek(min(r.Buffered(), most))
		n = len(head) + 1
		text := textOf(head)
		if err != nil || len(head) >= most || wholeLine(text) {
			return text
		}
	}
}

// textOf returns the text of head, the first bytes of data, gzipped or
// not, as peekText does: of gzip, as much of the text as they give, none
// if they are too few.
func textOf(head []byte) []byte {
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		var text []byte
		if zr, err := gzip.NewReader(bytes.NewReader(head)); err == nil {
			text, _ = io.ReadAll(io.LimitReader(zr, 64<<10))
		}
		head = text
	}
	return bytes.TrimPrefix(head, []byte("\ufeff"))
}

// wholeLine reports whether text holds a whole line that is not blank nor
// a comment.
func wholeLine(text []byte) bool {
	for line := range bytes.Lines(text) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' && line[len(line)-1] == '\n' {
			return true
		}
	}
	return false
}

// isLabel reports whether the token s is a label of fastText's format.
func isLabel(s string) bool { return strings.HasPrefix(s, "__label__") }

// indexValues reports whether the fields f, up to the first that starts a
// comment, #, are one or more values of LIBSVM, INDEX:VALUE, whose index
// is a number or qid.
func indexValues(f []string) bool {
	n := 0
	for _, v := range f {
		if strings.HasPrefix(v, "#") {
			break
		}
		index, _, ok := strings.Cut(v, ":")
		if !ok || index == "" || index != "qid" && strings.Trim(index, "0123456789") != "" {
			return false
		}
		n++
	}
	return n > 0
}

// labelled reports whether the line is, beyond doubt, a label, a tab and
// a text: one tab, before it a label of no comma nor quote, as a CSV line
// of fields apart by commas would have, and after it words apart.
func labelled(line string) bool {
	label, text, _ := strings.Cut(line, "\t")
	label, text = strings.TrimSpace(label), strings.TrimSpace(text)
	return strings.Count(line, "\t") == 1 && label != "" && !strings.ContainsAny(label, ",\"") && strings.Contains(text, " ")
}

// readIDX reads the IDX data set path: IMAGES,LABELS, or the images alone,
// with the labels of the file that their name tells, which training needs.
func readIDX(path string, spec readSpec, known []string) (*data.Set, string, error) {
	f := data.IDX{Classes: known}
	imPath, lbPath, _ := strings.Cut(path, ",")
	training := spec.labels && !spec.keepRows
	if training && lbPath == "" && f.LabelsFile(imPath) == "" {
		return nil, path, usagef("%s: name the IDX labels file too, as IMAGES,LABELS", quote(path))
	}
	set, err := f.ReadFile(imPath, lbPath)
	switch {
	case err != nil:
		return nil, imPath, err
	case training && set.Y == nil:
		return nil, imPath, fmt.Errorf("%s: no file of labels %s beside the images: name it, as IMAGES,LABELS", imPath, f.LabelsFile(imPath))
	}
	return set, imPath, nil
}

// inputFiles returns the files that readData reads for path: none for
// standard input, and the file of the weights of the rows, if any.
func inputFiles(path string, spec readSpec) []string {
	if w := spec.weights; w != "" {
		spec.weights = ""
		return append(inputFiles(path, spec), w)
	}
	if path == "-" {
		return nil
	}
	if format, err := formatOf(path, spec); err == nil && format == "idx" {
		im, lb, _ := strings.Cut(path, ",")
		if lb == "" {
			lb = data.IDX{}.LabelsFile(im)
		}
		if lb != "" {
			return []string{im, lb}
		}
		return []string{im}
	}
	return []string{path}
}

// widthError returns the error of rows of d features, read from the file
// name of the format, for a model of width features; labelled says
// whether they were read with a label column.
func widthError(name, format string, d, width int, labelled bool) error {
	hint := ""
	if format == "csv" {
		switch {
		case labelled && d+1 == width:
			hint = " (if the file has no label column, use -label none)"
		case !labelled && d-1 == width:
			hint = " (if a column is the label, name it with -label)"
		}
	}
	return fmt.Errorf("%s: rows of %s, want %d as the model has%s", name, plural(d, "feature"), width, hint)
}

// dropped says on stderr how many values of the file name beyond the
// width of its model were ignored, if any.
func dropped(stderr io.Writer, name string, n, width int) {
	if n > 0 {
		fmt.Fprintf(stderr, "perceptron: %s: %s at feature indices beyond the model's %d ignored, as liblinear-predict ignores them\n",
			name, plural(n, "value"), width)
	}
}

// defaultLabel is the label column of a CSV file that training reads
// without -label: the end of the row, as most CSV files put it.
const defaultLabel = "last"
