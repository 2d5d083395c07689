// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPredictOnly checks PredictOnly on seeded sets of two classes and of
// more, dense and sparse, with and without a bias: the Averaged predicts
// and weighs as before to the bit, its saved forms, of half the tables,
// load to the same, and whatever would go on from its running weights
// fails, changing nothing, while Fit fits anew.
func TestPredictOnly(t *testing.T) {
	rnd := rand.New(rand.NewPCG(42, 1))
	for trial := range 24 {
		K := 2 + trial%3
		X, y := jtClassData(rnd, 30, 2+rnd.IntN(5), K, trial%2 == 0)
		var data mat.Matrix = X
		if trial%4 >= 2 {
			data = jtCSR(X)
		}
		newA := func() *Averaged {
			return &Averaged{Epochs: 1 + trial%3, NoBias: trial%5 == 0, Rand: rand.New(rand.NewPCG(uint64(trial), 2))}
		}
		a := newA()
		if err := a.Fit(data, y); err != nil {
			t.Fatal(err)
		}
		scores, classes := a.ScoreRows(nil, data), a.PredictRows(nil, data)
		w, b := a.Weights()
		full, err := Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if err := PredictOnly(a); err != nil {
			t.Fatal(err)
		}
		check := func(what string, c Scorer) {
			t.Helper()
			if !sameBits(c.ScoreRows(nil, data), scores) || !sameBits(c.PredictRows(nil, data), classes) {
				t.Fatalf("trial %d: %s predicts otherwise than before PredictOnly", trial, what)
			}
			w2, b2 := c.(*Averaged).Weights()
			if !sameBits(w2, w) || !sameBits(b2, b) {
				t.Fatalf("trial %d: %s weighs otherwise than before PredictOnly", trial, what)
			}
		}
		check("the Averaged", a)
		bin, err := Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if tables := len(full) - len(bin); tables <= 0 {
			t.Fatalf("trial %d: the binary form of %d bytes, %d before PredictOnly", trial, len(bin), len(full))
		}
		js, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(js, []byte(`"weights":null`)) {
			t.Fatalf("trial %d: the JSON form holds running weights: %s", trial, js)
		}
		for _, f := range [][]byte{bin, js} {
			c, err := Unmarshal(f)
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			check("the loaded Averaged", c)
			again, _ := json.Marshal(c)
			if !bytes.Equal(again, js) {
				t.Fatalf("trial %d: saved again as %s, want %s", trial, again, js)
			}
			if err := c.(*Averaged).Learn(data, y); !errors.Is(err, ErrNotFitted) {
				t.Fatalf("trial %d: Learn returns %v, want an error of kind ErrNotFitted", trial, err)
			}
			check("the loaded Averaged after a failed Learn", c)
		}
		if _, err := LearnShard(a, data, y); !errors.Is(err, ErrNotFitted) {
			t.Fatalf("trial %d: LearnShard returns %v", trial, err)
		}
		before, err := Unmarshal(full)
		if err != nil {
			t.Fatal(err)
		}
		shard, err := LearnShard(before.(*Averaged), data, y)
		if err != nil {
			t.Fatal(err)
		}
		if err := Mix(a, []Classifier{shard}, false); !errors.Is(err, ErrNotFitted) {
			t.Fatalf("trial %d: Mix returns %v", trial, err)
		}
		if err := Mix(before.(*Averaged), []Classifier{a}, false); !errors.Is(err, ErrNotFitted) || !strings.Contains(err.Error(), "PredictOnly") {
			t.Fatalf("trial %d: Mix of a shard that PredictOnly made: %v", trial, err)
		}
		check("the Averaged after a failed Mix", a)
		a.Rand = newA().Rand // as the first Fit's
		if err := a.Fit(data, y); err != nil {
			t.Fatal(err)
		}
		again, err := Marshal(a)
		if err != nil || !bytes.Equal(again, full) {
			t.Fatalf("trial %d: a Fit after PredictOnly saves otherwise than the first (%v)", trial, err)
		}
	}
}

