// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("perceptron "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// dataFlags defines the flags that say how to read a data file; training
// says whether the command reads classes, with -classes, -pos and -neg.
func (j *job) dataFlags(fs *flag.FlagSet, training bool) {
	j.quietFlag(fs)
	fs.StringVar(&j.format, "format", "", "data format: csv, libsvm, idx or text; empty means to tell by the file name, or else by its first line")
	fs.BoolVar(&j.header, "header", false, "CSV: the first line is a header, skipped; its fields name the columns for -label")
	fs.StringVar(&j.delimiter, "delimiter", ",", "CSV: the field delimiter, one character; \\t for a tab")
	fs.StringVar(&j.label, "label", "", "CSV: the label `COLUMN`: last, first, a number from 1, a name from the header, or none (default: "+
		defaultLabel+" in training; with a saved model, the column that train used)")
	if training {
		fs.StringVar(&j.classesFile, "classes", "", "LIBSVM, IDX and text: name the classes of numbered labels by the lines of `FILE`: a number, a name and optionally a count, as the Debian sections' classes.txt, or one name on each line, the first that of label 0")
		fs.StringVar(&j.pos, "pos", "", "with -neg, make a binary problem: the label of class +1 (or its -classes name); the rows of labels neither -pos nor -neg are left out")
		fs.StringVar(&j.neg, "neg", "", "with -pos, the label of class -1 (or its -classes name)")
		fs.BoolVar(&j.manyClasses, "many-classes", false, "take the labels as classes even if they look like the values of a feature: more than 10 labels, most rows of a label of their own, or numbers that are not all whole")
	}
}

// quietFlag defines -q.
func (j *job) quietFlag(fs *flag.FlagSet) {
	fs.BoolVar(&j.quiet, "q", false, "quiet: write nothing to stderr but errors, no progress, warnings, notes or predict's accuracy, as LIBLINEAR's -q")
}

// trainFlags defines the flags of training, with the -wNAME flags of
// args.
func (j *job) trainFlags(fs *flag.FlagSet, stderr io.Writer, args []string) {
	j.opts.addFlags(fs)
	j.opts.weightFlags(fs, args)
	fs.Var(&j.standardize, "standardize", "standardise the features on the training rows: dense rows to mean 0 and deviation 1, sparse rows to deviation 1 without centring them, which would fill them "+
		"(default: true for dense rows, CSV and IDX; false for sparse rows, LIBSVM)")
	fs.Var(&j.idf, "idf", "weigh each feature by its inverse document frequency on the training rows, ln((1+rows)/(1+rows where it is not 0)) + 1, as scikit-learn's TfidfTransformer does; not with -standardize "+
		"(default: true for sparse rows, LIBSVM, unless -standardize; false for dense rows, CSV and IDX)")
	fs.Var(&j.normalize, "normalize", "scale each row to unit length, after -standardize or -idf, as scikit-learn's TfidfTransformer and Normalizer do "+
		"(default: true for sparse rows, LIBSVM; false for dense rows, CSV and IDX)")
	fs.StringVar(&j.plot, "plot", "", "draw the mistakes per epoch, and with two features the training rows and boundaries, to `FILE` ending in "+plotFormats)
	fs.BoolVar(&j.progress, "progress", isTerminal(stderr), "show progress on stderr, with the stopping rule and the epoch limit (default: when stderr is a terminal)")
}

// Defaults of the flags of text: words and pairs of words, which the
// Debian descriptions classify better than words alone and as well as
// triples, into 2^19 columns, which classify them within 0.05 point of
// 2^20 in half the memory of the weights, where 2^18 loses 0.13
// (bench/README.md); maxBits is the most bits of data.Hashing: 2^30
// columns are an int on every platform.
const (
	defaultNGrams = 2
	defaultBits   = 19
	maxBits       = 30
)

