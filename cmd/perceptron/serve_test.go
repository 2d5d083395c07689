// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed5ae3614e/perceptron/internal/serveload"
)

// testServer is a server of serveUntil in this process, on a port of the
// loopback that the system picks.
type testServer struct {
	url    string
	client *http.Client
	cancel context.CancelCauseFunc
	done   chan error
	stderr *syncBuffer
	once   sync.Once
	err    error
}

// syncBuffer is a bytes.Buffer that goroutines may write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// startServer starts serve with args, and stops it when the test ends.
func startServer(t *testing.T, args ...string) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	ts := &testServer{cancel: cancel, done: make(chan error, 1), stderr: &syncBuffer{},
		client: &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}}
	addr := make(chan net.Addr, 1)
	go func() {
		ts.done <- serveUntil(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), io.Discard, ts.stderr, func(a net.Addr) { addr <- a })
	}()
	select {
	case a := <-addr:
		ts.url = "http://" + a.String()
	case err := <-ts.done:
		t.Fatalf("serve %q: %v; stderr %q", args, err, ts.stderr)
	}
	t.Cleanup(func() {
		if err := ts.stop(); err != nil {
			t.Errorf("serve %q: stopping: %v", args, err)
		}
	})
	return ts
}

// stop stops the server gracefully, as a signal does, and returns the
// error of serve.
func (ts *testServer) stop() error {
	ts.once.Do(func() {
		ts.cancel(errors.New("stopped by the test"))
		ts.err = <-ts.done
		ts.client.CloseIdleConnections()
	})
	return ts.err
}

// do sends a request and returns the status and the body of the answer.
func (ts *testServer) do(t *testing.T, method, path, ctype string, body []byte) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.url+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := ts.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	return resp.StatusCode, string(b)
}

// servedAnswer is the JSON of an answer of /predict.
type servedAnswer struct {
	Classes     []string
	Predictions []struct {
		Class  string
		Scores []float64
		Top    []struct {
			Class string
			Score float64
		}
	}
}

// parsePredictions returns the predictions of an answer, checking that
// it is one line of JSON that holds them and nothing else.
func parsePredictions(t *testing.T, answer string) servedAnswer {
	t.Helper()
	var p servedAnswer
	dec := json.NewDecoder(strings.NewReader(answer))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil || strings.Count(answer, "\n") != 1 || !strings.HasSuffix(answer, "\n") {
		t.Fatalf("the answer %.300q is not a line of JSON of predictions: %v", answer, err)
	}
	return p
}

// servedModels trains small models of every kind of rows into dir: of
// dense rows, read from CSV, of sparse rows, from LIBSVM, and of text. It
// returns for each its name, its model file, a file of its rows to
// predict, as predict reads them, and those rows as the server reads
// them, in the model's own format, and in JSON.
type servedModel struct {
	name, model, rows string
	body, json        []byte
	ctype             string
	learn             string // a file of labelled rows to learn
}

