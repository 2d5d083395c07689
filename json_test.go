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
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// randomPerceptron returns a perceptron with random settings valid for d
// columns.
func randomPerceptron(rnd *rand.Rand, d int) *Perceptron {
	// The labels are -1 and +1 even where the rows have one of them.
	p := &Perceptron{Epochs: rnd.IntN(30), Labels: binaryLabels}
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

// savable is a classifier that saves and loads as JSON.
type savable interface {
	Scorer
	json.Marshaler
	json.Unmarshaler
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
		X, y := scaledSet(rnd, n, d)
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
	p.lin = linear{w: append([]float64(nil), w...), b: []float64{math.Copysign(0, -1)}}
	p.classes = defaultClasses
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
	q := &Perceptron{Rand: r, OnUpdate: func(Update) { called = true }}
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
	const good = `{"type":"Perceptron","version":2,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0,"labels":null},"model":{"classes":[-1,1],"weights":[1,2],"biases":[3]},"stats":{"epochs":2,"converged":true,"mistakes":3,"epochMistakes":[3,0]}}`
	const v1 = `{"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0},"model":{"weights":[1,2],"bias":3},"stats":{"epochs":2,"converged":true,"mistakes":3,"epochMistakes":[3,0]}}`
	// Version 1 loads, with the classes -1 and +1, as version 2 does.
	var p Perceptron
	if err := json.Unmarshal([]byte(v1), &p); err != nil {
		t.Fatalf("version 1 model: %v", err)
	}
	if !slices.Equal(p.Classes(), []float64{-1, 1}) || p.Bias() != 3 || p.Predict([]float64{-4, 0}) != -1 {
		t.Errorf("version 1 model loads as classes %v, bias %v", p.Classes(), p.Bias())
	}
	if err := json.Unmarshal([]byte(good), &p); err != nil {
		t.Fatalf("good model: %v", err)
	}
	for _, c := range []struct{ data, want string }{
		{`[1,2]`, "not a Perceptron model"},
		{`{"type":"Perceptron"`, "not a Perceptron model"},
		{good + `x`, "not a Perceptron model"},
		{`{"weights":[1]}`, "not a Perceptron model: no type"},
		{strings.Replace(good, `"Perceptron"`, `"Pocket"`, 1), "the model is a Pocket, not a Perceptron"},
		{strings.Replace(good, `"version":2`, `"version":3`, 1), "Perceptron model format version 3, want 2"},
		{strings.Replace(good, `"version":2,`, ``, 1), "Perceptron model format version 0, want 2"},
		{strings.Replace(good, `"biases":[3]`, `"biases":[3],"margin":1`, 1), `unknown field "margin"`},
		{strings.Replace(good, `"biases":[3]`, `"bias":3`, 1), `unknown field "bias"`},
		{strings.Replace(v1, `"bias":3`, `"biases":[3]`, 1), `unknown field "biases"`},
		{strings.Replace(good, `"biases":[3]`, `"biases":[3,4]`, 1), "Perceptron model has 2 biases for 2 classes, want 1"},
		{strings.Replace(good, `"classes":[-1,1]`, `"classes":[1,-1]`, 1), "Perceptron model has classes [1 -1], want at least two, ascending"},
		{strings.Replace(good, `"classes":[-1,1]`, `"classes":[1]`, 1), "Perceptron model has classes [1], want at least two"},
		{strings.Replace(good, `"classes":[-1,1]`, `"classes":[-1,1,2]`, 1), "Perceptron model has 1 biases for 3 classes, want 3"},
		{strings.Replace(good, `"labels":null`, `"labels":[1,1]`, 1), "Labels lists the single class [1], want at least two"},
		{strings.Replace(good, `"weights":[1,2]`, `"weights":[1,"a"]`, 1), "cannot unmarshal string"},
		{strings.Replace(good, `"weights":[1,2]`, `"weights":[1,1e999]`, 1), "1e999"},
		{strings.Replace(good, `"weights":[1,2]`, `"weights":[]`, 1), "Perceptron model has 0 weights for 1 biases"},
		{strings.Replace(good, `,"model":{"classes":[-1,1],"weights":[1,2],"biases":[3]}`, ``, 1), "Perceptron model has classes [], want at least two"},
		{strings.Replace(v1, `,"model":{"weights":[1,2],"bias":3}`, ``, 1), "Perceptron model has 0 weights"},
		{strings.Replace(good, `"noBias":false`, `"noBias":true`, 1), "biases [3] with noBias set"},
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
	fuzzUnmarshalJSON(f, func() savable { return &Perceptron{} }, linearDim)
}

// linearDim returns the number of weights of a linear classifier.
func linearDim(c savable) int {
	return len(c.(interface{ Weights() []float64 }).Weights())
}

// fuzzUnmarshalJSON checks that no input panics UnmarshalJSON on the zero
// value that newC returns, and that any input that loads gives a
// classifier that predicts rows of dim(c) features, dim(c) > 0, and saves
// to a form that loads back to the same JSON.
func fuzzUnmarshalJSON(f *testing.F, newC func() savable, dim func(c savable) int) {
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newC()
		if err := c.UnmarshalJSON(data); err != nil || string(data) == "null" {
			return
		}
		d := dim(c)
		if d < 1 {
			t.Fatalf("loaded %s as a model of %d features", data, d)
		}
		x := make([]float64, d)
		_ = c.Predict(x)
		_ = c.Score(x)
		out, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("loaded %s but cannot save it: %v", data, err)
		}
		q := newC()
		if err := json.Unmarshal(out, q); err != nil {
			t.Fatalf("saved %s but cannot load it: %v", out, err)
		}
		again, err := json.Marshal(q)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("saved %s, then %s (%v)", out, again, err)
		}
	})
}

