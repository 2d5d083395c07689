// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Classifier is a classifier of rows into classes.
//
// Fit trains the classifier on the rows of X, one sample per row, with
// labels y, which are class values: any finite float64s, two distinct
// ones making a problem of two classes and more a multiclass one. It
// returns an error if the data are not valid; a failed Fit leaves the
// classifier as it was.
//
// Predict returns the class of x, one of the labels of the training data.
// It panics if the classifier has not been fitted or if x has the wrong
// length.
type Classifier interface {
	Fit(X mat.Matrix, y []float64) error
	Predict(x []float64) float64
}

// Scorer is a Classifier with a decision function. Every classifier of
// this package is a Scorer.
//
// Classes returns the classes of the fitted model, in ascending order.
//
// Scores returns in dst, which it allocates if dst is nil, the scores of
// x: for two classes one, >= 0 for the second class and < 0 for the
// first; for K classes K, one per class in the order of Classes, of which
// the greatest chooses, the first of those if several tie. Score returns
// the one score of a model of two classes, and panics for more.
//
// ScoreRows and PredictRows score and classify every row of X, dense or
// sparse: ScoreRows returns the scores of row i at dst[i·S:(i+1)·S], S
// being the number of scores, and PredictRows its class at dst[i].
type Scorer interface {
	Classifier
	Classes() []float64
	Score(x []float64) float64
	Scores(dst, x []float64) []float64
	ScoreRows(dst []float64, X mat.Matrix) []float64
	PredictRows(dst []float64, X mat.Matrix) []float64
}

// Perceptron is Rosenblatt's perceptron (1958), trained by the
// mistake-driven rule. With two classes, y being -1 for the first and +1
// for the second, an example (x, y) with y(w·x+b) <= 0 is a mistake and
// moves the hyperplane by w += Rate·y·x, b += Rate·y. With K classes it
// is the multiclass perceptron (Collins, 2002; Crammer and Singer, 2003):
// one weight vector and bias per class, an example of class t a mistake
// unless t scores strictly above every other class, and a mistake moving
// class t by Rate·x and the other class of highest score by -Rate·x.
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

	// NoBias trains through the origin: the biases stay zero.
	NoBias bool

	// InitWeights, if not nil, are the weights training starts from, laid
	// out as Weights returns them: one per column for two classes. If
	// nil, training starts from zero weights.
	InitWeights []float64

	// InitBias is the bias training starts from, for two classes. It
	// must be zero if NoBias is set, and for more classes, whose biases
	// start at zero.
	InitBias float64

	// Labels, if not nil, are the classes, in any order: Fit accepts only
	// labels among them, and the model has every one of them as a class,
	// even one that y lacks; Learn on a perceptron that has not been
	// fitted starts with them. If nil, Fit takes the classes of y, and
	// Learn starts with the classes -1 and +1.
	Labels []float64

	// OnUpdate, if not nil, is called after every update with the epoch,
	// the row that was a mistake, and the new weights and biases.
	OnUpdate func(Update)

	lin     linear
	classes []float64
	stats   Stats
}

// Fit trains the perceptron on the rows of X with labels y, starting from
// InitWeights and InitBias. It stops at the end of the first epoch with no
// mistake, or after Epochs epochs. An epoch costs one score per row, S dot
// products on dense rows, and an update per mistake.
//
// Fit returns an error if X has no rows, if len(y) is not the number of
// rows, if a label is NaN or infinite or not among Labels, if y has a
// single class, if X holds NaN or an infinity, if a setting is not valid,
// or if the weights overflow. A failed Fit leaves the perceptron as it
// was; OnUpdate may have been called for rows visited before a bad value
// was found. Fit reads X as the package documentation says, does not
// modify X or y, and keeps no reference to them.
func (p *Perceptron) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y, p.Labels)
	if err != nil {
		return err
	}
	S := scores(ds.classes)
	s, err := p.settings().resolve(ds.d, S)
	if err != nil {
		return err
	}
	lin := s.start(ds.d, S)
	stats, err := s.run(ds, newRule(ds, &lin, &s, nil))
	if err != nil {
		return err
	}
	if err := lin.checkFinite(); err != nil {
		return err
	}
	p.lin, p.classes, p.stats = lin, ds.classes, stats
	return nil
}

