// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// JSON reads rows from JSON, as a service takes them in the body of a
// request: an object {"rows": [ROW, ...]}, each ROW one of
//
//   - an array of the Cols values of a dense row: [0.5, 0, 2];
//   - an object of them, {"values": [0.5, 0, 2]}, or of the values of a
//     sparse row and their columns, from 1 and increasing:
//     {"indices": [1, 3], "values": [0.5, 2]};
//   - with a Hashing, a text, "the words of a row", or an object of it,
//     {"text": "the words of a row"}.
//
// An object may have a "label", a string or a number as written, which
// names the class of its row; the labels, on every row or on none, make the
// classes as the other readers make them, the known Classes first. Members
// are matched by their exact names, and one that a ROW or the body does not
// have, or one given twice, is an error. The rows are a *mat.Dense if
// every ROW gives all Cols values (with indices, they are then 1 to Cols),
// and a *perceptron.CSR otherwise, as texts are always.
type JSON struct {
	// Cols is the number of features of rows of numbers: a dense row
	// has Cols values, and a sparse row's indices are at most Cols.
	Cols int

	// Hashing, if not nil, makes the rows texts, which it turns into
	// rows of its columns, and refuses rows of numbers.
	Hashing *Hashing

	// Classes are the known classes, as the other readers take them.
	Classes []string
}

// jsonRow is a ROW of JSON that is an object.
type jsonRow struct {
	Label   jsonscan.Raw `json:"label"`
	Text    *string      `json:"text"`
	Values  jsonscan.Raw `json:"values"`
	Indices jsonscan.Raw `json:"indices"`

	array bool // whether the ROW is an array of values, not an object
}

// jsonBody is the JSON of rows: {"rows": [ROW, ...]}, whose array of rows
// Read walks where it stands.
type jsonBody struct {
	Rows jsonscan.Raw `json:"rows"`
}

// Read returns the rows of the JSON of r, with their classes if they are
// labelled. Its errors are *perceptron.Error values whose Row is the row
// at fault, if one is: of kind perceptron.ErrFormat for text that is not
// UTF-8 or JSON that is not of rows, labels on some rows only among them,
// as in Text; perceptron.ErrShape for a row of the wrong width and for no
// rows; perceptron.ErrNonFinite for a number, or a label of numbers, beyond
// the range of float64; perceptron.ErrSetting for Cols < 1 without a
// Hashing, an invalid Hashing or known Classes given twice; and
// perceptron.ErrTooLarge for rows that do not fit in the memory left. An
// error of r is returned as it is.
//
// Read holds the text of r and, as it reads the rows, their values and the
// indices of sparse rows in two arrays of at most 4 bytes for each byte of
// the text, as a number takes at least two; 8 bytes for each row, which
// takes at least 3; and the labels as the other readers hold them. The
// rows it returns are those values, if dense, or else 16 bytes for each
// value not zero and 8 for each row: in all at most 32 bytes for each byte
// of the text, which it checks before it allocates, as the package's
// documentation says. Texts take 16 bytes each and their own text, and
// Hashing.Transform holds what it says besides.
func (f JSON) Read(r io.Reader) (*Set, error) {
	if f.Hashing == nil && f.Cols < 1 {
		return nil, errorf(perceptron.ErrSetting, "the JSON's Cols is %d, want at least 1 for rows of numbers", f.Cols)
	}
	if f.Hashing != nil {
		if _, err := newHasher(*f.Hashing); err != nil {
			return nil, err
		}
	}
	if r == nil {
		return nil, errorf(perceptron.ErrSetting, "a nil io.Reader")
	}
	text, err := readAll(r)
	if err != nil {
		return nil, err
	}
	text = bytes.TrimPrefix(text, []byte("\ufeff"))
	if !utf8.Valid(text) {
		return nil, notUTF8(string(text))
	}
	// The syntax first: the rows are walked where they stand, as valid.
	var body jsonBody
	err = jsonscan.Syntax(text)
	if err == nil {
		err = jsonscan.DecodeValid(text, &body)
	}
	if err != nil {
		return nil, jsonError(err, -1, `not JSON of rows, {"rows": [...]}: `)
	}
	switch n := jsonscan.Length(body.Rows); {
	case body.Rows == nil:
		return nil, errorf(perceptron.ErrFormat, `no member rows: want {"rows": [ROW, ...]}`)
	case body.Rows[0] != '[':
		return nil, errorf(perceptron.ErrFormat, "rows: a JSON %s, want an array", jsonValue(body.Rows[0]))
	case n == 0:
		return nil, errorf(perceptron.ErrShape, "no rows")
	default:
		return f.rows(body.Rows, n)
	}
}

