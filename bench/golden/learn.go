// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// learnKinds are the classifiers that have Learn.
var learnKinds = kindsNamed("Perceptron", "Averaged", "Voted", "Kernel-linear-last", "Kernel-linear-voted",
	"Kernel-rbf-averaged", "Kernel-poly2-voted", "Kernel-rbf-last-budget5", "Kernel-linear-averaged-budget3")

// asIs returns the classes as they are, for Labels of the classes of y.
func asIs(c []float64) []float64 { return c }

// rowsOf returns the rows of X at the indices, dense, and their labels.
func rowsOf(X *mat.Dense, y []float64, idx []int) (*mat.Dense, []float64) {
	_, d := X.Dims()
	m := mat.NewDense(len(idx), d, nil)
	l := make([]float64, len(idx))
	for k, i := range idx {
		m.SetRow(k, X.RawRowView(i))
		l[k] = y[i]
	}
	return m, l
}

// secondBatch returns the rows of the second half of s in reverse order,
// the rows of a Learn after a Fit.
func secondBatch(s *set) (*mat.Dense, []float64) {
	n, _ := s.X.Dims()
	var idx []int
	for i := n - 1; i >= n/2; i-- {
		idx = append(idx, i)
	}
	return rowsOf(s.X, s.y, idx)
}

func sectionLearn(p *printer) {
	for _, name := range []string{"and", "xor", "exercise", "tri", "noisy2", "noisy4", "sparse3"} {
		s := setNamed(name)
		fm := forms[0]
		if name == "sparse3" {
			fm = formNamed("csr")
		}
		_, d := s.X.Dims()
		X2, y2 := secondBatch(s)
		for _, k := range learnKinds {
			for _, seed := range []uint64{0, 21} {
				if seed != 0 && !slices.Contains([]string{"Kernel-rbf-last-budget5", "Kernel-linear-averaged-budget3"}, k.name) {
					continue
				}
				p.run(fmt.Sprintf("%s/%s/seed%d/fit-then-learn", s.name, k.name, seed), func() {
					e := newEnv(cfg{epochs: 3, record: true, seed: seed}, d, s.y)
					m := k.new(e).(learner)
					p.err("fit", m.Fit(fm.of(s.X), s.y))
					p.err("learn", m.Learn(fm.of(X2), y2))
					p.err("learn", m.Learn(fm.of(s.X), s.y))
					e.rec.print(p)
					dump(p, m, fm.of(s.probe), s.probe, full)
				})
			}
			p.run(s.name+"/"+k.name+"/fresh-labels", func() {
				e := newEnv(cfg{labels: asIs, record: true}, d, s.y)
				m := k.new(e).(learner)
				for range 3 {
					p.err("learn", m.Learn(fm.of(s.X), s.y))
					stats(p, "", m.(statser).Stats())
				}
				e.rec.print(p)
				dump(p, m, fm.of(s.probe), s.probe, full)
			})
			p.run(s.name+"/"+k.name+"/fresh-extra-init-nobias-rate0.6", func() {
				e := newEnv(cfg{labels: extraClass, init: true, noBias: true, rate: 0.6, record: true}, d, s.y)
				m := k.new(e).(learner)
				p.err("learn", m.Learn(fm.of(s.X), s.y))
				p.err("learn", m.Learn(fm.of(X2), y2))
				e.rec.print(p)
				dump(p, m, fm.of(s.probe), s.probe, brief)
			})
			p.run(s.name+"/"+k.name+"/fresh-no-labels", func() {
				m := k.new(newEnv(cfg{}, d, s.y)).(learner)
				p.err("learn", m.Learn(fm.of(s.X), s.y))
				describe(p, "", m)
			})
			p.run(s.name+"/"+k.name+"/row-by-row", func() {
				m := k.new(newEnv(cfg{labels: asIs}, d, s.y)).(learner)
				b := k.new(newEnv(cfg{labels: asIs}, d, s.y)).(learner)
				n, _ := s.X.Dims()
				for i := range n {
					x, y := rowsOf(s.X, s.y, []int{i})
					if err := m.Learn(fm.of(x), y); err != nil {
						p.err(fmt.Sprintf("learn row %d", i), err)
					}
				}
				p.err("learn batch", b.Learn(fm.of(s.X), s.y))
				describe(p, "", m)
				sc := m.ScoreRows(nil, fm.of(s.probe))
				p.rows("scores", sc, scores(len(m.Classes())))
				p.printf("same as batch: %v", same(sc, b.ScoreRows(nil, fm.of(s.probe))))
			})
			p.run(s.name+"/"+k.name+"/learn-as-fit", func() {
				m := k.new(newEnv(cfg{labels: asIs}, d, s.y)).(learner)
				for range 3 {
					p.err("learn", m.Learn(fm.of(s.X), s.y))
				}
				q := k.new(newEnv(cfg{epochs: 3}, d, s.y))
				p.err("fit", q.Fit(fm.of(s.X), s.y))
				a, b := m.ScoreRows(nil, fm.of(s.probe)), q.ScoreRows(nil, fm.of(s.probe))
				p.printf("learn scores as fit's: %v", same(a, b))
				p.rows("fit scores", b, scores(len(q.Classes())))
			})
			p.run(s.name+"/"+k.name+"/mixed-forms", func() {
				// Fit on one form, Learn on others.
				e := newEnv(cfg{epochs: 2, record: true}, d, s.y)
				m := k.new(e).(learner)
				p.err("fit", m.Fit(fm.of(s.X), s.y))
				for _, other := range []string{"csr", "foreign", "wrapped", "dense"} {
					p.err("learn "+other, m.Learn(formNamed(other).of(X2), y2))
				}
				e.rec.print(p)
				dump(p, m, fm.of(s.probe), s.probe, brief)
			})
			p.run(s.name+"/"+k.name+"/learn-after-load", func() {
				m := k.new(newEnv(cfg{epochs: 2}, d, s.y)).(learner)
				p.err("fit", m.Fit(fm.of(s.X), s.y))
				b, err := json.Marshal(m)
				p.err("json", err)
				u, err := perceptron.Unmarshal(b)
				p.err("Unmarshal", err)
				p.err("learn", m.Learn(fm.of(X2), y2))
				p.err("learn loaded", u.(learner).Learn(fm.of(X2), y2))
				a := m.ScoreRows(nil, fm.of(s.probe))
				p.rows("scores", a, scores(len(m.Classes())))
				p.printf("loaded learns the same: %v", same(a, u.ScoreRows(nil, fm.of(s.probe))))
				describe(p, "loaded.", u)
			})
		}
	}
}

