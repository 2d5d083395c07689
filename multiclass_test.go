// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// classValues are the class values of the multiclass tests: neither
// contiguous nor whole, so that a test sees whether a classifier returns
// the classes themselves and not their indices.
var classValues = []float64{-7, -2.5, 0, 1, 4, 9.5, 12, 15, 17.5, 20, 23, 27, 31, 33.5, 40, 42, 50, 55, 61, 70}

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

// mcTrial is a random choice of settings for a data set: epochs, a rate
// (zero for the default 1), a shuffle by a Rand of the trial's seed, a
// bias or none, and starting weights or none.
type mcTrial struct {
	epochs int
	rate   float64
	seed   uint64
	random bool // shuffle with a Rand seeded by seed
	bias   bool
	w0     []float64
}

// rand returns a fresh Rand in the trial's state, or nil.
func (tr mcTrial) rand() *rand.Rand {
	if !tr.random {
		return nil
	}
	return rand.New(rand.NewPCG(tr.seed, 3))
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
func naiveClassVisits(X [][]float64, cls []int, K int, tr mcTrial, stop bool) (start naiveClassModel, visits []naiveClassVisit, perEpoch []int) {
	rate := cmpOr(tr.rate, 1)
	epochs := tr.epochs
	if epochs == 0 {
		epochs = defaultEpochs
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

// classTrial draws settings whose arithmetic stays exact on classSet's
// integers: up to 12 epochs, rates that are powers of two, and maybe small
// whole starting weights for K classes (the biases start at zero).
func classTrial(rnd *rand.Rand, d, K int) mcTrial {
	tr := mcTrial{
		epochs: 1 + rnd.IntN(12),
		rate:   []float64{0, 1, 0.5, 2}[rnd.IntN(4)],
		seed:   rnd.Uint64(),
		random: rnd.IntN(2) == 0,
		bias:   rnd.IntN(4) != 0,
	}
	if rnd.IntN(2) == 0 {
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
// sets of integers, where every sum is exact: Perceptron's weights, biases
// and statistics, Pocket's pocket by both rules and the training rows it
// gets wrong, Averaged's sums and Voted's votes, bit for bit, and the
// predictions of all of them.
func TestMulticlassMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(181, 182))
	for k := range 300 {
		K := 3 + rnd.IntN(4)
		if k%10 == 9 {
			K = 16 + rnd.IntN(5) // Averaged's shares in a map
		}
		n, d := K+rnd.IntN(30), 1+rnd.IntN(4)
		rows, X, y := classSet(rnd, n, d, K)
		cls := indices(y)
		tr := classTrial(rnd, d, K)
		classes := classValues[:K]
		name := fmt.Sprintf("trial %d (n=%d d=%d K=%d)", k, n, d, K)

		start, visits, perEpoch := naiveClassVisits(rows, cls, K, tr, true)
		last := visits[len(visits)-1].m
		s := Perceptron{Epochs: tr.epochs, Rate: tr.rate, NoBias: !tr.bias, InitWeights: tr.w0, Labels: classes}
		p := s
		p.Rand = tr.rand()
		if err := p.Fit(X, y); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		w, b := last.flat()
		if pw, pb := p.Weights(); !slices.Equal(p.Classes(), classes) || !slices.Equal(pw, w) || !slices.Equal(pb, b) {
			t.Fatalf("%s: Perceptron has classes %v, weights %v, biases %v, want %v, %v, %v", name, p.Classes(), pw, pb, classes, w, b)
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
			wrong := 0
			for i, c := range pk.PredictRows(nil, X) {
				if c != y[i] {
					wrong++
				}
			}
			if pw, pb := pk.Weights(); !slices.Equal(pw, w) || !slices.Equal(pb, b) || wrong != errors {
				t.Fatalf("%s: Pocket (Ratchet %t) has weights %v, biases %v, %d misclassified; want %v, %v, %d",
					name, ratchet, pw, pb, wrong, w, b, errors)
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
			got := rowScores(a, x)
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
			if got := rowScores(vo, x); !slices.Equal(got, votes) {
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
					t.Fatalf("trial %d, rule %s: Kernel predicts %v (%v by row) on %v, want %v", k, ktName(rule), kr.Predict(x), got[i], x, w)
				}
			}
			if rule != PredictAveraged {
				continue
			}
			for _, x := range test {
				ks, as := rowScores(kr, x), rowScores(a, x)
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
		tr := mcTrial{epochs: 1 + rnd.IntN(8), bias: rnd.IntN(2) == 0}
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
			if got := rowScores(kr, x); !slices.Equal(got, want) {
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

// csrOf returns the non-zeros of X as a CSR matrix. Its slices are never
// nil, even for a matrix of zeros: a *CSR of nil ind meets the library bug
// that TestKernelCSRWithoutElements checks.
func csrOf(X *mat.Dense) *CSR {
	r, c := X.Dims()
	indptr := []int{0}
	ind, val := []int{}, []float64{}
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
// classes marshals and unmarshals, into a zero value and by Unmarshal, to
// a model that scores every row as the original does, bit for bit.
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
		&OneVsRest{New: func() Scorer { return &Perceptron{Epochs: 5} }},
		&OneVsRest{New: func() Scorer { return &Kernel{Epochs: 5, Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}} }},
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
		loaded, err := Unmarshal(b)
		if err != nil {
			t.Fatalf("%T: Unmarshal: %v", m, err)
		}
		if fmt.Sprintf("%T", loaded) != fmt.Sprintf("%T", m) {
			t.Fatalf("%T: Unmarshal returned a %T", m, loaded)
		}
		for _, got := range []Scorer{back, loaded} {
			if !slices.Equal(got.Classes(), classValues[:5]) || !sameBits(got.ScoreRows(nil, T), m.ScoreRows(nil, T)) || !slices.Equal(got.PredictRows(nil, T), m.PredictRows(nil, T)) {
				t.Fatalf("%T: the unmarshalled model has classes %v and scores differently", m, got.Classes())
			}
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
	case *OneVsRest:
		return &OneVsRest{}
	}
	panic(fmt.Sprintf("fresh: %T", m))
}

// TestMulticlassLearn checks Learn with a known class set: from nothing,
// one row at a time or all at once, it makes the run of one epoch of Fit,
// and counts its mistakes in Stats; Kernel.Learn with the linear kernel
// makes the same mistakes; a class the model does not know is an error
// naming the label and changes nothing.
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
			before, kbefore := learn.Stats().Mistakes, kernel.Stats().Mistakes
			if err := learnOne(learn, x, y[i]); err != nil {
				t.Fatal(err)
			}
			m := learn.Stats().Mistakes - before
			if err := learnOne(kernel, x, y[i]); err != nil || kernel.Stats().Mistakes-kbefore != m {
				t.Fatalf("trial %d row %d: Kernel.Learn makes %d mistakes (%v); Perceptron %d", k, i, kernel.Stats().Mistakes-kbefore, err, m)
			}
			mistakes += m
		}
		fw, fb := fit.Weights()
		if lw, lb := learn.Weights(); !slices.Equal(lw, fw) || !slices.Equal(lb, fb) || mistakes != fit.Stats().Mistakes {
			t.Fatalf("trial %d: Learn makes %v %v with %d mistakes, Fit %v %v with %d", k, lw, lb, mistakes, fw, fb, fit.Stats().Mistakes)
		}
		if !slices.Equal(learn.Classes(), classes) || !slices.Equal(kernel.Classes(), classes) {
			t.Fatalf("trial %d: Learn makes the classes %v and %v, want %v", k, learn.Classes(), kernel.Classes(), classes)
		}
		all := &Perceptron{Labels: classes}
		if err := all.Learn(X, y); err != nil || all.Stats().Mistakes != mistakes {
			t.Fatalf("trial %d: Learn of every row makes %d mistakes (%v), want %d", k, all.Stats().Mistakes, err, mistakes)
		}
		if aw, ab := all.Weights(); !slices.Equal(aw, fw) || !slices.Equal(ab, fb) {
			t.Fatalf("trial %d: Learn of every row makes %v %v, Fit %v %v", k, aw, ab, fw, fb)
		}
		bw, bb := learn.Weights()
		if err := learnOne(learn, rows[0], 3.25); err == nil || !strings.Contains(err.Error(), "3.25") {
			t.Fatalf("trial %d: Learn of an unknown class returns %v, want an error naming 3.25", k, err)
		}
		ks := kernel.ScoreRows(nil, X)
		if err := learnOne(kernel, rows[0], 3.25); err == nil || !strings.Contains(err.Error(), "3.25") {
			t.Fatalf("trial %d: Kernel.Learn of an unknown class returns %v, want an error naming 3.25", k, err)
		}
		if lw, lb := learn.Weights(); !slices.Equal(lw, bw) || !slices.Equal(lb, bb) || learn.Stats().Mistakes != mistakes {
			t.Fatalf("trial %d: a failed Learn changed the weights", k)
		}
		if !sameBits(kernel.ScoreRows(nil, X), ks) || kernel.Stats().Mistakes != mistakes {
			t.Fatalf("trial %d: a failed Kernel.Learn changed the model", k)
		}
	}
}

// TestMulticlassBadInput checks the errors of bad data with more than
// two classes, and that a failed Fit leaves the model of the last good
// one.
func TestMulticlassBadInput(t *testing.T) {
	rnd := rand.New(rand.NewPCG(195, 196))
	_, X, y := classSet(rnd, 30, 3, 4)
	_, T, _ := classSet(rnd, 10, 3, 4)
	nan := math.NaN()
	cases := []struct {
		X    mat.Matrix
		y    func() []float64
		want string
	}{
		{X, func() []float64 { z := slices.Clone(y); z[7] = nan; return z }, "perceptron: y[7] is NaN, want a finite class value"},
		{X, func() []float64 { z := slices.Clone(y); z[8] = math.Inf(-1); return z }, "perceptron: y[8] is -Inf, want a finite class value"},
		{X, func() []float64 { z := slices.Clone(y); return z[:29] }, "perceptron: len(y) is 29, want 30 (the number of rows of X)"},
		{X, func() []float64 { return slices.Repeat([]float64{4}, 30) }, "perceptron: y has the single class 4: want at least two classes"},
		{nil, func() []float64 { return y }, "perceptron: X is nil"},
		{(*mat.Dense)(nil), func() []float64 { return y }, "perceptron: X is nil"},
	}
	for _, m := range []Scorer{&Perceptron{}, &Pocket{}, &Averaged{}, &Voted{}, &Kernel{}, &OneVsRest{}} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		want := m.ScoreRows(nil, T)
		for _, c := range cases {
			err := m.Fit(c.X, c.y())
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
// more than two classes: ScoreRows and PredictRows with a dst of the
// wrong length, and rows of the wrong length, panic.
func TestMulticlassScoresPanic(t *testing.T) {
	rnd := rand.New(rand.NewPCG(197, 198))
	rows, X, y := classSet(rnd, 30, 3, 4)
	for _, m := range []Scorer{&Perceptron{}, &Kernel{}, &OneVsRest{}} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%T", m)
		mustPanic(t, name+" ScoreRows", "perceptron: dst has length 3, want 4", func() { m.ScoreRows(make([]float64, 3), mat.NewDense(1, 3, rows[0])) })
		mustPanic(t, name+" PredictRows", "perceptron: dst has length 2, want 1", func() { m.PredictRows(make([]float64, 2), mat.NewDense(1, 3, rows[0])) })
		mustPanic(t, name+" ScoreRows of short rows", "perceptron: X has 2 columns, want 3", func() { m.ScoreRows(nil, mat.NewDense(1, 2, nil)) })
		// OneVsRest's Predict panics as PredictRows of the row does.
		mustPanic(t, name+" Predict of a short x", "want 3", func() { m.Predict([]float64{1, 2}) })
		if got := rowScores(m, rows[0]); len(got) != 4 {
			t.Errorf("%s: %d scores of a row, want 4", name, len(got))
		}
	}
}

// mcNaiveBinary is the binary perceptron written out, with the bias, from
// zero weights, at rate 1, for labels y of -1 and +1: over the rows in
// order, or if rnd is not nil in an order shuffled afresh with rnd every
// epoch as Fit shuffles, for epochs epochs or until one makes no update.
func mcNaiveBinary(X [][]float64, y []float64, epochs int, rnd *rand.Rand) (w []float64, b float64) {
	w = make([]float64, len(X[0]))
	order := make([]int, len(X))
	for i := range order {
		order[i] = i
	}
	for range epochs {
		if rnd != nil {
			rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		updates := 0
		for _, i := range order {
			a := b
			for j, v := range X[i] {
				a += w[j] * v
			}
			if y[i]*a <= 0 {
				for j, v := range X[i] {
					w[j] += y[i] * v
				}
				b += y[i]
				updates++
			}
		}
		if updates == 0 {
			break
		}
	}
	return w, b
}

// mcAgainst returns the labels of class index c against the rest: +1 for
// the rows of c, -1 for the others.
func mcAgainst(cls []int, c int) []float64 {
	y := make([]float64, len(cls))
	for i := range y {
		y[i] = -1
		if cls[i] == c {
			y[i] = 1
		}
	}
	return y
}

// naiveOneVsRest is scikit-learn's Perceptron on more than two classes,
// written out: for each class c, the binary perceptron (an update when
// y·(w·x+b) <= 0, y being +1 for c and -1 for the rest) for epochs epochs
// or until one makes no update, over the rows in order, or if rnd is not
// nil shuffled with a source of the two seeds drawn from rnd for each
// class in turn, as OneVsRest seeds its members'; the prediction is the
// class of the greatest score, the first of ties.
func naiveOneVsRest(X [][]float64, cls []int, K, epochs int, rnd *rand.Rand) (w [][]float64, b []float64) {
	for c := range K {
		var own *rand.Rand
		if rnd != nil {
			own = rand.New(rand.NewPCG(rnd.Uint64(), rnd.Uint64()))
		}
		wc, bc := mcNaiveBinary(X, mcAgainst(cls, c), epochs, own)
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
		w, b := naiveOneVsRest(rows, indices(y), K, epochs, nil)
		m := naiveClassModel{w: w, b: b}
		if len(o.Models()) != K || !slices.Equal(o.Classes(), classValues[:K]) {
			t.Fatalf("trial %d: %d models of classes %v, want %d of %v", k, len(o.Models()), o.Classes(), K, classValues[:K])
		}
		for c, pc := range o.Models() {
			pw, pb := pc.(*Perceptron).Weights()
			if !slices.Equal(pw, w[c]) || !slices.Equal(pb, []float64{b[c]}) || !slices.Equal(pc.Classes(), binaryLabels) {
				t.Fatalf("trial %d: the classifier of class %d has %v %v of classes %v, want %v %v of -1 and 1", k, c, pw, pb, pc.Classes(), w[c], b[c])
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
			if s := rowScores(o, x); !slices.Equal(s, m.scores(x)) || !slices.Equal(s, scores[i*K:(i+1)*K]) {
				t.Fatalf("trial %d: OneVsRest scores %v (%v by row), want %v", k, s, scores[i*K:(i+1)*K], m.scores(x))
			}
		}
	}
}

// TestOneVsRestPredictRow checks that Predict of one row, which asks each
// class's classifier for its score of the row alone where it can, gives
// the class that PredictRows gives, from each classifier's scores of the
// row as its ScoreRows gives them, to the bit: for every type of
// classifier, an Averaged after a Learn among them, whose scores add its
// running weights', and one after PredictOnly, on rows of 1 to 40
// columns.
func TestOneVsRestPredictRow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(203, 204))
	for _, tc := range []struct {
		name  string
		new   func() Scorer
		after string // what follows the Fit
	}{
		{"Perceptron", func() Scorer { return &Perceptron{Epochs: 5} }, ""},
		{"Pocket", func() Scorer { return &Pocket{Epochs: 5} }, ""},
		{"Averaged", func() Scorer { return &Averaged{Epochs: 5} }, ""},
		{"Averaged", func() Scorer { return &Averaged{Epochs: 5} }, "Learn"},
		{"Averaged", func() Scorer { return &Averaged{Epochs: 5} }, "PredictOnly"},
		{"Voted", func() Scorer { return &Voted{Epochs: 5} }, ""},
		{"Kernel", func() Scorer { return &Kernel{Epochs: 5, Func: Poly{Degree: 2}} }, ""},
	} {
		for k := range 10 {
			K, d := 3+rnd.IntN(3), 1+rnd.IntN(40)
			_, X, y := classSet(rnd, 60, d, K)
			o := &OneVsRest{New: tc.new}
			if err := o.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			switch tc.after {
			case "Learn":
				if err := o.Learn(X, y); err != nil {
					t.Fatal(err)
				}
			case "PredictOnly":
				if err := PredictOnly(o); err != nil {
					t.Fatal(err)
				}
			}
			// Rows of any reals, whose dot products round.
			T := mat.NewDense(30, d, nil)
			for i := range 30 {
				for j := range d {
					T.Set(i, j, 4*rnd.NormFloat64())
				}
			}
			test := make([][]float64, 30)
			for i := range test {
				test[i] = T.RawRowView(i)
			}
			want := o.PredictRows(nil, T)
			for c, m := range o.Models() {
				r, ok := m.(rowScorer)
				if _, kernel := m.(*Kernel); ok == kernel {
					t.Fatalf("%s: the classifier of class %d is a rowScorer: %t", tc.name, c, ok)
				}
				if !ok {
					continue
				}
				rows := m.ScoreRows(nil, T)
				for i, x := range test {
					var s [1]float64
					if r.scoreRow(s[:], x); !sameBits(s[:], rows[i:i+1]) {
						t.Fatalf("%s %s trial %d: the classifier of class %d scores row %d %v alone, %v among the rows", tc.name, tc.after, k, c, i, s[0], rows[i])
					}
				}
			}
			for i, x := range test {
				if got := o.Predict(x); got != want[i] {
					t.Fatalf("%s %s trial %d: Predict of row %d gives %v, PredictRows %v", tc.name, tc.after, k, i, got, want[i])
				}
			}
			if raceEnabled || tc.name == "Kernel" {
				continue
			}
			// No allocation a row, of OneVsRest or of a class's own
			// Predict, also where an Averaged's scores are sum + ahead·w.
			if a := testing.AllocsPerRun(10, func() { o.Predict(test[0]) }); a != 0 {
				t.Fatalf("%s %s: OneVsRest's Predict allocates %v times a row", tc.name, tc.after, a)
			}
			m := o.Models()[0]
			if a := testing.AllocsPerRun(10, func() { m.Predict(test[0]) }); a != 0 {
				t.Fatalf("%s %s: the Predict of class 0's classifier allocates %v times a row", tc.name, tc.after, a)
			}
		}
	}
}

// TestOneVsRestPredictRowShape checks that Predict panics, as PredictRows
// does, if a class's classifier, refitted through Models, has more than
// one score.
func TestOneVsRestPredictRowShape(t *testing.T) {
	rnd := rand.New(rand.NewPCG(205, 206))
	_, X, y := classSet(rnd, 60, 4, 3)
	o := &OneVsRest{New: func() Scorer { return &Perceptron{Epochs: 5} }}
	if err := o.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if err := o.Models()[0].Fit(X, y); err != nil {
		t.Fatal(err)
	}
	for _, f := range []func(){
		func() { o.PredictRows(nil, X) },
		func() { o.Predict(X.RawRowView(0)) },
	} {
		func() {
			defer func() {
				if err, _ := recover().(error); !errors.Is(err, ErrShape) {
					t.Errorf("recovered %v, want an error of kind ErrShape", err)
				}
			}()
			f()
		}()
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
	if len(o.Models()) != 1 || !slices.Equal(o.Classes(), []float64{3, 7}) || !slices.Equal(o.Models()[0].Classes(), []float64{3, 7}) ||
		!sameBits(o.ScoreRows(nil, X), p.ScoreRows(nil, X)) || !slices.Equal(o.PredictRows(nil, X), p.PredictRows(nil, X)) {
		t.Fatalf("OneVsRest of two classes differs from its Perceptron")
	}
	x := X.RawRowView(0)
	if !sameBits(rowScores(o, x), rowScores(p, x)) || o.Predict(x) != p.Predict(x) {
		t.Fatalf("OneVsRest of two classes scores %v, Perceptron %v", rowScores(o, x), rowScores(p, x))
	}
	mustPanic(t, "Predict before Fit", "perceptron: Predict called before Fit", func() { (&OneVsRest{}).Predict(x) })
	mustPanic(t, "ScoreRows before Fit", "perceptron: ScoreRows called before Fit", func() { (&OneVsRest{}).ScoreRows(nil, X) })
	if (&OneVsRest{}).Models() != nil || (&OneVsRest{}).Classes() != nil {
		t.Fatal("OneVsRest before Fit has models or classes")
	}
}

// mcForeign is a Scorer of another package's making: it has the methods
// of Scorer, and none of the package's own.
type mcForeign struct{ p Perceptron }

func (f *mcForeign) Fit(X mat.Matrix, y []float64) error { return f.p.Fit(X, y) }
func (f *mcForeign) Predict(x []float64) float64         { return f.p.Predict(x) }
func (f *mcForeign) Classes() []float64                  { return f.p.Classes() }
func (f *mcForeign) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	return f.p.ScoreRows(dst, X)
}
func (f *mcForeign) PredictRows(dst []float64, X mat.Matrix) []float64 {
	return f.p.PredictRows(dst, X)
}

// TestOneVsRestErrors checks the errors of OneVsRest's Fit: New returning
// nil or a classifier of another package, a member whose settings are
// not valid, and X nil; each leaves a fitted OneVsRest as it was.
func TestOneVsRestErrors(t *testing.T) {
	rnd := rand.New(rand.NewPCG(203, 204))
	_, X, y := classSet(rnd, 40, 3, 4)
	for _, c := range []struct {
		name   string
		New    func() Scorer
		X      mat.Matrix
		prefix string
		whole  bool // the error is the whole of prefix
	}{
		{"New returning nil", func() Scorer { return nil }, X, "perceptron: OneVsRest.New returned nil", true},
		{"New returning a typed nil", func() Scorer { return (*mcForeign)(nil) }, X, "perceptron: OneVsRest.New returned *perceptron.mcForeign, want a classifier of this package", true},
		{"New returning a foreign Scorer", func() Scorer { return &mcForeign{} }, X, "perceptron: OneVsRest.New returned *perceptron.mcForeign, want a classifier of this package", true},
		{"a member's bad settings", func() Scorer { return &Perceptron{Epochs: -1} }, X, "perceptron: Epochs is -1, want >= 0 (class -7 against the rest)", true},
		{"X nil", nil, nil, "perceptron: X is nil", true},
	} {
		o := &OneVsRest{}
		if err := o.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		before, models := o.ScoreRows(nil, X), o.Models()
		calls := 0
		if c.New != nil {
			o.New = func() Scorer { calls++; return c.New() }
		}
		err := o.Fit(c.X, y)
		if err == nil || err.Error() != c.prefix {
			t.Errorf("%s: Fit returns %v, want %q", c.name, err, c.prefix)
		}
		if c.New != nil && calls == 0 {
			t.Errorf("%s: Fit never called New", c.name)
		}
		if !sameBits(o.ScoreRows(nil, X), before) || !slices.Equal(o.Models(), models) {
			t.Errorf("%s: a failed Fit changed OneVsRest", c.name)
		}
	}
}

// TestOneVsRestLabels checks Labels: the classes are those of Labels,
// even one that y lacks, as they are for Perceptron; the classifier of a
// class without rows learns from rows all of its rest. A label outside
// Labels is the error Perceptron returns.
func TestOneVsRestLabels(t *testing.T) {
	rnd := rand.New(rand.NewPCG(205, 206))
	rows, X, y := intSet(rnd, 60, 3)
	for i := range y {
		y[i] = (y[i] + 1) / 2 // 0 and 1
	}
	labels := []float64{0, 1, 2}
	o := &OneVsRest{Labels: labels, New: func() Scorer { return &Perceptron{Epochs: 7} }}
	if err := o.Fit(X, y); err != nil {
		t.Fatalf("OneVsRest with Labels %v on y of 0 and 1: %v", labels, err)
	}
	p := &Perceptron{Labels: labels, Epochs: 7}
	if err := p.Fit(X, y); err != nil {
		t.Fatalf("Perceptron with Labels %v on y of 0 and 1: %v", labels, err)
	}
	if !slices.Equal(o.Classes(), labels) || !slices.Equal(p.Classes(), labels) || len(o.Models()) != 3 {
		t.Fatalf("classes %v and %v with %d classifiers, want %v and 3", o.Classes(), p.Classes(), len(o.Models()), labels)
	}
	cls := make([]int, len(y))
	for i, v := range y {
		cls[i] = int(v)
	}
	w, b := naiveOneVsRest(rows, cls, 3, 7, nil)
	for c, m := range o.Models() {
		mw, mb := m.(*Perceptron).Weights()
		if !slices.Equal(mw, w[c]) || !slices.Equal(mb, []float64{b[c]}) {
			t.Fatalf("the classifier of class %v has %v %v, want %v %v", labels[c], mw, mb, w[c], b[c])
		}
	}
	m := naiveClassModel{w: w, b: b}
	got := o.PredictRows(nil, X)
	for i, x := range rows {
		if want := labels[m.predict(x)]; got[i] != want {
			t.Fatalf("row %d: OneVsRest predicts %v, want %v", i, got[i], want)
		}
	}
	// Two Labels and one class in y: one classifier, as Perceptron.
	one := slices.Repeat([]float64{1}, len(y))
	o2, p2 := &OneVsRest{Labels: []float64{1, 0}}, &Perceptron{Labels: []float64{1, 0}}
	if err := o2.Fit(X, one); err != nil {
		t.Fatal(err)
	}
	if err := p2.Fit(X, one); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o2.Classes(), []float64{0, 1}) || !sameBits(o2.ScoreRows(nil, X), p2.ScoreRows(nil, X)) {
		t.Fatalf("OneVsRest with two Labels and one class differs from Perceptron")
	}
	// A label outside Labels.
	bad := slices.Clone(y)
	bad[5] = 2
	for _, m := range []Scorer{&OneVsRest{Labels: []float64{0, 1}}, &Perceptron{Labels: []float64{0, 1}}} {
		if err := m.Fit(X, bad); err == nil || err.Error() != "perceptron: y[5] is 2, not one of the classes [0 1]" {
			t.Errorf("%T: Fit with a label outside Labels returns %v", m, err)
		}
	}
}

// TestOneVsRestSharedRand checks classifiers that share one *rand.Rand:
// OneVsRest draws each class's seeds from it in the order of the classes,
// before any training, so that Fit, which trains the classes on several
// goroutines, neither races on it (the race detector watches this test)
// nor depends on GOMAXPROCS. The model is that of separate fits, class by
// class, each shuffling with a source of the seeds drawn for it, and for
// Perceptron that of the naive one-vs-rest with the same shuffles.
func TestOneVsRestSharedRand(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rnd := rand.New(rand.NewPCG(207, 208))
	kinds := []struct {
		name string
		New  func(r *rand.Rand) Scorer
	}{
		{"Perceptron", func(r *rand.Rand) Scorer { return &Perceptron{Rand: r, Epochs: 5} }},
		{"Pocket", func(r *rand.Rand) Scorer { return &Pocket{Rand: r, Epochs: 5} }},
		{"Averaged", func(r *rand.Rand) Scorer { return &Averaged{Rand: r, Epochs: 5} }},
		{"Voted", func(r *rand.Rand) Scorer { return &Voted{Rand: r, Epochs: 5} }},
		{"Kernel", func(r *rand.Rand) Scorer {
			return &Kernel{Rand: r, Epochs: 3, Budget: 15, Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, Prediction: PredictAveraged}
		}},
	}
	for trial := range 12 {
		K := 4 + rnd.IntN(3)
		n, d := 150+rnd.IntN(200), 1+rnd.IntN(5)
		rows, X, y := classSet(rnd, n, d, K)
		_, T, _ := classSet(rnd, 40, d, K)
		cls := indices(y)
		seed := rnd.Uint64()
		for _, kind := range kinds {
			name := fmt.Sprintf("trial %d (K=%d n=%d d=%d), %s", trial, K, n, d, kind.name)
			fit := func(procs int) *OneVsRest {
				runtime.GOMAXPROCS(procs)
				shared := rand.New(rand.NewPCG(seed, 1))
				o := &OneVsRest{New: func() Scorer { return kind.New(shared) }}
				if err := o.Fit(X, y); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return o
			}
			one, four := fit(1), fit(4)
			if !sameBits(one.ScoreRows(nil, T), four.ScoreRows(nil, T)) || !sameBits(one.ScoreRows(nil, X), four.ScoreRows(nil, X)) {
				t.Fatalf("%s: GOMAXPROCS 4 gives another model than GOMAXPROCS 1", name)
			}
			// Separate fits, class by class, with the seeds in class order.
			ref := rand.New(rand.NewPCG(seed, 1))
			want := make([]float64, 40*K)
			for c := range K {
				own := rand.New(rand.NewPCG(ref.Uint64(), ref.Uint64()))
				m := kind.New(own)
				if err := m.Fit(X, mcAgainst(cls, c)); err != nil {
					t.Fatal(err)
				}
				for i, s := range m.ScoreRows(nil, T) {
					want[i*K+c] = s
				}
				if !sameBits(four.Models()[c].ScoreRows(nil, X), m.ScoreRows(nil, X)) {
					t.Fatalf("%s: the classifier of class %d differs from a separate fit with its seeds", name, c)
				}
			}
			if !sameBits(four.ScoreRows(nil, T), want) {
				t.Fatalf("%s: OneVsRest scores differ from the separate fits'", name)
			}
			if kind.name != "Perceptron" {
				continue
			}
			w, b := naiveOneVsRest(rows, cls, K, 5, rand.New(rand.NewPCG(seed, 1)))
			for c, m := range four.Models() {
				mw, mb := m.(*Perceptron).Weights()
				if !slices.Equal(mw, w[c]) || !slices.Equal(mb, []float64{b[c]}) {
					t.Fatalf("%s: the classifier of class %d has %v %v, the naive one %v %v", name, c, mw, mb, w[c], b[c])
				}
			}
		}
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
