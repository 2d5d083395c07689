// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/live"
)

// linearModel is the model of a linear classifier, as training writes it
// and the prediction methods read it: Perceptron's running weights,
// Pocket's pocket weights, or Averaged's running weights and their sum.
type linearModel struct {
	w table

	// For Averaged, the sum of the weights after each of the visits is
	// sum + ahead·w, and the same for the biases: after Fit ahead is 0,
	// and Learn moves sum at its mistakes only. Perceptron and Pocket
	// have no sum.
	sum    table
	ahead  int
	visits int

	classes []float64
	stats   Stats
}

// predictOnly reports whether m is an Averaged that PredictOnly left
// without its running weights.
func (m *linearModel) predictOnly() bool { return !m.w.fitted() && m.sum.fitted() }

// dim returns the number of columns of m.
func (m *linearModel) dim() int {
	if m.predictOnly() {
		return m.sum.dim()
	}
	return m.w.dim()
}

// errPredictOnly returns the error of method, which goes on from the
// running weights, called on an Averaged that PredictOnly left without
// them.
func errPredictOnly(method string) error {
	return errorf(ErrNotFitted, "perceptron: %s of an Averaged that PredictOnly left with what its predictions read alone: its running weights, from which it would go on, are gone", method)
}

// linear is what Perceptron, Pocket and Averaged share: their model, as
// training writes it and as a view that the prediction methods read (see
// live.go), and those methods. The model lies behind a pointer, so that
// a copy of the classifier, as a value receiver makes, reads nothing that
// a Learn writes.
type linear struct{ s *linearState }

// linearState is the model of a linear classifier, as training writes it
// and as the prediction methods read it, and the mistakes of the Learn
// under way.
type linearState struct {
	linearModel
	live live.Live[linearModel]
	log  []changed
}

// work returns the model as training writes it, an empty one at first.
func (l *linear) work() *linearState {
	if l.s == nil {
		l.s = new(linearState)
	}
	return l.s
}

// model returns the model as training writes it, the zero one if there
// is none, without making one: for goroutines that read it at once.
func (l *linear) model() linearModel {
	if l.s == nil {
		return linearModel{}
	}
	return l.s.linearModel
}

// set makes m the model, published to the prediction methods whole, and
// never to be written again: a Learn writes a copy.
func (l *linear) set(m linearModel) {
	s := l.work()
	s.linearModel = m
	s.live.Set(m)
}

// view returns the read of the view that a prediction method reads,
// which it ends by Done when it has read it; its View is nil if there is
// no model.
func (l *linear) view() live.Reading[linearModel] {
	if l.s == nil {
		return live.Reading[linearModel]{}
	}
	return l.s.live.Read()
}

// read returns view's read, panicking in the manner of gonum if there is
// no model; method names the caller.
func (l *linear) read(method string) live.Reading[linearModel] {
	if v := l.view(); v.View != nil {
		return v
	}
	panic(notFitted(method))
}

// hold returns a read of the model for a method that reads it whole or
// saves it, which ends it by Done when it is done: view's read, or one of
// no model.
func (l *linear) hold() live.Reading[linearModel] {
	if v := l.view(); v.View != nil {
		return v
	}
	return live.Reading[linearModel]{View: new(live.View[linearModel])}
}

// Predict returns the class of x: for two classes the second if
// w·x+b >= 0 and the first otherwise (also if x holds NaN); for more, the
// class of the greatest score, the first of those if several tie. It
// panics if the classifier has not been fitted or if len(x) is not the
// number of columns. It may run concurrently with Learn and with the
// prediction methods, not with Fit.
func (l *linear) Predict(x []float64) float64 {
	v := l.view()
	switch {
	case v.View == nil:
		panic(notFitted("Predict"))
	case v.Fixed() && v.M.ahead == 0:
		// A model published whole, by Fit, a load, Mix or PredictOnly,
		// and not since written by a Learn: the usual case, read
		// without the defer and the calls of the general path, which
		// weigh on short rows (BenchmarkPerceptronPredict).
		return v.M.scored().predict(v.M.classes, x)
	}
	defer v.Done()
	return v.M.predict(x)
}

