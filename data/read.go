// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// gunzipped returns r, decompressed if it starts as a gzip file does.
func gunzipped(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if head, err := br.Peek(2); err == nil && head[0] == 0x1f && head[1] == 0x8b {
		return gzip.NewReader(br)
	}
	return br, nil
}

// lines reads text a line at a time, counting lines and holding no more
// than max bytes of a line.
type lines struct {
	r   *bufio.Reader
	max int
	n   int // the number of the line last read
	buf []byte
}

func newLines(r io.Reader, max int) (*lines, error) {
	br, err := text(r)
	if err != nil {
		return nil, err
	}
	if max <= 0 {
		max = defaultMaxLine
	}
	return &lines{r: br, max: max}, nil
}

// text returns r, decompressed as gunzipped does, past a UTF-8 byte-order
// mark, which spreadsheet programs write at the start of text files.
func text(r io.Reader) (*bufio.Reader, error) {
	r, err := gunzipped(r)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		br.Discard(3)
	}
	return br, nil
}

// next returns the next line, without its end, which is valid until the
// next call; io.EOF at the end.
func (l *lines) next() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		frag, err := l.r.ReadSlice('\n')
		if len(l.buf)+len(frag) > l.max+2 { // the end of the line does not count
			l.n++
			return nil, fmt.Errorf("line %d: longer than %d bytes", l.n, l.max)
		}
		l.buf = append(l.buf, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(l.buf) == 0 {
			return nil, io.EOF
		}
		l.n++
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("line %d: %v", l.n, err)
		}
		b := bytes.TrimSuffix(bytes.TrimSuffix(l.buf, []byte("\n")), []byte("\r"))
		if len(b) > l.max {
			return nil, fmt.Errorf("line %d: longer than %d bytes", l.n, l.max)
		}
		return b, nil
	}
}

// LIBSVM reads the sparse text format of LIBSVM and SVMlight: on each line
// a label, then index:value pairs with indices from 1 in increasing order,
// the features not named being zero. A qid:N right after the label, as
// SVMlight writes it, is ignored; a # starts a comment, and blank lines
// are skipped. The zero value reads the width and the classes from the
// data.
type LIBSVM struct {
	// Cols, if not zero, is the number of features: values at indices
	// beyond it are left out, and counted in the Set's Dropped, as
	// LIBSVM's predict does. If zero, it is the largest index read.
	Cols int

	// Classes, if not nil, are the classes to read the labels by, as the
	// Classes of a training Set: a label among them, by its text or its
	// value, is that class, and another becomes a class after them.
	Classes []string

	// MaxLine is the longest line read, in bytes. Zero means 16 MiB.
	MaxLine int
}

// Read reads the rows of r, gzipped or not, into a Set of sparse rows, a
// *perceptron.CSR, whose explicit zeros are left out. It returns an error
// naming the line and the field of the first thing it cannot read, or if
// r holds no row or no feature.
func (f LIBSVM) Read(r io.Reader) (*Set, error) {
	l, err := newLines(r, f.MaxLine)
	if err != nil {
		return nil, err
	}
	var (
		ptr  = []int{0}
		ind  []int
		val  []float64
		cols int
		set  Set
		c    = newClasses(f.Classes)
	)
	for {
		b, err := l.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		text := string(b)
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		k, prev := 0, 0
		for field := range strings.FieldsSeq(text) {
			k++
			if k == 1 {
				if strings.Contains(field, ":") {
					return nil, fmt.Errorf("line %d: no label: the line starts with %s", l.n, quote(field))
				}
				if err := c.add(field); err != nil {
					return nil, fmt.Errorf("line %d: %v", l.n, err)
				}
				continue
			}
			is, vs, ok := strings.Cut(field, ":")
			if !ok {
				return nil, fmt.Errorf("line %d: %s is not index:value", l.n, quote(field))
			}
			if is == "qid" && k == 2 {
				if _, err := strconv.ParseUint(vs, 10, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
					return nil, fmt.Errorf("line %d: qid %s is not a whole number", l.n, quote(vs))
				}
				continue
			}
			j, err := strconv.Atoi(is)
			switch {
			case err != nil && !errors.Is(err, strconv.ErrRange):
				return nil, fmt.Errorf("line %d: %s: the index is not a whole number", l.n, quote(field))
			case err != nil || j > 1<<48:
				return nil, fmt.Errorf("line %d: %s: the index is too large", l.n, quote(field))
			case j < 1:
				return nil, fmt.Errorf("line %d: %s: want indices from 1", l.n, quote(field))
			case j <= prev:
				return nil, fmt.Errorf("line %d: %s: index %d after %d, want increasing indices", l.n, quote(field), j, prev)
			}
			v, err := number(vs)
			if err != nil {
				return nil, fmt.Errorf("line %d: index %d: %v", l.n, j, err)
			}
			prev = j
			switch {
			case f.Cols > 0 && j > f.Cols:
				set.Dropped++
			case v != 0:
				ind = append(ind, j-1)
				val = append(val, v)
			}
			cols = max(cols, j)
		}
		if k > 0 {
			ptr = append(ptr, len(ind))
		}
	}
	n := len(ptr) - 1
	if f.Cols > 0 {
		cols = f.Cols
	}
	switch {
	case n == 0:
		return nil, errors.New("no rows")
	case cols == 0:
		return nil, errors.New("no features on any line")
	}
	X, err := perceptron.NewCSR(n, cols, ptr, ind, val)
	if err != nil {
		return nil, err
	}
	set.X = X
	set.Classes, set.Y = c.finish()
	return &set, nil
}

