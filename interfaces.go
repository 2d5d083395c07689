// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// The contracts of the package: Classifier and Scorer, which every
// classifier is, and those by which the package drives its parts: model,
// a classifier of this package, which Fit and OneVsRest train; learner, a
// training algorithm, whose epochs the epoch loop runs; hypothesis, what
// the perceptron's rule trains; shard, a classifier that mixes; online,
// a classifier with Learn; and member, one of this package with Learn.

// Classifier is a classifier of rows into classes.
//
// Fit trains the classifier on the rows of X, one sample per row, with
// labels y, which are class values: any finite float64s, two distinct
// ones making a problem of two classes and more a multiclass one. It
// returns an error if the data are not valid; a failed Fit leaves the
// classifier as it was.
//
// Predict returns the class of x, one of the classes of the training
// data. It panics if the classifier has not been fitted or if x has the
// wrong length.
type Classifier interface {
	Fit(X mat.Matrix, y []float64) error
	Predict(x []float64) float64
}

// Scorer is a Classifier with a decision function. Every classifier of
// this package is a Scorer.
//
// Classes returns a copy of the classes of the fitted model, in
// ascending order, or nil if it has not been fitted.
//
// ScoreRows returns in dst, which it allocates if nil, the scores of the
// rows of X, dense or sparse: S scores for each row, at dst[i·S:(i+1)·S]
// for row i. Two classes have one score, which chooses the second class
// if it is >= 0 and the first otherwise; K classes have K, in the order of
// Classes, the greatest choosing, the first of those if several tie. PredictRows
// returns in dst the class of each row, as Predict chooses it. Both panic
// as Predict does, if X has not the columns of the model, if dst has the
// wrong length, or if X yields an element out of range or not finite.
type Scorer interface {
	Classifier
	Classes() []float64
	ScoreRows(dst []float64, X mat.Matrix) []float64
	PredictRows(dst []float64, X mat.Matrix) []float64
}

// model is a classifier of this package: fit is its Fit on a data set,
// whose classes it weighs as the data set says, shuffling with rnd;
// settings returns its settings, with rnd as the source to shuffle with,
// and width its columns.
type model interface {
	Scorer
	fit(ds *dataset, rnd *rand.Rand) error
	settings(rnd *rand.Rand) settings
	width() int
}

// learner is a training algorithm, as the epoch loop drives it. The loop
// owns the epochs, their order, Stats and OnUpdate; the algorithm owns its
// visits: what a visit computes, what a mistake changes, and what is kept
// besides.
type learner interface {
	// epoch runs epoch e of the run, whose epochs are numbered from 1 and
	// run one after another: it visits every row once, in order, or in
	// index order if order is nil, makes the rule's update on each that
	// is a mistake, and then calls onMistake with the row. It must not
	// modify order. It returns an error, before updating on that row, at
	// a row that holds NaN or an infinity, unless the algorithm has
	// checked the rows before, or if the halt of the data set stops it;
	// the epoch's updates before it, and their calls, stand.
	epoch(e int, order []int, onMistake func(i int)) error

	// update describes the model after an update, for OnUpdate; notify
	// fills in Epoch and Row.
	update() Update

	// epochLoss returns the training loss of the last epoch, as Stop
	// defines it.
	epochLoss() float64
}

// hypothesis is what the rule trains: a weight table, or a kernel
// expansion.
type hypothesis interface {
	// scores sets s to the scores of x, row i of the data.
	scores(s []float64, x *vec, i int)

	// add makes the update mv on x, row i, after t visits of the run.
	add(x *vec, i, t int, mv move)

	// fits reports whether the update mv on x keeps the hypothesis
	// finite, for Learn, which must not change it otherwise.
	fits(x *vec, mv move) bool

	// update describes the hypothesis after an update, for OnUpdate.
	update() Update
}

// shard is a Perceptron or an Averaged, which learn shards.
type shard interface {
	member
	Stats() Stats

	// lin returns the model, as training writes it, model a copy of
	// it, and set publishes m as the model.
	lin() *linearState
	model() linearModel
	set(m linearModel)
}

// online is a classifier with Learn.
type online interface {
	Classifier
	Learn(X mat.Matrix, y []float64) error
}

// member is a classifier of this package with Learn, which learnWith and
// learnChecked drive: state returns the settings of its Learn, its
// classes, or nil if it has none yet, its columns and its visits; begin
// readies it for a Learn on ds beside predictions (live.go), and returns
// the function that sets it back as it was if the Learn fails, or an
// error of kind ErrTooLarge if what that takes does not fit
// in the memory left; learn is its Learn on ds, of its classes, whose
// values are checked, with the resolved settings s, stopped by the halt
// of ds, which may leave it part trained; publish makes what learn did
// the model that predictions read.
type member interface {
	model
	online
	state() (s settings, classes []float64, d, visits int)
	begin(ds *dataset) (restore func(), err error)
	learn(ds *dataset, s settings) error
	publish(ds *dataset)
}
