// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"iter"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron"
)

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
func (f LIBSVM) Read(r io.Reader) (_ *Set, err error) {
	p, err := f.parser(r, true)
	if err != nil {
		return nil, err
	}
	ptr := []int{0}
	defer func() {
		if err != nil {
			unadvise(ptr)
			unadvise(p.ind)
			unadvise(p.val)
		}
	}()
	for {
		if err := p.next(); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if len(ptr) == cap(ptr) {
			if ptr, err = growText(ptr, 1, p.text()); err != nil {
				return nil, tooLarge(err, "line %d: holding the rows up to it", p.l.n)
			}
		}
		ptr = append(ptr, len(p.ind))
	}
	n := len(ptr) - 1
	if err := p.end(n); err != nil {
		return nil, err
	}
	set := &Set{Dropped: p.dropped}
	if set.Classes, set.Y, err = p.c.finish(); err != nil {
		return nil, err
	}
	if set.X, err = perceptron.NewCSR(n, p.width(), fitText(ptr), fitText(p.ind), fitText(p.val)); err != nil {
		return nil, err
	}
	return set, nil
}

// Rows returns the rows of r, gzipped or not, one at a time, as Read reads
// them, with the errors of Read; the package's documentation says how.
func (f LIBSVM) Rows(r io.Reader) iter.Seq2[Row, error] {
	return rowSeq([]io.Reader{r}, func() (rowReader, error) {
		p, err := f.parser(r, false)
		if err != nil {
			return nil, err
		}
		return p, nil
	})
}

// libsvmParser reads the rows of LIBSVM text a line at a time.
type libsvmParser struct {
	f    LIBSVM
	l    *lines
	c    *classes
	keep bool // whether c holds the class of each row

	ind   []int     // the columns of the values of the rows read, from 0
	val   []float64 // and their values
	class int       // the class of the row last read

	rows    int // the rows read
	cols    int // the largest index read
	dropped int // the values beyond Cols
}

// parser returns the parser of the rows of r, which holds their classes if
// keep is set.
func (f LIBSVM) parser(r io.Reader, keep bool) (*libsvmParser, error) {
	c, err := newClasses(f.Classes)
	if err != nil {
		return nil, err
	}
	l, err := newLines(r, f.MaxLine)
	if err != nil {
		return nil, err
	}
	return &libsvmParser{f: f, l: l, c: c, keep: keep, ind: []int{}, val: []float64{}}, nil
}

// next reads the next row, whose values it adds to ind and val; io.EOF at
// the end.
func (p *libsvmParser) next() error {
	for {
		b, err := p.l.next()
		if err != nil {
			return err
		}
		if i := bytes.IndexByte(b, '#'); i >= 0 {
			b = b[:i]
		}
		if row, err := p.line(b); err != nil || row {
			return err
		}
	}
}

// row reads the next row into row, its values those of the row alone.
func (p *libsvmParser) row(row *Row) error {
	p.ind, p.val = p.ind[:0], p.val[:0]
	dropped := p.dropped
	if err := p.next(); err != nil {
		if err == io.EOF {
			err = cmp.Or(p.end(p.rows), p.c.badNumber(), err)
		}
		return err
	}
	*row = Row{Ind: p.ind, Val: p.val, Class: p.class, Classes: p.c.names, Line: p.l.n, Dropped: p.dropped - dropped}
	return nil
}

// width returns the columns of the rows.
func (p *libsvmParser) width() int {
	if p.f.Cols > 0 {
		return p.f.Cols
	}
	return p.cols
}

// end returns an error if the n rows read are no data set: none, or none
// with a feature.
func (p *libsvmParser) end(n int) error {
	switch {
	case n == 0:
		return errorf(perceptron.ErrShape, "no rows")
	case p.width() == 0:
		return errorf(perceptron.ErrShape, "no features on any line")
	}
	return nil
}

