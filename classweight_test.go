// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/synth"
)

// TestClassWeightTrace checks weighted runs traced by hand.
//
// Two classes: the rows (1, 0) of class 1, +1, and (0, 1) of class -1,
// weighted 2 and 0.5, visited in order at rate 1. Epoch 1: (1, 0) scores
// 0, a mistake, which adds 1·2·(+1) = 2 to w and b: w = (2, 0), b = 2;
// (0, 1) scores 2, a mistake for -1, which adds 0.5·(-1): w = (2, -0.5),
// b = 1.5. Epoch 2: (1, 0) scores 3.5, right; (0, 1) scores 1, a mistake:
// w = (2, -1), b = 1. Epoch 3: 3, right; 0, a mistake: w = (2, -1.5),
// b = 0.5. Epoch 4: 2.5 and -1, both right: converged.
//
// Three classes 0, 1, 2 weighted 2, 1 and 0.5, through the origin, on the
// rows (1, 0), (0, 1) and (1, 1) of classes 0, 1 and 2. Epoch 1: every
// score of (1, 0) is 0, so class 0 does not win: it gains 2·x and the
// first other class of the greatest score, 1, loses it: w0 = (2, 0),
// w1 = (-2, 0). (0, 1) scores 0, 0, 0: class 1 gains 1·x and class 0,
// the first other of the greatest, loses it: w0 = (2, -1), w1 = (-2, 1).
// (1, 1) scores 1, -1, 0: class 2 gains 0.5·x and class 0 loses it:
// w0 = (1.5, -1.5), w2 = (0.5, 0.5). Epoch 2: (1, 0) scores 1.5, -2, 0.5;
// (0, 1) -1.5, 1, 0.5; (1, 1) 0, -1, 1: all right, converged.
func TestClassWeightTrace(t *testing.T) {
	X := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	p := &Perceptron{ClassWeight: map[float64]float64{1: 2, -1: 0.5}}
	if err := p.Fit(X, []float64{1, -1}); err != nil {
		t.Fatal(err)
	}
	w, b := p.Weights()
	st := p.Stats()
	if !slices.Equal(w, []float64{2, -1.5}) || !slices.Equal(b, []float64{0.5}) || !slices.Equal(st.EpochMistakes, []int{2, 1, 1, 0}) || !st.Converged {
		t.Errorf("two classes: w %v, b %v, mistakes %v; want [2 -1.5], [0.5], [2 1 1 0]", w, b, st.EpochMistakes)
	}

	X = mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	p = &Perceptron{NoBias: true, ClassWeight: map[float64]float64{0: 2, 2: 0.5}}
	if err := p.Fit(X, []float64{0, 1, 2}); err != nil {
		t.Fatal(err)
	}
	w, b = p.Weights()
	st = p.Stats()
	// Feature by feature, the classes in order.
	if want := []float64{1.5, -2, 0.5, -1.5, 1, 0.5}; !slices.Equal(w, want) || !slices.Equal(b, []float64{0, 0, 0}) || !slices.Equal(st.EpochMistakes, []int{3, 0}) {
		t.Errorf("three classes: w %v, b %v, mistakes %v; want %v, zeros, [3 0]", w, b, st.EpochMistakes, want)
	}
}

// cwModel is the naive model of the weighted rule: for two classes one
// weight vector and bias, whose sign decides; for more one of each per
// class, of which the greatest score decides, the first of ties.
type cwModel struct {
	w [][]float64
	b []float64
}

func (m cwModel) clone() cwModel {
	c := cwModel{b: slices.Clone(m.b)}
	for _, w := range m.w {
		c.w = append(c.w, slices.Clone(w))
	}
	return c
}

func (m cwModel) scores(x []float64) []float64 {
	s := slices.Clone(m.b)
	for c := range s {
		for j, v := range x {
			s[c] += m.w[c][j] * v
		}
	}
	return s
}

// predict returns the index of the class of x.
func (m cwModel) predict(x []float64) int {
	s := m.scores(x)
	if len(s) == 1 {
		if s[0] >= 0 {
			return 1
		}
		return 0
	}
	best := 0
	for c := range s {
		if s[c] > s[best] {
			best = c
		}
	}
	return best
}

// cost returns the sum over the classes, in order, of the rows of the
// class that m misclassifies, or of their weights rw if rw is not nil,
// times the weight of the class.
func (m cwModel) cost(X [][]float64, cls []int, weight, rw []float64) float64 {
	wrong := make([]float64, len(weight))
	for i, x := range X {
		if m.predict(x) != cls[i] {
			wrong[cls[i]] += rowWeight(rw, i)
		}
	}
	e := 0.0
	for c, n := range wrong {
		e += n * weight[c]
	}
	return e
}

