// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// KernelFunc is a kernel: a function K(x, z) that is an inner product of x
// and z mapped into some feature space. Linear, Poly, RBF and Custom are
// kernel functions.
type KernelFunc interface {
	// Eval returns K(x, z). It panics if x and z differ in length or if
	// the kernel's parameters are not valid.
	Eval(x, z []float64) float64

	// kernel returns the kernel for rows of length d with its defaults
	// filled in, or an error if a parameter is not valid.
	kernel(d int) (kern, error)
}

// Linear is the linear kernel x·z. With it, Kernel is the perceptron in
// dual form.
type Linear struct{}

// Poly is the polynomial kernel (Gamma·x·z + Coef0)^Degree.
//
// Degree must not be negative; zero means 3. Gamma must be finite and not
// negative; zero means 1/d for rows of length d. Coef0 must be finite.
// The kernel of Freund and Schapire (1999), (x·z + 1)^3, is
// Poly{Degree: 3, Gamma: 1, Coef0: 1}.
type Poly struct {
	Degree int
	Gamma  float64
	Coef0  float64
}

// RBF is the Gaussian radial basis function kernel exp(-Gamma·||x-z||²).
//
// Gamma must be finite and not negative; zero means 1/d for rows of
// length d. The squared distance is computed as ||x||² + ||z||² - 2·x·z,
// clamped at zero, so that a fitted Kernel takes the dot products of many
// pairs at once. Eval takes the three dot products with one routine, and
// so gives exactly 1 when x equals z; Fit and Score take x·z for many rows
// at once with gonum's matrix-vector product, whose rounding differs from
// that of the norms, so there K(x, x) is 1 only to within rounding. The
// expansion loses precision on rows far from the origin compared with
// their distances: centre the data.
type RBF struct {
	Gamma float64
}

// Custom is a kernel given by a function. The function must be symmetric,
// K(x, z) = K(z, x), must not modify or retain its arguments, and must be
// safe for concurrent use: Kernel calls it from several goroutines. If it
// panics, the panic reaches the caller of the Kernel method that called
// it, on the caller's goroutine. It must not call runtime.Goexit, as
// testing's FailNow does.
type Custom func(x, z []float64) float64

// Eval returns x·z.
func (Linear) Eval(x, z []float64) float64 { return evalKernel(Linear{}, x, z) }

// Eval returns (Gamma·x·z + Coef0)^Degree.
func (p Poly) Eval(x, z []float64) float64 { return evalKernel(p, x, z) }

// Eval returns exp(-Gamma·||x-z||²).
func (r RBF) Eval(x, z []float64) float64 { return evalKernel(r, x, z) }

// Eval returns f(x, z).
func (f Custom) Eval(x, z []float64) float64 { return evalKernel(f, x, z) }

func evalKernel(f KernelFunc, x, z []float64) float64 {
	if len(x) != len(z) {
		panic(fmt.Sprintf("perceptron: x has length %d, z has length %d", len(x), len(z)))
	}
	k, err := f.kernel(len(x))
	if err != nil {
		panic(err)
	}
	if k.kind == customKernel {
		return k.f(x, z)
	}
	var xn, zn float64
	if k.norms() {
		xn, zn = floats.Dot(x, x), floats.Dot(z, z)
	}
	return k.ofDot(floats.Dot(x, z), xn, zn)
}

func (Linear) kernel(int) (kern, error) { return kern{kind: linearKernel}, nil }

func (p Poly) kernel(d int) (kern, error) {
	switch {
	case p.Degree < 0:
		return kern{}, fmt.Errorf("perceptron: Poly.Degree is %d, want >= 0", p.Degree)
	case !(p.Gamma >= 0) || math.IsInf(p.Gamma, 1):
		return kern{}, fmt.Errorf("perceptron: Poly.Gamma is %v, want a finite value >= 0", p.Gamma)
	case !finite(p.Coef0):
		return kern{}, fmt.Errorf("perceptron: Poly.Coef0 is %v, want a finite value", p.Coef0)
	}
	k := kern{kind: polyKernel, degree: p.Degree, gamma: p.Gamma, coef0: p.Coef0}
	if k.degree == 0 {
		k.degree = 3
	}
	if k.gamma == 0 {
		k.gamma = 1 / float64(d)
	}
	return k, nil
}

