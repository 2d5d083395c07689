// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"iter"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

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
func (f CSV) Read(r io.Reader) (_ *Set, err error) {
	p, err := f.parser(r, true)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			unadvise(p.rows)
		}
	}()
	for {
		if err := p.next(); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
	}
	set := &Set{X: mat.NewDense(len(p.rows)/p.nfeat, p.nfeat, fitText(p.rows))}
	if p.lc >= 0 {
		if set.Classes, set.Y, err = p.c.finish(); err != nil {
			return nil, err
		}
	}
	if p.header != nil {
		if set.Features, err = growTo([]string(nil), p.nfeat); err != nil {
			return nil, tooLarge(err, "line %d: holding the names of %d features", p.hline, p.nfeat)
		}
	}
	for j, h := range p.header {
		if j != p.lc {
			set.Features = append(set.Features, strings.TrimSpace(h))
		}
	}
	return set, nil
}

// Rows returns the rows of r, gzipped or not, one at a time, as Read reads
// them, with the errors of Read; the package's documentation says how.
func (f CSV) Rows(r io.Reader) iter.Seq2[Row, error] {
	return rowSeq([]io.Reader{r}, func() (rowReader, error) {
		p, err := f.parser(r, false)
		if err != nil {
			return nil, err
		}
		return p, nil
	})
}

// csvParser reads the records of CSV text, one at a time, into rows.
type csvParser struct {
	f     CSV
	cr    *records
	c     *classes
	keep  bool // whether c holds the class of each row
	comma byte // the delimiter, if it is a byte of ASCII, and otherwise 0

	header  []string // the names of the header's columns, if it has one
	hline   int      // the line of the header
	first   int      // the line of the first record
	nf, lc  int      // the fields of a record, and the label column or -1
	nfeat   int      // the features of a row
	started bool     // whether the first record was read

	rows  []float64 // the rows read
	class int       // the class of the last, or -1
}

// text returns the text whose rows Read holds, for growText, or nil for
// Rows, which holds one row at a time.
func (p *csvParser) text() *lines {
	if !p.keep {
		return nil
	}
	return p.cr.l
}

// parser returns the parser of the records of r, which holds their classes
// if keep is set, having read the header if it has one.
func (f CSV) parser(r io.Reader, keep bool) (*csvParser, error) {
	comma := cmp.Or(f.Comma, ',')
	if comma == '"' || comma == '\r' || comma == '\n' || !utf8.ValidRune(comma) || comma == utf8.RuneError {
		return nil, errorf(perceptron.ErrSetting, "delimiter %s (CSV's Comma): want a character other than a quote or an end of line", strconv.QuoteRune(comma))
	}
	c, err := newClasses(f.Classes)
	if err != nil {
		return nil, err
	}
	l, err := newLines(r, f.MaxLine)
	if err != nil {
		return nil, err
	}
	p := &csvParser{f: f, cr: &records{l: l, comma: string(comma)}, c: c, keep: keep, class: -1}
	if comma < utf8.RuneSelf {
		p.comma = byte(comma)
	}
	cr := p.cr
	if err = cr.next(math.MaxInt); err == io.EOF {
		return nil, errorf(perceptron.ErrShape, "no rows")
	} else if err != nil {
		return nil, err
	}
	if f.Header {
		if p.header, err = cr.all(); err != nil {
			return nil, err
		}
		p.hline = cr.line
		if err = cr.next(math.MaxInt); err == io.EOF {
			return nil, errorf(perceptron.ErrShape, "no rows after the header")
		} else if err != nil {
			return nil, err
		}
		if len(p.header) != cr.n {
			return nil, errorAt(perceptron.ErrFormat, p.hline, -1, -1, "line %d: the header has %d fields, and line %d %d", p.hline, len(p.header), cr.line, cr.n)
		}
	}
	p.nf, p.first = cr.n, cr.line
	if p.lc, err = f.labelColumn(p.header, p.nf); err != nil {
		return nil, wrapAt(err, p.first, -1, -1, "line %d: %w", p.first, err)
	}
	p.nfeat = p.nf
	if p.lc >= 0 {
		p.nfeat--
	}
	if p.nfeat == 0 {
		return nil, errorAt(perceptron.ErrShape, p.first, -1, -1, "line %d: no feature columns", p.first)
	}
	return p, nil
}

// next reads the next record into a row that it adds to rows; io.EOF at
// the end.
func (p *csvParser) next() error {
	if !p.started {
		// The first record, which the parser read to know the fields.
		p.started = true
		return p.record()
	}
	for {
		b, err := p.cr.l.next()
		if err != nil {
			return err
		}
		switch {
		case len(b) == 0:
			continue
		case p.comma != 0 && p.fast(b):
			return nil
		}
		if err := p.cr.set(string(b), p.nf); err != nil {
			return err
		}
		return p.record()
	}
}

// row reads the next row into row, its values those of the row alone.
func (p *csvParser) row(row *Row) error {
	p.rows = p.rows[:0]
	if err := p.next(); err != nil {
		if err == io.EOF && p.lc >= 0 {
			return cmp.Or(p.c.badNumber(), err)
		}
		return err
	}
	*row = Row{Val: p.rows, Class: p.class, Line: p.cr.line}
	if p.lc >= 0 {
		row.Classes = p.c.names
	}
	return nil
}

