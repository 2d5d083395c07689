// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"strings"

	"github.com/seed5ae3614e/perceptron/internal/binform"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// A Perceptron and an Averaged also have a binary form, for iterative
// parameter mixing, where the model crosses from one process to another
// twice a round: it holds exactly what the JSON form holds, the settings,
// the model and Stats, as the bits of the numbers, and it is written and
// read at the speed of memory, where JSON formats and parses every number.
// JSON stays the form of a saved file, and the form of every type; the
// types that do not mix have no binary form.
//
// The binary form, version 2, is a header of 32 bytes, a head and the
// tables. Integers are 64 bits, little-endian, two's complement if
// signed; a float is its float64 bits, little-endian; a flag is a byte, 0
// or 1; a list is its length plus one, or 0 for nil, then its elements:
//
//	header  "PCPT", the version (uint16, 2), the type (uint16: 1 for
//	        Perceptron, 2 for Averaged), the columns d, the scores S (1 for
//	        two classes and otherwise one per class) and the length of the
//	        head in bytes (each a uint64)
//	head    the settings: Epochs, Rate, NoBias (a flag), InitWeights and
//	        Labels (lists of floats), ClassWeight (a list of floats, each
//	        class followed by its weight, in the order of the classes),
//	        and a flag for Stop, which if 1 is followed by Tol, NoChange
//	        and Validation;
//	        the model: the classes (a list of floats), the S biases, the
//	        flag of a model through the origin, and for an Averaged the S
//	        sums of the biases, ahead and the visits;
//	        Stats: Epochs, Converged (a flag), Mistakes, EpochMistakes (a
//	        list of integers), EpochLoss and EpochAccuracy (lists of floats)
//	tables  the d·S weights, and for an Averaged then the d·S sums of the
//	        weights (less ahead times the weights), each held feature by
//	        feature, as Weights lays them out
//
// The shape comes first and the tables last, so that a reader can take
// the tables of a range of features without reading the head: the bytes
// of features [lo, hi) of a table are those from 8·S·lo to 8·S·hi past its
// start. A form has one encoding: loading refuses a flag that is not 0 or
// 1, and bytes after the tables.

// The types of the binary form; package binform has its header and the
// codec of its parts.
const (
	binaryPerceptron = 1
	binaryAveraged   = 2
)

// binaryTypes names the types of the binary form, and binaryArticles
// names them with their article.
var (
	binaryTypes    = map[uint16]string{binaryPerceptron: "Perceptron", binaryAveraged: "Averaged"}
	binaryArticles = map[uint16]string{binaryPerceptron: "a Perceptron", binaryAveraged: "an Averaged"}
)

// binaryForm is a Perceptron or an Averaged as its binary form holds it:
// what their JSON forms hold, in the types of those.
type binaryForm struct {
	typ      uint16
	settings settingsJSON
	model    linearJSON
	sum      []float64 // an Averaged's sums of the weights, and sumBiases of its biases
	sumBias  []float64
	ahead    int
	visits   int
	stats    Stats
}

// MarshalBinary returns the binary form of the fitted perceptron, which
// UnmarshalBinary reads: what MarshalJSON saves, at the speed of memory.
// It returns the errors of MarshalJSON, and an error of kind ErrTooLarge if
// the form does not fit in the memory left.
func (p Perceptron) MarshalBinary() ([]byte, error) {
	s := p.settings(nil).json(p.Labels)
	if err := marshalCheck(p.m.fitted(), func() error { return s.check(p.classes, p.m.dim()) }); err != nil {
		return nil, err
	}
	return binaryForm{typ: binaryPerceptron, settings: s, model: linearJSON{p.classes, p.m.json()}, stats: p.stats}.marshal()
}

// UnmarshalBinary sets the perceptron to the one whose binary form is
// data, as UnmarshalJSON does with the JSON form: Rand and OnUpdate keep
// their values. It returns an error of kind ErrFormat, and changes
// nothing, if data is not the binary form of a Perceptron that
// UnmarshalJSON would load, and an error of kind ErrTooLarge if it does
// not fit in the memory left. It allocates about len(data) bytes.
func (p *Perceptron) UnmarshalBinary(data []byte) error {
	f, err := unmarshalBinary(data, binaryPerceptron)
	if err != nil {
		return err
	}
	t, err := f.table()
	if err != nil {
		return err
	}
	s := f.settings
	p.Epochs, p.Rate, p.NoBias, p.InitWeights, p.Labels, p.ClassWeight, p.Stop = s.Epochs, s.Rate, s.NoBias, s.InitWeights, s.Labels, weightMap(s.ClassWeight), (*Stop)(s.Stop)
	p.m, p.classes, p.stats = t, f.model.Classes, f.stats
	return nil
}

