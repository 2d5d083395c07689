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
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/binform"
)

// btCheckBinary saves m in the binary form with Marshal and loads it
// with Unmarshal, and checks that the loaded classifier saves to the same
// form; it returns the loaded classifier, for jtCheckRoundTrip to compare
// with m.
func btCheckBinary(t *testing.T, name string, m Scorer) Scorer {
	t.Helper()
	b, err := Marshal(m)
	if err != nil {
		t.Fatalf("%s: Marshal: %v", name, err)
	}
	l, err := Unmarshal(b)
	if err != nil {
		t.Fatalf("%s: Unmarshal of the binary form: %v", name, err)
	}
	if again, err := Marshal(l); err != nil || !bytes.Equal(again, b) {
		t.Fatalf("%s: the binary form loads to a classifier whose form differs (%v)", name, err)
	}
	return l
}

// btCheckDense saves m, a Perceptron or an Averaged, with MarshalBinary
// and loads it with UnmarshalBinary, and checks that the form is laid out
// as MarshalBinary says, with each table dense at the end, that it loads
// to a classifier that saves to it again, and that Unmarshal loads it
// too; it returns the loaded classifier.
func btCheckDense(t *testing.T, name string, m encoding.BinaryMarshaler) Scorer {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatalf("%s: MarshalBinary: %v", name, err)
	}
	var tables [][]float64
	switch m := m.(type) {
	case *Perceptron:
		tables = [][]float64{m.work().w.w}
	case *Averaged:
		tables = [][]float64{m.work().sum.w, m.work().w.w}
	}
	h := binform.ReadHeader(b)
	at := binform.HeaderSize + int(h.Head)
	if string(b[:4]) != "PCPT" || h.Version != 3 || int(h.D*h.S) != len(tables[0]) || len(b) != at+8*len(tables)*len(tables[0]) {
		t.Fatalf("%s: a form of %d bytes, header %+v, for %d tables of %d", name, len(b), h, len(tables), len(tables[0]))
	}
	for _, x := range tables {
		for _, v := range x {
			if got := binary.LittleEndian.Uint64(b[at:]); got != math.Float64bits(v) {
				t.Fatalf("%s: table word at %d is %x, want %x", name, at, got, math.Float64bits(v))
			}
			at += 8
		}
	}
	l := jtFresh(m.(Scorer))
	if err := l.(encoding.BinaryUnmarshaler).UnmarshalBinary(b); err != nil {
		t.Fatalf("%s: UnmarshalBinary: %v", name, err)
	}
	if again, err := l.(encoding.BinaryMarshaler).MarshalBinary(); err != nil || !bytes.Equal(again, b) {
		t.Fatalf("%s: the dense binary form loads to a classifier whose form differs (%v)", name, err)
	}
	u, err := Unmarshal(b)
	if err != nil {
		t.Fatalf("%s: Unmarshal of the dense binary form: %v", name, err)
	}
	if j1, j2 := jtJSON(t, u), jtJSON(t, l); !bytes.Equal(j1, j2) {
		t.Fatalf("%s: Unmarshal and UnmarshalBinary load\n%s\n%s", name, j1, j2)
	}
	return l
}

func jtJSON(t *testing.T, m Scorer) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBinarySparse checks that Marshal writes the weights of a wide
// model, mostly zero, as the others and where they are: a form of the
// size of those, which loads to the model, and that the tables of
// MarshalBinary are dense.
func TestBinarySparse(t *testing.T) {
	const d = 100000
	X, _ := NewCSR(4, d, []int{0, 2, 3, 5, 6}, []int{3, 70000, 12, 5, 99999, 40}, []float64{1, 2, 3, -1, 0.5, 2})
	y := []float64{1, 2, 3, 1}
	for _, m := range []interface {
		Scorer
		encoding.BinaryMarshaler
	}{&Perceptron{Epochs: 3}, &Averaged{Epochs: 3}} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		sparse, err := Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		dense, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if len(sparse) > 2000 || len(dense) < 8*3*d {
			t.Errorf("%T: Marshal writes %d bytes, MarshalBinary %d", m, len(sparse), len(dense))
		}
		for _, b := range [][]byte{sparse, dense} {
			l, err := Unmarshal(b)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(jtJSON(t, l), jtJSON(t, m)) {
				t.Errorf("%T: a form of %d bytes loads to another model", m, len(b))
			}
		}
	}
}

