// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Voted is the voted perceptron of Freund and Schapire (Large margin
// classification using the perceptron algorithm, Machine Learning 37(3),
// 1999). It trains as Perceptron does, for Epochs epochs, and every weight
// vector w_k, b_k that the run produces votes with weight c_k, the number
// of visits after which it was the current one: the visit that made it,
// and those it then classified right. Voted predicts the sign of the vote
// sum_k c_k·sign(w_k·x+b_k), +1 on a tie.
//
// Freund and Schapire run all Epochs epochs. Once an epoch makes no
// mistake the weights can no longer change, so Fit stops passing over the
// data and adds the visits of the epochs left to the count of the last
// weights, in closed form; Stats reports the epochs passed.
//
// Voted keeps the run compactly instead of as K+1 weight vectors: the
// starting weights, one copy of each row that was ever a mistake with its
// step Rate·y, and for each of the K mistakes the row it was and the count
// c_k of the vector it made. For m distinct rows of d features that is
// (m+2)·d + m float64s and 2K+2 ints. However many epochs the run takes,
// the rows are never more than the training set, and each mistake costs
// two ints. An epoch costs what Perceptron's does, and each mistake an
// append more; once, at the end, Fit copies the m rows: one pass of writes
// over m·d numbers, which page faults can make dearer than an epoch when
// the heap must grow to hold them.
//
// Score computes every w_k·x+b_k, up to rounding and short of overflow,
// in one pass: one dot product for each distinct row, then one addition
// for each mistake, since w_k·x+b_k is w_(k-1)·x+b_(k-1) plus the
// mistake's step times x_k·x+1, or times x_k·x through the origin. A
// prediction costs m dot products and K additions.
//
// The zero value is ready to use, with the defaults of Perceptron.
type Voted struct {
	// Epochs is the number of passes over the data whose visits the votes
	// count. Zero means DefaultEpochs.
	Epochs int

	// Rate is the learning rate, as in Perceptron.
	Rate float64

	// Rand, if not nil, shuffles the rows every epoch, as in Perceptron.
	Rand *rand.Rand

	// NoBias trains through the origin, as in Perceptron.
	NoBias bool

	// InitWeights are the starting weights, as in Perceptron. They are
	// the first voter, w_0.
	InitWeights []float64

	// InitBias is the starting bias, as in Perceptron.
	InitBias float64

	// OnUpdate is called after every update with the new voter's weights,
	// as in Perceptron.
	OnUpdate func(Update)

	first linear    // w_0, b_0
	last  linear    // w_K, b_K
	rows  *rows     // the distinct mistaken rows
	steps []float64 // Rate·y of each distinct row
	unit  float64   // 1 if the steps move the bias, 0 through the origin
	votes []vote    // votes[0] is w_0's; votes[k] is the k-th mistake's
	stats Stats
}

// vote is a voter: the distinct row whose mistake made it (unused for
// w_0) and its count.
type vote struct {
	row, count int
}

// Fit trains the voted perceptron on the rows of X with labels y. It runs
// as Perceptron's Fit does, with the same errors, and keeps the voters of
// the run of Epochs epochs.
func (v *Voted) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y)
	if err != nil {
		return err
	}
	s, err := v.settings().resolve(ds.d)
	if err != nil {
		return err
	}
	lin := s.start(ds.d)
	w0 := lin.clone()
	// Each vote holds first the visit that made it; the count of a vote
	// is the number of visits from it to the next vote's.
	votes := []vote{{row: -1}}
	stats, err := s.run(ds, newRule(ds, &lin, &s, func(i, visit int) {
		votes = append(votes, vote{row: i, count: visit})
	}))
	if err != nil {
		return err
	}
	if err := lin.checkFinite(); err != nil {
		return err
	}
	// The last weights survive the epochs not passed too.
	for k := range votes {
		next := s.epochs * ds.n
		if k+1 < len(votes) {
			next = votes[k+1].count
		}
		votes[k].count = next - votes[k].count
	}

	// Number the distinct mistaken rows, and store each once.
	slot := make([]int, ds.n) // 1 + the number of row i, or 0 if not stored
	var first []int           // the rows in the order of their numbers
	for k := 1; k < len(votes); k++ {
		i := votes[k].row
		if slot[i] == 0 {
			first = append(first, i)
			slot[i] = len(first)
		}
		votes[k].row = slot[i] - 1
	}
	rows := newRows(ds.d, len(first), ds.sparse())
	steps := make([]float64, len(first))
	for r, i := range first {
		rows.append(ds.row(i))
		steps[r] = s.rate * ds.y[i]
	}
	v.unit = 1
	if s.noBias {
		v.unit = 0
	}
	v.first, v.last, v.rows, v.steps, v.stats = w0, lin, rows, steps, stats
	v.votes = append(make([]vote, 0, len(votes)), votes...)
	return nil
}