// testUnmarshalJSONErrors loads good into c, then each case's data, which
// must fail with an error that starts with perceptron: and contains the
// case's want, and leave c as it was.
func testUnmarshalJSONErrors(t *testing.T, c savable, good string, cases []struct{ data, want string }) {
	t.Helper()
	if err := json.Unmarshal([]byte(good), c); err != nil {
		t.Fatalf("good model: %v", err)
	}
	before, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		if tc.data == good {
			t.Fatalf("case %q is the good model", tc.want)
		}
		err := c.UnmarshalJSON([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "perceptron: ") {
			t.Errorf("UnmarshalJSON(%s): error %v, want one starting perceptron: and containing %q", tc.data, err, tc.want)
		}
		if after, err := json.Marshal(c); err != nil || !bytes.Equal(after, before) {
			t.Errorf("UnmarshalJSON(%s) changed the model to %s (%v)", tc.data, after, err)
		}
	}
}

// twoPoints is the data set of the hand traces of the variants' JSON
// forms: x = 1 labelled +1 and x = -1 labelled -1. From zero, the run makes
// two mistakes in epoch 1, moving (w, b) from (0, 0) to (1, 1) and then to
// (2, 0), and none in epoch 2.
func twoPoints() (*mat.Dense, []float64) {
	return mat.NewDense(2, 1, []float64{1, -1}), []float64{1, -1}
}

// The pocket of the trace: the starting weights (0, 0) and (1, 1), made
// by the first update, misclassify one row each, and (2, 0), made by the
// second, none.
const goodPocket = `{"type":"Pocket","version":2,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0,"labels":null,"ratchet":false},"model":{"classes":[-1,1],"weights":[2],"biases":[0],"misclassified":0},"stats":{"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0]}}`

// A pocket saved by format version 1, whose checkAll kept the exact pocket.
const goodPocketV1 = `{"type":"Pocket","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0,"checkAll":true},"model":{"weights":[2],"bias":0,"misclassified":0},"stats":{"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0]}}`

// The sums of the trace: the weights after the DefaultEpochs·2 visits are
// (1, 1), then (2, 0) for the other 1999, whose sum is (3999, 1).
const goodAveraged = `{"type":"Averaged","version":2,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0,"labels":null},"model":{"classes":[-1,1],"sumWeights":[3999],"sumBiases":[1],"visits":2000},"stats":{"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0]}}`

// An averaged perceptron saved by format version 1, with its average
// after the two epochs it passed: (7/4, 1/4).
const goodAveragedV1 = `{"type":"Averaged","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0},"model":{"weights":[1.75],"bias":0.25},"stats":{"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0]}}`

// The voters of the trace: (0, 0) survives no visit, (1, 1) its own, and
// (2, 0) its own and the other 1998 of DefaultEpochs epochs. Each row was a mistake once, in
// order.
const goodVoted = `{"type":"Voted","version":2,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0,"labels":null},"model":{"classes":[-1,1],"first":{"weights":[0],"biases":[0]},"throughOrigin":false,"rows":{"rows":2,"cols":1,"sparse":false,"values":"AAAAAAAA8D8AAAAAAADwvw=="},"steps":[1,-1],"mistakeRows":[0,1],"counts":[0,1,1999]},"stats":{"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0]}}`

// A voted perceptron saved by format version 1, whose rows were arrays of
// numbers.
const goodVotedV1 = `{"type":"Voted","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0},"model":{"first":{"weights":[0],"bias":0},"throughOrigin":false,"rows":[[1],[-1]],"steps":[1,-1],"mistakeRows":[0,1],"counts":[0,1,1999]},"stats":{"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0]}}`

// MarshalJSON of each variant writes the hand-traced form of its fit on
// twoPoints.
func TestVariantsMarshalJSONTrace(t *testing.T) {
	X, y := twoPoints()
	for _, c := range []struct {
		c    savable
		want string
	}{
		{&Pocket{}, goodPocket},
		{&Averaged{}, goodAveraged},
		{&Voted{}, goodVoted},
	} {
		if err := c.c.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(c.c)
		if err != nil || string(got) != c.want {
			t.Errorf("%T: MarshalJSON gives\n%s (%v)\nwant\n%s", c.c, got, err, c.want)
		}
	}
}

func TestVariantsMarshalJSONBeforeFit(t *testing.T) {
	for _, c := range []savable{&Pocket{}, &Averaged{}, &Voted{}} {
		if _, err := json.Marshal(c); err == nil || !strings.Contains(err.Error(), "perceptron: MarshalJSON called before Fit") {
			t.Errorf("%T: Marshal before Fit: %v", c, err)
		}
	}
}

// randomVariant returns a function for testJSONRoundTrip that makes c with
// the random settings of randomPerceptron, or the zero value that zero
// returns for a nil rnd.
func randomVariant(zero func() variant, more func(rnd *rand.Rand, c variant)) func(rnd *rand.Rand, d int) savable {
	return func(rnd *rand.Rand, d int) savable {
		c := zero()
		if rnd == nil {
			return c.(savable)
		}
		set(c, *randomPerceptron(rnd, d))
		if more != nil {
			more(rnd, c)
		}
		return c.(savable)
	}
}

