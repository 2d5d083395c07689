// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
	"gonum.org/v1/gonum/mat"
)

// quadratic are the classifiers whose cost grows with the square of the
// rows: the exact pocket counts the mistakes of every training row after
// every update, the voted perceptron predicts with a vote of every
// mistake, and the kernel perceptron scores with a kernel value per
// support vector. -classifier all runs them only where that is cheap.
var quadratic = []string{"pocket", "voted", "kernel"}

// cheapCost is the most rows × rows × the non-zeros of a row × classes at
// which -classifier all runs the classifiers of quadratic: a few seconds each
// for a few thousand rows of a few hundred features, where Fashion-MNIST
// and the Debian sections take them hours.
const cheapCost = 1e11

// rowShape returns the number of the rows X and their non-zeros on
// average: their columns, if they are dense.
func rowShape(X mat.Matrix) (n int, perRow float64) {
	n, d := X.Dims()
	perRow = float64(d)
	if m, ok := X.(*perceptron.CSR); ok {
		perRow = float64(m.NNZ()) / float64(max(n, 1))
	}
	return n, perRow
}

// quadraticCost returns rows × rows × the non-zeros of a row × classes of
// n rows of perRow non-zeros on average and K classes.
func quadraticCost(n int, perRow float64, K int) float64 {
	return float64(n) * float64(n) * max(perRow, 1) * float64(max(K, 2))
}

// costOf returns the quadraticCost of the rows of ds.
func costOf(ds *dataset) float64 {
	n, perRow := rowShape(ds.X)
	return quadraticCost(n, perRow, len(ds.classes.labels))
}

// trainAccuracyCost is the most scalar operations that measuring the
// training accuracy may take: it would otherwise take longer than the
// training, for the vote of the voted perceptron's every mistake and
// the kernel's every support vector.
const trainAccuracyCost = 1e10

// predictCost estimates the operations of predicting n rows of perRow
// non-zeros on average with the fitted m, of S scores a row at most.
func predictCost(m perceptron.Scorer, n int, perRow float64, S int) float64 {
	st := statsOf(m)
	terms := 1.0
	switch k := m.(type) {
	case *perceptron.OneVsRest:
		cost := 0.0
		for _, c := range k.Models() {
			cost += predictCost(c, n, perRow, 1)
		}
		return cost
	case *perceptron.Voted:
		terms = float64(st.Mistakes + 1)
	case *perceptron.Kernel:
		terms = float64(min(st.Mistakes, n))
		if k.Budget > 0 {
			terms = min(terms, float64(k.Budget))
		}
	}
	return float64(n) * terms * (perRow + float64(S))
}

// noTrainAccuracy returns the note of a classifier called name whose
// training accuracy is not measured, as it would cost about cost
// operations.
func noTrainAccuracy(name string, cost float64) string {
	return fmt.Sprintf("%s: the training accuracy is not measured: predicting the training rows would take about %.1g operations, more than training (eval -model measures it on any rows)", name, cost)
}

// fitModel trains the classifier called name on train, with the classes
// of train and the steps of pipe before it, as fitOnly does, and measures
// its training accuracy if o asks for it, unless that costs too much.
func fitModel(name string, o *options, pipe *data.Model, train *dataset) (*result, error) {
	r, err := fitOnly(name, o, pipe, train)
	if err != nil || !o.trainAcc {
		return r, err
	}
	n, perRow := rowShape(train.X)
	if cost := predictCost(r.model.Classifier, n, perRow, len(train.classes.labels)); cost > trainAccuracyCost {
		r.note = noTrainAccuracy(name, cost)
		return r, nil
	}
	pred, _, err := classify(r.model, train, o.progress, "the training rows", false)
	if err != nil {
		return nil, err
	}
	r.train = data.Accuracy(train.Y, pred)
	return r, nil
}

