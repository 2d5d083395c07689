// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/seed5ae3614e/perceptron"
)

// cfg is the settings of a case, which a kind gives every classifier
// that has them.
type cfg struct {
	name   string
	epochs int
	rate   float64
	noBias bool
	// init sets InitWeights to initWeights of the model's size.
	init bool
	// labels, if not nil, returns Labels from the classes of y.
	labels func(classes []float64) []float64
	// seed, if not zero, seeds Rand.
	seed uint64
	stop *perceptron.Stop
	// record records OnUpdate's updates.
	record bool
}

// env is what a case builds its classifiers with: the columns, the
// classes of the model, the case's Rand and the recorder of its updates.
type env struct {
	cfg
	d int
	// labelValues are the Labels of the case, and classes the classes
	// of the model, those of labelValues or of y.
	labelValues, classes []float64
	rnd                  *rand.Rand
	rec                  *recorder
}

// newEnv returns the environment of a case of c on data of d columns and
// labels y.
func newEnv(c cfg, d int, y []float64) *env {
	e := &env{cfg: c, d: d, rec: &recorder{}}
	cl := slices.Clone(y)
	slices.Sort(cl)
	e.classes = slices.Compact(cl)
	if c.labels != nil {
		e.labelValues = c.labels(e.classes)
		cl := slices.Clone(e.labelValues)
		slices.Sort(cl)
		e.classes = slices.Compact(cl)
	}
	if c.seed != 0 {
		e.rnd = rand.New(rand.NewPCG(c.seed, c.seed*31+7))
	}
	return e
}

// labelsOf returns Labels of the case, a copy of its own for each
// classifier.
func (e *env) labelsOf() []float64 { return slices.Clone(e.labelValues) }

// initOf returns InitWeights of a model of S scores, or nil.
func (e *env) initOf(S int) []float64 {
	if !e.init {
		return nil
	}
	return initWeights(e.d * S)
}

// initWeights returns n starting weights, fractions of both signs and
// zeros, not all of them exact in binary.
func initWeights(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = float64((i*7)%11-5) * 0.15
	}
	return w
}

// hook returns an OnUpdate of a stream of its own, or nil if the case
// records no updates.
func (e *env) hook() func(perceptron.Update) {
	if !e.record {
		return nil
	}
	return e.rec.hook()
}

// recorder keeps the updates of every OnUpdate hook it made, each in a
// stream of its own, in the order it made them: OneVsRest makes them in
// the order of the classes, and calls them from many goroutines.
type recorder struct {
	mu      sync.Mutex
	streams [][]perceptron.Update
}

// hook returns an OnUpdate that records its updates in a new stream.
func (r *recorder) hook() func(perceptron.Update) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := len(r.streams)
	r.streams = append(r.streams, nil)
	return func(u perceptron.Update) {
		u.Weights, u.Biases = slices.Clone(u.Weights), slices.Clone(u.Biases)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.streams[k] = append(r.streams[k], u)
	}
}

// print prints every update of every stream.
func (r *recorder) print(p *printer) {
	for k, s := range r.streams {
		p.printf("updates[%d]: %d", k, len(s))
		for _, u := range s {
			w := "nil"
			switch {
			case len(u.Weights) > wideRow:
				w = fmt.Sprintf("[%d] hash %x", len(u.Weights), hash(u.Weights))
			case u.Weights != nil:
				w = "[" + fs(u.Weights) + "]"
			}
			p.printf("  e=%d row=%d w=%s b=[%s]", u.Epoch, u.Row, w, fs(u.Biases))
		}
	}
}

// A kind is a classifier with the settings of its own that it is named by.
type kind struct {
	name string
	new  func(e *env) perceptron.Scorer
}

// scoresOf returns the number of scores of the case's model.
func (e *env) scoresOf() int { return scores(len(e.classes)) }

func newPerceptron(e *env) perceptron.Scorer {
	return &perceptron.Perceptron{Epochs: e.epochs, Rate: e.rate, Rand: e.rnd, NoBias: e.noBias,
		InitWeights: e.initOf(e.scoresOf()), Labels: e.labelsOf(), OnUpdate: e.hook(), Stop: e.stop}
}

