// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

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
// The binary form, version 1, is a header of 32 bytes, a head and the
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

// binaryMagic opens the binary form.
const binaryMagic = "PCPT"

// binaryVersion is the version of the binary form.
const binaryVersion = 2

// binaryHeader is the length of the header of the binary form.
const binaryHeader = 32

// The types of the binary form.
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
	var head binaryWriter
	f.head(&head) // counts its bytes
	need := binaryHeader + head.n + 8*(len(f.model.Weights)+len(f.sum))
	if err := memory.Check(float64(need)); err != nil {
		return nil, tooLarge(err, "the binary form of a %s of %d bytes", binaryTypes[f.typ], need)
	}
	w := binaryWriter{b: make([]byte, 0, need)}
	w.b = append(w.b, binaryMagic...)
	w.b = binary.LittleEndian.AppendUint16(w.b, binaryVersion)
	w.b = binary.LittleEndian.AppendUint16(w.b, f.typ)
	w.uint(uint64(d))
	w.uint(uint64(S))
	w.uint(uint64(head.n))
	f.head(&w)
	w.floats(f.model.Weights)
	if f.typ == binaryAveraged {
		w.floats(f.sum)
	}
	return w.b, nil
}

// head writes the head of the binary form of f to w.
func (f *binaryForm) head(w *binaryWriter) {
	s := &f.settings
	w.int(s.Epochs)
	w.float(s.Rate)
	w.flag(s.NoBias)
	w.floatList(s.InitWeights)
	w.floatList(s.Labels)
	var weights []float64
	for _, p := range s.ClassWeight {
		weights = append(weights, p.Class, p.Weight)
	}
	w.floatList(weights)
	w.flag(s.Stop != nil)
	if s.Stop != nil {
		w.float(s.Stop.Tol)
		w.int(s.Stop.NoChange)
		w.float(s.Stop.Validation)
	}
	w.floatList(f.model.Classes)
	w.floats(f.model.Biases)
	w.flag(f.model.ThroughOrigin)
	if f.typ == binaryAveraged {
		w.floats(f.sumBias)
		w.int(f.ahead)
		w.int(f.visits)
	}
	st := &f.stats
	w.int(st.Epochs)
	w.flag(st.Converged)
	w.int(st.Mistakes)
	w.intList(st.EpochMistakes)
	w.floatList(st.EpochLoss)
	w.floatList(st.EpochAccuracy)
}

// binaryWriter appends the parts of a binary form to b, or with b nil
// counts their bytes in n.
type binaryWriter struct {
	b []byte
	n int
}

func (w *binaryWriter) uint(v uint64) {
	if w.b == nil {
		w.n += 8
		return
	}
	w.b = binary.LittleEndian.AppendUint64(w.b, v)
}

func (w *binaryWriter) int(v int) { w.uint(uint64(v)) }

func (w *binaryWriter) float(v float64) { w.uint(math.Float64bits(v)) }

func (w *binaryWriter) flag(v bool) {
	if w.b == nil {
		w.n++
		return
	}
	var b byte
	if v {
		b = 1
	}
	w.b = append(w.b, b)
}

