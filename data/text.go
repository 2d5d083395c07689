// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"cmp"
	"io"
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron"
)

// Text reads labelled text, a document a line, as fastText's supervised
// mode reads it, or as a label, a tab and the text, and turns the text of
// each line into a row of hashed word n-grams, as its Hashing says. The
// zero value reads fastText's format into rows of the words of each line.
//
// In fastText's format, a token of a line, a run of characters other than
// white space, that starts with __label__ is a label, named by what
// follows the prefix, wherever it is on the line, and the other tokens
// are the text. The first label of a line is its class; any other is left
// out, neither a class nor text, so that fastText's files of many labels
// a line train a classifier of one class a row. With Tab, the label of a
// line is what comes before its first tab, less the white space around
// it, and the text all that comes after.
//
// A line without a label is a row for a classifier to predict: the lines
// of a file must all have a label, or all have none, and then they read
// into a Set whose Y and Classes are nil. Blank lines are skipped, and a
// line of a label alone is a row of no features.
type Text struct {
	// Hashing turns the text of a line into a row of features.
	Hashing Hashing

	// Tab says that a line is a label, a tab and a text, in place of
	// fastText's format.
	Tab bool

	// Classes, if not nil, are the classes to read the labels by, as in
	// LIBSVM.
	Classes []string

	// MaxLine is the longest line read, in bytes, as in LIBSVM. Zero
	// means 16 MiB.
	MaxLine int
}

// labelPrefix starts a label in fastText's format.
const labelPrefix = "__label__"

// Read reads the lines of r, gzipped or not, into a Set of sparse rows, a
// *perceptron.CSR of 2^Bits columns, and their classes, skipping blank
// lines and a leading byte order mark. The names of the classes are the
// labels without fastText's prefix. It returns an error naming the line
// of the first thing it cannot read: a byte that is not UTF-8, which it
// locates in the line, a label it cannot take, a line without a label
// after a line with one, or with one after a line without; or if r holds
// no row, or Hashing is not one that Transform takes.
//
// It holds the memory that the package's documentation states of a
// reader of sparse rows, and for the words of a line and their n-grams
// arrays of (5.5 + 8·NGrams) bytes a byte of the longest line, grown as
// the rows are; it returns an error of kind perceptron.ErrTooLarge if
// that does not fit.
func (f Text) Read(r io.Reader) (_ *Set, err error) {
	p, err := f.parser(r, true)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			unadvise(p.h.ptr)
			unadvise(p.h.ind)
			unadvise(p.h.val)
		}
	}()
	for {
		if err := p.next(); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
	}
	if p.n == 0 {
		return nil, errorf(perceptron.ErrShape, "no rows")
	}
	var set Set
	if p.labelled {
		if set.Classes, set.Y, err = p.c.finish(); err != nil {
			return nil, err
		}
	}
	h := p.h
	if set.X, err = perceptron.NewCSR(p.n, h.cols(), fitText(h.ptr), fitText(h.ind), fitText(h.val)); err != nil {
		return nil, err
	}
	return &set, nil
}

// Rows returns the rows of the lines of r, gzipped or not, one at a time,
// as Read reads them, with the errors of Read; the package's documentation
// says how.
func (f Text) Rows(r io.Reader) iter.Seq2[Row, error] {
	return rowSeq([]io.Reader{r}, func() (rowReader, error) {
		p, err := f.parser(r, false)
		if err != nil {
			return nil, err
		}
		return p, nil
	})
}

// textParser reads the lines of text into rows, one at a time.
type textParser struct {
	f    Text
	l    *lines
	h    *hasher
	c    *classes
	keep bool // whether c holds the class of each row

	n        int  // the rows read
	first    int  // the line of the first
	labelled bool // whether it has a label
	class    int  // the class of the row last read, or -1
}

// parser returns the parser of the lines of r, which holds their classes if
// keep is set.
func (f Text) parser(r io.Reader, keep bool) (*textParser, error) {
	h, err := newHasher(f.Hashing)
	if err != nil {
		return nil, err
	}
	c, err := newClasses(f.Classes)
	if err != nil {
		return nil, err
	}
	l, err := newLines(r, f.MaxLine)
	if err != nil {
		return nil, err
	}
	if keep {
		h.text = l
	}
	return &textParser{f: f, l: l, h: h, c: c, keep: keep}, nil
}