// line reads the line b, without its comment, and reports whether it is a
// row, not a blank line.
func (p *libsvmParser) line(b []byte) (bool, error) {
	i := skipSpace(b, 0)
	if i == len(b) {
		return false, nil
	}
	e := tokenEnd(b, i)
	label := b[i:e]
	if bytes.IndexByte(label, ':') >= 0 {
		return false, errorAt(perceptron.ErrFormat, p.l.n, -1, -1, "line %d: no label: the line starts with %s", p.l.n, quote(string(label)))
	}
	k, err := p.c.index(view(label), p.l.n, 0)
	if err != nil {
		return false, wrapAt(err, p.l.n, -1, -1, "line %d: %w", p.l.n, err)
	}
	prev, fields := 0, 1
	for i = e; ; {
		if i = skipSpace(b, i); i == len(b) {
			break
		}
		fields++
		// The common pair, digits, a colon and a value, ends in white
		// space of ASCII or the end of the line.
		start, j := i, 0
		for ; i < len(b) && b[i]-'0' <= 9; i++ {
			j = j*10 + int(b[i]-'0')
		}
		var v float64
		ok := i > start && i-start <= 15 && i < len(b) && b[i] == ':'
		if ok {
			var kind numKind
			v, i, kind = scan(b, i+1)
			ok = kind == numOK && (i == len(b) || space[b[i]] == 1) && j > prev && int64(j) <= 1<<48
		}
		if !ok {
			// Any other field, or its error.
			i = tokenEnd(b, start)
			if j, v, err = p.pair(b[start:i], fields, prev); err != nil {
				return false, err
			}
			if j == 0 {
				continue // a qid
			}
		}
		prev = j
		p.cols = max(p.cols, j)
		switch {
		case p.f.Cols > 0 && j > p.f.Cols:
			p.dropped++
		case v != 0:
			if len(p.ind) == cap(p.ind) {
				if err := p.grow(); err != nil {
					return false, err
				}
			}
			p.ind = append(p.ind, j-1)
			p.val = append(p.val, v)
		}
	}
	p.class = k
	p.rows++
	if p.keep {
		if err := p.c.push(k); err != nil {
			return false, wrapAt(err, p.l.n, -1, -1, "line %d: %w", p.l.n, err)
		}
	}
	return true, nil
}

// text returns the text whose rows Read holds, for growText, or nil for
// Rows, which holds one row at a time.
func (p *libsvmParser) text() *lines {
	if !p.keep {
		return nil
	}
	return p.l
}

// grow makes room for more values.
func (p *libsvmParser) grow() error {
	var err error
	if p.ind, err = growText(p.ind, 1, p.text()); err == nil {
		p.val, err = growRows(p.val, cap(p.ind), p.text())
	}
	if err != nil {
		return tooLarge(err, "line %d: holding the rows up to it", p.l.n)
	}
	return nil
}

// pair reads a field of a line, the k-th, that is not the common pair of an
// index and a value after the index prev: another pair, a qid if k is 2,
// which it returns as the index 0, or an error.
func (p *libsvmParser) pair(field []byte, k, prev int) (j int, v float64, err error) {
	is, vs, ok := bytes.Cut(field, []byte(":"))
	if !ok {
		return 0, 0, errorAt(perceptron.ErrFormat, p.l.n, -1, -1, "line %d: %s is not index:value", p.l.n, quote(string(field)))
	}
	if string(is) == "qid" && k == 2 {
		if _, err := strconv.ParseUint(string(vs), 10, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, 0, errorAt(perceptron.ErrFormat, p.l.n, -1, -1, "line %d: qid %s is not a whole number", p.l.n, quote(string(vs)))
		}
		return 0, 0, nil
	}
	j, err = strconv.Atoi(string(is))
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, 0, errorAt(perceptron.ErrFormat, p.l.n, -1, -1, "line %d: %s: the index is not a whole number", p.l.n, quote(string(field)))
	case err != nil || int64(j) > 1<<48:
		return 0, 0, errorAt(perceptron.ErrFormat, p.l.n, -1, -1, "line %d: %s: the index is too large", p.l.n, quote(string(field)))
	case j < 1:
		return 0, 0, errorAt(perceptron.ErrFormat, p.l.n, -1, -1, "line %d: %s: want indices from 1", p.l.n, quote(string(field)))
	case j <= prev:
		return 0, 0, errorAt(perceptron.ErrFormat, p.l.n, -1, j-1, "line %d: %s: index %d after %d, want increasing indices", p.l.n, quote(string(field)), j, prev)
	}
	if v, err = number(string(vs)); err != nil {
		return 0, 0, wrapAt(err, p.l.n, -1, j-1, "line %d: index %d: %w", p.l.n, j, err)
	}
	return j, v, nil
}

// skipSpace returns the index of the first byte of b from i on that is not
// white space, as unicode.IsSpace takes it, or len(b).
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch space[b[i]] {
		case 0:
			return i
		case 1:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if !unicode.IsSpace(r) {
				return i
			}
			i += size
		}
	}
	return i
}

// tokenEnd returns the index of the first byte of b from i on that starts
// white space, as unicode.IsSpace takes it, or len(b).
func tokenEnd(b []byte, i int) int {
	for i < len(b) {
		switch space[b[i]] {
		case 0:
			i++
		case 1:
			return i
		default:
			r, size := utf8.DecodeRune(b[i:])
			if unicode.IsSpace(r) {
				return i
			}
			i += size
		}
	}
	return i
}