// textFlags defines the flags of the Hashing of text in training.
func (j *job) textFlags(fs *flag.FlagSet) {
	fs.IntVar(&j.ngrams, "ngrams", defaultNGrams, "text: hash the word n-grams of up to `N` words into features: 1 for the words alone, 2 for the words and the pairs of adjacent words, as fastText's -wordNgrams and Vowpal Wabbit's --ngram say")
	fs.IntVar(&j.bits, "bits", defaultBits, "text: hash the n-grams into 2^`B` features, B from 1 to 30, as Vowpal Wabbit's -b says; fastText's -bucket is their number")
}

// checkText returns a usage error if a flag of text is out of its range,
// and notes those that were set on fs, which a file of another format
// refuses.
func (j *job) checkText(fs *flag.FlagSet) error {
	switch {
	case j.ngrams < 1:
		return usagef("-ngrams %d: want 1 or more", j.ngrams)
	case j.bits < 1 || j.bits > maxBits:
		return usagef("-bits %d: want 1 to %d", j.bits, maxBits)
	}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "ngrams" || f.Name == "bits" {
			j.textSet = append(j.textSet, f.Name)
		}
	})
	return nil
}

// parseArgs parses args, in which flags and other arguments may mix until
// a "--", and returns the other arguments. On -h it writes the help of the
// command to stdout and returns flag.ErrHelp.
func parseArgs(fs *flag.FlagSet, help string, args []string, stdout io.Writer) ([]string, error) {
	var rest []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, help)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return nil, err
		}
		if err != nil {
			hint := ""
			if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
				var names []string
				fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
				if near := nearest(strings.TrimPrefix(name, "-"), names); near != "" {
					hint = fmt.Sprintf("; did you mean -%s?", near)
				}
			}
			return nil, usagef("%s: %s%s (see %s -h)", strings.TrimPrefix(fs.Name(), "perceptron "), shortText(err.Error()), hint, fs.Name())
		}
		if used := len(args) - fs.NArg(); fs.NArg() == 0 || (used > 0 && args[used-1] == "--") {
			return append(rest, fs.Args()...), nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// shortText returns s, a message that may hold a user's token, cut to a
// short prefix, with its bytes that are not printable as \x escapes.
func shortText(s string) string {
	const most = 200
	q := strconv.QuoteToASCII(s)
	q = q[1 : len(q)-1]
	if len(q) > most {
		return q[:most] + "…"
	}
	return q
}

// evalFlags checks the flags, set on fs, that eval and demo share, and
// returns the names of the classifiers and the format of the plot.
func (j *job) evalFlags(fs *flag.FlagSet) (names []string, pf string, err error) {
	if names, err = j.classifiers(); err != nil {
		return nil, "", err
	}
	if err := j.opts.check(fs, names); err != nil {
		return nil, "", err
	}
	if err := j.opts.checkValues(fs); err != nil {
		return nil, "", err
	}
	if err := j.checkSteps(); err != nil {
		return nil, "", err
	}
	if !(j.split > 0 && j.split < 1) {
		return nil, "", usagef("-split %v: want a fraction between 0 and 1", j.split)
	}
	if pf, err = j.plotFormat(); err != nil {
		return nil, "", err
	}
	return names, pf, nil
}

// onlyFlags returns a usage error if fs set a flag other than those of
// names, the first of which is the one that the others go with; what says
// what the command does with it.
func onlyFlags(fs *flag.FlagSet, names []string, what string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil && !slices.Contains(names, f.Name) {
			var with []string
			for _, name := range names[1:] {
				with = append(with, "-"+name)
			}
			err = usagef("-%s: %s, and takes only %s", f.Name, what, joinWords(with, "and"))
		}
	})
	return err
}

// streamFlag defines -stream.
func (j *job) streamFlag(fs *flag.FlagSet, what string) {
	fs.Var(&j.stream, "stream", "read "+what+" a block of rows at a time, and again for each epoch of training, in memory independent of their number; -stream=false reads them whole "+
		"(default: a file whose rows would take more than half the memory left, as its size tells, or that its reader finds do not fit there, a block at a time)")
}