// checkLinear checks that the loaded variant has the saved one's weights
// and bias, to the bit.
func checkLinear(t *testing.T, saved, loaded savable) {
	t.Helper()
	p, q := saved.(variant), loaded.(variant)
	if !sameBits(q.Weights(), p.Weights()) || math.Float64bits(q.Bias()) != math.Float64bits(p.Bias()) {
		t.Fatalf("%T: loaded w=%v b=%v, saved w=%v b=%v", p, q.Weights(), q.Bias(), p.Weights(), p.Bias())
	}
}

func TestPocketJSONRoundTrip(t *testing.T) {
	testJSONRoundTrip(t, randomVariant(func() variant { return &Pocket{} }, func(rnd *rand.Rand, c variant) {
		c.(*Pocket).Ratchet = rnd.IntN(2) == 0
	}), func(t *testing.T, saved, loaded savable, X *mat.Dense, y []float64) {
		checkLinear(t, saved, loaded)
		p, q := saved.(*Pocket), loaded.(*Pocket)
		if q.Misclassified() != p.Misclassified() || q.Ratchet != p.Ratchet {
			t.Fatalf("loaded Misclassified %d Ratchet %t, saved %d %t", q.Misclassified(), q.Ratchet, p.Misclassified(), p.Ratchet)
		}
	})
}

func TestAveragedJSONRoundTrip(t *testing.T) {
	testJSONRoundTrip(t, randomVariant(func() variant { return &Averaged{} }, nil),
		func(t *testing.T, saved, loaded savable, X *mat.Dense, y []float64) { checkLinear(t, saved, loaded) })
}

// The loaded voted perceptron computes its last weights from the voters:
// they must be the saved ones, to the bit.
func TestVotedJSONRoundTrip(t *testing.T) {
	testJSONRoundTrip(t, randomVariant(func() variant { return &Voted{} }, nil),
		func(t *testing.T, saved, loaded savable, X *mat.Dense, y []float64) { checkLinear(t, saved, loaded) })
}

// A voted perceptron whose starting weights make no mistake has a single
// voter and no rows, and loads as such.
func TestVotedJSONNoMistakes(t *testing.T) {
	X, y := twoPoints()
	v := &Voted{InitWeights: []float64{1}, InitBias: -0.5}
	if err := v.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	const want = `"model":{"classes":[-1,1],"first":{"weights":[1],"biases":[-0.5]},"throughOrigin":false,"rows":{"rows":0,"cols":1,"sparse":false,"values":""},"steps":[],"mistakeRows":[],"counts":[2000]}`
	if !strings.Contains(string(data), want) {
		t.Fatalf("saved %s, want it to contain %s", data, want)
	}
	var q Voted
	if err := json.Unmarshal(data, &q); err != nil {
		t.Fatal(err)
	}
	// The one voter, x - 0.5, survives every visit of DefaultEpochs
	// epochs: its count is 2000.
	for _, c := range []struct{ x, score float64 }{{0.5, 2000}, {0.4, -2000}, {-3, -2000}} {
		if got := q.Score([]float64{c.x}); got != c.score {
			t.Errorf("Score(%v) = %v, want %v", c.x, got, c.score)
		}
	}
}

func TestPocketUnmarshalJSONErrors(t *testing.T) {
	g := goodPocket
	testUnmarshalJSONErrors(t, &Pocket{}, g, []struct{ data, want string }{
		{strings.Replace(g, `"Pocket"`, `"Averaged"`, 1), "the model is an Averaged, not a Pocket"},
		{strings.Replace(g, `"version":2`, `"version":3`, 1), "Pocket model format version 3, want 2"},
		{strings.Replace(g, `"misclassified":0`, `"misclassified":-1`, 1), "Pocket model misclassifies -1 rows, want >= 0"},
		{strings.Replace(g, `"misclassified":0`, `"misclassified":1`, 1), "misclassifies 1 rows of a run that converged, want 0"},
		{strings.Replace(g, `"ratchet":false`, `"ratchet":"yes"`, 1), "cannot unmarshal string"},
		{strings.Replace(g, `"ratchet":false`, `"ratchet":false,"checkAll":true`, 1), "Pocket model of format version 2 with checkAll"},
		{strings.Replace(g, `"weights":[2]`, `"weights":[]`, 1), "Pocket model has 0 weights for 1 biases"},
		// Version 1 without checkAll kept its pocket by a rule that is gone.
		{strings.Replace(goodPocketV1, `"checkAll":true`, `"checkAll":false`, 1), "Pocket model of format version 1 with checkAll false"},
		{strings.Replace(goodPocketV1, `"checkAll":true`, `"ratchet":true`, 1), "Pocket model of format version 1 without checkAll"},
	})
	// Version 1 with checkAll loads as the exact pocket, which it was.
	var v1 Pocket
	if err := json.Unmarshal([]byte(goodPocketV1), &v1); err != nil || v1.Ratchet || v1.Misclassified() != 0 || v1.Predict([]float64{-1}) != -1 {
		t.Errorf("version 1 pocket: %v, Ratchet %v, Misclassified %d", err, v1.Ratchet, v1.Misclassified())
	}
	// A pocket that misclassifies rows is fine if the run did not converge.
	bad := strings.Replace(strings.Replace(g, `"misclassified":0`, `"misclassified":1`, 1), `"converged":true`, `"converged":false`, 1)
	var p Pocket
	if err := json.Unmarshal([]byte(bad), &p); err != nil || p.Misclassified() != 1 {
		t.Errorf("pocket of a run that did not converge: %v, Misclassified %d", err, p.Misclassified())
	}
}

