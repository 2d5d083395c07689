// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// fixedClasses returns the classes that s lists, split at |, each once,
// or nil for an empty s.
func fixedClasses(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, c := range strings.Split(s, "|") {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// checkSet checks what every Set a reader returns must be: rows of finite
// values, of X's width, and a class for each row that indexes Classes,
// which start with the fixed classes, are distinct, and the others of
// which are labels as the readers take them.
func checkSet(t *testing.T, s *data.Set, labelled bool, fixed []string) {
	t.Helper()
	if s == nil {
		t.Fatal("no Set and no error")
	}
	r, c := s.X.Dims()
	if r < 1 || c < 1 {
		t.Fatalf("a Set of %d×%d", r, c)
	}
	switch X := s.X.(type) {
	case *perceptron.CSR:
		for i := range r {
			prev := -1
			X.DoRowNonZero(i, func(_, j int, v float64) {
				if j <= prev || j >= c || v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("row %d: %v stored at column %d after %d, of %d columns", i, v, j, prev, c)
				}
				prev = j
			})
		}
	case *mat.Dense:
		for i := range r {
			for j, v := range X.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("row %d, column %d: %v", i, j, v)
				}
			}
		}
	default:
		t.Fatalf("X is a %T", s.X)
	}
	if !labelled {
		if s.Y != nil || s.Classes != nil {
			t.Fatalf("no labels, but Y %v and Classes %q", s.Y, s.Classes)
		}
		return
	}
	if len(s.Y) != r {
		t.Fatalf("%d rows and %d labels", r, len(s.Y))
	}
	for i, y := range s.Y {
		if y != math.Trunc(y) || y < 0 || int(y) >= len(s.Classes) {
			t.Fatalf("row %d: class %v of %d", i, y, len(s.Classes))
		}
	}
	if len(s.Classes) < len(fixed) || !slices.Equal(s.Classes[:len(fixed)], fixed) {
		t.Fatalf("Classes %q do not start with the fixed %q", s.Classes, fixed)
	}
	// A label that is a number but not finite is refused if every label
	// and every known class is a number.
	numbers, bad := true, ""
	for k, name := range s.Classes {
		v, err := strconv.ParseFloat(name, 64)
		number := isNumber(name)
		numbers = numbers && number
		if k >= len(fixed) && bad == "" && number && (err != nil || math.IsNaN(v) || math.IsInf(v, 0)) {
			bad = name
		}
	}
	if numbers && bad != "" {
		t.Fatalf("the class %q is a number but not finite, among the numbers %q", bad, s.Classes)
	}
	seen := map[string]bool{}
	for k, name := range s.Classes {
		if seen[name] {
			t.Fatalf("class %q twice in %q", name, s.Classes)
		}
		seen[name] = true
		if k >= len(fixed) && (name == "" || strings.ContainsAny(name, "\t\n\r") || !utf8.ValidString(name)) {
			t.Fatalf("class %d, %q, is not a label the readers take", k, name)
		}
	}
}

// checkLabels checks that the class of each row is its label: the same
// text, or for a number the same value.
func checkLabels(t *testing.T, s *data.Set, labels []string) {
	t.Helper()
	if len(labels) != len(s.Y) {
		t.Fatalf("%d labels read, %d in the Set", len(labels), len(s.Y))
	}
	for i, l := range labels {
		if name := s.Classes[int(s.Y[i])]; name != l && !sameNumber(name, l) {
			t.Fatalf("row %d: label %q, class %q", i, l, name)
		}
	}
	// Rows of the same label are of the same class.
	class := map[string]float64{}
	for i, l := range labels {
		if c, ok := class[l]; ok && c != s.Y[i] {
			t.Fatalf("label %q of classes %v and %v", l, c, s.Y[i])
		}
		class[l] = s.Y[i]
	}
}

// checkMaxLine fails t if a line of text, without its end, \n or \r\n, is
// longer than max bytes, when max is not zero: a reader that took text
// must have refused it.
func checkMaxLine(t *testing.T, text []byte, max int) {
	t.Helper()
	if max == 0 {
		return
	}
	for k, line := range bytes.Split(text, []byte("\n")) {
		if n := len(bytes.TrimSuffix(line, []byte("\r"))); n > max {
			t.Fatalf("line %d of %d bytes read, with MaxLine %d", k+1, n, max)
		}
	}
}

func sameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return isNumber(a) && isNumber(b) && err1 == nil && err2 == nil && x == y
}

// isNumber reports whether s is a number of the package's grammar: a
// decimal number, or an infinity or NaN as strconv.ParseFloat spells them.
func isNumber(s string) bool {
	return numberGrammar.MatchString(s)
}

var numberGrammar = regexp.MustCompile(`^([+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?(?i:inf|infinity)|(?i:nan))$`)