// rowWeight returns the weight of row i: rw[i], or 1 if rw is nil.
func rowWeight(rw []float64, i int) float64 {
	if rw == nil {
		return 1
	}
	return rw[i]
}

// flat returns the weights and biases as Weights lays them out.
func (m cwModel) flat() (w, b []float64) {
	S, d := len(m.b), len(m.w[0])
	w = make([]float64, d*S)
	for c := range S {
		for j := range d {
			w[j*S+c] = m.w[c][j]
		}
	}
	return w, slices.Clone(m.b)
}

type cwVisit struct {
	m       cwModel
	mistake bool
}

// cwNaive is the perceptron's rule with class weights written out from
// its definition, for the classes of the class indices cls, weighted by
// weight, and the rows by rw, or 1 each if rw is nil, with the settings
// of tr (its w0 laid out as Weights): a visit to row i of class c that is
// a mistake moves the model by r = rate·weight[c]·rw[i]; with two
// classes, y being -1 for class 0 and +1 for class 1, a mistake is
// y·score <= 0 and adds r·y·x and r·y; with more, it is a score of c not
// above every other, and c gains r·x and r while the greatest other
// class, the first of ties, loses them. A visit of r = 0 is no mistake.
// It returns the starting model, the model after every visit, and the
// mistakes of each epoch; with stop it stops after an epoch without a
// mistake.
func cwNaive(X [][]float64, cls []int, weight, rw []float64, tr mcTrial, stop bool) (start cwModel, visits []cwVisit, perEpoch []int) {
	rate := cmpOr(tr.rate, 1)
	S, d := scores(make([]float64, len(weight))), len(X[0])
	m := cwModel{b: make([]float64, S)}
	for c := range S {
		m.w = append(m.w, make([]float64, d))
		if tr.w0 != nil {
			for j := range d {
				m.w[c][j] = tr.w0[j*S+c]
			}
		}
	}
	move := func(c int, x []float64, a float64) {
		for j, v := range x {
			m.w[c][j] += a * v
		}
		if tr.bias {
			m.b[c] += a
		}
	}
	start = m.clone()
	rnd := tr.rand()
	order := make([]int, len(X))
	for i := range order {
		order[i] = i
	}
	for range tr.epochs {
		if rnd != nil {
			rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		mistakes := 0
		for _, i := range order {
			x, c := X[i], cls[i]
			r, s := rate*(weight[c]*rowWeight(rw, i)), m.scores(x)
			mistake := false
			if S == 1 {
				y := float64(2*c - 1)
				if mistake = y*s[0] <= 0 && r != 0; mistake {
					move(0, x, r*y)
				}
			} else {
				o := -1
				for k := range S {
					if k != c && (o < 0 || s[k] > s[o]) {
						o = k
					}
				}
				if mistake = s[c] <= s[o] && r != 0; mistake {
					move(c, x, r)
					move(o, x, -r)
				}
			}
			if mistake {
				mistakes++
			}
			visits = append(visits, cwVisit{m.clone(), mistake})
		}
		perEpoch = append(perEpoch, mistakes)
		if stop && mistakes == 0 {
			break
		}
	}
	return start, visits, perEpoch
}

// cwPocket returns the pocket of a naive run: the earliest of the start
// and the weights after each update of the least cost, or with ratchet
// Gallant's pocket, which starts empty, of the cost of every row, and
// takes the weights of a run of right visits longer than the record, if
// they cost less, and the last weights of a run that converged.
func cwPocket(X [][]float64, cls []int, weight, rw []float64, start cwModel, visits []cwVisit, perEpoch []int, ratchet bool) cwModel {
	if !ratchet {
		best, e := start, start.cost(X, cls, weight, rw)
		for _, v := range visits {
			if c := v.m.cost(X, cls, weight, rw); v.mistake && c < e {
				best, e = v.m, c
			}
		}
		return best
	}
	least := 0.0
	for i, c := range cls {
		least += weight[c] * rowWeight(rw, i) // exact: the weights are powers of two
	}
	best, run, record := start, 0, 0
	for _, v := range visits {
		if v.mistake {
			run = 0
			continue
		}
		if run++; run > record {
			if c := v.m.cost(X, cls, weight, rw); c < least {
				best, least, record = v.m, c, run
			}
		}
	}
	if perEpoch[len(perEpoch)-1] == 0 && least > 0 {
		best = visits[len(visits)-1].m
	}
	return best
}

// cwDraw returns random weights of some of the classes, powers of two so
// that every sum of the tests is exact, as ClassWeight and as the weight
// of each class in order.
func cwDraw(rnd *rand.Rand, classes []float64) (map[float64]float64, []float64) {
	cw := map[float64]float64{}
	weight := make([]float64, len(classes))
	for c, v := range classes {
		weight[c] = 1
		if rnd.IntN(4) != 0 {
			weight[c] = []float64{0.25, 0.5, 1, 2, 4}[rnd.IntN(5)]
			cw[v] = weight[c]
		}
	}
	return cw, weight
}

// cwTrial draws settings that keep the sums of the tests exact, for S
// scores on rows of d columns.
func cwTrial(rnd *rand.Rand, d, S int) mcTrial {
	tr := mcTrial{
		epochs: 1 + rnd.IntN(12),
		rate:   []float64{0, 1, 0.5, 2}[rnd.IntN(4)],
		seed:   rnd.Uint64(),
		random: rnd.IntN(2) == 0,
		bias:   rnd.IntN(4) != 0,
	}
	if rnd.IntN(3) == 0 {
		tr.w0 = make([]float64, d*S)
		for j := range tr.w0 {
			tr.w0[j] = float64(rnd.IntN(5) - 2)
		}
	}
	return tr
}

// TestClassWeightMatchesNaive checks every classifier with class weights
// against the naive weighted rule on many random sets of integers, of two
// classes and more, with weights that are powers of two, where every sum
// is exact: Perceptron's weights, biases and mistakes, and its Learn of
// every epoch; Pocket's pocket by both rules, of the least weighted count;
// Averaged's average and Voted's votes; and the scores of a Kernel of the
// linear kernel, bit for bit.
func TestClassWeightMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(331, 332))
	for k := range 300 {
		cwCheck(t, rnd, k, false)
	}
}

