// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"reflect"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/memory"
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
	S := len(l.b)
	if S == 1 {
		dst[0] = x.dot(l.w) + l.b[0]
		return
	}
	if x.ind == nil {
		gemvT(dst, l.w, x.val, S)
	} else {
		touch(l.w, x.ind, S)
		clear(dst)
		for k, j := range x.ind {
			floats.AddScaled(dst, x.val[k], l.w[j*S:j*S+S])
		}
	}
	floats.Add(dst, l.b)
}

// scoresOf sets dst to the scores of x.
func (l *table) scoresOf(dst []float64, x vec) { l.scores(dst, &x, 0) }

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

func (l *table) add(x *vec, _, _ int, mv move) {
	l.move(x, mv.up, mv.step)
	if mv.down >= 0 {
		l.move(x, mv.down, -mv.step)
	}
}

// move moves score c by a·x, and its bias by a.
func (l *table) move(x *vec, c int, a float64) {
	if S := len(l.b); S == 1 {
		x.addTo(l.w, a)
	} else {
		x.addStrided(l.w[c:], S, a)
	}
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
	return table{w: slices.Clone(l.w), b: slices.Clone(l.b), noBias: l.noBias}
}

// set makes l a copy of m, of the same shape.
func (l *table) set(m *table) {
	copy(l.w, m.w)
	copy(l.b, m.b)
}

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

// gemvT sets dst to the S products of the columns of the d×S matrix w,
// held row by row, with x.
func gemvT(dst, w, x []float64, S int) {
	blas64.Gemv(blas.Trans, 1,
		blas64.General{Rows: len(x), Cols: S, Stride: S, Data: w},
		blas64.Vector{N: len(x), Inc: 1, Data: x},
		0, blas64.Vector{N: S, Inc: 1, Data: dst})
}

// weights returns copies of the weights and biases of l, or nil, nil if
// it is not fitted.
func (l *table) weights() (w, b []float64) { return slices.Clone(l.w), slices.Clone(l.b) }

// predict returns the class that l chooses for x, panicking as fitted and
// checkLength do: on dense x of a table of two classes at the cost of the
// dot product, and on others through scores.
func (l *table) predict(classes, x []float64) float64 {
	if len(l.b) == 1 && len(x) == len(l.w) {
		s := [1]float64{floats.Dot(x, l.w) + l.b[0]}
		return decide(classes, s[:])
	}
	return predictOne(l.predictor(classes), x)
}

// predictor returns l as the prediction methods read it.
func (l *table) predictor(classes []float64) predictor {
	if !l.fitted() {
		return predictor{}
	}
	return predictor{classes: classes, d: l.dim(), S: len(l.b), scores: func(dst []float64, x vec) { l.scores(dst, &x, 0) }}
}

// predictor is a fitted model as the prediction methods read it: its
// classes, the length of its rows, and its S scores of a row, which a
// model that divides its scores, as Averaged does, gives before the
// division, to decide on exact sums.
type predictor struct {
	classes []float64
	d, S    int
	scores  func(dst []float64, x vec)
	div     float64 // what ScoreRows divides the scores by, or 0 for 1
}

// fitted panics in the manner of gonum if the model has not been fitted;
// method names the caller in the message.
func (p predictor) fitted(method string) {
	if p.scores == nil {
		panic(notFitted(method))
	}
}

// checkLength panics in the manner of gonum if x has not length d.
func checkLength(x []float64, d int) {
	if len(x) != d {
		panic(errorf(ErrShape, "perceptron: x has length %d, want %d", len(x), d))
	}
}

// predictOne returns the class of the dense x that p chooses.
func predictOne(p predictor, x []float64) float64 {
	p.fitted("Predict")
	checkLength(x, p.d)
	buf := getBuffer(p.S)
	p.scores(*buf, vec{val: x})
	c := decide(p.classes, *buf)
	putBuffer(buf)
	return c
}

// scoreRows returns the scores of the rows of X under p in dst, which it
// allocates if nil: those of row i at dst[i·S:(i+1)·S].
func (p predictor) scoreRows(dst []float64, X mat.Matrix) []float64 {
	p.fitted("ScoreRows")
	n, _ := dims(X)
	dst = rowsDst(dst, n*p.S)
	eachRow(X, p.d, func() func(int, vec) {
		return func(i int, x vec) {
			s := dst[i*p.S : i*p.S+p.S]
			p.scores(s, x)
			if p.div != 0 {
				divided(s, p.div)
			}
		}
	})
	return dst
}

// predictRows returns the classes of the rows of X under p in dst, which
// it allocates if nil.
func (p predictor) predictRows(dst []float64, X mat.Matrix) []float64 {
	p.fitted("PredictRows")
	n, _ := dims(X)
	dst = rowsDst(dst, n)
	eachRow(X, p.d, func() func(int, vec) {
		s := make([]float64, p.S)
		return func(i int, x vec) {
			p.scores(s, x)
			dst[i] = decide(p.classes, s)
		}
	})
	return dst
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
	r, xs := rowsFor(X, d)
	parallel((r+rowChunk-1)/rowChunk, func() func(int) {
		f := newF()
		return func(b int) {
			for i := b * rowChunk; i < min(r, (b+1)*rowChunk); i++ {
				f(i, xs.row(i))
			}
		}
	})
}

// rowsFor returns the number of rows of X and the rows, as rowsOf reads
// them, for a model of d features. It panics if X does not have d
// columns, or if X is a mat.RowNonZeroDoer whose elements are not valid.
func rowsFor(X mat.Matrix, d int) (int, *rows) {
	r, c := dims(X)
	if c != d {
		panic(errorf(ErrShape, "perceptron: X has %d columns, want %d", c, d))
	}
	xs, err := rowsOf(X)
	if err != nil {
		panic(err)
	}
	return r, xs
}

// dims returns the dimensions of X, panicking in the manner of gonum if X
// is nil, as a nil *mat.Dense would with no message of its own.
func dims(X mat.Matrix) (r, c int) {
	if isNil(X) {
		panic(errorf(ErrShape, "perceptron: X is nil"))
	}
	return X.Dims()
}

// isNil reports whether x is nil, or a nil pointer in an interface.
func isNil(x any) bool {
	v := reflect.ValueOf(x)
	return x == nil || v.Kind() == reflect.Pointer && v.IsNil()
}

// rowsDst returns dst, or a new slice of length n if dst is nil,
// panicking in the manner of gonum if dst has another length.
func rowsDst(dst []float64, n int) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(errorf(ErrShape, "perceptron: dst has length %d, want %d", len(dst), n))
	}
	return dst
}