func servedModels(t *testing.T, dir string) []servedModel {
	t.Helper()
	rnd := rand.New(rand.NewPCG(4, 4))
	var ms []servedModel

	X, y := classData(rnd, 150, 4, 3)
	labels := make([]string, len(y))
	for i, c := range y {
		labels[i] = []string{"red", "green", "blue"}[c]
	}
	train := writeFile(t, dir, "dense.csv", csvNamed(X, labels, 4, false))
	Xt, _ := classData(rnd, 20, 4, 3)
	rows := csvNamed(Xt, nil, -1, false)
	var js bytes.Buffer
	js.WriteString(`{"rows":[`)
	for i := range 20 {
		if i > 0 {
			js.WriteString(",")
		}
		b, _ := json.Marshal(Xt.RawRowView(i))
		js.Write(b)
	}
	js.WriteString("]}")
	ms = append(ms, servedModel{name: "dense", model: filepath.Join(dir, "dense.json"), rows: writeFile(t, dir, "dense-rows.csv", rows),
		body: rows, json: bytes.Clone(js.Bytes()), ctype: "text/csv", learn: train})
	mustRun(t, "train", "-resumable", "-o", ms[0].model, train)

	Xs, ys := classData(rnd, 150, 30, 3)
	for i := range 150 {
		for j := range 30 {
			if (i+j)%3 != 0 {
				Xs.Set(i, j, 0)
			}
		}
	}
	var sl []string
	for _, c := range ys {
		sl = append(sl, strconv.Itoa(c))
	}
	sparse := libsvmOf(Xs, sl)
	strain := writeFile(t, dir, "sparse.svm", sparse)
	model := filepath.Join(dir, "sparse.json")
	mustRun(t, "train", "-resumable", "-o", model, strain)
	srows := sparse[:bytes.Index(sparse, []byte("\n0 "))+1]
	js.Reset()
	js.WriteString(`{"rows":[`)
	for i, line := range strings.Split(strings.TrimSpace(string(srows)), "\n") {
		if i > 0 {
			js.WriteString(",")
		}
		var ind []int
		var val []float64
		for _, f := range strings.Fields(line)[1:] {
			j, v, _ := strings.Cut(f, ":")
			k, _ := strconv.Atoi(j)
			x, _ := strconv.ParseFloat(v, 64)
			ind, val = append(ind, k), append(val, x)
		}
		b, _ := json.Marshal(map[string]any{"indices": ind, "values": val})
		js.Write(b)
	}
	js.WriteString("]}")
	ms = append(ms, servedModel{name: "sparse", model: model, rows: writeFile(t, dir, "sparse-rows.svm", srows),
		body: srows, json: js.Bytes(), learn: strain})

	texts, tlabels := topicLines(rnd, 300)
	ft, _ := fastText(texts, tlabels)
	ttrain := writeFile(t, dir, "topics.txt", ft)
	model = filepath.Join(dir, "topics.json")
	mustRun(t, "train", "-resumable", "-bits", "12", "-o", model, ttrain)
	more, _ := topicLines(rnd, 20)
	trows := []byte(strings.Join(more, "\n") + "\n")
	b, _ := json.Marshal(map[string]any{"rows": more})
	ms = append(ms, servedModel{name: "text", model: model, rows: writeFile(t, dir, "topics-rows.txt", trows),
		body: trows, json: b, learn: ttrain})
	return ms
}

// mustRun runs the command with args, and fails the test if it fails.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := runCmd(args...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errs)
	}
	return out
}

