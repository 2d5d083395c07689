// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

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
// than max bytes of a line, the byte-order mark before line 1 included.
type lines struct {
	r   *bufio.Reader
	max int
	bom int // the bytes of the byte-order mark before line 1
	n   int // the number of the line last read
	end int // the bytes of its end, \n or \r\n, that it was read with
	buf []byte
}

func newLines(r io.Reader, max int) (*lines, error) {
	if r == nil {
		return nil, errors.New("no text to read: the io.Reader is nil")
	}
	r, err := gunzipped(r)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(r)
	bom := 0
	// Spreadsheet programs write a UTF-8 byte-order mark at the start of
	// text files.
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		bom, _ = br.Discard(3)
	}
	if max <= 0 {
		max = defaultMaxLine
	}
	return &lines{r: br, max: max, bom: bom}, nil
}

// next returns the next line, without its end; io.EOF at the end. A line
// longer than the reader's buffer is gathered in buf, and its memory
// checked again before it is copied into the string.
func (l *lines) next() (string, error) {
	limit := l.max
	if l.n == 0 {
		limit -= l.bom
	}
	l.buf = l.buf[:0]
	for {
		frag, err := l.r.ReadSlice('\n')
		if len(l.buf)+len(frag) > limit+2 { // the end of the line does not count
			l.n++
			return "", l.long()
		}
		if err == bufio.ErrBufferFull || len(l.buf) > 0 {
			var gerr error
			if l.buf, gerr = grow(l.buf, len(frag)); gerr != nil {
				return "", tooLarge(gerr, "line %d: holding the line", l.n+1)
			}
			l.buf = append(l.buf, frag...)
			if err == bufio.ErrBufferFull {
				continue
			}
			frag = l.buf
		}
		if err == io.EOF && len(frag) == 0 {
			return "", io.EOF
		}
		l.n++
		if err != nil && err != io.EOF {
			return "", fmt.Errorf("line %d: %w", l.n, err)
		}
		b := bytes.TrimSuffix(bytes.TrimSuffix(frag, []byte("\n")), []byte("\r"))
		l.end = len(frag) - len(b)
		if len(b) > limit {
			return "", l.long()
		}
		if len(l.buf) > 0 {
			if err := checkMemory(float64(len(b)), "line %d: holding the line", l.n); err != nil {
				return "", err
			}
		}
		return string(b), nil
	}
}

// long returns the error of the line last read, longer than max bytes.
func (l *lines) long() error {
	if l.n == 1 && l.bom > 0 {
		return fmt.Errorf("line 1: longer than %d bytes with the byte-order mark before it", l.max)
	}
	return fmt.Errorf("line %d: longer than %d bytes", l.n, l.max)
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

	// MaxLine is the longest line read, in bytes as they are read: a
	// byte-order mark before line 1 counts, the end of a line, \n or
	// \r\n, does not. Zero means 16 MiB.
	MaxLine int
}

