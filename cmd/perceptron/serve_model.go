// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/data"
)

// served is the model of a server: predictions of many requests at once,
// beside one Learn at a time, and snapshots, each of the model between two
// Learns. The library's classifiers predict while one goroutine learns,
// each prediction seeing the model before a Learn or after it: a request
// for the classes alone waits for nothing. A Learn and a snapshot wait for
// each other, and so does a request for scores or probabilities too,
// which reads the model more than once and must read one model. This is
// the one place that knows how the model is shared.
type served struct {
	mu      sync.Mutex
	m       *data.Model
	version atomic.Uint64 // the Learns that changed the model so far
	closed  bool          // whether Learn is refused: the server is stopping
}

// errStopping is the error of a Learn after close.
var errStopping = errors.New("the server is stopping: it learns no more")

// predict returns the class of each row of X, as an index into the
// model's Classes, as data.Model's Predict gives them; with scores, or
// with probs, their scores, as its Score gives them, and with probs the
// probabilities of the classes.
func (s *served) predict(X mat.Matrix, scores, probs bool) (pred, sc, pr []float64, err error) {
	if !(scores || probs) {
		pred, err = s.m.Predict(X)
		return pred, nil, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if pred, err = s.m.Predict(X); err != nil {
		return pred, nil, nil, err
	}
	if sc, err = s.m.Score(X); err != nil || !probs {
		return pred, sc, nil, err
	}
	pr, err = probabilities(s.m, X)
	return pred, sc, pr, err
}

// learn trains the model on the rows of set, whose classes are the
// model's, with one Learn, and returns the mistakes it made on them. It
// returns errStopping once close has been called.
func (s *served) learn(set *data.Set) (mistakes int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, errStopping
	}
	before := statsOf(s.m.Classifier).Mistakes
	err = s.m.Learn(set)
	// A Learn that failed may have learned the rows before an overflow.
	s.version.Add(1)
	return statsOf(s.m.Classifier).Mistakes - before, err
}

// snapshot calls write with the model as it is between two Learns, and
// its version; no Learn runs until write returns.
func (s *served) snapshot(write func(m *data.Model, version uint64) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return write(s.m, s.version.Load())
}

// changed returns the version of the model.
func (s *served) changed() uint64 { return s.version.Load() }

// close refuses every Learn from now on.
func (s *served) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}
