// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Prediction is the rule by which a Kernel predicts from the hypotheses
// of its training run. Freund and Schapire (1999) define the three rules.
type Prediction int

const (
	// PredictLast predicts with the last hypothesis, as Perceptron does.
	PredictLast Prediction = iota

	// PredictVoted predicts with the vote of every hypothesis of the run,
	// each weighted by the number of visits it survived: the score is
	// sum_k c_k·sign(f_k(x)), which is the sum of sign(f_t(x)) over the
	// hypotheses f_t after every visit t of Epochs epochs, as Voted does.
	PredictVoted

	// PredictAveraged predicts with the average hypothesis: the score is
	// the mean of f_t(x) over the hypotheses f_t after every visit t of
	// Epochs epochs, as Averaged does. Its sign is that of the sum before
	// the division, so an exact tie is +1.
	PredictAveraged
)

// String returns the name of the rule: "last", "voted" or "averaged".
func (p Prediction) String() string {
	switch p {
	case PredictLast:
		return "last"
	case PredictVoted:
		return "voted"
	case PredictAveraged:
		return "averaged"
	}
	return fmt.Sprintf("Prediction(%d)", int(p))
}

func (p Prediction) check() error {
	if p < PredictLast || p > PredictAveraged {
		return fmt.Errorf("perceptron: Prediction is %d, want PredictLast, PredictVoted or PredictAveraged", int(p))
	}
	return nil
}

// Kernel is the kernel perceptron (Aizerman, Braverman and Rozonoer, 1964):
// Perceptron run in the feature space of a kernel K, in dual form. Its
// hypothesis is the list of its mistakes: a mistake on row (x_j, y_j), a
// row with y_j·f(x_j) <= 0, adds a_j = Rate·y_j, and with a bias also
// b += Rate·y_j, so that
//
//	f(x) = sum_j a_j·K(x_j, x) + b,
//
// which is Perceptron's update w += Rate·y·x made in the feature space. The
// rows x_j with a mistake are the support vectors; a row that is a mistake
// in several epochs is stored once, with the sum of its a_j. With the
// Linear kernel and exact sums, as on integer data, Kernel makes the
// mistakes Perceptron makes. Training starts from the empty hypothesis:
// Kernel has no InitWeights or InitBias, as a weight vector of the input
// space is not a point of the kernel's feature space.
//
// The zero value is ready to use: it trains with the Linear kernel and a
// bias, at rate 1, visiting the rows in order, for at most DefaultEpochs
// epochs, with no budget, and predicts with the last hypothesis. The
// settings are read by Fit and Learn and are never modified by them;
// Prediction is read by the prediction methods, so that one fit serves
// all three rules.
//
// A visit scores one row against every support vector. Fit visits the
// rows a block at a time and brings each block up to date before its
// visits, with one matrix-vector product of gonum's BLAS per change to
// the hypothesis; GOMAXPROCS-1 goroutines do most of that work for the
// next blocks while the rows of the current one are visited. Every sum is
// split and taken in an order fixed by the data and the settings alone,
// so the result does not depend on the number of goroutines. After the
// first epoch a row is brought up to date only with the changes since its
// last visit, so an epoch costs in proportion to the mistakes of the last
// n visits, not to all the support vectors. Besides the data, Fit uses
// O(n) numbers, a few blocks of rows and the changes of the last epoch;
// the fitted Kernel keeps copies of its U support vectors, U·d numbers,
// and O(1) numbers per mistake, and no reference to X.
type Kernel struct {
	// Func is the kernel. Nil means Linear. Fit checks its parameters and
	// the fitted Kernel keeps its own copy of them.
	Func KernelFunc

	// Prediction is the rule the prediction methods use. The zero value
	// is PredictLast. Predict reads it, so it can be changed between
	// predictions, but not concurrently with them.
	Prediction Prediction

	// Budget, if not zero, is the most mistakes the hypothesis is made of,
	// and so the most support vectors Kernel stores: when the hypothesis
	// holds Budget mistakes, a new mistake first removes one of them,
	// chosen uniformly at random, with its term a_j·K(x_j, x) and its share
	// Rate·y_j of the bias. This is the Randomized Budget Perceptron of
	// Cavallanti, Cesa-Bianchi and Gentile (2007). The draws come from
	// Rand, or if Rand is nil from a source with a fixed seed, so the same
	// settings give the same model. A removal discards a vector that the
	// hypotheses from its mistake to the removal hold, which the stored
	// vectors then no longer represent, so the voted and averaged rules
	// combine only the hypotheses from the last removal on: until the
	// first removal they are the rules of Freund and Schapire, and from
	// then on, as every mistake removes one, they predict as the last
	// hypothesis does. Budget must not be negative.
	Budget int

	// Epochs is the most passes over the data that Fit makes. Zero means
	// DefaultEpochs. Fit stops earlier, at the end of the first epoch with
	// no mistake.
	Epochs int

	// Rate is the learning rate, the size of each update. Zero means 1.
	// Training starts from the empty hypothesis, so the rate only scales
	// every a_j and b: exactly if it is a power of two, short of underflow,
	// and then changing no prediction. Another rate rounds, and can change
	// the mistakes of the run.
	Rate float64

	// Rand, if not nil, shuffles the order in which Fit visits the rows,
	// afresh at the start of every epoch, and draws the mistakes that a
	// Budget removes. If nil, Fit visits the rows in the order given. The
	// same seed gives the same model.
	Rand *rand.Rand

	// NoBias trains without a bias: b stays zero. A polynomial kernel
	// with Coef0 > 0 has a constant feature of its own.
	NoBias bool

	// OnUpdate, if not nil, is called after every update with the epoch,
	// the row that was a mistake, and the number of support vectors and
	// the bias of the new hypothesis. The dual form has no weight vector
	// to report.
	OnUpdate func(Update)

	m     *kmodel
	stats Stats
}

