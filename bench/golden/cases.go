// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// sectionSets prints the size, classes and a hash of every set, so that a
// difference in the data shows as such and not as one in the models.
func sectionSets(p *printer) {
	for _, s := range slices.Concat(sets, sizeSets) {
		p.run(s.name, func() {
			n, d := s.X.Dims()
			nt, _ := s.test.Dims()
			np, _ := s.probe.Dims()
			p.printf("rows %d, columns %d, test rows %d, probe rows %d, epochs %d", n, d, nt, np, s.limit)
			p.floats("classes", s.classes())
			p.printf("hash X %x, y %x, test %x, probe %x", hashMatrix(s.X), hash(s.y), hashMatrix(s.test), hashMatrix(s.probe))
			if n <= 10 {
				matrix(p, "X", s.X)
				p.floats("y", s.y)
			}
		})
	}
}

// sectionModels fits every kind with its defaults on every set, dense.
func sectionModels(p *printer) {
	for _, s := range sets {
		for _, k := range kinds {
			p.run(s.name+"/"+k.name, func() { fitCase(p, s, forms[0], k, cfg{}, s.test, full) })
		}
	}
}

// settingKinds are the classifiers that the settings section runs under
// every setting.
var settingKinds = kindsNamed("Perceptron", "Pocket", "Pocket-ratchet", "Averaged", "Voted",
	"Kernel-linear-last", "Kernel-poly2-voted", "Kernel-rbf-averaged", "Kernel-rbf-last-budget5",
	"OneVsRest-Perceptron", "OneVsRest-Averaged", "OneVsRest-Kernel-rbf-averaged")

// sectionSettings fits the settingKinds under every setting on a few sets.
func sectionSettings(p *printer) {
	for _, name := range []string{"exercise", "xor", "tri", "noisy2", "noisy4"} {
		s := setNamed(name)
		lv := brief
		if n, _ := s.X.Dims(); n < 10 {
			lv = full
		}
		for _, c := range settings {
			for _, k := range settingKinds {
				p.run(s.name+"/"+c.name+"/"+k.name, func() { fitCase(p, s, forms[0], k, c, s.probe, lv) })
			}
		}
	}
	// The exercise's InitWeights, through the origin: (2, 1.2), (3, -0.8),
	// (3, 0.2), then an epoch without a mistake.
	s := setNamed("exercise")
	for _, k := range kindsNamed("Perceptron", "Pocket", "Pocket-ratchet", "Averaged", "Voted") {
		p.run("exercise/theta0/"+k.name, func() {
			e := newEnv(cfg{noBias: true, record: true}, 2, s.y)
			m := k.new(e)
			switch m := m.(type) {
			case *perceptron.Perceptron:
				m.InitWeights = []float64{1, -0.8}
			case *perceptron.Pocket:
				m.InitWeights = []float64{1, -0.8}
			case *perceptron.Averaged:
				m.InitWeights = []float64{1, -0.8}
			case *perceptron.Voted:
				m.InitWeights = []float64{1, -0.8}
			}
			p.err("fit", m.Fit(s.X, s.y))
			e.rec.print(p)
			dump(p, m, s.test, s.test, full)
		})
	}
}

// inputKinds are the classifiers that the inputs section fits on every
// form of the data.
var inputKinds = kindsNamed("Perceptron", "Pocket", "Averaged", "Voted",
	"Kernel-linear-voted", "Kernel-rbf-averaged", "Kernel-square-last", "OneVsRest-Perceptron")

