// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/synth"
)

// fitRows fits m on X and y, with the weights of the rows rw through
// FitContext, or with Fit if rw is nil.
func fitRows(m Classifier, X mat.Matrix, y, rw []float64) error {
	if rw == nil {
		return m.Fit(X, y)
	}
	return FitContext(context.Background(), m, X, y, rw...)
}

// learnRows is fitRows for Learn and LearnContext.
func learnRows(m online, X mat.Matrix, y, rw []float64) error {
	if rw == nil {
		return m.Learn(X, y)
	}
	return LearnContext(context.Background(), m, X, y, rw...)
}

// swDraw returns random weights of n rows, powers of two so that every
// sum of the tests is exact, and zeros.
func swDraw(rnd *rand.Rand, n int) []float64 {
	rw := make([]float64, n)
	for i := range rw {
		rw[i] = []float64{0, 0.25, 0.5, 1, 1, 2, 4}[rnd.IntN(7)]
	}
	return rw
}

// TestSampleWeightTrace checks weighted runs traced by hand, which
// scikit-learn 1.2.1's Perceptron(shuffle=False, tol=None, max_iter=2)
// .fit(X, y, sample_weight=w) ends with too, and whose average losses
// its verbose output gives.
//
// The rows (1, 2), (2, -1), (-1, -1), (-2, 1) and (0.5, 0.5), of labels
// +1, +1, -1, -1, -1 and weights 3, 0, 2, 0.5, 1, at rate 1. Epoch 1:
// (1, 2) scores 0, a mistake of loss 0, which adds 3·(x, 1): w = (3, 6),
// b = 3; (2, -1) scores 3 and (-1, -1) -6, right; (-2, 1) scores 3, a
// mistake of loss 3, which adds -0.5·(x, 1): w = (4, 5.5), b = 2.5;
// (0.5, 0.5) scores 7.25, a mistake of loss 7.25: w = (3.5, 5), b = 1.5.
// Epoch 2: 15, 3.5 and -7 are right, (-2, 1) scores -0.5, right, and
// (0.5, 0.5) 5.75, a mistake: w = (3, 4.5), b = 0.5. The losses are
// 10.25 and 5.75, not weighed, as scikit-learn's are not.
//
// With the second label -1 and the weights 1, 0, 1, 1, 1: (1, 2) is a
// mistake: w = (1, 2), b = 1; (2, -1) scores 1 for -1, wrong, of loss 1,
// but of weight 0: no update, and no mistake; (-1, -1) scores -2, right;
// (-2, 1) scores 1, a mistake of loss 1: w = (3, 1), b = 0; (0.5, 0.5)
// scores 2, a mistake of loss 2: w = (2.5, 0.5), b = -1. Three mistakes,
// and a loss of 4, which counts the row of weight 0.
func TestSampleWeightTrace(t *testing.T) {
	X := mat.NewDense(5, 2, []float64{1, 2, 2, -1, -1, -1, -2, 1, 0.5, 0.5})
	for _, c := range []struct {
		y, rw, w, b     []float64
		mistakes        []int
		loss            []float64
		epochs, updates int
	}{
		{[]float64{1, 1, -1, -1, -1}, []float64{3, 0, 2, 0.5, 1}, []float64{3, 4.5}, []float64{0.5}, []int{3, 1}, []float64{10.25, 5.75}, 2, 4},
		{[]float64{1, -1, -1, -1, -1}, []float64{1, 0, 1, 1, 1}, []float64{2.5, 0.5}, []float64{-1}, []int{3}, []float64{4}, 1, 3},
	} {
		updates := 0
		p := &Perceptron{Epochs: c.epochs, OnUpdate: func(u Update) {
			updates++
			if u.Row == 1 {
				t.Errorf("an update on row 1, of weight 0")
			}
		}}
		if err := FitContext(context.Background(), p, X, c.y, c.rw...); err != nil {
			t.Fatal(err)
		}
		w, b := p.Weights()
		st := p.Stats()
		if !slices.Equal(w, c.w) || !slices.Equal(b, c.b) || !slices.Equal(st.EpochMistakes, c.mistakes) || !slices.Equal(st.EpochLoss, c.loss) || updates != c.updates {
			t.Errorf("weights %v: w %v, b %v, mistakes %v, losses %v, %d updates; want %v, %v, %v, %v, %d", c.rw, w, b, st.EpochMistakes, st.EpochLoss, updates, c.w, c.b, c.mistakes, c.loss, c.updates)
		}
	}
}

