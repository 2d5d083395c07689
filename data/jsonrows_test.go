// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// TestJSONRead checks rows of JSON read by hand: dense, sparse, both, with
// labels and known classes, and texts, which the Hashing turns into the
// rows that its Transform gives.
func TestJSONRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		f       data.JSON
		x       *mat.Dense
		sparse  bool
		y       []float64
		classes []string
	}{
		{"dense", "\ufeff" + `{"rows": [[1, 2, 3], [4, 0.5, -6]]}`, data.JSON{Cols: 3},
			mat.NewDense(2, 3, []float64{1, 2, 3, 4, 0.5, -6}), false, nil, nil},
		{"objects", `{"rows": [{"values": [1, 0, 3], "label": "b"}, {"values": [0, 0, 1], "label": 1}]}`, data.JSON{Cols: 3},
			mat.NewDense(2, 3, []float64{1, 0, 3, 0, 0, 1}), false, []float64{1, 0}, []string{"1", "b"}},
		{"every index", `{"rows": [{"indices": [1, 2], "values": [5, 6]}]}`, data.JSON{Cols: 2},
			mat.NewDense(1, 2, []float64{5, 6}), false, nil, nil},
		{"sparse and dense", `{"rows": [[1, 0, 3], {"indices": [2], "values": [7]}, {"indices": [], "values": []}]}`, data.JSON{Cols: 3},
			mat.NewDense(3, 3, []float64{1, 0, 3, 0, 7, 0, 0, 0, 0}), true, nil, nil},
		{"known classes", `{"rows": [[1], [2], [3]]}`, data.JSON{Cols: 1}, mat.NewDense(3, 1, []float64{1, 2, 3}), false, nil, nil},
		{"labels after known", `{"rows": [{"values": [1], "label": "c"}, {"values": [2], "label": 2.0}, {"values": [3], "label": "a"}]}`,
			data.JSON{Cols: 1, Classes: []string{"2", "a"}}, mat.NewDense(3, 1, []float64{1, 2, 3}), false, []float64{2, 0, 1}, []string{"2", "a", "c"}},
		{"escaped label", `{"rows": [{"values": [1], "label": "a\tb\u00e9"}]}`, data.JSON{Cols: 1}, nil, false, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.f.Read(strings.NewReader(tc.in))
			if tc.x == nil {
				// A label with a tab is refused, as every reader refuses it.
				checkReadErr(t, err, "row 1: ", "control character")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := s.X.(*perceptron.CSR); ok != tc.sparse {
				t.Errorf("rows of %T", s.X)
			}
			if !mat.Equal(s.X, tc.x) || !slices.Equal(s.Y, tc.y) || !slices.Equal(s.Classes, tc.classes) {
				t.Errorf("rows %v, classes %v of %q; want %v, %v of %q", mat.Formatted(s.X), s.Y, s.Classes, mat.Formatted(tc.x), tc.y, tc.classes)
			}
		})
	}
	h := data.Hashing{Bits: 5, NGrams: 2}
	s, err := data.JSON{Hashing: &h}.Read(strings.NewReader(`{"rows": ["The cat sat", {"text": "a dog", "label": "x"}]}`))
	if err == nil {
		t.Fatalf("labels on one row of two: %v", mat.Formatted(s.X))
	}
	want, err := h.Transform([]string{"The cat sat", "a dog", "caf\u00e9 \"x\"\n"})
	if err != nil {
		t.Fatal(err)
	}
	// Cols, which a server may set for every model, counts for no text.
	for _, f := range []data.JSON{{Hashing: &h}, {Hashing: &h, Cols: 32}} {
		s, err = f.Read(strings.NewReader(`{"rows": ["The cat sat", {"text": "a dog"}, "caf\u00e9 \"x\"\n"]}`))
		if err != nil || !mat.Equal(s.X, want) {
			t.Errorf("texts of %+v: %v", f, err)
		}
	}
}

