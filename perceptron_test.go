// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/synth"
)

// update is one call of OnUpdate.
type update struct {
	epoch, i int
	w        []float64
	b        float64
}

// naivePerceptron is the algorithm of the notes written out with plain
// loops, as an independent reference, from the weights w0 (zero if nil)
// and a zero bias. Visiting order comes from the same kind of shuffle as
// Fit's, so that the two can be compared bit for bit.
func naivePerceptron(X [][]float64, y []float64, epochs int, rate float64, rnd *rand.Rand, bias bool, w0 []float64) (w []float64, b float64, perEpoch []int, trace []update) {
	d := len(X[0])
	w = make([]float64, d)
	copy(w, w0)
	order := make([]int, len(X))
	for i := range order {
		order[i] = i
	}
	for epoch := range epochs {
		if rnd != nil {
			rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		m := 0
		for _, i := range order {
			a := b
			for j := range d {
				a += w[j] * X[i][j]
			}
			if y[i]*a <= 0 {
				for j := range d {
					w[j] += rate * y[i] * X[i][j]
				}
				if bias {
					b += rate * y[i]
				}
				trace = append(trace, update{epoch + 1, i, slices.Clone(w), b})
				m++
			}
		}
		perEpoch = append(perEpoch, m)
		if m == 0 {
			break
		}
	}
	return w, b, perEpoch, trace
}

func TestPerceptronMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n, d := 1+rnd.IntN(30), 1+rnd.IntN(6)
		rows, X, y := intSet(rnd, n, d)
		epochs := 1 + rnd.IntN(20)
		rate := []float64{0, 1, 0.5, 2}[rnd.IntN(4)]
		bias := rnd.IntN(2) == 0
		var w0 []float64
		if rnd.IntN(2) == 0 {
			w0 = make([]float64, d)
			for j := range w0 {
				w0[j] = float64(rnd.IntN(5) - 2)
			}
		}
		seed := uint64(trial)
		var fitRand, refRand *rand.Rand
		if rnd.IntN(2) == 0 {
			fitRand, refRand = rand.New(rand.NewPCG(seed, 7)), rand.New(rand.NewPCG(seed, 7))
		}
		var trace []update
		p := &Perceptron{Epochs: epochs, Rate: rate, Rand: fitRand, NoBias: !bias, InitWeights: w0, Labels: binaryLabels,
			OnUpdate: func(u Update) {
				epoch, i, w, b := u.Epoch, u.Row, u.Weights, u.Biases[0]
				trace = append(trace, update{epoch, i, slices.Clone(w), b})
			},
		}
		if err := p.Fit(X, y); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		r := rate
		if r == 0 {
			r = 1
		}
		w, b, perEpoch, wantTrace := naivePerceptron(rows, y, epochs, r, refRand, bias, w0)
		st := p.Stats()
		pw, pb := p.Weights()
		if !slices.Equal(pw, w) || !slices.Equal(pb, []float64{b}) || !slices.Equal(st.EpochMistakes, perEpoch) {
			t.Fatalf("trial %d: got w=%v b=%v epochs %v, want w=%v b=%v epochs %v",
				trial, pw, pb, st.EpochMistakes, w, b, perEpoch)
		}
		if !slices.EqualFunc(trace, wantTrace, func(a, b update) bool {
			return a.epoch == b.epoch && a.i == b.i && slices.Equal(a.w, b.w) && a.b == b.b
		}) {
			t.Fatalf("trial %d: OnUpdate saw %v, want %v", trial, trace, wantTrace)
		}
		sum := 0
		for _, m := range perEpoch {
			sum += m
		}
		converged := perEpoch[len(perEpoch)-1] == 0
		if st.Epochs != len(perEpoch) || st.Mistakes != sum || st.Converged != converged {
			t.Fatalf("trial %d: stats %+v, want %d epochs, %d mistakes, converged %t", trial, st, len(perEpoch), sum, converged)
		}
	}
}

