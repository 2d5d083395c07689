// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// Fit visits the rows a block at a time. Before the visits of a block its
// rows are brought up to date with the changes to the hypothesis since
// their last visit, in two parts: the bulk, the changes made before the
// visits of the block lookahead blocks earlier, which the other goroutines
// compute ahead, while the visits go on; and the rest, which the visiting
// goroutine adds when the block's turn comes. The split depends on the
// data and the settings alone, so the sums do too.
const (
	// blockRows is the number of rows in a block; their copy, 64·d
	// numbers, stays in the L2 cache while every support vector passes.
	blockRows = 64

	// lookahead is the number of blocks whose bulk is computed ahead of
	// the visits.
	lookahead = 2

	// chunkChanges is the number of changes in one unit of the bulk's
	// parallel work, whose kernel values valuesOf forms together: at most
	// simd.ProductsMost.
	chunkChanges = 16
)

// change is one change to the hypothesis during Fit: a term
// delta·K(x_row, ·), and delta·beta on the bias, added to score class
// and, if down is not -1, taken from score down. norm is the squared norm
// of x_row if the kernel needs it.
type change struct {
	row         int
	delta       float64
	norm        float64
	class, down int
}

// trainer is the hypothesis of one Fit of Kernel: the expansion m, which
// makes every update, with a cache of the scores of the training rows.
//
// It keeps, for every row i, the part f[i·S:(i+1)·S] of its S scores made
// of the changes with index below seen[i], and a log of the changes that
// the updates of m make. A change inside a block is spread at once to the
// rows of the block still to be visited. The log keeps only the changes
// that some row has not seen.
type trainer struct {
	ds *dataset
	r  *rule
	m  *expansion

	S      int       // the number of scores
	biases []float64 // scratch for OnUpdate
	f      []float64
	seen   []int
	norm   []float64 // squared norms of the rows, if the kernel needs them
	log    []change  // the changes from index base on
	base   int

	order   []int // the visits of this epoch
	inOrder []int // the rows in index order, once needed
	pos     int   // the visits made in this epoch
	blocks  []block
	cur     *block // the block being visited
	pool    *pool  // computes the bulks ahead; its scratch is a manyValues
}

// block is a block of visits and the catch-up of its rows.
type block struct {
	rows []int     // the visits, in order
	x    *rows     // copy of the rows, in order
	xn   []float64 // their squared norms

	// The bulk: changes log, those from index from up to upto, reach the
	// rows late, those with seen < upto, sorted by seen so that a change
	// reaches a prefix of them. lx and ln are a copy of late and their
	// norms; part[(c·len(late)+q)·S+class] is the sum of chunk c of the
	// changes for score class of row late[q].
	upto, from int
	log        []change
	late       []int
	lateSeen   []int
	lx         *rows
	ln         []float64
	chunks     int
	part       []float64
	bulk       batch // the chunks
}

// kernelGrowth is the most bytes that a mistake adds to what the kernel
// perceptron keeps in training: the mistake, and its change in the log.
const kernelGrowth = 96

// trainerWords returns the most words that a trainer on ds holds, but for
// its mistakes: per row its partial scores, its norm, what it has seen
// and its support vector; the copies of the rows of its blocks; and the
// model it returns, at most a copy of the rows with their coefficients;
// and each goroutine's scratch.
func trainerWords(ds *dataset) float64 {
	S := scores(ds.classes)
	blocks := 0.0
	if !ds.sparse() {
		blocks = 2 * (lookahead + 1) * blockRows * float64(ds.d)
	}
	return float64(ds.n*(2*S+4)) + blocks + ds.words() + float64(workers())*manyValuesWords(ds.d, ds.sparse())
}

func newTrainer(ds *dataset, s *settings, k kern, budget int) *trainer {
	S := scores(ds.classes)
	t := &trainer{
		ds:     ds,
		m:      newModel(k, ds.d, ds.classes, !s.noBias, ds.sparse()),
		S:      S,
		biases: make([]float64, S),
		f:      make([]float64, ds.n*S),
		seen:   make([]int, ds.n),
		blocks: make([]block, lookahead+1),
	}
	t.m.rnd, t.m.budget, t.m.rows, t.m.slot = s.rnd, budget, ds.rows, make([]int, ds.n)
	if t.m.rnd == nil {
		t.m.rnd = rand.New(t.m.own) // Learn continues its draws
	}
	t.r = newRule(ds, t, S, s.rate)
	t.r.finiteScores, t.r.grows = true, kernelGrowth
	// The first visit of a block can bring its rows up to date with the
	// many changes of an epoch: the visits poll at every block.
	t.r.poll = min(t.r.poll, blockRows-1)
	if k.norms() {
		// The rows do not change during Fit: one pass gives their norms.
		t.norm = make([]float64, ds.n)
		for i := range t.norm {
			t.norm[i] = ds.row(i).norm2()
		}
	}
	for i := range t.blocks {
		b := &t.blocks[i]
		b.x = newRows(ds.d, blockRows, ds.sparse())
		b.xn = make([]float64, blockRows)
		b.late = make([]int, 0, blockRows)
		b.lateSeen = make([]int, 0, blockRows)
		b.lx = newRows(ds.d, blockRows, ds.sparse())
		b.ln = make([]float64, blockRows)
		b.bulk.work = func(c int, mv any) { t.chunk(b, c, mv.(*manyValues)) }
	}
	t.pool = newPool(workers(), func() any { return newManyValues(ds.d, k.many(ds.d, ds.sparse())) })
	return t
}

