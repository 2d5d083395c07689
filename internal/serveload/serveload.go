// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package serveload drives the command perceptron serve from outside,
// for the command's tests and bench/stress: a server in a child process,
// a load of requests to learn and to predict, and the two checks of the
// server that need a whole process, a kill -9 during its checkpoints and
// a signal under load.
package serveload

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Server is a child process of perceptron serve, and the URL it serves on.
type Server struct {
	Cmd *exec.Cmd
	URL string
}

// Start starts cmd, perceptron serve without -q, and returns it once it
// serves, with the URL that the first line of its stderr gives.
func Start(cmd *exec.Cmd) (*Server, error) {
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r := bufio.NewReader(stderr)
	line, err := r.ReadString('\n')
	_, url, ok := strings.Cut(line, " on ")
	url, _, _ = strings.Cut(url, ";")
	if err != nil || !ok {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("serve wrote %q, %v", line, err)
	}
	go io.Copy(io.Discard, r)
	return &Server{cmd, strings.TrimSpace(url)}, nil
}

// Stop sends sig to the server and returns an error unless it then exits
// with status 0.
func (s *Server) Stop(sig os.Signal) error {
	s.Cmd.Process.Signal(sig)
	if err := s.Cmd.Wait(); err != nil {
		return fmt.Errorf("after %v the server ended with %v, want exit status 0", sig, err)
	}
	return nil
}

// Body returns the body of a request of n labelled rows in the model's
// format, from rnd.
type Body func(rnd *rand.Rand, n int) []byte

// Load sends requests of one to three rows that body makes, to learn from
// half the clients and to predict from the others, until stop is closed or
// the server takes no more, and returns the rows sent to learn and the
// rows of the requests to learn answered 200.
func Load(url string, clients int, body Body, stop <-chan struct{}) (sent, acked int64) {
	var wg sync.WaitGroup
	var s, a atomic.Int64
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}
			defer client.CloseIdleConnections()
			rnd := rand.New(rand.NewPCG(uint64(c), 44))
			for {
				select {
				case <-stop:
					return
				default:
				}
				n := 1 + rnd.IntN(3)
				path := "/predict"
				if c%2 == 0 {
					path = "/learn"
					s.Add(int64(n))
				}
				resp, err := client.Post(url+path, "text/plain", bytes.NewReader(body(rnd, n)))
				if err != nil {
					return // the server has stopped
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 && path == "/learn" {
					a.Add(int64(n))
				}
			}
		}()
	}
	wg.Wait()
	return s.Load(), a.Load()
}

// Rows returns the number of rows that the model file at path, of JSON,
// was trained on, as its statistics of the rows count them, which every
// Learn adds to.
func Rows(path string) (int64, error) {
	b, err := os.ReadFile(path)
	var m struct{ Rows struct{ Rows int64 } }
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %v", path, err)
	}
	return m.Rows.Rows, nil
}

// StopUnderLoad starts a server with start, whose model is the file
// model and which saves to the file saved, loads it for wait, stops it
// with sig, and returns an error unless it exits with status 0 and every
// request to learn answered 200 is in the model it saved. It returns the
// rows sent to learn, those answered 200, and those the model saved
// learned.
func StopUnderLoad(start func() (*Server, error), model, saved string, body Body, sig os.Signal, wait time.Duration) (sent, acked, learned int64, err error) {
	srv, err := start()
	if err != nil {
		return 0, 0, 0, err
	}
	defer srv.Cmd.Process.Kill()
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		sent, acked = Load(srv.URL, 8, body, stop)
		close(done)
	}()
	time.Sleep(wait)
	err = srv.Stop(sig)
	close(stop)
	<-done
	if err != nil {
		return sent, acked, 0, err
	}
	before, err1 := Rows(model)
	after, err2 := Rows(saved)
	if err := errors.Join(err1, err2); err != nil {
		return sent, acked, 0, err
	}
	learned = after - before
	if acked == 0 || learned < acked || learned > sent {
		err = fmt.Errorf("%v: the model saved learned %d rows; %d were answered 200 of the %d sent", sig, learned, acked, sent)
	}
	return sent, acked, learned, err
}

// KillDuringCheckpoints kills a server tries times while it learns and
// saves its model every millisecond, each at a random moment from rnd, or,
// every other try, at the first moment after it that the file of a
// checkpoint is being written beside the model, and checks with load that
// the model file loads every time. Each try
// starts a server with start on a copy of the model file in a directory
// of its own, which -save names too. It returns the number of tries that
// left a temporary file, whose kill came while a checkpoint was written,
// and an error if the file failed to load or no kill came so.
func KillDuringCheckpoints(start func(file string) (*Server, error), model string, body Body, tries int, rnd *rand.Rand, load func(path string) error) (during int, err error) {
	orig, err := os.ReadFile(model)
	if err != nil {
		return 0, err
	}
	for try := range tries {
		dir, err := os.MkdirTemp("", "serveload")
		if err != nil {
			return during, err
		}
		defer os.RemoveAll(dir)
		file := filepath.Join(dir, filepath.Base(model))
		if err := os.WriteFile(file, orig, 0o644); err != nil {
			return during, err
		}
		srv, err := start(file)
		if err != nil {
			return during, err
		}
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			Load(srv.URL, 4, body, stop)
			close(done)
		}()
		time.Sleep(time.Duration(50+rnd.IntN(200)) * time.Millisecond)
		if try%2 == 1 {
			// The window of a checkpoint's file is short beside the rest
			// of a checkpoint, the more so in a slow build: wait for it.
			for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
				if names, _ := os.ReadDir(dir); len(names) > 1 {
					break
				}
				time.Sleep(100 * time.Microsecond)
			}
		}
		srv.Cmd.Process.Kill()
		err = srv.Cmd.Wait()
		close(stop)
		<-done
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			return during, fmt.Errorf("try %d: the server ended with %v, want SIGKILL", try, err)
		}
		if err := load(file); err != nil {
			return during, fmt.Errorf("try %d: the model file after a kill -9: %v", try, err)
		}
		if names, _ := os.ReadDir(dir); len(names) > 1 {
			during++
		}
	}
	if during == 0 {
		return 0, fmt.Errorf("no kill of %d came while a checkpoint was written: the check checks nothing", tries)
	}
	return during, nil
}