// denseRows collects dense rows of d values.
type denseRows struct {
	d    int
	data []float64
}

func (r *denseRows) matrix() *mat.Dense { return mat.NewDense(len(r.data)/r.d, r.d, r.data) }

// CSV reads rows of comma-separated values, one of whose columns may be
// the label. The zero value reads rows of numbers without a header, with
// the label in the last column.
type CSV struct {
	// Comma is the field delimiter. Zero means ','.
	Comma rune

	// Header says that the first line names the columns.
	Header bool

	// Label is the label column: "last" or "", "first", a column number
	// from 1, a name of the header, or "none" for rows without labels.
	Label string

	// Classes are the classes to read the labels by, as in LIBSVM.
	Classes []string

	// MaxLine is the longest line read, in bytes. Zero means 16 MiB.
	MaxLine int
}

// Read reads the rows of r, gzipped or not, into a Set of dense rows,
// skipping blank lines and a leading byte order mark. Every row must have
// the fields of the first, and every field but the label must be a finite
// number. It returns an error naming the line and the field of the first
// thing it cannot read, or if r holds no row or no feature column.
func (f CSV) Read(r io.Reader) (*Set, error) {
	max := f.MaxLine
	if max <= 0 {
		max = defaultMaxLine
	}
	br, err := text(r)
	if err != nil {
		return nil, err
	}
	lr := &limited{r: br, max: max}
	cr := csv.NewReader(lr)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	if f.Comma != 0 {
		cr.Comma = f.Comma
	}
	read := func() ([]string, int, error) {
		rec, err := cr.Read()
		var pe *csv.ParseError
		switch {
		case err == io.EOF:
			return nil, 0, err
		case lr.err != nil:
			return nil, 0, lr.err
		case errors.As(err, &pe):
			return nil, 0, fmt.Errorf("line %d: %v", pe.Line, pe.Err)
		case err != nil:
			return nil, 0, err
		}
		line, _ := cr.FieldPos(0)
		return rec, line, nil
	}
	rec, line, err := read()
	if err == io.EOF {
		return nil, errors.New("no rows")
	}
	if err != nil {
		return nil, err
	}
	var set Set
	var header []string
	if f.Header {
		header = slices.Clone(rec)
		hline := line
		if rec, line, err = read(); err == io.EOF {
			return nil, errors.New("no rows after the header")
		} else if err != nil {
			return nil, err
		}
		if len(header) != len(rec) {
			return nil, fmt.Errorf("line %d: the header has %d fields, and line %d %d", hline, len(header), line, len(rec))
		}
	}
	nf, first := len(rec), line
	lc, err := f.labelColumn(header, nf)
	if err != nil {
		return nil, fmt.Errorf("line %d: %v", first, err)
	}
	nfeat := nf
	if lc >= 0 {
		nfeat--
	}
	if nfeat == 0 {
		return nil, fmt.Errorf("line %d: no feature columns", first)
	}
	hint := ""
	if !f.Header {
		hint = fmt.Sprintf(" (if line %d is a header, read it as one)", first)
	}
	c := newClasses(f.Classes)
	rows := denseRows{d: nfeat}
	for {
		if len(rec) != nf {
			return nil, fmt.Errorf("line %d: %d fields, want %d as on line %d", line, len(rec), nf, first)
		}
		for j, s := range rec {
			if j == lc {
				if err := c.add(strings.TrimSpace(s)); err != nil {
					return nil, fmt.Errorf("line %d: field %d: %v", line, j+1, err)
				}
				continue
			}
			v, err := number(s)
			if err != nil {
				return nil, fmt.Errorf("line %d: field %d: %v%s", line, j+1, err, hint)
			}
			rows.data = append(rows.data, v)
		}
		hint = ""
		if rec, line, err = read(); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
	}
	set.X = rows.matrix()
	if lc >= 0 {
		set.Classes, set.Y = c.finish()
	}
	for j, h := range header {
		if j != lc {
			set.Features = append(set.Features, strings.TrimSpace(h))
		}
	}
	return &set, nil
}

