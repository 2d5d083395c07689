// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"

	"github.com/seed5ae3614e/perceptron/data"
)

// uncalibrated returns the error of -k or -threshold on the model of the
// file path, which has no calibration.
func uncalibrated(path string) error {
	return fmt.Errorf("%s: the model has no calibration of the probabilities of its classes, by which -k and -threshold rank them: train it with -calibrate K", path)
}

// calibrate returns the Calibration of the model of the classifier
// name that fitModel trains on train with the options o and the steps of
// steps, read with the CSV label column label, fitted to the scores of the
// rows of each of folds (-calibrate) stratified folds of train, drawn from
// o's seed, by the classifier trained as the model is, steps and all, on
// the rows of the other folds: out-of-fold scores of
// every row, as scikit-learn's cross_val_predict gives
// CalibratedClassifierCV's ensemble=False. The rows of train must be as
// they were read, not yet scaled where they are by a fit: it is called
// before the model's. It returns an error if a class has fewer rows than
// the folds, as scikit-learn does.
func calibrate(name string, train *dataset, label string, folds int, o *options, steps *stepFlags) (*data.Calibration, error) {
	if train.scaled != nil {
		panic("perceptron: calibrating on rows that a fit has scaled in place")
	}
	K := len(train.classes.labels)
	count := make([]int, K)
	for _, c := range train.Y {
		count[int(c)]++
	}
	for k, n := range count {
		if n < folds {
			return nil, fmt.Errorf("%s: -calibrate %d: the class %s has %s, fewer than the folds", train.name, folds, quote(train.classes.names[k]), plural(n, "row"))
		}
	}
	var scores, y []float64
	for i := range folds {
		tr, te, err := data.Fold(train.Set, folds, i, o.seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", train.name, errText(err))
		}
		part := fmt.Sprintf("%s, among the rows of calibration fold %d", train.part, i+1)
		trd := &dataset{name: train.name, format: train.format, Set: tr, classes: train.classes, part: part}
		ted := &dataset{name: train.name, format: train.format, Set: te, classes: train.classes, part: part}
		pipe, err := steps.pipeline(trd, label)
		if err != nil {
			return nil, err
		}
		fr, err := fitOnly(name, o, pipe, trd)
		if err != nil {
			return nil, err
		}
		_, s, err := classify(fr.model, ted, o.progress, fmt.Sprintf("the held-out rows of calibration fold %d of %d", i+1, folds), true)
		if err != nil {
			return nil, err
		}
		scores, y = append(scores, s...), append(y, te.Y...)
	}
	c := &data.Calibration{}
	if err := c.Fit(scores, y, K); err != nil {
		return nil, fmt.Errorf("%s: calibrating %s: %s", train.name, name, errText(err))
	}
	return c, nil
}

// describeCalibration says how the Calibration c makes the probabilities.
func describeCalibration(c *data.Calibration) string {
	switch {
	case len(c.A) == 1:
		return "Platt's sigmoid of the score"
	case c.OneVsRest:
		return "the sigmoid of the score of each class against the rest, normalised"
	}
	return "the softmax of a slope and an intercept for the score of each class"
}
