// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// errorKinds are the classifiers whose errors the section prints.
var errorKinds = kindsNamed("Perceptron", "Pocket", "Averaged", "Voted", "Kernel-linear-last", "OneVsRest")

// foreignScorer is a Scorer of another package, which OneVsRest refuses.
type foreignScorer struct{ perceptron.Perceptron }

func sectionErrors(p *printer) {
	fitErrors(p)
	settingErrors(p)
	panicErrors(p)
	learnErrors(p)
	jsonErrors(p)
	csrErrors(p)
	shardErrors(p)
	marginErrors(p)
}

// withValue returns a copy of m whose element i, j is v.
func withValue(m *mat.Dense, i, j int, v float64) *mat.Dense {
	c := mat.DenseCopyOf(m)
	c.Set(i, j, v)
	return c
}

// withLabel returns a copy of y whose element i is v.
func withLabel(y []float64, i int, v float64) []float64 {
	c := append([]float64(nil), y...)
	c[i] = v
	return c
}

// fitErrors prints the errors of Fit on data it cannot train on, and
// that the model of an earlier Fit stands after them.
func fitErrors(p *printer) {
	and, tri := setNamed("and"), setNamed("tri")
	emptyCSR, _ := perceptron.NewCSR(0, 2, []int{0}, nil, nil)
	noCols, _ := perceptron.NewCSR(3, 0, []int{0, 0, 0, 0}, nil, nil)
	huge := mat.NewDense(4, 2, []float64{1e308, 1e308, -1e308, 1e308, 1e308, -1e308, -1e308, -1e308})
	type bad struct {
		name string
		X    mat.Matrix
		y    []float64
	}
	bads := []bad{
		{"nan-x", withValue(and.X, 2, 1, math.NaN()), and.y},
		{"inf-x", withValue(and.X, 3, 0, math.Inf(-1)), and.y},
		{"inf-x-foreign", newForeign(withValue(and.X, 1, 1, math.Inf(1)), false), and.y},
		{"nan-x-multiclass", withValue(tri.X, 7, 0, math.NaN()), tri.y},
		{"nan-y", and.X, withLabel(and.y, 1, math.NaN())},
		{"inf-y", and.X, withLabel(and.y, 3, math.Inf(1))},
		{"short-y", and.X, and.y[:3]},
		{"long-y", and.X, append(append([]float64(nil), and.y...), 1)},
		{"nil-y", and.X, nil},
		{"one-class", and.X, []float64{2, 2, 2, 2}},
		{"no-rows-dense", &mat.Dense{}, nil},
		{"no-rows-csr", emptyCSR, nil},
		{"no-columns", noCols, []float64{1, -1, 1}},
		{"huge-x", huge, []float64{1, -1, -1, 1}},
	}
	for _, k := range errorKinds {
		for _, b := range bads {
			p.run("fit/"+k.name+"/"+b.name, func() {
				e := newEnv(cfg{epochs: 50, record: true}, 2, and.y)
				m := k.new(e)
				p.err("fit", m.Fit(b.X, b.y))
				e.rec.print(p)
				describe(p, "", m)
			})
		}
		p.run("fit/"+k.name+"/stands-after-failure", func() {
			m := k.new(newEnv(cfg{epochs: 50}, 2, tri.y))
			p.err("fit", m.Fit(tri.X, tri.y))
			want := m.ScoreRows(nil, tri.test)
			for _, b := range []bad{{"nan", withValue(tri.X, 4, 1, math.NaN()), tri.y}, {"one-class", tri.X, make([]float64, 9)}} {
				p.err("fit "+b.name, m.Fit(b.X, b.y))
				p.printf("scores stand: %v", same(want, m.ScoreRows(nil, tri.test)))
			}
			describe(p, "", m)
		})
		p.run("fit/"+k.name+"/label-not-in-labels", func() {
			e := newEnv(cfg{labels: func([]float64) []float64 { return []float64{-1, 2} }}, 2, and.y)
			p.err("fit", k.new(e).Fit(and.X, and.y))
		})
		p.run("fit/"+k.name+"/one-label", func() {
			e := newEnv(cfg{labels: func([]float64) []float64 { return []float64{1} }}, 2, []float64{1})
			p.err("fit", k.new(e).Fit(and.X, []float64{1, 1, 1, 1}))
		})
		p.run("fit/"+k.name+"/nan-label", func() {
			e := newEnv(cfg{labels: func([]float64) []float64 { return []float64{-1, math.NaN(), 1} }}, 2, and.y)
			p.err("fit", k.new(e).Fit(and.X, and.y))
		})
	}
	p.run("fit/OneVsRest/new-nil", func() {
		o := &perceptron.OneVsRest{New: func() perceptron.Scorer { return nil }}
		p.err("fit", o.Fit(tri.X, tri.y))
	})
	p.run("fit/OneVsRest/new-foreign", func() {
		o := &perceptron.OneVsRest{New: func() perceptron.Scorer { return &foreignScorer{} }}
		p.err("fit", o.Fit(tri.X, tri.y))
	})
	p.run("fit/OneVsRest/class-fails", func() {
		o := &perceptron.OneVsRest{New: func() perceptron.Scorer {
			return &perceptron.Perceptron{Stop: &perceptron.Stop{Validation: 0.01}}
		}}
		p.err("fit", o.Fit(tri.X, tri.y))
		o.New = func() perceptron.Scorer { return &perceptron.Kernel{Func: perceptron.RBF{Gamma: -1}} }
		p.err("fit", o.Fit(and.X, and.y))
	})
}

