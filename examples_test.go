// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// The AND gate is linearly separable, so the perceptron converges. Visited
// in order from zero weights, it makes its last update in epoch 8; epoch 9
// makes no mistake and ends training.
func ExamplePerceptron_and() {
	X := mat.NewDense(4, 2, []float64{
		0, 0,
		0, 1,
		1, 0,
		1, 1,
	})
	y := []float64{-1, -1, -1, 1}

	p := &perceptron.Perceptron{
		OnUpdate: func(epoch, i int, w []float64, b float64) {
			fmt.Printf("epoch %d, row %d: w=(%.0f, %.0f) b=%.0f\n", epoch, i, w[0], w[1], b)
		},
	}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	st := p.Stats()
	w, b := p.Weights(), p.Bias()
	fmt.Printf("converged=%t after %d epochs and %d updates\n", st.Converged, st.Epochs, st.Mistakes)
	fmt.Printf("boundary: %.0f*x1 + %.0f*x2 + %.0f = 0\n", w[0], w[1], b)
	for i := range 4 {
		x := X.RawRowView(i)
		fmt.Printf("%v AND -> %+.0f\n", x, p.Predict(x))
	}

	// Output:
	// epoch 1, row 0: w=(0, 0) b=-1
	// epoch 1, row 3: w=(1, 1) b=0
	// epoch 2, row 0: w=(1, 1) b=-1
	// epoch 2, row 1: w=(1, 0) b=-2
	// epoch 2, row 3: w=(2, 1) b=-1
	// epoch 3, row 1: w=(2, 0) b=-2
	// epoch 3, row 2: w=(1, 0) b=-3
	// epoch 3, row 3: w=(2, 1) b=-2
	// epoch 4, row 2: w=(1, 1) b=-3
	// epoch 4, row 3: w=(2, 2) b=-2
	// epoch 5, row 1: w=(2, 1) b=-3
	// epoch 5, row 3: w=(3, 2) b=-2
	// epoch 6, row 1: w=(3, 1) b=-3
	// epoch 6, row 2: w=(2, 1) b=-4
	// epoch 6, row 3: w=(3, 2) b=-3
	// epoch 7, row 2: w=(2, 2) b=-4
	// epoch 7, row 3: w=(3, 3) b=-3
	// epoch 8, row 1: w=(3, 2) b=-4
	// converged=true after 9 epochs and 18 updates
	// boundary: 3*x1 + 2*x2 + -4 = 0
	// [0 0] AND -> -1
	// [0 1] AND -> -1
	// [1 0] AND -> -1
	// [1 1] AND -> +1
}

// The 3-point exercise of the notes trains a hyperplane through the origin
// from the initial weights (1, -0.8). Three updates in the first pass
// separate the points, and the second pass makes no mistake.
func ExamplePerceptron_threePoints() {
	X := mat.NewDense(3, 2, []float64{
		1, 2,
		-1, 2,
		0, -1,
	})
	y := []float64{1, -1, -1}

	p := &perceptron.Perceptron{
		NoBias:      true,
		InitWeights: []float64{1, -0.8},
		OnUpdate: func(epoch, i int, w []float64, _ float64) {
			fmt.Printf("epoch %d: x%d is a mistake, w=(%.1f, %.1f)\n", epoch, i+1, w[0], w[1])
		},
	}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	st := p.Stats()
	fmt.Printf("mistakes per epoch: %v, converged=%t\n", st.EpochMistakes, st.Converged)

	// Output:
	// epoch 1: x1 is a mistake, w=(2.0, 1.2)
	// epoch 1: x2 is a mistake, w=(3.0, -0.8)
	// epoch 1: x3 is a mistake, w=(3.0, 0.2)
	// mistakes per epoch: [3 0], converged=true
}

// No line separates XOR, so the perceptron never converges: Fit stops at the
// epoch limit. From the second epoch on, every epoch makes the same four
// updates and ends where it began.
func ExamplePerceptron_xor() {
	X := mat.NewDense(4, 2, []float64{
		0, 0,
		1, 1,
		0, 1,
		1, 0,
	})
	y := []float64{1, 1, -1, -1}

	p := &perceptron.Perceptron{Epochs: 6}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	st := p.Stats()
	w := p.Weights()
	fmt.Printf("converged=%t after %d epochs\n", st.Converged, st.Epochs)
	fmt.Printf("mistakes per epoch: %v\n", st.EpochMistakes)
	fmt.Printf("final w=(%.0f, %.0f) b=%.0f\n", w[0], w[1], p.Bias())

	// Output:
	// converged=false after 6 epochs
	// mistakes per epoch: [3 4 4 4 4 4]
	// final w=(-1, -1) b=-1
}

