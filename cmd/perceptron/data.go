// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/idx"
)

// dataset is a data file read into rows, and their labels if the file's
// labels were read.
type dataset struct {
	name string
	X    mat.Matrix // a *mat.Dense, or a *perceptron.CSR if the file is sparse

	// classes are the classes of the rows, and y the index of the label
	// of each row: of its class, or, for a label of no class, of the
	// label in others after the classes. Both are nil if the labels were
	// not read.
	classes *classSet
	y       []int
	others  []string

	// left is the number of rows of other labels left out.
	left int

	// features names the columns of X, as a header named them; nil if
	// the file has none.
	features []string
}

// values returns the class value of each row, for training: the rows of
// the training file have a class each.
func (ds *dataset) values() []float64 {
	v := make([]float64, len(ds.y))
	for i, k := range ds.y {
		v[i] = ds.classes.values[k]
	}
	return v
}

// labels returns the labels of the rows: the classes, then the others.
func (ds *dataset) labels() []string {
	return append(slices.Clone(ds.classes.names), ds.others...)
}

// dataSpec says how to read a data file.
type dataSpec struct {
	// format is csv, libsvm or idx; empty means to tell by the file name.
	format string

	// header says that the first line of a CSV file names the columns.
	header bool

	// label is the label column of a CSV file: last, first, a column
	// number counted from 1, a name from the header, or none.
	label string

	// labelFlag names where label comes from, for messages: -label, or
	// the model's -label.
	labelFlag string

	// labels says how to read the labels; nil means that they are not
	// read.
	labels *labelSpec
}

// useModelLabel sets the label column to that of the saved model s, if
// -label did not set it.
func (s *dataSpec) useModelLabel(m *saved) {
	if s.label == "" {
		s.label, s.labelFlag = m.label, "the model's -label"
	}
}

// maxCells is the most numbers the command holds in dense rows, 512 MiB of
// them: a guard for a dense file, and for the sparse rows that a model
// trained on dense ones centres; Fashion-MNIST's 60,000 training images
// take 47 million. It is also the most features of a sparse file, whose
// weights are dense: text has a few million.
var maxCells = 1 << 26

// formatOf returns the format of the data file at path: spec's, or the one
// its name says.
func formatOf(path string, spec dataSpec) (string, error) {
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
	return "", usagef("cannot tell the format of %s from its name: use -format csv, libsvm or idx", path)
}

// readData reads the data file at path as spec says, into rows of d
// features, or of as many as the file has if d is 0. An IDX data set is
// two files, IMAGES,LABELS, or the images alone if their name tells that of
// the labels. A file that cannot be opened is a usage error.
func readData(path string, spec dataSpec, d int) (*dataset, error) {
	format, err := formatOf(path, spec)
	if err != nil {
		return nil, err
	}
	if format == "idx" {
		return readIDXFiles(path, spec.labels, d)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, usageError{err}
	}
	defer f.Close()
	r, err := gunzipped(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	switch format {
	case "csv":
		return readCSV(r, path, spec, d)
	case "libsvm":
		return readLIBSVM(r, path, spec.labels, d)
	}
	return nil, usagef("unknown format %q: want csv, libsvm or idx", format)
}

// gunzipped returns the content of r, gunzipped if it starts with gzip's
// magic number: text never does, so the content tells, whatever the name.
func gunzipped(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); string(magic) != "\x1f\x8b" {
		return br, nil
	}
	return gzip.NewReader(br)
}