// cwCheck draws trial k, a random set of integers and class weights,
// with weights of the rows too if rowWeights is set, and checks every
// classifier on it against the naive weighted rule, as
// TestClassWeightMatchesNaive says.
func cwCheck(t *testing.T, rnd *rand.Rand, k int, rowWeights bool) {
	t.Helper()
	K := 2 + rnd.IntN(4)
	n, d := K+rnd.IntN(30), 1+rnd.IntN(4)
	rows, X, y := classSet(rnd, n, d, K)
	cls, classes := indices(y), classValues[:K]
	cw, weight := cwDraw(rnd, classes)
	var rw []float64
	if rowWeights {
		rw = swDraw(rnd, n)
	}
	tr := cwTrial(rnd, d, scores(classes))
	name := fmt.Sprintf("trial %d (n=%d d=%d K=%d, weights %v, %v)", k, n, d, K, weight, rw)

	start, visits, perEpoch := cwNaive(rows, cls, weight, rw, tr, true)
	last := visits[len(visits)-1].m
	p := &Perceptron{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias, InitWeights: tr.w0, Labels: classes, ClassWeight: cw}
	if err := fitRows(p, X, y, rw); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	w, b := last.flat()
	if pw, pb := p.Weights(); !slices.Equal(pw, w) || !slices.Equal(pb, b) || !slices.Equal(p.Stats().EpochMistakes, perEpoch) {
		t.Fatalf("%s: Perceptron has weights %v, biases %v, mistakes %v; want %v, %v, %v", name, pw, pb, p.Stats().EpochMistakes, w, b, perEpoch)
	}
	if !tr.random {
		// Learn of every epoch's rows in order is the Fit.
		l := &Perceptron{Rate: tr.rate, NoBias: !tr.bias, InitWeights: tr.w0, Labels: classes, ClassWeight: cw}
		for range perEpoch {
			if err := learnRows(l, X, y, rw); err != nil {
				t.Fatalf("%s: Learn: %v", name, err)
			}
		}
		if lw, lb := l.Weights(); !slices.Equal(lw, w) || !slices.Equal(lb, b) {
			t.Fatalf("%s: Learn gives weights %v, biases %v; want %v, %v", name, lw, lb, w, b)
		}
	}

	for _, ratchet := range []bool{false, true} {
		pk := &Pocket{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias, InitWeights: tr.w0, Labels: classes, ClassWeight: cw, Ratchet: ratchet}
		if err := fitRows(pk, X, y, rw); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w, b := cwPocket(rows, cls, weight, rw, start, visits, perEpoch, ratchet).flat()
		if pw, pb := pk.Weights(); !slices.Equal(pw, w) || !slices.Equal(pb, b) {
			t.Fatalf("%s: Pocket (Ratchet %t) has weights %v, biases %v; want %v, %v", name, ratchet, pw, pb, w, b)
		}
	}

	if tr.w0 == nil {
		kn := &Kernel{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias, Labels: classes, ClassWeight: cw, Prediction: PredictLast}
		if err := fitRows(kn, X, y, rw); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, x := range rows {
			if got, want := rowScores(kn, x), last.scores(x); !slices.Equal(got, want) {
				t.Fatalf("%s: Kernel scores %v on row %d, want %v", name, got, i, want)
			}
		}
	}

	// Averaged and Voted run every epoch.
	_, all, _ := cwNaive(rows, cls, weight, rw, tr, false)
	a := &Averaged{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias, InitWeights: tr.w0, Labels: classes, ClassWeight: cw}
	vo := &Voted{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias, InitWeights: tr.w0, Labels: classes, ClassWeight: cw}
	for _, m := range []Classifier{a, vo} {
		if err := fitRows(m, X, y, rw); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	test, _, _ := classSet(rnd, 20, d, K)
	for _, x := range append(rows, test...) {
		sum := make([]float64, len(last.b))
		votes := make([]float64, max(len(last.b), K))
		for _, v := range all {
			s := v.m.scores(x)
			for c := range s {
				sum[c] += s[c]
			}
			if len(s) == 1 {
				votes[0] += sign(s[0])
			} else {
				votes[v.m.predict(x)]++
			}
		}
		got := rowScores(a, x)
		for c := range sum {
			if !near(got[c], sum[c]/float64(len(all)), false) {
				t.Fatalf("%s: Averaged scores %v on %v, want %v / %d", name, got, x, sum, len(all))
			}
		}
		if got := rowScores(vo, x); !slices.Equal(got, votes[:len(got)]) {
			t.Fatalf("%s: Voted votes %v on %v, want %v", name, got, x, votes)
		}
	}
}

// TestClassWeightOneVsRest checks OneVsRest with class weights against
// the naive weighted rule of each class against the rest, scikit-learn's
// weighing: class c by its weight and the rest by 1. With two classes it
// is the Perceptron of the same weights.
func TestClassWeightOneVsRest(t *testing.T) {
	rnd := rand.New(rand.NewPCG(333, 334))
	for k := range 100 {
		K := 3 + rnd.IntN(4)
		n, d := K+rnd.IntN(40), 1+rnd.IntN(5)
		rows, X, y := classSet(rnd, n, d, K)
		cls, classes := indices(y), classValues[:K]
		cw, weight := cwDraw(rnd, classes)
		tr := cwTrial(rnd, d, 1)
		tr.random, tr.w0 = false, nil
		o := &OneVsRest{ClassWeight: cw, New: func() Scorer { return &Perceptron{Epochs: tr.epochs, Rate: tr.rate, NoBias: !tr.bias} }}
		if err := o.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		for c, m := range o.Models() {
			against := make([]int, n)
			for i := range against {
				if cls[i] == c {
					against[i] = 1
				}
			}
			_, visits, _ := cwNaive(rows, against, []float64{1, weight[c]}, nil, tr, true)
			w, b := visits[len(visits)-1].m.flat()
			if pw, pb := m.(*Perceptron).Weights(); !slices.Equal(pw, w) || !slices.Equal(pb, b) {
				t.Fatalf("trial %d: the classifier of class %d has %v %v, want %v %v", k, c, pw, pb, w, b)
			}
			if m.(*Perceptron).ClassWeight != nil {
				t.Fatalf("trial %d: OneVsRest set the ClassWeight of its classifier %d", k, c)
			}
		}
	}

	_, X, y := classSet(rnd, 40, 3, 2)
	cw := map[float64]float64{classValues[0]: 4, classValues[1]: 0.5}
	o, p := &OneVsRest{ClassWeight: cw}, &Perceptron{ClassWeight: cw}
	if err := o.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	ow, ob := o.Models()[0].(*Perceptron).Weights()
	if pw, pb := p.Weights(); !slices.Equal(ow, pw) || !slices.Equal(ob, pb) {
		t.Errorf("OneVsRest of two classes has %v %v, its Perceptron %v %v", ow, ob, pw, pb)
	}
}

// TestClassWeightOnes checks that weights of 1, given or by an empty map,
// train every classifier as no weights do, bit for bit, on data whose
// sums round.
func TestClassWeightOnes(t *testing.T) {
	X, y := synth.Data(150, 4)
	y3 := slices.Clone(y)
	for i := range y3 {
		y3[i] += float64(i % 3)
	}
	for _, y := range [][]float64{y, y3} {
		classes := slices.Compact(slices.Sorted(slices.Values(y)))
		ones := map[float64]float64{}
		for _, c := range classes {
			ones[c] = 1
		}
		for _, cw := range []map[float64]float64{ones, {}} {
			for _, newM := range cwMakers() {
				plain, weighted := newM(nil), newM(cw)
				if err := plain.Fit(X, y); err != nil {
					t.Fatal(err)
				}
				if err := weighted.Fit(X, y); err != nil {
					t.Fatal(err)
				}
				if a, b := plain.ScoreRows(nil, X), weighted.ScoreRows(nil, X); !sameBits(a, b) {
					t.Errorf("%T of %d classes, ClassWeight %v: scores differ from those without weights", plain, len(classes), cw)
				}
			}
		}
	}
}

// cwMakers returns a maker of each classifier, with weights, from a
// Rand of a fixed seed.
func cwMakers() []func(map[float64]float64) Scorer {
	r := func() *rand.Rand { return rand.New(rand.NewPCG(5, 6)) }
	return []func(map[float64]float64) Scorer{
		func(w map[float64]float64) Scorer { return &Perceptron{Epochs: 8, Rand: r(), ClassWeight: w} },
		func(w map[float64]float64) Scorer { return &Pocket{Epochs: 8, Rand: r(), ClassWeight: w} },
		func(w map[float64]float64) Scorer {
			return &Pocket{Epochs: 8, Rand: r(), ClassWeight: w, Ratchet: true}
		},
		func(w map[float64]float64) Scorer { return &Averaged{Epochs: 8, Rand: r(), ClassWeight: w} },
		func(w map[float64]float64) Scorer { return &Voted{Epochs: 8, Rand: r(), ClassWeight: w} },
		func(w map[float64]float64) Scorer {
			return &Kernel{Func: RBF{}, Epochs: 8, Rand: r(), ClassWeight: w, Prediction: PredictAveraged}
		},
		func(w map[float64]float64) Scorer { return &OneVsRest{ClassWeight: w} },
	}
}

func TestBalanced(t *testing.T) {
	for _, c := range []struct {
		y    []float64
		want map[float64]float64
	}{
		{[]float64{1, 1, 1, 2}, map[float64]float64{1: 4.0 / 6, 2: 2}},
		{[]float64{-1, 1, 1, -1}, map[float64]float64{-1: 1, 1: 1}},
		{[]float64{3, 0, 3, 7, 3, 3}, map[float64]float64{0: 2, 3: 0.5, 7: 2}},
		{[]float64{5}, map[float64]float64{5: 1}},
		{nil, nil},
	} {
		if got := Balanced(c.y); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Balanced(%v) = %v, want %v", c.y, got, c.want)
		}
	}
	// Many classes, past those that distinct sorts as it goes: the
	// weight of each, computed as scikit-learn does, makes every class
	// weigh n/K in all, up to rounding.
	rnd := rand.New(rand.NewPCG(335, 336))
	for _, K := range []int{2, 3, 40, 300} {
		y := make([]float64, 5000)
		count := map[float64]int{}
		for i := range y {
			y[i] = float64(rnd.IntN(K)*rnd.IntN(2)) - 0.5
			count[y[i]]++
		}
		w := Balanced(y)
		if len(w) != len(count) {
			t.Fatalf("K=%d: %d weights for %d classes", K, len(w), len(count))
		}
		for v, n := range count {
			if want := float64(len(y)) / (float64(len(count)) * float64(n)); w[v] != want {
				t.Errorf("K=%d: the weight of %v is %v, want %v", K, v, w[v], want)
			}
			if total := w[v] * float64(n); math.Abs(total-float64(len(y))/float64(len(count))) > 1e-9 {
				t.Errorf("K=%d: class %v weighs %v in all, want %v", K, v, total, float64(len(y))/float64(len(count)))
			}
		}
	}
	mustPanic(t, "Balanced of NaN", "perceptron: Balanced: y[1] is NaN", func() { Balanced([]float64{1, math.NaN()}) })
}

