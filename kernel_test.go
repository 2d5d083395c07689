// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

type kernelUpdate struct {
	epoch, i int
	b        float64
}

// The linear kernel is Perceptron in dual form: on integer data, where
// every sum is exact, it makes the same mistakes and ends with the same
// hyperplane, for either order, with and without a bias, at any rate.
func TestKernelLinearIsPerceptron(t *testing.T) {
	for seed := range uint64(20) {
		rnd := rand.New(rand.NewPCG(seed, 1))
		n, d := 20+rnd.IntN(200), 1+rnd.IntN(12)
		_, X, y := intSet(rnd, n, d)
		noBias := seed%2 == 1
		rate := float64(1 + seed%3)
		shuffle := seed%4 >= 2

		var pu, ku []kernelUpdate
		p := &Perceptron{Epochs: 15, Rate: rate, NoBias: noBias, OnUpdate: func(u Update) {
			epoch, i, b := u.Epoch, u.Row, u.Biases[0]
			pu = append(pu, kernelUpdate{epoch, i, b})
		}}
		k := &Kernel{Epochs: 15, Rate: rate, NoBias: noBias, OnUpdate: func(u Update) {
			epoch, i, b := u.Epoch, u.Row, u.Biases[0]
			ku = append(ku, kernelUpdate{epoch, i, b})
		}}
		if shuffle {
			p.Rand = rand.New(rand.NewPCG(seed, 2))
			k.Rand = rand.New(rand.NewPCG(seed, 2))
		}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if err := k.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(pu, ku) {
			t.Fatalf("seed %d: updates differ:\nperceptron %v\nkernel     %v", seed, pu, ku)
		}
		ps, ks := p.Stats(), k.Stats()
		if ps.Epochs != ks.Epochs || ps.Converged != ks.Converged || !slices.Equal(ps.EpochMistakes, ks.EpochMistakes) {
			t.Fatalf("seed %d: stats differ: %+v, %+v", seed, ps, ks)
		}
		// w = sum_j coef_j·sv_j.
		sv, coef := k.SupportVectors()
		w := make([]float64, d)
		for j, c := range coef {
			floats.AddScaled(w, c, sv.RawRowView(j))
		}
		if !slices.Equal(w, p.Weights()) || k.Bias() != p.Bias() {
			t.Fatalf("seed %d: kernel hyperplane w=%v b=%v, perceptron w=%v b=%v", seed, w, k.Bias(), p.Weights(), p.Bias())
		}
		for i := range n {
			x := X.RawRowView(i)
			if k.Score(x) != p.Score(x) {
				t.Fatalf("seed %d: Score(row %d) is %v, perceptron %v", seed, i, k.Score(x), p.Score(x))
			}
		}
	}
}

// XOR is separable by the degree-2 polynomial kernel. The trace was
// checked against an independent plain implementation; the final scores
// by hand from the kernel table in ExampleKernel_xor.
func TestKernelXOR(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0})
	y := []float64{1, 1, -1, -1}
	for _, noBias := range []bool{false, true} {
		k := &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, NoBias: noBias}
		if err := k.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		st := k.Stats()
		if !st.Converged || st.Epochs != 8 || st.Mistakes != 21 || !slices.Equal(st.EpochMistakes, []int{3, 4, 4, 4, 4, 1, 1, 0}) {
			t.Errorf("noBias=%t: stats %+v", noBias, st)
		}
		_, coef := k.SupportVectors()
		if !slices.Equal(coef, []float64{7, -5, -5, 4}) {
			t.Errorf("noBias=%t: coefficients %v, want [7 -5 -5 4]", noBias, coef)
		}
		want := []float64{2, 4, -1, -1}
		if noBias {
			want = []float64{1, 3, -2, -2}
		}
		for i := range 4 {
			if got := k.Score(X.RawRowView(i)); got != want[i] {
				t.Errorf("noBias=%t: Score(row %d) = %v, want %v", noBias, i, got, want[i])
			}
		}
	}
}

// naiveKernel is the kernel perceptron written plainly, as a reference:
// it scores every visit by a sum over every mistake of the hypothesis, and
// predicts by building every hypothesis of the run again.
type naiveKernel struct {
	K       func(x, z []float64) float64
	epochs  int
	rate    float64
	beta    float64
	budget  int
	rnd     *rand.Rand
	shuffle bool

	X        [][]float64
	mistakes []naiveMistake // every mistake of the run
	visits   int
	removed  int // the visit of the last removal
	updates  []kernelUpdate
}

type naiveMistake struct {
	row     int
	a       float64
	t       int
	removed bool
}

func (nk *naiveKernel) f(x []float64) float64 {
	var s float64
	for _, m := range nk.mistakes {
		if !m.removed {
			s += m.a * (nk.K(nk.X[m.row], x) + nk.beta)
		}
	}
	return s
}