// The server predicts as predict does: the same classes, and the same
// scores to the bit, of the rows of a model of each kind, sent in its own
// format or in JSON; the top k are the classes of the greatest scores.
func TestServePredictsAsPredict(t *testing.T) {
	dir := t.TempDir()
	for _, m := range servedModels(t, dir) {
		args := []string{"predict", "-score", "-model", m.model}
		if m.name == "dense" {
			args = append(args, "-label", "none")
		}
		out := mustRun(t, append(args, m.rows)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		ts := startServer(t, "-model", m.model)
		for _, body := range []struct {
			ctype string
			b     []byte
		}{{m.ctype, m.body}, {"application/json", m.json}} {
			code, answer := ts.do(t, "POST", "/predict?scores=1&k=2", body.ctype, body.b)
			if code != 200 {
				t.Fatalf("%s, %s: status %d: %s", m.name, body.ctype, code, answer)
			}
			p := parsePredictions(t, answer)
			if len(p.Predictions) != len(lines)-1 {
				t.Fatalf("%s, %s: %d predictions, want %d", m.name, body.ctype, len(p.Predictions), len(lines)-1)
			}
			head := strings.Split(lines[0], "\t")
			if len(p.Classes) != 3 || !slices.Equal(p.Classes, head[1:]) {
				t.Errorf("%s: classes %q, predict's header %q", m.name, p.Classes, head)
			}
			for i, pr := range p.Predictions {
				f := strings.Split(lines[i+1], "\t")
				got := []string{pr.Class}
				for _, v := range pr.Scores {
					got = append(got, strconv.FormatFloat(v, 'g', -1, 64))
				}
				if !slices.Equal(got, f) {
					t.Errorf("%s, %s: row %d: %q, predict wrote %q", m.name, body.ctype, i+1, got, f)
				}
				best := slices.Index(p.Classes, pr.Class)
				if len(pr.Top) != 2 || pr.Top[0].Class != pr.Class || pr.Top[0].Score != pr.Scores[best] || pr.Top[1].Score > pr.Top[0].Score {
					t.Errorf("%s: row %d: top %v of scores %v", m.name, i+1, pr.Top, pr.Scores)
				}
			}
		}
	}
}

// A server that learns takes each request as one Learn: the rows of a
// file sent in one request, and saved at the stop, make the model that
// train -model makes of the file, byte for byte; and what it answers
// after each request is what the model then predicts.
func TestServeLearnsAsTrainModel(t *testing.T) {
	dir := t.TempDir()
	for _, m := range servedModels(t, dir) {
		want := filepath.Join(dir, m.name+"-more.model")
		mustRun(t, "train", "-resumable", "-model", m.model, "-o", want, m.learn)
		saved := filepath.Join(dir, m.name+"-saved.model")
		ts := startServer(t, "-model", m.model, "-learn", "-save", saved)
		body, _ := os.ReadFile(m.learn)
		code, answer := ts.do(t, "POST", "/learn", m.ctype, body)
		if code != 200 || !strings.HasPrefix(answer, `{"learned":150,"mistakes":`) && !strings.HasPrefix(answer, `{"learned":300,"mistakes":`) {
			t.Fatalf("%s: status %d: %s", m.name, code, answer)
		}
		code, got := ts.do(t, "GET", "/model", "", nil)
		if err := ts.stop(); err != nil {
			t.Fatal(err)
		}
		wb, _ := os.ReadFile(want)
		sb, err := os.ReadFile(saved)
		if err != nil || !bytes.Equal(sb, wb) {
			t.Errorf("%s: the model saved (%d bytes, %v) is not that of train -model (%d bytes)", m.name, len(sb), err, len(wb))
		}
		if code != 200 || got != string(wb) {
			t.Errorf("%s: GET /model: status %d, %d bytes, not the model of train -model", m.name, code, len(got))
		}
		if !strings.Contains(ts.stderr.String(), "saved the model to "+saved) {
			t.Errorf("%s: stderr %q", m.name, ts.stderr)
		}
	}
}

// A graceful stop lets a request in flight finish, and its rows learned
// are in the model saved; no goroutine of the server outlives it.
func TestServeStopFinishesInFlight(t *testing.T) {
	dir := t.TempDir()
	m := servedModels(t, dir)[2]
	before := runtime.NumGoroutine()
	saved := filepath.Join(dir, "saved.json")
	ts := startServer(t, "-model", m.model, "-learn", "-save", saved, "-q")
	addr := strings.TrimPrefix(ts.url, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := "__label__sport the team won the cup\n"
	fmt.Fprintf(conn, "POST /learn HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:10])
	time.Sleep(100 * time.Millisecond) // the request is in flight
	stopped := make(chan error)
	go func() { stopped <- ts.stop() }()
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-stopped:
		t.Fatalf("the server stopped with a request in flight: %v", err)
	default:
	}
	// No new connection is taken.
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Error("the stopping server took a new connection")
	}
	conn.Write([]byte(body[10:]))
	b, _ := io.ReadAll(conn)
	if !strings.HasPrefix(string(b), "HTTP/1.1 200 ") || !strings.Contains(string(b), `{"learned":1,"mistakes":`) {
		t.Errorf("the request in flight was answered %q", b)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	was, err1 := serveload.Rows(m.model)
	now, err2 := serveload.Rows(saved)
	if err1 != nil || err2 != nil || now-was != 1 {
		t.Errorf("the model saved learned %d rows, want 1: %v, %v", now-was, err1, err2)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after the stop, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// GET /metrics counts the requests by endpoint and status, the rows, the
// mistakes and the checkpoints, in Prometheus' text format.
func TestServeMetrics(t *testing.T) {
	dir := t.TempDir()
	m := servedModels(t, dir)[2]
	ts := startServer(t, "-model", m.model, "-learn", "-save", filepath.Join(dir, "s.json"), "-save-every", "1h")
	ts.do(t, "POST", "/predict", "", []byte("the team\nthe vote\n"))
	ts.do(t, "POST", "/predict", "", []byte("\xff"))
	_, answer := ts.do(t, "POST", "/learn", "", []byte("__label__sport the team\n__label__science the vote\n__label__politics the planet\n"))
	var learned struct{ Learned, Mistakes int }
	json.Unmarshal([]byte(answer), &learned)
	code, text := ts.do(t, "GET", "/metrics", "", nil)
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	for _, want := range []string{
		"# TYPE perceptron_requests_total counter\n",
		`perceptron_requests_total{endpoint="/predict",code="200"} 1` + "\n",
		`perceptron_requests_total{endpoint="/predict",code="400"} 1` + "\n",
		`perceptron_requests_total{endpoint="/learn",code="200"} 1` + "\n",
		`perceptron_rows_total{endpoint="/predict"} 2` + "\n",
		`perceptron_rows_total{endpoint="/learn"} 3` + "\n",
		fmt.Sprintf("perceptron_learn_mistakes_total %d\n", learned.Mistakes),
		"perceptron_learns_total 1\n",
		"perceptron_checkpoints_total 0\n",
		`perceptron_request_duration_seconds_bucket{endpoint="/predict",le="+Inf"} 2` + "\n",
		`perceptron_request_duration_seconds_count{endpoint="/learn"} 1` + "\n",
		"# TYPE perceptron_request_duration_seconds histogram\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	// Every line is a comment or a sample, of a name, labels and a number.
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "# HELP ") || strings.HasPrefix(line, "# TYPE ") {
			continue
		}
		f := strings.Fields(line)
		if _, err := strconv.ParseFloat(f[len(f)-1], 64); len(f) != 2 || err != nil {
			t.Errorf("not a sample: %q", line)
		}
	}
}

// The flags of serve are checked before the model is read.
func TestServeFlags(t *testing.T) {
	dir := t.TempDir()
	m := servedModels(t, dir)[0]
	pocket := filepath.Join(dir, "pocket.json")
	mustRun(t, "train", "-classifier", "pocket", "-epochs", "3", "-o", pocket, m.learn)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve"}, 2, "-model FILE is required"},
		{[]string{"serve", "-model", m.model, m.rows}, 2, "want no data file"},
		{[]string{"serve", "-model", m.model, "-learn"}, 2, "-learn needs -save FILE"},
		{[]string{"serve", "-model", m.model, "-save", "x.json"}, 2, "-save: only a model that learns"},
		{[]string{"serve", "-model", m.model, "-save-every", "1s"}, 2, "-save-every goes with -save"},
		{[]string{"serve", "-model", m.model, "-max-body", "0"}, 2, "-max-body 0"},
		{[]string{"serve", "-model", m.model, "-max-rows", "-1"}, 2, "-max-rows -1"},
		{[]string{"serve", "-model", m.model, "-read-timeout", "0s"}, 2, "-read-timeout"},
		{[]string{"serve", "-model", m.model, "-learn", "-save", dir}, 1, "is a directory"},
		{[]string{"serve", "-model", filepath.Join(dir, "none.json")}, 1, "no such file"},
		{[]string{"serve", "-model", pocket, "-learn", "-save", pocket}, 1, "-learn: -model " + pocket + " is a pocket model, which learns only from the start"},
		{[]string{"serve", "-model", m.model, "-addr", busy.Addr().String()}, 1, "-addr " + busy.Addr().String() + ": bind: address already in use"},
		{[]string{"serve", "-model", m.model, "-addr", "nonsense"}, 1, "-addr nonsense"},
		{[]string{"serv"}, 2, "did you mean serve?"},
	} {
		code, out, errs := runCmd(c.args...)
		if code != c.code || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out, errs, c.code, c.want)
		}
	}
	if code, help, _ := runCmd("serve", "-h"); code != 0 || !strings.Contains(help, "Usage: perceptron serve") || !strings.Contains(help, "-max-body") {
		t.Errorf("serve -h: exit %d, %q", code, help)
	}
}

