// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command perceptron trains, tests and applies the classifiers of package
// perceptron on data files.
//
// Run without arguments, it trains every classifier on the Wisconsin
// breast cancer data, which it embeds, and prints a table of their
// accuracy. Its subcommands work on a user's own data:
//
//	perceptron train   [flags] FILE          fit one classifier and save it
//	perceptron predict [flags] FILE          label rows with a saved model
//	perceptron eval    [flags] TRAIN [TEST]  fit and test one or every classifier
//	perceptron demo    [flags]               the demo, with flags
//
// It reads CSV, LIBSVM/SVMlight and IDX (MNIST, Fashion-MNIST) files of
// two classes or more; its model files are the library's JSON form of a
// classifier with what the command adds. Run perceptron -h, or perceptron
// COMMAND -h, for the details.
//
// The classifiers are the perceptron (Rosenblatt, 1958), the pocket
// algorithm with ratchet (Gallant, 1990), the voted and averaged
// perceptrons (Freund and Schapire, 1999) and the kernel perceptron
// (Aizerman, Braverman and Rozonoer, 1964), with the budget of Cavallanti,
// Cesa-Bianchi and Gentile (2007).
//
// It exits with code 0 on success, 1 if the work fails (a malformed data
// file, say), and 2 on a usage error: an unknown flag, a bad flag value, a
// flag that the chosen classifier or kernel does not take, an input file
// that cannot be opened, or an output (-o, -plot) that is not a regular
// file or is one of the inputs. It writes no file when it fails. It
// replaces an output file whole, keeping its permissions, and writes
// through a symbolic link to the file it points to.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError is an error in the command line. The command exits with code
// 2 on it.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// run runs the command with the arguments args, writing its results to
// stdout and its errors and progress to stderr, and returns its exit code.
func run(args []string, stdout, stderr io.Writer) int {
	err := dispatch(args, stdout, stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintf(stderr, "perceptron: %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
	if errors.As(err, new(usageError)) {
		return 2
	}
	return 1
}

const usage = `Usage:
  perceptron                           the demo: train every classifier on the embedded
                                       Wisconsin breast cancer data and compare them
  perceptron demo    [flags]           the demo, with flags
  perceptron train   [flags] FILE      fit one classifier on FILE and save it (-o MODEL)
  perceptron predict [flags] FILE      label the rows of FILE with a saved model (-model MODEL)
  perceptron eval    [flags] TRAIN [TEST]
                                       fit and test one or every classifier on TRAIN and TEST,
                                       or on a seeded split of TRAIN

Data files are CSV (*.csv), LIBSVM/SVMlight sparse text (*.svm, *.libsvm, *.svmlight)
or IDX, the format of MNIST and Fashion-MNIST (*idx*ubyte*), gzipped or not (*.gz);
-format says which when the name does not. The classes are the labels of the training
file: two make a binary problem, more a multiclass one. Labels that are all numbers are
classes by their value, other labels by their text. -pos and -neg make a binary problem
of two labels, +1 and -1, and leave out the rows of the others.

Features: dense rows (CSV, IDX) are standardised to mean 0 and deviation 1 on the
training rows; sparse rows (LIBSVM) are left as they are, as LIBLINEAR leaves them, and
-standardize scales them to deviation 1 without centring them, which would fill them.

Model files: train saves the library's JSON form of the classifier, the one that
json.Marshal of it writes, with one member more, "command", which holds the label
column, the class labels and the standardisation. predict and eval -model read such a
file, or the library's JSON alone, which names the classes by their values and
standardises nothing.

Classifiers (-classifier):
  perceptron   F. Rosenblatt (1958), Psychological Review 65(6)
  pocket       the pocket algorithm with ratchet, S. I. Gallant (1990),
               IEEE Transactions on Neural Networks 1(2)
  averaged     Y. Freund and R. E. Schapire (1999), Machine Learning 37(3)
  voted        Y. Freund and R. E. Schapire (1999), Machine Learning 37(3)
  kernel       M. A. Aizerman, E. M. Braverman and L. I. Rozonoer (1964),
               Automation and Remote Control 25; -budget: G. Cavallanti,
               N. Cesa-Bianchi and C. Gentile (2007), Machine Learning 69(2-3)

Run perceptron COMMAND -h for the flags of a command.
`

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return demo(nil, stdout, stderr)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	case "demo":
		return demo(args[1:], stdout, stderr)
	case "train":
		return train(args[1:], stdout, stderr)
	case "predict":
		return predict(args[1:], stdout, stderr)
	case "eval":
		return eval(args[1:], stdout, stderr)
	}
	if strings.HasPrefix(args[0], "-") {
		return demo(args, stdout, stderr)
	}
	return usagef("unknown command %q: want demo, train, predict or eval", args[0])
}

