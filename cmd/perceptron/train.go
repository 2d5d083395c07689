// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/seed5ae3614e/perceptron/data"
)

const trainHelp = `Usage: perceptron train [flags] FILE

Train fits one classifier on the rows of FILE and saves it to the file that
-o names, in the binary form of a model file, or in its JSON form, to read,
if the name ends in .json or .json.gz, gzipped if it ends in .gz: a model
file, which holds the classifier (what its predictions read, or with
-resumable also what training it further reads), the steps before it
(the hashing of text, the standardisation or the weights of the
features, and the scaling of each row to unit length), and the labels, the names and the label column of the classes,
and which a Go program loads whole with data.LoadModel. The classifier is
the averaged perceptron unless -classifier names another. Lines of text
become rows of the words and the pairs of words of each line (-ngrams),
hashed into 2^19 features (-bits). It prints the training statistics and
accuracy, unless predicting the training rows would take longer than
training, as for a voted perceptron of many mistakes. The classes are the labels of FILE, two
or more, or the two that -pos and -neg pick. Training stops early by the
rule of -tol and -no-change, as scikit-learn's Perceptron does, unless
-no-stop. -weights FILE weighs the rows: one number a line of FILE for each
row of the data file, in its order, as the weighted builds of LIBSVM and
LIBLINEAR read them (-W); a mistake on a row steps by its weight.

With -model, train goes on training a model that train -resumable saved,
on the rows of FILE, read as the model reads them, with its classes, label column and
steps before the classifier: it visits each row once, in the order of the
file, as the classifier's Learn does, and saves the model to -o, which may
be the model's own file, as Vowpal Wabbit's -i and -f do. A file read a
block at a time it learns a block at a time. The perceptron,
averaged, voted and kernel models learn so, and the ovr: models of them;
the pocket's learn only from the start. A calibrated model keeps its
calibration.

With -calibrate K, train also fits the probabilities of the classes, which
predict -k and eval give: it trains the classifier as it trains the model
on the rows of all but one of K stratified folds of FILE, drawn from -seed,
for each fold, and fits the probabilities to the scores of the rows of the
fold left out, so that each row is scored by a classifier that did not
train on it, as scikit-learn's CalibratedClassifierCV(ensemble=False)
does; the model itself trains on all the rows. Of two classes, the
probability is Platt's sigmoid of the score; of more, the softmax of a
slope and an intercept for each class's score, fitted together. Folds, not
rows held out, let every row train the model and every row calibrate it,
at the cost of K more trainings.

Before it allocates the model, train estimates the memory that fitting and
saving it take, and refuses, with exit status 1 and the figures, what does
not fit in the memory available. The pocket's cost grows as the square of
the rows: on tens of thousands of rows it takes long, -ratchet less.

A file whose rows would take more than half the memory left, as the size
of the file, or of the text of its gzip, tells, or as its reader finds
reading it whole, train reads a block of rows at a time, and again for
each epoch, in memory independent of its rows; -stream reads any file so,
and -stream=false none. A first pass counts the rows of each class and
fits the steps before the classifier; the averaged perceptron keeps, from
epoch to epoch, a number for each class of each row of a mistake, in a
file beside -o's that it removes. In the order of the file
(-shuffle=false), the model is the one of the file read whole, bit for
bit; -shuffle shuffles the rows of each chunk of 2^20 values (some 10,000
rows of text) within the chunk, in every epoch, where on the rows read
whole it shuffles them all: a file in an order that is not random, sorted
by class say, is best shuffled once before (shuf). The pocket and the kernel perceptron train on
rows in memory, as -calibrate, -validation and -plot do, and standard
input is read once.

Examples:
  perceptron train -header -pos 0 -neg 1 -o cancer.json cmd/perceptron/data/breast_cancer.csv
  perceptron train -o fashion.model \
    /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz
  perceptron train -classes debian-sections.classes.txt \
    -o debian.model debian-sections.train.svm.gz
  perceptron train -classifier ovr:averaged -o debian-ovr.model.gz debian-sections.train.svm.gz
  perceptron train -o topics.model headlines.txt        (lines of __label__TOPIC text)
  perceptron train -resumable -model debian.model -o debian.model more-packages.svm
  perceptron train -calibrate 5 -o topics.model headlines.txt  (then predict -k 3)

Exit status: 0 on success, 2 on a usage error, 1 on any other.

Flags:
`