// checkErr fails t unless err, an error of a reader, is short and
// printable and comes with no Set.
func checkErr(t *testing.T, s *data.Set, err error) {
	t.Helper()
	if s != nil {
		t.Fatalf("a Set with the error %v", err)
	}
	checkShortPrintable(t, err.Error())
}

// plain returns b, gunzipped if it is gzipped, or false if it cannot be
// gunzipped into 1 MiB.
func plain(b []byte) ([]byte, bool) {
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b, true
	}
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, false
	}
	out, err := io.ReadAll(io.LimitReader(r, 1<<20+1))
	if err != nil || len(out) > 1<<20 {
		return nil, false
	}
	return out, true
}

// naiveLIBSVM reads text that LIBSVM's Read took, by the format's
// description: each line cut at #, a label and index:value pairs, a
// qid right after the label skipped. It returns the labels, the pairs of
// each row, the largest index and the pairs beyond cols, if cols > 0.
func naiveLIBSVM(t *testing.T, text string, cols int) (labels []string, rows [][][2]float64, width, dropped int) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimPrefix(text, "\ufeff"), "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		labels = append(labels, f[0])
		f = f[1:]
		if len(f) > 0 && strings.HasPrefix(f[0], "qid:") {
			f = f[1:]
		}
		var row [][2]float64
		for _, p := range f {
			is, vs, _ := strings.Cut(p, ":")
			j, err := strconv.Atoi(is)
			if err != nil {
				t.Fatalf("index of %q: %v", p, err)
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(vs), 64)
			if err != nil {
				t.Fatalf("value of %q: %v", p, err)
			}
			width = max(width, j)
			if cols > 0 && j > cols {
				dropped++
				continue
			}
			if v != 0 {
				row = append(row, [2]float64{float64(j - 1), v})
			}
		}
		rows = append(rows, row)
	}
	if cols > 0 {
		width = cols
	}
	return labels, rows, width, dropped
}

func FuzzLIBSVM(f *testing.F) {
	for _, s := range []string{
		"1 1:0.5 3:2\n-1 2:1\n",
		"2 qid:7 1:1\n1 qid:8 2:3 # c\n\n",
		"# only a comment\n",
		"1\n0 2:1\r\n",
		"1 1:0 2:-0 3:1e-400\n",
		"a 1:1\nb 2:2\n1.0 3:3\n1 4:4\n",
		"1 0:1\n",
		"1 2:1 1:1\n",
		"1 2:1 2:1\n",
		"1 281474976710656:1\n",
		"1 281474976710657:1\n",
		"1 1:nan\n",
		"1 1:1e309\n",
		"1:1\n",
		"\xff 1:1\n",
		"1 qid:x 1:1\n",
		"1 1:0x1p-2 2:1_0\n",
		"NaN 1:1\ninf 1:2\n-0 1:3\n0 1:4\n",
		"\ufeff1 1:1\n",
		"1 1:1\nnan 2:1\n",
		"cat 1:1\nnan 2:1\n",
	} {
		f.Add([]byte(s), uint16(0), uint16(0), "")
		f.Add([]byte(s), uint16(2), uint16(8), "1|-1")
	}
	f.Add(gzipped(f, []byte("1 1:1\n0 2:2\n")), uint16(0), uint16(0), "0")
	f.Fuzz(func(t *testing.T, in []byte, cols, maxLine uint16, classes string) {
		fixed := fixedClasses(classes)
		r := data.LIBSVM{Cols: int(cols % 100), MaxLine: int(maxLine), Classes: fixed}
		s, err := r.Read(bytes.NewReader(in))
		checkStream(t, s, err, collect(t, r.Rows(bytes.NewReader(in))))
		if err != nil {
			checkErr(t, s, err)
			return
		}
		checkSet(t, s, true, fixed)
		X, ok := s.X.(*perceptron.CSR)
		if !ok {
			t.Fatalf("X is a %T", s.X)
		}
		text, ok := plain(in)
		if !ok {
			return
		}
		checkMaxLine(t, text, r.MaxLine)
		labels, rows, width, dropped := naiveLIBSVM(t, string(text), r.Cols)
		if n, c := X.Dims(); n != len(rows) || c != width || s.Dropped != dropped {
			t.Fatalf("%d×%d, Dropped %d; want %d×%d, %d", n, c, s.Dropped, len(rows), width, dropped)
		}
		for i, row := range rows {
			var got [][2]float64
			X.DoRowNonZero(i, func(_, j int, v float64) { got = append(got, [2]float64{float64(j), v}) })
			if !slices.Equal(got, row) {
				t.Fatalf("row %d: %v, want %v", i, got, row)
			}
		}
		checkLabels(t, s, labels)
	})
}

