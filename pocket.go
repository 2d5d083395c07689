// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

// Pocket is a variant of the pocket algorithm with ratchet of Gallant
// (Perceptron-based learning algorithms, IEEE Transactions on Neural
// Networks 1(2), 1990), which the course notes (000, 8.2) describe: it
// runs the perceptron, keeps in its pocket the best weights it has
// counted, those that misclassify the fewest training rows, and predicts
// with them. It suits data that no hyperplane separates, on which the
// perceptron's last weights may be far from the best it visited.
//
// The pocket starts with the starting weights. Each weight vector of the
// run has a run: the number of consecutive examples it classified right, as
// the perceptron's rule judges them, from the update that made it. When the
// current weights' run grows longer than the pocket's, Fit counts the
// training rows they misclassify, once, and pockets them if they
// misclassify strictly fewer than the pocket: the ratchet, which keeps a
// lucky run of worse weights out of the pocket. The pocket's run is that of
// its weights, which goes on growing while they are still the perceptron's.
// Here Fit departs from Gallant, who keeps the run the weights had when
// they were pocketed: that lower bar puts many more weights up for a
// count, so it costs more and can find better weights, which this rule
// misses. Long runs are rare, so the default mode counts seldom. If
// CheckAll is set, Fit counts the weights after every update instead, and
// so returns the best weights of the run.
//
// A count stops as soon as the weights have as many misclassified rows as
// the pocket, since they can no longer win; a count that wins reads every
// row. In the default mode, on sets of at least 2^17 values, GOMAXPROCS
// goroutines share each count, which comes out the same. A row counts as
// misclassified when Predict with the weights gets it wrong. Fit keeps the
// count of the pocket, for Misclassified. If an epoch makes no mistake, the
// run has separated the data: Fit stops as Perceptron's does, and the
// pocket misclassifies nothing.
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
	// first pocket.
	InitWeights []float64

	// InitBias is the starting bias, as in Perceptron.
	InitBias float64

	// OnUpdate is called after every update, as in Perceptron. It sees
	// the running weights, not the pocket.
	OnUpdate func(Update)

	// CheckAll makes Fit count the misclassified rows of the weights
	// after every update, not only of those with a record run, so that the
	// pocket is the weight vector of the run with the fewest misclassified
	// rows, the earliest of those if several tie. Each update then costs a
	// count: at least as many dot products as the pocket misclassifies
	// rows, and n for a count that wins. On 12000 noisy rows of 784
	// features, that made a 10-epoch Fit several hundred times as long as
	// Perceptron's, where the default mode's counts made it under three
	// times as long.
	CheckAll bool

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
	pocket := s.start(ds.d)
	t := newTally(ds, p.CheckAll)
	best := t.count(&pocket, ds.n+1)
	keep := func(e int) {
		copy(pocket.w, lin.w)
		pocket.b = lin.b
		best = e
	}

	// The weights change only at mistakes, so judge weighs each weight
	// vector of the run when its life ends, at the next mistake or at the
	// end of the run, with the visits it lived. made is the visit that
	// made the current weights, -1 for the starting ones. record is the
	// pocket's run, which grows with its weights' run while they are the
	// perceptron's: only the starting weights are still the perceptron's
	// when they are pocketed, as the others are pocketed when they die.
	made, record := -1, 0
	judge := func(end int) {
		run := end - made - 1
		switch {
		case p.CheckAll:
			if made < 0 {
				return // counted before the run
			}
			if e := t.count(&lin, best); e < best {
				keep(e)
			}
		case made < 0:
			record = run // the starting weights, pocketed before the run
		case run > record:
			if e := t.count(&lin, best); e < best {
				keep(e)
				record = run
			}
		}
	}
	stats, err := s.run(ds, newRule(ds, &lin, &s, func(_, t int) {
		judge(t)
		made = t
	}))
	if err != nil {
		return err
	}
	if err := lin.checkFinite(); err != nil {
		return err
	}
	judge(stats.Epochs * ds.n)
	if stats.Converged && best > 0 {
		// The last weights classify every row right, but their run need
		// not have beaten the record.
		keep(0)
	}
	p.lin, p.misclassified, p.stats = pocket, best, stats
	return nil
}

// Predict returns the label of x: +1 if w·x+b >= 0 for the pocket w and
// b, and -1 otherwise. It panics if the pocket has not been fitted or if
// len(x) is not the number of weights. Predict and Score may be called
// concurrently with each other, but not with Fit.
func (p *Pocket) Predict(x []float64) float64 {
	return sign(p.lin.checked(x, "Predict").score(vec{x}))
}

// Score returns the decision function w·x+b of the pocket w and b. It
// panics as Predict does.
func (p *Pocket) Score(x []float64) float64 {
	return p.lin.checked(x, "Score").score(vec{x})
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

// tally counts the training rows that weights misclassify, reading them in
// the order of perm.
//
// If toFront is set, each count moves the rows it finds misclassified to
// the front of perm, for the next count to read first. CheckAll counts
// weights one update apart, which mostly misclassify the same rows, so a
// count that cannot win meets its mistakes early and stops. The default
// mode counts weights many updates apart, and mostly counts that win and
// read every row: on a large set, the workers read parts of the rows at
// the same time, and the parts stop together once their sum reaches the
// limit.
type tally struct {
	ds      *dataset
	perm    []int
	toFront bool
	shared  bool         // the counts are spread over the workers
	found   atomic.Int64 // the misclassified rows found by all parts of a count
}

// minTally is the least number of multiplications, n·d, for which the
// default mode's counts are shared with the workers: a hand-over costs a
// few microseconds.
const minTally = 1 << 17

func newTally(ds *dataset, toFront bool) *tally {
	perm := make([]int, ds.n)
	for i := range perm {
		perm[i] = i
	}
	return &tally{ds: ds, perm: perm, toFront: toFront, shared: !toFront && ds.n*ds.d >= minTally}
}

// count returns the number of rows that l misclassifies if it is below
// limit, and limit otherwise.
func (t *tally) count(l *linear, limit int) int {
	parts := workers()
	if !t.shared || parts == 1 {
		return t.countPart(l, t.perm, limit, false)
	}
	t.found.Store(0)
	m := make([]int, parts)
	n := len(t.perm)
	parallel(parts, func() func(int) {
		return func(h int) {
			m[h] = t.countPart(l, t.perm[n*h/parts:n*(h+1)/parts], limit, true)
		}
	})
	sum := 0
	for _, mh := range m {
		sum += mh
	}
	return min(sum, limit)
}

// countPart counts the rows of perm that l misclassifies, stopping when
// the count of this part, or if shared of all parts, reaches limit.
func (t *tally) countPart(l *linear, perm []int, limit int, shared bool) int {
	m := 0
	for p, i := range perm {
		if m == limit || shared && t.found.Load() >= int64(limit) {
			break
		}
		if sign(l.score(t.ds.row(i))) != t.ds.y[i] {
			if t.toFront {
				perm[p], perm[m] = perm[m], perm[p]
			}
			m++
			if shared {
				t.found.Add(1)
			}
		}
	}
	return m
}