// Fit trains the kernel perceptron on the rows of X with labels y,
// starting from the empty hypothesis. It stops at the end of the first
// epoch with no mistake, or after Epochs epochs.
//
// Fit returns an error if X has no rows, if len(y) is not the number of
// rows, if a label is not -1 or +1, if X holds NaN or an infinity, or if a
// setting or a kernel parameter is not valid; it checks X before any
// visit. It also returns an error if a row's score, a coefficient or the
// bias is not finite, as when the kernel values or Rate are huge. A failed
// Fit leaves the Kernel as it was; OnUpdate may have been called for the
// visits before the error. Fit does not modify X or y and keeps no
// reference to them.
func (k *Kernel) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y)
	if err != nil {
		return err
	}
	s, kn, err := k.resolve(ds.d)
	if err != nil {
		return err
	}
	t := newTrainer(ds, &s, kn, k)
	defer t.close()
	stats, err := s.run(ds, t)
	if err != nil {
		return err
	}
	m := t.model()
	if err := m.checkFinite(); err != nil {
		return err
	}
	// After an epoch with no mistake the hypothesis no longer changes: the
	// voted and averaged rules count it for the visits of the epochs left.
	m.h.visits = s.epochs * ds.n
	k.m, k.stats = m, stats
	return nil
}

// Learn trains the kernel perceptron on one example, as one visit of Fit
// does, and reports whether it was a mistake and so caused an update.
// Learn continues a fitted Kernel with the kernel and bias setting it was
// fitted with, whatever Func and NoBias say now; on a Kernel that has not
// been fitted it starts from the empty hypothesis on rows of the length of
// x. Each call counts as one visit for the voted and averaged rules. Learn calls OnUpdate with epoch
// 0 and index -1, and leaves Stats as they are. It does not retain x: at
// each mistake it stores a copy, so a row that Learn gets wrong several
// times is stored several times, where Fit stores each row once.
//
// Learn returns an error, and changes nothing, if y is not -1 or +1, if x
// holds NaN or an infinity, if x has the wrong length, if a setting or a
// kernel parameter is not valid, if the score of x is not finite, or if
// the update would overflow the sum of the coefficients.
func (k *Kernel) Learn(x []float64, y float64) (bool, error) {
	d := len(x)
	if k.m != nil {
		d = k.m.d
	}
	s, kn, err := k.resolve(d)
	if err != nil {
		return false, err
	}
	if err := checkExample(x, y, d); err != nil {
		return false, err
	}
	m := k.m
	if m == nil {
		m = newModel(kn, d, !k.NoBias, false)
	}
	rnd := k.Rand
	if rnd == nil {
		rnd = m.rnd
	}
	mistake, err := m.learn(vec{val: x}, y, s.rate, k.Budget, rnd)
	if err != nil {
		return false, err
	}
	k.m = m
	if mistake {
		s.notify(0, -1, m.update)
	}
	return mistake, nil
}

