// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Averaged is the averaged perceptron (Freund and Schapire, 1999; Collins,
// 2002). It trains as Perceptron does, for Epochs epochs, and predicts
// with the average of the weights after every example visit, so that each
// weight vector counts as often as the number of visits it survived. That
// is the vote of the voted perceptron with each voter's score in place of
// its sign, at the cost of a single perceptron's prediction.
//
// Fit computes the average with the cached-weights trick of Daumé's A
// Course in Machine Learning (chapter 4, algorithm 7). c is the number of
// visits so far. A mistake on (x, y) at visit c+1 moves w and b by
// Rate·y·x and Rate·y, as Perceptron does, and the cached weights u and β
// by c·Rate·y·x and c·Rate·y. After T visits, T·w−u is the sum of the
// weights after each visit and T·b−β that of the biases. Fit keeps these
// sums and T: the prediction is the sign of the summed score, so that it
// is exact wherever the sums are, as on integer data, and an exact tie is
// +1 as for every other classifier; Score and Weights divide by T.
//
// Fit does not move u at each mistake: it adds c·Rate·y to a sum kept for
// the row, one float64 per row, and at the end forms u and β from these
// sums, reading each row that was ever a mistake once more. A visit thus
// costs what Perceptron's does, a mistake one addition more, and the
// average one axpy for each distinct row that was a mistake.
//
// Daumé's algorithm runs all Epochs epochs. Once an epoch makes no
// mistake the weights can no longer change, so Fit stops passing over the
// data and adds the visits of the epochs left, each with the last weights,
// in closed form: the average is that of all Epochs epochs, and Stats
// reports the epochs passed. Daumé starts the count at 1, which averages
// in the starting weights once more and divides by T+1; from zero
// starting weights and bias that only scales the average by T/(T+1), which
// in exact arithmetic changes no prediction.
//
// The zero value is ready to use, with the defaults of Perceptron.
type Averaged struct {
	// Epochs is the number of passes over the data whose weights the
	// average takes. Zero means DefaultEpochs.
	Epochs int

	// Rate is the learning rate, as in Perceptron.
	Rate float64

	// Rand, if not nil, shuffles the rows every epoch, as in Perceptron.
	Rand *rand.Rand

	// NoBias trains through the origin, as in Perceptron.
	NoBias bool

	// InitWeights are the starting weights, as in Perceptron. The average
	// counts them once for every visit before the first mistake.
	InitWeights []float64

	// InitBias is the starting bias, as in Perceptron.
	InitBias float64

	// OnUpdate is called after every update, as in Perceptron. It sees
	// the running weights w, not their average.
	OnUpdate func(Update)

	sum    linear  // the sums of the weights and biases after each visit
	visits float64 // the number of visits, T
	stats  Stats
}

// Fit trains the averaged perceptron on the rows of X with labels y. It
// runs as Perceptron's Fit does, with the same errors, and keeps the sum
// of the weights after each of the visits of Epochs epochs. As it forms
// that sum before it divides, for accuracy, it also returns an error if
// the sum overflows, as it can on data near the largest float64 even when
// the average would not.
func (a *Averaged) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y)
	if err != nil {
		return err
	}
	s, err := a.settings().resolve(ds.d)
	if err != nil {
		return err
	}
	lin := s.start(ds.d)
	g := make([]float64, ds.n) // the sum of c·Rate·y over the mistakes on each row
	stats, err := s.run(ds, newRule(ds, &lin, &s, func(i, c int) {
		g[i] += float64(c) * s.rate * ds.y[i]
	}))
	if err != nil {
		return err
	}
	if err := lin.checkFinite(); err != nil {
		return err
	}
	// The visits of the epochs not passed add the last weights: T·w−u
	// counts them, as u stops growing with the mistakes.
	c := float64(s.epochs * ds.n)
	floats.Scale(c, lin.w)
	lin.b *= c
	for i, gi := range g {
		if gi != 0 {
			lin.move(ds.row(i), -gi, !s.noBias) // subtracts row i's share of u and β
		}
	}
	if err := lin.checkFinite(); err != nil {
		return err
	}
	a.sum, a.visits, a.stats = lin, c, stats
	return nil
}

// Predict returns the label of x: +1 if the summed score S_w·x+S_b is
// >= 0, and -1 otherwise, where S_w and S_b are the sums of the weights
// and biases after each visit. It panics if the averaged perceptron has
// not been fitted or if len(x) is not the number of weights. Predict and
// Score may be called concurrently with each other, but not with Fit.
func (a *Averaged) Predict(x []float64) float64 {
	return sign(a.sum.checked(x, "Predict").score(vec{val: x}))
}

// Score returns the average score (S_w·x+S_b)/T, whose sign is the
// prediction. It panics as Predict does.
func (a *Averaged) Score(x []float64) float64 {
	return a.sum.checked(x, "Score").score(vec{val: x}) / a.visits
}

// ScoreRows returns in dst, which it allocates if dst is nil, the scores
// of the rows of X, dense or sparse, as Score computes them: exactly for
// dense rows, and up to rounding for sparse ones, read in O(non-zeros). It
// spreads the rows over GOMAXPROCS goroutines. It panics as Score does,
// if X does not have the number of columns the model was fitted on, if
// dst is not nil and its length is not the number of rows of X, or if X is
// a mat.RowNonZeroDoer that yields an element out of range or not finite.
func (a *Averaged) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	l := a.sum.fittedFor("ScoreRows")
	return scoreRows(dst, X, l.dim(), func(x vec) float64 { return l.score(x) / a.visits })
}

// PredictRows returns in dst, which it allocates if dst is nil, the labels
// of the rows of X, dense or sparse: the signs of the scores of ScoreRows.
// It panics as ScoreRows does.
func (a *Averaged) PredictRows(dst []float64, X mat.Matrix) []float64 {
	return signs(a.ScoreRows(dst, X))
}

// Weights returns the averaged weights S_w/T.
// It returns nil if the averaged perceptron has not been fitted.
func (a *Averaged) Weights() []float64 {
	if !a.sum.fitted() {
		return nil
	}
	w := make([]float64, a.sum.dim())
	for j, v := range a.sum.w {
		w[j] = v / a.visits
	}
	return w
}

// Bias returns the averaged bias S_b/T.
func (a *Averaged) Bias() float64 {
	if !a.sum.fitted() {
		return 0
	}
	return a.sum.b / a.visits
}

// Stats returns a description of the training run of the last successful
// Fit.
func (a *Averaged) Stats() Stats {
	return a.stats.clone()
}

func (a *Averaged) settings() settings {
	return settings{epochs: a.Epochs, rate: a.Rate, rnd: a.Rand, noBias: a.NoBias, w0: a.InitWeights, b0: a.InitBias, onUpdate: a.OnUpdate}
}
