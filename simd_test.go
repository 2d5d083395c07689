// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/synth"
)

// TestScoreRowsOneAtATime checks that the scores and classes of many
// dense rows, whose dot products are taken several rows at once, are
// those of each row scored alone, to the bit, for the models of one
// score, on rows of a view whose stride is not their length.
func TestScoreRowsOneAtATime(t *testing.T) {
	for _, d := range []int{1, 3, 4, 9, 100} {
		X, y := synth.Data(700, d+3)
		V := X.Slice(0, 700, 1, d+1) // rows that start off the vector lanes
		averaged := &Averaged{Epochs: 3}
		learned := &Averaged{Labels: []float64{-1, 1}} // its sum is ahead of its running weights
		for _, m := range []Scorer{&Perceptron{Epochs: 3}, &Pocket{Epochs: 3}, averaged, learned} {
			var err error
			if m == learned {
				err = learned.Learn(V, y)
			} else {
				err = m.Fit(V, y)
			}
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%T d=%d", m, d)
			scores, classes := m.ScoreRows(nil, V), m.PredictRows(nil, V)
			for i := range 700 {
				x := mat.Row(nil, i, V)
				if s := rowScores(m, x); !sameBits(s, scores[i:i+1]) {
					t.Fatalf("%s row %d: ScoreRows gives %v, the row alone %v", name, i, scores[i], s[0])
				}
				if c := m.Predict(x); c != classes[i] {
					t.Fatalf("%s row %d: PredictRows gives %v, Predict %v", name, i, classes[i], c)
				}
			}
		}
	}
}
