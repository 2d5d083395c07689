// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"gonum.org/v1/gonum/floats"

	"github.com/seed5ae3614e/perceptron/internal/memory"
	"github.com/seed5ae3614e/perceptron/internal/simd"
)

// The visits of an epoch, the loop of every classifier's training: rule,
// of rule.go, visits the rows, judges each by the perceptron's rule, and
// makes the update of each mistake on its hypothesis. What Pocket,
// Averaged and Voted keep of a run is a hook on it. The loop is written
// twice, span and spanOne for a weight table of one score, for the speed
// of short rows, as spanOne says; both judge a row with judge and update
// with mistake.

// visits visits every row once, in order, or in index order if order is
// nil, t0 being the number of visits of the run before. In a random order
// each visit first asks for the next visit's dense row, where that pays,
// so that the row is on its way while the visit runs; on sparse rows of
// many classes, in any order, for the weights of the next row's columns
// and for the row after it. A row that holds NaN
// or an infinity makes a score NaN or infinite whatever the hypothesis
// is, so a visit checks its row for the price of a comparison, and only a
// row with such a score is searched. It polls the halt of the rows every
// r.poll+1 visits, and returns its error if the halt stops it.
func (r *rule) visits(order []int, t0 int, onMistake func(i int)) error {
	// The polls come between spans of visits: a poll in the loop of the
	// visits would cost every visit, and the shortest measurably.
	n, step := r.ds.n, r.ds.n
	if r.ds.halt != nil {
		step = r.poll + 1
	}
	for lo := 0; lo < n; lo += step {
		if err := r.ds.halt.err(); err != nil {
			r.at = lo
			return err
		}
		if err := r.span(order, t0, lo, min(lo+step, n), onMistake); err != nil {
			return err
		}
	}
	return nil
}

// span makes the visits of visits at the positions lo to hi-1 of the
// order; those of a weight table of one score are spanOne's. The loop's
// values are held in locals, which a visit reloads from the stack after
// a call, where fields would be reached through a chain of pointers.
//
// A weight table of several scores on dense rows is scored three rows
// at a time where simd.Scores3 pays: a row's sums are chains of
// additions, whose latency bounds its time, and three rows' chains run
// side by side in little more. The scores of the next two rows stand
// until a mistake's update changes the weights, and are the bits that
// scores would give them.
func (r *rule) span(order []int, t0, lo, hi int, onMistake func(i int)) error {
	if len(r.s) == 1 && r.t != nil {
		return r.spanOne(order, t0, lo, hi, onMistake)
	}
	ds, rows, s := r.ds, *r.ds.rows, r.s
	dense, pre := !rows.sparse(), order != nil && r.t != nil && rows.prefetches()
	ahead := dense && rows.d > 0 && len(s) > 1 && r.t != nil && simd.Scores3Pays()
	// A sparse row's scores of many classes read lines from all over a
	// table too large for the caches, each of which the sums would wait
	// for in turn: the row two visits on is asked for, and the weights
	// of the next row's columns.
	sparsePre := r.t != nil && rows.prefetchesWeights(len(s))
	if ahead && r.ahead == nil {
		r.ahead = make([]float64, 3*len(s))
	}
	from, to := 0, 0 // the positions whose scores r.ahead holds
	var x vec        // one for the loop: its address escapes
	var a float64
	for p := lo; p < hi; p++ {
		i := rowAt(order, p)
		if pre && p+1 < rows.n {
			rows.prefetchRow(order[p+1])
		}
		if sparsePre && p+1 < rows.n {
			if p+2 < rows.n {
				rows.prefetchSparse(rowAt(order, p+2))
			}
			rows.prefetchWeights(r.t.w, rowAt(order, p+1), len(s))
		}
		var bad bool // a score is NaN or infinite
		switch {
		case ahead:
			if p >= to {
				from, to = p, p+r.scoreAhead(order, p, hi)
			}
			// The biases added as table.scores adds them.
			copy(s, r.ahead[(p-from)*len(s):])
			floats.Add(s, r.t.b)
			a, bad = s[0], nonFinite(s) >= 0
		case sparsePre:
			x = rows.row(i)
			r.t.scoresFetched(s, &x)
			a, bad = s[0], nonFinite(s) >= 0
		default:
			x = rows.row(i)
			r.h.scores(s, &x, i)
			a, bad = s[0], nonFinite(s) >= 0
		}
		if bad {
			if err := r.bad(i); err != nil {
				r.at = p
				return err
			}
		}
		o, mistake := judge(ds, i, s, a)
		if !mistake {
			continue
		}
		if err := r.mistake(&x, p, t0, i, a, o, onMistake); err != nil {
			return err
		}
		to = 0 // the weights may have changed
	}
	return nil
}