// settingErrors prints the errors of Fit with settings that are not
// valid.
func settingErrors(p *printer) {
	s := setNamed("and")
	bads := []cfg{
		{name: "epochs-1", epochs: -1},
		{name: "rate-1", rate: -1},
		{name: "rate-nan", rate: math.NaN()},
		{name: "rate-inf", rate: math.Inf(1)},
		{name: "rate-huge", rate: math.MaxFloat64, epochs: 20},
		{name: "stop-tol-1", stop: &perceptron.Stop{Tol: -1}},
		{name: "stop-tol-nan", stop: &perceptron.Stop{Tol: math.NaN()}},
		{name: "stop-nochange-1", stop: &perceptron.Stop{NoChange: -1}},
		{name: "stop-val1", stop: &perceptron.Stop{Validation: 1}},
		{name: "stop-val-0.1", stop: &perceptron.Stop{Validation: -0.1}},
		{name: "stop-val0.01", stop: &perceptron.Stop{Validation: 0.01}},
		{name: "stop-val0.9", stop: &perceptron.Stop{Validation: 0.9}},
		{name: "stop-val-nan", stop: &perceptron.Stop{Validation: math.NaN()}},
	}
	for _, k := range errorKinds {
		for _, c := range bads {
			p.run("settings/"+k.name+"/"+c.name, func() {
				p.err("fit", k.new(newEnv(c, 2, s.y)).Fit(s.X, s.y))
			})
		}
	}
	s = setNamed("tri")
	inits := map[string][]float64{"init-short": {1, 2, 3}, "init-nan": {0, 1, 2, 3, math.NaN(), 5}, "init-inf": {0, 1, 2, 3, 4, math.Inf(-1)}}
	for _, name := range []string{"init-short", "init-nan", "init-inf"} {
		for _, m := range []perceptron.Classifier{
			&perceptron.Perceptron{InitWeights: inits[name]}, &perceptron.Pocket{InitWeights: inits[name]},
			&perceptron.Averaged{InitWeights: inits[name]}, &perceptron.Voted{InitWeights: inits[name]},
		} {
			p.run(fmt.Sprintf("settings/%T/%s", m, name), func() { p.err("fit", m.Fit(s.X, s.y)) })
		}
	}
	kernels := []struct {
		name string
		k    *perceptron.Kernel
	}{
		{"budget-1", &perceptron.Kernel{Budget: -1}},
		{"poly-degree-1", &perceptron.Kernel{Func: perceptron.Poly{Degree: -1}}},
		{"poly-gamma-1", &perceptron.Kernel{Func: perceptron.Poly{Gamma: -1}}},
		{"poly-gamma-inf", &perceptron.Kernel{Func: perceptron.Poly{Gamma: math.Inf(1)}}},
		{"poly-coef0-nan", &perceptron.Kernel{Func: perceptron.Poly{Coef0: math.NaN()}}},
		{"rbf-gamma-1", &perceptron.Kernel{Func: perceptron.RBF{Gamma: -1}}},
		{"rbf-gamma-nan", &perceptron.Kernel{Func: &perceptron.RBF{Gamma: math.NaN()}}},
		{"prediction7", &perceptron.Kernel{Prediction: 7}},
		{"prediction-1", &perceptron.Kernel{Prediction: -1, Stop: &perceptron.Stop{Validation: 0.4}}},
		{"custom-nan", &perceptron.Kernel{Func: perceptron.Custom(func(x, z []float64) float64 { return math.NaN() })}},
		{"custom-huge", &perceptron.Kernel{Func: perceptron.Custom(func(x, z []float64) float64 { return 1e308 }), Rate: 1e10}},
		{"custom-panics", &perceptron.Kernel{Func: perceptron.Custom(func(x, z []float64) float64 { panic("custom kernel panics") })}},
		{"poly-overflow", &perceptron.Kernel{Func: perceptron.Poly{Degree: 400, Gamma: 10}}},
	}
	for _, kn := range kernels {
		p.run("settings/Kernel/"+kn.name, func() {
			p.err("fit", kn.k.Fit(s.X, s.y))
			if kn.k.Classes() != nil {
				p.panics("Predict", func() { kn.k.Predict([]float64{1, 2}) })
				p.panics("ScoreRows", func() { kn.k.ScoreRows(nil, s.test) })
			}
		})
	}
}

