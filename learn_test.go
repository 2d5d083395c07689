// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

// The tests of Learn(X, y) on Perceptron, Averaged, Voted and Kernel:
// Learn called E times from a fresh model is Fit of E epochs, bit for bit
// where the arithmetic is the same; Learn needs classes; it goes on from
// Fit; it counts its mistakes; and it refuses bad input and then changes
// nothing.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// learnKinds make each classifier with Learn from the settings of a
// Perceptron. Kernel, which has no InitWeights, takes the others, with
// the linear kernel unless Func is set after.
var learnKinds = []struct {
	name string
	make func(p Perceptron) onlineLearner
}{
	{"Perceptron", func(p Perceptron) onlineLearner { return &p }},
	{"Averaged", func(p Perceptron) onlineLearner {
		return &Averaged{Epochs: p.Epochs, Rate: p.Rate, Rand: p.Rand, NoBias: p.NoBias, InitWeights: p.InitWeights, Labels: p.Labels, OnUpdate: p.OnUpdate}
	}},
	{"Voted", func(p Perceptron) onlineLearner {
		return &Voted{Epochs: p.Epochs, Rate: p.Rate, Rand: p.Rand, NoBias: p.NoBias, InitWeights: p.InitWeights, Labels: p.Labels, OnUpdate: p.OnUpdate}
	}},
	{"Kernel", func(p Perceptron) onlineLearner {
		return &Kernel{Epochs: p.Epochs, Rate: p.Rate, Rand: p.Rand, NoBias: p.NoBias, Labels: p.Labels, OnUpdate: p.OnUpdate}
	}},
}

// learnStats returns the Stats of c.
func learnStats(c onlineLearner) Stats { return c.(interface{ Stats() Stats }).Stats() }

// learnWeights returns the weights and biases of c, and whether it has
// them: Voted and Kernel have none.
func learnWeights(c onlineLearner) (w, b []float64, ok bool) {
	l, ok := c.(interface{ Weights() (w, b []float64) })
	if !ok {
		return nil, nil, false
	}
	w, b = l.Weights()
	return w, b, true
}

// learnClassValues are the class values of the tests' data sets.
var learnClassValues = []float64{-7, -2.5, 0, 1, 4, 9.5}

// learnData is a training set for the tests of Learn.
type learnData struct {
	X       *mat.Dense
	rows    [][]float64
	y       []float64
	cls     []int // the index of each row's class among classes
	classes []float64
}

// learnDraw draws n rows of d features with classes among K of
// learnClassValues. Integer rows hold whole numbers in [-3, 3], so that
// every sum of the linear models is exact; real rows hold normal values
// on scales from 1/8 to 8. If not separable the classes are random, and
// rarely separate; if separable they are those of a random linear model
// of K scores with biases, each row drawn again until its greatest score
// is at least 2 above the others, so that the model separates the rows
// with a margin and the perceptron with a bias converges.
func learnDraw(rnd *rand.Rand, n, d, K int, integer, separable bool) learnData {
	classes := make([]float64, 0, K)
	for _, p := range rnd.Perm(len(learnClassValues))[:K] {
		classes = append(classes, learnClassValues[p])
	}
	slices.Sort(classes)
	value := func() float64 {
		if integer {
			return float64(rnd.IntN(7) - 3)
		}
		return rnd.NormFloat64() * math.Ldexp(1, rnd.IntN(7)-3)
	}
	// The model of a separable set: K weight vectors and biases, drawn
	// again if a row cannot be found in 100 draws.
	V := make([][]float64, K)
	model := func() {
		for c := range V {
			V[c] = make([]float64, d+1)
			for j := range V[c] {
				V[c][j] = float64(rnd.IntN(5) - 2)
			}
		}
	}
	model()
	data := learnData{X: mat.NewDense(n, d, nil), y: make([]float64, n), cls: make([]int, n), classes: classes}
	s := make([]float64, K)
	for i, tries := 0, 0; i < n; {
		x := data.X.RawRowView(i)
		for j := range x {
			x[j] = value()
		}
		if !separable {
			data.cls[i] = rnd.IntN(K)
			i++
			continue
		}
		for c := range K {
			s[c] = V[c][d]
			for j := range x {
				s[c] += V[c][j] * x[j]
			}
		}
		top := argmax(s, -1)
		switch {
		case s[top]-s[argmax(s, top)] >= 2:
			data.cls[i] = top
			i, tries = i+1, 0
		case tries == 100:
			model()
			i, tries = 0, 0
		default:
			tries++
		}
	}
	for i := range n {
		data.y[i] = classes[data.cls[i]]
		data.rows = append(data.rows, data.X.RawRowView(i))
	}
	return data
}

// learnCSR returns the rows of X as a *CSR, without their zeros. Its
// slices are never nil: a *CSR of nil slices, all of whose rows are
// zeros, meets a bug of the library (TestLearnZeroCSR).
func learnCSR(X *mat.Dense) *CSR {
	n, d := X.Dims()
	ptr := []int{0}
	ind := []int{}
	val := []float64{}
	for i := range n {
		for j, v := range X.RawRowView(i) {
			if v != 0 {
				ind, val = append(ind, j), append(val, v)
			}
		}
		ptr = append(ptr, len(ind))
	}
	m, err := NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return m
}

// learnDrawSettings draws the settings of a trial for rows of d features and
// the classes: the rate unset or set, to powers of two if exact, which
// keep the sums of integer rows exact; a bias or none; starting weights
// or none, whole if exact; Labels the classes in a random order.
func learnDrawSettings(rnd *rand.Rand, d int, classes []float64, exact bool) Perceptron {
	rates := []float64{0, 1, 0.5, 2}
	if !exact {
		rates = append(rates, 0.3, 1.7)
	}
	p := Perceptron{Rate: rates[rnd.IntN(len(rates))], NoBias: rnd.IntN(3) == 0}
	if rnd.IntN(2) == 0 {
		p.InitWeights = make([]float64, d*scores(classes))
		for j := range p.InitWeights {
			if exact {
				p.InitWeights[j] = float64(rnd.IntN(5) - 2)
			} else {
				p.InitWeights[j] = rnd.NormFloat64()
			}
		}
	}
	p.Labels = slices.Clone(classes)
	rnd.Shuffle(len(p.Labels), func(i, j int) { p.Labels[i], p.Labels[j] = p.Labels[j], p.Labels[i] })
	return p
}

// learnUpdate is one call of OnUpdate, with copies of its slices.
type learnUpdate struct {
	epoch, row int
	w, b       []float64
}

// learnRecord returns an OnUpdate that appends its calls to trace.
func learnRecord(trace *[]learnUpdate) func(Update) {
	return func(u Update) {
		*trace = append(*trace, learnUpdate{u.Epoch, u.Row, slices.Clone(u.Weights), slices.Clone(u.Biases)})
	}
}

