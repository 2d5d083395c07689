// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math/rand/v2"
	"reflect"
	"strings"

	"github.com/seed5ae3614e/perceptron"
)

// classifiers are the classifiers that the command trains, in the order of
// its tables. Each builds its classifier from the settings flags.
var classifiers = []struct {
	name string
	make func(o *options) perceptron.Scorer
}{
	{"perceptron", func(o *options) perceptron.Scorer {
		return &perceptron.Perceptron{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, OnUpdate: o.onUpdate(), Stop: o.stopRule()}
	}},
	{"pocket", func(o *options) perceptron.Scorer {
		return &perceptron.Pocket{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, OnUpdate: o.onUpdate(), Ratchet: o.ratchet, Stop: o.stopRule()}
	}},
	{"averaged", func(o *options) perceptron.Scorer {
		return &perceptron.Averaged{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, OnUpdate: o.onUpdate(), Stop: o.stopRule()}
	}},
	{"voted", func(o *options) perceptron.Scorer {
		return &perceptron.Voted{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, OnUpdate: o.onUpdate(), Stop: o.stopRule()}
	}},
	{"kernel", func(o *options) perceptron.Scorer {
		return &perceptron.Kernel{Func: o.kernelFunc(), Prediction: o.prediction, Budget: o.budget,
			Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias, Labels: o.labels, OnUpdate: o.onUpdate(), Stop: o.stopRule()}
	}},
}

// defaultClassifier is the classifier that train fits without
// -classifier: the averaged perceptron, the most accurate of those whose
// cost grows with the rows alone, as the peers' defaults are accurate.
const defaultClassifier = "averaged"

// classifierNames returns the names of the classifiers, for messages.
func classifierNames() string {
	var names []string
	for _, c := range classifiers {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

// newModel returns the classifier called name built with o, or false if no
// classifier has that name.
func newModel(name string, o *options) (perceptron.Scorer, bool) {
	for _, c := range classifiers {
		if c.name == name {
			return c.make(o), true
		}
	}
	return nil, false
}

// defaultEpochs is the most epochs of a classifier whose Epochs is zero,
// as the library documents it.
const defaultEpochs = 1000

// stopRule returns the stopping rule of the flags, or nil for none.
func (o *options) stopRule() *perceptron.Stop {
	if o.noStop {
		return nil
	}
	return &perceptron.Stop{Tol: o.tol, NoChange: o.noChange, Validation: o.validation}
}

// predictions are the kernel's prediction rules by the names that
// -prediction takes, which are those of the library's JSON.
var predictions = map[string]perceptron.Prediction{
	"last":     perceptron.PredictLast,
	"voted":    perceptron.PredictVoted,
	"averaged": perceptron.PredictAveraged,
}

// kernelFunc returns the kernel of the flags: nil, the library's linear
// kernel, for linear.
func (o *options) kernelFunc() perceptron.KernelFunc {
	switch o.kernel {
	case "poly":
		return perceptron.Poly{Degree: o.degree, Gamma: o.gamma, Coef0: o.coef0}
	case "rbf":
		return perceptron.RBF{Gamma: o.gamma}
	}
	return nil
}

// rand returns the shuffle source of one classifier, or nil if the rows
// are visited in order. Each classifier gets a source of its own, so that
// its result does not depend on which others run before it.
func (o *options) rand() *rand.Rand {
	if !o.shuffle {
		return nil
	}
	return rand.New(rand.NewPCG(o.seed, 1))
}

// onUpdate returns the OnUpdate callback of the classifiers.
func (o *options) onUpdate() func(perceptron.Update) {
	if o.progress == nil {
		return nil
	}
	return func(u perceptron.Update) { o.progress.update(u.Epoch, u.Row) }
}

// modelEpochs returns the epoch limit of the fitted m.
func modelEpochs(m perceptron.Scorer) int {
	e := 0
	switch m := m.(type) {
	case *perceptron.Perceptron:
		e = m.Epochs
	case *perceptron.Pocket:
		e = m.Epochs
	case *perceptron.Averaged:
		e = m.Epochs
	case *perceptron.Voted:
		e = m.Epochs
	case *perceptron.Kernel:
		e = m.Epochs
	}
	if e == 0 {
		e = defaultEpochs
	}
	return e
}

// statsOf returns the Stats of the training run of m, or none if it does
// not tell them.
func statsOf(m perceptron.Scorer) perceptron.Stats {
	if s, ok := m.(interface{ Stats() perceptron.Stats }); ok {
		return s.Stats()
	}
	return perceptron.Stats{}
}

// typeName returns the name of the classifier m as -classifier names it:
// its type's, in lower case.
func typeName(m perceptron.Scorer) string {
	return strings.ToLower(reflect.TypeOf(m).Elem().Name())
}