// MarshalBinary returns the binary form of the fitted averaged perceptron,
// as Perceptron's MarshalBinary does.
func (a Averaged) MarshalBinary() ([]byte, error) {
	s := a.settings(nil).json(a.Labels)
	if err := marshalCheck(a.w.fitted(), func() error { return s.check(a.classes, a.w.dim()) }); err != nil {
		return nil, err
	}
	return binaryForm{typ: binaryAveraged, settings: s, model: linearJSON{a.classes, a.w.json()},
		sum: a.sum.w, sumBias: a.sum.b, ahead: a.ahead, visits: a.visits, stats: a.stats}.marshal()
}

// UnmarshalBinary sets the averaged perceptron to the one whose binary
// form is data, as Perceptron's UnmarshalBinary does.
func (a *Averaged) UnmarshalBinary(data []byte) error {
	f, err := unmarshalBinary(data, binaryAveraged)
	if err != nil {
		return err
	}
	w, err := f.table()
	if err != nil {
		return err
	}
	// The checks of Averaged's UnmarshalJSON.
	sj := tableJSON{f.sum, f.sumBias, f.model.ThroughOrigin}
	sum, err := sj.table(f.model.Classes, "its sum")
	switch {
	case err != nil:
	case len(sum.w) != len(w.w):
		err = fmt.Errorf("it has %d weights and %d sums of weights, want as many", len(w.w), len(sum.w))
	case f.visits < 1 || f.visits > maxCount || f.ahead < 0 || f.ahead > f.visits:
		err = fmt.Errorf("it has %d visits, %d ahead, want 1 to 2^53 and at most as many ahead", f.visits, f.ahead)
	}
	if err != nil {
		return formatError(wrap("Averaged", err))
	}
	s := f.settings
	a.Epochs, a.Rate, a.NoBias, a.InitWeights, a.Labels, a.ClassWeight, a.Stop = s.Epochs, s.Rate, s.NoBias, s.InitWeights, s.Labels, weightMap(s.ClassWeight), (*Stop)(s.Stop)
	a.w, a.sum, a.ahead, a.visits, a.classes, a.stats = w, sum, f.ahead, f.visits, f.model.Classes, f.stats
	return nil
}

// marshalCheck returns an error unless a model is fitted and check, the
// check of its settings, passes: a form that is written loads.
func marshalCheck(fitted bool, check func() error) error {
	if !fitted {
		return errorf(ErrNotFitted, "perceptron: MarshalBinary called before Fit")
	}
	if err := check(); err != nil {
		return fmt.Errorf("perceptron: MarshalBinary: %s", strings.TrimPrefix(err.Error(), "perceptron: "))
	}
	return nil
}

// table checks the classes, the table and the settings of f as the JSON
// form's loadTable does, and returns the table.
func (f *binaryForm) table() (table, error) {
	typ := binaryTypes[f.typ]
	if err := checkClasses(f.model.Classes); err != nil {
		return table{}, formatError(wrap(typ, err))
	}
	t, err := f.model.table(f.model.Classes, "it")
	if err != nil {
		return table{}, formatError(wrap(typ, err))
	}
	if err := f.settings.check(f.model.Classes, t.dim()); err != nil {
		return table{}, formatError(settingsError(typ, err))
	}
	return t, nil
}

// marshal returns the binary form of f.
func (f binaryForm) marshal() ([]byte, error) {
	S := len(f.model.Biases)
	d := len(f.model.Weights) / S
	var head binform.Writer
	f.head(&head) // counts its bytes
	need := binform.HeaderSize + head.N + 8*(len(f.model.Weights)+len(f.sum))
	if err := memory.Check(float64(need)); err != nil {
		return nil, tooLarge(err, "the binary form of a %s of %d bytes", binaryTypes[f.typ], need)
	}
	h := binform.Header{Version: binform.Version, Type: f.typ, D: uint64(d), S: uint64(S), Head: uint64(head.N)}
	w := binform.Writer{B: h.Append(make([]byte, 0, need))}
	f.head(&w)
	w.Floats(f.model.Weights)
	if f.typ == binaryAveraged {
		w.Floats(f.sum)
	}
	return w.B, nil
}

