// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/seed5ae3614e/perceptron/data"
)

const evalHelp = `Usage: perceptron eval [flags] TRAIN [TEST]
       perceptron eval -model MODEL [flags] TEST

Eval fits one classifier, or every one, on the rows of TRAIN and tests it on
those of TEST, or, without TEST, on a split of TRAIN that keeps the share of
each class, drawn from -split-seed. The steps before the classifier are
fitted to the training rows alone: the standardisation of dense rows, and
the weights of the features of sparse rows, which are then scaled to unit
length. A LIBSVM value of TEST beyond the features of TRAIN is ignored, and
counted on stderr, as liblinear-predict does; CSV and IDX files must have
the same width. If TRAIN is text, TEST is read as text, hashed as TRAIN is
(-ngrams, -bits). TEST is read after the first fit, once its format is
checked, so that the fit's memory holds none of its rows: an error in its
rows shows after that fit. Training stops early by the rule of -tol and
-no-change, as scikit-learn's Perceptron does, unless -no-stop. It prints
a table of each classifier's kernel, prediction rule, epochs run and how
training ended (converged: an epoch without a mistake; stopped: by the
rule; limit: at -epochs), its mistakes, its test accuracy and the time its
fit took. With -train-acc the table also gives the training accuracy, at
the cost of a pass of prediction over the training rows (scikit-learn's
cross_validate measures it only with return_train_score). Then it prints,
for each classifier, the classification report of the test rows, as
scikit-learn's classification_report, and their confusion matrix. The test
rows of a label that is no class of the training rows are counted wrong, in
rows of their own; with -pos and -neg they are left out. -class-weight
balanced, or -wNAME W for the class of the label NAME, weighs the classes
in training, and the recall of each class in the report shows what the
weights change; -weights FILE weighs the training rows, one number a line
of FILE for each row of TRAIN, and not those of TEST.

With -calibrate K, eval also fits the probabilities of the classes of each
classifier, as train -calibrate does, and prints, after the table, their
log-loss and Brier score on the test rows (the mean over the rows of the
negative logarithm of the probability of the row's class, at least 1e-15,
as scikit-learn's log_loss takes it, and of the squared differences of
the probabilities of all the classes from 1 for the row's class and 0 for
the others, Brier's score, twice scikit-learn's brier_score_loss for two
classes), and the precision and the recall of the -k most probable
classes of each row at least -threshold probable, as fastText's test
measures them: P@k, the fraction of those classes that are the row's, and
R@k, the fraction of the rows whose class is among them. -model prints
them for a model that train -calibrate fitted.

With -folds K, eval cross-validates: it splits TRAIN into K folds, each of
which keeps the share of each class, drawn from -split-seed, as
scikit-learn's StratifiedKFold draws them, fits each classifier on the rows
of all folds but one and tests it on that one, for each fold, and prints the
mean test accuracy over the folds, its standard deviation and its range, as
LIBLINEAR's -v and scikit-learn's cross_val_score measure it, and the test
accuracy of each fold.

-classifier all, the default, runs perceptron and averaged, and pocket,
voted and kernel, whose cost grows as the square of the rows, only where
rows² × the non-zeros of a row × classes is at most 1e11 (a few thousand
rows of a few hundred features); -classifier NAME runs any one. The kernel
is the demo's: the Gaussian kernel with the averaged prediction.

With -stream, or by itself where a file's rows would take more than half
the memory left, as the size of the file tells, or where its reader finds
that they do not fit, eval reads it a block of rows at a time, in memory
independent of its rows: TEST again for each classifier, to the same
results; TRAIN again for each epoch, as train does, where the pocket and
the kernel perceptron, -calibrate, -folds and a split of TRAIN, which
take rows in memory, are left out or refused. -stream=false reads the
files whole.

With -model, eval fits nothing: it tests a saved model, or the library's
form of a classifier, on the rows of TEST, read with the model's classes,
label column, width and standardisation, and prints the test accuracy
beside the model's training statistics, its classification report and its
confusion matrix, reading the rows a block of 1024 at a time, in memory
independent of their number. It warns first, on stderr, if the first 1024
rows look unlike the training rows: if their number of non-zero values, or
their length, differs on average from that of the training rows beyond
what chance gives, as for rows of another data set, or rows scaled
otherwise. The rows of labels that
are no class of the model count as wrong, unless -pos and -neg name the two
classes of a model that train fitted with them, which leaves those rows out
again. Only -format, -header, -delimiter, -label, -pos, -neg, -k,
-threshold, -progress and -q go with -model.

Examples:
  perceptron eval -header -pos 0 -neg 1 cmd/perceptron/data/breast_cancer.csv
  perceptron eval -header -classifier averaged -folds 10 cmd/perceptron/data/breast_cancer.csv
  perceptron eval -model cancer.json -header cmd/perceptron/data/breast_cancer.csv
  perceptron eval /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz \
    /usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz
  perceptron eval -classes debian-sections.classes.txt \
    debian-sections.train.svm.gz debian-sections.test.svm.gz
  perceptron eval -classifier averaged train.txt test.txt    (fastText's format)

Exit status: 0 on success, 2 on a usage error, 1 on any other.

Flags:
`