// A calibrated model serves the probabilities of the classes that predict
// -k writes, to the bit; a model without calibration refuses them.
func TestServeProbabilities(t *testing.T) {
	dir := t.TempDir()
	m := servedModels(t, dir)[0]
	calibrated := filepath.Join(dir, "calibrated.json")
	mustRun(t, "train", "-calibrate", "3", "-o", calibrated, m.learn)
	out := mustRun(t, "predict", "-k", "3", "-label", "none", "-model", calibrated, m.rows)
	ts := startServer(t, "-model", calibrated)
	code, answer := ts.do(t, "POST", "/predict?probabilities=1", m.ctype, m.body)
	if code != 200 {
		t.Fatalf("status %d: %s", code, answer)
	}
	var p struct {
		Classes     []string
		Predictions []struct {
			Class         string
			Probabilities []float64
		}
	}
	if err := json.Unmarshal([]byte(answer), &p); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(p.Predictions) != len(lines) {
		t.Fatalf("%d predictions, predict -k wrote %d lines", len(p.Predictions), len(lines))
	}
	for i, line := range lines {
		f := strings.Split(line, "\t")
		for j := 0; j+1 < len(f); j += 2 {
			c := slices.Index(p.Classes, f[j])
			if c < 0 || strconv.FormatFloat(p.Predictions[i].Probabilities[c], 'g', -1, 64) != f[j+1] {
				t.Errorf("row %d: probabilities %v of classes %q, predict -k wrote %q", i+1, p.Predictions[i].Probabilities, p.Classes, line)
				break
			}
		}
	}
	plain := startServer(t, "-model", m.model)
	if code, answer := plain.do(t, "POST", "/predict?probabilities=1", m.ctype, m.body); code != 400 || !strings.Contains(answer, "-calibrate") {
		t.Errorf("a model without calibration: status %d, %s; want 400 naming -calibrate", code, answer)
	}
}