// readCSV reads comma-separated rows of numbers, one of whose columns may
// be the label. Blank lines and a leading byte order mark are skipped;
// every other line must have the same number of fields.
func readCSV(r io.Reader, name string, spec dataSpec, d int) (*dataset, error) {
	// Spreadsheets often start a CSV file with a byte order mark.
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	read := func() ([]string, int, error) {
		rec, err := cr.Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, 0, fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
			}
			if err == io.EOF {
				return nil, 0, err
			}
			return nil, 0, fmt.Errorf("%s: %v", name, err)
		}
		line, _ := cr.FieldPos(0)
		return rec, line, nil
	}

	rec, line, err := read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file", name)
	}
	if err != nil {
		return nil, err
	}
	var header []string
	if spec.header {
		header = append(header, rec...)
		hline := line
		rec, line, err = read()
		if err == io.EOF {
			return nil, fmt.Errorf("%s: no rows after the header", name)
		}
		if err != nil {
			return nil, err
		}
		if len(header) != len(rec) {
			return nil, fmt.Errorf("%s:%d: the header has %d fields, want %d as the rows have from line %d", name, hline, len(header), len(rec), line)
		}
	}

	nf, first := len(rec), line
	lc, err := spec.labelColumn(header, nf)
	if err != nil {
		return nil, usagef("%s:%d: %v", name, line, err)
	}
	nfeat := nf
	if lc >= 0 {
		nfeat--
	}
	switch {
	case nfeat == 0:
		return nil, fmt.Errorf("%s:%d: no feature columns", name, line)
	case d > 0 && nfeat != d:
		hint := ""
		switch {
		case lc >= 0 && nfeat+1 == d:
			hint = " (if the file has no label column, use -label none)"
		case lc < 0 && nfeat-1 == d:
			hint = " (if a column is the label, name it with -label)"
		}
		return nil, fmt.Errorf("%s:%d: %s, want %d as the model has%s", name, line, plural(nfeat, "feature"), d, hint)
	}

	// A header read as data fails on its first line: say what may be wrong.
	hint := ""
	if !spec.header {
		hint = fmt.Sprintf(" (if line %d is a header, use -header)", first)
	}
	var lab *labeler
	if lc >= 0 && spec.labels != nil {
		lab = newLabeler(spec.labels)
	}
	var data []float64
	for {
		if len(rec) != nf {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d as on line %d", name, line, len(rec), nf, first)
		}
		if len(data)+nfeat > maxCells {
			return nil, fmt.Errorf("%s:%d: too many numbers to hold", name, line)
		}
		start, keep := len(data), true
		for j, s := range rec {
			if j == lc {
				if lab != nil {
					var err error
					if keep, err = lab.add(s); err != nil {
						return nil, fmt.Errorf("%s:%d: field %d: %v", name, line, j+1, err)
					}
				}
				continue
			}
			v, err := parseNumber(s)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: field %d: %v%s", name, line, j+1, err, hint)
			}
			data = append(data, v)
		}
		if !keep {
			data = data[:start]
		}
		hint = ""
		rec, line, err = read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	ds := &dataset{name: name}
	if lab != nil {
		if err := lab.finish(ds); err != nil {
			return nil, err
		}
	}
	ds.X = mat.NewDense(len(data)/nfeat, nfeat, data)
	for j, h := range header {
		if j != lc {
			ds.features = append(ds.features, strings.TrimSpace(h))
		}
	}
	return ds, nil
}

// labelColumn returns the index of the label column that s names in rows
// of nf fields, or -1 for none.
func (s dataSpec) labelColumn(header []string, nf int) (int, error) {
	flag, spec := cmp.Or(s.labelFlag, "-label"), s.label
	switch spec {
	case "", "last":
		return nf - 1, nil
	case "first":
		return 0, nil
	case "none":
		return -1, nil
	}
	if k, err := strconv.Atoi(spec); err == nil {
		if k < 1 || k > nf {
			return 0, fmt.Errorf("%s %d: the rows have %d fields", flag, k, nf)
		}
		return k - 1, nil
	}
	if header == nil {
		return 0, fmt.Errorf("%s %q: no header names the columns (use -header)", flag, spec)
	}
	for j, h := range header {
		if strings.TrimSpace(h) == spec {
			return j, nil
		}
	}
	return 0, fmt.Errorf("%s %q: no such column in the header", flag, spec)
}

// parseNumber parses a feature value, which must be a finite number.
func parseNumber(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, errors.New("empty, want a number")
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return v, nil
}