// learnVisit returns the visit of the run, counted from 0, of an update:
// epoch e of Fit, or Learn number k from 1 if e is 0, of n rows each in
// index order.
func learnVisit(u learnUpdate, k, n int) int {
	if u.epoch == 0 {
		return (k-1)*n + u.row
	}
	return (u.epoch-1)*n + u.row
}

// learnSameTraces reports whether the updates of a Fit and of its Learns,
// learned[k-1] those of Learn k, are on the same visits with the same
// weights and biases, bit for bit, the Learns' of epoch 0.
func learnSameTraces(fitted []learnUpdate, learned [][]learnUpdate) bool {
	var all []learnUpdate
	for k, us := range learned {
		for _, u := range us {
			if u.epoch != 0 {
				return false
			}
			u.epoch = k + 1 // as Fit numbers it
			all = append(all, u)
		}
	}
	return slices.EqualFunc(fitted, all, func(a, b learnUpdate) bool {
		return a.epoch == b.epoch && a.row == b.row && sameBits(a.w, b.w) && sameBits(a.b, b.b)
	})
}

// learnProbe returns rows to score, dense and as a *CSR, of the kind of
// data.
func learnProbe(rnd *rand.Rand, d, K int, integer bool) (*mat.Dense, *CSR) {
	probe := learnDraw(rnd, 25, d, K, integer, false).X
	return probe, learnCSR(probe)
}

// TestLearnAsFit checks that Learn called E times from a fresh model, for
// E from 1 to 5, is Fit of E epochs in index order, bit for bit: the same
// updates (OnUpdate), the same Stats().Mistakes, the same scores and
// classes of other rows, dense and sparse, and of the training rows, and
// the same weights where the classifier has them. Perceptron and Voted
// make the same operations in Fit and Learn, and are tried on integer and
// real data, of two classes and more, on dense and sparse rows, with
// every setting. Averaged and Kernel form their sums in other orders in
// Fit and in Learn, so they are tried where the sums are exact: on
// integer data, at rates that are powers of two, from whole starting
// weights, where every value is a multiple of 1/2 far below 2^52 (5
// epochs of 30 rows of values up to 3). Kernel is tried with the linear
// and a polynomial kernel, under every rule. Fit stops after an epoch
// with no mistake, after which Learn makes none: the trials count data on
// which Fit converges before its last epoch and data on which it does
// not, and the test fails unless both are common.
func TestLearnAsFit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(41, 42))
	early, late := 0, 0 // trials whose Perceptron converged before epoch E, or did not
	const trials = 400
	for trial := range trials {
		K := 2
		if rnd.IntN(2) == 0 {
			K = 3 + rnd.IntN(3)
		}
		n, d := 1+rnd.IntN(30), 1+rnd.IntN(5)
		integer, separable, sparse := rnd.IntN(2) == 0, rnd.IntN(2) == 0, rnd.IntN(2) == 0
		data := learnDraw(rnd, n, d, K, integer, separable)
		var X mat.Matrix = data.X
		if sparse {
			X = learnCSR(data.X)
		}
		E := 1 + rnd.IntN(5)
		s := learnDrawSettings(rnd, d, data.classes, integer)
		probe, probeCSR := learnProbe(rnd, d, K, integer)
		name := fmt.Sprintf("trial %d (n=%d d=%d K=%d E=%d integer=%t sparse=%t rate=%v noBias=%t w0=%v)", trial, n, d, K, E, integer, sparse, s.Rate, s.NoBias, s.InitWeights)

		for _, kind := range learnKinds {
			funcs := []KernelFunc{nil}
			switch kind.name {
			case "Averaged":
				if !integer {
					continue // TestLearnAveragedAsFit
				}
			case "Kernel":
				if !integer {
					continue
				}
				funcs = append(funcs, Poly{Degree: 2, Gamma: 1, Coef0: 1})
			}
			for _, f := range funcs {
				var fitTrace []learnUpdate
				fs := s
				fs.Epochs, fs.OnUpdate = E, learnRecord(&fitTrace)
				fit := kind.make(fs)
				learnTraces := make([][]learnUpdate, E)
				learn := kind.make(s)
				if k, ok := fit.(*Kernel); ok {
					k.Func = f
					learn.(*Kernel).Func = f
				}
				if err := fit.Fit(X, data.y); err != nil {
					t.Fatalf("%s, %s: Fit: %v", name, kind.name, err)
				}
				for e := range E {
					learnSetOnUpdate(learn, learnRecord(&learnTraces[e]))
					if err := learn.Learn(X, data.y); err != nil {
						t.Fatalf("%s, %s: Learn %d: %v", name, kind.name, e+1, err)
					}
				}
				if kind.name == "Perceptron" && f == nil {
					if st := learnStats(fit); st.Converged && st.Epochs < E {
						early++
					} else if !st.Converged {
						late++
					}
				}
				what := fmt.Sprintf("%s, %s %v", name, kind.name, f)
				if !learnSameTraces(fitTrace, learnTraces) {
					t.Fatalf("%s: Fit updated %v, Learn %v", what, fitTrace, learnTraces)
				}
				if fm, lm := learnStats(fit).Mistakes, learnStats(learn).Mistakes; fm != lm || lm != len(fitTrace) {
					t.Fatalf("%s: Fit made %d mistakes, Learn %d, OnUpdate saw %d", what, fm, lm, len(fitTrace))
				}
				if !slices.Equal(fit.Classes(), learn.Classes()) || !slices.Equal(fit.Classes(), data.classes) {
					t.Fatalf("%s: classes %v after Fit, %v after Learn, want %v", what, fit.Classes(), learn.Classes(), data.classes)
				}
				if fw, fb, ok := learnWeights(fit); ok {
					lw, lb, _ := learnWeights(learn)
					if !sameBits(fw, lw) || !sameBits(fb, lb) {
						t.Fatalf("%s: Fit's weights %v %v, Learn's %v %v", what, fw, fb, lw, lb)
					}
				}
				rules := []Prediction{PredictLast}
				if kind.name == "Kernel" {
					rules = []Prediction{PredictLast, PredictVoted, PredictAveraged}
				}
				for _, rule := range rules {
					if k, ok := fit.(*Kernel); ok {
						k.Prediction, learn.(*Kernel).Prediction = rule, rule
						fsv, fcoef, fb := k.SupportVectors()
						lsv, lcoef, lb := learn.(*Kernel).SupportVectors()
						if !mat.Equal(fsv, lsv) || !sameBits(fcoef, lcoef) || !sameBits(fb, lb) {
							t.Fatalf("%s, rule %s: Fit's expansion %v %v %v, Learn's %v %v %v", what, predictionNames[rule], fsv, fcoef, fb, lsv, lcoef, lb)
						}
					}
					for _, P := range []mat.Matrix{probe, probeCSR, X} {
						if fs, ls := fit.ScoreRows(nil, P), learn.ScoreRows(nil, P); !sameBits(fs, ls) {
							t.Fatalf("%s, rule %s: Fit's scores %v, Learn's %v", what, predictionNames[rule], fs, ls)
						}
						if fp, lp := fit.PredictRows(nil, P), learn.PredictRows(nil, P); !sameBits(fp, lp) {
							t.Fatalf("%s, rule %s: Fit's classes %v, Learn's %v", what, predictionNames[rule], fp, lp)
						}
					}
				}
			}
		}
	}
	if early < trials/10 || late < trials/10 {
		t.Errorf("of %d trials Fit converged before its last epoch in %d and never in %d: want a tenth of each", trials, early, late)
	}
}

