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
// wrong: with two classes, a score of zero is the second class; with more,
// the first class of the greatest score is the prediction, so that a row
// whose class ties for the greatest score counts as misclassified unless
// its class comes first. Fit counts every candidate, so an update
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

	// Labels are the classes, as in Perceptron.
	Labels []float64

	// Ratchet makes Fit keep the pocket by Gallant's ratchet, which counts
	// only the weights whose run beats the pocket's, instead of every
	// candidate. It costs less, and can miss the best weights of the run.
	Ratchet bool

	lin           linear
	classes       []float64
	misclassified int
	stats         Stats
}

// Fit trains the perceptron on the rows of X with labels y, as
// Perceptron's Fit does, with the same stopping rule and the same errors,
// and keeps the pocket weights.
func (p *Pocket) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y, p.Labels)
	if err != nil {
		return err
	}
	S := scores(ds.classes)
	s, err := p.settings().resolve(ds.d, S)
	if err != nil {
		return err
	}
	lin := s.start(ds.d, S)
	c := newCounter(ds, S)
	defer c.crew.stop()
	// The pocket's count only falls, from that of the starting weights,
	// or with the ratchet from n, the count of its empty pocket.
	most := -1
	if p.Ratchet {
		most = ds.n
	}
	pk := &pocket{l: lin.clone(), e: c.first(&lin, most)}
	var kept func(i, t, other int)
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
	p.lin, p.classes, p.misclassified, p.stats = pk.l, ds.classes, pk.e, stats
	return nil
}

// Predict returns the class of x that the pocket weights choose, as
// Perceptron's Predict does. It panics if the pocket has not been fitted
// or if len(x) is not the number of columns. Predict and the scoring
// methods may be called concurrently with each other, but not with Fit.
func (p *Pocket) Predict(x []float64) float64 {
	return p.lin.predict(p.classes, x)
}

// Score returns the decision function w·x+b of the pocket of two
// classes. It panics as Predict does, and for more classes.
func (p *Pocket) Score(x []float64) float64 {
	return p.lin.binaryScore(x, 1, "Score")
}

// Scores returns the scores of x under the pocket weights, as
// Perceptron's Scores does.
func (p *Pocket) Scores(dst, x []float64) []float64 {
	return p.lin.scoresTo(dst, x, 1, "Scores")
}

// ScoreRows returns the scores of the rows of X under the pocket weights,
// as Perceptron's ScoreRows does.
func (p *Pocket) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	return p.lin.scoreRows(dst, X, 1)
}

// PredictRows returns the classes of the rows of X, as Perceptron's
// PredictRows does.
func (p *Pocket) PredictRows(dst []float64, X mat.Matrix) []float64 {
	return p.lin.predictRows(dst, X, p.classes)
}

// Classes returns a copy of the classes, in ascending order, or nil if
// the pocket has not been fitted.
func (p *Pocket) Classes() []float64 {
	return slices.Clone(p.classes)
}

// Weights returns a copy of the pocket weights, laid out as Perceptron's
// Weights.
func (p *Pocket) Weights() []float64 {
	return slices.Clone(p.lin.w)
}

// Bias returns the pocket bias of two classes, or 0 if the pocket has not
// been fitted. It panics for more classes.
func (p *Pocket) Bias() float64 {
	return p.lin.bias("Bias")
}

// Biases returns a copy of the pocket biases: one for two classes, and
// one per class for more.
func (p *Pocket) Biases() []float64 {
	return slices.Clone(p.lin.b)
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
	return settings{epochs: p.Epochs, rate: p.Rate, rnd: p.Rand, noBias: p.NoBias, w0: p.InitWeights, b0: p.InitBias, labels: p.Labels, onUpdate: p.OnUpdate}
}

// pocket is the pocket of a run: its weights and the number of training
// rows they misclassify.
type pocket struct {
	l linear
	e int
}

// keep puts a copy of l, which misclassifies e rows, in the pocket.
func (pk *pocket) keep(l *linear, e int) {
	pk.l.set(l)
	pk.e = e
}

