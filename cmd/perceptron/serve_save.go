// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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
// saved, and reports whether it did. Learning waits while it writes the
// model, uncompressed, into a file of no name; then it writes a temporary
// file beside the file, compressed if the name ends in .gz, syncs it and
// renames it into place, as train replaces its model: a kill at any
// moment leaves the file as it was, or the whole new model. It is not
// called from two goroutines at once.
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
	// Learning waits while the model is written, in the form that its
	// name asks for, into a file of no name; the gzip, the write of the
	// file and its sync come after, while the server learns.
	plain, gz := s.save, strings.HasSuffix(strings.ToLower(s.save), ".gz")
	if gz {
		plain = plain[:len(plain)-len(".gz")]
	}
	var version uint64
	var form, tmp *os.File
	start := time.Now()
	err = s.model.snapshot(func(m *data.Model, v uint64) error {
		version = v
		var err error
		form, err = unnamed(modelWriter(m, plain))
		return err
	})
	held := time.Since(start)
	if form != nil {
		defer form.Close()
	}
	if err == nil {
		tmp, err = writeTemp(t, func(w io.Writer) error {
			if gz {
				zw := gzip.NewWriter(w)
				if _, err := io.Copy(zw, form); err != nil {
					return err
				}
				return zw.Close()
			}
			_, err := io.Copy(w, form)
			return err
		})
	}
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

// unnamed returns a file of no name, which goes when it is closed or the
// process ends, that write has written, read from its start.
func unnamed(write func(io.Writer) error) (*os.File, error) {
	f, err := os.CreateTemp("", "perceptron-model-*")
	if err != nil {
		return nil, fmt.Errorf("a file for the model: %v", err)
	}
	os.Remove(f.Name())
	bw := bufio.NewWriterSize(f, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