func (nk *naiveKernel) fit(X *mat.Dense, y []float64) {
	n, _ := X.Dims()
	for i := range n {
		nk.X = append(nk.X, X.RawRowView(i))
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for epoch := 1; epoch <= nk.epochs; epoch++ {
		if nk.shuffle {
			nk.rnd.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		mistakes := 0
		for _, i := range order {
			nk.visits++
			if y[i]*nk.f(nk.X[i]) > 0 {
				continue
			}
			mistakes++
			var live []int
			for e, m := range nk.mistakes {
				if !m.removed {
					live = append(live, e)
				}
			}
			if nk.budget > 0 && len(live) == nk.budget {
				nk.mistakes[live[nk.rnd.IntN(len(live))]].removed = true
				nk.removed = nk.visits
			}
			nk.mistakes = append(nk.mistakes, naiveMistake{row: i, a: nk.rate * y[i], t: nk.visits})
			nk.updates = append(nk.updates, kernelUpdate{epoch, i, nk.beta * nk.rate * nk.sumY()})
		}
		if mistakes == 0 {
			// The hypothesis no longer changes: the voted and averaged
			// rules of Freund and Schapire count it for every visit of
			// the epochs left.
			nk.visits += (nk.epochs - epoch) * n
			break
		}
	}
}

func (nk *naiveKernel) sumY() float64 {
	var s float64
	for _, m := range nk.mistakes {
		if !m.removed {
			s += m.a / nk.rate
		}
	}
	return s
}

// scores returns the last, voted and averaged scores of x: the hypothesis
// after visit t is the sum over the mistakes made by visit t that the
// final hypothesis keeps; with removals, only the hypotheses from the
// last removal on are combined.
func (nk *naiveKernel) scores(x []float64) (last, voted, averaged float64) {
	from := max(1, nk.removed)
	for t := from; t <= nk.visits; t++ {
		var f float64
		for _, m := range nk.mistakes {
			if !m.removed && m.t <= t {
				f += m.a * (nk.K(nk.X[m.row], x) + nk.beta)
			}
		}
		voted += sign(f)
		averaged += f
		last = f
	}
	return last, voted, averaged / float64(nk.visits-from+1)
}

// Fit and the three prediction rules agree with the plain reference, with
// and without a budget, on integer data exactly and on real data with RBF
// to rounding. The sizes cross block boundaries and the budget's draws
// interleave with the shuffles.
func TestKernelNaive(t *testing.T) {
	early := 0 // the runs that converge before their last epoch
	for seed := range uint64(24) {
		rnd := rand.New(rand.NewPCG(seed, 3))
		n, d := 40+rnd.IntN(160), 1+rnd.IntN(8)
		var X *mat.Dense
		var y []float64
		var f KernelFunc
		exact := seed%3 != 2
		switch seed % 3 {
		case 0:
			var rows [][]float64
			rows, X, y = intSet(rnd, n, d)
			f = Linear{}
			if seed%2 == 0 {
				// Separable, so that some runs converge early.
				for i, x := range rows {
					y[i] = sign(x[0] + 0.5)
				}
			}
		case 1:
			_, X, y = intSet(rnd, n, d)
			f = Poly{Degree: 1 + int(seed%4), Gamma: 1, Coef0: float64(seed % 2)}
		case 2:
			X, y = ballSet(rnd, n, d)
			f = RBF{Gamma: 0.5 + rnd.Float64()}
		}
		budget := 0
		if seed%4 == 1 || seed%4 == 2 {
			budget = 5 + rnd.IntN(30)
		}
		shuffle := seed%5 < 3
		epochs := 1 + rnd.IntN(6)
		if seed%6 == 0 {
			epochs += 20 // the separable sets
		}
		noBias := seed%6 == 5
		rate := 1.0
		if !exact {
			rate = 0.3
		}

		k := &Kernel{Func: f, Epochs: epochs, Budget: budget, NoBias: noBias, Rate: rate}
		var ku []kernelUpdate
		k.OnUpdate = func(u Update) {
			epoch, i, vectors, b := u.Epoch, u.Row, u.Vectors, u.Biases[0]
			ku = append(ku, kernelUpdate{epoch, i, b})
			if budget > 0 && vectors > budget {
				t.Fatalf("seed %d: %d support vectors, budget %d", seed, vectors, budget)
			}
		}
		nk := &naiveKernel{K: f.Eval, epochs: epochs, rate: rate, budget: budget, shuffle: shuffle}
		if !noBias {
			nk.beta = 1
		}
		if shuffle {
			k.Rand = rand.New(rand.NewPCG(seed, 4))
			nk.rnd = rand.New(rand.NewPCG(seed, 4))
		} else {
			nk.rnd = rand.New(rand.NewPCG(budgetSeed, 0))
		}
		if err := k.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if st := k.Stats(); st.Converged && st.Epochs < epochs {
			early++
		}
		nk.fit(X, y)

		if len(ku) != len(nk.updates) {
			t.Fatalf("seed %d: %d updates, reference %d", seed, len(ku), len(nk.updates))
		}
		for j := range ku {
			if ku[j].epoch != nk.updates[j].epoch || ku[j].i != nk.updates[j].i || !near(ku[j].b, nk.updates[j].b, exact) {
				t.Fatalf("seed %d: update %d is %v, reference %v", seed, j, ku[j], nk.updates[j])
			}
		}
		for trial := range 10 {
			var x []float64
			if trial < 5 {
				x = X.RawRowView(rnd.IntN(n))
			} else {
				x = make([]float64, d)
				for j := range x {
					x[j] = math.Round(rnd.Float64()*6 - 3)
				}
			}
			last, voted, averaged := nk.scores(x)
			for _, c := range []struct {
				p    Prediction
				want float64
			}{{PredictLast, last}, {PredictVoted, voted}, {PredictAveraged, averaged}} {
				k.Prediction = c.p
				if got := k.Score(x); !near(got, c.want, exact) {
					t.Fatalf("seed %d: %v score of %v is %v, reference %v", seed, c.p, x, got, c.want)
				}
			}
		}
	}
	if early == 0 {
		t.Error("no run converged before its last epoch: the epochs left are not tested")
	}
}

// Budget keeps at most Budget mistakes. With Budget 1 the hypothesis is
// the last mistake alone, and a budget no run reaches changes nothing.
func TestKernelBudget(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 5))
	X, y := ballSet(rnd, 300, 4)
	var last kernelUpdate
	k := &Kernel{Func: RBF{Gamma: 2}, Epochs: 3, Budget: 1, OnUpdate: func(u Update) {
		epoch, i, vectors, b := u.Epoch, u.Row, u.Vectors, u.Biases[0]
		if vectors != 1 || b != y[i] {
			t.Fatalf("row %d: %d vectors, b=%v with Budget 1", i, vectors, b)
		}
		last = kernelUpdate{epoch, i, b}
	}}
	if err := k.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	sv, coef := k.SupportVectors()
	if r, _ := sv.Dims(); r != 1 || !slices.Equal(sv.RawRowView(0), X.RawRowView(last.i)) || coef[0] != y[last.i] {
		t.Fatalf("Budget 1 kept %v with %v, want row %d", mat.Formatted(sv), coef, last.i)
	}

	free := &Kernel{Func: RBF{Gamma: 2}, Epochs: 3}
	if err := free.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	roomy := &Kernel{Func: RBF{Gamma: 2}, Epochs: 3, Budget: free.Stats().Mistakes}
	if err := roomy.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	for _, p := range []Prediction{PredictLast, PredictVoted, PredictAveraged} {
		free.Prediction, roomy.Prediction = p, p
		for i := range 300 {
			if a, b := free.Score(X.RawRowView(i)), roomy.Score(X.RawRowView(i)); a != b {
				t.Fatalf("%v: a budget of every mistake changed row %d's score from %v to %v", p, i, a, b)
			}
		}
	}

	// On a long stream, Learn's memory stays within the budget.
	s := &Kernel{Func: RBF{Gamma: 2}, Budget: 25}
	x := make([]float64, 4)
	mistakes := 0
	for range 5000 {
		for j := range x {
			x[j] = rnd.Float64()
		}
		label := 1.0
		if floats.Sum(x) > 2 {
			label = -1
		}
		mistake, err := s.Learn(x, label)
		if err != nil {
			t.Fatal(err)
		}
		if mistake {
			mistakes++
		}
		if s.m.vectors() > 25 || len(s.m.h.mistakes) > 25 || s.m.sv.n != s.m.vectors() || len(s.m.sv.data) != s.m.vectors()*4 {
			t.Fatalf("Learn stores %d vectors and %d mistakes with Budget 25", s.m.vectors(), len(s.m.h.mistakes))
		}
	}
	if mistakes < 100 {
		t.Fatalf("only %d mistakes on the stream: the budget was not exercised", mistakes)
	}
}

