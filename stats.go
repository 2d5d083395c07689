// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"slices"
)

// What a classifier reports of its training: Stats, and Update for
// OnUpdate; and the most visits and mistakes that a model counts.

// Stats describes the training of a classifier: the run of its last
// successful Fit, or its rounds of Mix, an epoch each, and the visits of
// every Learn since.
type Stats struct {
	// Epochs is the number of passes over the data that Fit made.
	Epochs int

	// Converged reports whether Fit's last epoch made no mistake: the last
	// weights of the run separate the training data.
	Converged bool

	// Mistakes is the number of mistakes, which is the number of updates,
	// of Fit and of every Learn since.
	Mistakes int

	// EpochMistakes holds the number of mistakes in each of Fit's epochs.
	EpochMistakes []int

	// EpochLoss holds the training loss of each of Fit's epochs, as Stop
	// defines it, or is nil after Mix, and EpochAccuracy, with Stop's
	// Validation, the accuracy on the rows held out after each.
	EpochLoss, EpochAccuracy []float64
}

func (s Stats) clone() Stats {
	s.EpochMistakes = slices.Clone(s.EpochMistakes)
	s.EpochLoss, s.EpochAccuracy = slices.Clone(s.EpochLoss), slices.Clone(s.EpochAccuracy)
	return s
}

// Update describes one update of a training run to an OnUpdate callback.
type Update struct {
	// Epoch is the epoch of the update, from 1, or 0 for Learn.
	Epoch int

	// Row is the index in X of the row that was a mistake.
	Row int

	// Weights and Biases are those of the running perceptron after the
	// update, laid out as Weights lays them out, or for Kernel the biases
	// alone. The callback must not modify or retain them.
	Weights []float64
	Biases  []float64
}

// maxCount is the most visits or mistakes a model counts: 2^53, the
// largest count that a float64 holds exactly, as the averaged rules
// multiply by it, or the largest int where it is smaller.
const maxCount = min(1<<53, math.MaxInt)

// addCount returns a+b, or an error if it exceeds maxCount.
func addCount(a, b int) (int, error) {
	if a > maxCount-b {
		return 0, errorf(ErrTooLarge, "perceptron: the model has made %d visits, and %d more would pass 2^53, the most it counts exactly", a, b)
	}
	return a + b, nil
}

// errTooManyVisits returns the error of a run whose visits would pass
// maxCount.
func errTooManyVisits(epochs, n int) error {
	return errorf(ErrTooLarge, "perceptron: %d epochs of %d rows pass 2^53 visits, the most a model counts exactly", epochs, n)
}
