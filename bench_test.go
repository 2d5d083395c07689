// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/synth"
)

// benchSizes are the (n, d) shapes of the benchmarks; 12000×784 is the size
// of a Fashion-MNIST class pair.
var benchSizes = []struct{ n, d int }{
	{1000, 10},
	{1000, 100},
	{12000, 784},
}

// benchEpochs is the number of epochs each Fit benchmark runs; the data are
// not separable, so every epoch runs.
const benchEpochs = 10

var benchCache struct {
	sync.Mutex
	sets map[[2]int]benchSet
}

type benchSet struct {
	X *mat.Dense
	y []float64
}

// benchData returns synth.Data(n, d), generated once per shape: n rows of
// d features in [0, 1), seeded, with one label in twenty flipped so that no
// line separates them.
func benchData(n, d int) (*mat.Dense, []float64) {
	benchCache.Lock()
	defer benchCache.Unlock()
	if c, ok := benchCache.sets[[2]int{n, d}]; ok {
		return c.X, c.y
	}
	X, y := synth.Data(n, d)
	if benchCache.sets == nil {
		benchCache.sets = make(map[[2]int]benchSet)
	}
	benchCache.sets[[2]int{n, d}] = benchSet{X, y}
	return X, y
}

// benchFit runs Fit of the classifier that newC returns on every size, and
// reports the cost of one epoch as ns/epoch. Each mistake costs an update
// on top of the epoch's dot products, so it also reports the fraction of
// visits that were mistakes.
func benchFit(b *testing.B, newC func() Classifier) {
	for _, sz := range benchSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			X, y := benchData(sz.n, sz.d)
			var c Classifier
			b.ReportAllocs()
			for b.Loop() {
				c = newC()
				if err := c.Fit(X, y); err != nil {
					b.Fatal(err)
				}
			}
			epochs := benchEpochs
			if s, ok := c.(interface{ Stats() Stats }); ok {
				st := s.Stats()
				epochs = st.Epochs
				b.ReportMetric(float64(st.Mistakes)/float64(st.Epochs*sz.n), "mistakes/visit")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*epochs), "ns/epoch")
		})
	}
}

// benchPredict fits c and runs its Predict on every row, for every size,
// and reports the cost of one prediction as ns/row.
func benchPredict(b *testing.B, c Classifier) {
	for _, sz := range benchSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			X, y := benchData(sz.n, sz.d)
			if err := c.Fit(X, y); err != nil {
				b.Fatal(err)
			}
			var sum float64
			b.ReportAllocs()
			for b.Loop() {
				for i := range sz.n {
					sum += c.Predict(X.RawRowView(i))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sz.n), "ns/row")
			benchSink = sum
		})
	}
}

var benchSink float64

// BenchmarkFloor streams the rows once and takes each row's dot product
// with a fixed vector: the least work an epoch can do. Its ns/epoch is the
// floor that the Fit benchmarks' ns/epoch is measured against.
func BenchmarkFloor(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			X, _ := benchData(sz.n, sz.d)
			v := make([]float64, sz.d)
			for j := range v {
				v[j] = float64(j%7) - 3
			}
			var sum float64
			b.ReportAllocs()
			for b.Loop() {
				for i := range sz.n {
					sum += floats.Dot(X.RawRowView(i), v)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/epoch")
			benchSink = sum
		})
	}
}

func BenchmarkPerceptronFit(b *testing.B) {
	benchFit(b, func() Classifier { return &Perceptron{Epochs: benchEpochs} })
}

// BenchmarkPerceptronFitShuffled adds the cost of a fresh random order in
// every epoch.
func BenchmarkPerceptronFitShuffled(b *testing.B) {
	benchFit(b, func() Classifier {
		return &Perceptron{Epochs: benchEpochs, Rand: rand.New(rand.NewPCG(1, 2))}
	})
}

func BenchmarkPerceptronPredict(b *testing.B) {
	benchPredict(b, &Perceptron{Epochs: benchEpochs})
}

func BenchmarkPocketFit(b *testing.B) {
	benchFit(b, func() Classifier { return &Pocket{Epochs: benchEpochs} })
}

func BenchmarkPocketCheckAllFit(b *testing.B) {
	benchFit(b, func() Classifier { return &Pocket{Epochs: benchEpochs, CheckAll: true} })
}

func BenchmarkPocketPredict(b *testing.B) {
	benchPredict(b, &Pocket{Epochs: benchEpochs})
}

func BenchmarkAveragedFit(b *testing.B) {
	benchFit(b, func() Classifier { return &Averaged{Epochs: benchEpochs} })
}

func BenchmarkAveragedPredict(b *testing.B) {
	benchPredict(b, &Averaged{Epochs: benchEpochs})
}

func BenchmarkVotedFit(b *testing.B) {
	benchFit(b, func() Classifier { return &Voted{Epochs: benchEpochs} })
}

func BenchmarkVotedPredict(b *testing.B) {
	benchPredict(b, &Voted{Epochs: benchEpochs})
}

// BenchmarkEpoch reports, as ns/epoch, the cost of one more epoch of Fit
// on the largest size, apart from the work that Fit does once whatever the
// number of epochs (Pocket's count of the starting weights, Averaged's
// final average, Voted's copy of its rows): the difference between Fits of
// 2·benchEpochs and of benchEpochs epochs, divided by benchEpochs.
func BenchmarkEpoch(b *testing.B) {
	X, y := benchData(12000, 784)
	for _, c := range []struct {
		name string
		new  func(epochs int) Classifier
	}{
		{"Perceptron", func(e int) Classifier { return &Perceptron{Epochs: e} }},
		{"Pocket", func(e int) Classifier { return &Pocket{Epochs: e} }},
		{"Averaged", func(e int) Classifier { return &Averaged{Epochs: e} }},
		{"Voted", func(e int) Classifier { return &Voted{Epochs: e} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			fit := func(epochs int) time.Duration {
				start := time.Now()
				if err := c.new(epochs).Fit(X, y); err != nil {
					b.Fatal(err)
				}
				return time.Since(start)
			}
			var extra time.Duration
			for b.Loop() {
				extra += fit(2*benchEpochs) - fit(benchEpochs)
			}
			b.ReportMetric(float64(extra.Nanoseconds())/float64(b.N*benchEpochs), "ns/epoch")
		})
	}
}