func TestPerceptronTraces(t *testing.T) {
	// AND, visited in order from zero: the trace worked by hand in
	// ExamplePerceptron_and.
	and := &Perceptron{}
	if err := and.Fit(mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1}), []float64{-1, -1, -1, 1}); err != nil {
		t.Fatal(err)
	}
	st := and.Stats()
	if want := []int{2, 3, 3, 2, 2, 3, 2, 1, 0}; !slices.Equal(st.EpochMistakes, want) || !st.Converged {
		t.Errorf("AND: mistakes per epoch %v (converged %t), want %v", st.EpochMistakes, st.Converged, want)
	}
	if w, b := and.Weights(); !slices.Equal(w, []float64{3, 2}) || !slices.Equal(b, []float64{-4}) {
		t.Errorf("AND: w=%v b=%v, want [3 2] -4", w, b)
	}

	// The 3-point exercise of notes 004. The last weight is -0.8+1 in
	// float64 arithmetic.
	var updates [][]float64
	three := &Perceptron{
		NoBias:      true,
		InitWeights: []float64{1, -0.8},
		OnUpdate: func(u Update) {
			w, b := u.Weights, u.Biases[0]
			if b != 0 {
				t.Errorf("3 points: bias %v through the origin", b)
			}
			updates = append(updates, slices.Clone(w))
		},
	}
	if err := three.Fit(mat.NewDense(3, 2, []float64{1, 2, -1, 2, 0, -1}), []float64{1, -1, -1}); err != nil {
		t.Fatal(err)
	}
	w0 := -0.8
	w1 := w0 + 2 // update on x1 = (1, 2)
	w2 := w1 - 2 // update on x2 = (-1, 2), y = -1
	w3 := w2 + 1 // update on x3 = (0, -1), y = -1
	want := [][]float64{{2, w1}, {3, w2}, {3, w3}}
	if !slices.EqualFunc(updates, want, slices.Equal) {
		t.Errorf("3 points: updates %v, want %v", updates, want)
	}
	if st := three.Stats(); !slices.Equal(st.EpochMistakes, []int{3, 0}) {
		t.Errorf("3 points: mistakes per epoch %v, want [3 0]", st.EpochMistakes)
	}
}

func TestPerceptronConvergesOnSeparableData(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n, d := 2+rnd.IntN(60), 1+rnd.IntN(8)
		X, y, _, _ := marginSet(rnd, n, d, 0.05, true)
		p := &Perceptron{Epochs: 100000}
		if trial%2 == 1 {
			p.Rand = rand.New(rand.NewPCG(uint64(trial), 0))
		}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if !p.Stats().Converged {
			t.Fatalf("trial %d: did not converge on separable data: %+v", trial, p.Stats())
		}
		for i, s := range p.ScoreRows(nil, X) {
			if y[i]*s <= 0 {
				t.Fatalf("trial %d: converged but row %d has y*score %v", trial, i, y[i]*s)
			}
		}
	}
}

// TestMistakeBound checks the theorem of Block and Novikoff through the
// origin: with every ||x|| <= R and a unit vector u with every y·u·x >=
// gamma > 0, the perceptron from zero makes at most (R/gamma)^2 mistakes,
// whatever the order and the rate.
func TestMistakeBound(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 14))
	for trial := range 300 {
		n, d := 2+rnd.IntN(80), 2+rnd.IntN(6)
		u := make([]float64, d)
		for j := range u {
			u[j] = rnd.NormFloat64()
		}
		floats.Scale(1/floats.Norm(u, 2), u)
		X := mat.NewDense(n, d, nil)
		y := make([]float64, n)
		gamma, R := math.Inf(1), 0.0
		for i := range n {
			x := X.RawRowView(i)
			var a float64
			for a == 0 || math.Abs(a) < 0.01 {
				a = 0
				for j := range x {
					x[j] = 2*rnd.Float64() - 1
					a += u[j] * x[j]
				}
			}
			y[i] = sign(a)
			gamma = min(gamma, y[i]*a)
			R = max(R, floats.Norm(x, 2))
		}
		p := &Perceptron{NoBias: true, Epochs: 1 << 20, Rate: []float64{0, 0.01, 3}[trial%3], Labels: binaryLabels}
		if trial%2 == 1 {
			p.Rand = rand.New(rand.NewPCG(uint64(trial), 1))
		}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		st := p.Stats()
		if bound := (R / gamma) * (R / gamma); !st.Converged || float64(st.Mistakes) > bound {
			t.Fatalf("trial %d: %d mistakes (converged %t), bound (R/gamma)^2 = %.1f", trial, st.Mistakes, st.Converged, bound)
		}
	}
}

