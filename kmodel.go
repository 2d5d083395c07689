// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// mistake is one mistake of a kernel perceptron's hypothesis, made at
// visit t (counted from 1): it added a·(K(x_v, ·)+β) to score class and,
// with more than two classes, took it from score down (-1 with two). v
// indexes a row of the training set during Fit and a stored support
// vector after.
type mistake struct {
	v           int
	a           float64
	t           int
	class, down int
}

// hypothesis is the list of the mistakes whose terms make a kernel
// perceptron's hypothesis, and the count of visits, as Fit's trainer and a
// fitted model keep them. Its methods are the one way that Fit and Learn
// change a hypothesis.
type hypothesis struct {
	mistakes []mistake
	refs     []int     // per vector, the number of its mistakes
	vectors  int       // the vectors with a mistake
	sums     []float64 // per score, the sum of the steps of its mistakes: its bias, but through the origin
	visits   int
	removed  int // the visit of the last removal by Budget, or 0
}

// drop removes a mistake drawn from rnd, as Budget asks, and returns it.
func (h *hypothesis) drop(rnd *rand.Rand) mistake {
	j := rnd.IntN(len(h.mistakes))
	u := h.mistakes[j]
	h.mistakes = slices.Delete(h.mistakes, j, j+1)
	h.removed = h.visits
	h.sums[u.class] -= u.a
	if u.down >= 0 {
		h.sums[u.down] += u.a
	}
	if h.refs[u.v]--; h.refs[u.v] == 0 {
		h.vectors--
	}
	return u
}

// add adds a mistake on vector v with step a, moving score class up and,
// if down is not -1, score down down, at the current visit.
func (h *hypothesis) add(v int, a float64, class, down int) {
	h.mistakes = append(h.mistakes, mistake{v: v, a: a, t: h.visits, class: class, down: down})
	h.sums[class] += a
	if down >= 0 {
		h.sums[down] -= a
	}
	if h.refs[v]++; h.refs[v] == 1 {
		h.vectors++
	}
}

// bias returns the bias of score c of the hypothesis, beta times the sum
// of its steps: zero through the origin.
func (h *hypothesis) bias(beta float64, c int) float64 {
	if beta == 0 {
		return 0
	}
	return h.sums[c]
}

// biases returns the S biases of the hypothesis.
func (h *hypothesis) biases(beta float64) []float64 {
	b := make([]float64, len(h.sums))
	for c := range b {
		b[c] = h.bias(beta, c)
	}
	return b
}

// kmodel is a fitted kernel perceptron: the support vectors and the
// mistakes, in the order they were made, from which the three prediction
// rules follow, for S scores: one for two classes, one per class for
// more.
type kmodel struct {
	k       kern
	d       int
	beta    float64 // 1 with a bias, 0 without
	classes []float64

	sv   *rows     // the support vectors
	norm []float64 // their squared norms, if the kernel needs them
	last []float64 // per support vector v and score c, at v·S+c, the sum of the steps of its mistakes
	h    hypothesis

	rnd *rand.Rand // Learn's draws for Budget when Kernel.Rand is nil
}

// budgetSeed seeds the source of Budget's draws when Kernel.Rand is nil.
const budgetSeed = 0x6b65726e656c // "kernel"

// newModel returns an empty model of the kernel k on rows of length d,
// of the classes, which it stores sparse if sparse is set.
func newModel(k kern, d int, classes []float64, bias, sparse bool) *kmodel {
	m := &kmodel{k: k, d: d, classes: classes, sv: newRows(d, 0, sparse), rnd: rand.New(rand.NewPCG(budgetSeed, 0))}
	m.h.sums = make([]float64, scores(classes))
	if bias {
		m.beta = 1
	}
	return m
}

func (m *kmodel) scores() int  { return len(m.h.sums) }
func (m *kmodel) vectors() int { return len(m.last) / m.scores() }

// kernels sets k[v] = K(sv_v, x) for every support vector.
func (m *kmodel) kernels(k []float64, x vec) {
	var xn float64
	if m.k.norms() {
		xn = x.norm2()
	}
	m.k.values(k, m.sv, m.norm, x, xn)
}

// combine sets dst to the S scores under rule p of a row whose kernel
// value with support vector v is k[v], before any division, and returns
// what the averaged rule divides them by, and the others by 1: their
// signs or greatest decide.
func (m *kmodel) combine(dst, k []float64, p Prediction) float64 {
	S := len(dst)
	clear(dst)
	switch p {
	case PredictVoted:
		// The hypothesis after mistake j is f_(j-1) plus one term; it is
		// the hypothesis of the visits from t_j until the next mistake.
		if S == 1 {
			// The same sums as below, in scalars: the loop runs once per
			// support vector for every row scored.
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
		buf := getScratch(S)
		defer putScratch(buf)
		f := *buf
		clear(f)
		from := 1
		for _, u := range m.h.mistakes {
			m.vote(dst, f, m.exact(from, u.t-1))
			t := u.a * (k[u.v] + m.beta)
			f[u.class] += t
			if u.down >= 0 {
				f[u.down] -= t
			}
			from = u.t
		}
		m.vote(dst, f, m.exact(from, m.h.visits))
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
				t := u.a * (k[u.v] + m.beta) * float64(m.exact(u.t, m.h.visits))
				dst[u.class] += t
				if u.down >= 0 {
					dst[u.down] -= t
				}
			}
		}
		return float64(m.exact(1, m.h.visits))
	}
	if S == 1 {
		dst[0] = floats.Dot(m.last, k) + m.beta*m.h.sums[0]
		return 1
	}
	if u := len(k); u > 0 {
		blas64.Gemv(blas.Trans, 1,
			blas64.General{Rows: u, Cols: S, Stride: S, Data: m.last},
			blas64.Vector{N: u, Inc: 1, Data: k},
			0, blas64.Vector{N: S, Inc: 1, Data: dst})
	}
	floats.AddScaled(dst, m.beta, m.h.sums)
	return 1
}