// LearnRows trains the kernel perceptron on the rows of X, dense or
// sparse, with labels y, visiting each row once in order, as Learn does,
// and returns the number of mistakes. On a Kernel that has not been
// fitted it starts as Learn does, with rows of the width of X, stored
// sparse if X is.
//
// LearnRows returns an error, and changes nothing, if X or y are not
// valid as Fit requires them, if X does not have the number of columns of
// the model, or if a setting or a kernel parameter is not valid. If a
// score is not finite or an update would overflow, it returns an error
// after learning the rows before it.
func (k *Kernel) LearnRows(X mat.Matrix, y []float64) (int, error) {
	ds, err := newDataset(X, y)
	if err != nil {
		return 0, err
	}
	d := ds.d
	if k.m != nil {
		d = k.m.d
	}
	s, kn, err := k.resolve(d)
	if err != nil {
		return 0, err
	}
	if ds.d != d {
		return 0, fmt.Errorf("perceptron: X has %d columns, want %d", ds.d, d)
	}
	if err := ds.check(nil); err != nil {
		return 0, err
	}
	m := k.m
	if m == nil {
		m = newModel(kn, d, !k.NoBias, ds.sparse())
	}
	rnd := k.Rand
	if rnd == nil {
		rnd = m.rnd
	}
	mistakes := 0
	for i := range ds.n {
		mistake, err := m.learn(ds.row(i), ds.y[i], s.rate, k.Budget, rnd)
		if err != nil {
			return mistakes, err
		}
		k.m = m
		if mistake {
			mistakes++
			s.notify(0, -1, m.update)
		}
	}
	return mistakes, nil
}

// resolve checks the settings and the kernel for rows of length d.
func (k *Kernel) resolve(d int) (settings, kern, error) {
	s, err := settings{epochs: k.Epochs, rate: k.Rate, rnd: k.Rand, noBias: k.NoBias, onUpdate: k.OnUpdate}.resolve(d)
	if err != nil {
		return s, kern{}, err
	}
	if k.Budget < 0 {
		return s, kern{}, fmt.Errorf("perceptron: Budget is %d, want >= 0", k.Budget)
	}
	if err := k.Prediction.check(); err != nil {
		return s, kern{}, err
	}
	f := k.Func
	if f == nil {
		f = Linear{}
	}
	kn, err := f.kernel(d)
	return s, kn, err
}

// Predict returns the label of x, +1 if Score(x) >= 0 and -1 otherwise.
// It panics if the Kernel has not been fitted, if len(x) is not the
// number of columns it was fitted on, or if Prediction is not valid.
// Predict and Score may be called concurrently with each other, but not
// with Fit or Learn.
func (k *Kernel) Predict(x []float64) float64 {
	return sign(k.Score(x))
}

// Score returns the decision function of x under the Prediction rule,
// whose sign is the prediction: for PredictLast the last hypothesis f(x);
// for PredictVoted the vote sum_k c_k·sign(f_k(x)), where hypothesis f_k
// survived c_k visits; for PredictAveraged the mean of f_t(x) over the
// hypotheses after every visit (with a Budget, over the visits from the
// last removal on). Voted and averaged scores take one pass over the
// mistakes, after one kernel value per support vector, whose running sum
// gives the score of each hypothesis from that of the one before. Score
// panics as Predict does.
func (k *Kernel) Score(x []float64) float64 {
	m := k.checked(len(x), "Score")
	buf := getScratch(m.vectors())
	s := m.score(vec{val: x}, k.Prediction, *buf)
	putScratch(buf)
	return s
}