func (r RBF) kernel(d int) (kern, error) {
	if !(r.Gamma >= 0) || math.IsInf(r.Gamma, 1) {
		return kern{}, fmt.Errorf("perceptron: RBF.Gamma is %v, want a finite value >= 0", r.Gamma)
	}
	k := kern{kind: rbfKernel, gamma: r.Gamma}
	if k.gamma == 0 {
		k.gamma = 1 / float64(d)
	}
	return k, nil
}

func (f Custom) kernel(int) (kern, error) {
	if f == nil {
		return kern{}, errors.New("perceptron: Custom kernel is nil")
	}
	return kern{kind: customKernel, f: f}, nil
}

type kernelKind int

const (
	linearKernel kernelKind = iota
	polyKernel
	rbfKernel
	customKernel
)

// kern is a kernel with its parameters resolved. The built-in kernels are
// functions of x·z and, for RBF, of the squared norms of x and z, so that
// the kernel values of many pairs come from dot products that gonum's
// BLAS computes a matrix at a time.
type kern struct {
	kind         kernelKind
	degree       int
	gamma, coef0 float64
	f            func(x, z []float64) float64
}

// norms reports whether the kernel needs the squared norms of its
// arguments.
func (k *kern) norms() bool { return k.kind == rbfKernel }

// ofDot returns the kernel value of a pair with dot product s and squared
// norms xn and zn.
func (k *kern) ofDot(s, xn, zn float64) float64 {
	switch k.kind {
	case polyKernel:
		return powi(k.gamma*s+k.coef0, k.degree)
	case rbfKernel:
		return math.Exp(-k.gamma * max(xn+zn-2*s, 0))
	}
	return s
}

// powi returns x^n by repeated squaring.
func powi(x float64, n int) float64 {
	r := 1.0
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r *= x
		}
		x *= x
	}
	return r
}

// row sets dst[q] = K(v, a_q) for the first len(dst) rows a_q of the
// row-major matrix a with d columns. an holds the squared norms of the
// rows of a and vn that of v when the kernel needs them.
func (k *kern) row(dst, a []float64, d int, an []float64, v []float64, vn float64) {
	if len(dst) == 0 {
		return
	}
	if k.kind == customKernel {
		for q := range dst {
			dst[q] = k.f(v, a[q*d:q*d+d])
		}
		return
	}
	blas64.Gemv(blas.NoTrans, 1,
		blas64.General{Rows: len(dst), Cols: d, Stride: d, Data: a},
		blas64.Vector{N: d, Inc: 1, Data: v},
		0, blas64.Vector{N: len(dst), Inc: 1, Data: dst})
	if k.kind == linearKernel {
		return
	}
	for q, s := range dst {
		var aq float64
		if an != nil {
			aq = an[q]
		}
		dst[q] = k.ofDot(s, aq, vn)
	}
}

// Prediction is the rule by which a Kernel predicts from the hypotheses
// of its training run. Freund and Schapire (1999) define the three rules.
type Prediction int

const (
	// PredictLast predicts with the last hypothesis, as Perceptron does.
	PredictLast Prediction = iota

	// PredictVoted predicts with the vote of every hypothesis of the run,
	// each weighted by the number of visits it survived: the score is
	// sum_k c_k·sign(f_k(x)), which is the sum of sign(f_t(x)) over the
	// hypotheses f_t after every visit t.
	PredictVoted

	// PredictAveraged predicts with the average hypothesis: the score is
	// the mean of f_t(x) over the hypotheses f_t after every visit t.
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

	// OnUpdate, if not nil, is called after every update with the epoch
	// (counted from 1), the index of the row that was a mistake, the
	// number of support vectors and the bias of the new hypothesis. The
	// dual form has no weight vector to report.
	OnUpdate func(epoch, i, vectors int, b float64)

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
	stats, err := s.run(ds, t.pass)
	if err != nil {
		return err
	}
	m := t.model()
	if err := m.checkFinite(); err != nil {
		return err
	}
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
		m = newModel(kn, d, !k.NoBias)
	}
	rnd := k.Rand
	if rnd == nil {
		rnd = m.rnd
	}
	mistake, err := m.learn(x, y, s.rate, k.Budget, rnd)
	if err != nil {
		return false, err
	}
	k.m = m
	if !mistake {
		return false, nil
	}
	if k.OnUpdate != nil {
		k.OnUpdate(0, -1, m.vectors(), m.bias())
	}
	return true, nil
}

