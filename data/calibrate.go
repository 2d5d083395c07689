// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// Calibration turns the scores of a Model's Classifier into probabilities
// of its classes, fitted to the classes of rows that the Classifier did not
// train on.
//
// Of two classes, whose Classifier gives a row one score s, the
// probability of the second class is the sigmoid of Platt (1999),
//
//	p = 1 / (1 + exp(A[0]·s + B[0])),
//
// and that of the first is 1 − p, as scikit-learn's CalibratedClassifierCV
// with method="sigmoid" makes them. Of K > 2 classes, whose Classifier
// gives a row a score s_k for each class, they are the softmax of the
// arguments z_k = A[k]·s_k + B[k],
//
//	p_k = exp(−z_k) / Σ_j exp(−z_j),
//
// which is Platt's sigmoid for two classes, and which Guo, Pleiss, Sun and
// Weinberger (2017) call vector scaling; or, if OneVsRest is set, the
// sigmoid of each class's score against the rest, 1 / (1 + exp(z_k)),
// divided by the sum of the sigmoids of all the classes, as
// CalibratedClassifierCV with method="sigmoid" makes them. The softmax is
// computed without overflow, and so is the division of the sigmoids, in
// logarithms where every sigmoid of a row is below the smallest normal
// float64; where they are all 0 in logarithms too, the classes are
// equally probable.
type Calibration struct {
	// OneVsRest, if set, makes the probabilities of more than two classes
	// the sigmoids of each class against the rest, each fitted on its
	// own and then normalised, in place of the softmax of the arguments
	// of all the classes, fitted together.
	OneVsRest bool `json:"oneVsRest,omitempty"`

	// A and B are the slope and the intercept of the argument of each
	// score: one of each for two classes, and one for each class, in the
	// order of the Model's Classes, for more. A is negative where a
	// higher score makes a class more probable.
	A []float64 `json:"a"`
	B []float64 `json:"b"`
}

// Fit fits the slopes and the intercepts of the Calibration to the scores
// of the rows of y, as a Model's Score gives them, S for each row: one for
// two classes, and one for each class for more; y holds the class of each
// row, an index from 0 to classes−1, as a Set's Y holds them. It sets A
// and B, and keeps OneVsRest. The scores must be of rows that the
// Classifier did not train on, held out or of folds that it did not see:
// the scores of its training rows separate their classes better than
// those of new rows, and would make the probabilities too sure.
//
// The slopes and the intercepts minimise the cross-entropy of the
// probabilities against targets that smooth the classes of the rows by
// the prior of Platt (1999), with the targets of Lin, Lin and Weng (2007):
// of a row of a class of N rows, (N+1)/(N+2) for its class and 1/(N+2)
// for the others, shared equally among them, which keeps A and B finite
// where the scores separate the classes. A sigmoid against the rest takes
// the rows of its class for one class and all the others for the other,
// as scikit-learn's _sigmoid_calibration fits it. The softmax is the same
// for intercepts that differ by a constant: the last is 0. A score whose
// values are all alike has the slope 0. The minimum is found by Newton's
// method (gonum's optimize.Newton) from the slopes 0 and the intercepts
// that give each class its mean target, in the units of each score
// divided by the largest of its magnitudes, to a gradient whose largest
// element is below 1e-9 times the number of rows. The objective is
// convex, and, so constrained, its minimum unique.
//
// Fit returns an error, and changes nothing, if classes is less than 2,
// if y is empty, if scores has not S for each row of y, if a class is
// not a whole number from 0 to classes−1, or naming the row of a score
// that is not finite, of kind perceptron.ErrShape or perceptron.ErrNonFinite
// where those apply, and if the optimisation fails. It takes time linear
// in the rows for each iteration of Newton's method, at most 100 for
// each fit, times the scores of a row for a sigmoid against the rest and
// their square for the softmax, and holds nothing that grows with the
// rows besides A and B; the softmax holds copies of its Hessian
// besides, five of 8 bytes for each pair of its parameters, fewer than
// 2·classes, whose memory it checks first. Fit changes the Calibration:
// it must not run concurrently with a Model's use of it.
func (c *Calibration) Fit(scores, y []float64, classes int) error {
	if classes < 2 {
		return errorf(perceptron.ErrLabels, "data: a calibration of %d classes, want 2 or more", classes)
	}
	S := scoresOf(classes)
	n := len(y)
	switch {
	case n == 0:
		return errorf(perceptron.ErrShape, "data: no rows to calibrate on")
	case len(scores) != n*S:
		return errorf(perceptron.ErrShape, "data: %d scores of %d rows, want %d for each row of %d classes", len(scores), n, S, classes)
	}
	for i, v := range y {
		if !(v >= 0 && v < float64(classes)) || v != math.Trunc(v) {
			kind := perceptron.ErrLabels
			if math.IsNaN(v) {
				kind = perceptron.ErrNonFinite
			}
			return errorAt(kind, 0, i, -1, "data: y[%d] is %v, want a class: a whole number from 0 to %d", i, v, classes-1)
		}
	}
	for i, v := range scores {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errorAt(perceptron.ErrNonFinite, 0, i/S, -1, "data: row %d: a score is %v", i/S+1, v)
		}
	}
	A, B := make([]float64, S), make([]float64, S)
	if S > 1 && !c.OneVsRest {
		if err := fitSoftmax(A, B, scores, y); err != nil {
			return wrapf(err, "data: the softmax: %w", err)
		}
		c.A, c.B = A, B
		return nil
	}
	for k := range S {
		class := float64(k)
		if S == 1 {
			class = 1 // the one score is the second class's
		}
		var err error
		if A[k], B[k], err = fitSigmoid(scores, S, k, y, class); err != nil {
			return wrapf(err, "data: the sigmoid of score %d: %w", k+1, err)
		}
	}
	c.A, c.B = A, B
	return nil
}