// TestSampleWeightMatchesNaive checks every classifier with weights of
// the rows, and of the classes, against the naive weighted rule, as
// TestClassWeightMatchesNaive does: each a power of two or 0, so that
// every sum is exact. A mistake moves the model by rate × class weight ×
// row weight; a row of weight 0 makes no update and is no mistake; the
// pocket counts a row as its weight times its class's; the averages and
// the votes count every visit once.
func TestSampleWeightMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(431, 432))
	for k := range 300 {
		cwCheck(t, rnd, k, true)
	}
}

// TestSampleWeightOneVsRest checks OneVsRest with weights of the rows and
// of the classes against the naive weighted rule of each class against
// the rest, and that its Learn of every epoch's rows is its Fit.
func TestSampleWeightOneVsRest(t *testing.T) {
	rnd := rand.New(rand.NewPCG(433, 434))
	ctx := context.Background()
	for k := range 100 {
		K := 2 + rnd.IntN(5)
		n, d := K+rnd.IntN(40), 1+rnd.IntN(5)
		rows, X, y := classSet(rnd, n, d, K)
		cls, classes := indices(y), classValues[:K]
		cw, weight := cwDraw(rnd, classes)
		rw := swDraw(rnd, n)
		tr := cwTrial(rnd, d, 1)
		tr.random, tr.w0 = false, nil
		newP := func() Scorer { return &Perceptron{Epochs: tr.epochs, Rate: tr.rate, NoBias: !tr.bias} }
		o := &OneVsRest{ClassWeight: cw, New: newP}
		if err := FitContext(ctx, o, X, y, rw...); err != nil {
			t.Fatal(err)
		}
		l := &OneVsRest{ClassWeight: cw, New: newP, Labels: classes}
		for range tr.epochs {
			if err := LearnContext(ctx, l, X, y, rw...); err != nil {
				t.Fatal(err)
			}
		}
		for c, m := range o.Models() {
			against, cweight := make([]int, n), weight
			if K > 2 {
				for i := range against {
					if cls[i] == c {
						against[i] = 1
					}
				}
				cweight = []float64{1, weight[c]}
			} else {
				against = cls
			}
			_, visits, _ := cwNaive(rows, against, cweight, rw, tr, true)
			w, b := visits[len(visits)-1].m.flat()
			if pw, pb := m.(*Perceptron).Weights(); !slices.Equal(pw, w) || !slices.Equal(pb, b) {
				t.Fatalf("trial %d: the classifier of class %d has %v %v, want %v %v", k, c, pw, pb, w, b)
			}
			// An epoch without a mistake changes nothing: Learn of every
			// epoch is Fit, though a class's Fit stops sooner.
			if lw, lb := l.Models()[c].(*Perceptron).Weights(); !slices.Equal(lw, w) || !slices.Equal(lb, b) {
				t.Fatalf("trial %d: Learn gives the classifier of class %d %v %v, want %v %v", k, c, lw, lb, w, b)
			}
		}
	}
}

// swMakers returns a maker of each classifier, with the settings of
// cwMakers but no class weights.
func swMakers() []func() Scorer {
	var makers []func() Scorer
	for _, m := range cwMakers() {
		makers = append(makers, func() Scorer { return m(nil) })
	}
	return makers
}

