// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// What scikit-learn computes (sklearn/linear_model/_sgd_fast.pyx,
// _plain_sgd, and sklearn/utils/_weight_vector.pyx.tp; the Debian package
// ships them compiled, so they were read in scikit-learn's source):
//
//   - Perceptron and SGDClassifier(loss='perceptron') use the loss
//     Hinge(threshold=0), whose derivative is -y when y·p <= 0, with
//     p = w·x + b: a score of zero is a mistake, as in this library. The
//     update is w += eta0·y·x and, with a dense X, b += eta0·y (the
//     intercept decay is 1 for dense data). With a sparse X the intercept
//     decay is SPARSE_INTERCEPT_DECAY, 0.01: b += 0.01·eta0·y, so on
//     sparse rows the two sides train different models, and only their
//     times and accuracies are compared.
//   - With tol=None there is no stopping rule: every one of the max_iter
//     epochs runs. This library stops at the first epoch with no mistake;
//     the weights cannot change after such an epoch, since the same rows
//     meet the same weights again, so the weights still agree.
//   - average=True averages from the first example on: after every example
//     visited, mistake or not, it folds the current w and b into a running
//     mean (Bottou's trick), so coef_ and intercept_ are the mean of the
//     weights after each of the T = n·epochs visits. Averaged computes the
//     same mean by Daumé's cached weights (the check allows a positive
//     factor between the two, which changes no prediction, and prints it).
//     Averaged stops passing over the data at a mistake-free epoch, but
//     adds the visits of the epochs left with the last weights, as
//     scikit-learn goes on averaging them: both average over all the
//     epochs.
//   - predict gives the first class, -1, for a score of exactly zero, and
//     this library gives +1.
//
// On the same rows in the same order the two sides therefore make the same
// mistakes, unless a dot product that rounds differently (the two sum in a
// different order) crosses zero.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// weightTol bounds, relative to max(1, |w|∞, |b|), the difference between
// the weights of two perceptrons that make the same mistakes. With rate 1
// an update adds ±x to w exactly, and both sides add the same rows in the
// same order, so their weights agree bit for bit; only if a decision went
// the other way would they differ, and then by a whole row (a pixel is a
// multiple of 1/255; a synthetic feature is uniform in [0, 1)). Any
// tolerance far between the two would do.
const weightTol = 1e-9

// averageTol returns the tolerance, relative to the largest value, for the
// difference between two averages of the weights over T visits, once the
// positive factor between them is divided out, and for a score of such an
// average that counts as a tie, relative to Σ|w_j·x_j| + |b|. The two sides
// form the same mean of T terms in different ways (scikit-learn by
// Bottou's running rescaling, this library by Daumé's counter), each with
// a rounding error of at most about T·ε relative; 64·T·ε covers both with
// room to spare. A single mistake made by one side and not the other would
// move the average by about a row divided by T, far more for the runs
// here (T·ε ≈ 10⁻¹⁰ for T = 10⁶), and the check of the weights under the
// average would catch it in any case.
func averageTol(visits int) float64 {
	return 64 * float64(visits) * 0x1p-53
}

// checks runs the agreement checks on the classifiers that ran, and on
// sparse rows the targets.
func (r *run) checks() {
	if r.ds.check != nil {
		r.ds.check(r)
		return
	}
	switch {
	case r.sklearnRan && r.ds.sparse():
		r.checkLines = append(r.checkLines, "check: no weights compared: on sparse rows scikit-learn steps the intercept by 0.01·eta0·y, and trains another model")
	case r.sklearnRan:
		r.checkSklearn()
	}
	for _, w := range r.wekaRuns {
		r.checkWeka(w)
	}
	r.pocketTarget()
	if r.ds.sparse() {
		r.targets()
	}
}

// pocketRatio is the most that an epoch of the exact pocket may cost, in
// epochs of Perceptron on the same rows (issue 35).
const pocketRatio = 30

// pocketMinRows is the fewest training rows on which pocketTarget checks
// the pocket: on fewer the times are too short to compare.
const pocketMinRows = 1000

// pocketTarget checks the exact pocket's time per epoch against
// Perceptron's, where both ran on pocketMinRows rows or more.
func (r *run) pocketTarget() {
	if n, _ := r.ds.train.Dims(); n < pocketMinRows {
		return
	}
	pocket, ok := r.library("Pocket")
	perceptron, ok2 := r.library("Perceptron")
	if !ok || !ok2 {
		return
	}
	ratio := perEpoch(pocket) / perEpoch(perceptron)
	r.target(fmt.Sprintf("Pocket: its epoch / Perceptron's %.1fx", ratio), ratio <= pocketRatio, fmt.Sprintf("<= %gx", float64(pocketRatio)))
}

