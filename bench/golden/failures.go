// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"fmt"
	"math"

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