// fitOnly trains the classifier called name on train, with the classes of
// train and the steps of pipe before it, and measures nothing. The
// library checks the memory of the model before it allocates it. SIGINT
// or SIGTERM stops the training, with an error of type stopped.
func fitOnly(name string, o *options, pipe *data.Model, train *dataset) (*result, error) {
	c, err := o.classifier(name, train.classes, classCounts(train))
	if err != nil {
		return nil, err
	}
	n, _ := train.X.Dims()
	limit := cmp.Or(o.epochs, defaultEpochs)
	if o.progress != nil {
		o.progress.begin(name, limit, n, !o.shuffle, o.describeStop(n))
	}
	ctx, stop := catchTraining()
	// The arrays that reading grew and left, and after training what the
	// training held but the model, are garbage: returned to the system
	// before the weights take their place, and before the model predicts,
	// they leave the peak of the memory to what training holds.
	debug.FreeOSMemory()
	start := time.Now()
	m, err := fitRows(ctx, pipe, c, train)
	debug.FreeOSMemory()
	err = stop(err)
	r := &result{name: name, model: &m, limit: limit, fit: time.Since(start), train: math.NaN(), test: math.NaN()}
	if err := r.trained(o, train.name, err); err != nil {
		return nil, err
	}
	return r, nil
}

// classifier returns the classifier called name, built with o for the
// classes, count[k] training rows of class k, and their weights.
func (o *options) classifier(name string, classes *classSet, count []int) (perceptron.Scorer, error) {
	o.labels = make([]float64, len(classes.labels))
	for k := range o.labels {
		o.labels[k] = float64(k)
	}
	cw, err := o.resolveWeights(classes, count)
	if err != nil {
		return nil, err
	}
	o.classWeight = cw
	c, ok := newModel(name, o)
	if !ok {
		return nil, usagef("unknown classifier %s: want one of %s", quote(name), classifierNames())
	}
	return c, nil
}

// trained ends the training of the classifier of r on the rows of the
// file name, which returned err: it ends the report of its progress, and
// sets r's Stats, or returns err, of type stopped if a signal stopped it,
// or with the flags that set the settings that the library names.
func (r *result) trained(o *options, name string, err error) error {
	c := r.model.Classifier
	if errors.As(err, new(stopped)) {
		if o.progress != nil {
			o.progress.stop()
		}
		return err
	}
	if o.progress != nil {
		o.progress.end(statsOf(c))
	}
	if err != nil && o.initWeights != nil && errors.Is(err, perceptron.ErrShape) {
		return usagef("-init-weights: %s", errText(err))
	}
	if err != nil {
		// The library names its settings, which flags set here.
		msg := strings.NewReplacer("scale X", "scale the rows (-standardize, -normalize)", "lower Rate", "lower -rate").Replace(errText(err))
		return fmt.Errorf("%s: training %s: %s", name, r.name, msg)
	}
	r.stats = statsOf(c)
	return nil
}

// fitRows returns the model of the steps of pipe and the classifier c,
// fitted to the rows of train and their weights, stopped when ctx is done,
// which it transforms in place, unless the steps of pipe transformed them
// already for another classifier, whose model gives its statistics of the
// rows as read.
func fitRows(ctx context.Context, pipe *data.Model, c perceptron.Scorer, train *dataset) (data.Model, error) {
	if done := train.scaled; done != nil {
		m := *done
		m.Classifier = c
		if err := perceptron.FitContext(ctx, c, train.X, train.Y, train.Weights...); err != nil {
			return m, err
		}
		if !slices.Equal(c.Classes(), train.scaledClasses) {
			// The flags give every classifier the classes of the rows.
			panic(fmt.Sprintf("perceptron: classes %v, and %v of the rows", c.Classes(), train.scaledClasses))
		}
		return m, nil
	}
	m := *pipe
	m.Classifier = c
	err := m.FitInPlace(ctx, train.Set)
	if err == nil {
		train.scaledBy(&m)
	}
	return m, err
}