// close stops the helpers.
func (t *trainer) close() { t.pool.close() }

// epoch runs epoch e of Fit, as the learner interface says. Before the
// first epoch it checks the rows for NaN and infinities in the order of
// its visits, since the kernel meets a row before its visit, in the work
// done ahead.
func (t *trainer) epoch(e int, order []int, onMistake func(i int)) error {
	if order == nil {
		// The blocks hold slices of the order, so index order needs one.
		if t.inOrder == nil {
			t.inOrder = make([]int, t.ds.n)
			for i := range t.inOrder {
				t.inOrder[i] = i
			}
		}
		order = t.inOrder
	}
	if e == 1 {
		if err := t.ds.check(order); err != nil {
			return err
		}
	}
	t.order, t.pos = order, 0
	if e > 1 {
		// Every row has been visited and no bulk is under way, so the log
		// before the oldest last visit will not be needed again.
		lo := slices.Min(t.seen)
		t.log = t.log[:copy(t.log, t.log[lo-t.base:])]
		t.base = lo
	}
	for b := range lookahead {
		t.queueBlock(b)
	}
	err := t.r.visits(order, (e-1)*t.ds.n, onMistake)
	t.m.h.visits = e * t.ds.n
	return err
}

// queueBlock prepares block b of the epoch, if there is one, and queues its
// bulk: the changes logged so far.
func (t *trainer) queueBlock(b int) {
	lo := b * blockRows
	if lo >= len(t.order) {
		return
	}
	blk := &t.blocks[b%len(t.blocks)]
	blk.rows = t.order[lo:min(lo+blockRows, len(t.order))]
	blk.upto = t.base + len(t.log)
	blk.late, blk.lateSeen = blk.late[:0], blk.lateSeen[:0]
	blk.x.reset()
	for q, r := range blk.rows {
		blk.x.append(t.ds.row(r))
		if t.norm != nil {
			blk.xn[q] = t.norm[r]
		}
		if t.seen[r] < blk.upto {
			blk.late = append(blk.late, r)
			blk.lateSeen = append(blk.lateSeen, t.seen[r])
		}
	}
	// Sort by seen, by insertion: blocks are small.
	for i := 1; i < len(blk.late); i++ {
		for j := i; j > 0 && blk.lateSeen[j] < blk.lateSeen[j-1]; j-- {
			blk.late[j], blk.late[j-1] = blk.late[j-1], blk.late[j]
			blk.lateSeen[j], blk.lateSeen[j-1] = blk.lateSeen[j-1], blk.lateSeen[j]
		}
	}
	blk.chunks = 0
	if len(blk.late) == 0 {
		return
	}
	blk.lx.reset()
	for q, r := range blk.late {
		blk.lx.append(t.ds.row(r))
		if t.norm != nil {
			blk.ln[q] = t.norm[r]
		}
	}
	blk.from = blk.lateSeen[0]
	blk.log = t.log[blk.from-t.base : blk.upto-t.base]
	blk.chunks = (blk.upto - blk.from + chunkChanges - 1) / chunkChanges
	size := blk.chunks * len(blk.late) * t.S
	blk.part = slices.Grow(blk.part[:0], size)[:size]
	blk.bulk.n = blk.chunks
	t.pool.submit(&blk.bulk)
}

// chunk computes chunk c of blk's bulk into its part, with mv as scratch.
// It reads only blk and the rows of X.
func (t *trainer) chunk(blk *block, c int, mv *manyValues) {
	if t.ds.halt.err() != nil {
		return // the visits stop at their next poll, and drop the sums
	}
	nl, S := len(blk.late), t.S
	part := blk.part[c*nl*S : (c+1)*nl*S]
	clear(part)
	lo := c * chunkChanges
	log := blk.log[lo:min(lo+chunkChanges, len(blk.log))]
	q := 0 // change e reaches late[:q], the rows with seen <= e
	mv.reset()
	for e := range log {
		for q < nl && blk.lateSeen[q] <= blk.from+lo+e {
			q++
		}
		mv.add(t.ds.row(log[e].row), log[e].norm, q)
	}
	k := t.m.k.valuesOf(nl, blk.lx, blk.ln, mv)
	for e := range log {
		log[e].spread(part, k[e*nl:e*nl+mv.n[e]], S)
	}
}

