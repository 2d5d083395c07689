// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// What every classifier's Fit and Learn share: the settings, Stats and
// Update, and the loop of epochs.

// settings holds the training settings that all classifiers share, as
// given by the caller; resolve checks them and fills in the defaults.
// source and labels, the classifier's Rand and Labels, are read before
// the data set is made, and resolve leaves them.
type settings struct {
	epochs   int
	rate     float64
	rnd      *rand.Rand // the source of the shuffles, source or one drawn from it
	noBias   bool
	w0       []float64
	onUpdate func(Update)
	stop     *Stop
	weights  map[float64]float64 // ClassWeight, checked against the classes of the data
	along    *along              // of a Learn that is part of a Fit on a stream
	source   *rand.Rand          // the classifier's Rand
	labels   []float64           // its Labels
}

// defaultEpochs is the epoch limit of a zero Epochs, the iteration limit
// of scikit-learn's Perceptron.
const defaultEpochs = 1000

// resolve returns s with its defaults filled in, or an error if a setting
// is not valid for a model of S scores on rows of length d.
func (s settings) resolve(d, S int) (settings, error) {
	switch {
	case s.epochs < 0:
		return s, errorf(ErrSetting, "perceptron: Epochs is %d, want >= 0", s.epochs)
	case s.rate < 0 || !finite(s.rate):
		return s, badSetting(s.rate, "perceptron: Rate is %v, want a finite value >= 0", s.rate)
	case s.w0 != nil && len(s.w0) != d*S:
		return s, errorf(ErrShape, "perceptron: InitWeights has length %d, want %d (the columns times the scores, %d)", len(s.w0), d*S, S)
	}
	if j := nonFinite(s.w0); j >= 0 {
		return s, errorf(ErrNonFinite, "perceptron: InitWeights[%d] is %v, want a finite value", j, s.w0[j])
	}
	stop, err := s.stop.resolve()
	if err != nil {
		return s, err
	}
	s.stop = stop
	if s.epochs == 0 {
		s.epochs = defaultEpochs
	}
	if s.rate == 0 {
		s.rate = 1
	}
	return s, nil
}

// run is the epoch loop of every classifier's Fit. For each epoch it
// visits every row of ds through l, in index order, or, if s.rnd is set,
// in a fresh random order. It stops after the first epoch with no mistake,
// after s.epochs epochs, or as s.stop says, measuring the accuracy on val,
// if not nil, of the scores that validate returns after each epoch.
func (s *settings) run(ds *dataset, l learner, val *dataset, validate func(epoch int) func(dst []float64, x vec)) (Stats, error) {
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
		s.notify(st.Epochs, ds.origin(i), l.update)
	}
	var stop *stopper
	if s.stop != nil {
		stop = newStopper(s.stop, ds.n)
	}
	for st.Epochs < s.epochs {
		if err := ds.halt.err(); err != nil {
			return Stats{}, err
		}
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
		measure := min(l.epochLoss(), math.MaxFloat64) // an overflow is no JSON number
		st.EpochLoss = append(st.EpochLoss, measure)
		if val != nil {
			measure = accuracy(val, validate(st.Epochs))
			st.EpochAccuracy = append(st.EpochAccuracy, measure)
		}
		if mistakes == 0 {
			st.Converged = true
			break
		}
		if stop != nil && stop.done(measure) {
			break
		}
	}
	// A learner may cut its work short once the halt is set, leaving the
	// epoch's model not to be trusted.
	if err := ds.halt.err(); err != nil {
		return Stats{}, err
	}
	return st, nil
}