// ScoreRows returns the scores of the rows of X, as Score computes them
// up to rounding, in dst, which it allocates if dst is nil. It takes the
// rows in blocks, whose kernel values with a support vector come from one
// matrix-vector product, and splits the blocks over GOMAXPROCS
// goroutines; the result does not depend on their number. It panics as
// Score does, or if dst is not nil and its length is not the number of
// rows of X.
func (k *Kernel) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	r, c := X.Dims()
	m := k.checked(c, "ScoreRows")
	mode := k.Prediction
	if dst == nil {
		dst = make([]float64, r)
	}
	if len(dst) != r {
		panic(fmt.Sprintf("perceptron: dst has length %d, want %d (the number of rows of X)", len(dst), r))
	}
	xs, err := rowsOf(X)
	if err != nil {
		panic(err)
	}
	parallel((r+blockRows-1)/blockRows, func() func(int) {
		u := m.vectors()
		bx := newRows(m.d, blockRows, xs.sparse())
		bn := make([]float64, blockRows)
		kv := make([]float64, blockRows)
		kt := make([]float64, blockRows*u) // kt[q·u+v] = K(sv_v, row q)
		return func(b int) {
			lo := b * blockRows
			nb := min(r-lo, blockRows)
			bx.reset()
			for q := range nb {
				x := xs.row(lo + q)
				bx.append(x)
				if m.k.norms() {
					bn[q] = x.norm2()
				}
			}
			for v := range u {
				var vn float64
				if m.k.norms() {
					vn = m.norm[v]
				}
				m.k.values(kv[:nb], bx, bn, m.sv.row(v), vn)
				for q, s := range kv[:nb] {
					kt[q*u+v] = s
				}
			}
			for q := range nb {
				dst[lo+q] = m.combine(kt[q*u:q*u+u], mode)
			}
		}
	})
	return dst
}

// PredictRows returns the labels of the rows of X, the signs of the scores
// of ScoreRows, in dst, which it allocates if dst is nil. They are those of
// Predict, except that a score within rounding of zero can have the other
// sign. It panics as ScoreRows does.
func (k *Kernel) PredictRows(dst []float64, X mat.Matrix) []float64 {
	dst = k.ScoreRows(dst, X)
	for i, s := range dst {
		dst[i] = sign(s)
	}
	return dst
}

// SupportVectors returns copies of the support vectors, one per row in the
// order they were stored, and their coefficients in the last hypothesis,
// whose score is sum_j coef[j]·K(sv_j, x) + Bias(). It returns nil, nil
// if the Kernel has not been fitted.
func (k *Kernel) SupportVectors() (sv *mat.Dense, coef []float64) {
	m := k.m
	if m == nil {
		return nil, nil
	}
	u := m.vectors()
	if u == 0 {
		return &mat.Dense{}, []float64{}
	}
	return mat.NewDense(u, m.d, slices.Clone(m.sv.data)), slices.Clone(m.last)
}

// Bias returns the bias b of the last hypothesis.
func (k *Kernel) Bias() float64 {
	if k.m == nil {
		return 0
	}
	return k.m.bias()
}

// Stats returns a description of the training run of the last successful
// Fit.
func (k *Kernel) Stats() Stats {
	return k.stats.clone()
}

// checked returns the model, panicking in the manner of gonum if it cannot
// score rows of length d. method names the caller in the message.
func (k *Kernel) checked(d int, method string) *kmodel {
	if k.m == nil {
		panic("perceptron: " + method + " called before Fit")
	}
	if d != k.m.d {
		panic(fmt.Sprintf("perceptron: x has length %d, want %d", d, k.m.d))
	}
	if err := k.Prediction.check(); err != nil {
		panic(err)
	}
	return k.m
}

// mistake is one mistake of the hypothesis: it added a·K(x_v, ·), and
// with a bias a, at visit t (counted from 1). v indexes a row of the
// training set during Fit and a stored support vector after.
type mistake struct {
	v int
	a float64
	t int
}