// exact returns the hooks by which Fit keeps the exact pocket of the run
// of lin: kept, for the rule, and last, for the end of the run. The
// weights at a call of kept are the candidate that the previous update
// made, or at the first call the starting weights, counted already; the
// last candidate is lin at the end. Candidates are copied into a batch and
// counted together; the batch then updates the pocket in the order of the
// run, so that the earliest candidate wins a tie.
func (pk *pocket) exact(c *counter, lin *linear) (kept func(i, t, other int), last func(end int, converged bool)) {
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
		if c.inPlace {
			// Counted at once, before the update, it needs no copy.
			cands = append(cands, *lin)
			flush()
			return
		}
		cands = cands[:len(cands)+1]
		cands[len(cands)-1].set(lin)
		if len(cands) == cap(cands) {
			flush()
		}
	}
	updates := 0
	kept = func(int, int, int) {
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
func (pk *pocket) ratchet(c *counter, lin *linear, n int) (kept func(i, t, other int), last func(end int, converged bool)) {
	// Gallant's pocket starts empty: its count is taken as n, every row
	// misclassified, and the starting weights in it keep their own count
	// if nothing replaces them.
	e0 := pk.e
	pk.e = n
	made, record, counted := -1, 0, false
	cands := make([]linear, 1)
	judge := func(end int) {
		if run := end - made - 1; run > record {
			cands[0] = *lin // counted at once: no copy
			c.count(cands, pk.e)
			if c.e[0] < pk.e {
				pk.keep(lin, c.e[0])
				record++
				counted = true
				c.reorder(0, pk.e)
			}
		}
	}
	kept = func(_, t, _ int) {
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
	ds    *dataset
	lists []rowList // per class
	crew  *crew

	// The copies of candidates, the batch that the crew counts, their
	// counts, and the margins of each row under candidates whose count
	// read every row.
	batch   []linear
	inPlace bool // the candidates are counted one at a time, not copied
	cands   []linear
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

// countChunk is the number of rows a count reads from one class at a
// time.
const countChunk = 16

// newCounter returns a counter for candidates of S scores on the rows of
// ds.
func newCounter(ds *dataset, S int) *counter {
	size := min(countBatch, max(1, countCopies/(ds.d*S)))
	c := &counter{
		ds:       ds,
		lists:    make([]rowList, len(ds.classes)),
		batch:    make([]linear, size),
		inPlace:  size == 1,
		e:        make([]int, size),
		margins:  make([][]float64, size),
		byMargin: make([]margined, ds.n),
	}
	for k := range c.batch {
		if !c.inPlace {
			c.batch[k] = linear{w: make([]float64, ds.d*S), b: make([]float64, S)}
		}
		c.margins[k] = make([]float64, ds.n)
	}
	if c.inPlace {
		c.batch = c.batch[:0]
	}
	count := make([]int, len(c.lists))
	for i := range ds.n {
		count[c.class(i)]++
	}
	for g := range c.lists {
		c.lists[g].order = make([]int, 0, count[g])
	}
	for i := range ds.n {
		g := c.class(i)
		c.lists[g].order = append(c.lists[g].order, i)
	}
	c.crew = newCrew(workers(), func() func(int) {
		s := make([]float64, S)
		read, wrong := make([]int, len(c.lists)), make([]int, len(c.lists))
		return func(k int) { c.countOne(k, s, read, wrong) }
	})
	return c
}

// class returns the index of the class of row i.
func (c *counter) class(i int) int {
	if c.ds.cls != nil {
		return c.ds.cls[i]
	}
	if c.ds.y[i] > 0 {
		return 1
	}
	return 0
}

// first counts the rows that l misclassifies, and orders the rows by
// their margins under l. The pocket's count will never be more than
// most, or if most is -1 the count of l, which sizes the copies of the
// rows.
func (c *counter) first(l *linear, most int) int {
	cands := []linear{l.clone()}
	c.count(cands, c.ds.n+1)
	if most < 0 {
		most = c.e[0]
	}
	for g := range c.lists {
		c.lists[g].front = newRows(c.ds.d, c.frontSize(g, most), c.ds.sparse())
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
		l.front.reset()
		for _, i := range l.order[:c.frontSize(g, e)] {
			l.front.append(c.ds.row(i))
		}
	}
}

// count sets c.e[k] to the number of rows that cands[k] misclassifies if
// it is below limit, and to limit otherwise, for every candidate at once.
func (c *counter) count(cands []linear, limit int) {
	c.cands, c.limit = cands, limit
	c.crew.do(len(cands))
}

// countOne counts candidate k of the batch, and keeps the margins of the
// rows it reads; s is scratch for the scores of a row, read and wrong for
// the rows read and found misclassified in each class.
func (c *counter) countOne(k int, s []float64, read, wrong []int) {
	l, margins := &c.cands[k], c.margins[k]
	clear(read)
	clear(wrong)
	m := 0
	for m < c.limit {
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
func (c *counter) judge(l *linear, x *vec, i int, s []float64) (float64, bool) {
	if c.ds.cls == nil {
		a, y := l.score(x), c.ds.y[i]
		return y * a, sign(a) != y
	}
	l.scores(s, x)
	t := c.ds.cls[i]
	return s[t] - s[argmax(s, t)], argmax(s, -1) != t
}
