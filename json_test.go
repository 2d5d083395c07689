// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomProblem returns n rows of d features on widely different scales,
// with labels from a random hyperplane and some flipped, so that some fits
// converge and some do not.
func randomProblem(rnd *rand.Rand, n, d int) (*mat.Dense, []float64) {
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	w := make([]float64, d)
	for j := range w {
		w[j] = rnd.NormFloat64()
	}
	flip := rnd.Float64() * 0.2
	for i := range n {
		x := X.RawRowView(i)
		s := rnd.NormFloat64()
		for j := range x {
			x[j] = rnd.NormFloat64() * math.Pow(10, float64(rnd.IntN(7)-3))
			s += w[j] * x[j]
		}
		y[i] = sign(s)
		if rnd.Float64() < flip {
			y[i] = -y[i]
		}
	}
	return X, y
}

// randomPerceptron returns a perceptron with random settings valid for d
// columns.
func randomPerceptron(rnd *rand.Rand, d int) *Perceptron {
	p := &Perceptron{Epochs: rnd.IntN(30)}
	if rnd.IntN(2) == 0 {
		p.Rate = rnd.Float64() * 3
	}
	if rnd.IntN(2) == 0 {
		p.Rand = rand.New(rand.NewPCG(rnd.Uint64(), 1))
	}
	p.NoBias = rnd.IntN(3) == 0
	if rnd.IntN(2) == 0 {
		p.InitWeights = make([]float64, d)
		for j := range p.InitWeights {
			p.InitWeights[j] = rnd.NormFloat64()
		}
	}
	if !p.NoBias && rnd.IntN(2) == 0 {
		p.InitBias = rnd.NormFloat64()
	}
	return p
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// savable is a classifier that saves and loads as JSON.
type savable interface {
	Classifier
	json.Marshaler
	json.Unmarshaler
	Score(x []float64) float64
	Stats() Stats
}

// testJSONRoundTrip fits the classifiers that newC returns, with random
// settings valid for d columns, on many random problems, saves each and
// loads it into the zero value that newC returns for a nil rnd. The loaded
// classifier must score every vector to the same bits as the saved one,
// hold the same Stats, and write the same JSON, settings included. check,
// if not nil, compares what is particular to the type.
func testJSONRoundTrip(t *testing.T, newC func(rnd *rand.Rand, d int) savable, check func(t *testing.T, saved, loaded savable, X *mat.Dense, y []float64)) {
	rnd := rand.New(rand.NewPCG(6, 1))
	for trial := range 200 {
		n, d := 1+rnd.IntN(40), 1+rnd.IntN(12)
		X, y := randomProblem(rnd, n, d)
		p := newC(rnd, d)
		if err := p.Fit(X, y); err != nil {
			t.Fatalf("trial %d: Fit: %v", trial, err)
		}
		data, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("trial %d: Marshal: %v", trial, err)
		}
		q := newC(nil, 0)
		if err := json.Unmarshal(data, q); err != nil {
			t.Fatalf("trial %d: Unmarshal: %v\n%s", trial, err, data)
		}
		if !reflect.DeepEqual(q.Stats(), p.Stats()) {
			t.Fatalf("trial %d: loaded Stats %+v, saved %+v", trial, q.Stats(), p.Stats())
		}
		x := make([]float64, d)
		for range 50 {
			for j := range x {
				x[j] = rnd.NormFloat64() * math.Pow(10, float64(rnd.IntN(9)-4))
			}
			if a, b := p.Score(x), q.Score(x); math.Float64bits(a) != math.Float64bits(b) {
				t.Fatalf("trial %d: Score(%v) is %v loaded, %v saved", trial, x, b, a)
			}
			if p.Predict(x) != q.Predict(x) {
				t.Fatalf("trial %d: Predict(%v) differs", trial, x)
			}
		}
		again, err := json.Marshal(q)
		if err != nil {
			t.Fatalf("trial %d: Marshal of loaded: %v", trial, err)
		}
		if !bytes.Equal(again, data) {
			t.Fatalf("trial %d: loaded model writes\n%s\nsaved wrote\n%s", trial, again, data)
		}
		if check != nil {
			check(t, p, q, X, y)
		}
	}
}

