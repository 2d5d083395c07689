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

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// learnFlags are the flags of train that go with -model.
var learnFlags = []string{"model", "o", "resumable", "format", "header", "delimiter", "label", "progress", "q", "weights", "stream"}

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
	m, err := loadModel(j.model, files[0], spec)
	if err != nil {
		return err
	}
	if spec, err = modelSpec(spec, m); err != nil {
		return err
	}
	var rows rowBlocks
	ds, err := inMemory(files[0], spec, j.stream, stderr)
	switch {
	case err != nil:
		return err
	case ds != nil:
		dropped(stderr, ds.name, ds.Dropped, spec.width)
		if err := m.CheckRows(ds.X); err != nil {
			fmt.Fprintf(stderr, "perceptron: warning: %s: %v\n", ds.name, err)
		}
		rows = ds
	default:
		s, err := openStream(files[0], spec)
		if err != nil {
			return err
		}
		defer s.close()
		s.check, s.warn = m.CheckRows, stderr
		rows = s
	}
	name := typeName(m.Classifier)
	before := statsOf(m.Classifier)
	start := time.Now()
	ctx, stop := catchTraining()
	err = stop(rows.blocks(data.BlockRows, func(b *dataset) error {
		switch {
		case b.Y == nil:
			return fmt.Errorf("%s: the rows have no labels to train on", b.name)
		case len(b.Classes) > len(m.Classes):
			return fmt.Errorf("%s: the label %s is no class of the model %s: train -model goes on with the model's classes, %s",
				b.name, quote(b.Classes[len(m.Classes)]), j.model, quoteAll(m.Classes, 20))
		}
		if err := m.LearnContext(ctx, b.Set); err != nil {
			if strings.HasSuffix(name, "pocket") {
				return fmt.Errorf("-model %s: %s learns only from the start, as train without -model trains it", j.model, article(name)+" "+name+" model")
			}
			if errors.Is(err, perceptron.ErrNotFitted) {
				return fmt.Errorf("-model %s holds what prediction reads alone, not the running weights that training goes on from: train it with -resumable", j.model)
			}
			return fmt.Errorf("%s: training the model further: %s", b.name, renumber(errText(err), b.first))
		}
		return nil
	}))
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	mistakes := statsOf(m.Classifier).Mistakes - before.Mistakes
	j.startProgress(stderr)
	acc := &result{model: m}
	if err := acc.testOn(rows, spec.known, 1, 0, j.opts.progress, "the training rows"); err != nil {
		return err
	}
	if err := forSaving(m, j.resumable); err != nil {
		return err
	}
	if err := writeFiles(stderr, outFile{"-o", j.out, modelWriter(m, j.out)}); err != nil {
		return err
	}
	if m.Calibration != nil {
		fmt.Fprintf(stderr, "perceptron: note: the model keeps its calibration, fitted to its scores before this training; train -calibrate fits one anew\n")
	}
	how := ""
	if s, ok := rows.(*stream); ok {
		s.notes(stderr)
		how = ", read a block at a time"
	}
	fmt.Fprintf(stdout, "%s%s; %s\n%s", describeRows(rows, "row"), how, spec.known.describe(), rowWeights(rows, j.weights))
	fmt.Fprintf(stdout, "trained %s %s model of %s further on each row once, as Learn visits them: %s in %v; training accuracy %s\n",
		article(name), name, plural(m.Features(), "feature"), plural(mistakes, "mistake"), duration(elapsed), percent(acc.test))
	_, err = fmt.Fprintf(stdout, "saved the model to %s\n", j.out)
	return err
}
