// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"cmp"
	"fmt"
	"io"
	"iter"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/seed5ae3614e/perceptron/data"
)

// Training on a stream: a training file whose rows would not fit in
// memory, or any with -stream, is read a block of rows at a time, and
// again for every epoch, by data.Model's FitStream. A first pass counts
// the rows of each class, their features and their non-zeros, and fits
// the steps before the classifier to them; the classes are those that the
// file read whole would have, sorted as data.SortClasses sorts them, by
// which the passes of training read the labels. In the order of the file,
// with -shuffle=false, the model is the one that training in memory
// makes, bit for bit; -shuffle shuffles each chunk of rows within itself.

// trainRows are the training rows of a file read as a stream: what its
// first pass counted and fitted, and the stream that reads them again,
// with their classes, the rows of other labels than -pos and -neg left
// out.
type trainRows struct {
	*stream
	classes *classSet
	count   []int // the rows of each class
	d       int   // the features
	scaler  *data.Scaler
}

// refuseStream returns an error if the flags ask for what training on a
// stream does not do, for the classifiers names; auto says that the
// command chose to read the file at path as a stream, which -stream did
// not ask for.
func (j *job) refuseStream(path string, names []string, auto bool) error {
	why := ""
	switch {
	case path == "-":
		why = "standard input, which is read once, where training reads the rows again for each epoch: give a file"
	case j.calibrate > 0:
		why = "-calibrate, whose folds are rows held in memory"
	case j.plot != "":
		why = "-plot, which draws the rows held in memory"
	case j.opts.validation > 0:
		why = "-validation, whose rows are held out in memory: stop by -tol and -no-change"
	case j.folds > 0:
		why = "-folds, whose folds are rows held in memory"
	}
	for _, name := range names {
		if b := baseName(name); why == "" && (b == "pocket" || b == "kernel") {
			why = fmt.Sprintf("-classifier %s, which trains on rows in memory", name)
		}
	}
	switch {
	case why == "":
		return nil
	case auto:
		return fmt.Errorf("%s: its rows do not fit in memory, and are read a block at a time, which takes no %s", path, why)
	}
	return usagef("-stream reads the rows a block at a time, which takes no %s", why)
}

// streamTraining opens the training file at path as a stream, read as
// spec says, and takes its first pass.
func (j *job) streamTraining(path string, spec readSpec) (*trainRows, error) {
	s, err := openStream(path, spec)
	if err != nil {
		return nil, err
	}
	defer s.close()
	t := &trainRows{}
	sparse := s.format == "libsvm" || s.format == "text"
	cols := 0
	if s.format == "text" {
		cols = 1 << spec.hashing.Bits
	}
	var labels []string
	var count []int
	// The first pass: the steps are fitted to the rows of -pos and -neg,
	// of the columns of all the rows, which may take a second pass.
	pass := func(cols int) (scaler *data.Scaler, d int, err error) {
		labels, count, s.n, s.nnz, s.left = nil, nil, 0, 0, 0
		rows := func(yield func(data.Row, error) bool) {
			for row, err := range s.each() {
				if err == nil && row.Class < 0 {
					err = fmt.Errorf("%s: the rows have no labels to train on", s.name)
				}
				if err != nil {
					yield(row, err)
					return
				}
				for len(count) <= row.Class {
					count = append(count, 0)
				}
				count[row.Class]++
				labels = row.Classes
				if k := len(row.Ind); k > 0 {
					d = max(d, row.Ind[k-1]+1)
				} else if row.Ind == nil {
					d = len(row.Val)
				}
				if spec.pos != "" && row.Class >= 2 {
					s.left++
					continue
				}
				s.n++
				s.nnz += len(row.Val)
				if !yield(row, nil) {
					return
				}
			}
		}
		switch {
		case j.standardizes(sparse):
			scaler, err = data.NewScalerRows(rows, cols)
		case j.weighs(sparse):
			scaler, err = data.NewIDFRows(rows, cols)
		default:
			for _, e := range rows {
				if err = e; err != nil {
					break
				}
			}
		}
		return scaler, d, err
	}
	if t.scaler, t.d, err = pass(cols); err == nil && t.scaler != nil && len(t.scaler.Scale) < t.d {
		t.scaler, t.d, err = pass(t.d)
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), s.name+": ") {
			err = fmt.Errorf("%s: %s", s.name, errText(err))
		}
		return nil, err
	}
	t.d = max(t.d, cols)
	if s.known == nil {
		// As Read sorts them, which the passes of training read them by.
		var class []int
		if labels, class, err = data.SortClasses(labels); err != nil {
			return nil, fmt.Errorf("%s: %s", s.name, errText(err))
		}
		sorted := make([]int, len(labels))
		for k, c := range class {
			sorted[c] += count[k]
		}
		count = sorted
	}
	for len(count) < len(labels) {
		count = append(count, 0)
	}
	if t.classes, err = classesOf(spec, s.name, s.format, labels, count); err != nil {
		return nil, err
	}
	t.count = count[:len(t.classes.labels)]
	spec.known, spec.width = t.classes, t.d
	if t.stream, err = openStream(path, spec); err != nil {
		return nil, err
	}
	t.n, t.nnz, t.left = s.n, s.nnz, s.left
	return t, nil
}

