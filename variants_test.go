// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/synth"
)

// This file tests what Pocket, Averaged and Voted share with Perceptron:
// the training run, the settings, the errors, the panics, determinism,
// allocations and concurrent prediction. It also holds the naive
// references that their own tests compare with.

// variant is a classifier built on the perceptron's run. Pocket and
// Averaged also have Weights; Voted, which predicts by a vote, has none.
type variant interface {
	Scorer
	Stats() Stats
}

// variantsSnapshot returns what c predicts with, as far as its methods
// show it: the scores of the rows of X, then its weights and biases if it
// has them, or nil if c has not been fitted.
func variantsSnapshot(c variant, X mat.Matrix) []float64 {
	if c.Classes() == nil {
		return nil
	}
	s := c.ScoreRows(nil, X)
	if l, ok := c.(interface{ Weights() (w, b []float64) }); ok {
		w, b := l.Weights()
		s = append(append(s, w...), b...)
	}
	return s
}

// variantKinds make each variant with the settings of a Perceptron.
var variantKinds = []struct {
	name string
	make func(p Perceptron) variant
}{
	{"Pocket", func(p Perceptron) variant {
		return &Pocket{Epochs: p.Epochs, Rate: p.Rate, Rand: p.Rand, NoBias: p.NoBias, InitWeights: p.InitWeights, Labels: p.Labels, ClassWeight: p.ClassWeight, OnUpdate: p.OnUpdate}
	}},
	{"Pocket Ratchet", func(p Perceptron) variant {
		return &Pocket{Epochs: p.Epochs, Rate: p.Rate, Rand: p.Rand, NoBias: p.NoBias, InitWeights: p.InitWeights, Labels: p.Labels, ClassWeight: p.ClassWeight, OnUpdate: p.OnUpdate, Ratchet: true}
	}},
	{"Averaged", func(p Perceptron) variant {
		return &Averaged{Epochs: p.Epochs, Rate: p.Rate, Rand: p.Rand, NoBias: p.NoBias, InitWeights: p.InitWeights, Labels: p.Labels, ClassWeight: p.ClassWeight, OnUpdate: p.OnUpdate}
	}},
	{"Voted", func(p Perceptron) variant {
		return &Voted{Epochs: p.Epochs, Rate: p.Rate, Rand: p.Rand, NoBias: p.NoBias, InitWeights: p.InitWeights, Labels: p.Labels, ClassWeight: p.ClassWeight, OnUpdate: p.OnUpdate}
	}},
}

// trial is a random choice of settings for a data set with d columns.
type trial struct {
	epochs int
	rate   float64
	seed   uint64
	random bool // shuffle with a Rand seeded by seed
	bias   bool
	w0     []float64 // the biases start at zero
}

// randomTrial draws settings whose arithmetic stays exact on randomSet's
// integers: rates that are powers of two and small whole starting weights.
func randomTrial(rnd *rand.Rand, d int) trial {
	tr := trial{
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
func (tr trial) rand() *rand.Rand {
	if !tr.random {
		return nil
	}
	return rand.New(rand.NewPCG(tr.seed, 3))
}

// settings returns the trial's settings as those of a Perceptron.
// The labels are -1 and +1 even where the few rows of a trial have one.
func (tr trial) settings() Perceptron {
	return Perceptron{Epochs: tr.epochs, Rate: tr.rate, Rand: tr.rand(), NoBias: !tr.bias, InitWeights: tr.w0, Labels: binaryLabels}
}

// naiveVisit is the state of the naive run after one visit.
type naiveVisit struct {
	w       []float64
	b       float64
	mistake bool
}

// naiveVisits runs the perceptron as naivePerceptron does and returns the
// weights and bias after every visit, and the mistakes of each epoch. If
// stop is set it stops after the first epoch with no mistake, as
// Perceptron does; otherwise it runs every epoch, as the voted and
// averaged perceptrons of Freund and Schapire and of Daumé do.
func naiveVisits(X [][]float64, y []float64, tr trial, stop bool) (visits []naiveVisit, perEpoch []int) {
	rate := tr.rate
	if rate == 0 {
		rate = 1
	}
	epochs := tr.epochs
	if epochs == 0 {
		epochs = 1000 // as Epochs documents
	}
	rnd := tr.rand()
	d := len(X[0])
	w := make([]float64, d)
	copy(w, tr.w0)
	var b float64
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
			a := b
			for j := range d {
				a += w[j] * X[i][j]
			}
			mistake := y[i]*a <= 0
			if mistake {
				for j := range d {
					w[j] += rate * y[i] * X[i][j]
				}
				if tr.bias {
					b += rate * y[i]
				}
				m++
			}
			visits = append(visits, naiveVisit{slices.Clone(w), b, mistake})
		}
		perEpoch = append(perEpoch, m)
		if m == 0 && stop {
			break
		}
	}
	return visits, perEpoch
}

