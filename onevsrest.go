// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// OneVsRest is a multiclass classifier made of binary ones, one per class:
// the classifier of class c learns c, its second class, against the rest,
// its first, and OneVsRest predicts the class whose classifier scores
// highest, the first of those if several tie. With two classes it trains
// one classifier, of the classes themselves. This is how scikit-learn's
// linear classifiers, its Perceptron among them, learn more than two
// classes; the multiclass mode of every classifier of this package, which
// learns the classes together, is the other way.
//
// The zero value is ready to use: it trains a Perceptron with the zero
// value's settings for every class.
type OneVsRest struct {
	// New, if not nil, returns a new binary classifier, with the settings
	// every class's is to have; Fit calls it once per classifier. If nil,
	// Fit makes a &Perceptron{}.
	New func() Scorer

	// Labels are the classes, as in Perceptron.
	Labels []float64

	models  []Scorer
	classes []float64
}

// Fit trains the classifiers of OneVsRest on the rows of X with labels y,
// spread over GOMAXPROCS goroutines, each fitting the classifier of a
// class on all the rows at a time. It returns the errors that Fit of the
// classifiers returns, and those of Perceptron's Fit about X and y; it
// returns an error too if New returns nil. A failed Fit leaves OneVsRest
// as it was.
func (o *OneVsRest) Fit(X mat.Matrix, y []float64) error {
	r, _ := X.Dims()
	if len(y) != r {
		return fmt.Errorf("perceptron: len(y) is %d, want %d (the number of rows of X)", len(y), r)
	}
	classes, err := classesOf(y, o.Labels)
	if err != nil {
		return err
	}
	k := scores(classes)
	models := make([]Scorer, k)
	for c := range models {
		if o.New == nil {
			models[c] = &Perceptron{}
		} else if models[c] = o.New(); models[c] == nil {
			return fmt.Errorf("perceptron: OneVsRest.New returned nil")
		}
	}
	errs := make([]error, k)
	parallel(k, func() func(int) {
		return func(c int) {
			if k == 1 {
				errs[c] = models[c].Fit(X, y)
				return
			}
			yc := make([]float64, len(y))
			for i, v := range y {
				yc[i] = -1
				if v == classes[c] {
					yc[i] = 1
				}
			}
			errs[c] = models[c].Fit(X, yc)
		}
	})
	for c, err := range errs {
		if err != nil {
			if k > 1 {
				return fmt.Errorf("%w (class %v against the rest)", err, classes[c])
			}
			return err
		}
	}
	if k > 1 {
		for c, m := range models {
			if got := m.Classes(); len(got) != 2 {
				return fmt.Errorf("perceptron: OneVsRest: the classifier of class %v has classes %v, want two", classes[c], got)
			}
		}
	}
	o.models, o.classes = models, classes
	return nil
}

// Predict returns the class of x whose classifier scores highest, the
// first of those if several tie; with two classes, the class that their
// classifier predicts. It panics if OneVsRest has not been fitted, or as
// the classifiers' Scores panic.
func (o *OneVsRest) Predict(x []float64) float64 {
	o.fitted("Predict")
	if len(o.models) == 1 {
		return o.models[0].Predict(x)
	}
	buf := getScratch(len(o.models))
	defer putScratch(buf)
	o.scores(*buf, x)
	return decide(o.classes, *buf)
}

// Score returns the score of x of two classes, that of their classifier.
// It panics if OneVsRest has not been fitted, or for more classes.
func (o *OneVsRest) Score(x []float64) float64 {
	o.fitted("Score")
	if len(o.models) != 1 {
		panic(fmt.Sprintf("perceptron: Score of a model of %d classes: use Scores", len(o.classes)))
	}
	return o.models[0].Score(x)
}

// Scores returns the scores of x, in dst, which it allocates if dst is
// nil: for two classes that of their classifier, and for more the score
// of each class's classifier. It panics as Predict does, or if dst is not
// nil and has the wrong length.
func (o *OneVsRest) Scores(dst, x []float64) []float64 {
	o.fitted("Scores")
	dst = scoresDst(dst, len(o.models))
	o.scores(dst, x)
	return dst
}

func (o *OneVsRest) scores(dst, x []float64) {
	var s [1]float64
	for c, m := range o.models {
		dst[c] = m.Scores(s[:], x)[0]
	}
}

// ScoreRows returns the scores of the rows of X, dense or sparse, in dst,
// which it allocates if dst is nil: those of row i at dst[i·S:(i+1)·S], S
// being the number of scores. Each classifier scores every row with its
// ScoreRows. It panics as Scores does, or as the classifiers' ScoreRows
// panic.
func (o *OneVsRest) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	o.fitted("ScoreRows")
	n, _ := X.Dims()
	S := len(o.models)
	dst = rowsDst(dst, n*S)
	if S == 1 {
		return o.models[0].ScoreRows(dst, X)
	}
	col := make([]float64, n)
	for c, m := range o.models {
		m.ScoreRows(col, X)
		for i, v := range col {
			dst[i*S+c] = v
		}
	}
	return dst
}

// PredictRows returns the classes of the rows of X, dense or sparse, as
// Predict chooses them, in dst, which it allocates if dst is nil. It
// panics as ScoreRows does.
func (o *OneVsRest) PredictRows(dst []float64, X mat.Matrix) []float64 {
	o.fitted("PredictRows")
	n, _ := X.Dims()
	if len(o.models) == 1 {
		return o.models[0].PredictRows(dst, X)
	}
	dst = rowsDst(dst, n)
	s, S := o.ScoreRows(nil, X), len(o.models)
	for i := range dst {
		dst[i] = decide(o.classes, s[i*S:i*S+S])
	}
	return dst
}

// Classes returns a copy of the classes, in ascending order, or nil if
// OneVsRest has not been fitted.
func (o *OneVsRest) Classes() []float64 {
	return slices.Clone(o.classes)
}

// Models returns the fitted classifiers: for two classes the one of both,
// and for more that of each class in the order of Classes. It returns nil
// if OneVsRest has not been fitted.
func (o *OneVsRest) Models() []Scorer {
	return slices.Clone(o.models)
}

// fitted panics in the manner of gonum if OneVsRest has not been fitted;
// method names the caller.
func (o *OneVsRest) fitted(method string) {
	if o.models == nil {
		panic("perceptron: " + method + " called before Fit")
	}
}
