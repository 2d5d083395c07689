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
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/seed5ae3614e/perceptron/data"
	"github.com/seed5ae3614e/perceptron/internal/serveload"
)

// serveTests are the faults of issue 44 sent to perceptron serve, each in
// a server of its own that learns: a bad request is answered 4xx with a
// line of JSON that names what is wrong, and leaves the model as it was,
// and the server then stops gracefully with exit status 0; a kill -9 at
// any moment of checkpoints leaves a whole model file; and SIGTERM under
// load saves every request to learn that was answered 200.
var serveTests = []test{
	badRequest("malformed-json", "/predict", "application/json", `{"rows": [[1, 2, 3, 4]`, 400, "not JSON"),
	badRequest("wrong-width", "/predict", "text/csv", "1,2,3\n", 400, "rows of 3 features, want 4"),
	badRequest("wrong-width-json", "/predict", "application/json", `{"rows": [[1, 2, 3, 4, 5]]}`, 400, "5 values, want 4"),
	badRequest("unknown-format", "/predict", "application/xml", "<rows/>", 415, "Content-Type"),
	badRequest("oversized-body", "/predict", "text/csv", strings.Repeat("1,2,3,4\n", 200), 413, "more than the 1000 of -max-body"),
	badRequest("too-many-rows", "/predict", "text/csv", strings.Repeat("1,2,3,4\n", 60), 413, "more than the 50 of -max-rows"),
	badRequest("invalid-utf8", "/predict", "text/csv", "1,2,\xff,4\n", 400, "not UTF-8"),
	badRequest("invalid-utf8-json", "/predict", "application/json", "{\"rows\": [{\"label\": \"\xc3\x28\", \"values\": [1, 2, 3, 4]}]}", 400, "not UTF-8"),
	badRequest("unknown-label", "/learn", "text/csv", "1,2,3,4,purple\n", 400, `the label "purple" is no class`),
	badRequest("nan-label", "/learn", "text/csv", "1,2,3,4,NaN\n", 400, `the label "NaN" is not a finite number`),
	badRequest("nan-label-json", "/learn", "application/json", `{"rows": [{"label": "NaN", "values": [1, 2, 3, 4]}]}`, 400, `not a finite number`),
	badRequest("slow-client", "/learn", "text/csv", "", 408, "not read within"),
	{name: "serve/kill9-checkpoint", code: 0, args: serveArgs("topics"), lib: kill9Checkpoints},
	{name: "serve/sigterm-under-load", code: 0, args: serveArgs("topics"), lib: sigtermUnderLoad},
}

// serveArgs returns the arguments of a case of serve: the command, and
// the model of the kind, dense rows or topics, trained once.
func serveArgs(kind string) func(s *suite) ([]string, error) {
	return func(s *suite) ([]string, error) {
		model, err := s.file("serve-"+kind+".json", func(path string) error {
			rnd := rand.New(rand.NewPCG(44, 44))
			var b bytes.Buffer
			args := []string{"train", "-resumable", "-o", path} // to learn on
			if kind == "dense" {
				for i := range 200 {
					c := i % 3
					fmt.Fprintf(&b, "%.3f,%.3f,%.3f,%.3f,%s\n", float64(c)+rnd.NormFloat64(), rnd.NormFloat64(), float64(-c)+rnd.NormFloat64(), rnd.NormFloat64(), []string{"red", "green", "blue"}[c])
				}
			} else {
				b.Write(topicText(rnd, 300))
				// A model of a few MB, which takes milliseconds to write.
				args = append(args, "-bits", "15")
			}
			rows := path + ".rows"
			if err := os.WriteFile(rows, b.Bytes(), 0o644); err != nil {
				return err
			}
			if out, err := exec.Command(s.cmd, append(args, rows)...).CombinedOutput(); err != nil {
				return fmt.Errorf("training %s: %v: %s", path, err, out)
			}
			return nil
		})
		return []string{s.cmd, model}, err
	}
}

// topicText returns n lines of fastText's format, of three topics.
func topicText(rnd *rand.Rand, n int) []byte {
	words := map[string][]string{
		"sport":    {"team", "match", "goal", "coach", "cup", "final", "won", "league"},
		"politics": {"parliament", "vote", "minister", "budget", "law", "party", "election"},
		"science":  {"planet", "vaccine", "particle", "physicists", "trial", "water", "theory"},
	}
	topics := []string{"sport", "politics", "science"}
	var b bytes.Buffer
	for i := range n {
		t := topics[i%3]
		b.WriteString("__label__" + t)
		for range 4 + rnd.IntN(6) {
			b.WriteString(" " + words[t][rnd.IntN(len(words[t]))])
		}
		b.WriteString(" the news\n")
	}
	return b.Bytes()
}

