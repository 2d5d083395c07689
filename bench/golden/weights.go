// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"reflect"
	"slices"
)

// weightings are the class weights of the weights section, each a
// function of the labels and their classes.
var weightings = []struct {
	name string
	of   func(y, classes []float64) map[float64]float64
}{
	// scikit-learn's balanced weights, n/(K·n_c), computed here, apart
	// from the library's Balanced.
	{"balanced", func(y, classes []float64) map[float64]float64 {
		w := map[float64]float64{}
		for _, c := range classes {
			n := 0
			for _, v := range y {
				if v == c {
					n++
				}
			}
			w[c] = float64(len(y)) / (float64(len(classes)) * float64(n))
		}
		return w
	}},
	// A weight of a power of two and one that rounds; the other classes
	// weigh 1.
	{"first2-last0.3", func(_, classes []float64) map[float64]float64 {
		return map[float64]float64{classes[0]: 2, classes[len(classes)-1]: 0.3}
	}},
}

// sectionWeights fits the settingKinds with the class weights of each
// weighting on sets of two classes and of more. The weights are set by
// the name of the field ClassWeight, so that the dump builds against
// commits before it, where a case prints that its classifier has none.
func sectionWeights(p *printer) {
	for _, name := range []string{"exercise", "tri", "noisy2", "noisy4"} {
		s := setNamed(name)
		lv := brief
		if n, _ := s.X.Dims(); n < 10 {
			lv = full
		}
		classes := slices.Compact(slices.Sorted(slices.Values(s.y)))
		for _, wt := range weightings {
			for _, k := range settingKinds {
				p.run(s.name+"/"+wt.name+"/"+k.name, func() {
					c := cfg{epochs: s.limit}
					_, d := s.X.Dims()
					e := newEnv(c, d, s.y)
					m := k.new(e)
					field := reflect.ValueOf(m).Elem().FieldByName("ClassWeight")
					if !field.IsValid() {
						p.printf("%T has no ClassWeight", m)
						return
					}
					w := wt.of(s.y, classes)
					field.Set(reflect.ValueOf(w))
					for _, cl := range classes {
						if v, ok := w[cl]; ok {
							p.printf("weight of %s: %s", f(cl), f(v))
						}
					}
					p.err("fit", m.Fit(s.X, s.y))
					dump(p, m, s.test, s.test, lv)
				})
			}
		}
	}
}
