// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// requestRows returns the query of r and the rows of its body: rows to
// predict, whose labels it leaves out, or, not predicting, labelled rows
// to learn. The rows hold nothing of the body, whose buffer goes back to
// bodies.
func (s *server) requestRows(r *http.Request, predicting bool) (query, *data.Set, error) {
	q, err := parseQuery(r, predicting)
	if err != nil {
		return q, nil, err
	}
	buf, err := s.readBody(r)
	if err != nil {
		return q, nil, err
	}
	defer bodies.Put(buf)
	set, err := s.readRows(buf.Bytes(), r, q.format, !predicting)
	return q, set, err
}

// predict answers a POST to /predict: the class of each row, and on
// request their scores and their top k classes. It returns the number of
// rows.
func (s *server) predict(w http.ResponseWriter, r *http.Request) (int, error) {
	q, set, err := s.requestRows(r, true)
	if err != nil {
		return 0, err
	}
	n, _ := set.X.Dims()
	pred, scores, probs, err := s.model.predict(set.X, q.scores || q.k > 0, q.probabilities)
	if err != nil {
		return n, badRequest(err)
	}
	writeJSON(w, s.answer(pred, scores, probs, q))
	return n, nil
}

// query is what the query of a request asks for: the format of its
// body, and for /predict what it answers besides the classes.
type query struct {
	format                string
	scores, probabilities bool
	k                     int
}

// parseQuery returns the query of r, or an error naming what it does not
// take: /predict takes all of a query, and /learn, not predicting, only
// format.
func parseQuery(r *http.Request, predicting bool) (query, error) {
	var q query
	if r.URL.RawQuery == "" {
		return q, nil
	}
	for name, vs := range r.URL.Query() {
		v := vs[len(vs)-1]
		var err error
		switch {
		case name == "format":
			q.format = v
		case !predicting:
			return q, &httpError{http.StatusBadRequest, fmt.Sprintf("unknown query parameter %s: /learn takes format", quote(name))}
		case name == "scores":
			q.scores, err = strconv.ParseBool(v)
		case name == "probabilities":
			q.probabilities, err = strconv.ParseBool(v)
		case name == "k":
			q.k, err = strconv.Atoi(v)
			if err == nil && q.k < 0 {
				err = errors.New("negative")
			}
		default:
			return q, &httpError{http.StatusBadRequest, fmt.Sprintf("unknown query parameter %s: want format, scores, probabilities or k", quote(name))}
		}
		if err != nil {
			return q, &httpError{http.StatusBadRequest, fmt.Sprintf("%s=%s: want %s", name, quote(v), map[bool]string{true: "a whole number from 0", false: "1, true, 0 or false"}[name == "k"])}
		}
	}
	return q, nil
}

