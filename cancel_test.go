// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// cancelLatency is the most work, in the CPU time of the process
// (workTime), from the cancellation of a call's context to its return
// that the package allows: the time of a few polls on the machine of a
// user, without the time that a loaded machine gives to other processes.
const cancelLatency = 100 * time.Millisecond

// cancelData are the sets of the cancellation tests, each large enough
// that the calls on it run for seconds, many times cancelLatency, so that
// a call that did not poll its context within its long loops would fail:
// wide, rows of many classes, where an epoch of a weight table scores
// every class of every row, and one of two classes, where the pocket's
// counts and the ratchet's read many rows; ball, rows inside and outside
// a ball, half of which the kernel keeps as support vectors; and margin,
// rows of a small margin, whose solution has a large corral.
type cancelData struct {
	wide       *mat.Dense
	wideY      []float64 // of cancelClasses classes
	manyY      []float64 // of learnClasses classes, whose scores make one pass long
	wideSigns  []float64 // -1 and +1
	ball       *mat.Dense
	ballY      []float64
	margin     *mat.Dense
	marginY    []float64
	shards     []mat.Matrix
	shardLabel [][]float64
}

const (
	cancelClasses = 200
	learnClasses  = 2000
)

func newCancelData() *cancelData {
	rnd := rand.New(rand.NewPCG(0xca, 0x9ce1))
	// The race detector slows the calls several times over: a quarter of
	// the rows keeps them long, and the tests quick.
	n, d := 40000, 100
	if raceEnabled {
		n /= 4
	}
	cd := &cancelData{wide: mat.NewDense(n, d, nil), wideY: make([]float64, n), manyY: make([]float64, n), wideSigns: make([]float64, n)}
	raw := cd.wide.RawMatrix().Data
	for i := range raw {
		raw[i] = rnd.NormFloat64()
	}
	for i := range n {
		cd.wideY[i] = float64(rnd.IntN(cancelClasses))
		cd.manyY[i] = float64(rnd.IntN(learnClasses))
		cd.wideSigns[i] = float64(2*rnd.IntN(2) - 1)
	}
	for k := range 4 {
		lo, hi := k*n/4, (k+1)*n/4
		cd.shards = append(cd.shards, cd.wide.Slice(lo, hi, 0, d))
		cd.shardLabel = append(cd.shardLabel, cd.wideY[lo:hi])
	}
	cd.ball, cd.ballY = ballSet(rnd, n/2, 20)
	cd.margin, cd.marginY, _, _ = marginSet(rnd, n/2, 200, 1e-3, true)
	return cd
}

// small returns the first rows of X and y, to fit a model on that the
// cancelled call must leave as it is.
func small(X *mat.Dense, y []float64) (*mat.Dense, []float64) {
	_, d := X.Dims()
	return X.Slice(0, 200, 0, d).(*mat.Dense), y[:200]
}

// setOnUpdate sets the OnUpdate of c, or of the classifiers that c has
// and makes.
func setOnUpdate(c Classifier, f func(Update)) {
	switch c := c.(type) {
	case *Perceptron:
		c.OnUpdate = f
	case *Pocket:
		c.OnUpdate = f
	case *Averaged:
		c.OnUpdate = f
	case *Voted:
		c.OnUpdate = f
	case *Kernel:
		c.OnUpdate = f
	case *OneVsRest:
		for _, m := range c.Models() {
			setOnUpdate(m, f)
		}
		inner := c.New
		c.New = func() Scorer {
			m := inner()
			setOnUpdate(m, f)
			return m
		}
	default:
		panic(fmt.Sprintf("setOnUpdate of a %T", c))
	}
}

// cancelCase is a long call that a context stops. call runs it with ctx,
// and calls began once it is deep in its work, where the test waits
// before it cancels; state returns what the call must leave as it was.
type cancelCase struct {
	name  string
	call  func(ctx context.Context, began func()) error
	state func() []byte
}