// resolve checks the settings and the kernel for rows of length d.
func (k *Kernel) resolve(d int) (settings, kern, error) {
	s, err := settings{epochs: k.Epochs, rate: k.Rate, rnd: k.Rand, noBias: k.NoBias}.resolve(d)
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
	s := m.score(x, k.Prediction, *buf)
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
	rows := rowsOf(X)
	blocks := (r + blockRows - 1) / blockRows
	var next atomic.Int64
	work := func() {
		u, d := m.vectors(), m.d
		bx := make([]float64, blockRows*d)
		bn := make([]float64, blockRows)
		kv := make([]float64, blockRows)
		kt := make([]float64, blockRows*u) // kt[q·u+v] = K(sv_v, row q)
		for {
			b := int(next.Add(1)) - 1
			if b >= blocks {
				return
			}
			lo := b * blockRows
			nb := min(r-lo, blockRows)
			for q := range nb {
				x := rows.row(lo + q)
				copy(bx[q*d:q*d+d], x)
				if m.k.norms() {
					bn[q] = floats.Dot(x, x)
				}
			}
			for v := range u {
				var vn float64
				if m.k.norms() {
					vn = m.norm[v]
				}
				m.k.row(kv[:nb], bx, d, bn, m.vector(v), vn)
				for q, s := range kv[:nb] {
					kt[q*u+v] = s
				}
			}
			for q := range nb {
				dst[lo+q] = m.combine(kt[q*u:q*u+u], mode)
			}
		}
	}
	// A panic, which a Custom kernel can raise on any goroutine, stops
	// them all and is raised again on the caller's.
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first any
	)
	guarded := func() {
		defer func() {
			if p := recover(); p != nil {
				once.Do(func() { first = p })
				next.Store(int64(blocks))
			}
		}()
		work()
	}
	for range min(runtime.GOMAXPROCS(0), blocks) - 1 {
		wg.Go(guarded)
	}
	guarded()
	wg.Wait()
	if first != nil {
		panic(first)
	}
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
	return mat.NewDense(u, m.d, slices.Clone(m.sv)), slices.Clone(m.last)
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

// kmodel is a fitted kernel perceptron: the support vectors and the
// mistakes, in the order they were made, from which the three prediction
// rules follow.
type kmodel struct {
	k    kern
	d    int
	beta float64 // 1 with a bias, 0 without

	sv   []float64 // support vectors, one per row of d
	norm []float64 // their squared norms, if the kernel needs them
	last []float64 // per support vector, the sum of a over its mistakes
	refs []int     // per support vector, the number of its mistakes

	mistakes []mistake
	sumA     float64 // sum of a over the mistakes
	visits   int
	removed  int // the visit of the last removal by Budget, or 0

	rnd *rand.Rand // Learn's draws for Budget when Kernel.Rand is nil
}

// budgetSeed seeds the source of Budget's draws when Kernel.Rand is nil.
const budgetSeed = 0x6b65726e656c // "kernel"

func newModel(k kern, d int, bias bool) *kmodel {
	m := &kmodel{k: k, d: d, rnd: rand.New(rand.NewPCG(budgetSeed, 0))}
	if bias {
		m.beta = 1
	}
	return m
}

func (m *kmodel) vectors() int           { return len(m.last) }
func (m *kmodel) bias() float64          { return m.beta * m.sumA }
func (m *kmodel) vector(v int) []float64 { return m.sv[v*m.d : v*m.d+m.d] }

