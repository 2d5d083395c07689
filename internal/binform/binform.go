// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package binform is the low-level codec of the binary form of package
// perceptron's Perceptron and Averaged, whose layout package perceptron
// documents beside MarshalBinary: the header, and a writer and a reader
// of the parts that follow it. Package perceptron writes and reads the
// forms with it, and the Beam module's package ipm reads their headers to
// cut them into blocks of features.
package binform

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Magic opens the binary form.
const Magic = "PCPT"

// Version is the version of the binary form.
const Version = 2

// HeaderSize is the length of the header of the binary form.
const HeaderSize = 32

// Header is what the header of a binary form holds after Magic: the
// version and the type (uint16), and the columns D, the scores S and the
// length of the head in bytes (uint64), each little-endian.
type Header struct {
	Version, Type uint16
	D, S, Head    uint64
}

// Append appends Magic and h, HeaderSize bytes, to b.
func (h Header) Append(b []byte) []byte {
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint16(b, h.Version)
	b = binary.LittleEndian.AppendUint16(b, h.Type)
	b = binary.LittleEndian.AppendUint64(b, h.D)
	b = binary.LittleEndian.AppendUint64(b, h.S)
	return binary.LittleEndian.AppendUint64(b, h.Head)
}

// ReadHeader returns the header of the form f, of at least HeaderSize
// bytes, whatever its first 4 bytes are.
func ReadHeader(f []byte) Header {
	le := binary.LittleEndian
	return Header{Version: le.Uint16(f[4:]), Type: le.Uint16(f[6:]), D: le.Uint64(f[8:]), S: le.Uint64(f[16:]), Head: le.Uint64(f[24:])}
}

// SetWidth sets the columns D of the header at the start of f to d.
func SetWidth(f []byte, d int) { binary.LittleEndian.PutUint64(f[8:], uint64(d)) }

// Writer appends the parts of a binary form to B, or with B nil counts
// their bytes in N.
type Writer struct {
	B []byte
	N int
}

// Uint writes v.
func (w *Writer) Uint(v uint64) {
	if w.B == nil {
		w.N += 8
		return
	}
	w.B = binary.LittleEndian.AppendUint64(w.B, v)
}

// Int writes v, in two's complement.
func (w *Writer) Int(v int) { w.Uint(uint64(v)) }

// Float writes the bits of v.
func (w *Writer) Float(v float64) { w.Uint(math.Float64bits(v)) }

// Flag writes v as a byte, 0 or 1.
func (w *Writer) Flag(v bool) {
	if w.B == nil {
		w.N++
		return
	}
	var b byte
	if v {
		b = 1
	}
	w.B = append(w.B, b)
}

// Floats writes the floats of x, without their number, within the
// capacity of B, which must hold them.
func (w *Writer) Floats(x []float64) {
	if w.B == nil {
		w.N += 8 * len(x)
		return
	}
	n := len(w.B)
	w.B = w.B[:n+8*len(x)]
	b := w.B[n:]
	for i, v := range x {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
}

// FloatList writes x as a list: its length plus one, or 0 for nil, and
// its floats.
func (w *Writer) FloatList(x []float64) {
	if x == nil {
		w.Uint(0)
		return
	}
	w.Uint(uint64(len(x)) + 1)
	w.Floats(x)
}

// IntList writes x as a list.
func (w *Writer) IntList(x []int) {
	if x == nil {
		w.Uint(0)
		return
	}
	w.Uint(uint64(len(x)) + 1)
	for _, v := range x {
		w.Int(v)
	}
}

// Reader reads the parts of a binary form. Its first error stays; after
// it, it reads zeros and nil.
type Reader struct {
	b   []byte
	off int
	err error
}

// NewReader returns a Reader of the parts of b from the byte off on.
func NewReader(b []byte, off int) *Reader { return &Reader{b: b, off: off} }

// Err returns the first error of r: the byte where it happened, and what
// was wrong there.
func (r *Reader) Err() error { return r.err }

// Left returns the number of bytes left to read.
func (r *Reader) Left() int { return len(r.b) - r.off }

func (r *Reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("at byte %d: "+format, append([]any{r.off}, args...)...)
	}
	r.off = len(r.b)
}

// next returns the next n bytes, or nil after an error or if fewer are
// left.
func (r *Reader) next(n int) []byte {
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

// Uint returns the next unsigned integer.
func (r *Reader) Uint() uint64 {
	b := r.next(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// Int returns the next integer, an error if it does not fit in an int.
func (r *Reader) Int() int {
	v := int64(r.Uint())
	if v < math.MinInt || v > math.MaxInt {
		r.fail("the integer %d does not fit in an int", v)
		return 0
	}
	return int(v)
}

// Float returns the next float.
func (r *Reader) Float() float64 { return math.Float64frombits(r.Uint()) }

// Flag returns the next flag, an error if it is not 0 or 1.
func (r *Reader) Flag() bool {
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

// Floats returns the next n floats, or nil after an error or if fewer
// are left.
func (r *Reader) Floats(n int) []float64 {
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
func (r *Reader) list() (int, bool) {
	n := r.Uint()
	switch {
	case n == 0:
		return 0, false
	case n-1 > uint64(len(r.b)-r.off)/8:
		r.fail("a list of %d numbers, more than the bytes hold", n-1)
		return 0, false
	}
	return int(n - 1), true
}

// FloatList returns the next list of floats.
func (r *Reader) FloatList() []float64 {
	n, ok := r.list()
	if !ok {
		return nil
	}
	return r.Floats(n)
}

// IntList returns the next list of integers.
func (r *Reader) IntList() []int {
	n, ok := r.list()
	if !ok {
		return nil
	}
	x := make([]int, n)
	for i := range x {
		x[i] = r.Int()
	}
	return x
}
