// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// classValues are the class values of the multiclass tests: neither
// contiguous nor whole, so that a test sees whether a classifier returns
// the classes themselves and not their indices.
var classValues = []float64{-7, -2.5, 0, 1, 4, 9.5}

// classSet returns n rows of d small integers in [-3, 3], as rows and as
// a matrix, with labels of k of classValues: from a random integer
// teacher, one in five replaced at random, so that the data are nearly
// but rarely quite separable and every sum is exact in float64. Every
// class occurs if n >= k.
func classSet(rnd *rand.Rand, n, d, k int) ([][]float64, *mat.Dense, []float64) {
	rows, X, y := intSet(rnd, n, d)
	teacher := make([]float64, k*(d+1))
	for i := range teacher {
		teacher[i] = float64(rnd.IntN(7) - 3)
	}
	for i, x := range rows {
		c := 0
		switch {
		case i < k:
			c = i
		case rnd.IntN(5) == 0:
			c = rnd.IntN(k)
		default:
			best := math.Inf(-1)
			for cc := range k {
				s := teacher[cc*(d+1)+d]
				for j, v := range x {
					s += teacher[cc*(d+1)+j] * v
				}
				if s > best {
					best, c = s, cc
				}
			}
		}
		y[i] = classValues[c]
	}
	return rows, X, y
}

// classIndex returns the index of class v in classValues.
func classIndex(v float64) int {
	return slices.Index(classValues, v)
}

// naiveClassModel is the model of the naive multiclass perceptron: a
// weight vector w[c] and a bias b[c] per class.
type naiveClassModel struct {
	w [][]float64
	b []float64
}

func (m naiveClassModel) clone() naiveClassModel {
	c := naiveClassModel{b: slices.Clone(m.b)}
	for _, w := range m.w {
		c.w = append(c.w, slices.Clone(w))
	}
	return c
}

// scores returns w[c]·x+b[c] for every class c.
func (m naiveClassModel) scores(x []float64) []float64 {
	s := make([]float64, len(m.b))
	for c := range s {
		s[c] = m.b[c]
		for j, v := range x {
			s[c] += m.w[c][j] * v
		}
	}
	return s
}

// predict returns the index of the greatest score, the lowest of ties.
func (m naiveClassModel) predict(x []float64) int {
	s := m.scores(x)
	best := 0
	for c := range s {
		if s[c] > s[best] {
			best = c
		}
	}
	return best
}

// errors returns the number of rows whose class predict gets wrong.
func (m naiveClassModel) errors(X [][]float64, cls []int) int {
	e := 0
	for i, x := range X {
		if m.predict(x) != cls[i] {
			e++
		}
	}
	return e
}

// flat returns the weights and biases as Weights and Biases lay them out.
func (m naiveClassModel) flat() (w, b []float64) {
	K, d := len(m.b), len(m.w[0])
	w = make([]float64, d*K)
	for c := range K {
		for j := range d {
			w[j*K+c] = m.w[c][j]
		}
	}
	return w, slices.Clone(m.b)
}

// naiveClassVisit is the state of a naive multiclass run after one visit.
type naiveClassVisit struct {
	m       naiveClassModel
	mistake bool
}