// panicErrors prints the panics of the prediction methods.
func panicErrors(p *printer) {
	s := setNamed("tri")
	for _, k := range kinds {
		p.run("panics/"+k.name, func() {
			m := k.new(newEnv(cfg{epochs: 3}, 2, s.y))
			p.panics("Predict before Fit", func() { m.Predict([]float64{1, 2}) })
			p.panics("ScoreRows before Fit", func() { m.ScoreRows(nil, s.test) })
			p.panics("PredictRows before Fit", func() { m.PredictRows(nil, s.test) })
			p.floats("Classes before Fit", m.Classes())
			if w, ok := m.(weighter); ok {
				w, b := w.Weights()
				p.printf("Weights before Fit: %v %v", w == nil, b == nil)
			}
			if st, ok := m.(statser); ok {
				stats(p, "before Fit ", st.Stats())
			}
			_, err := json.Marshal(m)
			p.err("json before Fit", err)
			p.err("fit", m.Fit(s.X, s.y))
			p.panics("Predict short", func() { m.Predict([]float64{1}) })
			p.panics("Predict long", func() { m.Predict([]float64{1, 2, 3}) })
			p.printf("Predict NaN: %s", f(m.Predict([]float64{math.NaN(), 1})))
			p.panics("ScoreRows wide", func() { m.ScoreRows(nil, mat.NewDense(1, 3, nil)) })
			p.panics("ScoreRows dst short", func() { m.ScoreRows(make([]float64, 2), s.test) })
			p.panics("PredictRows dst long", func() { m.PredictRows(make([]float64, 1000), s.test) })
			p.panics("ScoreRows NaN", func() { m.ScoreRows(nil, withValue(s.test, 2, 1, math.NaN())) })
			p.panics("ScoreRows foreign Inf", func() { m.ScoreRows(nil, newForeign(withValue(s.test, 2, 1, math.Inf(1)), false)) })
			p.panics("ScoreRows foreign out of range", func() {
				f := newForeign(s.test, false)
				f.cols[3] = []int{0, 5}
				m.ScoreRows(nil, f)
			})
			p.panics("PredictRows wrapped wide", func() { m.PredictRows(nil, wrapped{mat.NewDense(2, 4, nil)}) })
			if kn, ok := m.(*perceptron.Kernel); ok {
				kn.Prediction = 5
				p.panics("Predict rule 5", func() { m.Predict([]float64{1, 2}) })
				p.panics("ScoreRows rule 5", func() { m.ScoreRows(nil, s.test) })
				_, err := json.Marshal(m)
				p.err("json rule 5", err)
			}
		})
	}
	p.run("panics/CSR", func() {
		c := toCSR(s.X, false)
		p.panics("At row", func() { c.At(9, 0) })
		p.panics("At column", func() { c.At(0, 2) })
		p.panics("At -1", func() { c.At(-1, 0) })
		p.panics("DoRowNonZero", func() { c.DoRowNonZero(9, func(i, j int, v float64) {}) })
		r, cl := c.T().Dims()
		p.printf("T dims %d %d, At(1, 4) %s", r, cl, f(c.T().At(1, 4)))
		var z perceptron.CSR
		r, cl = z.Dims()
		p.printf("zero CSR: %d×%d nnz %d", r, cl, z.NNZ())
	})
}

