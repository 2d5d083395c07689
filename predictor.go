// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// What the prediction methods share: a model as they read it, the checks
// of their arguments, and the spreading of many rows over the workers.

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
	return predictor{classes: classes, d: l.dim(), S: len(l.b), lin: l}
}

// predictor is a fitted model as the prediction methods read it: its
// classes, the length of its rows, and its S scores of a row, which a
// model that divides its scores, as Averaged does, gives before the
// division, to decide on exact sums.
type predictor struct {
	classes []float64
	d, S    int
	div     float64 // what ScoreRows divides the scores by, or 0 for 1

	// lin, if not nil, is the weight table whose scores these are, which
	// scores dense rows several at a time; otherwise by gives them. Each
	// holds a pointer, where a function value would cost an allocation
	// at every prediction of one row.
	lin *table
	by  interface{ scores(dst []float64, x vec) }
}

// rowScores sets dst to the S scores of x under p.
func (p predictor) rowScores(dst []float64, x vec) {
	if p.lin != nil {
		p.lin.scores(dst, &x, 0)
		return
	}
	p.by.scores(dst, x)
}

// fitted panics in the manner of gonum if the model has not been fitted;
// method names the caller in the message.
func (p predictor) fitted(method string) {
	if p.lin == nil && p.by == nil {
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
	p.rowScores(*buf, vec{val: x})
	c := decide(p.classes, *buf)
	putBuffer(buf)
	return c
}

// scoreRow sets dst, of length S, to the scores of the dense x under p,
// as scoreRows gives those of a row, without the spreading of rows over
// the workers, which costs more than the scores of one short row; it
// panics as predictOne does, and if dst has another length.
func (p predictor) scoreRow(dst, x []float64) {
	p.fitted("Predict")
	checkLength(x, p.d)
	rowsDst(dst, p.S)
	p.rowScores(dst, vec{val: x})
	if p.div != 0 {
		divided(dst, p.div)
	}
}

// scoreRows returns the scores of the rows of X under p in dst, which it
// allocates if nil: those of row i at dst[i·S:(i+1)·S].
func (p predictor) scoreRows(dst []float64, X mat.Matrix) []float64 {
	p.fitted("ScoreRows")
	n, _ := dims(X)
	dst = rowsDst(dst, n*p.S)
	eachRow(X, p.d, func() func(*rows, int, int) {
		return func(xs *rows, lo, hi int) {
			if s := dst[lo*p.S : hi*p.S]; p.tableScores(s, xs, lo) {
				if p.div != 0 {
					divided(s, p.div)
				}
				return
			}
			for i := lo; i < hi; i++ {
				s := dst[i*p.S : i*p.S+p.S]
				p.sparseScores(s, xs, i, lo, hi)
				if p.div != 0 {
					divided(s, p.div)
				}
			}
		}
	})
	return dst
}

// tableScores sets dst to the scores of the len(dst)/S rows of xs from
// row i, as rowScores gives them, and returns true, if p's scores are those
// of a weight table and the rows are dense; otherwise it returns false.
func (p predictor) tableScores(dst []float64, xs *rows, i int) bool {
	l := p.lin
	if l == nil || xs.sparse() {
		return false
	}
	if p.S == 1 {
		xs.dots(dst, i, l.w)
		for q := range dst {
			dst[q] += l.b[0]
		}
		return true
	}
	xs.scores(dst, i, l.w, p.S)
	for q := 0; q < len(dst); q += p.S {
		floats.Add(dst[q:q+p.S], l.b)
	}
	return true
}

// sparseScores sets dst to the scores of row i of xs, one of the rows
// from lo to hi-1 that a loop visits in order. Where the rows are sparse
// and p's scores are those of a weight table large enough to gain, it
// asks for the weights of the columns of row i+1, as an epoch does, and
// scores row i without table.scores' loads of its lines, which the visit
// of row i-1 asked for.
func (p predictor) sparseScores(dst []float64, xs *rows, i, lo, hi int) {
	if p.lin == nil || !xs.prefetchesWeights(p.S) {
		p.rowScores(dst, xs.row(i))
		return
	}
	if i+1 < hi {
		xs.prefetchWeights(p.lin.w, i+1, p.S)
	}
	x := xs.row(i)
	if i == lo {
		p.lin.scores(dst, &x, i)
		return
	}
	p.lin.scoresFetched(dst, &x)
}

// predictBlock is the number of rows of more than one score whose scores
// PredictRows holds at once, to choose their classes.
const predictBlock = 16

// predictRows returns the classes of the rows of X under p in dst, which
// it allocates if nil.
func (p predictor) predictRows(dst []float64, X mat.Matrix) []float64 {
	p.fitted("PredictRows")
	n, _ := dims(X)
	dst = rowsDst(dst, n)
	eachRow(X, p.d, func() func(*rows, int, int) {
		s := make([]float64, p.S)
		var block []float64 // the scores of predictBlock rows
		if p.lin != nil && p.S > 1 {
			block = make([]float64, predictBlock*p.S)
		}
		return func(xs *rows, lo, hi int) {
			if p.S == 1 && p.tableScores(dst[lo:hi], xs, lo) {
				for i := lo; i < hi; i++ {
					dst[i] = decide(p.classes, dst[i:i+1])
				}
				return
			}
			for ; block != nil && lo < hi; lo += predictBlock {
				end := min(hi, lo+predictBlock)
				if !p.tableScores(block[:(end-lo)*p.S], xs, lo) {
					break
				}
				for i := lo; i < end; i++ {
					dst[i] = decide(p.classes, block[(i-lo)*p.S:(i-lo+1)*p.S])
				}
			}
			for i := lo; i < hi; i++ {
				p.sparseScores(s, xs, i, lo, hi)
				dst[i] = decide(p.classes, s)
			}
		}
	})
	return dst
}

// rowChunk is the number of rows that one call of a parallel scoring of
// many rows scores.
const rowChunk = 256

// eachRow calls f(xs, lo, hi) for the rows xs of X, dense or sparse, in
// chunks of rows lo to hi-1 that cover them, spreading the chunks over the
// workers, each of which takes its f from newF, so that f can hold
// scratch space of its own. It panics if X does not have d columns, or if
// X is a mat.RowNonZeroDoer whose elements are not valid.
func eachRow(X mat.Matrix, d int, newF func() func(xs *rows, lo, hi int)) {
	r, xs := rowsFor(X, d)
	parallel((r+rowChunk-1)/rowChunk, func() func(int) {
		f := newF()
		return func(b int) { f(xs, b*rowChunk, min(r, (b+1)*rowChunk)) }
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

// divided returns the elements of x divided by d, in place: dividing, not
// multiplying by 1/d, which rounds differently.
func divided(x []float64, d float64) []float64 {
	for j := range x {
		x[j] /= d
	}
	return x
}