// btForms returns the forms of a small fitted model of each type, with
// settings of every kind, by Marshal, and for a Perceptron and an
// Averaged by MarshalBinary too.
func btForms(t testing.TB) map[string][]byte {
	X := mat.NewDense(5, 2, []float64{1, 0, 0, 1, 1, 1, -1, 2, 0.5, -1})
	y := []float64{1, 2, 3, 1, 2}
	forms := map[string][]byte{}
	models := map[string]Scorer{
		"Perceptron": &Perceptron{Epochs: 4, Rate: 0.625, Labels: []float64{3, 1, 2}, Stop: &Stop{Tol: 0.5}},
		"Averaged":   &Averaged{Epochs: 2, Rate: 0.5, InitWeights: []float64{1, 2, 3, 4, 5, 6}, ClassWeight: map[float64]float64{2: 1.5}},
		"Pocket":     &Pocket{Epochs: 3, Ratchet: true},
		"Voted":      &Voted{Epochs: 3},
		"Kernel":     &Kernel{Epochs: 3, Func: RBF{Gamma: 0.5}, Budget: 3},
		"OneVsRest":  &OneVsRest{New: func() Scorer { return &Averaged{Epochs: 2} }},
	}
	for name, m := range models {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if l, ok := m.(onlineLearner); ok && name != "Kernel" {
			if err := l.Learn(X, btShifted(y, []float64{1, 2, 3})); err != nil {
				t.Fatal(err)
			}
		}
		b, err := Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		forms[name] = b
		if d, ok := m.(encoding.BinaryMarshaler); ok {
			if forms[name+"/dense"], err = d.MarshalBinary(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return forms
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

// btFloat returns a copy of the form b with the first float of the bits
// of v set to w.
func btFloat(t *testing.T, b []byte, v, w float64) []byte {
	var pat [8]byte
	binary.LittleEndian.PutUint64(pat[:], math.Float64bits(v))
	k := bytes.Index(b, pat[:])
	if k < 0 {
		t.Fatalf("no float %v in the form", v)
	}
	return btEdit(b, k, math.Float64bits(w), 8)
}

// btSaved returns the binary form of m's content changed by edit.
func btSaved(t *testing.T, m Scorer, sparse bool, edit func(*saved)) []byte {
	s, err := m.(interface{ saved(string) (saved, error) }).saved("Marshal")
	if err != nil {
		t.Fatal(err)
	}
	edit(&s)
	b, err := s.binary(sparse)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUnmarshalBinaryErrors checks that malformed forms, and forms of
// models that the JSON form would refuse too, fail with an error of kind
// ErrFormat that says what is wrong, and leave the model as it was.
func TestUnmarshalBinaryErrors(t *testing.T) {
	forms := btForms(t)
	p, a := forms["Perceptron/dense"], forms["Averaged/dense"]
	ps := forms["Perceptron"]
	pm, err := Unmarshal(p)
	if err != nil {
		t.Fatal(err)
	}
	am, _ := Unmarshal(a)
	head := func(b []byte) int { return binform.HeaderSize + int(binform.ReadHeader(b).Head) }
	// The head of a Perceptron's dense form: 1 table, dense; Epochs (1
	// byte), Rate, NoBias.
	const pNoBias = 32 + 2 + 1 + 8
	cases := []struct {
		name, typ string
		data      []byte
		want      string
	}{
		{"empty", "Perceptron", nil, "does not start with a header"},
		{"JSON", "Perceptron", []byte(`{"type":"Perceptron","version":1,"settings":{},"model":{},"stats":{}}`), `does not start with a header of 32 bytes and "PCPT"`},
		{"version", "Perceptron", btEdit(p, 4, 2, 2), "version 2, want 3"},
		{"other type", "Perceptron", a, "perceptron: not the binary form of a Perceptron: it is that of an Averaged"},
		{"other type", "Averaged", forms["Kernel"], "perceptron: not the binary form of an Averaged: it is that of a Kernel"},
		{"unknown type", "Averaged", btEdit(a, 6, 9, 2), "type 9, want 2"},
		{"no columns", "Perceptron", btEdit(p, 8, 0, 8), "0 columns by 3 scores"},
		{"columns overflow", "Perceptron", btEdit(p, 8, 1<<62, 8), "4611686018427387904 columns by 3 scores, want 1 to 2^45"},
		{"head too long", "Perceptron", btEdit(p, 24, 1<<62, 8), "a head of 4611686018427387904 bytes"},
		{"extra byte", "Perceptron", append(slices.Clone(p), 0), "1 bytes after the tables"},
		{"extra byte", "Perceptron", append(slices.Clone(ps), 0), "bytes after the tables"},
		{"a byte short", "Averaged", a[:len(a)-1], "table 1: at byte 269: 6 floats, more than the 47 bytes left hold"},
		{"columns", "Perceptron", btEdit(p, 8, 3, 8), "table 0: at byte 187: 9 floats, more than the 48 bytes left hold"},
		{"scores", "Perceptron", btEdit(btEdit(p, 16, 1, 8), 8, 6, 8), "its header gives 6 columns by 1 scores, and its model 2 by 3"},
		{"bool", "Perceptron", btEdit(p, pNoBias, 2, 1), "noBias at byte 43: a bool of 2, want 0 or 1"},
		{"table encoding", "Perceptron", btEdit(p, 33, 5, 1), "a table of encoding 5"},
		{"more head", "Perceptron", btEdit(slices.Concat(p[:head(p)], []byte{0}, p[head(p):]), 24, uint64(head(p)-32+1), 8), "the head holds 1 bytes after its values"},
		{"rate", "Perceptron", btFloat(t, p, 0.625, math.NaN()), "rate at byte 35: a float of NaN, want a finite number"},
		{"weight", "Perceptron", btEdit(p, head(p)+8, math.Float64bits(math.Inf(-1)), 8), "table 0: at byte"},
		{"sparse weight", "Perceptron", btFloat(t, ps, pm.(*Perceptron).work().w.w[1], math.Inf(1)), "a float of +Inf"},
		{"epochs", "Perceptron", btSaved(t, pm, false, func(s *saved) { st := s.settings.(settingsJSON); st.Epochs = -1; s.settings = st }), "saved Perceptron's settings: Epochs is -1"},
		{"classes", "Perceptron", btSaved(t, pm, true, func(s *saved) {
			m := s.model.(linearJSON)
			m.Classes = []float64{1, 1, 3}
			s.model = m
		}), "the classes [1 1 3] are not at least two, ascending"},
		{"stats", "Perceptron", btSaved(t, pm, true, func(s *saved) { st := *s.stats; st.Epochs = 9; s.stats = &st }), "saved Perceptron's stats: 9 epochs with"},
		{"ahead", "Averaged", btSaved(t, am, false, func(s *saved) { m := s.model.(averagedJSON); m.Ahead = 1 << 40; s.model = m }), "1099511627776 ahead"},
		{"ratchet", "Perceptron", btSaved(t, pm, true, func(s *saved) { st := s.settings.(settingsJSON); st.Ratchet = new(bool); s.settings = st }), "ratchet is Pocket's setting alone"},
	}
	for _, tc := range cases {
		t.Run(tc.name+"/"+tc.typ, func(t *testing.T) {
			good := forms[tc.typ+"/dense"]
			m := jtFresh(map[string]Scorer{"Perceptron": pm, "Averaged": am}[tc.typ]).(interface {
				Scorer
				encoding.BinaryMarshaler
				encoding.BinaryUnmarshaler
			})
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
			if _, err := Unmarshal(tc.data); err == nil && tc.name != "other type" {
				t.Errorf("Unmarshal loads it")
			}
		})
	}
}

// TestUnmarshalBinaryPrefixes checks that no prefix of a form of any type
// loads, and that the form with any byte changed (every seventh, in
// short runs) loads without a panic, and if it loads, to a model that
// saves and loads again in both forms.
func TestUnmarshalBinaryPrefixes(t *testing.T) {
	for typ, b := range btForms(t) {
		for n := range len(b) {
			if _, err := Unmarshal(b[:n]); err == nil || !errors.Is(err, ErrFormat) {
				t.Fatalf("%s: the first %d of %d bytes: error %v", typ, n, len(b), err)
			}
		}
		step := 1
		if testing.Short() || raceEnabled {
			step = 7
		}
		for i := 0; i < len(b); i += step {
			for _, v := range []byte{b[i] ^ 1, b[i] ^ 0x80, 0xff, 0} {
				c := slices.Clone(b)
				c[i] = v
				if h := binform.ReadHeader(c); h.D*h.S > 1<<12 {
					// A sparse form of another width loads as the same
					// weights with more zeros: too many to save here.
					continue
				}
				btCheckLoad(t, c)
			}
		}
	}
}

// btCheckLoad checks Unmarshal of data: it must not panic; an error must
// be of kind ErrFormat or ErrTooLarge and start with perceptron:; and a
// model that loads must save in both forms to forms that load to a model
// of the same forms.
func btCheckLoad(t *testing.T, data []byte) {
	t.Helper()
	m, err := Unmarshal(data)
	if err != nil {
		if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), "perceptron: ") {
			t.Fatalf("Unmarshal(%x): error %q, want one of kind ErrFormat", data, err)
		}
		return
	}
	b, err := Marshal(m)
	if err != nil {
		t.Fatalf("Unmarshal(%x) loads a model that Marshal refuses: %v", data, err)
	}
	j := jtJSON(t, m)
	for _, in := range [][]byte{b, j} {
		l, err := Unmarshal(in)
		if err != nil {
			t.Fatalf("Unmarshal(%x) loads a model whose form %q does not load: %v", data, in, err)
		}
		if again, err := Marshal(l); err != nil || !bytes.Equal(again, b) || !bytes.Equal(jtJSON(t, l), j) {
			t.Fatalf("Unmarshal(%x) loads a model whose forms load to another (%v)", data, err)
		}
	}
}

// TestBinaryFormVersion checks the version and the type numbers that the
// package documentation gives.
func TestBinaryFormVersion(t *testing.T) {
	forms := btForms(t)
	for typ, want := range map[string]uint16{"Perceptron": 1, "Averaged": 2, "Pocket": 3, "Voted": 4, "Kernel": 5, "OneVsRest": 6} {
		h := binform.ReadHeader(forms[typ])
		if h.Version != 3 || h.Type != want || h.D != 2 {
			t.Errorf("%s: header %+v, want version 3, type %d, 2 columns", typ, h, want)
		}
	}
}

// TestMarshalErrors checks that Marshal refuses what MarshalJSON refuses,
// with the same kind, and a Scorer of another package.
func TestMarshalErrors(t *testing.T) {
	if _, err := Marshal(&Perceptron{}); !errors.Is(err, ErrNotFitted) || !strings.Contains(err.Error(), "perceptron: Marshal called before Fit") {
		t.Errorf("Marshal before Fit: %v", err)
	}
	X, y := twoPoints()
	p := &Perceptron{}
	if err := p.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	p.InitWeights = []float64{1, 2, 3, 4, 5}
	_, errJSON := json.Marshal(p)
	_, err := Marshal(p)
	if !errors.Is(err, ErrShape) || !errors.Is(errJSON, ErrShape) || !strings.HasPrefix(err.Error(), "perceptron: Marshal: ") {
		t.Errorf("Marshal of bad InitWeights: %v; MarshalJSON: %v", err, errJSON)
	}
	if _, err := Marshal(foreignScorer{}); err == nil || !strings.Contains(err.Error(), "no classifier of this package") {
		t.Errorf("Marshal of another Scorer: %v", err)
	}
}

// btTableFloats returns the floats of the tables that the headers of the
// binary forms in data give, two tables each, or 0 if data is not one.
func btTableFloats(data []byte) uint64 {
	if !isBinary(data) {
		return 0
	}
	var n uint64
	for k := 0; ; k++ {
		i := bytes.Index(data[k:], []byte(binform.Magic))
		if i < 0 || k+i+binform.HeaderSize > len(data) {
			break
		}
		k += i
		h := binform.ReadHeader(data[k:])
		if h.D*h.S/max(h.S, 1) != h.D {
			return math.MaxUint64
		}
		n += 2 * h.D * h.S
	}
	return n
}

// foreignScorer is a Scorer of no type of this package.
type foreignScorer struct{ Scorer }

// BenchmarkBinary times Marshal and Unmarshal of an Averaged of 2^16
// columns by 16 classes, a tenth of its weights not zero, beside its JSON
// form.
func BenchmarkBinary(b *testing.B) {
	const d, K = 1 << 16, 16
	rnd := rand.New(rand.NewPCG(1, 2))
	m := linearModel{w: newTable(d, K, nil, false), sum: newTable(d, K, nil, false), visits: 1, classes: make([]float64, K)}
	for j := range m.w.w {
		if rnd.IntN(10) == 0 {
			m.w.w[j], m.sum.w[j] = rnd.NormFloat64(), rnd.NormFloat64()
		}
	}
	for c := range m.classes {
		m.classes[c] = float64(c)
	}
	a := &Averaged{}
	a.set(m)
	sparse, _ := Marshal(a)
	dense, _ := a.MarshalBinary()
	text, _ := json.Marshal(a)
	for _, c := range []struct {
		name string
		form []byte
	}{{"sparse", sparse}, {"dense", dense}, {"json", text}} {
		b.Run("Marshal/"+c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.form)))
			for b.Loop() {
				switch c.name {
				case "sparse":
					Marshal(a)
				case "dense":
					a.MarshalBinary()
				default:
					json.Marshal(a)
				}
			}
		})
		b.Run("Unmarshal/"+c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.form)))
			for b.Loop() {
				if _, err := Unmarshal(c.form); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
