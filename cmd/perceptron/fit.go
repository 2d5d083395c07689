// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// result is a classifier trained and tested.
type result struct {
	name  string
	m     model
	limit int           // the epoch limit
	fit   time.Duration // negative if not known
	train float64       // NaN if not measured
	test  float64       // NaN if there is no test set
	stats perceptron.Stats

	// report compares the classes predicted for the test rows with
	// theirs; nil if there are none.
	report *data.Report

	// note says why the training accuracy was not measured, if it was not.
	note string
}

// quadratic are the classifiers whose cost grows with the square of the
// rows: the exact pocket counts the mistakes of every training row after
// every update, the voted perceptron predicts with a vote of every
// mistake, and the kernel perceptron scores with a kernel value per
// support vector. -classifier all runs them only where that is cheap.
var quadratic = []string{"pocket", "voted", "kernel"}

// cheapCost is the most rows × rows × non-zeros a row × classes at which
// -classifier all runs the classifiers of quadratic: a few seconds each
// for a few thousand rows of a few hundred features, where Fashion-MNIST
// and the Debian sections take them hours.
const cheapCost = 1e11

// quadraticCost returns rows × rows × non-zeros a row × classes of the
// rows X of K classes.
func quadraticCost(X mat.Matrix, K int) float64 {
	n, d := X.Dims()
	perRow := float64(d)
	if m, ok := X.(*perceptron.CSR); ok {
		perRow = float64(m.NNZ()) / float64(max(n, 1))
	}
	return float64(n) * float64(n) * max(perRow, 1) * float64(max(K, 2))
}

// trainAccuracyCost is the most scalar operations that measuring the
// training accuracy may take: it would otherwise take longer than the
// training, for the vote of the voted perceptron's every mistake and
// the kernel's every support vector.
const trainAccuracyCost = 1e10