// TestClassWeightErrors checks that Fit, Learn, FitShards and OneVsRest
// refuse weights that are not finite and > 0, and weights of values that
// are not classes, leaving the classifier as it was.
func TestClassWeightErrors(t *testing.T) {
	X, y := synth.Data(20, 3)
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		cw     map[float64]float64
		labels []float64
		want   string
		kind   error
	}{
		{map[float64]float64{1: nan}, nil, "perceptron: ClassWeight[1] is NaN, want a finite weight > 0", ErrNonFinite},
		{map[float64]float64{-1: inf}, nil, "perceptron: ClassWeight[-1] is +Inf, want a finite weight > 0", ErrNonFinite},
		{map[float64]float64{1: 0}, nil, "perceptron: ClassWeight[1] is 0, want a finite weight > 0", nil},
		{map[float64]float64{1: -2, -1: -1}, nil, "perceptron: ClassWeight[-1] is -1, want a finite weight > 0", nil},
		{map[float64]float64{1: 2, 0: 1}, nil, "perceptron: ClassWeight weighs 0, which is not one of the classes [-1 1]", nil},
		{map[float64]float64{nan: 1}, nil, "perceptron: ClassWeight weighs NaN, which is not one of the classes [-1 1]", nil},
		{map[float64]float64{3: 1}, []float64{-1, 1, 2}, "perceptron: ClassWeight weighs 3, which is not one of the classes [-1 1 2]", nil},
	}
	for _, c := range cases {
		for _, newM := range cwMakers() {
			m := newM(c.cw)
			reflect.ValueOf(m).Elem().FieldByName("Labels").Set(reflect.ValueOf(c.labels))
			err := m.Fit(X, y)
			if err == nil || err.Error() != c.want || c.kind != nil && !errors.Is(err, c.kind) {
				t.Errorf("%T with ClassWeight %v: Fit returned %v, want %q", m, c.cw, err, c.want)
			}
			if m.Classes() != nil {
				t.Errorf("%T: a failed Fit fitted", m)
			}
			if l, ok := m.(onlineLearner); ok {
				// Learn needs the classes of a model not fitted.
				if c.labels == nil {
					reflect.ValueOf(m).Elem().FieldByName("Labels").Set(reflect.ValueOf(binaryLabels))
				}
				if err := l.Learn(X, y); err == nil || err.Error() != c.want || m.Classes() != nil {
					t.Errorf("%T with ClassWeight %v: Learn returned %v, want %q", m, c.cw, err, c.want)
				}
			}
		}
		p := &Perceptron{ClassWeight: c.cw, Labels: c.labels}
		if err := FitShards(p, []mat.Matrix{X, X}, [][]float64{y, y}, false); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("FitShards with ClassWeight %v returned %v, want %q", c.cw, err, c.want)
		}
	}
	// A weight for a class that the fitted model has from Labels, though
	// y lacks it, is the weight of that class.
	p := &Perceptron{Labels: []float64{-1, 1, 2}, ClassWeight: map[float64]float64{2: 3}}
	if err := p.Fit(X, y); err != nil {
		t.Errorf("a weight of a class of Labels: %v", err)
	}

	o := &OneVsRest{New: func() Scorer { return &Averaged{ClassWeight: map[float64]float64{1: 2}} }}
	want := "perceptron: OneVsRest.New returned a *perceptron.Averaged with a ClassWeight: set OneVsRest's ClassWeight"
	if err := o.Fit(X, y); err == nil || err.Error() != want {
		t.Errorf("OneVsRest of classifiers with ClassWeight: %v, want %q", err, want)
	}
	// A fitted model whose ClassWeight was changed to weigh what is not
	// one of its classes does not save.
	p = &Perceptron{}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	p.ClassWeight = map[float64]float64{7: 1}
	if _, err := json.Marshal(p); err == nil || !strings.Contains(err.Error(), "perceptron: MarshalJSON: ClassWeight weighs 7, which is not one of the classes [-1 1]") {
		t.Errorf("MarshalJSON of a weight of no class: %v", err)
	}
}