// Learn trains the perceptron on one example, as one visit of Fit does, and
// reports whether it was a mistake and so caused an update. Learn on a
// perceptron that has not been fitted starts with the classes of Labels,
// or -1 and +1, from InitWeights and InitBias, or from zero weights on
// rows of the length of x. Learn leaves Stats as they are.
//
// Learn returns an error, and changes nothing, if y is not one of the
// classes, if x holds NaN or an infinity, if x has the wrong length, if a
// setting is not valid, if NoBias is set on a perceptron whose bias is not
// zero, or if the update would overflow the weights.
func (p *Perceptron) Learn(x []float64, y float64) (bool, error) {
	classes, d := p.classes, len(x)
	lin := p.lin
	if lin.fitted() {
		d = lin.dim()
	} else {
		var err error
		if classes, err = startClasses(p.Labels); err != nil {
			return false, err
		}
	}
	s, err := p.learnSettings(d, scores(classes))
	if err != nil {
		return false, err
	}
	if err := checkExample(x, d); err != nil {
		return false, err
	}
	c, err := class(classes, y)
	if err != nil {
		return false, err
	}
	if !lin.fitted() {
		lin = s.start(d, scores(classes))
	}
	r := rule{l: &lin, rate: s.rate, noBias: s.noBias, guard: true}
	xv := &vec{val: x}
	var mistake bool
	if len(classes) == 2 {
		mistake, err = r.judge(xv, float64(2*c-1), lin.score(xv), -1, 0)
	} else {
		buf := getScratch(len(classes))
		lin.scores(*buf, xv)
		mistake, err = r.judgeClass(xv, c, *buf, -1, 0)
		putScratch(buf)
	}
	if err != nil {
		return false, err
	}
	if mistake {
		s.notify(0, -1, r.update)
	}
	p.lin, p.classes = lin, classes
	return mistake, nil
}

// LearnRows trains the perceptron on the rows of X, dense or sparse, with
// labels y, visiting each row once in order, as Learn does, and returns
// the number of mistakes. On a perceptron that has not been fitted it
// starts as Learn does, with rows of the width of X.
//
// LearnRows returns an error, and changes nothing, if X or y are not
// valid as Fit requires them, if a label is not one of the classes, if X
// does not have the number of columns of the weights, or if a setting is
// not valid. If an update would overflow the weights, it returns an error
// after learning the rows before it.
func (p *Perceptron) LearnRows(X mat.Matrix, y []float64) (int, error) {
	classes := p.classes
	if !p.lin.fitted() {
		var err error
		if classes, err = startClasses(p.Labels); err != nil {
			return 0, err
		}
	}
	ds, err := newDataset(X, y, classes)
	if err != nil {
		return 0, err
	}
	d, S := ds.d, scores(classes)
	if p.lin.fitted() {
		d = p.lin.dim()
	}
	s, err := p.learnSettings(d, S)
	if err != nil {
		return 0, err
	}
	if ds.d != d {
		return 0, fmt.Errorf("perceptron: X has %d columns, want %d", ds.d, d)
	}
	if err := ds.check(nil); err != nil {
		return 0, err
	}
	lin := p.lin
	if !lin.fitted() {
		lin = s.start(d, S)
	}
	r := newRule(ds, &lin, &s, nil)
	r.guard = true
	mistakes := 0
	for i := range ds.n {
		x := ds.row(i)
		mistake, err := r.visitRow(&x, i, 0)
		if err != nil {
			if i > 0 {
				p.lin, p.classes = lin, classes
			}
			return mistakes, err
		}
		if mistake {
			mistakes++
			s.notify(0, -1, r.update)
		}
	}
	p.lin, p.classes = lin, classes
	return mistakes, nil
}