// naiveClassVisits is the multiclass perceptron of Collins (2002) and
// Crammer and Singer (2003) written out from its definition: for K
// classes of class indices cls, with rate, starting from w0 (laid out as
// Weights, or nil for zero) and zero biases, in the trial's order. A
// visit is a mistake unless the true class scores strictly above every
// other; the true class then gains rate·x and rate, and the greatest
// other class, the lowest of ties, loses them. It returns the starting
// model, the state after every visit and the mistakes of each epoch; if
// stop is set it stops after the first epoch with no mistake.
func naiveClassVisits(X [][]float64, cls []int, K int, tr trial, stop bool) (start naiveClassModel, visits []naiveClassVisit, perEpoch []int) {
	rate := cmpOr(tr.rate, 1)
	epochs := tr.epochs
	if epochs == 0 {
		epochs = DefaultEpochs
	}
	d := len(X[0])
	m := naiveClassModel{b: make([]float64, K)}
	for c := range K {
		m.w = append(m.w, make([]float64, d))
		if tr.w0 != nil {
			for j := range d {
				m.w[c][j] = tr.w0[j*K+c]
			}
		}
	}
	start = m.clone()
	rnd := tr.rand()
	order := make([]int, len(X))
	for i := range order {
		order[i] = i
	}
	for range epochs {
		if rnd != nil {
			rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		mistakes := 0
		for _, i := range order {
			s, c := m.scores(X[i]), cls[i]
			other := -1
			for o := range K {
				if o != c && (other < 0 || s[o] > s[other]) {
					other = o
				}
			}
			mistake := s[c] <= s[other]
			if mistake {
				mistakes++
				for j, v := range X[i] {
					m.w[c][j] += rate * v
					m.w[other][j] -= rate * v
				}
				if tr.bias {
					m.b[c] += rate
					m.b[other] -= rate
				}
			}
			visits = append(visits, naiveClassVisit{m.clone(), mistake})
		}
		perEpoch = append(perEpoch, mistakes)
		if stop && mistakes == 0 {
			break
		}
	}
	return start, visits, perEpoch
}

func cmpOr(v, zero float64) float64 {
	if v == 0 {
		return zero
	}
	return v
}

// classTrial draws settings as randomTrial does, with starting weights
// for K classes and no starting bias, which more than two classes do not
// take.
func classTrial(rnd *rand.Rand, d, K int) trial {
	tr := randomTrial(rnd, d)
	tr.b0 = 0
	if tr.w0 != nil {
		tr.w0 = make([]float64, d*K)
		for j := range tr.w0 {
			tr.w0[j] = float64(rnd.IntN(5) - 2)
		}
	}
	return tr
}

// indices returns the class index in classValues of every label.
func indices(y []float64) []int {
	cls := make([]int, len(y))
	for i, v := range y {
		cls[i] = classIndex(v)
	}
	return cls
}

// TestMulticlassMatchesNaive checks every linear classifier with more
// than two classes against the naive multiclass perceptron on many random
// sets of integers, where every sum is exact: Perceptron's weights and
// statistics, Pocket's pocket by both rules, Averaged's sums and Voted's
// votes, bit for bit, and the predictions of all of them.
func TestMulticlassMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(181, 182))
	for k := range 300 {
		K := 3 + rnd.IntN(4)
		n, d := K+rnd.IntN(30), 1+rnd.IntN(4)
		rows, X, y := classSet(rnd, n, d, K)
		cls := indices(y)
		tr := classTrial(rnd, d, K)
		classes := classValues[:K]
		name := fmt.Sprintf("trial %d (n=%d d=%d K=%d)", k, n, d, K)

		start, visits, perEpoch := naiveClassVisits(rows, cls, K, tr, true)
		last := visits[len(visits)-1].m
		s := tr.settings()
		s.Labels = classes
		p := s
		if err := p.Fit(X, y); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w, b := last.flat()
		if !slices.Equal(p.Classes(), classes) || !slices.Equal(p.Weights(), w) || !slices.Equal(p.Biases(), b) {
			t.Fatalf("%s: Perceptron has classes %v, weights %v, biases %v, want %v, %v, %v", name, p.Classes(), p.Weights(), p.Biases(), classes, w, b)
		}
		st := p.Stats()
		if !slices.Equal(st.EpochMistakes, perEpoch) || st.Epochs != len(perEpoch) || st.Converged != (perEpoch[len(perEpoch)-1] == 0) {
			t.Fatalf("%s: Perceptron stats %+v, want mistakes %v", name, st, perEpoch)
		}
		for i, x := range rows {
			if got, want := p.Predict(x), classValues[last.predict(x)]; got != want {
				t.Fatalf("%s: Perceptron predicts %v for row %d, want %v", name, got, i, want)
			}
		}

		// Pocket: the candidates are the start and the weights after each
		// update.
		for _, ratchet := range []bool{false, true} {
			pk := &Pocket{Epochs: s.Epochs, Rate: s.Rate, Rand: tr.rand(), NoBias: s.NoBias, InitWeights: s.InitWeights, Labels: classes, Ratchet: ratchet}
			if err := pk.Fit(X, y); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, errors := naiveClassPocket(rows, cls, start, visits, perEpoch, ratchet)
			w, b := want.flat()
			if !slices.Equal(pk.Weights(), w) || !slices.Equal(pk.Biases(), b) || pk.Misclassified() != errors {
				t.Fatalf("%s: Pocket (Ratchet %t) has weights %v, biases %v, %d misclassified; want %v, %v, %d",
					name, ratchet, pk.Weights(), pk.Biases(), pk.Misclassified(), w, b, errors)
			}
		}

		// Averaged and Voted run every epoch.
		_, all, _ := naiveClassVisits(rows, cls, K, tr, false)
		sum := naiveClassModel{b: make([]float64, K)}
		for range K {
			sum.w = append(sum.w, make([]float64, d))
		}
		for _, v := range all {
			for c := range K {
				sum.b[c] += v.m.b[c]
				for j := range d {
					sum.w[c][j] += v.m.w[c][j]
				}
			}
		}
		a := &Averaged{Epochs: s.Epochs, Rate: s.Rate, Rand: tr.rand(), NoBias: s.NoBias, InitWeights: s.InitWeights, Labels: classes}
		if err := a.Fit(X, y); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		vo := &Voted{Epochs: s.Epochs, Rate: s.Rate, Rand: tr.rand(), NoBias: s.NoBias, InitWeights: s.InitWeights, Labels: classes}
		if err := vo.Fit(X, y); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		visitsN := float64(len(all))
		test, _, _ := classSet(rnd, 40, d, K)
		for i, x := range append(rows, test...) {
			want := sum.scores(x)
			got := a.Scores(nil, x)
			for c := range want {
				if !near(got[c], want[c]/visitsN, false) {
					t.Fatalf("%s: Averaged scores %v on %v, want %v / %v", name, got, x, want, visitsN)
				}
			}
			if got, want := a.Predict(x), classValues[sum.predict(x)]; got != want {
				t.Fatalf("%s: Averaged predicts %v for row %d, want %v", name, got, i, want)
			}
			votes := make([]float64, K)
			for _, v := range all {
				votes[v.m.predict(x)]++
			}
			if got := vo.Scores(nil, x); !slices.Equal(got, votes) {
				t.Fatalf("%s: Voted votes %v on %v, want %v", name, got, x, votes)
			}
			if got, want := vo.Predict(x), classValues[slices.Index(votes, slices.Max(votes))]; got != want {
				t.Fatalf("%s: Voted predicts %v on %v, want %v", name, got, x, want)
			}
		}
	}
}

