// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// binaryModel is a Perceptron or an Averaged, as the tests of the binary
// form use them.
type binaryModel interface {
	Classifier
	Learn(X mat.Matrix, y []float64) error
	Stats() Stats
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// btData returns n random rows of d columns, dense or sparse, of numbers
// on many scales, with about a third of them zero, and labels among the
// K classes, which are spread over the reals.
func btData(rnd *rand.Rand, n, d, K int, sparse bool) (mat.Matrix, []float64, []float64) {
	classes := make([]float64, K)
	for c := range classes {
		classes[c] = float64(c)*2.5 - 3
	}
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			if rnd.IntN(3) > 0 {
				X.Set(i, j, rnd.NormFloat64()*math.Pow(10, float64(rnd.IntN(5)-2)))
			}
		}
		y[i] = classes[i%K] // every class
	}
	if !sparse {
		return X, y, classes
	}
	ptr := []int{0}
	var ind []int
	var val []float64
	for i := range n {
		for j := range d {
			if v := X.At(i, j); v != 0 {
				ind, val = append(ind, j), append(val, v)
			}
		}
		ptr = append(ptr, len(ind))
	}
	C, err := NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return C, y, classes
}

// btModels returns Perceptrons and Averageds with random settings,
// trained on random problems of two classes and more, dense and sparse:
// by Fit, by Fit and Learn, by Learn alone, with Stop, by FitShards, and
// the parts of LearnShard, whose Stats have no epochs. Some weights are
// negative zeros, which the form must keep.
func btModels(t testing.TB, trials int) []binaryModel {
	var models []binaryModel
	for trial := range trials {
		rnd := rand.New(rand.NewPCG(uint64(trial), 31))
		n, d, K := 8+rnd.IntN(20), 1+rnd.IntN(6), 2+rnd.IntN(3)
		X, y, classes := btData(rnd, n, d, K, trial/6%2 == 1)
		for _, averaged := range []bool{false, true} {
			m := btFresh(averaged)
			v := reflect.ValueOf(m).Elem()
			v.FieldByName("Epochs").SetInt(int64(1 + rnd.IntN(5)))
			if rnd.IntN(2) == 0 {
				v.FieldByName("Rate").SetFloat(rnd.Float64() * 2)
			}
			v.FieldByName("NoBias").SetBool(rnd.IntN(3) == 0)
			S := scores(classes)
			if rnd.IntN(2) == 0 {
				w0 := make([]float64, d*S)
				for j := range w0 {
					w0[j] = rnd.NormFloat64()
				}
				w0[0] = math.Copysign(0, -1)
				v.FieldByName("InitWeights").Set(reflect.ValueOf(w0))
			}
			stage := trial % 6
			if rnd.IntN(2) == 0 || stage == 2 || stage == 4 {
				v.FieldByName("Labels").Set(reflect.ValueOf(slices.Clone(classes)))
			}
			if rnd.IntN(3) == 0 {
				v.FieldByName("ClassWeight").Set(reflect.ValueOf(map[float64]float64{classes[0]: 0.25 + rnd.Float64()}))
			}
			var err error
			switch stage {
			case 0, 1:
				err = m.Fit(X, y)
				if err == nil && stage == 1 {
					err = m.Learn(X, btShifted(y, classes))
				}
			case 2:
				err = m.Learn(X, y)
			case 3:
				v.FieldByName("Stop").Set(reflect.ValueOf(&Stop{Tol: rnd.Float64(), NoChange: rnd.IntN(3), Validation: 0.5 * float64(rnd.IntN(2))}))
				v.FieldByName("Epochs").SetInt(20)
				err = m.Fit(X, y)
			case 4:
				err = m.Fit(X, y)
				if err == nil {
					var part Classifier
					part, err = LearnShard(m, X, btShifted(y, classes))
					if err == nil {
						m = part.(binaryModel)
					}
				}
			case 5:
				h := n / 2
				err = FitShards(m, []mat.Matrix{btRows(X, 0, h), btRows(X, h, n)}, [][]float64{y[:h], y[h:]}, trial%4 == 1)
			}
			if err != nil {
				t.Fatalf("trial %d, averaged %t, stage %d: %v", trial, averaged, stage, err)
			}
			models = append(models, m)
		}
	}
	return models
}