// labelColumn returns the index of the label column in rows of nf fields,
// or -1 for none.
func (f CSV) labelColumn(header []string, nf int) (int, error) {
	switch f.Label {
	case "", "last":
		return nf - 1, nil
	case "first":
		return 0, nil
	case "none":
		return -1, nil
	}
	if k, err := strconv.Atoi(f.Label); err == nil {
		if k < 1 || k > nf {
			return 0, fmt.Errorf("label column %d: the rows have %d fields", k, nf)
		}
		return k - 1, nil
	}
	if header == nil {
		return 0, fmt.Errorf("label column %s: no header names the columns", quote(f.Label))
	}
	for j, h := range header {
		if strings.TrimSpace(h) == f.Label {
			return j, nil
		}
	}
	hint := ""
	if len(header) == 1 {
		for _, d := range []string{";", "\t", "|"} {
			if strings.Contains(header[0], d) {
				hint = fmt.Sprintf(" (the header is one field: is the delimiter %s?)", strconv.Quote(d))
				break
			}
		}
	}
	return 0, fmt.Errorf("label column %s: no such column in the header%s", quote(f.Label), hint)
}

// limited reads from r until a line runs longer than max bytes, and then
// keeps the error that says so.
type limited struct {
	r    io.Reader
	max  int
	line int  // the number of the line being read
	run  int  // its bytes read so far
	cr   bool // whether its last byte is a \r past max, allowed as the line's end
	err  error
}

func (l *limited) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for _, b := range p[:n] {
		switch {
		case b == '\n':
			l.line++
			l.run, l.cr = 0, false
			continue
		case l.cr:
			return 0, l.long()
		}
		if l.run++; l.run > l.max {
			if b != '\r' {
				return 0, l.long()
			}
			l.cr = true
		}
	}
	return n, err
}

func (l *limited) long() error {
	l.err = fmt.Errorf("line %d: longer than %d bytes", l.line+1, l.max)
	return l.err
}

// IDX reads the IDX files of MNIST and Fashion-MNIST: a file of images,
// whose first dimension counts them, and a file of their labels.
type IDX struct {
	// Classes are the classes to read the labels by, as in LIBSVM.
	Classes []string
}

// Read reads the images of the IDX file images and the labels of the IDX
// file labels, if it is not nil, gzipped or not, into a Set of dense rows,
// a row an image of its pixels divided by 255, from 0 to 1. It holds the
// images in memory in proportion to the bytes the file has, whatever its
// header says. It returns an error naming the file, images or labels, and
// what is wrong with it.
func (f IDX) Read(images, labels io.Reader) (*Set, error) {
	dims, data, err := readIDX(images)
	if err != nil {
		return nil, fmt.Errorf("images: %v", err)
	}
	if len(dims) < 2 {
		return nil, fmt.Errorf("images: %d dimensions, want a count of images and at least one more", len(dims))
	}
	d := len(data) / max(dims[0], 1)
	if dims[0] == 0 || d == 0 {
		return nil, errors.New("images: no images, or images of no pixels")
	}
	rows := denseRows{d: d, data: make([]float64, len(data))}
	for k, b := range data {
		rows.data[k] = float64(b) / 255
	}
	set := &Set{X: rows.matrix()}
	if labels == nil {
		return set, nil
	}
	ldims, lb, err := readIDX(labels)
	switch {
	case err != nil:
		return nil, fmt.Errorf("labels: %v", err)
	case len(ldims) != 1:
		return nil, fmt.Errorf("labels: %d dimensions, want 1, a label per image", len(ldims))
	case ldims[0] != dims[0]:
		return nil, fmt.Errorf("labels: %d labels, want %d, one per image", ldims[0], dims[0])
	}
	c := newClasses(f.Classes)
	for _, b := range lb {
		c.add(strconv.Itoa(int(b)))
	}
	set.Classes, set.Y = c.finish()
	return set, nil
}

// readIDX reads an IDX file of unsigned bytes, and returns its dimensions
// and its bytes.
func readIDX(r io.Reader) ([]int, []byte, error) {
	r, err := gunzipped(r)
	if err != nil {
		return nil, nil, err
	}
	var magic [4]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return nil, nil, fmt.Errorf("reading the magic number: %v", err)
	}
	switch {
	case magic[0] != 0 || magic[1] != 0:
		return nil, nil, fmt.Errorf("magic number % x: not an IDX file", magic)
	case magic[2] != 0x08:
		return nil, nil, fmt.Errorf("element type 0x%02x, want 0x08 (unsigned bytes)", magic[2])
	case magic[3] == 0:
		return nil, nil, errors.New("no dimensions")
	}
	dims := make([]int, magic[3])
	size := 1
	for i := range dims {
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, nil, fmt.Errorf("reading dimension %d: %v", i, err)
		}
		dims[i] = int(binary.BigEndian.Uint32(b[:]))
		if dims[i] != 0 && size > (1<<48)/dims[i] {
			return nil, nil, fmt.Errorf("dimension %d (%d) makes the data larger than 2^48 bytes", i, dims[i])
		}
		size *= dims[i]
	}
	// Read what the file has, not what its header says.
	var buf bytes.Buffer
	n, err := io.CopyN(&buf, r, int64(size))
	if err != nil {
		return nil, nil, fmt.Errorf("%d bytes of data, want %d: %v", n, size, err)
	}
	return dims, buf.Bytes(), nil
}
