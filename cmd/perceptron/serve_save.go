// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/seed5ae3614e/perceptron/data"
)

// checkpoints saves the model every s.every until stop is closed, if it
// learned since it was last saved. A failed checkpoint is said on stderr
// and tried again at the next.
func (s *server) checkpoints(stop <-chan struct{}) {
	if s.save == "" {
		return
	}
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if _, err := s.checkpoint(); err != nil {
				fmt.Fprintf(s.errs, "perceptron: checkpoint: %v\n", err)
			}
		}
	}
}

// checkpoint saves the model to s.save if it learned since it was last
// saved, and reports whether it did. It writes a temporary file beside the
// file, syncs it and renames it into place, as train replaces its model,
// while learning waits: a kill at any moment leaves the file as it was,
// or the whole new model. It is not called from two goroutines at once.
func (s *server) checkpoint() (saved bool, err error) {
	if s.model.changed() == s.saved {
		return false, nil
	}
	defer func() {
		if err != nil {
			s.metrics.checkpointErrors.Add(1)
		}
	}()
	t, err := target(s.save)
	if err != nil {
		return false, fmt.Errorf("writing %s: %v", s.save, err)
	}
	removeDebris(s.notes, t)
	var version uint64
	var tmp *os.File
	start := time.Now()
	err = s.model.snapshot(func(m *data.Model, v uint64) error {
		version = v
		var err error
		tmp, err = writeTemp(t, modelWriter(m, s.save))
		return err
	})
	held := time.Since(start)
	if tmp != nil {
		// Closing the file releases its lock, after the rename.
		defer func() {
			tmp.Close()
			keepTemp(tmp.Name(), false)
		}()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), t)
	}
	if err != nil {
		if tmp != nil {
			os.Remove(tmp.Name())
		}
		return false, fmt.Errorf("writing %s: %v", s.save, pathCause(err))
	}
	// The rename lasts once the directory is synced.
	if d, err := os.Open(filepath.Dir(t)); err == nil {
		d.Sync()
		d.Close()
	}
	s.saved = version
	s.metrics.checkpoints.Add(1)
	s.metrics.lastCheckpoint.Store(time.Now().UnixNano())
	s.metrics.checkpointTime.Store(int64(held))
	return true, nil
}
