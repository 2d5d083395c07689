// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/seed5ae3614e/perceptron/data"
)

// stepFlags are the flags of the steps before the classifier that
// training fits: -standardize, -idf and -normalize, and the Hashing of
// text.
type stepFlags struct {
	standardize switchFlag
	idf         switchFlag
	normalize   switchFlag

	// ngrams and bits are the flags of the Hashing of text, and textSet
	// those of them that were set.
	ngrams, bits int
	textSet      []string
}

// standardizes reports whether the training rows, sparse or dense, are
// to be standardised: by default dense rows are, unless -idf weighs them,
// and sparse ones are not.
func (f *stepFlags) standardizes(sparse bool) bool {
	return f.standardize.or(!sparse && !f.idf.on)
}

// weighs reports whether the columns of the training rows, sparse or
// dense, are to be weighed by their inverse document frequency: by
// default sparse rows are, unless -standardize scales them, as
// scikit-learn's TfidfTransformer weighs them, and dense ones are not.
func (f *stepFlags) weighs(sparse bool) bool { return f.idf.or(sparse && !f.standardize.on) }

// normalizes reports whether each row, sparse or dense, is to be scaled
// to unit length: by default sparse rows are, as scikit-learn's
// TfidfTransformer scales them, and dense ones are not.
func (f *stepFlags) normalizes(sparse bool) bool { return f.normalize.or(sparse) }

// hashing returns the Hashing of text of the flags. It hashes counts, not
// scaled to unit length: the steps after it, -idf and -normalize, weigh
// and scale them, as scikit-learn's TfidfTransformer does after a
// HashingVectorizer of norm None.
func (f *stepFlags) hashing() data.Hashing {
	return data.Hashing{NGrams: f.ngrams, Bits: f.bits, NoNorm: true}
}

// pipeline returns the steps before the classifier that the flags ask
// for, fitted to the rows of train, read with the CSV label column label,
// as a data.Model without a classifier.
func (f *stepFlags) pipeline(train *dataset, label string) (*data.Model, error) {
	sparse := isSparse(train.X)
	pipe := f.steps(train.format, label, train.classes, sparse)
	var err error
	switch {
	case f.standardizes(sparse):
		pipe.Scaler, err = data.NewScaler(train.X)
	case f.weighs(sparse):
		pipe.Scaler, err = data.NewIDF(train.X)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s", train.name, errText(err))
	}
	return pipe, nil
}

// steps returns the steps before the classifier that the flags ask for,
// of training rows, sparse or not, of the format and the classes, read
// with the CSV label column label, as a data.Model without a classifier
// nor a Scaler.
func (f *stepFlags) steps(format, label string, classes *classSet, sparse bool) *data.Model {
	pipe := &data.Model{Normalize: f.normalizes(sparse)}
	switch format {
	case "csv":
		pipe.Label = label
	case "text":
		h := f.hashing()
		pipe.Hashing = &h
	}
	if !slices.Equal(classes.names, classes.labels) {
		pipe.Names = classes.names
	}
	return pipe
}

// steps describes the steps of the model m, loaded, before its
// classifier.
func steps(m *data.Model) string {
	scaled := ""
	switch {
	case m.Scaler != nil && m.Scaler.Mean != nil:
		scaled = "standardised"
	case m.Scaler != nil:
		scaled = "each feature weighed"
	}
	return describeHashing(m.Hashing, m.Features()) + describeSteps(scaled, m.Normalize)
}

// describeSteps describes the steps of the flags before a classifier of
// the rows of ds.
func (f *stepFlags) describeSteps(ds *dataset) string {
	_, d := ds.X.Dims()
	return f.describeStepsOf(ds.format, isSparse(ds.X), d)
}

// describeStepsOf describes the steps of the flags before a classifier of
// rows of the format, sparse or not, of d features.
func (f *stepFlags) describeStepsOf(format string, sparse bool, d int) string {
	scaled := ""
	switch {
	case f.standardizes(sparse) && sparse:
		scaled = "scaled on the training rows, not centred, as the rows are sparse"
	case f.standardizes(sparse):
		scaled = "standardised on the training rows"
	case f.weighs(sparse):
		scaled = "each feature weighed by its inverse document frequency on the training rows"
	}
	hashed := ""
	if format == "text" {
		h := f.hashing()
		hashed = describeHashing(&h, d)
	}
	return hashed + describeSteps(scaled, f.normalizes(sparse))
}

// describeHashing describes the Hashing h of text into d features, or
// returns "" if h is nil.
func describeHashing(h *data.Hashing, d int) string {
	if h == nil {
		return ""
	}
	grams := "the words"
	switch {
	case h.NGrams == 2:
		grams = "the words and the pairs of words"
	case h.NGrams > 2:
		grams = fmt.Sprintf("the n-grams of 1 to %d words", h.NGrams)
	}
	return fmt.Sprintf(", %s of each line hashed into 2^%d features", grams, bits.Len(uint(d))-1)
}

// describeSteps describes the steps before a classifier: how the features
// are scaled, if they are, and whether each row is scaled to unit length.
func describeSteps(scaled string, normalized bool) string {
	s := ""
	if scaled != "" {
		s = ", " + scaled
	}
	if normalized {
		s += ", each row scaled to unit length"
	}
	return s
}

// checkSteps returns a usage error if the flags of the steps before the
// classifier contradict each other.
func (f *stepFlags) checkSteps() error {
	if f.idf.on && f.standardize.on {
		return usagef("-idf and -standardize both scale the features: give one")
	}
	return nil
}