// The weights of the training rows, -weights FILE: a number a line for
// each row of the data file, in its order, as the weighted builds of
// LIBSVM and LIBLINEAR read a file of instance weights (-W). A file
// beside the data, not a column of it as in Vowpal Wabbit's format: every
// format takes weights alike, without a column that its readers would
// have to tell from a feature, and the data file stays one that every
// other tool reads, weighed or not.

// weightsFlag defines -weights. It comes before the -wNAME flags of the
// class weights, which would take it for the weight of the class "eights".
func (j *job) weightsFlag(fs *flag.FlagSet) {
	fs.StringVar(&j.weights, "weights", "", "weigh the training rows by the numbers of `FILE`, one a line for each row of the data file, in its order, as LIBSVM's weighted train -W reads them: a mistake on a row steps by its weight (times its class's), as scikit-learn's sample_weight does; a row of weight 0 makes none")
}

// calibrateFlag defines -calibrate, the folds whose scores calibrate the
// probabilities of the classes.
func (j *job) calibrateFlag(fs *flag.FlagSet) {
	fs.IntVar(&j.calibrate, "calibrate", 0, "fit the probabilities of the classes, which predict -k and eval give, to the scores of the rows of each of `K` stratified folds "+
		"of the training rows, drawn from -seed, by a classifier trained as the model is on the other folds, and train the model on all the rows, "+
		"as scikit-learn's CalibratedClassifierCV(ensemble=False) does; 0 means none. Every class needs K rows")
}

// topFlags defines -k and -threshold, the most probable classes.
func (j *job) topFlags(fs *flag.FlagSet, what string) {
	fs.IntVar(&j.top, "k", 0, what+" the `N` most probable classes of each row, as fastText's k, by the probabilities of a model that train -calibrate fitted (default 1 with -threshold)")
	fs.Float64Var(&j.threshold, "threshold", 0, "with -k, only the classes at least `P` probable, as fastText's threshold")
}

// checkTop returns a usage error if -calibrate, -k or -threshold, set on
// fs, is out of its range, and sets -k to 1 unless it is set. It reports
// whether -k or -threshold asks for the most probable classes.
func (j *job) checkTop(fs *flag.FlagSet) (bool, error) {
	k, threshold := isSet(fs, "k"), isSet(fs, "threshold")
	switch {
	case j.calibrate == 1 || j.calibrate < 0:
		return false, usagef("-calibrate %d: want 2 folds or more, or 0 for none", j.calibrate)
	case k && j.top < 1:
		return false, usagef("-k %d: want 1 or more", j.top)
	case !(j.threshold >= 0 && j.threshold <= 1):
		return false, usagef("-threshold %v: want a probability, from 0 to 1", j.threshold)
	}
	if !k {
		j.top = 1
	}
	return k || threshold, nil
}

// isSet reports whether the flag name was set on fs.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// checkFolds returns a usage error if -folds, set on fs, is not a number
// of folds, or goes with flags and files that it leaves unused.
func (j *job) checkFolds(fs *flag.FlagSet, files int) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		switch {
		case err != nil || j.folds == 0:
		case f.Name == "split" || f.Name == "plot":
			err = usagef("-%s: -folds tests on folds of TRAIN, not on a split, and draws no plot", f.Name)
		case f.Name == "train-acc" && j.opts.trainAcc:
			err = usagef("-train-acc: -folds measures the test accuracy of each fold alone")
		}
	})
	switch {
	case err != nil:
		return err
	case j.folds == 1 || j.folds < 0:
		return usagef("-folds %d: want 2 or more, or 0 for none", j.folds)
	case j.folds > 0 && files == 2:
		return usagef("-folds: cross-validation tests on folds of TRAIN alone, and TEST is given")
	}
	return nil
}