// sectionInputs fits some kinds on every form of some sets, and scores
// the test rows of a model fitted on dense rows, and of one fitted on
// sparse rows, in every form.
func sectionInputs(p *printer) {
	c := cfg{epochs: 10}
	for _, name := range []string{"and", "tri", "noisy2", "int5", "sparse3"} {
		s := setNamed(name)
		for _, fm := range forms {
			for _, k := range inputKinds {
				p.run(s.name+"/"+fm.name+"/"+k.name, func() { fitCase(p, s, fm, k, c, s.probe, brief) })
			}
		}
		for _, trained := range []form{forms[0], formNamed("csr")} {
			for _, k := range inputKinds {
				p.run(s.name+"/score-forms/"+trained.name+"/"+k.name, func() {
					_, d := s.X.Dims()
					m := k.new(newEnv(c, d, s.y))
					p.err("fit", m.Fit(trained.of(s.X), s.y))
					S := scores(len(m.Classes()))
					for _, fm := range forms {
						predictions(p, fm.name, m, fm.of(s.test), S)
					}
				})
			}
		}
	}
}

// sectionKernel fits kernels of parameters and budgets that the kinds do
// not have.
func sectionKernel(p *printer) {
	kernels := []struct {
		name string
		fn   perceptron.KernelFunc
	}{
		{"poly1", perceptron.Poly{Degree: 1}},
		{"poly2-gamma0", perceptron.Poly{Degree: 2, Coef0: 0.5}},
		{"poly4-negcoef", perceptron.Poly{Degree: 4, Gamma: 0.25, Coef0: -0.5}},
		{"poly0-coef0", perceptron.Poly{Degree: 0, Gamma: 2, Coef0: 3}},
		{"rbf-wide", perceptron.RBF{Gamma: 1e-3}},
		{"rbf-narrow", perceptron.RBF{Gamma: 50}},
		{"cauchy", cauchy},
	}
	for _, name := range []string{"xor", "tri", "noisy2", "noisy4", "sparse3"} {
		s := setNamed(name)
		fm := forms[0]
		if name == "sparse3" {
			fm = formNamed("csr")
		}
		for _, kn := range kernels {
			for _, rule := range []perceptron.Prediction{last, voted, averaged} {
				k := kind{name: fmt.Sprintf("%s-rule%d", kn.name, rule), new: newKernel(kn.fn, rule, 0)}
				p.run(s.name+"/"+k.name, func() { fitCase(p, s, fm, k, cfg{epochs: 12}, s.probe, rules) })
			}
		}
		for _, budget := range []int{1, 2, 7, 1000} {
			for _, seed := range []uint64{0, 11} {
				for _, rule := range []perceptron.Prediction{last, voted, averaged} {
					k := kind{name: fmt.Sprintf("rbf-budget%d-rule%d-seed%d", budget, rule, seed), new: newKernel(perceptron.RBF{Gamma: 0.5}, rule, budget)}
					p.run(s.name+"/"+k.name, func() { fitCase(p, s, fm, k, cfg{epochs: 8, seed: seed}, s.probe, rules) })
				}
			}
		}
		k := kind{name: "linear-nobias-rate0.3", new: newKernel(nil, averaged, 0)}
		p.run(s.name+"/"+k.name, func() { fitCase(p, s, fm, k, cfg{epochs: 8, noBias: true, rate: 0.3}, s.probe, full) })
	}
	// A Kernel of the linear kernel makes Perceptron's mistakes.
	for _, name := range []string{"and", "int2", "tri"} {
		s := setNamed(name)
		p.run(s.name+"/linear-as-perceptron", func() {
			k, q := &perceptron.Kernel{}, &perceptron.Perceptron{}
			p.err("kernel fit", k.Fit(s.X, s.y))
			p.err("perceptron fit", q.Fit(s.X, s.y))
			ks, qs := k.Stats(), q.Stats()
			p.printf("mistakes: kernel %d, perceptron %d", ks.Mistakes, qs.Mistakes)
			p.rows("kernel scores", k.ScoreRows(nil, s.test), scores(len(k.Classes())))
			p.rows("perceptron scores", q.ScoreRows(nil, s.test), scores(len(q.Classes())))
		})
	}
}