// TestClassWeightFitShards checks that FitShards of one shard weighs as
// Fit does: its rounds are Fit's epochs.
func TestClassWeightFitShards(t *testing.T) {
	rnd := rand.New(rand.NewPCG(337, 338))
	_, X, y := classSet(rnd, 60, 3, 4)
	cw := map[float64]float64{classValues[0]: 0.25, classValues[2]: 4}
	fit, mixed := &Perceptron{Epochs: 9, ClassWeight: cw}, &Perceptron{Epochs: 9, ClassWeight: cw}
	if err := fit.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if err := FitShards(mixed, []mat.Matrix{X}, [][]float64{y}, false); err != nil {
		t.Fatal(err)
	}
	fw, fb := fit.Weights()
	if mw, mb := mixed.Weights(); !sameBits(fw, mw) || !sameBits(fb, mb) {
		t.Errorf("FitShards of one shard has weights %v %v, Fit %v %v", mw, mb, fw, fb)
	}
}

// TestClassWeightJSON saves and loads every kind of classifier with class
// weights, and checks that a file saved before them loads with none.
func TestClassWeightJSON(t *testing.T) {
	for k, kind := range jtKinds() {
		weighted := jtKind{kind.name, kind.learn, func(rnd *rand.Rand, trial, d int, classes []float64) Scorer {
			m := kind.make(rnd, trial, d, classes)
			cw := map[float64]float64{}
			for _, c := range classes {
				// At least one weight: no weights load as a nil map.
				if c == classes[0] || rnd.IntN(3) != 0 {
					cw[c] = 0.25 + 4*rnd.Float64()
				}
			}
			reflect.ValueOf(m).Elem().FieldByName("ClassWeight").Set(reflect.ValueOf(cw))
			return m
		}}
		t.Run(kind.name, func(t *testing.T) {
			// Every rule, dense and sparse, and every stage.
			for _, trial := range []int{0, 4, 8, 10, 14, 15} {
				rnd := rand.New(rand.NewPCG(uint64(trial), 1000+uint64(k)))
				jtRoundTripTrial(t, rnd, weighted, trial)
			}
		})
	}
	var p Perceptron
	if err := json.Unmarshal([]byte(jtPerceptron), &p); err != nil || p.ClassWeight != nil {
		t.Errorf("a file without class weights loads with ClassWeight %v (%v)", p.ClassWeight, err)
	}
}

