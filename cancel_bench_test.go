// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/bench/sets"
)

// BenchmarkCancelFashion measures how soon the long calls return once their
// context is cancelled, on the 60,000 training images of Fashion-MNIST, of
// ten classes, or of two for the margins (the first five classes against
// the others). Each call is cancelled after 50 ms, then 100 ms, and so on
// to 1.6 s, and again, so that the cancellations fall in every part of its
// work; ms/cancel is the longest time from a cancellation to the call's
// return, and cancels the number of calls that the cancellation stopped,
// those that had not ended before it. Run it with -benchtime 12x. It
// skips if the data are not installed.
func BenchmarkCancelFashion(b *testing.B) {
	X, y, err := sets.FashionAll(sets.FashionDir, "train", 255)
	if err != nil {
		b.Skipf("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist): %v", err)
	}
	n, d := X.Dims()
	signs := make([]float64, n)
	for i, c := range y {
		signs[i] = 1
		if c < 5 {
			signs[i] = -1
		}
	}
	var shards []mat.Matrix
	var shardY [][]float64
	for k := range 4 {
		shards = append(shards, X.Slice(k*n/4, (k+1)*n/4, 0, d))
		shardY = append(shardY, y[k*n/4:(k+1)*n/4])
	}
	classes := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	fit := func(c perceptron.Classifier) func(ctx context.Context) error {
		return func(ctx context.Context) error { return perceptron.FitContext(ctx, c, X, y) }
	}
	learn := func(c perceptron.Classifier) func(ctx context.Context) error {
		return func(ctx context.Context) error { return perceptron.LearnContext(ctx, c, X, y) }
	}
	for _, c := range []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"FitPerceptron", fit(&perceptron.Perceptron{})},
		{"FitPocket", fit(&perceptron.Pocket{})},
		{"FitPocketRatchet", fit(&perceptron.Pocket{Ratchet: true})},
		{"FitAveraged", fit(&perceptron.Averaged{})},
		{"FitVoted", fit(&perceptron.Voted{})},
		{"FitKernel", fit(&perceptron.Kernel{Func: perceptron.RBF{}})},
		{"FitOneVsRest", fit(&perceptron.OneVsRest{})},
		{"LearnPerceptron", learn(&perceptron.Perceptron{Labels: classes})},
		{"LearnAveraged", learn(&perceptron.Averaged{Labels: classes})},
		{"LearnVoted", learn(&perceptron.Voted{Labels: classes})},
		{"LearnKernel", learn(&perceptron.Kernel{Func: perceptron.RBF{}, Labels: classes})},
		{"FitShards", func(ctx context.Context) error {
			return perceptron.FitShardsContext(ctx, &perceptron.Perceptron{}, shards, shardY, false)
		}},
		{"DatasetMargin", func(ctx context.Context) error {
			_, err := perceptron.DatasetMarginContext(ctx, X, signs, nil)
			return err
		}},
		{"NovikoffBound", func(ctx context.Context) error {
			_, err := perceptron.NovikoffBoundContext(ctx, X, signs, nil)
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var most time.Duration
			delay, cancels := 50*time.Millisecond, 0
			for b.Loop() {
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error, 1)
				go func() { done <- c.call(ctx) }()
				time.Sleep(delay)
				delay *= 2
				if delay > 2*time.Second {
					delay = 50 * time.Millisecond
				}
				start := time.Now()
				cancel()
				err := <-done
				if err == nil {
					continue // it ended before the cancellation
				}
				if !errors.Is(err, context.Canceled) {
					b.Fatal(err)
				}
				most = max(most, time.Since(start))
				cancels++
			}
			b.ReportMetric(float64(cancels), "cancels")
			b.ReportMetric(float64(most)/float64(time.Millisecond), "ms/cancel")
		})
	}
}
