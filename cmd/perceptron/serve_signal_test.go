// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
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
	"testing"
	"time"

	"github.com/seed5ae3614e/perceptron/data"
)

// startServeChild starts the command serve with args in a child process,
// on a port of the loopback that the system picks, and returns it with
// the URL it serves on, once it serves.
func startServeChild(t *testing.T, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := child(t, "main", append([]string{"serve", "-addr", "127.0.0.1:0"}, args...)...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(stderr)
	line, err := r.ReadString('\n')
	_, url, ok := strings.Cut(line, " on ")
	url, _, _ = strings.Cut(url, ";")
	if err != nil || !ok {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child wrote %q, %v", line, err)
	}
	go io.Copy(io.Discard, r)
	return cmd, strings.TrimSpace(url)
}

// learnLoad sends requests to learn, of one to three labelled rows each,
// from clients goroutines, and requests to predict beside them, until
// stop is closed or the server takes no more; it returns the rows sent
// and the rows of the requests answered 200.
func learnLoad(url string, clients int, stop <-chan struct{}) (sent, acked int64) {
	var wg sync.WaitGroup
	var s, a atomic.Int64
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}
			defer client.CloseIdleConnections()
			rnd := rand.New(rand.NewPCG(uint64(c), 9))
			for {
				select {
				case <-stop:
					return
				default:
				}
				texts, labels := topicLines(rnd, 1+rnd.IntN(3))
				body, _ := fastText(texts, labels)
				path := "/learn"
				if c%2 == 1 {
					path = "/predict"
				} else {
					s.Add(int64(len(texts)))
				}
				resp, err := client.Post(url+path, "text/plain", bytes.NewReader(body))
				if err != nil {
					return // the server has stopped
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 && path == "/learn" {
					a.Add(int64(len(texts)))
				}
			}
		}()
	}
	wg.Wait()
	return s.Load(), a.Load()
}

// SIGTERM under load stops the server gracefully: it exits with status
// 0, and every request to learn that it answered 200 is in the model it
// saved.
func TestServeSIGTERMUnderLoad(t *testing.T) {
	dir := t.TempDir()
	m := servedModels(t, dir)[2]
	saved := filepath.Join(dir, "saved.json")
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		os.Remove(saved)
		cmd, url := startServeChild(t, "-model", m.model, "-learn", "-save", saved, "-save-every", "20ms")
		stop := make(chan struct{})
		var sent, acked int64
		done := make(chan struct{})
		go func() {
			sent, acked = learnLoad(url, 8, stop)
			close(done)
		}()
		time.Sleep(300 * time.Millisecond)
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		close(stop)
		<-done
		if err != nil {
			t.Fatalf("%v: the server ended with %v, want exit status 0", sig, err)
		}
		rows := modelRows(t, saved) - modelRows(t, m.model)
		t.Logf("%v: %d rows sent to learn, %d answered 200, %d in the model saved", sig, sent, acked, rows)
		if acked == 0 || int64(rows) < acked || int64(rows) > sent {
			t.Errorf("%v: the model saved learned %d rows; %d were answered 200 of the %d sent", sig, rows, acked, sent)
		}
	}
}

// A kill -9 at any moment of a server that learns and saves its model
// every millisecond leaves its file whole: the model as it was, or as a
// checkpoint saved it, never part of one.
func TestServeKill9Checkpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("20 servers killed")
	}
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(5, 5))
	texts, labels := topicLines(rnd, 300)
	ft, _ := fastText(texts, labels)
	train := writeFile(t, dir, "topics.txt", ft)
	model := filepath.Join(dir, "topics.json")
	// A model of a few MB, which takes some milliseconds to write.
	mustRun(t, "train", "-bits", "15", "-o", model, train)
	orig, _ := os.ReadFile(model)
	const tries = 20
	debris := 0
	for try := range tries {
		sub := filepath.Join(dir, fmt.Sprint(try))
		os.Mkdir(sub, 0o755)
		file := writeFile(t, sub, "m.json", orig)
		cmd, url := startServeChild(t, "-model", file, "-learn", "-save", file, "-save-every", "1ms")
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			learnLoad(url, 4, stop)
			close(done)
		}()
		time.Sleep(time.Duration(50+rnd.IntN(200)) * time.Millisecond)
		cmd.Process.Kill()
		err := cmd.Wait()
		close(stop)
		<-done
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("try %d: the server ended with %v", try, err)
		}
		if _, err := data.LoadModel(file); err != nil {
			t.Errorf("try %d: the model file after a kill -9: %v", try, err)
		}
		if names := listDir(t, sub); len(names) > 1 {
			debris++ // a checkpoint was being written
		}
	}
	t.Logf("%d of %d kills came while a checkpoint was being written", debris, tries)
	if debris == 0 {
		t.Errorf("no kill of %d came while a checkpoint was being written: the test tests nothing", tries)
	}
}
