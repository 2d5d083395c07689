// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/seed5ae3614e/perceptron"
)

// model is what the command needs of a classifier: it fits, predicts, and
// saves and loads as JSON.
type model interface {
	perceptron.Classifier
	json.Marshaler
	json.Unmarshaler
}

// classifiers are the classifiers that the command trains, in the order of
// its tables. Each builds its classifier from the settings flags; the zero
// options give the zero value, ready to load a saved model into.
var classifiers = []struct {
	name string
	make func(o *options) model
}{
	{"perceptron", func(o *options) model {
		return &perceptron.Perceptron{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, InitBias: o.initBias, OnUpdate: o.onLinearUpdate()}
	}},
}

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
func newModel(name string, o *options) (model, bool) {
	for _, c := range classifiers {
		if c.name == name {
			return c.make(o), true
		}
	}
	return nil, false
}

// options are the classifiers' settings as the flags give them.
type options struct {
	epochs      int
	rate        float64
	shuffle     bool
	seed        uint64
	noBias      bool
	initWeights []float64
	initBias    float64

	// progress, if not nil, is told of every update.
	progress *progress
}

// addFlags defines the settings flags on fs.
func (o *options) addFlags(fs *flag.FlagSet) {
	fs.IntVar(&o.epochs, "epochs", 0, "most passes over the training data; 0 means 1000")
	fs.Float64Var(&o.rate, "rate", 0, "learning rate; 0 means 1")
	fs.BoolVar(&o.shuffle, "shuffle", false, "visit the training rows in a fresh random order each epoch, seeded by -seed")
	fs.BoolVar(&o.noBias, "no-bias", false, "train a hyperplane through the origin")
	fs.Func("init-weights", "the `WEIGHTS`, comma-separated, that training starts from (of the standardised features)", func(s string) error {
		w, err := parseFloats(s)
		o.initWeights = w
		return err
	})
	fs.Float64Var(&o.initBias, "init-bias", 0, "bias that training starts from")
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

// onLinearUpdate returns the OnUpdate callback of the linear classifiers.
func (o *options) onLinearUpdate() func(epoch, i int, w []float64, b float64) {
	if o.progress == nil {
		return nil
	}
	return func(epoch, _ int, _ []float64, _ float64) { o.progress.update(epoch) }
}

func parseFloats(s string) ([]float64, error) {
	var w []float64
	for f := range strings.SplitSeq(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		w = append(w, v)
	}
	return w, nil
}

// statser is a classifier that describes its training run.
type statser interface {
	Stats() perceptron.Stats
}

// scorer is a classifier with a decision function.
type scorer interface {
	Score(x []float64) float64
}
