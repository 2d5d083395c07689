// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/stream"
)

// chunked returns the pass over the rows of X, dense or sparse, with
// labels y and weights w, if not nil, in chunks of at most size rows, and
// counts the passes it makes in passes.
func chunked(X mat.Matrix, y, w []float64, size int, passes *int) stream.Pass {
	n, d := X.Dims()
	return func(yield func(stream.Chunk) bool) error {
		*passes++
		for lo := 0; lo < n; lo += size {
			hi := min(n, lo+size)
			var part mat.Matrix
			switch X := X.(type) {
			case *mat.Dense:
				part = X.Slice(lo, hi, 0, d)
			case *CSR:
				ptr := make([]int, hi-lo+1)
				for i := range ptr {
					ptr[i] = X.ptr[lo+i] - X.ptr[lo]
				}
				c, err := NewCSR(hi-lo, d, ptr, X.ind[X.ptr[lo]:X.ptr[hi]], X.val[X.ptr[lo]:X.ptr[hi]])
				if err != nil {
					panic(err)
				}
				part = c
			}
			ch := stream.Chunk{X: part, Y: y[lo:hi]}
			if w != nil {
				ch.W = w[lo:hi]
			}
			if !yield(ch) {
				return nil
			}
		}
		return nil
	}
}

// streamKinds make each classifier that trains on a stream from the
// settings of a Perceptron and a OneVsRest's New.
var streamKinds = []struct {
	name string
	make func(p Perceptron) Classifier
}{
	{"Perceptron", func(p Perceptron) Classifier { return &p }},
	{"Averaged", func(p Perceptron) Classifier {
		return &Averaged{Epochs: p.Epochs, Rate: p.Rate, NoBias: p.NoBias, InitWeights: p.InitWeights, Labels: p.Labels, ClassWeight: p.ClassWeight, OnUpdate: p.OnUpdate, Stop: p.Stop}
	}},
	{"Voted", func(p Perceptron) Classifier {
		return &Voted{Epochs: p.Epochs, Rate: p.Rate, NoBias: p.NoBias, InitWeights: p.InitWeights, Labels: p.Labels, ClassWeight: p.ClassWeight, OnUpdate: p.OnUpdate, Stop: p.Stop}
	}},
	{"OneVsRest of Averaged", func(p Perceptron) Classifier {
		return &OneVsRest{Labels: p.Labels, ClassWeight: p.ClassWeight, New: func() Scorer {
			return &Averaged{Epochs: p.Epochs, Rate: p.Rate, NoBias: p.NoBias, Stop: p.Stop}
		}}
	}},
	{"OneVsRest of Perceptron", func(p Perceptron) Classifier {
		return &OneVsRest{Labels: p.Labels, New: func() Scorer { return &Perceptron{Epochs: p.Epochs, Rate: p.Rate, Stop: p.Stop} }}
	}},
}

// TestStreamAsFit checks that a Fit on a stream in the order of its rows,
// a chunk at a time, is Fit on the rows, bit for bit: the saved models,
// their weights, votes and sums, and Stats, and the updates of OnUpdate,
// with their rows, on dense and sparse rows of two classes and more, with
// the settings of every kind, the weights of classes and of rows, Stop's
// rule, and every size of a chunk, from one row to all, with the shares
// of the averaged perceptron in memory and in files.
func TestStreamAsFit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 2))
	for trial := range 120 {
		K := 2
		if rnd.IntN(2) == 0 {
			K = 3 + rnd.IntN(3)
		}
		n, d := 20+rnd.IntN(60), 1+rnd.IntN(6)
		data := learnDraw(rnd, n, d, K, false, rnd.IntN(3) == 0)
		var X mat.Matrix = data.X
		if rnd.IntN(2) == 0 {
			X = learnCSR(data.X)
		}
		p := learnDrawSettings(rnd, d, data.classes, false)
		if p.InitWeights != nil && rnd.IntN(2) == 0 {
			p.InitWeights = nil
		}
		p.Epochs = 1 + rnd.IntN(30)
		if rnd.IntN(2) == 0 {
			p.Stop = &Stop{Tol: 0.01, NoChange: 1 + rnd.IntN(3)}
		}
		if rnd.IntN(3) == 0 {
			p.Labels = nil
		}
		if rnd.IntN(3) == 0 {
			p.ClassWeight = map[float64]float64{data.classes[rnd.IntN(K)]: 0.5 + rnd.Float64()}
		}
		var w []float64
		if rnd.IntN(3) == 0 {
			w = make([]float64, n)
			for i := range w {
				w[i] = float64(rnd.IntN(4)) / 2
			}
		}
		size := 1 + rnd.IntN(n+1)
		for _, kind := range streamKinds {
			var fitTrace, streamTrace []learnUpdate
			p.OnUpdate = learnRecord(&fitTrace)
			fit := kind.make(p)
			if strings.HasPrefix(kind.name, "OneVsRest") {
				if p.InitWeights != nil {
					continue // of the classes against the rest
				}
			}
			fitErr := FitContext(context.Background(), fit, X, data.y, w...)
			p.OnUpdate = learnRecord(&streamTrace)
			str := kind.make(p)
			var shares stream.Shares
			if trial%2 == 0 {
				spill, err := stream.NewSpill(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				defer spill.Close()
				shares = spill
			}
			passes := 0
			streamErr := fitStream(context.Background(), str, chunked(X, data.y, w, size, &passes), shares)
			what := kind.name
			if (fitErr == nil) != (streamErr == nil) {
				t.Fatalf("trial %d, %s: Fit's error %v, the stream's %v", trial, what, fitErr, streamErr)
			}
			if fitErr != nil {
				continue
			}
			a, err1 := json.Marshal(fit)
			b, err2 := json.Marshal(str)
			if err1 != nil || err2 != nil || string(a) != string(b) {
				t.Fatalf("trial %d, %s, chunks of %d rows: Fit saves\n%s\nthe stream\n%s", trial, what, size, a, b)
			}
			a, err1 = Marshal(fit.(Scorer))
			b, err2 = Marshal(str.(Scorer))
			if err1 != nil || err2 != nil || string(a) != string(b) {
				t.Fatalf("trial %d, %s, chunks of %d rows: the binary forms differ", trial, what, size)
			}
			if _, ok := fit.(*OneVsRest); !ok && !reflect.DeepEqual(fit.(interface{ Stats() Stats }).Stats(), str.(interface{ Stats() Stats }).Stats()) {
				t.Fatalf("trial %d, %s: Stats %+v, the stream's %+v", trial, what, fit.(interface{ Stats() Stats }).Stats(), str.(interface{ Stats() Stats }).Stats())
			}
			if _, ok := fit.(*OneVsRest); !ok && !reflect.DeepEqual(fitTrace, streamTrace) {
				t.Fatalf("trial %d, %s: Fit's updates %v, the stream's %v", trial, what, fitTrace, streamTrace)
			}
		}
	}
}

