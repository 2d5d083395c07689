// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package jsonscan

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

type inner struct {
	W Numbers `json:"w"`
	N []int   `json:"n"`
}

type outer struct {
	A     int     `json:"a"`
	In    inner   `json:"in"`
	P     *inner  `json:"p"`
	List  []inner `json:"list"`
	Plain string
}

// TestDecode checks what Decode refuses, with its messages, and that it
// makes the slices of numbers as long as their arrays.
func TestDecode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1,"b":2}`, `json: unknown field "b"`},
		{`{"in":{"w":[],"x":1}}`, `in: json: unknown field "x"`},
		{`{"A":1}`, `unknown member "A"`},
		{`{"plain":"x"}`, `unknown member "plain"`},
		{`{"a":1,"a":2}`, `member "a" more than once`},
		{`{"in":null}`, `in: null, want an object`},
		{`{"list":[{"w":[1]},{"w":[2],"w":[3]}]}`, `list: element 1: member "w" more than once`},
		{`{"p":{"N":[1]}}`, `p: unknown member "N"`},
		{"{\"\xff\":1}", "json: unknown field \"\\xff\""},
		{"{\"\\u00e9\xff\":1}", `json: unknown field "é�"`},
		{``, io.EOF.Error()},
		{`{"a":1`, io.ErrUnexpectedEOF.Error()},
		{`{"a":1} {}`, `data after the value`},
	} {
		var v outer
		if err := Decode([]byte(tc.in), &v); err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
	// A name that no field has in any case is refused as a json.Decoder
	// that disallows unknown fields refuses it.
	in := `{"a":1,"zz":2}`
	dec := json.NewDecoder(bytes.NewReader([]byte(in)))
	dec.DisallowUnknownFields()
	var v outer
	want := dec.Decode(&v)
	if err := Decode([]byte(in), &v); err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("%s: error %v, want a json.Decoder's %v", in, err, want)
	}
	v = outer{}
	err := Decode([]byte(`{"a":1,"in":{"w":[1,2,3],"n":[4,5]},"p":{"w":[]},"list":[{"w":[6]}],"Plain":"x"}`), &v)
	switch {
	case err != nil:
		t.Fatal(err)
	case v.A != 1 || len(v.In.W) != 3 || cap(v.In.W) != 3 || len(v.In.N) != 2 || cap(v.In.N) != 2 || v.In.W[2] != 3 || v.In.N[1] != 5:
		t.Errorf("decoded %+v", v)
	case v.P == nil || v.P.W == nil || len(v.P.W) != 0 || len(v.List) != 1 || v.List[0].W[0] != 6 || v.Plain != "x":
		t.Errorf("decoded %+v, %+v", v.P, v.List)
	}
}

// TestDecodeAsEncodingJSON checks that Decode, which decodes each value
// where it stands, gives what encoding/json gives for the whole text: raw
// values, arrays among them, maps, escapes, nulls, arrays of Go and
// slices of numbers; and that a value of the wrong type is refused with
// the members that lead to it.
func TestDecodeAsEncodingJSON(t *testing.T) {
	type all struct {
		Rows  []json.RawMessage  `json:"rows"`
		Raw   json.RawMessage    `json:"raw"`
		M     map[string]float64 `json:"m"`
		S     string             `json:"s"`
		F     float64            `json:"f"`
		P     *inner             `json:"p"`
		Q     *inner             `json:"q"`
		Arr   [2]int             `json:"arr"`
		W     Numbers            `json:"w"`
		Ints  []int              `json:"ints"`
		Empty []int              `json:"empty"`
		None  []float64          `json:"none"`
		B, C  bool
		I, J  int
		G, H  float64
		T, U  string
		Any   any
		Null  any
	}
	in := `{"rows":[[1,2.5],{"a":[3]}," x ",null],"raw":[4, 5],"m":{"b":1e3},"s":"\u00e9\n\"q\"",` +
		`"f":-0,"p":null,"q":{"w":[7],"n":null},"arr":[8,9],"w":[1e-300, 2],"ints":[ 10 ,11 ],"empty":[ ],"none":null,` +
		`"B":true,"C":null,"I":-0,"J":null,"G":5e-324,"H":null,"T":"é` + "\xff" + `","U":"plain","Any":[1,"a"],"Null":null}`
	var got, want all
	if err := json.Unmarshal([]byte(in), &want); err != nil {
		t.Fatal(err)
	}
	if err := Decode([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decode gives\n%+v\nencoding/json\n%+v", got, want)
	}
	var v outer
	if err := Decode([]byte(`{"in":{"n":[1,"x"]}}`), &v); err == nil || !strings.HasPrefix(err.Error(), "in: n: json: cannot unmarshal string") {
		t.Errorf("an int given a string: %v", err)
	}
}

// TestDecodePrefix checks that DecodePrefix decodes the value at the start
// of a text that goes on after it, and gives the length of its text.
func TestDecodePrefix(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n, a int
	}{
		{`{"a":1}`, 7, 1},
		{` {"a":2}, {"a":3}]`, 8, 2},
		{`{"a":4,"in":{"w":[1,2]}}]}`, 24, 4},
	} {
		var v outer
		n, err := DecodePrefix([]byte(tc.in), &v)
		if err != nil || n != tc.n || v.A != tc.a {
			t.Errorf("%q: %d bytes, a %d, %v; want %d bytes, a %d", tc.in, n, v.A, err, tc.n, tc.a)
		}
	}
	if _, err := DecodePrefix([]byte(`{"b":1},`), new(outer)); err == nil || err.Error() != `json: unknown field "b"` {
		t.Errorf("an unknown member: %v", err)
	}
}

// fuzzed is the Go value of FuzzDecode: every way of the walk's, structs,
// pointers, numbers made into slices, elements decoded where they stand,
// leaves, encoding/json's values and a Raw, which Decode leaves unchecked.
type fuzzed struct {
	A     int                `json:"a"`
	In    inner              `json:"in"`
	P     *inner             `json:"p"`
	List  []inner            `json:"list"`
	F     []float64          `json:"f"`
	B     Floats             `json:"b"`
	S     string             `json:"s"`
	T     bool               `json:"t"`
	X     float64            `json:"x"`
	M     map[string]float64 `json:"m"`
	Any   any                `json:"any"`
	Raw   Raw                `json:"raw"`
	Raws  []Raw              `json:"raws"`
	Array [2]int             `json:"array"`
}

// FuzzDecode checks that Decode, which checks the syntax as it decodes,
// gives what a check of the syntax first and then DecodeValid give: the
// same value, or the same error, but where the text is not JSON only
// within a Raw, which Decode leaves to its user to check.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"in":{"w":[1,2,3],"n":[4,5]},"p":{"w":[]},"list":[{"w":[6]},{"n":[]}],"f":[1e3,-0,2.5],"b":"AAAAAAAA8D8="}`,
		`{"s":"x\u00e9","t":true,"x":-1.5e-3,"m":{"k":1},"any":[1,{"a":null}],"raw":{"z":[1,2]},"raws":[[],{},"s",1],"array":[1,2]}`,
		`{"in":{"w":[1 2]}}`, `{"in":{"w":[1,]}}`, `{"in":{"w":[,1]}}`, `{"list":[{}{}]}`, `{"a":1,}`, `{"a" 1}`,
		`{"raw":[1,}`, `{"raw":"x}`, `{"s":"` + "\x01" + `"}`, `{"f":[1e999]}`, `{"f":[+1]}`, `{"f":[0x1]}`, `{"f":[Inf]}`,
		`{"list":[{"w":[1]},]}`, `{"in":{"n":[1,"x"]}}`, `{"array":[1,2,3]}`, `[1]`, `{"a":1} x`, `{"t":truex}`, `{"a":-}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want fuzzed
		werr := Syntax(b)
		if werr == nil {
			werr = DecodeValid(b, &want)
		}
		var got fuzzed
		gerr := Decode(b, &got)
		if gerr == nil && werr != nil {
			raws := append([]Raw{got.Raw}, got.Raws...)
			if !slices.ContainsFunc(raws, func(r Raw) bool { return r != nil && !Valid(r) }) {
				t.Fatalf("%q: Decode takes it, a check first refuses it: %v", b, werr)
			}
			return
		}
		// Floats may hold NaNs, which DeepEqual finds unequal.
		bits := func(x float64) uint64 { return math.Float64bits(x) }
		sameFloats := slices.Equal(sliceOf(got.B, bits), sliceOf(want.B, bits))
		got.B, want.B = nil, nil
		switch {
		case (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error():
			t.Fatalf("%q: Decode: %v; a check first: %v", b, gerr, werr)
		case gerr == nil && (!sameFloats || !reflect.DeepEqual(got, want)):
			t.Fatalf("%q: Decode gives\n%+v\na check first\n%+v", b, got, want)
		}
	})
}

// sliceOf returns f of each element of s.
func sliceOf[T, U any](s []T, f func(T) U) []U {
	var u []U
	for _, x := range s {
		u = append(u, f(x))
	}
	return u
}

// TestDecodeDepth checks that Decode refuses text nested deeper than
// Valid takes, counted from the top of the text, within values that
// encoding/json decodes, as a check of the syntax first does.
func TestDecodeDepth(t *testing.T) {
	type deep struct {
		Any any             `json:"any"`
		Raw json.RawMessage `json:"raw"`
		In  *inner          `json:"in"`
	}
	nested := func(k int) string { return strings.Repeat("[", k) + strings.Repeat("]", k) }
	for _, k := range []int{maxDepth - 2, maxDepth - 1, maxDepth} {
		for _, text := range []string{`{"any":` + nested(k) + `}`, `{"raw":` + nested(k) + `}`, `{"in":{"n":` + nested(k-1) + `}}`} {
			var want, got deep
			werr := Syntax([]byte(text))
			if werr == nil {
				werr = DecodeValid([]byte(text), &want)
			}
			gerr := Decode([]byte(text), &got)
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Errorf("%.12s… of depth %d: Decode: %v; a check first: %v", text, k+1, gerr, werr)
			}
		}
	}
}
