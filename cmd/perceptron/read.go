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

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
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
	// of those steps takes. The command holds the rows once.
	scaled *data.Model
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
