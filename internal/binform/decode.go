// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package binform

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"unicode/utf8"
)

// Decoder decodes values from the bytes of a form. Its first error stays,
// and it decodes nothing after it.
type Decoder struct {
	b   []byte
	off int
	err error

	// Check, if not nil, is given the bytes of each allocation of more
	// than a few bytes before the allocation, and its error is the
	// Decoder's.
	Check func(need float64) error

	// MaxSparse is the most floats of a sparse float array of a value,
	// as the Encoder's, whose bytes do not bound its length. Tables may
	// have more.
	MaxSparse uint64

	heads  []Plan // of the tables
	tables []rankedField
}

type rankedField struct {
	rank int
	v    reflect.Value
}

// NewDecoder returns a Decoder of the bytes of b from the byte off on.
func NewDecoder(b []byte, off int) *Decoder { return &Decoder{b: b, off: off} }

// Err returns the first error of d.
func (d *Decoder) Err() error { return d.err }

// Left returns the number of bytes left to decode.
func (d *Decoder) Left() int { return len(d.b) - d.off }

// Offset returns the offset of the next byte to decode.
func (d *Decoder) Offset() int { return d.off }

// fail records the error of the byte at off, unless d has one.
func (d *Decoder) fail(off int, format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("at byte %d: "+format, append([]any{off}, args...)...)
	}
	d.off = len(d.b)
}

// check checks the memory of an allocation of need bytes.
func (d *Decoder) check(need float64) bool {
	if d.Check == nil || d.err != nil {
		return d.err == nil
	}
	if err := d.Check(need); err != nil {
		d.err = err
		d.off = len(d.b)
		return false
	}
	return true
}

// next returns the next n bytes, or nil after an error or if fewer are
// left.
func (d *Decoder) next(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b)-d.off {
		d.fail(d.off, "it ends, %d bytes short", n-(len(d.b)-d.off))
		return nil
	}
	d.off += n
	return d.b[d.off-n : d.off : d.off]
}

// Uvarint returns the next uvarint.
func (d *Decoder) Uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	switch {
	case n == 0:
		d.fail(d.off, "it ends within a varint")
	case n < 0:
		d.fail(d.off, "a varint overflows 64 bits")
	case n > 1 && d.b[d.off+n-1] == 0:
		d.fail(d.off, "a varint of more bytes than it needs")
	default:
		d.off += n
		return v
	}
	return 0
}

// count returns the next uvarint as a count of items of at least size
// bytes each, which the bytes left must hold.
func (d *Decoder) count(size int) int {
	at := d.off
	v := d.Uvarint()
	if d.err == nil && v > uint64(d.Left()/size) {
		d.fail(at, "%d items of %d bytes or more, more than the %d bytes left", v, size, d.Left())
		return 0
	}
	return int(v)
}

// list returns the length of the next slice, and false for nil.
func (d *Decoder) list(size int) (int, bool) {
	at := d.off
	v := d.Uvarint()
	switch {
	case d.err != nil || v == 0:
		return 0, false
	case v-1 > uint64(d.Left()/size):
		d.fail(at, "a list of %d items, more than the %d bytes left hold", v-1, d.Left())
		return 0, false
	}
	return int(v - 1), true
}

// Float returns the next float, an error if it is not finite.
func (d *Decoder) Float() float64 {
	at := d.off
	b := d.next(8)
	if b == nil {
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(b))
	if !finite(v) {
		d.fail(at, "a float of %v, want a finite number", v)
		return 0
	}
	return v
}

// Decode decodes the next value into v, a pointer, leaving its tables to
// Tables. A slice of bytes is decoded as a slice of the Decoder's bytes,
// not a copy.
func (d *Decoder) Decode(v any) {
	if err := d.value(reflect.ValueOf(v).Elem()); err != nil && d.err != nil {
		d.err = err
	}
}