// job holds the flags of a command.
type job struct {
	format      string
	header      bool
	label       string
	pos, neg    string
	opts        options
	classifier  string
	out         string
	split       float64
	standardize scaling
	plot        string
	progress    bool
	model       string
	score       bool
}

// scaling is the value of -standardize, which may be unset: then dense
// rows are standardised, and sparse ones are not.
type scaling struct{ set, on bool }

func (s *scaling) String() string {
	if s == nil || !s.set {
		return ""
	}
	return strconv.FormatBool(s.on)
}

func (s *scaling) Set(v string) error {
	on, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("%q is not true or false", v)
	}
	s.set, s.on = true, on
	return nil
}

func (s *scaling) IsBoolFlag() bool { return true }

// of reports whether the training rows X are to be standardised.
func (s scaling) of(X mat.Matrix) bool {
	if s.set {
		return s.on
	}
	return !isSparse(X)
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("perceptron "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// defaultLabel is the label column of a CSV file that training reads
// without -label: the end of the row, as most CSV files put it.
const defaultLabel = "last"

// dataFlags defines the flags that say how to read a data file; labels
// says whether the command picks classes with -pos and -neg.
func (j *job) dataFlags(fs *flag.FlagSet, labels bool) {
	fs.StringVar(&j.format, "format", "", "data format: csv, libsvm or idx; empty means to tell by the file name")
	fs.BoolVar(&j.header, "header", false, "CSV: the first line is a header, skipped; its fields name the columns for -label")
	fs.StringVar(&j.label, "label", "", "CSV: the label `COLUMN`: last, first, a number from 1, a name from the header, or none (default: "+
		defaultLabel+" in training; with a saved model, the column that train used)")
	if labels {
		fs.StringVar(&j.pos, "pos", "", "with -neg, make a binary problem: the label of class +1 (IDX: a class number); the rows of labels neither -pos nor -neg are left out")
		fs.StringVar(&j.neg, "neg", "", "with -pos, the label of class -1 (IDX: a class number)")
	}
}

// trainFlags defines the flags of training.
func (j *job) trainFlags(fs *flag.FlagSet, stderr io.Writer) {
	j.opts.addFlags(fs)
	fs.Uint64Var(&j.opts.seed, "seed", 1, "seed of the split and of -shuffle")
	fs.Var(&j.standardize, "standardize", "standardise the features on the training rows: dense rows to mean 0 and deviation 1, sparse rows to deviation 1 without centring them, which would fill them "+
		"(default: true for dense rows, CSV and IDX; false for sparse rows, LIBSVM, as LIBLINEAR leaves them)")
	fs.StringVar(&j.plot, "plot", "", "draw the mistakes per epoch, and with two features the training rows and boundaries, to `FILE` ending in "+plotFormats)
	fs.BoolVar(&j.progress, "progress", isTerminal(stderr), "show progress on stderr (default: when stderr is a terminal)")
}

// parseArgs parses args, in which flags and other arguments may mix until
// a "--", and returns the other arguments. On -h it writes the help of the command to
// stdout and returns flag.ErrHelp.
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
			return nil, usagef("%s: %v (see %s -h)", strings.TrimPrefix(fs.Name(), "perceptron "), err, fs.Name())
		}
		if used := len(args) - fs.NArg(); fs.NArg() == 0 || (used > 0 && args[used-1] == "--") {
			return append(rest, fs.Args()...), nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// spec returns how to read a data file, checking the flags.
func (j *job) spec(training bool) (dataSpec, error) {
	switch j.format {
	case "", "csv", "libsvm", "idx":
	default:
		return dataSpec{}, usagef("-format %q: want csv, libsvm or idx", j.format)
	}
	s := dataSpec{format: j.format, header: j.header, label: j.label, labelFlag: "-label"}
	if !training {
		return s, nil
	}
	if s.label == "" {
		s.label = defaultLabel
	}
	switch {
	case (j.pos == "") != (j.neg == ""):
		return dataSpec{}, usagef("-pos and -neg go together: give both or neither")
	case j.pos != "" && sameLabel(strings.TrimSpace(j.pos), strings.TrimSpace(j.neg)):
		return dataSpec{}, usagef("-pos %q and -neg %q are the same label", j.pos, j.neg)
	case j.label == "none":
		return dataSpec{}, usagef("-label none: training needs the labels")
	}
	s.labels = &labelSpec{pos: strings.TrimSpace(j.pos), neg: strings.TrimSpace(j.neg)}
	return s, nil
}

// plotFormat returns the format of the -plot file, or "" for none.
func (j *job) plotFormat() (string, error) {
	if j.plot == "" {
		return "", nil
	}
	return plotFormat(j.plot)
}

// outFiles returns the files that the flags name for writing; a path is
// empty if its flag was not given.
func (j *job) outFiles() []outFile {
	return []outFile{{flag: "-o", path: j.out}, {flag: "-plot", path: j.plot}}
}

// startProgress sets up the progress reports that the flags ask for.
func (j *job) startProgress(stderr io.Writer) {
	if j.progress {
		j.opts.progress = &progress{w: stderr, tty: isTerminal(stderr)}
	}
}

const trainHelp = `Usage: perceptron train [flags] FILE

Train fits one classifier on the rows of FILE and saves it to the file -o
names, gzipped if the name ends in .gz: the library's JSON form of the
classifier, with the label column, the labels of the classes and the
standardisation of the features. It prints the training accuracy and
statistics. The classes are the labels of FILE, two or more, or the two
that -pos and -neg pick.

Examples:
  perceptron train -header -pos 0 -neg 1 -o cancer.json cmd/perceptron/data/breast_cancer.csv
  perceptron train -classifier averaged -epochs 10 -o fashion.json \
    /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz

Flags:
`

func train(args []string, stdout, stderr io.Writer) error {
	j := &job{}
	fs := newFlagSet("train")
	fs.StringVar(&j.classifier, "classifier", "perceptron", "the classifier: "+classifierNames())
	fs.StringVar(&j.out, "o", "", "save the model to `FILE` (required)")
	j.dataFlags(fs, true)
	j.trainFlags(fs, stderr)
	files, err := parseArgs(fs, trainHelp, args, stdout)
	if err != nil {
		return err
	}
	if _, ok := newModel(j.classifier, &options{}); !ok {
		return usagef("-classifier %q: want one of %s", j.classifier, classifierNames())
	}
	if err := j.opts.check(fs, []string{j.classifier}); err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("train: want one data file, got %d (see perceptron train -h)", len(files))
	}
	if j.out == "" {
		return usagef("train: -o FILE is required: where to save the model")
	}
	spec, err := j.spec(true)
	if err != nil {
		return err
	}
	pf, err := j.plotFormat()
	if err != nil {
		return err
	}
	if err := checkOutputs(j.outFiles(), inputFiles(files[0], spec)); err != nil {
		return err
	}
	ds, err := readData(files[0], spec, 0)
	if err != nil {
		return err
	}
	n, d := ds.X.Dims()
	shape := fmt.Sprintf("%s, %s%s%s", plural(n, "row"), plural(d, "feature"), nonZeros(ds.X), leftOut(ds))
	raw, sc, err := j.prepare(ds, nil, pf != "")
	if err != nil {
		return err
	}
	j.startProgress(stderr)
	r, err := fitModel(j.classifier, &j.opts, ds, nil)
	if err != nil {
		return err
	}
	s := &saved{classifier: j.classifier, m: r.m, features: d, classes: ds.classes, label: spec.label, sc: sc}
	data, err := s.modelData(j.out)
	if err != nil {
		return err
	}
	outs := []outFile{{"-o", j.out, data}}
	if pf != "" {
		img, err := drawPlot(pf, raw, sc, []*result{r}, ds.classes)
		if err != nil {
			return err
		}
		outs = append(outs, outFile{"-plot", j.plot, img})
	}
	if err := writeFiles(outs...); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s%s; %s\n", ds.name, shape, scaled(sc), ds.classes.describe())
	if err := writeTable(stdout, []*result{r}); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "saved the model to %s\n", j.out); err != nil {
		return err
	}
	return j.wrotePlot(stdout)
}