// floats writes the floats of x, without their number.
func (w *binaryWriter) floats(x []float64) {
	if w.b == nil {
		w.n += 8 * len(x)
		return
	}
	n := len(w.b)
	w.b = w.b[:n+8*len(x)]
	b := w.b[n:]
	for i, v := range x {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
}

// floatList writes x as a list: its length plus one, or 0 for nil, and
// its floats.
func (w *binaryWriter) floatList(x []float64) {
	if x == nil {
		w.uint(0)
		return
	}
	w.uint(uint64(len(x)) + 1)
	w.floats(x)
}

// intList writes x as a list.
func (w *binaryWriter) intList(x []int) {
	if x == nil {
		w.uint(0)
		return
	}
	w.uint(uint64(len(x)) + 1)
	for _, v := range x {
		w.int(v)
	}
}

// unmarshalBinary returns the form of a classifier of type typ that data
// holds, with its Stats checked, or an error naming what is wrong.
func unmarshalBinary(data []byte, typ uint16) (*binaryForm, error) {
	name := binaryTypes[typ]
	fail := func(format string, args ...any) error {
		return errorf(ErrFormat, "perceptron: not the binary form of %s: "+format, append([]any{binaryArticles[typ]}, args...)...)
	}
	if len(data) < binaryHeader || string(data[:4]) != binaryMagic {
		return nil, fail("it does not start with a header of %d bytes and %q", binaryHeader, binaryMagic)
	}
	version, got := binary.LittleEndian.Uint16(data[4:]), binary.LittleEndian.Uint16(data[6:])
	switch {
	case version != binaryVersion:
		return nil, fail("version %d, want %d", version, binaryVersion)
	case got != typ:
		if other, ok := binaryArticles[got]; ok {
			return nil, fail("it is that of %s", other)
		}
		return nil, fail("type %d, want %d", got, typ)
	}
	d, S, n := binary.LittleEndian.Uint64(data[8:]), binary.LittleEndian.Uint64(data[16:]), binary.LittleEndian.Uint64(data[24:])
	rest := uint64(len(data) - binaryHeader)
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
	r := binaryReader{b: data[:binaryHeader+n], off: binaryHeader}
	s := &f.settings
	s.Epochs = r.int()
	s.Rate = r.float()
	s.NoBias = r.flag()
	s.InitWeights = r.floatList()
	s.Labels = r.floatList()
	weights := r.floatList()
	if weights != nil && len(weights) == 0 || len(weights)%2 != 0 {
		return nil, fail("class weights of %d floats, want a class and a weight for each", len(weights))
	}
	for k := 0; k < len(weights); k += 2 {
		s.ClassWeight = append(s.ClassWeight, classWeightJSON{weights[k], weights[k+1]})
	}
	if r.flag() {
		s.Stop = &stopJSON{Tol: r.float(), NoChange: r.int(), Validation: r.float()}
	}
	f.model.Classes = r.floatList()
	f.model.Biases = r.floats(int(S))
	f.model.ThroughOrigin = r.flag()
	if typ == binaryAveraged {
		f.sumBias = r.floats(int(S))
		f.ahead = r.int()
		f.visits = r.int()
	}
	st := &f.stats
	st.Epochs = r.int()
	st.Converged = r.flag()
	st.Mistakes = r.int()
	st.EpochMistakes = r.intList()
	st.EpochLoss = r.floatList()
	st.EpochAccuracy = r.floatList()
	switch {
	case r.err != nil:
		return nil, fail("the head: %v", r.err)
	case r.off != len(r.b):
		return nil, fail("the head holds %d bytes after the stats", len(r.b)-r.off)
	}
	if err := st.check(); err != nil {
		return nil, errorf(ErrFormat, "perceptron: saved %s's stats: %v", name, err)
	}
	r = binaryReader{b: data, off: binaryHeader + int(n)}
	f.model.Weights = r.floats(int(d * S))
	if typ == binaryAveraged {
		f.sum = r.floats(int(d * S))
	}
	return f, nil
}

// binaryReader reads the parts of a binary form from b, from the byte off
// on. Its first error stays in err; after it, it reads zeros.
type binaryReader struct {
	b   []byte
	off int
	err error
}

func (r *binaryReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("at byte %d: "+format, append([]any{r.off}, args...)...)
	}
	r.off = len(r.b)
}

// next returns the next n bytes, or nil after an error or if fewer are
// left.
func (r *binaryReader) next(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b)-r.off {
		r.fail("it ends, %d bytes short", n-(len(r.b)-r.off))
		return nil
	}
	r.off += n
	return r.b[r.off-n : r.off]
}

func (r *binaryReader) uint() uint64 {
	b := r.next(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

func (r *binaryReader) int() int {
	v := int64(r.uint())
	if v < math.MinInt || v > math.MaxInt {
		r.fail("the integer %d does not fit in an int", v)
		return 0
	}
	return int(v)
}

func (r *binaryReader) float() float64 { return math.Float64frombits(r.uint()) }

func (r *binaryReader) flag() bool {
	b := r.next(1)
	switch {
	case b == nil:
		return false
	case b[0] > 1:
		r.off--
		r.fail("a flag of %d, want 0 or 1", b[0])
		return false
	}
	return b[0] == 1
}

// floats returns the next n floats, or nil after an error or if fewer
// are left.
func (r *binaryReader) floats(n int) []float64 {
	if n > (len(r.b)-r.off)/8 {
		r.fail("%d floats, more than the %d bytes left", n, len(r.b)-r.off)
	}
	b := r.next(8 * n)
	if b == nil {
		return nil
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return x
}

// list returns the length of the next list, and false for nil.
func (r *binaryReader) list() (int, bool) {
	n := r.uint()
	switch {
	case n == 0:
		return 0, false
	case n-1 > uint64(len(r.b)-r.off)/8:
		r.fail("a list of %d numbers, more than the bytes hold", n-1)
		return 0, false
	}
	return int(n - 1), true
}

// floatList returns the next list of floats.
func (r *binaryReader) floatList() []float64 {
	n, ok := r.list()
	if !ok {
		return nil
	}
	return r.floats(n)
}

// intList returns the next list of integers.
func (r *binaryReader) intList() []int {
	n, ok := r.list()
	if !ok {
		return nil
	}
	x := make([]int, n)
	for i := range x {
		x[i] = r.int()
	}
	return x
}
