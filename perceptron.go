// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Classifier is a binary classifier with labels -1 and +1.
//
// Fit trains the classifier on the rows of X, one sample per row, with
// labels y. It returns an error if the data are not valid; a failed Fit
// leaves the classifier as it was.
//
// Predict returns the predicted label, -1 or +1, of x. It panics if the
// classifier has not been fitted or if x has the wrong length.
type Classifier interface {
	Fit(X mat.Matrix, y []float64) error
	Predict(x []float64) float64
}

// DefaultEpochs is the epoch limit used when a classifier's Epochs field is zero.
// It is the iteration limit of scikit-learn's Perceptron.
const DefaultEpochs = 1000

// Stats describes the training run of the last successful Fit.
type Stats struct {
	// Epochs is the number of passes over the data that Fit made.
	Epochs int

	// Converged reports whether the last epoch made no mistake, so that
	// the last weights of the run separate the training data. Averaged,
	// Voted and Kernel's voted and averaged rules predict with other
	// weights, which need not.
	Converged bool

	// Mistakes is the total number of mistakes, which is the number of
	// updates.
	Mistakes int

	// EpochMistakes holds the number of mistakes in each epoch.
	EpochMistakes []int
}

func (s Stats) clone() Stats {
	s.EpochMistakes = append([]int(nil), s.EpochMistakes...)
	return s
}

// Perceptron is Rosenblatt's perceptron, trained by the mistake-driven
// rule: an example (x, y) with y(w·x+b) <= 0 is a mistake and moves the
// hyperplane by w += Rate·y·x, b += Rate·y.
//
// The zero value is ready to use: it trains with a bias, from zero weights,
// at rate 1, visiting the rows in order, for at most DefaultEpochs epochs.
// The settings are read by Fit and Learn and are never modified by them.
type Perceptron struct {
	// Epochs is the most passes over the data that Fit makes. Zero means
	// DefaultEpochs. Fit stops earlier, at the end of the first epoch with
	// no mistake.
	Epochs int

	// Rate is the learning rate, the size of each update. Zero means 1.
	// From zero initial weights and bias the rate only scales w and b:
	// exactly if it is a power of two, short of underflow, and then
	// changing no prediction. Another rate rounds, and can change the
	// mistakes of the run.
	Rate float64

	// Rand, if not nil, shuffles the order in which Fit visits the rows,
	// afresh at the start of every epoch. If nil, Fit visits the rows in
	// the order given. Fit advances Rand, so a Rand in the same state gives
	// the same model; like any *rand.Rand it must not be used by two Fits
	// at once.
	Rand *rand.Rand

	// NoBias trains a hyperplane through the origin: b stays zero.
	NoBias bool

	// InitWeights, if not nil, are the weights training starts from.
	// Their length must be the number of columns. If nil, training starts
	// from zero weights.
	InitWeights []float64

	// InitBias is the bias training starts from. It must be zero if NoBias
	// is set.
	InitBias float64

	// OnUpdate, if not nil, is called after every update with the epoch
	// (counted from 1), the index in X of the row that was a mistake, and
	// the new weights and bias; Learn passes epoch 0 and index -1. The
	// weights are the classifier's own: the callback must not modify or
	// retain them.
	OnUpdate func(epoch, i int, w []float64, b float64)

	lin   linear
	stats Stats
}

// Fit trains the perceptron on the rows of X with labels y, starting from
// InitWeights and InitBias. It stops at the end of the first epoch with no
// mistake, or after Epochs epochs.
//
// Fit returns an error if X has no rows, if len(y) is not the number of
// rows, if a label is not -1 or +1, if X holds NaN or an infinity, if a
// setting is not valid, or if the weights overflow. A failed Fit leaves
// the perceptron as it was; OnUpdate may have been called for rows visited
// before a bad value was found. Fit does not modify X or y and keeps no
// reference to them; it reads a mat.RawMatrixer such as *mat.Dense in
// place, and copies any other matrix once.
func (p *Perceptron) Fit(X mat.Matrix, y []float64) error {
	ds, err := newDataset(X, y)
	if err != nil {
		return err
	}
	s, err := p.settings().resolve(ds.d)
	if err != nil {
		return err
	}
	lin := s.start(ds.d)
	stats, err := s.run(ds, func(epoch int, order []int) (int, error) {
		return s.pass(&lin, ds, epoch, order, nil)
	})
	if err != nil {
		return err
	}
	if err := lin.checkFinite(); err != nil {
		return err
	}
	p.lin, p.stats = lin, stats
	return nil
}