// rows returns the training rows, with their weights if -weights gives
// them, for data.Model's FitStream.
func (t *trainRows) rows() iter.Seq2[data.Row, error] {
	return func(yield func(data.Row, error) bool) {
		for row, err := range t.each() {
			if err == nil && t.classes.picked && row.Class >= 2 {
				continue
			}
			if !yield(row, err) || err != nil {
				return
			}
		}
	}
}

// fitStream trains the classifier called name on the rows of t, with the
// steps of pipe before it, as fitModel trains it on rows in memory, its
// averaged perceptron keeping its shares of the rows in the directory dir.
func (j *job) fitStream(name string, t *trainRows, pipe *data.Model, dir string) (*result, error) {
	o := &j.opts
	c, err := o.classifier(name, t.classes, t.count)
	if err != nil {
		return nil, err
	}
	limit := cmp.Or(o.epochs, defaultEpochs)
	if o.progress != nil {
		o.progress.begin(name, limit, t.n, !o.shuffle, o.describeStop(t.n))
	}
	m := *pipe
	m.Classifier = c
	ctx, stop := catchTraining()
	start := time.Now()
	err = stop(m.FitStream(ctx, data.Stream{Rows: t.rows(), Weighted: t.spec.weights != "", Dir: dir}))
	r := &result{name: name, model: &m, limit: limit, fit: time.Since(start), train: math.NaN(), test: math.NaN()}
	if err := r.trained(o, t.name, err); err != nil {
		return nil, err
	}
	if !o.trainAcc {
		return r, nil
	}
	perRow := float64(t.nnz) / float64(max(t.n, 1))
	if cost := predictCost(c, t.n, perRow, len(t.classes.labels)); cost > trainAccuracyCost {
		r.note = noTrainAccuracy(name, cost)
		return r, nil
	}
	acc := &result{model: &m}
	if err := acc.testOn(t.stream, t.classes, 1, 0, o.progress, "the training rows"); err != nil {
		return nil, err
	}
	r.train = acc.test
	return r, nil
}

// trainStream is train on the rows of the file at path as a stream: of
// -stream, or, if auto is set, of a file whose rows would not fit in
// memory.
func (j *job) trainStream(path string, spec readSpec, auto bool, stdout, stderr io.Writer) error {
	if err := j.refuseStream(path, []string{j.classifier}, auto); err != nil {
		return err
	}
	t, err := j.streamTraining(path, spec)
	if err != nil {
		return err
	}
	defer t.close()
	sparse := t.format == "libsvm" || t.format == "text"
	pipe := j.steps(t.format, spec.label, t.classes, sparse)
	pipe.Scaler = t.scaler
	weights, err := j.opts.describeWeights(t.classes, t.count, false)
	if err != nil {
		return err
	}
	j.startProgress(stderr)
	r, err := j.fitStream(j.classifier, t, pipe, dirOf(j.out))
	if err != nil {
		return err
	}
	if err := forSaving(r.model, j.resumable); err != nil {
		return err
	}
	if err := writeFiles(stderr, outFile{"-o", j.out, modelWriter(r.model, j.out)}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s%s, read a block at a time; %s\n%s%sstopping %s\n", t.name, t.describe(sparse), j.describeStepsOf(t.format, sparse, t.d), t.classes.describe(),
		weights, describeRowWeightsOf(j.weights), j.opts.describeStop(t.n))
	if err := writeTable(stdout, []*result{r}); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "saved the model to %s\n", j.out)
	return err
}

