// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/synth"
)

type kernelUpdate struct {
	epoch, i int
	b        float64
}

// ktRules are the three prediction rules of Kernel.
var ktRules = []Prediction{PredictLast, PredictVoted, PredictAveraged}

// ktName returns the name of the rule p, for messages.
func ktName(p Prediction) string {
	if p >= 0 && int(p) < len(predictionNames) {
		return predictionNames[p]
	}
	return fmt.Sprintf("Prediction(%d)", int(p))
}

// ktDense returns the rows of a matrix from SupportVectors as slices, and
// fails t unless it is a *mat.Dense.
func ktDense(t *testing.T, sv mat.Matrix) [][]float64 {
	t.Helper()
	d, ok := sv.(*mat.Dense)
	if !ok {
		t.Fatalf("SupportVectors returned a %T, want a *mat.Dense from dense rows", sv)
	}
	return ktRowsOf(d)
}

// ktRowsOf returns the rows of m, dense, as slices.
func ktRowsOf(m mat.Matrix) [][]float64 {
	r, c := m.Dims()
	out := make([][]float64, r)
	for i := range r {
		out[i] = make([]float64, c)
		for j := range c {
			out[i][j] = m.At(i, j)
		}
	}
	return out
}

// ktKernelOf returns the kernel that f is on rows of length d, written
// from its definition as the documentation of each kernel states it,
// defaults included, as a reference independent of the package's kern: a
// nil f is x·z; Poly is (Gamma·x·z+Coef0)^Degree, by repeated
// multiplication, Degree 0 meaning 3 and Gamma 0 meaning 1/d; RBF is
// exp(-Gamma·||x-z||²) from the differences, Gamma 0 meaning 1/d.
func ktKernelOf(f KernelFunc, d int) func(x, z []float64) float64 {
	dot := func(x, z []float64) float64 {
		var s float64
		for j := range x {
			s += x[j] * z[j]
		}
		return s
	}
	switch f := f.(type) {
	case nil:
		return dot
	case Poly:
		deg, g := f.Degree, f.Gamma
		if deg == 0 {
			deg = 3
		}
		if g == 0 {
			g = 1 / float64(d)
		}
		return func(x, z []float64) float64 {
			b, r := g*dot(x, z)+f.Coef0, 1.0
			for range deg {
				r *= b
			}
			return r
		}
	case RBF:
		g := f.Gamma
		if g == 0 {
			g = 1 / float64(d)
		}
		return func(x, z []float64) float64 {
			var s float64
			for j := range x {
				s += (x[j] - z[j]) * (x[j] - z[j])
			}
			return math.Exp(-g * s)
		}
	case Custom:
		return f
	}
	panic(fmt.Sprintf("ktKernelOf: %T", f))
}

// ktSparsen zeroes about half the values of X, in place, so that its rows
// are sparse.
func ktSparsen(rnd *rand.Rand, X *mat.Dense) {
	r, c := X.Dims()
	for i := range r {
		for j := range c {
			if rnd.IntN(2) == 0 {
				X.Set(i, j, 0)
			}
		}
	}
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
			pu = append(pu, kernelUpdate{u.Epoch, u.Row, u.Biases[0]})
		}}
		k := &Kernel{Epochs: 15, Rate: rate, NoBias: noBias, OnUpdate: func(u Update) {
			if u.Weights != nil {
				t.Errorf("seed %d: Kernel's OnUpdate has weights %v, want nil", seed, u.Weights)
			}
			ku = append(ku, kernelUpdate{u.Epoch, u.Row, u.Biases[0]})
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
		if ps.Epochs != ks.Epochs || ps.Converged != ks.Converged || ps.Mistakes != ks.Mistakes || !slices.Equal(ps.EpochMistakes, ks.EpochMistakes) {
			t.Fatalf("seed %d: stats differ: %+v, %+v", seed, ps, ks)
		}
		// w = sum_v coef_v·sv_v, the support vectors each once.
		sv, coef, kb := k.SupportVectors()
		rows := ktDense(t, sv)
		if len(coef) != len(rows) {
			t.Fatalf("seed %d: %d coefficients for %d support vectors", seed, len(coef), len(rows))
		}
		w := make([]float64, d)
		for v, c := range coef {
			floats.AddScaled(w, c, rows[v])
		}
		pw, pb := p.Weights()
		if !slices.Equal(w, pw) || !slices.Equal(kb, pb) {
			t.Fatalf("seed %d: kernel hyperplane w=%v b=%v, perceptron w=%v b=%v", seed, w, kb, pw, pb)
		}
		if a, b := k.ScoreRows(nil, X), p.ScoreRows(nil, X); !slices.Equal(a, b) {
			t.Fatalf("seed %d: ScoreRows is %v, perceptron %v", seed, a, b)
		}
		for i := range n {
			x := X.RawRowView(i)
			if a, b := rowScores(k, x)[0], rowScores(p, x)[0]; a != b {
				t.Fatalf("seed %d: the score of row %d is %v, perceptron %v", seed, i, a, b)
			}
		}
	}
}

