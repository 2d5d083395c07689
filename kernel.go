// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math/rand/v2"
	"slices"

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
// mistakes Perceptron makes. With K classes Kernel is the multiclass
// perceptron of Perceptron in the feature space: one support-vector set
// with K coefficients per vector, f_c(x) = sum_j a_jc·K(x_j, x) + b_c for
// each class c, and a mistake on a row of class t, one where f_t does not
// exceed every other f_c, adds Rate to a_jt and b_t and subtracts it from
// the coefficient and bias of the other class of highest score; a visit
// computes the kernel values of the row once for all K scores.
// Training starts from the empty hypothesis:
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

	// Labels are the classes, as in Perceptron.
	Labels []float64

	// OnUpdate, if not nil, is called after every update with the epoch,
	// the row that was a mistake, and the number of support vectors and
	// the biases of the new hypothesis. The dual form has no weight vector
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
// rows, if a label is NaN or infinite or not among Labels, if y has a
// single class, if X holds NaN or an infinity, or if a setting or a
// kernel parameter is not valid; it checks X before any visit. It also
// returns an error if a row's score, a coefficient or a bias is not
// finite, as when the kernel values or Rate are huge. A failed Fit leaves
// the Kernel as it was; OnUpdate may have been called for the visits
// before the error. Fit reads X as the package documentation says, does
// not modify X or y, and keeps no reference to them.
func (k *Kernel) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y, k.Labels)
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
// Learn continues a fitted Kernel with the kernel, the bias setting and
// the classes it was fitted with, whatever Func, NoBias and Labels say
// now; on a Kernel that has not been fitted it starts from the empty
// hypothesis on rows of the length of x, with the classes of Labels, or
// -1 and +1. Each call counts as one visit for the voted and averaged
// rules. Learn calls OnUpdate with epoch 0 and index -1, and leaves Stats
// as they are. It does not retain x: at each mistake it stores a copy, so
// a row that Learn gets wrong several times is stored several times,
// where Fit stores each row once.
//
// Learn returns an error, and changes nothing, if y is not one of the
// classes, if x holds NaN or an infinity, if x has the wrong length, if a
// setting or a kernel parameter is not valid, if a score of x is not
// finite, or if the update would overflow the sum of the coefficients.
func (k *Kernel) Learn(x []float64, y float64) (bool, error) {
	m, s, err := k.learnModel(len(x), false)
	if err != nil {
		return false, err
	}
	if err := checkExample(x, m.d); err != nil {
		return false, err
	}
	c, err := class(m.classes, y)
	if err != nil {
		return false, err
	}
	mistake, err := m.learn(vec{val: x}, c, s.rate, k.Budget, k.budgetRand(m))
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
// valid as Fit requires them, if a label is not one of the classes, if X
// does not have the number of columns of the model, or if a setting or a
// kernel parameter is not valid. If a score is not finite or an update
// would overflow, it returns an error after learning the rows before it.
func (k *Kernel) LearnRows(X mat.Matrix, y []float64) (int, error) {
	_, d := X.Dims()
	m, s, err := k.learnModel(d, isSparse(X))
	if err != nil {
		return 0, err
	}
	ds, err := newDataset(X, y, m.classes)
	if err != nil {
		return 0, err
	}
	if ds.d != m.d {
		return 0, fmt.Errorf("perceptron: X has %d columns, want %d", ds.d, m.d)
	}
	if err := ds.check(nil); err != nil {
		return 0, err
	}
	rnd := k.budgetRand(m)
	mistakes := 0
	for i := range ds.n {
		c := 1
		if ds.cls != nil {
			c = ds.cls[i]
		} else if ds.y[i] < 0 {
			c = 0
		}
		mistake, err := m.learn(ds.row(i), c, s.rate, k.Budget, rnd)
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

// learnModel returns the model that Learn goes on from, or a new one on rows
// of length d, stored sparse if sparse is set, and the resolved settings.
func (k *Kernel) learnModel(d int, sparse bool) (*kmodel, settings, error) {
	if k.m != nil {
		d = k.m.d
	}
	s, kn, err := k.resolve(d)
	if err != nil {
		return nil, s, err
	}
	if k.m != nil {
		return k.m, s, nil
	}
	classes, err := startClasses(k.Labels)
	if err != nil {
		return nil, s, err
	}
	return newModel(kn, d, classes, !k.NoBias, sparse), s, nil
}

// budgetRand returns the source of Budget's draws for Learn on m.
func (k *Kernel) budgetRand(m *kmodel) *rand.Rand {
	if k.Rand != nil {
		return k.Rand
	}
	return m.rnd
}

// isSparse reports whether X is read as sparse rows.
func isSparse(X mat.Matrix) bool {
	switch X.(type) {
	case mat.RawMatrixer:
		return false
	case mat.RowNonZeroDoer:
		return true
	}
	return false
}

// resolve checks the settings and the kernel for rows of length d.
func (k *Kernel) resolve(d int) (settings, kern, error) {
	s, err := settings{epochs: k.Epochs, rate: k.Rate, rnd: k.Rand, noBias: k.NoBias, labels: k.Labels, onUpdate: k.OnUpdate}.resolve(d, 1)
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

// Predict returns the class of x under the Prediction rule: for two
// classes the second if the score is >= 0 and the first otherwise, and for
// more the class of the greatest score, the first of those if several
// tie; for PredictAveraged it decides from the sums before their division
// by the visits, so that a tie is exact where they are. It panics if the
// Kernel has not been fitted, if len(x) is not the number of columns it
// was fitted on, or if Prediction is not valid. Predict and the scoring
// methods may be called concurrently with each other, but not with Fit or
// Learn.
func (k *Kernel) Predict(x []float64) float64 {
	m := k.checked(len(x), "Predict")
	buf := getScratch(m.scores())
	defer putScratch(buf)
	m.scoresOf(*buf, vec{val: x}, k.Prediction)
	return decide(m.classes, *buf)
}

// Score returns the decision function of x of two classes under the
// Prediction rule, whose sign is the prediction: for PredictLast the last
// hypothesis f(x); for PredictVoted the vote sum_k c_k·sign(f_k(x)), where
// hypothesis f_k survived c_k visits; for PredictAveraged the mean of
// f_t(x) over the hypotheses after every visit (with a Budget, over the
// visits from the last removal on). Voted and averaged scores take one
// pass over the mistakes, after one kernel value per support vector, whose
// running sum gives the score of each hypothesis from that of the one
// before. Score panics as Predict does, and for more classes.
func (k *Kernel) Score(x []float64) float64 {
	m := k.checked(len(x), "Score")
	if m.scores() != 1 {
		panic(fmt.Sprintf("perceptron: Score of a model of %d classes: use Scores", len(m.classes)))
	}
	var s [1]float64
	div := m.scoresOf(s[:], vec{val: x}, k.Prediction)
	return s[0] / div
}

// Scores returns the scores of x under the Prediction rule, in dst, which
// it allocates if dst is nil: for two classes the one score of Score; for
// more, one per class: of the last hypothesis, the votes of the voters
// whose greatest score is the class's, or the average score. It panics as
// Predict does, or if dst is not nil and has the wrong length.
func (k *Kernel) Scores(dst, x []float64) []float64 {
	m := k.checked(len(x), "Scores")
	dst = scoresDst(dst, m.scores())
	divide(dst, m.scoresOf(dst, vec{val: x}, k.Prediction))
	return dst
}

// ScoreRows returns the scores of the rows of X, dense or sparse, as
// Scores computes them up to rounding, in dst, which it allocates if dst
// is nil: those of row i at dst[i·S:(i+1)·S], S being the number of
// scores. It takes the rows in blocks, whose kernel values with a support
// vector come from one matrix-vector product on dense rows, and splits
// the blocks over GOMAXPROCS goroutines; the result does not depend on
// their number. It panics as Scores does, if X does not have the number
// of columns the model was fitted on, if dst is not nil and has the wrong
// length, or if X is a mat.RowNonZeroDoer that yields an element out of
// range or not finite.
func (k *Kernel) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	n, _ := X.Dims()
	S := k.checked(k.columns(X), "ScoreRows").scores()
	dst = rowsDst(dst, n*S)
	k.eachBlock(X, func(i int, s []float64, div float64) {
		divide(s, div)
		copy(dst[i*S:i*S+S], s)
	})
	return dst
}

// PredictRows returns the classes of the rows of X, dense or sparse, as
// Predict chooses them up to rounding, in dst, which it allocates if dst
// is nil. It panics as ScoreRows does.
func (k *Kernel) PredictRows(dst []float64, X mat.Matrix) []float64 {
	n, _ := X.Dims()
	m := k.checked(k.columns(X), "PredictRows")
	dst = rowsDst(dst, n)
	k.eachBlock(X, func(i int, s []float64, _ float64) {
		dst[i] = decide(m.classes, s)
	})
	return dst
}

// columns returns the number of columns of X.
func (k *Kernel) columns(X mat.Matrix) int {
	_, c := X.Dims()
	return c
}

// eachBlock calls f with every row of X, its scores under the Prediction
// rule before any division and their divisor, taking the rows in blocks
// whose kernel values with a support vector come from one matrix-vector
// product, spread over the workers.
func (k *Kernel) eachBlock(X mat.Matrix, f func(i int, s []float64, div float64)) {
	r, _ := X.Dims()
	m, mode := k.m, k.Prediction
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
		s := make([]float64, m.scores())
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
				div := m.combine(s, kt[q*u:q*u+u], mode)
				f(lo+q, s, div)
			}
		}
	})
}