// TestJSONErrors checks what Read refuses, with the kind of each error, its
// row and its message.
func TestJSONErrors(t *testing.T) {
	h := &data.Hashing{Bits: 4}
	for _, tc := range []struct {
		in   string
		f    data.JSON
		kind error
		row  int
		subs []string
	}{
		{`{"rows": [[1, 2]`, data.JSON{Cols: 2}, perceptron.ErrFormat, -1, []string{"not JSON of rows", "unexpected EOF"}},
		{`{"rows": [[1, 2]]} {}`, data.JSON{Cols: 2}, perceptron.ErrFormat, -1, []string{"data after the value"}},
		{`[[1, 2]]`, data.JSON{Cols: 2}, perceptron.ErrFormat, -1, []string{"a JSON array, want an object"}},
		{`{}`, data.JSON{Cols: 2}, perceptron.ErrFormat, -1, []string{"no member rows"}},
		{`{"rows": 3}`, data.JSON{Cols: 2}, perceptron.ErrFormat, -1, []string{"rows: a JSON number, want an array"}},
		{`{"rows": null}`, data.JSON{Cols: 2}, perceptron.ErrFormat, -1, []string{"rows: a JSON null, want an array"}},
		{`{"rows": [], "k": 3}`, data.JSON{Cols: 2}, perceptron.ErrFormat, -1, []string{`unknown field "k"`}},
		{`{"Rows": []}`, data.JSON{Cols: 2}, perceptron.ErrFormat, -1, []string{`unknown member "Rows"`}},
		{`{"rows": []}`, data.JSON{Cols: 2}, perceptron.ErrShape, -1, []string{"no rows"}},
		{`{"rows": [[1, 2], [1, 2, 3]]}`, data.JSON{Cols: 2}, perceptron.ErrShape, 1, []string{"row 2: 3 values, want 2"}},
		{`{"rows": [[1, 2], [1, "x"]]}`, data.JSON{Cols: 2}, perceptron.ErrFormat, 1, []string{"row 2: a JSON string, want a number"}},
		{`{"rows": [[1, 1e400]]}`, data.JSON{Cols: 2}, perceptron.ErrNonFinite, 0, []string{"row 1: 1e400 is not a finite number"}},
		{`{"rows": [{"values": [1, -1e400]}]}`, data.JSON{Cols: 2}, perceptron.ErrNonFinite, 0, []string{"row 1: values: -1e400 is not a finite number"}},
		{`{"rows": [true]}`, data.JSON{Cols: 2}, perceptron.ErrFormat, 0, []string{"row 1: want a text, an array of numbers or an object"}},
		{`{"rows": [{"values": [1, 2], "colour": 1}]}`, data.JSON{Cols: 2}, perceptron.ErrFormat, 0, []string{`row 1: json: unknown field "colour"`}},
		{`{"rows": [{"values": [1, 2], "values": [1, 2]}]}`, data.JSON{Cols: 2}, perceptron.ErrFormat, 0, []string{`row 1: member "values" more than once`}},
		{`{"rows": [{"indices": [1, 3], "values": [1, 2]}]}`, data.JSON{Cols: 2}, perceptron.ErrShape, 0, []string{"row 1: index 3, want 1 to 2"}},
		{`{"rows": [{"indices": [2, 1], "values": [1, 2]}]}`, data.JSON{Cols: 3}, perceptron.ErrFormat, 0, []string{"row 1: index 1 after 2: want increasing indices"}},
		{`{"rows": [{"indices": [1, 2], "values": [1]}]}`, data.JSON{Cols: 3}, perceptron.ErrShape, 0, []string{"row 1: 2 indices and 1 values, want as many"}},
		{`{"rows": [{"indices": [1.5], "values": [1]}]}`, data.JSON{Cols: 3}, perceptron.ErrFormat, 0, []string{"row 1: indices: a JSON number 1.5, want a whole number"}},
		{`{"rows": ["a text"]}`, data.JSON{Cols: 2}, perceptron.ErrFormat, 0, []string{"row 1: a text: the rows are the values of 2 features"}},
		{`{"rows": [{"label": 1}]}`, data.JSON{Cols: 2}, perceptron.ErrFormat, 0, []string{"row 1: no values"}},
		{`{"rows": [[1, 2]]}`, data.JSON{Hashing: h}, perceptron.ErrFormat, 0, []string{"row 1: no text: the rows are texts"}},
		{`{"rows": [{"text": "a", "values": [1]}]}`, data.JSON{Hashing: h}, perceptron.ErrFormat, 0, []string{"row 1: values: the rows are texts"}},
		{`{"rows": [{"values": [1], "label": "a"}, {"values": [2], "label": true}]}`, data.JSON{Cols: 1}, perceptron.ErrFormat, 1, []string{"row 2: label: a JSON bool, want a string or a number"}},
		{`{"rows": [{"values": [1], "label": "inf"}, {"values": [1], "label": 1}]}`, data.JSON{Cols: 1}, perceptron.ErrNonFinite, 0, []string{`row 1: the label "inf" is not a finite number`}},
		{`{"rows": [{"values": [1], "label": 2}, {"values": [1], "label": 1e400}]}`, data.JSON{Cols: 1}, perceptron.ErrNonFinite, 1, []string{`row 2: the label "1e400" is not a finite number`}},
		{`{"rows": [{"indices": [4294967298], "values": [7]}]}`, data.JSON{Cols: 3}, perceptron.ErrShape, 0, []string{"row 1: index 4294967298, want 1 to 3"}},
		{`{"rows": [{"indices": [-1], "values": [7]}]}`, data.JSON{Cols: 3}, perceptron.ErrShape, 0, []string{"row 1: index -1, want 1 to 3"}},
		{`{"rows": [[1, 2, 3, 4, 5]]}`, data.JSON{Cols: 2}, perceptron.ErrShape, 0, []string{"row 1: 5 values, want 2"}},
		{`{"rows": [{"indices": [1], "values": [1, 2, 3]}]}`, data.JSON{Cols: 2}, perceptron.ErrShape, 0, []string{"row 1: 1 indices and 3 values"}},
		{`{"rows": [[1, [2]]]}`, data.JSON{Cols: 2}, perceptron.ErrFormat, 0, []string{"row 1: a JSON array, want a number"}},
		{`{"rows": [{"values": {"a": 1}}]}`, data.JSON{Cols: 2}, perceptron.ErrFormat, 0, []string{"row 1: values: a JSON object, want an array"}},
		{`{"rows": [[1, 2], [3]]}`, data.JSON{Hashing: &data.Hashing{Bits: 40}}, perceptron.ErrSetting, -1, []string{"the Hashing's Bits is 40"}},
		{`{"rows": [{"values": [1], "label": "a"}, [2]]}`, data.JSON{Cols: 1}, perceptron.ErrFormat, 1, []string{"row 2: no label, and row 1 one"}},
		{`{"rows": [[2], {"values": [1], "label": "a"}]}`, data.JSON{Cols: 1}, perceptron.ErrFormat, 1, []string{"row 2: a label, and row 1 none"}},
		{`{"rows": [{"values": [1], "label": ""}]}`, data.JSON{Cols: 1}, perceptron.ErrFormat, 0, []string{"row 1: the label is empty"}},
		{`{"rows": [[1]]}`, data.JSON{}, perceptron.ErrSetting, -1, []string{"the JSON's Cols is 0"}},
		{`{"rows": [[1]]}`, data.JSON{Cols: 1, Classes: []string{"a", "a"}}, perceptron.ErrSetting, -1, []string{`the known classes 1 and 2 are both "a"`}},
		{"{\"rows\": [\"\xff\"]}", data.JSON{Hashing: h}, perceptron.ErrFormat, -1, []string{"byte 12 is not UTF-8"}},
	} {
		s, err := tc.f.Read(strings.NewReader(tc.in))
		if s != nil {
			t.Errorf("%s: a Set with the error %v", tc.in, err)
		}
		var e *perceptron.Error
		switch {
		case !errors.Is(err, tc.kind):
			t.Errorf("%s: error %v, want one of kind %v", tc.in, err, tc.kind)
		case !errors.As(err, &e) || e.Row != tc.row:
			t.Errorf("%s: error %#v, want one of row %d", tc.in, err, tc.row)
		}
		checkReadErr(t, err, tc.subs...)
	}
	if _, err := (data.JSON{Cols: 1}).Read(nil); !errors.Is(err, perceptron.ErrSetting) {
		t.Errorf("a nil io.Reader: %v", err)
	}
}