// next reads the next line that is not blank into a row, which it adds to
// the rows of its hasher; io.EOF at the end.
func (p *textParser) next() error {
	l := p.l
	for {
		b, err := l.next()
		if err != nil {
			return err
		}
		text := view(b)
		if strings.TrimSpace(text) == "" {
			continue
		}
		if !utf8.ValidString(text) {
			return wrapAt(notUTF8(text), l.n, -1, -1, "line %d: %w", l.n, notUTF8(text))
		}
		label, has, err := p.f.line(p.h, text)
		if err == nil {
			err = p.h.row()
		}
		if err != nil {
			return wrapAt(err, l.n, -1, -1, "line %d: %w", l.n, err)
		}
		switch {
		case p.n == 0:
			p.first, p.labelled = l.n, has
		case has && !p.labelled:
			return errorAt(perceptron.ErrFormat, l.n, -1, -1, "line %d: a label, and line %d none: want a label on every line or on none", l.n, p.first)
		case !has && p.labelled:
			return errorAt(perceptron.ErrFormat, l.n, -1, -1, "line %d: no label, and line %d one: want a label on every line or on none", l.n, p.first)
		}
		p.class = -1
		if has {
			if p.class, err = p.c.index(label, l.n, 0); err == nil && p.keep {
				err = p.c.push(p.class)
			}
			if err != nil {
				return wrapAt(err, l.n, -1, -1, "line %d: %w", l.n, err)
			}
		}
		p.n++
		return nil
	}
}

// row reads the next row into row, its values those of the row alone.
func (p *textParser) row(row *Row) error {
	h := p.h
	h.ptr, h.ind, h.val = h.ptr[:1], h.ind[:0], h.val[:0]
	if err := p.next(); err != nil {
		switch {
		case err != io.EOF:
		case p.n == 0:
			err = errorf(perceptron.ErrShape, "no rows")
		case p.labelled:
			err = cmp.Or(p.c.badNumber(), err)
		}
		return err
	}
	*row = Row{Ind: h.ind, Val: h.val, Class: p.class, Line: p.l.n}
	if p.labelled {
		row.Classes = p.c.names
	}
	return nil
}

// line adds the words of the text of a line to h, and returns the label
// of the line, if it has one.
func (f Text) line(h *hasher, s string) (label string, has bool, err error) {
	if f.Tab {
		label, text, has := strings.Cut(s, "\t")
		if !has {
			return "", false, h.add(s, 0)
		}
		return strings.TrimSpace(label), true, h.add(text, len(label)+1)
	}
	at := 0 // where s starts in the line
	for {
		i := labelToken(s)
		if i < 0 {
			return label, has, h.add(s, at)
		}
		if err := h.add(s[:i], at); err != nil {
			return "", false, err
		}
		end := strings.IndexFunc(s[i:], unicode.IsSpace)
		if end < 0 {
			end = len(s)
		} else {
			end += i
		}
		if !has {
			label, has = s[i+len(labelPrefix):end], true
		}
		s, at = s[end:], at+end
	}
}

// labelToken returns where the first token of s that starts with
// fastText's prefix of labels starts, or -1 if none does.
func labelToken(s string) int {
	from := 0
	for {
		i := strings.Index(s[from:], labelPrefix)
		if i < 0 {
			return -1
		}
		i += from
		if r, _ := utf8.DecodeLastRuneInString(s[:i]); i == 0 || unicode.IsSpace(r) {
			return i
		}
		from = i + 1
	}
}