// check returns an error if the Calibration is not one of the S scores of
// a row: S slopes and intercepts, each finite.
func (c *Calibration) check(S int) error {
	if len(c.A) != S || len(c.B) != S {
		return errorf(perceptron.ErrShape, "data: the Calibration's slopes and intercepts are %d and %d, want %d of each, one for each score of a row", len(c.A), len(c.B), S)
	}
	for k := range S {
		for _, v := range []float64{c.A[k], c.B[k]} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return errorf(perceptron.ErrNonFinite, "data: the Calibration's score %d has the slope or intercept %v, want finite ones", k+1, v)
			}
		}
	}
	return nil
}

// probabilities sets p to the probabilities of the K classes of a row of
// the scores s, as the Calibration's documentation gives them.
func (c *Calibration) probabilities(p, s []float64) {
	switch {
	case len(s) == 1:
		q := sigmoid(c.A[0]*s[0] + c.B[0])
		p[0], p[1] = 1-q, q
		return
	case !c.OneVsRest:
		for k, v := range s {
			p[k] = -(c.A[k]*v + c.B[k])
		}
		softmax(p)
		return
	}
	sum := 0.0
	for k, v := range s {
		p[k] = sigmoid(c.A[k]*v + c.B[k])
		sum += p[k]
	}
	if sum >= 0x1p-1022 {
		for k := range p {
			p[k] /= sum
		}
		return
	}
	// Every sigmoid is below the smallest normal number, or 0: divide in
	// logarithms, the logarithm of each -ln(1+e^z).
	for k, v := range s {
		z := c.A[k]*v + c.B[k]
		p[k] = -(max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))))
	}
	softmax(p)
}

// softmax sets the logarithms v to the probabilities that they are the
// logarithms of, but for a common term: exp(v_k) / Σ exp(v_j), without
// overflow, and to equal probabilities if every v_k is -Inf.
func softmax(v []float64) {
	top := math.Inf(-1)
	for _, x := range v {
		top = max(top, x)
	}
	if math.IsInf(top, -1) {
		for k := range v {
			v[k] = 1 / float64(len(v))
		}
		return
	}
	sum := 0.0
	for k, x := range v {
		v[k] = math.Exp(x - top)
		sum += v[k]
	}
	for k := range v {
		v[k] /= sum
	}
}

// Calibrate fits a Calibration to the Classifier's scores of the rows of
// s, transformed as Transform transforms them, as the Calibration's Fit
// fits it, and sets Calibration to it: a new one, of the OneVsRest of the
// Model's Calibration, if it has one. The rows must be ones that the
// Classifier did not train on, as Fit says: held out from those of the
// Model's Fit. The classes of s must be those of the Model, as Learn takes
// them: s.Classes must start with the Model's Classes, and every row must
// be of one of them.
//
// Calibrate returns an error, and changes nothing, if s is not a Set that
// Subset takes or has no labels, if s.Classes do not start with the
// Model's, naming the first row of a class that is none of the Model's,
// and the errors of Score and of the Calibration's Fit. It holds the
// scores of the rows besides what Score holds. It changes the Model: it
// must not run concurrently with the Model's other methods.
func (m *Model) Calibrate(s *Set) error {
	if err := s.check(); err != nil {
		return err
	}
	if s.Y == nil {
		return errorf(perceptron.ErrLabels, "data: Calibrate needs the labels of the rows, and the Set has none")
	}
	if err := m.check(); err != nil {
		return err
	}
	K := len(m.Classes)
	for k, l := range m.Classes {
		if k >= len(s.Classes) || s.Classes[k] != l {
			return errorf(perceptron.ErrLabels, "data: the Set's classes %s, want the Model's, %s, first", quoteAll(s.Classes), quoteAll(m.Classes))
		}
	}
	for i, k := range s.Y {
		if int(k) >= K {
			return errorAt(perceptron.ErrLabels, 0, i, -1, "data: row %d is of the class %s, which is none of the Model's", i+1, quote(s.Classes[int(k)]))
		}
	}
	scores, err := m.Score(s.X)
	if err != nil {
		return err
	}
	c := &Calibration{}
	if m.Calibration != nil {
		c.OneVsRest = m.Calibration.OneVsRest
	}
	if err := c.Fit(scores, s.Y, K); err != nil {
		return err
	}
	m.Calibration = c
	return nil
}