// hypothesis is the list of the mistakes whose terms make a kernel
// perceptron's hypothesis, and the count of visits, as Fit's trainer and a
// fitted model keep them. Its methods are the one way that Fit and Learn
// change a hypothesis.
type hypothesis struct {
	mistakes []mistake
	refs     []int   // per vector, the number of its mistakes
	vectors  int     // the vectors with a mistake
	sumA     float64 // the sum of a over the mistakes
	visits   int
	removed  int // the visit of the last removal by Budget, or 0
}

// drop removes a mistake drawn from rnd, as Budget asks, and returns it.
func (h *hypothesis) drop(rnd *rand.Rand) mistake {
	j := rnd.IntN(len(h.mistakes))
	u := h.mistakes[j]
	h.mistakes = slices.Delete(h.mistakes, j, j+1)
	h.removed = h.visits
	h.sumA -= u.a
	if h.refs[u.v]--; h.refs[u.v] == 0 {
		h.vectors--
	}
	return u
}

// add adds a mistake on vector v with step a at the current visit.
func (h *hypothesis) add(v int, a float64) {
	h.mistakes = append(h.mistakes, mistake{v: v, a: a, t: h.visits})
	h.sumA += a
	if h.refs[v]++; h.refs[v] == 1 {
		h.vectors++
	}
}

// bias returns the bias of the hypothesis, beta times the sum of the
// steps: zero through the origin.
func (h *hypothesis) bias(beta float64) float64 {
	if beta == 0 {
		return 0
	}
	return h.sumA
}

// kmodel is a fitted kernel perceptron: the support vectors and the
// mistakes, in the order they were made, from which the three prediction
// rules follow.
type kmodel struct {
	k    kern
	d    int
	beta float64 // 1 with a bias, 0 without

	sv   *rows     // the support vectors
	norm []float64 // their squared norms, if the kernel needs them
	last []float64 // per support vector, the sum of a over its mistakes
	h    hypothesis

	rnd *rand.Rand // Learn's draws for Budget when Kernel.Rand is nil
}

// budgetSeed seeds the source of Budget's draws when Kernel.Rand is nil.
const budgetSeed = 0x6b65726e656c // "kernel"

// newModel returns an empty model of the kernel k on rows of length d,
// which it stores sparse if sparse is set.
func newModel(k kern, d int, bias, sparse bool) *kmodel {
	m := &kmodel{k: k, d: d, sv: newRows(d, 0, sparse), rnd: rand.New(rand.NewPCG(budgetSeed, 0))}
	if bias {
		m.beta = 1
	}
	return m
}

func (m *kmodel) vectors() int  { return len(m.last) }
func (m *kmodel) bias() float64 { return m.h.bias(m.beta) }

// kernels sets k[v] = K(sv_v, x) for every support vector.
func (m *kmodel) kernels(k []float64, x vec) {
	var xn float64
	if m.k.norms() {
		xn = x.norm2()
	}
	m.k.values(k, m.sv, m.norm, x, xn)
}

// score returns the score of x under rule p; k is scratch for one kernel
// value per support vector.
func (m *kmodel) score(x vec, p Prediction, k []float64) float64 {
	m.kernels(k, x)
	return m.combine(k, p)
}

// combine returns the score under rule p of a row whose kernel value with
// support vector v is k[v].
func (m *kmodel) combine(k []float64, p Prediction) float64 {
	switch p {
	case PredictVoted:
		// The hypothesis after mistake j is f_(j-1) plus one term; it is
		// the hypothesis of the visits from t_j until the next mistake.
		var f, vote float64
		from := 1
		for _, u := range m.h.mistakes {
			vote += float64(m.exact(from, u.t-1)) * sign(f)
			f += u.a * (k[u.v] + m.beta)
			from = u.t
		}
		return vote + float64(m.exact(from, m.h.visits))*sign(f)
	case PredictAveraged:
		// Mistake j is in the hypotheses of visits t_j, ..., T.
		var f float64
		for _, u := range m.h.mistakes {
			f += u.a * (k[u.v] + m.beta) * float64(m.exact(u.t, m.h.visits))
		}
		return f / float64(m.exact(1, m.h.visits))
	}
	return floats.Dot(m.last, k) + m.beta*m.h.sumA
}