// TestDefaultEpochs checks the documented default: zero Epochs means
// 1000, the limit of scikit-learn's Perceptron.
func TestDefaultEpochs(t *testing.T) {
	p := &Perceptron{}
	if err := p.Fit(mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0}), []float64{1, 1, -1, -1}); err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.Epochs != 1000 || st.Converged || p.Epochs != 0 {
		t.Fatalf("XOR with Epochs 0 ran %d epochs (converged %t), want 1000", st.Epochs, st.Converged)
	}
}

func TestOverflow(t *testing.T) {
	X := mat.NewDense(2, 1, []float64{10, -10})
	y := []float64{-1, 1}
	p := &Perceptron{Epochs: 5, Rate: 1e308}
	if err := p.Fit(X, y); err == nil || !strings.Contains(err.Error(), "overflowed") {
		t.Fatalf("Fit with Rate 1e308: error %v, want an overflow", err)
	}
	if p.work().w.fitted() {
		t.Fatal("Fit that overflowed left a model")
	}
	// w·x = 0 on (1, 1), a mistake whatever the label; the update with
	// y = +1 takes w[0] past MaxFloat64.
	q := &Perceptron{InitWeights: []float64{1.5e308, -1.5e308}, NoBias: true, Rate: 1e308, Labels: binaryLabels}
	if err := learnOne(q, []float64{1, 0}, 1); err != nil {
		t.Fatal(err)
	}
	w, _ := q.Weights()
	if err := learnOne(q, []float64{1, 1}, 1); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Fatalf("Learn past MaxFloat64: error %v, want an overflow", err)
	}
	if got, _ := q.Weights(); !slices.Equal(got, w) || q.Stats().Mistakes != 0 {
		t.Fatalf("Learn that would overflow changed w to %v, mistakes to %d", got, q.Stats().Mistakes)
	}
	// In one Learn of two rows the first update stands: (0, 1) with
	// y = +1 scores -1.5e308, a mistake that moves w to (1.5e308,
	// -0.5e308); then (1, 4) scores 1.5e308-2e308 < 0, a mistake whose
	// update takes w[0] to 2.5e308.
	r := &Perceptron{InitWeights: []float64{1.5e308, -1.5e308}, NoBias: true, Rate: 1e308, Labels: binaryLabels}
	err := r.Learn(mat.NewDense(2, 2, []float64{0, 1, 1, 4}), []float64{1, 1})
	if err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Fatalf("Learn of two rows past MaxFloat64: error %v, want an overflow", err)
	}
	w1, step := -1.5e308, 1e308
	w1 += step // in float64 arithmetic, as the update is
	if got, b := r.Weights(); !slices.Equal(got, []float64{1.5e308, w1}) || !slices.Equal(b, []float64{0}) || r.Stats().Mistakes != 1 {
		t.Fatalf("Learn that overflowed on its second row: w=%v b=%v, %d mistakes, want the first row's update, 1 mistake", got, b, r.Stats().Mistakes)
	}
}

func TestPerceptronRateScales(t *testing.T) {
	// From zero weights the rate scales w and b and changes no update.
	rnd := rand.New(rand.NewPCG(5, 6))
	for range 50 {
		_, X, y := intSet(rnd, 20, 4)
		one, half := &Perceptron{Epochs: 7}, &Perceptron{Epochs: 7, Rate: 0.5}
		if err := one.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if err := half.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		w1, b1 := one.Weights()
		wh, bh := half.Weights()
		for j := range w1 {
			if wh[j] != w1[j]/2 {
				t.Fatalf("rate 0.5 gave w=%v, want half of %v", wh, w1)
			}
		}
		if bh[0] != b1[0]/2 || !slices.Equal(half.Stats().EpochMistakes, one.Stats().EpochMistakes) {
			t.Fatalf("rate 0.5: b=%v %v, rate 1: b=%v %v", bh, half.Stats(), b1, one.Stats())
		}
	}
}

func TestFitErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	X := func(v ...float64) *mat.Dense { return mat.NewDense(len(v)/2, 2, v) }
	for _, tc := range []struct {
		name string
		p    Perceptron
		X    mat.Matrix
		y    []float64
		want string
	}{
		{"nil X", Perceptron{}, nil, nil, "X is nil"},
		{"nil *mat.Dense", Perceptron{}, (*mat.Dense)(nil), nil, "X is nil"},
		{"empty X", Perceptron{}, &mat.Dense{}, nil, "X has no rows"},
		{"no columns", Perceptron{}, matrixOnly{mat.NewDense(2, 1, nil).Slice(0, 2, 0, 0)}, []float64{1, 1}, "X has no columns"},
		{"short y", Perceptron{}, X(1, 2, 3, 4), []float64{1}, "len(y) is 1, want 2"},
		{"single class", Perceptron{}, X(1, 2, 3, 4), []float64{2, 2}, "y has the single class 2: want at least two classes"},
		{"label not in Labels", Perceptron{Labels: []float64{0, 1}}, X(1, 2, 3, 4), []float64{1, 2}, "y[1] is 2, not one of the classes [0 1]"},
		{"single Labels", Perceptron{Labels: []float64{1, 1}}, X(1, 2, 3, 4), []float64{1, 1}, "Labels lists the classes [1], want at least two"},
		{"NaN Labels", Perceptron{Labels: []float64{1, nan}}, X(1, 2, 3, 4), []float64{1, 1}, "Labels[1] is NaN"},
		{"NaN label", Perceptron{}, X(1, 2, 3, 4), []float64{nan, 1}, "y[0] is NaN, want a finite class value"},
		{"infinite label", Perceptron{}, X(1, 2, 3, 4, 5, 6), []float64{1, 2, -inf}, "y[2] is -Inf, want a finite class value"},
		{"NaN in X", Perceptron{}, X(1, 2, 3, nan), []float64{1, -1}, "X[1, 1] is NaN"},
		{"+Inf in X", Perceptron{}, X(inf, 2, 3, 4), []float64{1, -1}, "X[0, 0] is +Inf"},
		{"-Inf in X", Perceptron{}, X(1, 2, -inf, 4), []float64{1, -1}, "X[1, 0] is -Inf"},
		{"NaN in X, shuffled", Perceptron{Rand: rand.New(rand.NewPCG(1, 1))}, X(1, 2, 3, nan), []float64{1, -1}, "X[1, 1] is NaN"},
		{"NaN in X, 3 classes", Perceptron{}, X(1, 2, 3, 4, 5, nan), []float64{1, 2, 3}, "X[2, 1] is NaN"},
		{"negative epochs", Perceptron{Epochs: -1}, X(1, 2, 3, 4), []float64{1, -1}, "Epochs is -1"},
		{"negative rate", Perceptron{Rate: -0.5}, X(1, 2, 3, 4), []float64{1, -1}, "Rate is -0.5"},
		{"NaN rate", Perceptron{Rate: nan}, X(1, 2, 3, 4), []float64{1, -1}, "Rate is NaN"},
		{"infinite rate", Perceptron{Rate: inf}, X(1, 2, 3, 4), []float64{1, -1}, "Rate is +Inf"},
		{"short InitWeights", Perceptron{InitWeights: []float64{1}}, X(1, 2, 3, 4), []float64{1, -1}, "InitWeights has length 1, want 2"},
		{"short InitWeights, 3 classes", Perceptron{InitWeights: []float64{1, 2}}, X(1, 2, 3, 4, 5, 6), []float64{1, 2, 3}, "InitWeights has length 2, want 6"},
		{"NaN InitWeights", Perceptron{InitWeights: []float64{0, nan}}, X(1, 2, 3, 4), []float64{1, -1}, "InitWeights[1] is NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Fit(tc.X, tc.y)
			if err == nil {
				t.Fatalf("Fit succeeded, want an error containing %q", tc.want)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "perceptron: ") || !strings.Contains(msg, tc.want) {
				t.Fatalf("error %q, want one starting with \"perceptron: \" containing %q", msg, tc.want)
			}
			if tc.p.work().w.fitted() || tc.p.Classes() != nil {
				t.Fatal("failed Fit left a fitted model")
			}
		})
	}
}

