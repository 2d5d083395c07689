// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/seed5ae3614e/perceptron"
)

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

	// The stopping rule: none if noStop, and otherwise perceptron.Stop of
	// tol, noChange and validation.
	noStop     bool
	tol        float64
	noChange   int
	validation float64

	// labels are the class values of the training rows.
	labels []float64

	// progress, if not nil, is told of every update.
	progress *progress
}

// Defaults of the settings flags: scikit-learn's Perceptron stops so,
// and the kernel is the demo's, which shows what a kernel adds; the linear
// kernel would repeat the perceptron in dual form.
const (
	defaultTol        = 1e-3
	defaultNoChange   = 5
	defaultKernel     = "rbf"
	defaultPrediction = "averaged"
)

// newOptions returns the options of the default flags.
func newOptions() options {
	return options{kernel: defaultKernel, prediction: predictions[defaultPrediction], tol: defaultTol, noChange: defaultNoChange, shuffle: true}
}

// addFlags defines the settings flags on fs.
func (o *options) addFlags(fs *flag.FlagSet) {
	fs.IntVar(&o.epochs, "epochs", 0, "the most passes over the training rows; 0 means "+strconv.Itoa(defaultEpochs))
	fs.Float64Var(&o.rate, "rate", 0, "learning rate; 0 means 1")
	fs.BoolVar(&o.shuffle, "shuffle", true, "visit the training rows in a fresh random order each epoch, drawn from -seed, as scikit-learn and LIBLINEAR do; -shuffle=false visits them in the order of the file")
	fs.Uint64Var(&o.seed, "seed", 1, "the seed of the order of -shuffle, whose source also draws the rows that -validation holds out and the removals of -budget (with -shuffle=false the library draws those from a fixed seed); eval's -split-seed seeds its split")
	fs.BoolVar(&o.noBias, "no-bias", false, "train without a bias: a hyperplane through the origin")
	fs.BoolVar(&o.noStop, "no-stop", false, "stop only at an epoch without a mistake or at -epochs, not early by -tol and -no-change")
	fs.Float64Var(&o.tol, "tol", defaultTol, "stop early once -no-change epochs in a row have not improved on the best epoch before them by `TOL`: "+
		"the training loss (the perceptron criterion summed over an epoch's visits) by TOL times the rows, or the -validation accuracy by TOL, as scikit-learn's Perceptron stops")
	fs.IntVar(&o.noChange, "no-change", defaultNoChange, "the epochs without improvement by -tol that stop training")
	fs.Float64Var(&o.validation, "validation", 0, "hold out this `FRACTION` of the training rows of each class, and stop by their accuracy, not the training loss; 0 means none")
	fs.Func("init-weights", "all but kernel: the `WEIGHTS`, comma-separated, that training starts from, of the features as the steps before the classifier make them: one for each feature for two classes; for K classes, K for each feature, feature by feature, the classes in order", func(s string) error {
		w, err := parseFloats(s)
		o.initWeights = w
		return err
	})
	fs.BoolVar(&o.ratchet, "ratchet", false, "pocket: keep the pocket by Gallant's ratchet, which counts only weights with a record run, not the best weights of the run (faster)")
	fs.Func("kernel", "kernel: the kernel `K`: rbf, exp(-gamma·|x-z|²) (the default), poly, (gamma·x·z + coef0)^degree, or linear, x·z", func(s string) error {
		switch s {
		case "linear", "poly", "rbf":
			o.kernel = s
			return nil
		}
		return fmt.Errorf("%s is not linear, poly or rbf", quote(s))
	})
	fs.IntVar(&o.degree, "degree", 0, "kernel: the degree of -kernel poly; 0 means 3")
	fs.Float64Var(&o.gamma, "gamma", 0, "kernel: gamma of -kernel poly or rbf; 0 means 1/(the number of features)")
	fs.Float64Var(&o.coef0, "coef0", 0, "kernel: coef0 of -kernel poly")
	fs.IntVar(&o.budget, "budget", 0, "kernel: the most mistakes, and so support vectors, the hypothesis keeps; 0 means no limit")
	fs.Func("prediction", "kernel: the prediction `RULE`: averaged (the default), voted or last", func(s string) error {
		p, ok := predictions[s]
		if !ok {
			return fmt.Errorf("%s is not last, voted or averaged", quote(s))
		}
		o.prediction = p
		return nil
	})
}

// checkValues returns a usage error if a settings flag has a value out of
// its range, or if the stopping flags, set on fs, contradict each other:
// the command checks them all before it reads any data.
func (o *options) checkValues(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil && o.noStop && (f.Name == "tol" || f.Name == "no-change" || f.Name == "validation") {
			err = usagef("-%s: -no-stop turns early stopping off, which -%s sets", f.Name, f.Name)
		}
	})
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case err != nil:
		return err
	case o.epochs < 0:
		return usagef("-epochs %d: want 0 or more", o.epochs)
	case !(o.rate >= 0) || !finite(o.rate):
		return usagef("-rate %v: want a finite number >= 0", o.rate)
	case !(o.tol > 0) || !finite(o.tol):
		return usagef("-tol %v: want a finite number > 0", o.tol)
	case o.noChange < 1:
		return usagef("-no-change %d: want 1 or more", o.noChange)
	case !(o.validation >= 0 && o.validation < 1):
		return usagef("-validation %v: want a fraction in [0, 1)", o.validation)
	case o.degree < 0:
		return usagef("-degree %d: want 0 or more", o.degree)
	case !(o.gamma >= 0) || !finite(o.gamma):
		return usagef("-gamma %v: want a finite number >= 0", o.gamma)
	case !finite(o.coef0):
		return usagef("-coef0 %v: want a finite number", o.coef0)
	case o.budget < 0:
		return usagef("-budget %d: want 0 or more", o.budget)
	}
	return nil
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
		if takers, ok := only[f.Name]; ok && !slices.ContainsFunc(names, func(n string) bool { return slices.Contains(takers, baseName(n)) }) {
			err = usagef("-%s: only -classifier %s takes this flag", f.Name, joinWords(takers, "or"))
			return
		}
		switch {
		case f.Name == "init-weights" && slices.ContainsFunc(names, func(n string) bool { return n != baseName(n) }):
			err = usagef("-init-weights: %s learns each class against the rest with weights of its own", ovr+"NAME")
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

// describeStop says how training stops, for the progress reports and the
// summaries.
func (o *options) describeStop(rows int) string {
	limit := o.epochs
	if limit == 0 {
		limit = defaultEpochs
	}
	s := fmt.Sprintf("at most %s", plural(limit, "epoch"))
	switch {
	case o.noStop:
		return s + ", or at an epoch without a mistake"
	case o.validation > 0:
		return s + fmt.Sprintf(", or after %s whose accuracy on a held-out %g of the rows has not risen by %g (-tol, -no-change, -validation)",
			plural(o.noChange, "epoch"), o.validation, o.tol)
	}
	return s + fmt.Sprintf(", or after %s whose training loss has not fallen by %g × %d rows (-tol, -no-change)",
		plural(o.noChange, "epoch"), o.tol, rows)
}

func parseFloats(s string) ([]float64, error) {
	var w []float64
	for f := range strings.SplitSeq(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s is not a finite number", quote(f))
		}
		w = append(w, v)
	}
	return w, nil
}