// cancelCases returns the long calls of the package on cd: the Fit of
// every type, Learn, FitShards, DatasetMargin and NovikoffBound. Each
// model is fitted first on a few rows, so that the call has a model to
// leave as it was.
func cancelCases(t *testing.T, cd *cancelData) []cancelCase {
	var cases []cancelCase
	fit := func(name string, c Classifier, X *mat.Dense, y []float64) {
		sx, sy := small(X, y)
		if err := c.Fit(sx, sy); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cases = append(cases, cancelCase{
			name: "FitContext of " + name,
			call: func(ctx context.Context, began func()) error {
				setOnUpdate(c, func(Update) { began() })
				return FitContext(ctx, c, X, y)
			},
			state: func() []byte { return mustJSON(t, c) },
		})
	}
	fit("Perceptron", &Perceptron{}, cd.wide, cd.wideY)
	fit("Pocket", &Pocket{}, cd.ball, cd.ballY)
	fit("Pocket with Ratchet", &Pocket{Ratchet: true}, cd.wide, cd.wideSigns)
	fit("Averaged", &Averaged{}, cd.wide, cd.wideY)
	fit("Voted", &Voted{}, cd.wide, cd.wideY)
	fit("Kernel", &Kernel{Func: RBF{}}, cd.ball, cd.ballY)
	fit("OneVsRest", &OneVsRest{New: func() Scorer { return &Perceptron{} }}, cd.wide, cd.wideY)

	learn := func(name string, c online, X *mat.Dense, y []float64) {
		sx, sy := small(X, y)
		if err := c.Learn(sx, sy); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cases = append(cases, cancelCase{
			name: "LearnContext of " + name,
			call: func(ctx context.Context, began func()) error {
				setOnUpdate(c, func(Update) { began() })
				return LearnContext(ctx, c, X, y)
			},
			state: func() []byte { return mustJSON(t, c) },
		})
	}
	labels := make([]float64, learnClasses)
	for k := range labels {
		labels[k] = float64(k)
	}
	learn("Perceptron", &Perceptron{Labels: labels}, cd.wide, cd.manyY)
	learn("Averaged", &Averaged{Labels: labels}, cd.wide, cd.manyY)
	learn("Voted", &Voted{Labels: labels}, cd.wide, cd.manyY)
	learn("Kernel", &Kernel{Func: RBF{}, Budget: 5000, Labels: binaryLabels}, cd.ball, cd.ballY)
	learn("OneVsRest", &OneVsRest{Labels: labels[:cancelClasses], New: func() Scorer { return &Perceptron{} }}, cd.wide, cd.wideY)

	p := &Perceptron{Labels: labels[:cancelClasses]}
	if err := FitShards(p, []mat.Matrix{cd.shards[0].(*mat.Dense).Slice(0, 200, 0, 100)}, [][]float64{cd.shardLabel[0][:200]}, false); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, cancelCase{
		name: "FitShardsContext",
		call: func(ctx context.Context, began func()) error {
			p.OnUpdate = nil // LearnShard calls none
			began()
			return FitShardsContext(ctx, p, cd.shards, cd.shardLabel, false)
		},
		state: func() []byte { return mustJSON(t, p) },
	})

	var mm MaxMargin
	var mb MistakeBound
	cases = append(cases, cancelCase{
		name: "DatasetMarginContext",
		call: func(ctx context.Context, began func()) error {
			began()
			var err error
			mm, err = DatasetMarginContext(ctx, cd.margin, cd.marginY, nil)
			return err
		},
		state: func() []byte { return []byte(fmt.Sprint(mm)) },
	}, cancelCase{
		name: "NovikoffBoundContext",
		call: func(ctx context.Context, began func()) error {
			began()
			var err error
			mb, err = NovikoffBoundContext(ctx, cd.margin, cd.marginY, nil)
			return err
		},
		state: func() []byte { return []byte(fmt.Sprint(mb)) },
	})
	return cases
}