// SupportVectors returns copies of the support vectors, one per row in the
// order they were stored, and their coefficients in the last hypothesis:
// for two classes one per vector, whose score is sum_j coef[j]·K(sv_j, x)
// + Bias(); for K classes K per vector, coef[j·K+c] for class c. It
// returns nil, nil if the Kernel has not been fitted.
func (k *Kernel) SupportVectors() (sv *mat.Dense, coef []float64) {
	m := k.m
	if m == nil {
		return nil, nil
	}
	u := m.vectors()
	if u == 0 {
		return &mat.Dense{}, []float64{}
	}
	data := make([]float64, u*m.d)
	for v := range u {
		m.sv.row(v).denseTo(data[v*m.d : (v+1)*m.d])
	}
	return mat.NewDense(u, m.d, data), slices.Clone(m.last)
}

// Classes returns a copy of the classes, in ascending order, or nil if
// the Kernel has not been fitted.
func (k *Kernel) Classes() []float64 {
	if k.m == nil {
		return nil
	}
	return slices.Clone(k.m.classes)
}

// Bias returns the bias b of the last hypothesis of two classes, or 0 if
// the Kernel has not been fitted. It panics for more classes.
func (k *Kernel) Bias() float64 {
	if k.m == nil {
		return 0
	}
	if k.m.scores() != 1 {
		panic(fmt.Sprintf("perceptron: Bias of a model of %d classes: use Biases", len(k.m.classes)))
	}
	return k.m.h.bias(k.m.beta, 0)
}

// Biases returns the biases of the last hypothesis: one for two classes,
// and one per class for more. It returns nil if the Kernel has not been
// fitted.
func (k *Kernel) Biases() []float64 {
	if k.m == nil {
		return nil
	}
	return k.m.h.biases(k.m.beta)
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
