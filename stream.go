// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/seed5ae3614e/perceptron/internal/memory"
	"github.com/seed5ae3614e/perceptron/internal/stream"
)

// Fit on a stream, which package data drives through internal/stream:
// the rows come a chunk at a time, and again for every epoch. A copy of
// the classifier, of its settings and no model, learns each chunk with its
// Learn, which visits the rows as an epoch of Fit visits them, along the
// stream: in the stream's order, or in a fresh random order within each
// chunk, counting the visits, the mistakes and the loss of the epoch from
// chunk to chunk. The loop of epochs is Fit's. So in the stream's order a
// Perceptron and a Voted make Fit's model, bit for bit, and an Averaged
// too, whose Learn keeps Fit's shares of the rows (see Averaged's fit) in
// place of its own sum, through stream.Shares, and sums them at the end,
// in one more pass. A OneVsRest trains a copy of each class's classifier
// so, every pass feeding those that have not stopped.

func init() { stream.Fit = fitStream }

// along places a Learn's visits in a Fit on a stream: their epoch, and the
// row of the stream of the first, for OnUpdate; their order, or nil for
// the order of the rows; the epoch's loss and mistakes so far, which they
// add to; and, for an Averaged, the shares of the rows: row i's from
// g[i·stride+col].
type along struct {
	epoch, first int
	order        []int
	loss         float64
	mistakes     int
	g            []float64
	stride, col  int
}

// streamFit is a Fit on a stream: of one classifier, or of a OneVsRest's,
// one for each class, each a run.
type streamFit struct {
	pass    stream.Pass
	h       *halt
	classes []float64
	cw      map[float64]float64
	runs    []*streamRun
	shares  stream.Shares
	width   int // of the shares of a row, 0 if there are none
}

// streamRun is the training of one classifier on a stream.
type streamRun struct {
	m      member
	commit func() // makes the classifier m, trained
	a      along
	rnd    *rand.Rand // of its chunks' orders
	rule   *Stop
	stop   *stopper
	epochs int
	st     Stats
	done   bool
}

// fitStream is stream.Fit: the Fit of c, a Perceptron, an Averaged, a
// Voted or a OneVsRest of them, on the rows of pass, stopped by ctx, with
// the shares of an Averaged in shares, or in memory if shares is nil.
func fitStream(ctx context.Context, c any, pass stream.Pass, shares stream.Shares) error {
	h, err := newHalt(ctx)
	if err == nil {
		err = streamable(c)
	}
	if err != nil {
		return err
	}
	f := &streamFit{pass: pass, h: h, shares: cmp.Or[stream.Shares](shares, &stream.Memory{})}
	o, _ := c.(*OneVsRest)
	var labels []float64
	var models []Scorer
	if o != nil {
		labels, f.cw = o.Labels, o.ClassWeight
	} else {
		m := c.(member)
		s := m.settings(nil)
		models, labels, f.cw = []Scorer{m}, s.labels, s.weights
	}
	if f.classes, err = f.classesOf(labels); err != nil {
		return err
	}
	if o != nil {
		if models, err = o.newModels(f.classes); err != nil {
			return err
		}
	}
	for k, m := range models {
		r, err := newStreamRun(m)
		if err != nil {
			return err
		}
		if o != nil && r.rnd != nil {
			// Each class's classifier draws from a source of its own, as
			// in OneVsRest's Fit.
			r.rnd = rand.New(rand.NewPCG(r.rnd.Uint64(), r.rnd.Uint64()))
		}
		if _, ok := m.(*Averaged); ok {
			f.width = len(models)
			r.a.stride, r.a.col = f.width, k
		}
		f.runs = append(f.runs, r)
	}
	if f.width == 1 {
		f.width = scores(f.classes) // a multiclass Averaged's own
		f.runs[0].a.stride = f.width
	}
	n := 0 // the rows of an epoch
	for e := 1; slices.ContainsFunc(f.runs, func(r *streamRun) bool { return !r.done }); e++ {
		if n, err = f.each(true, func(r *streamRun, set *dataset, first int, g []float64) error { return r.chunk(set, e, first, g) }); err != nil {
			return err
		}
		for _, r := range f.runs {
			if err := r.endEpoch(n); err != nil {
				return err
			}
		}
	}
	if f.width > 0 {
		if err := f.sums(n); err != nil {
			return err
		}
	}
	for _, r := range f.runs {
		r.commit()
	}
	if o != nil {
		o.set(models, f.classes, nil, nil)
	}
	return nil
}