func TestFailedFitKeepsModel(t *testing.T) {
	p := &Perceptron{}
	X := mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1})
	if err := p.Fit(X, []float64{-1, -1, -1, 1}); err != nil {
		t.Fatal(err)
	}
	w, b := p.Weights()
	st := p.Stats()
	var updates int
	p.OnUpdate = func(Update) { updates++ }
	bad := mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, math.NaN()})
	if err := p.Fit(bad, []float64{-1, -1, -1, 1}); err == nil {
		t.Fatal("Fit with NaN succeeded")
	}
	if updates == 0 {
		t.Fatal("the NaN was found before any update: this test no longer checks that training state is discarded")
	}
	if gw, gb := p.Weights(); !slices.Equal(gw, w) || !slices.Equal(gb, b) || !slices.Equal(p.Stats().EpochMistakes, st.EpochMistakes) {
		t.Fatalf("failed Fit changed the model: w=%v b=%v %+v, want w=%v b=%v %+v", gw, gb, p.Stats(), w, b, st)
	}
	updates = 0
	if err := learnOne(p, []float64{1, math.Inf(-1)}, 1); err == nil || !strings.Contains(err.Error(), "X[0, 1] is -Inf") {
		t.Fatalf("Learn with -Inf: error %v", err)
	}
	if gw, gb := p.Weights(); !slices.Equal(gw, w) || !slices.Equal(gb, b) || p.Stats().Mistakes != st.Mistakes || updates != 0 {
		t.Fatal("failed Learn changed the model")
	}
}

func TestFitKeepsInputs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	_, X, y := intSet(rnd, 40, 5)
	Xc, yc := mat.DenseCopyOf(X), slices.Clone(y)
	w0 := []float64{1, 2, 3, 4, 5}
	w0c := slices.Clone(w0)
	p := &Perceptron{Epochs: 5, InitWeights: w0, Rand: rand.New(rand.NewPCG(1, 2))}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(X, Xc) || !slices.Equal(y, yc) || !slices.Equal(w0, w0c) {
		t.Fatal("Fit modified its inputs")
	}
	if p.Epochs != 5 || p.Rate != 0 || p.NoBias {
		t.Fatalf("Fit wrote back settings: %+v", p)
	}
	// The model keeps no reference to X.
	w, b := p.Weights()
	X.Zero()
	if gw, gb := p.Weights(); !slices.Equal(gw, w) || !slices.Equal(gb, b) {
		t.Fatal("model changed with X")
	}
}

// matrixOnly hides every method of a matrix but those of mat.Matrix, so
// that Fit must copy it.
type matrixOnly struct{ mat.Matrix }

func TestFitMatrixKinds(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	_, big, y := intSet(rnd, 30, 8)
	// A strided view: rows 0..29, columns 2..6 of big.
	view := big.Slice(0, 30, 2, 7).(*mat.Dense)
	want := &Perceptron{Epochs: 10}
	if err := want.Fit(mat.DenseCopyOf(view), y); err != nil {
		t.Fatal(err)
	}
	// NaN outside the view must not be seen.
	for i := range 30 {
		big.Set(i, 0, math.NaN())
		big.Set(i, 7, math.Inf(1))
	}
	for name, X := range map[string]mat.Matrix{
		"strided view": view,
		"not raw":      matrixOnly{view},
		"transposed":   mat.DenseCopyOf(view.T()).T(),
	} {
		p := &Perceptron{Epochs: 10}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		w, b := p.Weights()
		ww, wb := want.Weights()
		if !slices.Equal(w, ww) || !slices.Equal(b, wb) {
			t.Errorf("%s: w=%v b=%v, want w=%v b=%v", name, w, b, ww, wb)
		}
	}
}

func TestDeterminism(t *testing.T) {
	X, y := synth.Data(300, 20)
	fit := func() *Perceptron {
		p := &Perceptron{Epochs: 20, Rate: 0.1, Rand: rand.New(rand.NewPCG(42, 0))}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := fit(), fit()
	aw, ab := a.Weights()
	bw, bb := b.Weights()
	if !slices.Equal(aw, bw) || !slices.Equal(ab, bb) || !slices.Equal(a.Stats().EpochMistakes, b.Stats().EpochMistakes) {
		t.Fatal("same data, settings and seed gave different models")
	}
}

func TestPredictPanics(t *testing.T) {
	var p Perceptron
	mustPanic(t, "Predict before Fit", "perceptron: Predict called before Fit", func() { p.Predict([]float64{1}) })
	mustPanic(t, "ScoreRows before Fit", "perceptron: ScoreRows called before Fit", func() { rowScores(&p, []float64{1}) })
	mustPanic(t, "PredictRows before Fit", "perceptron: PredictRows called before Fit", func() { p.PredictRows(nil, mat.NewDense(1, 1, nil)) })
	if err := p.Fit(mat.NewDense(2, 2, []float64{1, 0, 0, 1}), []float64{1, -1}); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "short x", "perceptron: x has length 1, want 2", func() { p.Predict([]float64{1}) })
	mustPanic(t, "long x", "perceptron: x has length 3, want 2", func() { p.Predict([]float64{1, 2, 3}) })
	mustPanic(t, "wide X", "perceptron: X has 3 columns, want 2", func() { rowScores(&p, []float64{1, 2, 3}) })
	mustPanic(t, "short dst", "perceptron: dst has length 1, want 2", func() { p.ScoreRows(make([]float64, 1), mat.NewDense(2, 2, nil)) })
}