// A learning server answers predictions, scores and snapshots while it
// learns, each of the model before a Learn or after it: under the race
// detector, this checks that the library's and package data's sharing of
// the model reads nothing that a Learn writes.
func TestServePredictsWhileLearning(t *testing.T) {
	dir := t.TempDir()
	for _, m := range servedModels(t, dir) {
		ts := startServer(t, "-model", m.model, "-learn", "-save", filepath.Join(dir, m.name+"-live.json"))
		lines := strings.SplitAfter(string(mustReadFile(t, m.learn)), "\n")
		var wg sync.WaitGroup
		for _, path := range []string{"/predict", "/predict?scores=1", "/model"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 20 {
					method, body := "POST", m.body
					if path == "/model" {
						method, body = "GET", nil
					}
					if code, answer := ts.do(t, method, path, m.ctype, body); code != 200 {
						t.Errorf("%s %s %s: status %d: %s", m.name, method, path, code, answer)
						return
					}
				}
			}()
		}
		for k := 0; k+10 <= len(lines) && k < 200; k += 10 {
			if code, answer := ts.do(t, "POST", "/learn", m.ctype, []byte(strings.Join(lines[k:k+10], ""))); code != 200 {
				t.Errorf("%s: learn: status %d: %s", m.name, code, answer)
				break
			}
		}
		wg.Wait()
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
