// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// The Learn of every classifier: one way for all, with a stop that sets
// the model back, and OneVsRest's, whose classifiers each learn the rows
// with their own labels.

// learnWith is the Learn of m on X and y, with the weights of the rows
// w, stopped by h if it is not nil, which then sets m back as it was.
func learnWith(m member, X mat.Matrix, y, w []float64, h *halt) error {
	_, classes, _, _ := m.state()
	ds, err := learnSet(X, y, w, classes, m.labels(), m.classWeight())
	if err != nil {
		return err
	}
	s, err := learnSettings(m, ds)
	if err == nil {
		err = ds.check(nil)
	}
	switch {
	case err != nil:
		return err
	case h == nil:
		return m.learn(ds, s)
	}
	ds.halt = h
	restore, err := m.snapshot()
	if err != nil {
		return err
	}
	if err = m.learn(ds, s); h.stopped(err) {
		restore()
	}
	return err
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
	if err != nil {
		return err
	}
	return m.learn(ds, s)
}

// snapshot returns the function that sets the voted perceptron back to
// what it is now. Learn appends to the rows, the steps, the votes and the
// moves, and changes the count of the last vote and the last weights: the
// function sets back their lengths, the count and the weights, a copy.
func (v *Voted) snapshot() (func(), error) {
	was := *v
	if v.last.fitted() {
		if err := v.last.needs(1); err != nil {
			return nil, err
		}
		was.last = v.last.clone()
	}
	if v.rows == nil {
		return func() { *v = was }, nil
	}
	// The index, of the rows appended too, is made again when needed.
	rows, count := *v.rows, v.votes[len(v.votes)-1].count
	was.rows, was.index = &rows, nil
	return func() {
		*v = was
		v.votes[len(v.votes)-1].count = count
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

// snapshot returns the function that sets the kernel perceptron back to
// what it is now, from a copy of its expansion.
func (k *Kernel) snapshot() (func(), error) {
	was, stats := k.m, k.stats
	if k.m != nil {
		var err error
		if was, err = k.m.clone(); err != nil {
			return nil, err
		}
	}
	return func() { k.m, k.stats = was, stats }, nil
}

// Learn trains each classifier of OneVsRest with its Learn on the rows of
// X and its labels of y, as Fit gives them, as scikit-learn's partial_fit
// does, from the last Fit or Learn, or else from new classifiers of New
// and the classes of Labels. They must be Perceptrons, Averageds, Voteds
// or Kernels, and share no Rand: they learn on GOMAXPROCS goroutines. It
// returns the errors of Fit about X, y and ClassWeight, and one if there
// are no classes or no Learn, changing nothing; and those of a
// classifier's Learn, naming the class, the others having learned.
func (o *OneVsRest) Learn(X mat.Matrix, y []float64) error { return o.learnData(X, y, nil, nil) }

// learnData is Learn, with the weights of the rows w, stopped by h if it
// is not nil, which then sets every classifier back as it was.
func (o *OneVsRest) learnData(X mat.Matrix, y, w []float64, h *halt) error {
	ds, err := learnSet(X, y, w, o.classes, o.Labels, o.ClassWeight)
	if err != nil {
		return err
	}
	K := scores(ds.classes)
	models := o.models
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
	var restores []func()
	for _, m := range members {
		if h == nil {
			break
		}
		restore, err := m.snapshot()
		if err != nil {
			return err
		}
		restores = append(restores, restore)
	}
	errs = eachClass(ds, h, func(c int, set *dataset) error { return members[c].learn(set, s[c]) })
	if slices.ContainsFunc(errs, h.stopped) {
		for _, restore := range restores {
			restore()
		}
	}
	if err := classError(errs, ds.classes, h); err != nil {
		return err
	}
	o.models, o.classes = models, ds.classes
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
			return fmt.Errorf("%w (class %v against the rest)", err, classes[c])
		}
		if err != nil {
			return err
		}
	}
	return nil
}