func btFresh(averaged bool) binaryModel {
	if averaged {
		return &Averaged{}
	}
	return &Perceptron{}
}

// btShifted returns labels of the classes, each the class after that of
// y, so that a model that has learned y errs on them.
func btShifted(y, classes []float64) []float64 {
	o := make([]float64, len(y))
	for i, v := range y {
		o[i] = classes[(slices.Index(classes, v)+1)%len(classes)]
	}
	return o
}

// btRows returns rows [lo, hi) of X, dense or sparse.
func btRows(X mat.Matrix, lo, hi int) mat.Matrix {
	switch X := X.(type) {
	case *mat.Dense:
		return X.Slice(lo, hi, 0, X.RawMatrix().Cols)
	case *CSR:
		_, d := X.Dims()
		ptr := []int{0}
		var ind []int
		var val []float64
		for i := lo; i < hi; i++ {
			X.DoRowNonZero(i, func(_, j int, v float64) { ind, val = append(ind, j), append(val, v) })
			ptr = append(ptr, len(ind))
		}
		C, err := NewCSR(hi-lo, d, ptr, ind, val)
		if err != nil {
			panic(err)
		}
		return C
	}
	panic(fmt.Sprintf("btRows of a %T", X))
}

// TestBinaryRoundTrip checks that a model loaded from its binary form is
// the model: it saves the same JSON bytes and the same binary form, and
// that the binary form of a model loaded from its JSON is the same bytes.
func TestBinaryRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for k, m := range btModels(t, 48) {
		st := m.Stats()
		seen["accuracies"] = seen["accuracies"] || st.EpochAccuracy != nil
		seen["losses"] = seen["losses"] || st.EpochLoss != nil
		seen["no epochs"] = seen["no epochs"] || st.EpochMistakes == nil
		v := reflect.ValueOf(m).Elem()
		seen["InitWeights"] = seen["InitWeights"] || !v.FieldByName("InitWeights").IsNil()
		seen["Labels"] = seen["Labels"] || !v.FieldByName("Labels").IsNil()
		seen["Stop"] = seen["Stop"] || !v.FieldByName("Stop").IsNil()
		seen["ClassWeight"] = seen["ClassWeight"] || !v.FieldByName("ClassWeight").IsNil()
		if a, ok := m.(*Averaged); ok {
			seen["ahead"] = seen["ahead"] || a.ahead > 0
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatalf("model %d: %v", k, err)
		}
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		q := btFresh(reflect.TypeOf(m) == reflect.TypeFor[*Averaged]())
		if err := q.UnmarshalBinary(b); err != nil {
			t.Fatalf("model %d: UnmarshalBinary: %v\nof %s", k, err, want)
		}
		if got, err := json.Marshal(q); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("model %d: saved as\n%s\nfrom its binary form as\n%s (%v)", k, want, got, err)
		}
		if again, err := q.MarshalBinary(); err != nil || !bytes.Equal(again, b) {
			t.Fatalf("model %d: its binary form loads to one whose binary form differs (%v)", k, err)
		}
		j, err := Unmarshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if fromJSON, err := j.(binaryModel).MarshalBinary(); err != nil || !bytes.Equal(fromJSON, b) {
			t.Fatalf("model %d: the binary form of its JSON differs (%v)", k, err)
		}
	}
	for _, what := range []string{"accuracies", "losses", "no epochs", "InitWeights", "Labels", "Stop", "ClassWeight", "ahead"} {
		if !seen[what] {
			t.Errorf("no model has %s: the models do not test what they should", what)
		}
	}
}