// naiveClassPocket returns the pocket of a naive multiclass run and the
// number of training rows it misclassifies: by default the earliest of
// the start and the weights after each update with the fewest, and with
// ratchet by Gallant's rule, written out as naivePocket writes it.
func naiveClassPocket(X [][]float64, cls []int, start naiveClassModel, visits []naiveClassVisit, perEpoch []int, ratchet bool) (naiveClassModel, int) {
	best, errors := start, start.errors(X, cls)
	if !ratchet {
		for _, v := range visits {
			if v.mistake {
				if e := v.m.errors(X, cls); e < errors {
					best, errors = v.m, e
				}
			}
		}
		return best, errors
	}
	least, run, record := len(X), 0, 0
	for _, v := range visits {
		if v.mistake {
			run = 0
			continue
		}
		run++
		if run > record {
			if e := v.m.errors(X, cls); e < least {
				best, least, record = v.m, e, run
			}
		}
	}
	if least < len(X) {
		errors = least
	}
	if perEpoch[len(perEpoch)-1] == 0 && errors > 0 {
		best, errors = visits[len(visits)-1].m, 0
	}
	return best, errors
}

// TestMulticlassKernelMatchesLinear checks that a Kernel with the linear
// kernel predicts, with each of its rules, as the linear classifiers of
// the same run do, on integer data where both are exact.
func TestMulticlassKernelMatchesLinear(t *testing.T) {
	rnd := rand.New(rand.NewPCG(183, 184))
	for k := range 60 {
		K := 3 + rnd.IntN(4)
		n, d := K+rnd.IntN(40), 1+rnd.IntN(4)
		_, X, y := classSet(rnd, n, d, K)
		tr := classTrial(rnd, d, K)
		tr.w0 = nil
		classes := classValues[:K]
		p := &Perceptron{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias}
		a := &Averaged{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias}
		v := &Voted{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias}
		kr := &Kernel{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias}
		for _, c := range []Classifier{p, a, v, kr} {
			if err := c.Fit(X, y); err != nil {
				t.Fatal(err)
			}
		}
		if kr.Stats().Mistakes != p.Stats().Mistakes && p.Stats().Converged {
			t.Fatalf("trial %d: Kernel made %d mistakes, Perceptron %d", k, kr.Stats().Mistakes, p.Stats().Mistakes)
		}
		if !slices.Equal(kr.Classes(), classes) {
			t.Fatalf("trial %d: Kernel classes %v, want %v", k, kr.Classes(), classes)
		}
		test, T, _ := classSet(rnd, 30, d, K)
		for rule, want := range map[Prediction]Scorer{PredictLast: p, PredictAveraged: a, PredictVoted: v} {
			kr.Prediction = rule
			got := kr.PredictRows(nil, T)
			for i, x := range test {
				if w := want.Predict(x); got[i] != w || kr.Predict(x) != w {
					t.Fatalf("trial %d, rule %v: Kernel predicts %v (%v by row) on %v, want %v", k, rule, kr.Predict(x), got[i], x, w)
				}
			}
			if rule != PredictAveraged {
				continue
			}
			for _, x := range test {
				ks, as := kr.Scores(nil, x), a.Scores(nil, x)
				for c := range ks {
					if !near(ks[c], as[c], false) {
						t.Fatalf("trial %d: Kernel averaged scores %v, Averaged %v", k, ks, as)
					}
				}
			}
		}
	}
}

