// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Pocket is the pocket algorithm (Gallant, Perceptron-based learning
// algorithms, IEEE Transactions on Neural Networks 1(2), 1990): it runs the
// perceptron, keeps in its pocket the best weights of the run, those that
// misclassify the fewest training rows, and predicts with them. It suits
// data that no hyperplane separates, on which the perceptron's last
// weights may be far from the best it visited.
//
// By default the pocket is exact: the candidates are the starting weights
// and the weights after every update, and the pocket is the candidate that
// misclassifies the fewest training rows, the earliest of those if several
// tie. A row counts as misclassified when Predict with the weights gets it
// wrong, a score of zero being +1. Fit counts every candidate, so an update
// costs at least as many dot products as the pocket misclassifies rows,
// and n for a candidate that wins: a count stops as soon as the candidate
// has as many misclassified rows as the pocket, since it can no longer
// win. The counts read first the rows nearest the pocket's hyperplane,
// where the mistakes of weights near the pocket lie, so that most stop
// early; they keep a copy of those rows, at most 4 times as many as the
// pocket misclassifies and at most half the training rows, so as to read
// them from contiguous memory.
// The candidates are counted a batch at a time, on GOMAXPROCS goroutines;
// the pocket does not depend on their number.
//
// With Ratchet set, Fit keeps the pocket by Gallant's rule instead, the
// pocket algorithm with ratchet: the run of the current weights, the
// number of consecutive visits they classified right by the perceptron's
// test, is counted, and when it grows longer than the pocket's run, the
// weights replace the pocket only if they also misclassify fewer training
// rows; the pocket's run is then the run that put them there. As Gallant
// starts with an empty pocket, the first weights counted replace the
// starting weights unless they misclassify every row. Counts are then
// fewer, each on one goroutine, and the pocket need not be the best
// weights of the run.
//
// If an epoch makes no mistake, the run has separated the data: Fit stops
// as Perceptron's does, and the pocket is weights that misclassify no row.
// Fit keeps the count of the pocket, for Misclassified.
//
// The zero value is ready to use, with the defaults of Perceptron.
type Pocket struct {
	// Epochs is the most passes over the data, as in Perceptron.
	Epochs int

	// Rate is the learning rate, as in Perceptron.
	Rate float64

	// Rand, if not nil, shuffles the rows every epoch, as in Perceptron.
	Rand *rand.Rand

	// NoBias trains through the origin, as in Perceptron.
	NoBias bool

	// InitWeights are the starting weights, as in Perceptron, and the
	// first candidate.
	InitWeights []float64

	// InitBias is the starting bias, as in Perceptron.
	InitBias float64

	// OnUpdate is called after every update, as in Perceptron. It sees
	// the running weights, not the pocket.
	OnUpdate func(Update)

	// Ratchet makes Fit keep the pocket by Gallant's ratchet, which counts
	// only the weights whose run beats the pocket's, instead of every
	// candidate. It costs less, and can miss the best weights of the run.
	Ratchet bool

	lin           linear
	misclassified int
	stats         Stats
}

// Fit trains the perceptron on the rows of X with labels y, as
// Perceptron's Fit does, with the same stopping rule and the same errors,
// and keeps the pocket weights.
func (p *Pocket) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y)
	if err != nil {
		return err
	}
	s, err := p.settings().resolve(ds.d)
	if err != nil {
		return err
	}
	lin := s.start(ds.d)
	c := newCounter(ds)
	defer c.crew.stop()
	pk := &pocket{l: lin.clone(), e: c.first(&lin)}
	var kept func(i, t int)
	var last func(end int, converged bool)
	if p.Ratchet {
		kept, last = pk.ratchet(c, &lin, ds.n)
	} else {
		kept, last = pk.exact(c, &lin)
	}
	stats, err := s.run(ds, newRule(ds, &lin, &s, kept))
	if err != nil {
		return err
	}
	if err := lin.checkFinite(); err != nil {
		return err
	}
	last(stats.Epochs*ds.n, stats.Converged)
	p.lin, p.misclassified, p.stats = pk.l, pk.e, stats
	return nil
}

// Predict returns the label of x: +1 if w·x+b >= 0 for the pocket w and
// b, and -1 otherwise. It panics if the pocket has not been fitted or if
// len(x) is not the number of weights. Predict and Score may be called
// concurrently with each other, but not with Fit.
func (p *Pocket) Predict(x []float64) float64 {
	return sign(p.lin.checked(x, "Predict").score(vec{val: x}))
}

// Score returns the decision function w·x+b of the pocket w and b. It
// panics as Predict does.
func (p *Pocket) Score(x []float64) float64 {
	return p.lin.checked(x, "Score").score(vec{val: x})
}