// spanOne is span for a weight table of one score, two classes, the most
// common case, in a loop of its own, with span's mistake test and update.
// Its loop calls the dot product at every visit, and Go keeps no register
// across a call, so that each visit reloads what the loop holds from the
// stack: span's other cases hold enough more that a Fit of 1000 rows of
// 10 features took about 12% longer in span than here. The score is held
// in a, so that a row classified right costs little more than its dot
// product, and the bias in b, a copy taken again after each update.
func (r *rule) spanOne(order []int, t0, lo, hi int, onMistake func(i int)) error {
	ds, rows, s := r.ds, *r.ds.rows, r.s
	w, b := r.t.w, r.t.b[0]
	dense, pre := !rows.sparse(), order != nil && rows.prefetches()
	var x vec // one for the loop: its address escapes
	for p := lo; p < hi; p++ {
		i := rowAt(order, p)
		if pre && p+1 < rows.n {
			rows.prefetchRow(order[p+1])
		}
		var a float64
		if dense { // in line, where a call of dot would cost as much again
			a = floats.Dot(rows.dense(i), w) + b
		} else {
			x = rows.row(i)
			a = x.dot(w) + b
		}
		if a-a != 0 { // one test, where finite makes two
			if err := r.bad(i); err != nil {
				r.at = p
				return err
			}
		}
		o, mistake := judge(ds, i, s, a)
		if !mistake {
			continue
		}
		if err := r.mistake(&x, p, t0, i, a, o, onMistake); err != nil {
			return err
		}
		b = r.t.b[0]
	}
	return nil
}

// mistake makes the update of the mistake that judge found at the
// position p of the order, row i, whose first score is a and whose other
// class is o, in span and spanOne alike, adds its loss, and calls
// onMistake with the row. A mistake of step 0, on a row of weight 0,
// makes no update and is no mistake, though its loss counts, as with
// scikit-learn. x is the loop's vec, which it sets to the row. It returns
// the error of make, at p.
func (r *rule) mistake(x *vec, p, t0, i int, a float64, o int, onMistake func(int)) error {
	mv, loss := moveOf(r.ds, i, r.s, a, o, r.rate)
	r.loss += loss
	if mv.step == 0 {
		return nil
	}
	*x = r.ds.rows.row(i)
	if err := r.make(x, i, t0+p, mv); err != nil {
		r.at = p
		return err
	}
	onMistake(i)
	return nil
}

// scoreAhead sets r.ahead to the scores of the weight table r.t, without
// its biases, of the dense rows at the positions p to p+2 of the order,
// or at p alone if the span ends before p+2, and returns the number of
// rows it scored.
func (r *rule) scoreAhead(order []int, p, hi int) int {
	rows, S := r.ds.rows, len(r.s)
	x0 := rows.dense(rowAt(order, p))
	if p+2 >= hi {
		gemvT(r.ahead, r.t.w, x0, S)
		return 1
	}
	simd.Scores3(r.ahead, r.t.w[:len(x0)*S], x0, rows.dense(rowAt(order, p+1)), rows.dense(rowAt(order, p+2)))
	return 3
}

// bad returns the error of a visit to row i whose scores are not finite:
// the row's NaN or infinity, if it holds one, or with finiteScores an
// overflow.
func (r *rule) bad(i int) error {
	if err := r.ds.rowError(i); err != nil || !r.finiteScores {
		return err
	}
	j := nonFinite(r.s)
	return errorAt(ErrNonFinite, r.ds.origin(i), -1, "perceptron: the score of row %d is %v: a kernel value, or its product with a coefficient, is not finite: scale X or lower Rate", r.ds.origin(i), r.s[j])
}

// make makes the update mv on x, row i, after t visits of the run.
func (r *rule) make(x *vec, i, t int, mv move) error {
	if r.guard && !r.h.fits(x, mv) {
		return errOverflow
	}
	if r.grows > 0 {
		if r.made++; r.made&(r.made-1) == 0 && r.made >= 1<<12 {
			if err := memory.Check(float64(r.grows) * float64(r.made)); err != nil {
				return tooLarge(err, "keeping %d mistakes", 2*r.made)
			}
		}
	}
	if r.kept != nil {
		if err := r.kept(x, i, t, mv); err != nil {
			return err
		}
	}
	r.h.add(x, i, t, mv)
	return nil
}

var errOverflow = errorf(ErrNonFinite, "perceptron: the update on x would overflow the model: scale X or lower Rate")
