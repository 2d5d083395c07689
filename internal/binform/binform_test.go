// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package binform

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestHeader checks that a header reads back as it was written, in the
// layout that package perceptron documents.
func TestHeader(t *testing.T) {
	h := Header{Version: Version, Type: 2, D: 1 << 40, S: 7, Head: 123}
	b := h.Append([]byte("x"))
	if len(b) != 1+HeaderSize || string(b[1:5]) != Magic {
		t.Fatalf("header % x", b)
	}
	if got := ReadHeader(b[1:]); got != h {
		t.Errorf("ReadHeader: %+v, want %+v", got, h)
	}
	// The words at 8, 16 and 24: the columns, the scores and the head.
	if b[1+4] != Version || b[1+6] != 2 || b[1+16] != 7 || b[1+24] != 123 || b[1+8+5] != 1 {
		t.Errorf("header % x is not laid out as documented", b[1:])
	}
	SetWidth(b[1:], 5)
	h.D = 5
	if got := ReadHeader(b[1:]); got != h {
		t.Errorf("after SetWidth(5): %+v, want %+v", got, h)
	}
}

type inner struct {
	Name  string    `json:"name"`
	Skip  int       `json:"-"`
	Table []float64 `bin:"table,1"`
	hid   int
}

type embedded struct {
	Flag bool
	Sum  []float64 `bin:"table,0"`
}

// value is a value of every kind that the codec takes.
type value struct {
	embedded
	B      bool
	I      int
	U      uint32
	F      float64
	S      string
	P      *inner
	Nil    *inner
	Floats []float64
	Empty  []float64
	None   []float64
	Mostly []float64
	Ints   []int
	Names  []string
	Inners []struct{ Name string }
	Bytes  []byte
}

// sampleValue returns a value with the tables of n floats.
func sampleValue(n int) value {
	mostly := make([]float64, 40)
	for i := range mostly {
		mostly[i] = 0.25 // the fill, more frequent than 0
		if i%3 == 0 {
			mostly[i] = float64(i)
		}
	}
	mostly[1] = math.Copysign(0, -1)
	sum, table := make([]float64, n), make([]float64, n)
	sum[n-1], table[0] = -1.5, math.SmallestNonzeroFloat64
	return value{
		embedded: embedded{Flag: true, Sum: sum},
		B:        true, I: math.MinInt64, U: math.MaxUint32, F: -2.5, S: "é\u2028x",
		P:      &inner{Name: "in", Table: table, Skip: 3, hid: 4},
		Floats: []float64{1, math.Copysign(0, -1), math.MaxFloat64}, Empty: []float64{},
		Mostly: mostly,
		Ints:   []int{0, -1, math.MaxInt64, 300}, Names: []string{"", "a"},
		Inners: []struct{ Name string }{{"x"}}, Bytes: []byte("PCPT"),
	}
}

// decode decodes the form b into a value.
func decode(b []byte, maxSparse uint64) (value, error) {
	h := ReadHeader(b)
	d := NewDecoder(b[:HeaderSize+int(h.Head)], HeaderSize)
	d.MaxSparse = maxSparse
	d.TableHeads(Version)
	var v value
	d.Decode(&v)
	if d.Err() == nil && d.Left() != 0 {
		return v, errors.New("bytes left in the head")
	}
	return v, d.Tables(b, h.D*h.S)
}

// same reports whether a and b are equal, their floats to the bit.
func same(a, b any) bool {
	return reflect.DeepEqual(a, b) && fmtBits(reflect.ValueOf(a)) == fmtBits(reflect.ValueOf(b))
}

// fmtBits lists the bits of the floats in v.
func fmtBits(v reflect.Value) string {
	var s strings.Builder
	switch v.Kind() {
	case reflect.Float64:
		s.WriteString(string(binary.LittleEndian.AppendUint64(nil, math.Float64bits(v.Float()))))
	case reflect.Pointer:
		if !v.IsNil() {
			s.WriteString(fmtBits(v.Elem()))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			s.WriteString(fmtBits(v.Field(i)))
		}
	case reflect.Slice:
		for i := range v.Len() {
			s.WriteString(fmtBits(v.Index(i)))
		}
	}
	return s.String()
}

