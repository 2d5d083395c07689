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
// By default the pocket is exact: of the starting weights and the weights
// after every update, the one that misclassifies the fewest training
// rows, as Predict counts them, the earliest of those if several tie.
// Counting costs up to a pass over the data per update, spread over
// GOMAXPROCS goroutines; the pocket does not depend on their number. With
// Ratchet set, Fit keeps the pocket by Gallant's ratchet instead, which
// counts only the weights whose run of right visits beats the pocket's:
// it costs less, and can miss the best weights of the run.
//
// Fit stops as Perceptron's does; if an epoch makes no mistake, the
// pocket is weights that misclassify no row. The zero value is ready to
// use, with the defaults of Perceptron. Pocket has no Learn: the pocket
// is chosen by counting the mistakes on the whole training set.
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

	// Labels are the classes, as in Perceptron.
	Labels []float64

	// OnUpdate is called after every update, as in Perceptron. It sees
	// the running weights, not the pocket.
	OnUpdate func(Update)

	// Ratchet makes Fit keep the pocket by Gallant's ratchet.
	Ratchet bool

	m       table
	classes []float64
	stats   Stats
}

// Fit trains the perceptron on the rows of X with labels y, as
// Perceptron's Fit does, with the same stopping rule and the same errors,
// and keeps the pocket weights.
func (p *Pocket) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y, p.Labels)
	if err != nil {
		return err
	}
	return p.fit(ds, p.Rand)
}

// fit is Fit on the data set ds, shuffling with rnd.
func (p *Pocket) fit(ds *dataset, rnd *rand.Rand) error {
	S := scores(ds.classes)
	s, err := p.settings(rnd).resolve(ds.d, S)
	if err != nil {
		return err
	}
	m := newTable(ds.d, S, s.w0, s.noBias)
	c := newCounter(ds, S)
	defer c.pool.close()
	// The pocket's count only falls, from that of the starting weights,
	// or with the ratchet from n, the count of its empty pocket.
	most := -1
	if p.Ratchet {
		most = ds.n
	}
	pk := &pocket{l: m.clone(), e: c.first(&m, most)}
	var kept func(x *vec, i, t int, mv move) error
	var last func(end int, converged bool)
	if p.Ratchet {
		kept, last = pk.ratchet(c, &m, ds.n)
	} else {
		kept, last = pk.exact(c, &m)
	}
	r := newRule(ds, &m, S, s.rate)
	r.kept = kept
	stats, err := s.run(ds, r)
	if err != nil {
		return err
	}
	if err := m.checkFinite(); err != nil {
		return err
	}
	last(stats.Epochs*ds.n, stats.Converged)
	p.m, p.classes, p.stats = pk.l, ds.classes, stats
	return nil
}

// Predict returns the class of x that the pocket weights choose, as
// Perceptron's Predict does, and panics as it does.
func (p *Pocket) Predict(x []float64) float64 { return p.m.predict(p.classes, x) }

// ScoreRows returns the scores of the rows of X under the pocket weights,
// as Perceptron's ScoreRows does.
func (p *Pocket) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	return p.m.predictor(p.classes).scoreRows(dst, X)
}

// PredictRows returns the classes of the rows of X, as Scorer says.
func (p *Pocket) PredictRows(dst []float64, X mat.Matrix) []float64 {
	return p.m.predictor(p.classes).predictRows(dst, X)
}

// Classes returns a copy of the classes, in ascending order, or nil if
// the pocket has not been fitted.
func (p *Pocket) Classes() []float64 { return slices.Clone(p.classes) }

// Weights returns copies of the pocket weights and biases, laid out as
// Perceptron's Weights.
func (p *Pocket) Weights() (w, b []float64) { return p.m.weights() }

// Stats returns a description of the perceptron's run of the last
// successful Fit, whose last weights need not be the pocket's.
func (p *Pocket) Stats() Stats { return p.stats.clone() }

func (p *Pocket) settings(rnd *rand.Rand) settings {
	return settings{epochs: p.Epochs, rate: p.Rate, rnd: rnd, noBias: p.NoBias, w0: p.InitWeights, onUpdate: p.OnUpdate}
}

// pocket is the pocket of a run: its weights and the number of training
// rows they misclassify.
type pocket struct {
	l table
	e int
}

// keep puts a copy of l, which misclassifies e rows, in the pocket.
func (pk *pocket) keep(l *table, e int) {
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
func (pk *pocket) exact(c *counter, lin *table) (kept func(x *vec, i, t int, mv move) error, last func(end int, converged bool)) {
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
	kept = func(*vec, int, int, move) error {
		if updates > 0 {
			push()
		}
		updates++
		return nil
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
func (pk *pocket) ratchet(c *counter, lin *table, n int) (kept func(x *vec, i, t int, mv move) error, last func(end int, converged bool)) {
	// Gallant's pocket starts empty: its count is taken as n, every row
	// misclassified, and the starting weights in it keep their own count
	// if nothing replaces them.
	e0 := pk.e
	pk.e = n
	made, record, counted := -1, 0, false
	cands := make([]table, 1)
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
	kept = func(_ *vec, _, t int, _ move) error {
		judge(t)
		made = t
		return nil
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
	if c.inPlace {
		c.batch = c.batch[:0]
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
	cands := []table{l.clone()}
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
func (c *counter) judge(l *table, x *vec, i int, s []float64) (float64, bool) {
	t := c.ds.class(i)
	if len(s) == 1 {
		a := [1]float64{x.dot(l.w) + l.b[0]}
		return c.ds.y[i] * a[0], class(a[:]) != t
	}
	l.scores(s, x, i)
	return s[t] - s[argmax(s, t)], class(s) != t
}

func (p *Pocket) source() *rand.Rand { return p.Rand }

// MarshalJSON returns the saved form of the fitted pocket, as Perceptron's
// MarshalJSON does, with Ratchet and the pocket weights.
func (p Pocket) MarshalJSON() ([]byte, error) {
	s := p.settings(nil).json(p.Labels)
	s.Ratchet = &p.Ratchet
	return marshal("Pocket", p.m.fitted(), func() error { return s.check(p.m.dim(), len(p.m.b)) }, s, linearJSON{p.classes, p.m.json()}, &p.stats)
}

// UnmarshalJSON sets the pocket to the one saved in data, as Perceptron's
// UnmarshalJSON does.
func (p *Pocket) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var s settingsJSON
	var m linearJSON
	t, st, err := loadTable(data, "Pocket", &s, &m, &m)
	if err != nil {
		return err
	}
	p.Epochs, p.Rate, p.NoBias, p.InitWeights, p.Labels, p.Ratchet = s.Epochs, s.Rate, s.NoBias, s.InitWeights, s.Labels, *s.Ratchet
	p.m, p.classes, p.stats = t, m.Classes, st
	return nil
}

func (p *Pocket) width() int { return p.m.dim() }
