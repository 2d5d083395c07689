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
//	perceptron serve   [flags]               predict and learn over HTTP
//	perceptron demo    [flags]               the demo, with flags
//
// It reads CSV, LIBSVM/SVMlight and IDX (MNIST, Fashion-MNIST) files, and
// text, a document a line, in fastText's format or as a label, a tab and
// the text, whose words and pairs of words it hashes into features; of two
// classes or more. Its model files are those of package data's Model: the
// classifier with the steps before it, the hashing of text among them,
// and the labels of its classes, which a Go program loads whole with
// data.LoadModel and predicts with as the command does. Run perceptron -h,
// or perceptron COMMAND -h, for the details.
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
// temporary file on SIGINT or SIGTERM, which end it whenever they come,
// during training after a line that says so: as they do by default, or,
// if it was started with SIGINT ignored, as a shell without job control
// starts a command run with &, with exit status 128 + the signal's
// number. The temporary file that a run killed by SIGKILL leaves beside
// a file it writes, .NAME.HEX.tmp, the next run that writes the file
// removes, saying so. It replaces an output file whole, keeping its
// permissions, and writes through a symbolic link to the file it points
// to.
//
// Its memory is bounded: unless GOMEMLIMIT sets Go's memory limit, the
// command sets it at start to the memory it may take, the least of the
// memory Linux has available, the room of its control group and the room
// that ulimit -v leaves; data, models and training refuse, with exit
// status 1 and a line that names the file, what would not fit. A data file
// larger than that it reads a block of rows at a time, and again for each
// epoch of training, in memory independent of its rows.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	catchSignals()
	setMemoryLimit()
	setGCPercent()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command with the arguments args, writing its results to
// stdout and its errors and progress to stderr, and returns its exit code.
func run(args []string, stdout, stderr io.Writer) int {
	err := dispatch(args, stdout, stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	}
	// One line, however long the paths and tokens that it quotes.
	const most = 1500
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	if len(msg) > most {
		msg = strings.ToValidUTF8(msg[:most], "") + "…"
	}
	fmt.Fprintf(stderr, "perceptron: %s\n", msg)
	if errors.As(err, new(usageError)) {
		return 2
	}
	var s stopped
	if errors.As(err, &s) {
		endBySignal(s.sig)
	}
	return 1
}

