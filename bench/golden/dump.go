// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

type weighter interface{ Weights() (w, b []float64) }

type statser interface{ Stats() perceptron.Stats }

type learner interface {
	perceptron.Scorer
	Learn(X mat.Matrix, y []float64) error
}

// level is how much dump prints.
type level int

const (
	// brief prints the model, and the scores and the classes of the rows.
	brief level = iota
	// rules adds the scores of the Kernel's other prediction rules.
	rules
	// full adds each row's Predict and the JSON round trip.
	full
)

// fitCase builds the classifier of k under c, fits it on the form fm of
// the rows of s, and dumps it on the rows test in that form.
func fitCase(p *printer, s *set, fm form, k kind, c cfg, test *mat.Dense, lv level) perceptron.Scorer {
	if c.epochs == 0 {
		c.epochs = s.limit
	}
	_, d := s.X.Dims()
	e := newEnv(c, d, s.y)
	m := k.new(e)
	err := m.Fit(fm.of(s.X), s.y)
	p.err("fit", err)
	e.rec.print(p)
	if err != nil {
		describe(p, "", m)
		return nil
	}
	dump(p, m, fm.of(test), test, lv)
	return m
}

// dump prints what m is and what it predicts on the rows of test, whose
// dense form is dt.
func dump(p *printer, m perceptron.Scorer, test mat.Matrix, dt *mat.Dense, lv level) {
	p.printf("type: %T", m)
	describe(p, "", m)
	S := scores(len(m.Classes()))
	predictions(p, "test", m, test, S)
	if lv >= full {
		predictEach(p, m, dt)
	}
	if k, ok := m.(*perceptron.Kernel); ok && lv >= rules {
		rule := k.Prediction
		for r := perceptron.PredictLast; r <= perceptron.PredictAveraged; r++ {
			if r == rule {
				continue
			}
			k.Prediction = r
			p.printf("rule %d:", r)
			supportVectors(p, fmt.Sprintf("rule%d.", r), k, false)
			predictions(p, fmt.Sprintf("rule%d.test", r), m, test, S)
		}
		k.Prediction = rule
	}
	if lv >= full {
		roundTrip(p, m, test)
	}
}

// describe prints the model of m: its classes, weights, Stats, support
// vectors and binary classifiers, each line named with prefix.
func describe(p *printer, prefix string, m perceptron.Scorer) {
	p.floats(prefix+"classes", m.Classes())
	if w, ok := m.(weighter); ok {
		w, b := w.Weights()
		p.rows(prefix+"w", w, len(b))
		p.floats(prefix+"b", b)
	}
	if s, ok := m.(statser); ok {
		stats(p, prefix, s.Stats())
	}
	if k, ok := m.(*perceptron.Kernel); ok {
		supportVectors(p, prefix, k, true)
	}
	if o, ok := m.(*perceptron.OneVsRest); ok {
		ms := o.Models()
		p.printf("%smodels: %d", prefix, len(ms))
		for i, sm := range ms {
			q := fmt.Sprintf("%sm%d.", prefix, i)
			p.printf("%stype: %T", q, sm)
			describe(p, q, sm)
		}
	}
}

func stats(p *printer, prefix string, s perceptron.Stats) {
	p.printf("%sstats: epochs=%d converged=%v mistakes=%d", prefix, s.Epochs, s.Converged, s.Mistakes)
	p.ints(prefix+"stats.epochMistakes", s.EpochMistakes)
	p.floats(prefix+"stats.epochLoss", s.EpochLoss)
	p.floats(prefix+"stats.epochAccuracy", s.EpochAccuracy)
}

// supportVectors prints the expansion of k under its rule, and the
// vectors themselves if vectors.
func supportVectors(p *printer, prefix string, k *perceptron.Kernel, vectors bool) {
	sv, coef, b := k.SupportVectors()
	if sv == nil {
		p.printf("%ssv: nil", prefix)
	} else {
		r, c := sv.Dims()
		p.printf("%ssv: %T %d×%d, hash %x", prefix, sv, r, c, hashMatrix(sv))
		if vectors && r <= 12 && c <= 10 {
			matrix(p, prefix+"sv", sv)
		}
		if s, ok := sv.(*perceptron.CSR); ok {
			p.printf("%ssv nnz: %d, hash %x", prefix, s.NNZ(), hashStored(s))
		}
	}
	p.rows(prefix+"coef", coef, len(b))
	p.floats(prefix+"svb", b)
}