func TestNaiveVisitsMatchNaivePerceptron(t *testing.T) {
	// The two references agree: the last visit leaves naivePerceptron's
	// weights.
	rnd := rand.New(rand.NewPCG(21, 22))
	for range 100 {
		n, d := 1+rnd.IntN(20), 1+rnd.IntN(4)
		rows, _, y := intSet(rnd, n, d)
		tr := randomTrial(rnd, d)
		visits, perEpoch := naiveVisits(rows, y, tr, true)
		rate := tr.rate
		if rate == 0 {
			rate = 1
		}
		w, b, wantEpochs, _ := naivePerceptron(rows, y, tr.epochs, rate, tr.rand(), tr.bias, tr.w0)
		last := visits[len(visits)-1]
		if !slices.Equal(last.w, w) || last.b != b || !slices.Equal(perEpoch, wantEpochs) || len(visits) != n*len(perEpoch) {
			t.Fatalf("naiveVisits ends at w=%v b=%v %v, naivePerceptron at w=%v b=%v %v", last.w, last.b, perEpoch, w, b, wantEpochs)
		}
	}
}

// TestVariantsRunAsPerceptron checks that every variant trains as
// Perceptron does: the same updates, passed to OnUpdate, and the same
// Stats, on integer and on real data, with every setting.
func TestVariantsRunAsPerceptron(t *testing.T) {
	rnd := rand.New(rand.NewPCG(23, 24))
	for k := range 200 {
		n, d := 1+rnd.IntN(25), 1+rnd.IntN(5)
		_, X, y := intSet(rnd, n, d)
		if k%2 == 1 {
			X, y = synth.Data(n, d)
		}
		tr := randomTrial(rnd, d)
		record := func(trace *[]update) func(Update) {
			return func(u Update) {
				epoch, i, w, b := u.Epoch, u.Row, u.Weights, u.Biases[0]
				*trace = append(*trace, update{epoch, i, slices.Clone(w), b})
			}
		}
		var want []update
		p := tr.settings()
		p.OnUpdate = record(&want)
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		for _, kind := range variantKinds {
			var got []update
			s := tr.settings()
			s.OnUpdate = record(&got)
			c := kind.make(s)
			if err := c.Fit(X, y); err != nil {
				t.Fatalf("trial %d, %s: %v", k, kind.name, err)
			}
			if !slices.EqualFunc(got, want, func(a, b update) bool {
				return a.epoch == b.epoch && a.i == b.i && slices.Equal(a.w, b.w) && a.b == b.b
			}) {
				t.Fatalf("trial %d, %s: OnUpdate saw %v, Perceptron's %v", k, kind.name, got, want)
			}
			st, pst := c.Stats(), p.Stats()
			if st.Epochs != pst.Epochs || st.Converged != pst.Converged || st.Mistakes != pst.Mistakes || !slices.Equal(st.EpochMistakes, pst.EpochMistakes) {
				t.Fatalf("trial %d, %s: stats %+v, Perceptron's %+v", k, kind.name, st, pst)
			}
		}
	}
}

func TestVariantsFitErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	X := func(v ...float64) *mat.Dense { return mat.NewDense(len(v)/2, 2, v) }
	good, goodY := X(0, 0, 1, 1, 0, 1, 1, 0), []float64{1, 1, -1, -1}
	for _, tc := range []struct {
		name string
		p    Perceptron
		X    mat.Matrix
		y    []float64
	}{
		{"nil X", Perceptron{}, nil, nil},
		{"empty X", Perceptron{}, &mat.Dense{}, nil},
		{"no columns", Perceptron{}, matrixOnly{mat.NewDense(2, 1, nil).Slice(0, 2, 0, 0)}, []float64{1, 1}},
		{"short y", Perceptron{}, X(1, 2, 3, 4), []float64{1}},
		{"single class", Perceptron{}, X(1, 2, 3, 4), []float64{2, 2}},
		{"label not in Labels", Perceptron{Labels: []float64{1, 2}}, X(1, 2, 3, 4, 5, 6), []float64{1, 0, 1}},
		{"NaN label", Perceptron{}, X(1, 2, 3, 4), []float64{math.NaN(), 1}},
		{"NaN in X", Perceptron{}, X(1, 2, 3, nan), []float64{1, -1}},
		{"NaN in X after updates", Perceptron{}, X(0, 0, 1, 1, 0, 1, 1, nan), goodY},
		{"-Inf in X, shuffled", Perceptron{Rand: rand.New(rand.NewPCG(1, 1))}, X(1, 2, -inf, 4), []float64{1, -1}},
		{"NaN in X, 3 classes", Perceptron{}, X(1, 2, 3, 4, 5, nan), []float64{1, 2, 3}},
		{"negative epochs", Perceptron{Epochs: -1}, X(1, 2, 3, 4), []float64{1, -1}},
		{"NaN rate", Perceptron{Rate: nan}, X(1, 2, 3, 4), []float64{1, -1}},
		{"infinite rate", Perceptron{Rate: inf}, X(1, 2, 3, 4), []float64{1, -1}},
		{"short InitWeights", Perceptron{InitWeights: []float64{1}}, X(1, 2, 3, 4), []float64{1, -1}},
		{"NaN InitWeights", Perceptron{InitWeights: []float64{0, nan}}, X(1, 2, 3, 4), []float64{1, -1}},
		{"InitWeights for 2 classes, 3 classes", Perceptron{InitWeights: []float64{0, 1}}, X(1, 2, 3, 4, 5, 6), []float64{1, 2, 3}},
		{"overflow", Perceptron{Epochs: 5, Rate: 1e308}, X(10, 0, -10, 0), []float64{-1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The same input gives the same error as Perceptron's.
			p := tc.p
			if tc.p.Rand != nil {
				p.Rand = rand.New(rand.NewPCG(1, 1))
			}
			perr := p.Fit(tc.X, tc.y)
			if perr == nil {
				t.Fatal("Perceptron's Fit succeeded")
			}
			for _, kind := range variantKinds {
				s := tc.p
				if tc.p.Rand != nil {
					s.Rand = rand.New(rand.NewPCG(1, 1))
				}
				c := kind.make(Perceptron{})
				if err := c.Fit(good, goodY); err != nil {
					t.Fatal(err)
				}
				probe := mat.NewDense(2, 2, []float64{0.5, 2, -1, 0.25})
				snap, st := variantsSnapshot(c, probe), c.Stats()
				c = kind.make(s)
				if err := c.Fit(tc.X, tc.y); err == nil || err.Error() != perr.Error() {
					t.Fatalf("%s: error %v, Perceptron's %q", kind.name, err, perr)
				}
				if c.Classes() != nil {
					t.Fatalf("%s: failed Fit left a model", kind.name)
				}
				// A failed Fit leaves a fitted model as it was.
				c = kind.make(Perceptron{})
				if err := c.Fit(good, goodY); err != nil {
					t.Fatal(err)
				}
				set(c, s)
				if err := c.Fit(tc.X, tc.y); err == nil {
					t.Fatalf("%s: refit succeeded", kind.name)
				}
				if !sameBits(variantsSnapshot(c, probe), snap) || !slices.Equal(c.Stats().EpochMistakes, st.EpochMistakes) || c.Stats().Mistakes != st.Mistakes {
					t.Fatalf("%s: failed Fit changed the model", kind.name)
				}
			}
		})
	}
}

