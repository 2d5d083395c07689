// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// linear is the model of the linear classifiers: S scores w_c·x+b_c of a
// row x. For two classes S is 1, the hyperplane w·x+b = 0, whose sign
// decides; for K classes S is K, one score per class, the greatest of
// which decides (Kesler's construction). The weights are held feature by
// feature, a d×S matrix, so that the S weights of a feature lie side by
// side, where the update and the scores of a sparse row read them.
type linear struct {
	w []float64 // the weight of feature j in score c is w[j·S+c]
	b []float64 // the S biases
}

func (l *linear) fitted() bool { return l.w != nil }
func (l *linear) dim() int     { return len(l.w) / len(l.b) }

// score returns the one score w·x+b of a model of two classes.
func (l *linear) score(x *vec) float64 {
	return x.dot(l.w) + l.b[0]
}

// scores sets dst to the S scores of x.
func (l *linear) scores(dst []float64, x *vec) {
	S := len(l.b)
	if S == 1 {
		dst[0] = l.score(x)
		return
	}
	if x.ind == nil {
		blas64.Gemv(blas.Trans, 1,
			blas64.General{Rows: len(x.val), Cols: S, Stride: S, Data: l.w},
			blas64.Vector{N: len(x.val), Inc: 1, Data: x.val},
			0, blas64.Vector{N: S, Inc: 1, Data: dst})
	} else {
		touch(l.w, x.ind, S)
		clear(dst)
		for k, j := range x.ind {
			floats.AddScaled(dst, x.val[k], l.w[j*S:j*S+S])
		}
	}
	floats.Add(dst, l.b)
}

// touch loads a weight from every cache line of the S weights of each
// column in ind, and returns their sum. A sparse row's scores read these
// lines from all over the weights; loads that depend on nothing let the
// processor fetch them all at once, where the sums that need them would
// wait for each in turn. It is not inlined, so that the loads are kept.
//
//go:noinline
func touch(w []float64, ind []int, S int) float64 {
	var t float64
	for _, j := range ind {
		row := w[j*S : j*S+S]
		for c := 0; c < S; c += 8 {
			t += row[c]
		}
		t += row[S-1]
	}
	return t
}

// clone returns a copy of l that shares nothing with it.
func (l *linear) clone() linear {
	return linear{w: slices.Clone(l.w), b: slices.Clone(l.b)}
}

// set makes l a copy of m, of the same shape.
func (l *linear) set(m *linear) {
	copy(l.w, m.w)
	copy(l.b, m.b)
}

// move moves score c of l by a·x, and its bias by a if bias is set.
func (l *linear) move(x *vec, c int, a float64, bias bool) {
	S := len(l.b)
	switch {
	case S == 1:
		x.addTo(l.w, a)
	case x.ind == nil:
		blas64.Axpy(a, blas64.Vector{N: len(x.val), Inc: 1, Data: x.val}, blas64.Vector{N: len(x.val), Inc: S, Data: l.w[c:]})
	default:
		for k, j := range x.ind {
			l.w[j*S+c] += a * x.val[k]
		}
	}
	if bias {
		l.b[c] += a
	}
}

// checkFinite returns an error if w or b have overflowed, as they can
// when X or Rate are huge.
func (l *linear) checkFinite() error {
	if j := nonFinite(l.w); j >= 0 {
		return fmt.Errorf("perceptron: w[%d] overflowed to %v: scale X or lower Rate", j, l.w[j])
	}
	if c := nonFinite(l.b); c >= 0 {
		return fmt.Errorf("perceptron: the bias overflowed to %v: scale X or lower Rate", l.b[c])
	}
	return nil
}

// checked returns l, panicking in the manner of gonum if l cannot score x.
// method names the caller in the message.
func (l *linear) checked(x []float64, method string) *linear {
	l.fittedFor(method)
	if len(x) != l.dim() {
		panic(fmt.Sprintf("perceptron: x has length %d, want %d", len(x), l.dim()))
	}
	return l
}

// fittedFor returns l, panicking in the manner of gonum if it has not been
// fitted; method names the caller in the message.
func (l *linear) fittedFor(method string) *linear {
	if !l.fitted() {
		panic("perceptron: " + method + " called before Fit")
	}
	return l
}

