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
