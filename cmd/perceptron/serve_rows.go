// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
)

// The rows of a request are read from its body, held whole, by the
// readers of package data that read a file of the model's format, or from
// JSON; with labels, for /learn, their classes are those of the model.

// formatOfBody returns the format of the body of r: format, the query's,
// or else the Content-Type's, or else the model's own, as sniff tells it
// from the first line. A format the model does not take is an error of
// status 400, and one that the server does not know of status 415.
func (s *server) formatOfBody(r *http.Request, format string, body []byte) (string, error) {
	if format == "" {
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		switch mt {
		case "application/json":
			format = "json"
		case "text/csv":
			format = "csv"
		case "", "text/plain", "application/x-www-form-urlencoded", "application/octet-stream":
		default:
			return "", &httpError{http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Type %s: want application/json, text/csv or text/plain, or ?format=text, libsvm, csv or json", quote(mt))}
		}
	}
	switch {
	case format == "json":
		return format, nil
	case format == "" && s.text:
		return "text", nil
	case format == "":
		f, err := sniff(bufio.NewReaderSize(bytes.NewReader(body), max(len(body), 16)), "the body", ',')
		if err != nil {
			return "", &httpError{http.StatusBadRequest, "cannot tell the format of the body from its first line: send ?format=libsvm, csv or json, or a Content-Type"}
		}
		format = f
	}
	switch {
	case format != "text" && format != "libsvm" && format != "csv":
		return "", &httpError{http.StatusUnsupportedMediaType, fmt.Sprintf("format=%s: want text, libsvm, csv or json", quote(format))}
	case s.text && format != "text":
		return "", &httpError{http.StatusBadRequest, fmt.Sprintf("format=%s: the model was trained on text, and reads its rows as text", format)}
	case !s.text && format == "text":
		return "", &httpError{http.StatusBadRequest, "format=text: the model was not trained on text: it takes rows of features"}
	}
	return format, nil
}

// readRows returns the rows of the body of r, of the query's format, with
// their labels if labelled, which must then be classes of the model: the
// rows of one Learn. It returns an error of status 400 naming what is wrong with
// them, or 413 if they are more than -max-rows.
func (s *server) readRows(body []byte, r *http.Request, format string, labelled bool) (*data.Set, error) {
	// Text that is UTF-8 is not gzip, whose second byte is not, and which
	// the readers would inflate beyond -max-body.
	if !utf8.Valid(body) {
		i := 0
		for i < len(body) {
			c, size := utf8.DecodeRune(body[i:])
			if c == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return nil, &httpError{http.StatusBadRequest, fmt.Sprintf("the body is not UTF-8: line %d, byte %d", bytes.Count(body[:i], []byte("\n"))+1, i+1)}
	}
	format, err := s.formatOfBody(r, format, body)
	if err != nil {
		return nil, err
	}
	var set *data.Set
	if format == "json" {
		set, err = s.jsonRows(body, labelled)
	} else {
		set, err = s.lineRows(body, format, labelled)
	}
	if err != nil {
		return nil, err
	}
	if !labelled {
		set.Y, set.Classes = nil, nil
		return set, nil
	}
	if set.Y == nil {
		return nil, &httpError{http.StatusBadRequest, "the rows have no labels to learn"}
	}
	// Labels that the reader took for new classes may name the model's.
	for i, y := range set.Y {
		if int(y) < len(s.classes) {
			continue
		}
		k, err := s.classOf(set.Classes[int(y)])
		if err != nil {
			return nil, &httpError{http.StatusBadRequest, fmt.Sprintf("row %d: %v", i+1, err)}
		}
		set.Y[i] = float64(k)
	}
	set.Classes = s.classes
	return set, nil
}

// lineRows reads the rows of body, lines of the format, as predict reads
// a file of it, with the label column of the model's CSV rows if labelled
// and none otherwise.
func (s *server) lineRows(body []byte, format string, labelled bool) (*data.Set, error) {
	if lines := bytes.Count(body, []byte("\n")) + 1; lines > s.limits.maxRows {
		n := 0
		for line := range bytes.Lines(body) {
			if len(bytes.TrimSpace(line)) > 0 {
				n++
			}
		}
		if n > s.limits.maxRows {
			return nil, s.tooManyRows(n)
		}
	}
	// The labels of rows to predict are read, as a file's are, but not
	// by the model's classes, which would cost more than the rows.
	var known []string
	if labelled {
		known = s.classes
	}
	var set *data.Set
	var err error
	switch format {
	case "text":
		h := *s.hashing
		in := input{spec: readSpec{hashing: &h}, known: known}
		set, err = in.text(textOf(body[:min(len(body), 64<<10)])).Read(bytes.NewReader(body))
	case "libsvm":
		set, err = data.LIBSVM{Cols: s.width, Classes: known}.Read(bytes.NewReader(body))
		if err == nil && set.Dropped > 0 {
			err = fmt.Errorf("%s at feature indices beyond the model's %d", plural(set.Dropped, "value"), s.width)
		}
	case "csv":
		label := "none"
		if labelled {
			label = s.label
		}
		set, err = data.CSV{Label: label, Classes: known}.Read(bytes.NewReader(body))
		if err == nil {
			if _, d := set.X.Dims(); d != s.width {
				err = fmt.Errorf("rows of %s, want %d as the model has", plural(d, "feature"), s.width)
			}
		}
	}
	if err != nil {
		return nil, badRequest(csvFlags(err))
	}
	return set, nil
}

// tooManyRows is the error of a body of n rows, more than -max-rows.
func (s *server) tooManyRows(n int) error {
	return &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("%d rows, more than the %d of -max-rows", n, s.limits.maxRows)}
}

// jsonBody is the JSON of a body: {"rows": [ROW, ...]}.
type jsonBody struct {
	Rows []json.RawMessage `json:"rows"`
}

// jsonRow is a ROW of JSON that is an object.
type jsonRow struct {
	Label   json.RawMessage  `json:"label"`
	Text    *string          `json:"text"`
	Values  jsonscan.Numbers `json:"values"`
	Indices []int            `json:"indices"`
}

// jsonRows reads the rows of the JSON body, as the package's strict
// decoding reads JSON: unknown and repeated members are refused.
func (s *server) jsonRows(body []byte, labelled bool) (*data.Set, error) {
	var jb jsonBody
	if err := jsonscan.Decode(body, &jb); err != nil {
		return nil, &httpError{http.StatusBadRequest, "the body is not JSON of rows, {\"rows\": [...]}: " + jsonError(err)}
	}
	switch {
	case jb.Rows == nil:
		return nil, &httpError{http.StatusBadRequest, "the body has no rows: want {\"rows\": [ROW, ...]}"}
	case len(jb.Rows) == 0:
		return nil, &httpError{http.StatusBadRequest, "no rows"}
	case len(jb.Rows) > s.limits.maxRows:
		return nil, s.tooManyRows(len(jb.Rows))
	}
	n := len(jb.Rows)
	var texts []string
	var labels []string
	dense := true
	rows := make([]jsonRow, n)
	for i, raw := range jb.Rows {
		row := &rows[i]
		var err error
		switch raw[0] {
		case '"':
			row.Text = new(string)
			err = json.Unmarshal(raw, row.Text)
		case '[':
			err = jsonscan.DecodeValid(raw, &row.Values)
		case '{':
			err = jsonscan.DecodeValid(raw, row)
		default:
			err = fmt.Errorf("want a text, an array of numbers or an object")
		}
		if err == nil {
			err = s.checkRow(row, labelled)
		}
		if err != nil {
			return nil, &httpError{http.StatusBadRequest, fmt.Sprintf("row %d: %s", i+1, jsonError(err))}
		}
		if row.Text != nil {
			texts = append(texts, *row.Text)
		}
		dense = dense && row.Indices == nil
		if labelled {
			l, _ := labelText(row.Label)
			labels = append(labels, l)
		}
	}
	set := &data.Set{}
	var err error
	switch {
	case s.text:
		set.X, err = s.hashing.Transform(texts)
	case dense:
		X := mat.NewDense(n, s.width, nil)
		for i, row := range rows {
			copy(X.RawRowView(i), row.Values)
		}
		set.X = X
	default:
		set.X, err = sparseRows(rows, s.width)
	}
	if err != nil {
		return nil, badRequest(err)
	}
	if labelled {
		set.Y = make([]float64, n)
		for i, l := range labels {
			k, err := s.classOf(l)
			if err != nil {
				return nil, &httpError{http.StatusBadRequest, fmt.Sprintf("row %d: %v", i+1, err)}
			}
			set.Y[i] = float64(k)
		}
		set.Classes = s.classes
	}
	return set, nil
}

// checkRow returns an error if the JSON row is not one of the model: a
// text for a model of text, the values of its features otherwise, each
// with a label if labelled.
func (s *server) checkRow(row *jsonRow, labelled bool) error {
	switch {
	case s.text && row.Text == nil:
		return fmt.Errorf("no text: the model was trained on text, and takes a text, or an object of a \"text\"")
	case s.text && (row.Values != nil || row.Indices != nil):
		return fmt.Errorf("values: the model was trained on text, and takes a text")
	case !s.text && row.Text != nil:
		return fmt.Errorf("a text: the model was not trained on text: it takes the values of its %d features", s.width)
	case !s.text && row.Values == nil:
		return fmt.Errorf("no values: the model takes the values of its %d features", s.width)
	case row.Indices == nil && row.Values != nil && len(row.Values) != s.width:
		return fmt.Errorf("%s, want %d as the model has", plural(len(row.Values), "value"), s.width)
	case row.Indices != nil && len(row.Indices) != len(row.Values):
		return fmt.Errorf("%d indices and %s, want as many", len(row.Indices), plural(len(row.Values), "value"))
	}
	for k, j := range row.Indices {
		switch {
		case j < 1 || j > s.width:
			return fmt.Errorf("index %d, want 1 to %d, the model's features", j, s.width)
		case k > 0 && j <= row.Indices[k-1]:
			return fmt.Errorf("index %d after %d: want increasing indices", j, row.Indices[k-1])
		}
	}
	if !labelled {
		return nil
	}
	if row.Label == nil {
		return fmt.Errorf("no label to learn: want an object of a \"label\"")
	}
	_, err := labelText(row.Label)
	return err
}

// labelText returns the text of a JSON label: a string, or a number as
// it is written.
func labelText(raw json.RawMessage) (string, error) {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	if _, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return string(raw), nil
	}
	return "", fmt.Errorf("label: %.40s, want a string or a number", raw)
}

