// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// LearnShard returns a shard's part in a round of iterative parameter
// mixing (McDonald, Hall and Mann, 2010) of m, a Perceptron or an Averaged:
// a copy of m that has learned one epoch of the rows of X with labels y, as
// Learn does, with no OnUpdate, its Stats and an Averaged's sums counting
// that epoch alone. It returns the errors of Learn, and an error if m is
// neither type.
func LearnShard(m Classifier, X mat.Matrix, y []float64) (Classifier, error) {
	s, err := shardOf(m)
	if err != nil {
		return nil, err
	}
	if err := s.Learn(X, y); err != nil {
		return nil, err
	}
	return s, nil
}

// shardOf returns the copy of m that learns a shard in LearnShard: its
// own weights, and its own count of mistakes and, for an Averaged, of
// visits and sums.
func shardOf(m Classifier) (shard, error) {
	s, ok := m.(shard)
	if !ok || isNil(m) {
		return nil, errorf(ErrSetting, "perceptron: LearnShard of a %T: only a Perceptron or an Averaged mixes", m)
	}
	ml := s.model() // of the run, which the shards copy at once
	if ml.predictOnly() {
		return nil, errPredictOnly("LearnShard")
	}
	_, averaged := m.(*Averaged)
	if err := ml.w.needs(tablesOf(averaged)); err != nil {
		return nil, err
	}
	// The shard's model is its own, which no prediction reads: its Learn
	// publishes it.
	c := bare(s, true)
	if w := ml.w; w.fitted() {
		l := c.lin()
		l.w, l.classes = w.clone(), ml.classes
		if averaged {
			l.sum = newTable(w.dim(), len(w.b), nil, w.noBias)
		}
	}
	return c, nil
}

// bare returns a copy of m, a Perceptron or an Averaged, with its settings
// and no model, and without OnUpdate and Stop if noHooks is set.
func bare(m shard, noHooks bool) shard {
	switch m := m.(type) {
	case *Perceptron:
		c := *m
		c.linear = linear{}
		if noHooks {
			c.OnUpdate, c.Stop = nil, nil
		}
		return &c
	case *Averaged:
		c := *m
		c.linear = linear{}
		if noHooks {
			c.OnUpdate, c.Stop = nil, nil
		}
		return &c
	}
	panic(fmt.Sprintf("perceptron: no bare copy of a %T", m))
}

// Mix is a round of iterative parameter mixing: it sets m, a Perceptron or
// an Averaged, to the mixture of shards, the parts that LearnShard
// returned, learned from m: the parts' average, in shard order, uniform or
// with byMistakes weighted by each shard's share of the mistakes. From
// zero weights on separable data, the mistakes times these weights sum to
// at most the perceptron's bound over the rounds (McDonald et al., Theorem
// 3). An Averaged adds the parts' sums and, after a round without a
// mistake, the rounds left to Epochs, as Fit does. Stats count the round
// as an epoch, without losses. Mix does not check Epochs: stop after a
// round that Converged, or after Epochs rounds.
//
// Mix returns an error, and changes nothing, if there are no shards, if m
// is neither type, if a part has not learned or differs in type, classes,
// width or bias, or if the visits pass 2^53 or the sums overflow.
func Mix(m Classifier, shards []Classifier, byMistakes bool) error {
	if len(shards) == 0 {
		return errorf(ErrSetting, "perceptron: Mix of no shards")
	}
	switch m := m.(type) {
	case *Perceptron:
		ts, err := mixShards(m, shards)
		if err != nil {
			return err
		}
		if err := ts[0].t.needs(1); err != nil {
			return err
		}
		w, st := mixWeights(ts, m.work().stats, byMistakes)
		m.set(linearModel{w: w, classes: shards[0].(*Perceptron).work().classes, stats: st})
		return nil
	case *Averaged:
		ts, err := mixShards(m, shards)
		if err != nil {
			return err
		}
		if err := ts[0].t.needs(2); err != nil {
			return err
		}
		ml := m.work()
		if ml.predictOnly() {
			return errPredictOnly("Mix")
		}
		w, st := mixWeights(ts, ml.stats, byMistakes)
		// The parts whose sums the mixture adds: m's first if it has any.
		parts := make([]*linearState, 0, len(shards)+1)
		if ml.w.fitted() {
			parts = append(parts, ml)
		}
		round := 0
		for _, s := range shards {
			sl := s.(*Averaged).work()
			parts = append(parts, sl)
			if round, err = addCount(round, sl.visits); err != nil {
				return err
			}
		}
		visits, err := addCount(ml.visits, round)
		if err != nil {
			return err
		}
		epochs, ahead := m.Epochs, 0
		if epochs == 0 {
			epochs = defaultEpochs
		}
		if left := epochs - st.Epochs; st.Converged && left > 0 && round > 0 {
			// The rounds left would each add every visit of the last weights.
			if left > maxCount/round {
				return errTooManyVisits(epochs, round)
			}
			ahead = left * round
			if visits, err = addCount(visits, ahead); err != nil {
				return err
			}
		}
		sum := newTable(w.dim(), len(w.b), nil, w.noBias)
		spread(len(sum.w), func(lo, hi int) {
			for _, a := range parts {
				addAhead(sum.w[lo:hi], a.sum.w[lo:hi], a.w.w[lo:hi], a.ahead)
			}
		})
		for _, a := range parts {
			addAhead(sum.b, a.sum.b, a.w.b, a.ahead)
		}
		if err := sum.checkFinite(); err != nil {
			return err
		}
		m.set(linearModel{w: w, sum: sum, ahead: ahead, visits: visits, classes: parts[len(parts)-1].classes, stats: st})
		return nil
	}
	return errorf(ErrSetting, "perceptron: Mix of a %T: only a Perceptron or an Averaged mixes", m)
}

