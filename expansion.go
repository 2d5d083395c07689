// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// mistake is one mistake of a kernel perceptron's hypothesis, made at
// visit t (counted from 1): it added a·(K(x_v, ·)+β) to score class and,
// with more than two classes, took it from score down (-1 with two). v
// indexes a support vector.
type mistake struct {
	v           int
	a           float64
	t           int
	class, down int
}

// terms is the list of the mistakes whose terms make a kernel
// perceptron's hypothesis, and the count of visits. Its methods are the
// one way that Fit and Learn change a hypothesis.
type terms struct {
	mistakes []mistake
	refs     []int     // per vector, the number of its mistakes
	vectors  int       // the vectors with a mistake
	sums     []float64 // per score, the sum of the steps of its mistakes: its bias, but through the origin
	visits   int
	removed  int       // the visit of the last removal by Budget, or 0
	dropped  []mistake // the mistakes that the last update removed
}

// drop removes a mistake drawn from rnd, as Budget asks, and returns it.
func (h *terms) drop(rnd *rand.Rand) mistake {
	j := rnd.IntN(len(h.mistakes))
	u := h.mistakes[j]
	h.mistakes = slices.Delete(h.mistakes, j, j+1)
	h.removed = h.visits
	h.dropped = append(h.dropped, u)
	addStep(h.sums, u.class, u.down, -u.a)
	if h.refs[u.v]--; h.refs[u.v] == 0 {
		h.vectors--
	}
	return u
}

// add adds the mistake u.
func (h *terms) add(u mistake) {
	h.mistakes = append(h.mistakes, u)
	addStep(h.sums, u.class, u.down, u.a)
	if h.refs[u.v]++; h.refs[u.v] == 1 {
		h.vectors++
	}
}

// bias returns the bias of score c of the hypothesis, beta times the sum
// of its steps: zero through the origin.
func (h *terms) bias(beta float64, c int) float64 {
	if beta == 0 {
		return 0
	}
	return h.sums[c]
}

// biases sets b to the S biases of the hypothesis and returns it.
func (h *terms) biases(b []float64, beta float64) []float64 {
	for c := range b {
		b[c] = h.bias(beta, c)
	}
	return b
}

// expansion is the hypothesis of a kernel perceptron as a sum of kernel
// terms, f_c(x) = sum_v last[v·S+c]·K(sv_v, x) + b_c: the support vectors
// and the mistakes, in the order they were made, from which the three
// prediction rules follow, for S scores, one for two classes and one per
// class for more. It is the model of a fitted Kernel, and the hypothesis
// that Learn trains.
type expansion struct {
	k       kern
	d       int
	beta    float64 // 1 with a bias, 0 without
	classes []float64

	sv    *rows     // the support vectors
	norm  []float64 // their squared norms, if the kernel needs them
	last  []float64 // per support vector v and score c, at v·S+c, the sum of the steps of its mistakes
	h     terms
	index *rowIndex // the support vectors by value, for store; built when needed

	// During Fit the support vectors are rows of the training data, rows,
	// not copied until canonical: from holds the row of each, and slot,
	// if not nil, 1 + the support vector of each row, or 0. A vector whose
	// mistakes a Budget removes keeps its place until canonical drops it.
	rows       *rows
	from, slot []int

	// Learn's settings: the source of Budget's draws, Budget, and the
	// model's visits before the Learn.
	rnd    *rand.Rand
	budget int
	base   int
	own    *rand.PCG // the source of a nil Kernel.Rand: Learn goes on with Fit's draws
}

// budgetSeed seeds the source of Budget's draws when Kernel.Rand is nil.
const budgetSeed = 0x6b65726e656c // "kernel"

// newModel returns an empty model of the kernel k on rows of length d,
// of the classes, which it stores sparse if sparse is set.
func newModel(k kern, d int, classes []float64, bias, sparse bool) *expansion {
	m := &expansion{k: k, d: d, classes: classes, sv: newRows(d, 0, sparse), own: rand.NewPCG(budgetSeed, 0)}
	m.h.sums = make([]float64, scores(classes))
	if bias {
		m.beta = 1
	}
	return m
}

func (m *expansion) nScores() int { return len(m.h.sums) }
func (m *expansion) vectors() int { return len(m.h.refs) }

