// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

// Prediction while learning: the prediction methods of a classifier read
// a view of its model that training publishes whole (package
// internal/live), at the end of Fit or of each Learn, so that one
// goroutine may train while others predict. A Learn of a linear
// classifier writes a copy of the tables that predictions read, and at
// its end brings the copy it replaced up to date by the log of its
// mistakes: the model is held twice, and a Learn copies what it changed
// once more, which costs what its updates cost. Voted appends to what
// predictions read and copies its votes; Kernel learns on a copy of its
// expansion.

// changed is a mistake of a Learn, by which a copy of the weights that did
// not learn it catches up: the row and the update.
type changed struct {
	i  int
	mv move
}

// catchUp sets l, a copy of the weights src before the mistakes log on the
// rows of ds, to src: the weights of the scores that each mistake moved at
// the columns of its row, or all of them where that is less work, and the
// biases.
func (l *table) catchUp(src *table, ds *dataset, log []changed) {
	copy(l.b, src.b)
	work := 0
	for _, c := range log {
		work += 2 * len(ds.row(c.i).val) // at most two scores a mistake
		if work >= len(l.w) {
			copyParts(l.w, src.w)
			return
		}
	}
	for _, c := range log {
		x := ds.row(c.i)
		l.copyScore(src, &x, c.mv.up)
		if c.mv.down >= 0 {
			l.copyScore(src, &x, c.mv.down)
		}
	}
}

// copyScore sets the weights of score c of l at the columns of x to those
// of src.
func (l *table) copyScore(src *table, x *vec, c int) {
	S := len(l.b)
	if x.ind == nil {
		for j := c; j < len(l.w); j += S {
			l.w[j] = src.w[j]
		}
		return
	}
	for _, j := range x.ind {
		l.w[j*S+c] = src.w[j*S+c]
	}
}