// readLIBSVM reads the sparse text format of LIBSVM and SVMlight: on each
// line a label and then index:value pairs with indices from 1 in
// increasing order; missing features are zero. A qid:N right after the
// label, as SVMlight writes a query's id, is ignored; a # starts a
// comment, and blank lines are skipped. The rows have d features, or as
// many as the largest index if d is 0. They are sparse, held in memory in
// proportion to their non-zeros: an explicit zero, of either sign, is left
// out, as every other zero is.
//
// The labels are numbers. The rows that labels leaves out, of labels
// that -pos and -neg do not pick, still count in the features of the
// file.
func readLIBSVM(r io.Reader, name string, labels *labelSpec, d int) (*dataset, error) {
	var (
		ptr  = []int{0}
		ind  []int
		val  []float64
		maxj int
		lab  *labeler
	)
	if labels != nil {
		lab = newLabeler(labels)
	}
	lr := newLineReader(r)
	for {
		text, line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		k, prev, keep := 0, 0, true
		for f := range strings.FieldsSeq(text) {
			k++
			if k == 1 {
				if strings.Contains(f, ":") {
					return nil, fmt.Errorf("%s:%d: no label: the line starts with %q", name, line, f)
				}
				if lab == nil {
					continue
				}
				if _, err := parseNumber(f); err != nil {
					return nil, fmt.Errorf("%s:%d: label %q is not a number", name, line, f)
				}
				keep, _ = lab.add(f)
				continue
			}
			is, vs, ok := strings.Cut(f, ":")
			if !ok {
				return nil, fmt.Errorf("%s:%d: %q is not index:value", name, line, f)
			}
			if is == "qid" {
				if k != 2 {
					return nil, fmt.Errorf("%s:%d: %q: a qid comes right after the label", name, line, f)
				}
				if _, err := strconv.Atoi(vs); err != nil && !errors.Is(err, strconv.ErrRange) {
					return nil, fmt.Errorf("%s:%d: %q: qid %q is not a whole number", name, line, f, vs)
				}
				continue
			}
			// Atoi gives a number beyond int as the int nearest it.
			j, err := strconv.Atoi(is)
			switch {
			case err != nil && !errors.Is(err, strconv.ErrRange):
				return nil, fmt.Errorf("%s:%d: %q: index %q is not a whole number", name, line, f, is)
			case j < 1:
				return nil, fmt.Errorf("%s:%d: %q: index %s, want indices from 1", name, line, f, is)
			case j > maxCells:
				return nil, fmt.Errorf("%s:%d: %q: index %s is too large: the command takes at most %d features", name, line, f, is, maxCells)
			case j == prev:
				return nil, fmt.Errorf("%s:%d: %q: index %d appears twice", name, line, f, j)
			case j < prev:
				return nil, fmt.Errorf("%s:%d: %q: index %d after %d, want increasing indices", name, line, f, j, prev)
			case d > 0 && j > d:
				return nil, fmt.Errorf("%s:%d: %q: index %d, but the model has %d features", name, line, f, j, d)
			}
			v, err := parseNumber(vs)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %q: %v", name, line, f, err)
			}
			prev = j
			maxj = max(maxj, j)
			// -0 would not survive writing back, which leaves out zeros.
			if v != 0 && keep {
				ind = append(ind, j-1)
				val = append(val, v)
			}
		}
		if k > 0 && keep {
			ptr = append(ptr, len(ind))
		}
	}
	n := len(ptr) - 1
	ds := &dataset{name: name}
	if lab != nil && n+lab.left > 0 {
		if err := lab.finish(ds); err != nil {
			return nil, err
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: empty file", name)
	}
	if d == 0 {
		d = maxj
	}
	if d == 0 {
		return nil, fmt.Errorf("%s: no features on any line", name)
	}
	X, err := perceptron.NewCSR(n, d, ptr, ind, val)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, libError(err))
	}
	ds.X = X
	return ds, nil
}

// lineReader reads a text file a line at a time, counting lines.
type lineReader struct {
	r    *bufio.Reader
	line int
}

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: bufio.NewReader(r)} }

// next returns the next line without its end, and its number from 1.
func (lr *lineReader) next() (string, int, error) {
	text, err := lr.r.ReadString('\n')
	if err == io.EOF && text == "" {
		return "", lr.line, io.EOF
	}
	lr.line++
	if err != nil && err != io.EOF {
		return "", lr.line, err
	}
	text = strings.TrimSuffix(text, "\n")
	return strings.TrimSuffix(text, "\r"), lr.line, nil
}

// inputFiles returns the files that readData reads for path.
func inputFiles(path string, spec dataSpec) []string {
	if format, err := formatOf(path, spec); err == nil && format == "idx" {
		im, lb, err := idxPaths(path, spec.labels != nil)
		if err == nil && lb != "" {
			return []string{im, lb}
		}
		return []string{im}
	}
	return []string{path}
}

// idxPaths returns the files of the IDX data set path: IMAGES,LABELS, or
// the images alone if their name holds "images-idx3", when the labels are
// the file named with "labels-idx1" in its place. LABELS is empty if
// labels is false and path names no labels file.
func idxPaths(path string, labels bool) (images, lbls string, err error) {
	images, lbls, ok := strings.Cut(path, ",")
	if !ok && labels {
		dir, base := filepath.Split(path)
		if !strings.Contains(base, "images-idx3") {
			return "", "", usagef("%s: name the IDX labels file too, as IMAGES,LABELS", path)
		}
		lbls = dir + strings.Replace(base, "images-idx3", "labels-idx1", 1)
	}
	return images, lbls, nil
}