// set gives c the settings of p.
func set(c variant, p Perceptron) {
	switch c := c.(type) {
	case *Pocket:
		c.Epochs, c.Rate, c.Rand, c.NoBias, c.InitWeights, c.Labels, c.OnUpdate = p.Epochs, p.Rate, p.Rand, p.NoBias, p.InitWeights, p.Labels, p.OnUpdate
	case *Averaged:
		c.Epochs, c.Rate, c.Rand, c.NoBias, c.InitWeights, c.Labels, c.OnUpdate = p.Epochs, p.Rate, p.Rand, p.NoBias, p.InitWeights, p.Labels, p.OnUpdate
	case *Voted:
		c.Epochs, c.Rate, c.Rand, c.NoBias, c.InitWeights, c.Labels, c.OnUpdate = p.Epochs, p.Rate, p.Rand, p.NoBias, p.InitWeights, p.Labels, p.OnUpdate
	default:
		panic(fmt.Sprintf("set: unknown variant %T", c))
	}
}

// predictions returns the predictions of c on the rows of X.
func predictions(c Classifier, X *mat.Dense) []float64 {
	n, _ := X.Dims()
	out := make([]float64, n)
	for i := range out {
		out[i] = c.Predict(X.RawRowView(i))
	}
	return out
}

func TestVariantsFitKeepsInputs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(25, 26))
	_, X, y := intSet(rnd, 40, 5)
	Xc, yc := mat.DenseCopyOf(X), slices.Clone(y)
	w0 := []float64{1, 2, 3, 4, 5}
	w0c := slices.Clone(w0)
	for _, kind := range variantKinds {
		c := kind.make(Perceptron{Epochs: 5, InitWeights: w0, Rand: rand.New(rand.NewPCG(1, 2))})
		if err := c.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(X, Xc) || !slices.Equal(y, yc) || !slices.Equal(w0, w0c) {
			t.Fatalf("%s: Fit modified its inputs", kind.name)
		}
		if s := c.(interface{ settings(*rand.Rand) settings }).settings(nil); s.epochs != 5 || s.rate != 0 || s.noBias || !slices.Equal(s.w0, w0c) {
			t.Fatalf("%s: Fit wrote back settings: %+v", kind.name, s)
		}
		// The model keeps no reference to X or InitWeights.
		snap := variantsSnapshot(c, Xc)
		X.Zero()
		w0[0] = 100
		if !sameBits(variantsSnapshot(c, Xc), snap) {
			t.Fatalf("%s: the model changed with X or InitWeights", kind.name)
		}
		X.Copy(Xc)
		copy(w0, w0c)
	}
}

func TestVariantsMatrixKinds(t *testing.T) {
	rnd := rand.New(rand.NewPCG(27, 28))
	_, big, y := intSet(rnd, 30, 8)
	view := big.Slice(0, 30, 2, 7).(*mat.Dense)
	dense := mat.DenseCopyOf(view)
	// NaN outside the view must not be seen.
	for i := range 30 {
		big.Set(i, 0, math.NaN())
		big.Set(i, 7, math.Inf(1))
	}
	for _, kind := range variantKinds {
		want := kind.make(Perceptron{Epochs: 10})
		if err := want.Fit(dense, y); err != nil {
			t.Fatal(err)
		}
		for name, X := range map[string]mat.Matrix{
			"strided view": view,
			"not raw":      matrixOnly{view},
			"transposed":   mat.DenseCopyOf(view.T()).T(),
		} {
			c := kind.make(Perceptron{Epochs: 10})
			if err := c.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			if got, w := variantsSnapshot(c, dense), variantsSnapshot(want, dense); !sameBits(got, w) {
				t.Fatalf("%s, %s: scores and weights %v, want %v", kind.name, name, got, w)
			}
		}
	}
}

func TestVariantsDeterminism(t *testing.T) {
	X, y := synth.Data(300, 20)
	for _, kind := range variantKinds {
		fit := func() variant {
			c := kind.make(Perceptron{Epochs: 20, Rate: 0.1, Rand: rand.New(rand.NewPCG(42, 0))})
			if err := c.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			return c
		}
		a, b := fit(), fit()
		if !sameBits(variantsSnapshot(a, X), variantsSnapshot(b, X)) || !slices.Equal(predictions(a, X), predictions(b, X)) {
			t.Fatalf("%s: same data, settings and seed gave different models", kind.name)
		}
		// Refitting a model gives the same model again.
		snap := variantsSnapshot(a, X)
		set(a, Perceptron{Epochs: 20, Rate: 0.1, Rand: rand.New(rand.NewPCG(42, 0))})
		if err := a.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if !sameBits(variantsSnapshot(a, X), snap) || !slices.Equal(predictions(a, X), predictions(b, X)) {
			t.Fatalf("%s: refitting gave a different model", kind.name)
		}
	}
}

