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
