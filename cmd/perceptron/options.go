// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
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

	// trainAcc says to measure the training accuracy after a fit, a pass
	// of prediction over the training rows.
	trainAcc bool

	// The weights of the classes: by -class-weight balanced, or by
	// -wNAME W, the weight W of the label NAME; classWeight is what they
	// give the classes of the training rows, as ClassWeight.
	balanced    bool
	weights     map[string]float64
	classWeight map[float64]float64

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
	fs.Func("class-weight", "`balanced`: weigh each class by rows/(classes × its rows) of the training rows, as scikit-learn's class_weight=\"balanced\", so that a mistake on a row of a rare class moves the model more; "+
		"or, as LIBLINEAR's -wi, -wNAME W weighs the class of the label NAME by W, and the classes it does not name by 1 (-w1 2 -w-1 0.5). With ovr: the classifier of each class weighs it against the rest, which weighs 1", func(s string) error {
		if s != "balanced" {
			return fmt.Errorf("%s is not balanced", quote(s))
		}
		o.balanced = true
		return nil
	})
}

// weightFlags defines on fs the flag -wNAME of each argument -wNAME,
// -wNAME=W or --wNAME of args before a "--", which weighs the class of
// the label NAME as LIBLINEAR's -wi does: the flag package knows only the
// flags defined before it parses, and NAME is the user's. A token that is
// the value of another flag defines a flag that is never set.
func (o *options) weightFlags(fs *flag.FlagSet, args []string) {
	for _, a := range args {
		if a == "--" {
			return
		}
		name, ok := strings.CutPrefix(a, "-")
		name, _, _ = strings.Cut(strings.TrimPrefix(name, "-"), "=")
		label, w := strings.CutPrefix(name, "w")
		if ok && w && fs.Lookup(name) == nil {
			fs.Var(&weightFlag{o, label}, name, "")
		}
	}
}

// weightFlag is the value of the flag -wNAME: the weight of the class of
// the label NAME.
type weightFlag struct {
	o     *options
	label string
}

func (f *weightFlag) String() string {
	if f == nil || f.o == nil {
		return ""
	}
	if w, ok := f.o.weights[f.label]; ok {
		return strconv.FormatFloat(w, 'g', -1, 64)
	}
	return ""
}

func (f *weightFlag) Set(v string) error {
	if f.label == "" {
		return errors.New("want -wNAME W, the weight W of the class of the label NAME")
	}
	w, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(w > 0) || math.IsInf(w, 1) {
		return fmt.Errorf("%s is not a finite number > 0", quote(v))
	}
	if f.o.weights == nil {
		f.o.weights = map[string]float64{}
	}
	f.o.weights[f.label] = w
	return nil
}

// resolveWeights returns the class weights of the flags for the classes
// of training rows, count[k] of class k, as ClassWeight: the balanced
// weights of the rows, or the weight of each class whose label, or
// -classes name, a -wNAME flag names, or whose label is the number NAME
// is, as LIBLINEAR's -w1 weighs the label +1. It returns an error if a
// -wNAME names no class.
func (o *options) resolveWeights(classes *classSet, count []int) (map[float64]float64, error) {
	switch {
	case o.balanced:
		return balanced(count), nil
	case len(o.weights) == 0:
		return nil, nil
	}
	cw := map[float64]float64{}
	for _, label := range slices.Sorted(maps.Keys(o.weights)) {
		k := slices.Index(classes.labels, label)
		if k < 0 {
			k = slices.Index(classes.names, label)
		}
		if v, err := strconv.ParseFloat(label, 64); k < 0 && err == nil {
			k = slices.IndexFunc(classes.labels, func(l string) bool {
				u, err := strconv.ParseFloat(l, 64)
				return err == nil && u == v
			})
		}
		if k < 0 {
			return nil, fmt.Errorf("-w%s: no class has the label %s (%s)", label, quote(label), classes.describe())
		}
		cw[float64(k)] = o.weights[label]
	}
	return cw, nil
}

// describeWeights returns the class weights of the flags for the classes
// of training rows, count[k] of class k, described for a summary: a line
// that ends in a newline, or "" if the flags give none; with folds, the
// balanced weights are those of the training rows of each fold, of which
// count counts all. It returns an error if a -wNAME names no class.
func (o *options) describeWeights(classes *classSet, count []int, folds bool) (string, error) {
	if o.balanced && folds {
		return "class weights (balanced): those of the training rows of each fold\n", nil
	}
	cw, err := o.resolveWeights(classes, count)
	if cw == nil || err != nil {
		return "", err
	}
	how, rest := "-wNAME", ""
	if o.balanced {
		how = "balanced"
	}
	if len(cw) < len(classes.names) {
		rest = "; the others 1"
	}
	var q []string
	width := 0
	for k, name := range classes.names {
		w, ok := cw[float64(k)]
		if !ok {
			continue
		}
		s := fmt.Sprintf("%s %.4g", quote(name), w)
		if width+len(s)+2 > 90 {
			q = append(q, "…")
			break
		}
		q = append(q, s)
		width += len(s) + 2
	}
	return fmt.Sprintf("class weights (%s): %s%s\n", how, strings.Join(q, ", "), rest), nil
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
	case o.balanced && len(o.weights) > 0:
		return usagef("-class-weight balanced and -w%s both weigh the classes: give one", slices.Min(slices.Collect(maps.Keys(o.weights))))
	}
	return nil
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

// balanced returns the weights of the classes, count[k] rows of class k,
// that balance them, as perceptron.Balanced computes them of the labels of
// the rows, to the bit: n/(K·n_k) for the n_k of the n rows, K being the
// number of classes that have rows.
func balanced(count []int) map[float64]float64 {
	n, K := 0, 0
	for _, c := range count {
		if c > 0 {
			n, K = n+c, K+1
		}
	}
	w := map[float64]float64{}
	for k, c := range count {
		if c > 0 {
			w[float64(k)] = float64(n) / (float64(K) * float64(c))
		}
	}
	return w
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
