// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"

	"github.com/seed5ae3614e/perceptron"
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
and averaged prediction here, unless -kernel and -prediction say otherwise.

Flags:
`

func demo(args []string, stdout, stderr io.Writer) error {
	j := &job{classifier: "all"}
	// The linear kernel would repeat the perceptron's row in dual form;
	// the Gaussian kernel, averaged, shows what a kernel adds.
	j.opts.kernel, j.opts.prediction = "rbf", perceptron.PredictAveraged
	fs := newFlagSet("demo")
	fs.Float64Var(&j.split, "split", 0.25, "the fraction of the rows to test on")
	j.trainFlags(fs, stderr)
	files, err := parseArgs(fs, demoHelp, args, stdout)
	if err != nil {
		return err
	}
	names, pf, err := j.evalFlags(fs)
	if err != nil {
		return err
	}
	if len(files) > 0 {
		return usagef("demo: takes no file, got %q (eval reads your own data)", files[0])
	}
	if err := checkOutputs(j.outFiles(), nil); err != nil {
		return err
	}
	spec := dataSpec{header: true, label: "target", labels: &labelSpec{pos: "0", neg: "1"}}
	ds, err := readCSV(bytes.NewReader(breastCancer), "breast_cancer.csv", spec, 0)
	if err != nil {
		return err
	}
	ds.classes = pickedClasses("malignant", "benign")
	train, test, err := split(ds, j.split, j.opts.seed)
	if err != nil {
		return err
	}
	n, d := ds.X.Dims()
	ntr, _ := train.X.Dims()
	how := "standardised on the training rows"
	if !j.standardize.of(ds.X) {
		how = "as they are"
	}
	intro := fmt.Sprintf("Wisconsin breast cancer data (embedded): %d rows of %d features; +1 is malignant, -1 is benign.\n"+
		"Seed %d: %d training rows, %d test rows; features %s.\n\n", n, d, j.opts.seed, ntr, n-ntr, how)
	return j.evaluate(names, train, test, pf, intro, false, stdout, stderr)
}
