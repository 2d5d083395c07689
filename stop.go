// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
)

// Stop is a rule that stops Fit early, as scikit-learn's tol,
// n_iter_no_change, early_stopping and validation_fraction do: once
// NoChange epochs in a row have not improved on the best by Tol. An epoch's
// measure is its training loss, the perceptron criterion max(0, -y·score),
// or max(0, greatest other score - the row's class's), of the running
// weights summed over its visits, which must fall by Tol times the rows
// (Rate scales it); or, with Validation, the accuracy on held-out rows,
// which must rise by Tol; the weights of the rows weigh the accuracy, not
// the loss, as in scikit-learn.
type Stop struct {
	// Tol is the least improvement that counts. Zero means 1e-3.
	Tol float64

	// NoChange is the number of epochs without improvement that stop
	// training. Zero means 5.
	NoChange int

	// Validation, if not zero, is the fraction of the rows of each class,
	// rounded half away from zero, held out of training to measure the
	// accuracy, drawn with Rand, or from a source of a fixed seed. Fit
	// returns an error if it holds out no row, or every row of a class.
	Validation float64
}

// resolve returns the rule with its defaults filled in, or an error if it
// is not valid.
func (s *Stop) resolve() (*Stop, error) {
	if s == nil {
		return nil, nil
	}
	r := *s
	switch {
	case !(r.Tol >= 0) || math.IsInf(r.Tol, 1):
		return nil, badSetting(r.Tol, "perceptron: Stop.Tol is %v, want a finite value >= 0", r.Tol)
	case r.NoChange < 0:
		return nil, errorf(ErrSetting, "perceptron: Stop.NoChange is %d, want >= 0", r.NoChange)
	case !(r.Validation >= 0 && r.Validation < 1):
		return nil, badSetting(r.Validation, "perceptron: Stop.Validation is %v, want a fraction in [0, 1)", r.Validation)
	}
	if r.Tol == 0 {
		r.Tol = 1e-3
	}
	if r.NoChange == 0 {
		r.NoChange = 5
	}
	return &r, nil
}

// stopper follows the measures of the epochs of a run, as Stop says.
type stopper struct {
	rule  *Stop
	rows  float64 // the training rows, by which Tol scales a loss
	best  float64 // the least loss, or the greatest accuracy
	still int     // the epochs since the last improvement
}

func newStopper(rule *Stop, rows int) *stopper {
	st := &stopper{rule: rule, rows: float64(rows), best: math.Inf(1)}
	if rule.Validation > 0 {
		st.best = math.Inf(-1)
	}
	return st
}

// done reports whether the epoch whose measure is m, its loss or with
// validation its accuracy, ends the run.
func (st *stopper) done(m float64) bool {
	improved := m <= st.best-st.rule.Tol*st.rows
	if st.rule.Validation > 0 {
		improved = m >= st.best+st.rule.Tol
		st.best = max(st.best, m)
	} else {
		st.best = min(st.best, m)
	}
	if improved {
		st.still = 0
	} else {
		st.still++
	}
	return st.still >= st.rule.NoChange
}

// validationSeed seeds the draw of the rows held out when Rand is nil.
const validationSeed = 0x76616c6964 // "valid"

// holdOut returns the rows of ds that training visits and those held out
// for validation, the fraction v of each class drawn with rnd, or from a
// source of validationSeed if rnd is nil; with no validation, ds and nil.
// It returns an error if no row would be held out or the training rows
// none of a class, or naming the first value of ds that is not
// finite, as the rows held out are not visited.
func holdOut(ds *dataset, v float64, rnd *rand.Rand) (train, val *dataset, err error) {
	if v == 0 {
		return ds, nil, nil
	}
	if err := ds.check(nil); err != nil {
		return nil, nil, err
	}
	if rnd == nil {
		rnd = rand.New(rand.NewPCG(validationSeed, 0))
	}
	byClass := make([][]int, len(ds.classes))
	for i := range ds.n {
		c := ds.class(i)
		byClass[c] = append(byClass[c], i)
	}
	held := make([]bool, ds.n)
	for c, rows := range byClass {
		k := int(math.Round(v * float64(len(rows))))
		if k == len(rows) && k > 0 {
			return nil, nil, errorf(ErrSetting, "perceptron: Stop.Validation %v holds out all %d rows of class %v, leaving none to train on", v, k, ds.classes[c])
		}
		rnd.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		for _, i := range rows[:k] {
			held[i] = true
		}
	}
	train, val = ds.subset(held, false), ds.subset(held, true)
	switch {
	case val.n == 0:
		return nil, nil, errorf(ErrSetting, "perceptron: Stop.Validation %v of %d rows holds out none to validate on", v, ds.n)
	case val.rowWeight != nil && floats.Sum(val.rowWeight) == 0:
		return nil, nil, errorf(ErrSetting, "perceptron: Stop.Validation %v holds out %d rows, all of weight 0: none to validate on", v, val.n)
	}
	return train, val, nil
}

// subset returns a copy of the rows of ds whose held is in, with their
// labels and their indices, in their order.
func (ds *dataset) subset(held []bool, in bool) *dataset {
	sub := &dataset{rows: newRows(ds.d, 0, ds.sparse()), classes: ds.classes, weight: ds.weight, halt: ds.halt}
	for i, h := range held {
		if h != in {
			continue
		}
		sub.rows.append(ds.row(i))
		sub.index = append(sub.index, i)
		if ds.rowWeight != nil {
			sub.rowWeight = append(sub.rowWeight, ds.rowWeight[i])
		}
		if ds.y != nil {
			sub.y = append(sub.y, ds.y[i])
		} else {
			sub.cls = append(sub.cls, ds.cls[i])
		}
	}
	return sub
}

// accuracy returns the fraction of the rows of val, or of their weights,
// whose class the scores choose, as Predict does.
func accuracy(val *dataset, score func(dst []float64, x vec)) float64 {
	s := make([]float64, scores(val.classes))
	right, all := 0.0, 0.0
	for i := range val.n {
		score(s, val.row(i))
		if class(s) == val.class(i) {
			right += val.weightOf(i)
		}
		all += val.weightOf(i)
	}
	return right / all
}