// TestBinaryLayout checks the layout that the doc comment gives, which
// readers of a range of features rely on: the header, and the tables last,
// each feature by feature.
func TestBinaryLayout(t *testing.T) {
	X := mat.NewDense(4, 3, []float64{1, 0, 2, 0, 1, 1, 3, 1, 0, 1, 1, 1})
	y := []float64{1, 2, 3, 1}
	for _, m := range []binaryModel{&Perceptron{Epochs: 3}, &Averaged{Epochs: 3}} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var w, sum []float64
		typ := uint16(binaryPerceptron)
		switch m := m.(type) {
		case *Perceptron:
			w = m.m.w
		case *Averaged:
			w, sum, typ = m.w.w, m.sum.w, binaryAveraged
		}
		le := binary.LittleEndian
		head := int(le.Uint64(b[24:]))
		if string(b[:4]) != "PCPT" || le.Uint16(b[4:]) != 2 || le.Uint16(b[6:]) != typ || le.Uint64(b[8:]) != 3 || le.Uint64(b[16:]) != 3 {
			t.Errorf("%T: header %v", m, b[:32])
		}
		tables := slices.Concat(w, sum)
		if len(b) != 32+head+8*len(tables) {
			t.Fatalf("%T: %d bytes, head %d, want the tables' %d after it", m, len(b), head, 8*len(tables))
		}
		for i, v := range tables {
			if got := le.Uint64(b[32+head+8*i:]); got != math.Float64bits(v) {
				t.Errorf("%T: table word %d is %x, want %x", m, i, got, math.Float64bits(v))
			}
		}
	}
}

// btForm returns the binary form of a small fitted model of each type,
// the Perceptron with Stop and Labels, and the Averaged with InitWeights,
// after a Learn.
func btForms(t testing.TB) map[string][]byte {
	X := mat.NewDense(5, 2, []float64{1, 0, 0, 1, 1, 1, -1, 2, 0.5, -1})
	y := []float64{1, 2, 3, 1, 2}
	p := &Perceptron{Epochs: 4, Labels: []float64{3, 1, 2}, Stop: &Stop{Tol: 0.5}}
	a := &Averaged{Epochs: 2, Rate: 0.5, InitWeights: []float64{1, 2, 3, 4, 5, 6}}
	forms := map[string][]byte{}
	for name, m := range map[string]binaryModel{"Perceptron": p, "Averaged": a} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if err := m.Learn(X, btShifted(y, []float64{1, 2, 3})); err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		forms[name] = b
	}
	return forms
}

// btEdit returns a copy of the form b with the bytes at off set to the
// little-endian v, of 1, 2 or 8 bytes.
func btEdit(b []byte, off int, v uint64, size int) []byte {
	c := slices.Clone(b)
	switch size {
	case 1:
		c[off] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(c[off:], uint16(v))
	default:
		binary.LittleEndian.PutUint64(c[off:], v)
	}
	return c
}

