// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Pocket is the pocket algorithm (Gallant, 1990): it runs the perceptron,
// keeps in its pocket the best weights of the run, those that misclassify
// the fewest training rows, and predicts with them. It suits data that no
// hyperplane separates, where the last weights may be far from the best.
//
// By default the pocket is exact: of the starting weights and the weights
// after every update, the one that misclassifies the fewest training rows,
// as Predict counts them, the earliest of those if several tie. With
// Ratchet set, Fit keeps Gallant's pocket with ratchet, which counts only
// the weights whose run of right visits beats the pocket's: cheaper, and
// it can miss the best weights. Pocket has no Learn: its pocket is chosen
// on the whole training set. The zero value is ready to use.
type Pocket struct {
	// Epochs, Rate, Rand and NoBias are as in Perceptron.
	Epochs int
	Rate   float64
	Rand   *rand.Rand
	NoBias bool

	// InitWeights are the starting weights, as in Perceptron, and the
	// first candidate.
	InitWeights []float64

	// Labels are the classes, as in Perceptron.
	Labels []float64

	// ClassWeight weighs the classes, as in Perceptron. The pocket then
	// counts a misclassified row as its class's weight, times its own if
	// FitContext weighs the rows: its weights are those of the least sum
	// of the weights of the rows they misclassify. A ratchet's run counts
	// visits.
	ClassWeight map[float64]float64

	// OnUpdate is called after every update, as in Perceptron. It sees
	// the running weights, not the pocket.
	OnUpdate func(Update)

	// Ratchet makes Fit keep the pocket by Gallant's ratchet.
	Ratchet bool

	// Stop, if not nil, stops Fit early, as in Perceptron; with
	// Validation it measures the pocket of the candidates so far.
	Stop *Stop

	linear
}

// Fit trains the perceptron on the rows of X with labels y, as
// Perceptron's Fit does, with the same stopping rule and the same errors,
// and keeps the pocket weights.
func (p *Pocket) Fit(X mat.Matrix, y []float64) error { return fitData(p, X, y, nil, nil) }

// fit is Fit on the data set ds, shuffling with rnd.
func (p *Pocket) fit(ds *dataset, rnd *rand.Rand) error {
	S := scores(ds.classes)
	s, err := p.settings(rnd).resolve(ds.d, S)
	if err != nil {
		return err
	}
	ds, val, err := s.start(ds, false, 2*ds.tableWords()+counterWords(ds, S))
	if err != nil {
		return err
	}
	m := newTable(ds.d, S, s.w0, s.noBias)
	c := newCounter(ds, S)
	defer c.pool.close()
	r := newRule(ds, &m, S, s.rate)
	// The pocket's count only falls: from that of the starting weights, or
	// with the ratchet from that of every row, its empty pocket.
	pk := &pocket{l: m.clone()}
	var last func(end int)
	if p.Ratchet {
		c.first(&m, ds.n)
		r.kept, last = pk.ratchet(c, &m, ds.n)
	} else {
		pk.e = c.first(&m, -1)
		r.kept, last = pk.exact(c, &m)
	}
	stats, err := s.run(ds, r, val, func(epoch int) func([]float64, vec) {
		last(epoch * ds.n)
		return pk.l.scoresOf
	})
	if err != nil {
		return err
	}
	if err := m.checkFinite(); err != nil {
		return err
	}
	last(stats.Epochs * ds.n)
	if err := ds.halt.err(); err != nil {
		return err // the counts since the stop are not to be trusted
	}
	p.set(linearModel{w: pk.l, classes: ds.classes, stats: stats})
	return nil
}

func (p *Pocket) settings(rnd *rand.Rand) settings {
	return settings{epochs: p.Epochs, rate: p.Rate, rnd: rnd, noBias: p.NoBias, w0: p.InitWeights, onUpdate: p.OnUpdate, stop: p.Stop, weights: p.ClassWeight, source: p.Rand, labels: p.Labels}
}