func newPocket(ratchet bool) func(e *env) perceptron.Scorer {
	return func(e *env) perceptron.Scorer {
		return &perceptron.Pocket{Epochs: e.epochs, Rate: e.rate, Rand: e.rnd, NoBias: e.noBias,
			InitWeights: e.initOf(e.scoresOf()), Labels: e.labelsOf(), OnUpdate: e.hook(), Stop: e.stop, Ratchet: ratchet}
	}
}

func newAveraged(e *env) perceptron.Scorer {
	return &perceptron.Averaged{Epochs: e.epochs, Rate: e.rate, Rand: e.rnd, NoBias: e.noBias,
		InitWeights: e.initOf(e.scoresOf()), Labels: e.labelsOf(), OnUpdate: e.hook(), Stop: e.stop}
}

func newVoted(e *env) perceptron.Scorer {
	return &perceptron.Voted{Epochs: e.epochs, Rate: e.rate, Rand: e.rnd, NoBias: e.noBias,
		InitWeights: e.initOf(e.scoresOf()), Labels: e.labelsOf(), OnUpdate: e.hook(), Stop: e.stop}
}

func newKernel(fn perceptron.KernelFunc, rule perceptron.Prediction, budget int) func(e *env) perceptron.Scorer {
	return func(e *env) perceptron.Scorer {
		return &perceptron.Kernel{Func: fn, Prediction: rule, Budget: budget, Epochs: e.epochs, Rate: e.rate,
			Rand: e.rnd, NoBias: e.noBias, Labels: e.labelsOf(), OnUpdate: e.hook(), Stop: e.stop}
	}
}

// newOneVsRest returns the kind of OneVsRest of the classifiers of inner,
// or of New nil, each binary classifier with the settings of the case
// and sharing its Rand, which OneVsRest draws the seeds of the classes
// from.
func newOneVsRest(inner func(e *env) perceptron.Scorer) func(e *env) perceptron.Scorer {
	return func(e *env) perceptron.Scorer {
		o := &perceptron.OneVsRest{Labels: e.labelsOf()}
		if inner != nil {
			ie := *e
			ie.classes, ie.labelValues = []float64{-1, 1}, nil
			o.New = func() perceptron.Scorer { return inner(&ie) }
		}
		return o
	}
}

// Custom kernels: (1 + x·z)², which Poly{2, 1, 1} also is, and the Cauchy
// kernel 1/(1 + ||x-z||²).
var (
	square = perceptron.Custom(func(x, z []float64) float64 {
		s := 1.0
		for i := range x {
			s += x[i] * z[i]
		}
		return s * s
	})
	cauchy = perceptron.Custom(func(x, z []float64) float64 {
		s := 0.0
		for i := range x {
			s += (x[i] - z[i]) * (x[i] - z[i])
		}
		return 1 / (1 + s)
	})
)

const (
	last     = perceptron.PredictLast
	voted    = perceptron.PredictVoted
	averaged = perceptron.PredictAveraged
)

var (
	poly2 = perceptron.Poly{Degree: 2, Gamma: 0.5, Coef0: 1}
	poly3 = perceptron.Poly{Degree: 3, Gamma: 1, Coef0: 1}
	rbf03 = perceptron.RBF{Gamma: 0.3}
)