// ScoreRows returns in dst, which it allocates if dst is nil, the scores
// of the rows of X, dense or sparse, as Score computes them: exactly for
// dense rows, and up to rounding for sparse ones, read in O(non-zeros). It
// spreads the rows over GOMAXPROCS goroutines. It panics as Score does,
// if X does not have the number of columns the model was fitted on, if
// dst is not nil and its length is not the number of rows of X, or if X is
// a mat.RowNonZeroDoer that yields an element out of range or not finite.
func (p *Pocket) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	l := p.lin.fittedFor("ScoreRows")
	return scoreRows(dst, X, l.dim(), l.score)
}

// PredictRows returns in dst, which it allocates if dst is nil, the labels
// of the rows of X, dense or sparse: the signs of the scores of ScoreRows.
// It panics as ScoreRows does.
func (p *Pocket) PredictRows(dst []float64, X mat.Matrix) []float64 {
	return signs(p.ScoreRows(dst, X))
}

// Weights returns a copy of the pocket weights.
// It returns nil if the pocket has not been fitted.
func (p *Pocket) Weights() []float64 {
	return append([]float64(nil), p.lin.w...)
}

// Bias returns the pocket bias.
func (p *Pocket) Bias() float64 {
	return p.lin.b
}

// Misclassified returns the number of training rows that the pocket
// weights misclassify, those that Predict gets wrong, in the last
// successful Fit.
func (p *Pocket) Misclassified() int {
	return p.misclassified
}

// Stats returns a description of the training run of the last successful
// Fit: of the perceptron's run, whose last weights need not be the pocket's.
func (p *Pocket) Stats() Stats {
	return p.stats.clone()
}

func (p *Pocket) settings() settings {
	return settings{epochs: p.Epochs, rate: p.Rate, rnd: p.Rand, noBias: p.NoBias, w0: p.InitWeights, b0: p.InitBias, onUpdate: p.OnUpdate}
}

// pocket is the pocket of a run: its weights and the number of training
// rows they misclassify.
type pocket struct {
	l linear
	e int
}

// keep puts a copy of l, which misclassifies e rows, in the pocket.
func (pk *pocket) keep(l *linear, e int) {
	copy(pk.l.w, l.w)
	pk.l.b, pk.e = l.b, e
}

// exact returns the hooks by which Fit keeps the exact pocket of the run
// of lin: kept, for the rule, and last, for the end of the run. The
// weights at a call of kept are the candidate that the previous update
// made, or at the first call the starting weights, counted already; the
// last candidate is lin at the end. Candidates are copied into a batch and
// counted together; the batch then updates the pocket in the order of the
// run, so that the earliest candidate wins a tie.
func (pk *pocket) exact(c *counter, lin *linear) (kept func(i, t int), last func(end int, converged bool)) {
	cands := c.batch[:0]
	flush := func() {
		c.count(cands, pk.e)
		won := -1
		for k := range cands {
			if c.e[k] < pk.e {
				pk.keep(&cands[k], c.e[k])
				won = k
			}
		}
		if won >= 0 {
			c.reorder(won, pk.e)
		}
		cands = cands[:0]
	}
	push := func() {
		cands = cands[:len(cands)+1]
		l := &cands[len(cands)-1]
		copy(l.w, lin.w)
		l.b = lin.b
		if len(cands) == cap(cands) {
			flush()
		}
	}
	updates := 0
	kept = func(int, int) {
		if updates > 0 {
			push()
		}
		updates++
	}
	last = func(int, bool) {
		if updates > 0 {
			push()
		}
		flush()
	}
	return kept, last
}

// ratchet returns the hooks by which Fit keeps the pocket of the run of
// lin by Gallant's ratchet on n rows. The weights change only at
// mistakes, so it judges each weight vector of the run when its life ends,
// at the next mistake or at the end of the run, by the visits it lived:
// its run beats the pocket's if it is longer, which it first was after
// record+1 visits, so that the pocket's run becomes record+1.
func (pk *pocket) ratchet(c *counter, lin *linear, n int) (kept func(i, t int), last func(end int, converged bool)) {
	// Gallant's pocket starts empty: its count is taken as n, every row
	// misclassified, and the starting weights in it keep their own count
	// if nothing replaces them.
	e0 := pk.e
	pk.e = n
	made, record, counted := -1, 0, false
	cands := c.batch[:1]
	judge := func(end int) {
		if run := end - made - 1; run > record {
			copy(cands[0].w, lin.w)
			cands[0].b = lin.b
			c.count(cands, pk.e)
			if c.e[0] < pk.e {
				pk.keep(lin, c.e[0])
				record++
				counted = true
				c.reorder(0, pk.e)
			}
		}
	}
	kept = func(_, t int) {
		judge(t)
		made = t
	}
	last = func(end int, converged bool) {
		judge(end)
		switch {
		case converged && pk.e > 0:
			// The last weights misclassify no row, though their run need
			// not have beaten the pocket's.
			pk.keep(lin, 0)
		case !counted:
			pk.e = e0
		}
	}
	return kept, last
}