func TestPredictSignOfZero(t *testing.T) {
	p := &Perceptron{NoBias: true, Labels: binaryLabels}
	// One update on (1, 0) with y=-1 gives w=(-1, 0); (0, 5) scores 0.
	if err := p.Fit(mat.NewDense(1, 2, []float64{1, 0}), []float64{-1}); err != nil {
		t.Fatal(err)
	}
	if s, got := rowScores(p, []float64{0, 5}), p.Predict([]float64{0, 5}); !slices.Equal(s, []float64{0}) || got != 1 {
		t.Fatalf("score %v predicted %v, want score 0 predicted +1", s, got)
	}
}

func TestConcurrentPredict(t *testing.T) {
	X, y := synth.Data(200, 10)
	p := &Perceptron{Epochs: 5}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	want := make([]float64, 200)
	for i := range want {
		want[i] = p.Predict(X.RawRowView(i))
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range want {
				if got := p.Predict(X.RawRowView(i)); got != want[i] {
					t.Errorf("row %d: concurrent Predict %v, want %v", i, got, want[i])
				}
			}
		})
	}
	wg.Wait()
}

func TestAllocs(t *testing.T) {
	X, y := synth.Data(100, 10)
	p := &Perceptron{Epochs: 5}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	x := X.RawRowView(3)
	if a := testing.AllocsPerRun(100, func() { p.Predict(x) }); a != 0 {
		t.Errorf("Predict allocates %v times", a)
	}

	fitAllocs := func(n int) float64 {
		X, y := synth.Data(n, 10)
		return testing.AllocsPerRun(5, func() {
			p := &Perceptron{Epochs: 5, Rand: rand.New(rand.NewPCG(1, 1))}
			if err := p.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			if p.Stats().Epochs != 5 {
				t.Fatal("data separable: the epochs differ")
			}
		})
	}
	if small, large := fitAllocs(50), fitAllocs(2000); small != large {
		t.Errorf("Fit allocates %v times on 50 rows and %v on 2000: it allocates per example", small, large)
	}
	// Visiting in index order, Fit needs no slice of the rows' order,
	// whose fresh memory costs page faults. It holds the class of each
	// row, an int, which the runtime rounds up to its pages of 8 KiB.
	fitBytes := func(n int) uint64 {
		X, y := synth.Data(n, 10)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p := &Perceptron{Epochs: 2}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	const classBytes = 8 * (20000 - 50)
	if small, large := fitBytes(50), fitBytes(20000); large > small+classBytes+8192+4096 {
		t.Errorf("Fit in index order allocates %d bytes on 50 rows and %d on 20000, more than an int per row: it allocates per row", small, large)
	}
	// Learn of a batch of rows allocates for the batch, not per example:
	// as often on one row as on a hundred. The rows come with the
	// opposite of their labels, so that Learn updates.
	learnAllocs := func(n int) float64 {
		flipped := make([]float64, n)
		for i := range flipped {
			flipped[i] = -y[i]
		}
		rows := X.Slice(0, n, 0, 10)
		q := &Perceptron{}
		if err := q.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		before := q.Stats().Mistakes
		a := testing.AllocsPerRun(20, func() {
			if err := q.Learn(rows, flipped); err != nil {
				t.Fatal(err)
			}
		})
		if q.Stats().Mistakes == before {
			t.Fatalf("Learn on %d rows of flipped labels made no update", n)
		}
		return a
	}
	if one, hundred := learnAllocs(1), learnAllocs(100); one != hundred {
		t.Errorf("Learn allocates %v times on 1 row and %v on 100: it allocates per example", one, hundred)
	}
}

func TestLearn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	for range 50 {
		rows, X, y := intSet(rnd, 25, 3)
		// One epoch of Fit in order is Learn on every row in order, one
		// row at a time or all at once.
		fit := &Perceptron{Epochs: 1, Rate: 0.5, Labels: binaryLabels}
		if err := fit.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		learn := &Perceptron{Rate: 0.5, Labels: binaryLabels}
		all := &Perceptron{Rate: 0.5, Labels: binaryLabels}
		mistakes := 0
		for i, x := range rows {
			before := learn.Stats().Mistakes
			if err := learnOne(learn, x, y[i]); err != nil {
				t.Fatal(err)
			}
			switch learn.Stats().Mistakes - before {
			case 0:
			case 1:
				mistakes++
			default:
				t.Fatalf("Learn of one row added %d mistakes", learn.Stats().Mistakes-before)
			}
		}
		if err := all.Learn(X, y); err != nil {
			t.Fatal(err)
		}
		fw, fb := fit.Weights()
		for _, m := range []*Perceptron{learn, all} {
			if w, b := m.Weights(); !slices.Equal(w, fw) || !slices.Equal(b, fb) {
				t.Fatalf("Learn gave w=%v b=%v, one epoch of Fit w=%v b=%v", w, b, fw, fb)
			}
			// Learn counts its mistakes, and no epoch of Fit.
			if st := m.Stats(); st.Mistakes != fit.Stats().Mistakes || st.Epochs != 0 || st.EpochMistakes != nil || st.Converged {
				t.Fatalf("Learn left Stats %+v, want %d mistakes and nothing else", st, fit.Stats().Mistakes)
			}
		}
		if mistakes != fit.Stats().Mistakes {
			t.Fatalf("Learn row by row made %d updates, Fit %d", mistakes, fit.Stats().Mistakes)
		}
		// Learning after Fit continues from the fitted model: a second
		// pass of Learn is the second epoch of Fit, and Stats keep Fit's
		// epochs and add the mistakes of Learn.
		stFit := fit.Stats()
		two := &Perceptron{Epochs: 2, Rate: 0.5, Labels: binaryLabels}
		if err := two.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if err := fit.Learn(X, y); err != nil {
			t.Fatal(err)
		}
		w, b := fit.Weights()
		tw, tb := two.Weights()
		if !slices.Equal(w, tw) || !slices.Equal(b, tb) {
			t.Fatalf("Fit then Learn gave w=%v b=%v, two epochs of Fit w=%v b=%v", w, b, tw, tb)
		}
		st := fit.Stats()
		if st.Epochs != stFit.Epochs || st.Converged != stFit.Converged || !slices.Equal(st.EpochMistakes, stFit.EpochMistakes) || st.Mistakes != two.Stats().Mistakes {
			t.Errorf("Learn after Fit changed Stats from %+v to %+v, want %d mistakes", stFit, st, two.Stats().Mistakes)
		}
	}
}