// One of the course notes claims that a single pass over this "simple
// dataset" ends at w=(1,1), b=1 with every point right. It does not: the
// segment from (1,1) to (2,2) crosses the segment from (1,2) to (2,1) at
// (1.5, 1.5), so the set is XOR in disguise and no line separates it. The
// true trace makes two mistakes in every epoch and never converges.
func ExamplePerceptron_simpleDataset() {
	X := mat.NewDense(4, 2, []float64{
		1, 1,
		2, 2,
		1, 2,
		2, 1,
	})
	y := []float64{1, 1, -1, -1}

	p := &perceptron.Perceptron{
		Epochs: 3,
		OnUpdate: func(epoch, i int, w []float64, b float64) {
			x := X.RawRowView(i)
			fmt.Printf("epoch %d: (%.0f,%.0f) is a mistake, w=(%.0f, %.0f) b=%.0f\n", epoch, x[0], x[1], w[0], w[1], b)
		},
	}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	st := p.Stats()
	fmt.Printf("converged=%t, mistakes per epoch: %v\n", st.Converged, st.EpochMistakes)

	// Output:
	// epoch 1: (1,1) is a mistake, w=(1, 1) b=1
	// epoch 1: (1,2) is a mistake, w=(0, -1) b=0
	// epoch 2: (1,1) is a mistake, w=(1, 0) b=1
	// epoch 2: (1,2) is a mistake, w=(0, -2) b=0
	// epoch 3: (1,1) is a mistake, w=(1, -1) b=1
	// epoch 3: (1,2) is a mistake, w=(0, -3) b=0
	// converged=false, mistakes per epoch: [2 2 2]
}

// Learn trains on one example at a time, so a stream too large for memory
// can be learned as it arrives, and a fitted model can keep learning.
func ExamplePerceptron_Learn() {
	stream := []struct {
		x []float64
		y float64
	}{
		{[]float64{2, 1}, 1},
		{[]float64{-1, -2}, -1},
		{[]float64{1, -3}, 1},
		{[]float64{1, 2}, 1},
	}
	var p perceptron.Perceptron
	for _, ex := range stream {
		updated, err := p.Learn(ex.x, ex.y)
		if err != nil {
			log.Fatal(err)
		}
		w := p.Weights()
		fmt.Printf("x=%v y=%+.0f updated=%t w=(%.0f, %.0f) b=%.0f\n", ex.x, ex.y, updated, w[0], w[1], p.Bias())
	}
	fmt.Printf("predict (3, 3): %+.0f\n", p.Predict([]float64{3, 3}))

	// Output:
	// x=[2 1] y=+1 updated=true w=(2, 1) b=1
	// x=[-1 -2] y=-1 updated=false w=(2, 1) b=1
	// x=[1 -3] y=+1 updated=true w=(3, -2) b=2
	// x=[1 2] y=+1 updated=false w=(3, -2) b=2
	// predict (3, 3): +1
}