// Read reads the rows of r, gzipped or not, into a Set of sparse rows, a
// *perceptron.CSR, whose explicit zeros are left out. It returns an error
// naming the line and the field of the first thing it cannot read, or of
// the first label that is NaN, infinite or beyond float64 if every label
// is a number, or if r holds no row or no feature. It holds the memory
// that the package's documentation states of a reader, and returns an
// error of kind perceptron.ErrTooLarge if that does not fit.
func (f LIBSVM) Read(r io.Reader) (*Set, error) {
	c, err := newClasses(f.Classes)
	if err != nil {
		return nil, err
	}
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
	)
	for {
		text, err := l.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		// Room for the row and its pairs, at most one a colon.
		pairs := strings.Count(text, ":")
		if ptr, err = grow(ptr, 1); err == nil {
			if ind, err = grow(ind, pairs); err == nil {
				val, err = grow(val, pairs)
			}
		}
		if err != nil {
			return nil, tooLarge(err, "line %d: holding the rows up to it", l.n)
		}
		k, prev := 0, 0
		for field := range strings.FieldsSeq(text) {
			k++
			if k == 1 {
				if strings.Contains(field, ":") {
					return nil, fmt.Errorf("line %d: no label: the line starts with %s", l.n, quote(field))
				}
				if err := c.add(field, l.n, 0); err != nil {
					return nil, fmt.Errorf("line %d: %w", l.n, err)
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
	if set.Classes, set.Y, err = c.finish(); err != nil {
		return nil, err
	}
	if set.X, err = perceptron.NewCSR(n, cols, ptr, ind, val); err != nil {
		return nil, err
	}
	return &set, nil
}

// CSV reads rows of comma-separated values, one of whose columns may be
// the label. The zero value reads rows of numbers without a header, with
// the label in the last column.
//
// It reads fields as encoding/csv does, RFC 4180's way: a field that
// starts with a quote ends at a quote followed by the delimiter or the end
// of the line, holds a quote written twice as one, and may hold ends of
// lines, which join its lines into one record; a quote in any other field
// is an error.
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

	// MaxLine is the longest line read, in bytes, as in LIBSVM, and the
	// longest record whose quoted fields join lines, the ends of lines
	// within it included. Zero means 16 MiB.
	MaxLine int
}

// Read reads the rows of r, gzipped or not, into a Set of dense rows,
// skipping blank lines and a leading byte order mark. Every row must have
// the fields of the first, and every field but the label must be a finite
// number. It returns an error naming the line and the field of the first
// thing it cannot read, or of the first label that is NaN, infinite or
// beyond float64 if every label is a number, or if r holds no row or no
// feature column. It holds the memory that the package's documentation
// states of a reader, and returns an error of kind perceptron.ErrTooLarge
// if that does not fit.
func (f CSV) Read(r io.Reader) (*Set, error) {
	comma := cmp.Or(f.Comma, ',')
	if comma == '"' || comma == '\r' || comma == '\n' || !utf8.ValidRune(comma) || comma == utf8.RuneError {
		return nil, fmt.Errorf("delimiter %s (CSV's Comma): want a character other than a quote or an end of line", strconv.QuoteRune(comma))
	}
	c, err := newClasses(f.Classes)
	if err != nil {
		return nil, err
	}
	l, err := newLines(r, f.MaxLine)
	if err != nil {
		return nil, err
	}
	cr := &records{l: l, comma: string(comma)}
	if err = cr.next(math.MaxInt); err == io.EOF {
		return nil, errors.New("no rows")
	} else if err != nil {
		return nil, err
	}
	var set Set
	var header []string
	hline := 0 // the line of the header
	if f.Header {
		if header, err = cr.all(); err != nil {
			return nil, err
		}
		hline = cr.line
		if err = cr.next(math.MaxInt); err == io.EOF {
			return nil, errors.New("no rows after the header")
		} else if err != nil {
			return nil, err
		}
		if len(header) != cr.n {
			return nil, fmt.Errorf("line %d: the header has %d fields, and line %d %d", hline, len(header), cr.line, cr.n)
		}
	}
	nf, first := cr.n, cr.line
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
		hint = fmt.Sprintf(" (if line %d is a header, read it as one: CSV's Header)", first)
	}
	var rows []float64
	field := func(j int, s string) error {
		if j == lc {
			if err := c.add(strings.TrimSpace(s), cr.line, j+1); err != nil {
				return fmt.Errorf("line %d: field %d: %w", cr.line, j+1, err)
			}
			return nil
		}
		v, err := number(s)
		if err != nil {
			return fmt.Errorf("line %d: field %d: %v%s", cr.line, j+1, err, hint)
		}
		rows = append(rows, v)
		return nil
	}
	for {
		if cr.n != nf {
			return nil, fmt.Errorf("line %d: %d fields, want %d as on line %d", cr.line, cr.n, nf, first)
		}
		if rows, err = grow(rows, nfeat); err != nil {
			return nil, tooLarge(err, "line %d: holding the rows up to it", cr.line)
		}
		if err := cr.each(field); err != nil {
			return nil, err
		}
		hint = ""
		if err = cr.next(nf); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
	}
	set.X = mat.NewDense(len(rows)/nfeat, nfeat, rows)
	if lc >= 0 {
		if set.Classes, set.Y, err = c.finish(); err != nil {
			return nil, err
		}
	}
	if header != nil {
		if set.Features, err = growTo([]string(nil), nfeat); err != nil {
			return nil, tooLarge(err, "line %d: holding the names of %d features", hline, nfeat)
		}
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
			return 0, fmt.Errorf("label column %d (CSV's Label): the rows have %d fields", k, nf)
		}
		return k - 1, nil
	}
	if header == nil {
		return 0, fmt.Errorf("label column %s (CSV's Label): no header names the columns (CSV's Header)", quote(f.Label))
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
				hint = fmt.Sprintf(" (the header is one field: is the delimiter %s? CSV's Comma)", strconv.Quote(d))
				break
			}
		}
	}
	return 0, fmt.Errorf("label column %s (CSV's Label): no such column in the header%s", quote(f.Label), hint)
}