// kernels sets k[v] = K(sv_v, x) for every support vector.
func (m *kmodel) kernels(k, x []float64) {
	var xn float64
	if m.k.norms() {
		xn = floats.Dot(x, x)
	}
	m.k.row(k, m.sv, m.d, m.norm, x, xn)
}

// score returns the score of x under rule p; k is scratch for one kernel
// value per support vector.
func (m *kmodel) score(x []float64, p Prediction, k []float64) float64 {
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
		for _, u := range m.mistakes {
			vote += float64(m.exact(from, u.t-1)) * sign(f)
			f += u.a * (k[u.v] + m.beta)
			from = u.t
		}
		return vote + float64(m.exact(from, m.visits))*sign(f)
	case PredictAveraged:
		// Mistake j is in the hypotheses of visits t_j, ..., T.
		var f float64
		for _, u := range m.mistakes {
			f += u.a * (k[u.v] + m.beta) * float64(m.exact(u.t, m.visits))
		}
		return f / float64(m.exact(1, m.visits))
	}
	return floats.Dot(m.last, k) + m.beta*m.sumA
}

// exact returns the number of visits from a to b whose hypotheses the
// stored mistakes represent exactly: those from the last removal on.
func (m *kmodel) exact(a, b int) int {
	return max(0, b-max(a, m.removed)+1)
}

// learn makes one visit of (x, y) and reports whether it was a mistake.
func (m *kmodel) learn(x []float64, y, rate float64, budget int, rnd *rand.Rand) (bool, error) {
	buf := getScratch(m.vectors())
	s := m.score(x, PredictLast, *buf)
	putScratch(buf)
	if !finite(s) {
		return false, scoreError("x", s)
	}
	// Removals by Budget could only take the sum back towards zero.
	if y*s <= 0 && math.IsInf(m.sumA+rate*y, 0) {
		return false, errors.New("perceptron: the update on x would overflow the sum of the coefficients: lower Rate")
	}
	m.visits++
	if y*s > 0 {
		return false, nil
	}
	for budget > 0 && len(m.mistakes) >= budget {
		m.remove(rnd.IntN(len(m.mistakes)))
	}
	var xn float64
	if m.k.norms() {
		xn = floats.Dot(x, x)
	}
	m.add(mistake{v: m.store(x, xn), a: rate * y, t: m.visits})
	return true, nil
}

// scoreError returns the error for the score s, not finite, of what: the
// data are finite, so a kernel value, or its product with a coefficient,
// has overflowed, or a Custom kernel returned NaN or an infinity.
func scoreError(what string, s float64) error {
	return fmt.Errorf("perceptron: the score of %s is %v: a kernel value, or its product with a coefficient, is not finite: scale X or lower Rate", what, s)
}

// checkFinite returns an error if a coefficient of m, or their sum, which
// makes the bias, has overflowed, as a huge Rate can make them.
func (m *kmodel) checkFinite() error {
	if j := nonFinite(m.last); j >= 0 {
		return fmt.Errorf("perceptron: the coefficient of support vector %d overflowed to %v: lower Rate", j, m.last[j])
	}
	if !finite(m.sumA) {
		return fmt.Errorf("perceptron: the sum of the coefficients overflowed to %v: lower Rate", m.sumA)
	}
	return nil
}

// store appends x, whose squared norm is xn, to the support vectors, with
// no mistake yet, and returns its index.
func (m *kmodel) store(x []float64, xn float64) int {
	m.sv = append(m.sv, x...)
	if m.k.norms() {
		m.norm = append(m.norm, xn)
	}
	m.last = append(m.last, 0)
	m.refs = append(m.refs, 0)
	return m.vectors() - 1
}

func (m *kmodel) add(u mistake) {
	m.mistakes = append(m.mistakes, u)
	m.last[u.v] += u.a
	m.refs[u.v]++
	m.sumA += u.a
}

