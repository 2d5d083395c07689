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
// dense rows, which the models of weight tables score several rows at
// once, are those of each row scored alone, to the bit, with two classes
// and with more, on rows of a view whose stride is not their length.
func TestScoreRowsOneAtATime(t *testing.T) {
	const n = 300 // two chunks of eachRow, the second partial
	for _, K := range []int{2, 3, 10, 20} {
		for _, d := range []int{1, 3, 4, 9, 100} {
			X, y := synth.Data(n, d+3)
			V := X.Slice(0, n, 1, d+1) // rows that start off the vector lanes
			labels := []float64{-1, 1}
			if K > 2 {
				labels = labels[:0]
				for c := range K {
					labels = append(labels, float64(c))
				}
				for i := range y {
					y[i] = float64(int(X.At(i, 1)*float64(K)) % K)
				}
			}
			learned := &Averaged{Labels: labels} // its sum is ahead of its running weights
			for _, m := range []Scorer{&Perceptron{Epochs: 3}, &Pocket{Epochs: 3}, &Averaged{Epochs: 3}, learned} {
				var err error
				if m == learned {
					err = learned.Learn(V, y)
				} else {
					err = m.Fit(V, y)
				}
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%T K=%d d=%d", m, K, d)
				scores, classes := m.ScoreRows(nil, V), m.PredictRows(nil, V)
				S := len(scores) / n
				for i := range n {
					x := mat.Row(nil, i, V)
					if s := rowScores(m, x); !sameBits(s, scores[i*S:i*S+S]) {
						t.Fatalf("%s row %d: ScoreRows gives %v, the row alone %v", name, i, scores[i*S:i*S+S], s)
					}
					if c := m.Predict(x); c != classes[i] {
						t.Fatalf("%s row %d: PredictRows gives %v, Predict %v", name, i, classes[i], c)
					}
				}
			}
		}
	}
}