func trainCommand(args []string, stdout, stderr io.Writer) error {
	j := newJob()
	j.classifier = defaultClassifier
	j.opts.trainAcc = true
	fs := newFlagSet("train")
	fs.StringVar(&j.classifier, "classifier", defaultClassifier, "the classifier: "+classifierNames())
	fs.StringVar(&j.out, "o", "", "save the model to `FILE` (required)")
	fs.StringVar(&j.model, "model", "", "go on training the model `FILE` that train -resumable saved on the rows of FILE, with its classes and steps, visiting each row once, and save it to -o, which may be FILE")
	fs.BoolVar(&j.resumable, "resumable", false, "save what training further needs too, for train -model and serve -learn: the averaged perceptron's running weights beside their sums, which double its file; without it the file holds what prediction reads. A model that train -model trained further holds them either way: after a Learn its predictions read them too")
	j.dataFlags(fs, true)
	j.weightsFlag(fs)
	j.trainFlags(fs, stderr, args)
	j.calibrateFlag(fs)
	j.streamFlag(fs, "FILE")
	j.textFlags(fs)
	files, err := parseArgs(fs, trainHelp, args, stdout)
	if err != nil {
		return err
	}
	stderr = j.errOut(stderr)
	if j.model != "" {
		return j.learnMore(fs, files, stdout, stderr)
	}
	if _, ok := newModel(j.classifier, &options{}); !ok {
		return usagef("-classifier %s: want one of %s", quote(j.classifier), classifierNames())
	}
	if err := j.opts.check(fs, []string{j.classifier}); err != nil {
		return err
	}
	if err := j.opts.checkValues(fs); err != nil {
		return err
	}
	if err := j.checkSteps(); err != nil {
		return err
	}
	if err := j.checkText(fs); err != nil {
		return err
	}
	if _, err := j.checkTop(fs); err != nil {
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
	ds, err := inMemory(files[0], spec, j.stream, stderr)
	switch {
	case err != nil:
		return err
	case ds == nil:
		return j.trainStream(files[0], spec, !j.stream.set, stdout, stderr)
	}
	n, d := ds.X.Dims()
	shape := fmt.Sprintf("%s, %s%s%s", plural(n, "row"), plural(d, "feature"), nonZeros(ds.X), leftOut(ds))
	var raw *dataset
	if pf != "" {
		raw = plotRows(ds)
	}
	pipe, err := j.pipeline(ds, spec.label)
	if err != nil {
		return err
	}
	if baseName(j.classifier) == "pocket" && costOf(ds) > cheapCost {
		what := "after every update: this takes long (-ratchet less; averaged is fast)"
		if j.opts.ratchet {
			what = "for every weight vector whose run beats the pocket's: this takes long (averaged is fast)"
		}
		fmt.Fprintf(stderr, "perceptron: the pocket counts the mistakes of all %s %s\n", plural(n, "row"), what)
	}
	weights, err := j.opts.describeWeights(ds.classes, classCounts(ds), false)
	if err != nil {
		return err
	}
	weights += describeRowWeights(ds, j.weights)
	j.startProgress(stderr)
	// The folds of the calibration are of the rows as read, before the
	// model's fit scales them where they are.
	var calibration *data.Calibration
	if j.calibrate > 0 {
		if calibration, err = calibrate(j.classifier, ds, spec.label, j.calibrate, &j.opts, &j.stepFlags); err != nil {
			return err
		}
	}
	r, err := fitModel(j.classifier, &j.opts, pipe, ds)
	if err != nil {
		return err
	}
	calibrated := ""
	if calibration != nil {
		r.model.Calibration = calibration
		calibrated = fmt.Sprintf("calibrated the probabilities of the classes on the scores of the rows of each of %d folds by the classifier trained on the others: %s\n",
			j.calibrate, describeCalibration(r.model.Calibration))
	}
	described := fmt.Sprintf("%s: %s%s; %s\n%sstopping %s\n", ds.name, shape, j.describeSteps(ds), ds.classes.describe(), weights, j.opts.describeStop(n))
	// The rows have played their part: their memory goes back to the
	// system before the model's file is written.
	ds.X = nil
	debug.FreeOSMemory()
	if err := forSaving(r.model, j.resumable); err != nil {
		return err
	}
	outs := []outFile{{"-o", j.out, modelWriter(r.model, j.out)}}
	if pf != "" {
		img, err := drawPlot(pf, raw, []*result{r}, ds.classes)
		if err != nil {
			return err
		}
		outs = append(outs, outFile{"-plot", j.plot, bytesOut(img)})
	}
	if err := writeFiles(stderr, outs...); err != nil {
		return err
	}
	fmt.Fprint(stdout, described)
	if err := writeTable(stdout, []*result{r}); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "%ssaved the model to %s\n", calibrated, j.out); err != nil {
		return err
	}
	return j.wrotePlot(stdout)
}