// scoreRow sets dst to the scores of the dense x, as ScoreRows gives
// those of a row. It panics and may run concurrently as Predict.
func (l *linear) scoreRow(dst, x []float64) {
	v := l.read("Predict")
	defer v.Done()
	v.M.predictor().scoreRow(dst, x)
}

// ScoreRows returns the scores w_c·x+b_c of the rows of X, as Scorer
// says. It panics and may run concurrently as Predict.
func (l *linear) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	v := l.read("ScoreRows")
	defer v.Done()
	return v.M.predictor().scoreRows(dst, X)
}

// PredictRows returns the classes of the rows of X, as Predict chooses
// them. It panics and may run concurrently as Predict.
func (l *linear) PredictRows(dst []float64, X mat.Matrix) []float64 {
	v := l.read("PredictRows")
	defer v.Done()
	return v.M.predictor().predictRows(dst, X)
}

// Classes returns a copy of the classes, as Scorer says. It may run
// concurrently as Predict.
func (l *linear) Classes() []float64 {
	v := l.hold()
	defer v.Done()
	return slices.Clone(v.M.classes)
}

// Weights returns copies of the weights and biases: for two classes the d
// weights and one bias; for K classes the weight of feature j for class c
// at j·K+c, as mat.NewDense(d, K, w) lays them out, and K biases; nil,
// nil before a fit. It may run concurrently as Predict.
func (l *linear) Weights() (w, b []float64) {
	v := l.hold()
	defer v.Done()
	m := &v.M
	if !m.sum.fitted() {
		return m.w.weights()
	}
	avg := m.sum.clone()
	if m.ahead != 0 {
		floats.AddScaled(avg.w, float64(m.ahead), m.w.w)
		floats.AddScaled(avg.b, float64(m.ahead), m.w.b)
	}
	return divided(avg.w, float64(m.visits)), divided(avg.b, float64(m.visits))
}

// Stats returns a description of the training: of the last Fit, with the
// mistakes of every Learn since. It may run concurrently as Predict.
func (l *linear) Stats() Stats {
	v := l.hold()
	defer v.Done()
	return v.M.stats.clone()
}

// predict returns the class of x that m chooses.
func (m *linearModel) predict(x []float64) float64 {
	if m.ahead == 0 || !m.sum.fitted() {
		return m.scored().predict(m.classes, x)
	}
	return predictOne(m.predictor(), x)
}

// scored returns the table whose scores m decides on where ahead is 0 or
// there is no sum: Perceptron's or Pocket's weights, or Averaged's sum.
func (m *linearModel) scored() *table {
	if m.sum.fitted() {
		return &m.sum
	}
	return &m.w
}

// predictor returns m as the prediction methods read it: for Averaged,
// the summed scores (sum + ahead·w)·x, and T to divide them by.
func (m *linearModel) predictor() predictor {
	if !m.sum.fitted() {
		return m.w.predictor(m.classes)
	}
	p := m.sum.predictor(m.classes)
	p.div = float64(m.visits)
	if m.ahead != 0 {
		p.lin, p.by = nil, m // the scores are not those of sum alone
	}
	return p
}

// scores sets dst to the summed scores (sum + ahead·w)·x of an Averaged
// that Learn has written since its sums.
func (m *linearModel) scores(dst []float64, x vec) {
	buf := getBuffer(len(dst))
	m.sum.scores(dst, &x, 0)
	m.w.scores(*buf, &x, 0)
	floats.AddScaled(dst, float64(m.ahead), *buf)
	putBuffer(buf)
}

func (l *linear) width() int {
	v := l.hold()
	defer v.Done()
	return v.M.dim()
}

func (l *linear) lin() *linearState { return l.work() }

// shares reports whether the fitted tables a and b are one, not copies.
func shares(a, b *table) bool { return &a.b[0] == &b.b[0] }

// begin readies the model for a Learn on ds beside predictions: the
// Learn writes a copy of the tables that predictions read, made here
// unless the last Learn left one, and a stopped Learn sets it back by the
// log of its mistakes. It returns an error of kind ErrTooLarge if the
// copy does not fit in the memory left.
func (l *linear) begin(ds *dataset) (func(), error) {
	s := l.work()
	if s.predictOnly() {
		return nil, errPredictOnly("Learn")
	}
	s.log = s.log[:0]
	restore := func() { s.revert(ds) }
	if v := s.live.Current(); !v.w.fitted() || !shares(&v.w, &s.w) {
		return restore, nil
	}
	tables := 1
	if s.sum.fitted() {
		tables = 2
	}
	if err := s.w.needs(tables); err != nil {
		return nil, err
	}
	s.w = s.w.clone()
	if s.sum.fitted() {
		s.sum = s.sum.clone()
	}
	return restore, nil
}

