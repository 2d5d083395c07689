// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"cmp"
	"math/bits"
	"slices"
)

// countBatch is the most candidates that the exact pocket counts
// together, and countCopies the most float64s their copies take: a
// candidate larger than that is counted alone, in place.
const (
	countBatch  = 16
	countCopies = 1 << 22
)

// counter counts the training rows that candidate weights misclassify.
//
// A count that cannot win must reach the pocket's count of mistakes, and
// it reaches it soonest on the rows that the candidate misclassifies. The
// counter keeps the rows of each class in the order of their margin under
// the pocket, the least first: the rows that the pocket misclassifies,
// then those nearest its boundaries, where weights near the pocket err.
// Such weights often differ from the pocket mostly by a shift of the
// scores, which makes them err on the rows of some classes, so a count
// reads the classes' rows in chunks, each time from the class whose rows
// it has found most often misclassified. The first rows of each order are
// copied into contiguous memory, which the counts read at the speed of a
// stream, where rows in a random order would each start one.
type counter struct {
	ds     *dataset
	lists  []rowList // per class
	pool   *pool
	counts batch // the counts of a batch of candidates

	// The copies of candidates, the batch that the pool counts, their
	// counts, and the margins of each row under candidates whose count
	// read every row.
	batch   []table
	inPlace bool // the candidates are counted one at a time, not copied
	cands   []table
	limit   int
	e       []int
	margins [][]float64

	// The pocket's count when the orders were last made, and scratch for
	// making them.
	ordered  int
	byMargin []margined
}

// margined is a row and its margin.
type margined struct {
	m float64
	i int
}

// rowList is the rows of one class, in order, with a copy of the first
// copied of them, its front, in pieces of 1<<shift rows of about
// frontPiece words. A front may be as large as the rows, whose memory
// takes long to allocate and zero, and a run can stop between two pieces
// but not within the allocation of one.
type rowList struct {
	order  []int
	front  []*rows
	copied int
	shift  uint
}

// frontPiece is about the most words of a piece of a front.
const frontPiece = 1 << 19

// row returns the p-th row of l.
func (l *rowList) row(ds *dataset, p int) vec {
	if p < l.copied {
		return l.front[p>>l.shift].row(p & (1<<l.shift - 1))
	}
	return ds.row(l.order[p])
}

// countChunk is the number of rows a count reads from one class at a
// time.
const countChunk = 16

// counterSize returns the number of candidates that a counter on the rows
// of ds counts together.
func counterSize(ds *dataset, S int) int { return min(countBatch, max(1, countCopies/(ds.d*S))) }

// counterWords returns the most words that a counter on the rows of ds
// holds: its candidates' tables, their margins, its lists of rows, and
// the copies of the rows at their fronts.
func counterWords(ds *dataset, S int) float64 {
	size := float64(counterSize(ds, S))
	return size*(ds.tableWords()+float64(ds.n)) + 3*float64(ds.n) + ds.words()
}

// newCounter returns a counter for candidates of S scores on the rows of
// ds.
func newCounter(ds *dataset, S int) *counter {
	size := counterSize(ds, S)
	c := &counter{
		ds:       ds,
		lists:    make([]rowList, len(ds.classes)),
		batch:    make([]table, size),
		inPlace:  size == 1,
		e:        make([]int, size),
		margins:  make([][]float64, size),
		byMargin: make([]margined, ds.n),
	}
	for k := range c.batch {
		if !c.inPlace {
			c.batch[k] = table{w: make([]float64, ds.d*S), b: make([]float64, S)}
		}
		c.margins[k] = make([]float64, ds.n)
	}
	count := make([]int, len(c.lists))
	for i := range ds.n {
		count[c.ds.class(i)]++
	}
	for g := range c.lists {
		c.lists[g].order = make([]int, 0, count[g])
	}
	for i := range ds.n {
		g := c.ds.class(i)
		c.lists[g].order = append(c.lists[g].order, i)
	}
	c.pool = newPool(workers(), func() any {
		return &countScratch{make([]float64, S), make([]int, len(c.lists)), make([]int, len(c.lists))}
	})
	c.counts.work = func(k int, scratch any) { c.countOne(k, scratch.(*countScratch)) }
	return c
}