// learnSetOnUpdate sets the OnUpdate of c.
func learnSetOnUpdate(c onlineLearner, f func(Update)) {
	switch c := c.(type) {
	case *Perceptron:
		c.OnUpdate = f
	case *Averaged:
		c.OnUpdate = f
	case *Voted:
		c.OnUpdate = f
	case *Kernel:
		c.OnUpdate = f
	default:
		panic(fmt.Sprintf("learnSetOnUpdate: unknown type %T", c))
	}
}

// TestLearnAveragedAsFit checks Learn E times against Fit of E epochs for
// Averaged on real data, where the two sum the weights in different
// orders: they make the same updates, so the same Stats().Mistakes and the
// same running weights, and their averaged weights differ by no more than
// the rounding of the two sums allows. (On integer data, where the sums
// are exact, TestLearnAsFit finds them the same bit for bit.)
//
// The bound. Let the run make M mistakes in T = E·n visits, mistake m at
// visit τ_m (counted from 0) on row x_m with step s_m, |s_m| = Rate, and
// end with the running weights W. Both sum, for each weight (feature j,
// score c), the same terms: T·W[j,c] and, for each mistake m that moves
// score c, -(±τ_m·s_m·x_m[j]); for a bias the same with x_m[j] = 1.
//   - Fit scales W by T, adds each mistake's τ_m·s_m into a sum per row,
//     and then adds each such sum times the row to T·W, row after row:
//     a mistake's term is rounded at most once in τ_m·s_m, M times in
//     its row's sum, once in the product with x, and M times in the sums
//     of rows, 2M+2 times in all; T·W at most M+1 times.
//   - Learn adds each mistake's -τ_m·s_m·x_m to a sum as it happens and at
//     the end T·W: a term is rounded once in τ_m·s_m, once in the product
//     with x, at most M times in the additions of the mistakes and once
//     in the last one, M+3 times in all; T·W twice.
//
// By the standard bound on sums in floating point (Higham, Accuracy and
// Stability of Numerical Algorithms, 2nd ed., §3.1 and Lemma 3.1), each
// computed sum differs from the exact sum A of the terms by at most
// γ_k·Σ|terms|, γ_k = k·u/(1-k·u), u = 2^-53, k the most roundings of a
// term, whatever the order; a fused multiply-add rounds less. So the two
// sums differ by at most (γ_{2M+2} + γ_{M+3})·Σ|terms|, and the weights,
// each sum divided by T and rounded once more, by that over T plus u
// times the two weights over 1-u. The sum of |terms| is taken over every
// mistake, which for more than two classes counts mistakes that did not
// move score c: a larger, still valid bound. A bias through the origin is
// zero in both, exactly.
func TestLearnAveragedAsFit(t *testing.T) {
	const u = 0x1p-53
	gamma := func(k int) float64 { return float64(k) * u / (1 - float64(k)*u) }
	rnd := rand.New(rand.NewPCG(43, 44))
	early, late, inexact := 0, 0, 0
	const trials = 300
	for trial := range trials {
		K := 2
		if rnd.IntN(2) == 0 {
			K = 3 + rnd.IntN(3)
		}
		n, d := 1+rnd.IntN(30), 1+rnd.IntN(5)
		separable, sparse := rnd.IntN(2) == 0, rnd.IntN(2) == 0
		data := learnDraw(rnd, n, d, K, false, separable)
		var X mat.Matrix = data.X
		if sparse {
			X = learnCSR(data.X)
		}
		E := 1 + rnd.IntN(5)
		s := learnDrawSettings(rnd, d, data.classes, false)
		name := fmt.Sprintf("trial %d (n=%d d=%d K=%d E=%d sparse=%t rate=%v noBias=%t w0=%v)", trial, n, d, K, E, sparse, s.Rate, s.NoBias, s.InitWeights)

		var fitTrace []learnUpdate
		fit := &Averaged{Epochs: E, Rate: s.Rate, NoBias: s.NoBias, InitWeights: s.InitWeights, Labels: s.Labels, OnUpdate: learnRecord(&fitTrace)}
		if err := fit.Fit(X, data.y); err != nil {
			t.Fatalf("%s: Fit: %v", name, err)
		}
		learnTraces := make([][]learnUpdate, E)
		learn := &Averaged{Rate: s.Rate, NoBias: s.NoBias, InitWeights: s.InitWeights, Labels: s.Labels}
		for e := range E {
			learn.OnUpdate = learnRecord(&learnTraces[e])
			if err := learn.Learn(X, data.y); err != nil {
				t.Fatalf("%s: Learn %d: %v", name, e+1, err)
			}
		}
		if st := fit.Stats(); st.Converged && st.Epochs < E {
			early++
		} else if !st.Converged {
			late++
		}
		if !learnSameTraces(fitTrace, learnTraces) {
			t.Fatalf("%s: Fit updated %v, Learn %v", name, fitTrace, learnTraces)
		}
		M := len(fitTrace)
		if fm, lm := fit.Stats().Mistakes, learn.Stats().Mistakes; fm != M || lm != M {
			t.Fatalf("%s: Fit made %d mistakes, Learn %d, OnUpdate saw %d", name, fm, lm, M)
		}

		S := scores(data.classes)
		T := float64(E * n)
		rate := s.Rate
		if rate == 0 {
			rate = 1
		}
		W, B := make([]float64, d*S), make([]float64, S)
		copy(W, s.InitWeights)
		if M > 0 {
			W, B = fitTrace[M-1].w, fitTrace[M-1].b
		}
		// sumAbs[j] is the sum of τ_m·Rate·|x_m[j]| over the mistakes, and
		// sumAbs[d] that of τ_m·Rate, for the biases.
		sumAbs := make([]float64, d+1)
		for _, m := range fitTrace {
			tau := float64(learnVisit(m, 0, n))
			for j, v := range data.rows[m.row] {
				sumAbs[j] += tau * rate * math.Abs(v)
			}
			sumAbs[d] += tau * rate
		}
		k := gamma(2*M+2) + gamma(M+3)
		bound := func(a, b, W, terms float64) float64 {
			return k*(T*math.Abs(W)+terms)/T + u*(math.Abs(a)+math.Abs(b))/(1-u)
		}
		fw, fb := fit.Weights()
		lw, lb := learn.Weights()
		if !sameBits(fw, lw) || !sameBits(fb, lb) {
			inexact++
		}
		for i := range fw {
			j := i / S
			if e := math.Abs(fw[i] - lw[i]); !(e <= bound(fw[i], lw[i], W[i], sumAbs[j])) {
				t.Fatalf("%s: weight %d (feature %d, score %d): Fit's %v, Learn's %v differ by %v, bound %v", name, i, j, i%S, fw[i], lw[i], e, bound(fw[i], lw[i], W[i], sumAbs[j]))
			}
		}
		for c := range fb {
			if s.NoBias {
				if fb[c] != 0 || lb[c] != 0 {
					t.Fatalf("%s: through the origin, the biases are %v after Fit, %v after Learn", name, fb, lb)
				}
				continue
			}
			if e := math.Abs(fb[c] - lb[c]); !(e <= bound(fb[c], lb[c], B[c], sumAbs[d])) {
				t.Fatalf("%s: bias %d: Fit's %v, Learn's %v differ by %v, bound %v", name, c, fb[c], lb[c], e, bound(fb[c], lb[c], B[c], sumAbs[d]))
			}
		}
	}
	t.Logf("of %d trials, %d converged before the last epoch, %d never, %d had weights that differ in their bits", trials, early, late, inexact)
	if early < trials/10 || late < trials/10 {
		t.Errorf("of %d trials Fit converged before its last epoch in %d and never in %d: want a tenth of each", trials, early, late)
	}
}