// cwSaved returns the saved form of a fitted m, which must have class
// weights, as a string.
func cwSaved(t *testing.T, m Scorer) string {
	t.Helper()
	X, y := twoPoints()
	if err := m.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"classWeight":[{"class":-1,"weight":0.5},{"class":1,"weight":2}]`) {
		t.Fatalf("saved without its weights in order: %s", b)
	}
	return string(b)
}

// TestClassWeightUnmarshalJSONErrors checks that loading refuses the
// class weights that Fit would refuse, and any out of order or repeated.
func TestClassWeightUnmarshalJSONErrors(t *testing.T) {
	cw := map[float64]float64{1: 2, -1: 0.5}
	for _, m := range []Scorer{&Perceptron{ClassWeight: cw}, &Pocket{ClassWeight: cw}, &Averaged{ClassWeight: cw}, &Voted{ClassWeight: cw}, &Kernel{ClassWeight: cw}, &OneVsRest{ClassWeight: cw}} {
		typ := reflect.TypeOf(m).Elem().Name()
		g := cwSaved(t, m)
		r := jtEdits(t, g)
		settings := "perceptron: saved " + typ + "'s settings: "
		const good = `[{"class":-1,"weight":0.5},{"class":1,"weight":2}]`
		testUnmarshalJSONErrors(t, jtFresh(m), g, []jtCase{
			{r(good, `[{"class":-1,"weight":0.5},{"class":2,"weight":2}]`), settings + "ClassWeight weighs 2, which is not one of the classes [-1 1]"},
			{r(good, `[{"class":-1,"weight":0},{"class":1,"weight":2}]`), settings + "ClassWeight[-1] is 0, want a finite weight > 0"},
			{r(good, `[{"class":-1,"weight":-0.5},{"class":1,"weight":2}]`), settings + "ClassWeight[-1] is -0.5, want a finite weight > 0"},
			{r(good, `[{"class":-1,"weight":1e999},{"class":1,"weight":2}]`), "cannot unmarshal number 1e999"},
			{r(good, `[{"class":1,"weight":2},{"class":-1,"weight":0.5}]`), settings + "ClassWeight weighs -1 after 1, want the classes ascending, each once"},
			{r(good, `[{"class":1,"weight":2},{"class":1,"weight":2}]`), settings + "ClassWeight weighs 1 after 1, want the classes ascending, each once"},
			{r(good, `[{"class":-1,"weight":1},{"class":0,"weight":1},{"class":1,"weight":1}]`), settings + "ClassWeight has 3 weights for 2 classes, want at most one a class"},
			{r(good, `[{"class":-1,"weight":0.5,"w":1},{"class":1,"weight":2}]`), `unknown field "w"`},
			{r(good, `[null,{"class":1,"weight":2}]`), "null, want an object"},
			{r(good, `{"-1":0.5}`), "cannot unmarshal object"},
		})
	}
	// A OneVsRest's classifier has no weights of its own.
	o := &OneVsRest{}
	g := cwSaved(t, &OneVsRest{ClassWeight: cw})
	inner := strings.Replace(g, `"labels":null,"classWeight":[{"class":-1,"weight":0.5},{"class":1,"weight":2}]`, `"labels":null`, 1)
	inner = strings.Replace(inner, `"initWeights":null,"labels":null,`, `"initWeights":null,"labels":null,"classWeight":[{"class":1,"weight":3}],`, 1)
	if err := json.Unmarshal([]byte(inner), o); err == nil || !strings.Contains(err.Error(), "its classifier 0 has a ClassWeight of its own") {
		t.Errorf("a OneVsRest whose classifier has weights: %v\n%s", err, inner)
	}
}

// TestClassWeightAllocs checks that with class weights Fit allocates no
// more on many rows than on few.
func TestClassWeightAllocs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	cw := map[float64]float64{-1: 3, 1: 0.5}
	kinds := append([]struct {
		name string
		make func(p Perceptron) variant
	}{{"Perceptron", func(p Perceptron) variant { return &p }}}, variantKinds...)
	for _, kind := range kinds {
		fitAllocs := func(n int) (allocs float64, mistakes int) {
			X, y := synth.Data(n, 10)
			allocs = testing.AllocsPerRun(5, func() {
				c := kind.make(Perceptron{Epochs: 5, Rand: rand.New(rand.NewPCG(1, 1)), ClassWeight: cw})
				if err := c.Fit(X, y); err != nil {
					t.Fatal(err)
				}
				mistakes = c.Stats().Mistakes
			})
			return allocs, mistakes
		}
		small, ms := fitAllocs(50)
		large, ml := fitAllocs(2000)
		limit := small
		if kind.name == "Voted" {
			// Voted appends each mistake to a list, which append grows by
			// a factor of at least 1.25 at each allocation.
			limit += 1 + math.Log(float64(ml)/float64(ms))/math.Log(1.25)
		}
		if large > limit {
			t.Errorf("%s: Fit with ClassWeight allocates %v times on 50 rows and %v on 2000, want at most %.1f", kind.name, small, large, limit)
		}
	}
}

// TestPocketCountWeighted checks the pocket's weighted count of random
// candidates, with weights of the classes, and of the rows too, whose
// sums round, against its definition: the sum over the classes, in order,
// of the rows misclassified, or of their weights summed in the order of
// the rows, times the weight of the class. The count is exactly that sum
// under a limit above it, and the limit at or under it, however the sum
// of the weights as the count reads the rows rounds.
func TestPocketCountWeighted(t *testing.T) {
	rnd := rand.New(rand.NewPCG(339, 340))
	for k := range 80 {
		K := 2 + rnd.IntN(4)
		_, X, y := classSet(rnd, 200+rnd.IntN(300), 1+rnd.IntN(5), K)
		n, _ := X.Dims()
		var rw []float64
		if k%2 == 1 {
			rw = make([]float64, n)
			for i := range rw {
				if rnd.IntN(5) != 0 {
					rw[i] = 3 * rnd.Float64()
				}
			}
		}
		cw := map[float64]float64{}
		for _, c := range classValues[:K] {
			cw[c] = 0.1 + rnd.Float64()
		}
		ds, err := trainSet(X, y, rw, nil, cw)
		if err != nil {
			t.Fatal(err)
		}
		S := scores(ds.classes)
		c := newCounter(ds, S)
		cand := newTable(ds.d, S, nil, false)
		c.first(&cand, ds.n)
		for range 10 {
			for j := range cand.w {
				cand.w[j] = rnd.NormFloat64()
			}
			for j := range cand.b {
				cand.b[j] = rnd.NormFloat64()
			}
			wrong, s := make([]float64, K), make([]float64, S)
			for i := range ds.n {
				x := ds.row(i)
				cand.scores(s, &x, i)
				if class(s) != ds.class(i) {
					wrong[ds.class(i)] += rowWeight(rw, i)
				}
			}
			want := 0.0
			for g, v := range wrong {
				want += v * ds.weight[g]
			}
			for _, limit := range []float64{math.Inf(1), math.Nextafter(want, math.Inf(1)), want, math.Nextafter(want, 0), want / 2} {
				c.count([]table{cand}, limit)
				if got := c.e[0]; got != min(want, limit) {
					t.Fatalf("trial %d: the count under limit %v is %v, want %v", k, limit, got, min(want, limit))
				}
			}
		}
		c.pool.close()
	}
}