func TestAveragedUnmarshalJSONErrors(t *testing.T) {
	g := goodAveraged
	testUnmarshalJSONErrors(t, &Averaged{}, g, []struct{ data, want string }{
		{strings.Replace(g, `"Averaged"`, `"Voted"`, 1), "the model is a Voted, not an Averaged"},
		{strings.Replace(g, `"version":2`, `"version":0`, 1), "Averaged model format version 0, want 2"},
		{strings.Replace(g, `"noBias":false`, `"noBias":true`, 1), "Averaged model has biases [1] with noBias set, want 0"},
		{strings.Replace(g, `"initWeights":null`, `"initWeights":[1,2]`, 1), "InitWeights has length 2, want 1"},
		{strings.Replace(g, `"visits":2000`, `"visits":2000,"count":4`, 1), `unknown field "count"`},
		{strings.Replace(g, `"visits":2000`, `"visits":0`, 1), "Averaged model has 0 visits, want at least 1"},
		{strings.Replace(g, `"epochMistakes":[2,0]`, `"epochMistakes":[2,1]`, 1), "stats: 2 mistakes, but the epochs made 3"},
		{strings.Replace(goodAveragedV1, `"bias":0.25`, `"bias":0.25,"visits":4`, 1), `unknown field "visits"`},
	})
	// Version 1 loads its average as sums over one visit, and predicts as
	// it did.
	var v1 Averaged
	if err := json.Unmarshal([]byte(goodAveragedV1), &v1); err != nil || v1.Weights()[0] != 1.75 || v1.Bias() != 0.25 || v1.Score([]float64{-1}) != -1.5 {
		t.Errorf("version 1 averaged perceptron: %v, w=%v b=%v", err, v1.Weights(), v1.Bias())
	}
}

func TestVotedUnmarshalJSONErrors(t *testing.T) {
	g := goodVoted
	r := func(old, new string) string {
		if !strings.Contains(g, old) {
			t.Fatalf("%s not in the good model", old)
		}
		return strings.Replace(g, old, new, 1)
	}
	testUnmarshalJSONErrors(t, &Voted{}, g, []struct{ data, want string }{
		{r(`"Voted"`, `"Perceptron"`), "the model is a Perceptron, not a Voted"},
		{r(`"version":2`, `"version":3`), "Voted model format version 3, want 2"},
		{r(`"counts":[0,1,1999]`, `"counts":[0,1,1999],"last":{"weights":[2],"bias":0}`), `unknown field "last"`},
		{r(`"first":{"weights":[0],"biases":[0]}`, `"first":{"weights":[],"biases":[0]}`), "Voted model has 0 weights for 1 biases"},
		{r(`"first":{"weights":[0],"biases":[0]}`, `"first":{"weights":[0],"biases":[1e999]}`), "1e999"},
		{r(`"first":{"weights":[0],"biases":[0]}`, `"first":{"weights":[0],"bias":0}`), `unknown field "bias"`},
		{r(`"classes":[-1,1],`, ``), "Voted model has classes [], want at least two"},
		{strings.Replace(goodVotedV1, `"first":{"weights":[0],"bias":0}`, `"first":{"weights":[],"bias":0}`, 1), "Voted model's row 0 has length 1, want 0"},
		{r(`"noBias":false`, `"noBias":true`) + `x`, "not a Voted model"},
		{r(`"initWeights":null`, `"initWeights":[1,2]`), "InitWeights has length 2, want 1"},
		{r(`"biases":[0]},"throughOrigin":false`, `"biases":[0.5]},"throughOrigin":true`), "Voted model through the origin has first biases [0.5], want 0"},
		{r(`"steps":[1,-1]`, `"steps":[1]`), "Voted model has 2 rows and 1 steps, want as many"},
		{r(`"counts":[0,1,1999]`, `"counts":[0,1]`), "Voted model has 2 mistakes and 2 counts, want one count more"},
		{r(`"mistakes":2,"epochMistakes":[2,0]`, `"mistakes":3,"epochMistakes":[3,0]`), "Voted model has 2 mistakes, but Stats 3"},
		{r(`"counts":[0,1,1999]`, `"counts":[-1,1,1999]`), "Voted model's first count is -1, want >= 0"},
		{r(`"counts":[0,1,1999]`, `"counts":[0,0,1999]`), "Voted model's count 1 is 0, want >= 1"},
		{strings.Replace(goodVotedV1, `"rows":[[1],[-1]]`, `"rows":[[1],[-1,0]]`, 1), "Voted model's row 1 has length 2, want 1"},
		{strings.Replace(goodVotedV1, `"first":{"weights":[0]`, `"first":{"weights":[0,0]`, 1), "Voted model's row 0 has length 1, want 2"},
		{r(`"first":{"weights":[0]`, `"first":{"weights":[0,0]`), "Voted model's rows of 1 columns, want 2"},
		{r(`"rows":2,"cols":1`, `"rows":3,"cols":1`), "Voted model's rows: 2 values for 3 rows of 1, want as many"},
		{r(`"values":"AAAAAAAA8D8AAAAAAADwvw=="`, `"values":"AAAA"`), "3 bytes of float64s, want a multiple of 8"},
		{r(`"sparse":false,`, `"sparse":false,"starts":[0,1,2],`), "Voted model's rows: dense rows with starts or indices"},
		{r(`"cols":1,"sparse":false,`, `"cols":1,"sparse":true,"starts":[0,1,2],"indices":[0,1],`), "Voted model's rows: row 1: column 1 is out of range [0, 1)"},
		{r(`"cols":1,"sparse":false,`, `"cols":1,"sparse":true,"starts":[0,2,2],"indices":[0,0],`), "Voted model's rows: row 0: column 0 appears twice"},
		{r(`"cols":1,"sparse":false,`, `"cols":1,"sparse":true,"starts":[0,1],"indices":[0,0],`), "Voted model's rows: 2 starts for 2 sparse rows, want one more"},
		{r(`"mistakeRows":[0,1]`, `"mistakeRows":[0,2]`), "Voted model's mistake 2 is on row 2, want one of its 2 rows"},
		{r(`"mistakeRows":[0,1]`, `"mistakeRows":[0,-1]`), "Voted model's mistake 2 is on row -1, want one of its 2 rows"},
		{r(`"mistakeRows":[0,1]`, `"mistakeRows":[1,0]`), "Voted model's mistake 1 is the first on row 1, want row 0"},
		{r(`"mistakeRows":[0,1]`, `"mistakeRows":[0,0]`), "Voted model has 2 rows, but its mistakes are on 1"},
		{strings.NewReplacer(`"rate":0`, `"rate":1e308`, `"values":"AAAAAAAA8D8AAAAAAADwvw=="`, `"values":"AAAAAAAAAEAAAAAAAADwvw=="`, `"steps":[1,-1]`, `"steps":[1e308,-1e308]`).Replace(g),
			"Voted model's last weights overflow"},
	})
}

