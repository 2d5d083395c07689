// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"slices"

	"gonum.org/v1/gonum/mat"
)

// The Learn of every classifier: one way for all, with a stop that sets
// the model back, and OneVsRest's, whose classifiers each learn the rows
// with their own labels.

// learnWith is the Learn of m on X and y, with the weights of the rows
// w, stopped by h if it is not nil. A Learn that fails, stopped or not,
// sets m back as it was, so that no prediction ever sees part of one.
func learnWith(m member, X mat.Matrix, y, w []float64, h *halt) error {
	ms, classes, _, _ := m.state()
	ds, err := learnSet(X, y, w, classes, ms.labels, ms.weights)
	if err != nil {
		return err
	}
	s, err := learnSettings(m, ds)
	if err == nil {
		err = ds.check(nil)
	}
	if err != nil {
		return err
	}
	ds.halt = h
	restore, err := m.begin(ds)
	if err != nil {
		return err
	}
	if err = m.learn(ds, s); err != nil {
		restore()
		return err
	}
	m.publish(ds)
	return nil
}

// learnSettings returns the resolved settings of a Learn of m on ds, of
// its classes, or an error if ds does not fit m or a setting is not
// valid.
func learnSettings(m member, ds *dataset) (settings, error) {
	s, classes, d, visits := m.state()
	if classes != nil {
		s.w0 = nil // they have played their part
	}
	if d != 0 && ds.d != d {
		return s, errorf(ErrShape, "perceptron: X has %d columns, want %d, the columns of the model", ds.d, d)
	}
	if _, err := addCount(visits, ds.n); err != nil {
		return s, err
	}
	s, err := s.resolve(ds.d, scores(ds.classes))
	s.stop = nil // checked, but Learn does not stop
	return s, err
}

// learnChecked is the Learn of m on ds, of its classes, whose values are
// checked, stopped by the halt of ds, which may leave m part trained.
func learnChecked(m member, ds *dataset) error {
	s, err := learnSettings(m, ds)
	if err == nil {
		_, err = m.begin(ds)
	}
	if err != nil {
		return err
	}
	err = m.learn(ds, s)
	m.publish(ds)
	return err
}

// begin returns the function that sets the voted perceptron back to what
// it is now, for a Learn that fails. Learn appends to the rows, the
// steps, the votes and the moves, and changes the count of the last vote
// and the last weights: the function sets back their lengths, the count
// and the weights, a copy. The prediction methods read a copy of their
// own (publish).
func (v *Voted) begin(*dataset) (func(), error) {
	st := v.work()
	was := *st
	if st.last.fitted() {
		if err := st.last.needs(1); err != nil {
			return nil, err
		}
		was.last = st.last.clone()
	}
	if st.rows == nil {
		return func() { *st = was }, nil
	}
	// The index, of the rows appended too, is made again when needed.
	rows, count := *st.rows, st.votes[len(st.votes)-1].count
	was.rows, was.index = &rows, nil
	return func() {
		*st = was
		st.votes[len(st.votes)-1].count = count
	}, nil
}

// replay sets the last weights of a loaded voted perceptron, which its
// voters give: the first weights with the update of every mistake, in
// order. Loading leaves them to the first Learn, as they cost the elements
// of a row a mistake, where the saved form holds each row once.
func (v *Voted) replay() error {
	last := v.first.clone()
	for k, vt := range v.votes[1:] {
		mv := move{up: 0, down: -1, step: v.steps[vt.row]}
		if v.moves != nil {
			mv.up, mv.down = v.moves[k].up, v.moves[k].down
		}
		x := v.rows.row(vt.row)
		last.add(&x, vt.row, 0, mv)
	}
	if last.checkFinite() != nil {
		return errorf(ErrNonFinite, "perceptron: Learn: the last weights of the loaded voted perceptron overflow")
	}
	v.last = last
	return nil
}

// work returns the model as training writes it, an empty one at first.
func (k *Kernel) work() *kernelState {
	if k.s == nil {
		k.s = new(kernelState)
	}
	return k.s
}