// learnErrors prints the errors of Learn.
func learnErrors(p *printer) {
	s := setNamed("tri")
	for _, k := range learnKinds {
		p.run("learn/"+k.name, func() {
			m := k.new(newEnv(cfg{epochs: 4}, 2, s.y)).(learner)
			p.err("learn unfitted", m.Learn(s.X, s.y))
			p.err("fit", m.Fit(s.X, s.y))
			p.err("learn wide", m.Learn(mat.NewDense(2, 3, nil), []float64{1, 2}))
			p.err("learn new class", m.Learn(s.X, withLabel(s.y, 4, 7)))
			p.err("learn NaN", m.Learn(withValue(s.X, 5, 0, math.NaN()), s.y))
			p.err("learn short y", m.Learn(s.X, s.y[:4]))
			p.err("learn one class", m.Learn(s.X.Slice(0, 3, 0, 2), s.y[:3]))
			p.err("learn overflow", m.Learn(mat.NewDense(2, 2, []float64{1e308, 1e308, -1e308, 1e308}), []float64{1, 3}))
			describe(p, "", m)
		})
	}
}

// jsonErrors prints the errors of loading what is not a saved
// classifier, or a malformed one.
func jsonErrors(p *printer) {
	s := setNamed("tri")
	q := &perceptron.Perceptron{Epochs: 5}
	if err := q.Fit(s.X, s.y); err != nil {
		panic(err)
	}
	good, _ := json.Marshal(q)
	k := &perceptron.Kernel{Func: perceptron.RBF{}, Epochs: 5}
	if err := k.Fit(s.X, s.y); err != nil {
		panic(err)
	}
	goodK, _ := json.Marshal(k)
	inputs := []struct{ name, data string }{
		{"empty", ""},
		{"null", "null"},
		{"object", "{}"},
		{"array", "[1,2]"},
		{"number", "3"},
		{"no-type", `{"version":1}`},
		{"unknown-type", `{"type":"Forest","version":1}`},
		{"long-type", `{"type":"` + strings.Repeat("x", 100) + `"}`},
		{"type-only", `{"type":"Perceptron"}`},
		{"truncated", string(good[:len(good)/2])},
		{"version2", strings.Replace(string(good), `"version":1`, `"version":2`, 1)},
		{"unknown-member", strings.Replace(string(good), `"version":1`, `"version":1,"color":"red"`, 1)},
		{"command-member", strings.Replace(string(good), `"version":1`, `"version":1,"command":{}`, 1)},
		{"no-model", strings.Replace(string(good), `"model"`, `"modell"`, 1)},
		{"weights-short", strings.Replace(string(good), `"weights":[`, `"weights":[1,`, 1)},
		{"weights-string", strings.Replace(string(good), `"weights":[`, `"weights":["a",`, 1)},
		{"classes-unsorted", strings.Replace(string(good), `"classes":[1,2,3]`, `"classes":[2,1,3]`, 1)},
		{"classes-two", strings.Replace(string(good), `"classes":[1,2,3]`, `"classes":[1,2]`, 1)},
		{"epochs-negative", strings.Replace(string(good), `"epochs":5`, `"epochs":-5`, 1)},
		{"rate-negative", strings.Replace(string(good), `"rate":0`, `"rate":-1`, 1)},
		{"stats-mistakes", strings.Replace(string(good), `"mistakes":`, `"mistakes":-`, 1)},
		{"kernel-unknown", strings.Replace(string(goodK), `"name":"rbf"`, `"name":"sigmoid"`, 1)},
		{"kernel-prediction", strings.Replace(string(goodK), `"prediction":"last"`, `"prediction":"median"`, 1)},
		{"kernel-rows", strings.Replace(string(goodK), `"rows":`, `"rows":1`, 1)},
		{"kernel-values", strings.Replace(string(goodK), `"values":"`, `"values":"AAAA`, 1)},
		{"kernel-as-perceptron", strings.Replace(string(goodK), `"type":"Kernel"`, `"type":"Perceptron"`, 1)},
	}
	for _, in := range inputs {
		p.run("json/"+in.name, func() {
			m, err := perceptron.Unmarshal([]byte(in.data))
			p.err("Unmarshal", err)
			if err == nil {
				p.printf("loaded: %T", m)
				describe(p, "", m)
			}
			for _, t := range []perceptron.Scorer{&perceptron.Perceptron{}, &perceptron.Kernel{}, &perceptron.OneVsRest{}} {
				p.err(fmt.Sprintf("json.Unmarshal into %T", t), json.Unmarshal([]byte(in.data), t))
			}
		})
	}
	p.run("json/null-into-fitted", func() {
		c := *q
		p.err("json.Unmarshal null", json.Unmarshal([]byte("null"), &c))
		p.printf("scores stand: %v", same(c.ScoreRows(nil, s.test), q.ScoreRows(nil, s.test)))
	})
	p.run("json/perceptron-into-others", func() {
		for _, t := range []perceptron.Scorer{&perceptron.Pocket{}, &perceptron.Averaged{}, &perceptron.Voted{}} {
			p.err(fmt.Sprintf("json.Unmarshal into %T", t), json.Unmarshal(good, t))
		}
	})
	p.run("json/custom-kernel", func() {
		c := &perceptron.Kernel{Func: square, Epochs: 3}
		p.err("fit", c.Fit(s.X, s.y))
		_, err := json.Marshal(c)
		p.err("json", err)
		o := &perceptron.OneVsRest{New: func() perceptron.Scorer { return &perceptron.Kernel{Func: cauchy, Epochs: 2} }}
		p.err("fit", o.Fit(s.X, s.y))
		_, err = json.Marshal(o)
		p.err("json OneVsRest", err)
		k := &perceptron.Kernel{Func: perceptron.RBF{}, Epochs: 3}
		p.err("fit", k.Fit(s.X, s.y))
		k.Func = cauchy
		_, err = json.Marshal(k)
		p.err("json of a Custom Func after Fit", err)
	})
}