// remove removes mistake j, and its support vector if it has no other
// mistake; the last support vector takes the place of a removed one.
func (m *kmodel) remove(j int) {
	u := m.mistakes[j]
	m.mistakes = slices.Delete(m.mistakes, j, j+1)
	m.removed = m.visits
	m.last[u.v] -= u.a
	m.sumA -= u.a
	m.refs[u.v]--
	if m.refs[u.v] > 0 {
		return
	}
	end := m.vectors() - 1
	copy(m.vector(u.v), m.vector(end))
	m.sv = m.sv[:end*m.d]
	m.last[u.v], m.last = m.last[end], m.last[:end]
	m.refs[u.v], m.refs = m.refs[end], m.refs[:end]
	if m.norm != nil {
		m.norm[u.v], m.norm = m.norm[end], m.norm[:end]
	}
	for i := range m.mistakes {
		if m.mistakes[i].v == end {
			m.mistakes[i].v = u.v
		}
	}
}

// Fit visits the rows a block at a time. Before the visits of a block its
// rows are brought up to date with the changes to the hypothesis since
// their last visit, in two parts: the bulk, the changes made before the
// visits of the block lookahead blocks earlier, which the other goroutines
// compute ahead, while the visits go on; and the rest, which the visiting
// goroutine adds when the block's turn comes. The split depends on the
// data and the settings alone, so the sums do too.
const (
	// blockRows is the number of rows in a block; their copy, 64·d
	// numbers, stays in the L2 cache while every support vector passes.
	blockRows = 64

	// lookahead is the number of blocks whose bulk is computed ahead of
	// the visits.
	lookahead = 2

	// chunkChanges is the number of changes in one unit of the bulk's
	// parallel work.
	chunkChanges = 16
)

// change is one change to the hypothesis during Fit: a term
// delta·K(x_row, ·), and delta·beta on the bias. norm is the squared norm
// of x_row if the kernel needs it.
type change struct {
	row   int
	delta float64
	norm  float64
}

// trainer is the state of one Fit.
//
// It keeps, for every row i, the part f[i] of its score made of the
// changes with index below seen[i], and a log of the changes. A mistake
// inside a block is spread at once to the rows of the block still to be
// visited. The log keeps only the changes that some row has not seen.
type trainer struct {
	ds       *dataset
	k        kern
	rate     float64
	beta     float64
	budget   int
	rnd      *rand.Rand
	ownRnd   bool // rnd is the fixed-seed source, not Kernel.Rand
	onUpdate func(epoch, i, vectors int, b float64)

	f    []float64
	seen []int
	norm []float64 // squared norms of the rows, if the kernel needs them
	log  []change  // the changes from index base on
	base int

	mistakes []mistake // the hypothesis; v is a row
	refs     []int     // per row, the number of its mistakes
	vectors  int       // rows with a mistake
	b        float64
	visits   int
	removed  int // the visit of the last removal by Budget, or 0

	order   []int // the visits of this epoch
	inOrder []int // the rows in index order, once needed
	pos     int   // the visits made in this epoch
	blocks  []block
	cur     *block    // the block being visited
	k0      []float64 // the visiting goroutine's kernel values

	mu      sync.Mutex
	cond    sync.Cond // a block was queued or its bulk done, or stop
	queue   []*block  // blocks whose bulk has chunks to hand out
	stop    bool
	panic   any // the first panic of a chunk, for start to raise
	helpers sync.WaitGroup
}

// block is a block of visits and the catch-up of its rows.
type block struct {
	rows []int     // the visits, in order
	x    []float64 // copy of the rows, in order
	xn   []float64 // their squared norms

	// The bulk: changes log, those from index from up to upto, reach the
	// rows late, those with seen < upto, sorted by seen so that a change
	// reaches a prefix of them. lx and ln are a copy of late and their
	// norms; part[c] is the sum of chunk c of the changes for each.
	upto, from int
	log        []change
	late       []int
	lateSeen   []int
	lx, ln     []float64
	chunks     int
	part       []float64
	handed     int // chunks handed out
	done       int // chunks done
}