// TestCancel cancels each long call of the package from another goroutine
// once the call is deep in its work: the call must return within
// cancelLatency of work after the cancellation, with an error that wraps
// context.Canceled, leave its model as it was, saved to the same bytes,
// and leave no goroutine behind.
func TestCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("the long calls take a few seconds to set up")
	}
	cd := newCancelData()
	for _, c := range cancelCases(t, cd) {
		before := c.state()
		goroutines := runtime.NumGoroutine()
		took, err := cancelled(t, c)
		switch {
		case err == nil:
			continue // reported
		case !errors.Is(err, context.Canceled):
			t.Errorf("%s: error %v, want one that wraps context.Canceled", c.name, err)
		case err.Error() != "perceptron: stopped: context canceled":
			// Neither the class of OneVsRest nor the shard of FitShards:
			// all stop alike.
			t.Errorf("%s: error %q, want the package's", c.name, err)
		}
		t.Logf("%s returned %v of work after the cancellation", c.name, took)
		if took >= cancelLatency {
			t.Errorf("%s returned %v of work after the cancellation, want less than %v", c.name, took, cancelLatency)
		}
		if after := c.state(); !bytes.Equal(after, before) {
			t.Errorf("%s changed what it must leave as it was", c.name)
		}
		checkGoroutines(t, goroutines, c.name)
	}
}

// cancelled runs c, cancels its context from this goroutine once c is deep
// in its work, and returns the work (workTime) from the cancellation to
// c's return, and c's error. It fails t, and returns a nil error, if c
// returns before the cancellation.
func cancelled(t *testing.T, c cancelCase) (time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	began := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- c.call(ctx, func() { once.Do(func() { close(began) }) }) }()
	select {
	case <-began:
	case err := <-done:
		t.Errorf("%s returned before it began its work: %v", c.name, err)
		return 0, nil
	}
	// Well into the long loops, past the passes that set them up: after
	// cancelLatency of work, however long a loaded machine makes it.
	for began := workTime(); workTime()-began < cancelLatency; {
		select {
		case err := <-done:
			t.Errorf("%s returned before the cancellation: %v", c.name, err)
			return 0, nil
		case <-time.After(time.Millisecond):
		}
	}
	start := workTime()
	cancel()
	err := <-done
	return workTime() - start, err
}

// cancelModels returns a classifier of every type, and of the pocket's
// and the kernel's variants, of the given Epochs, for the small tests of
// the Context forms: they shuffle, so that a stop falls at any row, and a
// kernel keeps a Budget, so that Learn draws from its own source.
func cancelModels(epochs int) []Classifier {
	r := func() *rand.Rand { return rand.New(rand.NewPCG(7, 7)) }
	return []Classifier{
		&Perceptron{Epochs: epochs, Rand: r()},
		&Pocket{Epochs: epochs, Rand: r()},
		&Pocket{Epochs: epochs, Rand: r(), Ratchet: true},
		&Averaged{Epochs: epochs, Rand: r()},
		&Voted{Epochs: epochs, Rand: r()},
		&Kernel{Epochs: epochs, Func: RBF{}, Rand: r()},
		&Kernel{Epochs: epochs, Func: Poly{Degree: 2}, Budget: 40, Prediction: PredictAveraged},
		&OneVsRest{New: func() Scorer { return &Averaged{Epochs: epochs, Rand: r()} }},
	}
}

