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
// algorithm (Gallant, 1990), exact or with ratchet, the voted and averaged
// perceptrons (Freund and Schapire, 1999) and the kernel perceptron
// (Aizerman, Braverman and Rozonoer, 1964), with the budget of Cavallanti,
// Cesa-Bianchi and Gentile (2007).
//
// It exits with code 0 on success, 2 on a usage error (an unknown flag,
// a bad flag value, a flag that the chosen classifier or kernel does not
// take, the wrong number of files, an output that is one of the inputs),
// and 1 on any other error: a missing or malformed data or model file, a
// directory that cannot be written, too little memory for the model, an
// overflow of the weights. It writes no file when it fails, and leaves no
// temporary file on SIGINT or SIGTERM. It replaces an output file whole,
// keeping its permissions, and writes through a symbolic link to the file
// it points to.
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

	"github.com/seed5ae3614e/perceptron/data"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError is an error in the command line. The command exits with code
// 2 on it, and 1 on any other error.
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
classes by their value, other labels by their text. -classes FILE names the classes of
numbered labels. -pos and -neg make a binary problem of two labels, +1 and -1, and leave
out the rows of the others.

Features: dense rows (CSV, IDX) are standardised to mean 0 and deviation 1 on the
training rows; sparse rows (LIBSVM) are left as they are, as LIBLINEAR leaves them, and
-standardize scales them to deviation 1 without centring them, which would fill them.

Widths: the features of a model are those of its training rows. A LIBSVM value at an
index beyond them is ignored, and counted on stderr, as liblinear-predict does; a CSV or
IDX file of another width is an error.

Stopping: training stops as scikit-learn's Perceptron stops by default, once 5 epochs
in a row have not lowered the training loss by 0.001 × the rows (-tol, -no-change; with
-validation, by the accuracy on held-out rows), at an epoch without a mistake, or at
-epochs (1000). -no-stop turns the early stop off.

Model files: train saves the library's JSON form of the classifier, the one that
json.Marshal of it writes, with one member more, "command", which holds the label
column, the class labels and names and the standardisation. predict and eval -model
read such a file, or the library's JSON alone, which names the classes by their values
and standardises nothing. A program that uses the library removes "command" first.

Exit status: 0 on success; 2 on a usage error, of the flags or the arguments; 1 on any
other error: a missing, unreadable or malformed file, an output that cannot be written,
too little memory for the model (the command estimates it first), an overflow.

Classifiers (-classifier):
  perceptron   F. Rosenblatt (1958), Psychological Review 65(6)
  pocket       the pocket algorithm, exact or with -ratchet, S. I. Gallant
               (1990), IEEE Transactions on Neural Networks 1(2)
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
	return usagef("unknown command %s: want demo, train, predict or eval", quote(args[0]))
}

// job holds the flags of a command.
type job struct {
	format      string
	header      bool
	delimiter   string
	label       string
	classesFile string
	pos, neg    string
	opts        options
	classifier  string
	out         string
	split       float64
	splitSeed   uint64
	standardize scaling
	plot        string
	progress    bool
	model       string
	score       bool
}

func newJob() *job { return &job{opts: newOptions()} }

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
		return fmt.Errorf("%s is not true or false", quote(v))
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

// dataFlags defines the flags that say how to read a data file; training
// says whether the command reads classes, with -classes, -pos and -neg.
func (j *job) dataFlags(fs *flag.FlagSet, training bool) {
	fs.StringVar(&j.format, "format", "", "data format: csv, libsvm or idx; empty means to tell by the file name")
	fs.BoolVar(&j.header, "header", false, "CSV: the first line is a header, skipped; its fields name the columns for -label")
	fs.StringVar(&j.delimiter, "delimiter", ",", "CSV: the field delimiter, one character; \\t for a tab")
	fs.StringVar(&j.label, "label", "", "CSV: the label `COLUMN`: last, first, a number from 1, a name from the header, or none (default: "+
		defaultLabel+" in training; with a saved model, the column that train used)")
	if training {
		fs.StringVar(&j.classesFile, "classes", "", "LIBSVM and IDX: name the classes of numbered labels by the lines of `FILE`: a number, a name and optionally a count, as the Debian sections' classes.txt, or one name a line, the first that of label 0")
		fs.StringVar(&j.pos, "pos", "", "with -neg, make a binary problem: the label of class +1 (or its -classes name); the rows of labels neither -pos nor -neg are left out")
		fs.StringVar(&j.neg, "neg", "", "with -pos, the label of class -1 (or its -classes name)")
	}
}