// XOR is separable by the degree-2 polynomial kernel. The trace was
// checked against an independent plain implementation; the final scores
// by hand from the kernel table in ExampleKernel_xor. In the first epoch
// rows 0, 2 and 3 are mistakes and row 1 is not (its score is
// K((0,0),(1,1))+b = 2, or 1 through the origin), so the support
// vectors, stored in the order of their first mistakes, are rows 0, 2, 3
// and 1, of coefficients 7, -5, -5, 4, and the bias is their sum, 1.
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
		sv, coef, b := k.SupportVectors()
		if !slices.Equal(coef, []float64{7, -5, -5, 4}) {
			t.Errorf("noBias=%t: coefficients %v, want [7 -5 -5 4]", noBias, coef)
		}
		wantB := 1.0
		if noBias {
			wantB = 0
		}
		if !slices.Equal(b, []float64{wantB}) {
			t.Errorf("noBias=%t: bias %v, want [%v]", noBias, b, wantB)
		}
		if got, want := ktDense(t, sv), [][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}; !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("noBias=%t: support vectors %v, want %v", noBias, got, want)
		}
		want := []float64{2, 4, -1, -1}
		if noBias {
			want = []float64{1, 3, -2, -2}
		}
		if got := k.ScoreRows(nil, X); !slices.Equal(got, want) {
			t.Errorf("noBias=%t: ScoreRows = %v, want %v", noBias, got, want)
		}
		for i := range 4 {
			if got := rowScores(k, X.RawRowView(i)); !slices.Equal(got, want[i:i+1]) {
				t.Errorf("noBias=%t: the score of row %d = %v, want %v", noBias, i, got, want[i])
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

// expansion returns the rows of the mistakes of the final hypothesis, each
// distinct row once in the order of its first such mistake, and the sum
// of the steps of its mistakes: the support vectors and coefficients of
// PredictLast.
func (nk *naiveKernel) expansion() (rows [][]float64, coef []float64) {
	for _, m := range nk.mistakes {
		if m.removed {
			continue
		}
		v := slices.IndexFunc(rows, func(r []float64) bool { return slices.Equal(r, nk.X[m.row]) })
		if v < 0 {
			rows, coef = append(rows, nk.X[m.row]), append(coef, 0)
			v = len(rows) - 1
		}
		coef[v] += m.a
	}
	return rows, coef
}

// Fit and the three prediction rules agree with the plain reference, with
// and without a budget, on integer data exactly and on real data with RBF
// to rounding. The sizes cross block boundaries and the budget's draws
// interleave with the shuffles. The support vectors are the distinct rows
// of the kept mistakes, each once, with the sum of their steps.
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
			f = nil // the linear kernel
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
			ku = append(ku, kernelUpdate{u.Epoch, u.Row, u.Biases[0]})
		}
		nk := &naiveKernel{K: ktKernelOf(f, d), epochs: epochs, rate: rate, budget: budget, shuffle: shuffle}
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
		// The support vectors and the coefficients of the last hypothesis.
		sv, coef, _ := k.SupportVectors()
		got := ktDense(t, sv)
		wantRows, wantCoef := nk.expansion()
		if budget > 0 && len(got) > budget {
			t.Fatalf("seed %d: %d support vectors, budget %d", seed, len(got), budget)
		}
		if !slices.EqualFunc(got, wantRows, slices.Equal) || len(coef) != len(wantCoef) {
			t.Fatalf("seed %d: %d support vectors %v, reference %d %v", seed, len(got), got, len(wantRows), wantRows)
		}
		for v := range coef {
			if !near(coef[v], wantCoef[v], exact) {
				t.Fatalf("seed %d: coefficient %d is %v, reference %v", seed, v, coef[v], wantCoef[v])
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
				if got := rowScores(k, x)[0]; !near(got, c.want, exact) {
					t.Fatalf("seed %d: %s score of %v is %v, reference %v", seed, ktName(c.p), x, got, c.want)
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
		// The bias is the sum of the steps of the mistakes kept: the last
		// one's alone.
		if b := u.Biases[0]; b != y[u.Row] {
			t.Fatalf("row %d: b=%v with Budget 1, want %v", u.Row, b, y[u.Row])
		}
		last = kernelUpdate{u.Epoch, u.Row, u.Biases[0]}
	}}
	if err := k.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	sv, coef, b := k.SupportVectors()
	rows := ktDense(t, sv)
	if len(rows) != 1 || !slices.Equal(rows[0], X.RawRowView(last.i)) || !slices.Equal(coef, []float64{y[last.i]}) || !slices.Equal(b, []float64{y[last.i]}) {
		t.Fatalf("Budget 1 kept %v with %v and bias %v, want row %d", rows, coef, b, last.i)
	}

	free := &Kernel{Func: RBF{Gamma: 2}, Epochs: 3}
	if err := free.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	roomy := &Kernel{Func: RBF{Gamma: 2}, Epochs: 3, Budget: free.Stats().Mistakes}
	if err := roomy.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	for _, p := range ktRules {
		free.Prediction, roomy.Prediction = p, p
		if a, b := free.ScoreRows(nil, X), roomy.ScoreRows(nil, X); !sameBits(a, b) {
			t.Fatalf("%s: a budget of every mistake changed the scores", ktName(p))
		}
	}

	// On a long stream, Learn's memory stays within the budget.
	s := &Kernel{Func: RBF{Gamma: 2}, Budget: 25, Labels: binaryLabels}
	x := make([]float64, 4)
	for range 5000 {
		for j := range x {
			x[j] = rnd.Float64()
		}
		label := 1.0
		if floats.Sum(x) > 2 {
			label = -1
		}
		if err := learnOne(s, x, label); err != nil {
			t.Fatal(err)
		}
		if s.work().m.vectors() > 25 || len(s.work().m.h.mistakes) > 25 || s.work().m.sv.n != s.work().m.vectors() || len(s.work().m.sv.data) != s.work().m.vectors()*4 {
			t.Fatalf("Learn stores %d vectors and %d mistakes with Budget 25", s.work().m.vectors(), len(s.work().m.h.mistakes))
		}
	}
	if mistakes := s.Stats().Mistakes; mistakes < 100 {
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
		sv, _, _ := k.SupportVectors()
		svRows := ktDense(t, sv)
		if len(svRows) != budget {
			t.Fatalf("seed %d: %d support vectors, want %d", seed, len(svRows), budget)
		}
		kept := map[float64]bool{}
		for _, r := range svRows {
			kept[floats.Sum(r)] = true
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
		if k.work().m != nil {
			t.Errorf("%+v: a failed Fit changed the Kernel", c.k)
		}
		// Learn needs the classes before it reaches the settings.
		k.Labels = binaryLabels
		if err := learnOne(&k, []float64{1, 2}, 1); err == nil || !strings.HasPrefix(err.Error(), "perceptron: "+c.want) {
			t.Errorf("%+v: Learn error %v, want %q", c.k, err, c.want)
		}
		if k.work().m != nil || k.Stats().Mistakes != 0 {
			t.Errorf("%+v: a failed Learn changed the Kernel", c.k)
		}
		// The kernel functions check their parameters themselves.
		if f := c.k.Func; f != nil {
			if _, err := f.kernel(2); err == nil || !strings.HasPrefix(err.Error(), "perceptron: "+c.want) {
				t.Errorf("%#v: kernel error %v, want %q", f, err, c.want)
			}
		}
	}
	// Learn without Labels on a Kernel never fitted has no classes.
	var k Kernel
	if err := learnOne(&k, []float64{1, 2}, 1); err == nil || !strings.HasPrefix(err.Error(), "perceptron: Learn on a model that was neither fitted nor given its classes") {
		t.Errorf("Learn without Labels: error %v", err)
	}
	if k.work().m != nil {
		t.Errorf("a failed Learn changed the Kernel")
	}
}

// A failed Fit or Learn leaves a fitted Kernel as it was.
func TestKernelBadData(t *testing.T) {
	k := &Kernel{Func: RBF{}}
	X := mat.NewDense(3, 2, []float64{0, 1, 1, 0, 1, 1})
	if err := k.Fit(X, []float64{1, -1, 1}); err != nil {
		t.Fatal(err)
	}
	probe := mat.NewDense(2, 2, []float64{0.5, 0.5, -1, 2})
	before, stats := k.ScoreRows(nil, probe), k.Stats()
	unchanged := func(what string) {
		t.Helper()
		if !sameBits(k.ScoreRows(nil, probe), before) || k.Stats().Mistakes != stats.Mistakes || k.work().m.h.visits != 3*defaultEpochs {
			t.Errorf("a failed %s changed the Kernel", what)
		}
	}
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
		{nil, []float64{1, -1}, "perceptron: X is nil"},
	} {
		if err := k.Fit(c.X, c.y); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Fit error %v, want %q", err, c.want)
		}
		unchanged("Fit")
	}
	// Learn checks every row before it learns any: the first row of each
	// is a mistake of the model, which Learn must not make.
	for _, c := range []struct {
		X    mat.Matrix
		y    []float64
		want string
	}{
		{mat.NewDense(2, 2, []float64{0, 1, 1, math.NaN()}), []float64{-1, 1}, "perceptron: X[1, 1] is NaN"},
		{mat.NewDense(1, 2, []float64{math.Inf(1), 0}), []float64{1}, "perceptron: X[0, 0] is +Inf"},
		{mat.NewDense(1, 1, []float64{1}), []float64{1}, "perceptron: X has 1 columns, want 2"},
		{mat.NewDense(2, 2, []float64{0, 1, 1, 2}), []float64{-1, 2}, "perceptron: y[1] is 2, not one of the classes [-1 1]"},
		{mat.NewDense(2, 2, []float64{0, 1, 1, 2}), []float64{-1}, "perceptron: len(y) is 1, want 2"},
	} {
		if k.Predict([]float64{0, 1}) != 1 {
			t.Fatal("row 0 of the cases is no mistake: the test does not see a partial Learn")
		}
		if err := k.Learn(c.X, c.y); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Learn error %v, want %q", err, c.want)
		}
		unchanged("Learn")
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
	before := rowScores(k, []float64{0.5})
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
	if !sameBits(rowScores(k, []float64{0.5}), before) {
		t.Errorf("a failed Fit changed the Kernel")
	}
	// Row 1 of Learn's X would take the bias to 2e308 = +Inf: Learn keeps
	// the update on row 0 and makes none on row 1.
	huge = &Kernel{Rate: 1e308, Labels: binaryLabels}
	if err := huge.Learn(mat.NewDense(2, 1, []float64{1, -1}), []float64{1, 1}); err == nil || !strings.HasPrefix(err.Error(), "perceptron: the update on x would overflow the model") {
		t.Errorf("Learn with Rate 1e308: error %v", err)
	}
	if huge.work().m == nil || huge.work().m.h.visits != 1 || huge.work().m.vectors() != 1 || huge.Stats().Mistakes != 1 {
		t.Fatalf("a Learn that failed at row 1 did not keep row 0 alone")
	}
	if err := learnOne(huge, []float64{-1}, 1); err == nil || !strings.HasPrefix(err.Error(), "perceptron: the update on x would overflow the model") {
		t.Errorf("Learn with Rate 1e308: error %v", err)
	}
	if huge.work().m.h.visits != 1 || huge.work().m.vectors() != 1 || huge.Stats().Mistakes != 1 {
		t.Errorf("a failed Learn changed the Kernel")
	}

	l := &Kernel{Func: cube, Labels: binaryLabels}
	if err := learnOne(l, []float64{1e103}, 1); err != nil {
		t.Fatal(err)
	}
	visits, vectors := l.work().m.h.visits, l.work().m.vectors()
	if err := learnOne(l, []float64{-1e103}, 1); err == nil || !strings.HasPrefix(err.Error(), "perceptron: the score of row 0 is -Inf") {
		t.Errorf("Learn error %v", err)
	}
	if l.work().m.h.visits != visits || l.work().m.vectors() != vectors || l.Stats().Mistakes != 1 {
		t.Errorf("a failed Learn changed the Kernel")
	}
}