func TestVariantsPredictPanics(t *testing.T) {
	for _, kind := range variantKinds {
		c := kind.make(Perceptron{})
		mustPanic(t, kind.name+" Predict before Fit", "perceptron: Predict called before Fit", func() { c.Predict([]float64{1}) })
		mustPanic(t, kind.name+" ScoreRows before Fit", "perceptron: ScoreRows called before Fit", func() { rowScores(c, []float64{1}) })
		mustPanic(t, kind.name+" PredictRows before Fit", "perceptron: PredictRows called before Fit", func() { c.PredictRows(nil, mat.NewDense(1, 1, nil)) })
		if err := c.Fit(mat.NewDense(2, 2, []float64{1, 0, 0, 1}), []float64{1, -1}); err != nil {
			t.Fatal(err)
		}
		mustPanic(t, kind.name+" short x", "perceptron: x has length 1, want 2", func() { c.Predict([]float64{1}) })
		mustPanic(t, kind.name+" long x", "perceptron: x has length 3, want 2", func() { c.Predict([]float64{1, 2, 3}) })
		mustPanic(t, kind.name+" wide X", "perceptron: X has 3 columns, want 2", func() { rowScores(c, []float64{1, 2, 3}) })
		mustPanic(t, kind.name+" short dst", "perceptron: dst has length 3, want 2", func() { c.PredictRows(make([]float64, 3), mat.NewDense(2, 2, nil)) })
	}
}

func TestVariantsConcurrentPredict(t *testing.T) {
	X, y := synth.Data(200, 10)
	for _, kind := range variantKinds {
		c := kind.make(Perceptron{Epochs: 5})
		if err := c.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		want := predictions(c, X)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for i := range want {
					if got := c.Predict(X.RawRowView(i)); got != want[i] {
						t.Errorf("%s, row %d: concurrent Predict %v, want %v", kind.name, i, got, want[i])
					}
				}
			})
		}
		wg.Wait()
	}
}

func TestVariantsAllocs(t *testing.T) {
	// On one goroutine: Pocket's counting hands its candidates to the
	// workers of a pool, which block and wake more often on more rows,
	// and the runtime may allocate for that, which is not the algorithm
	// allocating per example.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, kind := range variantKinds {
		fitAllocs := func(n int) (allocs float64, mistakes int) {
			X, y := synth.Data(n, 10)
			allocs = testing.AllocsPerRun(5, func() {
				c := kind.make(Perceptron{Epochs: 5, Rand: rand.New(rand.NewPCG(1, 1))})
				if err := c.Fit(X, y); err != nil {
					t.Fatal(err)
				}
				if c.Stats().Epochs != 5 {
					t.Fatal("data separable: the epochs differ")
				}
				mistakes = c.Stats().Mistakes
			})
			return allocs, mistakes
		}
		small, ms := fitAllocs(50)
		large, ml := fitAllocs(2000)
		if kind.name == "Voted" {
			// Voted appends each mistake to a list, which append grows by
			// a factor of at least 1.25 at each allocation.
			if limit := small + 1 + math.Log(float64(ml)/float64(ms))/math.Log(1.25); large > limit {
				t.Errorf("%s: Fit allocates %v times for %d mistakes on 50 rows and %v for %d on 2000, want at most %.1f", kind.name, small, ms, large, ml, limit)
			}
		} else if small != large {
			t.Errorf("%s: Fit allocates %v times on 50 rows and %v on 2000: it allocates per example", kind.name, small, large)
		}
		X, y := synth.Data(100, 10)
		c := kind.make(Perceptron{Epochs: 5})
		if err := c.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		x := X.RawRowView(3)
		if raceEnabled {
			continue
		}
		if a := testing.AllocsPerRun(100, func() { c.Predict(x) }); a != 0 {
			t.Errorf("%s: Predict allocates %v times", kind.name, a)
		}
		// ScoreRows and PredictRows of a few rows into dst allocate for
		// the call, not per row: as often for one row as for a hundred.
		rowsAllocs := func(n int) (scores, classes float64) {
			rows := X.Slice(0, n, 0, 10)
			dst := make([]float64, n)
			scores = testing.AllocsPerRun(100, func() { c.ScoreRows(dst, rows) })
			classes = testing.AllocsPerRun(100, func() { c.PredictRows(dst, rows) })
			return scores, classes
		}
		s1, p1 := rowsAllocs(1)
		s100, p100 := rowsAllocs(100)
		if s1 != s100 || p1 != p100 {
			t.Errorf("%s: ScoreRows allocates %v times on 1 row and %v on 100, PredictRows %v and %v: they allocate per row", kind.name, s1, s100, p1, p100)
		}
	}
}