// leftOut says how many rows of ds were left out, if any.
func leftOut(ds *dataset) string {
	if ds.left == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s of other labels left out)", plural(ds.left, "row"))
}

// prepare standardises the features of train, and of test if not nil, if
// the flags ask for it, and returns the scaler, or nil. If plot is set it
// returns the training rows as they were for the plot, or nil if the plot
// does not draw them.
func (j *job) prepare(train, test *dataset, plot bool) (raw *dataset, sc *scaler, err error) {
	if plot {
		raw = plotRows(train)
	}
	if !j.standardize.of(train.X) {
		return raw, nil, nil
	}
	sc = fitScaler(train.X)
	if err := sc.apply(train); err != nil {
		return nil, nil, err
	}
	if test != nil {
		if err := sc.apply(test); err != nil {
			return nil, nil, err
		}
	}
	return raw, sc, nil
}

// scaled describes the standardisation sc, which may be nil.
func scaled(sc *scaler) string {
	switch {
	case sc == nil:
		return ""
	case sc.mean == nil:
		return ", scaled, not centred, as the rows are sparse"
	}
	return ", standardised"
}

const predictHelp = `Usage: perceptron predict [flags] FILE

Predict labels each row of FILE with a saved model, one label a line, the
label of its class as the training file wrote it. -score adds the scores,
separated by tabs: for two classes one, the decision function, >= 0 for the
second class (+1 with -pos and -neg); for more, one per class, in the
order of the model's class values, of which the greatest decides. The rows
must have the features of the training rows, which predict standardises as
train did. The label column of a CSV file, the one train read unless -label
names another, is skipped; a file without one needs -label none. A model
file whose name ends in .gz is read gzipped.

The model may be the library's JSON form of a classifier alone, as
json.Marshal writes it: then the labels are the class values, nothing is
standardised, and the label column of a CSV file is the last, as in
training, unless -label names another.

Examples:
  perceptron predict -model cancer.json -header -score cmd/perceptron/data/breast_cancer.csv
  perceptron predict -model cancer.json -label none new-rows.csv

Flags:
`