// TestMulticlassKernelPoly checks the multiclass Kernel with a polynomial
// kernel against the naive multiclass perceptron in the kernel's feature
// space: the degree 2 features of the rows, on which the linear
// perceptron makes the same run.
func TestMulticlassKernelPoly(t *testing.T) {
	rnd := rand.New(rand.NewPCG(185, 186))
	// (x·z+1)² = φ(x)·φ(z) for φ(x) = (x_j x_k ·√(2 or 1), √2 x_j, 1)
	// has irrational features; use (x·z)² with φ(x)_(j,k) = x_j x_k,
	// which keeps every sum exact.
	phi := func(x []float64) []float64 {
		var f []float64
		for _, a := range x {
			for _, b := range x {
				f = append(f, a*b)
			}
		}
		return f
	}
	for k := range 40 {
		K := 3 + rnd.IntN(3)
		n, d := K+rnd.IntN(30), 1+rnd.IntN(3)
		rows, X, y := classSet(rnd, n, d, K)
		mapped := make([][]float64, n)
		for i, x := range rows {
			mapped[i] = phi(x)
		}
		tr := trial{epochs: 1 + rnd.IntN(8), bias: rnd.IntN(2) == 0}
		_, visits, perEpoch := naiveClassVisits(mapped, indices(y), K, tr, true)
		kr := &Kernel{Func: Poly{Degree: 2, Gamma: 1}, Epochs: tr.epochs, NoBias: !tr.bias}
		if err := kr.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if got := kr.Stats().EpochMistakes; !slices.Equal(got, perEpoch) {
			t.Fatalf("trial %d: Kernel mistakes %v, want %v", k, got, perEpoch)
		}
		last := visits[len(visits)-1].m
		test, _, _ := classSet(rnd, 20, d, K)
		for _, x := range test {
			want := last.scores(phi(x))
			if got := kr.Scores(nil, x); !slices.Equal(got, want) {
				t.Fatalf("trial %d: Kernel scores %v on %v, want %v", k, got, x, want)
			}
		}
	}
}

// multiclassBoundSet returns n rows of d features in [-1, 1) labelled by
// the greatest of K scores w_c·x+b_c, for random w and b scaled so that
// the joint vector (w, b) has norm 1, keeping only rows whose true class
// scores at least gap above every other: so the data are separable with
// margin at least gap in Kesler's construction. The labels are class
// indices; not every class need occur. It also returns R, the
// greatest norm of a row extended by 1 (or not, through the origin).
func multiclassBoundSet(rnd *rand.Rand, n, d, K int, gap float64, bias bool) (X *mat.Dense, y []float64, R float64) {
	w := make([]float64, K*(d+1))
	norm := 0.0
	for i := range w {
		if i%(d+1) == d && !bias {
			continue
		}
		w[i] = rnd.NormFloat64()
		if i%(d+1) == d {
			w[i] *= 0.3
		}
		norm += w[i] * w[i]
	}
	for i := range w {
		w[i] /= math.Sqrt(norm)
	}
	X = mat.NewDense(n, d, nil)
	y = make([]float64, n)
	for i := range n {
		x := X.RawRowView(i)
		for draw := 0; ; draw++ {
			if draw == 1000 {
				return nil, nil, 0
			}
			s := make([]float64, K)
			for j := range x {
				x[j] = 2*rnd.Float64() - 1
			}
			for c := range K {
				s[c] = w[c*(d+1)+d]
				for j, v := range x {
					s[c] += w[c*(d+1)+j] * v
				}
			}
			c := slices.Index(s, slices.Max(s))
			second := math.Inf(-1)
			for o, v := range s {
				if o != c {
					second = math.Max(second, v)
				}
			}
			if s[c]-second >= gap {
				y[i] = float64(c)
				break
			}
		}
		r2 := 0.0
		if bias {
			r2 = 1
		}
		for _, v := range x {
			r2 += v * v
		}
		R = math.Max(R, math.Sqrt(r2))
	}
	return X, y, R
}