func TestKernelPanics(t *testing.T) {
	var k Kernel
	for name, f := range map[string]func(){
		"Predict":     func() { k.Predict([]float64{1}) },
		"ScoreRows":   func() { k.ScoreRows(nil, mat.NewDense(1, 1, nil)) },
		"PredictRows": func() { k.PredictRows(nil, mat.NewDense(1, 1, nil)) },
	} {
		mustPanic(t, name+" before Fit", "called before Fit", f)
	}
	if sv, coef, b := k.SupportVectors(); sv != nil || coef != nil || b != nil || k.Classes() != nil {
		t.Errorf("SupportVectors before Fit returned %v, %v, %v", sv, coef, b)
	}
	if err := k.Fit(mat.NewDense(2, 2, []float64{0, 1, 1, 0}), []float64{1, -1}); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(){
		"Predict of a short x":     func() { k.Predict([]float64{1}) },
		"ScoreRows of a short X":   func() { k.ScoreRows(nil, mat.NewDense(1, 1, nil)) },
		"PredictRows of a short X": func() { k.PredictRows(nil, mat.NewDense(1, 3, nil)) },
		"ScoreRows of short dst":   func() { k.ScoreRows(make([]float64, 1), mat.NewDense(2, 2, nil)) },
		"PredictRows of long dst":  func() { k.PredictRows(make([]float64, 3), mat.NewDense(2, 2, nil)) },
	} {
		if !panics(f) {
			t.Errorf("%s did not panic", name)
		}
	}
	k.Prediction = 5
	mustPanic(t, "Predict with Prediction 5", "Prediction is 5", func() { k.Predict([]float64{1, 1}) })
	mustPanic(t, "ScoreRows with Prediction 5", "Prediction is 5", func() { k.ScoreRows(nil, mat.NewDense(1, 2, nil)) })
}

// The resolved kernels compute the values of their definitions, by hand
// for x = (1, 2) and z = (3, -1): x·z = 1, ||x||² = 5, ||z||² = 10,
// ||x-z||² = 13, with the defaults Degree 3 and Gamma 1/d = 1/2. Both
// paths of kern, ofDot and values on a store of rows, dense or sparse,
// give them.
func TestKernelValues(t *testing.T) {
	x, z := []float64{1, 2}, []float64{3, -1}
	for _, c := range []struct {
		f    KernelFunc
		want float64
	}{
		{nil, 1},
		{Poly{Degree: 2, Gamma: 1, Coef0: 1}, 4},
		{Poly{Degree: 3, Gamma: 2, Coef0: -1}, 1},
		{Poly{}, 1.0 / 8},                      // (x·z/2)^3
		{Poly{Degree: 1}, 0.5},                 // x·z/2
		{RBF{Gamma: 0.1}, math.Exp(-0.1 * 13)}, // ||x-z||² = 4+9
		{RBF{}, math.Exp(-6.5)},
		{Custom(func(a, b []float64) float64 { return a[0] * b[1] }), -1},
	} {
		_, kn, err := (&Kernel{Func: c.f}).resolve(2)
		if err != nil {
			t.Fatal(err)
		}
		if kn.kind != customKernel {
			if got := kn.ofDot(1, 5, 10); got != c.want {
				t.Errorf("%#v: ofDot = %v, want %v", c.f, got, c.want)
			}
		}
		if got := ktKernelOf(c.f, 2)(x, z); got != c.want {
			t.Errorf("%#v: the reference gives %v, want %v", c.f, got, c.want)
		}
		for _, sparse := range []bool{false, true} {
			a := newRows(2, 1, sparse)
			a.append(vec{val: z})
			dst := make([]float64, 1)
			kn.values(dst, a, []float64{10}, vec{val: x}, 5)
			if dst[0] != c.want {
				t.Errorf("%#v (sparse %t): values = %v, want %v", c.f, sparse, dst[0], c.want)
			}
		}
	}
	// exp(0) = 1: RBF of a row with itself is 1 when its dot product and
	// norm are exact.
	_, kn, _ := (&Kernel{Func: RBF{Gamma: 3}}).resolve(2)
	if got := kn.ofDot(5, 5, 5); got != 1 {
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
		if !sameBits(one, many) || !slices.Equal(k1.Stats().EpochMistakes, k.Stats().EpochMistakes) {
			t.Fatalf("GOMAXPROCS %d gives another model than GOMAXPROCS 1", procs)
		}
	}
	if k1.Stats().Mistakes < 500 {
		t.Fatalf("only %d mistakes: the test does not exercise the parallel catch-up", k1.Stats().Mistakes)
	}
}