func newTrainer(ds *dataset, s *settings, k kern, kp *Kernel) *trainer {
	t := &trainer{
		ds:       ds,
		k:        k,
		rate:     s.rate,
		budget:   kp.Budget,
		rnd:      kp.Rand,
		onUpdate: kp.OnUpdate,
		f:        make([]float64, ds.n),
		seen:     make([]int, ds.n),
		refs:     make([]int, ds.n),
		blocks:   make([]block, lookahead+1),
		queue:    make([]*block, 0, lookahead+1),
		k0:       make([]float64, blockRows),
	}
	t.cond.L = &t.mu
	if !s.noBias {
		t.beta = 1
	}
	if t.rnd == nil {
		t.rnd, t.ownRnd = rand.New(rand.NewPCG(budgetSeed, 0)), true
	}
	if k.norms() {
		// The rows do not change during Fit: one pass gives their norms.
		t.norm = make([]float64, ds.n)
		for i := range t.norm {
			x := ds.row(i)
			t.norm[i] = floats.Dot(x, x)
		}
	}
	for i := range t.blocks {
		b := &t.blocks[i]
		b.x = make([]float64, blockRows*ds.d)
		b.xn = make([]float64, blockRows)
		b.late = make([]int, 0, blockRows)
		b.lateSeen = make([]int, 0, blockRows)
		b.lx = make([]float64, blockRows*ds.d)
		b.ln = make([]float64, blockRows)
	}
	for range runtime.GOMAXPROCS(0) - 1 {
		t.helpers.Add(1)
		go t.help()
	}
	return t
}

// close stops the helpers.
func (t *trainer) close() {
	t.mu.Lock()
	t.stop = true
	t.cond.Broadcast()
	t.mu.Unlock()
	t.helpers.Wait()
}

// pass is Fit's epoch: it visits the rows in order, or in index order if
// order is nil, and returns the number of mistakes. Before the first epoch
// it checks the rows for NaN and infinities in the order of its visits,
// since the kernel meets a row before its visit, in the work done ahead.
func (t *trainer) pass(epoch int, order []int) (int, error) {
	if order == nil {
		// The blocks hold slices of the order, so index order needs one.
		if t.inOrder == nil {
			t.inOrder = make([]int, t.ds.n)
			for i := range t.inOrder {
				t.inOrder[i] = i
			}
		}
		order = t.inOrder
	}
	if epoch == 1 {
		if err := t.ds.checkRows(order); err != nil {
			return 0, err
		}
	}
	t.epoch(order)
	mistakes := 0
	for _, i := range order {
		mistake, err := t.visit(epoch, i)
		if err != nil {
			return mistakes, err
		}
		if mistake {
			mistakes++
		}
	}
	return mistakes, nil
}

// epoch starts an epoch that visits the rows in order.
func (t *trainer) epoch(order []int) {
	t.order, t.pos = order, 0
	if t.visits > 0 {
		// Every row has been visited and no bulk is under way, so the log
		// before the oldest last visit will not be needed again.
		lo := slices.Min(t.seen)
		t.log = t.log[:copy(t.log, t.log[lo-t.base:])]
		t.base = lo
	}
	for b := range lookahead {
		t.queueBlock(b)
	}
}