func TestVariantsSeparable(t *testing.T) {
	// On separable data every variant stops at the first epoch without a
	// mistake, as Perceptron does; the pocket then misclassifies nothing.
	rnd := rand.New(rand.NewPCG(29, 30))
	for k := range 100 {
		n, d := 2+rnd.IntN(60), 1+rnd.IntN(8)
		X, y, _, _ := marginSet(rnd, n, d, 0.05, true)
		for _, kind := range variantKinds {
			c := kind.make(Perceptron{Epochs: 100000, Rand: rand.New(rand.NewPCG(uint64(k), 0))})
			if err := c.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			if !c.Stats().Converged {
				t.Fatalf("trial %d, %s: did not converge on separable data", k, kind.name)
			}
			if p, ok := c.(*Pocket); ok {
				if got := p.PredictRows(nil, X); !slices.Equal(got, y) || !slices.Equal(predictions(p, X), y) {
					t.Fatalf("trial %d, %s: converged but predicts %v, want %v", k, kind.name, got, y)
				}
			}
		}
	}
}

// FuzzVariantsFit checks that every variant accepts the data sets that
// Perceptron accepts, fails on the others with Perceptron's error, never
// panics, and that a pocket's predictions are those of Predict, and, for
// the exact pocket, the best of the run's: no more training rows wrong
// than the perceptron's last weights or the zero weights get.
func FuzzVariantsFit(f *testing.F) {
	f.Add(uint8(2), []byte{0, 0, 0, 1, 1, 0, 1, 1}, []byte{0, 0, 0, 1}, uint8(3))
	f.Add(uint8(1), []byte{255, 3}, []byte{2, 1}, uint8(1))
	f.Add(uint8(3), []byte{254, 1, 2, 253, 4, 5}, []byte{1, 0}, uint8(0))
	f.Add(uint8(1), []byte{130, 127, 129, 126, 131}, []byte{1, 1, 0, 0, 0}, uint8(9))
	f.Fuzz(func(t *testing.T, d uint8, xs, ys []byte, seed uint8) {
		data, y, _, ok := fuzzSet(d, xs, ys)
		if !ok {
			return
		}
		n := len(data) / int(d)
		X := mat.NewDense(n, int(d), data)
		rnd := func() *rand.Rand {
			if seed%2 == 0 {
				return nil
			}
			return rand.New(rand.NewPCG(uint64(seed), 0))
		}
		p := &Perceptron{Epochs: 1 + int(seed%5), Rand: rnd()}
		perr := p.Fit(X, y)
		for _, kind := range variantKinds {
			c := kind.make(Perceptron{Epochs: 1 + int(seed%5), Rand: rnd()})
			err := c.Fit(X, y)
			if (err == nil) != (perr == nil) || err != nil && err.Error() != perr.Error() {
				t.Fatalf("%s: error %v, Perceptron's %v", kind.name, err, perr)
			}
			if err != nil {
				continue
			}
			if pk, ok := c.(*Pocket); ok {
				wrong := func(pred []float64) int {
					e := 0
					for i := range pred {
						if pred[i] != y[i] {
							e++
						}
					}
					return e
				}
				got := pk.PredictRows(nil, X)
				if !slices.Equal(got, predictions(pk, X)) {
					t.Fatalf("%s: PredictRows %v, Predict %v", kind.name, got, predictions(pk, X))
				}
				if pk.Ratchet {
					continue
				}
				// Zero weights score 0 for every class: the second of two
				// classes, the first of more.
				classes := pk.Classes()
				zero := classes[0]
				if len(classes) == 2 {
					zero = classes[1]
				}
				zeroWrong := 0
				for _, v := range y {
					if v != zero {
						zeroWrong++
					}
				}
				if e, last := wrong(got), wrong(p.PredictRows(nil, X)); e > last || e > zeroWrong {
					t.Fatalf("%s: %d rows wrong, the perceptron's last weights %d, zero weights %d", kind.name, e, last, zeroWrong)
				}
			}
		}
	})
}

