// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/seed5ae3614e/perceptron/internal/memory"
	"github.com/seed5ae3614e/perceptron/internal/simd"
)

// table is the hypothesis of the linear classifiers: S scores w_c·x+b_c
// of a row x. For two classes S is 1, the hyperplane w·x+b = 0, whose
// sign decides; for K classes S is K, one score per class, the greatest
// of which decides (Kesler's construction). The weights are held feature
// by feature, a d×S matrix, so that the S weights of a feature lie side
// by side, where the update and the scores of a sparse row read them.
type table struct {
	w      []float64 // the weight of feature j in score c is w[j·S+c]
	b      []float64 // the S biases
	noBias bool      // the biases stay zero
}

// newTable returns the table of S scores on rows of length d that
// training starts from: w0, or zero weights if w0 is nil, and zero
// biases.
func newTable(d, S int, w0 []float64, noBias bool) table {
	w := make([]float64, d*S)
	copy(w, w0)
	return table{w: w, b: make([]float64, S), noBias: noBias}
}

func (l *table) fitted() bool { return l.w != nil }

// needs returns an error of kind ErrTooLarge if n tables of l's size do
// not fit in the memory left.
func (l *table) needs(n int) error {
	words := float64(n) * float64(len(l.w)+len(l.b))
	if err := memory.Check(8 * words); err != nil {
		return tooLarge(err, "%d copies of weights of %d scores on %d columns", n, len(l.b), l.dim())
	}
	return nil
}

// dim returns the number of columns of l, or 0 if it is not fitted.
func (l *table) dim() int {
	if len(l.b) == 0 {
		return 0
	}
	return len(l.w) / len(l.b)
}

func (l *table) scores(dst []float64, x *vec, _ int) {
	if len(l.b) == 1 {
		// One dot product, where the matrix-vector product of one column
		// costs more, and rounds otherwise.
		dst[0] = x.dot(l.w) + l.b[0]
		return
	}
	if x.ind != nil {
		touch(l.w, x.ind, len(l.b))
		l.scoresFetched(dst, x)
		return
	}
	gemvT(dst, l.w, x.val, len(l.b))
	floats.Add(dst, l.b)
}

// scoresFetched sets dst to the scores of the sparse row x, as scores
// does, for an epoch that has asked for the lines of the weights of x's
// columns already, and so without touch's loads.
func (l *table) scoresFetched(dst []float64, x *vec) {
	simd.ScoresSparse(dst, l.w, x.ind, x.val)
	floats.Add(dst, l.b)
}

// scoresOf sets dst to the scores of x.
func (l *table) scoresOf(dst []float64, x vec) { l.scores(dst, &x, 0) }

func (l *table) add(x *vec, _, _ int, mv move) {
	if mv.down >= 0 && x.ind == nil {
		// Both scores' weights in one pass over the row.
		simd.AxpyColumns(l.w, len(l.b), x.val, mv.step, mv.up, -mv.step, mv.down)
		l.moveBias(mv.up, mv.step)
		l.moveBias(mv.down, -mv.step)
		return
	}
	l.move(x, mv.up, mv.step)
	if mv.down >= 0 {
		l.move(x, mv.down, -mv.step)
	}
}

// move moves score c by a·x, and its bias by a.
func (l *table) move(x *vec, c int, a float64) {
	x.addStrided(l.w[c:], len(l.b), a)
	l.moveBias(c, a)
}

// moveBias moves the bias of score c by a, unless the biases stay zero.
func (l *table) moveBias(c int, a float64) {
	if !l.noBias {
		l.b[c] += a
	}
}

func (l *table) fits(x *vec, mv move) bool {
	S := len(l.b)
	ok := x.finiteAfter(l.w[mv.up:], S, mv.step) && (l.noBias || finite(l.b[mv.up]+mv.step))
	if mv.down >= 0 {
		ok = ok && x.finiteAfter(l.w[mv.down:], S, -mv.step) && (l.noBias || finite(l.b[mv.down]-mv.step))
	}
	return ok
}

func (l *table) update() Update { return Update{Weights: l.w, Biases: l.b} }

// clone returns a copy of l that shares nothing with it.
func (l *table) clone() table {
	w := make([]float64, len(l.w))
	done := memory.Huge(w)
	copyParts(w, l.w)
	done()
	return table{w: w, b: slices.Clone(l.b), noBias: l.noBias}
}

// scaledClone returns a copy of l times c, made as clone makes its copy,
// in one pass: the products are those of floats.Scale on a clone.
func (l *table) scaledClone(c float64) table {
	w := make([]float64, len(l.w))
	done := memory.Huge(w)
	for i := 0; i < len(w); i += partLen {
		j := min(i+partLen, len(w))
		floats.ScaleTo(w[i:j], c, l.w[i:j])
	}
	done()
	return table{w: w, b: floats.ScaleTo(make([]float64, len(l.b)), c, l.b), noBias: l.noBias}
}

// set makes l a copy of m, of the same shape.
func (l *table) set(m *table) {
	copyParts(l.w, m.w)
	copy(l.b, m.b)
}

// copyParts copies src to dst as copy does, a part at a time. One copy is
// one call of the runtime's memmove, which nothing interrupts: of a table
// of hundreds of megabytes that a Learn copies while predictions run, it
// would hold the collector, which stops each goroutine to scan its stack,
// and with it every goroutine that allocates, for as long as it lasts.
// The call of copyPart for each part is where the goroutine may be
// stopped.
func copyParts(dst, src []float64) {
	for i := 0; i < len(src) && i < len(dst); i += partLen {
		copyPart(dst[i:], src[i:min(i+partLen, len(src))])
	}
}

// partLen is the numbers of a part of a long copy, half a megabyte.
const partLen = 1 << 16

// copyPart is copy, in a call of its own: its entry checks for a request
// to stop, as the loop of copyParts would not.
//
//go:noinline
func copyPart(dst, src []float64) { copy(dst, src) }

// checkFinite returns an error if w or b have overflowed, as they can
// when X or Rate are huge.
func (l *table) checkFinite() error {
	if j := nonFinite(l.w); j >= 0 {
		return errorf(ErrNonFinite, "perceptron: the weight of feature %d overflowed to %v: scale X or lower Rate", j/len(l.b), l.w[j])
	}
	if c := nonFinite(l.b); c >= 0 {
		return errorf(ErrNonFinite, "perceptron: the bias overflowed to %v: scale X or lower Rate", l.b[c])
	}
	return nil
}

// weights returns copies of the weights and biases of l, or nil, nil if
// it is not fitted.
func (l *table) weights() (w, b []float64) { return slices.Clone(l.w), slices.Clone(l.b) }