func evalCommand(args []string, stdout, stderr io.Writer) error {
	j := newJob()
	fs := newFlagSet("eval")
	fs.StringVar(&j.classifier, "classifier", "all", "the classifier: all, "+classifierNames())
	fs.Float64Var(&j.split, "split", 0.25, "without TEST, the fraction of the rows of each class of TRAIN to test on")
	fs.Uint64Var(&j.splitSeed, "split-seed", 1, "without TEST, the seed of the split of TRAIN, or of its folds (-seed seeds -shuffle)")
	fs.IntVar(&j.folds, "folds", 0, "cross-validate on `K` stratified folds of TRAIN, drawn from -split-seed, and print the mean and the spread of the test accuracy; 0 means none")
	fs.StringVar(&j.model, "model", "", "test the model `FILE` that train saved, or the library's form of a classifier, on TEST, fitting nothing")
	fs.BoolVar(&j.opts.trainAcc, "train-acc", false, "also measure each classifier's accuracy on its training rows, a pass of prediction over them, as scikit-learn's cross_validate does with return_train_score")
	j.dataFlags(fs, true)
	j.weightsFlag(fs)
	j.trainFlags(fs, stderr, args)
	j.calibrateFlag(fs)
	j.streamFlag(fs, "TRAIN and TEST")
	j.topFlags(fs, "measure P@N and R@N, the precision and the recall of")
	j.textFlags(fs)
	files, err := parseArgs(fs, evalHelp, args, stdout)
	if err != nil {
		return err
	}
	stderr = j.errOut(stderr)
	if j.model != "" {
		return j.evalModel(fs, files, stdout, stderr)
	}
	names, pf, err := j.evalFlags(fs)
	if err != nil {
		return err
	}
	if err := j.checkText(fs); err != nil {
		return err
	}
	top, err := j.checkTop(fs)
	switch {
	case err != nil:
		return err
	case top && j.calibrate == 0:
		return usagef("-k and -threshold rank the classes by the probabilities that -calibrate K fits: give it")
	case j.calibrate > 0 && j.folds > 0:
		return usagef("-calibrate: -folds cross-validates the accuracy alone")
	}
	if len(files) != 1 && len(files) != 2 {
		return usagef("eval: want a training file and an optional test file, got %d files (see perceptron eval -h)", len(files))
	}
	if err := j.checkFolds(fs, len(files)); err != nil {
		return err
	}
	if len(files) == 2 && files[0] == "-" && files[1] == "-" {
		return usagef("eval: - reads standard input, which holds one file, TRAIN or TEST")
	}
	spec, err := j.spec(true)
	if err != nil {
		return err
	}
	var ins []string
	for _, f := range files {
		ins = append(ins, inputFiles(f, spec)...)
	}
	if err := checkOutputs(j.outFiles(), ins); err != nil {
		return err
	}
	if err := j.readNames(&spec); err != nil {
		return err
	}
	train, err := inMemory(files[0], spec, j.stream, stderr)
	switch {
	case err != nil:
		return err
	case train == nil:
		test := ""
		if len(files) == 2 {
			test = files[1]
		}
		return j.evalStream(names, files[0], test, spec, !j.stream.set, stdout, stderr)
	}
	if j.folds > 0 {
		return j.crossValidate(names, train, spec.label, stdout, stderr)
	}
	var test rowBlocks
	var intro func() string
	if len(files) == 2 {
		tspec := spec
		tspec.known, tspec.weights = train.classes, ""
		_, tspec.width = train.X.Dims()
		// The test rows are read as the model reads them: as text if it was
		// trained on text, and otherwise not.
		if train.format == "text" {
			tspec.format = "text"
		} else {
			tspec.hashing = nil
		}
		later := &laterRows{read: func() (rowBlocks, error) { return testRows(files[1], tspec, j.stream, stderr) }}
		defer later.close()
		test = later
		if files[1] == "-" {
			// Read before the fits, which would otherwise wait for it.
			if _, err := later.resolve(); err != nil {
				return err
			}
		} else if _, err := newInput(files[1], tspec); err != nil {
			return err // before the fits, which it would otherwise follow
		}
		ntr, _ := train.X.Dims()
		head := fmt.Sprintf("%s: %s%s%s\n", train.name, plural(ntr, "training row"), nonZeros(train.X), leftOut(train))
		intro = func() string { return head + describeRows(later.rows, "test row") }
	} else {
		left := leftOut(train)
		trs, tes, err := data.Split(train.Set, j.split, j.splitSeed)
		if err != nil {
			return fmt.Errorf("%s: %s", train.name, errText(err))
		}
		test = &dataset{name: train.name, format: train.format, Set: tes, classes: train.classes, part: train.part + ", among the test rows of the split"}
		train = &dataset{name: train.name, format: train.format, Set: trs, classes: train.classes, part: train.part + ", among the training rows of the split"}
		ntr, _ := train.X.Dims()
		nte, _ := tes.X.Dims()
		text := fmt.Sprintf("%s%s, split with -split-seed %d: %s%s; %s%s", train.name, left, j.splitSeed,
			plural(ntr, "training row"), nonZeros(train.X), plural(nte, "test row"), nonZeros(tes.X))
		intro = func() string { return text }
	}
	n, d := train.X.Dims()
	how := j.describeSteps(train)
	weights, err := j.opts.describeWeights(train.classes, classCounts(train), false)
	weights += describeRowWeights(train, j.weights)
	if err != nil {
		return err
	}
	rest := fmt.Sprintf("\n%s%s\n%s\n%sstopping %s\n", plural(d, "feature"), how, train.classes.describe(), weights, j.opts.describeStop(n))
	names, note := j.cheapOnes(names, costOf(train))
	return j.evaluate(names, train, test, spec.label, pf, func() string { return intro() + rest + note }, true, stdout, stderr)
}