// Targets on sparse rows, for Perceptron and Averaged on the same CSR:
// our epoch at most sparseFloorRatio times the floor, Perceptron's epoch
// no slower than scikit-learn's Perceptron's, which takes at least
// sparsePeerRatio times as long, and the CSR and the memory that Fit
// allocates at most sparseMemRatio times the CSR. The ratio of
// scikit-learn's averaged SGDClassifier to Averaged is reported, with no
// target.
const (
	sparsePeerRatio  = 1
	sparseFloorRatio = 1.5
	sparseMemRatio   = 2
)

// targets checks the targets on sparse rows.
func (r *run) targets() {
	csr := csrBytes(r.ds.train.(*perceptron.CSR))
	for _, name := range []string{"Perceptron", "Averaged"} {
		ours, ok := r.library(name)
		if !ok {
			continue
		}
		for _, p := range r.rows {
			if p.vs != name {
				continue
			}
			ratio := perEpoch(p) / perEpoch(ours)
			what := fmt.Sprintf("%s: %s %s per epoch / ours %.2fx", name, p.system, p.model, ratio)
			if p.system == "scikit-learn" && p.model == "Perceptron" {
				r.target(what, ratio >= sparsePeerRatio, fmt.Sprintf(">= %gx", float64(sparsePeerRatio)))
			} else {
				r.checkLines = append(r.checkLines, what+" (no target)")
			}
		}
		ratio := perEpoch(ours) / r.floor.Seconds()
		r.target(fmt.Sprintf("%s: ours per epoch / floor %.2fx", name, ratio),
			ratio <= sparseFloorRatio, fmt.Sprintf("<= %gx", sparseFloorRatio))
		m := ours.mem
		ratio = float64(csr+m.allocated) / float64(csr)
		r.target(fmt.Sprintf("%s: memory during Fit / CSR %.2fx: the CSR, %.2f MB, and at most the %.2f MB that Fit allocates (the whole live heap at most %.2f MB)",
			name, ratio, mb(csr), mb(m.allocated), mb(m.live+m.allocated)),
			ratio <= sparseMemRatio, fmt.Sprintf("<= %gx", float64(sparseMemRatio)))
	}
}

// target records whether a target was met.
func (r *run) target(what string, met bool, want string) {
	if met {
		r.checkLines = append(r.checkLines, fmt.Sprintf("target: %s: met (want %s)", what, want))
		return
	}
	r.checkLines = append(r.checkLines, fmt.Sprintf("!!! target: %s: MISSED (want %s)", what, want))
	r.failed++
}

// checkSklearn checks Perceptron and Averaged against scikit-learn.
func (r *run) checkSklearn() {
	if p, ok := r.fitted["Perceptron"].(*perceptron.Perceptron); ok && r.ran("scikit-learn", "perceptron") {
		what := fmt.Sprintf("Perceptron = scikit-learn Perceptron after %d epochs: weights and bias", r.epochs)
		coef, err := readFloats(filepath.Join(r.dir, fmt.Sprintf("perceptron-%d.coef", r.epochs)))
		if err != nil {
			r.verdict(what, outcome{false, err.Error()})
		} else {
			w, b := p.Weights()
			r.verdict(what, compareWeights(slices.Concat(w, b), coef))
		}
	}
	if a, ok := r.fitted["Averaged"]; ok && r.ran("scikit-learn", "sgd-avg") {
		r.checkAveraged(a)
	}
}

// checkAveraged checks Averaged against scikit-learn's averaged
// SGDClassifier, both run for -epochs epochs.
func (r *run) checkAveraged(a perceptron.Scorer) {
	k := r.epochs
	base := filepath.Join(r.dir, fmt.Sprintf("sgd-avg-%d.", k))
	read := func(name string) []float64 {
		v, err := readFloats(base + name)
		if err != nil {
			r.verdict("Averaged = scikit-learn averaged SGDClassifier", outcome{false, err.Error()})
		}
		return v
	}
	Xtr, Xte := r.ds.dense()
	n, _ := Xtr.Dims()
	tol := averageTol(n * k)
	coef, standard := read("coef"), read("standard")
	if coef == nil || standard == nil {
		return
	}
	for _, set := range []struct {
		name string
		X    *mat.Dense
	}{{"train", Xtr}, {"test", Xte}} {
		pred, dec := read("pred."+set.name), read("dec."+set.name)
		if pred == nil || dec == nil {
			return
		}
		what := fmt.Sprintf("Averaged = scikit-learn averaged SGDClassifier after %d epochs: %s predictions", k, set.name)
		r.verdict(what, comparePredictions(a.PredictRows(nil, set.X), pred, dec, set.X, coef, tol))
	}
	if lin, ok := a.(*perceptron.Averaged); ok {
		what := fmt.Sprintf("Averaged = scikit-learn averaged SGDClassifier after %d epochs: weights and bias up to a positive factor", k)
		w, b := lin.Weights()
		r.verdict(what, compareScaled(w, b[0], coef, tol))
	}
	// The weights under the average are the perceptron's: this shows that
	// the averaged model was trained on the same mistakes. (scikit-learn
	// does not keep the last bias when it averages.)
	if p, ok := r.fitted["Perceptron"].(*perceptron.Perceptron); ok {
		what := fmt.Sprintf("Perceptron = scikit-learn averaged SGDClassifier's last, unaveraged weights after %d epochs", k)
		w, _ := p.Weights()
		r.verdict(what, compareWeights(w, standard))
	}
}

