// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/live"
)

// Kernel is the kernel perceptron (Aizerman, Braverman and Rozonoer, 1964):
// Perceptron in the feature space of a kernel K, in dual form: it holds no
// weights, but the rows x_j it made mistakes on, each with the sum a_j of
// its steps, and scores a row x by the sum of a_j·K(x_j, x). A mistake on a
// row x_j of label y_j adds Rate·y_j·K(x_j, ·) to the score, and Rate·y_j
// to the bias, which is Perceptron's update made in the feature space; with
// more than two classes it moves the scores of two classes, as Perceptron's
// does. The rows with a mistake are the support vectors, each stored once;
// with the linear kernel and exact sums Kernel makes Perceptron's mistakes.
// It predicts with the last hypothesis, or with the vote or the average of
// the hypotheses after every visit, as Voted and Averaged do (Freund and
// Schapire, 1999).
//
// The zero value is ready to use: the linear kernel, with a bias, at rate
// 1, in order, for at most 1000 epochs, predicting with the last
// hypothesis.
type Kernel struct {
	// Func is the kernel. Nil means the linear kernel x·z.
	Func KernelFunc

	// Prediction is the rule of the prediction methods, which read it.
	Prediction Prediction

	// Budget, if not zero, is the most mistakes the hypothesis is made of:
	// once it holds Budget, a mistake first removes one drawn at random
	// from Rand, or from a source of a fixed seed (Cavallanti, Cesa-Bianchi
	// and Gentile, 2007). The voted and averaged rules combine the
	// hypotheses from the last removal on.
	Budget int

	// Epochs and Rate are as in Perceptron.
	Epochs int
	Rate   float64

	// Rand, if not nil, shuffles the rows every epoch, as in Perceptron,
	// and draws the removals of a Budget.
	Rand *rand.Rand

	// NoBias trains without a bias.
	NoBias bool

	// Labels are the classes, as in Perceptron.
	Labels []float64

	// ClassWeight weighs the classes, as in Perceptron: a mistake on a row
	// of class c adds Rate·ClassWeight[c] times its kernel function.
	ClassWeight map[float64]float64

	// OnUpdate is called after every update, as in Perceptron, with the
	// new biases and no weights.
	OnUpdate func(Update)

	// Stop, if not nil, stops Fit early, as in Perceptron; with
	// Validation it measures the Prediction rule.
	Stop *Stop

	s *kernelState
}

// kernelState is the model of a Kernel, as training writes it and as the
// prediction methods read it (live.go). It lies behind a pointer, so that
// a copy of the Kernel, as a value receiver makes, reads nothing that a
// Learn writes.
type kernelState struct {
	kernelModel
	live live.Live[kernelModel]
}

// kernelModel is the model of a Kernel: its expansion, which Learn
// changes in place, and so writes a copy of that which predictions read
// (live.go), and Stats.
type kernelModel struct {
	m     *expansion
	stats Stats
}

// set makes m the model, published to the prediction methods whole, and
// never to be written again.
func (k *Kernel) set(m kernelModel) {
	s := k.work()
	s.kernelModel = m
	s.live.Set(m)
}

// viewed returns the model that the prediction methods read.
func (k *Kernel) viewed() kernelModel {
	if k.s == nil {
		return kernelModel{}
	}
	return k.s.live.Current() // never written again
}

// Fit trains the kernel perceptron on the rows of X with labels y,
// starting from the empty hypothesis. It stops at the end of the first
// epoch with no mistake, after Epochs epochs, or when Stop says.
//
// Fit returns the errors that Perceptron's Fit returns, and an error if a
// kernel parameter is not valid, or if a score, a coefficient or a bias
// is not finite, as when the kernel values or Rate are huge; it checks X
// before any visit. A failed Fit leaves the Kernel as it was.
func (k *Kernel) Fit(X mat.Matrix, y []float64) error { return fitData(k, X, y, nil, nil) }