func TestPerceptronJSONRoundTrip(t *testing.T) {
	testJSONRoundTrip(t, func(rnd *rand.Rand, d int) savable {
		if rnd == nil {
			return &Perceptron{}
		}
		return randomPerceptron(rnd, d)
	}, func(t *testing.T, saved, loaded savable, X *mat.Dense, y []float64) {
		p, q := saved.(*Perceptron), loaded.(*Perceptron)
		if !sameBits(q.Weights(), p.Weights()) || math.Float64bits(q.Bias()) != math.Float64bits(p.Bias()) {
			t.Fatalf("loaded w=%v b=%v, saved w=%v b=%v", q.Weights(), q.Bias(), p.Weights(), p.Bias())
		}
		if q.Epochs != p.Epochs || q.Rate != p.Rate || q.NoBias != p.NoBias || q.InitBias != p.InitBias || !sameBits(q.InitWeights, p.InitWeights) {
			t.Fatalf("loaded settings %+v, saved %+v", *q, *p)
		}
		// The loaded perceptron learns on as the saved one does.
		xi, yi := X.RawRowView(0), -y[0]
		up, err1 := p.Learn(xi, yi)
		uq, err2 := q.Learn(xi, yi)
		if err1 != nil || err2 != nil || up != uq || !sameBits(p.Weights(), q.Weights()) || p.Bias() != q.Bias() {
			t.Fatalf("Learn after load: %v %v %v %v", up, uq, err1, err2)
		}
	})
}

// Weights of exactly representable special values keep their bits,
// including the sign of zero and subnormals.
func TestPerceptronJSONSpecialFloats(t *testing.T) {
	w := []float64{math.Copysign(0, -1), math.SmallestNonzeroFloat64, -math.MaxFloat64, 0.1, 1.0 / 3, 1e-300}
	p := &Perceptron{}
	p.lin = linear{w: append([]float64(nil), w...), b: math.Copysign(0, -1)}
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var q Perceptron
	if err := json.Unmarshal(data, &q); err != nil {
		t.Fatal(err)
	}
	if !sameBits(q.Weights(), w) || math.Float64bits(q.Bias()) != math.Float64bits(math.Copysign(0, -1)) {
		t.Errorf("loaded w=%v b=%v from %s", q.Weights(), q.Bias(), data)
	}
}

// Rand and OnUpdate are not data: loading keeps the receiver's own.
func TestPerceptronJSONKeepsRandAndOnUpdate(t *testing.T) {
	p := &Perceptron{Epochs: 3}
	if err := p.Fit(mat.NewDense(2, 1, []float64{1, -1}), []float64{1, -1}); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	called := false
	q := &Perceptron{Rand: r, OnUpdate: func(int, int, []float64, float64) { called = true }}
	if err := json.Unmarshal(data, q); err != nil {
		t.Fatal(err)
	}
	if q.Rand != r || q.OnUpdate == nil || q.Epochs != 3 {
		t.Fatalf("loaded %+v", q)
	}
	if _, err := q.Learn([]float64{-5}, 1); err != nil || !called {
		t.Errorf("OnUpdate not kept: called=%t err=%v", called, err)
	}
}

func TestPerceptronMarshalJSONErrors(t *testing.T) {
	if _, err := json.Marshal(&Perceptron{}); err == nil || !strings.Contains(err.Error(), "before Fit") {
		t.Errorf("Marshal before Fit: %v", err)
	}
}