// TestUnmarshalBinaryErrors checks that malformed forms, and forms of
// models that the JSON form would refuse too, fail with an error of kind
// ErrFormat that says what is wrong, and leave the model as it was.
func TestUnmarshalBinaryErrors(t *testing.T) {
	forms := btForms(t)
	p, a := forms["Perceptron"], forms["Averaged"]
	head := func(b []byte) int { return 32 + int(binary.LittleEndian.Uint64(b[24:])) }
	// Offsets in the head of the Perceptron of btForms: Epochs, Rate,
	// NoBias, InitWeights (nil), Labels (3), ClassWeight (nil), the Stop
	// flag and Stop (3 words), the classes (3), the 3 biases,
	// ThroughOrigin, then Stats.
	const (
		pRate    = 32 + 8
		pNoBias  = 32 + 16
		pLabels  = pNoBias + 1 + 8
		pWeights = pLabels + 8 + 24
		pStop    = pWeights + 8
		pClasses = pStop + 1 + 24
		pBiases  = pClasses + 8 + 24
		pOrigin  = pBiases + 24
		pStats   = pOrigin + 1
	)
	cases := []struct {
		name, typ string
		data      []byte
		want      string
	}{
		{"empty", "Perceptron", nil, "does not start with a header"},
		{"JSON", "Perceptron", []byte(`{"type":"Perceptron","version":1,"settings":{},"model":{},"stats":{}}`), `does not start with a header of 32 bytes and "PCPT"`},
		{"magic", "Perceptron", btEdit(p, 0, 'Q', 1), `"PCPT"`},
		{"version", "Perceptron", btEdit(p, 4, 3, 2), "version 3, want 2"},
		{"other type", "Perceptron", a, "perceptron: not the binary form of a Perceptron: it is that of an Averaged"},
		{"other type", "Averaged", p, "perceptron: not the binary form of an Averaged: it is that of a Perceptron"},
		{"unknown type", "Averaged", btEdit(a, 6, 7, 2), "type 7, want 2"},
		{"head too long", "Perceptron", btEdit(p, 24, 1<<62, 8), "a head of 4611686018427387904 bytes"},
		{"extra byte", "Perceptron", append(slices.Clone(p), 0), "bytes of tables"},
		{"a byte short", "Averaged", a[:len(a)-1], "bytes of tables"},
		{"a table short", "Averaged", a[:len(a)-8*6], "bytes of tables"},
		{"columns", "Perceptron", btEdit(p, 8, 3, 8), "want 1 tables of 3 columns by 3 scores"},
		{"columns overflow", "Perceptron", btEdit(p, 8, 1<<62+2, 8), "tables of 4611686018427387906 columns"},
		{"scores", "Perceptron", btEdit(btEdit(p, 16, 6, 8), 8, 1, 8), "not the binary form of a Perceptron: the head"},
		{"no scores", "Perceptron", btEdit(btEdit(p, 16, 0, 8), 8, 0, 8), "tables"},
		{"flag", "Perceptron", btEdit(p, pNoBias, 2, 1), "a flag of 2, want 0 or 1"},
		{"stop flag", "Perceptron", btEdit(p, pStop, 5, 1), "a flag of 5"},
		{"list too long", "Perceptron", btEdit(p, pLabels, 1<<62, 8), "a list of 4611686018427387903 numbers, more than the bytes hold"},
		{"list longer", "Perceptron", btEdit(p, pLabels, 5, 8), "the head"},
		{"list shorter", "Perceptron", btEdit(p, pLabels, 2, 8), "the head"},
		{"no stats", "Perceptron", btEdit(slices.Concat(p[:pStats], p[head(p):]), 24, pStats-32, 8), fmt.Sprintf("the head: at byte %d: it ends, 8 bytes short", pStats)},
		{"more head", "Perceptron", btEdit(slices.Concat(p[:head(p)], []byte{0}, p[head(p):]), 24, uint64(head(p)-32+1), 8), "the head holds 1 bytes after the stats"},
		{"rate", "Perceptron", btEdit(p, pRate, math.Float64bits(math.NaN()), 8), "saved Perceptron's settings: Rate is NaN"},
		{"labels", "Perceptron", btEdit(p, pLabels+8, math.Float64bits(math.Inf(1)), 8), "Labels[0] is +Inf"},
		{"stop", "Perceptron", btEdit(p, pStop+1, math.Float64bits(-1), 8), "Stop.Tol is -1"},
		{"empty weights", "Perceptron", btEdit(p, pWeights, 1, 8), "class weights of 0 floats"},
		{"odd weights", "Perceptron", btEdit(btEdit(slices.Concat(p[:pStop], make([]byte, 8), p[pStop:]), pWeights, 2, 8), 24, uint64(head(p)-32+8), 8), "class weights of 1 floats"},
		{"classes", "Perceptron", btEdit(p, pClasses+8, math.Float64bits(2), 8), "the classes [2 2 3] are not at least two, ascending"},
		{"bias", "Perceptron", btEdit(p, pBiases, math.Float64bits(math.NaN()), 8), "the bias overflowed to NaN"},
		{"origin", "Perceptron", btEdit(p, pOrigin, 1, 1), "is through the origin, but its biases are"},
		{"stats", "Perceptron", btEdit(p, pStats, 9, 8), "saved Perceptron's stats: 9 epochs with"},
		{"weight", "Perceptron", btEdit(p, head(p)+8, math.Float64bits(math.Inf(-1)), 8), "the weight of feature 0 overflowed to -Inf"},
		{"sum", "Averaged", btEdit(a, len(a)-8, math.Float64bits(math.NaN()), 8), "the weight of feature 1 overflowed to NaN"},
		{"init weights", "Averaged", btEdit(a, 32+17, 3, 8), "the head"},
		{"visits", "Averaged", btEdit(a, head(a)-btStatsLen(a)-16+8, 0, 8), "it has 0 visits"},
		{"ahead", "Averaged", btEdit(a, head(a)-btStatsLen(a)-16, 1<<40, 8), "1099511627776 ahead"},
	}
	for _, tc := range cases {
		t.Run(tc.name+"/"+tc.typ, func(t *testing.T) {
			m := btFresh(tc.typ == "Averaged")
			good := forms[tc.typ]
			if err := m.UnmarshalBinary(good); err != nil {
				t.Fatal(err)
			}
			err := m.UnmarshalBinary(tc.data)
			if err == nil || !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), "perceptron: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one of kind ErrFormat that says %q", err, tc.want)
			}
			if b, err := m.MarshalBinary(); err != nil || !bytes.Equal(b, good) {
				t.Errorf("a failed UnmarshalBinary changed the model (%v)", err)
			}
		})
	}
}