// TestContextNeverDone checks that the Context forms with a context that
// is never done, or one that could be but is not, give the models and
// results of the plain calls, to the bit.
func TestContextNeverDone(t *testing.T) {
	rnd := rand.New(rand.NewPCG(0xc0, 0x7e))
	data := learnDraw(rnd, 300, 4, 3, false, false)
	binary := learnDraw(rnd, 300, 4, 2, false, false)
	ctxs := map[string]func() (context.Context, context.CancelFunc){
		"Background": func() (context.Context, context.CancelFunc) { return context.Background(), func() {} },
		"WithCancel": func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
	}
	for name, newCtx := range ctxs {
		ctx, cancel := newCtx()
		for k := range cancelModels(0) {
			for _, set := range []learnData{data, binary} {
				c, plain := cancelModels(10)[k], cancelModels(10)[k]
				if err := plain.Fit(set.X, set.y); err != nil {
					t.Fatal(err)
				}
				if err := FitContext(ctx, c, set.X, set.y); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(mustJSON(t, c), mustJSON(t, plain)) {
					t.Errorf("%s: FitContext of a %T gives another model than Fit", name, c)
				}
				l, ok := plain.(online)
				if !ok {
					continue
				}
				// Learn twice more: Kernel's draws go on from its source.
				for range 2 {
					if err := l.Learn(set.X, set.y); err != nil {
						t.Fatal(err)
					}
					if err := LearnContext(ctx, c, set.X, set.y); err != nil {
						t.Fatal(err)
					}
				}
				if !bytes.Equal(mustJSON(t, c), mustJSON(t, plain)) {
					t.Errorf("%s: LearnContext of a %T gives another model than Learn", name, c)
				}
			}
		}
		shards := func() ([]mat.Matrix, [][]float64) {
			return []mat.Matrix{data.X.Slice(0, 100, 0, 4), data.X.Slice(100, 300, 0, 4)}, [][]float64{data.y[:100], data.y[100:]}
		}
		for _, m := range []Classifier{&Averaged{Epochs: 20}, &Perceptron{}} {
			X, y := shards()
			plain := &Averaged{Epochs: 20}
			var p Classifier = plain
			if _, ok := m.(*Perceptron); ok {
				p = &Perceptron{}
			}
			if err := FitShards(p, X, y, true); err != nil {
				t.Fatal(err)
			}
			if err := FitShardsContext(ctx, m, X, y, true); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(mustJSON(t, m), mustJSON(t, p)) {
				t.Errorf("%s: FitShardsContext of a %T gives another model than FitShards", name, m)
			}
		}
		X, y, _, _ := marginSet(rnd, 200, 5, 0.05, true)
		for _, s := range []*MarginSettings{nil, {NoBias: true}} {
			want, err1 := DatasetMargin(X, y, s)
			got, err2 := DatasetMarginContext(ctx, X, y, s)
			if fmt.Sprint(got, err2) != fmt.Sprint(want, err1) || !sameBits(got.W, want.W) {
				t.Errorf("%s: DatasetMarginContext gives %v, %v, DatasetMargin %v, %v", name, got, err2, want, err1)
			}
			wantB, err1 := NovikoffBound(X, y, s)
			gotB, err2 := NovikoffBoundContext(ctx, X, y, s)
			if fmt.Sprint(gotB, err2) != fmt.Sprint(wantB, err1) {
				t.Errorf("%s: NovikoffBoundContext gives %v, %v, NovikoffBound %v, %v", name, gotB, err2, wantB, err1)
			}
		}
		cancel()
	}
}