// records reads the records of CSV text, skipping blank lines, a line at a
// time. It holds a record without quotes as its line alone, and splits it
// as it goes through its fields; it holds the fields of a record with
// quotes.
type records struct {
	l      *lines
	comma  string   // the delimiter
	line   int      // the line on which the record last read starts
	n      int      // the number of its fields
	text   string   // its line, if it holds no quote
	quoted bool     // whether it holds a quote, and its fields are in fields
	fields []string // its first fields, if it holds a quote
	field  []byte   // the text of a quoted field that a doubled quote or an end of line breaks
}

// next reads the next record, holding at most keep fields of a record with
// quotes. It returns io.EOF at the end.
func (r *records) next(keep int) error {
	var text string
	for text == "" {
		var err error
		if text, err = r.l.next(); err != nil {
			return err
		}
	}
	r.line = r.l.n
	if r.quoted = strings.IndexByte(text, '"') >= 0; !r.quoted {
		r.text, r.n = text, strings.Count(text, r.comma)+1
		return nil
	}
	r.text = ""
	return r.split(text, keep)
}

// each calls fn for each field of the record, with its index, until fn
// returns an error, and returns that error.
func (r *records) each(fn func(j int, s string) error) error {
	if r.quoted {
		for j, s := range r.fields {
			if err := fn(j, s); err != nil {
				return err
			}
		}
		return nil
	}
	s := r.text
	for j := 0; ; j++ {
		field, rest, more := strings.Cut(s, r.comma)
		if err := fn(j, field); err != nil {
			return err
		}
		if !more {
			return nil
		}
		s = rest
	}
}

// all returns the fields of the record, read with no bound on their
// number.
func (r *records) all() ([]string, error) {
	fields, err := growTo([]string(nil), r.n)
	if err != nil {
		return nil, tooLarge(err, "line %d: holding the fields of the line", r.line)
	}
	r.each(func(_ int, s string) error { fields = append(fields, s); return nil })
	return fields, nil
}

// split reads the fields of a record that holds a quote, from its first
// line, text, on, as encoding/csv does, and keeps the first keep of them.
func (r *records) split(text string, keep int) error {
	r.fields, r.n = r.fields[:0], 0
	size := len(text) // the bytes of the record, as read
	add := func(s string) error {
		r.n++
		if len(r.fields) < keep {
			var err error
			if r.fields, err = grow(r.fields, 1); err != nil {
				return tooLarge(err, "line %d: holding the fields of the record", r.line)
			}
			r.fields = append(r.fields, s)
		}
		return nil
	}
	s, line := text, r.line
	for {
		if s == "" || s[0] != '"' {
			field, rest, more := strings.Cut(s, r.comma)
			if strings.IndexByte(field, '"') >= 0 {
				return fmt.Errorf("line %d: field %d: a quote in a field that does not start with one (quote the field, and write the quote twice)", line, r.n+1)
			}
			if err := add(field); err != nil || !more {
				return err
			}
			s = rest
			continue
		}
		// A quoted field ends at a quote followed by the delimiter or the
		// end of the line; two quotes are one, and an end of line goes on
		// to the next line.
		s = s[1:]
		r.field = r.field[:0]
		whole := true // whether the field is a slice of s
		for {
			i := strings.IndexByte(s, '"')
			if i < 0 {
				if err := r.hold(s, "\n"); err != nil {
					return err
				}
				whole = false
				end := r.l.end
				next, err := r.l.next()
				switch {
				case err == io.EOF:
					return fmt.Errorf("line %d: field %d: the quote that opens the field is not closed before the end of the text", r.line, r.n+1)
				case err != nil:
					return err
				}
				if size += end + len(next); size > r.l.max {
					return fmt.Errorf("line %d: longer than %d bytes with the lines from line %d that a quoted field joins to it", r.l.n, r.l.max, r.line)
				}
				s, line = next, r.l.n
				continue
			}
			rest := s[i+1:]
			if strings.HasPrefix(rest, `"`) {
				if err := r.hold(s[:i+1], ""); err != nil {
					return err
				}
				whole, s = false, rest[1:]
				continue
			}
			if rest != "" && !strings.HasPrefix(rest, r.comma) {
				return fmt.Errorf("line %d: field %d: a quote in a quoted field that is not written twice, nor followed by the delimiter or the end of the line", line, r.n+1)
			}
			field := s[:i]
			if !whole {
				if err := r.hold(field, ""); err != nil {
					return err
				}
				field = string(r.field)
			}
			if err := add(field); err != nil || rest == "" {
				return err
			}
			s = rest[len(r.comma):]
			break
		}
	}
}