// streamable returns an error if c is not a classifier that trains on a
// stream, saying why.
func streamable(c any) error {
	switch c := c.(type) {
	case *Perceptron, *Averaged, *Voted:
		if !isNil(c) {
			return nil
		}
	case *OneVsRest:
		if c != nil {
			return nil
		}
	case *Pocket:
		return errorf(ErrSetting, "perceptron: a Pocket trains on rows in memory, not on a stream: it counts the mistakes of its weights on every row, which a stream gives once an epoch")
	case *Kernel:
		return errorf(ErrSetting, "perceptron: a Kernel trains on rows in memory, not on a stream: its Fit keeps a score of every row (its Learn learns a chunk at a time)")
	}
	return errorf(ErrSetting, "perceptron: a Fit on a stream of a %s: want a Perceptron, an Averaged, a Voted, or a OneVsRest of them", typeName(c))
}

// newStreamRun returns the training of m on a stream: of a copy of m,
// which the run's commit makes m. It returns an error if m does not train
// on streams, or if its Stop is not valid or holds rows out.
func newStreamRun(m Scorer) (*streamRun, error) {
	if err := streamable(m); err != nil {
		return nil, err
	}
	s, _, _, _ := m.(member).state()
	rule, err := s.stop.resolve()
	switch {
	case err != nil:
		return nil, err
	case rule != nil && rule.Validation > 0:
		return nil, errorf(ErrSetting, "perceptron: Stop.Validation holds rows out, and a Fit on a stream holds no rows: stop by the loss")
	}
	r := &streamRun{rnd: s.source, rule: rule, epochs: cmp.Or(s.epochs, defaultEpochs)}
	// The copy has a model of its own, which no prediction reads: its
	// Learns publish nothing, and the commit publishes the model whole,
	// as Fit does.
	switch m := m.(type) {
	case shard:
		b := bare(m, false)
		r.m, r.commit = b, func() {
			l := b.lin()
			m.set(linearModel{w: l.w, sum: l.sum, visits: l.visits, classes: l.classes, stats: r.st})
		}
	case *Voted:
		var b Voted
		b.copySettings(m)
		r.m, r.commit = &b, func() {
			b.votes[len(b.votes)-1].count = b.visits - b.made
			b.stats = r.st
			*m = b
			m.publish(nil)
		}
	}
	return r, nil
}

// chunk learns the rows of ds, rows first to first+n-1 of epoch e, whose
// shares are g, if not nil.
func (r *streamRun) chunk(ds *dataset, e, first int, g []float64) error {
	if r.done {
		return nil
	}
	r.a.epoch, r.a.first, r.a.g, r.a.order = e, first, g, nil
	if r.rnd != nil {
		r.a.order = make([]int, ds.n)
		for i := range r.a.order {
			r.a.order[i] = i
		}
		r.rnd.Shuffle(ds.n, func(i, j int) { r.a.order[i], r.a.order[j] = r.a.order[j], r.a.order[i] })
	}
	s, err := learnSettings(r.m, ds)
	if err != nil {
		return err
	}
	s.along = &r.a
	err = r.m.learn(ds, s)
	if l, ok := r.m.(shard); ok {
		// The log of the mistakes, by which a published copy catches up,
		// of which there is none.
		l.lin().log = l.lin().log[:0]
	}
	return err
}

// endEpoch ends an epoch of n rows, as the loop of Fit does.
func (r *streamRun) endEpoch(n int) error {
	if r.done {
		return nil
	}
	st := &r.st
	if _, ok := r.m.(*Perceptron); !ok && st.Epochs == 0 && r.epochs > maxCount/n {
		return errTooManyVisits(r.epochs, n)
	}
	st.Epochs++
	st.Mistakes += r.a.mistakes
	st.EpochMistakes = append(st.EpochMistakes, r.a.mistakes)
	loss := min(r.a.loss, math.MaxFloat64)
	st.EpochLoss = append(st.EpochLoss, loss)
	if r.stop == nil && r.rule != nil {
		r.stop = newStopper(r.rule, n)
	}
	switch {
	case r.a.mistakes == 0:
		st.Converged, r.done = true, true
		if v, ok := r.m.(*Voted); ok {
			v.visits = r.epochs * n // the epochs left count the last voter
		}
	case r.stop != nil && r.stop.done(loss), st.Epochs == r.epochs:
		r.done = true
	}
	r.a.loss, r.a.mistakes = 0, 0
	return nil
}