// csrErrors prints the errors of NewCSR.
func csrErrors(p *printer) {
	type in struct {
		name     string
		r, c     int
		ptr, ind []int
		val      []float64
	}
	ins := []in{
		{"ok", 2, 3, []int{0, 2, 3}, []int{0, 2, 1}, []float64{1, 2, 3}},
		{"explicit-zero", 2, 3, []int{0, 2, 3}, []int{0, 2, 1}, []float64{0, 2, 0}},
		{"negative-rows", -1, 3, []int{0}, nil, nil},
		{"negative-cols", 1, -3, []int{0, 0}, nil, nil},
		{"ptr-short", 2, 3, []int{0, 2}, []int{0, 2}, []float64{1, 2}},
		{"ptr-start", 2, 3, []int{1, 2, 3}, []int{0, 2, 1}, []float64{1, 2, 3}},
		{"ptr-decreasing", 2, 3, []int{0, 2, 1}, []int{0, 2}, []float64{1, 2}},
		{"ptr-end", 2, 3, []int{0, 1, 2}, []int{0, 2, 1}, []float64{1, 2, 3}},
		{"ind-val", 2, 3, []int{0, 2, 3}, []int{0, 2, 1}, []float64{1, 2}},
		{"unsorted", 2, 3, []int{0, 2, 3}, []int{2, 0, 1}, []float64{1, 2, 3}},
		{"duplicate", 2, 3, []int{0, 2, 3}, []int{1, 1, 1}, []float64{1, 2, 3}},
		{"column-range", 2, 3, []int{0, 2, 3}, []int{0, 3, 1}, []float64{1, 2, 3}},
		{"column-negative", 2, 3, []int{0, 2, 3}, []int{-1, 0, 1}, []float64{1, 2, 3}},
		{"nan", 2, 3, []int{0, 2, 3}, []int{0, 2, 1}, []float64{1, math.NaN(), 3}},
		{"inf", 2, 3, []int{0, 2, 3}, []int{0, 2, 1}, []float64{1, 2, math.Inf(1)}},
	}
	for _, in := range ins {
		p.run("csr/"+in.name, func() {
			m, err := perceptron.NewCSR(in.r, in.c, in.ptr, in.ind, in.val)
			p.err("NewCSR", err)
			if err == nil {
				matrix(p, "m", m)
			}
		})
	}
}