// The removed mistake is drawn uniformly: over many seeds, each of the
// Budget mistakes present at the first removal is removed about equally
// often.
func TestKernelBudgetUniform(t *testing.T) {
	const budget, trials = 4, 4000
	// The rows are orthogonal, so through the origin every row scores 0
	// in epoch 1 and is a mistake, whatever the order.
	X := mat.NewDense(budget+1, budget+1, nil)
	for i := range budget + 1 {
		X.Set(i, i, float64(i+1))
	}
	y := []float64{1, -1, 1, -1, 1}
	counts := make([]int, budget)
	for seed := range uint64(trials) {
		k := &Kernel{Epochs: 1, Budget: budget, NoBias: true, Rand: rand.New(rand.NewPCG(seed, 7))}
		var rows []int
		k.OnUpdate = func(u Update) { rows = append(rows, u.Row) }
		if err := k.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if len(rows) != budget+1 {
			t.Fatalf("seed %d: %d mistakes, want %d", seed, len(rows), budget+1)
		}
		sv, _ := k.SupportVectors()
		kept := map[float64]bool{}
		for j := range budget {
			kept[floats.Sum(sv.RawRowView(j))] = true
		}
		for j, i := range rows[:budget] {
			if !kept[float64(i+1)] {
				counts[j]++
			}
		}
	}
	// Each count is Binomial(4000, 1/4): mean 1000, sd 27.
	for j, c := range counts {
		if c < 1000-5*27 || c > 1000+5*27 {
			t.Errorf("mistake %d was removed %d times in %d, want about %d", j, c, trials, trials/budget)
		}
	}
}

