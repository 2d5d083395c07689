// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package binform is the codec of the binary forms of package
// perceptron's classifiers and of package data's Model: the header of a
// classifier's form, and an Encoder and a Decoder of the values that
// follow it. The values are those of the JSON forms, the structs that
// encoding/json writes, so that the two forms hold the same content and
// each type gets its binary form from its JSON one. Package perceptron
// and package data document the layouts; the Beam module's package ipm
// reads the header to cut a form into blocks of features.
//
// A value is encoded by its kind, with no names: a bool as a byte, 0 or
// 1; an int as a zigzag varint (as encoding/binary's AppendVarint); an
// unsigned integer as a uvarint; a float64 as its bits, 8 bytes
// little-endian; a string as the uvarint of its length and its bytes,
// UTF-8; a pointer as a byte, 0 for nil and 1 before the value it points
// to; a struct as its exported fields in order, an embedded struct's
// among them and those that encoding/json leaves out (json:"-") left
// out; a slice as the uvarint of its length
// plus one, or 0 for nil, and its elements; and a slice of float64s as a
// float array. Every float must be finite, as in JSON.
//
// A float array is a uvarint, 0 for nil, 1 dense or 2 sparse, then the
// uvarint of its length n and its body: dense, the n floats; sparse, a
// float, the fill, the uvarint of the number m of the others, and each of
// those as the uvarint of the gap since the last (its index, for the
// first, and otherwise its index less the last's less one) and its float.
// The fill is any value, and the others differ from it in their bits.
//
// A field whose tag is bin:"table,R" is a table: it is written not where
// the field is but after the head, in the tables, by rank R ascending and
// then in the order of the fields, each of the length that the header
// gives it, d·s floats. The head starts with the uvarint of the number of
// tables, and for each table its encoding: a uvarint, 0 for dense, whose
// body in the tables is the d·s floats, 1 for sparse, followed by the
// uvarint of the length of its body, which is the fill, m and the others
// as in a sparse float array, or 2 for a table that is absent, a nil
// field, of no body (from version 4 on). Dense tables are thus laid out
// feature by feature, the floats of features [lo, hi) from byte 8·s·lo to 8·s·hi of
// the table.
package binform

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Magic opens the binary form of a classifier.
const Magic = "PCPT"

// Version is the version of the binary form of a classifier, and
// MinVersion the oldest that this package reads. Version 4 adds absent
// tables to version 3; a form without one is written as version 3, so
// that it reads where version 3 alone does.
const (
	MinVersion = 3
	Version    = 4
)

// HeaderSize is the length of the header of the binary form of a
// classifier.
const HeaderSize = 32

// Header is what the header of a classifier's binary form holds after
// Magic: the version and the type (uint16), and the columns D, the scores
// S and the length of the head in bytes (uint64), each little-endian.
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

// Array encodings.
const (
	arrayNil = iota
	arrayDense
	arraySparse
)

// Table encodings.
const (
	tableDense = iota
	tableSparse
	tableAbsent
)

// Encoder appends the encoding of values to B.
type Encoder struct {
	B []byte

	// Sparse writes each float array in the shorter of its encodings,
	// dense if they are as long, and otherwise they are all dense; but
	// an array of more than MaxSparse floats, a table aside, is dense.
	Sparse    bool
	MaxSparse uint64

	tables []rankedTable
}

type rankedTable struct {
	rank int
	x    []float64
}

// Encode appends the encoding of v, the tables of its fields left out, to
// e.B. It returns an error, naming the field, if a float is not finite or
// a string not UTF-8, with e.B then holding part of v.
func (e *Encoder) Encode(v any) error { return e.value(reflect.ValueOf(v)) }

// Tables returns the tables of the values that e has encoded, in the
// order in which they are written.
func (e *Encoder) Tables() [][]float64 {
	slices.SortStableFunc(e.tables, func(a, b rankedTable) int { return a.rank - b.rank })
	x := make([][]float64, len(e.tables))
	for i, t := range e.tables {
		x[i] = t.x
	}
	return x
}

