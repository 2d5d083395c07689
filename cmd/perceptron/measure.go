// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"
	"time"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// What eval and predict measure of a model on test rows, which come a
// block at a time: in memory, as one block, or from a stream.

// result is a classifier trained and tested.
type result struct {
	name  string
	model *data.Model   // the classifier with the steps before it
	limit int           // the epoch limit
	fit   time.Duration // negative if not known
	train float64       // NaN if not measured
	test  float64       // NaN if there is no test set
	stats perceptron.Stats

	// report compares the classes predicted for the test rows with
	// theirs; nil if there are none.
	report *data.Report

	// probs is what the probabilities of a calibrated model measure on
	// the test rows; nil if there are none.
	probs *probabilityMeasures

	// note says why the training accuracy was not measured, if it was not.
	note string

	// kernel and rule describe the classifier of a model let go.
	kernel, rule string
}

// release lets the model of r go, keeping what the table and the reports
// say of it.
func (r *result) release() {
	r.kernel, r.rule = r.describe()
	r.model = nil
}

// describe returns the kernel and the prediction rule of r's classifier.
func (r *result) describe() (kernel, rule string) {
	if r.model == nil {
		return r.kernel, r.rule
	}
	return kernelOf(r.model.Classifier), ruleOf(r.model.Classifier)
}

// testOn tests the model of r on the rows of test, of the classes of a
// model, and sets r's report and test accuracy, and, if its model is
// calibrated, what its probabilities measure, with the k most probable
// classes of each row at least threshold probable. If p is not nil it
// reports the progress of scoring task.
func (r *result) testOn(test rowBlocks, classes *classSet, k int, threshold float64, p *progress, task string) error {
	s, streamed := test.(*stream)
	each := p // the progress within a block in memory
	if streamed && p != nil {
		p.beginScoring(task, 0)
		each = nil
	}
	var counts tally
	var pm *probabilityMeasures
	if r.model.Calibration != nil {
		pm = &probabilityMeasures{k: k, threshold: threshold}
	}
	names := classes.names
	err := test.blocks(data.BlockRows, func(b *dataset) error {
		if b.Y == nil {
			return noLabels(b)
		}
		pred, _, err := classify(r.model, b, each, task, false)
		if err != nil {
			return err
		}
		counts.add(b.Y, pred)
		if pm != nil {
			if err := pm.add(r.model, b); err != nil {
				return err
			}
		}
		if streamed && p != nil {
			p.scored(b.first + len(pred))
		}
		if !streamed && len(b.Classes) > len(names) {
			names = append(names[:len(names):len(names)], b.Classes[len(names):]...)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if streamed {
		if p != nil {
			p.endScoring()
		}
		if len(s.classes) > len(names) {
			names = append(names[:len(names):len(names)], s.classes[len(names):]...)
		}
	}
	r.report = counts.report(names)
	r.test, _, _ = r.report.Accuracy()
	if pm != nil {
		r.probs = pm.finish()
	}
	return nil
}

// tally counts the rows of each true class by the class predicted, as a
// confusion matrix does, for classes that come as the rows do.
type tally struct {
	counts [][]int // [true][predicted]
}

// add counts the rows of the true classes y predicted pred.
func (t *tally) add(y, pred []float64) {
	for i, c := range y {
		if k := max(int(c), int(pred[i])) + 1; k > len(t.counts) {
			t.counts = append(t.counts, make([][]int, k-len(t.counts))...)
		}
		row := &t.counts[int(c)]
		if p := int(pred[i]) + 1; p > len(*row) {
			*row = append(*row, make([]int, p-len(*row))...)
		}
		(*row)[int(pred[i])]++
	}
}

// report returns the report of the counts, of the classes names, which
// number every class counted.
func (t *tally) report(names []string) *data.Report {
	K := len(names)
	r := &data.Report{Classes: names, Confusion: make([][]int, K)}
	for c := range K {
		r.Confusion[c] = make([]int, K)
		if c < len(t.counts) {
			copy(r.Confusion[c], t.counts[c])
		}
	}
	return r
}

// probabilityMeasures are what the probabilities of a calibrated model
// measure on test rows.
type probabilityMeasures struct {
	// logLoss and brier are the means over the rows of the model's
	// classes of the log-loss and of the Brier score, of in rows; left is
	// the number of the other rows.
	logLoss, brier float64
	in, left       int

	// precision and recall are those of the k most probable classes of
	// each row that are at least threshold probable, as fastText's test
	// measures them: the fraction of those classes that are the row's,
	// and the fraction of the rows whose class is among them.
	k                 int
	threshold         float64
	hits              hits
	precision, recall float64
}

// logLossFloor is the least probability of a row's class that the
// log-loss takes, as scikit-learn's log_loss clips it, of which the
// log-loss of a row is at most 34.5.
const logLossFloor = 1e-15

// add adds what the probabilities of the calibrated model m measure on
// the rows of ds, scaled by the model's steps where they are, once.
func (pm *probabilityMeasures) add(m *data.Model, ds *dataset) error {
	K := len(m.Classes)
	m, err := ds.scale(m)
	if err != nil {
		return err
	}
	probs, err := m.Probabilities(ds.X)
	if err != nil {
		return ds.rowError(err)
	}
	top, _, err := m.Top(ds.X, pm.k, pm.threshold)
	if err != nil {
		return ds.rowError(err)
	}
	for i, c := range ds.Y {
		if int(c) >= K {
			pm.left++
			continue
		}
		pm.in++
		p := probs[i*K : (i+1)*K]
		pm.logLoss -= math.Log(max(p[int(c)], logLossFloor))
		for j, v := range p {
			if j == int(c) {
				v--
			}
			pm.brier += v * v
		}
	}
	pm.hits.add(ds.Y, top)
	return nil
}

// finish returns the measures of the rows added, their sums made means.
func (pm *probabilityMeasures) finish() *probabilityMeasures {
	pm.logLoss /= float64(pm.in)
	pm.brier /= float64(pm.in)
	pm.precision, pm.recall = pm.hits.rates()
	return pm
}

// hits count the most probable classes of rows that are the rows' own,
// as fastText's test counts them.
type hits struct {
	predicted, right, rows int
}

// add counts the classes top, an equal number for each row of the classes
// y, -1 for none.
func (h *hits) add(y []float64, top []int) {
	k := len(top) / max(len(y), 1)
	for i, c := range y {
		for _, t := range top[i*k : (i+1)*k] {
			if t >= 0 {
				h.predicted++
				if t == int(c) {
					h.right++
				}
			}
		}
	}
	h.rows += len(y)
}

// rates returns the precision and the recall of the classes counted: the
// fraction of them that are the row's, and the fraction of the rows whose
// class is among them.
func (h *hits) rates() (precision, recall float64) {
	return float64(h.right) / float64(h.predicted), float64(h.right) / float64(h.rows)
}