// TestBadValueFirstVisit puts NaN and infinities in random cells of random
// sets and checks that every classifier names the first bad cell in the
// order of the first epoch's visits, before any update uses its row.
func TestBadValueFirstVisit(t *testing.T) {
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	for seed := range uint64(200) {
		rnd := rand.New(rand.NewPCG(seed, 77))
		n, d := 2+rnd.IntN(40), 1+rnd.IntN(6)
		_, X, y := intSet(rnd, n, d)
		for range 1 + rnd.IntN(3) {
			X.Set(rnd.IntN(n), rnd.IntN(d), bad[rnd.IntN(len(bad))])
		}
		shuffle := seed%2 == 1
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		if shuffle {
			r := rand.New(rand.NewPCG(seed, 1))
			r.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		var want string
		for _, i := range order {
			if j := nonFinite(X.RawRowView(i)); j >= 0 {
				want = fmt.Sprintf("perceptron: X[%d, %d] is %v, want a finite value", i, j, X.At(i, j))
				break
			}
		}
		newRand := func() *rand.Rand {
			if shuffle {
				return rand.New(rand.NewPCG(seed, 1))
			}
			return nil
		}
		check := func(name string, err error) {
			t.Helper()
			if err == nil || err.Error() != want {
				t.Errorf("seed %d, %s: Fit returned %v, want %q", seed, name, err, want)
			}
		}
		finite := func(name string) func(Update) {
			return func(u Update) {
				i, w, b := u.Row, u.Weights, u.Biases[0]
				if j := nonFinite(append(slices.Clone(w), b)); j >= 0 {
					t.Errorf("seed %d, %s: OnUpdate saw w or b not finite after row %d", seed, name, i)
				}
			}
		}
		p := Perceptron{Epochs: 3, Rand: newRand(), Labels: binaryLabels, OnUpdate: finite("Perceptron")}
		check("Perceptron", p.Fit(X, y))
		for _, kind := range variantKinds {
			c := kind.make(Perceptron{Epochs: 3, Rand: newRand(), Labels: binaryLabels, OnUpdate: finite(kind.name)})
			check(kind.name, c.Fit(X, y))
		}
		for _, f := range []KernelFunc{nil, Poly{}, RBF{}} {
			k := Kernel{Func: f, Epochs: 3, Rand: newRand(), Labels: binaryLabels, OnUpdate: func(u Update) {
				i := u.Row
				if nonFinite(X.RawRowView(i)) >= 0 {
					t.Errorf("seed %d, Kernel %T: OnUpdate after a mistake on bad row %d", seed, f, i)
				}
			}}
			check(fmt.Sprintf("Kernel %T", f), k.Fit(X, y))
		}
	}
}

// TestZeroValuesAND fits the zero value of every classifier on the AND
// gate, which a line separates: each must then classify all four rows,
// Voted and Averaged with the published algorithms' full epochs, whose
// last weights outvote the earlier ones, and Kernel under each rule.
func TestZeroValuesAND(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1})
	y := []float64{-1, -1, -1, 1}
	cs := map[string]Classifier{
		"Perceptron":     &Perceptron{},
		"Pocket":         &Pocket{},
		"Pocket Ratchet": &Pocket{Ratchet: true},
		"Averaged":       &Averaged{},
		"Voted":          &Voted{},
	}
	for _, p := range []Prediction{PredictLast, PredictVoted, PredictAveraged} {
		cs["Kernel "+predictionNames[p]] = &Kernel{Prediction: p}
	}
	for name, c := range cs {
		if err := c.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		for i := range y {
			if got := c.Predict(X.RawRowView(i)); got != y[i] {
				t.Errorf("%s: Predict(%v) = %v, want %v", name, X.RawRowView(i), got, y[i])
			}
		}
	}
}