// head writes the head of the binary form of f to w.
func (f *binaryForm) head(w *binform.Writer) {
	s := &f.settings
	w.Int(s.Epochs)
	w.Float(s.Rate)
	w.Flag(s.NoBias)
	w.FloatList(s.InitWeights)
	w.FloatList(s.Labels)
	var weights []float64
	for _, p := range s.ClassWeight {
		weights = append(weights, p.Class, p.Weight)
	}
	w.FloatList(weights)
	w.Flag(s.Stop != nil)
	if s.Stop != nil {
		w.Float(s.Stop.Tol)
		w.Int(s.Stop.NoChange)
		w.Float(s.Stop.Validation)
	}
	w.FloatList(f.model.Classes)
	w.Floats(f.model.Biases)
	w.Flag(f.model.ThroughOrigin)
	if f.typ == binaryAveraged {
		w.Floats(f.sumBias)
		w.Int(f.ahead)
		w.Int(f.visits)
	}
	st := &f.stats
	w.Int(st.Epochs)
	w.Flag(st.Converged)
	w.Int(st.Mistakes)
	w.IntList(st.EpochMistakes)
	w.FloatList(st.EpochLoss)
	w.FloatList(st.EpochAccuracy)
}

// unmarshalBinary returns the form of a classifier of type typ that data
// holds, with its Stats checked, or an error naming what is wrong.
func unmarshalBinary(data []byte, typ uint16) (*binaryForm, error) {
	name := binaryTypes[typ]
	fail := func(format string, args ...any) error {
		return errorf(ErrFormat, "perceptron: not the binary form of %s: "+format, append([]any{binaryArticles[typ]}, args...)...)
	}
	if len(data) < binform.HeaderSize || string(data[:4]) != binform.Magic {
		return nil, fail("it does not start with a header of %d bytes and %q", binform.HeaderSize, binform.Magic)
	}
	h := binform.ReadHeader(data)
	switch {
	case h.Version != binform.Version:
		return nil, fail("version %d, want %d", h.Version, binform.Version)
	case h.Type != typ:
		if other, ok := binaryArticles[h.Type]; ok {
			return nil, fail("it is that of %s", other)
		}
		return nil, fail("type %d, want %d", h.Type, typ)
	}
	d, S, n := h.D, h.S, h.Head
	rest := uint64(len(data) - binform.HeaderSize)
	if n > rest {
		return nil, fail("a head of %d bytes, but %d bytes follow the header", n, rest)
	}
	tables := uint64(1)
	if typ == binaryAveraged {
		tables = 2
	}
	// The tables are d·S floats each: check without overflow that d·S is
	// the floats after the head, before allocating them.
	words := (rest - n) / 8
	if (rest-n)%8 != 0 || words%tables != 0 || S == 0 && words != 0 || S != 0 && (words/tables%S != 0 || words/tables/S != d) {
		return nil, fail("%d bytes of tables after a head of %d, want %d tables of %d columns by %d scores of 8 bytes", rest-n, n, tables, d, S)
	}
	if S > rest/8 {
		return nil, fail("%d scores, more than the bytes hold", S)
	}
	// Decoding copies at most the bytes of data into floats.
	if err := memory.Check(float64(len(data))); err != nil {
		return nil, tooLarge(err, "the %s of a binary form of %d bytes", name, len(data))
	}
	f := &binaryForm{typ: typ}
	r := binform.NewReader(data[:binform.HeaderSize+n], binform.HeaderSize)
	s := &f.settings
	s.Epochs = r.Int()
	s.Rate = r.Float()
	s.NoBias = r.Flag()
	s.InitWeights = r.FloatList()
	s.Labels = r.FloatList()
	weights := r.FloatList()
	if weights != nil && len(weights) == 0 || len(weights)%2 != 0 {
		return nil, fail("class weights of %d floats, want a class and a weight for each", len(weights))
	}
	for k := 0; k < len(weights); k += 2 {
		s.ClassWeight = append(s.ClassWeight, classWeightJSON{weights[k], weights[k+1]})
	}
	if r.Flag() {
		s.Stop = &stopJSON{Tol: r.Float(), NoChange: r.Int(), Validation: r.Float()}
	}
	f.model.Classes = r.FloatList()
	f.model.Biases = r.Floats(int(S))
	f.model.ThroughOrigin = r.Flag()
	if typ == binaryAveraged {
		f.sumBias = r.Floats(int(S))
		f.ahead = r.Int()
		f.visits = r.Int()
	}
	st := &f.stats
	st.Epochs = r.Int()
	st.Converged = r.Flag()
	st.Mistakes = r.Int()
	st.EpochMistakes = r.IntList()
	st.EpochLoss = r.FloatList()
	st.EpochAccuracy = r.FloatList()
	switch {
	case r.Err() != nil:
		return nil, fail("the head: %v", r.Err())
	case r.Left() != 0:
		return nil, fail("the head holds %d bytes after the stats", r.Left())
	}
	if err := st.check(); err != nil {
		return nil, errorf(ErrFormat, "perceptron: saved %s's stats: %v", name, err)
	}
	r = binform.NewReader(data, binform.HeaderSize+int(n))
	f.model.Weights = r.Floats(int(d * S))
	if typ == binaryAveraged {
		f.sum = r.Floats(int(d * S))
	}
	return f, nil
}
