// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// Bad input is answered with a 4xx and a line of JSON that names what is
// wrong, and changes nothing: the model is the same, byte for byte, and
// the server answers the next request.
func TestServeBadInput(t *testing.T) {
	dir := t.TempDir()
	ms := servedModels(t, dir)
	dense, sparse, text := ms[0], ms[1], ms[2]
	for _, c := range []struct {
		m           servedModel
		path, ctype string
		body        string
		code        int
		want        string
	}{
		{dense, "/predict", "application/json", `{"rows": [[1, 2, 3, 4]`, 400, "not JSON of rows"},
		{dense, "/predict", "application/json", `{"rows": [[1, 2, 3, 4]]} {}`, 400, "data after the value"},
		{dense, "/predict", "application/json", `{"rows": [[1, 2, 3]]}`, 400, "row 1: 3 values, want 4"},
		{dense, "/predict", "application/json", `{"rows": [[1, 2, 3, 4, 5]]}`, 400, "5 values, want 4"},
		{dense, "/predict", "application/json", `{"rows": [[1, 2, "x", 4]]}`, 400, "row 1"},
		{dense, "/predict", "application/json", `{"rows": [[1, 2, 1e400, 4]]}`, 400, "row 1"},
		{dense, "/predict", "application/json", `{"rows": [], "k": 3}`, 400, `unknown field "k"`},
		{dense, "/predict", "application/json", `{"rows": []}`, 400, "no rows"},
		{dense, "/predict", "application/json", `[[1, 2, 3, 4]]`, 400, "a JSON array, want an object"},
		{dense, "/predict", "application/json", `{"rows": 3}`, 400, "rows: a JSON number, want an array"},
		{dense, "/predict", "application/json", `{"rows": [true]}`, 400, "row 1: want a text, an array of numbers or an object"},
		{dense, "/predict", "application/json", `{"rows": [{"values": [1, 2, 3, 4], "colour": 1}]}`, 400, `row 1: json: unknown field "colour"`},
		{dense, "/predict", "application/json", `{"Rows": [[1, 2, 3, 4]]}`, 400, "unknown member"},
		{dense, "/predict", "application/json", `{"rows": [{"values": [1, 2, 3, 4], "values": [1, 2, 3, 4]}]}`, 400, "more than once"},
		{dense, "/predict", "application/json", `{"rows": ["a text"]}`, 400, "row 1: a text: the rows are the values of 4 features"},
		{dense, "/predict", "application/json", "{\"rows\": [\"\xff\"]}", 400, "not UTF-8: line 1, byte 12"},
		{dense, "/predict", "text/csv", "1,2,3\n", 400, "rows of 3 features, want 4"},
		{dense, "/predict", "text/csv", "1,2,3,4\n1,2,3\n", 400, "line 2"},
		{dense, "/predict", "text/csv", "1,2,NaN,4\n", 400, "line 1"},
		{dense, "/predict", "text/csv", "1,2,\xc3\x28,4\n", 400, "not UTF-8: line 1, byte 5"},
		{dense, "/predict", "application/xml", "<rows/>", 415, "Content-Type \"application/xml\""},
		{dense, "/predict?format=idx", "", "1,2,3,4\n", 415, "format=\"idx\""},
		{dense, "/predict?format=text", "", "some words\n", 400, "not trained on text"},
		{dense, "/predict?scores=maybe", "text/csv", "1,2,3,4\n", 400, "scores=\"maybe\""},
		{dense, "/predict?k=-1", "text/csv", "1,2,3,4\n", 400, "k=\"-1\""},
		{dense, "/predict?top=3", "text/csv", "1,2,3,4\n", 400, "unknown query parameter \"top\""},
		{dense, "/predict?probabilities=1", "text/csv", "1,2,3,4\n", 400, "no calibrated probabilities"},
		{dense, "/predict", "", "", 400, "the body"},
		{dense, "/predict", "", "what is this", 400, "cannot tell the format"},
		{dense, "/learn", "text/csv", "1,2,3,4,purple\n", 400, `row 1: the label "purple" is no class of the model`},
		{dense, "/learn", "text/csv", "1,2,3,4,NaN\n", 400, `row 1: the label "NaN" is not a finite number`},
		{dense, "/learn", "text/csv", "1,2,3,4,red\n1,2,3,4\n", 400, "line 2"},
		{dense, "/learn", "application/json", `{"rows": [[1, 2, 3, 4]]}`, 400, "the rows have no labels to learn"},
		{dense, "/learn", "application/json", `{"rows": [{"values": [1, 2, 3, 4], "label": "pink"}]}`, 400, `the label "pink" is no class`},
		{dense, "/learn", "application/json", `{"rows": [{"values": [1, 2, 3, 4], "label": null}]}`, 400, "row 1"},
		{dense, "/learn", "application/json", `{"rows": [{"values": [1, 2, 3, 4], "label": "red"}, {"values": [1, 2, 3, 4], "label": true}]}`, 400, "row 2: label: a JSON bool, want a string or a number"},
		{dense, "/learn?k=2", "text/csv", "1,2,3,4,red\n", 400, "unknown query parameter"},
		{dense, "/predict", "", "\x1f\x8b\x08\x00", 400, "not UTF-8"},
		{sparse, "/predict", "", "0 1:1 40:2\n", 400, "1 value at feature indices beyond the model's 30"},
		{sparse, "/predict", "", "0 3:1 2:2\n", 400, "line 1"},
		{sparse, "/predict", "application/json", `{"rows": [{"indices": [1, 31], "values": [1, 2]}]}`, 400, "index 31, want 1 to 30"},
		{sparse, "/predict", "application/json", `{"rows": [{"indices": [2, 1], "values": [1, 2]}]}`, 400, "want increasing indices"},
		{sparse, "/predict", "application/json", `{"rows": [{"indices": [1, 2], "values": [1]}]}`, 400, "2 indices and 1 value"},
		{sparse, "/learn", "", "nan 1:1\n", 400, `"nan" is not a finite number`},
		{sparse, "/learn", "", "7 1:1\n", 400, `the label "7" is no class`},
		{text, "/predict", "application/json", `{"rows": [[1, 2]]}`, 400, "row 1: no text: the rows are texts"},
		{text, "/predict?format=csv", "", "1,2\n", 400, "trained on text"},
		{text, "/predict", "", "a text \xff\xfe of bytes\n", 400, "not UTF-8: line 1, byte 8"},
		{text, "/learn", "", "__label__art a painting of the sea\n", 400, `the label "art" is no class of the model, whose classes are "politics", "science", "sport"`},
		{text, "/learn", "", "__label__sport a match\nno label here\n", 400, "line 2: no label"},
		{text, "/learn", "", "a match without a label\n", 400, "the rows have no labels to learn"},
		{text, "/learn", "application/json", `{"rows": [{"text": "a match", "label": 3}]}`, 400, `the label "3" is no class`},
	} {
		saved := filepath.Join(dir, "saved.json")
		os.Remove(saved)
		ts := startServer(t, "-model", c.m.model, "-learn", "-save", saved)
		_, before := ts.do(t, "GET", "/model", "", nil)
		code, answer := ts.do(t, "POST", c.path, c.ctype, []byte(c.body))
		var e struct{ Error string }
		err := json.Unmarshal([]byte(answer), &e)
		if code != c.code || err != nil || !strings.Contains(e.Error, c.want) || strings.Count(answer, "\n") != 1 {
			t.Errorf("%s %s %.60q: status %d, %q; want %d and %q", c.m.name, c.path, c.body, code, answer, c.code, c.want)
		}
		if _, after := ts.do(t, "GET", "/model", "", nil); after != before {
			t.Errorf("%s %s %.60q: the model changed", c.m.name, c.path, c.body)
		}
		if code, _ := ts.do(t, "GET", "/healthz", "", nil); code != 200 {
			t.Errorf("%s %s %.60q: then /healthz: status %d", c.m.name, c.path, c.body, code)
		}
		if err := ts.stop(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(saved); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s %s %.60q: a model that learned nothing was saved: %v", c.m.name, c.path, c.body, err)
		}
	}
}