func TestKernelInvalid(t *testing.T) {
	X := mat.NewDense(2, 2, []float64{0, 1, 1, 0})
	y := []float64{1, -1}
	for _, c := range []struct {
		k    Kernel
		want string
	}{
		{Kernel{Func: Poly{Degree: -1}}, "Poly.Degree is -1"},
		{Kernel{Func: Poly{Gamma: -1}}, "Poly.Gamma is -1"},
		{Kernel{Func: Poly{Gamma: math.NaN()}}, "Poly.Gamma is NaN"},
		{Kernel{Func: Poly{Gamma: math.Inf(1)}}, "Poly.Gamma is +Inf"},
		{Kernel{Func: Poly{Coef0: math.Inf(-1)}}, "Poly.Coef0 is -Inf"},
		{Kernel{Func: Poly{Coef0: math.NaN()}}, "Poly.Coef0 is NaN"},
		{Kernel{Func: RBF{Gamma: -0.5}}, "RBF.Gamma is -0.5"},
		{Kernel{Func: RBF{Gamma: math.NaN()}}, "RBF.Gamma is NaN"},
		{Kernel{Func: RBF{Gamma: math.Inf(1)}}, "RBF.Gamma is +Inf"},
		{Kernel{Func: Custom(nil)}, "Custom kernel is nil"},
		{Kernel{Budget: -1}, "Budget is -1"},
		{Kernel{Prediction: 3}, "Prediction is 3"},
		{Kernel{Prediction: -1}, "Prediction is -1"},
		{Kernel{Epochs: -2}, "Epochs is -2"},
		{Kernel{Rate: math.NaN()}, "Rate is NaN"},
	} {
		k := c.k
		err := k.Fit(X, y)
		if err == nil || !strings.HasPrefix(err.Error(), "perceptron: "+c.want) {
			t.Errorf("%+v: Fit error %v, want %q", c.k, err, c.want)
		}
		if k.m != nil {
			t.Errorf("%+v: a failed Fit changed the Kernel", c.k)
		}
		if _, err := k.Learn([]float64{1, 2}, 1); err == nil || !strings.HasPrefix(err.Error(), "perceptron: "+c.want) {
			t.Errorf("%+v: Learn error %v, want %q", c.k, err, c.want)
		}
		if f := c.k.Func; f != nil && !strings.Contains(c.want, "nil") {
			if !panics(func() { f.Eval([]float64{1}, []float64{2}) }) {
				t.Errorf("%#v: Eval did not panic", f)
			}
		}
	}
}

// A failed Fit leaves a fitted Kernel as it was.
func TestKernelBadData(t *testing.T) {
	k := &Kernel{Func: RBF{}}
	X := mat.NewDense(3, 2, []float64{0, 1, 1, 0, 1, 1})
	if err := k.Fit(X, []float64{1, -1, 1}); err != nil {
		t.Fatal(err)
	}
	before := k.Score([]float64{0.5, 0.5})
	for _, c := range []struct {
		X    mat.Matrix
		y    []float64
		want string
	}{
		{mat.NewDense(3, 2, []float64{0, 1, math.NaN(), 0, 1, 1}), []float64{1, -1, 1}, "perceptron: X[1, 0] is NaN"},
		{mat.NewDense(3, 2, []float64{0, 1, 1, 0, 1, math.Inf(-1)}), []float64{1, -1, 1}, "perceptron: X[2, 1] is -Inf"},
		{X, []float64{1, 1, 1}, "perceptron: y has the single class 1"},
		{X, []float64{1, math.NaN(), 1}, "perceptron: y[1] is NaN"},
		{X, []float64{1, -1}, "perceptron: len(y) is 2, want 3"},
	} {
		if err := k.Fit(c.X, c.y); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Fit error %v, want %q", err, c.want)
		}
		if k.Score([]float64{0.5, 0.5}) != before {
			t.Errorf("a failed Fit changed the Kernel")
		}
	}
	for _, c := range []struct {
		x    []float64
		y    float64
		want string
	}{
		{[]float64{1, math.NaN()}, 1, "perceptron: x[1] is NaN"},
		{[]float64{1}, 1, "perceptron: x has length 1, want 2"},
		{[]float64{1, 2}, 2, "perceptron: y is 2"},
	} {
		if _, err := k.Learn(c.x, c.y); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Learn error %v, want %q", err, c.want)
		}
	}
	if k.Score([]float64{0.5, 0.5}) != before {
		t.Errorf("a failed Learn changed the Kernel")
	}
}