// Learn trains the perceptron on one example, as one visit of Fit does, and
// reports whether it was a mistake and so caused an update. Learn on a
// perceptron that has not been fitted starts from InitWeights and InitBias,
// or from zero weights of the length of x. Learn leaves Stats as they are.
//
// Learn returns an error, and changes nothing, if y is not -1 or +1, if x
// holds NaN or an infinity, if x has the wrong length, if a setting is not
// valid, if NoBias is set on a perceptron whose bias is not zero, or if the
// update would overflow the weights.
func (p *Perceptron) Learn(x []float64, y float64) (bool, error) {
	d, s := len(x), p.settings()
	if p.lin.fitted() {
		// The initial weights have played their part: do not check them
		// again on every example.
		d, s.w0, s.b0 = p.lin.dim(), nil, 0
	}
	s, err := s.resolve(d)
	if err != nil {
		return false, err
	}
	if s.noBias && p.lin.b != 0 {
		return false, fmt.Errorf("perceptron: NoBias is set, but the bias is %v, want 0", p.lin.b)
	}
	if err := checkExample(x, y, d); err != nil {
		return false, err
	}
	lin := p.lin
	if !lin.fitted() {
		lin = s.start(d)
	}
	if y*lin.score(x) > 0 {
		p.lin = lin
		return false, nil
	}
	if !lin.finiteAfter(x, s.rate*y, !s.noBias) {
		return false, errors.New("perceptron: the update on x would overflow the weights: scale x or lower Rate")
	}
	s.move(&lin, x, y, 0, -1)
	p.lin = lin
	return true, nil
}

// Predict returns the label of x: +1 if w·x+b >= 0, and -1 otherwise
// (also if x holds NaN). It panics if the perceptron has not been fitted or
// if len(x) is not the number of weights. Predict and Score may be called
// concurrently with each other, but not with Fit or Learn.
func (p *Perceptron) Predict(x []float64) float64 {
	return sign(p.lin.checked(x, "Predict").score(x))
}

// Score returns the decision function w·x+b, whose sign is the prediction
// and whose size, divided by the norm of w, is the distance of x from the
// hyperplane. It panics as Predict does.
func (p *Perceptron) Score(x []float64) float64 {
	return p.lin.checked(x, "Score").score(x)
}

// Weights returns a copy of the weights w.
// It returns nil if the perceptron has not been fitted.
func (p *Perceptron) Weights() []float64 {
	return append([]float64(nil), p.lin.w...)
}

// Bias returns the bias b.
func (p *Perceptron) Bias() float64 {
	return p.lin.b
}

// Stats returns a description of the training run of the last successful
// Fit.
func (p *Perceptron) Stats() Stats {
	return p.stats.clone()
}

func (p *Perceptron) settings() settings {
	return settings{
		epochs:   p.Epochs,
		rate:     p.Rate,
		rnd:      p.Rand,
		noBias:   p.NoBias,
		w0:       p.InitWeights,
		b0:       p.InitBias,
		onUpdate: p.OnUpdate,
	}
}

// sign returns +1 for a score of zero, as the notes do.
func sign(a float64) float64 {
	if a >= 0 {
		return 1
	}
	return -1
}

// linear is the hyperplane w·x+b that the linear classifiers train and
// predict with.
type linear struct {
	w []float64
	b float64
}

func (l *linear) fitted() bool { return l.w != nil }
func (l *linear) dim() int     { return len(l.w) }

func (l *linear) score(x []float64) float64 {
	return floats.Dot(l.w, x) + l.b
}

// finiteAfter reports whether moving l by a·x, with the bias if bias is
// set, keeps it finite.
func (l *linear) finiteAfter(x []float64, a float64, bias bool) bool {
	for j, v := range x {
		if math.IsInf(l.w[j]+a*v, 0) {
			return false
		}
	}
	return !bias || !math.IsInf(l.b+a, 0)
}

// checkFinite returns an error if w or b have overflowed, as they can
// when X or Rate are huge.
func (l *linear) checkFinite() error {
	if j := nonFinite(l.w); j >= 0 {
		return fmt.Errorf("perceptron: w[%d] overflowed to %v: scale X or lower Rate", j, l.w[j])
	}
	if !finite(l.b) {
		return fmt.Errorf("perceptron: the bias overflowed to %v: scale X or lower Rate", l.b)
	}
	return nil
}

// checked returns l, panicking in the manner of gonum if l cannot score x.
// method names the caller in the message.
func (l *linear) checked(x []float64, method string) *linear {
	if !l.fitted() {
		panic("perceptron: " + method + " called before Fit")
	}
	if len(x) != len(l.w) {
		panic(fmt.Sprintf("perceptron: x has length %d, want %d", len(x), len(l.w)))
	}
	return l
}

// settings holds the training settings that all classifiers share, as
// given by the caller; resolve checks them and fills in the defaults.
type settings struct {
	epochs   int
	rate     float64
	rnd      *rand.Rand
	noBias   bool
	w0       []float64
	b0       float64
	onUpdate func(epoch, i int, w []float64, b float64)
}