func FuzzPocketUnmarshalJSON(f *testing.F) {
	f.Add([]byte(goodPocket))
	fuzzUnmarshalJSON(f, func() savable { return &Pocket{} }, linearDim)
}

func FuzzAveragedUnmarshalJSON(f *testing.F) {
	f.Add([]byte(goodAveraged))
	fuzzUnmarshalJSON(f, func() savable { return &Averaged{} }, linearDim)
}

func FuzzVotedUnmarshalJSON(f *testing.F) {
	f.Add([]byte(goodVoted))
	fuzzUnmarshalJSON(f, func() savable { return &Voted{} }, linearDim)
}

// randomKernel returns a Kernel with random settings valid for d columns,
// or the zero Kernel for a nil rnd. The kernels stay finite on
// randomProblem's rows.
func randomKernel(rnd *rand.Rand, d int) savable {
	if rnd == nil {
		return &Kernel{}
	}
	p := randomPerceptron(rnd, d)
	k := &Kernel{Epochs: p.Epochs, Rate: p.Rate, Rand: p.Rand, NoBias: p.NoBias, Labels: p.Labels, Prediction: Prediction(rnd.IntN(3))}
	switch rnd.IntN(4) {
	case 1:
		k.Func = Linear{}
	case 2:
		k.Func = Poly{Degree: rnd.IntN(4), Gamma: rnd.Float64() / float64(d) * float64(rnd.IntN(2)), Coef0: rnd.NormFloat64()}
	case 3:
		k.Func = RBF{Gamma: rnd.Float64() * float64(rnd.IntN(2))}
	}
	if rnd.IntN(2) == 0 {
		k.Budget = 1 + rnd.IntN(10)
	}
	return k
}

// The loaded Kernel scores as the saved one under every rule, holds the
// same support vectors, coefficients and bias, and learns on as the saved
// one does; a Kernel that has learned after Fit, removals by Budget
// included, saves and loads exactly too.
func TestKernelJSONRoundTrip(t *testing.T) {
	testJSONRoundTrip(t, randomKernel, func(t *testing.T, saved, loaded savable, X *mat.Dense, y []float64) {
		p, q := saved.(*Kernel), loaded.(*Kernel)
		if q.Func != p.Func || q.Prediction != p.Prediction || q.Budget != p.Budget || q.Epochs != p.Epochs || q.Rate != p.Rate || q.NoBias != p.NoBias {
			t.Fatalf("loaded settings %+v, saved %+v", *q, *p)
		}
		sameKernels(t, p, q, X)
		// Learn draws a Budget's removals from Rand: give both the same.
		p.Rand, q.Rand = rand.New(rand.NewPCG(9, 9)), rand.New(rand.NewPCG(9, 9))
		n, _ := X.Dims()
		for i := range 2 * n {
			i %= n
			mp, err1 := p.Learn(X.RawRowView(i), -y[i])
			mq, err2 := q.Learn(X.RawRowView(i), -y[i])
			if err1 != nil || err2 != nil || mp != mq {
				t.Fatalf("Learn after load: %v %v %v %v", mp, mq, err1, err2)
			}
		}
		sameKernels(t, p, q, X)
		data, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var r Kernel
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("after Learn: %v\n%s", err, data)
		}
		if !reflect.DeepEqual(r.Stats(), p.Stats()) {
			t.Fatalf("after Learn: loaded Stats %+v, saved %+v", r.Stats(), p.Stats())
		}
		r.Prediction = p.Prediction
		sameKernels(t, p, &r, X)
	})
}