// keep records the mistake of a Learn on row i, by which the copy of the
// model that predictions read catches up.
func (s *linearState) keep(i int, mv move) { s.log = append(s.log, changed{i, mv}) }

// publish ends a Learn on ds that changed the model as the log says: it
// publishes the model, and then brings the copy it replaces up to date,
// once no prediction reads it, for the next Learn to write.
func (l *linear) publish(ds *dataset) {
	s := l.work()
	if !s.w.fitted() {
		return
	}
	now := s.linearModel
	old, writable := s.live.Swap(now)
	if !writable {
		return // the next Learn copies it
	}
	old.w.catchUp(&now.w, ds, s.log)
	if now.sum.fitted() {
		old.sum.catchUp(&now.sum, ds, s.log)
	}
	old.ahead, old.visits, old.classes, old.stats = now.ahead, now.visits, now.classes, now.stats
	s.linearModel = old
}

// revert sets the model back to the one that predictions read, after a
// Learn on ds that a halt stopped, having changed it as the log says.
func (s *linearState) revert(ds *dataset) {
	v := s.live.Current()
	if !v.w.fitted() {
		s.linearModel = linearModel{} // a Learn from Labels
		return
	}
	s.w.catchUp(&v.w, ds, s.log)
	if v.sum.fitted() {
		s.sum.catchUp(&v.sum, ds, s.log)
	}
	s.ahead, s.visits, s.classes, s.stats = v.ahead, v.visits, v.classes, v.stats
}

// learnTable is the Learn of a Perceptron, or of an Averaged if averaged
// is set, on ds, checked, with the settings s.
func (l *linear) learnTable(ds *dataset, s settings, averaged bool) error {
	S := scores(ds.classes)
	m := l.work()
	fresh := !m.w.fitted()
	if fresh {
		if err := s.needs(ds, float64(tablesOf(averaged))*ds.tableWords()); err != nil {
			return err
		}
		m.w = newTable(ds.d, S, s.w0, s.noBias)
		if averaged && (s.along == nil || s.along.g == nil) { // a Fit on a stream sums at its end
			m.sum = newTable(ds.d, S, nil, s.noBias)
		}
		m.classes = ds.classes
	}
	// An Averaged's sum of the weights after each visit is sum + ahead·w;
	// a mistake after t visits of this Learn adds its update to w, and so
	// takes it ahead+t times from sum, which the visits before it did not
	// count. Averaged's Fit sums its updates at the end instead, from the
	// rows it keeps, at less cost a mistake.
	r := newRule(ds, &m.w, S, s.rate)
	r.guard = true
	r.kept = func(x *vec, i, t int, mv move) error {
		if averaged {
			sv := mv
			sv.step *= -float64(m.ahead + t)
			if !m.sum.fits(x, sv) {
				return errOverflow
			}
			m.sum.add(x, 0, 0, sv)
		}
		m.keep(i, mv)
		return nil
	}
	if g := s.along; averaged && g != nil && g.g != nil {
		// A Fit on a stream keeps Fit's shares of the rows, and sums them
		// at its end.
		r.kept = func(_ *vec, i, t int, mv move) error {
			addStep(g.g[i*g.stride+g.col:], mv.up, mv.down, float64(m.visits+t)*mv.step)
			return nil
		}
	}
	mistakes, visited, err := s.learn(ds, r)
	if fresh && visited == 0 {
		m.w, m.sum, m.classes = table{}, table{}, nil // as it was
	}
	if averaged {
		m.ahead += visited
		m.visits += visited
	}
	m.stats.Mistakes += mistakes
	return err
}

// tablesOf returns the number of tables of weights of a Perceptron, or of
// an Averaged if averaged is set.
func tablesOf(averaged bool) int {
	if averaged {
		return 2
	}
	return 1
}