func FuzzCSV(f *testing.F) {
	type seed struct {
		in     string
		header bool
		label  string
		comma  byte
	}
	for _, s := range []seed{
		{"1,2,b\n3,4,a\n", false, "", 0},
		{"x,label,y\n1,a,2\n", true, "label", 0},
		{"b,1,2\na,3,4\n", false, "first", 0},
		{"1,b,2\n", false, "2", 0},
		{"x,y\n1,2\n", true, "none", 0},
		{"1;2;b\n", false, "", ';'},
		{"x;y;label\n1;2;a\n", true, "label", 0},
		{"\ufeffx,y,c\n1,2,a\n", true, "", 0},
		{"\"1\",\" 2 \",\"a, b\"\n3,4,\"say \"\"c\"\"\"\n", false, "", 0},
		{"1,\"a\nb\"\n", false, "", 0},
		{"1,2,a\n1,a\n", false, "", 0},
		{"x,y,c\n1,2,a\n", false, "", 0},
		{"1,10\n2,9\n3,1.0\n4,1\n", false, "", 0},
		{"1,nan,a\n", false, "", 0},
		{"1,\"\xff\"\n", false, "", 0},
		{"1,2,a\r\n\r\n3,4,b", false, "last", 0},
		{"a\n", false, "", 0},
		{"1\t2\tx\n", false, "", '\t'},
		{"1,2\n", false, "", '"'},
		{"1,\"2\r\n\",\"a\"\"\"\n\"3\",4,b\n", false, "", 0},
		{"1,\"2\"3,a\n", false, "", 0},
		{"1,2\n3,nan\n4,cat\n", false, "", 0},
		{"1,2\n3,1e999\n", false, "", 0},
		{"1\xc2\xa72\xc2\xa7a\n", false, "", 0xa7},
	} {
		f.Add([]byte(s.in), s.header, s.label, s.comma, "", uint16(0))
		f.Add([]byte(s.in), s.header, s.label, s.comma, "a|2", uint16(6))
	}
	f.Add(gzipped(f, []byte("1,2,a\n3,4,b\n")), false, "", byte(0), "", uint16(0))
	f.Fuzz(func(t *testing.T, in []byte, header bool, label string, comma byte, classes string, maxLine uint16) {
		fixed := fixedClasses(classes)
		r := data.CSV{Comma: rune(comma), Header: header, Label: label, Classes: fixed, MaxLine: int(maxLine)}
		s, err := r.Read(bytes.NewReader(in))
		checkStream(t, s, err, collect(t, r.Rows(bytes.NewReader(in))))
		if err != nil {
			checkErr(t, s, err)
			return
		}
		checkSet(t, s, label != "none", fixed)
		if _, ok := s.X.(*mat.Dense); !ok {
			t.Fatalf("X is a %T", s.X)
		}
		n, c := s.X.Dims()
		if header != (s.Features != nil) || (header && len(s.Features) != c) {
			t.Fatalf("header %v: Features %q of %d columns", header, s.Features, c)
		}

		// Read the records again with encoding/csv, take the label column
		// as the CSV's documentation says, and compare.
		text, ok := plain(in)
		if !ok {
			return
		}
		checkMaxLine(t, text, r.MaxLine) // a byte-order mark counts toward line 1
		text = bytes.TrimPrefix(text, []byte("\ufeff"))
		cr := csv.NewReader(bytes.NewReader(text))
		cr.FieldsPerRecord = -1
		if comma != 0 {
			cr.Comma = rune(comma)
		}
		recs, err := cr.ReadAll()
		if err != nil {
			t.Fatalf("encoding/csv: %v", err)
		}
		var head []string
		if header {
			head, recs = recs[0], recs[1:]
		}
		nf := len(recs[0])
		lc := -1
		switch k, err := strconv.Atoi(label); {
		case label == "" || label == "last":
			lc = nf - 1
		case label == "first":
			lc = 0
		case label == "none":
		case err == nil:
			lc = k - 1
		default:
			lc = slices.IndexFunc(head, func(h string) bool { return strings.TrimSpace(h) == label })
		}
		if len(recs) != n {
			t.Fatalf("%d rows, want %d", n, len(recs))
		}
		var labels []string
		for i, rec := range recs {
			var row []float64
			for j, field := range rec {
				if j == lc {
					labels = append(labels, strings.TrimSpace(field))
					continue
				}
				v, err := strconv.ParseFloat(strings.TrimSpace(field), 64)
				if err != nil {
					t.Fatalf("row %d, field %d, %q: %v", i, j+1, field, err)
				}
				row = append(row, v)
			}
			if got := mat.Row(nil, i, s.X); !slices.Equal(got, row) {
				t.Fatalf("row %d: %v, want %v", i, got, row)
			}
		}
		if lc >= 0 {
			checkLabels(t, s, labels)
		}
		var features []string
		for j, h := range head {
			if j != lc {
				features = append(features, strings.TrimSpace(h))
			}
		}
		if !slices.Equal(s.Features, features) {
			t.Fatalf("Features %q, want %q", s.Features, features)
		}
	})
}