// TestPredictOnlyAfterLearn checks that an Averaged that has learned since
// its fit keeps its running weights, which its predictions read, and goes
// on learning as one that PredictOnly was not given.
func TestPredictOnlyAfterLearn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 1))
	X, y := jtClassData(rnd, 40, 3, 3, true)
	first, mid, last := X.Slice(0, 20, 0, 3), X.Slice(20, 30, 0, 3), X.Slice(30, 40, 0, 3)
	a, ref := &Averaged{}, &Averaged{}
	for _, m := range []*Averaged{a, ref} {
		if err := m.Fit(first, y[:20]); err != nil {
			t.Fatal(err)
		}
		if err := m.Learn(mid, y[20:30]); err != nil {
			t.Fatal(err)
		}
	}
	if err := PredictOnly(a); err != nil {
		t.Fatal(err)
	}
	if err := a.Learn(last, y[30:]); err != nil {
		t.Fatalf("Learn after PredictOnly of an Averaged that learned: %v", err)
	}
	if err := ref.Learn(last, y[30:]); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(a)
	want, _ := json.Marshal(ref)
	if !bytes.Equal(got, want) {
		t.Fatalf("after PredictOnly and a Learn: %s, want %s", got, want)
	}
}

// TestPredictOnlyKinds checks PredictOnly over a OneVsRest of Averaged,
// the classifiers it leaves as they are, and its errors.
func TestPredictOnlyKinds(t *testing.T) {
	rnd := rand.New(rand.NewPCG(44, 1))
	X, y := jtClassData(rnd, 30, 4, 3, true)
	o := &OneVsRest{New: func() Scorer { return &Averaged{} }}
	if err := o.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	want := o.ScoreRows(nil, X)
	full, _ := Marshal(o)
	if err := PredictOnly(o); err != nil {
		t.Fatal(err)
	}
	if !sameBits(o.ScoreRows(nil, X), want) {
		t.Fatal("the OneVsRest predicts otherwise after PredictOnly")
	}
	short, _ := Marshal(o)
	c, err := Unmarshal(short)
	if err != nil {
		t.Fatal(err)
	}
	if len(short) >= len(full) || !sameBits(c.ScoreRows(nil, X), want) {
		t.Fatalf("the OneVsRest's form after PredictOnly: %d bytes, %d before, or it loads otherwise", len(short), len(full))
	}
	if err := o.Learn(X, y); !errors.Is(err, ErrNotFitted) {
		t.Fatalf("OneVsRest's Learn after PredictOnly: %v", err)
	}
	if !sameBits(o.ScoreRows(nil, X), want) {
		t.Fatal("a failed Learn changed the OneVsRest")
	}

	for _, m := range []Scorer{&Perceptron{}, &Pocket{}, &Voted{}, &Kernel{}} {
		if err := PredictOnly(m); !errors.Is(err, ErrNotFitted) {
			t.Fatalf("PredictOnly of an unfitted %T: %v", m, err)
		}
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		before, _ := json.Marshal(m)
		if err := PredictOnly(m); err != nil {
			t.Fatalf("PredictOnly of a %T: %v", m, err)
		}
		after, _ := json.Marshal(m)
		if !bytes.Equal(before, after) {
			t.Fatalf("PredictOnly changed a %T", m)
		}
	}
	for _, m := range []Scorer{&Averaged{}, &OneVsRest{}} {
		if err := PredictOnly(m); !errors.Is(err, ErrNotFitted) {
			t.Fatalf("PredictOnly of an unfitted %T: %v", m, err)
		}
	}
	if err := PredictOnly(foreign{}); !errors.Is(err, ErrSetting) {
		t.Fatalf("PredictOnly of a foreign Scorer: %v", err)
	}
}