// learn is the loop of every classifier's Learn: one visit of each row of
// ds through r, in index order, as epoch 0, or as s.along says. It
// returns the number of mistakes and of rows visited, also when it
// returns an error.
func (s *settings) learn(ds *dataset, r *rule) (mistakes, visited int, err error) {
	a := s.along
	if a == nil {
		a = &along{}
	}
	r.loss = a.loss
	err = r.epoch(0, a.order, func(i int) {
		mistakes++
		s.notify(a.epoch, a.first+i, r.update)
	})
	a.loss, a.mistakes = r.loss, a.mistakes+mistakes
	if err != nil {
		return mistakes, r.at, err
	}
	return mistakes, ds.n, nil
}

// notify calls OnUpdate, if set, after an update on row i in the given
// epoch, with the model that update describes.
func (s *settings) notify(epoch, i int, update func() Update) {
	if s.onUpdate != nil {
		u := update()
		u.Epoch, u.Row = epoch, i
		s.onUpdate(u)
	}
}

// learnSet returns the data of a Learn on X and y, with the weights of
// the rows w, by a model of the classes, or, if classes is nil, by a new
// model of the classes of labels, weighing the classes by cw: X, y and w
// as Fit checks them. It returns an error if there are no classes to
// start from. Learn then checks the values of X too, before it changes
// the model.
func learnSet(X mat.Matrix, y, w, classes, labels []float64, cw map[float64]float64) (*dataset, error) {
	known := classes
	if known == nil {
		if labels == nil {
			return nil, errorf(ErrNotFitted, "perceptron: Learn on a model that was neither fitted nor given its classes: set Labels")
		}
		known = labels
	}
	return trainSet(X, y, w, known, cw)
}

// trainSet returns the rows of X with labels y, of the classes known or,
// if it is nil, of those of y, weighed by the setting ClassWeight cw and
// by the weights of the rows w, or the first error that Fit finds in
// them.
func trainSet(X mat.Matrix, y, w, known []float64, cw map[float64]float64) (*dataset, error) {
	ds, err := newDataset(X, y, known)
	if err == nil {
		err = ds.weigh(cw, w)
	}
	return ds, err
}

// fitData is the Fit of m on X and y, with its Labels and ClassWeight
// and the weights of the rows w, shuffling with m's Rand, stopped by h if
// it is not nil.
func fitData(m model, X mat.Matrix, y, w []float64, h *halt) error {
	s := m.settings(nil)
	ds, err := trainSet(X, y, w, s.labels, s.weights)
	if err != nil {
		return err
	}
	ds.halt = h
	return m.fit(ds, s.source)
}

// needs returns an error of kind ErrTooLarge if what a training run on ds
// holds at once does not fit in the memory left: words, besides the order
// of a shuffle and the copy of the rows that a Stop's Validation trains
// on. The run checks it before it allocates any of them.
func (s *settings) needs(ds *dataset, words float64) error {
	if s.rnd != nil {
		words += float64(ds.n)
	}
	if s.stop != nil && s.stop.Validation > 0 {
		words += ds.words()
	}
	if err := memory.Check(8 * words); err != nil {
		return tooLarge(err, "a model of %d classes on %d columns, trained on %d rows,", len(ds.classes), ds.d, ds.n)
	}
	return nil
}

// start begins a Fit on ds with the resolved settings s: it returns an
// error if countsVisits, for a model that counts its visits, and the epochs
// would pass maxCount, or if words do not fit (needs); and otherwise the
// rows to train on and those to validate on (holdOut).
func (s *settings) start(ds *dataset, countsVisits bool, words float64) (train, val *dataset, err error) {
	if countsVisits && s.epochs > maxCount/ds.n {
		return nil, nil, errTooManyVisits(s.epochs, ds.n)
	}
	if err := s.needs(ds, words); err != nil {
		return nil, nil, err
	}
	return s.holdOut(ds)
}

// holdOut returns the rows of ds to train on and those to validate on, as
// the rule of s says.
func (s *settings) holdOut(ds *dataset) (train, val *dataset, err error) {
	if s.stop == nil {
		return ds, nil, nil
	}
	return holdOut(ds, s.stop.Validation, s.rnd)
}