// Predict is safe for concurrent use, and ScoreRows of all the rows agrees
// with ScoreRows of each alone, up to the rounding of the blocked
// products, and with Predict.
func TestKernelConcurrent(t *testing.T) {
	rnd := rand.New(rand.NewPCG(10, 10))
	X, y := ballSet(rnd, 300, 6)
	for _, p := range ktRules {
		k := &Kernel{Func: RBF{Gamma: 1}, Epochs: 3, Prediction: p}
		if err := k.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		want := make([]float64, 300)
		for i := range want {
			want[i] = rowScores(k, X.RawRowView(i))[0]
		}
		if got := k.ScoreRows(nil, X); !slices.EqualFunc(got, want, func(a, b float64) bool { return near(a, b, false) }) {
			t.Fatalf("%s: ScoreRows of the rows differs from ScoreRows of each", ktName(p))
		}
		labels := k.PredictRows(nil, X)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := g; i < 300; i += 8 {
					x := X.RawRowView(i)
					if rowScores(k, x)[0] != want[i] || k.Predict(x) != labels[i] {
						t.Errorf("%s: concurrent scores of row %d differ", ktName(p), i)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// Learn is one visit of Fit: in order, with the same budget draws, a
// stream of Learn calls of one row builds the model one epoch of Fit
// builds, and counts its mistakes in Stats.
func TestKernelLearn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 11))
	_, X, y := intSet(rnd, 300, 5)
	for _, budget := range []int{0, 40} {
		f := &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, Epochs: 1, Budget: budget}
		if err := f.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		l := &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, Budget: budget, Labels: binaryLabels}
		var rows []int
		l.OnUpdate = func(u Update) {
			if u.Epoch != 0 || u.Row != 0 {
				t.Fatalf("budget %d: Learn of one row reports epoch %d, row %d, want 0, 0", budget, u.Epoch, u.Row)
			}
			rows = append(rows, u.Row)
		}
		mistakes := 0
		for i := range 300 {
			before := l.Stats().Mistakes
			if err := learnOne(l, X.RawRowView(i), y[i]); err != nil {
				t.Fatal(err)
			}
			if got := l.Stats().Mistakes - before; got != len(rows)-mistakes || got > 1 {
				t.Fatalf("budget %d, row %d: Stats counts %d mistakes, OnUpdate %d", budget, i, got, len(rows)-mistakes)
			}
			mistakes = len(rows)
		}
		if f.Stats().Mistakes != mistakes {
			t.Fatalf("budget %d: Fit made %d mistakes, Learn %d", budget, f.Stats().Mistakes, mistakes)
		}
		if st := l.Stats(); st.Mistakes != mistakes || st.Epochs != 0 || st.EpochMistakes != nil || st.Converged {
			t.Fatalf("budget %d: Learn changed Stats to %+v", budget, st)
		}
		for _, p := range ktRules {
			f.Prediction, l.Prediction = p, p
			if a, b := f.ScoreRows(nil, X), l.ScoreRows(nil, X); !sameBits(a, b) {
				t.Fatalf("budget %d, %s: scores after Fit differ from those after Learn", budget, ktName(p))
			}
		}
	}
}

// The fitted Kernel keeps copies: changing X or what SupportVectors
// returned changes no prediction, dense or sparse.
func TestKernelCopies(t *testing.T) {
	rnd := rand.New(rand.NewPCG(12, 12))
	X, y := ballSet(rnd, 100, 3)
	for _, sparse := range []bool{false, true} {
		var train mat.Matrix = mat.DenseCopyOf(X)
		if sparse {
			train = csrOf(X)
		}
		k := &Kernel{Func: RBF{Gamma: 3}, Epochs: 2}
		if err := k.Fit(train, y); err != nil {
			t.Fatal(err)
		}
		probe := mat.NewDense(2, 3, []float64{0.2, 0.4, 0.6, 0.9, 0.1, 0.5})
		before := k.ScoreRows(nil, probe)
		sv, coef, b := k.SupportVectors()
		switch sv := sv.(type) {
		case *mat.Dense:
			sv.Zero()
		case *CSR:
			clear(sv.val)
			clear(sv.ind)
		}
		clear(coef)
		clear(b)
		switch train := train.(type) {
		case *mat.Dense:
			train.Zero()
		case *CSR:
			clear(train.val)
		}
		if !sameBits(k.ScoreRows(nil, probe), before) {
			t.Fatalf("sparse %t: the model shares memory with X or with SupportVectors' result", sparse)
		}
	}
}