// fast reads the line b into a row if it is a record of nf fields without
// quotes and its values are numbers of the grammar, as the records of data
// sets are, or reports false, and adds nothing, if it is not: then record
// reads it, or says why not.
func (p *csvParser) fast(b []byte) bool {
	start := len(p.rows)
	if cap(p.rows)-start < p.nfeat {
		var err error
		if p.rows, err = growText(p.rows, p.nfeat, p.text()); err != nil {
			return false
		}
	}
	k, i := -1, 0
	for j := range p.nf {
		if j == p.lc {
			end := len(b)
			if e := bytes.IndexByte(b[i:], p.comma); e >= 0 {
				end = i + e
			}
			label := b[i:end]
			for len(label) > 0 && space[label[0]] == 1 {
				label = label[1:]
			}
			for len(label) > 0 && space[label[len(label)-1]] == 1 {
				label = label[:len(label)-1]
			}
			if len(label) == 0 || label[0] >= utf8.RuneSelf || label[len(label)-1] >= utf8.RuneSelf || bytes.IndexByte(label, '"') >= 0 {
				p.rows = p.rows[:start]
				return false
			}
			var err error
			if k, err = p.c.index(view(label), p.cr.l.n, j+1); err != nil {
				p.rows = p.rows[:start]
				return false
			}
			i = end
		} else {
			for i < len(b) && space[b[i]] == 1 && b[i] != p.comma {
				i++
			}
			// The common value, a whole number of a few digits, by hand;
			// others by scan.
			e, u := i, 0
			for ; e < len(b) && e-i < 15 && b[e]-'0' <= 9; e++ {
				u = u*10 + int(b[e]-'0')
			}
			v := float64(u) // exact, below 2^53
			if e == i || e < len(b) && b[e] != p.comma {
				var kind numKind
				if v, e, kind = scan(b, i); kind != numOK {
					p.rows = p.rows[:start]
					return false
				}
			}
			for i = e; i < len(b) && space[b[i]] == 1 && b[i] != p.comma; i++ {
			}
			p.rows = append(p.rows, v)
		}
		switch {
		case j == p.nf-1 && i == len(b):
		case j < p.nf-1 && i < len(b) && b[i] == p.comma:
			i++
		default:
			p.rows = p.rows[:start]
			return false
		}
	}
	p.cr.line = p.cr.l.n
	p.class = k
	if p.keep && k >= 0 && p.c.push(k) != nil {
		p.rows = p.rows[:start]
		return false
	}
	return true
}

// column returns the column of the rows that field j, from 0, of a record
// gives, which is not the label column.
func (p *csvParser) column(j int) int {
	if p.lc >= 0 && j > p.lc {
		return j - 1
	}
	return j
}

// record reads the record that records last read into a row.
func (p *csvParser) record() error {
	cr := p.cr
	if cr.n != p.nf {
		return errorAt(perceptron.ErrFormat, cr.line, -1, -1, "line %d: %d fields, want %d as on line %d", cr.line, cr.n, p.nf, p.first)
	}
	var err error
	if p.rows, err = growText(p.rows, p.nfeat, p.text()); err != nil {
		return tooLarge(err, "line %d: holding the rows up to it", cr.line)
	}
	start := len(p.rows)
	p.class = -1
	err = cr.each(func(j int, s string) error {
		if j == p.lc {
			if p.class, err = p.c.index(strings.TrimSpace(s), cr.line, j+1); err != nil {
				return wrapAt(err, cr.line, -1, -1, "line %d: field %d: %w", cr.line, j+1, err)
			}
			return nil
		}
		v, err := number(s)
		if err != nil {
			return wrapAt(err, cr.line, -1, p.column(j), "line %d: field %d: %w%s", cr.line, j+1, err, p.hint(j, s))
		}
		p.rows = append(p.rows, v)
		return nil
	})
	if err != nil {
		p.rows = p.rows[:start]
		return err
	}
	if p.keep && p.class >= 0 {
		if err := p.c.push(p.class); err != nil {
			return wrapAt(err, cr.line, -1, -1, "line %d: %w", cr.line, err)
		}
	}
	return nil
}

// hint returns what the error of the field j of the record last read,
// whose text s is no finite number, adds to say what may be wrong, on the
// first record: that the field may hold the labels, if it is no number and
// another field of a feature is one, and otherwise that the line may be a
// header.
func (p *csvParser) hint(j int, s string) string {
	if p.cr.line != p.first {
		return ""
	}
	numbers := false
	if _, kind := parseNumber([]byte(strings.TrimSpace(s))); kind == numSyntax {
		p.cr.each(func(k int, s string) error {
			if _, err := number(s); err == nil && k != p.lc && k != j {
				numbers = true
			}
			return nil
		})
	}
	switch {
	case numbers:
		which := "first"
		if j > 0 {
			which = strconv.Itoa(j + 1)
		}
		return fmt.Sprintf(" (if column %d holds the labels, name it: CSV's Label %s)", j+1, which)
	case !p.f.Header:
		return fmt.Sprintf(" (if line %d is a header, read it as one: CSV's Header)", p.first)
	}
	return ""
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
			return 0, errorf(perceptron.ErrSetting, "label column %d (CSV's Label): the rows have %d fields", k, nf)
		}
		return k - 1, nil
	}
	if header == nil {
		return 0, errorf(perceptron.ErrSetting, "label column %s (CSV's Label): no header names the columns (CSV's Header)", quote(f.Label))
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
	return 0, errorf(perceptron.ErrSetting, "label column %s (CSV's Label): no such column in the header%s", quote(f.Label), hint)
}