// matrix prints the rows of m, and its stored elements if it is a CSR.
func matrix(p *printer, name string, m mat.Matrix) {
	r, c := m.Dims()
	row := make([]float64, c)
	for i := range r {
		for j := range row {
			row[j] = m.At(i, j)
		}
		p.printf("  %s %d: %s", name, i, fs(row))
	}
	if s, ok := m.(*perceptron.CSR); ok {
		p.printf("  %s nnz: %d", name, s.NNZ())
		for i := range r {
			var b bytes.Buffer
			s.DoRowNonZero(i, func(_, j int, v float64) { fmt.Fprintf(&b, " %d:%s", j, f(v)) })
			p.printf("  %s %d:%s", name, i, b.String())
		}
	}
}

// predictions prints the scores and the classes of the rows of X, and
// whether the methods give the same into a dst of the caller's.
func predictions(p *printer, name string, m perceptron.Scorer, X mat.Matrix, S int) {
	sc := m.ScoreRows(nil, X)
	p.rows(name+".scores", sc, S)
	pr := m.PredictRows(nil, X)
	p.floats(name+".classes", pr)
	dst := nan(len(sc))
	got := m.ScoreRows(dst, X)
	p.printf("%s.scores into dst: same %v, in dst %v", name, same(got, sc), len(got) > 0 && &got[0] == &dst[0])
	dst = nan(len(pr))
	got = m.PredictRows(dst, X)
	p.printf("%s.classes into dst: same %v, in dst %v", name, same(got, pr), len(got) > 0 && &got[0] == &dst[0])
}

// predictEach prints Predict of each row of X, and whether it is
// PredictRows's class.
func predictEach(p *printer, m perceptron.Scorer, X *mat.Dense) {
	n, _ := X.Dims()
	v := make([]float64, n)
	for i := range v {
		v[i] = m.Predict(X.RawRowView(i))
	}
	p.floats("test.predict", v)
	p.printf("test.predict as PredictRows: %v", same(v, m.PredictRows(nil, X)))
}

// roundTrip prints the JSON of m, and whether Unmarshal and json.Unmarshal
// into its type give a model of the same scores and the same JSON.
func roundTrip(p *printer, m perceptron.Scorer, X mat.Matrix) {
	b, err := json.Marshal(m)
	if err != nil {
		p.err("json", err)
		return
	}
	p.json("json", b)
	v, err := json.Marshal(reflect.ValueOf(m).Elem().Interface())
	p.printf("json of the value: same %v (err %v)", bytes.Equal(b, v), err)
	want := m.ScoreRows(nil, X)
	u, err := perceptron.Unmarshal(b)
	p.err("Unmarshal", err)
	if err == nil {
		back, err := json.Marshal(u)
		p.printf("Unmarshal: %T, scores same %v, classes same %v, json same %v (err %v)", u,
			same(u.ScoreRows(nil, X), want), same(u.PredictRows(nil, X), m.PredictRows(nil, X)), bytes.Equal(back, b), err)
	}
	t := reflect.New(reflect.TypeOf(m).Elem()).Interface().(perceptron.Scorer)
	err = json.Unmarshal(b, t)
	p.err("json.Unmarshal", err)
	if err == nil {
		p.printf("json.Unmarshal: scores same %v", same(t.ScoreRows(nil, X), want))
	}
	binaryTrip(p, m, X, b)
}

// binaryTrip checks that m saves in the binary form, by Marshal and, for
// a Perceptron or an Averaged, by MarshalBinary, to a form that loads to
// a model of the same scores, the same JSON, text, and the same form. It
// prints only what fails, so that the dump stays the same.
func binaryTrip(p *printer, m perceptron.Scorer, X mat.Matrix, text []byte) {
	marshal := map[string]func() ([]byte, error){"Marshal": func() ([]byte, error) { return perceptron.Marshal(m) }}
	if b, ok := m.(encoding.BinaryMarshaler); ok {
		marshal["MarshalBinary"] = b.MarshalBinary
	}
	for _, name := range []string{"Marshal", "MarshalBinary"} {
		save := marshal[name]
		if save == nil {
			continue
		}
		b, err := save()
		if err != nil {
			p.err(name, err)
			continue
		}
		u, err := perceptron.Unmarshal(b)
		if err != nil {
			p.err(name+" Unmarshal", err)
			continue
		}
		again, err := perceptron.Marshal(u)
		if name == "MarshalBinary" {
			again, err = u.(encoding.BinaryMarshaler).MarshalBinary()
		}
		j, jerr := json.Marshal(u)
		if ok := err == nil && jerr == nil && bytes.Equal(again, b) && bytes.Equal(j, text) && same(u.ScoreRows(nil, X), m.ScoreRows(nil, X)); !ok {
			p.printf("%s: the binary form loads to another model (%v, %v)", name, err, jerr)
		}
	}
}