// start returns the model that training starts from, with S scores.
func (s *settings) start(d, S int) linear {
	w := make([]float64, d*S)
	copy(w, s.w0)
	b := make([]float64, S)
	b[0] = s.b0
	return linear{w: w, b: b}
}

// rule is the perceptron's rule as a learner. With two classes, a visit
// to a row (x, y), y being -1 or +1, is a mistake if y(w·x+b) <= 0, and
// moves the hyperplane by Rate·y·x and its bias by Rate·y. With more, a
// visit to a row x of class t is a mistake unless the score of t is
// greater than every other; the update moves score t by Rate·x and its
// bias by Rate, and the other score that is greatest, the first of those
// if several tie, by -Rate·x and -Rate (Collins, 2002; Crammer and
// Singer, 2003).
//
// Perceptron, Pocket, Averaged and Voted all train by the rule, and
// differ in what they keep of the run: kept, if not nil, is called at
// each mistake, before the update, with the row, the visit and, with
// more than two classes, the other class that the update moves, or -1.
// The weights at a call of kept are thus those that every visit since the
// previous call used.
type rule struct {
	ds     *dataset
	l      *linear
	rate   float64
	noBias bool
	kept   func(i, t, other int)
	s      []float64 // scratch for the scores of a visit
	pre    *prefetch // of the rows of a shuffled epoch, or nil

	// guard makes a visit check that its update keeps the weights finite,
	// and return an error instead of making it, for Learn, which must
	// change nothing on error; Fit checks the weights once at the end.
	guard bool
}

func newRule(ds *dataset, l *linear, s *settings, kept func(i, t, other int)) *rule {
	return &rule{ds: ds, l: l, rate: s.rate, noBias: s.noBias, kept: kept, s: make([]float64, len(l.b))}
}

// epoch runs epoch e, as learner says, with the rows of a shuffled epoch
// prefetched where that pays. A row that holds NaN or an infinity makes a
// score NaN or infinite whatever the weights are, so every visit checks
// its row for the price of a comparison, and only a row with such a score
// is searched.
func (r *rule) epoch(e int, order []int, onMistake func(i int)) error {
	if order != nil && e == 1 {
		r.pre = newPrefetch(r.ds.rows)
	}
	if order != nil && r.pre != nil {
		r.pre.start(order)
	}
	t := (e - 1) * r.ds.n // the run's visits before the epoch's
	if !r.ds.sparse() && r.ds.cls == nil {
		return r.denseEpoch(order, t, onMistake)
	}
	for p := range r.ds.n {
		if r.pre != nil {
			r.pre.advance()
		}
		i := rowAt(order, p)
		x := r.ds.row(i)
		wrong, err := r.visitRow(&x, i, t+p)
		if err != nil {
			return err
		}
		if wrong {
			onMistake(i)
		}
	}
	return nil
}

// denseEpoch is epoch on dense rows with two classes, the most common
// case, where a row classified right costs the dot product alone; t is
// the number of the run's visits before the epoch's.
func (r *rule) denseEpoch(order []int, t int, onMistake func(i int)) error {
	// The loop's values are held in locals, which a visit reloads from the
	// stack after the dot product's call, where fields would be reached
	// through a chain of pointers. The weights change in place, but the
	// bias b is a copy, taken again after each update.
	w, b, y, rows, pre := r.l.w, r.l.b[0], r.ds.y, *r.ds.rows, r.pre
	for p := range rows.n {
		if pre != nil {
			pre.advance()
		}
		i := rowAt(order, p)
		x := rows.dense(i)
		a := floats.Dot(x, w) + b
		if a-a != 0 { // a is NaN or infinite: one test, where finite makes two
			if err := r.rowError(i); err != nil {
				return err
			}
		}
		if y[i]*a > 0 {
			continue
		}
		wrong, err := r.judge(&vec{val: x}, y[i], a, i, t+p)
		if err != nil {
			return err
		}
		if wrong {
			b = r.l.b[0]
			onMistake(i)
		}
	}
	return nil
}

