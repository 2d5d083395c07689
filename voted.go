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

// Voted is the voted perceptron of Freund and Schapire (Large margin
// classification using the perceptron algorithm, Machine Learning 37(3),
// 1999). It trains as Perceptron does, for Epochs epochs, and every weight
// vector w_k, b_k that the run produces votes with weight c_k, the number
// of visits after which it was the current one: the visit that made it,
// and those it then classified right. With two classes Voted predicts the
// sign of the vote sum_k c_k·sign(w_k·x+b_k), the second class on a tie.
// With more, each voter w_k votes c_k times for the class it predicts,
// that of its greatest score, and Voted predicts the class with the most
// votes, the first of those if several tie.
//
// Freund and Schapire run all Epochs epochs. Once an epoch makes no
// mistake the weights can no longer change, so Fit stops passing over the
// data and adds the visits of the epochs left to the count of the last
// weights, in closed form; Stats reports the epochs passed.
//
// Voted keeps the run compactly instead of as M+1 weight vectors: the
// starting weights, one copy of each row that was ever a mistake with its
// step Rate·y, and for each of the M mistakes the row it was and the count
// c_k of the vector it made (with more than two classes, also the two
// classes it moved, two ints more). For m distinct rows of d features and
// two classes that is (m+2)·d + m float64s and 2M+2 ints. However many epochs the run takes,
// the rows are never more than the training set, and each mistake costs
// two ints. An epoch costs what Perceptron's does, and each mistake an
// append more; once, at the end, Fit copies the m rows: one pass of writes
// over m·d numbers, which page faults can make dearer than an epoch when
// the heap must grow to hold them.
//
// Score computes every w_k·x+b_k, up to rounding and short of overflow,
// in one pass: one dot product for each distinct row, then one addition
// for each mistake, since w_k·x+b_k is w_(k-1)·x+b_(k-1) plus the
// mistake's step times x_k·x+1, or times x_k·x through the origin; with
// more than two classes a mistake changes the scores of its two classes
// so, and the voter's class is the greatest of the K scores. A prediction
// costs m dot products and M additions, or O(M·K) with K classes.
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

	// Labels are the classes, as in Perceptron.
	Labels []float64

	// OnUpdate is called after every update with the new voter's weights,
	// as in Perceptron.
	OnUpdate func(Update)

	first   linear    // w_0, b_0
	last    linear    // w_K, b_K
	rows    *rows     // the distinct mistaken rows
	steps   []float64 // the step of each distinct row: Rate·y for two classes, Rate for more
	unit    float64   // 1 if the steps move the bias, 0 through the origin
	votes   []vote    // votes[0] is w_0's; votes[k] is the k-th mistake's
	moves   []moved   // moves[k-1] is the k-th mistake's, for more than two classes
	classes []float64
	stats   Stats
}

// vote is a voter: the distinct row whose mistake made it (unused for
// w_0), and its count.
type vote struct {
	row, count int
}

// moved holds the classes that a mistake with more than two classes moves:
// up, the row's class, and down, the other. They are apart from the votes
// so that the votes of two classes, the most common case, stay small.
type moved struct {
	up, down int
}