// learnSettings returns the settings of Learn for a model of S scores on
// rows of length d.
func (p *Perceptron) learnSettings(d, S int) (settings, error) {
	s := p.settings()
	if p.lin.fitted() {
		// The initial weights have played their part: do not check them
		// again on every example.
		s.w0, s.b0 = nil, 0
	}
	s, err := s.resolve(d, S)
	if err != nil {
		return s, err
	}
	if s.noBias && p.lin.fitted() && nonZero(p.lin.b) {
		return s, fmt.Errorf("perceptron: NoBias is set, but the biases are %v, want 0", p.lin.b)
	}
	return s, nil
}

// Predict returns the class of x: for two classes the second if
// w·x+b >= 0 and the first otherwise (also if x holds NaN); for more, the
// class of the greatest score, the first of those if several tie. It
// panics if the perceptron has not been fitted or if len(x) is not the
// number of columns. Predict and the scoring methods may be called
// concurrently with each other, but not with Fit or Learn.
func (p *Perceptron) Predict(x []float64) float64 {
	return p.lin.predict(p.classes, x)
}

// Score returns the decision function w·x+b of a perceptron of two
// classes, whose sign is the prediction and whose size, divided by the
// norm of w, is the distance of x from the hyperplane. It panics as
// Predict does, and for more classes.
func (p *Perceptron) Score(x []float64) float64 {
	return p.lin.binaryScore(x, 1, "Score")
}

// Scores returns the scores of x, one for two classes and one per class
// for more, in dst, which it allocates if dst is nil. It panics as
// Predict does, or if dst is not nil and has the wrong length.
func (p *Perceptron) Scores(dst, x []float64) []float64 {
	return p.lin.scoresTo(dst, x, 1, "Scores")
}

// ScoreRows returns in dst, which it allocates if dst is nil, the scores
// of the rows of X, dense or sparse, as Scores computes them: exactly for
// dense rows, and up to rounding for sparse ones, read in O(non-zeros).
// The scores of row i are dst[i·S:(i+1)·S], S being the number of scores.
// It spreads the rows over GOMAXPROCS goroutines. It panics as Predict
// does, if X does not have the number of columns the model was fitted on,
// if dst is not nil and has the wrong length, or if X is a
// mat.RowNonZeroDoer that yields an element out of range or not finite.
func (p *Perceptron) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	return p.lin.scoreRows(dst, X, 1)
}

// PredictRows returns in dst, which it allocates if dst is nil, the
// classes of the rows of X, dense or sparse, as Predict chooses them. It
// panics as ScoreRows does.
func (p *Perceptron) PredictRows(dst []float64, X mat.Matrix) []float64 {
	return p.lin.predictRows(dst, X, p.classes)
}

// Classes returns a copy of the classes, in ascending order, or nil if
// the perceptron has not been fitted.
func (p *Perceptron) Classes() []float64 {
	return slices.Clone(p.classes)
}

// Weights returns a copy of the weights: for two classes the d weights
// w; for K classes the d·K weights of every feature for every class, the
// weight of feature j for class c at index j·K+c, as
// mat.NewDense(d, K, Weights()) lays them out. It returns nil if the
// perceptron has not been fitted.
func (p *Perceptron) Weights() []float64 {
	return slices.Clone(p.lin.w)
}

// Bias returns the bias b of a perceptron of two classes, or 0 if it has
// not been fitted. It panics for more classes.
func (p *Perceptron) Bias() float64 {
	return p.lin.bias("Bias")
}

// Biases returns a copy of the biases: one for two classes, and one per
// class for more. It returns nil if the perceptron has not been fitted.
func (p *Perceptron) Biases() []float64 {
	return slices.Clone(p.lin.b)
}

// Stats returns a description of the training run of the last successful
// Fit.
func (p *Perceptron) Stats() Stats {
	return p.stats.clone()
}

func (p *Perceptron) settings() settings {
	return settings{epochs: p.Epochs, rate: p.Rate, rnd: p.Rand, noBias: p.NoBias, w0: p.InitWeights, b0: p.InitBias, labels: p.Labels, onUpdate: p.OnUpdate}
}

// sign returns the label of a score: +1 for a score of zero, as Predict
// has it.
func sign(a float64) float64 {
	if a >= 0 {
		return 1
	}
	return -1
}