// value decodes into v, and returns d's error with the field it came
// from, if it has one.
func (d *Decoder) value(v reflect.Value) error {
	if d.err != nil {
		return d.err
	}
	at := d.off
	switch v.Kind() {
	case reflect.Bool:
		if b := d.next(1); b != nil {
			if b[0] > 1 {
				d.fail(at, "a bool of %d, want 0 or 1", b[0])
			}
			v.SetBool(b[0] == 1)
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		x, n := binary.Varint(d.b[d.off:])
		switch {
		case n <= 0:
			d.fail(at, "no varint")
		case n > 1 && d.b[d.off+n-1] == 0:
			d.fail(at, "a varint of more bytes than it needs")
		case v.OverflowInt(x):
			d.fail(at, "the integer %d overflows a %s", x, v.Type())
		default:
			d.off += n
			v.SetInt(x)
		}
	case reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		if x := d.Uvarint(); v.OverflowUint(x) {
			d.fail(at, "the integer %d overflows a %s", x, v.Type())
		} else {
			v.SetUint(x)
		}
	case reflect.Float64:
		v.SetFloat(d.Float())
	case reflect.String:
		n := d.count(1)
		if b := d.next(n); b != nil {
			if !utf8.Valid(b) {
				d.fail(at, "a string that is not UTF-8")
			}
			v.SetString(string(b))
		}
	case reflect.Pointer:
		if b := d.next(1); b != nil {
			switch {
			case b[0] > 1:
				d.fail(at, "a pointer flag of %d, want 0 or 1", b[0])
			case b[0] == 1:
				v.Set(reflect.New(v.Type().Elem()))
				return d.value(v.Elem())
			default:
				v.SetZero()
			}
		}
	case reflect.Struct:
		return fields(v, func(f reflect.StructField, x reflect.Value, rank int) error {
			if rank >= 0 {
				d.tables = append(d.tables, rankedField{rank, x})
				return nil
			}
			return d.value(x)
		})
	case reflect.Slice:
		d.slice(v)
	default:
		panic("binform: cannot decode a " + v.Type().String())
	}
	return d.err
}

// slice decodes into the slice v.
func (d *Decoder) slice(v reflect.Value) {
	elem := v.Type().Elem()
	if elem.Kind() == reflect.Float64 {
		at := d.off
		switch enc := d.Uvarint(); {
		case d.err != nil:
		case enc == arrayNil:
			v.SetZero()
		case enc == arrayDense || enc == arraySparse:
			n := d.Uvarint()
			if x := d.floats(n, enc == arraySparse); d.err == nil {
				v.Set(reflect.ValueOf(x).Convert(v.Type()))
			}
		default:
			d.fail(at, "a float array of encoding %d, want 0, 1 or 2", enc)
		}
		return
	}
	n, ok := d.list(1)
	if !ok {
		v.SetZero()
		return
	}
	if elem.Kind() == reflect.Uint8 {
		v.SetBytes(d.next(n))
		return
	}
	if !d.check(float64(n) * float64(elem.Size())) {
		return
	}
	s := reflect.MakeSlice(v.Type(), n, n)
	for i := range n {
		if err := d.value(s.Index(i)); err != nil {
			d.err = fmt.Errorf("[%d] %w", i, err)
			return
		}
	}
	v.Set(s)
}

// floats decodes the body of n floats, dense or sparse.
func (d *Decoder) floats(n uint64, sparse bool) []float64 {
	at := d.off
	if !sparse {
		if n > uint64(d.Left()/8) {
			d.fail(at, "%d floats, more than the %d bytes left hold", n, d.Left())
			return nil
		}
		if !d.check(8 * float64(n)) {
			return nil
		}
		b := d.next(8 * int(n))
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
			if !finite(x[i]) {
				d.fail(at+8*i, "a float of %v, want a finite number", x[i])
				return nil
			}
		}
		return x
	}
	fill := d.Float()
	m := d.count(9)
	switch {
	case d.err != nil:
		return nil
	case uint64(m) > n:
		d.fail(at, "%d values other than the fill of %d floats", m, n)
		return nil
	case n > d.MaxSparse:
		d.fail(at, "a sparse array of %d floats, more than the %d that the form's shape allows", n, d.MaxSparse)
		return nil
	case n > math.MaxInt/8:
		d.fail(at, "%d floats", n)
		return nil
	}
	if !d.check(8 * float64(n)) {
		return nil
	}
	x := make([]float64, n)
	if fill != 0 {
		for i := range x {
			x[i] = fill
		}
	}
	bits, last := math.Float64bits(fill), -1
	for range m {
		gap := d.Uvarint()
		at := d.off
		v := d.Float()
		switch {
		case d.err != nil:
			return nil
		case gap >= n-uint64(last+1):
			d.fail(at, "a value at index %d or beyond, of %d floats", uint64(last+1)+min(gap, n), n)
			return nil
		case math.Float64bits(v) == bits:
			d.fail(at, "a value of the fill, %v, among the others", v)
			return nil
		}
		last += int(gap) + 1
		x[last] = v
	}
	return x
}

