// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron_test

import (
	"encoding/json"
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
		OnUpdate: func(u perceptron.Update) {
			epoch, i, w, b := u.Epoch, u.Row, u.Weights, u.Biases[0]
			fmt.Printf("epoch %d, row %d: w=(%.0f, %.0f) b=%.0f\n", epoch, i, w[0], w[1], b)
		},
	}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	st := p.Stats()
	w, b := p.Weights()
	fmt.Printf("converged=%t after %d epochs and %d updates\n", st.Converged, st.Epochs, st.Mistakes)
	fmt.Printf("boundary: %.0f*x1 + %.0f*x2 = %.0f\n", w[0], w[1], -b[0])
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
	// boundary: 3*x1 + 2*x2 = 4
	// [0 0] AND -> -1
	// [0 1] AND -> -1
	// [1 0] AND -> -1
	// [1 1] AND -> +1
}

// A classic 3-point exercise trains a hyperplane through the origin
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
		OnUpdate: func(u perceptron.Update) {
			epoch, i, w := u.Epoch, u.Row, u.Weights
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
	w, b := p.Weights()
	fmt.Printf("converged=%t after %d epochs\n", st.Converged, st.Epochs)
	fmt.Printf("mistakes per epoch: %v\n", st.EpochMistakes)
	fmt.Printf("final w=(%.0f, %.0f) b=%.0f\n", w[0], w[1], b[0])

	// Output:
	// converged=false after 6 epochs
	// mistakes per epoch: [3 4 4 4 4 4]
	// final w=(-1, -1) b=-1
}