// A score that is not finite, from finite data, is an error of Fit and
// of Learn, which then change nothing.
func TestKernelOverflow(t *testing.T) {
	cube := Poly{Degree: 3, Gamma: 1, Coef0: 1}
	k := &Kernel{Func: cube, Epochs: 5}
	if err := k.Fit(mat.NewDense(2, 1, []float64{1, -2}), []float64{1, -1}); err != nil {
		t.Fatal(err)
	}
	before := k.Score([]float64{0.5})
	// Row 0 is a mistake; row 1 then scores (-1e206+1)³ = -Inf.
	err := (&Kernel{Func: cube, Labels: binaryLabels}).Fit(mat.NewDense(2, 1, []float64{1e103, -1e103}), []float64{1, 1})
	if want := "perceptron: the score of row 1 is -Inf: a kernel value, or its product with a coefficient, is not finite"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Fit error %v, want %q", err, want)
	}
	nan := Custom(func(x, z []float64) float64 { return math.NaN() })
	if err := (&Kernel{Func: nan}).Fit(mat.NewDense(2, 1, []float64{1, 2}), []float64{1, -1}); err == nil || !strings.HasPrefix(err.Error(), "perceptron: the score of row 1 is NaN") {
		t.Errorf("Fit with a NaN kernel: error %v", err)
	}
	// A huge Rate: the second mistake, on the last visit, takes the sum
	// of the coefficients, which is the bias, to +Inf.
	huge := &Kernel{Rate: 1e308, Epochs: 1, Labels: binaryLabels}
	if err := huge.Fit(mat.NewDense(2, 1, []float64{1, -1}), []float64{1, 1}); err == nil || !strings.HasPrefix(err.Error(), "perceptron: the sum of the coefficients overflowed to +Inf") {
		t.Errorf("Fit with Rate 1e308: error %v", err)
	}
	// On a repeated row the coefficient itself overflows.
	huge = &Kernel{Rate: 1e308, Epochs: 2, NoBias: true, Labels: binaryLabels}
	if err := huge.Fit(mat.NewDense(1, 1, []float64{0}), []float64{1}); err == nil || !strings.HasPrefix(err.Error(), "perceptron: the coefficient of support vector 0 overflowed to +Inf") {
		t.Errorf("Fit with Rate 1e308 on a zero row: error %v", err)
	}
	if k.Score([]float64{0.5}) != before {
		t.Errorf("a failed Fit changed the Kernel")
	}
	huge = &Kernel{Rate: 1e308}
	if _, err := huge.Learn([]float64{1}, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := huge.Learn([]float64{-1}, 1); err == nil || !strings.HasPrefix(err.Error(), "perceptron: the update on x would overflow the sum of the coefficients") {
		t.Errorf("Learn with Rate 1e308: error %v", err)
	}
	if huge.m.h.visits != 1 || huge.m.vectors() != 1 {
		t.Errorf("a failed Learn changed the Kernel")
	}

	l := &Kernel{Func: cube}
	if _, err := l.Learn([]float64{1e103}, 1); err != nil {
		t.Fatal(err)
	}
	visits, vectors := l.m.h.visits, l.m.vectors()
	if _, err := l.Learn([]float64{-1e103}, 1); err == nil || !strings.HasPrefix(err.Error(), "perceptron: the score of x is -Inf") {
		t.Errorf("Learn error %v", err)
	}
	if l.m.h.visits != visits || l.m.vectors() != vectors {
		t.Errorf("a failed Learn changed the Kernel")
	}
}

func TestKernelPanics(t *testing.T) {
	var k Kernel
	for name, f := range map[string]func(){
		"Predict":   func() { k.Predict([]float64{1}) },
		"Score":     func() { k.Score([]float64{1}) },
		"ScoreRows": func() { k.ScoreRows(nil, mat.NewDense(1, 1, nil)) },
	} {
		if !panics(f) {
			t.Errorf("%s before Fit did not panic", name)
		}
	}
	if err := k.Fit(mat.NewDense(2, 2, []float64{0, 1, 1, 0}), []float64{1, -1}); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(){
		"Predict of a short x":   func() { k.Predict([]float64{1}) },
		"ScoreRows of a short X": func() { k.ScoreRows(nil, mat.NewDense(1, 1, nil)) },
		"ScoreRows of short dst": func() { k.ScoreRows(make([]float64, 1), mat.NewDense(2, 2, nil)) },
		"Eval of unequal lengths": func() {
			RBF{}.Eval([]float64{1}, []float64{1, 2})
		},
	} {
		if !panics(f) {
			t.Errorf("%s did not panic", name)
		}
	}
	k.Prediction = 5
	if !panics(func() { k.Predict([]float64{1, 1}) }) {
		t.Errorf("Predict with Prediction 5 did not panic")
	}
}