// pocket is the pocket of a run: its weights and the count of the
// training rows they misclassify, as the counter counts them.
type pocket struct {
	l table
	e float64
}

// keep puts a copy of l, whose count is e, in the pocket.
func (pk *pocket) keep(l *table, e float64) {
	pk.l.set(l)
	pk.e = e
}

// exact returns the hooks by which Fit keeps the exact pocket of the run
// of lin: kept, for the rule, and last, which keeps the pocket of a run
// that ends after end visits, at the end of the run or of an epoch. The
// weights at a call of kept are the candidate that the previous update
// made, or at the first call the starting weights, counted already; the
// last candidate is lin at the end. Candidates are copied into a batch and
// counted together; the batch then updates the pocket in the order of the
// run, so that the earliest candidate wins a tie.
func (pk *pocket) exact(c *counter, lin *table) (kept func(x *vec, i, t int, mv move) error, last func(end int)) {
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
			c.reorder(won)
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
	// pushed says that the weights of the last update are counted, by a
	// call of last before the end of the run.
	updates, pushed := 0, false
	kept = func(*vec, int, int, move) error {
		if updates > 0 && !pushed {
			push()
		}
		updates++
		pushed = false
		return nil
	}
	last = func(int) {
		if updates > 0 && !pushed {
			push()
		}
		flush()
		pushed = true
	}
	return kept, last
}

// ratchet returns the hooks by which Fit keeps the pocket of the run of
// lin by Gallant's ratchet on n rows. The weights change only at
// mistakes, so it judges each weight vector of the run when its life ends,
// at the next mistake or at the end of the run, by the visits it lived:
// its run beats the pocket's if it is longer, which it first was after
// record+1 visits, so that the pocket's run becomes record+1. A judgement
// at the end of an epoch, which a later one repeats, changes nothing that
// the later one would not.
func (pk *pocket) ratchet(c *counter, lin *table, n int) (kept func(x *vec, i, t int, mv move) error, last func(end int)) {
	// Gallant's pocket starts empty: its count is taken as that of every
	// row misclassified.
	pk.e = c.all()
	made, record := -1, 0
	cands := make([]table, 1)
	judge := func(end int) {
		if run := end - made - 1; run > record {
			cands[0] = *lin // counted at once: no copy
			c.count(cands, pk.e)
			if c.e[0] < pk.e {
				pk.keep(lin, c.e[0])
				record++
				c.reorder(0)
			}
		}
	}
	kept = func(_ *vec, _, t int, _ move) error {
		judge(t)
		made = t
		return nil
	}
	last = func(end int) {
		judge(end)
		if end-made-1 >= n && pk.e > 0 {
			// A run whose last epoch made no mistake converged: its last
			// weights misclassify no row, though their run need not have
			// beaten the pocket's.
			pk.keep(lin, 0)
		}
	}
	return kept, last
}

// MarshalJSON returns the saved form of the fitted pocket, as Perceptron's
// MarshalJSON does, with Ratchet and the pocket weights.
func (p Pocket) MarshalJSON() ([]byte, error) { return marshalJSON(p) }

func (p Pocket) saved(method string) (saved, error) {
	v := p.hold()
	m := &v.M
	s := p.settings(nil).json(p.Labels)
	s.Ratchet = &p.Ratchet
	return newSaved(method, m.w.fitted(), func() error { return s.check(m.classes, m.w.dim()) },
		saved{"Pocket", s, linearJSON{m.classes, m.w.json()}, &m.stats, m.w.dim(), len(m.w.b), v.Done})
}

// UnmarshalJSON sets the pocket to the one saved in data, as Perceptron's
// UnmarshalJSON does.
func (p *Pocket) UnmarshalJSON(data []byte) error { return unmarshalJSON(p, data) }

// load sets the pocket to the one saved in f.
func (p *Pocket) load(f form) error { return loadLinear(f, "Pocket", p) }