// visitRow visits x, row i, visit t of the run, as epoch does.
func (r *rule) visitRow(x *vec, i, t int) (bool, error) {
	if r.ds.cls == nil {
		a := r.l.score(x)
		if !finite(a) {
			if err := r.rowError(i); err != nil {
				return false, err
			}
		}
		return r.judge(x, r.ds.y[i], a, i, t)
	}
	r.l.scores(r.s, x)
	if nonFinite(r.s) >= 0 {
		if err := r.rowError(i); err != nil {
			return false, err
		}
	}
	return r.judgeClass(x, r.ds.cls[i], r.s, i, t)
}

// rowError returns the error of row i, if it holds NaN or an infinity,
// once no goroutine reads the rows: Fit then returns.
func (r *rule) rowError(i int) error {
	err := r.ds.rowError(i)
	if err != nil && r.pre != nil {
		r.pre.end()
	}
	return err
}

// judge makes the rule's update if (x, y), y being -1 or +1, whose score
// is a, is a mistake, and reports whether it is: the one update path of
// Fit and Learn with two classes.
func (r *rule) judge(x *vec, y, a float64, i, t int) (bool, error) {
	if y*a > 0 {
		return false, nil
	}
	step := r.rate * y
	if r.guard && (!x.finiteAfter(r.l.w, step) || !r.noBias && !finite(r.l.b[0]+step)) {
		return false, errOverflow
	}
	if r.kept != nil {
		r.kept(i, t, -1)
	}
	r.l.move(x, 0, step, !r.noBias)
	return true, nil
}

// judgeClass makes the rule's update if x, of class c and with scores s,
// is a mistake, and reports whether it is: the one update path of Fit and
// Learn with more than two classes.
func (r *rule) judgeClass(x *vec, c int, s []float64, i, t int) (bool, error) {
	other := argmax(s, c)
	if s[c] > s[other] {
		return false, nil
	}
	if r.guard && (!r.finiteAfter(x, c, r.rate) || !r.finiteAfter(x, other, -r.rate)) {
		return false, errOverflow
	}
	if r.kept != nil {
		r.kept(i, t, other)
	}
	r.l.move(x, c, r.rate, !r.noBias)
	r.l.move(x, other, -r.rate, !r.noBias)
	return true, nil
}

// finiteAfter reports whether moving score c of the model by a·x, and its
// bias by a, keeps them finite.
func (r *rule) finiteAfter(x *vec, c int, a float64) bool {
	S, ok := len(r.l.b), true
	x.each(func(j int, v float64) {
		if !finite(r.l.w[j*S+c] + a*v) {
			ok = false
		}
	})
	return ok && (r.noBias || finite(r.l.b[c]+a))
}

var errOverflow = errors.New("perceptron: the update on x would overflow the weights: scale x or lower Rate")

func (r *rule) update() Update {
	return Update{Weights: r.l.w, Biases: r.l.b}
}

// rowChunk is the number of rows that one call of a parallel scoring of
// many rows scores.
const rowChunk = 256

// eachRow calls f(i, x_i) for every row x_i of X, dense or sparse,
// spreading the rows over the workers, each of which takes its f from
// newF, so that f can hold scratch space of its own. It panics if X does
// not have d columns, or if X is a mat.RowNonZeroDoer whose elements are
// not valid.
func eachRow(X mat.Matrix, d int, newF func() func(i int, x vec)) {
	r, c := X.Dims()
	if c != d {
		panic(fmt.Sprintf("perceptron: X has %d columns, want %d", c, d))
	}
	xs, err := rowsOf(X)
	if err != nil {
		panic(err)
	}
	parallel((r+rowChunk-1)/rowChunk, func() func(int) {
		f := newF()
		return func(b int) {
			for i := b * rowChunk; i < min(r, (b+1)*rowChunk); i++ {
				f(i, xs.row(i))
			}
		}
	})
}

// rowsDst returns dst, or a new slice of length n if dst is nil,
// panicking in the manner of gonum if dst has another length.
func rowsDst(dst []float64, n int) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("perceptron: dst has length %d, want %d", len(dst), n))
	}
	return dst
}