func (e *Encoder) value(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Bool:
		b := byte(0)
		if v.Bool() {
			b = 1
		}
		e.B = append(e.B, b)
	case reflect.Int, reflect.Int64, reflect.Int32:
		e.B = binary.AppendVarint(e.B, v.Int())
	case reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		e.B = binary.AppendUvarint(e.B, v.Uint())
	case reflect.Float64:
		if x := v.Float(); !finite(x) {
			return fmt.Errorf("is %v, want a finite number", x)
		}
		e.B = binary.LittleEndian.AppendUint64(e.B, math.Float64bits(v.Float()))
	case reflect.String:
		if !utf8.ValidString(v.String()) {
			return fmt.Errorf("%.40q is not UTF-8", v.String())
		}
		e.B = binary.AppendUvarint(e.B, uint64(v.Len()))
		e.B = append(e.B, v.String()...)
	case reflect.Pointer:
		if v.IsNil() {
			e.B = append(e.B, 0)
			return nil
		}
		e.B = append(e.B, 1)
		return e.value(v.Elem())
	case reflect.Struct:
		return fields(v, func(f reflect.StructField, x reflect.Value, rank int) error {
			if rank >= 0 {
				e.tables = append(e.tables, rankedTable{rank, x.Convert(floatsType).Interface().([]float64)})
				return nil
			}
			return e.value(x)
		})
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Float64 {
			return e.array(v.Convert(floatsType).Interface().([]float64))
		}
		if v.IsNil() {
			e.B = append(e.B, 0)
			return nil
		}
		e.B = binary.AppendUvarint(e.B, uint64(v.Len())+1)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			e.B = append(e.B, v.Bytes()...)
			return nil
		}
		for i := range v.Len() {
			if err := e.value(v.Index(i)); err != nil {
				return fmt.Errorf("[%d] %w", i, err)
			}
		}
	default:
		panic("binform: cannot encode a " + v.Type().String())
	}
	return nil
}

// array appends the float array x.
func (e *Encoder) array(x []float64) error {
	if x == nil {
		e.B = append(e.B, arrayNil)
		return nil
	}
	p, err := PlanTable(x, e.Sparse && uint64(len(x)) <= e.MaxSparse)
	if err != nil {
		return err
	}
	if p.sparse {
		e.B = append(e.B, arraySparse)
	} else {
		e.B = append(e.B, arrayDense)
	}
	e.B = binary.AppendUvarint(e.B, uint64(len(x)))
	e.B = p.AppendBody(e.B, x)
	return nil
}

// Plan is the encoding of a float array or a table: dense, or sparse
// with its fill and the number of the other values, and the length of its
// body in bytes.
type Plan struct {
	sparse bool
	absent bool
	fill   float64
	m      int
	Body   int
}

// PlanTable returns the encoding of the floats x: sparse if sparse and
// shorter, and otherwise dense. It returns an error if a float of x is not
// finite. The fill of the sparse encoding is 0 or the most frequent value
// among 64 spread over x, whichever is more frequent in x, 0 if as
// frequent: the common value of a table of weights, or of the scales of
// the inverse document frequency, whose columns that no row holds share
// one.
func PlanTable(x []float64, sparse bool) (Plan, error) {
	dense := Plan{Body: 8 * len(x)}
	if k := slices.IndexFunc(x, func(v float64) bool { return !finite(v) }); k >= 0 {
		return dense, fmt.Errorf("[%d] is %v, want a finite number", k, x[k])
	}
	if !sparse {
		return dense, nil
	}
	p := Plan{sparse: true, fill: sample(x)}
	if p.fill != 0 {
		bits, zeros, fills := math.Float64bits(p.fill), 0, 0
		for _, v := range x {
			switch math.Float64bits(v) {
			case 0:
				zeros++
			case bits:
				fills++
			}
		}
		if fills <= zeros {
			p.fill = 0
		}
	}
	bits, last := math.Float64bits(p.fill), -1
	p.Body = 8
	for i, v := range x {
		if math.Float64bits(v) != bits {
			p.Body += uvarintLen(uint64(i-last-1)) + 8
			p.m++
			last = i
		}
	}
	p.Body += uvarintLen(uint64(p.m))
	if p.Body >= dense.Body {
		return dense, nil
	}
	return p, nil
}

// AppendHead appends the encoding of a table, as the head holds it, to b.
func (p Plan) AppendHead(b []byte) []byte {
	if p.absent {
		return binary.AppendUvarint(b, tableAbsent)
	}
	if !p.sparse {
		return binary.AppendUvarint(b, tableDense)
	}
	b = binary.AppendUvarint(b, tableSparse)
	return binary.AppendUvarint(b, uint64(p.Body))
}

// HeadLen returns the bytes that AppendHead appends.
func (p Plan) HeadLen() int {
	if !p.sparse || p.absent {
		return 1
	}
	return 1 + uvarintLen(uint64(p.Body))
}

// AppendBody appends the body of the floats x, which p planned, to b.
func (p Plan) AppendBody(b []byte, x []float64) []byte {
	if p.absent {
		return b
	}
	if !p.sparse {
		return appendDense(b, x)
	}
	return appendSparse(b, x, p.fill, p.m)
}

