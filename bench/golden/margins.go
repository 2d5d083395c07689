// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// signs returns the labels of two classes as -1 for the first and +1 for
// the second.
func signs(s *set) []float64 {
	c := s.classes()
	y := make([]float64, len(s.y))
	for i, v := range s.y {
		y[i] = 1
		if v == c[0] {
			y[i] = -1
		}
	}
	return y
}

func sectionMargins(p *printer) {
	for _, name := range []string{"and", "and53", "xor", "xor2", "exercise", "sep2", "int2", "noisy2", "sparse2"} {
		s := setNamed(name)
		y := signs(s)
		_, d := s.X.Dims()
		fms := []form{forms[0]}
		if name == "sparse2" || name == "int2" {
			fms = append(fms, formNamed("csr"), formNamed("wrapped"))
		}
		for _, fm := range fms {
			X := fm.of(s.X)
			type plane struct {
				name string
				w    []float64
				b    float64
			}
			ones := make([]float64, d)
			for j := range ones {
				ones[j] = 1
			}
			planes := []plane{
				{"zero+1", make([]float64, d), 1},
				{"zero-1", make([]float64, d), -1},
				{"zero0", make([]float64, d), 0},
				{"ones-1.5", ones, -1.5},
				{"init", initWeights(d), 0.1},
			}
			for _, nb := range []bool{false, true} {
				q := &perceptron.Perceptron{Epochs: 100, NoBias: nb}
				if err := q.Fit(X, y); err == nil {
					w, b := q.Weights()
					planes = append(planes, plane{fmt.Sprintf("perceptron-nobias=%v", nb), w, b[0]})
				}
			}
			settings := []*perceptron.MarginSettings{nil, {NoBias: true}, {Tol: 1e-3}, {Tol: 0.2, NoBias: true}, {Tol: 1e-9}}
			for i, ms := range settings {
				p.run(fmt.Sprintf("%s/%s/DatasetMargin%d", s.name, fm.name, i), func() {
					p.printf("settings: %+v", ms)
					mm, err := perceptron.DatasetMargin(X, y, ms)
					p.err("DatasetMargin", err)
					p.floats("W", mm.W)
					p.printf("B %s, Lower %s, Upper %s", f(mm.B), f(mm.Lower), f(mm.Upper))
					if mm.W != nil {
						planes = append(planes, plane{fmt.Sprintf("DatasetMargin%d", i), mm.W, mm.B})
					}
					nb, err := perceptron.NovikoffBound(X, y, ms)
					p.err("NovikoffBound", err)
					p.printf("R %s, Margin %s, Bound %s", f(nb.R), f(nb.Margin), f(nb.Bound))
				})
			}
			p.run(s.name+"/"+fm.name+"/Separable", func() {
				ok, err := perceptron.Separable(X, y)
				p.err("Separable", err)
				p.printf("separable: %v", ok)
			})
			for _, pl := range planes {
				p.run(s.name+"/"+fm.name+"/plane-"+pl.name, func() {
					p.floats("w", pl.w)
					p.printf("b: %s", f(pl.b))
					g, err := perceptron.GeometricMargin(X, y, pl.w, pl.b)
					p.printf("GeometricMargin: %s (err %v)", f(g), err)
					fn, err := perceptron.FunctionalMargin(X, y, pl.w, pl.b)
					p.printf("FunctionalMargin: %s (err %v)", f(fn), err)
					pc, err := perceptron.PerceptronCriterion(X, y, pl.w, pl.b)
					p.printf("PerceptronCriterion: %s (err %v)", f(pc), err)
					z, err := perceptron.ZeroOneError(X, y, pl.w, pl.b)
					p.printf("ZeroOneError: %s (err %v)", f(z), err)
				})
			}
		}
	}
	// Scaled copies of a set: the margin scales exactly by a power of two.
	s := setNamed("sep2")
	for _, scale := range []float64{0x1p-60, 0x1p40, 3} {
		p.run(fmt.Sprintf("sep2-scaled-%s", f(scale)), func() {
			var X mat.Dense
			X.Scale(scale, s.X)
			mm, err := perceptron.DatasetMargin(&X, signs(s), nil)
			p.err("DatasetMargin", err)
			p.floats("W", mm.W)
			p.printf("B %s, Lower %s, Upper %s", f(mm.B), f(mm.Lower), f(mm.Upper))
		})
	}
	// One class: separable, with the margin +Inf with a bias.
	p.run("one-class", func() {
		X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 7})
		y := []float64{1, 1, 1}
		mm, err := perceptron.DatasetMargin(X, y, nil)
		p.err("DatasetMargin", err)
		p.floats("W", mm.W)
		p.printf("B %s, Lower %s, Upper %s", f(mm.B), f(mm.Lower), f(mm.Upper))
		ok, err := perceptron.Separable(X, y)
		p.printf("Separable: %v (err %v)", ok, err)
		nb, err := perceptron.NovikoffBound(X, y, nil)
		p.err("NovikoffBound", err)
		p.printf("R %s, Margin %s, Bound %s", f(nb.R), f(nb.Margin), f(nb.Bound))
	})
}