// sparseRows returns the rows as a CSR of width columns.
func sparseRows(rows []jsonRow, width int) (*perceptron.CSR, error) {
	ptr := make([]int, 1, len(rows)+1)
	var ind []int
	var val []float64
	for _, row := range rows {
		for k, v := range row.Values {
			if v == 0 {
				continue
			}
			j := k
			if row.Indices != nil {
				j = row.Indices[k] - 1
			}
			ind = append(ind, j)
			val = append(val, v)
		}
		ptr = append(ptr, len(ind))
	}
	return perceptron.NewCSR(len(rows), width, ptr, ind, val)
}

// jsonError returns the message of an error of JSON decoding, without
// encoding/json's name for the Go value it decodes into.
func jsonError(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	msg := fmt.Sprintf("a JSON %s, want %s", te.Value, jsonKind(te.Type.String()))
	if te.Field != "" {
		msg = te.Field + ": " + msg
	}
	// The members that lead to the value, as the strict decoding names
	// them before encoding/json's error.
	return strings.TrimSuffix(err.Error(), te.Error()) + msg
}

// jsonKind names the JSON that the Go type t decodes.
func jsonKind(t string) string {
	switch t {
	case "main.jsonBody", "main.jsonRow":
		return "an object"
	case "float64":
		return "a number"
	case "int":
		return "a whole number"
	case "string":
		return "a string"
	}
	return "an array"
}

// classOf returns the class of the model that the label is: one of its
// labels, by its text or, for a number, by its value, or one of its names.
// It returns an error if the label is none of them.
func (s *server) classOf(label string) (int, error) {
	if k := slices.Index(s.classes, label); k >= 0 {
		return k, nil
	}
	if k := slices.Index(s.names, label); k >= 0 {
		return k, nil
	}
	v, err := strconv.ParseFloat(label, 64)
	if err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
		for k, c := range s.classes {
			if w, err := strconv.ParseFloat(c, 64); err == nil && w == v {
				return k, nil
			}
		}
	}
	if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
		return 0, fmt.Errorf("the label %s is not a finite number, and no class of the model", quote(label))
	}
	return 0, fmt.Errorf("the label %s is no class of the model, whose classes are %s", quote(label), quoteAll(s.names, 20))
}
