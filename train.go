// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math/rand/v2"
)

// DefaultEpochs is the epoch limit used when a classifier's Epochs field is zero.
// It is the iteration limit of scikit-learn's Perceptron.
const DefaultEpochs = 1000

// Stats describes the training run of the last successful Fit.
type Stats struct {
	// Epochs is the number of passes over the data that Fit made.
	Epochs int

	// Converged reports whether the last epoch made no mistake, so that
	// the last weights of the run separate the training data. Averaged,
	// Voted and Kernel's voted and averaged rules predict with other
	// weights, which need not.
	Converged bool

	// Mistakes is the total number of mistakes, which is the number of
	// updates.
	Mistakes int

	// EpochMistakes holds the number of mistakes in each epoch.
	EpochMistakes []int
}

func (s Stats) clone() Stats {
	s.EpochMistakes = append([]int(nil), s.EpochMistakes...)
	return s
}

// Update describes one update of a training run to an OnUpdate callback.
type Update struct {
	// Epoch is the epoch of the update, counted from 1, or 0 for an
	// update by Learn.
	Epoch int

	// Row is the index in X of the row that was a mistake, or -1 for an
	// update by Learn.
	Row int

	// Weights and Biases are the weights and the biases after the update,
	// of the running perceptron, laid out as Weights and Biases of the
	// classifier lay them out: for two classes the d weights w and the
	// one bias b; for K classes the weights of each feature for every
	// class, Weights[j·K+c] for feature j and class c, and K biases. The
	// averaged, voted and pocket weights are formed from these. They
	// belong to the classifier: the callback must not modify or retain
	// them. Kernel has no weight vector, and leaves Weights nil.
	Weights []float64
	Biases  []float64

	// Vectors is the number of support vectors after the update, for
	// Kernel, and 0 for the linear classifiers.
	Vectors int
}

// settings holds the training settings that all classifiers share, as
// given by the caller; resolve checks them and fills in the defaults.
type settings struct {
	epochs   int
	rate     float64
	rnd      *rand.Rand
	noBias   bool
	w0       []float64
	b0       float64
	labels   []float64
	onUpdate func(Update)
}

// resolve returns s with its defaults filled in, or an error if a setting
// is not valid for a model of S scores on rows of length d.
func (s settings) resolve(d, S int) (settings, error) {
	switch {
	case s.epochs < 0:
		return s, fmt.Errorf("perceptron: Epochs is %d, want >= 0", s.epochs)
	case s.rate < 0 || !finite(s.rate):
		return s, fmt.Errorf("perceptron: Rate is %v, want a finite value >= 0", s.rate)
	case s.w0 != nil && len(s.w0) != d*S && S == 1:
		return s, fmt.Errorf("perceptron: InitWeights has length %d, want %d (the number of columns)", len(s.w0), d)
	case s.w0 != nil && len(s.w0) != d*S:
		return s, fmt.Errorf("perceptron: InitWeights has length %d, want %d (the number of columns times the %d classes)", len(s.w0), d*S, S)
	case !finite(s.b0):
		return s, fmt.Errorf("perceptron: InitBias is %v, want a finite value", s.b0)
	case s.noBias && s.b0 != 0:
		return s, fmt.Errorf("perceptron: InitBias is %v with NoBias set, want 0", s.b0)
	case S > 1 && s.b0 != 0:
		return s, fmt.Errorf("perceptron: InitBias is %v with %d classes, want 0: their biases start at zero", s.b0, S)
	}
	if j := nonFinite(s.w0); j >= 0 {
		return s, fmt.Errorf("perceptron: InitWeights[%d] is %v, want a finite value", j, s.w0[j])
	}
	if s.labels != nil {
		if _, err := classesOf(nil, s.labels); err != nil {
			return s, err
		}
	}
	if s.epochs == 0 {
		s.epochs = DefaultEpochs
	}
	if s.rate == 0 {
		s.rate = 1
	}
	return s, nil
}

// learner is a training algorithm, as the epoch loop drives it. The loop
// owns the epochs, their order, Stats and OnUpdate; the algorithm owns its
// visits: what a visit computes, what a mistake changes, and what is kept
// besides.
type learner interface {
	// epoch runs epoch e of the run, whose epochs are numbered from 1 and
	// run one after another: it visits every row once, in order, or in
	// index order if order is nil, and makes the algorithm's update on
	// each that is a mistake, after which it calls onMistake with the row.
	// It must not modify order. It returns an error, before updating on
	// that row, at a row that holds NaN or an infinity, unless the
	// algorithm has checked the rows before; the epoch's updates before
	// it, and their calls, stand. The algorithm runs the loop so that a
	// visit, most of the time one score and a comparison, costs no call.
	epoch(e int, order []int, onMistake func(i int)) error

	// update describes the model after an update, for OnUpdate; notify
	// fills in Epoch and Row.
	update() Update
}

// run is the epoch loop of every classifier's Fit. For each epoch it
// visits every row of ds through l, in index order, or, if s.rnd is set,
// in a fresh random order. It stops after the first epoch with no mistake
// or after s.epochs epochs.
func (s *settings) run(ds *dataset, l learner) (Stats, error) {
	// In index order there is no order to hold: the page faults of n
	// fresh ints can cost as much as an epoch.
	var order []int
	if s.rnd != nil {
		order = make([]int, ds.n)
		for i := range order {
			order[i] = i
		}
	}
	var st Stats
	mistakes := 0
	onMistake := func(i int) {
		mistakes++
		s.notify(st.Epochs, i, l.update)
	}
	for st.Epochs < s.epochs {
		st.Epochs++
		if s.rnd != nil {
			s.rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		mistakes = 0
		if err := l.epoch(st.Epochs, order, onMistake); err != nil {
			return Stats{}, err
		}
		st.Mistakes += mistakes
		st.EpochMistakes = append(st.EpochMistakes, mistakes)
		if mistakes == 0 {
			st.Converged = true
			break
		}
	}
	return st, nil
}

// rowAt returns the row at position p of an epoch's order, which is nil
// for index order.
func rowAt(order []int, p int) int {
	if order == nil {
		return p
	}
	return order[p]
}

// notify calls OnUpdate, if set, after an update on row i in the given
// epoch, with the model that update describes; Learn passes epoch 0 and
// row -1.
func (s *settings) notify(epoch, i int, update func() Update) {
	if s.onUpdate != nil {
		u := update()
		u.Epoch, u.Row = epoch, i
		s.onUpdate(u)
	}
}
