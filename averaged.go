// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"maps"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Averaged is the averaged perceptron (Freund and Schapire, 1999; Collins,
// 2002). It trains as Perceptron does and predicts with the average of the
// weights after every visit of an example: the vote of Voted with each
// voter's score in place of its sign, at the cost of one perceptron's
// prediction. It predicts from the sums of the weights rather than from
// their average: the division by the number of visits changes neither the
// signs nor the order of the scores, but would round them. A prediction is
// so exact where the sums are, and a tie goes to the second class, as with
// Perceptron.
//
// Fit averages all Epochs epochs, as Freund and Schapire do, counting those
// after an epoch without a mistake in closed form. Learn keeps the average
// lazily, as Daumé's A Course in Machine Learning does (chapter 4,
// algorithm 7), at a cost per mistake and none per visit. The zero value is
// ready to use, with the defaults of Perceptron.
type Averaged struct {
	// Epochs is the number of passes over the data whose weights the
	// average takes; zero means 1000. Fit stops as Perceptron's does.
	Epochs int

	// Rate, Rand and NoBias are as in Perceptron.
	Rate   float64
	Rand   *rand.Rand
	NoBias bool

	// InitWeights are the starting weights, as in Perceptron. The average
	// counts them once for every visit before the first mistake.
	InitWeights []float64

	// Labels and ClassWeight are as in Perceptron.
	Labels      []float64
	ClassWeight map[float64]float64

	// OnUpdate is called after every update, as in Perceptron. It sees
	// the running weights, not their average.
	OnUpdate func(Update)

	// Stop, if not nil, stops Fit early, as in Perceptron; with
	// Validation it measures the average so far. Fit then averages the
	// epochs it ran.
	Stop *Stop

	linear
}

// Fit trains the averaged perceptron on the rows of X with labels y. It
// runs as Perceptron's Fit does, with the same errors, and keeps the sum
// of the weights after each of the visits of Epochs epochs. As it forms
// that sum before it divides, for accuracy, it also returns an error if
// the sum overflows, as it can on data near the largest float64 even when
// the average would not.
func (a *Averaged) Fit(X mat.Matrix, y []float64) error { return fitData(a, X, y, nil, nil) }

// fit is Fit on the data set ds, shuffling with rnd.
func (a *Averaged) fit(ds *dataset, rnd *rand.Rand) error {
	S := scores(ds.classes)
	s, err := a.settings(rnd).resolve(ds.d, S)
	if err != nil {
		return err
	}
	// The weights, their sum, a sum for each validation, and g, an
	// array at most, and of 16 scores or more a quarter more as a map
	// fills one.
	shares := float64(ds.n) * float64(S)
	if S >= 16 {
		shares *= 1.25
	}
	ds, val, err := s.start(ds, true, 3*ds.tableWords()+shares)
	if err != nil {
		return err
	}
	w := newTable(ds.d, S, s.w0, s.noBias)
	// A mistake at visit t+1 adds its update to the weights of the T-t
	// visits from it on, so that the sum is T·w less t times each update.
	// g holds for row i and score k the sum of those t·Rate·y, or ±t·Rate
	// with more than two classes, of the mistakes on row i in score k:
	// the updates are summed at the end, reading each row that was a
	// mistake once more. Learn cannot, as its rows are gone after it: it
	// moves the sum at each mistake instead (see learn), a second pass
	// over the row where g costs an addition, and rounds otherwise. So
	// each keeps its scheme.
	g := newRowShares(ds.n, S)
	r := newRule(ds, &w, S, s.rate)
	r.kept = func(_ *vec, i, t int, mv move) error {
		g.add(i, mv.up, mv.down, float64(t)*mv.step)
		return nil
	}
	stats, err := s.run(ds, r, val, func(epoch int) func([]float64, vec) {
		sum := sums(ds, &w, g, epoch*ds.n)
		return sum.scoresOf
	})
	if err != nil {
		return err
	}
	if err := w.checkFinite(); err != nil {
		return err
	}
	// The epochs of a run that converged, and not those after a stop,
	// count the last weights.
	T := stats.Epochs * ds.n
	if stats.Converged {
		T = s.epochs * ds.n
	}
	sum := sums(ds, &w, g, T)
	if err := sum.checkFinite(); err != nil {
		return err
	}
	a.set(linearModel{w: w, sum: sum, visits: T, classes: ds.classes, stats: stats})
	return nil
}