// btStatsLen returns the bytes of the Stats at the end of the head of the
// form b: Epochs, Converged, Mistakes and three lists, which btForms's
// models have after a Fit without Validation and a Learn.
func btStatsLen(b []byte) int {
	var m Averaged
	if err := m.UnmarshalBinary(b); err != nil {
		panic(err)
	}
	s := m.Stats()
	return 8 + 1 + 8 + 8 + 8*len(s.EpochMistakes) + 8 + 8*len(s.EpochLoss) + 8
}

// TestUnmarshalBinaryPrefixes checks that every prefix of a form, and the
// form with any byte changed, loads without a panic: a prefix never, and
// a changed form, if it loads, to a model whose form it is.
func TestUnmarshalBinaryPrefixes(t *testing.T) {
	for typ, b := range btForms(t) {
		for n := range len(b) {
			m := btFresh(typ == "Averaged")
			if err := m.UnmarshalBinary(b[:n]); err == nil || !errors.Is(err, ErrFormat) {
				t.Fatalf("%s: the first %d of %d bytes: error %v", typ, n, len(b), err)
			}
		}
		for i := range b {
			for _, v := range []byte{b[i] ^ 1, b[i] ^ 0x80, 0xff} {
				c := slices.Clone(b)
				c[i] = v
				btCheckLoad(t, b, c)
			}
		}
	}
}

// btCheckLoad checks UnmarshalBinary of data into a model that holds the
// form good: it must not panic; an error must be of kind ErrFormat, start
// with perceptron: and leave the model as it was; and a model that loads
// must have data as its binary form, and save and load as JSON.
func btCheckLoad(t *testing.T, good, data []byte) {
	t.Helper()
	m := btFresh(binary.LittleEndian.Uint16(good[6:]) == binaryAveraged)
	if err := m.UnmarshalBinary(good); err != nil {
		t.Fatal(err)
	}
	err := m.UnmarshalBinary(data)
	if err != nil {
		if !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), "perceptron: ") {
			t.Fatalf("UnmarshalBinary(%x): error %q, want one of kind ErrFormat", data, err)
		}
		if b, err := m.MarshalBinary(); err != nil || !bytes.Equal(b, good) {
			t.Fatalf("a failed UnmarshalBinary(%x) changed the model (%v)", data, err)
		}
		return
	}
	if b, err := m.MarshalBinary(); err != nil || !bytes.Equal(b, data) {
		t.Fatalf("UnmarshalBinary(%x) loads a model whose form is %x (%v)", data, b, err)
	}
	j, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("UnmarshalBinary(%x) loads a model that does not save: %v", data, err)
	}
	if _, err := Unmarshal(j); err != nil {
		t.Fatalf("UnmarshalBinary(%x) loads a model whose JSON does not load: %v", data, err)
	}
}

// FuzzUnmarshalBinary checks UnmarshalBinary of any input into a model of
// each type, as btCheckLoad says, and that it allocates no more than twice
// the input's length and 64 KiB, which the errors and the check of the
// memory left take.
func FuzzUnmarshalBinary(f *testing.F) {
	forms := btForms(f)
	for _, b := range forms {
		f.Add(b)
	}
	for _, m := range btModels(f, 6) {
		b, err := m.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, good := range forms {
			m := btFresh(binary.LittleEndian.Uint16(good[6:]) == binaryAveraged)
			alloc := jtAllocated(func() { m.UnmarshalBinary(data) })
			if alloc > 2*uint64(len(data))+64<<10 {
				t.Fatalf("UnmarshalBinary of %d bytes allocates %d", len(data), alloc)
			}
			btCheckLoad(t, good, data)
		}
	})
}