// modelFlags are the flags of eval that go with -model.
var modelFlags = []string{"model", "format", "header", "delimiter", "label", "pos", "neg", "k", "threshold", "progress", "q"}

// evalModel tests the saved model -model on the one file in files.
func (j *job) evalModel(fs *flag.FlagSet, files []string, stdout, stderr io.Writer) error {
	if err := onlyFlags(fs, modelFlags, "eval -model tests a saved model"); err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("eval -model: want one test file, got %d (see perceptron eval -h)", len(files))
	}
	top, err := j.checkTop(fs)
	if err != nil {
		return err
	}
	spec, err := j.spec(false)
	if err != nil {
		return err
	}
	if spec.label == "none" {
		return usagef("eval -model: -label none: the test rows need their labels")
	}
	m, err := loadModel(j.model, files[0], spec)
	if err != nil {
		return err
	}
	if top && m.Calibration == nil {
		return uncalibrated(j.model)
	}
	if spec.known, err = j.modelPicks(m); err != nil {
		return err
	}
	spec, err = modelSpec(spec, m)
	if err != nil {
		return err
	}
	test, err := openStream(files[0], spec)
	if err != nil {
		return err
	}
	defer test.close()
	name := typeName(m.Classifier)
	j.startProgress(stderr)
	if p := j.opts.progress; p != nil {
		p.name = name
	}
	test.check, test.warn = m.CheckRows, stderr
	r := &result{name: name, model: m, limit: modelEpochs(m.Classifier), fit: -1, train: math.NaN(), stats: statsOf(m.Classifier)}
	if err := r.testOn(test, spec.known, j.top, j.threshold, j.opts.progress, "the test rows"); err != nil {
		return err
	}
	test.notes(stderr)
	how := steps(m)
	if how == "" {
		how = ", which takes the rows as they are"
	}
	fmt.Fprintf(stdout, "%s: %s %s model of %s%s; %s; %s\n",
		j.model, article(name), name, plural(m.Features(), "feature"), how, describeRows(test, "test row"), spec.known.describe())
	if err := writeTable(stdout, []*result{r}); err != nil {
		return err
	}
	if err := writeProbabilities(stdout, []*result{r}); err != nil {
		return err
	}
	return writeReports(stdout, []*result{r})
}

// modelPicks returns the classes of m as -pos and -neg pick them, which
// leaves out the rows of other labels, or nil if they are not given.
func (j *job) modelPicks(m *data.Model) (*classSet, error) {
	pos, neg := strings.TrimSpace(j.pos), strings.TrimSpace(j.neg)
	if pos == "" && neg == "" {
		return nil, nil
	}
	c := newClassSet(m.Classes, m.Names)
	is := func(k int, s string) bool { return len(c.labels) == 2 && (c.labels[k] == s || c.names[k] == s) }
	switch {
	case pos == "" || neg == "":
		return nil, usagef("-pos and -neg go together: give both or neither")
	case !is(0, neg) || !is(1, pos):
		return nil, usagef("-pos %s -neg %s: want the classes of the model, which are %s", quote(pos), quote(neg), c.describe())
	}
	c.picked = true
	return c, nil
}