// store returns the index of the support vector equal to x, row i of the
// data, storing x with no mistake if none is: a row that is a mistake in
// several visits is stored once. During Fit the vectors are the rows
// themselves, each a vector of its own.
func (m *expansion) store(x vec, i int) int {
	if m.slot != nil && m.slot[i] > 0 {
		return m.slot[i] - 1
	}
	if m.slot != nil {
		m.slot[i] = m.vectors() + 1
		m.from = append(m.from, i)
	} else {
		m.indexed()
		v, h := m.index.find(m.sv, nil, x, 0)
		if v >= 0 {
			return v
		}
		m.sv.append(x)
		if m.k.norms() {
			m.norm = append(m.norm, x.norm2())
		}
		m.index.add(h)
	}
	n, S := len(m.last), m.nScores()
	m.last = slices.Grow(m.last, S)[:n+S]
	clear(m.last[n:])
	m.h.refs = append(m.h.refs, 0)
	return m.vectors() - 1
}

// vector returns support vector v.
func (m *expansion) vector(v int) vec {
	if m.slot != nil {
		return m.rows.row(m.from[v])
	}
	return m.sv.row(v)
}

// vectorNorm returns the squared norm of support vector v if the kernel
// needs it, and 0 if not.
func (m *expansion) vectorNorm(v int) float64 {
	if !m.k.norms() {
		return 0
	}
	return m.norm[v]
}

// indexed builds the index of the support vectors if there is none.
func (m *expansion) indexed() {
	if m.index == nil {
		m.index = newRowIndex(m.sv, nil, 0)
	}
}