// exact returns the number of visits from a to b whose hypotheses the
// stored mistakes represent exactly: those from the last removal on.
func (m *kmodel) exact(a, b int) int {
	return max(0, b-max(a, m.h.removed)+1)
}

// mistake makes the update of a mistake on x, whose squared norm is xn,
// with step a: first, while the hypothesis holds budget mistakes, it
// removes one drawn from rnd, and the support vector of the removed
// mistake if it has no other; then it stores x and adds the mistake.
func (m *kmodel) mistake(x vec, xn, a float64, budget int, rnd *rand.Rand) {
	for budget > 0 && len(m.h.mistakes) >= budget {
		u := m.h.drop(rnd)
		m.last[u.v] -= u.a
		if m.h.refs[u.v] == 0 {
			m.removeVector(u.v)
		}
	}
	v := m.store(x, xn)
	m.h.add(v, a)
	m.last[v] += a
}

// store appends x, whose squared norm is xn, to the support vectors, with
// no mistake yet, and returns its index.
func (m *kmodel) store(x vec, xn float64) int {
	m.sv.append(x)
	if m.k.norms() {
		m.norm = append(m.norm, xn)
	}
	m.last = append(m.last, 0)
	m.h.refs = append(m.h.refs, 0)
	return m.vectors() - 1
}

// removeVector removes support vector v, which has no mistake left; the
// last support vector takes its place.
func (m *kmodel) removeVector(v int) {
	end := m.vectors() - 1
	m.sv.swapRemove(v)
	m.last[v], m.last = m.last[end], m.last[:end]
	m.h.refs[v], m.h.refs = m.h.refs[end], m.h.refs[:end]
	if m.norm != nil {
		m.norm[v], m.norm = m.norm[end], m.norm[:end]
	}
	for i := range m.h.mistakes {
		if m.h.mistakes[i].v == end {
			m.h.mistakes[i].v = v
		}
	}
}

// checkFinite returns an error if a coefficient of m, or their sum, which
// makes the bias, has overflowed, as a huge Rate can make them.
func (m *kmodel) checkFinite() error {
	if j := nonFinite(m.last); j >= 0 {
		return fmt.Errorf("perceptron: the coefficient of support vector %d overflowed to %v: lower Rate", j, m.last[j])
	}
	if !finite(m.h.sumA) {
		return fmt.Errorf("perceptron: the sum of the coefficients overflowed to %v: lower Rate", m.h.sumA)
	}
	return nil
}

// scoreError returns the error for the score s, not finite, of what: the
// data are finite, so a kernel value, or its product with a coefficient,
// has overflowed, or a Custom kernel returned NaN or an infinity.
func scoreError(what string, s float64) error {
	return fmt.Errorf("perceptron: the score of %s is %v: a kernel value, or its product with a coefficient, is not finite: scale X or lower Rate", what, s)
}

// learn makes Learn's visit of (x, y) with step Rate·y, and reports
// whether it was a mistake. It returns an error, and changes nothing, if
// the score of x is not finite or its update would overflow the sum of
// the coefficients.
func (m *kmodel) learn(x vec, y, rate float64, budget int, rnd *rand.Rand) (bool, error) {
	buf := getScratch(m.vectors())
	s := m.score(x, PredictLast, *buf)
	putScratch(buf)
	if !finite(s) {
		return false, scoreError("x", s)
	}
	// Removals by Budget could only take the sum back towards zero.
	if y*s <= 0 && math.IsInf(m.h.sumA+rate*y, 0) {
		return false, errors.New("perceptron: the update on x would overflow the sum of the coefficients: lower Rate")
	}
	m.h.visits++
	if y*s > 0 {
		return false, nil
	}
	var xn float64
	if m.k.norms() {
		xn = x.norm2()
	}
	m.mistake(x, xn, rate*y, budget, rnd)
	return true, nil
}

// update describes m after an update, for OnUpdate.
func (m *kmodel) update() Update {
	return Update{Bias: m.bias(), Vectors: m.vectors()}
}
