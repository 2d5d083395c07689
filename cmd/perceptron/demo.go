// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/seed5ae3614e/perceptron/data"
)

// breastCancer is the Wisconsin breast cancer data; data/README.md says
// where it comes from and under which licence.
//
//go:embed data/breast_cancer.csv
var breastCancer []byte

const demoHelp = `Usage: perceptron [demo] [flags]

The demo trains every classifier on the Wisconsin breast cancer data (569
rows of 30 features; W. H. Wolberg, W. N. Street and O. L. Mangasarian, UCI
Machine Learning Repository, CC BY 4.0), which the command embeds, with
malignant tumours as +1 and benign ones as -1. It tests on a seeded random
quarter of the rows and trains on the rest, with the features standardised
on the training rows alone, and prints a table of the training and test
accuracy, the mistakes and epochs of training, whether it converged, and the
time it took. The kernel perceptron uses the Gaussian kernel (-kernel rbf)
and averaged prediction, as everywhere, unless -kernel and -prediction say
otherwise. Training stops early by the rule of -tol and -no-change, as
scikit-learn's Perceptron does, unless -no-stop.

Eval numbers the classes of a file in the order of their labels, so on the
demo's file, cmd/perceptron/data/breast_cancer.csv, whose label 0 is
malignant, it makes malignant -1; a perceptron does not treat its classes
alike (a score of 0, where every weight starts, predicts +1), so its
table differs. "perceptron eval -header -pos 0 -neg 1 -train-acc
cmd/perceptron/data/breast_cancer.csv" numbers them as the demo does and,
with -train-acc, which adds the training accuracy, prints the demo's
table.

Flags:
`

func demoCommand(args []string, stdout, stderr io.Writer) error {
	j := newJob()
	j.classifier = "all"
	j.opts.trainAcc = true
	fs := newFlagSet("demo")
	fs.Float64Var(&j.split, "split", 0.25, "the fraction of the rows of each class to test on")
	fs.Uint64Var(&j.splitSeed, "split-seed", 1, "the seed of the split (-seed seeds -shuffle)")
	j.trainFlags(fs, stderr, args)
	j.quietFlag(fs)
	files, err := parseArgs(fs, demoHelp, args, stdout)
	if err != nil {
		return err
	}
	stderr = j.errOut(stderr)
	names, pf, err := j.evalFlags(fs)
	if err != nil {
		return err
	}
	if len(files) > 0 {
		return usagef("demo: takes no file, got %s (eval reads your own data)", quote(files[0]))
	}
	if err := checkOutputs(j.outFiles(), nil); err != nil {
		return err
	}
	ds, err := cancerData()
	if err != nil {
		return err
	}
	trs, tes, err := data.Split(ds.Set, j.split, j.splitSeed)
	if err != nil {
		return fmt.Errorf("breast_cancer.csv: %s", errText(err))
	}
	train := &dataset{name: ds.name, Set: trs, classes: ds.classes, part: " among the training rows of the split"}
	test := &dataset{name: ds.name, Set: tes, classes: ds.classes, part: " among the test rows of the split"}
	n, d := ds.X.Dims()
	ntr, _ := train.X.Dims()
	how := strings.TrimPrefix(j.describeSteps(ds), ", ")
	if how == "" {
		how = "as they are"
	}
	weights, err := j.opts.describeWeights(train.classes, classCounts(train), false)
	if err != nil {
		return err
	}
	intro := fmt.Sprintf("Wisconsin breast cancer data (embedded): %d rows of %d features; +1 is malignant, -1 is benign.\n"+
		"Split seed %d: %d training rows, %d test rows; features %s.\n%sStopping %s.\n\n", n, d, j.splitSeed, ntr, n-ntr, how, weights, j.opts.describeStop(ntr))
	return j.evaluate(names, train, test, "target", pf, func() string { return intro }, false, stdout, stderr)
}

// cancerData returns the embedded breast cancer data, with malignant
// tumours, label 0, as +1 and benign ones, label 1, as -1.
func cancerData() (*dataset, error) {
	set, err := data.CSV{Header: true, Label: "target", Classes: []string{"1", "0"}}.Read(bytes.NewReader(breastCancer))
	if err != nil {
		return nil, fmt.Errorf("breast_cancer.csv: %v", err)
	}
	ds := &dataset{name: "breast_cancer.csv", format: "csv", Set: set, classes: &classSet{labels: []string{"1", "0"}, names: []string{"benign", "malignant"}, picked: true}}
	if err := ds.keepPicked(); err != nil {
		return nil, err
	}
	return ds, nil
}