func TestKernelEval(t *testing.T) {
	x, z := []float64{1, 2}, []float64{3, -1}
	for _, c := range []struct {
		f    KernelFunc
		want float64
	}{
		{Linear{}, 1},
		{Poly{Degree: 2, Gamma: 1, Coef0: 1}, 4},
		{Poly{Degree: 3, Gamma: 2, Coef0: -1}, 1},
		{Poly{}, 1.0 / 8},                      // (x·z/2)^3
		{Poly{Degree: 1}, 0.5},                 // x·z/2
		{RBF{Gamma: 0.1}, math.Exp(-0.1 * 13)}, // ||x-z||² = 4+9
		{RBF{}, math.Exp(-6.5)},
		{Custom(func(a, b []float64) float64 { return a[0] * b[1] }), -1},
	} {
		if got := c.f.Eval(x, z); got != c.want {
			t.Errorf("%#v.Eval = %v, want %v", c.f, got, c.want)
		}
	}
	if got := (RBF{Gamma: 3}).Eval(x, x); got != 1 {
		t.Errorf("RBF of x with itself is %v, want 1", got)
	}
}

// A user kernel trains as the built-in one it computes.
func TestKernelCustom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 8))
	_, X, y := intSet(rnd, 150, 5)
	poly := Poly{Degree: 2, Gamma: 1, Coef0: 1}
	a := &Kernel{Func: poly, Epochs: 5, Prediction: PredictVoted}
	b := &Kernel{Func: Custom(func(x, z []float64) float64 {
		s := floats.Dot(x, z) + 1
		return s * s
	}), Epochs: 5, Prediction: PredictVoted}
	if err := a.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if err := b.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Stats().EpochMistakes, b.Stats().EpochMistakes) {
		t.Fatalf("mistakes %v, custom %v", a.Stats().EpochMistakes, b.Stats().EpochMistakes)
	}
	if sa, sb := a.ScoreRows(nil, X), b.ScoreRows(nil, X); !slices.Equal(sa, sb) {
		t.Fatalf("scores differ")
	}
}

// Fit and ScoreRows give the same result for any number of goroutines:
// every sum is taken in a fixed order. The data are large enough for Fit
// to split its work.
func TestKernelDeterministic(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	X, y := ballSet(rnd, 700, 60)
	fit := func(procs int) ([]float64, *Kernel) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		k := &Kernel{Func: RBF{Gamma: 0.05}, Epochs: 4, Budget: 300, Rand: rand.New(rand.NewPCG(1, 2)), Prediction: PredictAveraged}
		if err := k.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		return k.ScoreRows(nil, X), k
	}
	one, k1 := fit(1)
	for _, procs := range []int{2, 3, 8} {
		many, k := fit(procs)
		if !slices.Equal(one, many) || !slices.Equal(k1.Stats().EpochMistakes, k.Stats().EpochMistakes) {
			t.Fatalf("GOMAXPROCS %d gives another model than GOMAXPROCS 1", procs)
		}
	}
	if k1.Stats().Mistakes < 500 {
		t.Fatalf("only %d mistakes: the test does not exercise the parallel catch-up", k1.Stats().Mistakes)
	}
}

// Predict is safe for concurrent use, and ScoreRows agrees with Score.
func TestKernelConcurrent(t *testing.T) {
	rnd := rand.New(rand.NewPCG(10, 10))
	X, y := ballSet(rnd, 300, 6)
	for _, p := range []Prediction{PredictLast, PredictVoted, PredictAveraged} {
		k := &Kernel{Func: RBF{Gamma: 1}, Epochs: 3, Prediction: p}
		if err := k.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		want := make([]float64, 300)
		for i := range want {
			want[i] = k.Score(X.RawRowView(i))
		}
		if got := k.ScoreRows(nil, X); !slices.EqualFunc(got, want, func(a, b float64) bool { return near(a, b, false) }) {
			t.Fatalf("%v: ScoreRows differs from Score", p)
		}
		labels := k.PredictRows(nil, X)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := g; i < 300; i += 8 {
					x := X.RawRowView(i)
					if k.Score(x) != want[i] || k.Predict(x) != labels[i] {
						t.Errorf("%v: concurrent Score of row %d differs", p, i)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// Learn is one visit of Fit: in order, with the same budget draws, a
// stream of Learn calls builds the model one epoch of Fit builds.
func TestKernelLearn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 11))
	_, X, y := intSet(rnd, 300, 5)
	for _, budget := range []int{0, 40} {
		f := &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, Epochs: 1, Budget: budget}
		if err := f.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		l := &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, Budget: budget}
		mistakes := 0
		for i := range 300 {
			mistake, err := l.Learn(X.RawRowView(i), y[i])
			if err != nil {
				t.Fatal(err)
			}
			if mistake {
				mistakes++
			}
		}
		if f.Stats().Mistakes != mistakes {
			t.Fatalf("budget %d: Fit made %d mistakes, Learn %d", budget, f.Stats().Mistakes, mistakes)
		}
		if st := l.Stats(); st.Mistakes != 0 || st.Epochs != 0 {
			t.Fatalf("budget %d: Learn changed Stats to %+v", budget, st)
		}
		for _, p := range []Prediction{PredictLast, PredictVoted, PredictAveraged} {
			f.Prediction, l.Prediction = p, p
			for i := range 300 {
				x := X.RawRowView(i)
				if a, b := f.Score(x), l.Score(x); a != b {
					t.Fatalf("budget %d, %v: row %d scores %v after Fit, %v after Learn", budget, p, i, a, b)
				}
			}
		}
	}
}

