// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"net/http"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/data"
)

// probabilities returns the probabilities of the classes of each row of
// X, in the order of the model's Classes, as its Probabilities gives
// them, or an error if the model m has none: it has no calibration of its
// scores.
func probabilities(m *data.Model, X mat.Matrix) ([]float64, error) {
	if m.Calibration == nil {
		return nil, &httpError{http.StatusBadRequest, "the model has no calibrated probabilities of its classes, only scores: train it with -calibrate, or ask for scores=1 or k=N"}
	}
	return m.Probabilities(X)
}

// topK appends to dst the k classes of the greatest scores of a row of K
// classes, best first, as predict chooses the best: a tie goes to the
// first class, and of two classes, whose one score is the second's, a
// score of 0 to the second.
func topK(dst []int, scores []float64, K, k int) []int {
	if len(scores) == 1 {
		best := 0
		if scores[0] >= 0 {
			best = 1
		}
		return append(dst, best, 1-best)[:len(dst)+min(k, 2)]
	}
	start := len(dst)
	for range min(k, K) {
		best := -1
		for c, v := range scores {
			if (best < 0 || v > scores[best]) && !slices.Contains(dst[start:], c) {
				best = c
			}
		}
		dst = append(dst, best)
	}
	return dst
}

// classScore returns the score of the class c among the scores of a row:
// of two classes, the one score for the second and its negation for the
// first.
func classScore(scores []float64, c int) float64 {
	if len(scores) == 1 {
		if c == 1 {
			return scores[0]
		}
		return -scores[0]
	}
	return scores[c]
}