// kinds are every classifier of the dump.
var kinds = []kind{
	{name: "Perceptron", new: newPerceptron},
	{name: "Pocket", new: newPocket(false)},
	{name: "Pocket-ratchet", new: newPocket(true)},
	{name: "Averaged", new: newAveraged},
	{name: "Voted", new: newVoted},
	{name: "Kernel-linear-last", new: newKernel(nil, last, 0)},
	{name: "Kernel-linear-voted", new: newKernel(nil, voted, 0)},
	{name: "Kernel-linear-averaged", new: newKernel(nil, averaged, 0)},
	{name: "Kernel-poly-last", new: newKernel(perceptron.Poly{}, last, 0)},
	{name: "Kernel-poly2-voted", new: newKernel(poly2, voted, 0)},
	{name: "Kernel-poly3-averaged", new: newKernel(&poly3, averaged, 0)},
	{name: "Kernel-rbf-last", new: newKernel(perceptron.RBF{}, last, 0)},
	{name: "Kernel-rbf0.3-voted", new: newKernel(rbf03, voted, 0)},
	{name: "Kernel-rbf-averaged", new: newKernel(&perceptron.RBF{}, averaged, 0)},
	{name: "Kernel-square-last", new: newKernel(square, last, 0)},
	{name: "Kernel-cauchy-averaged", new: newKernel(cauchy, averaged, 0)},
	{name: "Kernel-linear-averaged-budget3", new: newKernel(nil, averaged, 3)},
	{name: "Kernel-rbf-last-budget5", new: newKernel(perceptron.RBF{}, last, 5)},
	{name: "Kernel-poly2-voted-budget4", new: newKernel(poly2, voted, 4)},
	{name: "OneVsRest", new: newOneVsRest(nil)},
	{name: "OneVsRest-Perceptron", new: newOneVsRest(newPerceptron)},
	{name: "OneVsRest-Pocket", new: newOneVsRest(newPocket(false))},
	{name: "OneVsRest-Pocket-ratchet", new: newOneVsRest(newPocket(true))},
	{name: "OneVsRest-Averaged", new: newOneVsRest(newAveraged)},
	{name: "OneVsRest-Voted", new: newOneVsRest(newVoted)},
	{name: "OneVsRest-Kernel-linear-last", new: newOneVsRest(newKernel(nil, last, 0))},
	{name: "OneVsRest-Kernel-rbf-averaged", new: newOneVsRest(newKernel(perceptron.RBF{}, averaged, 0))},
	{name: "OneVsRest-Kernel-poly2-voted-budget4", new: newOneVsRest(newKernel(poly2, voted, 4))},
}

// kindNamed returns the kind of the name.
func kindNamed(name string) kind {
	for _, k := range kinds {
		if k.name == name {
			return k
		}
	}
	panic("golden: no kind " + name)
}

func kindsNamed(names ...string) []kind {
	ks := make([]kind, len(names))
	for i, n := range names {
		ks[i] = kindNamed(n)
	}
	return ks
}

// extraClass returns the classes and one more, above them, in reverse
// order.
func extraClass(c []float64) []float64 {
	l := append(slices.Clone(c), c[len(c)-1]+1.5)
	slices.Reverse(l)
	return l
}

// reversed returns the classes in reverse order, with a repeat.
func reversed(c []float64) []float64 {
	l := slices.Clone(c)
	slices.Reverse(l)
	return append(l, c[0])
}

// settings are the settings of the settings section, each case of which
// runs every classifier under one of them.
var settings = []cfg{
	{name: "default"},
	{name: "epochs1", epochs: 1},
	{name: "epochs3", epochs: 3},
	{name: "epochs7", epochs: 7},
	{name: "rate0.5", rate: 0.5, epochs: 40},
	{name: "rate0.1", rate: 0.1, epochs: 40},
	{name: "rate3", rate: 3, epochs: 40},
	{name: "rate1e-3", rate: 1e-3, epochs: 40},
	{name: "nobias", noBias: true, epochs: 40},
	{name: "init", init: true, epochs: 40},
	{name: "init-nobias-rate0.3", init: true, noBias: true, rate: 0.3, epochs: 40},
	{name: "rand1", seed: 1, epochs: 40},
	{name: "rand2-rate0.7", seed: 2, rate: 0.7, epochs: 15},
	{name: "labels-extra", labels: extraClass, epochs: 15},
	{name: "labels-reversed", labels: reversed, epochs: 15},
	{name: "stop", stop: &perceptron.Stop{}},
	{name: "stop-tol0.1-nochange2", stop: &perceptron.Stop{Tol: 0.1, NoChange: 2}},
	{name: "stop-nochange1-rate0.25", rate: 0.25, stop: &perceptron.Stop{NoChange: 1}},
	{name: "stop-val0.2", stop: &perceptron.Stop{Validation: 0.2}},
	{name: "stop-val0.3-rand3", seed: 3, stop: &perceptron.Stop{Validation: 0.3, NoChange: 3, Tol: 1e-9}},
	{name: "onupdate-epochs3", record: true, epochs: 3},
	{name: "onupdate-rand4-init", record: true, seed: 4, init: true, epochs: 3},
	{name: "onupdate-stop-val0.25", record: true, epochs: 4, stop: &perceptron.Stop{Validation: 0.25, NoChange: 1}},
	{name: "all", epochs: 9, rate: 0.37, noBias: true, init: true, seed: 5, labels: extraClass, record: true,
		stop: &perceptron.Stop{Tol: 0.05, NoChange: 2, Validation: 0.2}},
}

// nan returns n NaNs, a dst that a method must overwrite.
func nan(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}
