// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"slices"

	"gonum.org/v1/gonum/floats"
)

// How a Kernel predicts: the rules of prediction, and the scores of an
// expansion under each.

// Prediction is the rule by which a Kernel predicts from the hypotheses of
// its training run (Freund and Schapire, 1999).
type Prediction int

const (
	// PredictLast predicts with the last hypothesis, as Perceptron does.
	PredictLast Prediction = iota

	// PredictVoted predicts with the vote of the hypotheses after every
	// visit, sum_t sign(f_t(x)), as Voted does.
	PredictVoted

	// PredictAveraged predicts with their average, the mean of f_t(x), as
	// Averaged does.
	PredictAveraged
)

// predictionNames are the names of the rules in saved classifiers.
var predictionNames = [...]string{PredictLast: "last", PredictVoted: "voted", PredictAveraged: "averaged"}

func (p Prediction) check() error {
	if p < PredictLast || p > PredictAveraged {
		return errorf(ErrSetting, "perceptron: Prediction is %d, want PredictLast, PredictVoted or PredictAveraged", int(p))
	}
	return nil
}

// predictionOf returns the rule of the given name.
func predictionOf(name string) (Prediction, error) {
	for p, n := range predictionNames {
		if n == name {
			return Prediction(p), nil
		}
	}
	return 0, errorf(ErrFormat, "prediction %.20q, want last, voted or averaged", name)
}

// combine sets dst to the S scores under rule p of a row whose kernel
// value with support vector v is k[v], before any division, and returns
// what the averaged rule divides them by, and the others by 1: their
// signs or greatest decide.
func (m *expansion) combine(dst, k []float64, p Prediction) float64 {
	S := len(dst)
	clear(dst)
	switch p {
	case PredictVoted:
		// The hypothesis after mistake j is f_(j-1) plus one term; it is
		// the hypothesis of the visits from t_j until the next mistake.
		if S == 1 {
			// Two classes vote by the sign of the one score, summed in
			// scalars: the loop runs once per mistake for every row scored.
			var f, votes float64
			from := 1
			for j := range m.h.mistakes {
				u := &m.h.mistakes[j] // in place: a copy costs as much as the sums
				votes += float64(m.exact(from, u.t-1)) * sign(f)
				f += u.a * (k[u.v] + m.beta)
				from = u.t
			}
			dst[0] = votes + float64(m.exact(from, m.h.visits))*sign(f)
			return 1
		}
		buf := getBuffer(S)
		defer putBuffer(buf)
		f := *buf
		clear(f)
		from := 1
		for _, u := range m.h.mistakes {
			dst[argmax(f, -1)] += float64(m.exact(from, u.t-1))
			addStep(f, u.class, u.down, u.a*(k[u.v]+m.beta))
			from = u.t
		}
		dst[argmax(f, -1)] += float64(m.exact(from, m.h.visits))
		return 1
	case PredictAveraged:
		// Mistake j is in the hypotheses of visits t_j, ..., T.
		if S == 1 {
			// The same sum as below, in a scalar, as for the voted rule.
			var f float64
			for j := range m.h.mistakes {
				u := &m.h.mistakes[j]
				f += u.a * (k[u.v] + m.beta) * float64(m.exact(u.t, m.h.visits))
			}
			dst[0] = f
		} else {
			for _, u := range m.h.mistakes {
				addStep(dst, u.class, u.down, u.a*(k[u.v]+m.beta)*float64(m.exact(u.t, m.h.visits)))
			}
		}
		return float64(m.exact(1, m.h.visits))
	}
	if S == 1 {
		// One dot product, where the matrix-vector product of one column
		// costs more, and rounds otherwise.
		dst[0] = floats.Dot(m.last, k) + m.beta*m.h.sums[0]
		return 1
	}
	if len(k) > 0 {
		gemvT(dst, m.last, k, S)
	}
	floats.AddScaled(dst, m.beta, m.h.sums)
	return 1
}

// exact returns the number of visits from a to b whose hypotheses the
// stored mistakes represent exactly: those from the last removal on.
func (m *expansion) exact(a, b int) int {
	return max(0, b-max(a, m.h.removed)+1)
}

// coefficients returns the coefficients and biases of the expansion whose
// scores rule p computes, as SupportVectors says.
func (m *expansion) coefficients(p Prediction) (coef, b []float64) {
	switch p {
	case PredictVoted:
		return nil, nil
	case PredictAveraged:
		S := m.nScores()
		coef, b = make([]float64, len(m.last)), make([]float64, S)
		n := float64(m.exact(1, m.h.visits))
		for _, u := range m.h.mistakes {
			a := u.a * float64(m.exact(u.t, m.h.visits)) / n
			addStep(coef[u.v*S:], u.class, u.down, a)
			addStep(b, u.class, u.down, m.beta*a)
		}
		return coef, b
	}
	return slices.Clone(m.last), m.h.biases(make([]float64, m.nScores()), m.beta)
}

// scoresOf sets dst to the S scores of x under rule p, before any
// division, and returns their divisor, as combine does.
func (m *expansion) scoresOf(dst []float64, x vec, p Prediction) float64 {
	buf := getBuffer(m.vectors())
	defer putBuffer(buf)
	m.k.values(*buf, m.sv, m.norm, x, m.k.norm(x))
	return m.combine(dst, *buf, p)
}

// scores sets s to the scores of x under the last hypothesis, as the
// rule reads them in Learn.
func (m *expansion) scores(s []float64, x *vec, _ int) {
	m.scoresOf(s, *x, PredictLast)
}