func TestPerceptronUnmarshalJSONErrors(t *testing.T) {
	const good = `{"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0},"model":{"weights":[1,2],"bias":3},"stats":{"epochs":2,"converged":true,"mistakes":3,"epochMistakes":[3,0]}}`
	var p Perceptron
	if err := json.Unmarshal([]byte(good), &p); err != nil {
		t.Fatalf("good model: %v", err)
	}
	for _, c := range []struct{ data, want string }{
		{`[1,2]`, "not a Perceptron model"},
		{`{"type":"Perceptron"`, "not a Perceptron model"},
		{good + `x`, "not a Perceptron model"},
		{`{"weights":[1]}`, "not a Perceptron model: no type"},
		{strings.Replace(good, `"Perceptron"`, `"Pocket"`, 1), "the model is a Pocket, not a Perceptron"},
		{strings.Replace(good, `"version":1`, `"version":2`, 1), "Perceptron model format version 2, want 1"},
		{strings.Replace(good, `"version":1,`, ``, 1), "Perceptron model format version 0, want 1"},
		{strings.Replace(good, `"bias":3`, `"bias":3,"margin":1`, 1), `unknown field "margin"`},
		{strings.Replace(good, `"weights":[1,2]`, `"weights":[1,"a"]`, 1), "cannot unmarshal string"},
		{strings.Replace(good, `"weights":[1,2]`, `"weights":[1,1e999]`, 1), "1e999"},
		{strings.Replace(good, `"weights":[1,2]`, `"weights":[]`, 1), "Perceptron model has no weights"},
		{strings.Replace(good, `,"model":{"weights":[1,2],"bias":3}`, ``, 1), "Perceptron model has no weights"},
		{strings.Replace(good, `"noBias":false`, `"noBias":true`, 1), "bias 3 with noBias set"},
		{strings.Replace(good, `"initWeights":null`, `"initWeights":[1]`, 1), "InitWeights has length 1, want 2"},
		{strings.Replace(good, `"rate":0`, `"rate":-1`, 1), "Rate is -1"},
		{strings.Replace(good, `"epochs":0`, `"epochs":-2`, 1), "Epochs is -2"},
		{strings.Replace(good, `"epochMistakes":[3,0]`, `"epochMistakes":[3]`, 1), "stats: 2 epochs with 1 epoch mistake counts"},
		{strings.Replace(good, `"epochMistakes":[3,0]`, `"epochMistakes":[-1,0]`, 1), "stats: epoch 1 has -1 mistakes"},
		{strings.Replace(good, `"mistakes":3`, `"mistakes":2`, 1), "stats: 2 mistakes, but the epochs made 3"},
		{strings.Replace(good, `"mistakes":3`, `"mistakes":4`, 1), "stats: 4 mistakes, but the epochs made 3"},
		{strings.Replace(good, `"epochMistakes":[3,0]`, `"epochMistakes":[2,1]`, 1), "converged, but the last epoch"},
	} {
		before := p
		before.lin.w = p.Weights()
		err := p.UnmarshalJSON([]byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "perceptron: ") {
			t.Errorf("UnmarshalJSON(%s): error %v, want one starting perceptron: and containing %q", c.data, err, c.want)
		}
		if !sameBits(p.Weights(), before.Weights()) || p.Bias() != before.Bias() || !reflect.DeepEqual(p.Stats(), before.Stats()) || p.Rate != before.Rate || p.NoBias != before.NoBias {
			t.Errorf("UnmarshalJSON(%s) changed the perceptron", c.data)
		}
	}
}

// The JSON null changes nothing, as encoding/json asks of UnmarshalJSON.
func TestPerceptronUnmarshalJSONNull(t *testing.T) {
	p := &Perceptron{Epochs: 7}
	if err := p.UnmarshalJSON([]byte("null")); err != nil || p.Epochs != 7 {
		t.Errorf("UnmarshalJSON(null): %v, Epochs=%d", err, p.Epochs)
	}
}

// FuzzPerceptronUnmarshalJSON checks that no input panics, and that any
// input that loads gives a perceptron that predicts and saves to a form
// that loads back to the same JSON.
func FuzzPerceptronUnmarshalJSON(f *testing.F) {
	f.Add([]byte(`{"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0},"model":{"weights":[1,2],"bias":3},"stats":{"epochs":2,"converged":true,"mistakes":3,"epochMistakes":[3,0]}}`))
	f.Add([]byte(`{"type":"Perceptron","version":1,"model":{"weights":[-0]}}`))
	f.Add([]byte(`{"type":"Pocket","version":1}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Perceptron
		if err := p.UnmarshalJSON(data); err != nil || !p.lin.fitted() {
			return
		}
		x := make([]float64, len(p.Weights()))
		_ = p.Predict(x)
		out, err := json.Marshal(&p)
		if err != nil {
			t.Fatalf("loaded %s but cannot save it: %v", data, err)
		}
		var q Perceptron
		if err := json.Unmarshal(out, &q); err != nil {
			t.Fatalf("saved %s but cannot load it: %v", out, err)
		}
		again, err := json.Marshal(&q)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("saved %s, then %s (%v)", out, again, err)
		}
	})
}
