// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

// The tests of early stopping, Stop: a naive reference of the run with
// scikit-learn's rule, against which every classifier's Stats and model
// are checked on seeded random sets; the held-out rows of Validation and
// the accuracy measured on them; the errors; the saved form; and hand
// traces of small sets.

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// esU is the unit roundoff of float64.
const esU = 0x1p-53

// esGamma returns γ_k = k·u/(1 - k·u), which bounds the relative error of
// a sum of k terms, or of a dot product of length k, formed in float64 in
// any order: |fl(Σ a_i b_i) - Σ a_i b_i| <= γ_k Σ |a_i b_i| (Higham,
// Accuracy and Stability of Numerical Algorithms, 2002, §3.1).
func esGamma(k int) float64 {
	ku := float64(k) * esU
	return ku / (1 - ku)
}

// esData is a data set of the tests: its rows as slices and as a matrix,
// the index of each row's class, the labels and the classes.
type esData struct {
	rows    [][]float64
	X       *mat.Dense
	cls     []int
	y       []float64
	classes []float64
	exact   bool // small integers: every sum of a run is exact
}

// esRandomData returns n rows of d features of K classes, of the values
// jtClassValues or for two classes at times -1 and +1, each of which
// occurs: the first K rows are one of each class, and the rest take the
// class of the greatest score of a random integer teacher, or with
// probability flip a random class. exact rows are integers in [-3, 3], the
// others normal values on scales from 10^-2 to 10^2; sparse rows are zero
// half the time.
func esRandomData(rnd *rand.Rand, n, d, K int, exact, sparse bool, flip float64) *esData {
	e := &esData{X: mat.NewDense(n, d, nil), cls: make([]int, n), y: make([]float64, n), exact: exact}
	e.classes = slices.Clone(jtClassValues[:K])
	if K == 2 && rnd.IntN(2) == 0 {
		e.classes = []float64{-1, 1} // the labels that the rule takes in place
	}
	teacher := make([]float64, K*(d+1))
	for i := range teacher {
		teacher[i] = float64(rnd.IntN(5) - 2)
	}
	for i := range n {
		x := e.X.RawRowView(i)
		for j := range x {
			switch {
			case sparse && rnd.IntN(2) == 0:
			case exact:
				x[j] = float64(rnd.IntN(7) - 3)
			default:
				x[j] = rnd.NormFloat64() * math.Pow(10, float64(rnd.IntN(5)-2))
			}
		}
		e.rows = append(e.rows, x)
		c := 0
		switch {
		case i < K:
			c = i
		case rnd.Float64() < flip:
			c = rnd.IntN(K)
		default:
			best := math.Inf(-1)
			for k := range K {
				s := teacher[k*(d+1)+d]
				for j, v := range x {
					s += teacher[k*(d+1)+j] * v
				}
				if s > best {
					best, c = s, k
				}
			}
		}
		e.cls[i], e.y[i] = c, e.classes[c]
	}
	return e
}

// matrix returns X, or if sparse its non-zeros as a CSR.
func (e *esData) matrix(sparse bool) mat.Matrix {
	if sparse {
		return jtCSR(e.X)
	}
	return e.X
}

// subset returns the rows of the indices, in their order, as a data set.
func (e *esData) subset(idx []int) *esData {
	_, d := e.X.Dims()
	s := &esData{X: mat.NewDense(len(idx), d, nil), classes: e.classes, exact: e.exact}
	for k, i := range idx {
		s.X.SetRow(k, e.rows[i])
		s.rows = append(s.rows, s.X.RawRowView(k))
		s.cls, s.y = append(s.cls, e.cls[i]), append(s.y, e.y[i])
	}
	return s
}

// esSettings are the settings of a trial, for every classifier.
type esSettings struct {
	epochs int
	rate   float64
	noBias bool
	w0     []float64 // laid out as Weights lays them out
	seed   uint64
	random bool // shuffle with a Rand seeded by seed
	stop   *Stop
}

// rand returns a fresh Rand in the state of the settings, or nil.
func (s esSettings) rand() *rand.Rand {
	if !s.random {
		return nil
	}
	return rand.New(rand.NewPCG(s.seed, 5))
}

// resolved returns the settings with their documented defaults: 1000
// epochs, rate 1, Tol 1e-3 and NoChange 5.
func (s esSettings) resolved() (epochs int, rate, tol float64, noChange int) {
	epochs, rate = s.epochs, s.rate
	if epochs == 0 {
		epochs = 1000
	}
	if rate == 0 {
		rate = 1
	}
	if s.stop != nil {
		tol, noChange = s.stop.Tol, s.stop.NoChange
		if tol == 0 {
			tol = 1e-3
		}
		if noChange == 0 {
			noChange = 5
		}
	}
	return epochs, rate, tol, noChange
}

// make returns a classifier of the kind with the settings and Labels
// classes: Perceptron, Pocket, Pocket/ratchet, Averaged, Voted, or Kernel
// and Kernel/... of the kernel and rule of kernel.
func (s esSettings) make(kind string, classes []float64, kernel *Kernel) Scorer {
	switch kind {
	case "Perceptron":
		return &Perceptron{Epochs: s.epochs, Rate: s.rate, Rand: s.rand(), NoBias: s.noBias, InitWeights: s.w0, Labels: classes, Stop: s.stop}
	case "Pocket", "Pocket/ratchet":
		return &Pocket{Epochs: s.epochs, Rate: s.rate, Rand: s.rand(), NoBias: s.noBias, InitWeights: s.w0, Labels: classes, Stop: s.stop, Ratchet: kind == "Pocket/ratchet"}
	case "Averaged":
		return &Averaged{Epochs: s.epochs, Rate: s.rate, Rand: s.rand(), NoBias: s.noBias, InitWeights: s.w0, Labels: classes, Stop: s.stop}
	case "Voted":
		return &Voted{Epochs: s.epochs, Rate: s.rate, Rand: s.rand(), NoBias: s.noBias, InitWeights: s.w0, Labels: classes, Stop: s.stop}
	}
	k := &Kernel{Epochs: s.epochs, Rate: s.rate, Rand: s.rand(), NoBias: s.noBias, Labels: classes, Stop: s.stop}
	if kernel != nil {
		k.Func, k.Prediction, k.Budget = kernel.Func, kernel.Prediction, kernel.Budget
	}
	return k
}

// esInput is a run of the naive reference.
type esInput struct {
	train *esData     // the rows trained on, visited in index order or shuffled
	val   *esData     // the rows held out, or nil
	test  [][]float64 // rows on which the run's votes are taken
	set   esSettings
	rnd   *rand.Rand // the shuffles, or nil for index order

	// measure is the rule whose accuracy on val is measured after each
	// epoch: last, averaged, voted, pocket or ratchet.
	measure string
}

// esRun is the result of the naive reference.
type esRun struct {
	Stats

	// lossBound holds for each epoch a bound of the distance between the
	// library's loss and EpochLoss, 0 where the sums are exact, and
	// ambiguous says that a decision came within rounding of its
	// threshold, so that the library may have taken the other side.
	lossBound []float64
	ambiguous bool

	w, b       []float64   // the last weights, laid out as Weights lays them out
	visits     int         // the visits that the averaged and voted rules count
	sumW, sumB []float64   // the sums of the weights after each of those visits
	votes      [][]float64 // the vote on each test row, or with more classes its votes for each
	pocket     [2][]float64
	ratchet    [2][]float64
}

// esClass returns the index of the class that the scores s choose: for
// one score the second if s >= 0, for more the first of the greatest.
func esClass(s []float64) int {
	if len(s) == 1 {
		if s[0] >= 0 {
			return 1
		}
		return 0
	}
	c := 0
	for k := range s {
		if s[k] > s[c] {
			c = k
		}
	}
	return c
}

