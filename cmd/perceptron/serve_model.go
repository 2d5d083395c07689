// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/data"
)

// served is the model of a server: predictions of many requests at once,
// each one Learn at a time, and snapshots, each of the model between two
// Learns. A Learn waits for the predictions and snapshots in flight, and
// those that come after it wait for it. This is the one place that knows
// how the model is shared.
type served struct {
	mu      sync.RWMutex
	m       *data.Model
	version uint64 // the Learns that changed the model so far
	closed  bool   // whether Learn is refused: the server is stopping
}

// errStopping is the error of a Learn after close.
var errStopping = errors.New("the server is stopping: it learns no more")

// predict returns the class of each row of X, as an index into the
// model's Classes, as data.Model's Predict gives them; with scores, or
// with probs, their scores, as its Score gives them, and with probs the
// probabilities of the classes.
func (s *served) predict(X mat.Matrix, scores, probs bool) (pred, sc, pr []float64, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if pred, err = s.m.Predict(X); err != nil || !(scores || probs) {
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
	s.version++
	return statsOf(s.m.Classifier).Mistakes - before, err
}

// snapshot calls write with the model as it is between two Learns, and
// its version; no Learn runs until write returns.
func (s *served) snapshot(write func(m *data.Model, version uint64) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return write(s.m, s.version)
}

// changed returns the version of the model.
func (s *served) changed() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.version
}

// close refuses every Learn from now on.
func (s *served) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}