// checkCalibration returns an error if the Model has no Calibration, or
// one that is not of the scores of its Classifier's rows.
func (m *Model) checkCalibration() error {
	if m.Calibration == nil {
		return errorf(perceptron.ErrNotFitted, "data: the Model has no Calibration to make probabilities: Calibrate fits one")
	}
	if err := m.check(); err != nil {
		return err
	}
	return m.Calibration.check(scoresOf(len(m.Classes)))
}

// Probabilities returns the probabilities of the classes of each row of X,
// transformed, that the Calibration makes of the Classifier's scores: K
// for each row, one for each of the Model's Classes in their order, row
// i's at [i·K, (i+1)·K), which sum to 1 within rounding. The most
// probable class of a row is not always the class that Predict returns:
// the slopes and the intercepts of the classes may rank them otherwise
// than their scores do.
//
// Probabilities returns an error if the Model has no Calibration, or one
// that is not of its scores, and the errors of Predict. It holds the
// probabilities, 8 bytes for each class of each row, and scores a block
// of rows at a time, as Predict does. It may run concurrently as Predict.
func (m *Model) Probabilities(X mat.Matrix) ([]float64, error) {
	if X == nil {
		return nil, errorf(perceptron.ErrShape, "data: no rows to make probabilities of: X is nil")
	}
	if err := m.checkCalibration(); err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	K := len(m.Classes)
	if err := checkMemory(8*float64(n)*float64(K), "data: the probabilities of %d rows", n); err != nil {
		return nil, err
	}
	probs := make([]float64, n*K)
	err := m.score(X, func(lo int, scores []float64, S int) {
		for i := range len(scores) / S {
			r := lo + i
			m.Calibration.probabilities(probs[r*K:(r+1)*K], scores[i*S:(i+1)*S])
		}
	})
	if err != nil {
		return nil, err
	}
	return probs, nil
}

// Top returns, for each row of X, transformed, its k most probable
// classes, as Probabilities gives their probabilities, of those whose
// probability is at least threshold, and those probabilities, as
// fastText's predict with k and a threshold gives them: k of each for
// each row, or K, the number of classes, if k is larger, row i's at
// [i·k, (i+1)·k), in decreasing probability, and of equal probabilities
// the first class first. The classes are indices into Classes; the places
// of a row beyond its classes of probability at least threshold hold the
// class -1 and the probability 0.
//
// Top returns an error if k is less than 1 or threshold is not in [0, 1],
// and the errors of Probabilities. It holds the classes and the
// probabilities that it returns, 16 bytes for each of a row's k, and the
// probabilities of a block of rows. It may run concurrently as
// Probabilities may.
func (m *Model) Top(X mat.Matrix, k int, threshold float64) (classes []int, probs []float64, err error) {
	switch {
	case X == nil:
		return nil, nil, errorf(perceptron.ErrShape, "data: no rows to rank the classes of: X is nil")
	case k < 1:
		return nil, nil, errorf(perceptron.ErrSetting, "data: the top %d classes, want 1 or more", k)
	case !(threshold >= 0 && threshold <= 1):
		return nil, nil, errorf(perceptron.ErrSetting, "data: a threshold of probability %v, want one in [0, 1]", threshold)
	}
	if err := m.checkCalibration(); err != nil {
		return nil, nil, err
	}
	n, _ := X.Dims()
	K := len(m.Classes)
	k = min(k, K)
	if err := checkMemory(16*float64(n)*float64(k)+16*float64(K), "data: the top %d classes of %d rows", k, n); err != nil {
		return nil, nil, err
	}
	classes, probs = make([]int, n*k), make([]float64, n*k)
	p := make([]float64, K)
	order := make([]int, K)
	byProbability := func(a, b int) int { return cmp.Compare(p[b], p[a]) }
	err = m.score(X, func(lo int, scores []float64, S int) {
		for i := range len(scores) / S {
			r := lo + i
			m.Calibration.probabilities(p, scores[i*S:(i+1)*S])
			for c := range order {
				order[c] = c
			}
			slices.SortStableFunc(order, byProbability)
			for j := range k {
				c := order[j]
				if p[c] < threshold {
					classes[r*k+j] = -1
					continue
				}
				classes[r*k+j], probs[r*k+j] = c, p[c]
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return classes, probs, nil
}