// predictCost estimates the operations of predicting the n rows X with
// the fitted m, of S scores.
func predictCost(m model, X mat.Matrix, S int) float64 {
	n, d := X.Dims()
	perRow := float64(d)
	if c, ok := X.(*perceptron.CSR); ok {
		perRow = float64(c.NNZ()) / float64(max(n, 1))
	}
	st := m.Stats()
	terms := 1.0
	switch k := m.(type) {
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

// fitModel trains the classifier called name on train, with the classes
// of train, and tests it on test if test is not nil. The library checks
// the memory of the model before it allocates it.
func fitModel(name string, o *options, train, test *dataset) (*result, error) {
	o.labels = train.classes.values
	m, ok := newModel(name, o)
	if !ok {
		return nil, usagef("unknown classifier %s: want one of %s", quote(name), classifierNames())
	}
	n, d := train.X.Dims()
	S := scoresOf(len(o.labels))
	if name != "kernel" && o.initWeights != nil && len(o.initWeights) != d*S {
		return nil, usagef("-init-weights: %s, want %d: %d per feature of the %s", plural(len(o.initWeights), "weight"), d*S, S, plural(d, "feature"))
	}
	limit := o.epochs
	if limit == 0 {
		limit = defaultEpochs
	}
	if o.progress != nil {
		o.progress.begin(name, limit, n, !o.shuffle, o.describeStop(n))
	}
	start := time.Now()
	err := m.Fit(train.X, train.values())
	r := &result{name: name, m: m, limit: limit, fit: time.Since(start), train: math.NaN(), test: math.NaN()}
	if o.progress != nil {
		o.progress.end(m)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: training %s: %s", train.name, name, libError(err))
	}
	r.stats = m.Stats()
	if c := predictCost(m, train.X, S); c > trainAccuracyCost {
		r.note = fmt.Sprintf("%s: the training accuracy is not measured: predicting the training rows would take about %.1g operations, more than training (eval -model measures it on any rows)", name, c)
	} else {
		pred, _, err := classify(m, train, o.progress, "the training rows", false)
		if err != nil {
			return nil, err
		}
		r.train = accuracy(pred, train.Y)
	}
	if test != nil {
		pred, _, err := classify(m, test, o.progress, "the test rows", false)
		if err != nil {
			return nil, err
		}
		if r.report, err = newReport(train.classes, test, pred); err != nil {
			return nil, err
		}
		r.test, _, _ = r.report.Accuracy()
	}
	return r, nil
}

// scoresOf returns the number of scores of a model of K classes: one for
// two classes, and one per class for more.
func scoresOf(K int) int {
	if K > 2 {
		return K
	}
	return 1
}

// numScores returns the number of scores of m.
func numScores(m model) int { return scoresOf(len(m.Classes())) }

// accuracy returns the fraction of the classes pred that are those of y.
func accuracy(pred []int, y []float64) float64 {
	right := 0
	for i, c := range pred {
		if float64(c) == y[i] {
			right++
		}
	}
	return float64(right) / float64(max(len(y), 1))
}

// newReport returns the report of the classes pred predicted for the rows
// of test, of the classes of a model: those, then the labels of test that
// are none of them.
func newReport(classes *classSet, test *dataset, pred []int) (*data.Report, error) {
	names := append([]string(nil), classes.names...)
	if len(test.Classes) > len(names) {
		names = append(names, test.Classes[len(names):]...)
	}
	p := make([]float64, len(pred))
	for i, c := range pred {
		p[i] = float64(c)
	}
	return data.NewReport(names, test.Y, p)
}

// predictChunk is the number of rows that classify scores between two
// progress reports: enough for ScoreRows to share out over the cores.
const predictChunk = 1024

// classify returns the index of the class of each row of ds that m
// predicts, and with keep their scores, S a row, S being numScores(m). The
// class is the one the scores choose, as perceptron.Scorer says: for two
// classes the second if the score is >= 0, for more the first of the
// greatest. It returns an error naming the row whose scores are not
// finite, as when its values are too large for the weights. If p is not
// nil it reports the progress as scoring task.
func classify(m model, ds *dataset, p *progress, task string, keep bool) ([]int, []float64, error) {
	n, _ := ds.X.Dims()
	S := numScores(m)
	pred := make([]int, n)
	var all []float64
	if keep {
		nd := &need{what: "keeping the scores of " + plural(n, "row")}
		nd.add("the scores", 8*float64(n)*float64(S))
		if err := nd.check(); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", ds.name, err)
		}
		all = make([]float64, 0, n*S)
	}
	if p != nil {
		p.beginScoring(task, n)
	}
	step := n
	if p != nil {
		step = predictChunk
	}
	scores := make([]float64, min(step, n)*S)
	for lo := 0; lo < n; lo += step {
		hi := min(n, lo+step)
		X, err := rowRange(ds.X, lo, hi)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", ds.name, err)
		}
		s := m.ScoreRows(scores[:(hi-lo)*S], X)
		for i := lo; i < hi; i++ {
			row := s[(i-lo)*S : (i-lo+1)*S]
			best := 0
			for c, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, nil, fmt.Errorf("%s: row %d%s: the model's score is %v: the values of the row are too large for its weights", ds.name, i+1, strings.TrimPrefix(ds.part, ","), v)
				}
				if v > row[best] {
					best = c
				}
			}
			if S == 1 {
				best = 0
				if row[0] >= 0 {
					best = 1
				}
			}
			pred[i] = best
		}
		if keep {
			all = append(all, s...)
		}
		if p != nil {
			p.scored(hi)
		}
	}
	if p != nil {
		p.endScoring()
	}
	return pred, all, nil
}

// rowRange returns rows lo to hi-1 of X: dense rows in place, sparse rows
// copied.
func rowRange(X mat.Matrix, lo, hi int) (mat.Matrix, error) {
	n, c := X.Dims()
	if lo == 0 && hi == n {
		return X, nil
	}
	if d, ok := X.(*mat.Dense); ok {
		return d.Slice(lo, hi, 0, c), nil
	}
	rows := make([]int, hi-lo)
	for k := range rows {
		rows[k] = lo + k
	}
	sub, err := (&data.Set{X: X}).Subset(rows)
	if err != nil {
		return nil, err
	}
	return sub.X, nil
}

// scale standardises the rows of train, and of others with the same
// scaler, if the flags ask for it, and returns the scaler, or nil.
func (j *job) scale(train *dataset, others ...*dataset) (*data.Scaler, error) {
	if !j.standardize.of(train.X) {
		return nil, nil
	}
	X := []mat.Matrix{train.X}
	for _, o := range others {
		X = append(X, o.X)
	}
	if err := scaleNeed(X, true, false).check(); err != nil {
		return nil, fmt.Errorf("%s: %v", train.name, err)
	}
	sc, err := data.NewScaler(train.X)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", train.name, dataError(err))
	}
	for _, ds := range append([]*dataset{train}, others...) {
		if ds.X, err = sc.Transform(ds.X); err != nil {
			return nil, ds.rowError(err)
		}
	}
	return sc, nil
}
