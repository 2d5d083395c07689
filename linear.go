// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// linear is the hyperplane w·x+b that the linear classifiers train and
// predict with.
type linear struct {
	w []float64
	b float64
}

func (l *linear) fitted() bool { return l.w != nil }
func (l *linear) dim() int     { return len(l.w) }

func (l *linear) score(x vec) float64 {
	return x.dot(l.w) + l.b
}

// clone returns a copy of l that shares nothing with it.
func (l *linear) clone() linear {
	return linear{w: slices.Clone(l.w), b: l.b}
}

// move moves l by a·x, and its bias by a if bias is set.
func (l *linear) move(x vec, a float64, bias bool) {
	x.addTo(l.w, a)
	if bias {
		l.b += a
	}
}

// checkFinite returns an error if w or b have overflowed, as they can
// when X or Rate are huge.
func (l *linear) checkFinite() error {
	if j := nonFinite(l.w); j >= 0 {
		return fmt.Errorf("perceptron: w[%d] overflowed to %v: scale X or lower Rate", j, l.w[j])
	}
	if !finite(l.b) {
		return fmt.Errorf("perceptron: the bias overflowed to %v: scale X or lower Rate", l.b)
	}
	return nil
}

// checked returns l, panicking in the manner of gonum if l cannot score x.
// method names the caller in the message.
func (l *linear) checked(x []float64, method string) *linear {
	l.fittedFor(method)
	if len(x) != len(l.w) {
		panic(fmt.Sprintf("perceptron: x has length %d, want %d", len(x), len(l.w)))
	}
	return l
}

// start returns the hyperplane that training starts from.
func (s *settings) start(d int) linear {
	w := make([]float64, d)
	copy(w, s.w0)
	return linear{w: w, b: s.b0}
}

// rule is the perceptron's rule as a learner: a visit to a row (x, y)
// with y(w·x+b) <= 0 is a mistake, and moves the hyperplane by Rate·y·x
// and its bias by Rate·y. Perceptron, Pocket, Averaged and Voted all train
// by it, and differ in what they keep of the run: kept, if not nil, is
// called at each mistake, before the update, with the row and the visit.
// The weights at a call of kept are thus those that every visit since the
// previous call used.
type rule struct {
	ds     *dataset
	l      *linear
	rate   float64
	noBias bool
	kept   func(i, t int)

	// guard makes a visit check that its update keeps the weights finite,
	// and return an error instead of making it, for Learn, which must
	// change nothing on error; Fit checks the weights once at the end.
	guard bool
}

func newRule(ds *dataset, l *linear, s *settings, kept func(i, t int)) *rule {
	return &rule{ds: ds, l: l, rate: s.rate, noBias: s.noBias, kept: kept}
}

func (r *rule) epoch(int, []int) error { return nil }

// visit returns an error, before updating on it, if row i holds NaN or an
// infinity. Such a row makes the score NaN or infinite whatever the
// weights are, so every visit checks its row for the price of a
// comparison, and only a row with such a score is searched.
func (r *rule) visit(i, t int) (bool, error) {
	x := r.ds.row(i)
	a := r.l.score(x)
	if !finite(a) {
		if err := r.ds.rowError(i); err != nil {
			return false, err
		}
	}
	return r.judge(x, r.ds.y[i], a, i, t)
}

// judge makes the rule's update if (x, y), whose score is a, is a
// mistake, and reports whether it is: the one update path of Fit and
// Learn.
func (r *rule) judge(x vec, y, a float64, i, t int) (bool, error) {
	if y*a > 0 {
		return false, nil
	}
	step := r.rate * y
	if r.guard && (!x.finiteAfter(r.l.w, step) || !r.noBias && !finite(r.l.b+step)) {
		return false, errors.New("perceptron: the update on x would overflow the weights: scale x or lower Rate")
	}
	if r.kept != nil {
		r.kept(i, t)
	}
	r.l.move(x, step, !r.noBias)
	return true, nil
}

func (r *rule) update() Update {
	return Update{Weights: r.l.w, Bias: r.l.b}
}

// rowChunk is the number of rows that one call of a parallel scoring of
// many rows scores.
const rowChunk = 256

// scoreRows sets dst[i] to score(x_i) for the rows x_i of X, dense or
// sparse, spreading the rows over the workers, and returns dst, which it
// allocates if it is nil. It panics if X does not have d columns, if dst
// has the wrong length, or if X is a mat.RowNonZeroDoer whose elements
// are not valid.
func scoreRows(dst []float64, X mat.Matrix, d int, score func(x vec) float64) []float64 {
	r, c := X.Dims()
	if c != d {
		panic(fmt.Sprintf("perceptron: X has %d columns, want %d", c, d))
	}
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
	parallel((r+rowChunk-1)/rowChunk, func() func(int) {
		return func(b int) {
			for i := b * rowChunk; i < min(r, (b+1)*rowChunk); i++ {
				dst[i] = score(xs.row(i))
			}
		}
	})
	return dst
}

// signs replaces every score in s by its label.
func signs(s []float64) []float64 {
	for i, a := range s {
		s[i] = sign(a)
	}
	return s
}

// fittedFor returns l, panicking in the manner of gonum if it has not been
// fitted; method names the caller in the message.
func (l *linear) fittedFor(method string) *linear {
	if !l.fitted() {
		panic("perceptron: " + method + " called before Fit")
	}
	return l
}