// TableHeads decodes the number of tables and their encodings, which
// start a head of the form of the version: an absent table from version
// 4 on.
func (d *Decoder) TableHeads(version uint16) {
	n := d.count(1)
	for range n {
		at := d.off
		switch enc := d.Uvarint(); {
		case d.err != nil:
			return
		case enc == tableDense:
			d.heads = append(d.heads, Plan{})
		case enc == tableSparse:
			// Its body is in the tables, which Tables reads.
			body := d.Uvarint()
			d.heads = append(d.heads, Plan{sparse: true, Body: int(min(body, math.MaxInt32))})
		case enc == tableAbsent && version >= 4:
			d.heads = append(d.heads, Plan{absent: true})
		case version < 4:
			d.fail(at, "a table of encoding %d, want 0 or 1 in version %d", enc, version)
		default:
			d.fail(at, "a table of encoding %d, want 0, 1 or 2", enc)
		}
	}
}

// Tables decodes the tables of the values that d decoded, of n floats
// each, from the bytes of b, which start with d's bytes, after those:
// they must hold the tables and nothing more. It returns the error of d,
// if any.
func (d *Decoder) Tables(b []byte, n uint64) error {
	if d.err != nil {
		return d.err
	}
	d.b = b
	slices.SortStableFunc(d.tables, func(a, b rankedField) int { return a.rank - b.rank })
	d.MaxSparse = max(d.MaxSparse, n)
	if len(d.tables) != len(d.heads) {
		d.fail(d.off, "the head gives %d tables, want %d", len(d.heads), len(d.tables))
		return d.err
	}
	present := 0
	for _, p := range d.heads {
		if !p.absent {
			present++
		}
	}
	if present > 0 && (n > math.MaxInt/8 || !d.check(8*float64(n)*float64(present))) {
		if d.err == nil {
			d.fail(d.off, "tables of %d floats", n)
		}
		return d.err
	}
	for k, p := range d.heads {
		if p.absent {
			continue // its field stays nil
		}
		all := d.b
		if p.sparse {
			// A sparse table is read within the bytes of its body.
			if p.Body > d.Left() {
				d.fail(d.off, "table %d of %d bytes or more, more than the %d left", k, p.Body, d.Left())
				return d.err
			}
			d.b = d.b[:d.off+p.Body]
		}
		x := d.floats(n, p.sparse)
		if p.sparse && d.err == nil && d.Left() != 0 {
			d.fail(d.off, "%d bytes of table %d's body after its floats", d.Left(), k)
		}
		d.b = all
		if d.err != nil {
			d.err = fmt.Errorf("table %d: %w", k, d.err)
			return d.err
		}
		f := d.tables[k].v
		f.Set(reflect.ValueOf(x).Convert(f.Type()))
	}
	if d.Left() != 0 {
		d.fail(d.off, "%d bytes after the tables", d.Left())
	}
	return d.err
}
