// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"io"
	"strings"

	"github.com/seed5ae3614e/perceptron"
)

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
	var b []byte
	for len(b) == 0 {
		var err error
		if b, err = r.l.next(); err != nil {
			return err
		}
	}
	return r.set(string(b), keep)
}

// set reads the record that starts with the line text, the line last
// read, as next does.
func (r *records) set(text string, keep int) error {
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
				return errorAt(perceptron.ErrFormat, line, -1, -1, "line %d: field %d: a quote in a field that does not start with one (quote the field, and write the quote twice)", line, r.n+1)
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
				b, err := r.l.next()
				next := string(b)
				switch {
				case err == io.EOF:
					return errorAt(perceptron.ErrFormat, r.line, -1, -1, "line %d: field %d: the quote that opens the field is not closed before the end of the text", r.line, r.n+1)
				case err != nil:
					return err
				}
				if size += end + len(next); size > r.l.max {
					return errorAt(perceptron.ErrFormat, r.l.n, -1, -1, "line %d: longer than %d bytes with the lines from line %d that a quoted field joins to it", r.l.n, r.l.max, r.line)
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
				return errorAt(perceptron.ErrFormat, line, -1, -1, "line %d: field %d: a quote in a quoted field that is not written twice, nor followed by the delimiter or the end of the line", line, r.n+1)
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