// esNaive runs the perceptron by plain loops, visit by visit, with
// scikit-learn's rule of early stopping: the loss of an epoch is the sum
// over its visits of max(0, -y·s), or with more classes max(0, s_o -
// s_c), c the row's class and o the first of the greatest other scores,
// of the weights of the visit; an epoch improves if its loss is at most
// the least loss before it less Tol times the training rows, or with
// held-out rows if their accuracy is at least the greatest before it plus
// Tol; the run stops once NoChange epochs in a row have not improved, or
// at an epoch without a mistake, or after Epochs. It keeps the sums of
// the weights after each visit, the votes of the weights after each visit
// on the test rows, and the exact pocket and Gallant's ratchet, each
// counted in full at every step where it may change.
//
// On rows that are not exact, it bounds the error of each score that it
// forms, by esGamma of its non-zero terms, whatever the order of the
// library's sums, as the library's score is within the same bound: it
// reports a decision within twice that bound of its threshold as
// ambiguous, and bounds the distance of each epoch's loss from the
// library's. The weights themselves, updated by the same operations on
// the same values once the decisions agree, are the library's to the bit.
func esNaive(in esInput) esRun {
	tr := in.train
	K := len(tr.classes)
	S := 1
	if K > 2 {
		S = K
	}
	n, d := len(tr.rows), len(tr.rows[0])
	epochs, rate, tol, noChange := in.set.resolved()
	w := make([]float64, d*S)
	copy(w, in.set.w0)
	b := make([]float64, S)
	r := esRun{sumW: make([]float64, d*S), sumB: make([]float64, S)}
	scores := func(w, b, x []float64) (s, e []float64) {
		s, e = make([]float64, S), make([]float64, S)
		for c := range S {
			a, abs, terms := 0.0, math.Abs(b[c]), 0
			if b[c] != 0 {
				terms++
			}
			for j, v := range x {
				a += w[j*S+c] * v
				if p := w[j*S+c] * v; p != 0 {
					abs += math.Abs(p)
					terms++
				}
			}
			s[c] = a + b[c]
			// Zero products add nothing, and one product alone is
			// rounded alike in every order.
			if !tr.exact && terms > 1 {
				e[c] = esGamma(terms) * abs
			}
		}
		return s, e
	}
	predict := func(w, b, x []float64) int {
		s, _ := scores(w, b, x)
		return esClass(s)
	}
	errorsOf := func(w, b []float64) int {
		e := 0
		for i, x := range tr.rows {
			if predict(w, b, x) != tr.cls[i] {
				e++
			}
		}
		return e
	}
	vote := func(votes, s []float64) {
		c := esClass(s)
		switch {
		case S > 1:
			votes[c]++
		case c == 1:
			votes[0]++
		default:
			votes[0]--
		}
	}
	r.votes = make([][]float64, len(in.test))
	for k := range r.votes {
		r.votes[k] = make([]float64, S)
	}
	var valVotes [][]float64
	if in.val != nil {
		valVotes = make([][]float64, len(in.val.rows))
		for k := range valVotes {
			valVotes[k] = make([]float64, S)
		}
	}
	// The pockets: the exact one, of the earliest weights of the fewest
	// errors of the starting weights and those after each update; and
	// Gallant's, which counts the current weights at each visit where
	// their run of right visits is longer than the pocket's, and replaces
	// the pocket, whose count starts at n, with fewer errors.
	pocketW, pocketB := slices.Clone(w), slices.Clone(b)
	pocketE := errorsOf(w, b)
	ratchetW, ratchetB := slices.Clone(w), slices.Clone(b)
	ratchetE, run, record := n, 0, 0
	// after counts a visit that leaves the weights w, b.
	after := func() {
		r.visits++
		for j := range w {
			r.sumW[j] += w[j]
		}
		for c := range b {
			r.sumB[c] += b[c]
		}
		for k, x := range in.test {
			s, _ := scores(w, b, x)
			vote(r.votes[k], s)
		}
		for k := range valVotes {
			s, _ := scores(w, b, in.val.rows[k])
			vote(valVotes[k], s)
		}
	}
	// accuracy returns the accuracy on val of the rule measured, of the
	// model that a run ending here would have: the pocket of Gallant's
	// ratchet of a run that converged is weights that misclassify no row.
	accuracy := func(converged bool) float64 {
		right := 0
		for k, x := range in.val.rows {
			var c int
			switch in.measure {
			case "last":
				c = predict(w, b, x)
			case "averaged":
				c = predict(r.sumW, r.sumB, x)
			case "voted":
				c = esClass(valVotes[k])
			case "pocket":
				c = predict(pocketW, pocketB, x)
			case "ratchet":
				c = predict(ratchetW, ratchetB, x)
				if converged && errorsOf(ratchetW, ratchetB) > 0 {
					c = predict(w, b, x)
				}
			default:
				panic(in.measure)
			}
			if c == in.val.cls[k] {
				right++
			}
		}
		return float64(right) / float64(len(in.val.rows))
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	best, still, maxBound := math.Inf(1), 0, 0.0
	if in.val != nil {
		best = math.Inf(-1)
	}
	for r.Epochs < epochs {
		r.Epochs++
		if in.rnd != nil {
			in.rnd.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		mistakes, loss, bound := 0, 0.0, 0.0
		for _, i := range order {
			x, c := tr.rows[i], tr.cls[i]
			s, e := scores(w, b, x)
			var mistake bool
			var l, dl float64
			up, down, step := c, -1, rate
			if S == 1 {
				y := float64(2*c - 1)
				if e[0] > 0 && math.Abs(s[0]) <= 2*e[0] {
					r.ambiguous = true
				}
				mistake, l, dl = y*s[0] <= 0, max(0, -y*s[0]), 2*e[0]
				up, step = 0, rate*y
			} else {
				o := -1
				for k := range S {
					if k != c && (o < 0 || s[k] > s[o]) {
						o = k
					}
				}
				for k := range S {
					if k != c && k != o && e[o]+e[k] > 0 && s[o]-s[k] <= 2*(e[o]+e[k]) {
						r.ambiguous = true
					}
				}
				if e[o]+e[c] > 0 && math.Abs(s[c]-s[o]) <= 2*(e[o]+e[c]) {
					r.ambiguous = true
				}
				mistake, l, down = s[c] <= s[o], max(0, s[o]-s[c]), o
				// Each score within 2e of the library's, and the
				// difference rounded once in each.
				dl = 2*(e[o]+e[c])*(1+2*esU) + 2*esU*math.Abs(s[o]-s[c])
			}
			loss += l
			if !mistake {
				run++
			} else {
				mistakes++
				bound += dl
				for j, v := range x {
					w[j*S+up] += step * v
				}
				if !in.set.noBias {
					b[up] += step
				}
				if down >= 0 {
					for j, v := range x {
						w[j*S+down] -= step * v
					}
					if !in.set.noBias {
						b[down] -= step
					}
				}
				if e := errorsOf(w, b); e < pocketE {
					pocketW, pocketB, pocketE = slices.Clone(w), slices.Clone(b), e
				}
				run = 0
			}
			if run > record {
				if e := errorsOf(w, b); e < ratchetE {
					ratchetW, ratchetB, ratchetE, record = slices.Clone(w), slices.Clone(b), e, run
				}
			}
			after()
		}
		// The library sums the losses of the mistakes, l_i + δ_i with
		// |δ_i| <= dl_i; both sums of at most n terms are within
		// γ_n·Σ l of the exact ones: |L - L'| <= Σ dl + γ_n·(2·Σ l + Σ
		// dl), and Σ l <= loss/(1 - γ_n).
		var lossBound float64
		if !tr.exact {
			g := esGamma(n)
			lossBound = bound + g*(2*loss/(1-g)+bound)
		}
		r.Mistakes += mistakes
		r.EpochMistakes = append(r.EpochMistakes, mistakes)
		r.EpochLoss = append(r.EpochLoss, loss)
		r.lossBound = append(r.lossBound, lossBound)
		var acc float64
		if in.val != nil {
			acc = accuracy(mistakes == 0)
			r.EpochAccuracy = append(r.EpochAccuracy, acc)
		}
		if mistakes == 0 {
			r.Converged = true
			break
		}
		if in.set.stop == nil {
			continue
		}
		var improved bool
		if in.val != nil {
			improved = acc >= best+tol
			best = max(best, acc)
		} else {
			// best is within maxBound of the library's, the least of
			// losses each within its bound; the threshold's
			// subtraction rounds once in each.
			maxBound = max(maxBound, lossBound)
			thr := best - tol*float64(n)
			if maxBound > 0 && !math.IsInf(best, 1) && math.Abs(loss-thr) <= lossBound+maxBound+2*esU*(math.Abs(best)+tol*float64(n)+maxBound) {
				r.ambiguous = true
			}
			improved = loss <= thr
			best = min(best, loss)
		}
		if improved {
			still = 0
		} else {
			still++
		}
		if still >= noChange {
			break
		}
	}
	// Gallant's pocket of a run that converged is weights that
	// misclassify no row.
	if r.Converged && errorsOf(ratchetW, ratchetB) > 0 {
		ratchetW, ratchetB = slices.Clone(w), slices.Clone(b)
	}
	// A run that converged counts its last weights for every visit of the
	// epochs left; one that stopped early, or at Epochs, counts none.
	if r.Converged {
		for range (epochs - r.Epochs) * n {
			after()
		}
	}
	r.w, r.b = w, b
	r.pocket, r.ratchet = [2][]float64{pocketW, pocketB}, [2][]float64{ratchetW, ratchetB}
	return r
}

// esTrial is a random trial of the property tests.
type esTrial struct {
	data   *esData
	sparse bool
	test   *mat.Dense // the rows the models are compared on
	set    esSettings
}

// esRandomTrial draws a trial: data of two classes or more, dense or
// sparse, exact or not, and settings whose arithmetic on exact data stays
// exact: rates of a few bits and whole starting weights.
func esRandomTrial(rnd *rand.Rand, stops []*Stop) esTrial {
	K := 2
	if rnd.IntN(2) == 0 {
		K = 3 + rnd.IntN(2)
	}
	n, d := K+rnd.IntN(36), 1+rnd.IntN(6)
	exact, sparse := rnd.IntN(3) != 0, rnd.IntN(2) == 0
	// A tiny set in one trial of four, whose losses are small integers,
	// of a Tol that makes Tol·n whole: a loss often meets the threshold.
	tiny := rnd.IntN(4) == 0
	if tiny {
		n, d, exact = K+rnd.IntN(5), 1+rnd.IntN(2), true
	}
	data := esRandomData(rnd, n, d, K, exact, sparse, []float64{0, 0.1, 0.3}[rnd.IntN(3)])
	test := esRandomData(rnd, 6, d, K, exact, false, 0).X
	test = mat.NewDense(6+n, d, append(slices.Clone(test.RawMatrix().Data), data.X.RawMatrix().Data...))
	set := esSettings{seed: rnd.Uint64(), random: rnd.IntN(2) == 0, noBias: rnd.IntN(3) == 0}
	if rnd.IntN(6) != 0 {
		set.epochs = 1 + rnd.IntN(60)
	}
	if exact {
		set.rate = []float64{0, 1, 0.5, 2, 3}[rnd.IntN(5)]
	} else {
		set.rate = []float64{0, 1, 0.01 + 2*rnd.Float64()}[rnd.IntN(3)]
	}
	if rnd.IntN(3) == 0 {
		S := K
		if K == 2 {
			S = 1
		}
		set.w0 = make([]float64, d*S)
		for j := range set.w0 {
			if exact {
				set.w0[j] = float64(rnd.IntN(5) - 2)
			} else {
				set.w0[j] = rnd.NormFloat64()
			}
		}
	}
	set.stop = stops[rnd.IntN(len(stops))]
	if tiny && set.stop != nil {
		set.rate = 1
		set.stop = &Stop{Tol: float64(1+rnd.IntN(2)) / float64(n), NoChange: rnd.IntN(3)}
	}
	return esTrial{data: data, sparse: sparse, test: test, set: set}
}

// esSameStats returns a description of how the Stats got differ from
// want, or "": to the bit, but the losses, which need only be within
// their bounds, if bounds is not nil.
func esSameStats(got, want Stats, bounds []float64) string {
	switch {
	case got.Epochs != want.Epochs, got.Converged != want.Converged, got.Mistakes != want.Mistakes,
		!slices.Equal(got.EpochMistakes, want.EpochMistakes), len(got.EpochLoss) != len(want.EpochLoss),
		!sameBits(got.EpochAccuracy, want.EpochAccuracy), (got.EpochAccuracy == nil) != (want.EpochAccuracy == nil):
		return fmt.Sprintf("Stats\n%+v, want\n%+v", got, want)
	}
	for e, l := range got.EpochLoss {
		if bounds == nil && math.Float64bits(l) != math.Float64bits(want.EpochLoss[e]) {
			return fmt.Sprintf("epoch %d has the loss %v, want %v\n%+v", e+1, l, want.EpochLoss[e], got)
		}
		if bounds != nil && !(math.Abs(l-want.EpochLoss[e]) <= bounds[e]) {
			return fmt.Sprintf("epoch %d has the loss %v, want %v within %v\n%+v", e+1, l, want.EpochLoss[e], bounds[e], got)
		}
	}
	return ""
}

// esStops are the rules of the trials: none, the defaults, and Tol and
// NoChange each of several sizes, against losses of some units a row.
var esStops = []*Stop{
	nil,
	{},
	{Tol: 1e-3},
	{Tol: 0.05, NoChange: 1},
	{Tol: 0.5, NoChange: 2},
	{Tol: 2, NoChange: 3},
	{Tol: 10},
	{NoChange: 7},
	{Tol: 1e-12, NoChange: 4},
	// Tol·n whole or half: losses of exact data meet the threshold.
	{Tol: 1, NoChange: 2},
	{Tol: 0.5, NoChange: 1},
	{Tol: 0.25, NoChange: 1},
}

// TestStopMatchesNaive checks every classifier's run with and without
// Stop against the naive reference, on seeded random sets of two classes
// and more, dense and sparse, exact and not, with the settings varied.
// Perceptron's Stats and weights are the reference's: the losses to the
// bit on exact data, and within the bound of the reference otherwise; the
// weights to the bit always. Pocket, Averaged and Voted stop as
// Perceptron does, with the same Stats, and on exact data Averaged's
// weights are the naive sums of the weights after each visit that counts,
// those of the epochs run when stopped and of Epochs when converged,
// divided by their number; Voted's votes are the naive votes of those
// visits; the pockets are the naive pockets. Kernel with the linear
// kernel on exact data stops as Perceptron does, and scores as it and as
// Voted, and predicts as Averaged, under each rule.
func TestStopMatchesNaive(t *testing.T) {
	trials := 400
	if testing.Short() || raceEnabled {
		trials = 80
	}
	rnd := rand.New(rand.NewPCG(0x5709, 1))
	ambiguous, stopped := 0, 0
	for k := range trials {
		tr := esRandomTrial(rnd, esStops)
		name := fmt.Sprintf("trial %d (%d×%d, %d classes, exact %t, sparse %t, %+v, stop %+v)",
			k, len(tr.data.rows), len(tr.data.rows[0]), len(tr.data.classes), tr.data.exact, tr.sparse, tr.set, tr.set.stop)
		ref := esNaive(esInput{train: tr.data, test: pavRows(tr.test), set: tr.set, rnd: tr.set.rand()})
		if ref.ambiguous {
			ambiguous++
			continue
		}
		X := tr.data.matrix(tr.sparse)
		models := map[string]Scorer{}
		for _, kind := range []string{"Perceptron", "Pocket", "Pocket/ratchet", "Averaged", "Voted", "Kernel"} {
			if kind == "Kernel" && (!tr.data.exact || tr.set.w0 != nil) {
				continue
			}
			m := tr.set.make(kind, nil, nil)
			if err := m.Fit(X, tr.data.y); err != nil {
				t.Fatalf("%s: %s: %v", name, kind, err)
			}
			models[kind] = m
		}
		p := models["Perceptron"].(*Perceptron)
		st := p.Stats()
		var bounds []float64
		if !tr.data.exact {
			bounds = ref.lossBound
		}
		if diff := esSameStats(st, ref.Stats, bounds); diff != "" {
			t.Fatalf("%s: Perceptron's %s", name, diff)
		}
		if st.EpochAccuracy != nil {
			t.Fatalf("%s: EpochAccuracy %v without Validation", name, st.EpochAccuracy)
		}
		if w, b := p.Weights(); !sameBits(w, ref.w) || !sameBits(b, ref.b) {
			t.Fatalf("%s: Perceptron's weights %v, %v, the naive run's %v, %v", name, w, b, ref.w, ref.b)
		}
		epochs, _, _, _ := tr.set.resolved()
		if !st.Converged && st.Epochs < epochs {
			stopped++
		}
		for kind, m := range models {
			if kind == "Perceptron" {
				continue
			}
			if diff := esSameStats(statsOf(m), st, nil); diff != "" {
				t.Fatalf("%s: %s's %s (Perceptron's)", name, kind, diff)
			}
		}
		if !tr.data.exact {
			continue
		}
		a, v := models["Averaged"].(*Averaged), models["Voted"].(*Voted)
		aw, ab := a.Weights()
		if a.work().visits != ref.visits || !sameBits(aw, divided(slices.Clone(ref.sumW), float64(ref.visits))) || !sameBits(ab, divided(slices.Clone(ref.sumB), float64(ref.visits))) {
			t.Fatalf("%s: Averaged's average of %d visits %v, %v; the naive average of %d visits %v / %v, %v / %v",
				name, a.work().visits, aw, ab, ref.visits, ref.sumW, ref.visits, ref.sumB, ref.visits)
		}
		if got, want := v.ScoreRows(nil, tr.test), slices.Concat(ref.votes...); !sameBits(got, want) {
			t.Fatalf("%s: Voted's votes %v, the naive votes of %d visits %v", name, got, ref.visits, want)
		}
		for kind, pk := range map[string][2][]float64{"Pocket": ref.pocket, "Pocket/ratchet": ref.ratchet} {
			if w, b := models[kind].(*Pocket).Weights(); !sameBits(w, pk[0]) || !sameBits(b, pk[1]) {
				t.Fatalf("%s: %s's pocket %v, %v, the naive pocket %v, %v", name, kind, w, b, pk[0], pk[1])
			}
		}
		kn, ok := models["Kernel"].(*Kernel)
		if !ok {
			continue
		}
		for _, c := range []struct {
			rule  Prediction
			want  Scorer
			score bool // compare the scores, else the classes
		}{{PredictLast, p, true}, {PredictVoted, v, true}, {PredictAveraged, a, false}} {
			kn.Prediction = c.rule
			if c.score {
				if got, want := kn.ScoreRows(nil, tr.test), c.want.ScoreRows(nil, tr.test); !sameBits(got, want) {
					t.Fatalf("%s: Kernel of rule %d scores %v, %T %v", name, c.rule, got, c.want, want)
				}
			} else if got, want := kn.PredictRows(nil, tr.test), c.want.PredictRows(nil, tr.test); !sameBits(got, want) {
				t.Fatalf("%s: Kernel of rule %d predicts %v, %T %v", name, c.rule, got, c.want, want)
			}
		}
	}
	// The test means something only if most trials were decided, and
	// many stopped early.
	t.Logf("%d trials, %d ambiguous, %d stopped early", trials, ambiguous, stopped)
	if ambiguous > trials/10 || stopped < trials/4 {
		t.Errorf("%d of %d trials ambiguous, %d stopped early", ambiguous, trials, stopped)
	}
}

// esSplit returns the rows that Fit with the settings, whose Stop has
// Validation, trains on and those it holds out, each in index order, and a
// function that returns the Rand of the settings in the state in which Fit
// trains after the draw, or nil. It draws by holdOut on a data set of the
// classes of the rows, whose one column is each row's index: the draw
// takes the rows of each class, whatever their values.
func esSplit(t *testing.T, data *esData, set esSettings) (train, val []int, after func() *rand.Rand) {
	t.Helper()
	n := len(data.rows)
	tags := mat.NewDense(n, 1, nil)
	for i := range n {
		tags.Set(i, 0, float64(i))
	}
	ds, err := newDataset(tags, data.y, data.classes)
	if err != nil {
		t.Fatal(err)
	}
	draw := func() (tr, va *dataset, rnd *rand.Rand) {
		rnd = set.rand()
		tr, va, err := holdOut(ds, set.stop.Validation, rnd)
		if err != nil {
			t.Fatalf("holdOut: %v", err)
		}
		return tr, va, rnd
	}
	tr, va, _ := draw()
	for i := range tr.n {
		train = append(train, int(tr.row(i).val[0]))
	}
	for i := range va.n {
		val = append(val, int(va.row(i).val[0]))
	}
	return train, val, func() *rand.Rand {
		_, _, rnd := draw()
		return rnd
	}
}

// esHeld returns the number of rows of each class that Validation v holds
// out, as Stop documents it: round(v·count), half away from zero.
// esCount returns the number of rows of class c.
func esCount(data *esData, c int) int {
	m := 0
	for _, k := range data.cls {
		if k == c {
			m++
		}
	}
	return m
}

func esHeld(data *esData, v float64) []int {
	count := make([]int, len(data.classes))
	for _, c := range data.cls {
		count[c]++
	}
	held := make([]int, len(count))
	for c, m := range count {
		held[c] = int(math.Round(v * float64(m)))
	}
	return held
}

// TestStopHoldOut checks the rows that Validation holds out, on random
// sets of two classes and more, dense and sparse: round(v·count) rows of
// each class, the rest trained on, both parts in their order with their
// values and labels; the same rows for the same seed of Rand and for a
// nil Rand, whose source has a fixed seed, and other rows for other
// seeds; and that Fit of the same seed, or of no Rand, gives the same
// model. The rows carry their index in a last column, so that equal rows
// tell apart.
func TestStopHoldOut(t *testing.T) {
	rnd := rand.New(rand.NewPCG(0x401d, 2))
	for k := range 200 {
		K := 2 + rnd.IntN(3)
		n, d := 2*K+rnd.IntN(40), 1+rnd.IntN(4)
		sparse := k%2 == 1
		data := esRandomData(rnd, n, d, K, true, sparse, 0.5)
		tagged := mat.NewDense(n, d+1, nil)
		for i, x := range data.rows {
			tagged.SetRow(i, append(slices.Clone(x), float64(i+1)))
		}
		var X mat.Matrix = tagged
		if sparse {
			X = jtCSR(tagged)
		}
		v := []float64{0.1, 0.2, 0.25, 1.0 / 3, 0.5, 0.75, 0.9}[rnd.IntN(7)]
		ds, err := newDataset(X, data.y, nil)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("trial %d (%d rows of %d classes, Validation %v)", k, n, K, v)
		held := esHeld(data, v)
		sum, emptied := 0, -1
		for c, h := range held {
			sum += h
			if h > 0 && h == esCount(data, c) && emptied < 0 {
				emptied = c
			}
		}
		var splits [][]bool
		for _, seed := range []uint64{0, 0, 1, 1, 2, 3, 4, 5} {
			var r *rand.Rand
			if seed > 0 {
				r = rand.New(rand.NewPCG(seed, 9))
			}
			train, val, err := holdOut(ds, v, r)
			if emptied >= 0 {
				want := fmt.Sprintf("perceptron: Stop.Validation %v holds out all %d rows of class %v, leaving none to train on", v, held[emptied], data.classes[emptied])
				if err == nil || err.Error() != want {
					t.Fatalf("%s: class %d held out whole, and holdOut returns %v", name, emptied, err)
				}
				continue
			}
			if sum == 0 {
				if err == nil || err.Error() != fmt.Sprintf("perceptron: Stop.Validation %v of %d rows holds out none to validate on", v, n) {
					t.Fatalf("%s: no rows held out, and holdOut returns %v", name, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			isHeld := make([]bool, n)
			seen := make([]bool, n)
			got := make([]int, K)
			for part, rows := range []*dataset{train, val} {
				if rows.sparse() != sparse || !slices.Equal(rows.classes, data.classes) {
					t.Fatalf("%s: a part of sparse %t and classes %v", name, rows.sparse(), rows.classes)
				}
				last := -1
				for q := range rows.n {
					x := esDense(rows.row(q), d+1)
					i := int(x[d]) - 1
					if i <= last || seen[i] || !slices.Equal(x[:d], data.rows[i]) || rows.class(q) != data.cls[i] {
						t.Fatalf("%s, seed %d: part %d's row %d is %v of class %d, not the next row of X", name, seed, part, q, x, rows.class(q))
					}
					last, seen[i] = i, true
					if part == 1 {
						isHeld[i] = true
						got[data.cls[i]]++
					}
				}
			}
			if slices.Contains(seen, false) || !slices.Equal(got, held) {
				t.Fatalf("%s, seed %d: %d and %d rows, %v of each class held out, want %v of all %d", name, seed, train.n, val.n, got, held, n)
			}
			splits = append(splits, isHeld)
		}
		if sum == 0 || emptied >= 0 {
			continue
		}
		if !slices.Equal(splits[0], splits[1]) || !slices.Equal(splits[2], splits[3]) {
			t.Fatalf("%s: the same seed, or none, holds out other rows", name)
		}
		// Other seeds draw other rows, unless there are few ways.
		ways := 1.0
		for c, h := range held {
			m := 0
			for _, cc := range data.cls {
				if cc == c {
					m++
				}
			}
			ways *= esChoose(m, h)
		}
		differ := false
		for _, s := range splits[3:] {
			differ = differ || !slices.Equal(s, splits[2])
		}
		if ways > 100 && !differ {
			t.Fatalf("%s: five seeds of %v possible draws hold out the same rows", name, ways)
		}
	}
	// Fit: of a nil Rand twice, and of a seed twice, the same model; the
	// draw and the shuffles both come from Rand.
	data := esRandomData(rand.New(rand.NewPCG(5, 6)), 40, 3, 3, true, false, 0.3)
	for _, kind := range []string{"Perceptron", "Pocket", "Averaged", "Voted", "Kernel"} {
		for _, random := range []bool{false, true} {
			var saved []string
			for range 2 {
				set := esSettings{epochs: 30, seed: 7, random: random, stop: &Stop{Validation: 0.3, NoChange: 3}}
				m := set.make(kind, nil, nil)
				if err := m.Fit(data.X, data.y); err != nil {
					t.Fatal(err)
				}
				b, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				saved = append(saved, string(b))
			}
			if saved[0] != saved[1] {
				t.Errorf("%s, Rand %t: two fits of the same settings give\n%s\n%s", kind, random, saved[0], saved[1])
			}
		}
	}
}

// esDense returns the vec x as a dense row of d columns.
func esDense(x vec, d int) []float64 {
	row := make([]float64, d)
	x.denseTo(row)
	return row
}

// esChoose returns the binomial coefficient of m and h.
func esChoose(m, h int) float64 {
	c := 1.0
	for i := range h {
		c = c * float64(m-i) / float64(i+1)
	}
	return c
}

// esValidationTrial draws a trial whose Stop has Validation: data of
// rows enough for most fractions to leave both parts rows, and settings
// as esRandomTrial's, of at most maxEpochs.
func esValidationTrial(rnd *rand.Rand, exact bool, maxEpochs int) esTrial {
	K := 2 + rnd.IntN(2)
	n, d := 3*K+rnd.IntN(30), 1+rnd.IntN(4)
	sparse := rnd.IntN(2) == 0
	data := esRandomData(rnd, n, d, K, exact, sparse, []float64{0, 0.1, 0.3}[rnd.IntN(3)])
	test := esRandomData(rnd, 6, d, K, exact, false, 0).X
	set := esSettings{epochs: 1 + rnd.IntN(maxEpochs), seed: rnd.Uint64(), random: rnd.IntN(2) == 0, noBias: rnd.IntN(3) == 0}
	if exact {
		set.rate = []float64{0, 1, 0.5, 2}[rnd.IntN(4)]
	} else {
		set.rate = []float64{0, 0.01 + 2*rnd.Float64()}[rnd.IntN(2)]
	}
	if rnd.IntN(3) == 0 {
		S := K
		if K == 2 {
			S = 1
		}
		set.w0 = make([]float64, d*S)
		for j := range set.w0 {
			set.w0[j] = float64(rnd.IntN(5) - 2)
		}
	}
	set.stop = &Stop{
		Tol:        []float64{0, 0.01, 0.1, 0.25, 1.0 / 3}[rnd.IntN(5)],
		NoChange:   rnd.IntN(4),
		Validation: []float64{0.2, 0.25, 1.0 / 3, 0.5}[rnd.IntN(4)],
	}
	return esTrial{data: data, sparse: sparse, test: test, set: set}
}

// esSplits reports whether Validation leaves both parts of the data rows.
func esSplits(data *esData, v float64) bool {
	sum := 0
	for c, h := range esHeld(data, v) {
		if h > 0 && h == esCount(data, c) {
			return false
		}
		sum += h
	}
	return sum > 0
}

// TestStopValidationMatchesNaive checks the runs with Validation against
// the naive reference on exact data, trained on the rows that Fit holds
// out none of, in the same order, and measuring after each epoch the
// accuracy on the held-out rows of the classifier's own rule: the last
// weights of Perceptron; the average so far of Averaged; the vote so far
// of Voted; the pocket of the candidates so far, exact or Gallant's, of
// Pocket. The Stats, EpochAccuracy among them, are the reference's to the
// bit, the run stopping by the rule of the accuracy, and so are the
// models: Perceptron's weights, the average and the votes of the visits
// of the epochs run, and the pockets.
func TestStopValidationMatchesNaive(t *testing.T) {
	trials := 200
	if testing.Short() || raceEnabled {
		trials = 50
	}
	for _, c := range []struct{ kind, measure string }{
		{"Perceptron", "last"}, {"Averaged", "averaged"}, {"Voted", "voted"}, {"Pocket", "pocket"}, {"Pocket/ratchet", "ratchet"},
	} {
		t.Run(c.kind, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(0x7a1d, 3))
			for k := range trials {
				tr := esValidationTrial(rnd, true, 40)
				if !esSplits(tr.data, tr.set.stop.Validation) {
					continue
				}
				name := fmt.Sprintf("trial %d (%d rows of %d classes, sparse %t, %+v, stop %+v)",
					k, len(tr.data.rows), len(tr.data.classes), tr.sparse, tr.set, *tr.set.stop)
				train, val, after := esSplit(t, tr.data, tr.set)
				ref := esNaive(esInput{train: tr.data.subset(train), val: tr.data.subset(val), test: pavRows(tr.test), set: tr.set, rnd: after(), measure: c.measure})
				m := tr.set.make(c.kind, nil, nil)
				if err := m.Fit(tr.data.matrix(tr.sparse), tr.data.y); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if diff := esSameStats(statsOf(m), ref.Stats, nil); diff != "" {
					t.Fatalf("%s: %s", name, diff)
				}
				var w, b, want []float64
				switch m := m.(type) {
				case *Perceptron:
					w, b = m.Weights()
					want = slices.Concat(ref.w, ref.b)
				case *Averaged:
					w, b = m.Weights()
					want = slices.Concat(divided(ref.sumW, float64(ref.visits)), divided(ref.sumB, float64(ref.visits)))
				case *Voted:
					w = m.ScoreRows(nil, tr.test)
					want = slices.Concat(ref.votes...)
				case *Pocket:
					w, b = m.Weights()
					want = slices.Concat(ref.pocket[0], ref.pocket[1])
					if m.Ratchet {
						want = slices.Concat(ref.ratchet[0], ref.ratchet[1])
					}
				}
				if got := slices.Concat(w, b); !sameBits(got, want) {
					t.Fatalf("%s: the model %v, the naive one %v", name, got, want)
				}
			}
		})
	}
}

// esAccuracy returns the fraction of the rows of data that m classifies
// right.
func esAccuracy(m Scorer, data *esData, sparse bool) float64 {
	right := 0
	for i, c := range m.PredictRows(nil, data.matrix(sparse)) {
		if c == data.y[i] {
			right++
		}
	}
	return float64(right) / float64(len(data.rows))
}

// esCheckAccuracyRule returns a description of how the run of the Stats
// with Validation breaks scikit-learn's rule, or "": each epoch improves
// if its accuracy is at least the greatest before it plus Tol, and the run
// ends at the first epoch without a mistake, or once NoChange epochs in a
// row have not improved, or at Epochs.
func esCheckAccuracyRule(st Stats, set esSettings) string {
	epochs, _, tol, noChange := set.resolved()
	if len(st.EpochAccuracy) != st.Epochs || len(st.EpochLoss) != st.Epochs || len(st.EpochMistakes) != st.Epochs {
		return fmt.Sprintf("%d epochs of %d accuracies, %d losses and %d mistake counts", st.Epochs, len(st.EpochAccuracy), len(st.EpochLoss), len(st.EpochMistakes))
	}
	best, still := math.Inf(-1), 0
	for e := 1; e <= st.Epochs; e++ {
		acc := st.EpochAccuracy[e-1]
		if acc >= best+tol {
			still = 0
		} else {
			still++
		}
		best = max(best, acc)
		converged := st.EpochMistakes[e-1] == 0
		if ends := converged || still >= noChange || e == epochs; ends != (e == st.Epochs) {
			return fmt.Sprintf("epoch %d of accuracy %v after the best %v, %d epochs without improvement: the rule ends the run %t, the run ends %t",
				e, acc, best, still, ends, e == st.Epochs)
		}
		if e == st.Epochs && converged != st.Converged {
			return fmt.Sprintf("converged %t, but the last epoch made %d mistakes", st.Converged, st.EpochMistakes[e-1])
		}
	}
	return ""
}

// esModel returns the saved model of m, its member "model" alone.
func esModel(t *testing.T, m Scorer) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var e struct{ Model json.RawMessage }
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return string(e.Model)
}

// esKinds are the classifiers of TestStopValidationEpochAccuracy: the
// linear ones, and Kernel of every kernel and rule, with and without a
// Budget.
func esKinds() (names []string, kernels []*Kernel) {
	for _, kind := range []string{"Perceptron", "Pocket", "Pocket/ratchet", "Averaged", "Voted"} {
		names, kernels = append(names, kind), append(kernels, nil)
	}
	for _, f := range []KernelFunc{nil, Poly{Degree: 2, Coef0: 1}, RBF{}} {
		for _, rule := range jtRules {
			for _, budget := range []int{0, 3} {
				names = append(names, fmt.Sprintf("Kernel/%T/%d/%d", f, rule, budget))
				kernels = append(kernels, &Kernel{Func: f, Prediction: rule, Budget: budget})
			}
		}
	}
	return names, kernels
}

// TestStopValidationEpochAccuracy checks EpochAccuracy of every
// classifier with Validation, on exact data and not, against an
// independent computation: for each epoch e of the run, a copy of the
// classifier with Epochs e and no Stop, fitted on the rows trained on with
// a Rand in the state after the draw, classifies the held-out rows with
// the accuracy of epoch e, and the copy of the epochs run has the run's
// Stats but EpochAccuracy, to the bit. The run stops by the rule of the
// accuracy. Its model is that of the copy of the epochs run, or of Epochs
// if it converged, as the averaged and voted rules count the epochs after
// convergence but not those after a stop; so, unless it converged, the
// last accuracy is that of the fitted classifier.
func TestStopValidationEpochAccuracy(t *testing.T) {
	trials := 6
	if testing.Short() || raceEnabled {
		trials = 2
	}
	names, kernels := esKinds()
	runs, stopped := 0, 0
	for k, kind := range names {
		kernel := kernels[k]
		base := kind
		if kernel != nil {
			base = "Kernel"
		}
		t.Run(kind, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(0xacc, uint64(k)))
			for trial := range trials {
				if ran, early := esCheckEpochAccuracy(t, rnd, trial, base, kernel); ran {
					runs++
					if early {
						stopped++
					}
				}
			}
		})
	}
	if stopped < runs/2 {
		t.Errorf("%d runs of %d stopped early", stopped, runs)
	}
}