// learnNaive is the perceptron's rule written out with plain loops, as an
// independent reference for Learn on integer data, where its sums are
// exact in any order: S weight vectors w[c] and biases b[c], S being 1
// for two classes, whose row of class index c has the label -1 for c = 0
// and +1 for c = 1; for more, a row of class c is a mistake unless its
// score is above every other, and moves score c up and the first other
// of the greatest score down.
type learnNaive struct {
	w    [][]float64
	b    []float64
	bias bool
	rate float64
}

// newLearnNaive returns the model of S scores on d features that starts
// from the weights w0, laid out as Weights lays them out, or zero weights
// if w0 is nil, and zero biases, training at the rate, 1 if it is 0.
func newLearnNaive(d, S int, w0 []float64, bias bool, rate float64) *learnNaive {
	if rate == 0 {
		rate = 1
	}
	m := &learnNaive{w: make([][]float64, S), b: make([]float64, S), bias: bias, rate: rate}
	for c := range S {
		m.w[c] = make([]float64, d)
		if w0 != nil {
			for j := range d {
				m.w[c][j] = w0[j*S+c]
			}
		}
	}
	return m
}

// visit visits the row x of class index c, and reports whether it was a
// mistake.
func (m *learnNaive) visit(x []float64, c int) bool {
	S := len(m.b)
	s := make([]float64, S)
	for k := range S {
		s[k] = m.b[k]
		for j := range x {
			s[k] += m.w[k][j] * x[j]
		}
	}
	if S == 1 {
		y := float64(2*c - 1)
		if y*s[0] > 0 {
			return false
		}
		for j := range x {
			m.w[0][j] += m.rate * y * x[j]
		}
		if m.bias {
			m.b[0] += m.rate * y
		}
		return true
	}
	o := -1
	for k := range S {
		if k != c && (o < 0 || s[k] > s[o]) {
			o = k
		}
	}
	if s[c] > s[o] {
		return false
	}
	for j := range x {
		m.w[c][j] += m.rate * x[j]
		m.w[o][j] -= m.rate * x[j]
	}
	if m.bias {
		m.b[c] += m.rate
		m.b[o] -= m.rate
	}
	return true
}

// flat returns the weights and biases of m laid out as Weights lays them
// out.
func (m *learnNaive) flat() (w, b []float64) {
	S, d := len(m.b), len(m.w[0])
	w = make([]float64, d*S)
	for c := range S {
		for j := range d {
			w[j*S+c] = m.w[c][j]
		}
	}
	return w, slices.Clone(m.b)
}

// TestLearnCountsMistakes learns random integer sets in random chunks,
// dense or sparse, with each classifier and every setting, from a fresh
// model with Labels, against the naive rule run on the same rows in the
// same order: at each chunk Stats().Mistakes grows by the naive mistakes
// of the chunk, OnUpdate is called once for each, with epoch 0, the
// row's index in the chunk, and the naive running weights and biases (the
// biases alone for Kernel, which has no weights to report), and the
// other Stats, which describe Fit, stay zero. The chunks together are
// then Learn of all the rows at once.
func TestLearnCountsMistakes(t *testing.T) {
	rnd := rand.New(rand.NewPCG(45, 46))
	for trial := range 150 {
		K := 2 + rnd.IntN(3)
		n, d := 1+rnd.IntN(40), 1+rnd.IntN(5)
		data := learnDraw(rnd, n, d, K, true, rnd.IntN(2) == 0)
		s := learnDrawSettings(rnd, d, data.classes, true)
		sparse := rnd.IntN(2) == 0
		var cuts []int // the chunks are rows cuts[k] to cuts[k+1]
		for i := 0; i < n; i += 1 + rnd.IntN(8) {
			cuts = append(cuts, i)
		}
		cuts = append(cuts, n)
		for _, kind := range learnKinds {
			name := fmt.Sprintf("trial %d, %s (n=%d d=%d K=%d rate=%v noBias=%t w0=%v)", trial, kind.name, n, d, K, s.Rate, s.NoBias, s.InitWeights)
			ks := s
			if kind.name == "Kernel" {
				ks.InitWeights = nil
			}
			var trace []learnUpdate
			ks.OnUpdate = learnRecord(&trace)
			c := kind.make(ks)
			naive := newLearnNaive(d, scores(data.classes), ks.InitWeights, !s.NoBias, s.Rate)
			total := 0
			for k := range len(cuts) - 1 {
				lo, hi := cuts[k], cuts[k+1]
				var X mat.Matrix = data.X.Slice(lo, hi, 0, d)
				if sparse {
					X = learnCSR(mat.DenseCopyOf(X))
				}
				before := learnStats(c).Mistakes
				trace = trace[:0]
				if err := c.Learn(X, data.y[lo:hi]); err != nil {
					t.Fatalf("%s: Learn of rows %d to %d: %v", name, lo, hi, err)
				}
				var want []learnUpdate
				for i := lo; i < hi; i++ {
					if naive.visit(data.rows[i], data.cls[i]) {
						w, b := naive.flat()
						if kind.name == "Kernel" {
							w = nil
						}
						want = append(want, learnUpdate{0, i - lo, w, b})
					}
				}
				total += len(want)
				if !slices.EqualFunc(trace, want, func(a, b learnUpdate) bool {
					return a.epoch == b.epoch && a.row == b.row && sameBits(a.w, b.w) && sameBits(a.b, b.b)
				}) {
					t.Fatalf("%s: Learn of rows %d to %d called OnUpdate with %v, want %v", name, lo, hi, trace, want)
				}
				if got := learnStats(c).Mistakes - before; got != len(want) {
					t.Fatalf("%s: Learn of rows %d to %d added %d mistakes, want %d", name, lo, hi, got, len(want))
				}
			}
			if st := learnStats(c); st.Mistakes != total || st.Epochs != 0 || st.Converged || st.EpochMistakes != nil {
				t.Fatalf("%s: Stats %+v, want %d mistakes and nothing else", name, st, total)
			}
			if w, b, ok := learnWeights(c); ok && kind.name == "Perceptron" {
				if nw, nb := naive.flat(); !sameBits(w, nw) || !sameBits(b, nb) {
					t.Fatalf("%s: w=%v b=%v, the naive rule's w=%v b=%v", name, w, b, nw, nb)
				}
			}
			// Learn of all the rows at once, of the same form, is the same
			// model.
			ks.OnUpdate = nil
			all := kind.make(ks)
			var X mat.Matrix = data.X
			if sparse {
				X = learnCSR(data.X)
			}
			if err := all.Learn(X, data.y); err != nil {
				t.Fatal(err)
			}
			if a, b := learnSnapshot(t, all), learnSnapshot(t, c); a != b {
				t.Fatalf("%s: Learn of all the rows gave\n%s\nLearn in chunks\n%s", name, a, b)
			}
		}
	}
}