// TestMarshalBinaryBeforeFit checks that a model that has not learned has
// no binary form, with an error of kind ErrNotFitted, and that one whose
// settings changed after Fit to values that Fit refuses has none either.
func TestMarshalBinaryBeforeFit(t *testing.T) {
	for _, m := range []binaryModel{&Perceptron{}, &Averaged{}} {
		if _, err := m.MarshalBinary(); !errors.Is(err, ErrNotFitted) || !strings.Contains(err.Error(), "MarshalBinary called before Fit") {
			t.Errorf("%T: error %v", m, err)
		}
		if err := m.Fit(mat.NewDense(2, 1, []float64{1, -1}), []float64{1, -1}); err != nil {
			t.Fatal(err)
		}
		reflect.ValueOf(m).Elem().FieldByName("Rate").SetFloat(-1)
		if _, err := m.MarshalBinary(); err == nil || !strings.Contains(err.Error(), "perceptron: MarshalBinary: Rate is -1") {
			t.Errorf("%T with Rate -1: error %v", m, err)
		}
	}
}

// TestBinaryMemory checks that the binary form is refused with an error
// of kind ErrTooLarge, both ways, when Go's memory limit leaves no room
// for it. It lowers the limit of the whole process, and so does not run
// in parallel.
func TestBinaryMemory(t *testing.T) {
	d := 1 << 20
	X := mat.NewDense(2, d, nil)
	X.Set(0, 0, 1)
	X.Set(1, 1, 1)
	a := &Averaged{Epochs: 2}
	if err := a.Fit(X, []float64{1, -1}); err != nil {
		t.Fatal(err)
	}
	b, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// What the process holds then stays, so that the room left is a
	// quarter of the form.
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	old := debug.SetMemoryLimit(int64(ms.Sys - ms.HeapReleased + uint64(len(b))/4))
	defer debug.SetMemoryLimit(old)
	if _, err := a.MarshalBinary(); !errors.Is(err, ErrTooLarge) {
		t.Errorf("MarshalBinary of %d bytes: error %v, want one of kind ErrTooLarge", len(b), err)
	}
	var q Averaged
	if err := q.UnmarshalBinary(b); !errors.Is(err, ErrTooLarge) {
		t.Errorf("UnmarshalBinary of %d bytes: error %v, want one of kind ErrTooLarge", len(b), err)
	}
}

// BenchmarkBinary measures the binary form and the JSON form of an
// Averaged of 35 classes on 2^15 columns, both ways.
func BenchmarkBinary(b *testing.B) {
	const d, K = 1 << 15, 35
	rnd := rand.New(rand.NewPCG(1, 2))
	n := 2 * K
	ptr := []int{0}
	var ind []int
	var val []float64
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			if rnd.IntN(50) == 0 {
				ind, val = append(ind, j), append(val, rnd.NormFloat64())
			}
		}
		ptr = append(ptr, len(ind))
		y[i] = float64(i % K)
	}
	X, err := NewCSR(n, d, ptr, ind, val)
	if err != nil {
		b.Fatal(err)
	}
	a := &Averaged{Epochs: 3}
	if err := a.Fit(X, y); err != nil {
		b.Fatal(err)
	}
	bin, err := a.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	js, err := json.Marshal(a)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("MarshalBinary", func(b *testing.B) {
		b.SetBytes(int64(len(bin)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.MarshalBinary(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("UnmarshalBinary", func(b *testing.B) {
		b.SetBytes(int64(len(bin)))
		b.ReportAllocs()
		for b.Loop() {
			var q Averaged
			if err := q.UnmarshalBinary(bin); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MarshalJSON", func(b *testing.B) {
		b.SetBytes(int64(len(bin)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("UnmarshalJSON", func(b *testing.B) {
		b.SetBytes(int64(len(bin)))
		b.ReportAllocs()
		for b.Loop() {
			var q Averaged
			if err := q.UnmarshalJSON(js); err != nil {
				b.Fatal(err)
			}
		}
	})
}
