// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed5ae3614e/perceptron/data"
)

// server answers the requests of perceptron serve.
type server struct {
	model  *served
	learn  bool
	limits serveLimits
	notes  io.Writer // for what it says besides errors; io.Discard with -q
	errs   io.Writer // for errors

	// save is the file of the checkpoints, every every, or "" for none;
	// saved is the version of the model last saved.
	save  string
	every time.Duration
	saved uint64

	// What does not change: the model's kind, width and classes.
	text     bool          // whether it takes text
	hashing  *data.Hashing // of text
	width    int           // its features
	classes  []string      // its labels
	names    []string      // the names of its classes, or its labels
	quoted   [][]byte      // the names as JSON strings
	label    string        // the CSV label column of /learn
	namesRaw []byte        // the names as a JSON array

	metrics serveMetrics
}

// newServer returns the server of the model m with the flags f; it writes
// its notes to notes and its errors to errs.
func newServer(m *data.Model, f serveFlags, notes, errs io.Writer) *server {
	s := &server{
		model: &served{m: m}, learn: f.learn, limits: f.limits, notes: notes, errs: errs,
		save: f.save, every: f.every,
		text: m.Hashing != nil, hashing: m.Hashing, width: m.Features(), classes: m.Classes,
		names: newClassSet(m.Classes, m.Names).names, label: m.Label,
	}
	if s.label == "" {
		s.label = defaultLabel
	}
	for _, name := range s.names {
		q, _ := json.Marshal(name)
		s.quoted = append(s.quoted, q)
	}
	s.namesRaw, _ = json.Marshal(s.names)
	s.metrics.init()
	return s
}

// describe says what the server does besides predicting, for the line
// that starts it.
func (s *server) describe() string {
	if !s.learn {
		return ""
	}
	return fmt.Sprintf("; learning, saved to %s every %v and at the stop", s.save, s.every)
}

// statusWriter is a ResponseWriter that keeps the status it wrote.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// status returns the status of the answer: 200 if nothing was written.
func (w *statusWriter) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

// maxErrorText is the longest message of an error answer, in bytes, as
// the command cuts its own.
const maxErrorText = 1500

// fail answers the request with err: its status, 400 unless it says, and
// a line of JSON that holds its message. An error of the server itself is
// said on stderr too.
func (s *server) fail(w *statusWriter, r *http.Request, err error) {
	code := http.StatusBadRequest
	var he *httpError
	if errors.As(err, &he) {
		code = he.code
	}
	msg := err.Error()
	if len(msg) > maxErrorText {
		msg = strings.ToValidUTF8(msg[:maxErrorText], "") + "…"
	}
	if code >= 500 {
		fmt.Fprintf(s.errs, "perceptron: %s %s: %s\n", r.Method, r.URL.Path, msg)
	}
	if w.code != 0 {
		return // the answer has begun
	}
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if code == http.StatusRequestEntityTooLarge || code == http.StatusRequestTimeout {
		// The rest of the body is not read: the connection cannot serve
		// another request.
		w.Header().Set("Connection", "close")
	}
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

// writeJSON answers with the JSON text b, status 200.
func writeJSON(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// bodies are the buffers of the bodies of requests, for reuse.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// expansion bounds what the rows of a body hold, with their steps and
// their scores, as a multiple of the body's bytes: a sparse value, 16
// bytes and twice as many after the steps, is at least two bytes of text,
// a dense one at least two bytes and 16 after the steps. A request is
// refused, 503, if so much does not fit in the memory left.
const expansion = 32

// readBody reads the body of r, within the limits, into a buffer of
// bodies, which the caller puts back.
func (s *server) readBody(r *http.Request) (*bytes.Buffer, error) {
	max := int64(s.limits.maxBody)
	switch {
	case r.ContentLength > max:
		return nil, &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("a body of %d bytes, more than the %d of -max-body", r.ContentLength, max)}
	case r.Header.Get("Content-Encoding") != "" && r.Header.Get("Content-Encoding") != "identity":
		return nil, &httpError{http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Encoding %s: the server takes bodies as they are", quote(r.Header.Get("Content-Encoding")))}
	}
	// The room for what a body's rows hold is checked before it is read if
	// its length is known, and after if not, as a body sent in chunks is.
	room := func(n float64) error {
		if err := data.CheckMemory(expansion * n); err != nil {
			return &httpError{http.StatusServiceUnavailable, fmt.Sprintf("reading a body of %.0f bytes %s", n, errText(err))}
		}
		return nil
	}
	if r.ContentLength >= 0 {
		if err := room(float64(r.ContentLength)); err != nil {
			return nil, err
		}
	}
	buf := bodies.Get().(*bytes.Buffer)
	buf.Reset()
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(nil, r.Body, max))
	var tooLarge *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &tooLarge):
		err = &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("a body of more than the %d bytes of -max-body", max)}
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, os.ErrDeadlineExceeded):
		err = &httpError{http.StatusRequestTimeout, fmt.Sprintf("the body was not read within the %v of -read-timeout", s.limits.readTimeout)}
	case err != nil:
		err = fmt.Errorf("reading the body: %v", err)
	case r.ContentLength < 0:
		err = room(float64(buf.Len()))
	}
	if err != nil {
		bodies.Put(buf)
		return nil, err
	}
	return buf, nil
}

// serveFlags are the flags of serve.
type serveFlags struct {
	model, addr, save string
	learn, quiet      bool
	every             time.Duration
	limits            serveLimits
}

// serveLimits are the limits of a server.
type serveLimits struct {
	maxBody, maxRows                       int
	readTimeout, writeTimeout, idleTimeout time.Duration
}
