// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"

	"github.com/seed5ae3614e/perceptron/data"
)

// predictChunk is the number of rows that classify predicts between two
// progress reports: data.BlockRows, so that the scores are those of the
// rows predicted all at once, to the bit.
const predictChunk = data.BlockRows

// classify returns the index of the class of each row of ds that the
// model m predicts, and with keep their scores, as data.Model's Predict
// and Score give them. If p is not nil it reports the progress as
// scoring task, a chunk of rows at a time.
func classify(m *data.Model, ds *dataset, p *progress, task string, keep bool) (pred, scores []float64, err error) {
	if m, err = ds.scale(m); err != nil {
		return nil, nil, err
	}
	n, _ := ds.X.Dims()
	step := n
	if p != nil {
		step = predictChunk
		p.beginScoring(task, n)
	}
	for lo := 0; lo < n; lo += step {
		hi := min(n, lo+step)
		X := ds.X // all the rows: no copy of them
		if hi-lo < n {
			part, err := ds.Rows(lo, hi)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %s", ds.name, errText(err))
			}
			X = part.X
		}
		c, err := m.Predict(X)
		if err == nil && keep {
			var s []float64
			s, err = m.Score(X)
			scores = append(scores, s...)
		}
		if err != nil {
			if lo > 0 {
				// The error again, of the rows from the first on, which
				// numbers the row as the file does.
				if part, e := ds.Rows(0, hi); e == nil {
					if _, e := m.Predict(part.X); e != nil {
						err = e
					}
				}
			}
			return nil, nil, ds.rowError(err)
		}
		pred = append(pred, c...)
		if p != nil {
			p.scored(hi)
		}
	}
	if p != nil {
		p.endScoring()
	}
	return pred, scores, nil
}

// scaledBy records that the steps of m scaled the rows of ds in place:
// the steps, and the classes of m's classifier, not the classifier, which
// would outlive its use.
func (ds *dataset) scaledBy(m *data.Model) {
	steps := *m
	steps.Classifier = nil
	ds.scaled, ds.scaledClasses = &steps, m.Classifier.Classes()
}

// scale transforms the rows of ds in place by the steps of the model m
// before its classifier, unless they are, and returns the model that
// predicts the rows as they then are: m without its steps.
func (ds *dataset) scale(m *data.Model) (*data.Model, error) {
	if m.Scaler == nil && !m.Normalize {
		return m, nil
	}
	if done := ds.scaled; done != nil {
		if done.Scaler != m.Scaler || done.Normalize != m.Normalize {
			panic("perceptron: rows scaled by other steps than the model's")
		}
	} else {
		X, err := m.TransformInPlace(ds.X)
		if err != nil {
			return nil, ds.rowError(err)
		}
		ds.X = X
		ds.scaledBy(m)
	}
	bare := *m
	bare.Scaler, bare.Normalize = nil, false
	return &bare, nil
}