// sums returns the sums of the weights and biases after each of the T
// visits of a run on ds that ends at w, whose shares of the updates of the
// rows are g.
func sums(ds *dataset, w *table, g *rowShares, T int) table {
	sum := w.scaledClone(float64(T))
	g.rows(func(i int, share []float64) { sum.unshareRow(ds, i, share) })
	return sum
}

// rowShares are the g of Averaged's fit, row i's share in score k at
// i·S+k: of many classes in a map, as a mistake moves two scores and most
// shares stay zero, until the map would take a quarter of the memory of
// an array, and otherwise in an array. Below 16 scores the array takes
// 128 bytes a row at most, less than most rows themselves.
type rowShares struct {
	n, S   int
	sparse map[int]float64
	dense  []float64
}

func newRowShares(n, S int) *rowShares {
	if S < 16 {
		return &rowShares{n: n, S: S, dense: make([]float64, n*S)}
	}
	return &rowShares{n: n, S: S, sparse: map[int]float64{}}
}

// add adds a to the share of row i in the score up, and takes it from that
// in down unless down is -1, as addStep does.
func (g *rowShares) add(i, up, down int, a float64) {
	if g.dense != nil {
		addStep(g.dense[i*g.S:], up, down, a)
		return
	}
	g.sparse[i*g.S+up] += a
	if down >= 0 {
		g.sparse[i*g.S+down] -= a
	}
	// An entry of the map takes some 40 bytes, 5 times one of the array.
	if 20*len(g.sparse) > g.n*g.S {
		g.dense = make([]float64, g.n*g.S)
		for k, v := range g.sparse {
			g.dense[k] = v
		}
		g.sparse = nil
	}
}

// rows calls fn with each row's shares, in the order of the rows, but
// for rows whose shares are all zero, which it may leave out.
func (g *rowShares) rows(fn func(i int, share []float64)) {
	if g.dense != nil {
		for i := range g.n {
			fn(i, g.dense[i*g.S:(i+1)*g.S])
		}
		return
	}
	keys := slices.Sorted(maps.Keys(g.sparse))
	share := make([]float64, g.S)
	for k := 0; k < len(keys); {
		i := keys[k] / g.S
		clear(share)
		for ; k < len(keys) && keys[k]/g.S == i; k++ {
			share[keys[k]%g.S] = g.sparse[keys[k]]
		}
		fn(i, share)
	}
}

// unshare takes from the sums of the weights the shares of the updates of
// the rows of ds: row i's from g[i·stride+col], one for each score.
func (sum *table) unshare(ds *dataset, g []float64, stride, col int) {
	S := len(sum.b)
	for i := range ds.n {
		sum.unshareRow(ds, i, g[i*stride+col:i*stride+col+S])
	}
}

// unshareRow takes from the sums of the weights the shares of the updates
// of row i of ds, one for each score.
func (sum *table) unshareRow(ds *dataset, i int, share []float64) {
	if !nonZero(share) {
		return // as most rows: then their row need not be read
	}
	x := ds.row(i)
	for k, gk := range share {
		if gk != 0 {
			sum.move(&x, k, -gk)
		}
	}
}

// Learn trains the averaged perceptron on the rows of X with labels y,
// visiting each row once, in order, as Perceptron's Learn does, and adds
// the weights after each visit to the sum that it averages. It returns the
// errors that Perceptron's Learn returns, and an error if an update would
// overflow the sum, changing nothing. It copies and may run concurrently as
// Perceptron's Learn.
func (a *Averaged) Learn(X mat.Matrix, y []float64) error { return learnWith(a, X, y, nil, nil) }

// PredictOnly makes the fitted classifier c hold only what its
// predictions read, which then predict as before, to the bit: an Averaged
// drops its running weights, which only its Learn reads, and holds, and
// saves, half as many numbers, unless it has learned since its fit, when
// its predictions read them too and PredictOnly leaves it as it is; a
// OneVsRest makes each of its
// classifiers so; other classifiers hold nothing that their predictions
// do not read, and stay as they are. An Averaged so made returns an error
// of kind ErrNotFitted from Learn, LearnShard and Mix, which would go on
// from its running weights; its Fit fits anew, and its saved forms load
// as it is.
//
// PredictOnly returns an error of kind ErrNotFitted if c has not been
// fitted, and of kind ErrSetting if it is no classifier of this package.
// It may run concurrently with c's prediction methods, not with its Fit
// or Learn.
func PredictOnly(c Scorer) error {
	switch c := c.(type) {
	case *Averaged:
		s := c.work()
		if !s.sum.fitted() {
			return notFitted("PredictOnly")
		}
		if s.ahead == 0 && s.w.fitted() {
			m := s.linearModel
			m.w = table{}
			c.set(m)
		}
		return nil
	case *OneVsRest:
		if c.oneVsRestState == nil {
			return notFitted("PredictOnly")
		}
		for _, m := range c.Models() {
			if err := PredictOnly(m); err != nil {
				return err
			}
		}
		return nil
	case model:
		if c.width() == 0 {
			return notFitted("PredictOnly")
		}
		return nil
	}
	return errorf(ErrSetting, "perceptron: PredictOnly of a %T, which is no classifier of this package", c)
}