// The methods and paths that no endpoint takes are answered 405 and 404
// in JSON; a server without -learn answers /learn 403.
func TestServeEndpoints(t *testing.T) {
	dir := t.TempDir()
	m := servedModels(t, dir)[2]
	ts := startServer(t, "-model", m.model)
	for _, c := range []struct {
		method, path string
		code         int
		want         string
	}{
		{"GET", "/predict", 405, `{"error":"GET /predict: want POST"}`},
		{"DELETE", "/model", 405, `{"error":"DELETE /model: want GET"}`},
		{"POST", "/healthz", 405, `{"error":"POST /healthz: want GET"}`},
		{"GET", "/", 404, `{"error":"no endpoint \"/\": want /predict, /learn, /model, /healthz or /metrics"}`},
		{"POST", "/learn", 403, `{"error":"the server does not learn: start it with -learn"}`},
		{"GET", "/healthz", 200, `{"status":"ok"}`},
	} {
		code, answer := ts.do(t, c.method, c.path, "", []byte("__label__sport a goal\n"))
		if code != c.code || answer != c.want+"\n" {
			t.Errorf("%s %s: status %d, %q; want %d, %q", c.method, c.path, code, answer, c.code, c.want)
		}
	}
}

// The limits of a body, its bytes and its rows, are answered 413, before
// the rows are read.
func TestServeLimits(t *testing.T) {
	dir := t.TempDir()
	m := servedModels(t, dir)[2]
	ts := startServer(t, "-model", m.model, "-max-body", "100", "-max-rows", "3")
	for _, c := range []struct {
		body string
		code int
		want string
	}{
		{strings.Repeat("goal ", 20), 200, ""},
		{strings.Repeat("goal ", 21), 413, `{"error":"a body of 105 bytes, more than the 100 of -max-body"}`},
		{"a\nb\nc\n", 200, ""},
		{"a\n\nb\n\nc\n\n", 200, ""},
		{"a\nb\nc\nd\n", 413, `{"error":"4 rows, more than the 3 of -max-rows"}`},
		{`{"rows": ["a", "b", "c", "d"]}`, 413, `{"error":"4 rows, more than the 3 of -max-rows"}`},
	} {
		ctype := ""
		if c.body[0] == '{' {
			ctype = "application/json"
		}
		code, answer := ts.do(t, "POST", "/predict", ctype, []byte(c.body))
		if code != c.code || c.want != "" && answer != c.want+"\n" {
			t.Errorf("%.40q: status %d, %q; want %d, %q", c.body, code, answer, c.code, c.want)
		}
	}
	// A body of no stated length is cut at the limit.
	req, _ := http.NewRequest("POST", ts.url+"/predict", io.MultiReader(strings.NewReader(strings.Repeat("goal ", 30))))
	req.ContentLength = -1
	resp, err := ts.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || string(b) != `{"error":"a body of more than the 100 bytes of -max-body"}`+"\n" {
		t.Errorf("a chunked body: status %d, %q", resp.StatusCode, b)
	}
}