// Hot paths allocate nothing per example: Predict not at all, Learn and
// Fit a number of times that does not grow with the rows.
func TestKernelAllocs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 13))
	for _, p := range ktRules {
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
			t.Errorf("%s: Predict allocates %v times", ktName(p), a)
		}
	}
	if raceEnabled {
		return
	}
	k := &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, Labels: binaryLabels}
	if err := learnOne(k, []float64{1, 1}, 1); err != nil {
		t.Fatal(err)
	}
	// (2·1+2·1+1)² + 1 > 0: rows of (2, 2) of label 1 are no mistake.
	learnAllocs := func(n int) float64 {
		X := mat.NewDense(n, 2, slices.Repeat([]float64{2, 2}, n))
		y := slices.Repeat([]float64{1}, n)
		return testing.AllocsPerRun(20, func() {
			if err := k.Learn(X, y); err != nil {
				t.Fatal(err)
			}
		})
	}
	if one, many := learnAllocs(1), learnAllocs(500); many > one {
		t.Errorf("a Learn of correct rows allocates %v times on 1 row and %v on 500", one, many)
	}
	if k.Stats().Mistakes != 1 {
		t.Fatalf("the rows of (2, 2) were mistakes")
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

// The names of the rules, which saved Kernels hold, are distinct, and
// predictionOf reads each back; another name is an error.
func TestKernelPredictionNames(t *testing.T) {
	want := map[Prediction]string{PredictLast: "last", PredictVoted: "voted", PredictAveraged: "averaged"}
	if len(predictionNames) != len(want) {
		t.Fatalf("%d names, want %d", len(predictionNames), len(want))
	}
	for p, name := range want {
		if predictionNames[p] != name {
			t.Errorf("rule %d is named %q, want %q", int(p), predictionNames[p], name)
		}
		if got, err := predictionOf(name); err != nil || got != p {
			t.Errorf("predictionOf(%q) = %d, %v, want %d", name, int(got), err, int(p))
		}
		if err := p.check(); err != nil {
			t.Errorf("rule %q: %v", name, err)
		}
	}
	for _, name := range []string{"", "Last", "vote", "average"} {
		if _, err := predictionOf(name); err == nil {
			t.Errorf("predictionOf(%q) returned no error", name)
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
		if err := part.Learn(X, y); err != nil {
			t.Fatal(err)
		}
		after := part.Stats()
		if whole.Stats().Mistakes != after.Mistakes {
			t.Fatalf("budget %d: %d mistakes in 4 epochs, %d in 3 and a pass of Learn", budget, whole.Stats().Mistakes, after.Mistakes)
		}
		if after.Epochs != before.Epochs || after.Converged != before.Converged || !slices.Equal(after.EpochMistakes, before.EpochMistakes) {
			t.Fatalf("budget %d: Learn changed Fit's Stats from %+v to %+v", budget, before, after)
		}
		for _, p := range ktRules {
			whole.Prediction, part.Prediction = p, p
			if a, b := whole.ScoreRows(nil, X), part.ScoreRows(nil, X); !sameBits(a, b) {
				t.Fatalf("budget %d, %s: scores after 4 epochs differ from those after 3 and Learn", budget, ktName(p))
			}
		}
	}
}

// ktConfig is a Kernel's settings and a data set of a trial of the
// properties below.
type ktConfig struct {
	name   string
	K      int // the classes
	f      KernelFunc
	epochs int
	rate   float64
	budget int
	noBias bool
	X, T   mat.Matrix // the training rows and more rows to score
	y      []float64
	labels []float64
	sparse bool
}

// ktRandomConfig draws a trial of integer rows in [-3, 3], of two classes
// or more, dense or sparse, with the linear kernel or Poly{Degree: 2,
// Gamma: 1, Coef0: 1}, a power-of-two rate and maybe a budget: every
// kernel value, score and coefficient is an integer multiple of the
// rate, far below 2^53, so that every sum is exact.
func ktRandomConfig(rnd *rand.Rand, trial int) ktConfig {
	c := ktConfig{K: 2, epochs: 1 + rnd.IntN(6), rate: []float64{1, 0.5, 2}[rnd.IntN(3)], noBias: rnd.IntN(3) == 0, sparse: trial%2 == 1}
	if trial%4 >= 2 {
		c.K = 3 + rnd.IntN(3)
	}
	if rnd.IntN(2) == 0 {
		c.f = Poly{Degree: 2, Gamma: 1, Coef0: 1}
	}
	n, d := c.K+rnd.IntN(90), 1+rnd.IntN(6)
	var X, T *mat.Dense
	if c.K == 2 {
		_, X, c.y = intSet(rnd, n, d)
		_, T, _ = intSet(rnd, 30, d)
		c.labels = binaryLabels
	} else {
		_, X, c.y = classSet(rnd, n, d, c.K)
		_, T, _ = classSet(rnd, 30, d, c.K)
		c.labels = classValues[:c.K]
	}
	if rnd.IntN(3) == 0 {
		c.budget = 1 + rnd.IntN(20)
	}
	c.X, c.T = X, T
	if c.sparse {
		ktSparsen(rnd, X)
		ktSparsen(rnd, T)
		c.X, c.T = csrOf(X), csrOf(T)
	}
	c.name = fmt.Sprintf("trial %d (K=%d n=%d d=%d func %v epochs %d rate %v budget %d noBias %t sparse %t)", trial, c.K, n, d, c.f, c.epochs, c.rate, c.budget, c.noBias, c.sparse)
	return c
}

// ktSameMatrix reports whether a and b are of the same type and hold the
// same elements, bit for bit, and for *CSR the same stored elements.
func ktSameMatrix(a, b mat.Matrix) bool {
	if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) {
		return false
	}
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		return false
	}
	if ca, ok := a.(*CSR); ok {
		cb := b.(*CSR)
		return slices.Equal(ca.ptr, cb.ptr) && slices.Equal(ca.ind, cb.ind) && sameBits(ca.val, cb.val)
	}
	for i := range ar {
		for j := range ac {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// ktTerms returns the support vectors of sv with their S coefficients of
// coef, each as the bits of its values and coefficients, sorted: the
// expansion without the order of its terms.
func ktTerms(sv mat.Matrix, coef []float64, S int) []string {
	var terms []string
	for v, r := range ktRowsOf(sv) {
		var b strings.Builder
		for _, x := range r {
			fmt.Fprintf(&b, "%x ", math.Float64bits(x))
		}
		b.WriteString("|")
		if coef != nil {
			for _, x := range coef[v*S : v*S+S] {
				fmt.Fprintf(&b, " %x", math.Float64bits(x))
			}
		}
		terms = append(terms, b.String())
	}
	slices.Sort(terms)
	return terms
}

// Learn(X, y) called E times from a fresh Kernel with Labels is Fit with
// Epochs E, Rand nil, bit for bit: the rows are visited in the same
// order, and on these exact sums every decision agrees, so the mistakes,
// their steps and visits, the budget's draws from the fixed-seed source,
// and the support vectors, stored once each in the order of their first
// mistake, are the same. So are the predictions and scores of all three
// rules and what SupportVectors returns, whether Fit converged early or
// not: the hypothesis of a converged Fit counts for the visits of the
// epochs it did not run, as Learn's passes without a mistake do. With a
// Budget the support vectors are compared without their order, which
// the removals may change.
func TestKernelLearnMatchesFit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(16, 16))
	converged, notConverged, budgeted := 0, 0, 0
	kinds := map[string]bool{} // classes, form and kernel of the trials run
	for trial := range 160 {
		c := ktRandomConfig(rnd, trial)
		kinds[fmt.Sprintf("multiclass %t, sparse %t, %v", c.K > 2, c.sparse, c.f)] = true
		f := &Kernel{Func: c.f, Epochs: c.epochs, Rate: c.rate, Budget: c.budget, NoBias: c.noBias, Labels: c.labels}
		if err := f.Fit(c.X, c.y); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		l := &Kernel{Func: c.f, Rate: c.rate, Budget: c.budget, NoBias: c.noBias, Labels: c.labels}
		for range c.epochs {
			if err := l.Learn(c.X, c.y); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		if st := f.Stats(); st.Converged && st.Epochs < c.epochs {
			converged++
		} else {
			notConverged++
		}
		if c.budget > 0 && f.Stats().Mistakes > c.budget {
			budgeted++
		}
		if a, b := f.Stats().Mistakes, l.Stats().Mistakes; a != b {
			t.Fatalf("%s: Fit made %d mistakes, Learn %d", c.name, a, b)
		}
		if !slices.Equal(f.Classes(), l.Classes()) {
			t.Fatalf("%s: classes %v after Fit, %v after Learn", c.name, f.Classes(), l.Classes())
		}
		for _, p := range ktRules {
			f.Prediction, l.Prediction = p, p
			for _, X := range []mat.Matrix{c.X, c.T} {
				if a, b := f.PredictRows(nil, X), l.PredictRows(nil, X); !sameBits(a, b) {
					t.Fatalf("%s, %s: PredictRows gives %v after Fit, %v after Learn", c.name, ktName(p), a, b)
				}
				if a, b := f.ScoreRows(nil, X), l.ScoreRows(nil, X); !sameBits(a, b) {
					t.Fatalf("%s, %s: ScoreRows gives %v after Fit, %v after Learn", c.name, ktName(p), a, b)
				}
			}
			fsv, fcoef, fb := f.SupportVectors()
			lsv, lcoef, lb := l.SupportVectors()
			same := ktSameMatrix(fsv, lsv) && sameBits(fcoef, lcoef)
			if c.budget > 0 {
				// Budget's removals may leave the support vectors in
				// another order (see TestKernelLearnBudgetRemoval and the
				// report of the port): the same vectors of the same
				// coefficients, in any order.
				same = fmt.Sprintf("%T", fsv) == fmt.Sprintf("%T", lsv) && slices.Equal(ktTerms(fsv, fcoef, len(fb)), ktTerms(lsv, lcoef, len(lb)))
			}
			if !same || !sameBits(fb, lb) || (fcoef == nil) != (lcoef == nil) || (fb == nil) != (lb == nil) {
				t.Fatalf("%s, %s: SupportVectors gives %v %v %v after Fit, %v %v %v after Learn", c.name, ktName(p), fsv, fcoef, fb, lsv, lcoef, lb)
			}
		}
	}
	if len(kinds) != 8 {
		t.Errorf("the trials ran %d of the 8 kinds: %v", len(kinds), kinds)
	}
	if converged == 0 || notConverged == 0 || budgeted == 0 {
		t.Errorf("%d trials converged early, %d did not, %d passed their budget: want some of each", converged, notConverged, budgeted)
	}
}

// ktGamma returns γ_n = n·u/(1-n·u), u = 2^-53, the bound of Higham's
// Lemma 3.1 on the relative error of n roundings in a row: a value
// computed from exact x by n roundings is x(1+θ) with |θ| <= γ_n.
func ktGamma(n int) float64 {
	u := math.Ldexp(1, -53)
	return float64(n) * u / (1 - float64(n)*u)
}

// SupportVectors returns the expansion that the Prediction rule computes:
// sum_v coef[v·S+c]·K(sv_v, x) + b[c] reproduces ScoreRows to within the
// rounding the two computations make, for PredictLast and
// PredictAveraged; for PredictVoted coef and b are nil. sv is a
// *mat.Dense from dense rows and a *CSR from sparse ones, each support
// vector once.
//
// The bound, for U support vectors and M mistakes in the hypothesis,
// with γ_n of ktGamma (Higham, Accuracy and Stability of Numerical
// Algorithms, 2002, §3.1: a sum of m terms in any order, each a product
// of k roundings, is within γ_(k+m-1) of the sum of the absolute terms)
// and K_v = K(sv_v, x), which the test computes from the same exact dot
// product and norms as ScoreRows (integer rows), so that the kernel
// values agree bit for bit:
//
//   - PredictLast: ScoreRows forms sum_v coef_v·K_v in any order (floats.Dot
//     or Gemv: U products, U-1 additions) and adds b, exactly β·b; the test
//     forms the same sum left to right from 0 and adds b. Each is within
//     γ_(U+1)·A of the exact sum, A = sum_v |coef_v·K_v| + |b|, so they
//     differ by at most 2·γ_(U+1)·A.
//   - PredictAveraged: with w_j the visits mistake j counts for, N those of
//     the rule and a_j the step, the exact score is
//     E = (1/N)·sum_j ±a_j·w_j·(K_vj + β). ScoreRows forms each term with
//     3 roundings (K+β, ·a, ·w), sums the M terms from 0 (at most M-1
//     roundings a term) and divides once: within γ_(M+3)·B of E, with
//     B = (1/N)·sum_j |a_j|·w_j·(|K_vj| + β). The coefficients round each
//     a_j·w_j/N twice and sum at most M of them (M-1 roundings), as do the
//     biases (β·a exact); the test's sum then adds one product rounding and
//     at most U additions to a coefficient's terms, and one addition to
//     the bias's: within γ_(M+U+2)·B of E. So they differ by at most
//     (γ_(M+3) + γ_(M+U+2))·B.
//
// B and A are themselves computed in floating point with at most M+U+5
// roundings a term; the factor 1+γ_(M+U+8) covers those of B, A and of
// the bound's product.
func TestKernelSupportVectorsExpansion(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 17))
	used := 0 // the comparisons where the two differ, so that the bound matters
	for trial := range 120 {
		K := 2
		if trial%4 >= 2 {
			K = 3 + rnd.IntN(3)
		}
		sparse := trial%2 == 1
		n, d := K+rnd.IntN(100), 1+rnd.IntN(6)
		var X, T *mat.Dense
		var y []float64
		if K == 2 {
			_, X, y = intSet(rnd, n, d)
			_, T, _ = intSet(rnd, 20, d)
		} else {
			_, X, y = classSet(rnd, n, d, K)
			_, T, _ = classSet(rnd, 20, d, K)
		}
		var train, test mat.Matrix = X, T
		if sparse {
			ktSparsen(rnd, X)
			ktSparsen(rnd, T)
			train, test = csrOf(X), csrOf(T)
		}
		f := []KernelFunc{nil, Poly{Degree: 2, Gamma: 1, Coef0: 1}, Poly{Degree: 3, Gamma: 0.5, Coef0: -1}, RBF{Gamma: 0.3 + rnd.Float64()}}[rnd.IntN(4)]
		k := &Kernel{Func: f, Epochs: 1 + rnd.IntN(6), Rate: []float64{1, 0.3}[rnd.IntN(2)], NoBias: rnd.IntN(3) == 0}
		if rnd.IntN(3) == 0 {
			k.Budget = 1 + rnd.IntN(30)
		}
		if rnd.IntN(2) == 0 {
			k.Rand = rand.New(rand.NewPCG(uint64(trial), 18))
		}
		k.Labels = binaryLabels
		if K > 2 {
			k.Labels = classValues[:K]
		}
		if err := k.Fit(train, y); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("trial %d (K=%d sparse %t func %#v %+v)", trial, K, sparse, f, k.Stats())
		S := scores(k.Classes())
		_, kn, err := k.resolve(d)
		if err != nil {
			t.Fatal(err)
		}
		beta := 1.0
		if k.NoBias {
			beta = 0
		}
		// The mistakes of the hypothesis, and the visits each counts for
		// in the average, from the last removal on.
		h := &k.work().m.h
		T0, N := h.visits, h.visits-max(1, h.removed)+1
		weight := func(visit int) float64 { return float64(max(0, T0-max(visit, h.removed)+1)) }

		for _, p := range ktRules {
			k.Prediction = p
			sv, coef, b := k.SupportVectors()
			if _, ok := sv.(*CSR); ok != sparse {
				t.Fatalf("%s: SupportVectors returned a %T from sparse %t rows", name, sv, sparse)
			}
			if _, ok := sv.(*mat.Dense); !ok && !sparse {
				t.Fatalf("%s: SupportVectors returned a %T from dense rows", name, sv)
			}
			rows := ktRowsOf(sv)
			U := len(rows)
			for v := range rows {
				for w := range v {
					if slices.Equal(rows[v], rows[w]) {
						t.Fatalf("%s: support vectors %d and %d are equal: %v", name, w, v, rows[v])
					}
				}
			}
			if p == PredictVoted {
				if coef != nil || b != nil {
					t.Fatalf("%s: the voted rule has coefficients %v and biases %v, want nil", name, coef, b)
				}
				continue
			}
			if len(coef) != U*S || len(b) != S {
				t.Fatalf("%s, %s: %d coefficients and %d biases for %d support vectors and %d scores", name, ktName(p), len(coef), len(b), U, S)
			}
			if beta == 0 && nonZero(b) {
				t.Fatalf("%s, %s: biases %v through the origin", name, ktName(p), b)
			}
			got := k.ScoreRows(nil, test)
			tn, _ := test.Dims()
			for i := range tn {
				x := mat.Row(nil, i, test)
				var xn float64
				for _, v := range x {
					xn += v * v
				}
				kv := make([]float64, U)
				for v, z := range rows {
					var s, zn float64
					for j := range z {
						s += z[j] * x[j]
						zn += z[j] * z[j]
					}
					kv[v] = kn.ofDot(s, xn, zn)
				}
				M := len(h.mistakes)
				for c := range S {
					want, A := 0.0, 0.0
					for v := range U {
						want += coef[v*S+c] * kv[v]
						A += math.Abs(coef[v*S+c] * kv[v])
					}
					want += b[c]
					A += math.Abs(b[c])
					var bound float64
					if p == PredictLast {
						bound = 2 * ktGamma(U+1) * A
					} else {
						var B float64
						for _, u := range h.mistakes {
							if S == 1 || u.class == c || u.down == c {
								B += math.Abs(u.a) * weight(u.t) * (math.Abs(kv[u.v]) + beta)
							}
						}
						B /= float64(N)
						bound = (ktGamma(M+3) + ktGamma(M+U+2)) * B
					}
					bound *= 1 + ktGamma(M+U+8)
					g := got[i*S+c]
					if diff := math.Abs(g - want); !(diff <= bound) {
						t.Fatalf("%s, %s: row %d score %d is %v, the expansion gives %v: they differ by %v, bound %v", name, ktName(p), i, c, g, want, diff, bound)
					} else if diff > 0 {
						used++
					}
				}
			}
		}
	}
	if used == 0 {
		t.Error("the expansion and ScoreRows never differed: the bound is not exercised")
	}
}