// A single pass over this "simple dataset" looks as if it should end at
// w=(1,1), b=1 with every point right. It cannot: the segment from (1,1)
// to (2,2) crosses the segment from (1,2) to (2,1) at (1.5, 1.5), so the
// set is XOR in disguise and no line separates it. The
// first three epochs make two mistakes each; from epoch 4 on every epoch
// makes four and ends where it began, at w=(0,-3), b=0, forever.
func ExamplePerceptron_simpleDataset() {
	X := mat.NewDense(4, 2, []float64{
		1, 1,
		2, 2,
		1, 2,
		2, 1,
	})
	y := []float64{1, 1, -1, -1}

	p := &perceptron.Perceptron{
		Epochs: 5,
		OnUpdate: func(u perceptron.Update) {
			epoch, i, w, b := u.Epoch, u.Row, u.Weights, u.Biases[0]
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
	// epoch 4: (1,1) is a mistake, w=(1, -2) b=1
	// epoch 4: (2,2) is a mistake, w=(3, 0) b=2
	// epoch 4: (1,2) is a mistake, w=(2, -2) b=1
	// epoch 4: (2,1) is a mistake, w=(0, -3) b=0
	// epoch 5: (1,1) is a mistake, w=(1, -2) b=1
	// epoch 5: (2,2) is a mistake, w=(3, 0) b=2
	// epoch 5: (1,2) is a mistake, w=(2, -2) b=1
	// epoch 5: (2,1) is a mistake, w=(0, -3) b=0
	// converged=false, mistakes per epoch: [2 2 2 4 4]
}

// Learn trains on the rows it is given, one pass in order, so a stream
// too large for memory can be learned as it arrives, here one example at
// a time, and a fitted model can keep learning. A model that has not been
// fitted learns the classes of Labels. A mistake shows in Stats.
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
	p := perceptron.Perceptron{Labels: []float64{-1, 1}}
	for _, ex := range stream {
		before := p.Stats().Mistakes
		if err := p.Learn(mat.NewDense(1, 2, ex.x), []float64{ex.y}); err != nil {
			log.Fatal(err)
		}
		updated := p.Stats().Mistakes > before
		w, b := p.Weights()
		fmt.Printf("x=%v y=%+.0f updated=%t w=(%.0f, %.0f) b=%.0f\n", ex.x, ex.y, updated, w[0], w[1], b[0])
	}
	fmt.Printf("predict (3, 3): %+.0f\n", p.Predict([]float64{3, 3}))

	// Output:
	// x=[2 1] y=+1 updated=true w=(2, 1) b=1
	// x=[-1 -2] y=-1 updated=false w=(2, 1) b=1
	// x=[1 -3] y=+1 updated=true w=(3, -2) b=2
	// x=[1 2] y=+1 updated=false w=(3, -2) b=2
	// predict (3, 3): +1
}

// A fitted perceptron saves as JSON, with its settings and Stats, and loads
// back into one that predicts exactly as it did. The AND gate trains as in
// the example above: nine epochs, the last without a mistake. An epoch's
// loss sums -y·(w·x+b) over its mistakes: only those on (1, 1) score
// below 0, -1 in epochs 1, 2, 4 and 6, and -2 in epoch 3, where (1, 1)
// meets w=(1, 0) b=-3; the others score 0.
func ExamplePerceptron_MarshalJSON() {
	X := mat.NewDense(4, 2, []float64{
		0, 0,
		0, 1,
		1, 0,
		1, 1,
	})
	y := []float64{-1, -1, -1, 1}
	p := &perceptron.Perceptron{}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	data, err := json.Marshal(p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", data)

	var q perceptron.Perceptron
	if err := json.Unmarshal(data, &q); err != nil {
		log.Fatal(err)
	}
	for i := range 4 {
		x := X.RawRowView(i)
		fmt.Printf("%v: saved %+.0f, loaded %+.0f\n", x, p.Predict(x), q.Predict(x))
	}

	// A model of another type is refused.
	err = json.Unmarshal([]byte(`{"type":"Pocket","version":1}`), &q)
	fmt.Println(err)

	// Output:
	// {"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":null,"stop":null},"model":{"classes":[-1,1],"weights":[3,2],"biases":[-4],"throughOrigin":false},"stats":{"epochs":9,"converged":true,"mistakes":18,"epochMistakes":[2,3,3,2,2,3,2,1,0],"epochLoss":[1,1,2,1,0,1,0,0,0]}}
	// [0 0]: saved -1, loaded -1
	// [0 1]: saved -1, loaded -1
	// [1 0]: saved -1, loaded -1
	// [1 1]: saved +1, loaded +1
	// perceptron: the saved classifier is of type "Pocket", not Perceptron
}

// line returns five points on a line, x = 2, 1, -1, -2, 3, labelled by the
// sign of x except the last, which is noise: no threshold gets more than 4
// of them right.
func line() (*mat.Dense, []float64) {
	return mat.NewDense(5, 1, []float64{2, 1, -1, -2, 3}), []float64{1, 1, -1, -1, -1}
}

// wrong returns the number of rows of X that c misclassifies.
func wrong(c perceptron.Classifier, X *mat.Dense, y []float64) int {
	n := 0
	for i := range y {
		if c.Predict(X.RawRowView(i)) != y[i] {
			n++
		}
	}
	return n
}

// The first update makes w=2, b=1, which misclassify only the noisy point.
// The pocket counts them and every later weights of the run, and keeps
// them: the weights w=2, b=0 that the fourth update makes tie with them,
// and the earlier stay. The perceptron itself ends at w=-1, b=-1, which
// get four of the five points wrong.
func ExamplePocket() {
	X, y := line()
	p := &perceptron.Pocket{Epochs: 2}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	last := &perceptron.Perceptron{Epochs: 2}
	if err := last.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	w, b := p.Weights()
	lw, lb := last.Weights()
	fmt.Printf("pocket:     w=%.0f b=%.0f, %d of 5 misclassified\n", w[0], b[0], wrong(p, X, y))
	fmt.Printf("perceptron: w=%.0f b=%.0f, %d of 5 misclassified\n", lw[0], lb[0], wrong(last, X, y))

	// Output:
	// pocket:     w=2 b=1, 1 of 5 misclassified
	// perceptron: w=-1 b=-1, 4 of 5 misclassified
}

// No line gets more than 3 of the 4 XOR points right. Visited in order,
// the perceptron cycles through four weight vectors, one of which,
// w=(-1, -1) b=0, gets 3 right; it ends each epoch at w=(-1, -1) b=-1,
// which gets 2 right. The pocket counts every weight vector of the run and
// keeps the best. (With Ratchet, Gallant's rule counts only weights whose
// run of right answers beats the pocket's; in this order every vector after
// the first epoch misclassifies the next row, so it keeps w=(0, 0) b=1,
// which gets 2 right.)
func ExamplePocket_xor() {
	X := mat.NewDense(4, 2, []float64{
		0, 0,
		1, 1,
		0, 1,
		1, 0,
	})
	y := []float64{1, 1, -1, -1}

	p := &perceptron.Pocket{Epochs: 3}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	last := &perceptron.Perceptron{Epochs: 3}
	if err := last.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	w, b := p.Weights()
	lw, lb := last.Weights()
	fmt.Printf("pocket:     w=(%.0f, %.0f) b=%.0f, %d of 4 misclassified\n", w[0], w[1], b[0], wrong(p, X, y))
	fmt.Printf("perceptron: w=(%.0f, %.0f) b=%.0f, %d of 4 misclassified\n", lw[0], lw[1], lb[0], wrong(last, X, y))

	// Output:
	// pocket:     w=(-1, -1) b=0, 1 of 4 misclassified
	// perceptron: w=(-1, -1) b=-1, 2 of 4 misclassified
}

// The "simple dataset" is XOR in disguise (see
// ExamplePerceptron_simpleDataset). In its fourth epoch the perceptron
// passes through w=(2, -2) b=1, which gets 3 of the 4 points right, the
// most a line can; the epoch ends at w=(0, -3) b=0, which gets 2 right.
func ExamplePocket_simpleDataset() {
	X := mat.NewDense(4, 2, []float64{
		1, 1,
		2, 2,
		1, 2,
		2, 1,
	})
	y := []float64{1, 1, -1, -1}

	p := &perceptron.Pocket{Epochs: 4}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	last := &perceptron.Perceptron{Epochs: 4}
	if err := last.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	w, b := p.Weights()
	lw, lb := last.Weights()
	fmt.Printf("pocket:     w=(%.0f, %.0f) b=%.0f, %d of 4 misclassified\n", w[0], w[1], b[0], wrong(p, X, y))
	fmt.Printf("perceptron: w=(%.0f, %.0f) b=%.0f, %d of 4 misclassified\n", lw[0], lw[1], lb[0], wrong(last, X, y))

	// Output:
	// pocket:     w=(2, -2) b=1, 1 of 4 misclassified
	// perceptron: w=(0, -3) b=0, 2 of 4 misclassified
}

// The perceptron makes five updates in two epochs on the line, and the
// weights after its ten visits are w = 2, 2, 2, 2, -1, 1, 1, 2, 2, -1 and
// b = 1, 1, 1, 1, 0, 1, 1, 0, 0, -1. Their average, w=12/10 b=5/10, gets
// every point right but the noise; the last weights get four wrong.
func ExampleAveraged() {
	X, y := line()
	a := &perceptron.Averaged{Epochs: 2}
	if err := a.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	last := &perceptron.Perceptron{Epochs: 2}
	if err := last.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	w, b := a.Weights()
	lw, lb := last.Weights()
	fmt.Printf("averaged:   w=%.1f b=%.1f, %d of 5 misclassified\n", w[0], b[0], wrong(a, X, y))
	fmt.Printf("perceptron: w=%.1f b=%.1f, %d of 5 misclassified\n", lw[0], lb[0], wrong(last, X, y))

	// Output:
	// averaged:   w=1.2 b=0.5, 1 of 5 misclassified
	// perceptron: w=-1.0 b=-1.0, 4 of 5 misclassified
}

// The voters of the run on the line, with the number of visits each
// survived, are w=0 b=0 (0: the first visit is a mistake), w=2 b=1 (4),
// w=-1 b=0 (1), w=1 b=1 (2), w=2 b=0 (2) and w=-1 b=-1 (1). At x=-1, for
// instance, their scores are 0, -1, 1, 0, -2 and 0, whose signs, with +1
// for 0, weighted by the counts, vote 0 - 4 + 1 + 2 - 2 + 1 = -2.
func ExampleVoted() {
	X, y := line()
	v := &perceptron.Voted{Epochs: 2}
	if err := v.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	votes := v.ScoreRows(nil, X)
	for i := range y {
		x := X.RawRowView(i)
		fmt.Printf("x=%2.0f y=%+.0f: vote %+.0f, predicted %+.0f\n", x[0], y[i], votes[i], v.Predict(x))
	}

	// Output:
	// x= 2 y=+1: vote +6, predicted +1
	// x= 1 y=+1: vote +6, predicted +1
	// x=-1 y=-1: vote -2, predicted -1
	// x=-2 y=-1: vote -6, predicted -1
	// x= 3 y=-1: vote +6, predicted +1
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
	sv, coef, b := k.SupportVectors()
	for j, c := range coef {
		fmt.Printf("%+.0f·K(%v, x)\n", c, mat.Row(nil, j, sv))
	}
	fmt.Printf("%+.0f (bias)\n", b[0])
	scores := k.ScoreRows(nil, X)
	for i := range 4 {
		x := X.RawRowView(i)
		fmt.Printf("%v: score %+.0f, label %+.0f\n", x, scores[i], k.Predict(x))
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
	sv, _, _ := k.SupportVectors()
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

// Learn trains on a stream one example at a time, with the classes of
// Labels. With a Budget, memory stays bounded however long the stream:
// once the hypothesis holds Budget mistakes, each new mistake replaces a
// random one, so a stream with more mistakes than the budget ends with
// exactly Budget support vectors.
func ExampleKernel_Learn() {
	rnd := rand.New(rand.NewPCG(3, 4))
	k := &perceptron.Kernel{Func: perceptron.RBF{Gamma: 2}, Budget: 50, Labels: []float64{-1, 1}}
	x := make([]float64, 2)
	X := mat.NewDense(1, 2, x) // a view of x
	for range 10000 {
		// Points of the unit square, +1 inside the circle of radius 0.4
		// about its centre.
		x[0], x[1] = rnd.Float64(), rnd.Float64()
		y := -1.0
		if math.Hypot(x[0]-0.5, x[1]-0.5) < 0.4 {
			y = 1
		}
		if err := k.Learn(X, []float64{y}); err != nil {
			log.Fatal(err)
		}
	}
	mistakes := k.Stats().Mistakes
	sv, _, _ := k.SupportVectors()
	vectors, _ := sv.Dims()
	fmt.Printf("more mistakes than the budget: %t\n", mistakes > 50)
	fmt.Printf("support vectors stored: %d\n", vectors)

	// Output:
	// more mistakes than the budget: true
	// support vectors stored: 50
}

// The margin of the AND gate, by hand: the point (1,1) is 1/√2 from the
// segment joining (0,1) and (1,0), the edge of the other class's hull
// nearest to it, so the margin is half that, 1/(2√2), attained by the
// hyperplane halfway between, x1 + x2 = 1.5. The diagonals of XOR cross,
// so its hulls meet: it is not separable, and DatasetMargin takes its
// margin as 0.
func ExampleDatasetMargin() {
	X := mat.NewDense(4, 2, []float64{
		0, 0,
		0, 1,
		1, 0,
		1, 1,
	})
	for _, gate := range []struct {
		name string
		y    []float64
	}{
		{"AND", []float64{-1, -1, -1, 1}},
		{"XOR", []float64{-1, 1, 1, -1}},
	} {
		m, err := perceptron.DatasetMargin(X, gate.y, nil)
		if err != nil {
			log.Fatal(err)
		}
		sep, err := perceptron.Separable(X, gate.y)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: separable %t, margin %.4f\n", gate.name, sep, max(m.Lower, 0))
		if m.Lower > 0 {
			w := m.W
			fmt.Printf("  boundary x1 + %.4f·x2 = %.4f, margin in [%.6f, %.6f]\n", w[1]/w[0], -m.B/w[0], m.Lower, m.Upper)
		}
	}

	// Output:
	// AND: separable true, margin 0.3536
	//   boundary x1 + 1.0000·x2 = 1.5000, margin in [0.353553, 0.353553]
	// XOR: separable false, margin 0.0000
}

// The perceptron, run on separable points in several random orders, finds
// a different boundary after a different number of updates each time.
// Here the experiment runs on 85 points of the
// square [-1, 1]², labelled by the side of the line 0.6x + 0.8y = 0.1 and
// kept only if at least 0.1 from it. Whatever the order, the updates stay
// within the bound of Block and Novikoff, which the data alone fix; and
// none of the boundaries found comes near the margin of the data.
func ExampleNovikoffBound() {
	rnd := rand.New(rand.NewPCG(85, 1))
	X := mat.NewDense(85, 2, nil)
	y := make([]float64, 85)
	for i := 0; i < 85; {
		u, v := 2*rnd.Float64()-1, 2*rnd.Float64()-1
		s := 0.6*u + 0.8*v - 0.1
		if math.Abs(s) < 0.1 {
			continue
		}
		X.Set(i, 0, u)
		X.Set(i, 1, v)
		y[i] = math.Copysign(1, s)
		i++
	}

	m, err := perceptron.DatasetMargin(X, y, nil)
	if err != nil {
		log.Fatal(err)
	}
	nb, err := perceptron.NovikoffBound(X, y, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("margin of the data: %.4f\n", m.Lower)
	fmt.Printf("R = %.4f, margin of the rows (x, 1): %.4f, bound (R/margin)² = %.0f\n", nb.R, nb.Margin, nb.Bound)
	for k := 1; k <= 4; k++ {
		p := &perceptron.Perceptron{Rand: rand.New(rand.NewPCG(uint64(k), 85))}
		if err := p.Fit(X, y); err != nil {
			log.Fatal(err)
		}
		st := p.Stats()
		w, b := p.Weights()
		g, err := perceptron.GeometricMargin(X, y, w, b[0])
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("order %d: %d updates in %d epochs, boundary's margin %.4f\n", k, st.Mistakes, st.Epochs, g)
	}

	// Output:
	// margin of the data: 0.1019
	// R = 1.5989, margin of the rows (x, 1): 0.1014, bound (R/margin)² = 249
	// order 1: 29 updates in 10 epochs, boundary's margin 0.0098
	// order 2: 27 updates in 6 epochs, boundary's margin 0.0004
	// order 3: 26 updates in 8 epochs, boundary's margin 0.0027
	// order 4: 27 updates in 10 epochs, boundary's margin 0.0085
}

// With three classes the perceptron keeps a weight vector and a bias per
// class and predicts the class of the greatest score. A visit is a
// mistake unless the true class scores strictly above the others; then
// the true class gains x and 1, and the greatest other class, the first
// of ties, loses them. By hand, from zero: (2, 0) of class 10 ties at 0
// with class 20, which loses; (0, 2) of class 20 scores -1 against 1 for
// class 10, which loses; (-2, -2) of class 30 ties at 0 with both others,
// and class 10, the first, loses. The second epoch scores 7, -4, -3 on
// the first row, -1, 4, -3 on the second and -9, 0, 9 on the third: no
// mistake.
func ExamplePerceptron_threeClasses() {
	X := mat.NewDense(3, 2, []float64{
		2, 0,
		0, 2,
		-2, -2,
	})
	y := []float64{10, 20, 30}

	show := func(w, b []float64) string {
		W := mat.NewDense(2, 3, w) // feature j, class c at w[j*3+c]
		s := ""
		for c := range 3 {
			s += fmt.Sprintf(" (%2.0f, %2.0f; %2.0f)", W.At(0, c), W.At(1, c), b[c])
		}
		return s
	}
	p := &perceptron.Perceptron{
		OnUpdate: func(u perceptron.Update) {
			fmt.Printf("epoch %d, row %d:%s\n", u.Epoch, u.Row, show(u.Weights, u.Biases))
		},
	}
	if err := p.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	st := p.Stats()
	fmt.Printf("classes %v, converged=%t after %d epochs and %d updates\n", p.Classes(), st.Converged, st.Epochs, st.Mistakes)
	fmt.Println("w and b of classes 10, 20, 30:" + show(p.Weights()))
	for _, x := range [][]float64{{1, 3}, {0, 0}} {
		s := p.ScoreRows(nil, mat.NewDense(1, 2, x))
		fmt.Printf("%v: scores %.0f, class %.0f\n", x, s, p.Predict(x))
	}

	// Output:
	// epoch 1, row 0: ( 2,  0;  1) (-2,  0; -1) ( 0,  0;  0)
	// epoch 1, row 1: ( 2, -2;  0) (-2,  2;  0) ( 0,  0;  0)
	// epoch 1, row 2: ( 4,  0; -1) (-2,  2;  0) (-2, -2;  1)
	// classes [10 20 30], converged=true after 2 epochs and 3 updates
	// w and b of classes 10, 20, 30: ( 4,  0; -1) (-2,  2;  0) (-2, -2;  1)
	// [1 3]: scores [3 4 -7], class 20
	// [0 0]: scores [-1 0 1], class 30
}

// OneVsRest trains a binary classifier per class, the class against the
// rest, and predicts the class whose classifier scores highest: the way
// scikit-learn's Perceptron learns more than two classes. New sets the
// classifiers' settings. Each test point lies in one of the three
// clusters and gets its class.
func ExampleOneVsRest() {
	X := mat.NewDense(6, 2, []float64{
		2, 0,
		3, 1,
		0, 2,
		-1, 3,
		-2, -2,
		-1, -3,
	})
	y := []float64{10, 10, 20, 20, 30, 30}

	o := &perceptron.OneVsRest{
		New: func() perceptron.Scorer { return &perceptron.Averaged{Epochs: 10} },
	}
	if err := o.Fit(X, y); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("classes %v, %d classifiers\n", o.Classes(), len(o.Models()))
	for _, x := range [][]float64{{3, 0}, {0, 3}, {-2, -1}} {
		fmt.Printf("%v: class %.0f\n", x, o.Predict(x))
	}

	// Output:
	// classes [10 20 30], 3 classifiers
	// [3 0]: class 10
	// [0 3]: class 20
	// [-2 -1]: class 30
}
