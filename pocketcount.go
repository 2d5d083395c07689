// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// countBatch is the most candidates that the exact pocket counts
// together, and countCopies the most float64s their copies take: a
// candidate larger than that is counted alone, in place.
const (
	countBatch  = 16
	countCopies = 1 << 22
)

// counter counts the training rows that candidate weights misclassify,
// each as the weight of its class times its own: the count of a candidate
// is the sum over the classes of the rows of the class it misclassifies,
// or of their weights summed in the order of the rows, times the weight
// of the class, summed in the order of the classes, so that two
// candidates that misclassify the same rows count the same to the bit.
// Without weights it is the number of rows.
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

	// The copies of candidates, the batch that the pool counts, the count
	// they must stay below, and the sum at which a count stops reading;
	// their counts, the rows they misclassify, and the margins of each
	// row under candidates whose count read every row.
	batch   []table
	inPlace bool // the candidates are counted one at a time, not copied
	cands   []table
	limit   float64
	stop    float64
	e       []float64
	wrong   []int
	margins [][]float64

	// The rows that the pocket misclassified when the orders were last
	// made, and scratch for making them.
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
		e:        make([]float64, size),
		wrong:    make([]int, size),
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
		K := len(c.lists)
		return &countScratch{make([]float64, S), make([]int, K), make([]int, K), make([]float64, countChunk*S), make([]float64, K)}
	})
	c.counts.work = func(k int, scratch any) { c.countOne(k, scratch.(*countScratch)) }
	return c
}