// onHelper reports whether the calling goroutine is one of the helpers of
// the package's pool, which Fit's bulk work runs on.
func onHelper() bool {
	buf := make([]byte, 4096)
	return bytes.Contains(buf[:runtime.Stack(buf, false)], []byte("perceptron.(*pool).help("))
}

// TestKernelCustomPanic checks that a panic in a Custom kernel reaches the
// caller of Fit and of ScoreRows, whichever goroutine raised it, that no
// goroutine stays behind, and that the Kernel stays usable.
func TestKernelCustomPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	X, y := synth.Data(600, 8)
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
	X, y := synth.Data(600, 8)
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

// ktShuffled returns the rows of X and the labels y in the order that
// Fit's epoch e visits them with a Rand in the state of rnd: the order of
// the epoch before, shuffled again by rnd, as Fit shuffles it (order
// holds it, and starts as the identity).
func ktShuffled(rnd *rand.Rand, order []int, X *mat.Dense, y []float64) (*mat.Dense, []float64) {
	rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	_, d := X.Dims()
	P := mat.NewDense(len(order), d, nil)
	py := make([]float64, len(order))
	for p, i := range order {
		P.SetRow(p, X.RawRowView(i))
		py[p] = y[i]
	}
	return P, py
}

// Learn with a Budget removes mistakes as Fit does, and so keeps the
// support vectors Fit keeps, in the same order.
//
// By hand: Budget 1, the rows 1 and 2 of labels +1 and -1. Row 1 meets
// the empty hypothesis and is a mistake; row 2 then scores
// 1·(1·2+1) = 3 and is a mistake too, which first removes the only
// mistake, on the only support vector, the last. The model is -(K(2, x)+1)
// = -(2x+1) from visit 2 on, the visit of the removal, from which the
// voted and averaged rules combine the hypotheses.
//
// Against Fit: four orthogonal rows through the origin are all mistakes
// of the first epoch, whatever the order; with Budget 3 the fourth
// removes one of the first three, drawn from Rand. Fit shuffles with Rand
// and then draws the removal; Learn on the rows in that shuffled order,
// with a Rand in the state after the same shuffle, draws the same
// removal. Over the seeds each of the three is removed.
func TestKernelLearnBudgetRemoval(t *testing.T) {
	k := &Kernel{Budget: 1, Labels: binaryLabels}
	if err := k.Learn(mat.NewDense(2, 1, []float64{1, 2}), []float64{1, -1}); err != nil {
		t.Fatal(err)
	}
	if sv, coef, b := k.SupportVectors(); !slices.EqualFunc(ktDense(t, sv), [][]float64{{2}}, slices.Equal) || !slices.Equal(coef, []float64{-1}) || !slices.Equal(b, []float64{-1}) || k.Stats().Mistakes != 2 {
		t.Fatalf("Learn with Budget 1 kept %v, %v, %v after %d mistakes, want [[2]], [-1], [-1] after 2", ktRowsOf(sv), coef, b, k.Stats().Mistakes)
	}
	probe := mat.NewDense(3, 1, []float64{-1, 0, 1.5})
	for _, p := range ktRules {
		k.Prediction = p
		for i, x := range []float64{-1, 0, 1.5} {
			want := -(2*x + 1)
			if p == PredictVoted {
				want = sign(want)
			}
			if got := k.ScoreRows(nil, probe)[i]; got != want {
				t.Errorf("%s: the score of %v is %v, want %v", ktName(p), x, got, want)
			}
		}
	}

	X := mat.NewDense(4, 4, nil)
	for i := range 4 {
		X.Set(i, i, float64(i+1))
	}
	y := []float64{1, -1, 1, -1}
	removed := make([]int, 3) // by the position of its mistake
	for seed := range uint64(30) {
		f := &Kernel{Epochs: 1, Budget: 3, NoBias: true, Rand: rand.New(rand.NewPCG(seed, 19))}
		if err := f.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewPCG(seed, 19))
		order := []int{0, 1, 2, 3}
		P, py := ktShuffled(rnd, order, X, y)
		l := &Kernel{Budget: 3, NoBias: true, Labels: binaryLabels, Rand: rnd}
		if err := l.Learn(P, py); err != nil {
			t.Fatal(err)
		}
		fsv, fcoef, _ := f.SupportVectors()
		lsv, lcoef, _ := l.SupportVectors()
		if !ktSameMatrix(fsv, lsv) || !sameBits(fcoef, lcoef) {
			t.Errorf("seed %d: Fit keeps %v %v, Learn %v %v", seed, ktRowsOf(fsv), fcoef, ktRowsOf(lsv), lcoef)
		}
		kept := ktDense(t, fsv)
		for p, i := range order[:3] {
			if !slices.ContainsFunc(kept, func(r []float64) bool { return slices.Equal(r, X.RawRowView(i)) }) {
				removed[p]++
			}
		}
	}
	if slices.Contains(removed, 0) {
		t.Errorf("the mistakes removed, by position: %v: want each", removed)
	}
}