// No line separates XOR, but the degree-2 polynomial kernel maps it to a
// space where a hyperplane does: there the perceptron converges and gets
// every point right. With K(x, z) = (x·z + 1)², K((0,0), z) = 1 for every
// z, K((1,1), (1,1)) = 9, K((0,1), (0,1)) = K((1,0), (1,0)) = 4,
// K((1,1), (0,1)) = K((1,1), (1,0)) = 4 and K((0,1), (1,0)) = 1, so the
// final scores can be checked by hand: for (1,1), 7·1 - 5·4 - 5·4 + 4·9
// plus the bias 1 makes 4.
func ExampleKernel_xor() {
	X := mat.NewDense(4, 2, []float64{
		0, 0,
		1, 1,
		0, 1,
		1, 0,
	})
	y := []float64{1, 1, -1, -1}

	p := &perceptron.Perceptron{Epochs: 100}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("linear: converged=%t after %d epochs\n", p.Stats().Converged, p.Stats().Epochs)

	k := &perceptron.Kernel{Func: perceptron.Poly{Degree: 2, Gamma: 1, Coef0: 1}, Epochs: 100}
	if err := k.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	st := k.Stats()
	fmt.Printf("kernel: converged=%t after %d epochs and %d mistakes %v\n", st.Converged, st.Epochs, st.Mistakes, st.EpochMistakes)
	sv, coef := k.SupportVectors()
	for j, c := range coef {
		fmt.Printf("%+.0f·K(%v, x)\n", c, sv.RawRowView(j))
	}
	fmt.Printf("%+.0f (bias)\n", k.Bias())
	for i := range 4 {
		x := X.RawRowView(i)
		fmt.Printf("%v: score %+.0f, label %+.0f\n", x, k.Score(x), k.Predict(x))
	}

	// Output:
	// linear: converged=false after 100 epochs
	// kernel: converged=true after 8 epochs and 21 mistakes [3 4 4 4 4 1 1 0]
	// +7·K([0 0], x)
	// -5·K([0 1], x)
	// -5·K([1 0], x)
	// +4·K([1 1], x)
	// +1 (bias)
	// [0 0]: score +2, label +1
	// [1 1]: score +4, label +1
	// [0 1]: score -1, label -1
	// [1 0]: score -1, label -1
}

// Two concentric rings: no line separates them, but the hyperplane of the
// RBF kernel's feature space does, and the kernel perceptron converges.
// Only the rows it made a mistake on are kept. (The figures were checked
// against an independent plain implementation run on the same points.)
func ExampleKernel_rings() {
	rnd := rand.New(rand.NewPCG(1, 2))
	const n = 200
	X := mat.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
		// Inner ring of radius 1 (+1) and outer ring of radius 2 (-1),
		// each 0.4 wide.
		r, label := 1.0, 1.0
		if i%2 == 1 {
			r, label = 2, -1
		}
		r += 0.4 * (rnd.Float64() - 0.5)
		a := 2 * math.Pi * rnd.Float64()
		X.SetRow(i, []float64{r * math.Cos(a), r * math.Sin(a)})
		y[i] = label
	}

	k := &perceptron.Kernel{Func: perceptron.RBF{Gamma: 1}}
	if err := k.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	st := k.Stats()
	sv, _ := k.SupportVectors()
	vectors, _ := sv.Dims()
	right := 0
	for i, label := range k.PredictRows(nil, X) {
		if label == y[i] {
			right++
		}
	}
	fmt.Printf("converged=%t after %d epochs and %d mistakes\n", st.Converged, st.Epochs, st.Mistakes)
	fmt.Printf("support vectors: %d of %d rows\n", vectors, n)
	fmt.Printf("training accuracy: %.1f%%\n", 100*float64(right)/n)

	// Output:
	// converged=true after 2 epochs and 19 mistakes
	// support vectors: 19 of 200 rows
	// training accuracy: 100.0%
}

// Learn trains on a stream one example at a time. With a Budget, memory
// stays bounded however long the stream: once the hypothesis holds Budget
// mistakes, each new mistake replaces a random one, so a stream with more
// mistakes than the budget ends with exactly Budget support vectors.
func ExampleKernel_Learn() {
	rnd := rand.New(rand.NewPCG(3, 4))
	k := &perceptron.Kernel{Func: perceptron.RBF{Gamma: 2}, Budget: 50}
	x := make([]float64, 2)
	for range 10000 {
		// Points of the unit square, +1 inside the circle of radius 0.4
		// about its centre.
		x[0], x[1] = rnd.Float64(), rnd.Float64()
		y := -1.0
		if math.Hypot(x[0]-0.5, x[1]-0.5) < 0.4 {
			y = 1
		}
		if _, err := k.Learn(x, y); err != nil {
			log.Fatal(err)
		}
	}
	sv, _ := k.SupportVectors()
	vectors, _ := sv.Dims()
	fmt.Printf("more mistakes than the budget: %t\n", k.Stats().Mistakes > 50)
	fmt.Printf("support vectors stored: %d\n", vectors)

	// Output:
	// more mistakes than the budget: true
	// support vectors stored: 50
}
