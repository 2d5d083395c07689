// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

// The naive references that the tests of Pocket, Averaged and Voted
// compare with: random settings whose arithmetic stays exact on intSet's
// integers, and the perceptron's run written out by plain loops, visit by
// visit.

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/synth"
)

// pavTrial is a random choice of settings for a data set with d columns.
type pavTrial struct {
	epochs int
	rate   float64
	seed   uint64
	random bool // shuffle with a Rand seeded by seed
	bias   bool
	w0     []float64
}

// pavRandomTrial draws settings whose arithmetic stays exact on intSet's
// integers: rates that are powers of two and small whole starting weights.
// The biases start at zero.
func pavRandomTrial(rnd *rand.Rand, d int) pavTrial {
	tr := pavTrial{
		epochs: 1 + rnd.IntN(12),
		rate:   []float64{0, 1, 0.5, 2}[rnd.IntN(4)],
		seed:   rnd.Uint64(),
		random: rnd.IntN(2) == 0,
		bias:   rnd.IntN(4) != 0,
	}
	if rnd.IntN(2) == 0 {
		tr.w0 = make([]float64, d)
		for j := range tr.w0 {
			tr.w0[j] = float64(rnd.IntN(5) - 2)
		}
	}
	return tr
}

// rand returns a fresh Rand in the trial's state, or nil.
func (tr pavTrial) rand() *rand.Rand {
	if !tr.random {
		return nil
	}
	return rand.New(rand.NewPCG(tr.seed, 3))
}

// The trial's settings on each classifier. The labels are -1 and +1 even
// where the few rows of a trial have one.
func (tr pavTrial) pocket(ratchet bool) *Pocket {
	return &Pocket{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias, InitWeights: tr.w0, Labels: binaryLabels, Ratchet: ratchet}
}

func (tr pavTrial) averaged() *Averaged {
	return &Averaged{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias, InitWeights: tr.w0, Labels: binaryLabels}
}

func (tr pavTrial) voted() *Voted {
	return &Voted{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias, InitWeights: tr.w0, Labels: binaryLabels}
}

func (tr pavTrial) perceptron() *Perceptron {
	return &Perceptron{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias, InitWeights: tr.w0, Labels: binaryLabels}
}

// pavVisit is the state of the naive run after one visit.
type pavVisit struct {
	w       []float64
	b       float64
	row     int // the row visited
	mistake bool
}

// pavState is the naive perceptron of two classes: weights, bias, rate,
// and whether the bias moves.
type pavState struct {
	w    []float64
	b    float64
	rate float64
	bias bool
}

// pavStart returns the state that the trial starts from on d columns.
func pavStart(tr pavTrial, d int) *pavState {
	rate := tr.rate
	if rate == 0 {
		rate = 1
	}
	w := make([]float64, d)
	copy(w, tr.w0)
	return &pavState{w: w, rate: rate, bias: tr.bias}
}

// visit visits row i, x with label y, and returns the state after it.
func (s *pavState) visit(i int, x []float64, y float64) pavVisit {
	a := s.b
	for j := range x {
		a += s.w[j] * x[j]
	}
	mistake := y*a <= 0
	if mistake {
		for j := range x {
			s.w[j] += s.rate * y * x[j]
		}
		if s.bias {
			s.b += s.rate * y
		}
	}
	return pavVisit{slices.Clone(s.w), s.b, i, mistake}
}

// pavVisits runs the perceptron by plain loops and returns the weights and
// bias after every visit, and the mistakes of each epoch. If stop is set
// it stops after the first epoch with no mistake, as Perceptron does;
// otherwise it runs every epoch, as the voted and averaged perceptrons of
// Freund and Schapire and of Daumé do.
func pavVisits(X [][]float64, y []float64, tr pavTrial, stop bool) (visits []pavVisit, perEpoch []int) {
	epochs := tr.epochs
	if epochs == 0 {
		epochs = 1000
	}
	rnd := tr.rand()
	s := pavStart(tr, len(X[0]))
	order := make([]int, len(X))
	for i := range order {
		order[i] = i
	}
	for range epochs {
		if rnd != nil {
			rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		m := 0
		for _, i := range order {
			v := s.visit(i, X[i], y[i])
			if v.mistake {
				m++
			}
			visits = append(visits, v)
		}
		perEpoch = append(perEpoch, m)
		if m == 0 && stop {
			break
		}
	}
	return visits, perEpoch
}

// pavErrors returns the number of rows that sign(w·x+b), +1 on zero,
// gets wrong.
func pavErrors(X [][]float64, y []float64, w []float64, b float64) int {
	e := 0
	for i, x := range X {
		a := b
		for j := range x {
			a += w[j] * x[j]
		}
		if sign(a) != y[i] {
			e++
		}
	}
	return e
}

// pavWrong returns the number of rows of X whose class PredictRows gets
// wrong.
func pavWrong(c Scorer, X mat.Matrix, y []float64) int {
	e := 0
	for i, v := range c.PredictRows(nil, X) {
		if v != y[i] {
			e++
		}
	}
	return e
}

// pavRows returns the rows of X as slices.
func pavRows(X *mat.Dense) [][]float64 {
	n, _ := X.Dims()
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = X.RawRowView(i)
	}
	return rows
}

// pavRealSet returns the benchmarks' data, synth.Data(n, d): n rows of d
// features in [0, 1), with one label in twenty flipped so that no line
// separates them.
func pavRealSet(n, d int) (*mat.Dense, []float64) { return synth.Data(n, d) }

// TestPavVisitsMatchPerceptron checks the naive run against Perceptron,
// the plainest classifier of the run: on integers, where every sum is
// exact, the last visit leaves Perceptron's weights and bias to the last
// bit, and the mistakes of each epoch are Perceptron's.
func TestPavVisitsMatchPerceptron(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 22))
	for k := range 200 {
		n, d := 1+rnd.IntN(20), 1+rnd.IntN(4)
		rows, X, y := intSet(rnd, n, d)
		tr := pavRandomTrial(rnd, d)
		visits, perEpoch := pavVisits(rows, y, tr, true)
		p := tr.perceptron()
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		w, b := p.Weights()
		last := visits[len(visits)-1]
		st := p.Stats()
		if !slices.Equal(last.w, w) || last.b != b[0] || !slices.Equal(perEpoch, st.EpochMistakes) || len(visits) != n*len(perEpoch) {
			t.Fatalf("trial %d: the naive run ends at w=%v b=%v %v, Perceptron at w=%v b=%v %v", k, last.w, last.b, perEpoch, w, b, st.EpochMistakes)
		}
	}
}
