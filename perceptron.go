// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Perceptron is Rosenblatt's perceptron (1958), trained by the
// mistake-driven rule. With two classes, y being -1 for the first and +1
// for the second, an example (x, y) with y(w·x+b) <= 0 is a mistake and
// moves the hyperplane by w += Rate·y·x, b += Rate·y. With K classes it
// is the multiclass perceptron (Collins, 2002; Crammer and Singer, 2003):
// one weight vector and bias per class, an example of class t a mistake
// unless t scores strictly above every other class, and a mistake moving
// class t by Rate·x and the other class of highest score by -Rate·x.
//
// The zero value is ready to use: it trains with a bias, from zero
// weights, at rate 1, visiting the rows in order, for at most 1000
// epochs. The settings are read by Fit and Learn and are never modified
// by them.
type Perceptron struct {
	// Epochs is the most passes over the data that Fit makes. Zero means
	// 1000. Fit stops sooner only after an epoch without a mistake, which
	// data that are not linearly separable never have, or when Stop says
	// so: on such data, set Stop or Epochs.
	Epochs int

	// Rate is the learning rate, the size of each update. Zero means 1.
	Rate float64

	// Rand, if not nil, shuffles the rows afresh at the start of every
	// epoch of Fit; if nil, Fit visits them in the order given. A Rand in
	// the same state gives the same model.
	Rand *rand.Rand

	// NoBias trains through the origin: the biases stay zero.
	NoBias bool

	// InitWeights, if not nil, are the weights training starts from, laid
	// out as Weights returns them, and otherwise zeros. Biases start at 0.
	InitWeights []float64

	// Labels, if not nil, are the classes, in any order: Fit accepts only
	// labels among them, and the model has every one of them as a class,
	// even one that y lacks. Learn on a model that has not been fitted
	// needs them. If nil, Fit takes the classes of y.
	Labels []float64

	// ClassWeight, if not nil, holds the weights of classes: a mistake on
	// a row of class c moves the model by Rate·ClassWeight[c], and a class
	// that it lacks weighs 1, as scikit-learn's class_weight has it.
	// Balanced gives the weights that balance the classes of y. Fit and
	// Learn return an error if a weight is not a finite value > 0, or if
	// ClassWeight weighs a value that is none of the classes. Stop
	// measures the loss and the accuracy without the weights, as
	// scikit-learn does.
	ClassWeight map[float64]float64

	// OnUpdate, if not nil, is called after every update with the epoch,
	// the row that was a mistake, and the new weights and biases.
	OnUpdate func(Update)

	// Stop, if not nil, stops Fit early; Learn does not use it.
	Stop *Stop

	linear
}

// Fit trains the perceptron on the rows of X with labels y, starting from
// InitWeights. It stops at the end of the first epoch with no mistake,
// after Epochs epochs, or when Stop says. An epoch costs one score per row,
// S dot products on dense rows, and an update per mistake.
//
// Fit returns an error if X has no rows, if len(y) is not the number of
// rows, if a label is NaN or infinite or not among Labels, if y has a
// single class, if X holds NaN or an infinity, if a setting is not valid,
// or if the weights overflow. A failed Fit leaves the perceptron as it
// was, though OnUpdate may have been called. Fit keeps no reference to X
// or y.
func (p *Perceptron) Fit(X mat.Matrix, y []float64) error { return fitData(p, X, y, nil, nil) }

// fit is Fit on the data set ds, shuffling with rnd.
func (p *Perceptron) fit(ds *dataset, rnd *rand.Rand) error {
	s, err := p.settings(rnd).resolve(ds.d, scores(ds.classes))
	if err != nil {
		return err
	}
	ds, val, err := s.start(ds, false, ds.tableWords())
	if err != nil {
		return err
	}
	m := newTable(ds.d, scores(ds.classes), s.w0, s.noBias)
	stats, err := s.run(ds, newRule(ds, &m, len(m.b), s.rate), val, func(int) func([]float64, vec) { return m.scoresOf })
	if err != nil {
		return err
	}
	if err := m.checkFinite(); err != nil {
		return err
	}
	p.set(linearModel{w: m, classes: ds.classes, stats: stats})
	return nil
}

// Learn trains the perceptron on the rows of X with labels y as an epoch
// of Fit does, visiting each row once, in order, so that Learn on the rows
// of every epoch gives the model of the Fit. It goes on from the last Fit
// or Learn, with its classes and bias, or else from InitWeights with the
// classes of Labels. It adds its mistakes to Stats, and calls OnUpdate
// with epoch 0.
//
// Learn returns an error, and changes nothing, if Fit would return one
// for X and y, if a label is not one of the classes, if X has not the
// model's columns, if there are no classes to start from, or if an update
// would overflow the weights. The first Learn after Fit or a load copies
// the weights, which the prediction methods read while Learn writes the
// copy, and returns an error of kind ErrTooLarge if the copy does not fit
// in the memory left. Learn may run concurrently with the prediction
// methods and with Marshal and MarshalJSON, but not with another Learn or
// Fit; a classifier that has never been fitted, loaded or learned from
// is not read until its first Learn returns.
func (p *Perceptron) Learn(X mat.Matrix, y []float64) error { return learnWith(p, X, y, nil, nil) }

func (p *Perceptron) state() (settings, []float64, int, int) {
	m := p.work()
	return p.settings(nil), m.classes, m.w.dim(), 0
}

// learn is Learn on ds, checked, with the settings s.
func (p *Perceptron) learn(ds *dataset, s settings) error { return p.learnTable(ds, s, false) }

func (p *Perceptron) settings(rnd *rand.Rand) settings {
	return settings{epochs: p.Epochs, rate: p.Rate, rnd: rnd, noBias: p.NoBias, w0: p.InitWeights, onUpdate: p.OnUpdate, stop: p.Stop, weights: p.ClassWeight, source: p.Rand, labels: p.Labels}
}

// MarshalJSON returns the saved form of the fitted perceptron, as
// Unmarshal reads it: its settings but Rand and OnUpdate, its classes,
// weights and biases, and Stats, or an error if it has not been fitted.
// Its value receiver lets json.Marshal save a Perceptron too.
func (p Perceptron) MarshalJSON() ([]byte, error) { return marshalJSON(p) }

func (p Perceptron) saved(method string) (saved, error) {
	v := p.hold()
	m := &v.M
	s := p.settings(nil).json(p.Labels)
	return newSaved(method, m.w.fitted(), func() error { return s.check(m.classes, m.w.dim()) },
		saved{"Perceptron", s, linearJSON{m.classes, m.w.json()}, &m.stats, m.w.dim(), len(m.w.b), v.Done})
}

// UnmarshalJSON sets the perceptron to the one saved in data, as
// Unmarshal does; Rand and OnUpdate keep their values. It returns an
// error, and changes nothing, if data is not a saved Perceptron. As
// encoding/json asks, the JSON null changes nothing.
func (p *Perceptron) UnmarshalJSON(data []byte) error { return unmarshalJSON(p, data) }

// load sets the perceptron to the one saved in f.
func (p *Perceptron) load(f form) error { return loadLinear(f, "Perceptron", p) }