// TestPredictOnlyCrafted checks that a saved Averaged without running
// weights but with sums ahead of them, and a saved Perceptron without
// weights, are refused.
func TestPredictOnlyCrafted(t *testing.T) {
	rnd := rand.New(rand.NewPCG(45, 1))
	X, y := jtClassData(rnd, 20, 3, 2, true)
	a := &Averaged{}
	if err := a.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if err := PredictOnly(a); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(a)
	ahead := bytes.Replace(js, []byte(`"ahead":0`), []byte(`"ahead":1`), 1)
	if _, err := Unmarshal(ahead); !errors.Is(err, ErrFormat) {
		t.Fatalf("an Averaged without running weights, 1 visit ahead: %v", err)
	}
	bin, _ := Marshal(a)
	if bin[4] != 4 {
		t.Fatalf("the binary form of an absent table of version %d, want 4", bin[4])
	}
	bin[4] = 3
	if _, err := Unmarshal(bin); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "want 0 or 1 in version 3") {
		t.Fatalf("an absent table in a form of version 3: %v", err)
	}
	p := &Perceptron{}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	pj, _ := json.Marshal(p)
	var v map[string]any
	if err := json.Unmarshal(pj, &v); err != nil {
		t.Fatal(err)
	}
	model := v["model"].(map[string]any)
	model["weights"], model["biases"] = nil, nil
	none, _ := json.Marshal(v)
	if _, err := Unmarshal(none); !errors.Is(err, ErrFormat) {
		t.Fatalf("a Perceptron without weights: %v", err)
	}
}

// poFuzzSeeds returns the saved forms, JSON and binary, of Averaged and
// OneVsRest that PredictOnly made, for FuzzUnmarshal.
func poFuzzSeeds() []string {
	rnd := rand.New(rand.NewPCG(46, 1))
	var seeds []string
	for k := range 4 {
		X, y := jtClassData(rnd, 8, 2+k, 2+k%2, k%2 == 0)
		var m Scorer = &Averaged{NoBias: k == 3}
		if k == 2 {
			m = &OneVsRest{New: func() Scorer { return &Averaged{} }}
		}
		if err := m.Fit(X, y); err != nil {
			panic(err)
		}
		if err := PredictOnly(m); err != nil {
			panic(err)
		}
		js, err := json.Marshal(m)
		if err != nil {
			panic(err)
		}
		bin, err := Marshal(m)
		if err != nil {
			panic(err)
		}
		seeds = append(seeds, string(js), string(bin))
	}
	return slices.Clip(seeds)
}

// foreign is a Scorer of no classifier of this package.
type foreign struct{ Scorer }

// TestPredictOnlyBesidePredictions checks that PredictOnly may run while
// other goroutines predict, as its doc says, under the race detector: each
// prediction is that of the model before it and after it, which are one.
// The goroutines predict before PredictOnly starts and again after it
// returns.
func TestPredictOnlyBesidePredictions(t *testing.T) {
	rnd := rand.New(rand.NewPCG(47, 1))
	X, y := jtClassData(rnd, 60, 5, 4, true)
	for _, m := range []Scorer{&Averaged{}, &OneVsRest{New: func() Scorer { return &Averaged{} }}} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		want := m.PredictRows(nil, X)
		const workers = 3
		var started, wg sync.WaitGroup
		var after atomic.Int64 // predictions begun after PredictOnly returned
		var done atomic.Bool
		started.Add(workers)
		for range workers {
			wg.Go(func() {
				first := true
				for {
					returned := done.Load()
					if got := m.PredictRows(nil, X); !sameBits(got, want) {
						t.Errorf("%T: predictions beside PredictOnly differ", m)
					}
					if first {
						started.Done()
						first = false
					}
					if returned && after.Add(1) >= workers {
						return
					}
				}
			})
		}
		started.Wait()
		if err := PredictOnly(m); err != nil {
			t.Error(err)
		}
		done.Store(true)
		wg.Wait()
	}
}