// TestSampleWeightOnes checks that weights of 1 train every classifier as
// no weights do, bit for bit, on data whose sums round, in Fit and Learn.
func TestSampleWeightOnes(t *testing.T) {
	X, y := synth.Data(150, 4)
	y3 := slices.Clone(y)
	for i := range y3 {
		y3[i] += float64(i % 3)
	}
	ones := make([]float64, len(y))
	for i := range ones {
		ones[i] = 1
	}
	for _, y := range [][]float64{y, y3} {
		for _, newM := range swMakers() {
			plain, weighted := newM(), newM()
			if err := plain.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			if err := fitRows(weighted, X, y, ones); err != nil {
				t.Fatal(err)
			}
			if l, ok := plain.(online); ok {
				if err := l.Learn(X, y); err != nil {
					t.Fatal(err)
				}
				if err := learnRows(weighted.(online), X, y, ones); err != nil {
					t.Fatal(err)
				}
			}
			if a, b := plain.ScoreRows(nil, X), weighted.ScoreRows(nil, X); !sameBits(a, b) {
				t.Errorf("%T of %d classes: weights of 1 give other scores than none", plain, len(slices.Compact(slices.Sorted(slices.Values(y)))))
			}
		}
	}
}

// TestSampleWeightZero checks that a row of weight 0 is as if it were
// not there, bit for bit, on data whose sums round, for the classifiers
// for which it is: Perceptron, the exact Pocket, Kernel predicting with
// its last hypothesis and OneVsRest of them. The averages and the votes
// of Averaged, Voted and Kernel count its visits, and the ratchet's runs;
// the loss that a Stop measures counts it too.
func TestSampleWeightZero(t *testing.T) {
	rnd := rand.New(rand.NewPCG(435, 436))
	X, y := synth.Data(200, 4)
	y3 := slices.Clone(y)
	for i := range y3 {
		y3[i] += float64(i % 3)
	}
	makers := []func() Scorer{
		func() Scorer { return &Perceptron{Epochs: 8} },
		func() Scorer { return &Pocket{Epochs: 8} },
		func() Scorer { return &Kernel{Func: RBF{}, Epochs: 8} },
		func() Scorer { return &OneVsRest{New: func() Scorer { return &Perceptron{Epochs: 8} }} },
	}
	for _, y := range [][]float64{y, y3} {
		rw := make([]float64, len(y))
		var kept []int
		for i := range rw {
			if rnd.IntN(4) != 0 {
				rw[i] = 1
				kept = append(kept, i)
			}
		}
		sub := mat.NewDense(len(kept), 4, nil)
		suby := make([]float64, len(kept))
		for k, i := range kept {
			sub.SetRow(k, X.RawRowView(i))
			suby[k] = y[i]
		}
		for _, newM := range makers {
			weighted, without := newM(), newM()
			if err := fitRows(weighted, X, y, rw); err != nil {
				t.Fatal(err)
			}
			if err := without.Fit(sub, suby); err != nil {
				t.Fatal(err)
			}
			if a, b := weighted.ScoreRows(nil, X), without.ScoreRows(nil, X); !sameBits(a, b) {
				t.Errorf("%T: rows of weight 0 change the model", weighted)
			}
		}
		// All of weight 0: nothing to learn, from the start.
		p := &Perceptron{}
		if err := fitRows(p, X, y, make([]float64, len(y))); err != nil {
			t.Fatal(err)
		}
		if w, b := p.Weights(); slices.ContainsFunc(w, func(v float64) bool { return v != 0 }) || slices.ContainsFunc(b, func(v float64) bool { return v != 0 }) || !p.Stats().Converged || p.Stats().Epochs != 1 {
			t.Errorf("rows all of weight 0 give %v %v, %+v", w, b, p.Stats())
		}
	}
}