// readIDXFiles reads the IDX data set path, as idxPaths names its files,
// with its labels if labels is not nil.
func readIDXFiles(path string, labels *labelSpec, d int) (*dataset, error) {
	imPath, lbPath, err := idxPaths(path, labels != nil)
	if err != nil {
		return nil, err
	}
	open := func(p string) (*os.File, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, usageError{err}
		}
		return f, nil
	}
	imf, err := open(imPath)
	if err != nil {
		return nil, err
	}
	defer imf.Close()
	var lbf *os.File
	if labels != nil {
		if lbf, err = open(lbPath); err != nil {
			return nil, err
		}
		defer lbf.Close()
	}
	return readIDX(imf, imPath, lbf, lbPath, labels, d)
}

// idxError returns err of the IDX reader, which names no file, as an error
// about the file name.
func idxError(name string, err error) error {
	return fmt.Errorf("%s: %v", name, err)
}

// readIDX reads IDX images, and their labels if labels is not nil, with the
// pixels scaled to [0, 1]. The labels are class numbers, from 0 to 255.
func readIDX(images io.Reader, imName string, lbs io.Reader, lbName string, labels *labelSpec, d int) (*dataset, error) {
	im, err := idx.Read(images)
	if err != nil {
		return nil, idxError(imName, err)
	}
	if len(im.Data) == 0 {
		return nil, fmt.Errorf("%s: no pixels in images of dimensions %v", imName, im.Dims)
	}
	ds := &dataset{name: imName}
	if labels == nil {
		if ds.X, err = idx.Images(im); err != nil {
			return nil, idxError(imName, err)
		}
	} else {
		lb, err := idx.Read(lbs)
		if err != nil {
			return nil, idxError(lbName, err)
		}
		lab := newLabeler(labels)
		if lab.pos != "" {
			pos, err1 := strconv.Atoi(lab.pos)
			neg, err2 := strconv.Atoi(lab.neg)
			if err1 != nil || err2 != nil {
				return nil, usagef("IDX labels are class numbers: -pos %q and -neg %q must be whole numbers", lab.pos, lab.neg)
			}
			if len(lb.Dims) == 1 {
				if err := classesPresent(lb.Data, pos, neg); err != nil {
					return nil, fmt.Errorf("%s: %v", lbName, err)
				}
			}
			if ds.X, _, err = idx.Select(im, lb, pos, neg); err != nil {
				return nil, idxError(imName+", "+lbName, err)
			}
		} else {
			if len(im.Dims) < 2 || len(lb.Dims) != 1 || im.Dims[0] != lb.Dims[0] {
				return nil, fmt.Errorf("%s, %s: images %v do not match labels %v", imName, lbName, im.Dims, lb.Dims)
			}
			if ds.X, err = idx.Images(im); err != nil {
				return nil, idxError(imName, err)
			}
		}
		// The labeler keeps the rows that Select keeps.
		for _, c := range lb.Data {
			lab.add(strconv.Itoa(int(c)))
		}
		if err := lab.finish(ds); err != nil {
			return nil, fmt.Errorf("%s: %v", lbName, strings.TrimPrefix(err.Error(), imName+": "))
		}
	}
	if _, c := ds.X.Dims(); d > 0 && c != d {
		return nil, fmt.Errorf("%s: images of %d pixels, but the model has %d features", imName, c, d)
	}
	return ds, nil
}

// classesPresent returns an error that names the classes present if pos or
// neg is not among the labels: a class that never occurs would leave the
// classifier one class to learn.
func classesPresent(labels []byte, pos, neg int) error {
	var present [256]bool
	for _, c := range labels {
		present[c] = true
	}
	var absent []string
	for _, c := range []struct {
		flag  string
		class int
	}{{"-pos", pos}, {"-neg", neg}} {
		if c.class < 0 || c.class > 255 || !present[c.class] {
			absent = append(absent, fmt.Sprintf("class %d (%s)", c.class, c.flag))
		}
	}
	if absent == nil {
		return nil
	}
	var runs []string
	for c := 0; c < len(present); c++ {
		if !present[c] {
			continue
		}
		end := c
		for end+1 < len(present) && present[end+1] {
			end++
		}
		switch {
		case end == c:
			runs = append(runs, strconv.Itoa(c))
		case end == c+1:
			runs = append(runs, strconv.Itoa(c), strconv.Itoa(end))
		default:
			runs = append(runs, fmt.Sprintf("%d to %d", c, end))
		}
		c = end
	}
	return fmt.Errorf("no image of %s; the classes present are %s", strings.Join(absent, " or "), joinWords(runs, "and"))
}
