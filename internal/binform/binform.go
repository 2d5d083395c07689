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
	"reflect"
	"strconv"
	"strings"
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