// TestRoundTrip checks that a value of every kind decodes to itself, its
// tables dense and sparse, and that the tables are where the package
// documentation says: after the head, by rank.
func TestRoundTrip(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		want := sampleValue(6)
		e := Encoder{Sparse: sparse, MaxSparse: 100}
		if err := e.Encode(want); err != nil {
			t.Fatal(err)
		}
		b, err := Form(Header{Version: Version, Type: 9, D: 3, S: 2}, &e, func(float64) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		got, err := decode(b, 100)
		want.P.Skip, want.P.hid = 0, 0 // left out
		if err != nil || !same(got, want) {
			t.Fatalf("sparse %t: decoded %+v, %v\nwant %+v", sparse, got, err, want)
		}
		// The bytes are the form's, not a copy.
		clear(b)
		if string(got.Bytes) != "\x00\x00\x00\x00" || cap(got.Bytes) != 4 {
			t.Errorf("decoded bytes %q of capacity %d, want the form's 4", got.Bytes, cap(got.Bytes))
		}
		if !sparse {
			// Two dense tables, the sums (rank 0) first.
			b, _ := Form(Header{Version: Version, Type: 9, D: 3, S: 2}, &e, func(float64) error { return nil })
			tail := b[len(b)-2*8*6:]
			if math.Float64frombits(binary.LittleEndian.Uint64(tail[40:])) != -1.5 || math.Float64frombits(binary.LittleEndian.Uint64(tail[48:])) != math.SmallestNonzeroFloat64 {
				t.Errorf("tables % x are not the sums, then the table", tail)
			}
		}
	}
}

// TestPlan checks the choice of the encoding of floats: dense unless
// sparse is asked and shorter, with the fill the common value, 0 when the
// two are as common; and that the body is of the length planned.
func TestPlan(t *testing.T) {
	idf := make([]float64, 1000)
	for i := range idf {
		idf[i] = 0.09 // the scale of the columns that no row holds
		if i%2 == 1 {
			idf[i] = 0.5 + float64(i%7)
		}
	}
	idf[0] = 0.7 // 499 of the fill, 501 others
	cases := []struct {
		name   string
		x      []float64
		sparse bool
		fill   float64
	}{
		{"zeros", make([]float64, 100), true, 0},
		{"weights", append(make([]float64, 97), 1, 2, 3), true, 0},
		{"idf", idf, true, 0.09},
		{"dense", []float64{1, 2, 3, 4, 5, 6, 7, 8}, false, 0},
		{"empty", nil, false, 0},
		{"one", []float64{0}, false, 0},
	}
	for _, c := range cases {
		p, err := PlanTable(c.x, true)
		if err != nil || p.sparse != c.sparse || p.sparse && p.fill != c.fill {
			t.Errorf("%s: plan %+v (%v), want sparse %t, fill %v", c.name, p, err, c.sparse, c.fill)
		}
		if got := len(p.AppendBody(nil, c.x)); got != p.Body {
			t.Errorf("%s: a body of %d bytes, planned %d", c.name, got, p.Body)
		}
		if got := len(p.AppendHead(nil)); got != p.HeadLen() {
			t.Errorf("%s: a head of %d bytes, planned %d", c.name, got, p.HeadLen())
		}
		if dense, _ := PlanTable(c.x, false); dense.sparse || dense.Body != 8*len(c.x) {
			t.Errorf("%s: dense plan %+v", c.name, dense)
		}
	}
	if _, err := PlanTable([]float64{1, math.NaN()}, true); err == nil || err.Error() != "[1] is NaN, want a finite number" {
		t.Errorf("plan of a NaN: %v", err)
	}
}

// TestEncodeErrors checks that the Encoder refuses what JSON cannot hold,
// naming the field.
func TestEncodeErrors(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{struct {
			X struct{ F float64 } `json:"x"`
		}{struct{ F float64 }{math.Inf(1)}}, "x.F is +Inf, want a finite number"},
		{struct{ S []string }{[]string{"a", "\xff"}}, `S[1] "\xff" is not UTF-8`},
		{struct {
			L []float64 `json:"list,omitempty"`
		}{[]float64{math.NaN()}}, "list[0] is NaN, want a finite number"},
	} {
		var e Encoder
		if err := e.Encode(c.v); err == nil || err.Error() != c.want {
			t.Errorf("Encode(%+v): %v, want %q", c.v, err, c.want)
		}
	}
	e := Encoder{}
	e.Encode(struct {
		T []float64 `bin:"table,0"`
	}{[]float64{1}})
	if _, err := Form(Header{D: 2, S: 1}, &e, func(float64) error { return nil }); err == nil {
		t.Error("Form of a table of another length")
	}
	tooLarge := errors.New("too large")
	if _, err := Form(Header{D: 1, S: 1}, &e, func(float64) error { return tooLarge }); err != tooLarge {
		t.Errorf("Form's check: %v", err)
	}
}

