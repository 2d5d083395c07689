// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/live"
)

// Voted is the voted perceptron of Freund and Schapire (1999). It trains as
// Perceptron does, and every weight vector w_k, b_k of the run votes with
// weight c_k, the number of visits after which it was the current one. With
// two classes Voted predicts the sign of the vote sum_k
// c_k·sign(w_k·x+b_k), the second class on a tie; with more, each voter
// votes c_k times for the class of its greatest score, and the class with
// the most votes wins, the first of those if several tie.
//
// Fit runs all Epochs epochs, as Freund and Schapire do; after an epoch
// without a mistake, which every later one would repeat, it counts the
// rest in closed form rather than visiting them, as Averaged does. Voted stores each row of a mistake
// once, and a prediction costs a dot product per stored row and an
// addition per mistake. The zero value is ready to use, with the defaults
// of Perceptron.
type Voted struct {
	// Epochs is the number of passes over the data whose visits the votes
	// count. Zero means 1000.
	Epochs int

	// Rate, Rand and NoBias are as in Perceptron.
	Rate   float64
	Rand   *rand.Rand
	NoBias bool

	// InitWeights are the starting weights, as in Perceptron. They are
	// the first voter.
	InitWeights []float64

	// Labels and ClassWeight are as in Perceptron.
	Labels      []float64
	ClassWeight map[float64]float64

	// OnUpdate is called after every update with the new voter's weights,
	// as in Perceptron.
	OnUpdate func(Update)

	// Stop, if not nil, stops Fit early, as in Perceptron; with
	// Validation it measures the vote so far. The votes then count the
	// epochs run.
	Stop *Stop

	*votedState                    // the voters, as training writes them
	live        *live.Live[*Voted] // a copy of them that the prediction methods read
}

// votedState is the voters of a Voted, as training writes them. They lie
// behind a pointer, so that a copy of the Voted, as a value receiver
// makes, reads nothing that a Learn writes.
type votedState struct {
	// The voters are kept compactly, as the first weights and the rows of
	// the mistakes: the weights of voter k are those of voter k-1 moved by
	// the update of mistake k, on the row votes[k].row, with its step.
	first   table     // w_0, b_0
	last    table     // the running weights, for Learn
	rows    *rows     // the distinct rows of the mistakes
	steps   []float64 // the step of each row: Rate·w·y, or Rate·w for more classes, w its class's weight
	index   *rowIndex // rows by value and step; built when needed
	votes   []vote    // votes[0] is w_0's; votes[k] is the k-th mistake's
	moves   []moved   // moves[k-1] is the k-th mistake's, for more than two classes
	made    int       // the visits before the last voter's first
	visits  int
	classes []float64
	stats   Stats
}

// work returns the voters as training writes them, none at first.
func (v *Voted) work() *votedState {
	if v.votedState == nil {
		v.votedState = new(votedState)
	}
	return v.votedState
}

// vote is a voter: the row whose mistake made it (unused for w_0), and its
// count.
type vote struct {
	row, count int
}

// moved holds the classes that a mistake with more than two classes moves:
// up, the row's class, and down, the other. They are apart from the votes
// so that the votes of two classes, the most common case, stay small.
type moved struct {
	up, down int
}

// mistakeAt is a mistake of a run as Voted keeps it until the run ends:
// its row and the visits before it.
type mistakeAt struct{ i, t int }

// Fit trains the voted perceptron on the rows of X with labels y, as
// Perceptron's Fit does, with its errors, and keeps the run's voters.
func (v *Voted) Fit(X mat.Matrix, y []float64) error { return fitData(v, X, y, nil, nil) }

// fit is Fit on the data set ds, shuffling with rnd.
func (v *Voted) fit(ds *dataset, rnd *rand.Rand) error {
	S := scores(ds.classes)
	s, err := v.settings(rnd).resolve(ds.d, S)
	if err != nil {
		return err
	}
	// The first and the last weights, and the distinct rows of the
	// mistakes, at most a copy of the rows.
	ds, val, err := s.start(ds, true, 2*ds.tableWords()+float64(ds.n)+ds.words())
	if err != nil {
		return err
	}
	w := newTable(ds.d, S, s.w0, s.noBias)
	w0 := w.clone()
	start := func() Voted {
		return Voted{votedState: &votedState{first: w0, rows: newRows(ds.d, 0, ds.sparse()), votes: []vote{{row: -1}}, classes: ds.classes}}
	}
	nv := start()
	var made []mistakeAt
	r := newRule(ds, &w, S, s.rate)
	r.kept, r.grows = nv.keep(&made, 0), votedGrowth
	stats, err := s.run(ds, r, val, func(epoch int) func([]float64, vec) {
		so := start()
		so.moves = nv.moves
		so.record(ds, made, s.rate, epoch*ds.n)
		return so.scores
	})
	if err != nil {
		return err
	}
	if err := w.checkFinite(); err != nil {
		return err
	}
	// The epochs of a run that converged, and not those after a stop,
	// count the last weights.
	end := stats.Epochs * ds.n
	if stats.Converged {
		end = s.epochs * ds.n
	}
	nv.record(ds, made, s.rate, end)
	nv.last, nv.stats = w, stats
	nv.copySettings(v)
	*v = nv
	v.publish(nil)
	return nil
}

