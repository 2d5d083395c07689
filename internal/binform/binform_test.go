// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package binform

import (
	"math"
	"slices"
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

// TestWriterReader checks that what the Writer writes, the Reader reads
// back bit for bit, and that the count of a Writer without bytes is the
// length of what it writes.
func TestWriterReader(t *testing.T) {
	floats := []float64{1.5, math.Copysign(0, -1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64}
	ints := []int{0, -1, math.MaxInt, math.MinInt}
	write := func(w *Writer) {
		w.Int(-7)
		w.Uint(math.MaxUint64)
		w.Float(-2.25)
		w.Flag(true)
		w.Flag(false)
		w.FloatList(nil)
		w.FloatList([]float64{})
		w.FloatList(floats)
		w.IntList(nil)
		w.IntList(ints)
		w.Floats(floats[:2])
	}
	var count Writer
	write(&count)
	w := Writer{B: make([]byte, 0, count.N)}
	write(&w)
	if len(w.B) != count.N {
		t.Fatalf("wrote %d bytes, counted %d", len(w.B), count.N)
	}
	r := NewReader(w.B, 0)
	same := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	}
	switch {
	case r.Int() != -7, r.Uint() != math.MaxUint64, r.Float() != -2.25, !r.Flag(), r.Flag():
		t.Error("a number or a flag reads back otherwise")
	case r.FloatList() != nil:
		t.Error("nil reads back as a list")
	case !same(r.FloatList(), []float64{}):
		t.Error("an empty list reads back otherwise")
	case !same(r.FloatList(), floats):
		t.Error("a list of floats reads back otherwise")
	case r.IntList() != nil:
		t.Error("nil reads back as a list of integers")
	case !slices.Equal(r.IntList(), ints):
		t.Error("a list of integers reads back otherwise")
	case !same(r.Floats(2), floats[:2]):
		t.Error("floats read back otherwise")
	case r.Err() != nil || r.Left() != 0:
		t.Errorf("error %v, %d bytes left", r.Err(), r.Left())
	}
}

// TestReaderErrors checks the Reader's first error, and that it reads
// zeros after it.
func TestReaderErrors(t *testing.T) {
	word := func(v uint64) []byte { w := Writer{B: []byte{}}; w.Uint(v); return w.B }
	for _, tc := range []struct {
		name string
		b    []byte
		read func(r *Reader)
		want string
	}{
		{"short", []byte{1, 2, 3}, func(r *Reader) { r.Uint() }, "at byte 0: it ends, 5 bytes short"},
		{"flag", []byte{2}, func(r *Reader) { r.Flag() }, "at byte 0: a flag of 2, want 0 or 1"},
		{"floats", make([]byte, 15), func(r *Reader) { r.Floats(2) }, "at byte 0: 2 floats, more than the 15 bytes left"},
		{"list", word(3), func(r *Reader) { r.FloatList() }, "at byte 8: a list of 2 numbers, more than the bytes hold"},
		{"first error stays", []byte{5, 0}, func(r *Reader) { r.Flag(); r.Flag() }, "at byte 0: a flag of 5"},
	} {
		r := NewReader(tc.b, 0)
		tc.read(r)
		if r.Err() == nil || !strings.HasPrefix(r.Err().Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, r.Err(), tc.want)
		}
		if r.Left() != 0 || r.Uint() != 0 || r.Flag() || r.FloatList() != nil {
			t.Errorf("%s: reads on after its error", tc.name)
		}
	}
}