// esCheckEpochAccuracy is a trial of TestStopValidationEpochAccuracy, on
// exact data in even trials, of the classifier base, of kernel if it is a
// Kernel. It reports whether the trial ran, the split leaving both parts
// rows, and whether the run stopped early.
func esCheckEpochAccuracy(t *testing.T, rnd *rand.Rand, trial int, base string, kernel *Kernel) (ran, early bool) {
	tr := esValidationTrial(rnd, trial%2 == 0, 25)
	if base == "Kernel" {
		tr.set.w0 = nil
	}
	if !esSplits(tr.data, tr.set.stop.Validation) {
		return false, false
	}
	name := fmt.Sprintf("trial %d (%d rows of %d classes, exact %t, sparse %t, %+v, stop %+v)",
		trial, len(tr.data.rows), len(tr.data.classes), tr.data.exact, tr.sparse, tr.set, *tr.set.stop)
	m := tr.set.make(base, nil, kernel)
	if err := m.Fit(tr.data.matrix(tr.sparse), tr.data.y); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	st := statsOf(m)
	if diff := esCheckAccuracyRule(st, tr.set); diff != "" {
		t.Fatalf("%s: %s\n%+v", name, diff, st)
	}
	trainIdx, valIdx, after := esSplit(t, tr.data, tr.set)
	train, val := tr.data.subset(trainIdx), tr.data.subset(valIdx)
	copyOf := func(epochs int) Scorer {
		set := tr.set
		set.epochs, set.stop = epochs, nil
		c := set.make(base, tr.data.classes, kernel)
		jtSetRand(c, after())
		if err := c.Fit(train.matrix(tr.sparse), train.y); err != nil {
			t.Fatalf("%s: the copy of %d epochs: %v", name, epochs, err)
		}
		return c
	}
	for e := 1; e <= st.Epochs; e++ {
		c := copyOf(e)
		if acc := esAccuracy(c, val, tr.sparse); math.Float64bits(acc) != math.Float64bits(st.EpochAccuracy[e-1]) {
			t.Fatalf("%s: epoch %d has the accuracy %v, its copy %v\n%+v", name, e, st.EpochAccuracy[e-1], acc, st)
		}
		if e < st.Epochs {
			continue
		}
		want := st
		want.EpochAccuracy = nil
		if diff := esSameStats(statsOf(c), want, nil); diff != "" {
			t.Fatalf("%s: the copy of the %d epochs run has the %s", name, e, diff)
		}
	}
	full := st.Epochs
	if st.Converged {
		full = tr.set.epochs
	}
	if got, want := esModel(t, m), esModel(t, copyOf(full)); got != want {
		t.Fatalf("%s: the model\n%s\nthe copy of %d epochs's\n%s", name, got, full, want)
	}
	if acc := esAccuracy(m, val, tr.sparse); !st.Converged && acc != st.EpochAccuracy[st.Epochs-1] {
		t.Fatalf("%s: the fitted classifier's accuracy %v, the last epoch's %v\n%+v", name, acc, st.EpochAccuracy[st.Epochs-1], st)
	}
	return true, !st.Converged && st.Epochs < tr.set.epochs
}