// The fitted Kernel keeps copies: changing X or what SupportVectors
// returned changes no prediction.
func TestKernelCopies(t *testing.T) {
	rnd := rand.New(rand.NewPCG(12, 12))
	X, y := ballSet(rnd, 100, 3)
	k := &Kernel{Func: RBF{Gamma: 3}, Epochs: 2}
	if err := k.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	x := []float64{0.2, 0.4, 0.6}
	before := k.Score(x)
	sv, coef := k.SupportVectors()
	sv.Zero()
	clear(coef)
	X.Zero()
	if k.Score(x) != before {
		t.Fatal("the model shares memory with X or with SupportVectors' result")
	}
}

// Hot paths allocate nothing per example: Predict and a correct Learn not
// at all, Fit a number of times that does not grow with the rows.
func TestKernelAllocs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 13))
	for _, p := range []Prediction{PredictLast, PredictVoted, PredictAveraged} {
		X, y := ballSet(rnd, 200, 5)
		k := &Kernel{Func: RBF{Gamma: 1}, Epochs: 2, Prediction: p}
		if err := k.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		x := X.RawRowView(0)
		if raceEnabled {
			continue
		}
		if a := testing.AllocsPerRun(100, func() { k.Predict(x) }); a != 0 {
			t.Errorf("%v: Predict allocates %v times", p, a)
		}
	}
	k := &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}}
	if _, err := k.Learn([]float64{1, 1}, 1); err != nil {
		t.Fatal(err)
	}
	x := []float64{2, 2} // (2·1+2·1+1)² + 1 > 0: not a mistake
	if a := testing.AllocsPerRun(100, func() { k.Learn(x, 1) }); a != 0 && !raceEnabled {
		t.Errorf("a correct Learn allocates %v times", a)
	}
	fitAllocs := func(n int) float64 {
		X, y := ballSet(rand.New(rand.NewPCG(14, 14)), n, 5)
		return testing.AllocsPerRun(3, func() {
			k := &Kernel{Func: RBF{Gamma: 1}, Epochs: 3}
			if err := k.Fit(X, y); err != nil {
				t.Fatal(err)
			}
		})
	}
	// 7000 more rows make 21000 more visits; growing the slices of
	// mistakes takes a few dozen more allocations.
	small, large := fitAllocs(1000), fitAllocs(8000)
	if large-small > 100 {
		t.Errorf("Fit allocates %v times on 1000 rows and %v on 8000", small, large)
	}
}

func TestPredictionString(t *testing.T) {
	for p, want := range map[Prediction]string{PredictLast: "last", PredictVoted: "voted", PredictAveraged: "averaged", 4: "Prediction(4)"} {
		if got := fmt.Sprint(p); got != want {
			t.Errorf("%d prints as %q, want %q", int(p), got, want)
		}
	}
}