// spread adds the change, of kernel values k with rows 0, 1, ..., to
// their S scores in f, S a row.
func (ch *change) spread(f, k []float64, S int) {
	if S == 1 {
		// One score a row: one addition of the vectors, where addStep
		// would cost a call a row.
		floats.AddScaled(f[:len(k)], ch.delta, k)
		return
	}
	for q, kq := range k {
		addStep(f[q*S:], ch.class, ch.down, ch.delta*kq)
	}
}

// start makes block b the block to visit: it waits for its bulk, lending
// a hand, adds it and the changes made since, and queues the bulk of the
// block lookahead blocks on. A panic of the bulk, which a Custom kernel
// can raise on a helper, it raises on Fit's goroutine.
func (t *trainer) start(b int) {
	blk := &t.blocks[b%len(t.blocks)]
	if blk.chunks > 0 {
		t.pool.wait(&blk.bulk)
	}
	nl, S := len(blk.late), t.S
	for q, r := range blk.late {
		for j := range S {
			var s float64
			for c := range blk.chunks {
				s += blk.part[(c*nl+q)*S+j]
			}
			t.f[r*S+j] += s
		}
	}
	// Every row of the block has now seen the changes before upto.
	mv, nb := t.pool.scratch[0].(*manyValues), len(blk.rows)
	for log := range slices.Chunk(t.log[blk.upto-t.base:], chunkChanges) {
		mv.reset()
		for e := range log {
			mv.add(t.ds.row(log[e].row), log[e].norm, nb)
		}
		k := t.m.k.valuesOf(nb, blk.x, blk.xn, mv)
		for e := range log {
			t.spreadTo(blk.rows, k[e*nb:(e+1)*nb], &log[e])
		}
	}
	t.cur = blk
	t.queueBlock(b + lookahead)
}

// scores sets s to the scores of row i, the next visit of the epoch,
// bringing its block up to date first if it is the block's first.
func (t *trainer) scores(s []float64, _ *vec, i int) {
	if t.pos%blockRows == 0 {
		t.start(t.pos / blockRows)
	}
	t.pos++
	t.seen[i] = t.base + len(t.log)
	for c := range t.S {
		s[c] = t.f[i*t.S+c] + t.m.h.bias(t.m.beta, c)
	}
}

// add makes the update mv on row i, the last visit, by m, and logs the
// changes it makes: the mistakes that the Budget removes, and the new one.
func (t *trainer) add(x *vec, i, tt int, mv move) {
	t.m.add(x, i, tt, mv)
	p := (t.pos - 1) % blockRows
	for _, u := range t.m.h.dropped {
		t.change(change{row: t.m.from[u.v], delta: -u.a, class: u.class, down: u.down}, p)
	}
	t.change(change{row: i, delta: mv.step, class: mv.up, down: mv.down}, p)
}

func (t *trainer) fits(x *vec, mv move) bool { return t.m.fits(x, mv) }

func (t *trainer) epochLoss() float64 { return t.r.epochLoss() }

func (t *trainer) update() Update {
	return Update{Biases: t.m.h.biases(t.biases, t.m.beta)}
}

// change logs the change ch to the hypothesis, made at position p of the
// block, and spreads it to the rows after p.
func (t *trainer) change(ch change, p int) {
	if t.norm != nil {
		ch.norm = t.norm[ch.row]
	}
	t.log = append(t.log, ch)
	blk := t.cur
	rest := blk.rows[p+1:]
	if len(rest) == 0 {
		return
	}
	k := t.pool.scratch[0].(*manyValues).k[:len(rest)]
	after := blk.x.sub(p+1, len(blk.rows))
	t.m.k.values(k, &after, blk.xn[p+1:], t.ds.row(ch.row), ch.norm)
	t.spreadTo(rest, k, &ch)
}

// spreadTo adds the change ch, of kernel values k with the rows r, to
// their scores.
func (t *trainer) spreadTo(r []int, k []float64, ch *change) {
	if t.S == 1 {
		// A plain add: this loop runs for every row left in the block at
		// every change, and addStep's slicing costs there.
		for q, i := range r {
			t.f[i] += ch.delta * k[q]
		}
		return
	}
	for q, i := range r {
		addStep(t.f[i*t.S:], ch.class, ch.down, ch.delta*k[q])
	}
}

// model returns the model of the hypothesis so far, its visits those made
// so far: a copy of m in canonical form, summed afresh.
func (t *trainer) model() *expansion { return t.m.canonical(true) }