// TestContextDoneBefore checks that a context done before the call stops
// it at once, with the context's error, and changes nothing: no model,
// no OnUpdate.
func TestContextDoneBefore(t *testing.T) {
	data := learnDraw(rand.New(rand.NewPCG(0xd0, 0xe)), 50, 3, 3, false, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range cancelModels(0) {
		setOnUpdate(c, func(Update) { t.Errorf("%T: OnUpdate called", c) })
		before := mustJSON(t, c)
		if err := FitContext(ctx, c, data.X, data.y); !errors.Is(err, context.Canceled) {
			t.Errorf("FitContext of a %T: error %v, want context.Canceled", c, err)
		}
		if _, ok := c.(online); ok {
			if err := LearnContext(ctx, c, data.X, data.y); !errors.Is(err, context.Canceled) {
				t.Errorf("LearnContext of a %T: error %v, want context.Canceled", c, err)
			}
		}
		if !bytes.Equal(mustJSON(t, c), before) {
			t.Errorf("%T: a call done before it began changed the model", c)
		}
	}
	if err := FitShardsContext(ctx, &Perceptron{}, []mat.Matrix{data.X}, [][]float64{data.y}, false); !errors.Is(err, context.Canceled) {
		t.Errorf("FitShardsContext: error %v, want context.Canceled", err)
	}
	X, y, _, _ := marginSet(rand.New(rand.NewPCG(1, 1)), 50, 3, 0.1, true)
	if m, err := DatasetMarginContext(ctx, X, y, nil); !errors.Is(err, context.Canceled) || m.W != nil {
		t.Errorf("DatasetMarginContext: %v, %v, want the zero MaxMargin and context.Canceled", m, err)
	}
	if b, err := NovikoffBoundContext(ctx, X, y, nil); !errors.Is(err, context.Canceled) || b != (MistakeBound{}) {
		t.Errorf("NovikoffBoundContext: %v, %v, want the zero MistakeBound and context.Canceled", b, err)
	}
}

// TestContextErrors checks the errors of the Context forms: a nil context,
// a classifier of another package or of no Learn, a nil one; and that the
// error of a stop wraps ctx.Err() and the cause of a cancellation.
func TestContextErrors(t *testing.T) {
	X := mat.NewDense(2, 1, []float64{1, -1})
	y := []float64{1, -1}
	//lint:ignore SA1012 a nil context is what this tests
	if err := FitContext(nil, &Perceptron{}, X, y); err == nil || err.Error() != "perceptron: the Context is nil: want one, such as context.Background()" {
		t.Errorf("FitContext with a nil context: %v", err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		err  error
		want string
	}{
		{FitContext(ctx, otherClassifier{}, X, y), "perceptron: FitContext of a perceptron.otherClassifier: want a classifier of this package"},
		{FitContext(ctx, (*Voted)(nil), X, y), "perceptron: FitContext of a nil *perceptron.Voted: want a classifier of this package"},
		{FitContext(ctx, (*OneVsRest)(nil), X, y), "perceptron: FitContext of a nil *perceptron.OneVsRest: want a classifier of this package"},
		{FitContext(ctx, nil, X, y), "perceptron: FitContext of a <nil>: want a classifier of this package"},
		{LearnContext(ctx, &Pocket{}, X, y), "perceptron: LearnContext of a *perceptron.Pocket: want a Perceptron, an Averaged, a Voted, a Kernel or a OneVsRest"},
		{LearnContext(ctx, (*OneVsRest)(nil), X, y), "perceptron: LearnContext of a nil *perceptron.OneVsRest: want a Perceptron, an Averaged, a Voted, a Kernel or a OneVsRest"},
		{LearnContext(ctx, (*Kernel)(nil), X, y), "perceptron: LearnContext of a nil *perceptron.Kernel: want a Perceptron, an Averaged, a Voted, a Kernel or a OneVsRest"},
		{FitShardsContext(ctx, &Voted{}, []mat.Matrix{X}, [][]float64{y}, false), "perceptron: FitShards of a *perceptron.Voted: only a Perceptron or an Averaged mixes"},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
	cause := errors.New("the user left")
	cctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	err := FitContext(cctx, &Perceptron{}, X, y)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, cause) || err.Error() != "perceptron: stopped: context canceled: the user left" {
		t.Errorf("FitContext cancelled with a cause: %v", err)
	}
	dctx, stop := context.WithDeadline(context.Background(), time.Now())
	defer stop()
	err = FitContext(dctx, &Perceptron{}, X, y)
	if !errors.Is(err, context.DeadlineExceeded) || err.Error() != "perceptron: stopped: context deadline exceeded" {
		t.Errorf("FitContext past its deadline: %v", err)
	}
}

// otherClassifier is a classifier of another package.
type otherClassifier struct{}

func (otherClassifier) Fit(mat.Matrix, []float64) error { return nil }
func (otherClassifier) Predict([]float64) float64       { return 0 }

// TestCancelAtUpdates stops a Fit and a Learn of each classifier from
// OnUpdate, at its first update, then at the second, the fourth and so
// on, and at its last three: the call must return the stop's error, and
// leave the classifier as it was, however late in the run the stop comes:
// even after the last update, where the pocket's counts and the kernel's
// blocks, cut short by the stop, would otherwise make the model. A Learn
// after a stopped one must give the model that it gives without it, to
// the draws of a Kernel's Budget. The rows are a few more than the visits
// between two polls of a weight table, so that they poll within an epoch.
func TestCancelAtUpdates(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("a run for each stop; TestCancel checks the races of a stop")
	}
	rnd := rand.New(rand.NewPCG(0xe4, 0x7))
	for _, K := range []int{2, 3} {
		data := learnDraw(rnd, 1100, 2, K, false, false)
		moreX, moreY := data.X.Slice(0, 200, 0, 2), data.y[:200]
		for k := range cancelModels(0) {
			fresh := func() Classifier { return cancelModels(2)[k] }
			// OneVsRest updates on several goroutines.
			var mu sync.Mutex
			updates := 0
			c := fresh()
			setOnUpdate(c, func(Update) {
				mu.Lock()
				updates++
				mu.Unlock()
			})
			if err := c.Fit(data.X, data.y); err != nil {
				t.Fatal(err)
			}
			var stops []int
			for u := 1; u < updates-2; u *= 2 {
				stops = append(stops, u)
			}
			stops = append(stops, max(updates-2, 1), max(updates-1, 1), updates)
			for _, u := range stops {
				c := fresh()
				ctx, cancel := context.WithCancel(context.Background())
				seen := 0
				setOnUpdate(c, func(Update) {
					mu.Lock()
					if seen++; seen == u {
						cancel()
					}
					mu.Unlock()
				})
				if err := FitContext(ctx, c, data.X, data.y); !errors.Is(err, context.Canceled) {
					t.Errorf("FitContext of a %T stopped at update %d of %d: error %v", c, u, updates, err)
				}
				cancel()
				if len(mustJSON(t, c)) != 0 {
					t.Errorf("FitContext of a %T stopped at update %d of %d fitted it", c, u, updates)
				}
			}
			if _, ok := c.(online); !ok {
				continue
			}
			fitted := func() online {
				c := fresh().(online)
				if err := c.Fit(data.X, data.y); err != nil {
					t.Fatal(err)
				}
				return c
			}
			l := fitted()
			saved := mustJSON(t, l)
			if err := l.Learn(moreX, moreY); err != nil {
				t.Fatal(err)
			}
			want := mustJSON(t, l)
			for u := 1; ; u *= 2 {
				c := fitted()
				ctx, cancel := context.WithCancel(context.Background())
				seen := 0
				setOnUpdate(c, func(Update) {
					mu.Lock()
					if seen++; seen == u {
						cancel()
					}
					mu.Unlock()
				})
				err := LearnContext(ctx, c, data.X, data.y)
				cancel()
				if err == nil {
					break // the last poll was before the stop
				}
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("LearnContext of a %T stopped at update %d: error %v", c, u, err)
				}
				if !bytes.Equal(mustJSON(t, c), saved) {
					t.Errorf("LearnContext of a %T stopped at update %d changed the model", c, u)
				}
				setOnUpdate(c, nil)
				if err := c.Learn(moreX, moreY); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(mustJSON(t, c), want) {
					t.Errorf("a Learn of a %T after a LearnContext stopped at update %d gives another model", c, u)
				}
			}
		}
	}
}