// learnSnapshot returns the saved form of c, as MarshalJSON writes it
// exactly, its settings, model and Stats, or "not fitted".
func learnSnapshot(t *testing.T, c onlineLearner) string {
	t.Helper()
	if c.Classes() == nil {
		return "not fitted"
	}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatalf("%T: MarshalJSON: %v", c, err)
	}
	return string(data)
}

// TestLearnWithoutClasses checks that Learn on a classifier that was
// neither fitted nor given Labels returns an error, as there is no
// implicit -1/+1, and changes nothing: no classes, no Stats, no call of
// OnUpdate, and prediction still panics; and that the classifier then
// learns once given Labels.
func TestLearnWithoutClasses(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{1, 2, -1, 0, 2, 2})
	y := []float64{-1, 1, -1}
	for _, kind := range learnKinds {
		for _, w0 := range [][]float64{nil, {1, -1}} {
			if w0 != nil && kind.name == "Kernel" {
				continue
			}
			calls := 0
			c := kind.make(Perceptron{InitWeights: w0, OnUpdate: func(Update) { calls++ }})
			err := c.Learn(X, y)
			if err == nil || !strings.HasPrefix(err.Error(), "perceptron: ") || !strings.Contains(err.Error(), "set Labels") {
				t.Errorf("%s, InitWeights %v: Learn without classes returned %v, want an error asking for Labels", kind.name, w0, err)
			}
			if c.Classes() != nil || calls != 0 || !slices.Equal(X.RawMatrix().Data, []float64{1, 2, -1, 0, 2, 2}) {
				t.Errorf("%s: failed Learn left classes %v, called OnUpdate %d times", kind.name, c.Classes(), calls)
			}
			if st := learnStats(c); st.Mistakes != 0 || st.Epochs != 0 || st.EpochMistakes != nil || st.Converged {
				t.Errorf("%s: failed Learn left Stats %+v", kind.name, st)
			}
			mustPanic(t, kind.name+" Predict after failed Learn", "called before Fit", func() { c.Predict([]float64{1, 2}) })
			if _, err := json.Marshal(c); err == nil {
				t.Errorf("%s: a classifier that failed to learn saves", kind.name)
			}
			// With Labels it learns; the labels are -1 and +1 here, and
			// the first row, on zero weights, is a mistake.
			learnSetLabels(c, []float64{1, -1})
			if err := c.Learn(X, y); err != nil {
				t.Fatalf("%s: Learn with Labels: %v", kind.name, err)
			}
			if !slices.Equal(c.Classes(), []float64{-1, 1}) || learnStats(c).Mistakes == 0 || calls != learnStats(c).Mistakes {
				t.Errorf("%s: Learn with Labels gave classes %v, %d mistakes, %d calls", kind.name, c.Classes(), learnStats(c).Mistakes, calls)
			}
		}
	}
}

// learnSetLabels sets the Labels of c.
func learnSetLabels(c onlineLearner, labels []float64) {
	switch c := c.(type) {
	case *Perceptron:
		c.Labels = labels
	case *Averaged:
		c.Labels = labels
	case *Voted:
		c.Labels = labels
	case *Kernel:
		c.Labels = labels
	default:
		panic(fmt.Sprintf("learnSetLabels: unknown type %T", c))
	}
}

// TestLearnZeroOneStream learns a stream of labels 0 and 1, one example
// at a time, on classifiers given Labels {0, 1}: from the first example
// on, class 0 is the label -1 of the rule and class 1 the label +1, as in
// Fit (a fresh Learn used to take the labels as -1 and +1, and refuse 0).
// By hand: the first example, on zero weights, scores 0 and is a mistake
// whatever its class; (1, 2) of class 0 moves w to (-1, -2) and b to -1,
// and the classifier then predicts class 0 for it. The rest of the stream
// follows the naive rule.
func TestLearnZeroOneStream(t *testing.T) {
	rnd := rand.New(rand.NewPCG(47, 48))
	rows := [][]float64{{1, 2}}
	y := []float64{0}
	for range 60 {
		x := []float64{float64(rnd.IntN(7) - 3), float64(rnd.IntN(7) - 3)}
		rows = append(rows, x)
		if x[0]-2*x[1]+1 > 0 { // a line that separates them, mostly
			y = append(y, 1)
		} else {
			y = append(y, 0)
		}
	}
	for _, kind := range learnKinds {
		var trace []learnUpdate
		c := kind.make(Perceptron{Labels: []float64{0, 1}, OnUpdate: learnRecord(&trace)})
		naive := newLearnNaive(2, 1, nil, true, 1)
		for i, x := range rows {
			before := len(trace)
			if err := learnOne(c, x, y[i]); err != nil {
				t.Fatalf("%s: Learn of example %d (%v, %v): %v", kind.name, i, x, y[i], err)
			}
			mistake := naive.visit(x, int(y[i]))
			if i == 0 {
				if got := c.Predict(x); !mistake || got != 0 || !slices.Equal(c.Classes(), []float64{0, 1}) {
					t.Fatalf("%s: after the first example, classes %v, Predict(%v) = %v, want 0 (naive mistake %t)", kind.name, c.Classes(), x, got, mistake)
				}
			}
			calls := trace[before:]
			if mistake != (len(calls) == 1) || len(calls) > 1 || learnStats(c).Mistakes != len(trace) {
				t.Fatalf("%s: example %d: naive mistake %t, OnUpdate called %d times, %d mistakes in all, %d calls", kind.name, i, mistake, len(calls), learnStats(c).Mistakes, len(trace))
			}
			if mistake {
				nw, nb := naive.flat()
				if kind.name == "Kernel" {
					nw = nil
				}
				if u := calls[0]; u.epoch != 0 || u.row != 0 || !sameBits(u.w, nw) || !sameBits(u.b, nb) {
					t.Fatalf("%s: example %d: OnUpdate %+v, want epoch 0, row 0, w=%v b=%v", kind.name, i, u, nw, nb)
				}
			}
		}
		for i, p := range c.PredictRows(nil, mat.NewDense(2, 2, []float64{3, -3, -3, 3})) {
			if p != 0 && p != 1 {
				t.Fatalf("%s: predicted %v for probe %d, not a class", kind.name, p, i)
			}
		}
		if w, b, ok := learnWeights(c); ok && kind.name == "Perceptron" {
			if nw, nb := naive.flat(); !sameBits(w, nw) || !sameBits(b, nb) {
				t.Fatalf("%s: w=%v b=%v, the naive rule's w=%v b=%v", kind.name, w, b, nw, nb)
			}
		}
	}
}