// rows returns the Set of the n rows of the JSON array text, valid JSON.
func (f JSON) rows(text []byte, n int) (*Set, error) {
	c, err := newClasses(f.Classes)
	if err != nil {
		return nil, err
	}
	c.rows = true
	// The values of the rows in one array, the indices of the sparse rows
	// in another, and where each row's values end. Each array of numbers
	// holds one more than its commas, and a number takes at least two
	// bytes: most bounds the values and the indices, and a row holds at
	// most Cols values.
	most := min(len(text)/2, bytes.Count(text, []byte(","))+n)
	values := most
	if float64(n)*float64(f.Cols) < float64(most) {
		values = n * f.Cols
	}
	need := 8*float64(n) + 8*float64(values)
	if f.Hashing != nil {
		need = 16 * float64(n)
	}
	if err := checkMemory(need, "holding %d rows of at most %d values", n, values); err != nil {
		return nil, err
	}
	var vals []float64
	var idx []int
	var ends []int
	var texts []string
	if f.Hashing != nil {
		texts = make([]string, 0, n)
	} else {
		vals, ends = make([]float64, 0, values), make([]int, 0, n)
	}
	labelled, sparse := false, false
	s := jsonscan.Scanner{Text: text}
	var row jsonRow
	for i := 0; s.Next(); i++ {
		// Each row is read where it stands, and its length found as it is
		// read: that of an array of values as appendRow reads them.
		row = jsonRow{}
		length, err := f.decodeRow(text[s.I:], &row, i)
		if err != nil {
			return nil, err
		}
		s.I += length
		switch {
		case i == 0:
			labelled = row.Label != nil
		case labelled && row.Label == nil:
			return nil, errorAt(perceptron.ErrFormat, 0, i, -1, "row %d: no label, and row 1 one: want a label on every row or on none", i+1)
		case !labelled && row.Label != nil:
			return nil, errorAt(perceptron.ErrFormat, 0, i, -1, "row %d: a label, and row 1 none: want a label on every row or on none", i+1)
		}
		if labelled {
			k, err := c.index(labelText(row.Label), i+1, 0)
			if err == nil {
				err = c.push(k)
			}
			if err != nil {
				return nil, wrapAt(err, 0, i, -1, "row %d: %w", i+1, err)
			}
		}
		if row.Text != nil {
			texts = append(texts, *row.Text)
			continue
		}
		if row.Indices != nil && idx == nil {
			if err := checkMemory(8*float64(most), "row %d: holding the indices of the rows", i+1); err != nil {
				return nil, err
			}
			idx = make([]int, 0, most)
		}
		start := len(vals)
		if vals, idx, length, err = f.appendRow(vals, idx, &row, i); err != nil {
			return nil, err
		}
		if row.array {
			s.I += length
		}
		sparse = sparse || len(vals)-start < f.Cols
		ends = append(ends, len(vals))
	}
	set := &Set{}
	if labelled {
		if set.Classes, set.Y, err = c.finish(); err != nil {
			return nil, err
		}
	}
	switch {
	case f.Hashing != nil:
		set.X, err = f.Hashing.Transform(texts)
	case !sparse:
		set.X = mat.NewDense(n, f.Cols, vals[:n*f.Cols:n*f.Cols])
	default:
		set.X, err = sparseRows(vals, idx, ends, f.Cols)
	}
	if err != nil {
		return nil, err
	}
	return set, nil
}