// TestSampleWeightRepeats checks the one sense in which a row of whole
// weight k is the row repeated k times in a row: a row's weight scales
// its step, so that its one update is that of k copies of it in a row
// only while every copy is a mistake; then the Perceptron of the weights
// and that of the copies end with the same weights, on integers where
// every sum is exact. Starting weights far from the rows' make it so in
// many trials, and the test counts those. A copy that is no longer a
// mistake makes no update; and whatever the updates, Averaged and Voted
// count a weighted row's visit once and its copies' k times.
//
// The pocket's count of a row of weight k is k rows, for any weights:
// its count of candidates on a set of weights is its count on the set of
// the copies, to the bit.
func TestSampleWeightRepeats(t *testing.T) {
	rnd := rand.New(rand.NewPCG(437, 438))
	held := 0
	for k := range 300 {
		n, d := 2+rnd.IntN(20), 1+rnd.IntN(4)
		rows, X, y := classSet(rnd, n, d, 2)
		rw := make([]float64, n)
		var copies [][]float64
		var cy []float64
		var origin []int
		for i := range rw {
			rw[i] = float64(1 + rnd.IntN(3))
			for range int(rw[i]) {
				copies, cy, origin = append(copies, rows[i]), append(cy, y[i]), append(origin, i)
			}
		}
		w0 := make([]float64, d)
		for j := range w0 {
			w0[j] = float64(rnd.IntN(61) - 30)
		}
		updates := make([]int, n)
		rep := &Perceptron{Epochs: 1, InitWeights: w0, OnUpdate: func(u Update) { updates[origin[u.Row]]++ }}
		if err := rep.Fit(mat.NewDense(len(copies), d, slices.Concat(copies...)), cy); err != nil {
			t.Fatal(err)
		}
		p := &Perceptron{Epochs: 1, InitWeights: w0}
		if err := fitRows(p, X, y, rw); err != nil {
			t.Fatal(err)
		}
		mistakes := 0
		all := true
		for i, u := range updates {
			all = all && (u == 0 || u == int(rw[i]))
			if u > 0 {
				mistakes++
			}
		}
		if !all {
			continue
		}
		held++
		pw, pb := p.Weights()
		rw2, rb := rep.Weights()
		if !slices.Equal(pw, rw2) || !slices.Equal(pb, rb) || p.Stats().Mistakes != mistakes {
			t.Fatalf("trial %d: weights %v give %v %v, %d mistakes; the copies %v %v, on %d rows", k, rw, pw, pb, p.Stats().Mistakes, rw2, rb, mistakes)
		}
	}
	t.Logf("every copy was a mistake in %d trials of 300", held)
	if held < 100 {
		t.Errorf("every copy was a mistake in %d trials of 300, want more to test", held)
	}

	for k := range 40 {
		K := 2 + rnd.IntN(4)
		_, X, y := classSet(rnd, 50+rnd.IntN(200), 1+rnd.IntN(5), K)
		n, d := X.Dims()
		rw := make([]float64, n)
		var copies []float64
		var cy []float64
		for i := range rw {
			rw[i] = float64(rnd.IntN(4))
			for range int(rw[i]) {
				copies, cy = append(copies, X.RawRowView(i)...), append(cy, y[i])
			}
		}
		if len(cy) == 0 {
			continue
		}
		cw := map[float64]float64{classValues[0]: 0.5, classValues[1]: 3}
		ds, err := trainSet(X, y, rw, classValues[:K], cw)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := trainSet(mat.NewDense(len(cy), d, copies), cy, nil, classValues[:K], cw)
		if err != nil {
			t.Fatal(err)
		}
		S := scores(ds.classes)
		c, cr := newCounter(ds, S), newCounter(rs, S)
		cand := newTable(d, S, nil, false)
		c.first(&cand, n)
		cr.first(&cand, len(cy))
		for range 10 {
			for j := range cand.w {
				cand.w[j] = float64(rnd.IntN(7) - 3)
			}
			for j := range cand.b {
				cand.b[j] = float64(rnd.IntN(7) - 3)
			}
			c.count([]table{cand}, math.Inf(1))
			cr.count([]table{cand}, math.Inf(1))
			if c.e[0] != cr.e[0] {
				t.Fatalf("trial %d: a candidate counts %v on weighted rows and %v on their copies", k, c.e[0], cr.e[0])
			}
		}
		c.pool.close()
		cr.pool.close()
	}
}

