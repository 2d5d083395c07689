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
	"os"
	"path/filepath"
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
	format string // csv, libsvm or idx
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

	// names are the names of -classes; pos and neg the labels, or the
	// names, of -pos and -neg.
	names    *classNames
	pos, neg string

	// manyClasses takes the labels of training rows as classes even if
	// they look like the values of a feature.
	manyClasses bool
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
	var r *bufio.Reader
	format, err := spec.format, error(nil)
	if path == "-" {
		r = bufio.NewReaderSize(stdin, 1<<16)
		if format == "" {
			format, err = sniff(r)
		}
	} else {
		format, err = formatOf(path, spec)
	}
	if err != nil {
		return nil, err
	}
	var known []string
	switch {
	case spec.known != nil:
		known = spec.known.labels
	case spec.pos != "":
		known = []string{spec.names.labelOf(spec.neg), spec.names.labelOf(spec.pos)}
	case spec.names != nil:
		known = spec.names.labels
	}
	var set *data.Set
	name := path
	label := spec.label
	if !spec.labels && label != "none" {
		// The label column is there, and skipped.
		label = cmp.Or(label, defaultLabel)
	}
	csv := data.CSV{Comma: spec.comma, Header: spec.header, Label: label, Classes: known}
	libsvm := data.LIBSVM{Cols: spec.width, Classes: known}
	switch {
	case r != nil:
		name = stdinName
		switch format {
		case "idx":
			set, err = data.IDX{Classes: known}.Read(r, nil)
		case "csv":
			if set, err = csv.Read(r); err != nil {
				err = csvFlags(err)
			}
		case "libsvm":
			set, err = libsvm.Read(r)
		}
		if err != nil {
			err = fmt.Errorf("%s: %w", name, err)
		}
	case format == "idx":
		set, name, err = readIDX(path, spec, known)
	case format == "csv":
		set, err = csv.ReadFile(path)
		if err != nil {
			err = csvFlags(err)
		}
	case format == "libsvm":
		set, err = libsvm.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	ds := &dataset{name: name, format: format, Set: set}
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

// stdinName names standard input in messages.
const stdinName = "standard input"

// sniff returns the format of the data that r starts with, gzipped or not,
// as the first 64 KiB tell it: IDX if they start with the magic number of
// unsigned bytes, LIBSVM if the second field of the first line that is
// not blank nor a comment holds a colon, and CSV if it holds commas.
func sniff(r *bufio.Reader) (string, error) {
	head, _ := r.Peek(64 << 10)
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		// As much of the text as the first bytes of gzip give.
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err == nil {
			text := make([]byte, 64<<10)
			n, _ := io.ReadFull(zr, text)
			head = text[:n]
		}
	}
	if len(head) >= 3 && head[0] == 0 && head[1] == 0 && head[2] == 0x08 {
		return "idx", nil
	}
	for line := range strings.Lines(string(head)) {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
			continue
		case len(f) >= 2 && strings.Contains(f[1], ":"):
			return "libsvm", nil
		case strings.Contains(line, ","):
			return "csv", nil
		}
		break
	}
	return "", usagef("cannot tell the format of %s from its first line: use -format csv, libsvm or idx", stdinName)
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
// standard input.
func inputFiles(path string, spec readSpec) []string {
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
	if ds.part == "" {
		return fmt.Errorf("%s: %s", ds.name, errText(err))
	}
	return fmt.Errorf("%s: %s (rows counted%s)", ds.name, errText(err), strings.TrimPrefix(ds.part, ","))
}

// isSparse reports whether X is sparse.
func isSparse(X mat.Matrix) bool {
	_, ok := X.(*perceptron.CSR)
	return ok
}