// classesOf returns the classes of labels, if not nil, and otherwise those
// of the rows, which it reads, as Fit takes the classes of y.
func (f *streamFit) classesOf(labels []float64) ([]float64, error) {
	if labels != nil {
		return checkLabels(labels)
	}
	var classes []float64
	rows := 0
	err := f.chunks(func(ch stream.Chunk) error {
		if i := nonFinite(ch.Y); i >= 0 {
			return errorAt(ErrNonFinite, rows+i, -1, "perceptron: y[%d] is %v, want a finite class value", rows+i, ch.Y[i])
		}
		classes = slices.Compact(slices.Sorted(slices.Values(append(classes, distinct(ch.Y)...))))
		rows += len(ch.Y)
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case len(classes) < 2:
		return nil, errorf(ErrLabels, "perceptron: the rows have %d classes %v: want at least two", len(classes), classes)
	}
	return classes, nil
}

// chunks calls fn with each chunk of a pass, polling the halt, until fn
// returns an error.
func (f *streamFit) chunks(fn func(ch stream.Chunk) error) error {
	var err error
	perr := f.pass(func(ch stream.Chunk) bool {
		if err = f.h.err(); err == nil {
			err = fn(ch)
		}
		return err == nil
	})
	if err == nil && perr != nil {
		err = wrapf(perr, "perceptron: the stream: %w", perr)
	}
	return err
}

// each calls fn, in a pass, with each run and each chunk, as a data set
// of the classes, weighed as the stream says, its first row, and the
// shares of its rows, if any, which it stores after if store is set. With
// many runs, each takes its class against the rest, on GOMAXPROCS
// goroutines. It returns the rows of the pass. The errors of a chunk name
// its rows as the chunk counts them, and say where it starts.
func (f *streamFit) each(store bool, fn func(r *streamRun, set *dataset, first int, g []float64) error) (int, error) {
	first := 0
	err := f.chunks(func(ch stream.Chunk) error {
		ds, err := trainSet(ch.X, ch.Y, ch.W, f.classes, f.cw)
		var g []float64
		if err == nil && f.width > 0 {
			g = make([]float64, ds.n*f.width)
			err = f.shares.Load(g, first*f.width)
		}
		if err == nil {
			ds.halt = f.h
			if len(f.runs) == 1 {
				err = fn(f.runs[0], ds, first, g)
			} else {
				errs := eachClass(ds, f.h, func(c int, set *dataset) error { return fn(f.runs[c], set, first, g) })
				err = classError(errs, ds.classes, f.h)
			}
		}
		if err == nil && store && f.width > 0 {
			err = f.shares.Store(g, first*f.width)
		}
		if memory.Refused(err) && !errors.Is(err, ErrTooLarge) {
			err = tooLarge(err, "the stream:") // of the shares in memory
		}
		if err != nil && !f.h.stopped(err) {
			err = wrapf(err, "%w (in the chunk of the stream's rows from row %d)", err, first)
			if e := (*Error)(nil); errors.As(err, &e) && e.Row >= 0 {
				e.Row += first // a row of the stream, where the message names the chunk's
			}
			return err
		}
		first += ds.n
		return err
	})
	return first, err
}

// sums sets the sums of the weights of the Averageds of the runs, after
// the visits of their epochs of n rows, which Fit forms at its end: their
// weights times the visits, less the shares of the rows times the rows.
func (f *streamFit) sums(n int) error {
	for _, r := range f.runs {
		if a, ok := r.m.(*Averaged); ok {
			T := r.st.Epochs * n
			if r.st.Converged {
				T = r.epochs * n
			}
			l := a.work()
			l.sum, l.ahead, l.visits = l.w.scaledClone(float64(T)), 0, T
		}
	}
	_, err := f.each(false, func(r *streamRun, set *dataset, _ int, g []float64) error {
		if a, ok := r.m.(*Averaged); ok {
			a.work().sum.unshare(set, g, r.a.stride, r.a.col)
		}
		return nil
	})
	for _, r := range f.runs {
		if a, ok := r.m.(*Averaged); ok && err == nil {
			err = a.work().sum.checkFinite()
		}
	}
	return err
}