// esTwoRows is the set of the hand traces of Stop, through the origin: x
// = 1 of label +1 and x = 2 of label -1, which no line through the origin
// separates. From w = 0 at rate 1, score w·x, an update w += y·x on y·s
// <= 0, and the loss max(0, -y·s):
//
//	epoch 1: x=1 s=0 mistake loss 0 w=1;  x=2 s=2 mistake loss 2 w=-1
//	epoch 2: x=1 s=-1 mistake loss 1 w=0; x=2 s=0 mistake loss 0 w=-2
//	epoch 3: x=1 s=-2 mistake loss 2 w=-1; x=2 s=-2 right
//
// and epoch 4 is epoch 2 again: from then on each even epoch makes 2
// mistakes of loss 1 and ends at w = -2, and each odd one 1 mistake of
// loss 2 and ends at w = -1. The losses are 2, 1, 2, 1, ...; the mistakes
// 2, 2, 1, 2, 1, ....
func esTwoRows() (*mat.Dense, []float64) {
	return mat.NewDense(2, 1, []float64{1, 2}), []float64{1, -1}
}

// esTwoRowsStats returns the Stats of the first E epochs of the trace of
// esTwoRows, and its weight after them.
func esTwoRowsStats(E int) (Stats, float64) {
	st := Stats{Epochs: E}
	w := -2.0
	for e := 1; e <= E; e++ {
		m, l := 2, 1.0
		if e == 1 {
			l = 2
		} else if e%2 == 1 {
			m, l = 1, 2
		}
		st.Mistakes += m
		st.EpochMistakes = append(st.EpochMistakes, m)
		st.EpochLoss = append(st.EpochLoss, l)
	}
	if E%2 == 1 {
		w = -1
	}
	return st, w
}