func FuzzIDX(f *testing.F) {
	images := idxFile([]uint32{3, 2, 2}, []byte{0, 51, 102, 153, 204, 255, 0, 0, 255, 255, 51, 0})
	labels := idxFile([]uint32{3}, []byte{7, 0, 7})
	f.Add(images, labels, true)
	f.Add(images, labels, false)
	f.Add(gzipped(f, images), gzipped(f, labels), true)
	f.Add(idxFile([]uint32{2, 3}, []byte{1, 2, 3, 4, 5, 6, 7}), idxFile([]uint32{2}, []byte{0, 1}), true)
	f.Add(idxFile([]uint32{3, 2, 2}, make([]byte, 11)), labels, true)
	f.Add(images, idxFile([]uint32{4}, []byte{1, 2, 3, 4}), true)
	f.Add(idxFile([]uint32{0, 2}, nil), idxFile([]uint32{0}, nil), true)
	f.Add(idxFile([]uint32{3, 0}, nil), labels, true)
	f.Add(idxFile([]uint32{1 << 24, 1 << 24, 1 << 24}, nil), labels, true)
	f.Add(idxFile([]uint32{1 << 20, 1 << 20}, make([]byte, 100)), labels, false)
	f.Add([]byte{0, 0, 9, 1, 0, 0, 0, 1, 1}, labels, true)
	f.Add([]byte{0, 0, 8, 0}, labels, true)
	f.Add([]byte{0, 1, 8, 1}, labels, true)
	f.Add(images, []byte{0, 0, 8, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 3}, true)
	f.Fuzz(func(t *testing.T, images, labels []byte, useLabels bool) {
		var lr, lr2 io.Reader
		if useLabels {
			lr, lr2 = bytes.NewReader(labels), bytes.NewReader(labels)
		}
		s, err := data.IDX{}.Read(bytes.NewReader(images), lr)
		checkStream(t, s, err, collect(t, data.IDX{}.Rows(bytes.NewReader(images), lr2)))
		if err != nil {
			checkErr(t, s, err)
			if msg := err.Error(); !strings.HasPrefix(msg, "images: ") && !strings.HasPrefix(msg, "labels: ") {
				t.Fatalf("error %q names neither file", msg)
			}
			return
		}
		checkSet(t, s, useLabels, nil)
		if _, ok := s.X.(*mat.Dense); !ok {
			t.Fatalf("X is a %T", s.X)
		}

		// The images, read by the header: a count and the pixels after it.
		im, ok := plain(images)
		if !ok {
			return
		}
		count, pixels := naiveIDX(t, im)
		n, d := s.X.Dims()
		if n != count || n*d != len(pixels) {
			t.Fatalf("%d×%d, want %d images of %d pixels", n, d, count, len(pixels))
		}
		for i := range n {
			for j := range d {
				if got, want := s.X.At(i, j), float64(pixels[i*d+j])/255; got != want {
					t.Fatalf("row %d, column %d: %v, want %v", i, j, got, want)
				}
			}
		}
		if !useLabels {
			return
		}
		lb, ok := plain(labels)
		if !ok {
			return
		}
		lcount, lbytes := naiveIDX(t, lb)
		if lcount != n {
			t.Fatalf("%d labels for %d images", lcount, n)
		}
		var names []string
		for _, b := range lbytes {
			names = append(names, fmt.Sprint(b))
		}
		checkLabels(t, s, names)
		// The classes are the labels, in the order of their values.
		if !slices.IsSortedFunc(s.Classes, func(a, b string) int {
			x, _ := strconv.Atoi(a)
			y, _ := strconv.Atoi(b)
			return x - y
		}) {
			t.Fatalf("Classes %q not in order", s.Classes)
		}
	})
}

// naiveIDX returns the first dimension of the IDX file b and the bytes
// that its dimensions count.
func naiveIDX(t *testing.T, b []byte) (count int, data []byte) {
	t.Helper()
	nd := int(b[3])
	size := 1
	for k := range nd {
		dim := int(b[4+4*k])<<24 | int(b[5+4*k])<<16 | int(b[6+4*k])<<8 | int(b[7+4*k])
		if k == 0 {
			count = dim
		}
		size *= dim
	}
	start := 4 + 4*nd
	if len(b) < start+size {
		t.Fatalf("an IDX file read of %d bytes, its header asking for %d", len(b)-start, size)
	}
	return count, b[start : start+size]
}