func TestLearnErrors(t *testing.T) {
	p := Perceptron{Labels: binaryLabels}
	for _, tc := range []struct {
		X    mat.Matrix
		y    []float64
		want string
	}{
		{nil, []float64{1}, "X is nil"},
		{mat.NewDense(1, 2, []float64{1, 2}), []float64{0}, "y[0] is 0, not one of the classes [-1 1]"},
		{mat.NewDense(1, 2, []float64{math.NaN(), 2}), []float64{1}, "X[0, 0] is NaN"},
		{mat.NewDense(1, 2, []float64{1, 2}), []float64{1, 1}, "len(y) is 2, want 1"},
	} {
		if err := p.Learn(tc.X, tc.y); err == nil || !strings.HasPrefix(err.Error(), "perceptron: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Learn(%v, %v): error %v, want %q", tc.X, tc.y, err, tc.want)
		}
	}
	if p.work().w.fitted() || p.Classes() != nil || p.Stats().Mistakes != 0 {
		t.Fatal("failed Learn started a model")
	}
	var calls []update
	p.OnUpdate = func(u Update) {
		epoch, i, w, b := u.Epoch, u.Row, u.Weights, u.Biases[0]
		calls = append(calls, update{epoch, i, slices.Clone(w), b})
	}
	if err := learnOne(&p, []float64{1, 2}, 1); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].epoch != 0 || calls[0].i != 0 || !slices.Equal(calls[0].w, []float64{1, 2}) || calls[0].b != 1 {
		t.Fatalf("Learn called OnUpdate with %v, want one call with epoch 0, row 0, w=[1 2], b=1", calls)
	}
	if err := learnOne(&p, []float64{1, 2, 3}, 1); err == nil || !strings.Contains(err.Error(), "X has 3 columns, want 2") {
		t.Errorf("Learn with a longer x: error %v", err)
	}
	bad := &Perceptron{InitWeights: []float64{1}, Labels: binaryLabels}
	if err := learnOne(bad, []float64{1, 2}, 1); err == nil || !strings.Contains(err.Error(), "InitWeights has length 1, want 2") {
		t.Errorf("Learn with short InitWeights: error %v", err)
	}

	// p has the bias 1. Learn goes on with the model's own bias whatever
	// NoBias says now: (-1, -2) with y = +1 scores -5+1 = -4, a mistake
	// that moves w to (0, 0) and b to 2.
	p.NoBias = true
	if err := learnOne(&p, []float64{-1, -2}, 1); err != nil {
		t.Fatalf("Learn with NoBias set after a bias: %v", err)
	}
	if w, b := p.Weights(); !slices.Equal(w, []float64{0, 0}) || !slices.Equal(b, []float64{2}) {
		t.Errorf("Learn with NoBias set after a bias: w=%v b=%v, want w=[0 0] b=[2]", w, b)
	}
}