// A CSR matrix without elements, of nil slices as NewCSR accepts them, is
// a matrix of zeros like any other. By hand, with the linear kernel and
// a bias, on zero rows of labels +1, -1, +1 every score is the bias b:
// epoch 1 makes b 1, 0, 1 with three mistakes, epoch 2 keeps row 0 and
// makes b 0, 1 with two; the zero row is stored once, of coefficient
// 1-1+1-1+1 = 1, and every x scores b = 1.
func TestKernelCSRWithoutElements(t *testing.T) {
	const n, d = 3, 4
	S, err := NewCSR(n, d, make([]int, n+1), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	y := []float64{1, -1, 1}
	for _, X := range []mat.Matrix{S, mat.NewDense(n, d, nil)} {
		k := &Kernel{Epochs: 2}
		if err := k.Fit(X, y); err != nil {
			t.Fatalf("%T: %v", X, err)
		}
		if st := k.Stats(); !slices.Equal(st.EpochMistakes, []int{3, 2}) {
			t.Errorf("%T: mistakes %v, want [3 2]", X, st.EpochMistakes)
		}
		sv, coef, b := k.SupportVectors()
		if r, c := sv.Dims(); r != 1 || c != d || fmt.Sprintf("%T", sv) != fmt.Sprintf("%T", X) || !slices.Equal(coef, []float64{1}) || !slices.Equal(b, []float64{1}) {
			t.Errorf("%T: SupportVectors %T of %d×%d, %v, %v, want the zero row of coefficient 1, bias 1", X, sv, r, c, coef, b)
		}
		if ss, ok := sv.(*CSR); ok && ss.NNZ() != 0 {
			t.Errorf("%T: the zero support vector has %d elements", X, ss.NNZ())
		}
		T := mat.NewDense(2, d, []float64{0, 0, 0, 0, 1, -2, 3, 0.5})
		for _, R := range []mat.Matrix{S, T} {
			if got := k.ScoreRows(nil, R); slices.ContainsFunc(got, func(s float64) bool { return s != 1 }) {
				t.Errorf("%T: ScoreRows of %T is %v, want all 1", X, R, got)
			}
		}
	}
}

// TestValuesOfMany checks that the kernel values of a batch of vectors,
// whose dot products valuesOf forms many at once, are those of values,
// vector by vector, to the bit: for the linear, polynomial and RBF
// kernels, lengths about the least that batches take, odd and even,
// batches of 1 to 16 vectors reaching different numbers of rows, rows of
// a view whose stride exceeds its columns, and a sparse vector in a batch.
func TestValuesOfMany(t *testing.T) {
	rnd := rand.New(rand.NewPCG(41, 42))
	for _, f := range []KernelFunc{nil, Poly{Degree: 3, Gamma: 0.5, Coef0: 1}, RBF{Gamma: 0.1}} {
		for _, d := range []int{manyMinD - 1, manyMinD, manyMinD + 1, 100} {
			_, k, err := (&Kernel{Func: f}).resolve(d)
			if err != nil {
				t.Fatal(err)
			}
			wide := mat.NewDense(blockRows, d+3, nil)
			for i := range blockRows {
				for j := range d + 3 {
					wide.Set(i, j, rnd.NormFloat64())
				}
			}
			a, err := rowsOf(wide.Slice(0, blockRows, 1, d+1))
			if err != nil {
				t.Fatal(err)
			}
			an := make([]float64, a.n)
			for q := range an {
				an[q] = k.norm(a.row(q))
			}
			for trial := range 20 {
				ne, m := 1+rnd.IntN(chunkChanges), 1+rnd.IntN(blockRows)
				mv := newManyValues(d, k.many(d, false))
				vs := mat.NewDense(ne, d, nil)
				for e := range ne {
					for j := range d {
						vs.Set(e, j, rnd.NormFloat64())
					}
				}
				V, err := rowsOf(vs)
				if err != nil {
					t.Fatal(err)
				}
				for e := range ne {
					v := V.row(e)
					if trial == 7 && e == ne/2 {
						v = vec{ind: []int{0, d - 1}, val: []float64{1, -2}} // sparse
					}
					mv.add(v, k.norm(v), rnd.IntN(m+1))
				}
				got := k.valuesOf(m, a, an, mv)
				for e, v := range mv.vs {
					want := make([]float64, mv.n[e])
					k.values(want, a, an, v, mv.vn[e])
					if g := got[e*m : e*m+mv.n[e]]; !sameBits(g, want) {
						t.Fatalf("%v, d=%d, %d vectors, vector %d of %d rows: valuesOf gives %v, values %v", f, d, ne, e, mv.n[e], g, want)
					}
				}
			}
		}
	}
}