// begin readies a Learn beside predictions: Learn changes the expansion
// in place, so it learns on a copy of the one that predictions read,
// which a stopped Learn goes back to.
func (k *Kernel) begin(*dataset) (func(), error) {
	s, was := k.work(), k.viewed()
	restore := func() { s.kernelModel = was }
	if s.m != nil && s.m == was.m {
		m, err := s.m.clone()
		if err != nil {
			return nil, err
		}
		s.m = m
	}
	return restore, nil
}

// publish makes the model that Learn trained the one that predictions
// read.
func (k *Kernel) publish(*dataset) {
	if s := k.work(); s.m != nil {
		k.set(s.kernelModel)
	}
}

// Learn trains each classifier of OneVsRest with its Learn on the rows of
// X and its labels of y, as Fit gives them, as scikit-learn's partial_fit
// does, from the last Fit or Learn, or else from new classifiers of New
// and the classes of Labels. They must be Perceptrons, Averageds, Voteds
// or Kernels, and share no Rand: they learn on GOMAXPROCS goroutines. It
// returns the errors of Fit about X, y and ClassWeight, and one if there
// are no classes or no Learn; and those of a classifier's Learn, naming
// the class. On an error it changes nothing: every classifier is set
// back as it was. It may run concurrently as Perceptron's Learn.
func (o *OneVsRest) Learn(X mat.Matrix, y []float64) error { return o.learnData(X, y, nil, nil) }

// learnData is Learn, with the weights of the rows w, stopped by h if it
// is not nil, which then sets every classifier back as it was.
func (o *OneVsRest) learnData(X mat.Matrix, y, w []float64, h *halt) error {
	var classes []float64
	var models []Scorer
	if o.oneVsRestState != nil {
		classes, models = o.classes, o.models // what only a Learn writes
	}
	ds, err := learnSet(X, y, w, classes, o.Labels, o.ClassWeight)
	if err != nil {
		return err
	}
	K := scores(ds.classes)
	if models == nil {
		if models, err = o.newModels(ds.classes); err != nil {
			return err
		}
	}
	// The settings of every class's Learn are checked before any learns,
	// on the rows of a class against the rest that against makes.
	bin := ds
	if K > 1 {
		bin = &dataset{rows: ds.rows, classes: []float64{-1, 1}}
	}
	members, s, errs := make([]member, K), make([]settings, K), make([]error, K)
	for c, model := range models {
		m, ok := model.(member)
		if !ok {
			return errorf(ErrSetting, "perceptron: OneVsRest.Learn of a %T, which has no Learn: want a Perceptron, an Averaged, a Voted or a Kernel", model)
		}
		members[c] = m
		s[c], errs[c] = learnSettings(m, bin)
	}
	err = classError(errs, ds.classes, nil)
	if err == nil {
		err = ds.check(nil)
	}
	if err != nil {
		return err
	}
	ds.halt = h
	restores := make([]func(), K)
	for c, m := range members {
		if restores[c], err = m.begin(ds); err != nil {
			return err
		}
	}
	errs = eachClass(ds, h, func(c int, set *dataset) error { return members[c].learn(set, s[c]) })
	if err := classError(errs, ds.classes, h); err != nil {
		for _, restore := range restores {
			restore()
		}
		return err
	}
	o.set(models, ds.classes, members, ds)
	return nil
}

// classError returns the error of a call that trained the classifiers
// of OneVsRest, of the classes, which returned errs: a stop's, of every
// class alike, or the first other, naming its class.
func classError(errs []error, classes []float64, h *halt) error {
	if c := slices.IndexFunc(errs, h.stopped); c >= 0 {
		return errs[c]
	}
	for c, err := range errs {
		if err != nil && len(errs) > 1 {
			return wrapf(err, "%w (class %v against the rest)", err, classes[c])
		}
		if err != nil {
			return err
		}
	}
	return nil
}