// countBatch is the number of candidates that the exact pocket counts
// together.
const countBatch = 16

// counter counts the training rows that candidate weights misclassify.
//
// A count that cannot win must reach the pocket's count of mistakes, and
// it reaches it soonest on the rows that the candidate misclassifies. The
// counter keeps the rows of each label in the order of their margin
// y(w·x+b) under the pocket, the least first: the rows that the pocket
// misclassifies, then those nearest its hyperplane, where weights near the
// pocket err. Such weights often differ from the pocket mostly by a shift
// of every score, which makes them err on the rows of one label, so a
// count reads the two labels' rows in chunks, each time from the label
// whose rows it has found more often misclassified. The first rows of each
// order are copied into contiguous memory, which the counts read at the
// speed of a stream, where rows in a random order would each start one.
type counter struct {
	ds    *dataset
	lists [2]rowList
	crew  *crew

	// The batch of candidates that the crew counts, their counts, and the
	// scores of each row under candidates whose count read every row.
	batch  []linear
	limit  int
	e      []int
	scores [][]float64

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

// rowList is the rows of one label, in order, with a copy of the first
// front.n of them.
type rowList struct {
	order []int
	front *rows
}

// row returns the p-th row of l.
func (l *rowList) row(ds *dataset, p int) vec {
	if l.front != nil && p < l.front.n {
		return l.front.row(p)
	}
	return ds.row(l.order[p])
}

// countChunk is the number of rows a count reads from one label at a
// time.
const countChunk = 16

func newCounter(ds *dataset) *counter {
	c := &counter{
		ds:     ds,
		batch:  make([]linear, countBatch),
		e:      make([]int, countBatch),
		scores: make([][]float64, countBatch),
	}
	for k := range c.batch {
		c.batch[k].w = make([]float64, ds.d)
		c.scores[k] = make([]float64, ds.n)
	}
	c.byMargin = make([]margined, ds.n)
	pos := 0
	for _, y := range ds.y {
		if y > 0 {
			pos++
		}
	}
	c.lists[0].order = make([]int, 0, pos)
	c.lists[1].order = make([]int, 0, ds.n-pos)
	for i, y := range ds.y {
		g := label(y)
		c.lists[g].order = append(c.lists[g].order, i)
	}
	c.crew = newCrew(workers(), func() func(int) { return c.countOne })
	return c
}

// label returns the list of the rows with label y: 0 for +1, 1 for -1.
func label(y float64) int {
	if y > 0 {
		return 0
	}
	return 1
}

// first counts the rows that l misclassifies, and orders the rows by
// their margins under l.
func (c *counter) first(l *linear) int {
	copy(c.batch[0].w, l.w)
	c.batch[0].b = l.b
	c.count(c.batch[:1], c.ds.n+1)
	c.reorder(0, c.e[0])
	return c.e[0]
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
	scores := c.scores[k]
	for g := range c.lists {
		l := &c.lists[g]
		byMargin := c.byMargin[:len(l.order)]
		for p, i := range l.order {
			byMargin[p] = margined{c.ds.y[i] * scores[i], i}
		}
		slices.SortFunc(byMargin, func(a, b margined) int { return cmp.Compare(a.m, b.m) })
		for p := range l.order {
			l.order[p] = byMargin[p].i
		}
		// The counts only fall, so the first front is the largest.
		size := min(len(l.order), 2*e+countChunk, c.ds.n/4)
		if l.front == nil {
			l.front = newRows(c.ds.d, size, c.ds.sparse())
		}
		l.front.reset()
		for _, i := range l.order[:size] {
			l.front.append(c.ds.row(i))
		}
	}
}

// count sets c.e[k] to the number of rows that cands[k] misclassifies if
// it is below limit, and to limit otherwise, for every candidate at once.
func (c *counter) count(cands []linear, limit int) {
	c.limit = limit
	c.crew.do(len(cands))
}

// countOne counts candidate k of the batch, and keeps its scores.
func (c *counter) countOne(k int) {
	l, scores := &c.batch[k], c.scores[k]
	var read, wrong [2]int
	m := 0
	for m < c.limit {
		// Read from the label whose rows have been misclassified more
		// often, by the rule of succession.
		g := 0
		if (wrong[1]+1)*(read[0]+2) > (wrong[0]+1)*(read[1]+2) {
			g = 1
		}
		if read[g] == len(c.lists[g].order) {
			g = 1 - g
			if read[g] == len(c.lists[g].order) {
				break
			}
		}
		list := &c.lists[g]
		end := min(read[g]+countChunk, len(list.order))
		for p := read[g]; p < end && m < c.limit; p++ {
			i := list.order[p]
			a := l.score(list.row(c.ds, p))
			scores[i] = a
			read[g]++
			if sign(a) != c.ds.y[i] {
				wrong[g]++
				m++
			}
		}
	}
	c.e[k] = m
}