// sectionOneVsRest fits OneVsRest of classifiers with settings and Labels
// of their own, which it overrides, and of shared and unshared Rand.
func sectionOneVsRest(p *printer) {
	for _, name := range []string{"and53", "tri", "noisy4", "sparse3"} {
		s := setNamed(name)
		fm := forms[0]
		if name == "sparse3" {
			fm = formNamed("csr")
		}
		p.run(s.name+"/inner-labels", func() {
			o := &perceptron.OneVsRest{New: func() perceptron.Scorer {
				return &perceptron.Perceptron{Labels: []float64{100, 200}, Epochs: 10}
			}}
			p.err("fit", o.Fit(fm.of(s.X), s.y))
			dump(p, o, fm.of(s.probe), s.probe, full)
		})
		p.run(s.name+"/own-rand", func() {
			seed := uint64(0)
			o := &perceptron.OneVsRest{New: func() perceptron.Scorer {
				seed++
				return &perceptron.Averaged{Epochs: 6, Rand: rand.New(rand.NewPCG(seed, 1))}
			}}
			p.err("fit", o.Fit(fm.of(s.X), s.y))
			dump(p, o, fm.of(s.probe), s.probe, full)
		})
		p.run(s.name+"/mixed-kinds", func() {
			i := 0
			o := &perceptron.OneVsRest{Labels: extraClass(s.classes()), New: func() perceptron.Scorer {
				i++
				switch i % 4 {
				case 0:
					return &perceptron.Perceptron{Epochs: 5}
				case 1:
					return &perceptron.Voted{Epochs: 5}
				case 2:
					return &perceptron.Kernel{Func: perceptron.RBF{}, Epochs: 5, Prediction: averaged}
				}
				return &perceptron.Pocket{Epochs: 5, Ratchet: true}
			}}
			p.err("fit", o.Fit(fm.of(s.X), s.y))
			dump(p, o, fm.of(s.probe), s.probe, full)
		})
	}
	// Refitting gives the same model, and the fitted model goes on after
	// a failed Fit.
	s := setNamed("noisy4")
	p.run("refit", func() {
		o := &perceptron.OneVsRest{New: func() perceptron.Scorer { return &perceptron.Averaged{Epochs: 4} }}
		p.err("fit", o.Fit(s.X, s.y))
		a := o.ScoreRows(nil, s.test)
		p.err("fit again", o.Fit(s.X, s.y))
		p.printf("same scores: %v", same(a, o.ScoreRows(nil, s.test)))
		bad := mat.DenseCopyOf(s.X)
		bad.Set(3, 2, math.NaN())
		p.err("fit NaN", o.Fit(bad, s.y))
		p.printf("same scores after: %v", same(a, o.ScoreRows(nil, s.test)))
	})
}

// sectionSizes fits some kinds on the larger sets, in order and shuffled.
func sectionSizes(p *printer) {
	for _, s := range sizeSets {
		ks := kindsNamed("Perceptron", "Pocket-ratchet", "Averaged", "Voted", "OneVsRest-Averaged")
		if s.name != "wide" {
			// A Budget updates the scores of every row at each removal.
			ks = append(ks, kindNamed("Kernel-rbf-last-budget5"))
		}
		if s.name != "many" {
			// The exact pocket counts every candidate on every row.
			ks = append(ks, kindNamed("Pocket"))
		}
		if s.name == "big2" || s.name == "big5" {
			ks = append(ks, kindsNamed("Kernel-linear-last", "Kernel-rbf-averaged")...)
		}
		fm, test := forms[0], s.test
		if s.name == "sparse-wide" {
			fm = formNamed("csr")
		}
		if s.name == "many" {
			test = s.probe
		}
		for _, k := range ks {
			for _, seed := range []uint64{0, 17} {
				p.run(fmt.Sprintf("%s/%s/seed%d", s.name, k.name, seed), func() {
					fitCase(p, s, fm, k, cfg{epochs: 5, seed: seed}, test, brief)
				})
			}
		}
	}
}