// queueBlock prepares block b of the epoch, if there is one, and queues its
// bulk: the changes logged so far.
func (t *trainer) queueBlock(b int) {
	lo := b * blockRows
	if lo >= len(t.order) {
		return
	}
	blk := &t.blocks[b%len(t.blocks)]
	blk.rows = t.order[lo:min(lo+blockRows, len(t.order))]
	blk.upto = t.base + len(t.log)
	blk.late, blk.lateSeen = blk.late[:0], blk.lateSeen[:0]
	d := t.ds.d
	for q, r := range blk.rows {
		x := t.ds.row(r)
		copy(blk.x[q*d:q*d+d], x)
		if t.norm != nil {
			blk.xn[q] = t.norm[r]
		}
		if t.seen[r] < blk.upto {
			blk.late = append(blk.late, r)
			blk.lateSeen = append(blk.lateSeen, t.seen[r])
		}
	}
	// Sort by seen, by insertion: blocks are small.
	for i := 1; i < len(blk.late); i++ {
		for j := i; j > 0 && blk.lateSeen[j] < blk.lateSeen[j-1]; j-- {
			blk.late[j], blk.late[j-1] = blk.late[j-1], blk.late[j]
			blk.lateSeen[j], blk.lateSeen[j-1] = blk.lateSeen[j-1], blk.lateSeen[j]
		}
	}
	blk.chunks, blk.handed, blk.done = 0, 0, 0
	if len(blk.late) == 0 {
		return
	}
	for q, r := range blk.late {
		copy(blk.lx[q*d:q*d+d], t.ds.row(r))
		if t.norm != nil {
			blk.ln[q] = t.norm[r]
		}
	}
	blk.from = blk.lateSeen[0]
	blk.log = t.log[blk.from-t.base : blk.upto-t.base]
	blk.chunks = (blk.upto - blk.from + chunkChanges - 1) / chunkChanges
	nl := len(blk.late)
	blk.part = slices.Grow(blk.part[:0], blk.chunks*nl)[:blk.chunks*nl]
	t.mu.Lock()
	t.queue = append(t.queue, blk)
	t.cond.Broadcast()
	t.mu.Unlock()
}

// help is a helper goroutine: it computes chunks of the queued bulks,
// oldest first, until close.
func (t *trainer) help() {
	defer t.helpers.Done()
	k := make([]float64, blockRows)
	t.mu.Lock()
	for {
		t.prune()
		if t.stop {
			t.mu.Unlock()
			return
		}
		if len(t.queue) == 0 {
			t.cond.Wait()
			continue
		}
		t.work(t.queue[0], k)
	}
}

// prune drops from the queue the bulks with no chunk left to hand out.
// It is called with t.mu held.
func (t *trainer) prune() {
	n := 0
	for n < len(t.queue) && t.queue[n].handed == t.queue[n].chunks {
		n++
	}
	t.queue = t.queue[:copy(t.queue, t.queue[n:])]
}

// work hands out the next chunk of blk's bulk, computes it and counts it
// done. It is called, and returns, with t.mu held. A panic of the chunk,
// which a Custom kernel can raise on a helper, is kept for start to raise
// on Fit's goroutine.
func (t *trainer) work(blk *block, k []float64) {
	c := blk.handed
	blk.handed++
	t.mu.Unlock()
	p := t.try(blk, c, k)
	t.mu.Lock()
	if t.panic == nil {
		t.panic = p
	}
	if blk.done++; blk.done == blk.chunks {
		t.cond.Broadcast()
	}
}

// try computes chunk c of blk's bulk and returns the value of its panic, or
// nil.
func (t *trainer) try(blk *block, c int, k []float64) (p any) {
	defer func() { p = recover() }()
	t.chunk(blk, c, k)
	return nil
}

// chunk computes chunk c of blk's bulk into part[c], with k as scratch.
// It reads only blk and the rows of X.
func (t *trainer) chunk(blk *block, c int, k []float64) {
	d, nl := t.ds.d, len(blk.late)
	part := blk.part[c*nl : c*nl+nl]
	clear(part)
	lo := c * chunkChanges
	q := 0 // change e reaches late[:q], the rows with seen <= e
	for e := lo; e < min(lo+chunkChanges, len(blk.log)); e++ {
		for q < nl && blk.lateSeen[q] <= blk.from+e {
			q++
		}
		ch := blk.log[e]
		t.k.row(k[:q], blk.lx, d, blk.ln, t.ds.row(ch.row), ch.norm)
		floats.AddScaled(part[:q], ch.delta, k[:q])
	}
}