// fit is Fit on the data set ds, shuffling with rnd and drawing from it.
func (k *Kernel) fit(ds *dataset, rnd *rand.Rand) error {
	s, kn, err := k.resolve(ds.d)
	if err != nil {
		return err
	}
	s.rnd = rnd
	ds, val, err := s.start(ds, true, trainerWords(ds))
	if err != nil {
		return err
	}
	t := newTrainer(ds, &s, kn, k.Budget)
	defer t.close()
	stats, err := s.run(ds, t, val, func(int) func([]float64, vec) {
		m := t.model()
		return func(dst []float64, x vec) { m.scoresOf(dst, x, k.Prediction) }
	})
	if err != nil {
		return err
	}
	m := t.model()
	if err := m.checkFinite(); err != nil {
		return err
	}
	// After an epoch with no mistake the hypothesis no longer changes: the
	// voted and averaged rules count it for the visits of the epochs left,
	// though not for those after a stop.
	if stats.Converged {
		m.h.visits = s.epochs * ds.n
	}
	k.set(kernelModel{m, stats})
	return nil
}

// Learn trains the kernel perceptron on the rows of X with labels y,
// visiting each row once, in order, as Perceptron's Learn does, and counts
// each visit for the voted and averaged rules. It goes on from the last Fit
// or Learn, keeping its kernel, classes and bias whatever the fields say
// now, or from the empty hypothesis. It returns the errors that
// Perceptron's Learn returns, and those of Fit about the kernel and the
// scores, changing nothing. It learns on a copy of the expansion, at the
// cost of its size, and may run concurrently as Perceptron's Learn.
func (k *Kernel) Learn(X mat.Matrix, y []float64) error { return learnWith(k, X, y, nil, nil) }

func (k *Kernel) state() (settings, []float64, int, int) {
	m := k.work().m
	if m == nil {
		return k.settings(k.Rand), nil, 0, 0
	}
	return k.settings(k.Rand), m.classes, m.d, m.h.visits
}

// learn is Learn on ds, checked, with the settings s.
func (k *Kernel) learn(ds *dataset, s settings) error {
	_, kn, err := k.resolve(ds.d)
	if err != nil {
		return err
	}
	// The support vectors, at most a copy of the rows, their norms and
	// coefficients, and the index that finds them.
	if err := s.needs(ds, ds.words()+float64(ds.n*(scores(ds.classes)+3))); err != nil {
		return err
	}
	w := k.work()
	m := w.m
	if m == nil {
		m = newModel(kn, ds.d, ds.classes, !s.noBias, ds.sparse())
	}
	m.rnd, m.budget, m.base = k.Rand, k.Budget, m.h.visits
	if m.rnd == nil {
		m.rnd = rand.New(m.own)
	}
	r := newRule(ds, m, m.nScores(), s.rate)
	r.guard, r.finiteScores, r.grows = true, true, kernelGrowth
	r.poll = 0 // a visit computes a kernel value with every support vector
	mistakes, visited, err := s.learn(ds, r)
	if ds.halt.stopped(err) {
		return err
	}
	m.h.visits = m.base + visited
	if m.h.removed > m.base {
		m = m.canonical(false)
	}
	if visited > 0 {
		w.m = m
	}
	w.stats.Mistakes += mistakes
	return err
}

func (k *Kernel) settings(rnd *rand.Rand) settings {
	return settings{epochs: k.Epochs, rate: k.Rate, rnd: rnd, noBias: k.NoBias, onUpdate: k.OnUpdate, stop: k.Stop, weights: k.ClassWeight, source: k.Rand, labels: k.Labels}
}

// resolve checks the settings and the kernel for rows of length d.
func (k *Kernel) resolve(d int) (settings, kern, error) {
	s, err := k.settings(k.Rand).resolve(d, 1)
	if err != nil {
		return s, kern{}, err
	}
	if k.Budget < 0 {
		return s, kern{}, errorf(ErrSetting, "perceptron: Budget is %d, want >= 0", k.Budget)
	}
	if err := k.Prediction.check(); err != nil {
		return s, kern{}, err
	}
	if k.Func == nil {
		return s, kern{kind: linearKernel}, nil
	}
	kn, err := k.Func.kernel(d)
	return s, kn, err
}

// Predict returns the class of x under the Prediction rule, as the
// scores of ScoreRows choose it, deciding on the sums before their
// division for PredictAveraged, so that a tie is exact where they are. It
// panics if the Kernel has not been fitted, if len(x) is not the number
// of columns it was fitted on, or if Prediction is not valid.
func (k *Kernel) Predict(x []float64) float64 {
	m := k.checked("Predict")
	checkLength(x, m.d)
	buf := getBuffer(m.nScores())
	defer putBuffer(buf)
	m.scoresOf(*buf, vec{val: x}, k.Prediction)
	return decide(m.classes, *buf)
}