// A Fit on a stream refuses a Pocket, a Kernel and a Stop that holds rows
// out, and stops when its context is done, leaving the classifier as it
// was.
func TestStreamRefuses(t *testing.T) {
	data := learnDraw(rand.New(rand.NewPCG(1, 2)), 30, 3, 2, false, false)
	passes := 0
	pass := chunked(data.X, data.y, nil, 7, &passes)
	for _, c := range []struct {
		c    any
		want string
	}{
		{&Pocket{}, "Pocket trains on rows in memory"},
		{&Kernel{}, "Kernel trains on rows in memory"},
		{&OneVsRest{New: func() Scorer { return &Pocket{} }}, "Pocket trains on rows in memory"},
		{&Perceptron{Stop: &Stop{Validation: 0.2}}, "Stop.Validation holds rows out"},
		{&Perceptron{Labels: []float64{1}}, "Labels lists the classes [1], want at least two"},
		{(*Averaged)(nil), "want a Perceptron"},
		{3, "want a Perceptron"},
	} {
		if err := fitStream(context.Background(), c.c, pass, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%T: %v, want %q", c.c, err, c.want)
		}
	}
	p := &Perceptron{}
	if err := p.Fit(data.X, data.y); err != nil {
		t.Fatal(err)
	}
	w, b := p.Weights()
	stats := p.Stats()
	ctx, cancel := context.WithCancel(context.Background())
	p.OnUpdate = func(Update) { cancel() }
	if err := fitStream(ctx, p, pass, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a stopped Fit: %v", err)
	}
	if w2, b2 := p.Weights(); !slices.Equal(w, w2) || !slices.Equal(b, b2) || !reflect.DeepEqual(stats, p.Stats()) {
		t.Errorf("a stopped Fit changed the perceptron")
	}
}

// With a Rand, a Fit on a stream visits the rows of each chunk in a fresh
// random order in every epoch, each row once, the chunks in order: with
// the rows in one chunk, its first epoch is Fit's.
func TestStreamShuffle(t *testing.T) {
	data := learnDraw(rand.New(rand.NewPCG(5, 6)), 40, 3, 3, false, false)
	var rows [][]int
	p := &Perceptron{Epochs: 3, OnUpdate: func(u Update) {
		for len(rows) < u.Epoch {
			rows = append(rows, nil)
		}
		rows[u.Epoch-1] = append(rows[u.Epoch-1], u.Row)
	}}
	p.Rand = rand.New(rand.NewPCG(7, 8))
	passes := 0
	if err := fitStream(context.Background(), p, chunked(data.X, data.y, nil, 10, &passes), nil); err != nil {
		t.Fatal(err)
	}
	for e, r := range rows {
		// The rows of each chunk before those of the next.
		chunks := make([]int, len(r))
		for k, i := range r {
			chunks[k] = i / 10
		}
		if !slices.IsSorted(chunks) || slices.IsSorted(r) && len(r) > 5 {
			t.Errorf("epoch %d: updates on the rows %v", e+1, r)
		}
	}
	var fitRows, streamRows []int
	fit := &Perceptron{Epochs: 1, Rand: rand.New(rand.NewPCG(7, 8)), OnUpdate: func(u Update) { fitRows = append(fitRows, u.Row) }}
	str := &Perceptron{Epochs: 1, Rand: rand.New(rand.NewPCG(7, 8)), OnUpdate: func(u Update) { streamRows = append(streamRows, u.Row) }}
	if err := fit.Fit(data.X, data.y); err != nil {
		t.Fatal(err)
	}
	if err := fitStream(context.Background(), str, chunked(data.X, data.y, nil, 40, &passes), nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fitRows, streamRows) {
		t.Errorf("one chunk: updates on the rows %v, Fit's %v", streamRows, fitRows)
	}
}