// TestLearnAfterFit checks that Learn after Fit goes on from the fitted
// model, with its classes and its bias or none, on integer data, where
// the sums are exact: Perceptron's Learn of new rows is the naive rule
// run on them from the fitted weights and biases, and through the origin
// it is one epoch of Fit on them from InitWeights the fitted weights; for
// every classifier Learn of the same rows is Fit's next epoch, so that
// Fit of E epochs and Learn are Fit of E+1, bit for bit. Stats keep Fit's
// epochs and add the mistakes of Learn, and OnUpdate sees the rows of
// Learn's X, in epoch 0.
func TestLearnAfterFit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(49, 50))
	for trial := range 200 {
		K := 2 + rnd.IntN(3)
		n, d := 1+rnd.IntN(30), 1+rnd.IntN(5)
		data := learnDraw(rnd, n, d, K, true, rnd.IntN(2) == 0)
		more := learnDraw(rnd, 1+rnd.IntN(30), d, K, true, false)
		more.classes, more.y = data.classes, nil
		for _, c := range more.cls {
			more.y = append(more.y, data.classes[c])
		}
		s := learnDrawSettings(rnd, d, data.classes, true)
		s.Epochs = 1 + rnd.IntN(4)
		name := fmt.Sprintf("trial %d (n=%d d=%d K=%d E=%d rate=%v noBias=%t w0=%v)", trial, n, d, K, s.Epochs, s.Rate, s.NoBias, s.InitWeights)

		// Perceptron on new rows, against the naive rule.
		p := s
		if err := p.Fit(data.X, data.y); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fitted := p.Stats()
		fw, fb := p.Weights()
		S := len(fb)
		naive := newLearnNaive(d, S, fw, !s.NoBias, s.Rate)
		copy(naive.b, fb)
		var want []learnUpdate
		for i, x := range more.rows {
			if naive.visit(x, more.cls[i]) {
				w, b := naive.flat()
				want = append(want, learnUpdate{0, i, w, b})
			}
		}
		var got []learnUpdate
		p.OnUpdate = learnRecord(&got)
		p.NoBias = !s.NoBias // Learn goes on with the model's bias or none
		p.Labels = nil       // and its classes
		if err := p.Learn(more.X, more.y); err != nil {
			t.Fatalf("%s: Learn after Fit: %v", name, err)
		}
		if !slices.EqualFunc(got, want, func(a, b learnUpdate) bool {
			return a.epoch == b.epoch && a.row == b.row && sameBits(a.w, b.w) && sameBits(a.b, b.b)
		}) {
			t.Fatalf("%s: Learn after Fit called OnUpdate with %v, the naive rule's updates %v", name, got, want)
		}
		st := p.Stats()
		if st.Mistakes != fitted.Mistakes+len(want) || st.Epochs != fitted.Epochs || st.Converged != fitted.Converged || !slices.Equal(st.EpochMistakes, fitted.EpochMistakes) {
			t.Fatalf("%s: Stats %+v after Fit, %+v after Learn, want %d mistakes more", name, fitted, st, len(want))
		}
		if s.NoBias {
			// Through the origin the model is its weights alone: one
			// epoch of Fit from them gives the same updates.
			var fitTrace []learnUpdate
			q := Perceptron{Epochs: 1, Rate: s.Rate, NoBias: true, InitWeights: fw, Labels: data.classes, OnUpdate: learnRecord(&fitTrace)}
			if err := q.Fit(more.X, more.y); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			qw, qb := q.Weights()
			lw, lb := p.Weights()
			if !learnSameTraces(fitTrace, [][]learnUpdate{got}) || !sameBits(qw, lw) || !sameBits(qb, lb) {
				t.Fatalf("%s: Learn after Fit gave w=%v b=%v, Fit from its weights w=%v b=%v", name, lw, lb, qw, qb)
			}
		}

		// Every classifier: Fit of E epochs and Learn are Fit of E+1.
		for _, kind := range learnKinds {
			ks := s
			var fitTrace, learnTrace []learnUpdate
			ks.OnUpdate = learnRecord(&fitTrace)
			next := kind.make(ks)
			ks.Epochs++
			ks.OnUpdate = nil
			want := kind.make(ks)
			if err := next.Fit(data.X, data.y); err != nil {
				t.Fatalf("%s, %s: %v", name, kind.name, err)
			}
			if err := want.Fit(data.X, data.y); err != nil {
				t.Fatalf("%s, %s: %v", name, kind.name, err)
			}
			fitted := learnStats(next)
			learnSetOnUpdate(next, learnRecord(&learnTrace))
			if err := next.Learn(data.X, data.y); err != nil {
				t.Fatalf("%s, %s: Learn after Fit: %v", name, kind.name, err)
			}
			for _, u := range learnTrace {
				if u.epoch != 0 {
					t.Fatalf("%s, %s: Learn called OnUpdate in epoch %d", name, kind.name, u.epoch)
				}
			}
			// The last epoch of E+1 if Fit ran to it; none after a
			// converged Fit.
			wst := learnStats(want)
			extra := len(learnTrace)
			if len(wst.EpochMistakes) == s.Epochs+1 {
				if last := wst.EpochMistakes[s.Epochs]; extra != last {
					t.Fatalf("%s, %s: Learn after Fit made %d mistakes, the epoch %d of Fit %d", name, kind.name, extra, s.Epochs+1, last)
				}
			} else if extra != 0 {
				t.Fatalf("%s, %s: Learn after a Fit that converged made %d mistakes", name, kind.name, extra)
			}
			st := learnStats(next)
			if st.Mistakes != wst.Mistakes || st.Mistakes != fitted.Mistakes+extra || st.Epochs != fitted.Epochs || !slices.Equal(st.EpochMistakes, fitted.EpochMistakes) {
				t.Fatalf("%s, %s: Stats %+v after Fit and Learn, %+v after Fit, want the mistakes of %+v", name, kind.name, st, fitted, wst)
			}
			if ww, wb, ok := learnWeights(want); ok {
				nw, nb, _ := learnWeights(next)
				if !sameBits(ww, nw) || !sameBits(wb, nb) {
					t.Fatalf("%s, %s: Fit and Learn gave w=%v b=%v, Fit of one epoch more w=%v b=%v", name, kind.name, nw, nb, ww, wb)
				}
			}
			rules := []Prediction{PredictLast}
			if kind.name == "Kernel" {
				rules = []Prediction{PredictLast, PredictVoted, PredictAveraged}
			}
			for _, rule := range rules {
				if k, ok := next.(*Kernel); ok {
					k.Prediction, want.(*Kernel).Prediction = rule, rule
				}
				for _, X := range []mat.Matrix{data.X, more.X} {
					if a, b := next.ScoreRows(nil, X), want.ScoreRows(nil, X); !sameBits(a, b) {
						t.Fatalf("%s, %s, rule %s: Fit and Learn score %v, Fit of one epoch more %v", name, kind.name, predictionNames[rule], a, b)
					}
					if a, b := next.PredictRows(nil, X), want.PredictRows(nil, X); !sameBits(a, b) {
						t.Fatalf("%s, %s, rule %s: Fit and Learn predict %v, Fit of one epoch more %v", name, kind.name, predictionNames[rule], a, b)
					}
				}
			}
		}
	}
}