// vote adds count votes of the hypothesis whose scores are f to dst: for
// two classes to the one vote, by the sign of f, and for more to the
// class of the greatest score.
func (m *kmodel) vote(dst, f []float64, count int) {
	if len(f) == 1 {
		dst[0] += float64(count) * sign(f[0])
		return
	}
	dst[argmax(f, -1)] += float64(count)
}

// exact returns the number of visits from a to b whose hypotheses the
// stored mistakes represent exactly: those from the last removal on.
func (m *kmodel) exact(a, b int) int {
	return max(0, b-max(a, m.h.removed)+1)
}

// scoresOf sets dst to the S scores of x under rule p, before any
// division, and returns their divisor, as combine does.
func (m *kmodel) scoresOf(dst []float64, x vec, p Prediction) float64 {
	buf := getScratch(m.vectors())
	defer putScratch(buf)
	m.kernels(*buf, x)
	return m.combine(dst, *buf, p)
}

// mistake makes the update of a mistake on x, whose squared norm is xn,
// with step a on score class and -a on score down, if not -1: first,
// while the hypothesis holds budget mistakes, it removes one drawn from
// rnd, and the support vector of the removed mistake if it has no other;
// then it stores x and adds the mistake.
func (m *kmodel) mistake(x vec, xn, a float64, class, down, budget int, rnd *rand.Rand) {
	S := m.scores()
	for budget > 0 && len(m.h.mistakes) >= budget {
		u := m.h.drop(rnd)
		m.last[u.v*S+u.class] -= u.a
		if u.down >= 0 {
			m.last[u.v*S+u.down] += u.a
		}
		if m.h.refs[u.v] == 0 {
			m.removeVector(u.v)
		}
	}
	v := m.store(x, xn)
	m.h.add(v, a, class, down)
	m.last[v*S+class] += a
	if down >= 0 {
		m.last[v*S+down] -= a
	}
}

// store appends x, whose squared norm is xn, to the support vectors, with
// no mistake yet, and returns its index.
func (m *kmodel) store(x vec, xn float64) int {
	m.sv.append(x)
	if m.k.norms() {
		m.norm = append(m.norm, xn)
	}
	m.last = append(m.last, make([]float64, m.scores())...)
	m.h.refs = append(m.h.refs, 0)
	return m.vectors() - 1
}

// removeVector removes support vector v, which has no mistake left; the
// last support vector takes its place.
func (m *kmodel) removeVector(v int) {
	S, end := m.scores(), m.vectors()-1
	m.sv.swapRemove(v)
	copy(m.last[v*S:v*S+S], m.last[end*S:])
	m.last = m.last[:end*S]
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

// checkFinite returns an error if a coefficient of m, or the sum of the
// steps of a score, which makes its bias, has overflowed, as a huge Rate
// can make them.
func (m *kmodel) checkFinite() error {
	if j := nonFinite(m.last); j >= 0 {
		return fmt.Errorf("perceptron: the coefficient of support vector %d overflowed to %v: lower Rate", j/m.scores(), m.last[j])
	}
	if c := nonFinite(m.h.sums); c >= 0 {
		return fmt.Errorf("perceptron: the sum of the coefficients overflowed to %v: lower Rate", m.h.sums[c])
	}
	return nil
}

// scoreError returns the error for the score s, not finite, of what: the
// data are finite, so a kernel value, or its product with a coefficient,
// has overflowed, or a Custom kernel returned NaN or an infinity.
func scoreError(what string, s float64) error {
	return fmt.Errorf("perceptron: the score of %s is %v: a kernel value, or its product with a coefficient, is not finite: scale X or lower Rate", what, s)
}

var errSumOverflow = errors.New("perceptron: the update on x would overflow the sum of the coefficients: lower Rate")

// learn makes Learn's visit of x, of class c, with step Rate, and reports
// whether it was a mistake: as Fit's visit judges, by the last
// hypothesis's scores. It returns an error, and changes nothing, if a
// score of x is not finite or its update would overflow the sum of the
// coefficients.
func (m *kmodel) learn(x vec, c int, rate float64, budget int, rnd *rand.Rand) (bool, error) {
	S := m.scores()
	buf := getScratch(S)
	defer putScratch(buf)
	s := *buf
	m.scoresOf(s, x, PredictLast)
	if j := nonFinite(s); j >= 0 {
		return false, scoreError("x", s[j])
	}
	class, down, a := 0, -1, rate
	var mistake bool
	if S == 1 {
		y := float64(2*c - 1)
		a *= y
		mistake = y*s[0] <= 0
	} else {
		class, down = c, argmax(s, c)
		mistake = s[c] <= s[down]
	}
	// Removals by Budget could only take the sums back towards zero.
	if mistake && (!finite(m.h.sums[class]+a) || down >= 0 && !finite(m.h.sums[down]-a)) {
		return false, errSumOverflow
	}
	m.h.visits++
	if !mistake {
		return false, nil
	}
	var xn float64
	if m.k.norms() {
		xn = x.norm2()
	}
	m.mistake(x, xn, a, class, down, budget, rnd)
	return true, nil
}

// update describes m after an update, for OnUpdate.
func (m *kmodel) update() Update {
	return Update{Biases: m.h.biases(m.beta), Vectors: m.vectors()}
}