// TestMulticlassMistakeBound checks the multiclass mistake bound on many
// random separable sets: on data whose classes a unit joint weight vector
// separates with margin γ, the multiclass perceptron makes at most
// 2R²/γ² mistakes in all, whatever the order of the rows (Crammer and
// Singer 2003, from Novikoff's bound through Kesler's construction, in
// which a row of norm R becomes a vector of norm √2·R), and converges.
func TestMulticlassMistakeBound(t *testing.T) {
	rnd := rand.New(rand.NewPCG(187, 188))
	skipped := 0
	defer func() {
		if skipped > 20 {
			t.Errorf("%d of 200 sets skipped", skipped)
		}
	}()
	for k := range 200 {
		K, d := 3+rnd.IntN(5), 1+rnd.IntN(6)
		gap := []float64{0.02, 0.05, 0.1, 0.2}[rnd.IntN(4)]
		bias := rnd.IntN(3) != 0
		n := K + rnd.IntN(200)
		X, y, R := multiclassBoundSet(rnd, n, d, K, gap, bias)
		if X == nil || slices.Min(y) == slices.Max(y) {
			skipped++
			continue
		}
		var shuffle *rand.Rand
		if rnd.IntN(2) == 0 {
			shuffle = rand.New(rand.NewPCG(rnd.Uint64(), 1))
		}
		p := &Perceptron{NoBias: !bias, Rand: shuffle, Rate: []float64{0, 0.5, 3}[rnd.IntN(3)]}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		bound := 2 * R * R / (gap * gap)
		st := p.Stats()
		if !st.Converged || float64(st.Mistakes) > bound {
			t.Fatalf("trial %d (n=%d d=%d K=%d γ=%v bias %t): %d mistakes, converged %t, bound 2R²/γ² = %.1f",
				k, n, d, K, gap, bias, st.Mistakes, st.Converged, bound)
		}
	}
}

// TestMulticlassSparseMatchesDense checks that every classifier learns
// the same model from CSR rows as from dense ones with more than two
// classes, bit for bit on integer data.
func TestMulticlassSparseMatchesDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(189, 190))
	for k := range 40 {
		K := 3 + rnd.IntN(4)
		n, d := K+rnd.IntN(40), 1+rnd.IntN(8)
		_, X, y := classSet(rnd, n, d, K)
		// Zero half the values so that the rows are sparse.
		for i := range n {
			for j := range d {
				if rnd.IntN(2) == 0 {
					X.Set(i, j, 0)
				}
			}
		}
		S := csrOf(X)
		_, T, _ := classSet(rnd, 20, d, K)
		TS := csrOf(T)
		tr := classTrial(rnd, d, K)
		tr.w0 = nil
		make := func() []Scorer {
			return []Scorer{
				&Perceptron{Epochs: tr.epochs, Rand: tr.rand(), NoBias: !tr.bias},
				&Pocket{Epochs: tr.epochs, Rand: tr.rand(), NoBias: !tr.bias},
				&Averaged{Epochs: tr.epochs, Rand: tr.rand(), NoBias: !tr.bias},
				&Voted{Epochs: tr.epochs, Rand: tr.rand(), NoBias: !tr.bias},
				&Kernel{Epochs: tr.epochs, Rand: tr.rand(), NoBias: !tr.bias},
			}
		}
		dense, sparse := make(), make()
		for m := range dense {
			if err := dense[m].Fit(X, y); err != nil {
				t.Fatal(err)
			}
			if err := sparse[m].Fit(S, y); err != nil {
				t.Fatal(err)
			}
			a, b := dense[m].ScoreRows(nil, T), sparse[m].ScoreRows(nil, TS)
			if !sameBits(a, b) {
				t.Fatalf("trial %d, %T: scores from sparse training %v, from dense %v", k, dense[m], b, a)
			}
			if !slices.Equal(dense[m].PredictRows(nil, TS), dense[m].PredictRows(nil, T)) {
				t.Fatalf("trial %d, %T: PredictRows differs on sparse and dense rows", k, dense[m])
			}
		}
	}
}