// TestLearnBadInputs checks that Learn refuses bad input with an error
// that names it, on a fitted classifier of every kind, of two classes and
// of three, and on a fresh one given Labels, and then has changed
// nothing: the same saved model and Stats, the same scores, no call of
// OnUpdate, though the rows before the bad one would have been mistakes.
func TestLearnBadInputs(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	X := mat.NewDense(6, 2, []float64{1, 2, -1, 0, 2, 2, 0, -3, -2, 1, 3, -1})
	probe := mat.NewDense(3, 2, []float64{1, 1, -2, 0.5, 0, 3})
	for _, classes := range [][]float64{{-1, 1}, {0, 4, 9.5}} {
		y := make([]float64, 6)
		for i := range y {
			y[i] = classes[i%len(classes)]
		}
		for _, kind := range learnKinds {
			for _, fitted := range []bool{true, false} {
				name := fmt.Sprintf("%s, classes %v, fitted %t", kind.name, classes, fitted)
				calls := 0
				c := kind.make(Perceptron{Epochs: 2, Labels: classes, OnUpdate: func(Update) { calls++ }})
				if fitted {
					if err := c.Fit(X, y); err != nil {
						t.Fatal(err)
					}
				}
				calls = 0
				// Labels that the classifier gets wrong, so that its
				// rows are mistakes: the class after the predicted one.
				wrong := func(rows mat.Matrix) []float64 {
					n, _ := rows.Dims()
					w := make([]float64, n)
					for i := range w {
						p := classes[i%len(classes)]
						if fitted {
							p = c.Predict(mat.Row(nil, i, rows))
						}
						w[i] = classes[(slices.Index(classes, p)+1)%len(classes)]
					}
					return w
				}
				bad := func(v ...float64) *mat.Dense { return mat.NewDense(len(v)/2, 2, v) }
				for _, tc := range []struct {
					what string
					X    mat.Matrix
					y    []float64
					want string
				}{
					{"nil X", nil, []float64{classes[0]}, "X is nil"},
					{"no rows", &mat.Dense{}, []float64{}, "X has no rows"},
					{"short y", X, y[:5], "len(y) is 5, want 6"},
					{"label not a class", bad(1, 2, 3, 4, 5, 6), []float64{classes[0], 5, classes[1]}, fmt.Sprintf("y[1] is 5, not one of the classes %v", classes)},
					{"NaN label", bad(1, 2, 3, 4), []float64{classes[1], nan}, "y[1] is NaN"},
					{"NaN in X", bad(1, 2, -3, 1, 2, nan), nil, "X[2, 1] is NaN"},
					{"+Inf in X", bad(1, 2, inf, 1, 2, 2), nil, "X[1, 0] is +Inf"},
					{"-Inf in X, last row", bad(1, 2, -3, 1, 0, 1, -inf, 0), nil, "X[3, 0] is -Inf"},
					// The width of a fitted model; a fresh one takes any.
					{"wide X", mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6}), classes[:2], "X has 3 columns, want 2, the columns of the model"},
				} {
					if tc.what == "wide X" && !fitted {
						continue
					}
					if tc.y == nil {
						// The finite values of the rows, for Predict.
						n, d := tc.X.Dims()
						finiteRows := mat.NewDense(n, d, nil)
						for i := range n {
							for j := range d {
								if v := tc.X.At(i, j); finite(v) {
									finiteRows.Set(i, j, v)
								}
							}
						}
						tc.y = wrong(finiteRows)
					}
					before, st := learnSnapshot(t, c), learnStats(c)
					var scores []float64
					if fitted {
						scores = c.ScoreRows(nil, probe)
					}
					err := c.Learn(tc.X, tc.y)
					if err == nil || !strings.HasPrefix(err.Error(), "perceptron: ") || !strings.Contains(err.Error(), tc.want) {
						t.Errorf("%s, %s: Learn returned %v, want an error containing %q", name, tc.what, err, tc.want)
					}
					if after := learnSnapshot(t, c); after != before || calls != 0 || learnStats(c).Mistakes != st.Mistakes {
						t.Fatalf("%s, %s: failed Learn changed the model from\n%s\nto\n%s\n(%d calls of OnUpdate)", name, tc.what, before, after, calls)
					}
					if fitted && !sameBits(c.ScoreRows(nil, probe), scores) {
						t.Fatalf("%s, %s: failed Learn changed the scores", name, tc.what)
					}
				}
			}
		}
	}
	// A fresh classifier checks its settings as Fit does, and starts no
	// model on an error.
	for _, kind := range learnKinds[:3] {
		c := kind.make(Perceptron{Labels: binaryLabels, InitWeights: []float64{1}})
		if err := c.Learn(X, []float64{1, -1, 1, -1, 1, -1}); err == nil || !strings.Contains(err.Error(), "InitWeights has length 1, want 2") {
			t.Errorf("%s: Learn with short InitWeights returned %v", kind.name, err)
		}
		if c.Classes() != nil {
			t.Errorf("%s: failed Learn started a model", kind.name)
		}
	}
}