// Fit trains the voted perceptron on the rows of X with labels y. It runs
// as Perceptron's Fit does, with the same errors, and keeps the voters of
// the run of Epochs epochs.
func (v *Voted) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y, v.Labels)
	if err != nil {
		return err
	}
	S := scores(ds.classes)
	s, err := v.settings().resolve(ds.d, S)
	if err != nil {
		return err
	}
	lin := s.start(ds.d, S)
	w0 := lin.clone()
	// Each vote holds first the visit that made it; the count of a vote
	// is the number of visits from it to the next vote's.
	votes := []vote{{row: -1}}
	var moves []moved
	stats, err := s.run(ds, newRule(ds, &lin, &s, func(i, visit, other int) {
		votes = append(votes, vote{row: i, count: visit})
		if S > 1 {
			moves = append(moves, moved{up: ds.cls[i], down: other})
		}
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
		steps[r] = s.rate
		if S == 1 {
			steps[r] *= ds.y[i]
		}
	}
	v.unit = 1
	if s.noBias {
		v.unit = 0
	}
	v.first, v.last, v.rows, v.steps, v.classes, v.stats = w0, lin, rows, steps, ds.classes, stats
	v.votes, v.moves = slices.Clone(votes), slices.Clone(moves)
	return nil
}

// Predict returns the class of x that the vote chooses: for two classes
// the second if the vote Score(x) is >= 0 and the first otherwise; for
// more, the class with the most votes, the first of those if several
// tie. It panics if the voted perceptron has not been fitted or if len(x)
// is not the number of columns. Predict and the scoring methods may be
// called concurrently with each other, but not with Fit.
func (v *Voted) Predict(x []float64) float64 {
	v.last.checked(x, "Predict")
	buf := getScratch(len(v.last.b))
	v.scores(*buf, vec{val: x})
	c := decide(v.classes, *buf)
	putScratch(buf)
	return c
}

// Score returns the vote of two classes, sum_k c_k·sign(w_k·x+b_k), a
// whole number between minus and plus the number of visits of the run.
// It panics as Predict does, and for more classes.
func (v *Voted) Score(x []float64) float64 {
	v.last.checkedBinary(x, "Score")
	var s [1]float64
	v.scores(s[:], vec{val: x})
	return s[0]
}

// Scores returns the votes on x, in dst, which it allocates if dst is
// nil: for two classes the one vote of Score, and for more the votes for
// each class, sum_k c_k over the voters k whose greatest score is the
// class's. It panics as Predict does, or if dst is not nil and has the
// wrong length.
func (v *Voted) Scores(dst, x []float64) []float64 {
	v.last.checked(x, "Scores")
	dst = scoresDst(dst, len(v.last.b))
	v.scores(dst, vec{val: x})
	return dst
}

// scores sets dst to the votes on x.
func (v *Voted) scores(dst []float64, x vec) {
	S := len(dst)
	buf := getScratch(len(v.steps) + 2*S)
	defer putScratch(buf)
	t, s, votes := (*buf)[:len(v.steps)], (*buf)[len(v.steps):len(v.steps)+S], dst
	if x.ind == nil && !v.rows.sparse() {
		// Dense rows and x, the common case, without copies of a vec, and
		// with the rows in a local, one load away after each call.
		rows := *v.rows
		for r, step := range v.steps {
			t[r] = step * (floats.Dot(rows.dense(r), x.val) + v.unit)
		}
	} else {
		for r, step := range v.steps {
			t[r] = step * (v.rows.row(r).dotVec(x) + v.unit)
		}
	}
	v.first.scores(s, &x)
	clear(votes)
	if S == 1 {
		// Sums in scalars, which stay in registers, where a sum in dst
		// would make each vote wait on the store of the one before.
		a := s[0]
		vote := float64(v.votes[0].count) * sign(a)
		for _, vt := range v.votes[1:] {
			a += t[vt.row]
			vote += float64(vt.count) * sign(a)
		}
		votes[0] = vote
		return
	}
	votes[argmax(s, -1)] += float64(v.votes[0].count)
	for k, vt := range v.votes[1:] {
		mv := v.moves[k]
		s[mv.up] += t[vt.row]
		s[mv.down] -= t[vt.row]
		votes[argmax(s, -1)] += float64(vt.count)
	}
}

// ScoreRows returns the votes on the rows of X, dense or sparse, in dst,
// which it allocates if dst is nil: those of row i at dst[i·S:(i+1)·S], S
// being the number of scores. It spreads the rows over GOMAXPROCS
// goroutines. It panics as Predict does, if X does not have the number of
// columns the model was fitted on, if dst is not nil and has the wrong
// length, or if X is a mat.RowNonZeroDoer that yields an element out of
// range or not finite.
func (v *Voted) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	l := v.last.fittedFor("ScoreRows")
	n, _ := X.Dims()
	S := len(l.b)
	dst = rowsDst(dst, n*S)
	eachRow(X, l.dim(), func() func(int, vec) {
		return func(i int, x vec) { v.scores(dst[i*S:i*S+S], x) }
	})
	return dst
}

// PredictRows returns the classes of the rows of X, dense or sparse, as
// Predict chooses them, in dst, which it allocates if dst is nil. It
// panics as ScoreRows does.
func (v *Voted) PredictRows(dst []float64, X mat.Matrix) []float64 {
	l := v.last.fittedFor("PredictRows")
	n, _ := X.Dims()
	dst = rowsDst(dst, n)
	eachRow(X, l.dim(), func() func(int, vec) {
		s := make([]float64, len(l.b))
		return func(i int, x vec) {
			v.scores(s, x)
			dst[i] = decide(v.classes, s)
		}
	})
	return dst
}

// Classes returns a copy of the classes, in ascending order, or nil if
// the voted perceptron has not been fitted.
func (v *Voted) Classes() []float64 {
	return slices.Clone(v.classes)
}

// Weights returns a copy of the last weights of the run, w_K, those that
// Perceptron with the same settings ends with, laid out as Perceptron's
// Weights. The vote uses them only as one voter among the others. Weights
// returns nil if the voted perceptron has not been fitted.
func (v *Voted) Weights() []float64 {
	return slices.Clone(v.last.w)
}

// Bias returns the last bias of the run, b_K, of two classes, or 0 if the
// voted perceptron has not been fitted. It panics for more classes.
func (v *Voted) Bias() float64 {
	return v.last.bias("Bias")
}

// Biases returns a copy of the last biases of the run.
func (v *Voted) Biases() []float64 {
	return slices.Clone(v.last.b)
}

// Stats returns a description of the training run of the last successful
// Fit.
func (v *Voted) Stats() Stats {
	return v.stats.clone()
}

func (v *Voted) settings() settings {
	return settings{epochs: v.Epochs, rate: v.Rate, rnd: v.Rand, noBias: v.NoBias, w0: v.InitWeights, b0: v.InitBias, labels: v.Labels, onUpdate: v.OnUpdate}
}