// Learn continues a fit where Fit would: after E epochs in order, a pass
// of Learn over the rows gives the model of E+1 epochs, budget draws
// included, though rows now have several mistakes each.
func TestKernelLearnContinues(t *testing.T) {
	rnd := rand.New(rand.NewPCG(15, 15))
	_, X, y := intSet(rnd, 200, 4)
	for _, budget := range []int{0, 60, 150} {
		newK := func(epochs int) *Kernel {
			return &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, Epochs: epochs, Budget: budget}
		}
		whole, part := newK(4), newK(3)
		if err := whole.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if err := part.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if whole.Stats().Converged {
			t.Fatal("the data are separable: the test needs a fourth epoch with mistakes")
		}
		before := part.Stats()
		mistakes := before.Mistakes
		for i := range 200 {
			mistake, err := part.Learn(X.RawRowView(i), y[i])
			if err != nil {
				t.Fatal(err)
			}
			if mistake {
				mistakes++
			}
		}
		if whole.Stats().Mistakes != mistakes {
			t.Fatalf("budget %d: %d mistakes in 4 epochs, %d in 3 and a pass of Learn", budget, whole.Stats().Mistakes, mistakes)
		}
		if !reflect.DeepEqual(part.Stats(), before) {
			t.Fatalf("budget %d: Learn changed Stats from %+v to %+v", budget, before, part.Stats())
		}
		for _, p := range []Prediction{PredictLast, PredictVoted, PredictAveraged} {
			whole.Prediction, part.Prediction = p, p
			for i := range 200 {
				x := X.RawRowView(i)
				if a, b := whole.Score(x), part.Score(x); a != b {
					t.Fatalf("budget %d, %v: row %d scores %v after 4 epochs, %v after 3 and Learn", budget, p, i, a, b)
				}
			}
		}
	}
}

// onHelper reports whether the calling goroutine is one of Fit's helpers.
func onHelper() bool {
	buf := make([]byte, 4096)
	return bytes.Contains(buf[:runtime.Stack(buf, false)], []byte("perceptron.(*trainer).help("))
}

// TestKernelCustomPanic checks that a panic in a Custom kernel reaches the
// caller of Fit and of ScoreRows, whichever goroutine raised it, that no
// goroutine stays behind, and that the Kernel stays usable.
func TestKernelCustomPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	X, y := benchData(600, 8)
	type boom struct{ call int64 }
	// at is the call that panics: 0 for none, -1 for the first on a helper.
	var calls, at atomic.Int64
	k := &Kernel{Func: Custom(func(x, z []float64) float64 {
		c := calls.Add(1)
		if a := at.Load(); c == a || a == -1 && onHelper() && at.CompareAndSwap(-1, 0) {
			panic(boom{c})
		}
		return floats.Dot(x, z)
	}), Epochs: 3}
	goroutines := runtime.NumGoroutine()
	if err := k.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	fitCalls := calls.Swap(0)
	k.ScoreRows(nil, X)
	scoreCalls := calls.Swap(0)
	raised := func(name string, call int64, f func()) {
		t.Helper()
		calls.Store(0)
		at.Store(call)
		defer func() {
			at.Store(0)
			if p := recover(); p != (boom{call}) {
				t.Errorf("%s, panic at call %d: recovered %v, want boom{%d}", name, call, p, call)
			}
		}()
		f()
	}
	for f := range int64(20) {
		raised("Fit", 1+f*fitCalls/20, func() { k.Fit(X, y) })
		raised("ScoreRows", 1+f*scoreCalls/20, func() { k.ScoreRows(nil, X) })
	}
	// Which goroutine takes a chunk depends on the scheduler: try until a
	// helper takes one.
	fromHelper := false
	for range 200 {
		calls.Store(0)
		at.Store(-1)
		func() {
			defer func() {
				if p := recover(); p != nil {
					fromHelper = true
					if b, ok := p.(boom); !ok || b.call < 1 {
						t.Errorf("Fit: recovered %v from a helper's panic, want a boom", p)
					}
				}
			}()
			k.Fit(X, y)
		}()
		if fromHelper {
			break
		}
	}
	at.Store(0)
	if err := k.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if got := k.ScoreRows(nil, X); len(got) != len(y) {
		t.Fatalf("ScoreRows after the panics returned %d scores, want %d", len(got), len(y))
	}
	checkGoroutines(t, goroutines, "the panics")
	if !fromHelper {
		t.Log("no helper of Fit took a chunk in 200 Fits: a panic on a helper was not tested")
	}
}

// TestKernelCustomGoexit checks that Fit's goroutine can leave Fit by
// runtime.Goexit in a Custom kernel, as testing's FailNow does, without
// leaving a helper behind.
func TestKernelCustomGoexit(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	X, y := benchData(600, 8)
	var calls atomic.Int64
	count := Custom(func(x, z []float64) float64 {
		calls.Add(1)
		return floats.Dot(x, z)
	})
	if err := (&Kernel{Func: count, Epochs: 3}).Fit(X, y); err != nil {
		t.Fatal(err)
	}
	total := calls.Load()
	goroutines := runtime.NumGoroutine()
	for f := range int64(20) {
		calls.Store(0)
		done := make(chan struct{})
		go func() {
			defer close(done)
			k := &Kernel{Func: Custom(func(x, z []float64) float64 {
				if calls.Add(1) > f*total/20 && !onHelper() {
					runtime.Goexit()
				}
				return floats.Dot(x, z)
			}), Epochs: 3}
			k.Fit(X, y)
			t.Error("Fit returned: the kernel never called Goexit")
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("Fit did not return after Goexit in its kernel")
		}
	}
	checkGoroutines(t, goroutines, "the Goexits")
}