// start makes block b the block to visit: it waits for its bulk, lending
// a hand, adds it and the changes made since, and queues the bulk of the
// block lookahead blocks on.
func (t *trainer) start(b int) {
	blk := &t.blocks[b%len(t.blocks)]
	t.mu.Lock()
	for blk.done < blk.chunks {
		if blk.handed < blk.chunks {
			t.work(blk, t.k0)
		} else {
			t.cond.Wait()
		}
	}
	t.prune() // blk is done, as are those before it: none stays queued
	p := t.panic
	t.mu.Unlock()
	if p != nil {
		panic(p)
	}
	nl := len(blk.late)
	for q, r := range blk.late {
		var s float64
		for c := range blk.chunks {
			s += blk.part[c*nl+q]
		}
		t.f[r] += s
	}
	// Every row of the block has now seen the changes before upto.
	d, nb := t.ds.d, len(blk.rows)
	k := t.k0[:nb]
	for _, ch := range t.log[blk.upto-t.base:] {
		t.k.row(k, blk.x, d, blk.xn, t.ds.row(ch.row), ch.norm)
		for q, r := range blk.rows {
			t.f[r] += ch.delta * k[q]
		}
	}
	t.cur = blk
	t.queueBlock(b + lookahead)
}

// visit is Fit's visit of row i. It reports whether row i was a mistake,
// or returns an error if its score is not finite.
func (t *trainer) visit(epoch, i int) (bool, error) {
	p := t.pos % blockRows
	if p == 0 {
		t.start(t.pos / blockRows)
	}
	t.pos++
	t.visits++
	t.seen[i] = t.base + len(t.log)
	y, s := t.ds.y[i], t.f[i]+t.b
	if !finite(s) {
		return false, scoreError(fmt.Sprintf("row %d", i), s)
	}
	if y*s > 0 {
		return false, nil
	}
	if t.budget > 0 && len(t.mistakes) == t.budget {
		j := t.rnd.IntN(len(t.mistakes))
		u := t.mistakes[j]
		t.mistakes = slices.Delete(t.mistakes, j, j+1)
		t.removed = t.visits
		if t.refs[u.v]--; t.refs[u.v] == 0 {
			t.vectors--
		}
		t.change(u.v, -u.a, p)
	}
	a := t.rate * y
	t.mistakes = append(t.mistakes, mistake{v: i, a: a, t: t.visits})
	if t.refs[i]++; t.refs[i] == 1 {
		t.vectors++
	}
	t.change(i, a, p)
	if t.onUpdate != nil {
		t.onUpdate(epoch, i, t.vectors, t.b)
	}
	return true, nil
}

// change logs the change delta·K(x_row, ·) to the hypothesis, made at
// position p of the block, and spreads it to the rows after p.
func (t *trainer) change(row int, delta float64, p int) {
	ch := change{row: row, delta: delta}
	if t.norm != nil {
		ch.norm = t.norm[row]
	}
	t.b += t.beta * delta
	t.log = append(t.log, ch)
	blk := t.cur
	rest := blk.rows[p+1:]
	if len(rest) == 0 {
		return
	}
	d := t.ds.d
	k := t.k0[:len(rest)]
	t.k.row(k, blk.x[(p+1)*d:], d, blk.xn[p+1:], t.ds.row(row), ch.norm)
	for q, r := range rest {
		t.f[r] += delta * k[q]
	}
}

// model returns the fitted model: copies of the rows with a mistake, in
// the order of their first mistake.
func (t *trainer) model() *kmodel {
	m := newModel(t.k, t.ds.d, t.beta == 1)
	if t.ownRnd {
		m.rnd = t.rnd // Learn continues its draws
	}
	m.visits, m.removed = t.visits, t.removed
	u, d := t.vectors, t.ds.d
	m.sv = make([]float64, 0, u*d)
	if m.k.norms() {
		m.norm = make([]float64, 0, u)
	}
	m.last = make([]float64, 0, u)
	m.refs = make([]int, 0, u)
	m.mistakes = make([]mistake, 0, len(t.mistakes))
	index := t.seen // no longer needed: reused as the row's vector index + 1
	clear(index)
	for _, e := range t.mistakes {
		if index[e.v] == 0 {
			var xn float64
			if m.k.norms() {
				xn = t.norm[e.v]
			}
			index[e.v] = m.store(t.ds.row(e.v), xn) + 1
		}
		m.add(mistake{v: index[e.v] - 1, a: e.a, t: e.t})
	}
	return m
}