// Predict returns the label of x: +1 if the vote Score(x) is >= 0, and -1
// otherwise. It panics if the voted perceptron has not been fitted or if
// len(x) is not the number of weights. Predict and Score may be called
// concurrently with each other, but not with Fit.
func (v *Voted) Predict(x []float64) float64 {
	return sign(v.vote(x, "Predict"))
}

// Score returns the vote sum_k c_k·sign(w_k·x+b_k), a whole number between
// minus and plus the number of visits of the run. It panics as Predict
// does.
func (v *Voted) Score(x []float64) float64 {
	return v.vote(x, "Score")
}

// vote returns the vote on x; method names the caller in a panic.
func (v *Voted) vote(x []float64, method string) float64 {
	v.last.checked(x, method)
	return v.score(vec{val: x})
}

// score returns the vote on x.
func (v *Voted) score(x vec) float64 {
	a := v.first.score(x)
	vote := float64(v.votes[0].count) * sign(a)
	if len(v.steps) == 0 {
		return vote
	}
	buf := getScratch(len(v.steps))
	t := *buf
	for r, step := range v.steps {
		t[r] = step * (v.rows.row(r).dotVec(x) + v.unit)
	}
	for _, vt := range v.votes[1:] {
		a += t[vt.row]
		vote += float64(vt.count) * sign(a)
	}
	putScratch(buf)
	return vote
}

// ScoreRows returns in dst, which it allocates if dst is nil, the scores
// of the rows of X, dense or sparse, as Score computes them: exactly for
// dense rows, and up to rounding for sparse ones, read in O(non-zeros). It
// spreads the rows over GOMAXPROCS goroutines. It panics as Score does,
// if X does not have the number of columns the model was fitted on, if
// dst is not nil and its length is not the number of rows of X, or if X is
// a mat.RowNonZeroDoer that yields an element out of range or not finite.
func (v *Voted) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	l := v.last.fittedFor("ScoreRows")
	return scoreRows(dst, X, l.dim(), v.score)
}

// PredictRows returns in dst, which it allocates if dst is nil, the labels
// of the rows of X, dense or sparse: the signs of the scores of ScoreRows.
// It panics as ScoreRows does.
func (v *Voted) PredictRows(dst []float64, X mat.Matrix) []float64 {
	return signs(v.ScoreRows(dst, X))
}

// Weights returns a copy of the last weights of the run, w_K, those that
// Perceptron with the same settings ends with. The vote uses them only as
// one voter among the others. Weights returns nil if the voted perceptron
// has not been fitted.
func (v *Voted) Weights() []float64 {
	return append([]float64(nil), v.last.w...)
}

// Bias returns the last bias of the run, b_K.
func (v *Voted) Bias() float64 {
	return v.last.b
}

// Stats returns a description of the training run of the last successful
// Fit.
func (v *Voted) Stats() Stats {
	return v.stats.clone()
}

func (v *Voted) settings() settings {
	return settings{epochs: v.Epochs, rate: v.Rate, rnd: v.Rand, noBias: v.NoBias, w0: v.InitWeights, b0: v.InitBias, onUpdate: v.OnUpdate}
}