// TestLearnOverflow checks that a Learn whose update would overflow
// returns an error and changes nothing: the model is then the one that the
// Learn before it left. From w = (1.5e308, -1.5e308) through the origin at
// rate 1e308, (0, 1) of label +1 scores -1.5e308, a mistake that moves w
// to (1.5e308, -0.5e308); (1, 4) then scores 1.5e308-2e308 < 0, a mistake
// whose update would take w[0] to 2.5e308.
func TestLearnOverflow(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 1, 1, 4, 1, 0})
	y := []float64{1, 1, 1}
	for _, kind := range learnKinds[:3] {
		s := Perceptron{Rate: 1e308, NoBias: true, InitWeights: []float64{1.5e308, -1.5e308}, Labels: binaryLabels}
		c := kind.make(s)
		if err := c.Learn(X.Slice(0, 1, 0, 2), y[:1]); err != nil {
			t.Fatal(err)
		}
		before := learnSnapshot(t, c)
		err := c.Learn(X.Slice(1, 3, 0, 2), y[1:])
		if !errors.Is(err, ErrNonFinite) || !strings.HasPrefix(err.Error(), "perceptron: ") || !strings.Contains(err.Error(), "overflow") {
			t.Fatalf("%s: Learn past MaxFloat64 returned %v, want an overflow of kind ErrNonFinite", kind.name, err)
		}
		if after := learnSnapshot(t, c); after != before || learnStats(c).Mistakes != 1 {
			t.Fatalf("%s: Learn that overflowed on its first row left\n%s\nwhere the Learn before it left\n%s", kind.name, after, before)
		}
	}
}

// TestOneVsRestLearnFails checks that a OneVsRest's Learn that fails
// changes nothing: a first Learn whose class 0 against the rest
// overflows leaves a OneVsRest that predicts nothing and saves nothing, as
// one never fitted, and a later one leaves every classifier as it was.
func TestOneVsRestLearnFails(t *testing.T) {
	o := &OneVsRest{Labels: []float64{0, 1, 2}, New: func() Scorer { return &Perceptron{Rate: 1e10} }}
	bad := mat.NewDense(3, 2, []float64{1e300, 1, 1e300, -1, -1e300, 1})
	if err := o.Learn(bad, []float64{0, 1, 2}); !errors.Is(err, ErrNonFinite) {
		t.Fatalf("first Learn that overflows returned %v, want ErrNonFinite", err)
	}
	if _, err := o.MarshalJSON(); !errors.Is(err, ErrNotFitted) {
		t.Errorf("MarshalJSON after a failed first Learn returned %v, want ErrNotFitted", err)
	}
	if o.Classes() != nil || o.Models() != nil {
		t.Errorf("a failed first Learn left classes %v and %d models", o.Classes(), len(o.Models()))
	}
	good := mat.NewDense(3, 2, []float64{1, 0, 0, 1, -1, -1})
	if err := o.Learn(good, []float64{0, 1, 2}); err != nil {
		t.Fatal(err)
	}
	before, err := o.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Learn(bad, []float64{0, 1, 2}); !errors.Is(err, ErrNonFinite) {
		t.Fatalf("Learn that overflows returned %v, want ErrNonFinite", err)
	}
	if after, err := o.MarshalJSON(); err != nil || string(after) != string(before) {
		t.Errorf("a failed Learn changed the OneVsRest:\n%s\nwant\n%s (%v)", after, before, err)
	}
}

// TestLearnKernelBudget checks Kernel's Learn with a Budget: once the
// hypothesis holds Budget mistakes each mistake first removes one, so
// that it never holds more, and a stream with more mistakes than the
// budget ends with Budget of them, on as many support vectors when the
// rows are distinct. By hand, with Budget 1: (1) of label +1 is a mistake
// on the empty hypothesis; (2) of label -1 scores 1·2+1 = 3, a mistake,
// which removes the first, the one support vector, and leaves the
// coefficient -1 on (2) and the bias -1.
func TestLearnKernelBudget(t *testing.T) {
	k := &Kernel{Budget: 1, Labels: binaryLabels}
	if err := k.Learn(mat.NewDense(2, 1, []float64{1, 2}), []float64{1, -1}); err != nil {
		t.Fatal(err)
	}
	sv, coef, b := k.SupportVectors()
	if !mat.Equal(sv, mat.NewDense(1, 1, []float64{2})) || !slices.Equal(coef, []float64{-1}) || !slices.Equal(b, []float64{-1}) || k.Stats().Mistakes != 2 {
		t.Errorf("Budget 1: support vectors %v, coefficients %v, bias %v, %d mistakes, want (2), -1, -1, 2", mat.Formatted(sv), coef, b, k.Stats().Mistakes)
	}

	rnd := rand.New(rand.NewPCG(51, 52))
	for _, budget := range []int{1, 2, 5, 20} {
		k := &Kernel{Func: RBF{Gamma: 2}, Budget: budget, Labels: binaryLabels}
		x := make([]float64, 2)
		for range 2000 {
			x[0], x[1] = rnd.Float64(), rnd.Float64()
			y := -1.0
			if math.Hypot(x[0]-0.5, x[1]-0.5) < 0.4 {
				y = 1
			}
			if err := learnOne(k, x, y); err != nil {
				t.Fatal(err)
			}
			if sv, _, _ := k.SupportVectors(); sv != nil {
				if n, _ := sv.Dims(); n > budget {
					t.Fatalf("Budget %d: %d support vectors", budget, n)
				}
			}
		}
		sv, _, _ := k.SupportVectors()
		if n, _ := sv.Dims(); k.Stats().Mistakes > budget && n != budget {
			t.Errorf("Budget %d: %d mistakes end with %d support vectors, want %d", budget, k.Stats().Mistakes, n, budget)
		}
	}
}

// TestLearnZeroCSR checks Fit, Learn and the predictions on a *CSR all of
// whose rows are zeros, made with nil slices, as NewCSR allows: they are
// those of the dense rows of zeros. Each row scores the bias alone.
func TestLearnZeroCSR(t *testing.T) {
	Z, err := NewCSR(3, 2, []int{0, 0, 0, 0}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	D := mat.NewDense(3, 2, nil)
	y := []float64{-1, 1, 1}
	for _, kind := range learnKinds {
		fz, fd := kind.make(Perceptron{Epochs: 3}), kind.make(Perceptron{Epochs: 3})
		if err := fz.Fit(Z, y); err != nil {
			t.Fatalf("%s: Fit on zero rows: %v", kind.name, err)
		}
		if err := fd.Fit(D, y); err != nil {
			t.Fatal(err)
		}
		lz, ld := kind.make(Perceptron{Labels: binaryLabels}), kind.make(Perceptron{Labels: binaryLabels})
		if err := lz.Learn(Z, y); err != nil {
			t.Fatalf("%s: Learn on zero rows: %v", kind.name, err)
		}
		if err := ld.Learn(D, y); err != nil {
			t.Fatal(err)
		}
		for _, m := range [][2]onlineLearner{{fz, fd}, {lz, ld}} {
			for _, P := range []mat.Matrix{Z, D} {
				if a, b := m[0].ScoreRows(nil, P), m[1].ScoreRows(nil, P); !sameBits(a, b) {
					t.Errorf("%s: scores %v trained on the sparse zeros, %v on the dense", kind.name, a, b)
				}
				if a, b := m[0].PredictRows(nil, P), m[1].PredictRows(nil, P); !sameBits(a, b) {
					t.Errorf("%s: classes %v trained on the sparse zeros, %v on the dense", kind.name, a, b)
				}
			}
		}
	}
}
