// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Classifier is a binary classifier with labels -1 and +1.
//
// Fit trains the classifier on the rows of X, one sample per row, with
// labels y. It returns an error if the data are not valid; a failed Fit
// leaves the classifier as it was.
//
// Predict returns the predicted label, -1 or +1, of x. It panics if the
// classifier has not been fitted or if x has the wrong length.
type Classifier interface {
	Fit(X mat.Matrix, y []float64) error
	Predict(x []float64) float64
}

// Scorer is a Classifier with a decision function: Score returns a number
// whose sign is the prediction, +1 for a score of zero. Every classifier
// of this package is a Scorer.
type Scorer interface {
	Classifier
	Score(x []float64) float64
}

// Perceptron is Rosenblatt's perceptron (1958), trained by the
// mistake-driven rule: an example (x, y) with y(w·x+b) <= 0 is a mistake
// and moves the hyperplane by w += Rate·y·x, b += Rate·y.
//
// The zero value is ready to use: it trains with a bias, from zero weights,
// at rate 1, visiting the rows in order, for at most DefaultEpochs epochs.
// The settings are read by Fit and Learn and are never modified by them.
type Perceptron struct {
	// Epochs is the most passes over the data that Fit makes. Zero means
	// DefaultEpochs. Fit stops earlier, at the end of the first epoch with
	// no mistake.
	Epochs int

	// Rate is the learning rate, the size of each update. Zero means 1.
	// From zero initial weights and bias the rate only scales w and b:
	// exactly if it is a power of two, short of underflow, and then
	// changing no prediction. Another rate rounds, and can change the
	// mistakes of the run.
	Rate float64

	// Rand, if not nil, shuffles the order in which Fit visits the rows,
	// afresh at the start of every epoch. If nil, Fit visits the rows in
	// the order given. Fit advances Rand, so a Rand in the same state gives
	// the same model; like any *rand.Rand it must not be used by two Fits
	// at once.
	Rand *rand.Rand

	// NoBias trains a hyperplane through the origin: b stays zero.
	NoBias bool

	// InitWeights, if not nil, are the weights training starts from.
	// Their length must be the number of columns. If nil, training starts
	// from zero weights.
	InitWeights []float64

	// InitBias is the bias training starts from. It must be zero if NoBias
	// is set.
	InitBias float64

	// OnUpdate, if not nil, is called after every update with the epoch,
	// the row that was a mistake, and the new weights and bias.
	OnUpdate func(Update)

	lin   linear
	stats Stats
}

// Fit trains the perceptron on the rows of X with labels y, starting from
// InitWeights and InitBias. It stops at the end of the first epoch with no
// mistake, or after Epochs epochs. An epoch costs one dot product per row
// and one axpy per mistake.
//
// Fit returns an error if X has no rows, if len(y) is not the number of
// rows, if a label is not -1 or +1, if X holds NaN or an infinity, if a
// setting is not valid, or if the weights overflow. A failed Fit leaves
// the perceptron as it was; OnUpdate may have been called for rows visited
// before a bad value was found. Fit does not modify X or y and keeps no
// reference to them; it reads a mat.RawMatrixer such as *mat.Dense in
// place, and copies any other matrix once.
func (p *Perceptron) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y)
	if err != nil {
		return err
	}
	s, err := p.settings().resolve(ds.d)
	if err != nil {
		return err
	}
	lin := s.start(ds.d)
	stats, err := s.run(ds, newRule(ds, &lin, &s, nil))
	if err != nil {
		return err
	}
	if err := lin.checkFinite(); err != nil {
		return err
	}
	p.lin, p.stats = lin, stats
	return nil
}

// Learn trains the perceptron on one example, as one visit of Fit does, and
// reports whether it was a mistake and so caused an update. Learn on a
// perceptron that has not been fitted starts from InitWeights and InitBias,
// or from zero weights of the length of x. Learn leaves Stats as they are.
//
// Learn returns an error, and changes nothing, if y is not -1 or +1, if x
// holds NaN or an infinity, if x has the wrong length, if a setting is not
// valid, if NoBias is set on a perceptron whose bias is not zero, or if the
// update would overflow the weights.
func (p *Perceptron) Learn(x []float64, y float64) (bool, error) {
	d, s := len(x), p.settings()
	if p.lin.fitted() {
		// The initial weights have played their part: do not check them
		// again on every example.
		d, s.w0, s.b0 = p.lin.dim(), nil, 0
	}
	s, err := s.resolve(d)
	if err != nil {
		return false, err
	}
	if s.noBias && p.lin.b != 0 {
		return false, fmt.Errorf("perceptron: NoBias is set, but the bias is %v, want 0", p.lin.b)
	}
	if err := checkExample(x, y, d); err != nil {
		return false, err
	}
	lin := p.lin
	if !lin.fitted() {
		lin = s.start(d)
	}
	r := rule{l: &lin, rate: s.rate, noBias: s.noBias, guard: true}
	mistake, err := r.judge(vec{val: x}, y, lin.score(vec{val: x}), -1, 0)
	if err != nil {
		return false, err
	}
	if mistake {
		s.notify(0, -1, r.update)
	}
	p.lin = lin
	return mistake, nil
}