// addAhead adds s + ahead·w to dst: an Averaged's sums of the weights
// after each visit.
func addAhead(dst, s, w []float64, ahead int) {
	a := float64(ahead)
	for j := range dst {
		dst[j] += s[j] + float64(a*w[j]) // not fused: the same bits everywhere
	}
}

// mixShards returns the weights of the shards, of m's type T, and their
// mistakes, checking that m is not nil and the shards are of its classes,
// width and bias.
func mixShards[T shard](m T, shards []Classifier) ([]shardTable, error) {
	if any(m) == any(*new(T)) {
		return nil, errorf(ErrSetting, "perceptron: Mix of a nil %T", m)
	}
	ml := m.lin()
	mt, classes := ml.w, ml.classes
	ts := make([]shardTable, len(shards))
	for k, c := range shards {
		s, ok := c.(T)
		switch {
		case !ok:
			return nil, errorf(ErrSetting, "perceptron: Mix: shard %d is a %T, not a %T", k, c, s)
		case any(s) == any(*new(T)):
			return nil, errorf(ErrSetting, "perceptron: Mix: shard %d is a nil %T", k, s)
		}
		sl := s.lin()
		t, cl, st := sl.w, sl.classes, sl.stats
		switch {
		case sl.predictOnly():
			return nil, errorf(ErrNotFitted, "perceptron: Mix: shard %d holds what its predictions read alone (PredictOnly), not its running weights", k)
		case !t.fitted():
			return nil, errorf(ErrNotFitted, "perceptron: Mix: shard %d has not learned", k)
		case k == 0 && classes == nil:
			classes = cl
		}
		switch {
		case !slices.Equal(cl, classes):
			return nil, errorf(ErrLabels, "perceptron: Mix: shard %d has the classes %v, want %v", k, cl, classes)
		case k > 0 && t.dim() != ts[0].t.dim():
			return nil, errorf(ErrShape, "perceptron: Mix: shard %d has %d columns, shard 0 %d", k, t.dim(), ts[0].t.dim())
		case k > 0 && t.noBias != ts[0].t.noBias:
			return nil, errorf(ErrSetting, "perceptron: Mix: shard %d has NoBias %t, shard 0 %t", k, t.noBias, ts[0].t.noBias)
		}
		ts[k] = shardTable{t, st.Mistakes}
	}
	if mt.fitted() && (mt.dim() != ts[0].t.dim() || mt.noBias != ts[0].t.noBias) {
		return nil, errorf(ErrShape, "perceptron: Mix: the shards have %d columns and NoBias %t, the model %d and %t", ts[0].t.dim(), ts[0].t.noBias, mt.dim(), mt.noBias)
	}
	return ts, nil
}

// shardTable is a shard's weights and its mistakes in the round.
type shardTable struct {
	t        table
	mistakes int
}

// mixWeights returns the mixture of the shards' weights, uniform or by
// their mistakes, and the Stats st of the rounds before with this one.
func mixWeights(ts []shardTable, st Stats, byMistakes bool) (table, Stats) {
	total := 0
	for _, s := range ts {
		total += s.mistakes
	}
	st = st.clone()
	st.Epochs++
	st.Mistakes += total
	st.EpochMistakes = append(st.EpochMistakes, total)
	st.Converged = total == 0
	st.EpochLoss, st.EpochAccuracy = nil, nil
	w := newTable(ts[0].t.dim(), len(ts[0].t.b), nil, ts[0].t.noBias)
	if total == 0 {
		// The shards kept the weights they learned from, which an average
		// would only round.
		w.set(&ts[0].t)
		return w, st
	}
	mu := make([]float64, len(ts))
	for k, s := range ts {
		mu[k] = 1 / float64(len(ts))
		if byMistakes {
			mu[k] = float64(s.mistakes) / float64(total)
		}
	}
	spread(len(w.w), func(lo, hi int) {
		for k, s := range ts {
			for j := lo; j < hi; j++ {
				w.w[j] += mu[k] * s.t.w[j]
			}
		}
	})
	for k, s := range ts {
		for c, v := range s.t.b {
			w.b[c] += mu[k] * v
		}
	}
	return w, st
}