// TestJSONAsLIBSVM checks, on many seeded random sets, that rows written as
// JSON, each as an array, as an object of its values or of its values not
// zero and their indices, read to the rows and classes that the LIBSVM
// reader makes of the same rows, to the bit.
func TestJSONAsLIBSVM(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n, d := 1+rnd.IntN(20), 1+rnd.IntN(8)
		var js, svm strings.Builder
		js.WriteString(`{"rows": [`)
		for i := range n {
			row := make([]float64, d)
			for j := range row {
				if rnd.IntN(2) == 0 {
					row[j] = rnd.NormFloat64() * math.Pow(10, float64(rnd.IntN(9)-4))
				}
			}
			label := strconv.Itoa(rnd.IntN(3))
			if i > 0 {
				js.WriteString(", ")
			}
			svm.WriteString(label)
			var ind []int
			var val []float64
			for j, v := range row {
				if v != 0 {
					fmt.Fprintf(&svm, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
					ind, val = append(ind, j+1), append(val, v)
				}
			}
			svm.WriteString("\n")
			switch rnd.IntN(3) {
			case 0:
				fmt.Fprintf(&js, `{"values": %s, "label": %s}`, floats(row), label)
			case 1:
				fmt.Fprintf(&js, `{"label": "%s", "indices": %s, "values": %s}`, label, ints(ind), floats(val))
			default:
				fmt.Fprintf(&js, `{"values": %s, "indices": %s, "label": %s}`, floats(row), ints(seq(d)), label)
			}
		}
		js.WriteString("]}")
		want, err := data.LIBSVM{Cols: d}.Read(strings.NewReader(svm.String()))
		if err != nil {
			t.Fatal(err)
		}
		got, err := data.JSON{Cols: d}.Read(strings.NewReader(js.String()))
		if err != nil {
			t.Fatalf("trial %d: %v\n%s", trial, err, js.String())
		}
		if !mat.Equal(got.X, want.X) || !slices.Equal(got.Y, want.Y) || !slices.Equal(got.Classes, want.Classes) {
			t.Fatalf("trial %d: JSON %v, %v of %q; LIBSVM %v, %v of %q\n%s", trial, mat.Formatted(got.X), got.Y, got.Classes, mat.Formatted(want.X), want.Y, want.Classes, js.String())
		}
	}
}