// csrOf returns the non-zeros of X as a CSR matrix.
func csrOf(X *mat.Dense) *CSR {
	r, c := X.Dims()
	indptr := []int{0}
	var ind []int
	var val []float64
	for i := range r {
		for j := range c {
			if v := X.At(i, j); v != 0 {
				ind, val = append(ind, j), append(val, v)
			}
		}
		indptr = append(indptr, len(ind))
	}
	m, err := NewCSR(r, c, indptr, ind, val)
	if err != nil {
		panic(err)
	}
	return m
}

// TestMulticlassJSON checks that every classifier with more than two
// classes marshals and unmarshals to a model that scores every row as
// the original does, bit for bit.
func TestMulticlassJSON(t *testing.T) {
	rnd := rand.New(rand.NewPCG(191, 192))
	_, X, y := classSet(rnd, 60, 4, 5)
	_, T, _ := classSet(rnd, 30, 4, 5)
	models := []Scorer{
		&Perceptron{Epochs: 5},
		&Pocket{Epochs: 5},
		&Averaged{Epochs: 5},
		&Voted{Epochs: 5},
		&Kernel{Epochs: 5, Func: RBF{Gamma: 0.3}},
		&Kernel{Epochs: 5, Prediction: PredictVoted},
		&Kernel{Epochs: 5, Prediction: PredictAveraged, Budget: 7},
	}
	for _, m := range models {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		back := fresh(m)
		if err := json.Unmarshal(b, back); err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		if !slices.Equal(back.Classes(), classValues[:5]) || !sameBits(back.ScoreRows(nil, T), m.ScoreRows(nil, T)) {
			t.Fatalf("%T: the unmarshalled model has classes %v and scores differently", m, back.Classes())
		}
		if b2, _ := json.Marshal(back); string(b2) != string(b) {
			t.Fatalf("%T: marshals as\n%s\nafter a round trip, want\n%s", m, b2, b)
		}
	}
}

// fresh returns a new zero classifier of the type of m.
func fresh(m Scorer) Scorer {
	switch m.(type) {
	case *Perceptron:
		return &Perceptron{}
	case *Pocket:
		return &Pocket{}
	case *Averaged:
		return &Averaged{}
	case *Voted:
		return &Voted{}
	case *Kernel:
		return &Kernel{}
	}
	panic(fmt.Sprintf("fresh: %T", m))
}

// TestMulticlassLearn checks Learn with a known class set: from nothing,
// one visit at a time, it makes the run of one epoch of Fit; a class the
// model does not know is an error naming the label and changes nothing.
func TestMulticlassLearn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(193, 194))
	for k := range 50 {
		K := 3 + rnd.IntN(4)
		n, d := K+rnd.IntN(30), 1+rnd.IntN(4)
		rows, X, y := classSet(rnd, n, d, K)
		classes := classValues[:K]
		fit := &Perceptron{Epochs: 1, Labels: classes}
		if err := fit.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		learn := &Perceptron{Labels: classes}
		kernel := &Kernel{Labels: classes}
		mistakes := 0
		for i, x := range rows {
			m, err := learn.Learn(x, y[i])
			if err != nil {
				t.Fatal(err)
			}
			if km, err := kernel.Learn(x, y[i]); err != nil || km != m {
				t.Fatalf("trial %d row %d: Kernel.Learn says %t, %v; Perceptron %t", k, i, km, err, m)
			}
			if m {
				mistakes++
			}
		}
		if !slices.Equal(learn.Weights(), fit.Weights()) || !slices.Equal(learn.Biases(), fit.Biases()) || mistakes != fit.Stats().Mistakes {
			t.Fatalf("trial %d: Learn makes %v %v with %d mistakes, Fit %v %v with %d", k, learn.Weights(), learn.Biases(), mistakes, fit.Weights(), fit.Biases(), fit.Stats().Mistakes)
		}
		rows2 := &Perceptron{Labels: classes}
		if got, err := rows2.LearnRows(X, y); err != nil || got != mistakes || !slices.Equal(rows2.Weights(), fit.Weights()) {
			t.Fatalf("trial %d: LearnRows makes %d mistakes (%v), want %d", k, got, err, mistakes)
		}
		before := learn.Weights()
		if _, err := learn.Learn(rows[0], 3.25); err == nil || !strings.Contains(err.Error(), "3.25") {
			t.Fatalf("trial %d: Learn of an unknown class returns %v, want an error naming 3.25", k, err)
		}
		if _, err := kernel.Learn(rows[0], 3.25); err == nil || !strings.Contains(err.Error(), "3.25") {
			t.Fatalf("trial %d: Kernel.Learn of an unknown class returns %v, want an error naming 3.25", k, err)
		}
		if !slices.Equal(learn.Weights(), before) {
			t.Fatalf("trial %d: a failed Learn changed the weights", k)
		}
	}
}