// hold adds s and then end to the quoted field being read.
func (r *records) hold(s, end string) error {
	var err error
	if r.field, err = grow(r.field, len(s)+len(end)); err != nil {
		return tooLarge(err, "line %d: holding the field", r.l.n)
	}
	r.field = append(append(r.field, s...), end...)
	return nil
}

// IDX reads the IDX files of MNIST and Fashion-MNIST: a file of images,
// whose first dimension counts them, and a file of their labels.
type IDX struct {
	// Classes are the classes to read the labels by, as in LIBSVM.
	Classes []string
}

// Read reads the images of the IDX file images and the labels of the IDX file
// labels, if it is not nil, gzipped or not, into a Set of dense rows, each row
// an image, its pixels divided by 255 to values from 0 to 1. It returns an
// error naming the file, images or labels, and what is wrong with it.
//
// It holds a file's bytes in memory in proportion to the bytes the file has,
// whatever its header says, and refuses, with an error of kind
// perceptron.ErrTooLarge, a header whose bytes and their values would not fit
// in the memory left: 9 bytes for each pixel, its value in the Set and its
// byte, and 9 bytes for each label likewise.
func (f IDX) Read(images, labels io.Reader) (*Set, error) {
	return f.read(images, labels, "images", "labels")
}

// read is Read, whose errors name the files images and labels by imName
// and lbName.
func (f IDX) read(images, labels io.Reader, imName, lbName string) (*Set, error) {
	c, err := newClasses(f.Classes)
	if err != nil {
		return nil, err
	}
	dims, b, err := readIDX(images)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", imName, err)
	}
	if len(dims) < 2 {
		return nil, fmt.Errorf("%s: %d dimensions, want a count of images and at least one more", imName, len(dims))
	}
	n, d := dims[0], len(b)/max(dims[0], 1)
	if n == 0 || d == 0 {
		return nil, fmt.Errorf("%s: no images, or images of no pixels", imName)
	}
	if err := checkMemory(8*float64(len(b)), "%s: holding %d images of %d pixels", imName, n, d); err != nil {
		return nil, err
	}
	x := make([]float64, len(b))
	for k, p := range b {
		x[k] = float64(p) / 255
	}
	set := &Set{X: mat.NewDense(n, d, x)}
	if labels == nil {
		return set, nil
	}
	ldims, lb, err := readIDX(labels)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w", lbName, err)
	case len(ldims) != 1:
		return nil, fmt.Errorf("%s: %d dimensions, want 1, a label per image", lbName, len(ldims))
	case ldims[0] != n:
		return nil, fmt.Errorf("%s: %d labels, want %d, one per image", lbName, ldims[0], n)
	}
	var names [256]string
	for _, b := range lb {
		if names[b] == "" {
			names[b] = strconv.Itoa(int(b))
		}
		if err := c.add(names[b], 0, 0); err != nil {
			return nil, fmt.Errorf("%s: %w", lbName, err)
		}
	}
	if set.Classes, set.Y, err = c.finish(); err != nil {
		return nil, fmt.Errorf("%s: %w", lbName, err)
	}
	return set, nil
}

// readIDX reads an IDX file of unsigned bytes, and returns its dimensions
// and its bytes. Before it reads them, it checks that their number, as the
// header gives it, fits in the memory left 9 times over, as bytes and as
// float64 values; it holds them as it reads them, in an array that grows
// twice over at a time.
func readIDX(r io.Reader) ([]int, []byte, error) {
	if r == nil {
		return nil, nil, errors.New("no file to read: the io.Reader is nil")
	}
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
	if err := checkMemory(9*float64(size), "holding the %d bytes that the header gives, and their values,", size); err != nil {
		return nil, nil, err
	}
	// Read what the file has, not what its header says.
	var b []byte
	for len(b) < size {
		if len(b) == cap(b) {
			if b, err = growTo(b, min(max(2*cap(b), 64<<10), size)); err != nil {
				return nil, nil, tooLarge(err, "holding the %d bytes read so far", len(b))
			}
		}
		k, err := io.ReadFull(r, b[len(b):min(cap(b), size)])
		b = b[:len(b)+k]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, nil, fmt.Errorf("%d bytes of data, want %d: %v", len(b), size, io.EOF)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%d bytes of data, want %d: %v", len(b), size, err)
		}
	}
	return dims, b, nil
}