// TestDecodeErrors checks that the Decoder refuses a form that the
// Encoder does not write, saying where and what.
func TestDecodeErrors(t *testing.T) {
	type one[T any] struct{ V T }
	decodeOne := func(b []byte, v any, maxSparse uint64) error {
		d := NewDecoder(b, 0)
		d.MaxSparse = maxSparse
		d.Decode(v)
		if d.Err() == nil && d.Left() != 0 {
			return errors.New("left")
		}
		return d.Err()
	}
	f := func(v float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	cases := []struct {
		name string
		b    []byte
		v    any
		want string
	}{
		{"bool", []byte{2}, &one[bool]{}, "V at byte 0: a bool of 2, want 0 or 1"},
		{"overlong", []byte{0x80, 0}, &one[uint]{}, "a varint of more bytes than it needs"},
		{"overlong int", []byte{0x81, 0}, &one[int]{}, "a varint of more bytes than it needs"},
		{"int ends", []byte{0x81}, &one[int]{}, "no varint"},
		{"uint32", []byte{0x80, 0x80, 0x80, 0x80, 0x10}, &one[uint32]{}, "the integer 4294967296 overflows a uint32"},
		{"float", f(math.NaN()), &one[float64]{}, "a float of NaN"},
		{"string", []byte{1, 0xff}, &one[string]{}, "a string that is not UTF-8"},
		{"string long", []byte{5, 'a'}, &one[string]{}, "5 items of 1 bytes or more, more than the 1 bytes left"},
		{"pointer", []byte{3}, &one[*int]{}, "a pointer flag of 3"},
		{"list", []byte{9, 1}, &one[[]int]{}, "a list of 8 items, more than the 1 bytes left hold"},
		{"encoding", []byte{3}, &one[[]float64]{}, "a float array of encoding 3"},
		{"dense long", []byte{1, 2, 0}, &one[[]float64]{}, "2 floats, more than the 1 bytes left hold"},
		{"sparse fill", cat([]byte{2, 3}, f(1), []byte{1, 0}, f(1)), &one[[]float64]{}, "a value of the fill, 1, among the others"},
		{"sparse gap", cat([]byte{2, 3}, f(0), []byte{1, 3}, f(1)), &one[[]float64]{}, "a value at index 3 or beyond, of 3 floats"},
		{"sparse count", cat([]byte{2, 3}, f(0), []byte{4, 0}, f(1), []byte{0}, f(2), []byte{0}, f(3), []byte{0}, f(4)), &one[[]float64]{}, "4 values other than the fill of 3 floats"},
		{"sparse long", cat([]byte{2, 101}, f(0), []byte{0}), &one[[]float64]{}, "a sparse array of 101 floats, more than the 100"},
		{"sparse NaN", cat([]byte{2, 3}, f(0), []byte{1, 0}, f(math.Inf(-1))), &one[[]float64]{}, "a float of -Inf"},
	}
	for _, c := range cases {
		if err := decodeOne(c.b, c.v, 100); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		for n := range len(c.b) {
			if err := decodeOne(c.b[:n], c.v, 100); err == nil {
				t.Errorf("%s: the first %d bytes decode", c.name, n)
			}
		}
	}
	// Memory: a list, and a sparse array, check their bytes first.
	tooLarge := errors.New("too large")
	d := NewDecoder(cat([]byte{2, 100}, f(0), []byte{0}), 0)
	d.MaxSparse, d.Check = 1000, func(need float64) error {
		if need == 800 {
			return tooLarge
		}
		return nil
	}
	var v one[[]float64]
	if d.Decode(&v); !errors.Is(d.Err(), tooLarge) {
		t.Errorf("the memory of a sparse array: %v", d.Err())
	}
}

// TestTableErrors checks that the tables are decoded exactly from their
// bodies, and refused otherwise.
func TestTableErrors(t *testing.T) {
	e := Encoder{Sparse: true, MaxSparse: 100}
	e.Encode(struct {
		T []float64 `bin:"table,0"`
	}{[]float64{0, 0, 0, 0, 0, 0, 7, 0}})
	good, err := Form(Header{D: 4, S: 2}, &e, func(float64) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	load := func(b []byte) error {
		h := ReadHeader(b)
		d := NewDecoder(b[:HeaderSize+int(h.Head)], HeaderSize)
		d.TableHeads(Version)
		var v struct {
			T []float64 `bin:"table,0"`
		}
		d.Decode(&v)
		if err := d.Tables(b, h.D*h.S); err != nil {
			return err
		}
		if v.T[6] != 7 {
			return errors.New("wrong table")
		}
		return nil
	}
	if err := load(good); err != nil {
		t.Fatal(err)
	}
	head := HeaderSize + int(ReadHeader(good).Head)
	for name, c := range map[string]struct {
		b    []byte
		want string
	}{
		"longer":  {append(bytes.Clone(good), 0), "at byte 53: 1 bytes after the tables"},
		"shorter": {good[:len(good)-1], "table 0 of 18 bytes or more, more than the 17 left"},
		"gap":     {append(append(bytes.Clone(good[:head+9]), 9), good[head+10:]...), "table 0: at byte 45: a value at index 8 or beyond, of 8 floats"},
		"body":    {append(append(append(bytes.Clone(good[:head-1]), 19), good[head:]...), 0), "1 bytes of table 0's body after its floats"},
	} {
		if err := load(c.b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}