// Hashing turns texts into rows of features by the hashing trick: each
// word n-gram of a text, from words alone up to NGrams words in a row,
// counts in a column given by its hash, one of 2^Bits. The same Hashing
// turns the texts of training and of prediction into the same columns,
// on every platform, and saves with encoding/json in a stable form, whose
// zero values mean what their fields say, now and in later versions:
//
//	{"ngrams":2,"bits":20,"seed":0,"signed":false,"values":"count","noNorm":false}
//
// A word is a run of letters, combining marks and decimal digits, of any
// script, as Unicode classes them, lower-cased rune by rune by Unicode's
// simple mapping (unicode.ToLower); every other character separates words,
// white space, punctuation, apostrophes, hyphens and underscores
// included, so that "Don't re-use X_1, 3.14!" is the words don, t, re,
// use, x, 1, 3 and 14. A combining mark stays in its word, where
// scikit-learn's \w+ drops it; but text is not normalised to a Unicode
// form, so that é composed (U+00E9) and decomposed (e and U+0301) make two
// words, as they do in fastText: normalise text to NFC first where both
// occur. Scripts that do not separate their words, such as Chinese and
// Thai, give a word a run of letters.
//
// An n-gram is its words joined by single spaces, "new york", and its
// hash is MurmurHash3_x86_32 of its UTF-8 bytes with the seed Seed, read
// as a signed 32-bit h: its column is |h| modulo 2^Bits, and with Signed
// its sign is that of h, as scikit-learn's HashingVectorizer takes them,
// which gives the same columns and signs with Seed 0 and n_features
// 2^Bits. Each n-gram of a text adds its sign, +1 unless Signed, to its
// column; Values says what a column then holds, and unless NoNorm each row
// is divided by its Euclidean norm.
type Hashing struct {
	// NGrams is the longest n-gram, in words. Zero means 1, the words
	// alone; 2 adds the pairs of adjacent words.
	NGrams int `json:"ngrams"`

	// Bits is the base-2 logarithm of the number of columns, from 1 to
	// 30. Zero means 20, 1,048,576 columns.
	Bits int `json:"bits"`

	// Seed is the seed of the hash; scikit-learn's is 0.
	Seed uint32 `json:"seed"`

	// Signed gives half the n-grams, by their hash, the sign -1, as
	// scikit-learn's alternate_sign does, so that n-grams that collide in
	// a column cancel on average, and the dot product of two rows, which
	// a kernel takes, is that of their n-grams on average. A linear
	// classifier learns a weight a column either way, which it shares
	// among the n-grams of the column, whatever their signs; the sign
	// then only makes two n-grams of a row that collide cancel, which is
	// why it is not the default, as it is not fastText's and Vowpal
	// Wabbit's.
	Signed bool `json:"signed"`

	// Values says what a column of a row holds, from the sum of the signs
	// of its n-grams: "count" or "", the sum, the number of times its
	// n-grams are in the text unless Signed; "binary", the sign of the
	// sum, 1 where an n-gram of the column is in the text unless Signed;
	// or "tf", the term frequency, the sum divided by the number of
	// n-grams of the text. A sum of zero leaves the column out.
	Values string `json:"values"`

	// NoNorm leaves the rows as Values gives them, not divided by their
	// norm, so that a long text weighs more than a short one.
	NoNorm bool `json:"noNorm"`
}

// defaultBits and maxBits are the default and the largest of Hashing's
// Bits: 2^30 columns are an int on every platform.
const (
	defaultBits = 20
	maxBits     = 30
)

// Transform returns the rows of the texts, a *perceptron.CSR of a row a
// text and 2^Bits columns. It returns an error if h is not a Hashing that
// Transform takes, of NGrams and Bits in range and a Values it knows, or
// naming the text and the first byte in it that is not UTF-8. Calls may
// run concurrently.
//
// Transform holds the rows it returns, growing as a reader does, at most
// 2.25 times them, and the words and n-grams of a text as Read does; it
// returns an error of kind perceptron.ErrTooLarge if that does not fit.
func (h Hashing) Transform(texts []string) (*perceptron.CSR, error) {
	hs, err := newHasher(h)
	if err != nil {
		return nil, wrapf(err, "data: %w", err)
	}
	for i, s := range texts {
		if err = hs.add(s, 0); err == nil {
			err = hs.row()
		}
		if err != nil {
			return nil, wrapAt(err, 0, i, -1, "data: texts[%d]: %w", i, err)
		}
	}
	return perceptron.NewCSR(len(texts), hs.cols(), hs.ptr, hs.ind, hs.val)
}