// decide returns the class that scores s choose: for two classes, the
// second if the one score is >= 0; for more, the one with the greatest
// score, the first of those if several tie.
func decide(classes, s []float64) float64 {
	if len(s) == 1 {
		if s[0] >= 0 {
			return classes[1]
		}
		return classes[0]
	}
	return classes[argmax(s, -1)]
}

// predict returns the class that l chooses for x, panicking as checked
// does if l cannot score x.
func (l *linear) predict(classes, x []float64) float64 {
	if len(l.b) == 1 && len(x) == len(l.w) {
		return binaryClass(classes, floats.Dot(x, l.w)+l.b[0])
	}
	l.checked(x, "Predict")
	buf := getScratch(len(l.b))
	l.scores(*buf, &vec{val: x})
	c := classes[argmax(*buf, -1)]
	putScratch(buf)
	return c
}

// binaryClass returns the class of two that a score chooses: the second,
// the greater, if it is >= 0, and the first otherwise.
func binaryClass(classes []float64, a float64) float64 {
	if a >= 0 {
		return classes[1]
	}
	return classes[0]
}

// scoresTo returns the S scores of x under l, divided by div, in dst,
// which it allocates if nil; method names the caller in a panic.
func (l *linear) scoresTo(dst, x []float64, div float64, method string) []float64 {
	l.checked(x, method)
	dst = scoresDst(dst, len(l.b))
	l.scores(dst, &vec{val: x})
	divide(dst, div)
	return dst
}

// binaryScore returns the one score of x under l, divided by div,
// panicking if l has more; method names the caller in a panic.
func (l *linear) binaryScore(x []float64, div float64, method string) float64 {
	return l.checkedBinary(x, method).score(&vec{val: x}) / div
}

// checkedBinary returns l, panicking in the manner of gonum if l cannot
// score x or has more than one score; method names the caller.
func (l *linear) checkedBinary(x []float64, method string) *linear {
	l.checked(x, method)
	if len(l.b) != 1 {
		panic(fmt.Sprintf("perceptron: %s of a model of %d classes: use Scores", method, len(l.b)))
	}
	return l
}

// scoreRows returns the S scores of every row of X under l, divided by
// div, in dst, which it allocates if nil.
func (l *linear) scoreRows(dst []float64, X mat.Matrix, div float64) []float64 {
	l.fittedFor("ScoreRows")
	n, _ := X.Dims()
	S := len(l.b)
	dst = rowsDst(dst, n*S)
	eachRow(X, l.dim(), func() func(int, vec) {
		return func(i int, x vec) {
			s := dst[i*S : i*S+S]
			l.scores(s, &x)
			divide(s, div)
		}
	})
	return dst
}

// predictRows returns the classes that l chooses for the rows of X in
// dst, which it allocates if nil.
func (l *linear) predictRows(dst []float64, X mat.Matrix, classes []float64) []float64 {
	l.fittedFor("PredictRows")
	n, _ := X.Dims()
	dst = rowsDst(dst, n)
	eachRow(X, l.dim(), func() func(int, vec) {
		s := make([]float64, len(l.b))
		return func(i int, x vec) {
			l.scores(s, &x)
			dst[i] = decide(classes, s)
		}
	})
	return dst
}

// scoresDst returns dst, or a new slice of length S if dst is nil,
// panicking in the manner of gonum if dst has another length.
func scoresDst(dst []float64, S int) []float64 {
	if dst == nil {
		return make([]float64, S)
	}
	if len(dst) != S {
		panic(fmt.Sprintf("perceptron: dst has length %d, want %d (the number of scores)", len(dst), S))
	}
	return dst
}

// bias returns the bias of a model of two classes, panicking in the
// manner of gonum if l has more scores; method names the caller.
func (l *linear) bias(method string) float64 {
	if !l.fitted() {
		return 0
	}
	if len(l.b) != 1 {
		panic(fmt.Sprintf("perceptron: %s of a model of %d classes: use Biases", method, len(l.b)))
	}
	return l.b[0]
}

// divide divides every score in s by div, as Score does: dividing, not
// multiplying by 1/div, which rounds differently.
func divide(s []float64, div float64) {
	if div != 1 {
		for c := range s {
			s[c] /= div
		}
	}
}
