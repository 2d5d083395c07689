// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/seed5ae3614e/perceptron/data"
)

// foldResult is what a classifier does over the folds.
type foldResult struct {
	name, kernel, rule string
	test               []float64 // the test accuracy of each fold
	epochs             int       // summed over the folds
	fit                time.Duration
}

// crossValidate fits and tests each of the classifiers names on the
// -folds folds of train, read with the CSV label column label, the steps
// before them fitted to the training rows of each fold, and prints the
// mean, the standard deviation and the range of their test accuracy.
func (j *job) crossValidate(names []string, train *dataset, label string, stdout, stderr io.Writer) error {
	n, d := train.X.Dims()
	if j.folds > n {
		return fmt.Errorf("%s: -folds %d, and the file has %s", train.name, j.folds, plural(n, "row"))
	}
	names, note := j.cheapOnes(names, costOf(train))
	weights, err := j.opts.describeWeights(train.classes, classCounts(train), true)
	weights += describeRowWeights(train, j.weights)
	if err != nil {
		return err
	}
	j.startProgress(stderr)
	rs := make([]*foldResult, len(names))
	for i := range j.folds {
		trs, tes, err := data.Fold(train.Set, j.folds, i, j.splitSeed)
		if err != nil {
			return fmt.Errorf("%s: %s", train.name, errText(err))
		}
		part := fmt.Sprintf("%s, among the rows of fold %d", train.part, i+1)
		tr := &dataset{name: train.name, format: train.format, Set: trs, classes: train.classes, part: part}
		te := &dataset{name: train.name, format: train.format, Set: tes, classes: train.classes, part: part}
		pipe, err := j.pipeline(tr, label)
		if err != nil {
			return err
		}
		for k, name := range names {
			r, err := fitOnly(name, &j.opts, pipe, tr)
			if err != nil {
				return err
			}
			if err := r.testOn(te, tr.classes, 1, 0, j.opts.progress, "the test rows"); err != nil {
				return err
			}
			if rs[k] == nil {
				rs[k] = &foldResult{name: name, kernel: kernelOf(r.model.Classifier), rule: ruleOf(r.model.Classifier)}
			}
			rs[k].test = append(rs[k].test, r.test)
			rs[k].epochs += r.stats.Epochs
			rs[k].fit += r.fit
		}
	}
	fmt.Fprintf(stdout, "%s: %s%s%s, in %d stratified folds drawn with -split-seed %d\n%s%s\n%s\n%sstopping %s\n%s",
		train.name, plural(n, "row"), nonZeros(train.X), leftOut(train), j.folds, j.splitSeed,
		plural(d, "feature"), j.describeSteps(train), train.classes.describe(), weights, j.opts.describeStop(n*(j.folds-1)/j.folds), note)
	rows := [][]string{{"classifier", "kernel", "prediction", "epochs", "test acc", "sd", "min", "max", "fit time"}}
	var each []string
	for _, r := range rs {
		mean, sd := meanSD(r.test)
		k := time.Duration(j.folds)
		rows = append(rows, []string{r.name, r.kernel, r.rule, fmt.Sprintf("%.1f", float64(r.epochs)/float64(j.folds)),
			percent(mean), percent(sd), percent(slices.Min(r.test)), percent(slices.Max(r.test)), duration(r.fit / k)})
		var accs []string
		for _, a := range r.test {
			accs = append(accs, percent(a))
		}
		each = append(each, fmt.Sprintf("%s: %s", r.name, strings.Join(accs, " ")))
	}
	if err := writeAligned(stdout, rows, 3); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "epochs, test acc and fit time are the means over the folds, and sd the standard deviation of the test accuracy over them\ntest accuracy of each fold:\n%s\n", strings.Join(each, "\n"))
	return err
}

// meanSD returns the mean and the standard deviation of x, as NumPy's
// mean and std compute them.
func meanSD(x []float64) (mean, sd float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		sd += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(sd / float64(len(x)))
}