// TestSampleWeightStop checks that the accuracy that a Stop's Validation
// measures weighs the rows held out, as scikit-learn's does, and that a
// validation of rows all of weight 0 is an error.
func TestSampleWeightStop(t *testing.T) {
	X := mat.NewDense(4, 1, []float64{1, 2, -1, -2})
	ds, err := trainSet(X, []float64{1, -1, -1, 1}, []float64{1, 3, 0.5, 0.25}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The score x: rows 0 and 2 right, of weight 1.5 of 4.75.
	score := func(dst []float64, x vec) { dst[0] = x.val[0] }
	if got, want := accuracy(ds, score), 1.5/4.75; got != want {
		t.Errorf("weighted accuracy %v, want %v", got, want)
	}
	ds.rowWeight = nil
	if got := accuracy(ds, score); got != 0.5 {
		t.Errorf("accuracy %v, want 0.5", got)
	}

	Xs, ys := synth.Data(40, 3)
	rw := make([]float64, 40)
	for i := range rw {
		if i%4 == 0 {
			rw[i] = 1
		}
	}
	err = fitRows(&Perceptron{Stop: &Stop{Validation: 0.1}, Rand: rand.New(rand.NewPCG(1, 1))}, Xs, ys, make([]float64, 40))
	if err == nil || !strings.HasSuffix(err.Error(), "all of weight 0: none to validate on") {
		t.Errorf("a validation of rows of weight 0: %v", err)
	}
	if err := fitRows(&Perceptron{Stop: &Stop{Validation: 0.5}, Rand: rand.New(rand.NewPCG(1, 1))}, Xs, ys, rw); err != nil {
		t.Errorf("a validation of some rows of weight 0: %v", err)
	}
}

// TestSampleWeightErrors checks that FitContext and LearnContext refuse
// weights of the wrong length and weights that are not finite or < 0,
// naming the first, with the kinds ErrShape and ErrNonFinite, and leave
// the classifier as it was.
func TestSampleWeightErrors(t *testing.T) {
	X, y := synth.Data(20, 3)
	ctx := context.Background()
	// Weights of 1 but v at i, and NaN at 19 after it.
	bad := func(i int, v float64) []float64 {
		rw := make([]float64, 20)
		for k := range rw {
			rw[k] = 1
		}
		rw[19], rw[i] = math.NaN(), v
		return rw
	}
	for _, c := range []struct {
		rw   []float64
		want string
		kind error
	}{
		{[]float64{1, 2, 3}, "perceptron: w has length 3, want 20 (the number of rows of X)", ErrShape},
		{bad(5, math.NaN()), "perceptron: w[5] is NaN, want a finite weight >= 0", ErrNonFinite},
		{bad(19, math.Inf(1)), "perceptron: w[19] is +Inf, want a finite weight >= 0", ErrNonFinite},
		{bad(0, -0.5), "perceptron: w[0] is -0.5, want a finite weight >= 0", nil},
	} {
		for _, newM := range swMakers() {
			m := newM()
			err := FitContext(ctx, m, X, y, c.rw...)
			if err == nil || err.Error() != c.want || c.kind != nil && !errors.Is(err, c.kind) || c.kind == nil && errors.Is(err, ErrNonFinite) {
				t.Errorf("FitContext of a %T with weights %v: %v, want %q", m, c.rw, err, c.want)
			}
			if m.Classes() != nil {
				t.Errorf("%T: a failed FitContext fitted", m)
			}
			if _, ok := m.(online); !ok {
				continue
			}
			if err := m.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			before := mustJSON(t, m)
			if err := LearnContext(ctx, m, X, y, c.rw...); err == nil || err.Error() != c.want {
				t.Errorf("LearnContext of a %T with weights %v: %v, want %q", m, c.rw, err, c.want)
			}
			if after := mustJSON(t, m); string(after) != string(before) {
				t.Errorf("%T: a failed LearnContext changed the model", m)
			}
		}
	}
	// -0 is a weight of 0.
	negZero := bad(19, math.Copysign(0, -1))
	if err := FitContext(ctx, &Perceptron{}, X, y, negZero...); err != nil {
		t.Errorf("a weight of -0: %v", err)
	}
	// No weights, or none given, are no weights.
	for _, rw := range [][]float64{nil, {}} {
		p, q := &Perceptron{}, &Perceptron{}
		if err := FitContext(ctx, p, X, y, rw...); err != nil {
			t.Fatal(err)
		}
		if err := q.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if !sameBits(p.ScoreRows(nil, X), q.ScoreRows(nil, X)) {
			t.Errorf("weights %#v: another model than Fit's", rw)
		}
	}
}

// TestOneVsRestLearn checks OneVsRest's Learn: from its Labels, after a
// Fit, of two classes, and its errors, after which nothing has changed.
func TestOneVsRestLearn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(441, 442))
	for _, K := range []int{2, 4} {
		_, X, y := classSet(rnd, 60, 3, K)
		classes := classValues[:K]
		newA := func() Scorer { return &Averaged{Epochs: 5} }
		// Learn after Fit is each class's Learn after its Fit.
		o := &OneVsRest{New: newA}
		if err := o.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		want := o.Models()
		if err := o.Learn(X, y); err != nil {
			t.Fatal(err)
		}
		for c, m := range want {
			set := y
			if K > 2 {
				set = make([]float64, len(y))
				for i, v := range y {
					set[i] = -1
					if v == classes[c] {
						set[i] = 1
					}
				}
			}
			// The classifiers of the Fit, learned again by hand.
			wm := &Averaged{Epochs: 5}
			if err := wm.Fit(X, set); err != nil {
				t.Fatal(err)
			}
			if err := wm.Learn(X, set); err != nil {
				t.Fatal(err)
			}
			if got := o.Models()[c]; !sameBits(got.ScoreRows(nil, X), wm.ScoreRows(nil, X)) || got != m {
				t.Errorf("%d classes: the classifier of class %d has not learned as its own Learn", K, c)
			}
		}
		if got := o.Classes(); !slices.Equal(got, classes) {
			t.Errorf("%d classes: Learn leaves the classes %v, want %v", K, got, classes)
		}

		// The errors, which change nothing.
		before := mustJSON(t, o)
		for _, c := range []struct {
			X    mat.Matrix
			y    []float64
			want string
		}{
			{mat.NewDense(2, 2, []float64{1, 2, 3, 4}), y[:2], "perceptron: X has 2 columns, want 3, the columns of the model"},
			{X, append([]float64{99}, y[1:]...), fmt.Sprintf("perceptron: y[0] is 99, not one of the classes %v", classes)},
			{mat.NewDense(1, 3, []float64{1, math.NaN(), 3}), y[:1], "perceptron: X[0, 1] is NaN"},
		} {
			if err := o.Learn(c.X, c.y); err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%d classes: Learn returned %v, want %q", K, err, c.want)
			}
		}
		if !slices.Equal(mustJSON(t, o), before) {
			t.Errorf("%d classes: a failed Learn changed the model", K)
		}
	}

	_, X, y := classSet(rnd, 40, 2, 3)
	for _, c := range []struct {
		o    *OneVsRest
		want string
		kind error
	}{
		{&OneVsRest{}, "perceptron: Learn on a model that was neither fitted nor given its classes: set Labels", ErrNotFitted},
		{&OneVsRest{Labels: classValues[:3], New: func() Scorer { return &Pocket{} }}, "perceptron: OneVsRest.Learn of a *perceptron.Pocket, which has no Learn: want a Perceptron, an Averaged, a Voted or a Kernel", nil},
		{&OneVsRest{Labels: classValues[:3], New: func() Scorer { return &Perceptron{Rate: -1} }}, "perceptron: Rate is -1, want a finite value >= 0 (class -7 against the rest)", nil},
	} {
		err := c.o.Learn(X, y)
		if err == nil || err.Error() != c.want || c.kind != nil && !errors.Is(err, c.kind) {
			t.Errorf("Learn: %v, want %q", err, c.want)
		}
		if c.o.Models() != nil {
			t.Errorf("a failed Learn of a new OneVsRest made its classifiers")
		}
	}
	// From Labels, as a new classifier of each class learns.
	o := &OneVsRest{Labels: classValues[:3], New: func() Scorer { return &Voted{} }}
	if err := o.Learn(X, y); err != nil {
		t.Fatal(err)
	}
	v := &Voted{Labels: []float64{-1, 1}}
	set := make([]float64, len(y))
	for i, c := range y {
		set[i] = -1
		if c == classValues[1] {
			set[i] = 1
		}
	}
	if err := v.Learn(X, set); err != nil {
		t.Fatal(err)
	}
	if !sameBits(o.Models()[1].ScoreRows(nil, X), v.ScoreRows(nil, X)) {
		t.Errorf("the classifier of class 1 of a new OneVsRest has not learned as a new Voted")
	}
}