const mainHelp = `Usage:
  perceptron                           the demo: train every classifier on the embedded
                                       Wisconsin breast cancer data and compare them
  perceptron demo    [flags]           the demo, with flags
  perceptron train   [flags] FILE      fit one classifier on FILE and save it (-o MODEL), or
                                       train a saved model further on FILE (-model MODEL)
  perceptron predict [flags] FILE      label the rows of FILE with a saved model (-model MODEL)
  perceptron eval    [flags] TRAIN [TEST]
                                       fit and test one or every classifier on TRAIN and TEST,
                                       on a seeded split of TRAIN, or on -folds folds of it
  perceptron serve   [flags]           answer predictions, and learn, over HTTP with a saved
                                       model (-model MODEL)

Data files are CSV (*.csv), LIBSVM/SVMlight sparse text (*.svm, *.libsvm, *.svmlight),
IDX, the format of MNIST and Fashion-MNIST (*idx*ubyte*), or text, a document a line, in
fastText's format (__label__NAME tokens and the text) or as a label, a tab and the text;
gzipped or not (*.gz). The command tells the format from the file's name, or else from
its first line, as for standard input, a FILE of -, unless -format says it. The classes
are the labels of the training file: two make a binary problem, more a multiclass one.
Labels that are all numbers are classes by their value, other labels by their text; a
label column that looks like a feature, most of its rows of a label of their own, is
refused, unless -many-classes. -classes FILE names the classes of numbered labels. -pos
and -neg make a binary problem of two labels, +1 and -1, and leave out the rows of the
others.

Classifiers: -classifier NAME fits one of those below, and ovr:NAME fits one of them for
each class, to tell the class from the rest, as scikit-learn's OneVsRestClassifier does;
the class of the greatest score wins. Without ovr:, a classifier of more than two classes
learns them all together, as the multiclass perceptron does.

Output: -q writes nothing to stderr but errors: no progress, warnings or notes. A
mistyped flag or command is answered with the nearest name.

Features: dense rows (CSV, IDX) are standardised to mean 0 and deviation 1 on the
training rows. Sparse rows (LIBSVM, text), as text gives them, have each feature weighed
by its inverse document frequency on the training rows, and then each row scaled to unit
length, as scikit-learn's TfidfTransformer does; -standardize scales them to deviation
1 instead, without centring them, which would fill them. -idf, -standardize and
-normalize turn each step on or off. The pixels of IDX, bytes from 0 to 255, are read
divided by 255, as values from 0 to 1, before these steps.

Text: the words of each line, runs of letters and digits lower-cased, and the pairs of
adjacent words (-ngrams) are hashed by MurmurHash3 into 2^19 features (-bits), the
columns that scikit-learn's HashingVectorizer gives them, which count them; these sparse
rows then go through the steps above. The model file keeps the hashing, so that predict,
eval -model and train -model read text as train read it, with no flags.

Training visits the rows in a fresh random order each epoch, drawn from -seed, as
scikit-learn and LIBLINEAR do; -shuffle=false visits them in the order of the file.

Files larger than memory: predict and eval -model read the rows a block at a time, in
memory independent of their number; train and eval read so a file whose rows would take
more than half the memory left, or any with -stream, and train on it reading it again for
each epoch, to the model of the file read whole in the order of the file, and with
-shuffle in a random order within each chunk of rows.

Widths: the features of a model are those of its training rows. A LIBSVM value at an
index beyond them is ignored, and counted on stderr, as liblinear-predict does; a CSV or
IDX file of another width is an error.

Stopping: training stops as scikit-learn's Perceptron stops by default, once 5 epochs
in a row have not lowered the training loss by 0.001 × the rows (-tol, -no-change; with
-validation, by the accuracy on held-out rows), at an epoch without a mistake, or at
-epochs (1000). -no-stop turns the early stop off.

Model files: train saves the classifier with what it does to the rows before it, the
hashing of text and the standardisation or the weights of the features, and the labels,
names and label column of the classes, as package data's Model saves itself: in its
binary form, written and read at the speed of memory, or, where the name ends in .json
or .json.gz, in its JSON form, an object whose member "classifier" is the library's JSON
form of the classifier. A Go program loads either with data.LoadModel, and predicts
from the rows, or from the rows that the model's hashing makes of texts, as the command
does. predict, eval -model and train -model read either form, gzipped or not, as its
first bytes tell, or the library's classifier alone, as json.Marshal or
perceptron.Marshal writes it, which names the classes by their values and takes the
rows as they are. They read the model's head first, and refuse rows that it does not
take, as far as the data file's name and first bytes tell, before they read the rest.

Exit status: 0 on success; 2 on a usage error, of the flags or the arguments; 1 on any
other error: a missing, unreadable or malformed file, an output that cannot be written,
too little memory (data, models and training are checked before they are held, against
Go's memory limit, which the command sets from the memory available unless GOMEMLIMIT
is set), an overflow. SIGINT and SIGTERM end it, leaving no file (during training, after
a line that says so), as they do by default, or, if it was started with SIGINT ignored,
as a shell without job control starts a command run with &, with the status 128 + the
signal's number that a shell gives: 130 for SIGINT. A run that SIGKILL ends as it writes
a file leaves a temporary file beside it, .NAME.HEX.tmp, which the next run that writes
the file removes, saying so.

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
		return demoCommand(nil, stdout, stderr)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, mainHelp)
		return nil
	case "demo":
		return demoCommand(args[1:], stdout, stderr)
	case "train":
		return trainCommand(args[1:], stdout, stderr)
	case "predict":
		return predictCommand(args[1:], stdout, stderr)
	case "eval":
		return evalCommand(args[1:], stdout, stderr)
	case "serve":
		return serveCommand(args[1:], stdout, stderr)
	}
	if strings.HasPrefix(args[0], "-") {
		return demoCommand(args, stdout, stderr)
	}
	hint := ""
	if near := nearest(args[0], []string{"demo", "train", "predict", "eval", "serve"}); near != "" {
		hint = fmt.Sprintf("; did you mean %s?", near)
	}
	return usagef("unknown command %s: want demo, train, predict, eval or serve%s", quote(args[0]), hint)
}