// describe describes the rows of t: their number, features, non-zeros,
// the rows left out, and the steps before the classifier.
func (t *trainRows) describe(sparse bool) string {
	nz := ""
	if sparse {
		nz = nonZerosOf(t.nnz, t.n, t.d)
	}
	return fmt.Sprintf("%s, %s%s%s", plural(t.n, "row"), plural(t.d, "feature"), nz, leftOf(t.left))
}

// dirOf returns the directory of the file that the path names, through
// its links, where the averaged perceptron keeps its shares of the rows
// of a stream: beside the file that training writes.
func dirOf(path string) string {
	if t, err := target(path); err == nil {
		path = t
	}
	return filepath.Dir(path)
}

// evalStream is eval of the classifiers names on the rows of the file
// train as a stream, and tested on the file test.
func (j *job) evalStream(names []string, train, test string, spec readSpec, auto bool, stdout, stderr io.Writer) error {
	note := ""
	if j.classifier == "all" {
		names = slices.DeleteFunc(names, func(n string) bool { return n == "pocket" || n == "kernel" })
		note = "pocket and kernel left out: they train on rows in memory\n"
	}
	if err := j.refuseStream(train, names, auto); err != nil {
		return err
	}
	if test == "" {
		if auto {
			return fmt.Errorf("%s: its rows do not fit in memory, and are read a block at a time: name a TEST file to test on, where a split of TRAIN would hold its rows", train)
		}
		return usagef("-stream reads TRAIN a block at a time: name a TEST file to test on, where a split of TRAIN would hold its rows")
	}
	t, err := j.streamTraining(train, spec)
	if err != nil {
		return err
	}
	defer t.close()
	sparse := t.format == "libsvm" || t.format == "text"
	tspec := spec
	tspec.known, tspec.weights, tspec.width = t.classes, "", t.d
	if t.format == "text" {
		tspec.format = "text"
	} else {
		tspec.hashing = nil
	}
	rows, err := testRows(test, tspec, j.stream, stderr)
	if err != nil {
		return err
	}
	if s, ok := rows.(*stream); ok {
		defer s.close()
	}
	pipe := j.steps(t.format, spec.label, t.classes, sparse)
	pipe.Scaler = t.scaler
	weights, err := j.opts.describeWeights(t.classes, t.count, false)
	if err != nil {
		return err
	}
	perRow := float64(t.nnz) / float64(max(t.n, 1))
	names, cheap := j.cheapOnes(names, quadraticCost(t.n, perRow, len(t.classes.labels)))
	note += cheap
	j.startProgress(stderr)
	var rs []*result
	for k, name := range names {
		r, err := j.fitStream(name, t, pipe, os.TempDir())
		if err != nil {
			return err
		}
		if err := r.testOn(rows, t.classes, 1, 0, j.opts.progress, "the test rows"); err != nil {
			return err
		}
		if s, ok := rows.(*stream); ok && k == 0 {
			s.notes(stderr)
		}
		rs = append(rs, r)
	}
	fmt.Fprintf(stdout, "%s: %s%s%s, read a block at a time\n%s\n%s%s\n%s\n%s%sstopping %s\n%s",
		t.name, plural(t.n, "training row"), nzOf(t, sparse), leftOf(t.left), describeRows(rows, "test row"),
		plural(t.d, "feature"), j.describeStepsOf(t.format, sparse, t.d), t.classes.describe(),
		weights, describeRowWeightsOf(j.weights), j.opts.describeStop(t.n), note)
	if err := writeTable(stdout, rs); err != nil {
		return err
	}
	return writeReports(stdout, rs)
}

// nzOf describes the non-zeros of the rows of t, if they are sparse.
func nzOf(t *trainRows, sparse bool) string {
	if !sparse {
		return ""
	}
	return nonZerosOf(t.nnz, t.n, t.d)
}