// answer returns the JSON of the predictions pred, with the scores and
// the probabilities of each row if not nil, and the top k classes if k >
// 0:
//
//	{"classes":[...],"predictions":[{"class":"…","scores":[…],"top":[{"class":"…","score":…},…]},…]}
//
// where "classes", the names of the classes in the order of the scores,
// is there only with the scores or the probabilities.
func (s *server) answer(pred, scores, probs []float64, q query) []byte {
	n := len(pred)
	S := len(scores) / max(n, 1)
	b := make([]byte, 0, 64+n*(24+(S*24)*btoi(q.scores)+q.k*48))
	b = append(b, '{')
	if q.scores || q.probabilities {
		b = append(b, `"classes":`...)
		b = append(b, s.namesRaw...)
		b = append(b, ',')
	}
	b = append(b, `"predictions":[`...)
	var top []int
	for i, c := range pred {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"class":`...)
		b = append(b, s.quoted[int(c)]...)
		var sc []float64
		if scores != nil {
			sc = scores[i*S : (i+1)*S]
		}
		if q.scores {
			b = appendFloats(append(b, `,"scores":`...), sc)
		}
		if probs != nil {
			b = appendFloats(append(b, `,"probabilities":`...), probs[i*len(s.names):(i+1)*len(s.names)])
		}
		if q.k > 0 {
			top = topK(top[:0], sc, len(s.names), q.k)
			b = append(b, `,"top":[`...)
			for j, k := range top {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"class":`...)
				b = append(b, s.quoted[k]...)
				b = strconv.AppendFloat(append(b, `,"score":`...), classScore(sc, k), 'g', -1, 64)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, "]}\n"...)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// appendFloats appends the JSON array of v to b.
func appendFloats(b []byte, v []float64) []byte {
	b = append(b, '[')
	for j, x := range v {
		if j > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	return append(b, ']')
}

// learnRows answers a POST to /learn: it trains the model on the rows
// with one Learn, and answers the rows learned and the mistakes made on
// them. It returns the number of rows.
func (s *server) learnRows(w http.ResponseWriter, r *http.Request) (int, error) {
	if !s.learn {
		return 0, &httpError{http.StatusForbidden, "the server does not learn: start it with -learn"}
	}
	_, set, err := s.requestRows(r, false)
	if err != nil {
		return 0, err
	}
	n, _ := set.X.Dims()
	mistakes, err := s.model.learn(set)
	switch {
	case errors.Is(err, errStopping):
		return 0, &httpError{http.StatusServiceUnavailable, err.Error()}
	case errors.Is(err, perceptron.ErrNotFitted):
		return 0, &httpError{http.StatusConflict, "the model holds what prediction reads alone, not the running weights that learning goes on from: train it with -resumable"}
	case err != nil:
		// An overflow of the weights, which the Learn undid.
		return n, &httpError{http.StatusUnprocessableEntity, errText(err)}
	}
	s.metrics.mistakes.Add(uint64(mistakes))
	writeJSON(w, fmt.Appendf(nil, `{"learned":%d,"mistakes":%d}`+"\n", n, mistakes))
	return n, nil
}

// writeModel answers a GET of /model: the model as it is between two
// Learns, in the form of its file. It writes the model into a file of no
// name while learning waits, and sends it from there, so that a slow
// client does not hold up learning.
func (s *server) writeModel(w http.ResponseWriter, r *http.Request) error {
	var f *os.File
	err := s.model.snapshot(func(m *data.Model, _ uint64) error {
		var err error
		f, err = unnamed(func(w io.Writer) error {
			_, err := m.WriteTo(w)
			return err
		})
		return err
	})
	if f != nil {
		defer f.Close()
	}
	if err != nil {
		return &httpError{http.StatusInternalServerError, fmt.Sprintf("writing the model: %v", err)}
	}
	head := make([]byte, 1)
	f.ReadAt(head, 0)
	if head[0] == '{' {
		w.Header().Set("Content-Type", "application/json")
	} else {
		w.Header().Set("Content-Type", "application/octet-stream")
	}
	http.ServeContent(w, r, "", time.Time{}, f)
	return nil
}

// ServeHTTP routes a request to its endpoint, and counts it.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	ep, method := epOther, http.MethodPost
	switch r.URL.Path {
	case "/predict":
		ep = epPredict
	case "/learn":
		ep = epLearn
	case "/model":
		ep, method = epModel, http.MethodGet
	case "/healthz":
		ep, method = epHealth, http.MethodGet
	case "/metrics":
		ep, method = epMetrics, http.MethodGet
	}
	rw := &statusWriter{ResponseWriter: w}
	var rows int
	var err error
	defer func() {
		// A panic is a bug of the command or the library: the request is
		// answered 500, and the server goes on.
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.fail(rw, r, &httpError{http.StatusInternalServerError, fmt.Sprintf("internal error: %v", v)})
			fmt.Fprintf(s.errs, "%s\n", debug.Stack())
		}
		s.metrics.count(ep, rw.status(), rows, time.Since(start))
	}()
	switch {
	case ep == epOther:
		err = &httpError{http.StatusNotFound, fmt.Sprintf("no endpoint %s: want /predict, /learn, /model, /healthz or /metrics", quote(r.URL.Path))}
	case r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead):
		allow := method
		if method == http.MethodGet {
			allow = "GET, HEAD"
		}
		rw.Header().Set("Allow", allow)
		err = &httpError{http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: want %s", r.Method, r.URL.Path, method)}
	case ep == epPredict:
		rows, err = s.predict(rw, r)
	case ep == epLearn:
		rows, err = s.learnRows(rw, r)
	case ep == epModel:
		err = s.writeModel(rw, r)
	case ep == epHealth:
		writeJSON(rw, []byte(`{"status":"ok"}`+"\n"))
	case ep == epMetrics:
		s.metrics.write(rw, s.model)
	}
	if err != nil {
		s.fail(rw, r, err)
	}
}