// Learn trains the voted perceptron on the rows of X with labels y,
// visiting each row once, in order, as Perceptron's Learn does, and keeps
// the voters of the visits. It returns the errors that Perceptron's Learn
// returns, changing nothing; to that end it copies the last weights, at
// the cost of their size. It may run concurrently as Perceptron's Learn.
func (v *Voted) Learn(X mat.Matrix, y []float64) error { return learnWith(v, X, y, nil, nil) }

func (v *Voted) state() (settings, []float64, int, int) {
	st := v.work()
	return v.settings(nil), st.classes, st.first.dim(), st.visits
}

// learn is Learn on ds, checked, with the settings s. The visits change
// only the last weights and the classes of the mistakes, which they
// append to moves, and the voters are recorded after them, unless the
// halt of ds stops them.
func (v *Voted) learn(ds *dataset, s settings) error {
	S := scores(ds.classes)
	v.work()
	fresh := !v.first.fitted()
	words := float64(ds.n) + ds.words()
	if !v.last.fitted() {
		words += ds.tableWords()
	}
	if fresh {
		words += ds.tableWords()
	}
	if err := s.needs(ds, words); err != nil {
		return err
	}
	if !fresh && !v.last.fitted() {
		if err := v.replay(); err != nil {
			return err
		}
	}
	if fresh {
		v.first = newTable(ds.d, S, s.w0, s.noBias)
		v.last = v.first.clone()
		v.rows, v.votes, v.classes = newRows(ds.d, 0, ds.sparse()), []vote{{row: -1}}, ds.classes
	}
	var made []mistakeAt
	r := newRule(ds, &v.last, S, s.rate)
	r.guard = true
	r.kept, r.grows = v.keep(&made, v.visits), votedGrowth
	mistakes, visited, err := s.learn(ds, r)
	if fresh && visited == 0 {
		*v.votedState = votedState{} // as it was
		return err
	}
	if ds.halt.stopped(err) {
		return err
	}
	v.record(ds, made, s.rate, v.visits+visited)
	v.stats.Mistakes += mistakes
	return err
}

// votedGrowth is the most bytes that a mistake adds to what Voted keeps:
// its place in the run, its vote, and the classes it moved.
const votedGrowth = 48

// keep returns the hook by which a run after t0 visits of v keeps its
// mistakes in made, and with more than two classes the classes they move
// in v.
func (v *Voted) keep(made *[]mistakeAt, t0 int) func(*vec, int, int, move) error {
	return func(_ *vec, i, t int, mv move) error {
		*made = append(*made, mistakeAt{i, t0 + t})
		if mv.down >= 0 {
			v.moves = append(v.moves, moved{up: mv.up, down: mv.down})
		}
		return nil
	}
}

// record adds the voters of the mistakes made, on rows of ds at the visits
// they give, with the rate, to those of v, and counts the visits of the
// last voter up to end, the visits of v's training so far.
func (v *Voted) record(ds *dataset, made []mistakeAt, rate float64, end int) {
	// Room for every distinct row of the mistakes, and for their votes, so
	// that the run's store grows at once.
	slot := make([]int, ds.n) // 1 + the stored row of row i, once found
	rows, nnz := 0, 0
	for _, m := range made {
		if slot[m.i] == 0 {
			slot[m.i] = -1
			rows++
			nnz += len(ds.row(m.i).val)
		}
	}
	clear(slot)
	v.rows.reserve(rows, nnz)
	v.steps = slices.Grow(v.steps, rows)
	v.votes = slices.Grow(v.votes, len(made))
	if v.index == nil {
		v.index = newRowIndex(v.rows, v.steps, rows)
	}
	v.index.next, v.index.hash = slices.Grow(v.index.next, rows), slices.Grow(v.index.hash, rows)
	for _, m := range made {
		r := slot[m.i] - 1
		if r < 0 {
			r = v.store(ds, m.i, rate)
			slot[m.i] = r + 1
		}
		v.votes[len(v.votes)-1].count = m.t - v.made
		v.votes = append(v.votes, vote{row: r})
		v.made = m.t
	}
	v.votes[len(v.votes)-1].count = end - v.made
	v.visits = end
}

// store returns the stored row equal to row i of ds with its step,
// storing it if there is none.
func (v *Voted) store(ds *dataset, i int, rate float64) int {
	step := ds.rate(i, rate)
	if len(v.first.b) == 1 {
		step *= ds.sign(i)
	}
	x := ds.row(i)
	r, h := v.index.find(v.rows, v.steps, x, step)
	if r < 0 {
		r = v.rows.n
		v.rows.append(x)
		v.steps = append(v.steps, step)
		v.index.add(h)
	}
	return r
}

