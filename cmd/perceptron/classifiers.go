// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/seed5ae3614e/perceptron"
)

// model is what the command needs of a classifier: it fits, predicts and
// scores many rows at once, dense or sparse, describes its training run,
// and saves and loads as JSON.
type model interface {
	perceptron.Scorer
	json.Marshaler
	json.Unmarshaler
	Stats() perceptron.Stats
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
			InitWeights: o.initWeights, Labels: o.labels, OnUpdate: o.onUpdate()}
	}},
	{"pocket", func(o *options) model {
		return &perceptron.Pocket{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, OnUpdate: o.onUpdate(), Ratchet: o.ratchet}
	}},
	{"averaged", func(o *options) model {
		return &perceptron.Averaged{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, OnUpdate: o.onUpdate()}
	}},
	{"voted", func(o *options) model {
		return &perceptron.Voted{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, OnUpdate: o.onUpdate()}
	}},
	{"kernel", func(o *options) model {
		return &perceptron.Kernel{Func: o.kernelFunc(), Prediction: o.prediction, Budget: o.budget,
			Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias, Labels: o.labels, OnUpdate: o.onUpdate()}
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

// defaultEpochs is the most epochs of a classifier whose Epochs is zero,
// as the library documents it.
const defaultEpochs = 1000

// options are the classifiers' settings as the flags give them.
type options struct {
	epochs      int
	rate        float64
	shuffle     bool
	seed        uint64
	noBias      bool
	initWeights []float64
	ratchet     bool
	kernel      string
	degree      int
	gamma       float64
	coef0       float64
	budget      int
	prediction  perceptron.Prediction

	// labels are the class values of the training rows.
	labels []float64

	// progress, if not nil, is told of every update.
	progress *progress
}

// addFlags defines the settings flags on fs.
func (o *options) addFlags(fs *flag.FlagSet) {
	fs.IntVar(&o.epochs, "epochs", 0, "most passes over the training data; 0 means "+strconv.Itoa(defaultEpochs))
	fs.Float64Var(&o.rate, "rate", 0, "learning rate; 0 means 1")
	fs.BoolVar(&o.shuffle, "shuffle", false, "visit the training rows in a fresh random order each epoch, seeded by -seed")
	fs.BoolVar(&o.noBias, "no-bias", false, "train without a bias: a hyperplane through the origin")
	fs.Func("init-weights", "all but kernel: the `WEIGHTS`, comma-separated, that training starts from (of the standardised features): one per feature for two classes; for K classes K per feature, feature by feature, the classes in order", func(s string) error {
		w, err := parseFloats(s)
		o.initWeights = w
		return err
	})
	fs.BoolVar(&o.ratchet, "ratchet", false, "pocket: keep the pocket by Gallant's ratchet, which counts only weights with a record run, not the best weights of the run (faster)")
	fs.Func("kernel", "kernel: the kernel `K`: linear (the default; the demo's is rbf), poly, (gamma·x·z + coef0)^degree, or rbf, exp(-gamma·|x-z|²)", func(s string) error {
		switch s {
		case "linear", "poly", "rbf":
			o.kernel = s
			return nil
		}
		return fmt.Errorf("%q is not linear, poly or rbf", s)
	})
	fs.IntVar(&o.degree, "degree", 0, "kernel: the degree of -kernel poly; 0 means 3")
	fs.Float64Var(&o.gamma, "gamma", 0, "kernel: gamma of -kernel poly or rbf; 0 means 1/(the number of features)")
	fs.Float64Var(&o.coef0, "coef0", 0, "kernel: coef0 of -kernel poly")
	fs.IntVar(&o.budget, "budget", 0, "kernel: the most mistakes, and so support vectors, the hypothesis keeps; 0 means no limit")
	fs.Func("prediction", "kernel: the prediction `RULE`: last (the default; the demo's is averaged), voted or averaged", func(s string) error {
		p, ok := predictions[s]
		if !ok {
			return fmt.Errorf("%q is not last, voted or averaged", s)
		}
		o.prediction = p
		return nil
	})
}

// predictions are the kernel's prediction rules by the names that
// -prediction takes, which are those of the library's JSON.
var predictions = map[string]perceptron.Prediction{
	"last":     perceptron.PredictLast,
	"voted":    perceptron.PredictVoted,
	"averaged": perceptron.PredictAveraged,
}

// only names the classifiers that take a settings flag, for the flags
// that not every classifier takes.
var only = map[string][]string{
	"init-weights": {"perceptron", "pocket", "averaged", "voted"},
	"ratchet":      {"pocket"},
	"kernel":       {"kernel"},
	"degree":       {"kernel"},
	"gamma":        {"kernel"},
	"coef0":        {"kernel"},
	"budget":       {"kernel"},
	"prediction":   {"kernel"},
}

// check returns an error if fs set a flag that none of the classifiers
// called names takes, or that gives a kernel a parameter it does not have,
// which would otherwise be ignored.
func (o *options) check(fs *flag.FlagSet, names []string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		if takers, ok := only[f.Name]; ok && !slices.ContainsFunc(names, func(n string) bool { return slices.Contains(takers, n) }) {
			err = usagef("-%s: only -classifier %s takes this flag", f.Name, joinWords(takers, "or"))
			return
		}
		switch {
		case f.Name == "degree" && o.kernel != "poly":
			err = usagef("-degree: only -kernel poly has a degree")
		case f.Name == "coef0" && o.kernel != "poly":
			err = usagef("-coef0: only -kernel poly has coef0")
		case f.Name == "gamma" && o.kernel != "poly" && o.kernel != "rbf":
			err = usagef("-gamma: only -kernel poly and rbf have gamma")
		}
	})
	return err
}

// article returns the indefinite article of word: "an" before a vowel.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}

// joinWords returns the words joined as in "a, b or c", with conj for
// "or".
func joinWords(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// kernelFunc returns the kernel of the flags: nil, the library's linear
// kernel, for linear or none.
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