// A slow client, of its headers or of its body, is cut off at
// -read-timeout, and the server answers the others meanwhile.
func TestServeSlowClient(t *testing.T) {
	dir := t.TempDir()
	m := servedModels(t, dir)[2]
	const timeout = 300 * time.Millisecond
	ts := startServer(t, "-model", m.model, "-read-timeout", timeout.String())
	addr := strings.TrimPrefix(ts.url, "http://")
	for _, c := range []struct {
		name, sent, want string
	}{
		{"headers", "POST /predict HTTP/1.1\r\nHost: x\r\n", ""},
		{"body", "POST /predict HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nthe team", `{"error":"the body was not read within the 300ms of -read-timeout"}`},
	} {
		// The server's deadline starts after the connection does, which
		// may be before Dial returns.
		start := time.Now()
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conn.Write([]byte(c.sent))
		// Others are answered meanwhile.
		if code, _ := ts.do(t, "POST", "/predict", "", []byte("the final")); code != 200 {
			t.Errorf("%s: another request: status %d", c.name, code)
		}
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		b, err := io.ReadAll(conn)
		took := time.Since(start)
		conn.Close()
		if err != nil || took < timeout || took > timeout+5*time.Second {
			t.Errorf("%s: the connection ended after %v, %v; want at %v", c.name, took, err, timeout)
		}
		if c.want == "" && len(b) != 0 {
			t.Errorf("%s: the server answered %q, want nothing", c.name, b)
		}
		if c.want != "" && (!strings.HasPrefix(string(b), "HTTP/1.1 408 ") || !strings.HasSuffix(string(b), "\r\n\r\n"+c.want+"\n")) {
			t.Errorf("%s: the server answered %q, want 408 and %q", c.name, b, c.want)
		}
	}
}

// A request whose rows would not fit in the memory left, 32 times its
// body, is answered 503 before its body is read, and the server goes on;
// a body of no stated length, sent in chunks, is answered so after it is
// read, by its length, and a short one is answered.
func TestServeMemoryBudget(t *testing.T) {
	dir := t.TempDir()
	m := servedModels(t, dir)[2]
	ts := startServer(t, "-model", m.model)
	body := []byte(strings.Repeat("the team won the cup\n", 5000)) // 105 kB
	chunked := func(body []byte) (int, string) {
		req, _ := http.NewRequest("POST", ts.url+"/predict", io.MultiReader(bytes.NewReader(body)))
		req.ContentLength = -1
		resp, err := ts.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	// What Go holds free is returned first, as it would be once the limit
	// nears, leaving more room than the limit set here means.
	debug.FreeOSMemory()
	was := debug.SetMemoryLimit(int64(goHeld() + 1<<20))
	code, answer := ts.do(t, "POST", "/predict", "", body)
	chunkedCode, chunkedAnswer := chunked(body)
	shortCode, shortAnswer := chunked([]byte("the team won the cup\n"))
	debug.SetMemoryLimit(was)
	const want = `{"error":"reading a body of 105000 bytes needs 3.2 MiB of memory, more than the `
	if code != 503 || !strings.HasPrefix(answer, want) {
		t.Errorf("status %d, %.200q; want 503 and the memory needed", code, answer)
	}
	if chunkedCode != 503 || !strings.HasPrefix(chunkedAnswer, want) {
		t.Errorf("the body in chunks: status %d, %.200q; want 503 and the memory needed", chunkedCode, chunkedAnswer)
	}
	if shortCode != 200 {
		t.Errorf("a short body in chunks: status %d, %q; want 200", shortCode, shortAnswer)
	}
	if code, _ := ts.do(t, "POST", "/predict", "", body); code != 200 {
		t.Errorf("then, under the limit of before: status %d", code)
	}
}