func floats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i + 1
	}
	return s
}

// TestJSONAllocation checks the bound of Read's doc, 32 bytes for each byte
// of the text, on the texts that come nearest it: rows of one value, rows
// of many zeros beside a sparse row, labelled rows, rows of distinct
// labels, and a row of more values than Cols. Read allocates no
// more than that in all, garbage included, so it holds no more.
func TestJSONAllocation(t *testing.T) {
	const n = 20000
	for _, tc := range []struct {
		name string
		row  string
		last string
		cols int
	}{
		{"one value", "[1]", "[1]", 1},
		{"zeros and one sparse row", "[0,0,0,0,0,0,0,0,0,1]", `{"indices":[1],"values":[1]}`, 10},
		{"labelled", `{"values":[1],"label":1}`, `{"values":[1],"label":1}`, 1},
		{"distinct labels", "", "", 1},
		{"too many values", "", "[" + strings.Repeat("0,", 1<<20) + "1]", 1}, // refused
	} {
		text := []byte(`{"rows":[` + strings.Repeat(tc.row+",", n-1) + tc.last + "]}")
		switch tc.name {
		case "distinct labels":
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, `{"values":[1],"label":"%x"},`, i)
			}
			text = []byte(`{"rows":[` + strings.TrimSuffix(b.String(), ",") + "]}")
		case "too many values":
			text = []byte(`{"rows":[` + tc.last + "]}")
		}
		var err error
		alloc := allocated(func() { _, err = data.JSON{Cols: tc.cols}.Read(bytes.NewReader(text)) })
		if err != nil && tc.name != "too many values" {
			t.Fatal(err)
		}
		if tc.name == "too many values" && alloc > 2*uint64(len(text)) {
			// The values beyond Cols are counted, not held.
			t.Errorf("%s: %d bytes allocated for %d bytes of text", tc.name, alloc, len(text))
		}
		if alloc > 32*uint64(len(text))+64<<10 {
			t.Errorf("%s: %d bytes allocated for %d bytes of text", tc.name, alloc, len(text))
		}
	}
}

// FuzzJSON checks that any text is read or refused with an error of a
// kind, short and printable, never a panic, and that rows read are of the
// width asked, with a class each if labelled.
func FuzzJSON(f *testing.F) {
	for _, b := range []string{
		`{"rows": [[1, 2, 3]]}`, `{"rows": [{"values": [1, 2], "indices": [1, 3], "label": "a"}]}`,
		`{"rows": [{"values": [1, 2, 3], "label": "b"}, {"text": "the team", "label": "a"}]}`, `{"rows": [{"text": "more words", "label": "b"}]}`,
		`{"rows": ["a text", {"text": "more words"}]}`, `{"rows": [{"values": [1, 2, 3], "label": 1}]}`,
		`{"rows": [[1, 2, 1e400]]}`, `{"rows": [{"indices": [3, 0], "values": [1, 2]}]}`, `{"rows": []}`, `[]`,
		`{"rows": [null, true, "\u00e9\xff"]}`, `{"rows": [{"values": null}]}`, `{"rows": [[0, 0, 0], {"indices": [], "values": []}]}`,
	} {
		f.Add([]byte(b))
	}
	h := &data.Hashing{Bits: 6}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, r := range []data.JSON{{Cols: 3}, {Hashing: h}} {
			s, err := r.Read(bytes.NewReader(b))
			if err != nil {
				kinds := []error{perceptron.ErrFormat, perceptron.ErrShape, perceptron.ErrNonFinite, perceptron.ErrSetting, perceptron.ErrTooLarge}
				if !slices.ContainsFunc(kinds, func(k error) bool { return errors.Is(err, k) }) {
					t.Fatalf("%q: an error of no kind: %v", b, err)
				}
				checkShortPrintable(t, err.Error())
				continue
			}
			n, d := s.X.Dims()
			switch {
			case n < 1:
				t.Errorf("%q: no rows read, and no error", b)
			case r.Hashing == nil && d != 3, r.Hashing != nil && d != 64:
				t.Errorf("%q: rows of %d columns", b, d)
			case s.Y != nil && len(s.Y) != n:
				t.Errorf("%q: %d classes of %d rows", b, len(s.Y), n)
			}
		}
	})
}