func (a *Averaged) state() (settings, []float64, int, int) {
	m := a.work()
	return a.settings(nil), m.classes, m.dim(), m.visits
}

// learn is Learn on ds, checked, with the settings s.
func (a *Averaged) learn(ds *dataset, s settings) error { return a.learnTable(ds, s, true) }

func (a *Averaged) settings(rnd *rand.Rand) settings {
	return settings{epochs: a.Epochs, rate: a.Rate, rnd: rnd, noBias: a.NoBias, w0: a.InitWeights, onUpdate: a.OnUpdate, stop: a.Stop, weights: a.ClassWeight, source: a.Rand, labels: a.Labels}
}

// averagedJSON is the JSON form of the model of Averaged: its classes,
// running weights and biases, the sums of the weights and biases after
// each visit less ahead times the running ones, ahead, and the number of
// visits.
type averagedJSON struct {
	linearJSON
	SumWeights numbersJSON `json:"sumWeights" bin:"table,0"`
	SumBiases  numbersJSON `json:"sumBiases"`
	Ahead      int         `json:"ahead"`
	Visits     int         `json:"visits"`
}

// MarshalJSON returns the saved form of the fitted averaged perceptron,
// as Perceptron's MarshalJSON does, with its running weights and the sums
// it averages.
func (a Averaged) MarshalJSON() ([]byte, error) { return marshalJSON(a) }

func (a Averaged) saved(method string) (saved, error) {
	v := a.hold()
	l := &v.M
	w := l.w.json()
	w.ThroughOrigin = l.sum.noBias // the running weights' as well, if it has them
	m := averagedJSON{linearJSON{l.classes, w}, l.sum.w, l.sum.b, l.ahead, l.visits}
	s := a.settings(nil).json(a.Labels)
	return newSaved(method, l.sum.fitted(), func() error { return s.check(l.classes, l.dim()) },
		saved{"Averaged", s, m, &l.stats, l.dim(), len(l.sum.b), v.Done})
}

// UnmarshalJSON sets the averaged perceptron to the one saved in data, as
// Perceptron's UnmarshalJSON does.
func (a *Averaged) UnmarshalJSON(data []byte) error { return unmarshalJSON(a, data) }

// load sets the averaged perceptron to the one saved in f.
func (a *Averaged) load(f form) error {
	var s settingsJSON
	var m averagedJSON
	st, err := f.decode("Averaged", &s, &m)
	if err != nil {
		return err
	}
	sj := tableJSON{m.SumWeights, m.SumBiases, m.ThroughOrigin}
	// One saved by PredictOnly has no running weights, and its sums
	// stand in their place in the checks of a table.
	predictOnly := m.Weights == nil && m.Biases == nil
	lin := &m.linearJSON
	if predictOnly {
		lin = &linearJSON{m.Classes, sj}
	}
	w, err := checkTable(f, "Averaged", &s, lin)
	if err != nil {
		return err
	}
	sum := w
	if predictOnly {
		w = table{}
	} else {
		sum, err = sj.table(m.Classes, "its sum")
	}
	switch {
	case err != nil:
	case predictOnly && m.Ahead != 0:
		err = errorf(ErrFormat, "it has no running weights, but sums %d visits ahead of them", m.Ahead)
	case !predictOnly && len(sum.w) != len(w.w):
		err = errorf(ErrFormat, "it has %d weights and %d sums of weights, want as many", len(w.w), len(sum.w))
	case m.Visits < 1 || m.Visits > maxCount || m.Ahead < 0 || m.Ahead > m.Visits:
		err = errorf(ErrFormat, "it has %d visits, %d ahead, want 1 to 2^53 and at most as many ahead", m.Visits, m.Ahead)
	}
	if err != nil {
		return wrap("Averaged", err)
	}
	s.setOn(a)
	a.set(linearModel{w: w, sum: sum, ahead: m.Ahead, visits: m.Visits, classes: m.Classes, stats: st})
	return nil
}