// sameKernels checks that q has p's support vectors, coefficients and
// bias, and scores the rows of X, and those scaled, to the same bits as p
// under every rule.
func sameKernels(t *testing.T, p, q *Kernel, X *mat.Dense) {
	t.Helper()
	svp, cp := p.SupportVectors()
	svq, cq := q.SupportVectors()
	if !mat.Equal(svp, svq) || !sameBits(cp, cq) || math.Float64bits(p.Bias()) != math.Float64bits(q.Bias()) {
		t.Fatalf("loaded support vectors %v, coefficients %v, bias %v; saved %v, %v, %v",
			mat.Formatted(svq), cq, q.Bias(), mat.Formatted(svp), cp, p.Bias())
	}
	mode := p.Prediction
	defer func() { p.Prediction, q.Prediction = mode, mode }()
	n, d := X.Dims()
	x := make([]float64, d)
	for _, rule := range []Prediction{PredictLast, PredictVoted, PredictAveraged} {
		p.Prediction, q.Prediction = rule, rule
		for i := range n {
			for _, scale := range []float64{1, -0.5} {
				floats.ScaleTo(x, scale, X.RawRowView(i))
				if a, b := p.Score(x), q.Score(x); math.Float64bits(a) != math.Float64bits(b) {
					t.Fatalf("%v: Score(%v) is %v loaded, %v saved", rule, x, b, a)
				}
			}
		}
	}
}

// The kernel perceptron of the trace: with the linear kernel it makes the
// mistakes of the perceptron, storing x = 1 with step +1 at visit 1 and
// x = -1 with step -1 at visit 2, and makes none in visits 3 and 4.
const goodKernel = `{"type":"Kernel","version":2,"settings":{"func":null,"prediction":"last","budget":0,"epochs":0,"rate":0,"noBias":false,"labels":null},"model":{"classes":[-1,1],"kernel":{"name":"linear","degree":0,"gamma":0,"coef0":0},"features":1,"throughOrigin":false,"supportVectors":{"rows":2,"cols":1,"sparse":false,"values":"AAAAAAAA8D8AAAAAAADwvw=="},"coefficients":[1,-1],"stepSums":[0],"mistakeVectors":[0,1],"mistakeSteps":[1,-1],"mistakeVisits":[1,2],"visits":2000,"removed":0},"stats":{"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0]}}`

// A kernel perceptron saved by format version 1, whose support vectors
// were arrays of numbers.
const goodKernelV1 = `{"type":"Kernel","version":1,"settings":{"func":null,"prediction":"last","budget":0,"epochs":0,"rate":0,"noBias":false},"model":{"kernel":{"name":"linear","degree":0,"gamma":0,"coef0":0},"features":1,"throughOrigin":false,"supportVectors":[[1],[-1]],"coefficients":[1,-1],"stepSum":0,"mistakeVectors":[0,1],"mistakeSteps":[1,-1],"mistakeVisits":[1,2],"visits":2000,"removed":0},"stats":{"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0]}}`