// startServe starts the command cmd's serve with args on a port of the
// loopback.
func startServe(cmd string, args ...string) (*serveload.Server, error) {
	return serveload.Start(exec.Command(cmd, append([]string{"serve", "-addr", "127.0.0.1:0"}, args...)...))
}

// get returns the body of a GET of path from srv, which must be answered
// 200.
func get(srv *serveload.Server, path string) ([]byte, error) {
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("GET %s: status %d", path, resp.StatusCode)
	}
	return b, err
}

// badRequest returns the case of a request to path of the body, of the
// Content-Type ctype, to a server of a model of four dense features that
// learns, which must be answered with the status code and a line of JSON
// whose error holds want, leave the model as it was, and leave the server
// answering. The slow client sends half its body and waits.
func badRequest(name, path, ctype, body string, code int, want string) test {
	return test{name: "serve/" + name, code: 0, args: serveArgs("dense"), lib: func(_ *suite, args []string) (string, error) {
		dir, err := os.MkdirTemp("", "serve")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(dir)
		srv, err := startServe(args[0], "-model", args[1], "-learn", "-save", filepath.Join(dir, "m.json"),
			"-max-body", "1000", "-max-rows", "50", "-read-timeout", "500ms")
		if err != nil {
			return "", err
		}
		defer srv.Cmd.Process.Kill()
		before, err := get(srv, "/model")
		if err != nil {
			return "", err
		}
		var status int
		var answer []byte
		if name == "slow-client" {
			status, answer, err = slowClient(srv)
		} else {
			var resp *http.Response
			if resp, err = http.Post(srv.URL+path, ctype, strings.NewReader(body)); err == nil {
				status = resp.StatusCode
				answer, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
		}
		if err != nil {
			return "", err
		}
		var e struct{ Error string }
		jerr := json.Unmarshal(answer, &e)
		if status != code || jerr != nil || !strings.Contains(e.Error, want) || bytes.Count(answer, []byte("\n")) != 1 {
			return "", fmt.Errorf("status %d, %q; want %d and an error of %q", status, answer, code, want)
		}
		after, err := get(srv, "/model")
		if err != nil {
			return "", err
		}
		if !bytes.Equal(before, after) {
			return "", errors.New("the model changed")
		}
		if err := srv.Stop(syscall.SIGTERM); err != nil {
			return "", err
		}
		if _, err := os.Stat(filepath.Join(dir, "m.json")); !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("a model that learned nothing was saved: %v", err)
		}
		return fmt.Sprintf("%d %s", status, bytes.TrimSpace(answer)), nil
	}}
}

// slowClient sends half a body to learn and waits, while another request
// is answered, and returns the answer of the server, which must come
// after its read timeout.
func slowClient(srv *serveload.Server) (int, []byte, error) {
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		return 0, nil, err
	}
	defer conn.Close()
	start := time.Now()
	fmt.Fprintf(conn, "POST /learn HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: 30\r\n\r\n1,2,3,")
	if _, err := get(srv, "/healthz"); err != nil {
		return 0, nil, fmt.Errorf("another request beside the slow one: %v", err)
	}
	conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if took := time.Since(start); err == nil && took < 500*time.Millisecond {
		err = fmt.Errorf("answered after %v, before the read timeout", took)
	}
	return resp.StatusCode, b, err
}

// kill9Checkpoints kills 20 servers that learn and save their model every
// millisecond, each at a random moment, and checks that the model file
// loads every time.
func kill9Checkpoints(s *suite, args []string) (string, error) {
	start := func(file string) (*serveload.Server, error) {
		return startServe(args[0], "-model", file, "-learn", "-save", file, "-save-every", "1ms")
	}
	load := func(path string) error { _, err := data.LoadModel(path); return err }
	during, err := serveload.KillDuringCheckpoints(start, args[1], topicText, 20, rand.New(rand.NewPCG(s.seed, 9)), load)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("20 kills, %d while a checkpoint was written: the model file loaded every time", during), nil
}

// sigtermUnderLoad sends SIGTERM to a server under load, and checks that
// every request to learn answered 200 is in the model it saved.
func sigtermUnderLoad(_ *suite, args []string) (string, error) {
	dir, err := os.MkdirTemp("", "serve")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	saved := filepath.Join(dir, "m.json")
	start := func() (*serveload.Server, error) {
		return startServe(args[0], "-model", args[1], "-learn", "-save", saved, "-save-every", "20ms")
	}
	sent, acked, learned, err := serveload.StopUnderLoad(start, args[1], saved, topicText, syscall.SIGTERM, 500*time.Millisecond)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d rows sent to learn, %d answered 200, %d in the model saved", sent, acked, learned), nil
}