// shardsOf returns the rows of s in k contiguous shards, in the form fm.
func shardsOf(s *set, fm form, k int) ([]mat.Matrix, [][]float64) {
	n, _ := s.X.Dims()
	X := make([]mat.Matrix, k)
	y := make([][]float64, k)
	for j := range k {
		var idx []int
		for i := j * n / k; i < (j+1)*n/k; i++ {
			idx = append(idx, i)
		}
		x, l := rowsOf(s.X, s.y, idx)
		X[j], y[j] = fm.of(x), l
	}
	return X, y
}

var shardKinds = kindsNamed("Perceptron", "Averaged")

func sectionShards(p *printer) {
	shardSettings := []cfg{
		{name: "default"},
		{name: "epochs5-rate0.5", epochs: 5, rate: 0.5},
		{name: "epochs7-nobias-init", epochs: 7, noBias: true, init: true},
		{name: "epochs6-labels-extra", epochs: 6, labels: extraClass},
		{name: "epochs4-rand-stop-onupdate", epochs: 4, seed: 3, stop: &perceptron.Stop{NoChange: 1}, record: true},
	}
	for _, name := range []string{"and", "xor", "noisy2", "noisy4", "int5", "sparse3"} {
		s := setNamed(name)
		fm := forms[0]
		if name == "sparse3" {
			fm = formNamed("csr")
		}
		_, d := s.X.Dims()
		for _, k := range shardKinds {
			for _, c := range shardSettings {
				for _, nshards := range []int{1, 2, 3} {
					for _, byMistakes := range []bool{false, true} {
						p.run(fmt.Sprintf("%s/%s/%s/shards%d/byMistakes=%v", s.name, k.name, c.name, nshards, byMistakes), func() {
							e := newEnv(c, d, s.y)
							m := k.new(e)
							X, y := shardsOf(s, fm, nshards)
							p.err("FitShards", perceptron.FitShards(m, X, y, byMistakes))
							e.rec.print(p)
							lv := brief
							if nshards == 2 {
								lv = full
							}
							dump(p, m, fm.of(s.probe), s.probe, lv)
						})
					}
				}
			}
			for _, byMistakes := range []bool{false, true} {
				p.run(fmt.Sprintf("%s/%s/rounds/byMistakes=%v", s.name, k.name, byMistakes), func() {
					e := newEnv(cfg{labels: asIs, rate: 0.75}, d, s.y)
					m := k.new(e)
					X, y := shardsOf(s, fm, 3)
					for round := 1; round <= 4; round++ {
						parts := make([]perceptron.Classifier, len(X))
						for j := range X {
							part, err := perceptron.LearnShard(m, X[j], y[j])
							p.err(fmt.Sprintf("round %d LearnShard %d", round, j), err)
							p.printf("part %d: %T", j, part)
							if sc, ok := part.(perceptron.Scorer); ok {
								describe(p, fmt.Sprintf("r%d.part%d.", round, j), sc)
							}
							parts[j] = part
						}
						p.err(fmt.Sprintf("round %d Mix", round), perceptron.Mix(m, parts, byMistakes))
						describe(p, fmt.Sprintf("r%d.", round), m)
					}
					dump(p, m, fm.of(s.probe), s.probe, full)
					q := k.new(newEnv(cfg{epochs: 4, rate: 0.75}, d, s.y))
					p.err("FitShards", perceptron.FitShards(q, X, y, byMistakes))
					p.printf("FitShards as the rounds: %v", same(q.ScoreRows(nil, s.probe), m.ScoreRows(nil, s.probe)))
				})
			}
		}
	}
}