// MarshalJSON writes the hand-traced form, with the kernel's settings as
// given and its parameters as resolved: RBF's zero Gamma is 1/d.
func TestKernelMarshalJSONTrace(t *testing.T) {
	X, y := twoPoints()
	k := &Kernel{}
	if err := k.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if got, err := json.Marshal(k); err != nil || string(got) != goodKernel {
		t.Errorf("MarshalJSON gives\n%s (%v)\nwant\n%s", got, err, goodKernel)
	}
	X = mat.NewDense(2, 2, []float64{1, 0, -1, 0})
	k = &Kernel{Func: RBF{}, Prediction: PredictVoted, Budget: 5, NoBias: true}
	if err := k.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"settings":{"func":{"name":"rbf","degree":0,"gamma":0,"coef0":0},"prediction":"voted","budget":5,"epochs":0,"rate":0,"noBias":true,"labels":null}`,
		`"model":{"classes":[-1,1],"kernel":{"name":"rbf","degree":0,"gamma":0.5,"coef0":0},"features":2,"throughOrigin":true,`,
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("MarshalJSON gives\n%s\nwant it to contain\n%s", got, want)
		}
	}
}

func TestKernelMarshalJSONErrors(t *testing.T) {
	X, y := twoPoints()
	dot := Custom(func(x, z []float64) float64 { return floats.Dot(x, z) })
	for _, c := range []struct {
		k    *Kernel
		edit func(k *Kernel)
		want string
	}{
		{&Kernel{}, nil, "perceptron: MarshalJSON called before Fit"},
		{&Kernel{Func: dot}, func(*Kernel) {}, "perceptron: MarshalJSON: the Kernel was fitted with a Custom kernel, a Go function, which cannot be saved"},
		{&Kernel{Func: dot}, func(k *Kernel) { k.Func = nil }, "the Kernel was fitted with a Custom kernel"},
		{&Kernel{}, func(k *Kernel) { k.Func = dot }, "perceptron: MarshalJSON: a Custom kernel is a Go function, which cannot be saved"},
		{&Kernel{}, func(k *Kernel) { k.Func = &RBF{} }, "perceptron: MarshalJSON: a kernel of type *perceptron.RBF cannot be saved"},
		{&Kernel{}, func(k *Kernel) { k.Func = Poly{Degree: -1} }, "perceptron: Poly.Degree is -1"},
		{&Kernel{}, func(k *Kernel) { k.Budget = -1 }, "perceptron: Budget is -1"},
		{&Kernel{}, func(k *Kernel) { k.Prediction = 3 }, "perceptron: Prediction is 3"},
	} {
		if c.edit != nil {
			if err := c.k.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			c.edit(c.k)
		}
		if _, err := json.Marshal(c.k); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Marshal of %+v: %v, want an error containing %q", *c.k, err, c.want)
		}
	}
}

// Settings changed after Fit save and load if they are valid, and are
// refused by MarshalJSON as UnmarshalJSON would refuse them if not. The
// model keeps what it was fitted with: NoBias set after Fit changes no
// prediction of Voted or Kernel.
func TestJSONSettingsChangedAfterFit(t *testing.T) {
	X, y := twoPoints()
	for _, c := range []struct {
		c         savable
		good, bad func(c savable)
		want      string
	}{
		{&Perceptron{}, func(c savable) { c.(*Perceptron).Rate = 3 }, func(c savable) { c.(*Perceptron).Rate = -1 }, "perceptron: Rate is -1"},
		{&Pocket{}, func(c savable) { c.(*Pocket).Ratchet = true }, func(c savable) { c.(*Pocket).InitWeights = []float64{1, 2} }, "perceptron: InitWeights has length 2, want 1"},
		{&Averaged{InitBias: 1}, func(c savable) { c.(*Averaged).Epochs = 2 }, func(c savable) { c.(*Averaged).NoBias = true }, "model has biases [1] with noBias set, want 0"},
		{&Voted{}, func(c savable) { c.(*Voted).NoBias = true }, func(c savable) { c.(*Voted).Epochs = -1 }, "perceptron: Epochs is -1"},
		{&Kernel{}, func(c savable) { c.(*Kernel).NoBias = true; c.(*Kernel).Func = RBF{} }, func(c savable) { c.(*Kernel).Rate = math.Inf(1) }, "perceptron: Rate is +Inf"},
	} {
		if err := c.c.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		before := []float64{c.c.Score([]float64{0.3}), c.c.Score([]float64{-0.5})}
		c.good(c.c)
		data, err := json.Marshal(c.c)
		if err != nil {
			t.Fatalf("%T: Marshal: %v", c.c, err)
		}
		q := reflect.New(reflect.TypeOf(c.c).Elem()).Interface().(savable)
		if err := json.Unmarshal(data, q); err != nil {
			t.Fatalf("%T: Unmarshal: %v\n%s", c.c, err, data)
		}
		if after := []float64{q.Score([]float64{0.3}), q.Score([]float64{-0.5})}; !sameBits(after, before) {
			t.Errorf("%T: scores %v after the change and a load, %v before", c.c, after, before)
		}
		c.bad(c.c)
		if _, err := json.Marshal(c.c); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%T: Marshal: %v, want an error containing %q", c.c, err, c.want)
		}
	}
}

func TestKernelUnmarshalJSONErrors(t *testing.T) {
	g := goodKernel
	r := func(pairs ...string) string {
		s := g
		for i := 0; i < len(pairs); i += 2 {
			if !strings.Contains(s, pairs[i]) {
				t.Fatalf("%s not in the good model", pairs[i])
			}
			s = strings.Replace(s, pairs[i], pairs[i+1], 1)
		}
		return s
	}
	testUnmarshalJSONErrors(t, &Kernel{}, g, []struct{ data, want string }{
		{r(`"Kernel"`, `"Voted"`), "the model is a Voted, not a Kernel"},
		{r(`"version":2`, `"version":3`), "Kernel model format version 3, want 2"},
		{r(`"func":null`, `"func":{"name":"sigmoid","degree":0,"gamma":0,"coef0":0}`), `Kernel model: unknown kernel "sigmoid", want linear, poly or rbf`},
		{r(`"func":null`, `"func":{"name":"linear","degree":0,"gamma":1,"coef0":0}`), "the linear kernel has no parameters"},
		{r(`"func":null`, `"func":{"name":"rbf","degree":2,"gamma":1,"coef0":0}`), "the rbf kernel has gamma alone"},
		{r(`"func":null`, `"func":{"name":"poly","degree":-1,"gamma":0,"coef0":0}`), "Poly.Degree is -1, want >= 0"},
		{r(`"func":null`, `"func":{"name":"rbf","gamma":-1}`), "RBF.Gamma is -1"},
		{r(`"func":null`, `"func":{"name":"rbf","sigma":1}`), `unknown field "sigma"`},
		{r(`"prediction":"last"`, `"prediction":"median"`), `Kernel model: prediction "median", want last, voted or averaged`},
		{r(`"prediction":"last",`, ``), `Kernel model: prediction "", want last, voted or averaged`},
		{r(`"budget":0`, `"budget":-1`), "Budget is -1, want >= 0"},
		{r(`"rate":0`, `"rate":-2`), "Rate is -2"},
		{r(`"kernel":{"name":"linear"`, `"kernel":{"name":"poly"`), "the poly kernel has degree 0 and gamma 0, want the values it was fitted with, > 0"},
		{r(`"kernel":{"name":"linear","degree":0,"gamma":0`, `"kernel":{"name":"rbf","degree":0,"gamma":-0.5`), "RBF.Gamma is -0.5"},
		{r(`"features":1`, `"features":0`), "Kernel model has 0 features, want at least 1"},
		{strings.Replace(goodKernelV1, `"supportVectors":[[1],[-1]]`, `"supportVectors":[[1],[-1,2]]`, 1), "Kernel model's support vector 1 has length 2, want 1"},
		{r(`"features":1`, `"features":2`), "Kernel model's support vectors of 1 columns, want 2"},
		{r(`"coefficients":[1,-1]`, `"coefficients":[1]`), "Kernel model has 2 support vectors and 1 coefficients, want 2"},
		{r(`"mistakeSteps":[1,-1]`, `"mistakeSteps":[1]`), "Kernel model has 2 mistake vectors, 1 steps and 2 visits, want as many"},
		{r(`"mistakeVisits":[1,2]`, `"mistakeVisits":[1,2,3]`), "Kernel model has 2 mistake vectors, 2 steps and 3 visits, want as many"},
		{r(`"mistakeVectors":[0,1]`, `"mistakeVectors":[0,2]`), "Kernel model's mistake 2 is on support vector 2, want one of its 2"},
		{r(`"mistakeVectors":[0,1]`, `"mistakeVectors":[0,0]`), "Kernel model's support vector 1 has no mistake"},
		{r(`"mistakeVisits":[1,2]`, `"mistakeVisits":[2,2]`), "Kernel model's mistake 2 is at visit 2, want one after the last mistake's and at most 2000"},
		{r(`"mistakeVisits":[1,2]`, `"mistakeVisits":[0,2]`), "Kernel model's mistake 1 is at visit 0"},
		{r(`"mistakeVisits":[1,2]`, `"mistakeVisits":[1,2001]`), "Kernel model's mistake 2 is at visit 2001"},
		{r(`"visits":2000`, `"visits":0`), "Kernel model has 0 visits, want at least 1"},
		{r(`"removed":0`, `"removed":2001`), "Kernel model's last removal is at visit 2001, want 0 to 2000"},
		{r(`"removed":0`, `"removed":-1`), "Kernel model's last removal is at visit -1, want 0 to 2000"},
		{r(`"mistakes":2,`, `"mistakes":1,`), "stats: 1 mistakes, but the epochs made 2"},
		{r(`"mistakes":2,`, `"mistakes":5,`), "stats: 5 mistakes, but the epochs made 2"},
		{r(`"stepSums":[0]`, `"stepSums":[0],"bias":0`), `unknown field "bias"`},
		{r(`"stepSums":[0]`, `"stepSum":0`), "Kernel model of format version 2 with stepSum"},
		{r(`"stepSums":[0]`, `"stepSums":[0,0]`), "Kernel model has 2 sums of steps for 2 classes, want 1"},
		{r(`"classes":[-1,1]`, `"classes":[-1,1,2]`), "Kernel model has 2 support vectors and 2 coefficients, want 6"},
		{strings.Replace(goodKernelV1, `"stepSum":0`, `"stepSums":[0]`, 1), "Kernel model of format version 1 without stepSum"},
	})
}

func FuzzKernelUnmarshalJSON(f *testing.F) {
	f.Add([]byte(goodKernel))
	fuzzUnmarshalJSON(f, func() savable { return &Kernel{} }, func(c savable) int {
		if m := c.(*Kernel).m; m != nil {
			return m.d
		}
		return 0
	})
}

// TestJSONExtraMembers checks that a model file may carry members of its
// own beside the model, as the command's files do, while an unknown field
// within the settings, the model or the stats is still an error.
func TestJSONExtraMembers(t *testing.T) {
	rnd := rand.New(rand.NewPCG(221, 222))
	_, X, y := classSet(rnd, 40, 3, 3)
	for _, m := range []Scorer{&Perceptron{}, &Pocket{}, &Averaged{}, &Voted{}, &Kernel{}} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		extra := strings.Replace(string(b), `"settings":`, `"command":{"label":"last","scale":[1,2]},"settings":`, 1)
		back := fresh(m)
		if err := json.Unmarshal([]byte(extra), back); err != nil {
			t.Fatalf("%T: a file with a member of its own: %v", m, err)
		}
		if !sameBits(back.ScoreRows(nil, X), m.ScoreRows(nil, X)) {
			t.Fatalf("%T: the model read beside a member of its own scores differently", m)
		}
		for _, part := range []string{`"settings":{`, `"model":{`, `"stats":{`} {
			bad := strings.Replace(string(b), part, part+`"bogus":1,`, 1)
			if err := json.Unmarshal([]byte(bad), fresh(m)); err == nil || !strings.Contains(err.Error(), `unknown field "bogus"`) {
				t.Fatalf("%T: an unknown field after %s gives %v", m, part, err)
			}
		}
	}
}

// TestMarshalValue checks that a classifier marshals the same as a value
// and through a pointer, so that a struct holding one by value saves it.
func TestMarshalValue(t *testing.T) {
	rnd := rand.New(rand.NewPCG(223, 224))
	_, X, y := classSet(rnd, 30, 3, 3)
	p, pk, a, v, k := &Perceptron{OnUpdate: func(Update) {}}, &Pocket{}, &Averaged{}, &Voted{}, &Kernel{}
	for _, m := range []Scorer{p, pk, a, v, k} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		ptr, val any
	}{{p, *p}, {pk, *pk}, {a, *a}, {v, *v}, {k, *k}} {
		want, err := json.Marshal(c.ptr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(c.val)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%T marshals as a value to %s (%v), through a pointer to %s", c.val, got, err, want)
		}
	}
}