// first counts the rows that l misclassifies, and orders the rows by
// their margins under l. The pocket's count will never be more than
// most, or if most is -1 the count of l, which sizes the copies of the
// rows.
func (c *counter) first(l *table, most int) int {
	c.count([]table{*l}, c.ds.n+1)
	if most < 0 {
		most = c.e[0]
	}
	perRow := c.ds.words() / float64(c.ds.n)
	shift := uint(bits.Len(uint(max(1, frontPiece/perRow))) - 1)
	for g := range c.lists {
		l := &c.lists[g]
		l.shift = shift
		for left := c.frontSize(g, most); left > 0; left -= 1 << shift {
			if c.ds.halt.err() != nil {
				// The run stops at its next poll, and the counts do
				// without the pieces left.
				break
			}
			l.front = append(l.front, newRows(c.ds.d, min(left, 1<<shift), c.ds.sparse()))
		}
	}
	c.reorder(0, c.e[0])
	return c.e[0]
}

// frontSize returns the number of rows of class g to copy for a pocket
// that misclassifies e rows.
func (c *counter) frontSize(g, e int) int {
	return min(len(c.lists[g].order), 2*e+countChunk, c.ds.n/4)
}

// reorder orders the rows by their margins under candidate k of the last
// batch, which misclassifies e rows and whose count read every row, if
// the pocket's count has fallen enough since the last order for the
// orders to change much.
func (c *counter) reorder(k, e int) {
	if c.ordered > 0 && e > c.ordered*19/20 {
		return
	}
	c.ordered = e
	margins := c.margins[k]
	halt, mask := c.ds.halt, c.ds.rowMask(1)
	for g := range c.lists {
		l := &c.lists[g]
		byMargin := c.byMargin[:len(l.order)]
		for p, i := range l.order {
			byMargin[p] = margined{margins[i], i}
		}
		slices.SortFunc(byMargin, func(a, b margined) int { return cmp.Compare(a.m, b.m) })
		for p := range l.order {
			l.order[p] = byMargin[p].i
		}
		l.copied = 0
		for _, piece := range l.front {
			piece.reset()
		}
		size := min(c.frontSize(g, e), len(l.front)<<l.shift)
		for p, i := range l.order[:size] {
			if halt.poll(p, mask) != nil {
				// The run stops at its next poll. A front of fewer rows
				// is still the start of its order, as a count reads it.
				return
			}
			l.front[p>>l.shift].append(c.ds.row(i))
			l.copied++
		}
	}
}

// count sets c.e[k] to the number of rows that cands[k] misclassifies if
// it is below limit, and to limit otherwise, for every candidate at once.
func (c *counter) count(cands []table, limit int) {
	c.cands, c.limit = cands, limit
	c.counts.n = len(cands)
	c.pool.submit(&c.counts)
	c.pool.wait(&c.counts)
}

// countScratch is a goroutine's scratch for counting: the scores of a
// row, and the rows read and found misclassified in each class.
type countScratch struct {
	s           []float64
	read, wrong []int
}

// countOne counts candidate k of the batch, and keeps the margins of the
// rows it reads.
func (c *counter) countOne(k int, cs *countScratch) {
	s, read, wrong := cs.s, cs.read, cs.wrong
	l, margins := &c.cands[k], c.margins[k]
	clear(read)
	clear(wrong)
	m := 0
	halt, mask := c.ds.halt, c.ds.rowMask(len(s)*countChunk)
	for chunk := 0; m < c.limit; chunk++ {
		if halt.poll(chunk, mask) != nil {
			// The run stops at its next poll: the count of a
			// candidate that cannot win will do.
			m = c.limit
			break
		}
		// Read from the class whose rows have been misclassified most
		// often, by the rule of succession.
		g := -1
		for h := range c.lists {
			if read[h] < len(c.lists[h].order) && (g < 0 || (wrong[h]+1)*(read[g]+2) > (wrong[g]+1)*(read[h]+2)) {
				g = h
			}
		}
		if g < 0 {
			break
		}
		list := &c.lists[g]
		end := min(read[g]+countChunk, len(list.order))
		for p := read[g]; p < end && m < c.limit; p++ {
			i := list.order[p]
			x := list.row(c.ds, p)
			margin, misclassified := c.judge(l, &x, i, s)
			margins[i] = margin
			read[g]++
			if misclassified {
				wrong[g]++
				m++
			}
		}
	}
	c.e[k] = m
}

// judge returns the margin of row i, x, under l, and whether Predict with
// l misclassifies it: with two classes the margin is y(w·x+b), and with
// more the score of its class less the greatest other.
func (c *counter) judge(l *table, x *vec, i int, s []float64) (float64, bool) {
	t := c.ds.class(i)
	if len(s) == 1 {
		// The one score in a local, without a call of scores: this loop
		// runs for every row a candidate reads.
		a := [1]float64{x.dot(l.w) + l.b[0]}
		return c.ds.y[i] * a[0], class(a[:]) != t
	}
	l.scores(s, x, i)
	return s[t] - s[argmax(s, t)], class(s) != t
}
