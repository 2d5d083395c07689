// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

const serveHelp = `Usage: perceptron serve [flags] -model FILE

Serve answers over HTTP/1.1 with the saved model FILE, which it holds in
memory: it labels the rows that a POST to /predict sends, and, with -learn,
trains the model further on the labelled rows that a POST to /learn sends,
each request one Learn, as train -model does, and saves it to -save every
-save-every, and when it stops. With -learn, FILE must be a model that
train -resumable saved: without -resumable, train saves only what
prediction reads, from which no learning goes on. Without -learn the
server holds what prediction reads alone. It listens on localhost:8080
unless -addr names another address.

  POST /predict   rows in the body: the class of each, and, asked for by the
                  query, ?scores=1 the scores, as predict -score writes them,
                  ?k=N the N classes of the greatest scores
  POST /learn     labelled rows in the body: the rows learned and the
                  mistakes made on them (with -learn)
  GET  /model     the model as it is between two Learns, in the form of its
                  file, which data.LoadModel and perceptron -model read
  GET  /healthz   {"status":"ok"} while it serves
  GET  /metrics   requests, rows, mistakes, checkpoints and latencies, in
                  Prometheus' text format

A body holds one row or many: lines of the model's own format, a row a
line, as predict reads a file (text for a model of text, LIBSVM or CSV for
the others; a CSV row of /predict is its features alone, of /learn has its
label in the model's label column), or JSON: {"rows": [ROW, ...]}, where a
ROW is a text, an array of the model's features, or an object of a
"label" and a "text", "values" (the features) or "indices" (from 1, as
LIBSVM numbers them) and "values". The format is ?format=text, libsvm,
csv or json, or else the Content-Type's: application/json, text/csv; any
other is the model's own, told from the first line. A label is a class
of the model, by its label or its name; a row of another label is refused.

Every answer is JSON; an error is a 4xx or 5xx status and one line,
{"error": "..."}, and leaves the model unchanged: a body of malformed JSON,
of bytes that are not UTF-8, of rows of the wrong width, of an unknown
format, larger than -max-body or of more than -max-rows rows, sent slower
than -read-timeout allows, or of a label that is no class of the model. A
request whose rows would not fit in the memory left is answered 503.

SIGINT or SIGTERM stops the server gracefully: it takes no new request,
lets those in flight finish, saves the model if it learned, and exits
with status 0; a second signal ends it at once. A checkpoint replaces the
file whole, as train does, so that a kill -9 at any moment leaves the last
complete model.

Examples:
  perceptron serve -model topics.json
  perceptron serve -model debian.json.gz -learn -save debian.json.gz -addr :8080
  curl --data-binary 'a library to read PNG images' 'localhost:8080/predict?k=3'

Exit status: 0 after a graceful stop, 2 on a usage error, 1 on any other.

Flags:
`

// Defaults of serve: limits that a request of many rows stays far within,
// and timeouts that a slow client cannot hold a connection beyond.
const (
	defaultAddr         = "localhost:8080"
	defaultMaxBody      = 8 << 20
	defaultMaxRows      = 10000
	defaultSaveEvery    = time.Minute
	defaultReadTimeout  = time.Minute
	defaultWriteTimeout = time.Minute
	defaultIdleTimeout  = 2 * time.Minute
	readHeaderTimeout   = 10 * time.Second
	maxHeaderBytes      = 64 << 10
)

func serveCommand(args []string, stdout, stderr io.Writer) error {
	// Before it serves, a signal ends the command at once, as it does by
	// default; while it serves, the first stops it gracefully, and a
	// second ends it at once, as catchSignals says.
	catchSignals()
	// The other commands collect their garbage when the heap has grown by
	// a tenth (setGCPercent), as they leave garbage of the size of their
	// data; a server holds its model and leaves a little garbage each
	// request, and collections at every tenth of the model cost it more
	// than a quarter of its throughput (bench/README.md): it collects at
	// Go's default growth, under the same memory limit.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	release := func(error) error { return nil }
	defer func() { release(nil) }()
	return serveUntil(ctx, args, stdout, stderr, func(net.Addr) {
		var sctx context.Context
		sctx, release = catchTraining()
		context.AfterFunc(sctx, func() { cancel(context.Cause(sctx)) })
	})
}

