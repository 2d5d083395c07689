// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"
	"slices"

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
// sums, reading each row that was ever a mistake once more. With K classes
// u and β are those of every class, and the sums are kept per row and
// class, K float64s per row, of which a mistake changes the two of the
// classes it moves. A visit thus costs what Perceptron's does, a mistake
// one or two additions more, and the average one axpy for each row and
// class with a sum. Predictions take the class of the greatest summed
// score.
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

	// Labels are the classes, as in Perceptron.
	Labels []float64

	// OnUpdate is called after every update, as in Perceptron. It sees
	// the running weights w, not their average.
	OnUpdate func(Update)

	sum     linear  // the sums of the weights and biases after each visit
	visits  float64 // the number of visits, T
	classes []float64
	stats   Stats
}

// Fit trains the averaged perceptron on the rows of X with labels y. It
// runs as Perceptron's Fit does, with the same errors, and keeps the sum
// of the weights after each of the visits of Epochs epochs. As it forms
// that sum before it divides, for accuracy, it also returns an error if
// the sum overflows, as it can on data near the largest float64 even when
// the average would not.
func (a *Averaged) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y, a.Labels)
	if err != nil {
		return err
	}
	S := scores(ds.classes)
	s, err := a.settings().resolve(ds.d, S)
	if err != nil {
		return err
	}
	lin := s.start(ds.d, S)
	// g[i·S+k] is row i's share of the cached weights of score k: the sum
	// of c·Rate·y, or of ±c·Rate for the two classes a mistake moves, over
	// the mistakes on row i.
	g := make([]float64, ds.n*S)
	kept := func(i, c, other int) {
		a := float64(c) * s.rate
		if S == 1 {
			g[i] += a * ds.y[i]
			return
		}
		g[i*S+ds.cls[i]] += a
		g[i*S+other] -= a
	}
	stats, err := s.run(ds, newRule(ds, &lin, &s, kept))
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
	floats.Scale(c, lin.b)
	for i := range ds.n {
		share := g[i*S : i*S+S]
		if !nonZero(share) {
			continue // as most rows: then their row need not be read
		}
		x := ds.row(i)
		for k, gk := range share {
			if gk != 0 {
				lin.move(&x, k, -gk, !s.noBias) // subtracts row i's share of u and β
			}
		}
	}
	if err := lin.checkFinite(); err != nil {
		return err
	}
	a.sum, a.visits, a.classes, a.stats = lin, c, ds.classes, stats
	return nil
}

// Predict returns the class of x that the summed scores S_w·x+S_b
// choose, as Perceptron's Predict does with its scores, where S_w and S_b
// are the sums of the weights and biases after each visit: so that a tie
// is decided exactly where the sums are exact, not after rounding by the
// division. It panics if the averaged perceptron has not been fitted or
// if len(x) is not the number of columns. Predict and the scoring methods
// may be called concurrently with each other, but not with Fit.
func (a *Averaged) Predict(x []float64) float64 {
	return a.sum.predict(a.classes, x)
}

// Score returns the average score (S_w·x+S_b)/T of two classes, whose
// sign is the prediction. It panics as Predict does, and for more
// classes.
func (a *Averaged) Score(x []float64) float64 {
	return a.sum.binaryScore(x, a.visits, "Score")
}

// Scores returns the average scores of x, the summed scores divided by T,
// in dst, which it allocates if dst is nil. It panics as Predict does, or
// if dst is not nil and has the wrong length.
func (a *Averaged) Scores(dst, x []float64) []float64 {
	return a.sum.scoresTo(dst, x, a.visits, "Scores")
}

// ScoreRows returns the average scores of the rows of X, as Perceptron's
// ScoreRows does.
func (a *Averaged) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	return a.sum.scoreRows(dst, X, a.visits)
}

// PredictRows returns the classes of the rows of X, as Predict chooses
// them, as Perceptron's PredictRows does.
func (a *Averaged) PredictRows(dst []float64, X mat.Matrix) []float64 {
	return a.sum.predictRows(dst, X, a.classes)
}

// Classes returns a copy of the classes, in ascending order, or nil if
// the averaged perceptron has not been fitted.
func (a *Averaged) Classes() []float64 {
	return slices.Clone(a.classes)
}

// Weights returns the averaged weights S_w/T, laid out as Perceptron's
// Weights. It returns nil if the averaged perceptron has not been fitted.
func (a *Averaged) Weights() []float64 {
	return divided(a.sum.w, a.visits)
}

// Bias returns the averaged bias S_b/T of two classes, or 0 if the
// averaged perceptron has not been fitted. It panics for more classes.
func (a *Averaged) Bias() float64 {
	return a.sum.bias("Bias") / max(a.visits, 1)
}

// Biases returns the averaged biases S_b/T: one for two classes, and one
// per class for more.
func (a *Averaged) Biases() []float64 {
	return divided(a.sum.b, a.visits)
}

// divided returns the elements of x, each divided by d, or nil if x is
// nil.
func divided(x []float64, d float64) []float64 {
	if x == nil {
		return nil
	}
	q := make([]float64, len(x))
	for j, v := range x {
		q[j] = v / d
	}
	return q
}

// Stats returns a description of the training run of the last successful
// Fit.
func (a *Averaged) Stats() Stats {
	return a.stats.clone()
}

func (a *Averaged) settings() settings {
	return settings{epochs: a.Epochs, rate: a.Rate, rnd: a.Rand, noBias: a.NoBias, w0: a.InitWeights, b0: a.InitBias, labels: a.Labels, onUpdate: a.OnUpdate}
}