// What Weka's VotedPerceptron computes (its class
// weka.classifiers.functions.VotedPerceptron, of Weka 3.6 as Debian ships
// it, read from its bytecode with javap -c):
//
//   - Its hypothesis is a list of mistakes over the kernel (x·z+1)^E, with
//     no other bias, and a mistake adds the row with its label, as in
//     Freund and Schapire: Kernel{Func: Poly{Degree: E, Gamma: 1, Coef0: 1},
//     NoBias: true}, and for E = 1 Voted, whose bias is the kernel's +1.
//   - In training it predicts pos (+1) for a score >= 0, so that a score of
//     exactly zero is a mistake on a neg row only; this library counts
//     it as a mistake whatever the label. In practice only
//     the empty hypothesis scores exactly zero, so the two differ at the
//     start: Weka's first mistake is on the first neg row, visit j+1, and
//     the j pos rows before it are votes for the empty hypothesis. From
//     that mistake on the two make the same mistakes, unless a score that
//     rounds differently (the sums are taken in different orders) crosses
//     zero.
//   - It predicts by the vote Σ c_k·sign(f_k(x)) with sign(0) = +1, as
//     Voted and Kernel do, the empty hypothesis included with its j
//     votes; for a vote of exactly zero its distribution is (1/2, 1/2) and
//     it takes the first class, neg, where this library takes +1.
//   - It stops training at its 10000th mistake (-M 10000).
//
// So this library's model, fitted on the rows from visit j+1 on, classifies
// a row as Weka does if it takes pos for a vote plus j above zero. Weka
// prints how many rows it classifies right, not its predictions, so the
// check compares those numbers: equal numbers are necessary, not
// sufficient, but a model that made other mistakes would have to land on
// both of Weka's numbers, for the training and the test rows, by chance.

// compareOrders fits the model that newC returns on the training rows in
// r.orders orders, shuffled by Perm of rand.NewPCG(k, 0) for k = 1, 2,
// ..., once as this library fits and predicts and once as Weka does, the
// way the check reproduces it, and prints the mean test accuracy of each.
// The two part only at a score of zero, at the first visits, and at a tied
// vote. Weka's own order is one draw of the order, in which a few test
// rows can go either way; the mean over many tells whether this library's rule
// costs accuracy.
func (r *run) compareOrders(name string, newC func() scorer) {
	ds := r.ds
	Xtr, Xte := ds.dense()
	n, d := Xtr.Dims()
	X, y := mat.NewDense(n, d, nil), make([]float64, n)
	var ours, weka float64
	ahead, behind := 0, 0
	for k := range r.orders {
		for i, p := range rand.New(rand.NewPCG(uint64(k+1), 0)).Perm(n) {
			X.SetRow(i, Xtr.RawRowView(p))
			y[i] = ds.ytrain[p]
		}
		c := newC()
		if err := c.Fit(X, y); err != nil {
			r.fail("orders: %s: %v", name, err)
			return
		}
		a := accuracy(c.PredictRows(nil, ds.test), ds.ytest)
		c = newC()
		j, err := fitWeka(c, X, y)
		if err != nil {
			r.fail("orders: %s as Weka: %v", name, err)
			return
		}
		b := wekaClassified(c.ScoreRows(nil, Xte), j, ds.ytest).accuracy()
		ours += a
		weka += b
		switch {
		case a > b:
			ahead++
		case a < b:
			behind++
		}
	}
	k := float64(r.orders)
	r.checkLines = append(r.checkLines, fmt.Sprintf(
		"orders: %s over %d shuffled orders: mean test accuracy %.2f%%, and %.2f%% as Weka fits and predicts; ahead of Weka in %d, behind in %d, level in %d",
		name, r.orders, 100*ours/k, 100*weka/k, ahead, behind, r.orders-ahead-behind))
}

