// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/seed5ae3614e/perceptron/data"
)

// learnFlags are the flags of train that go with -model.
var learnFlags = []string{"model", "o", "format", "header", "delimiter", "label", "progress", "q", "weights"}

// learnMore trains the saved model -model further on the rows of the one
// file in files, each row once, as the classifier's Learn visits them, and
// saves it to -o.
func (j *job) learnMore(fs *flag.FlagSet, files []string, stdout, stderr io.Writer) error {
	if err := onlyFlags(fs, learnFlags, "train -model goes on training a saved model"); err != nil {
		return err
	}
	switch {
	case len(files) != 1:
		return usagef("train -model: want one data file, got %d (see perceptron train -h)", len(files))
	case j.out == "":
		return usagef("train -model: -o FILE is required: where to save the model, which may be -model's file")
	}
	spec, err := j.spec(false)
	if err != nil {
		return err
	}
	spec.weights = j.weights
	if spec.label == "none" {
		return usagef("train -model: -label none: training needs the labels")
	}
	// The model is read before it is written: -o may name its file.
	if err := checkOutputs(j.outFiles(), inputFiles(files[0], spec)); err != nil {
		return err
	}
	m, err := data.LoadModel(j.model)
	if err != nil {
		return err
	}
	ds, err := readForModel(files[0], spec, m, stderr)
	if err != nil {
		return err
	}
	if ds.Y == nil {
		return fmt.Errorf("%s: the rows have no labels to train on", ds.name)
	}
	if len(ds.Classes) > len(m.Classes) {
		return fmt.Errorf("%s: the label %s is no class of the model %s: train -model goes on with the model's classes, %s",
			ds.name, quote(ds.Classes[len(m.Classes)]), j.model, quoteAll(m.Classes, 20))
	}
	name := typeName(m.Classifier)
	before := statsOf(m.Classifier)
	start := time.Now()
	ctx, stop := catchTraining()
	err = stop(m.LearnContext(ctx, ds.Set))
	if errors.As(err, new(stopped)) {
		return err
	}
	if err != nil {
		if strings.HasSuffix(name, "pocket") {
			return fmt.Errorf("-model %s: %s learns only from the start, as train without -model trains it", j.model, article(name)+" "+name+" model")
		}
		return fmt.Errorf("%s: training the model further: %s", ds.name, errText(err))
	}
	elapsed := time.Since(start)
	mistakes := statsOf(m.Classifier).Mistakes - before.Mistakes
	j.startProgress(stderr)
	pred, _, err := classify(m, ds, j.opts.progress, "the training rows", false)
	if err != nil {
		return err
	}
	if err := writeFiles(stderr, outFile{"-o", j.out, modelWriter(m, j.out)}); err != nil {
		return err
	}
	if m.Calibration != nil {
		fmt.Fprintf(stderr, "perceptron: note: the model keeps its calibration, fitted to its scores before this training; train -calibrate fits one anew\n")
	}
	n, _ := ds.X.Dims()
	fmt.Fprintf(stdout, "%s: %s%s; %s\n%s", ds.name, plural(n, "row"), nonZeros(ds.X), ds.classes.describe(), describeRowWeights(ds, j.weights))
	fmt.Fprintf(stdout, "trained %s %s model of %s further on each row once, as Learn visits them: %s in %v; training accuracy %s\n",
		article(name), name, plural(m.Features(), "feature"), plural(mistakes, "mistake"), duration(elapsed), percent(data.Accuracy(ds.Y, pred)))
	_, err = fmt.Fprintf(stdout, "saved the model to %s\n", j.out)
	return err
}