// FuzzFit checks that Fit accepts exactly the valid data sets, reports
// the offending value of an invalid one, and never panics.
func FuzzFit(f *testing.F) {
	f.Add(uint8(2), []byte{0, 0, 0, 1, 1, 0, 1, 1}, []byte{0, 0, 0, 1})
	f.Add(uint8(1), []byte{255, 3}, []byte{2, 1})
	f.Add(uint8(3), []byte{254, 1, 2, 253, 4, 5}, []byte{1, 0})
	f.Fuzz(func(t *testing.T, d uint8, xs, ys []byte) {
		data, y, valid, ok := fuzzSet(d, xs, ys)
		if !ok {
			return
		}
		X := mat.NewDense(len(data)/int(d), int(d), data)
		Xc, yc := slices.Clone(data), slices.Clone(y)
		p := &Perceptron{Epochs: 3}
		err := p.Fit(X, y)
		if valid != (err == nil) {
			t.Fatalf("valid=%t but Fit returned %v", valid, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "perceptron: ") {
			t.Fatalf("error %q lacks the package prefix", err)
		}
		same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
		if !slices.EqualFunc(data, Xc, same) || !slices.EqualFunc(y, yc, same) {
			t.Fatal("Fit modified its inputs")
		}
	})
}

// fuzzSet decodes a fuzzed data set of d columns: bytes 253, 254 and 255
// of xs and ys stand for -Inf, +Inf and NaN, other bytes of xs for c-128,
// and other labels of ys 0 and 1 for -1 and +1 and others for themselves,
// class values all. valid reports whether Fit should accept the set: rows
// and labels of finite values, as many, of at least two classes; ok is
// false if xs holds no row.
func fuzzSet(d uint8, xs, ys []byte) (data, y []float64, valid, ok bool) {
	if d == 0 || len(xs) < int(d) {
		return nil, nil, false, false
	}
	n := len(xs) / int(d)
	data = make([]float64, n*int(d))
	valid = len(ys) == n
	special := func(c byte) float64 {
		return []float64{math.Inf(-1), math.Inf(1), math.NaN()}[c-253]
	}
	for i := range data {
		data[i] = float64(int(xs[i]) - 128)
		if c := xs[i]; c >= 253 {
			data[i] = special(c)
			valid = false
		}
	}
	y = make([]float64, len(ys))
	for i, c := range ys {
		switch {
		case c >= 253:
			y[i] = special(c)
			valid = false
		case c == 0:
			y[i] = -1
		default:
			y[i] = float64(c)
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(y)))) < 2 {
		valid = false
	}
	return data, y, valid, true
}