func predict(args []string, stdout, stderr io.Writer) error {
	j := &job{}
	fs := newFlagSet("predict")
	fs.StringVar(&j.model, "model", "", "the model `FILE` that train saved, or the library's JSON of a classifier (required)")
	fs.BoolVar(&j.score, "score", false, "write the scores after each label, separated by tabs")
	j.dataFlags(fs, false)
	files, err := parseArgs(fs, predictHelp, args, stdout)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("predict: want one data file, got %d (see perceptron predict -h)", len(files))
	}
	if j.model == "" {
		return usagef("predict: -model FILE is required: the model that train saved")
	}
	spec, err := j.spec(false)
	if err != nil {
		return err
	}
	s, err := loadModel(j.model)
	if err != nil {
		return err
	}
	spec.useModelLabel(s)
	ds, err := readData(files[0], spec, s.features)
	if err != nil {
		return err
	}
	if s.sc != nil {
		if err := s.sc.apply(ds); err != nil {
			return err
		}
	}
	pred := predictRows(s.m, ds.X, nil, "")
	var scores []float64
	S := 0
	if j.score {
		S, scores = numScores(s.m), scoreRows(s.m, ds.X)
	}
	var b strings.Builder
	for i, v := range pred {
		k, ok := s.classes.index(v)
		if !ok {
			panic(fmt.Sprintf("the model predicts %v, not one of its classes %v", v, s.classes.values))
		}
		b.WriteString(s.classes.names[k])
		for _, v := range scores[i*S : i*S+S] {
			b.WriteByte('\t')
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

const evalHelp = `Usage: perceptron eval [flags] TRAIN [TEST]
       perceptron eval -model MODEL [flags] TEST

Eval fits one classifier, or every one, on the rows of TRAIN and tests it on
those of TEST, or, without TEST, on a seeded random split of TRAIN. The
features of dense rows are standardised on the training rows alone. The
rows of sparse files of different widths widen to the wider. It prints a
table of the training and test accuracy, the mistakes and epochs of
training, whether it converged, and the time it took; then, for each
classifier, the confusion matrix of the test rows: a row per true label, a
column per predicted class, with the recall of each label and the
precision of each class. A precision is "-" for a class that no row is
predicted to be, and a recall "-" for a class that no test row has. The
test rows of a label that is no class of the training rows are counted
wrong, in rows of their own; with -pos and -neg they are left out.

With -model, eval fits nothing: it tests a saved model, or the library's
JSON of a classifier, on the rows of TEST, read with the model's classes,
label column and standardisation, and prints the test accuracy beside the
model's training statistics, and the confusion matrix. Only -format,
-header, -label and -progress go with -model.

Examples:
  perceptron eval -header -pos 0 -neg 1 cmd/perceptron/data/breast_cancer.csv
  perceptron eval -model cancer.json -header cmd/perceptron/data/breast_cancer.csv
  perceptron eval -classifier averaged -epochs 10 \
    /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz \
    /usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz

Flags:
`

func eval(args []string, stdout, stderr io.Writer) error {
	j := &job{}
	fs := newFlagSet("eval")
	fs.StringVar(&j.classifier, "classifier", "all", "the classifier: all, "+classifierNames())
	fs.Float64Var(&j.split, "split", 0.25, "without TEST, the fraction of the rows of TRAIN to test on")
	fs.StringVar(&j.model, "model", "", "test the model `FILE` that train saved, or the library's JSON of a classifier, on TEST, fitting nothing")
	j.dataFlags(fs, true)
	j.trainFlags(fs, stderr)
	files, err := parseArgs(fs, evalHelp, args, stdout)
	if err != nil {
		return err
	}
	if j.model != "" {
		return j.evalModel(fs, files, stdout, stderr)
	}
	names, pf, err := j.evalFlags(fs)
	if err != nil {
		return err
	}
	if len(files) != 1 && len(files) != 2 {
		return usagef("eval: want a training file and an optional test file, got %d files (see perceptron eval -h)", len(files))
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
	train, err := readData(files[0], spec, 0)
	if err != nil {
		return err
	}
	var test *dataset
	var intro string
	if len(files) == 2 {
		tspec := spec
		tspec.labels = &labelSpec{known: train.classes}
		if test, err = readData(files[1], tspec, 0); err != nil {
			return err
		}
		_, dtr := train.X.Dims()
		_, dte := test.X.Dims()
		// Sparse rows widen to those of the other file; dense rows must
		// agree.
		d := max(dtr, dte)
		if dtr < d && !isSparse(train.X) || dte < d && !isSparse(test.X) {
			return fmt.Errorf("%s has %s and %s %d", train.name, plural(dtr, "feature"), test.name, dte)
		}
		train, test = widen(train, d), widen(test, d)
		ntr, _ := train.X.Dims()
		nte, _ := test.X.Dims()
		intro = fmt.Sprintf("%s: %s%s%s; %s: %s%s%s", train.name, plural(ntr, "training row"), nonZeros(train.X), leftOut(train),
			test.name, plural(nte, "test row"), nonZeros(test.X), leftOut(test))
	} else {
		left := leftOut(train)
		if train, test, err = split(train, j.split, j.opts.seed); err != nil {
			return err
		}
		ntr, _ := train.X.Dims()
		nte, _ := test.X.Dims()
		intro = fmt.Sprintf("%s%s, split with seed %d: %s%s; %s%s", train.name, left, j.opts.seed, plural(ntr, "training row"), nonZeros(train.X), plural(nte, "test row"), nonZeros(test.X))
	}
	_, d := train.X.Dims()
	how := ""
	switch {
	case j.standardize.of(train.X) && isSparse(train.X):
		how = ", scaled on the training rows, not centred, as the rows are sparse"
	case j.standardize.of(train.X):
		how = ", standardised on the training rows"
	}
	intro += fmt.Sprintf("; %s%s; %s\n", plural(d, "feature"), how, train.classes.describe())
	return j.evaluate(names, train, test, pf, intro, true, stdout, stderr)
}

// modelFlags are the flags of eval that go with -model.
var modelFlags = []string{"model", "format", "header", "label", "progress"}

// evalModel tests the saved model -model on the one file in files.
func (j *job) evalModel(fs *flag.FlagSet, files []string, stdout, stderr io.Writer) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil && !slices.Contains(modelFlags, f.Name) {
			var with []string
			for _, name := range modelFlags[1:] {
				with = append(with, "-"+name)
			}
			err = usagef("-%s: eval -model tests a saved model, and takes only %s", f.Name, joinWords(with, "and"))
		}
	})
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("eval -model: want one test file, got %d (see perceptron eval -h)", len(files))
	}
	spec, err := j.spec(false)
	if err != nil {
		return err
	}
	s, err := loadModel(j.model)
	if err != nil {
		return err
	}
	spec.useModelLabel(s)
	if spec.label == "none" {
		return usagef("eval -model: %s none: the test rows need their labels", spec.labelFlag)
	}
	spec.labels = &labelSpec{known: s.classes}
	test, err := readData(files[0], spec, s.features)
	if err != nil {
		return err
	}
	n, _ := test.X.Dims()
	rows := plural(n, "test row") + nonZeros(test.X) + leftOut(test)
	if s.sc != nil {
		if err := s.sc.apply(test); err != nil {
			return err
		}
	}
	j.startProgress(stderr)
	if p := j.opts.progress; p != nil {
		p.name = s.classifier
	}
	r := &result{name: s.classifier, m: s.m, fit: -1, train: math.NaN(), stats: s.m.Stats()}
	r.test, r.conf = testModel(s.m, test, j.opts.progress, "the test rows")
	how := scaled(s.sc)
	if s.bare {
		how = ", the library's JSON alone, not standardised"
	}
	fmt.Fprintf(stdout, "%s: %s %s model of %s%s; %s: %s; %s\n",
		j.model, article(s.classifier), s.classifier, plural(s.features, "feature"), how, test.name, rows, s.classes.describe())
	if err := writeTable(stdout, []*result{r}); err != nil {
		return err
	}
	return writeConfusion(stdout, r.name, r.conf)
}