// fuzzWeights returns the weights that the bytes ws stand for, or nil if
// there are none: a byte of 0 to 250 weighs b/8, and the rest -1, NaN,
// +Inf, -0 and 1e300.
func fuzzWeights(ws []byte) []float64 {
	if len(ws) == 0 {
		return nil
	}
	w := make([]float64, len(ws))
	for i, b := range ws {
		w[i] = float64(b) / 8
		if b > 250 {
			w[i] = []float64{-1, math.NaN(), math.Inf(1), math.Copysign(0, -1), 1e300}[b-251]
		}
	}
	return w
}

// FuzzSampleWeights checks that every classifier takes the weights of
// the rows that Perceptron takes, and refuses the others with its error,
// never panicking; and that the exact pocket's weights count no more
// than the perceptron's last weights or zero weights, counting a
// misclassified row as its weight.
func FuzzSampleWeights(f *testing.F) {
	f.Add(uint8(2), []byte{0, 0, 0, 1, 1, 0, 1, 1}, []byte{0, 0, 0, 1}, []byte{8, 0, 16, 3}, uint8(3))
	f.Add(uint8(1), []byte{130, 127, 129, 126, 131}, []byte{1, 1, 0, 0, 0}, []byte{0, 0, 254, 0, 9}, uint8(9))
	f.Add(uint8(1), []byte{130, 127, 129}, []byte{1, 2, 0}, []byte{8, 251, 8}, uint8(0))
	f.Add(uint8(3), []byte{254, 1, 2, 253, 4, 5}, []byte{1, 0}, []byte{255, 252}, uint8(2))
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, d uint8, xs, ys, ws []byte, seed uint8) {
		data, y, _, ok := fuzzSet(d, xs, ys)
		if !ok || d > 8 {
			return
		}
		X := mat.NewDense(len(data)/int(d), int(d), data)
		w := fuzzWeights(ws)
		p := &Perceptron{Epochs: 1 + int(seed%5)}
		perr := FitContext(ctx, p, X, y, w...)
		for _, c := range []Classifier{
			&Pocket{Epochs: p.Epochs},
			&Pocket{Epochs: p.Epochs, Ratchet: true},
			&Averaged{Epochs: p.Epochs},
			&Voted{Epochs: p.Epochs},
			&Kernel{Epochs: p.Epochs},
			&OneVsRest{New: func() Scorer { return &Perceptron{Epochs: p.Epochs} }},
		} {
			err := FitContext(ctx, c, X, y, w...)
			_, ovr := c.(*OneVsRest)
			if (err == nil) != (perr == nil) || err != nil && !ovr && err.Error() != perr.Error() {
				t.Fatalf("%T: error %v, Perceptron's %v", c, err, perr)
			}
			pk, ok := c.(*Pocket)
			if err != nil || !ok || pk.Ratchet {
				continue
			}
			// The count as the pocket counts: the weights of the rows of
			// each class in order, then the classes in order.
			classes := pk.Classes()
			count := func(pred func(i int) float64) float64 {
				sums := make([]float64, len(classes))
				for i, v := range y {
					if pred(i) != v {
						sums[slices.Index(classes, v)] += rowWeight(w, i)
					}
				}
				e := 0.0
				for _, v := range sums {
					e += v
				}
				return e
			}
			// Zero weights score 0 for every class: the second of two
			// classes, the first of more.
			zero := classes[0]
			if len(classes) == 2 {
				zero = classes[1]
			}
			pred, last := pk.PredictRows(nil, X), p.PredictRows(nil, X)
			e := count(func(i int) float64 { return pred[i] })
			if l, z := count(func(i int) float64 { return last[i] }), count(func(int) float64 { return zero }); e > l || e > z {
				t.Fatalf("the pocket misclassifies rows of weight %v, the last weights %v, zero weights %v", e, l, z)
			}
		}
	})
}