// FitShards trains m, a Perceptron or an Averaged, by iterative parameter
// mixing on shards X[k], y[k]: each round LearnShard learns every shard, on
// GOMAXPROCS goroutines, and Mix mixes them, until a round without a
// mistake, or for Epochs rounds. It starts from InitWeights, with the
// classes of Labels or of all the labels, weighed by ClassWeight; Rand,
// Stop and OnUpdate play no part. It returns the errors of Fit and Learn,
// naming the shard, and an error if m is neither type or the shards differ
// in width; a failed FitShards leaves m as it was.
func FitShards(m Classifier, X []mat.Matrix, y [][]float64, byMistakes bool) error {
	return fitShards(m, X, y, byMistakes, nil)
}

// fitShards is FitShards, stopped by h if it is not nil.
func fitShards(m Classifier, X []mat.Matrix, y [][]float64, byMistakes bool, h *halt) error {
	if len(X) == 0 || len(X) != len(y) {
		return errorf(ErrShape, "perceptron: FitShards of %d shards of rows and %d of labels, want as many, at least one", len(X), len(y))
	}
	// The run trains a copy of m without its model, which m then becomes:
	// Mix replaces the model of the run, and the settings are m's.
	sh, ok := m.(shard)
	switch {
	case !ok:
		return errorf(ErrSetting, "perceptron: FitShards of a %T: only a Perceptron or an Averaged mixes", m)
	case isNil(m):
		return errorf(ErrSetting, "perceptron: FitShards of a nil %T", m)
	}
	run, ms := bare(sh, false), sh.settings(nil)
	labels, weights, epochs := ms.labels, ms.weights, ms.epochs
	// Epochs is checked here, the other settings by each Learn.
	s, err := settings{epochs: epochs}.resolve(0, 1)
	if err != nil {
		return err
	}
	if labels == nil {
		var all []float64
		for k := range y {
			if i := nonFinite(y[k]); i >= 0 {
				return errorAt(ErrNonFinite, i, -1, "perceptron: y[%d] is %v, want a finite class value (shard %d)", i, y[k][i], k)
			}
			all = append(all, y[k]...)
		}
		if labels = distinct(all); len(labels) == 1 {
			return errorf(ErrLabels, "perceptron: y has the single class %v in every shard: want at least two classes", labels[0])
		}
	}
	// The shards are checked once, not in every round as Learn would.
	sets := make([]*dataset, len(X))
	rows := 0
	for k := range X {
		ds, err := trainSet(X[k], y[k], nil, labels, weights)
		if err == nil {
			err = ds.check(nil)
		}
		if err == nil && k > 0 && ds.d != sets[0].d {
			err = errorf(ErrShape, "perceptron: X has %d columns, want %d, those of shard 0", ds.d, sets[0].d)
		}
		if err != nil {
			return wrapf(err, "%w (shard %d)", err, k)
		}
		ds.halt = h
		sets[k], rows = ds, rows+ds.n
	}
	tables := 1
	if _, ok := m.(*Averaged); ok {
		if s.epochs > maxCount/rows {
			return errTooManyVisits(s.epochs, rows)
		}
		tables = 2
	}
	// A round holds a part for every shard, and their mixture.
	if err := (&settings{}).needs(sets[0], float64((len(X)+1)*tables)*sets[0].tableWords()); err != nil {
		return err
	}
	for round := 1; round <= s.epochs; round++ {
		if err := h.err(); err != nil {
			return err
		}
		shards := make([]Classifier, len(X))
		errs := make([]error, len(X))
		parallel(len(X), func() func(int) {
			return func(k int) {
				var s shard
				if s, errs[k] = shardOf(run); errs[k] == nil {
					errs[k], shards[k] = learnChecked(s, sets[k]), s
				}
			}
		})
		for k, err := range errs {
			if h.stopped(err) {
				return err // of every shard alike
			}
			if err != nil {
				return wrapf(err, "%w (shard %d)", err, k)
			}
		}
		if err := Mix(run, shards, byMistakes); err != nil {
			return err
		}
		if run.Stats().Converged {
			break
		}
	}
	switch m := m.(type) {
	case *Perceptron:
		*m = *run.(*Perceptron)
	case *Averaged:
		*m = *run.(*Averaged)
	}
	return nil
}