// ScoreRows returns the scores of the rows of X under the Prediction
// rule, as Scorer says: for PredictLast those of the last hypothesis; for
// PredictVoted the votes sum_k c_k·sign(f_k(x)) of the hypotheses f_k,
// each of which survived c_k visits, or with more classes the votes for
// each class; for PredictAveraged the mean score of the hypotheses after
// every visit.
func (k *Kernel) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	S := k.checked("ScoreRows").nScores()
	n, _ := dims(X)
	dst = rowsDst(dst, n*S)
	k.eachBlock(X, func(i int, s []float64, div float64) {
		for c := range s {
			dst[i*S+c] = s[c] / div
		}
	})
	return dst
}

// PredictRows returns the classes of the rows of X, as Predict chooses
// them up to rounding.
func (k *Kernel) PredictRows(dst []float64, X mat.Matrix) []float64 {
	m := k.checked("PredictRows")
	n, _ := dims(X)
	dst = rowsDst(dst, n)
	k.eachBlock(X, func(i int, s []float64, _ float64) {
		dst[i] = decide(m.classes, s)
	})
	return dst
}

// eachBlock calls f with every row of X, its scores under the Prediction
// rule before any division and their divisor, taking the rows in blocks
// whose kernel values with a support vector, or with 16 at once where
// valuesOf can, come from one matrix product, spread over the workers.
func (k *Kernel) eachBlock(X mat.Matrix, f func(i int, s []float64, div float64)) {
	m, mode := k.viewed().m, k.Prediction
	r, xs := rowsFor(X, m.d)
	parallel((r+blockRows-1)/blockRows, func() func(int) {
		u := m.vectors()
		bx := newRows(m.d, blockRows, xs.sparse())
		bn := make([]float64, blockRows)
		// A batch of support vectors at a time where their dot products
		// with the rows are formed together, and one where the batches'
		// bookkeeping would cost more than it saves.
		many, batch := m.k.many(m.d, xs.sparse()) && !m.sv.sparse(), 1
		if many {
			batch = chunkChanges
		}
		mv := newManyValues(m.d, many)
		kt := make([]float64, blockRows*u) // kt[q·u+v] = K(sv_v, row q)
		s := make([]float64, m.nScores())
		return func(b int) {
			lo := b * blockRows
			nb := min(r-lo, blockRows)
			bx.reset()
			for q := range nb {
				x := xs.row(lo + q)
				bx.append(x)
				bn[q] = m.k.norm(x)
			}
			for v0 := 0; v0 < u; v0 += batch {
				var kv []float64
				if batch == 1 {
					kv = mv.k[:nb]
					m.k.values(kv, bx, bn, m.sv.row(v0), m.vectorNorm(v0))
				} else {
					mv.reset()
					for v := v0; v < min(v0+batch, u); v++ {
						mv.add(m.sv.row(v), m.vectorNorm(v), nb)
					}
					kv = m.k.valuesOf(nb, bx, bn, mv)
				}
				for e := range len(kv) / nb {
					for q, s := range kv[e*nb : (e+1)*nb] {
						kt[q*u+v0+e] = s
					}
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
// order they were stored, sparse if the Kernel was trained on sparse
// rows, and the coefficients coef and biases b of the expansion whose
// scores the Prediction rule computes, up to rounding: the score of
// class c, or the one score of two classes, is
// sum_v coef[v·S+c]·K(sv_v, x) + b[c], S being the number of scores. For
// PredictLast these are the coefficients of the last hypothesis, for
// PredictAveraged those of the average; the vote of PredictVoted is no
// such sum, and coef and b are nil. It returns nil, nil, nil if the
// Kernel has not been fitted.
func (k *Kernel) SupportVectors() (sv mat.Matrix, coef, b []float64) {
	m := k.viewed().m
	if m == nil {
		return nil, nil, nil
	}
	coef, b = m.coefficients(k.Prediction)
	return m.sv.matrix(), coef, b
}

// Classes returns a copy of the classes, as Scorer says.
func (k *Kernel) Classes() []float64 {
	m := k.viewed().m
	if m == nil {
		return nil
	}
	return slices.Clone(m.classes)
}

// Stats returns a description of the training of the Kernel.
func (k *Kernel) Stats() Stats { return k.viewed().stats.clone() }

// checked returns the model, panicking in the manner of gonum if it has
// not been fitted or Prediction is not valid. method names the caller in
// the message.
func (k *Kernel) checked(method string) *expansion {
	m := k.viewed().m
	if m == nil {
		panic(notFitted(method))
	}
	if err := k.Prediction.check(); err != nil {
		panic(err)
	}
	return m
}

func (k *Kernel) width() int {
	m := k.viewed().m
	if m == nil {
		return 0
	}
	return m.d
}

// kernelSettingsJSON is the JSON form of the settings of Kernel. Func is
// null for a nil Func.
type kernelSettingsJSON struct {
	Func        *kernelJSON       `json:"func"`
	Prediction  string            `json:"prediction"`
	Budget      int               `json:"budget"`
	Epochs      int               `json:"epochs"`
	Rate        float64           `json:"rate"`
	NoBias      bool              `json:"noBias"`
	Labels      []float64         `json:"labels"`
	ClassWeight []classWeightJSON `json:"classWeight,omitempty"`
	Stop        *stopJSON         `json:"stop"`
}

// MarshalJSON returns the saved form of the fitted kernel perceptron, as
// Perceptron's MarshalJSON does, with the kernel it was fitted with, the
// support vectors and the mistakes of the hypothesis. It returns an error
// if the Kernel has not been fitted, or if its kernel, or the one it was
// fitted with, is a Custom one: a Go function, which no file can hold.
func (k Kernel) MarshalJSON() ([]byte, error) { return marshalJSON(k) }

func (k Kernel) saved(method string) (saved, error) {
	km := k.viewed()
	if km.m == nil {
		return newSaved(method, false, nil, saved{})
	}
	f, err := funcJSON(k.Func)
	if err == nil && km.m.k.kind == customKernel {
		err = errorf(ErrSetting, "perceptron: the Kernel was fitted with a Custom kernel, a Go function, which cannot be saved")
	}
	if err != nil {
		return saved{}, wrapf(err, "perceptron: %s: %s", method, strings.TrimPrefix(err.Error(), "perceptron: "))
	}
	check := func() error {
		if err := checkClassSettings(k.Labels, weightPairs(k.ClassWeight), km.m.classes); err != nil {
			return err
		}
		_, _, err := k.resolve(km.m.d)
		return err
	}
	if err := check(); err != nil {
		return newSaved(method, true, check, saved{})
	}
	s := kernelSettingsJSON{Func: f, Prediction: predictionNames[k.Prediction], Budget: k.Budget, Epochs: k.Epochs, Rate: k.Rate, NoBias: k.NoBias, Labels: k.Labels, ClassWeight: weightPairs(k.ClassWeight), Stop: (*stopJSON)(k.Stop)}
	return saved{typ: "Kernel", settings: s, model: km.m.json(), stats: &km.stats, d: km.m.d, S: km.m.nScores()}, nil
}

// UnmarshalJSON sets the kernel perceptron to the one saved in data, as
// Perceptron's UnmarshalJSON does. With a Budget and a nil Rand, Learn
// then draws the mistakes to remove from a fresh source of the fixed
// seed, not from where the saved Kernel's source had got to.
func (k *Kernel) UnmarshalJSON(data []byte) error { return unmarshalJSON(k, data) }

// load sets the kernel perceptron to the one saved in f.
func (k *Kernel) load(f form) error {
	var s kernelSettingsJSON
	var j expansionJSON
	st, err := f.decode("Kernel", &s, &j)
	if err != nil {
		return err
	}
	set := Kernel{Budget: s.Budget, Epochs: s.Epochs, Rate: s.Rate, NoBias: s.NoBias, Labels: s.Labels, ClassWeight: weightMap(s.ClassWeight), Stop: (*Stop)(s.Stop)}
	if s.Func != nil {
		set.Func, err = s.Func.kernelFunc()
	}
	if err == nil {
		set.Prediction, err = predictionOf(s.Prediction)
	}
	if err == nil && s.Labels != nil {
		_, err = checkLabels(s.Labels)
	}
	if err == nil && j.Features > 0 {
		_, _, err = set.resolve(j.Features)
	}
	if err != nil {
		return settingsError("Kernel", err)
	}
	m, err := j.expansion(st.Mistakes)
	if err != nil {
		return wrap("Kernel", err)
	}
	if err := checkWeights(s.ClassWeight, m.classes); err != nil {
		return settingsError("Kernel", err)
	}
	if err := f.shape("Kernel", m.d, m.nScores()); err != nil {
		return err
	}
	set.Rand, set.OnUpdate = k.Rand, k.OnUpdate
	*k = set
	k.set(kernelModel{m, st})
	return nil
}