// resolve returns s with its defaults filled in, or an error if a setting
// is not valid for rows of length d.
func (s settings) resolve(d int) (settings, error) {
	switch {
	case s.epochs < 0:
		return s, fmt.Errorf("perceptron: Epochs is %d, want >= 0", s.epochs)
	case s.rate < 0 || !finite(s.rate):
		return s, fmt.Errorf("perceptron: Rate is %v, want a finite value >= 0", s.rate)
	case s.w0 != nil && len(s.w0) != d:
		return s, fmt.Errorf("perceptron: InitWeights has length %d, want %d (the number of columns)", len(s.w0), d)
	case !finite(s.b0):
		return s, fmt.Errorf("perceptron: InitBias is %v, want a finite value", s.b0)
	case s.noBias && s.b0 != 0:
		return s, fmt.Errorf("perceptron: InitBias is %v with NoBias set, want 0", s.b0)
	}
	if j := nonFinite(s.w0); j >= 0 {
		return s, fmt.Errorf("perceptron: InitWeights[%d] is %v, want a finite value", j, s.w0[j])
	}
	if s.epochs == 0 {
		s.epochs = DefaultEpochs
	}
	if s.rate == 0 {
		s.rate = 1
	}
	return s, nil
}

// start returns the hyperplane that training starts from.
func (s *settings) start(d int) linear {
	w := make([]float64, d)
	copy(w, s.w0)
	return linear{w: w, b: s.b0}
}

// pass is one epoch of the perceptron's rule on the rows of ds, visited in
// order, or in index order if order is nil: at each row with
// y(w·x+b) <= 0 it moves l. It returns the number of mistakes. If mistake
// is not nil, pass calls it at each mistake before the update, with the
// row and the number of visits that the run made before this one; the
// weights at a call are those that every visit since the previous call
// used.
//
// pass returns an error, before updating on it, at the first row that
// holds NaN or an infinity. Such a row makes the score NaN or infinite
// whatever l is, so every visit checks its row for the price of a
// comparison, and only a row with such a score is searched.
func (s *settings) pass(l *linear, ds *dataset, epoch int, order []int, mistake func(i, visit int)) (int, error) {
	mistakes := 0
	for p := range ds.n {
		i := p
		if order != nil {
			i = order[p]
		}
		x, y := ds.row(i), ds.y[i]
		a := l.score(x)
		if !finite(a) {
			if err := ds.rowError(i); err != nil {
				return mistakes, err
			}
		}
		if y*a > 0 {
			continue
		}
		if mistake != nil {
			mistake(i, (epoch-1)*ds.n+p)
		}
		s.move(l, x, y, epoch, i)
		mistakes++
	}
	return mistakes, nil
}

// move makes the perceptron's update for a mistake on (x, y), moving l by
// Rate·y·x, and calls OnUpdate.
func (s *settings) move(l *linear, x []float64, y float64, epoch, i int) {
	s.update(l, x, s.rate*y)
	if s.onUpdate != nil {
		s.onUpdate(epoch, i, l.w, l.b)
	}
}

// update moves l by a·x: w += a·x, and b += a unless training through the
// origin.
func (s *settings) update(l *linear, x []float64, a float64) {
	floats.AddScaled(l.w, a, x)
	if !s.noBias {
		l.b += a
	}
}

// run is the epoch loop that all classifiers share. For each epoch it
// calls pass with the order of its visits: nil, for every row of ds in
// index order, or, if s.rnd is set, a fresh random order of the rows. pass
// visits the rows, must not modify order, and returns the number of
// mistakes. run stops after the first epoch with no mistake or after
// s.epochs epochs.
//
// pass must return an error if a row holds NaN or an infinity, at the
// latest on the row's first visit, in epoch 1, and run returns it.
func (s *settings) run(ds *dataset, pass func(epoch int, order []int) (int, error)) (Stats, error) {
	// In index order there is no order to hold: the page faults of n
	// fresh ints cost most of an epoch's time at 100000×100.
	var order []int
	if s.rnd != nil {
		order = make([]int, ds.n)
		for i := range order {
			order[i] = i
		}
	}
	var st Stats
	for st.Epochs < s.epochs {
		st.Epochs++
		if s.rnd != nil {
			s.rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		mistakes, err := pass(st.Epochs, order)
		if err != nil {
			return Stats{}, err
		}
		st.Mistakes += mistakes
		st.EpochMistakes = append(st.EpochMistakes, mistakes)
		if mistakes == 0 {
			st.Converged = true
			break
		}
	}
	return st, nil
}

// dataset is a training set of checked shape and labels; the visits check
// its values. The rows of a mat.RawMatrixer are read in place; any other
// matrix is copied once.
type dataset struct {
	n, d   int
	stride int
	data   []float64
	y      []float64
}

func (ds *dataset) row(i int) []float64 {
	off := i * ds.stride
	return ds.data[off : off+ds.d : off+ds.d]
}

// newDataset checks the shape of X and the labels y and returns them as a
// dataset.
func newDataset(X mat.Matrix, y []float64) (*dataset, error) {
	if d, ok := X.(*mat.Dense); X == nil || ok && d == nil {
		return nil, errors.New("perceptron: X is nil")
	}
	if e, ok := X.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
		return nil, errors.New("perceptron: X has no rows")
	}
	n, d := X.Dims()
	switch {
	case n == 0:
		return nil, errors.New("perceptron: X has no rows")
	case d == 0:
		return nil, errors.New("perceptron: X has no columns")
	case len(y) != n:
		return nil, fmt.Errorf("perceptron: len(y) is %d, want %d (the number of rows of X)", len(y), n)
	}
	if err := checkLabels(y); err != nil {
		return nil, err
	}
	ds := rowsOf(X)
	ds.y = y
	return ds, nil
}