// TestStopScikitLearnTrace checks the rule of scikit-learn's Perceptron
// and SGDClassifier (tol, n_iter_no_change: an epoch improves if its
// loss is at most the best loss less tol times the training rows, and
// training stops after n_iter_no_change epochs in a row that do not) on
// the trace of esTwoRows, two rows. With the defaults, Tol·n = 0.002:
// epoch 1, of loss 2, improves on +Inf; epoch 2, of loss 1 <= 2 - 0.002,
// improves; the losses 2, 1, 2, ... that follow are none <= 1 - 0.002, so
// epochs 3 to 7 are the five epochs without improvement, and the run
// stops at epoch 7, NoChange epochs after its best. A Tol of 0.5 makes
// the threshold of epoch 2 exactly 2 - 0.5·2 = 1, which its loss meets,
// an improvement; a Tol just above it, or 1, makes epoch 2 none, and the
// run stops at 1+5 = 6. NoChange 1 stops at epoch 3, 2 at 4; Epochs ends
// a run first. Every classifier stops there, the one rule over the one
// run; their models count the visits of the epochs run.
func TestStopScikitLearnTrace(t *testing.T) {
	X, y := esTwoRows()
	for _, c := range []struct {
		stop   *Stop
		epochs int
		want   int // the epochs run
	}{
		{&Stop{}, 0, 7},
		{&Stop{Tol: 1e-3, NoChange: 5}, 0, 7},
		{&Stop{Tol: 0.5}, 0, 7},
		{&Stop{Tol: 0.25}, 0, 7},
		{&Stop{Tol: math.Nextafter(0.5, 1)}, 0, 6},
		{&Stop{Tol: 1}, 0, 6},
		{&Stop{NoChange: 1}, 0, 3},
		{&Stop{NoChange: 2}, 0, 4},
		{&Stop{NoChange: 2, Tol: 1}, 0, 3},
		{&Stop{}, 4, 4},
		{&Stop{NoChange: 100}, 9, 9},
		{nil, 10, 10},
	} {
		name := fmt.Sprintf("Stop %+v, Epochs %d", c.stop, c.epochs)
		want, w := esTwoRowsStats(c.want)
		set := esSettings{epochs: c.epochs, noBias: true, stop: c.stop}
		for _, kind := range []string{"Perceptron", "Pocket", "Pocket/ratchet", "Averaged", "Voted", "Kernel"} {
			m := set.make(kind, nil, nil)
			if err := m.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			if diff := esSameStats(statsOf(m), want, nil); diff != "" {
				t.Errorf("%s, %s: %s", name, kind, diff)
			}
		}
		p := set.make("Perceptron", nil, nil).(*Perceptron)
		p.Fit(X, y)
		if pw, _ := p.Weights(); !slices.Equal(pw, []float64{w}) {
			t.Errorf("%s: Perceptron's weights %v, want %v", name, pw, w)
		}
	}

	// The models of the run of 7 epochs, 14 visits. The weights after the
	// visits are 1, -1, 0, -2, then -1, -1, 0, -2 twice, and -1, -1: their
	// sum is -12, and their votes at x = 1 are + - + - - - + - - - + - - -,
	// -6 (0 votes +1), and at x = -1 all + but the first, 12. Averaged and
	// Kernel's averaged rule divide the sum by the 14 visits, not by the
	// 2000 of Epochs.
	set := esSettings{noBias: true, stop: &Stop{}}
	T := mat.NewDense(2, 1, []float64{1, -1})
	a := set.make("Averaged", nil, nil).(*Averaged)
	v := set.make("Voted", nil, nil).(*Voted)
	k := set.make("Kernel", nil, nil).(*Kernel)
	for _, m := range []Scorer{a, v, k} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
	}
	if aw, _ := a.Weights(); !slices.Equal(aw, []float64{-12.0 / 14}) {
		t.Errorf("Averaged's weights %v, want -12/14", aw)
	}
	for _, c := range []struct {
		m    Scorer
		rule Prediction
		want []float64
	}{
		{v, 0, []float64{-6, 12}},
		{k, PredictVoted, []float64{-6, 12}},
		{k, PredictAveraged, []float64{-12.0 / 14, 12.0 / 14}},
		{k, PredictLast, []float64{-1, 1}},
	} {
		if k, ok := c.m.(*Kernel); ok {
			k.Prediction = c.rule
		}
		if got := c.m.ScoreRows(nil, T); !slices.Equal(got, c.want) {
			t.Errorf("%T, rule %d: scores %v, want %v", c.m, c.rule, got, c.want)
		}
	}
}

