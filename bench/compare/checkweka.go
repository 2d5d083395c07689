// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// wekaMaxK is the most mistakes Weka's VotedPerceptron makes, its -M.
const wekaMaxK = 10000

// checkWeka checks Weka's run w against this library's model of the same
// kind fitted from Weka's first mistake on. If they agree, and the model
// is Kernel poly 3 voted, it goes on to compare this library's test
// accuracy with Weka's in r.orders shuffled orders.
func (r *run) checkWeka(w wekaRun) {
	ds := r.ds
	what := fmt.Sprintf("%s from Weka's first mistake, visit %d, = Weka %s: rows right", w.vs, wekaStart(ds.ytrain)+1, w.name)
	i := slices.IndexFunc(entries, func(e entry) bool { return e.name == w.vs })
	if i < 0 {
		r.verdict(what, outcome{false, "no model of this library is set against it"})
		return
	}
	e := entries[i]
	c, ok := e.new(w.epochs).(scorer)
	if !ok {
		r.verdict(what, outcome{false, "the model has no Score or no Stats"})
		return
	}
	Xtr, Xte := ds.dense()
	j, err := fitWeka(c, Xtr, ds.ytrain)
	if err != nil {
		r.verdict(what, outcome{false, err.Error()})
		return
	}
	if m := c.Stats().Mistakes; m >= wekaMaxK {
		r.verdict(what, outcome{false, fmt.Sprintf("%d mistakes: Weka stops at %d", m, wekaMaxK)})
		return
	}
	train := wekaClassified(c.ScoreRows(nil, Xtr), j, ds.ytrain)
	test := wekaClassified(c.ScoreRows(nil, Xte), j, ds.ytest)
	agree := train == w.fit.train && test == w.fit.test
	detail := fmt.Sprintf("train %d of %d, test %d of %d; Weka %d and %d", train.right, train.rows, test.right, test.rows, w.fit.train.right, w.fit.test.right)
	r.verdict(what, outcome{agree, detail})
	if agree && w.vs == "Kernel poly 3 voted" && r.orders > 0 {
		r.compareOrders(w.vs, func() scorer { return e.new(w.epochs).(scorer) })
	}
}

// fitWeka fits c as Weka's VotedPerceptron would be fitted on X and y:
// on the rows from Weka's first mistake on. It returns the number of rows
// before it, whose visits are the votes of Weka's empty hypothesis.
func fitWeka(c scorer, X *mat.Dense, y []float64) (int, error) {
	n, d := X.Dims()
	j := wekaStart(y)
	if j == n {
		return j, errors.New("every training row is +1, so Weka makes no mistake")
	}
	// Weka's classes are neg and pos whatever rows it trains on: the rows
	// from its first mistake on may all be neg.
	switch c := c.(type) {
	case *perceptron.Voted:
		c.Labels = wekaClasses
	case *perceptron.Kernel:
		c.Labels = wekaClasses
	default:
		return j, fmt.Errorf("no classes can be fixed for a %T", c)
	}
	return j, c.Fit(X.Slice(j, n, 0, d), y[j:])
}

// wekaClasses are the classes of Weka's VotedPerceptron, neg and pos.
var wekaClasses = []float64{-1, 1}

// wekaStart returns the number of rows before the first -1 label in y,
// which Weka's empty hypothesis classifies right.
func wekaStart(y []float64) int {
	j := 0
	for j < len(y) && y[j] == 1 {
		j++
	}
	return j
}

// wekaClassified returns the number of rows with labels y that Weka
// classifies right, given the votes of this library's model fitted from
// Weka's first mistake on and the j votes of Weka's empty hypothesis.
func wekaClassified(votes []float64, j int, y []float64) classified {
	c := classified{rows: len(y)}
	for i, v := range votes {
		label := -1.0
		if v+float64(j) > 0 {
			label = 1
		}
		if label == y[i] {
			c.right++
		}
	}
	return c
}