// trainFlags defines the flags of training.
func (j *job) trainFlags(fs *flag.FlagSet, stderr io.Writer) {
	j.opts.addFlags(fs)
	fs.Var(&j.standardize, "standardize", "standardise the features on the training rows: dense rows to mean 0 and deviation 1, sparse rows to deviation 1 without centring them, which would fill them "+
		"(default: true for dense rows, CSV and IDX; false for sparse rows, LIBSVM, as LIBLINEAR leaves them)")
	fs.StringVar(&j.plot, "plot", "", "draw the mistakes per epoch, and with two features the training rows and boundaries, to `FILE` ending in "+plotFormats)
	fs.BoolVar(&j.progress, "progress", isTerminal(stderr), "show progress on stderr, with the stopping rule and the epoch limit (default: when stderr is a terminal)")
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
			return nil, usagef("%s: %s (see %s -h)", strings.TrimPrefix(fs.Name(), "perceptron "), shortText(err.Error()), fs.Name())
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

// spec returns how to read a data file, checking the flags; training says
// that the file is a training file, whose classes the flags give.
func (j *job) spec(training bool) (readSpec, error) {
	switch j.format {
	case "", "csv", "libsvm", "idx":
	default:
		return readSpec{}, usagef("-format %s: want csv, libsvm or idx", quote(j.format))
	}
	comma := []rune(strings.ReplaceAll(j.delimiter, `\t`, "\t"))
	if len(comma) != 1 || comma[0] == '"' || comma[0] == '\n' || comma[0] == '\r' {
		return readSpec{}, usagef("-delimiter %s: want one character, not a quote or an end of line", quote(j.delimiter))
	}
	s := readSpec{format: j.format, header: j.header, comma: comma[0], label: j.label, labelFlag: "-label", labels: true}
	if !training {
		return s, nil
	}
	if s.label == "" {
		s.label = defaultLabel
	}
	pos, neg := strings.TrimSpace(j.pos), strings.TrimSpace(j.neg)
	switch {
	case (pos == "") != (neg == ""):
		return readSpec{}, usagef("-pos and -neg go together: give both or neither")
	case pos != "" && sameLabel(pos, neg):
		return readSpec{}, usagef("-pos %s and -neg %s are the same label", quote(pos), quote(neg))
	case j.label == "none":
		return readSpec{}, usagef("-label none: training needs the labels")
	}
	s.pos, s.neg = pos, neg
	return s, nil
}

// readNames reads the -classes file into spec, if the flag names one.
func (j *job) readNames(spec *readSpec) error {
	if j.classesFile == "" {
		return nil
	}
	f, err := os.Open(j.classesFile)
	if err != nil {
		return err
	}
	defer f.Close()
	names, err := readClassNames(f)
	if err != nil {
		return fmt.Errorf("-classes %s: %v", j.classesFile, err)
	}
	spec.names, spec.namesOf = names, j.classesFile
	return nil
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

// scale standardises the rows of train, and of others with the same
// scaler, if the flags ask for it, and returns the scaler, or nil.
func (j *job) scale(train *dataset, others ...*dataset) (*data.Scaler, error) {
	if !j.standardize.of(train.X) {
		return nil, nil
	}
	X := []mat.Matrix{train.X}
	for _, o := range others {
		X = append(X, o.X)
	}
	if err := scaleNeed(X, true, false).check(); err != nil {
		return nil, err
	}
	sc, err := data.NewScaler(train.X)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", train.name, dataError(err))
	}
	for _, ds := range append([]*dataset{train}, others...) {
		if ds.X, err = sc.Transform(ds.X); err != nil {
			return nil, ds.rowError(err)
		}
	}
	return sc, nil
}

// rowError returns the error err of package data about a row of ds, with
// the name of its file and which rows it counts.
func (ds *dataset) rowError(err error) error {
	if ds.part == "" {
		return fmt.Errorf("%s: %s", ds.name, dataError(err))
	}
	return fmt.Errorf("%s: %s (rows counted%s)", ds.name, dataError(err), strings.TrimPrefix(ds.part, ","))
}

// dataError returns the message of an error of package data without the
// package's name.
func dataError(err error) string {
	return strings.TrimPrefix(err.Error(), "data: ")
}

// applyModel standardises the rows of ds as the model s does, and returns
// a warning if the rows then look unlike its training rows: their root
// mean square more than twice or less than half that of the training
// rows, as when the rows were scaled already, or were not and the model
// was trained on rows that were.
func applyModel(s *saved, ds *dataset) (warning string, err error) {
	if s.sc != nil {
		if err := scaleNeed([]mat.Matrix{ds.X}, false, s.sc.Mean != nil).check(); err != nil {
			return "", err
		}
		if ds.X, err = s.sc.Transform(ds.X); err != nil {
			return "", ds.rowError(err)
		}
	}
	if s.rms == 0 {
		return "", nil
	}
	if r := rms(ds.X); r > 2*s.rms || r < s.rms/2 {
		how := "the model standardises its rows itself"
		if s.sc == nil {
			how = "the model takes its rows as they are: train standardised none"
		}
		return fmt.Sprintf("warning: %s: the values of the rows, as the model sees them, have a root mean square of %.3g, and those of its training rows had %.3g: are they scaled as the training rows were? (%s)",
			ds.name, r, s.rms, how), nil
	}
	return "", nil
}

// dropped says on stderr how many values of ds beyond the width of its
// model were ignored, if any.
func dropped(stderr io.Writer, ds *dataset, width int) {
	if ds.Dropped > 0 {
		fmt.Fprintf(stderr, "perceptron: %s: %s at feature indices beyond the model's %d ignored, as liblinear-predict ignores them\n",
			ds.name, plural(ds.Dropped, "value"), width)
	}
}

const trainHelp = `Usage: perceptron train [flags] FILE

Train fits one classifier on the rows of FILE and saves it to the file -o
names, gzipped if the name ends in .gz: the library's JSON form of the
classifier, with the label column, the labels and names of the classes and
the standardisation of the features. It prints the training statistics
and accuracy, unless predicting the training rows would take longer than
training, as for a voted perceptron of many mistakes. The classes are the labels of FILE, two or more, or the two
that -pos and -neg pick. Training stops early by the rule of -tol and
-no-change, as scikit-learn's Perceptron does, unless -no-stop.

Before it allocates the model, train estimates the memory that fitting and
saving it take, and refuses, with exit status 1 and the figures, what does
not fit in the memory available. The pocket's cost grows as the square of
the rows: on tens of thousands of rows it takes long, -ratchet less.

Examples:
  perceptron train -header -pos 0 -neg 1 -o cancer.json cmd/perceptron/data/breast_cancer.csv
  perceptron train -classifier averaged -o fashion.json \
    /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz
  perceptron train -classifier averaged -classes debian-sections.classes.txt \
    -o debian.json.gz debian-sections.train.svm.gz

Exit status: 0 on success, 2 on a usage error, 1 on any other.

Flags:
`

func train(args []string, stdout, stderr io.Writer) error {
	j := newJob()
	j.classifier = "perceptron"
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
		return usagef("-classifier %s: want one of %s", quote(j.classifier), classifierNames())
	}
	if err := j.opts.check(fs, []string{j.classifier}); err != nil {
		return err
	}
	if err := j.opts.checkStop(fs); err != nil {
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
	if err := j.readNames(&spec); err != nil {
		return err
	}
	ds, err := readData(files[0], spec)
	if err != nil {
		return err
	}
	n, d := ds.X.Dims()
	shape := fmt.Sprintf("%s, %s%s%s", plural(n, "row"), plural(d, "feature"), nonZeros(ds.X), leftOut(ds))
	var raw *dataset
	if pf != "" {
		raw = plotRows(ds)
	}
	sc, err := j.scale(ds)
	if err != nil {
		return err
	}
	if j.classifier == "pocket" && quadraticCost(ds.X, len(ds.classes.values)) > cheapCost {
		what := "after every update: this takes long (-ratchet less; averaged is fast)"
		if j.opts.ratchet {
			what = "for every weight vector whose run beats the pocket's: this takes long (averaged is fast)"
		}
		fmt.Fprintf(stderr, "perceptron: the pocket counts the mistakes of all %s %s\n", plural(n, "row"), what)
	}
	j.startProgress(stderr)
	r, err := fitModel(j.classifier, &j.opts, ds, nil, true)
	if err != nil {
		return err
	}
	s := &saved{classifier: j.classifier, m: r.m, features: d, classes: ds.classes, label: spec.label, sc: sc, rms: rms(ds.X)}
	outs := []outFile{{"-o", j.out, s.writer(j.out)}}
	if pf != "" {
		img, err := drawPlot(pf, raw, sc, []*result{r}, ds.classes)
		if err != nil {
			return err
		}
		outs = append(outs, outFile{"-plot", j.plot, bytesOut(img)})
	}
	if err := writeFiles(outs...); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s%s; %s\nstopping %s\n", ds.name, shape, scaled(sc), ds.classes.describe(), j.opts.describeStop(n))
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

// scaled describes the standardisation sc, which may be nil.
func scaled(sc *data.Scaler) string {
	switch {
	case sc == nil:
		return ""
	case sc.Mean == nil:
		return ", scaled, not centred, as the rows are sparse"
	}
	return ", standardised"
}

const predictHelp = `Usage: perceptron predict [flags] FILE

Predict labels each row of FILE with a saved model, one class a line: its
name, or the label of its class as the training file wrote it. -score adds
the scores, separated by tabs, under a header that names the columns: for
two classes one, the decision function, >= 0 for the second class (+1 with
-pos and -neg); for more, one per class, of which the greatest decides. The
rows must have the features of the training rows, which predict
standardises as train did; a LIBSVM value beyond them is ignored, and
counted on stderr, as liblinear-predict does, and a CSV or IDX file of
another width is an error. The label column of a CSV file, the one train
read unless -label names another, is skipped; a file without one needs
-label none. A model file whose name ends in .gz is read gzipped.

If the rows have labels, predict writes to stderr the accuracy, as
liblinear-predict does: Accuracy = P% (right/total). A label that is no
class of the model counts as wrong.

The model may be the library's JSON form of a classifier alone, as
json.Marshal writes it: then the labels are the class values, nothing is
standardised, and the label column of a CSV file is the last, as in
training, unless -label names another.

Examples:
  perceptron predict -model cancer.json -header -score cmd/perceptron/data/breast_cancer.csv
  perceptron predict -model cancer.json -label none new-rows.csv

Exit status: 0 on success, 2 on a usage error, 1 on any other.

Flags:
`

func predict(args []string, stdout, stderr io.Writer) error {
	j := newJob()
	fs := newFlagSet("predict")
	fs.StringVar(&j.model, "model", "", "the model `FILE` that train saved, or the library's JSON of a classifier (required)")
	fs.BoolVar(&j.score, "score", false, "write the scores after each class, separated by tabs, under a header")
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
	spec.keepRows = true
	ds, warning, err := readForModel(files[0], spec, s, stderr)
	if err != nil {
		return err
	}
	if warning != "" {
		fmt.Fprintln(stderr, "perceptron: "+warning)
	}
	pred, scores, err := classify(s.m, ds, nil, "", j.score)
	if err != nil {
		return err
	}
	S := numScores(s.m)
	var b strings.Builder
	if j.score {
		b.WriteString("class")
		if S == 1 {
			fmt.Fprintf(&b, "\tscore (>= 0: %s)", s.classes.names[1])
		} else {
			for _, name := range s.classes.names {
				b.WriteString("\t" + name)
			}
		}
		b.WriteByte('\n')
	}
	for i, c := range pred {
		b.WriteString(s.classes.names[c])
		if j.score {
			for _, v := range scores[i*S : i*S+S] {
				b.WriteByte('\t')
				b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		b.WriteByte('\n')
	}
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		return err
	}
	if ds.Y != nil {
		acc := accuracy(pred, ds.Y)
		right := int(math.Round(acc * float64(len(pred))))
		fmt.Fprintf(stderr, "Accuracy = %s%% (%d/%d)\n", strconv.FormatFloat(100*acc, 'g', 6, 64), right, len(pred))
	}
	return nil
}

// readForModel reads the rows of the file at path for the model s: its
// width, its classes, its label column unless -label names another, and
// its standardisation. It says on stderr how many LIBSVM values beyond the
// width it ignored, and returns the warning of applyModel.
func readForModel(path string, spec readSpec, s *saved, stderr io.Writer) (*dataset, string, error) {
	if spec.label == "" {
		spec.label, spec.labelFlag = s.label, "the model's -label"
	}
	spec.labels = spec.label != "none"
	spec.known, spec.width = s.classes, s.features
	ds, err := readData(path, spec)
	if err != nil {
		return nil, "", err
	}
	dropped(stderr, ds, s.features)
	warning, err := applyModel(s, ds)
	return ds, warning, err
}

// wrotePlot says where the plot went, if -plot asked for one.
func (j *job) wrotePlot(stdout io.Writer) error {
	if j.plot == "" {
		return nil
	}
	_, err := fmt.Fprintf(stdout, "wrote the plot to %s\n", j.plot)
	return err
}

// classifiers returns the names of the classifiers that -classifier asks
// for, and, for all, those of quadratic that it leaves out as too costly
// on the rows X of K classes, which may be nil.
func (j *job) classifiers() ([]string, error) {
	if j.classifier == "all" {
		var names []string
		for _, c := range classifiers {
			names = append(names, c.name)
		}
		return names, nil
	}
	if _, ok := newModel(j.classifier, &options{}); !ok {
		return nil, usagef("-classifier %s: want all or one of %s", quote(j.classifier), classifierNames())
	}
	return []string{j.classifier}, nil
}

// cheapOnes returns those of names that run on the rows X of K classes:
// all, unless -classifier all leaves out the costly ones of quadratic,
// which it returns with a note.
func (j *job) cheapOnes(names []string, X mat.Matrix, K int) ([]string, string) {
	c := quadraticCost(X, K)
	if j.classifier != "all" || c <= cheapCost {
		return names, ""
	}
	left := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !slices.Contains(quadratic, n) })
	names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(quadratic, n) })
	return names, fmt.Sprintf("%s left out: their cost grows with the square of the rows, and rows² × non-zeros a row × classes is %.2g here, over %.0g; -classifier NAME runs one\n",
		joinWords(left, "and"), c, cheapCost)
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
	if err := j.opts.checkStop(fs); err != nil {
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