// sample returns the most frequent value of 64 spread over x, the first
// of them if some are as frequent, or 0 if x is empty.
func sample(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var s [64]uint64
	for k := range s {
		s[k] = math.Float64bits(x[k*len(x)/len(s)])
	}
	best, most := s[0], 0
	for _, b := range s {
		n := 0
		for _, c := range s {
			if c == b {
				n++
			}
		}
		if n > most {
			best, most = b, n
		}
	}
	return math.Float64frombits(best)
}

func appendDense(b []byte, x []float64) []byte {
	b = slices.Grow(b, 8*len(x))
	for _, v := range x {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

func appendSparse(b []byte, x []float64, fill float64, m int) []byte {
	bits := math.Float64bits(fill)
	b = binary.LittleEndian.AppendUint64(b, bits)
	b = binary.AppendUvarint(b, uint64(m))
	last := -1
	for i, v := range x {
		if u := math.Float64bits(v); u != bits {
			b = binary.AppendUvarint(b, uint64(i-last-1))
			b = binary.LittleEndian.AppendUint64(b, u)
			last = i
		}
	}
	return b
}

// fields calls fn with each field of the struct v that the codec writes,
// and its rank if it is a table, or -1, in order, and returns fn's first
// error, with the field it came from. It leaves out the fields that
// encoding/json leaves out: unexported, but for an embedded struct, whose
// fields are the outer struct's, or tagged json:"-".
func fields(v reflect.Value, fn func(f reflect.StructField, x reflect.Value, rank int) error) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !(f.Anonymous && f.Type.Kind() == reflect.Struct) || f.Tag.Get("json") == "-" {
			continue
		}
		rank, ok := tableRank(f)
		if !ok {
			rank = -1
		}
		if err := fn(f, v.Field(i), rank); err != nil {
			return fieldError(f, err)
		}
	}
	return nil
}

// tableRank returns the rank of the field f if it is a table.
func tableRank(f reflect.StructField) (int, bool) {
	tag, ok := f.Tag.Lookup("bin")
	if !ok {
		return 0, false
	}
	r, ok := strings.CutPrefix(tag, "table,")
	rank, err := strconv.Atoi(r)
	if !ok || err != nil || f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.Float64 {
		panic("binform: the field " + f.Name + " has the tag bin:" + strconv.Quote(tag) + ", want table,RANK on a slice of float64")
	}
	return rank, true
}

// fieldError returns err of the field f, with its JSON name before it.
func fieldError(f reflect.StructField, err error) error {
	if f.Anonymous {
		return err
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		name = f.Name
	}
	var fe *FieldError
	if errors.As(err, &fe) {
		return &FieldError{name + "." + fe.Field, fe.Err}
	}
	return &FieldError{name, err}
}

// FieldError is an error of the value of a field, which Field names as a
// path of JSON names: "model.weights".
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string {
	if strings.HasPrefix(e.Err.Error(), "[") {
		return e.Field + e.Err.Error()
	}
	return e.Field + " " + e.Err.Error()
}

func (e *FieldError) Unwrap() error { return e.Err }

var floatsType = reflect.TypeFor[[]float64]()

func finite(v float64) bool { return v-v == 0 }

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// Form returns the binary form of a classifier: the header h, of the
// columns h.D and the scores h.S, the head, which is the table encodings
// and the values that e has encoded, and the tables of the values, each
// of h.D·h.S floats, in the encodings that e's Sparse chooses, or absent
// if nil. The version of the header is 3, or Version if a table is
// absent. It returns an error if a table has another length or a float
// that is not finite, and the error of check, which is given the bytes of
// the form before they are allocated.
func Form(h Header, e *Encoder, check func(need float64) error) ([]byte, error) {
	tables := e.Tables()
	plans := make([]Plan, len(tables))
	head, body := uvarintLen(uint64(len(tables)))+len(e.B), 0
	h.Version = MinVersion
	for k, x := range tables {
		if x == nil {
			plans[k] = Plan{absent: true}
			head += plans[k].HeadLen()
			h.Version = Version
			continue
		}
		if uint64(len(x)) != h.D*h.S {
			return nil, fmt.Errorf("a table of %d floats, want %d columns by %d scores", len(x), h.D, h.S)
		}
		p, err := PlanTable(x, e.Sparse)
		if err != nil {
			return nil, err
		}
		plans[k] = p
		head += p.HeadLen()
		body += p.Body
	}
	if err := check(float64(HeaderSize + head + body)); err != nil {
		return nil, err
	}
	h.Head = uint64(head)
	b := h.Append(make([]byte, 0, HeaderSize+head+body))
	b = binary.AppendUvarint(b, uint64(len(tables)))
	for _, p := range plans {
		b = p.AppendHead(b)
	}
	b = append(b, e.B...)
	for k, p := range plans {
		b = p.AppendBody(b, tables[k])
	}
	return b, nil
}

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