// scores sets dst to the votes on x. A voter's score is that of the voter
// before it plus its mistake's step times x_k·x+1, or times x_k·x through
// the origin, so one dot product per stored row gives every voter's.
func (v *Voted) scores(dst []float64, x vec) {
	S := len(dst)
	buf := getBuffer(len(v.steps) + S)
	defer putBuffer(buf)
	t, s, votes := (*buf)[:len(v.steps)], (*buf)[len(v.steps):], dst
	unit := 1.0
	if v.first.noBias {
		unit = 0
	}
	if x.ind == nil && !v.rows.sparse() {
		// Dense rows and x, the common case, without copies of a vec, and
		// with the rows in a local, one load away after each call.
		rows := *v.rows
		for r, step := range v.steps {
			t[r] = step * (floats.Dot(rows.dense(r), x.val) + unit)
		}
	} else {
		for r, step := range v.steps {
			t[r] = step * (v.rows.row(r).dotVec(x) + unit)
		}
	}
	v.first.scores(s, &x, 0)
	clear(votes)
	if S == 1 {
		// Sums in scalars, which stay in registers, where a sum in dst
		// would make each vote wait on the store of the one before.
		a := s[0]
		vote := float64(v.votes[0].count) * sign(a)
		for _, vt := range v.votes[1:] {
			a += t[vt.row]
			vote += float64(vt.count) * sign(a)
		}
		votes[0] = vote
		return
	}
	votes[argmax(s, -1)] += float64(v.votes[0].count)
	for k, vt := range v.votes[1:] {
		mv := v.moves[k]
		s[mv.up] += t[vt.row]
		s[mv.down] -= t[vt.row]
		votes[argmax(s, -1)] += float64(vt.count)
	}
}

// publish makes the voters the ones that the prediction methods read,
// whole: a copy that shares the first weights and the rows, steps and
// moves, to which a Learn only appends, and holds its own votes, of which
// a Learn counts the last further.
func (v *Voted) publish(*dataset) {
	s := v.work()
	if !s.first.fitted() {
		return
	}
	c := *s
	rows := *s.rows
	c.rows, c.steps, c.moves = &rows, slices.Clip(s.steps), slices.Clip(s.moves)
	c.votes, c.index, c.last = slices.Clone(s.votes), nil, table{}
	if v.live == nil {
		v.live = new(live.Live[*Voted])
	}
	v.live.Set(&Voted{votedState: &c})
}

// seen returns the voters that the prediction methods read, or nil.
func (v *Voted) seen() *Voted {
	if v.live == nil {
		return nil
	}
	return v.live.Current() // never written again
}

// predictor returns the voted perceptron as the prediction methods read
// it, v being the voters that seen returns, or nil.
func (v *Voted) predictor() predictor {
	if v == nil {
		return predictor{}
	}
	return predictor{classes: v.classes, d: v.first.dim(), S: len(v.first.b), by: v}
}

// Predict returns the class of x that the vote chooses, as Voted says,
// and panics as Perceptron's Predict does. It may run concurrently with
// the prediction methods and with one Learn, but not with Fit or a load.
func (v *Voted) Predict(x []float64) float64 { return predictOne(v.seen().predictor(), x) }

// scoreRow sets dst to the votes on the dense x, as ScoreRows gives
// those of a row. It panics and may run concurrently as Predict.
func (v *Voted) scoreRow(dst, x []float64) { v.seen().predictor().scoreRow(dst, x) }

// ScoreRows returns the votes on the rows of X, as Scorer says: for two
// classes the vote sum_k c_k·sign(w_k·x+b_k), a whole number between
// minus and plus the number of visits, and for more the votes for each
// class. It may run concurrently as Predict.
func (v *Voted) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	return v.seen().predictor().scoreRows(dst, X)
}

// PredictRows returns the classes of the rows of X, as Predict chooses
// them. It may run concurrently as Predict.
func (v *Voted) PredictRows(dst []float64, X mat.Matrix) []float64 {
	return v.seen().predictor().predictRows(dst, X)
}

// Classes returns a copy of the classes, as Scorer says. It may run
// concurrently as Predict.
func (v *Voted) Classes() []float64 {
	if c := v.seen(); c != nil {
		return slices.Clone(c.classes)
	}
	return nil
}

// Stats returns a description of the training of the voted perceptron. It
// may run concurrently as Predict.
func (v *Voted) Stats() Stats {
	if c := v.seen(); c != nil {
		return c.stats.clone()
	}
	return Stats{}
}

func (v *Voted) settings(rnd *rand.Rand) settings {
	return settings{epochs: v.Epochs, rate: v.Rate, rnd: rnd, noBias: v.NoBias, w0: v.InitWeights, onUpdate: v.OnUpdate, stop: v.Stop, weights: v.ClassWeight, source: v.Rand, labels: v.Labels}
}

// copySettings sets the settings of v to those of u.
func (v *Voted) copySettings(u *Voted) {
	v.Epochs, v.Rate, v.Rand, v.NoBias, v.InitWeights, v.Labels, v.ClassWeight, v.OnUpdate, v.Stop = u.Epochs, u.Rate, u.Rand, u.NoBias, u.InitWeights, u.Labels, u.ClassWeight, u.OnUpdate, u.Stop
}

func (v *Voted) width() int {
	if c := v.seen(); c != nil {
		return c.first.dim()
	}
	return 0
}