// scorer is a classifier with a decision function and the statistics of
// its training run.
type scorer interface {
	perceptron.Scorer
	Stats() perceptron.Stats
}

// ran reports whether the model key of system ran on this data set.
func (r *run) ran(system, key string) bool {
	for _, p := range r.active(system) {
		if p.key == key {
			return true
		}
	}
	return false
}

// outcome is the result of a comparison: whether the two sides agree, and
// the figures that show it.
type outcome struct {
	ok     bool
	detail string
}

// verdict records the outcome of a check.
func (r *run) verdict(what string, o outcome) {
	if o.ok {
		r.checkLines = append(r.checkLines, fmt.Sprintf("check: %s: agree (%s)", what, o.detail))
		return
	}
	r.checkLines = append(r.checkLines, fmt.Sprintf("!!! check: %s: DISAGREE: %s", what, o.detail))
	r.failed++
}

// compareWeights compares our weights with a peer's, each given as the
// weights followed by the bias, if there is one.
func compareWeights(ours, theirs []float64) outcome {
	if len(ours) != len(theirs) {
		return outcome{false, fmt.Sprintf("the peer has %d values, want %d", len(theirs), len(ours))}
	}
	diff, at := 0.0, 0
	for j := range ours {
		if d := math.Abs(ours[j] - theirs[j]); d > diff || math.IsNaN(d) {
			diff, at = d, j
		}
	}
	tol := weightTol * max(1, floats.Norm(theirs, math.Inf(1)))
	switch {
	case diff == 0:
		return outcome{true, "equal bit for bit"}
	case diff <= tol:
		return outcome{true, fmt.Sprintf("max difference %.3g, within %.3g", diff, tol)}
	}
	return outcome{false, fmt.Sprintf("max difference %.6g at [%d] (ours %.17g, theirs %.17g) of %d values; tolerance %.3g",
		diff, at, ours[at], theirs[at], len(ours), tol)}
}

// compareScaled compares the weights w and bias b with a peer's coef up to
// a positive factor: the factor s that best fits (w, b) ≈ s·coef, and the
// largest difference relative to the largest value, which must be at most
// tol.
func compareScaled(w []float64, b float64, coef []float64, tol float64) outcome {
	if len(coef) != len(w)+1 {
		return outcome{false, fmt.Sprintf("the peer has %d values, want %d weights and the bias", len(coef), len(w))}
	}
	ours := append(append([]float64(nil), w...), b)
	s := floats.Dot(ours, coef) / floats.Dot(coef, coef)
	diff, size := 0.0, 0.0
	for j, v := range coef {
		diff = max(diff, math.Abs(ours[j]-s*v))
		size = max(size, math.Abs(s*v))
	}
	rel := diff / size
	if s > 0 && rel <= tol {
		return outcome{true, fmt.Sprintf("factor %.9g, relative difference %.3g, within %.3g", s, rel, tol)}
	}
	return outcome{false, fmt.Sprintf("best factor %.9g, relative difference %.3g; tolerance %.3g", s, rel, tol)}
}

// comparePredictions compares our predictions with a peer's, pred, whose
// scores are dec and whose weights and bias are coef. A disagreement on a
// row whose score is within tol·(Σ|coef_j·x_j| + |b|) of zero, a tie that
// rounding decides, is allowed and counted.
func comparePredictions(ours, pred, dec []float64, X *mat.Dense, coef []float64, tol float64) outcome {
	n, d := X.Dims()
	if len(ours) != n || len(pred) != n || len(dec) != n || len(coef) != d+1 {
		return outcome{false, fmt.Sprintf("%d, %d and %d predictions and %d weights for %d rows of %d features", len(ours), len(pred), len(dec), len(coef), n, d)}
	}
	ties, bad, first := 0, 0, -1
	for i := range n {
		if ours[i] == pred[i] {
			continue
		}
		size := math.Abs(coef[d])
		for j, v := range X.RawRowView(i) {
			size += math.Abs(coef[j] * v)
		}
		if math.Abs(dec[i]) <= tol*size {
			ties++
			continue
		}
		if bad == 0 {
			first = i
		}
		bad++
	}
	alike := fmt.Sprintf("%d of %d rows predicted alike", n-ties-bad, n)
	if ties > 0 {
		alike += fmt.Sprintf(", %d differ on a score within rounding of zero", ties)
	}
	if bad == 0 {
		return outcome{true, alike}
	}
	return outcome{false, fmt.Sprintf("%s, %d differ on a clear score; the first is row %d: ours %v, theirs %v with score %.6g",
		alike, bad, first, ours[first], pred[first], dec[first])}
}