// TestStopValidationTrace checks EpochAccuracy by hand, on x = -1 and
// x = 1 of labels +1 and -1, twice each: Validation 0.5 holds out one
// row of each class, so that the rows trained on and those held out are
// the same two, whichever are drawn. From (w, b) = (0, 0), x = -1 scores
// 0, a mistake, to (-1, 1); x = 1 scores 0, a mistake, to (-2, 0), which
// classifies both right: epoch 2 makes no mistake. After epoch 1:
//   - Perceptron's (-2, 0) classifies both right: 1.
//   - Averaged's sums (-3, 1) score x = -1 4 and x = 1 -2: 1.
//   - Voted's voters (-1, 1) and (-2, 0) vote at x = -1 +1 +1, and at
//     x = 1 +1 -1 = 0, which goes to the second class, +1, wrong: 0.5.
//   - the exact pocket is (-2, 0), of no error where (0, 0) and (-1, 1)
//     make one: 1. Gallant's ratchet has met no run longer than none, and
//     keeps (0, 0), which classifies both +1: 0.5.
//
// After epoch 2 the vote at x = 1 is 0 - 1 - 1 = -2: 1; Gallant's pocket
// is (-2, 0), whose run of right visits was longer than none at visit 3:
// 1; and the others are still 1. Kernel with the linear kernel has each
// rule's accuracies. All converge at epoch 2.
func TestStopValidationTrace(t *testing.T) {
	X, y := mat.NewDense(4, 1, []float64{-1, -1, 1, 1}), []float64{1, 1, -1, -1}
	set := esSettings{stop: &Stop{Validation: 0.5}}
	for _, c := range []struct {
		kind   string
		kernel *Kernel
		want   []float64
	}{
		{"Perceptron", nil, []float64{1, 1}},
		{"Averaged", nil, []float64{1, 1}},
		{"Voted", nil, []float64{0.5, 1}},
		{"Pocket", nil, []float64{1, 1}},
		{"Pocket/ratchet", nil, []float64{0.5, 1}},
		{"Kernel", &Kernel{Prediction: PredictLast}, []float64{1, 1}},
		{"Kernel", &Kernel{Prediction: PredictAveraged}, []float64{1, 1}},
		{"Kernel", &Kernel{Prediction: PredictVoted}, []float64{0.5, 1}},
	} {
		m := set.make(c.kind, nil, c.kernel)
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		want := Stats{Epochs: 2, Converged: true, Mistakes: 2, EpochMistakes: []int{2, 0}, EpochLoss: []float64{0, 0}, EpochAccuracy: c.want}
		if diff := esSameStats(statsOf(m), want, nil); diff != "" {
			t.Errorf("%s %+v: %s", c.kind, c.kernel, diff)
		}
	}
}

// TestStopValidationUpdateRow checks Update.Row with Validation: it is
// the index in X of the row of the mistake, as Update documents, so that
// the update on row Row of X, of its label y, is y·x, and y on the bias,
// on rows of distinct values.
func TestStopValidationUpdateRow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(0x0b, 7))
	for trial := range 20 {
		n, d := 12+rnd.IntN(20), 2
		X := mat.NewDense(n, d, nil)
		y := make([]float64, n)
		for i := range n {
			X.Set(i, 0, float64(i+1))
			X.Set(i, 1, float64(rnd.IntN(7)-3))
			y[i] = float64(2*(i%2) - 1)
		}
		for _, validation := range []float64{0, 0.25} {
			for _, kind := range []string{"Perceptron", "Pocket", "Averaged", "Voted"} {
				set := esSettings{epochs: 5, seed: uint64(trial), random: trial%2 == 1}
				if validation > 0 {
					set.stop = &Stop{Validation: validation}
				}
				m := set.make(kind, nil, nil)
				prevW, prevB := make([]float64, d), []float64{0}
				var bad []string
				reflect.ValueOf(m).Elem().FieldByName("OnUpdate").Set(reflect.ValueOf(func(u Update) {
					x, yi := X.RawRowView(u.Row), y[u.Row]
					if u.Weights[0]-prevW[0] != yi*x[0] || u.Weights[1]-prevW[1] != yi*x[1] || u.Biases[0]-prevB[0] != yi {
						bad = append(bad, fmt.Sprintf("epoch %d: row %d, %v of label %v, moves the weights from %v, %v to %v, %v",
							u.Epoch, u.Row, x, yi, prevW, prevB, u.Weights, u.Biases))
					}
					copy(prevW, u.Weights)
					copy(prevB, u.Biases)
				}))
				if err := m.Fit(X, y); err != nil {
					t.Fatal(err)
				}
				if len(bad) > 0 {
					t.Fatalf("trial %d, %s, Validation %v: %d updates of %d are not on their row of X, as %s", trial, kind, validation, len(bad), statsOf(m).Mistakes, bad[0])
				}
			}
		}
	}
}

// TestStopErrors checks the errors of Stop's settings in Fit of every
// classifier, OneVsRest's members too: Tol negative or not finite,
// NoChange negative, Validation outside [0, 1), and a Validation that
// leaves a class no rows to train on or holds out none; a failed Fit leaves
// a fitted classifier as it was. A Tol of -0 is 0, the default.
func TestStopErrors(t *testing.T) {
	X, y := esTwoRows()
	for _, c := range []struct {
		stop Stop
		want string
	}{
		{Stop{Tol: -1}, "perceptron: Stop.Tol is -1, want a finite value >= 0"},
		{Stop{Tol: -1e-300}, "perceptron: Stop.Tol is -1e-300, want a finite value >= 0"},
		{Stop{Tol: math.NaN()}, "perceptron: Stop.Tol is NaN, want a finite value >= 0"},
		{Stop{Tol: math.Inf(1)}, "perceptron: Stop.Tol is +Inf, want a finite value >= 0"},
		{Stop{Tol: math.Inf(-1)}, "perceptron: Stop.Tol is -Inf, want a finite value >= 0"},
		{Stop{NoChange: -1}, "perceptron: Stop.NoChange is -1, want >= 0"},
		{Stop{Validation: -0.1}, "perceptron: Stop.Validation is -0.1, want a fraction in [0, 1)"},
		{Stop{Validation: 1}, "perceptron: Stop.Validation is 1, want a fraction in [0, 1)"},
		{Stop{Validation: 1.5}, "perceptron: Stop.Validation is 1.5, want a fraction in [0, 1)"},
		{Stop{Validation: math.NaN()}, "perceptron: Stop.Validation is NaN, want a fraction in [0, 1)"},
		{Stop{Validation: math.Inf(1)}, "perceptron: Stop.Validation is +Inf, want a fraction in [0, 1)"},
	} {
		for _, kind := range []string{"Perceptron", "Pocket", "Averaged", "Voted", "Kernel", "OneVsRest"} {
			good := esSettings{noBias: true, stop: &Stop{}}
			var m Scorer
			if kind == "OneVsRest" {
				stop := good.stop
				m = &OneVsRest{New: func() Scorer { return &Perceptron{Stop: stop} }}
			} else {
				m = good.make(kind, nil, nil)
			}
			if err := m.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			before, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			*good.stop = c.stop
			if err := m.Fit(X, y); err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%s, Stop %+v: Fit returns %v, want %q", kind, c.stop, err, c.want)
			}
			*good.stop = Stop{}
			if after, err := json.Marshal(m); err != nil || string(after) != string(before) {
				t.Errorf("%s, Stop %+v: the failed Fit changes the classifier to %s (%v)", kind, c.stop, after, err)
			}
		}
	}
	// A Tol of -0 is no error.
	if err := (&Perceptron{Stop: &Stop{Tol: math.Copysign(0, -1)}}).Fit(X, y); err != nil {
		t.Errorf("Tol -0: %v", err)
	}
	// round(v·count) of each class: of one row a class, 0.5 holds out
	// both, and no row is left to train on; of four, 0.1 holds out none,
	// round(0.4), and 0.9 all, round(3.6); of three 0.5 holds out two of
	// each, round(1.5), and leaves one.
	one := mat.NewDense(2, 1, []float64{1, 2})
	four := mat.NewDense(8, 1, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	three := mat.NewDense(6, 1, []float64{1, 2, 3, 4, 5, 6})
	for _, c := range []struct {
		X    *mat.Dense
		y    []float64
		v    float64
		want string
	}{
		{one, []float64{1, -1}, 0.5, "perceptron: Stop.Validation 0.5 holds out all 1 rows of class -1, leaving none to train on"},
		{four, []float64{1, -1, 1, -1, 1, -1, 1, -1}, 0.1, "perceptron: Stop.Validation 0.1 of 8 rows holds out none to validate on"},
		{four, []float64{1, -1, 1, -1, 1, -1, 1, -1}, 0.9, "perceptron: Stop.Validation 0.9 holds out all 4 rows of class -1, leaving none to train on"},
		{three, []float64{1, 1, 1, -1, 1, 1}, 0.5, "perceptron: Stop.Validation 0.5 holds out all 1 rows of class -1, leaving none to train on"}, // round(0.5) is 1
		{three, []float64{1, -1, 1, -1, 1, -1}, 0.5, ""},
		{four, []float64{1, -1, 1, -1, 1, -1, 1, -1}, 0.125, ""}, // round(0.5) is 1
	} {
		for _, kind := range []string{"Perceptron", "Pocket", "Averaged", "Voted", "Kernel"} {
			m := esSettings{stop: &Stop{Validation: c.v}}.make(kind, nil, nil)
			err := m.Fit(c.X, c.y)
			if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
				t.Errorf("%s, Validation %v of %d rows: %v, want %q", kind, c.v, len(c.y), err, c.want)
			}
		}
	}
}

