// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

// The perceptron's rule, written once for every classifier of the
// package: the mistake test, the update it makes, and the prediction from
// the scores, which package data's Model writes again (its choose) to
// choose from the scores that it also returns. The type rule, at the end,
// applies it to a hypothesis by the visits of visits.go: a weight table
// for the linear classifiers, a support-vector expansion for Kernel.

// move is the update of a mistake: score up moves by step·x, and its bias
// by step; with more than two classes score down moves by -step·x and
// its bias by -step.
type move struct {
	up, down int // down is -1 with two classes
	step     float64
}

// addStep adds a to s[up] and, if down is not -1, takes it from s[down]:
// what a mistake of step a adds to a sum per score.
func addStep(s []float64, up, down int, a float64) {
	s[up] += a
	if down >= 0 {
		s[down] -= a
	}
}

// judge reports whether row i of ds, whose scores are s, is a mistake,
// a being s[0], and returns the other class of a row of more than two
// classes. With two classes, one score, a row of label y, -1 for the
// first class and +1 for the second, is a mistake if y·a <= 0. With more,
// a row of class c is a mistake unless its score is greater than every
// other, and the other class is that of greatest score, the first of those
// if several tie (Collins, 2002; Crammer and Singer, 2003).
func judge(ds *dataset, i int, s []float64, a float64) (o int, mistake bool) {
	if len(s) == 1 {
		return -1, ds.y[i]*a <= 0
	}
	c := ds.cls[i]
	o = argmax(s, c)
	return o, s[c] <= s[o]
}

// moveOf returns the update of the mistake that judge found at row i of
// ds, whose scores are s, a being s[0], and the row's loss, the
// perceptron criterion: with two classes the score moves by r·y; with
// more, the score of the row's class moves up by r and that of the other
// class o down by r; r is rate times the weight of the row's class. The
// loss is not weighed, as scikit-learn's is not. The visits make the move
// only for a mistake, apart from judge, as building it costs a row
// classified right a good part of a short row's dot product.
func moveOf(ds *dataset, i int, s []float64, a float64, o int, rate float64) (move, float64) {
	r := ds.rate(i, rate)
	if len(s) == 1 {
		y := ds.y[i]
		return move{up: 0, down: -1, step: r * y}, -y * a
	}
	c := ds.cls[i]
	return move{up: c, down: o, step: r}, s[o] - s[c]
}

// decide returns the class that scores s choose, as every Predict does:
// for two classes the second if the one score is >= 0, so that a tie
// goes to the second class, and the first otherwise; for more the class
// of the greatest score, the first of those if several tie.
func decide(classes, s []float64) float64 { return classes[class(s)] }

// class returns the index of the class that scores s choose, as decide
// does.
func class(s []float64) int {
	if len(s) == 1 {
		if s[0] >= 0 {
			return 1
		}
		return 0
	}
	return argmax(s, -1)
}

// argmax returns the index of the greatest of s, the first of those if
// several tie, skipping the index skip.
func argmax(s []float64, skip int) int {
	best := -1
	for c, v := range s {
		if c != skip && (best < 0 || v > s[best]) {
			best = c
		}
	}
	return best
}

// sign returns the vote of a score: +1 for a score of zero, as decide has
// it.
func sign(a float64) float64 {
	if a >= 0 {
		return 1
	}
	return -1
}

// rule is the perceptron's rule as a learner of a hypothesis on a data
// set. Perceptron, Pocket, Averaged, Voted and Kernel all train by it,
// and differ in what they keep of the run: kept, if not nil, is called at
// each mistake, before the update, with the row and its index, the number
// of visits of the run before it, and the update. The hypothesis at a
// call of kept is thus the one that every visit since the previous call
// used. If kept returns an error, the visit returns it and makes no
// update.
type rule struct {
	ds   *dataset
	h    hypothesis
	t    *table // h, if it is a weight table
	rate float64
	kept func(x *vec, i, t int, mv move) error
	s    []float64 // scratch for the scores of a visit

	// ahead holds the scores of three rows that span scores at once, as
	// it says.
	ahead []float64

	// guard makes a visit check that its update keeps the hypothesis
	// finite, and return an error instead of making it, for Learn; Fit
	// checks the model once at the end.
	guard bool

	// finiteScores makes a score that is not finite an error, as the
	// kernel's are where its values overflow: an infinite score of a
	// finite row of a weight table is left for the check of the weights.
	finiteScores bool

	// grows is the bytes that a mistake adds to what the run keeps, for
	// the rules that keep every mistake, and made the mistakes so far: as
	// made doubles, a visit checks that the memory left holds as much
	// again, before a slice that doubles with it runs out of memory.
	grows, made int

	// The visits poll the halt of ds every poll+1 visits, a power of
	// two, as many as for a weight table unless the hypothesis needs
	// fewer.
	poll int

	at   int     // the position in the order of the visit of the last error
	loss float64 // the training loss of the epoch so far
}

func newRule(ds *dataset, h hypothesis, S int, rate float64) *rule {
	r := &rule{ds: ds, h: h, rate: rate, s: make([]float64, S), poll: ds.rowMask(S)}
	r.t, _ = h.(*table)
	return r
}

// epoch runs epoch e, as learner says; the visits of the epochs before
// are e-1 passes over the rows, or none for Learn's epoch 0.
func (r *rule) epoch(e int, order []int, onMistake func(i int)) error {
	return r.visits(order, max(e-1, 0)*r.ds.n, onMistake)
}

func (r *rule) epochLoss() float64 {
	loss := r.loss
	r.loss = 0
	return loss
}

func (r *rule) update() Update { return r.h.update() }
