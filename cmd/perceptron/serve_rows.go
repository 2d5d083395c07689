// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
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
		return nil, rowsError(csvFlags(err))
	}
	return set, nil
}

// rowsError is the error of a reader of a body's rows: 503 for rows that
// do not fit in the memory left, as readBody answers, and 400 otherwise.
func rowsError(err error) error {
	if errors.Is(err, perceptron.ErrTooLarge) {
		return &httpError{http.StatusServiceUnavailable, errText(err)}
	}
	return badRequest(err)
}

// tooManyRows is the error of a body of n rows, more than -max-rows.
func (s *server) tooManyRows(n int) error {
	return &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("%d rows, more than the %d of -max-rows", n, s.limits.maxRows)}
}

// jsonRows reads the rows of the JSON body, {"rows": [ROW, ...]}, as
// data.JSON reads them, strictly: unknown and repeated members are refused.
func (s *server) jsonRows(body []byte, labelled bool) (*data.Set, error) {
	f := data.JSON{Cols: s.width, Hashing: s.hashing}
	if labelled {
		f.Classes = s.classes
	}
	set, err := f.Read(bytes.NewReader(body))
	if err != nil {
		return nil, rowsError(err)
	}
	if n, _ := set.X.Dims(); n > s.limits.maxRows {
		return nil, s.tooManyRows(n)
	}
	return set, nil
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