// esStopSettings are the saved settings of the hand traces of Stop.
const (
	esLinearStop = `{"epochs":0,"rate":0,"noBias":true,"initWeights":null,"labels":null,"stop":{"tol":0,"noChange":0,"validation":0}}`
	esKernelStop = `{"func":null,"prediction":"last","budget":0,"epochs":0,"rate":0,"noBias":true,"labels":null,"stop":{"tol":0,"noChange":0,"validation":0}}`

	// The stats of the 7 epochs of esTwoRows's trace.
	esTwoRowsSaved = `{"epochs":7,"converged":false,"mistakes":11,"epochMistakes":[2,2,1,2,1,2,1],"epochLoss":[2,1,2,1,2,1,2]}`
)

// esJSONTraces returns the hand-traced saved forms of Stop: the run of
// esTwoRows through the origin, stopped at epoch 7 by the zero Stop, the
// defaults, which is saved as given; and the run of the set of
// TestStopValidationTrace's kind with Validation.
//
// In the run of esTwoRows the weights are 1, -1, 0, -2, -1 (epoch 3's
// mistake on x = 1, then x = 2 right), 0, -2, -1, -1, 0, -2, -1, -1 after
// the visits 1 to 14, the mistakes at the visits 1, 2, 3, 4, 5, 7, 8, 9,
// 11, 12 and 13, on the rows 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, with steps
// +1 for row 0 and -1 for row 1.
func esJSONTraces() []jtTrace {
	X, y := esTwoRows()
	fit := func(m Scorer) func() (Scorer, error) {
		return func() (Scorer, error) { return m, m.Fit(X, y) }
	}
	stop := func() *Stop { return &Stop{} }
	return []jtTrace{
		// The last weights, -1.
		{"Perceptron/stop", fit(&Perceptron{NoBias: true, Stop: stop()}), jtSaved("Perceptron", esLinearStop,
			`{"classes":[-1,1],"weights":[-1],"biases":[0],"throughOrigin":true}`, esTwoRowsSaved)},

		// Every candidate misclassifies one of the two rows: the exact
		// pocket is the first, 0. The ratchet's first run longer than
		// none is of the weights -1 made at visit 5, right at visit 6,
		// of one error, fewer than the two of the empty pocket; no run is
		// longer than one after.
		{"Pocket/stop", fit(&Pocket{NoBias: true, Stop: stop()}), jtSaved("Pocket", esLinearStop[:len(esLinearStop)-1]+`,"ratchet":false}`,
			`{"classes":[-1,1],"weights":[0],"biases":[0],"throughOrigin":true}`, esTwoRowsSaved)},
		{"Pocket/ratchet/stop", fit(&Pocket{NoBias: true, Stop: stop(), Ratchet: true}), jtSaved("Pocket", esLinearStop[:len(esLinearStop)-1]+`,"ratchet":true}`,
			`{"classes":[-1,1],"weights":[-1],"biases":[0],"throughOrigin":true}`, esTwoRowsSaved)},

		// The sum of the weights after the 14 visits run, -12, and not
		// after the 2000 of Epochs.
		{"Averaged/stop", fit(&Averaged{NoBias: true, Stop: stop()}), jtSaved("Averaged", esLinearStop,
			`{"classes":[-1,1],"weights":[-1],"biases":[0],"throughOrigin":true,"sumWeights":[-12],"sumBiases":[0],"ahead":0,"visits":14}`, esTwoRowsSaved)},

		// The voters after the mistakes count the visits to the next
		// mistake, the last to visit 14: 1, 1, 1, 1, 2, 1, 1, 2, 1, 1, 2;
		// the first voter, 0, none.
		{"Voted/stop", fit(&Voted{NoBias: true, Stop: stop()}), jtSaved("Voted", esLinearStop,
			`{"classes":[-1,1],"weights":[0],"biases":[0],"throughOrigin":true,"rows":{"rows":2,"cols":1,"sparse":false,"values":"`+jtB64(1, 2)+`"},"steps":[1,-1],"mistakeRows":[0,1,0,1,0,0,1,0,0,1,0],"counts":[0,1,1,1,1,2,1,1,2,1,1,2]}`,
			esTwoRowsSaved)},

		// The coefficients are the steps summed by row, 7·(+1) and
		// 4·(-1), and their sum 3; the visits are the 14 run.
		{"Kernel/stop", fit(&Kernel{NoBias: true, Stop: stop()}), jtSaved("Kernel", esKernelStop,
			`{"classes":[-1,1],"kernel":{"name":"linear","degree":0,"gamma":0,"coef0":0},"features":1,"throughOrigin":true,"supportVectors":{"rows":2,"cols":1,"sparse":false,"values":"`+jtB64(1, 2)+`"},"coefficients":[7,-4],"stepSums":[3],"mistakeVectors":[0,1,0,1,0,0,1,0,0,1,0],"mistakeSteps":[1,-1,1,-1,1,1,-1,1,1,-1,1],"mistakeVisits":[1,2,3,4,5,7,8,9,11,12,13],"visits":14,"removed":0}`,
			esTwoRowsSaved)},

		// Validation 0.5 of x = 1, 1 of label +1 and x = 2, 2 of label
		// -1 holds out one row of each class: the rows trained on are
		// those of esTwoRows, in its order, whichever are drawn. The
		// weights -1 and -2 of the ends of the epochs classify x = 1 as
		// -1 and x = 2 as -1: an accuracy of 0.5 after every epoch. Epoch
		// 1 improves on -Inf, and the five after it do not reach 0.5 +
		// 0.001: the run stops at epoch 6, at w = -2.
		{"Perceptron/validation", func() (Scorer, error) {
			p := &Perceptron{NoBias: true, Stop: &Stop{Validation: 0.5}}
			return p, p.Fit(mat.NewDense(4, 1, []float64{1, 1, 2, 2}), []float64{1, 1, -1, -1})
		}, jtSaved("Perceptron", strings.Replace(esLinearStop, `"validation":0`, `"validation":0.5`, 1),
			`{"classes":[-1,1],"weights":[-2],"biases":[0],"throughOrigin":true}`,
			`{"epochs":6,"converged":false,"mistakes":10,"epochMistakes":[2,2,1,2,1,2],"epochLoss":[2,1,2,1,2,1],"epochAccuracy":[0.5,0.5,0.5,0.5,0.5,0.5]}`)},
	}
}

// TestStopJSONTraces checks that the hand traces of Stop save as traced,
// and load to classifiers that score, save and hold their settings, Stop
// among them, and Stats, EpochLoss and EpochAccuracy among them, as the
// saved ones do.
func TestStopJSONTraces(t *testing.T) {
	for _, tr := range esJSONTraces() {
		t.Run(tr.name, func(t *testing.T) {
			m, err := tr.fit()
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(m)
			if err != nil || string(got) != tr.want {
				t.Fatalf("MarshalJSON gives\n%s (%v)\nwant\n%s", got, err, tr.want)
			}
			jtCheckRoundTrip(t, tr.name, m, jtTraceRows(1))
		})
	}
}

// TestStopJSONRoundTrip saves and loads every kind of classifier of the
// round trips of json_test.go, OneVsRest's members too, fitted with a
// random Stop, with and without Validation, on random sets of two classes
// and more, dense and sparse, and then for the kinds that learn after a
// Learn too: each loads as jtCheckRoundTrip says, with its Stop and its
// Stats.
func TestStopJSONRoundTrip(t *testing.T) {
	trials := 4
	if testing.Short() || raceEnabled {
		trials = 2
	}
	for k, kind := range jtKinds() {
		t.Run(kind.name, func(t *testing.T) {
			for trial := range trials {
				rnd := rand.New(rand.NewPCG(uint64(trial), uint64(1000+k)))
				K := 2 + rnd.IntN(3)
				n, d := 24+rnd.IntN(20), 1+rnd.IntN(5)
				exact, sparse := rnd.IntN(2) == 0, trial%2 == 1
				data := esRandomData(rnd, n, d, K, exact, sparse, 0.2)
				stop := &Stop{Tol: []float64{0, 0.01, 0.5}[rnd.IntN(3)], NoChange: rnd.IntN(4)}
				if trial/2%2 == 0 {
					stop.Validation = []float64{0.2, 0.25, 0.3}[rnd.IntN(3)]
				}
				m := kind.make(rnd, trial, d, data.classes)
				if o, ok := m.(*OneVsRest); ok {
					New := o.New
					o.New = func() Scorer {
						m := New()
						reflect.ValueOf(m).Elem().FieldByName("Stop").Set(reflect.ValueOf(&Stop{Tol: stop.Tol, NoChange: stop.NoChange, Validation: stop.Validation}))
						return m
					}
				} else {
					reflect.ValueOf(m).Elem().FieldByName("Stop").Set(reflect.ValueOf(stop))
				}
				name := fmt.Sprintf("trial %d, Stop %+v", trial, *stop)
				if err := m.Fit(data.matrix(sparse), data.y); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if st, ok := jtStats(m); ok && (st.EpochAccuracy != nil) != (stop.Validation > 0) {
					t.Fatalf("%s: EpochAccuracy %v", name, st.EpochAccuracy)
				}
				T, _ := jtClassData(rnd, 20, d, 2, true)
				jtCheckRoundTrip(t, name, m, T)
				if l, ok := m.(onlineLearner); ok && kind.learn {
					if err := l.Learn(data.matrix(sparse), jtOtherLabels(data.y, data.classes)); err != nil {
						t.Fatalf("%s: Learn: %v", name, err)
					}
					jtCheckRoundTrip(t, name+", learned on", m, T)
				}
			}
		})
	}
}