// LearnRows trains the perceptron on the rows of X, dense or sparse, with
// labels y, visiting each row once in order, as Learn does, and returns
// the number of mistakes. On a perceptron that has not been fitted it
// starts as Learn does, with rows of the width of X.
//
// LearnRows returns an error, and changes nothing, if X or y are not
// valid as Fit requires them, if X does not have the number of columns of
// the weights, or if a setting is not valid. If an update would overflow
// the weights, it returns an error after learning the rows before it.
func (p *Perceptron) LearnRows(X mat.Matrix, y []float64) (int, error) {
	ds, err := newDataset(X, y)
	if err != nil {
		return 0, err
	}
	d, s := ds.d, p.settings()
	if p.lin.fitted() {
		d, s.w0, s.b0 = p.lin.dim(), nil, 0
	}
	if s, err = s.resolve(d); err != nil {
		return 0, err
	}
	switch {
	case ds.d != d:
		return 0, fmt.Errorf("perceptron: X has %d columns, want %d", ds.d, d)
	case s.noBias && p.lin.b != 0:
		return 0, fmt.Errorf("perceptron: NoBias is set, but the bias is %v, want 0", p.lin.b)
	}
	if err := ds.check(nil); err != nil {
		return 0, err
	}
	lin := p.lin
	if !lin.fitted() {
		lin = s.start(d)
	}
	r := rule{ds: ds, l: &lin, rate: s.rate, noBias: s.noBias, guard: true}
	mistakes := 0
	for i := range ds.n {
		x := ds.row(i)
		mistake, err := r.judge(x, ds.y[i], lin.score(x), i, 0)
		if err != nil {
			if i > 0 {
				p.lin = lin
			}
			return mistakes, err
		}
		if mistake {
			mistakes++
			s.notify(0, -1, r.update)
		}
	}
	p.lin = lin
	return mistakes, nil
}

// Predict returns the label of x: +1 if w·x+b >= 0, and -1 otherwise
// (also if x holds NaN). It panics if the perceptron has not been fitted or
// if len(x) is not the number of weights. Predict and Score may be called
// concurrently with each other, but not with Fit or Learn.
func (p *Perceptron) Predict(x []float64) float64 {
	return sign(p.lin.checked(x, "Predict").score(vec{val: x}))
}

// Score returns the decision function w·x+b, whose sign is the prediction
// and whose size, divided by the norm of w, is the distance of x from the
// hyperplane. It panics as Predict does.
func (p *Perceptron) Score(x []float64) float64 {
	return p.lin.checked(x, "Score").score(vec{val: x})
}

// ScoreRows returns in dst, which it allocates if dst is nil, the scores
// of the rows of X, dense or sparse, as Score computes them: exactly for
// dense rows, and up to rounding for sparse ones, read in O(non-zeros). It
// spreads the rows over GOMAXPROCS goroutines. It panics as Score does,
// if X does not have the number of columns the model was fitted on, if
// dst is not nil and its length is not the number of rows of X, or if X is
// a mat.RowNonZeroDoer that yields an element out of range or not finite.
func (p *Perceptron) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	l := p.lin.fittedFor("ScoreRows")
	return scoreRows(dst, X, l.dim(), l.score)
}

// PredictRows returns in dst, which it allocates if dst is nil, the labels
// of the rows of X, dense or sparse: the signs of the scores of ScoreRows.
// It panics as ScoreRows does.
func (p *Perceptron) PredictRows(dst []float64, X mat.Matrix) []float64 {
	return signs(p.ScoreRows(dst, X))
}

// Weights returns a copy of the weights w.
// It returns nil if the perceptron has not been fitted.
func (p *Perceptron) Weights() []float64 {
	return append([]float64(nil), p.lin.w...)
}

// Bias returns the bias b.
func (p *Perceptron) Bias() float64 {
	return p.lin.b
}

// Stats returns a description of the training run of the last successful
// Fit.
func (p *Perceptron) Stats() Stats {
	return p.stats.clone()
}

func (p *Perceptron) settings() settings {
	return settings{epochs: p.Epochs, rate: p.Rate, rnd: p.Rand, noBias: p.NoBias, w0: p.InitWeights, b0: p.InitBias, onUpdate: p.OnUpdate}
}

// sign returns the label of a score: +1 for a score of zero, as the notes
// and the mistake test y·score <= 0 have it.
func sign(a float64) float64 {
	if a >= 0 {
		return 1
	}
	return -1
}