// TestMulticlassBadInput checks the errors of bad labels with more than
// two classes, and that a failed Fit leaves the model of the last good
// one.
func TestMulticlassBadInput(t *testing.T) {
	rnd := rand.New(rand.NewPCG(195, 196))
	_, X, y := classSet(rnd, 30, 3, 4)
	_, T, _ := classSet(rnd, 10, 3, 4)
	nan := math.NaN()
	cases := []struct {
		y    func() []float64
		want string
	}{
		{func() []float64 { z := slices.Clone(y); z[7] = nan; return z }, "perceptron: y[7] is NaN, want a finite class value"},
		{func() []float64 { z := slices.Clone(y); z[8] = math.Inf(-1); return z }, "perceptron: y[8] is -Inf, want a finite class value"},
		{func() []float64 { z := slices.Clone(y); return z[:29] }, "perceptron: len(y) is 29, want 30 (the number of rows of X)"},
		{func() []float64 { return slices.Repeat([]float64{4}, 30) }, "perceptron: y has the single class 4: want at least two classes"},
	}
	for _, m := range []Scorer{&Perceptron{}, &Pocket{}, &Averaged{}, &Voted{}, &Kernel{}, &OneVsRest{}} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		want := m.ScoreRows(nil, T)
		for _, c := range cases {
			err := m.Fit(X, c.y())
			if err == nil || err.Error() != c.want {
				t.Errorf("%T: Fit returns %v, want %q", m, err, c.want)
			}
			if !sameBits(m.ScoreRows(nil, T), want) || !slices.Equal(m.Classes(), classValues[:4]) {
				t.Errorf("%T: a failed Fit (%s) changed the model", m, c.want)
			}
		}
	}
}

// TestMulticlassScoresPanic checks the programmer errors of a model of
// more than two classes: Score and Bias, which have one value for two
// classes, panic, as does Scores with a dst of the wrong length.
func TestMulticlassScoresPanic(t *testing.T) {
	rnd := rand.New(rand.NewPCG(197, 198))
	rows, X, y := classSet(rnd, 30, 3, 4)
	p := &Perceptron{}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "Score", "perceptron: Score of a model of 4 classes: use Scores", func() { p.Score(rows[0]) })
	mustPanic(t, "Bias", "perceptron: Bias of a model of 4 classes: use Biases", func() { p.Bias() })
	mustPanic(t, "Scores", "perceptron: dst has length 3, want 4 (the number of scores)", func() { p.Scores(make([]float64, 3), rows[0]) })
}

// naiveOneVsRest is scikit-learn's Perceptron with shuffle off on more
// than two classes, written out: for each class c, the binary perceptron
// (an update when y·(w·x+b) <= 0, y being +1 for c and -1 for the rest)
// over the rows in order for epochs epochs or until one makes no update,
// and the prediction is the class of the greatest score, the first of
// ties.
func naiveOneVsRest(X [][]float64, cls []int, K, epochs int) (w [][]float64, b []float64) {
	y := make([]float64, len(cls))
	for c := range K {
		for i := range y {
			y[i] = -1
			if cls[i] == c {
				y[i] = 1
			}
		}
		wc, bc, _, _ := naivePerceptron(X, y, epochs, 1, nil, true, nil, 0)
		w, b = append(w, wc), append(b, bc)
	}
	return w, b
}

func TestOneVsRestMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(199, 200))
	for k := range 100 {
		K := 3 + rnd.IntN(4)
		n, d := K+rnd.IntN(40), 1+rnd.IntN(5)
		rows, X, y := classSet(rnd, n, d, K)
		epochs := 1 + rnd.IntN(20)
		o := &OneVsRest{New: func() Scorer { return &Perceptron{Epochs: epochs} }}
		if err := o.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		w, b := naiveOneVsRest(rows, indices(y), K, epochs)
		m := naiveClassModel{w: w, b: b}
		if len(o.Models()) != K || !slices.Equal(o.Classes(), classValues[:K]) {
			t.Fatalf("trial %d: %d models of classes %v, want %d of %v", k, len(o.Models()), o.Classes(), K, classValues[:K])
		}
		for c, pc := range o.Models() {
			if !slices.Equal(pc.(*Perceptron).Weights(), w[c]) || pc.(*Perceptron).Bias() != b[c] {
				t.Fatalf("trial %d: the classifier of class %d has %v %v, want %v %v", k, c, pc.(*Perceptron).Weights(), pc.(*Perceptron).Bias(), w[c], b[c])
			}
		}
		test, T, _ := classSet(rnd, 30, d, K)
		got := o.PredictRows(nil, T)
		scores := o.ScoreRows(nil, T)
		for i, x := range test {
			want := classValues[m.predict(x)]
			if o.Predict(x) != want || got[i] != want {
				t.Fatalf("trial %d: OneVsRest predicts %v (%v by row) on %v, want %v", k, o.Predict(x), got[i], x, want)
			}
			if s := o.Scores(nil, x); !slices.Equal(s, m.scores(x)) || !slices.Equal(s, scores[i*K:(i+1)*K]) {
				t.Fatalf("trial %d: OneVsRest scores %v (%v by row), want %v", k, s, scores[i*K:(i+1)*K], m.scores(x))
			}
		}
	}
}

// TestOneVsRestBinary checks that OneVsRest with two classes is the one
// classifier of both.
func TestOneVsRestBinary(t *testing.T) {
	rnd := rand.New(rand.NewPCG(201, 202))
	_, X, y := intSet(rnd, 50, 3)
	for i := range y {
		y[i] = 5 + 2*y[i]
	}
	o, p := &OneVsRest{}, &Perceptron{}
	if err := o.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if len(o.Models()) != 1 || !slices.Equal(o.Classes(), []float64{3, 7}) || !sameBits(o.ScoreRows(nil, X), p.ScoreRows(nil, X)) || !slices.Equal(o.PredictRows(nil, X), p.PredictRows(nil, X)) {
		t.Fatalf("OneVsRest of two classes differs from its Perceptron")
	}
	x := X.RawRowView(0)
	if o.Score(x) != p.Score(x) || o.Predict(x) != p.Predict(x) {
		t.Fatalf("OneVsRest of two classes scores %v, Perceptron %v", o.Score(x), p.Score(x))
	}
	mustPanic(t, "Predict before Fit", "perceptron: Predict called before Fit", func() { (&OneVsRest{}).Predict(x) })
	if err := (&OneVsRest{New: func() Scorer { return nil }}).Fit(X, y); err == nil {
		t.Fatal("OneVsRest with New returning nil fits")
	}
}

// TestDistinctMatchesSort checks the classes of random labels, of one to
// three hundred values with signed zeros among them, against a sort of a
// copy: the same values, in order, each kept as its first occurrence.
func TestDistinctMatchesSort(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	for trial := range 2000 {
		values := []float64{math.Copysign(0, -1), 0, -1, 1, 2.5, -7}
		K := 1 + rnd.IntN(300)
		if trial%2 == 0 {
			K = 1 + rnd.IntN(len(values))
		}
		y := make([]float64, 1+rnd.IntN(50))
		for i := range y {
			if K <= len(values) {
				y[i] = values[rnd.IntN(K)]
			} else {
				y[i] = float64(rnd.IntN(K))
			}
		}
		var want []float64
		for _, v := range y {
			if !slices.Contains(want, v) {
				want = append(want, v)
			}
		}
		slices.SortFunc(want, func(a, b float64) int { return cmp.Compare(a, b) })
		got := distinct(y)
		if len(got) != len(want) {
			t.Fatalf("trial %d: distinct(%v) = %v, want %v", trial, y, got, want)
		}
		for c := range got {
			if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
				t.Fatalf("trial %d: distinct(%v) = %v, want %v", trial, y, got, want)
			}
		}
	}
}