// serveUntil is serve with the arguments args until ctx is done; it calls
// listening, if not nil, with the address it listens on.
func serveUntil(ctx context.Context, args []string, stdout, stderr io.Writer, listening func(net.Addr)) error {
	var f serveFlags
	fs := newFlagSet("serve")
	fs.StringVar(&f.model, "model", "", "the model `FILE` that train saved (required)")
	fs.StringVar(&f.addr, "addr", defaultAddr, "listen on `HOST:PORT`; :PORT listens on every interface, port 0 on one the system picks")
	fs.BoolVar(&f.learn, "learn", false, "take labelled rows at POST /learn and train the model on them (needs -save)")
	fs.StringVar(&f.save, "save", "", "with -learn, save the model to `FILE`, which may be -model's, every -save-every and at the stop, replaced whole")
	fs.DurationVar(&f.every, "save-every", defaultSaveEvery, "with -save, the time between two checkpoints, of a model that learned since the last")
	fs.IntVar(&f.limits.maxBody, "max-body", defaultMaxBody, "the largest body of a request, in `BYTES`")
	fs.IntVar(&f.limits.maxRows, "max-rows", defaultMaxRows, "the most rows of a request")
	fs.DurationVar(&f.limits.readTimeout, "read-timeout", defaultReadTimeout, "the longest time to read a request, its body included")
	fs.DurationVar(&f.limits.writeTimeout, "write-timeout", defaultWriteTimeout, "the longest time from the end of a request's headers to the end of the answer")
	fs.DurationVar(&f.limits.idleTimeout, "idle-timeout", defaultIdleTimeout, "the longest time a connection waits for its next request")
	fs.BoolVar(&f.quiet, "q", false, "quiet: write nothing to stderr but errors")
	files, err := parseArgs(fs, serveHelp, args, stdout)
	if err != nil {
		return err
	}
	if err := f.check(fs, files); err != nil {
		return err
	}
	if f.save != "" {
		if err := checkOutputs([]outFile{{flag: "-save", path: f.save}}, nil); err != nil {
			return err
		}
	}
	m, err := data.LoadModel(f.model)
	if err != nil {
		return err
	}
	if _, ok := m.Classifier.(learner); f.learn && !ok {
		name := typeName(m.Classifier)
		return fmt.Errorf("-learn: -model %s is %s model, which learns only from the start", f.model, article(name)+" "+name)
	}
	if !f.learn {
		if err := perceptron.PredictOnly(m.Classifier); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		// The error without the words "listen tcp ADDR" before its cause.
		if cause := errors.Unwrap(err); cause != nil {
			err = cause
		}
		return fmt.Errorf("-addr %s: %v", f.addr, err)
	}
	notes := stderr
	if f.quiet {
		notes = io.Discard
	}
	s := newServer(m, f, notes, stderr)
	fmt.Fprintf(notes, "perceptron: serving %s on http://%s%s\n", f.model, ln.Addr(), s.describe())
	if listening != nil {
		listening(ln.Addr())
	}
	return s.run(ctx, ln)
}

// check returns a usage error if the flags f, set on fs, or the arguments
// files do not make a server.
func (f *serveFlags) check(fs *flag.FlagSet, files []string) error {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case len(files) != 0:
		return usagef("serve: want no data file, got %s (see perceptron serve -h)", quote(files[0]))
	case f.model == "":
		return usagef("serve: -model FILE is required: the model that train saved")
	case f.learn && f.save == "":
		return usagef("serve: -learn needs -save FILE: where to keep what the model learns, which may be -model's file")
	case !f.learn && f.save != "":
		return usagef("serve: -save: only a model that learns, with -learn, changes")
	case set["save-every"] && f.save == "":
		return usagef("serve: -save-every goes with -save")
	case f.every <= 0:
		return usagef("-save-every %v: want a positive duration", f.every)
	case f.limits.maxBody < 1:
		return usagef("-max-body %d: want 1 byte or more", f.limits.maxBody)
	case f.limits.maxRows < 1:
		return usagef("-max-rows %d: want 1 or more", f.limits.maxRows)
	case f.limits.readTimeout <= 0 || f.limits.writeTimeout <= 0 || f.limits.idleTimeout <= 0:
		return usagef("-read-timeout, -write-timeout and -idle-timeout: want positive durations")
	}
	return nil
}

// learner is a classifier that learns more, as data.Model's Learn needs.
type learner interface {
	Learn(X mat.Matrix, y []float64) error
}

// httpServer returns the net/http server of s with its limits.
func (s *server) httpServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: min(readHeaderTimeout, s.limits.readTimeout),
		ReadTimeout:       s.limits.readTimeout,
		WriteTimeout:      s.limits.writeTimeout,
		IdleTimeout:       s.limits.idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          log.New(s.errs, "perceptron: ", 0),
	}
}

// run serves on ln until ctx is done, then stops gracefully: it closes
// ln, waits for the requests in flight, for as long as the limits let one
// last, takes no more learning, and saves the model if it learned. It
// returns the error of the last save, or of serving.
func (s *server) run(ctx context.Context, ln net.Listener) error {
	hs := s.httpServer()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	saver := make(chan struct{})
	stopSaving := make(chan struct{})
	go func() {
		defer close(saver)
		s.checkpoints(stopSaving)
	}()
	var err error
	select {
	case <-ctx.Done():
		why := context.Cause(ctx)
		var st stopped
		if errors.As(why, &st) {
			why = fmt.Errorf("%v", st.sig)
		}
		fmt.Fprintf(s.notes, "perceptron: %v: stopping: no new request; those in flight finish\n", why)
	case err = <-served:
	}
	// A request in flight ends within the read and write timeouts.
	grace := s.limits.readTimeout + s.limits.writeTimeout
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if serr := hs.Shutdown(sctx); serr != nil {
		fmt.Fprintf(s.errs, "perceptron: stopping: %v; closing the connections left\n", serr)
		hs.Close()
	}
	if err == nil {
		err = <-served
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	close(stopSaving)
	<-saver
	// No Learn after this: what got a 200 is in the model saved.
	s.model.close()
	if s.save != "" {
		saved, serr := s.checkpoint()
		if serr != nil {
			return serr
		}
		if saved {
			fmt.Fprintf(s.notes, "perceptron: saved the model to %s\n", s.save)
		}
	}
	if err == nil {
		fmt.Fprintf(s.notes, "perceptron: stopped\n")
	}
	return err
}