// rowsOf returns the rows of X as a dataset without labels: those of a
// mat.RawMatrixer in place, and those of any other matrix copied once.
func rowsOf(X mat.Matrix) *dataset {
	rm, ok := X.(mat.RawMatrixer)
	if !ok {
		rm = mat.DenseCopyOf(X)
	}
	raw := rm.RawMatrix()
	return &dataset{n: raw.Rows, d: raw.Cols, stride: raw.Stride, data: raw.Data}
}

// checkRows returns an error naming the first NaN or infinity in the rows
// of ds taken in order, or in index order if order is nil, for the
// routines that must trust every row before they read any. The products
// of a row with zeros are all zero unless an element is NaN or infinite,
// so floats.Dot finds a bad row at the speed of its assembly, and the slow
// search runs only on a bad row.
func (ds *dataset) checkRows(order []int) error {
	zeros := make([]float64, ds.d)
	for p := range ds.n {
		i := p
		if order != nil {
			i = order[p]
		}
		if floats.Dot(ds.row(i), zeros) != 0 {
			if err := ds.rowError(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// rowError returns an error naming the first NaN or infinity in row i, or
// nil if the row has none.
func (ds *dataset) rowError(i int) error {
	x := ds.row(i)
	if j := nonFinite(x); j >= 0 {
		return fmt.Errorf("perceptron: X[%d, %d] is %v, want a finite value", i, j, x[j])
	}
	return nil
}

// checkLabels returns an error naming the first label that is not -1 or +1.
func checkLabels(y []float64) error {
	for i, v := range y {
		if v == -1 || v == 1 {
			continue
		}
		if zeroOne(y) {
			return fmt.Errorf("perceptron: y[%d] is %v, want -1 or +1 (the labels look like 0/1: map 0 to -1)", i, v)
		}
		return fmt.Errorf("perceptron: y[%d] is %v, want -1 or +1", i, v)
	}
	return nil
}

func zeroOne(y []float64) bool {
	for _, v := range y {
		if v != 0 && v != 1 {
			return false
		}
	}
	return true
}

// checkExample returns an error if (x, y) is not a valid example of length d.
func checkExample(x []float64, y float64, d int) error {
	if len(x) == 0 {
		return errors.New("perceptron: x is empty")
	}
	if len(x) != d {
		return fmt.Errorf("perceptron: x has length %d, want %d", len(x), d)
	}
	if y != -1 && y != 1 {
		return fmt.Errorf("perceptron: y is %v, want -1 or +1", y)
	}
	if j := nonFinite(x); j >= 0 {
		return fmt.Errorf("perceptron: x[%d] is %v, want a finite value", j, x[j])
	}
	return nil
}

// finite reports whether v is neither NaN nor an infinity.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// nonFinite returns the index of the first NaN or infinity in x, or -1.
func nonFinite(x []float64) int {
	for j, v := range x {
		if !finite(v) {
			return j
		}
	}
	return -1
}

// scratch holds the buffers in which the predictions of Voted and Kernel
// compute one term per voter or support vector, pooled by the base 2 log
// of their capacity, so that concurrent predictions with models of any
// size allocate nothing once the pools are warm.
var scratch [64]sync.Pool

// getScratch returns a buffer of length n from the pools.
func getScratch(n int) *[]float64 {
	c := bits.Len(uint(max(n, 1) - 1))
	if buf, ok := scratch[c].Get().(*[]float64); ok {
		*buf = (*buf)[:n]
		return buf
	}
	buf := make([]float64, n, 1<<c)
	return &buf
}

// putScratch returns a buffer from getScratch to the pools.
func putScratch(buf *[]float64) {
	scratch[bits.Len(uint(cap(*buf)-1))].Put(buf)
}