// TestStopUnmarshalJSONErrors checks that saved Stop settings and the
// Stats of the losses and accuracies that Fit could not have made are
// errors, which change nothing: losses negative or beyond float64,
// accuracies outside [0, 1], numbers as strings, and as many of either as
// there are not epochs; a Tol, NoChange or Validation that Fit refuses,
// and a Stop that is not an object of the three.
func TestStopUnmarshalJSONErrors(t *testing.T) {
	for _, c := range []struct {
		m                Scorer
		good, stop, loss string
	}{
		{&Perceptron{}, jtTraceWantOf(esJSONTraces(), "Perceptron/validation"), `"stop":{"tol":0,"noChange":0,"validation":0.5}`, `"epochLoss":[2,1,2,1,2,1]`},
		{&Kernel{}, jtTraceWantOf(esJSONTraces(), "Kernel/stop"), `"stop":{"tol":0,"noChange":0,"validation":0}`, `"epochLoss":[2,1,2,1,2,1,2]`},
	} {
		typ := reflect.TypeOf(c.m).Elem().Name()
		r := jtEdits(t, c.good)
		settings := "perceptron: saved " + typ + "'s settings: "
		stats := "perceptron: saved " + typ + "'s stats: "
		v := c.stop[strings.LastIndex(c.stop, ":")+1 : len(c.stop)-1]
		cases := []jtCase{
			{r(`"tol":0`, `"tol":-1`), settings + "Stop.Tol is -1, want a finite value >= 0"},
			{r(`"tol":0`, `"tol":-1e-300`), settings + "Stop.Tol is -1e-300"},
			{r(`"tol":0`, `"tol":1e999`), "cannot unmarshal number 1e999"},
			{r(`"tol":0`, `"tol":"NaN"`), "cannot unmarshal string"},
			{r(`"noChange":0`, `"noChange":-3`), settings + "Stop.NoChange is -3, want >= 0"},
			{r(`"noChange":0`, `"noChange":1.5`), "cannot unmarshal number 1.5"},
			{r(`"validation":`+v+`}`, `"validation":-0.25}`), settings + "Stop.Validation is -0.25, want a fraction in [0, 1)"},
			{r(`"validation":`+v+`}`, `"validation":1}`), settings + "Stop.Validation is 1, want a fraction in [0, 1)"},
			{r(`"stop":{`, `"stop":{"bogus":1,`), `unknown field "bogus"`},
			{r(`"stop":{`, `"stop":{"epochs":1,`), `unknown field "epochs"`},
			{r(`"stop":{"tol"`, `"stop":{"Tol"`), `unknown member "Tol"`},
			{r(c.stop, `"stop":1`), "cannot unmarshal number"},
			{r(c.stop, `"stop":[0,0,`+v+`]`), "cannot unmarshal array"},
			{r(`"epochLoss":[2,`, `"epochLoss":[-2,`), stats + "epoch 1 has the loss -2"},
			{r(`"epochLoss":[2,`, `"epochLoss":[-1e-300,`), stats + "epoch 1 has the loss -1e-300"},
			{r(`"epochLoss":[2,`, `"epochLoss":[1.8e308,`), "cannot unmarshal number 1.8e308"},
			{r(`"epochLoss":[2,`, `"epochLoss":["NaN",`), "cannot unmarshal string"},
			{r(`"epochLoss":[2,`, `"epochLoss":[2,2,`), " losses"},
			{r(`"epochLoss":[2,1,`, `"epochLoss":[`), " losses"},
			{r(c.loss, `"epochLoss":[]`), " 0 losses"},
			{r(`"epochLoss":[`, `"epochLossX":[`), `unknown field "epochLossX"`},
		}
		if typ == "Perceptron" {
			cases = append(cases,
				jtCase{r(`"epochLoss":[2,1,2,1,2,1]`, `"epochLoss":[2,1,2,1,2]`), stats + "6 epochs with 5 losses and 6 accuracies"},
				jtCase{r(`"epochAccuracy":[0.5,`, `"epochAccuracy":[1.5,`), stats + "epoch 1 has the accuracy 1.5, want one in [0, 1]"},
				jtCase{r(`"epochAccuracy":[0.5,`, `"epochAccuracy":[-0.5,`), stats + "epoch 1 has the accuracy -0.5, want one in [0, 1]"},
				jtCase{r(`0.5]`, `1.0000000000000002]`), stats + "epoch 6 has the accuracy 1.0000000000000002"},
				jtCase{r(`0.5]`, `"0.5"]`), "cannot unmarshal string"},
				jtCase{r(`"epochAccuracy":[0.5,`, `"epochAccuracy":[`), stats + "6 epochs with 6 losses and 5 accuracies"},
				jtCase{r(`"epochAccuracy":[0.5,0.5,0.5,0.5,0.5,0.5]`, `"epochAccuracy":[]`), stats + "6 epochs with 6 losses and 0 accuracies"},
				jtCase{r(`"epochAccuracy":[0.5,`, `"epochAccuracy":[0.5,0.5,`), stats + "6 epochs with 6 losses and 7 accuracies"},
			)
		} else {
			cases = append(cases,
				jtCase{r(`"epochLoss":[2,1,2,1,2,1,2]`, `"epochLoss":[2,1,2,1,2,1,2,0]`), stats + "7 epochs with 8 losses and 0 accuracies"},
				jtCase{r(`"epochLoss":[2,1,2,1,2,1,2]`, `"epochLoss":[2,1,2,1,2,1,2],"epochAccuracy":[1]`), stats + "7 epochs with 7 losses and 1 accuracies"},
			)
		}
		t.Run(typ, func(t *testing.T) { testUnmarshalJSONErrors(t, c.m, c.good, cases) })
	}
	// What does load, and saves as loaded: the largest float64 as a loss,
	// the accuracies 0 and 1, a Validation of -0, no Stop, and no
	// accuracies, or no losses, as a model that Mix made has.
	g := jtTraceWantOf(esJSONTraces(), "Perceptron/validation")
	r := jtEdits(t, g)
	for _, data := range []string{
		r(`"epochLoss":[2,`, `"epochLoss":[1.7976931348623157e+308,`),
		r(`"epochAccuracy":[0.5,0.5,`, `"epochAccuracy":[0,1,`),
		r(`"validation":0.5`, `"validation":-0`),
		r(`"stop":{"tol":0,"noChange":0,"validation":0.5}`, `"stop":null`),
		r(`,"epochAccuracy":[0.5,0.5,0.5,0.5,0.5,0.5]`, ``),
		r(`"epochLoss":[2,1,2,1,2,1]`, `"epochLoss":null`),
	} {
		m, err := Unmarshal([]byte(data))
		if err != nil {
			t.Errorf("%s: %v", data, err)
			continue
		}
		if again, err := json.Marshal(m); err != nil || string(again) != data {
			t.Errorf("%s loads and saves as %s (%v)", data, again, err)
		}
	}
}

// jtTraceWantOf returns the saved form of the trace of the name.
func jtTraceWantOf(traces []jtTrace, name string) string {
	for _, tr := range traces {
		if tr.name == name {
			return tr.want
		}
	}
	panic("no trace " + name)
}

// TestStopJSONInvalidAfterFit checks that a Stop made invalid after Fit
// cannot be saved, and that one changed to valid values saves them: the
// saved form always loads.
func TestStopJSONInvalidAfterFit(t *testing.T) {
	X, y := esTwoRows()
	for _, kind := range []string{"Perceptron", "Pocket", "Averaged", "Voted", "Kernel"} {
		for _, c := range []struct {
			stop Stop
			want string
		}{
			{Stop{Tol: -1}, "perceptron: MarshalJSON: Stop.Tol is -1, want a finite value >= 0"},
			{Stop{NoChange: -1}, "perceptron: MarshalJSON: Stop.NoChange is -1, want >= 0"},
			{Stop{Validation: 1}, "perceptron: MarshalJSON: Stop.Validation is 1, want a fraction in [0, 1)"},
			{Stop{Tol: 3, NoChange: 2, Validation: 0.75}, ""},
		} {
			m := esSettings{noBias: true, stop: &Stop{}}.make(kind, nil, nil)
			if err := m.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			stop := c.stop
			reflect.ValueOf(m).Elem().FieldByName("Stop").Set(reflect.ValueOf(&stop))
			b, err := json.Marshal(m)
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s, Stop %+v after Fit: saves as %s, %v", kind, c.stop, b, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s, Stop %+v after Fit: %v", kind, c.stop, err)
			}
			jtCheckRoundTrip(t, kind, m, jtTraceRows(1))
		}
	}
}

// TestStopLearnIgnores checks that Learn ignores a valid Stop, even one
// whose Validation would leave no rows to train on, and records no loss:
// it learns as without one.
func TestStopLearnIgnores(t *testing.T) {
	X, y := esTwoRows()
	for _, kind := range []string{"Perceptron", "Averaged", "Voted", "Kernel"} {
		var saved []string
		for _, stop := range []*Stop{nil, {Validation: 0.9, NoChange: 1, Tol: 5}} {
			m := esSettings{stop: stop}.make(kind, []float64{-1, 1}, nil).(onlineLearner)
			for range 3 {
				if err := m.Learn(X, y); err != nil {
					t.Fatalf("%s, Stop %+v: %v", kind, stop, err)
				}
			}
			if st := statsOf(m); st.Epochs != 0 || st.EpochLoss != nil || st.EpochAccuracy != nil {
				t.Errorf("%s, Stop %+v: Learn gives the Stats %+v", kind, stop, st)
			}
			saved = append(saved, esModel(t, m))
		}
		if saved[0] != saved[1] {
			t.Errorf("%s: Learn with a Stop gives\n%s\nwithout\n%s", kind, saved[1], saved[0])
		}
	}
}