// first returns the count of l, and orders the rows by their margins
// under l. The pocket will never misclassify more than most rows, or if
// most is -1 those that l misclassifies, which sizes the copies of the
// rows.
func (c *counter) first(l *table, most int) float64 {
	c.count([]table{*l}, math.Inf(1))
	if most < 0 {
		most = c.wrong[0]
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
	c.reorder(0)
	return c.e[0]
}

// all returns the count of weights that misclassify every row.
func (c *counter) all() float64 {
	rows := make([]float64, len(c.lists))
	for i := range c.ds.n {
		rows[c.ds.class(i)] += c.ds.weightOf(i)
	}
	return c.weigh(rows)
}

// weigh returns the count of rows misclassified in each class g, rows[g]
// of them or of that weight.
func (c *counter) weigh(rows []float64) float64 {
	e := 0.0
	for g, n := range rows {
		if c.ds.weight != nil {
			n *= c.ds.weight[g]
		}
		e += n
	}
	return e
}

// rowCount returns the count of l, which the count of a batch read
// whole, with weights of rows: it judges every row again, in the order of
// the rows, with the scratch s and rows.
func (c *counter) rowCount(l *table, s, rows []float64) float64 {
	clear(rows)
	for i, w := range c.ds.rowWeight {
		if w == 0 {
			continue // it counts nothing, misclassified or not
		}
		x := c.ds.row(i)
		if _, wrong := c.judge(l, &x, i, s); wrong {
			rows[c.ds.class(i)] += w
		}
	}
	return c.weigh(rows)
}

// frontSize returns the number of rows of class g to copy for a pocket
// that misclassifies e rows.
func (c *counter) frontSize(g, e int) int {
	return min(len(c.lists[g].order), 2*e+countChunk, c.ds.n/4)
}

// reorder orders the rows by their margins under candidate k of the last
// batch, whose count read every row, if the rows it misclassifies have
// fallen enough since the last order for the orders to change much.
func (c *counter) reorder(k int) {
	e := c.wrong[k]
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

// count sets c.e[k] to the count of cands[k] if it is below limit, and to
// limit otherwise, for every candidate at once.
func (c *counter) count(cands []table, limit float64) {
	c.cands, c.limit, c.stop = cands, limit, limit
	if c.ds.weight != nil || c.ds.rowWeight != nil {
		// A sum of the weights as the rows come rounds otherwise than the
		// count: reading on a little past the limit, a count that stops
		// is above it.
		c.stop = limit * (1 + float64(c.ds.n+len(c.lists)+2)*0x1p-50)
	}
	c.counts.n = len(cands)
	c.pool.submit(&c.counts)
	c.pool.wait(&c.counts)
}

// countScratch is a goroutine's scratch for counting: the scores of a
// row, the rows read and found misclassified in each class, the scores
// of a chunk of rows, and the count of each class.
type countScratch struct {
	s           []float64
	read, wrong []int
	chunk, rows []float64
}

// countOne counts candidate k of the batch, and keeps the margins of the
// rows it reads.
func (c *counter) countOne(k int, cs *countScratch) {
	s, read, wrong := cs.s, cs.read, cs.wrong
	l, margins := &c.cands[k], c.margins[k]
	clear(read)
	clear(wrong)
	m := 0.0
	halt, mask := c.ds.halt, c.ds.rowMask(len(s)*countChunk)
	pre := c.ds.rows.prefetches()
	for chunk := 0; m < c.stop; chunk++ {
		if halt.poll(chunk, mask) != nil {
			// The run stops at its next poll: the count of a
			// candidate that cannot win will do.
			m = c.stop
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
		start, end := read[g], min(read[g]+countChunk, len(list.order))
		// What a misclassified row adds to m. With weights of the rows,
		// nothing: the chunk's rows are weighed after it, those of a
		// margin below 0 alone, which Predict misclassifies, so that a
		// count that stops is at its limit all the same, and the loop
		// over the rows does no more than without weights.
		w := 1.0
		if c.ds.weight != nil {
			w = c.ds.weight[g]
		}
		if c.ds.rowWeight != nil {
			w = 0
		}
		// The scores of a chunk of dense rows of the front are taken
		// together, several rows at a time, at the cost of those of the
		// rows after the count's last.
		S := len(s)
		var scores []float64
		if k := start >> list.shift; k < len(list.front) && (end-1)>>list.shift == k {
			// The chunk lies in one piece of the front.
			piece, lo := list.front[k], start&(1<<list.shift-1)
			if !piece.sparse() && lo+end-start <= piece.n {
				scores = cs.chunk[:(end-start)*S]
				if S == 1 {
					piece.dots(scores, lo, l.w)
				} else {
					piece.scores(scores, lo, l.w, S)
				}
			}
		}
		for p := start; p < end && m < c.stop; p++ {
			i := list.order[p]
			var margin float64
			var misclassified bool
			switch {
			case scores != nil && S == 1:
				margin, misclassified = c.judgeOne(scores[p-start]+l.b[0], i)
			case scores != nil:
				// The bias added as table.scores adds it.
				s := scores[(p-start)*S : (p-start+1)*S]
				floats.Add(s, l.b)
				margin, misclassified = c.judgeScores(s, i)
			default:
				if pre && p+1 < len(list.order) && p+1 >= list.copied {
					// Rows past the front come in the order of their
					// margins, from all over the rows.
					c.ds.rows.prefetchRow(list.order[p+1])
				}
				x := list.row(c.ds, p)
				margin, misclassified = c.judge(l, &x, i, s)
			}
			margins[i] = margin
			read[g]++
			if misclassified {
				wrong[g]++
				m += w
			}
		}
		if c.ds.rowWeight != nil {
			m += c.chunkWeight(g, list.order[start:end], margins)
		}
	}
	c.e[k] = c.limit
	switch {
	case m < c.stop && c.ds.rowWeight != nil:
		c.e[k] = min(c.rowCount(l, s, cs.rows), c.limit)
	case m < c.stop:
		for g, n := range wrong {
			cs.rows[g] = float64(n)
		}
		c.e[k] = min(c.weigh(cs.rows), c.limit)
	}
	c.wrong[k] = 0
	for _, n := range wrong {
		c.wrong[k] += n
	}
}

// chunkWeight returns the count of the rows of class g of a chunk, rows,
// that are misclassified by a margin below 0, with weights of the rows.
func (c *counter) chunkWeight(g int, rows []int, margins []float64) float64 {
	w := 1.0
	if c.ds.weight != nil {
		w = c.ds.weight[g]
	}
	m := 0.0
	for _, i := range rows {
		if margins[i] < 0 {
			m += w * c.ds.rowWeight[i]
		}
	}
	return m
}

// judge returns the margin of row i, x, under l, and whether Predict with
// l misclassifies it: with two classes the margin is y(w·x+b), and with
// more the score of its class less the greatest other.
func (c *counter) judge(l *table, x *vec, i int, s []float64) (float64, bool) {
	if len(s) == 1 {
		// The one score in a local, without a call of scores: this loop
		// runs for every row a candidate reads.
		return c.judgeOne(x.dot(l.w)+l.b[0], i)
	}
	l.scores(s, x, i)
	return c.judgeScores(s, i)
}

// judgeScores is judge for row i of a model of more than one score, whose
// scores are s.
func (c *counter) judgeScores(s []float64, i int) (float64, bool) {
	t := c.ds.class(i)
	return s[t] - s[argmax(s, t)], class(s) != t
}

// judgeOne is judge for row i of a model of one score, whose score is a.
func (c *counter) judgeOne(a float64, i int) (float64, bool) {
	s := [1]float64{a}
	return c.ds.y[i] * a, class(s[:]) != c.ds.class(i)
}