// classifiers returns the names of the classifiers that -classifier asks
// for.
func (j *job) classifiers() ([]string, error) {
	if j.classifier == "all" {
		var names []string
		for _, c := range classifiers {
			names = append(names, c.name)
		}
		return names, nil
	}
	if _, ok := newModel(j.classifier, &options{}); !ok {
		return nil, usagef("-classifier %q: want all or one of %s", j.classifier, classifierNames())
	}
	return []string{j.classifier}, nil
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
	if !(j.split > 0 && j.split < 1) {
		return nil, "", usagef("-split %v: want a fraction between 0 and 1", j.split)
	}
	if pf, err = j.plotFormat(); err != nil {
		return nil, "", err
	}
	return names, pf, nil
}

// evaluate standardises the features if the flags ask for it, fits and
// tests the classifiers names, draws the plot in format pf if not empty,
// and prints intro and the table, and the confusion matrices if confusions
// is set.
func (j *job) evaluate(names []string, train, test *dataset, pf, intro string, confusions bool, stdout, stderr io.Writer) error {
	raw, sc, err := j.prepare(train, test, pf != "")
	if err != nil {
		return err
	}
	j.startProgress(stderr)
	var rs []*result
	for _, name := range names {
		r, err := fitModel(name, &j.opts, train, test)
		if err != nil {
			return err
		}
		rs = append(rs, r)
	}
	if pf != "" {
		img, err := drawPlot(pf, raw, sc, rs, train.classes)
		if err != nil {
			return err
		}
		if err := writeFiles(outFile{"-plot", j.plot, img}); err != nil {
			return err
		}
	}
	fmt.Fprint(stdout, intro)
	if err := writeTable(stdout, rs); err != nil {
		return err
	}
	for _, r := range rs {
		if !confusions {
			break
		}
		if err := writeConfusion(stdout, r.name, r.conf); err != nil {
			return err
		}
	}
	return j.wrotePlot(stdout)
}

// wrotePlot says where the plot went, if -plot asked for one.
func (j *job) wrotePlot(stdout io.Writer) error {
	if j.plot == "" {
		return nil
	}
	_, err := fmt.Fprintf(stdout, "wrote the plot to %s\n", j.plot)
	return err
}