// shardErrors prints the errors of FitShards, LearnShard and Mix.
func shardErrors(p *printer) {
	s := setNamed("tri")
	X, y := shardsOf(s, forms[0], 3)
	wide := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	var nilP *perceptron.Perceptron
	cases := []struct {
		name string
		err  func() error
	}{
		{"fitshards-voted", func() error { return perceptron.FitShards(&perceptron.Voted{}, X, y, false) }},
		{"fitshards-nil", func() error { return perceptron.FitShards(nilP, X, y, false) }},
		{"fitshards-none", func() error { return perceptron.FitShards(&perceptron.Perceptron{}, nil, nil, false) }},
		{"fitshards-counts", func() error { return perceptron.FitShards(&perceptron.Perceptron{}, X, y[:2], false) }},
		{"fitshards-widths", func() error {
			return perceptron.FitShards(&perceptron.Averaged{}, []mat.Matrix{X[0], wide}, [][]float64{y[0], {1, 2}}, false)
		}},
		{"fitshards-nan-y", func() error {
			return perceptron.FitShards(&perceptron.Perceptron{}, X, [][]float64{y[0], withLabel(y[1], 1, math.NaN()), y[2]}, false)
		}},
		{"fitshards-nan-x", func() error {
			return perceptron.FitShards(&perceptron.Averaged{}, []mat.Matrix{X[0], X[1], withValue(X[2].(*mat.Dense), 1, 1, math.Inf(1))}, y, true)
		}},
		{"fitshards-one-class", func() error {
			return perceptron.FitShards(&perceptron.Perceptron{}, X[:1], [][]float64{{1, 1, 1}}, false)
		}},
		{"fitshards-labels", func() error {
			return perceptron.FitShards(&perceptron.Perceptron{Labels: []float64{1, 2}}, X, y, false)
		}},
		{"fitshards-epochs", func() error { return perceptron.FitShards(&perceptron.Perceptron{Epochs: -2}, X, y, false) }},
		{"fitshards-rate", func() error { return perceptron.FitShards(&perceptron.Averaged{Rate: -2}, X, y, false) }},
		{"learnshard-pocket", func() error {
			_, err := perceptron.LearnShard(&perceptron.Pocket{}, X[0], y[0])
			return err
		}},
		{"learnshard-unfitted", func() error {
			_, err := perceptron.LearnShard(&perceptron.Perceptron{}, X[0], y[0])
			return err
		}},
		{"mix-none", func() error { return perceptron.Mix(&perceptron.Perceptron{}, nil, false) }},
		{"mix-kernel", func() error {
			return perceptron.Mix(&perceptron.Kernel{}, []perceptron.Classifier{&perceptron.Kernel{}}, false)
		}},
		{"mix-unlearned", func() error {
			return perceptron.Mix(&perceptron.Perceptron{}, []perceptron.Classifier{&perceptron.Perceptron{}}, false)
		}},
		{"mix-types", func() error {
			part, err := perceptron.LearnShard(&perceptron.Perceptron{Labels: []float64{1, 2, 3}}, X[0], y[0])
			if err != nil {
				return err
			}
			return perceptron.Mix(&perceptron.Averaged{}, []perceptron.Classifier{part}, false)
		}},
		{"mix-classes", func() error {
			a, err := perceptron.LearnShard(&perceptron.Perceptron{Labels: []float64{1, 2, 3}}, X[0], y[0])
			if err != nil {
				return err
			}
			b, err := perceptron.LearnShard(&perceptron.Perceptron{Labels: []float64{1, 2, 3, 4}}, X[0], y[0])
			if err != nil {
				return err
			}
			return perceptron.Mix(&perceptron.Perceptron{}, []perceptron.Classifier{a, b}, true)
		}},
		{"mix-bias", func() error {
			a, err := perceptron.LearnShard(&perceptron.Perceptron{Labels: []float64{1, 2, 3}}, X[0], y[0])
			if err != nil {
				return err
			}
			b, err := perceptron.LearnShard(&perceptron.Perceptron{Labels: []float64{1, 2, 3}, NoBias: true}, X[0], y[0])
			if err != nil {
				return err
			}
			return perceptron.Mix(&perceptron.Perceptron{}, []perceptron.Classifier{a, b}, false)
		}},
		{"mix-nil-part", func() error {
			return perceptron.Mix(&perceptron.Perceptron{}, []perceptron.Classifier{nil}, false)
		}},
	}
	for _, c := range cases {
		p.run("shards/"+c.name, func() { p.err("err", c.err()) })
	}
}