// jsonValue names the JSON value that starts with the byte b, as
// encoding/json's errors name it.
func jsonValue(b byte) string {
	switch b {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// decodeRow decodes ROW i, at the start of text, valid JSON, into row,
// leaving its values and indices where they stand, and returns the length
// of its text, or 0 for an array of values, which appendRow reads to its
// end; it returns an error if it is not a ROW that f takes.
func (f JSON) decodeRow(text []byte, row *jsonRow, i int) (int, error) {
	bad := func(format string, args ...any) error {
		return errorAt(perceptron.ErrFormat, 0, i, -1, "row %d: "+format, append([]any{i + 1}, args...)...)
	}
	var length int
	var err error
	switch text[0] {
	case '"':
		row.Text = new(string)
		length, err = jsonscan.DecodePrefix(text, row.Text)
	case '[':
		row.Values, row.array = text, true
	case '{':
		length, err = jsonscan.DecodePrefix(text, row)
	default:
		return 0, bad("want a text, an array of numbers or an object")
	}
	if err != nil {
		return 0, jsonError(err, i, "row %d: ", i+1)
	}
	for _, m := range []struct {
		name string
		raw  *jsonscan.Raw
	}{{"values", &row.Values}, {"indices", &row.Indices}} {
		switch {
		case string(*m.raw) == "null":
			*m.raw = nil // as if it were not there, as encoding/json takes it
		case *m.raw != nil && (*m.raw)[0] != '[':
			return 0, bad("%s: a JSON %s, want an array", m.name, jsonValue((*m.raw)[0]))
		}
	}
	if b := row.Label; b != nil && b[0] != '"' && b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		return 0, bad("label: a JSON %s, want a string or a number", jsonValue(b[0]))
	}
	switch text := f.Hashing != nil; {
	case text && row.Text == nil:
		return 0, bad(`no text: the rows are texts, each a string or an object of a "text"`)
	case text && (row.Values != nil || row.Indices != nil):
		return 0, bad("values: the rows are texts")
	case !text && row.Text != nil:
		return 0, bad("a text: the rows are the values of %d features", f.Cols)
	case !text && row.Values == nil:
		return 0, bad("no values: the rows are the values of %d features", f.Cols)
	}
	return length, nil
}

// appendRow appends the values of row i, of numbers, to vals, and its
// indices, if it has them and fewer than f.Cols, to idx, which have room
// for them, and returns the length of the text of its values. It returns
// an error if they are not numbers, or not the values of a row of f.Cols
// features, or the indices of such a row.
func (f JSON) appendRow(vals []float64, idx []int, row *jsonRow, i int) ([]float64, []int, int, error) {
	bad := func(kind error, format string, args ...any) ([]float64, []int, int, error) {
		return nil, nil, 0, errorAt(kind, 0, i, -1, "row %d: "+format, append([]any{i + 1}, args...)...)
	}
	// What names the values in messages: nothing for a row that is an
	// array of them.
	in := "values: "
	if row.array {
		in = ""
	}
	// A row holds at most Cols values, as vals has room for: those beyond
	// are counted for the error, not held.
	values, ni := 0, len(idx)
	at := 1 // past the array's [
	for {
		v, kind, tok, next, ok := element(row.Values, at)
		at = next
		switch {
		case !ok:
		case kind == numNonFinite:
			return bad(perceptron.ErrNonFinite, "%s%s is not a finite number", in, tok)
		case kind != numOK:
			return bad(perceptron.ErrFormat, "%sa JSON %s, want a number", in, jsonValue(tok[0]))
		default:
			if values++; values <= f.Cols {
				vals = append(vals, v)
			}
			continue
		}
		break
	}
	for at := 1; len(row.Indices) > 0; {
		_, kind, tok, next, ok := element(row.Indices, at)
		if !ok {
			break
		}
		at = next
		j, whole := parseIndex(tok)
		switch {
		case kind == numSyntax:
			return bad(perceptron.ErrFormat, "indices: a JSON %s, want a whole number", jsonValue(tok[0]))
		case !whole:
			return bad(perceptron.ErrFormat, "indices: a JSON number %.40s, want a whole number", tok)
		case j < 1 || j > f.Cols:
			return bad(perceptron.ErrShape, "index %.40s, want 1 to %d", tok, f.Cols)
		case len(idx) > ni && j <= idx[len(idx)-1]:
			return bad(perceptron.ErrFormat, "index %d after %d: want increasing indices", j, idx[len(idx)-1])
		}
		idx = append(idx, j)
	}
	switch indices := len(idx) - ni; {
	case row.Indices == nil && values != f.Cols:
		return bad(perceptron.ErrShape, "%d values, want %d", values, f.Cols)
	case row.Indices != nil && indices != values:
		return bad(perceptron.ErrShape, "%d indices and %d values, want as many", indices, values)
	case values == f.Cols:
		// A row of every index is dense.
		idx = idx[:ni]
	}
	return vals, idx, at, nil
}

// element reads the element of the JSON array t, valid JSON, that follows
// offset at, past white space and a comma: its value and kind as scan
// parses it, its text, and the offset after it; or ok false and the offset
// after the array if no element follows. An element that is no number is
// of kind numSyntax, its text its first byte, all that an error names.
func element(t []byte, at int) (v float64, kind numKind, tok []byte, next int, ok bool) {
	if at = jsonscan.Space(t, at); t[at] == ',' {
		at = jsonscan.Space(t, at+1)
	}
	if t[at] == ']' {
		return 0, numSyntax, nil, at + 1, false
	}
	v, end, kind := scan(t, at)
	// In valid JSON a number ends at white space, a comma or the ].
	if kind == numSyntax || jsonscan.Space(t, end) == end && t[end] != ',' && t[end] != ']' {
		return 0, numSyntax, t[at : at+1], at, true
	}
	return v, kind, t[at:end], end, true
}

// parseIndex returns the whole number of the JSON number tok, or
// math.MaxInt if it has more than 9 digits, beyond any column of a row,
// and whether it is a whole number.
func parseIndex(tok []byte) (int, bool) {
	sign := 1
	if tok[0] == '-' {
		sign, tok = -1, tok[1:]
	}
	j := 0
	for k, b := range tok {
		if b < '0' || b > '9' {
			return 0, false
		}
		if k == 9 {
			j = math.MaxInt
		} else if k < 9 {
			j = 10*j + int(b-'0')
		}
	}
	return sign * j, true
}

// jsonError returns err, of decoding the JSON of rows or of row i, or -1
// for the body, as an error whose message starts with what format and args
// say: of kind perceptron.ErrTooLarge if the memory left refused it, and
// perceptron.ErrFormat otherwise.
func jsonError(err error, i int, format string, args ...any) error {
	var te *json.UnmarshalTypeError
	switch {
	case memory.Refused(err):
		return tooLarge(err, "%s", strings.TrimSpace(fmt.Sprintf(format, args...)))
	case errors.As(err, &te):
		// encoding/json's message names the Go type: JSON's is plainer.
		msg := fmt.Sprintf("a JSON %s, want %s", te.Value, jsonKind(te.Type.String()))
		if te.Field != "" {
			msg = te.Field + ": " + msg
		}
		msg = strings.TrimSuffix(err.Error(), te.Error()) + msg
		return errorAt(perceptron.ErrFormat, 0, i, -1, format+"%s", append(args, msg)...)
	}
	return errorAt(perceptron.ErrFormat, 0, i, -1, format+"%s", append(args, shortError(err))...)
}

// jsonKind names the JSON that decodes into the Go type t.
func jsonKind(t string) string {
	switch t {
	case "data.jsonBody":
		return "an object"
	case "string":
		return "a string"
	}
	return "an array"
}

// labelText returns the text of a JSON label, a string or a number as
// it is written.
func labelText(raw []byte) string {
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s) // valid JSON of a string
		return s
	}
	return string(raw)
}

// sparseRows returns the rows of the values vals, and the indices idx of
// those of sparse rows, as a CSR of cols columns without their zeros: the
// values of row i end at ends[i], and a row of fewer than cols values is
// sparse, its indices the next in idx.
func sparseRows(vals []float64, idx, ends []int, cols int) (*perceptron.CSR, error) {
	nnz := 0
	for _, v := range vals {
		if v != 0 {
			nnz++
		}
	}
	n := len(ends)
	if err := checkMemory(16*float64(nnz)+8*float64(n+1), "holding %d rows of %d values", n, nnz); err != nil {
		return nil, err
	}
	ptr := make([]int, 1, n+1)
	ind := make([]int, 0, nnz)
	val := make([]float64, 0, nnz)
	start := 0
	for _, end := range ends {
		row := vals[start:end]
		sparse := len(row) < cols
		for k, v := range row {
			switch {
			case v == 0:
			case sparse:
				ind, val = append(ind, idx[k]-1), append(val, v)
			default:
				ind, val = append(ind, k), append(val, v)
			}
		}
		if sparse {
			idx = idx[len(row):]
		}
		ptr = append(ptr, len(ind))
		start = end
	}
	return perceptron.NewCSR(n, cols, ptr, ind, val)
}