// removeVector removes support vector v, which has no mistake left; the
// last support vector takes its place.
func (m *expansion) removeVector(v int) {
	S, end := m.nScores(), m.vectors()-1
	m.index.swapRemove(v)
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

// canonical returns m with its support vectors in the order of their
// first mistake, as Fit stores them, where the removals of a Budget, which
// move the last vector into the place of one removed, have left them in
// another: so that Learn's model is Fit's. It returns m itself if they are
// in that order already, and otherwise a copy. With fresh, for Fit's
// model, it returns a copy whose vectors are stored, those of equal rows
// once, and whose coefficients and sums of steps are summed afresh from
// the mistakes, so that they do not carry the rounding of the removals.
func (m *expansion) canonical(fresh bool) *expansion {
	u, S := len(m.h.refs), m.nScores()
	at := make([]int, u)       // per vector, 1 + its vector in the copy
	order := make([]int, 0, u) // the vectors in the order of their first mistake
	for _, mk := range m.h.mistakes {
		if at[mk.v] == 0 {
			order = append(order, mk.v)
			at[mk.v] = -1
		}
	}
	if !fresh && slices.IsSorted(order) {
		return m
	}
	c := newModel(m.k, m.d, m.classes, m.beta == 1, m.sv.sparse())
	c.own, c.h.visits, c.h.removed = m.own, m.h.visits, m.h.removed
	c.sv, c.last, c.h.refs = newRows(m.d, len(order), m.sv.sparse()), make([]float64, 0, len(order)*S), make([]int, 0, len(order))
	if m.k.norms() {
		c.norm = make([]float64, 0, len(order))
	}
	for _, v := range order {
		at[v] = c.store(m.vector(v), 0) + 1
	}
	c.h.mistakes = make([]mistake, 0, len(m.h.mistakes))
	for _, mk := range m.h.mistakes {
		mk.v = at[mk.v] - 1
		c.h.add(mk)
		addStep(c.last[mk.v*S:], mk.class, mk.down, mk.a)
	}
	if !fresh {
		// Learn's sums keep the rounding of its removals.
		c.h.sums = m.h.sums
		for _, v := range order {
			w := at[v] - 1
			copy(c.last[w*S:w*S+S], m.last[v*S:v*S+S])
		}
	}
	return c
}

// clone returns a copy of m, a model of Kernel, that shares nothing with
// it but its classes and kernel, which do not change, or an error of kind
// ErrTooLarge if it does not fit in the memory left.
func (m *expansion) clone() (*expansion, error) {
	// The support vectors, and per vector its norm, coefficients, count of
	// mistakes and place in the index; per mistake its five words.
	words := m.sv.words() + float64(m.vectors()*(m.nScores()+5)) + 5*float64(len(m.h.mistakes))
	if err := memory.Check(8 * words); err != nil {
		return nil, tooLarge(err, "a copy of a kernel perceptron of %d support vectors and %d mistakes", m.vectors(), len(m.h.mistakes))
	}
	c := *m
	c.sv, c.norm, c.last = m.sv.clone(), slices.Clone(m.norm), slices.Clone(m.last)
	c.h.mistakes, c.h.refs, c.h.sums = slices.Clone(m.h.mistakes), slices.Clone(m.h.refs), slices.Clone(m.h.sums)
	c.h.dropped = nil
	if m.index != nil {
		c.index = &rowIndex{head: maps.Clone(m.index.head), next: slices.Clone(m.index.next), hash: slices.Clone(m.index.hash)}
	}
	own := *m.own
	c.own = &own
	return &c, nil
}

// checkFinite returns an error if a coefficient of m, or the sum of the
// steps of a score, which makes its bias, has overflowed, as a huge Rate
// can make them.
func (m *expansion) checkFinite() error {
	if j := nonFinite(m.last); j >= 0 {
		return errorf(ErrNonFinite, "perceptron: the coefficient of support vector %d overflowed to %v: lower Rate", j/m.nScores(), m.last[j])
	}
	if c := nonFinite(m.h.sums); c >= 0 {
		return errorf(ErrNonFinite, "perceptron: the sum of the coefficients overflowed to %v: lower Rate", m.h.sums[c])
	}
	return nil
}

// add makes the update mv on x, at visit base+t+1 of the model's: first,
// while the hypothesis holds budget mistakes, it removes one drawn from
// rnd, and the support vector of the removed mistake if it has no other;
// then it adds the mistake, on the support vector equal to x.
func (m *expansion) add(x *vec, i, t int, mv move) {
	S := m.nScores()
	m.h.visits = m.base + t + 1
	m.h.dropped = m.h.dropped[:0]
	m.indexed()
	for m.budget > 0 && len(m.h.mistakes) >= m.budget {
		u := m.h.drop(m.rnd)
		addStep(m.last[u.v*S:], u.class, u.down, -u.a)
		if m.h.refs[u.v] == 0 && m.slot == nil {
			m.removeVector(u.v)
		}
	}
	v := m.store(*x, i)
	m.h.add(mistake{v: v, a: mv.step, t: m.h.visits, class: mv.up, down: mv.down})
	addStep(m.last[v*S:], mv.up, mv.down, mv.step)
}

// fits reports whether the update mv keeps the sums of the steps finite:
// the removals of a Budget could only take them back towards zero.
func (m *expansion) fits(_ *vec, mv move) bool {
	return finite(m.h.sums[mv.up]+mv.step) && (mv.down < 0 || finite(m.h.sums[mv.down]-mv.step))
}

// update describes m after an update, for OnUpdate.
func (m *expansion) update() Update {
	return Update{Biases: m.h.biases(make([]float64, m.nScores()), m.beta)}
}

// expansionJSON is the JSON form of a fitted kernel perceptron, as Kernel
// keeps it. The coefficients and the sums of the steps are saved, not
// summed again on loading, since a Budget's removals subtract from them.
type expansionJSON struct {
	Classes        []float64   `json:"classes"`
	Kernel         kernelJSON  `json:"kernel"`        // with its parameters as Fit resolved them
	Features       int         `json:"features"`      // the length of the rows
	ThroughOrigin  bool        `json:"throughOrigin"` // trained without a bias
	SupportVectors rowsJSON    `json:"supportVectors"`
	Coefficients   numbersJSON `json:"coefficients"`   // of each support vector in the last hypothesis, one per score
	StepSums       []float64   `json:"stepSums"`       // per score, the sum of its steps: its bias, unless through the origin
	MistakeVectors []int       `json:"mistakeVectors"` // the support vector of each mistake
	MistakeSteps   numbersJSON `json:"mistakeSteps"`   // the step of each mistake
	MistakeVisits  []int       `json:"mistakeVisits"`  // the visit, counted from 1, of each mistake
	MistakeUp      []int       `json:"mistakeUp,omitempty"`
	MistakeDown    []int       `json:"mistakeDown,omitempty"` // the classes each mistake moved, with more than two
	Visits         int         `json:"visits"`
	Removed        int         `json:"removed"` // the visit of the last removal by Budget, or 0
}

// json returns the JSON form of m.
func (m *expansion) json() expansionJSON {
	h := &m.h
	j := expansionJSON{
		Classes:        m.classes,
		Kernel:         m.k.json(),
		Features:       m.d,
		ThroughOrigin:  m.beta == 0,
		SupportVectors: rowsToJSON(m.sv),
		Coefficients:   m.last,
		StepSums:       h.sums,
		MistakeVectors: make([]int, len(h.mistakes)),
		MistakeSteps:   make([]float64, len(h.mistakes)),
		MistakeVisits:  make([]int, len(h.mistakes)),
		Visits:         h.visits,
		Removed:        h.removed,
	}
	if m.nScores() > 1 {
		j.MistakeUp, j.MistakeDown = make([]int, len(h.mistakes)), make([]int, len(h.mistakes))
	}
	for i, u := range h.mistakes {
		j.MistakeVectors[i], j.MistakeSteps[i], j.MistakeVisits[i] = u.v, u.a, u.t
		if j.MistakeUp != nil {
			j.MistakeUp[i], j.MistakeDown[i] = u.class, u.down
		}
	}
	return j
}

// expansion returns the model that j describes, of the given number of
// mistakes, or an error if it is not valid.
func (j *expansionJSON) expansion(mistakes int) (*expansion, error) {
	if j.Features < 1 || j.Features > maxElements {
		return nil, errorf(ErrFormat, "it has %d features, want 1 to 2^45", j.Features)
	}
	f, err := j.Kernel.kernelFunc()
	if err != nil {
		return nil, err
	}
	kn := kern{kind: linearKernel}
	if f != nil {
		if kn, err = f.kernel(j.Features); err != nil {
			return nil, err
		}
	}
	if kn.json() != j.Kernel {
		// Resolving filled in a default: Fit would have saved it.
		return nil, errorf(ErrFormat, "its %s kernel has degree %d and gamma %v, want the values it was fitted with, > 0", j.Kernel.Name, j.Kernel.Degree, j.Kernel.Gamma)
	}
	if err := checkClasses(j.Classes); err != nil {
		return nil, err
	}
	sv, err := j.SupportVectors.rows(j.Features)
	if err != nil {
		return nil, wrapf(err, "its support vectors: %w", err)
	}
	S, u, n := scores(j.Classes), sv.n, len(j.MistakeVectors)
	switch {
	case u < 1:
		// The first visit of a training is a mistake, and a Budget keeps
		// at least one.
		return nil, errorf(ErrFormat, "it has no support vector")
	case len(j.Coefficients) != u*S:
		return nil, errorf(ErrFormat, "it has %d support vectors and %d coefficients, want %d", u, len(j.Coefficients), u*S)
	case len(j.StepSums) != S:
		return nil, errorf(ErrFormat, "it has %d sums of steps for %d classes, want %d", len(j.StepSums), len(j.Classes), S)
	case S > 1 && (len(j.MistakeUp) != n || len(j.MistakeDown) != n):
		return nil, errorf(ErrFormat, "it has %d mistakes and %d and %d classes they moved, want as many", n, len(j.MistakeUp), len(j.MistakeDown))
	case S == 1 && (j.MistakeUp != nil || j.MistakeDown != nil):
		return nil, errorf(ErrFormat, "it has two classes and the classes its mistakes moved")
	case len(j.MistakeSteps) != n || len(j.MistakeVisits) != n:
		return nil, errorf(ErrFormat, "it has %d mistake vectors, %d steps and %d visits, want as many", n, len(j.MistakeSteps), len(j.MistakeVisits))
	case n > mistakes:
		return nil, errorf(ErrFormat, "it has %d mistakes, but its stats %d", n, mistakes)
	case j.Visits < 1 || j.Visits > maxCount:
		return nil, errorf(ErrFormat, "it has %d visits, want 1 to 2^53", j.Visits)
	case j.Removed < 0 || j.Removed > j.Visits:
		return nil, errorf(ErrFormat, "its last removal is at visit %d, want 0 to %d", j.Removed, j.Visits)
	}
	for _, v := range [][]float64{j.Coefficients, j.StepSums, j.MistakeSteps} {
		if k := nonFinite(v); k >= 0 {
			return nil, errorf(ErrFormat, "it holds %v, want finite values", v[k])
		}
	}
	m := newModel(kn, j.Features, j.Classes, !j.ThroughOrigin, sv.sparse())
	m.sv = sv
	if kn.norms() {
		for v := range u {
			m.norm = append(m.norm, sv.row(v).norm2())
		}
	}
	h := &m.h
	m.last, h.refs, h.vectors = j.Coefficients, make([]int, u), u
	h.mistakes = make([]mistake, n)
	for i, v := range j.MistakeVectors {
		t := j.MistakeVisits[i]
		switch {
		case v < 0 || v >= u:
			return nil, errorf(ErrFormat, "its mistake %d is on support vector %d, want one of its %d", i+1, v, u)
		case t < 1 || t > j.Visits || i > 0 && t <= j.MistakeVisits[i-1]:
			// A visit makes at most one mistake.
			return nil, errorf(ErrFormat, "its mistake %d is at visit %d, want one after the last mistake's and at most %d", i+1, t, j.Visits)
		}
		u := mistake{v: v, a: j.MistakeSteps[i], t: t, down: -1}
		if S > 1 {
			u.class, u.down = j.MistakeUp[i], j.MistakeDown[i]
			if u.class < 0 || u.class >= S || u.down < 0 || u.down >= S || u.class == u.down {
				return nil, errorf(ErrFormat, "its mistake %d moves classes %d and %d, want two of the %d", i+1, u.class, u.down, S)
			}
		}
		h.mistakes[i] = u
		h.refs[v]++
	}
	if v := slices.Index(h.refs, 0); v >= 0 {
		return nil, errorf(ErrFormat, "its support vector %d has no mistake", v)
	}
	h.sums, h.visits, h.removed = j.StepSums, j.Visits, j.Removed
	return m, nil
}
