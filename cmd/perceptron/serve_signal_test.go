// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/seed5ae3614e/perceptron/data"
	"github.com/seed5ae3614e/perceptron/internal/serveload"
)

// serveChild returns the function that starts serve with args in a child
// process, on a port of the loopback that the system picks.
func serveChild(t *testing.T, args ...string) func() (*serveload.Server, error) {
	return func() (*serveload.Server, error) {
		return serveload.Start(child(t, "main", append([]string{"serve", "-addr", "127.0.0.1:0"}, args...)...))
	}
}

// topicBody makes the bodies of the load: lines of topics in fastText's
// format.
func topicBody(rnd *rand.Rand, n int) []byte {
	ft, _ := fastText(topicLines(rnd, n))
	return ft
}

// SIGTERM and SIGINT under load stop the server gracefully: it exits with
// status 0, and every request to learn that it answered 200 is in the
// model it saved.
func TestServeSignalUnderLoad(t *testing.T) {
	dir := t.TempDir()
	m := servedModels(t, dir)[2]
	saved := filepath.Join(dir, "saved.json")
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		os.Remove(saved)
		start := serveChild(t, "-model", m.model, "-learn", "-save", saved, "-save-every", "20ms")
		sent, acked, learned, err := serveload.StopUnderLoad(start, m.model, saved, topicBody, sig, 300*time.Millisecond)
		t.Logf("%v: %d rows sent to learn, %d answered 200, %d in the model saved", sig, sent, acked, learned)
		if err != nil {
			t.Error(err)
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
	train := writeFile(t, dir, "topics.txt", topicBody(rnd, 300))
	model := filepath.Join(dir, "topics.json.gz")
	// A model of a few MB, which takes some milliseconds to compress and
	// write beside the file, after it has been written whole into a file
	// of no name while learning waited.
	mustRun(t, "train", "-resumable", "-bits", "15", "-o", model, train)
	start := func(file string) (*serveload.Server, error) {
		return serveChild(t, "-model", file, "-learn", "-save", file, "-save-every", "1ms")()
	}
	load := func(path string) error { _, err := data.LoadModel(path); return err }
	during, err := serveload.KillDuringCheckpoints(start, model, topicBody, 20, rnd, load)
	t.Logf("%d of 20 kills came while a checkpoint was being written", during)
	if err != nil {
		t.Error(err)
	}
}