// marginErrors prints the errors of the margin functions.
func marginErrors(p *printer) {
	s := setNamed("and")
	y := signs(s)
	w := []float64{1, 1}
	cases := []struct {
		name string
		err  func() error
	}{
		{"labels01", func() error { _, err := perceptron.GeometricMargin(s.X, []float64{0, 0, 0, 1}, w, 0); return err }},
		{"labels-short", func() error { _, err := perceptron.FunctionalMargin(s.X, y[:2], w, 0); return err }},
		{"w-short", func() error { _, err := perceptron.PerceptronCriterion(s.X, y, w[:1], 0); return err }},
		{"w-nan", func() error { _, err := perceptron.ZeroOneError(s.X, y, []float64{math.NaN(), 1}, 0); return err }},
		{"b-inf", func() error { _, err := perceptron.GeometricMargin(s.X, y, w, math.Inf(1)); return err }},
		{"x-nan", func() error {
			_, err := perceptron.FunctionalMargin(withValue(s.X, 1, 1, math.NaN()), y, w, 0)
			return err
		}},
		{"tol1", func() error {
			_, err := perceptron.DatasetMargin(s.X, y, &perceptron.MarginSettings{Tol: 1})
			return err
		}},
		{"tol-1", func() error {
			_, err := perceptron.NovikoffBound(s.X, y, &perceptron.MarginSettings{Tol: -1})
			return err
		}},
		{"tol-nan", func() error {
			_, err := perceptron.DatasetMargin(s.X, y, &perceptron.MarginSettings{Tol: math.NaN()})
			return err
		}},
		{"scale-huge", func() error {
			var X mat.Dense
			X.Scale(0x1p300, s.X)
			_, err := perceptron.DatasetMargin(&X, y, nil)
			return err
		}},
		{"scale-tiny", func() error {
			var X mat.Dense
			X.Scale(0x1p-300, s.X)
			_, err := perceptron.NovikoffBound(&X, y, nil)
			return err
		}},
		{"separable-labels", func() error { _, err := perceptron.Separable(s.X, []float64{1, 2, 1, 2}); return err }},
		{"separable-nan", func() error { _, err := perceptron.Separable(withValue(s.X, 0, 0, math.NaN()), y); return err }},
		{"separable-large", func() error {
			_, err := perceptron.Separable(mat.NewDense(3, 12000, nil), []float64{1, -1, 1})
			return err
		}},
	}
	for _, c := range cases {
		p.run("margins/"+c.name, func() { p.err("err", c.err()) })
	}
}
