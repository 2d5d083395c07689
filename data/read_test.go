// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// maxErr is the longest error message a reader may return, whatever its
// input: a line number, a field number, a quoted prefix of at most 40
// bytes of a token, which escaping makes at most 160 characters, and a
// sentence.
const maxErr = 300

// dense returns the elements of X, row by row, read through At.
func dense(X mat.Matrix) [][]float64 {
	r, c := X.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, c)
		for j := range out[i] {
			out[i][j] = X.At(i, j)
		}
	}
	return out
}

// sameRows reports whether a and b hold the same rows, element by element.
func sameRows(a, b [][]float64) bool {
	return slices.EqualFunc(a, b, func(x, y []float64) bool { return slices.Equal(x, y) })
}

// checkReadErr fails t unless err is a reader's error that holds every
// one of subs, is short and printable, and is not prefixed "data:", which
// the readers do not write.
func checkReadErr(t *testing.T, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one holding %q", subs)
	}
	msg := err.Error()
	for _, s := range subs {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q does not hold %q", msg, s)
		}
	}
	if strings.HasPrefix(msg, "data:") {
		t.Errorf("reader error %q starts with data:", msg)
	}
	checkShortPrintable(t, msg)
}

// checkShortPrintable fails t if msg is longer than maxErr bytes, or
// holds anything but printable characters and spaces.
func checkShortPrintable(t *testing.T, msg string) {
	t.Helper()
	if len(msg) >= maxErr {
		t.Errorf("error of %d bytes, want fewer than %d: %.400q", len(msg), maxErr, msg)
	}
	if !utf8.ValidString(msg) {
		t.Errorf("error %q is not UTF-8", msg)
	}
	for _, r := range msg {
		if r != ' ' && !unicode.IsPrint(r) {
			t.Errorf("error %q holds the unprintable %U", msg, r)
			break
		}
	}
}

// longestRun returns the length of the longest run of b in s.
func longestRun(s string, b byte) int {
	most, run := 0, 0
	for i := range len(s) {
		if s[i] == b {
			run++
			most = max(most, run)
		} else {
			run = 0
		}
	}
	return most
}

func gzipped(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// source is a reader of n bytes, a prefix and then fill, that counts the
// bytes read from it, so that a test sees how much of a long input a
// reader takes in, without the input in memory.
type source struct {
	prefix string
	fill   byte
	n      int64 // the bytes left
	read   int64
}

func (s *source) Read(p []byte) (int, error) {
	if s.n == 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), s.n)]
	k := copy(p, s.prefix)
	s.prefix = s.prefix[k:]
	for i := k; i < len(p); i++ {
		p[i] = s.fill
	}
	s.n -= int64(len(p))
	s.read += int64(len(p))
	return len(p), nil
}

// allocated returns the bytes that f allocates, from the runtime's count of
// all allocations ever; the tests that call it are not parallel.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestLIBSVMRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		f       data.LIBSVM
		rows    [][]float64
		y       []float64
		classes []string
		nnz     int
		dropped int
	}{{
		name:    "byte-order mark and line 1 of MaxLine bytes",
		in:      "\ufeff1 1:1\n2 2:1\n",
		f:       data.LIBSVM{MaxLine: 8},
		rows:    [][]float64{{1, 0}, {0, 1}},
		y:       []float64{0, 1},
		classes: []string{"1", "2"},
		nnz:     2,
	}, {
		name:    "labels that are text, NaN and infinity among them",
		in:      "nan 1:1\nInf 1:2\nb 1:3\nnan 1:4\n",
		rows:    [][]float64{{1}, {2}, {3}, {4}},
		y:       []float64{2, 0, 1, 2},
		classes: []string{"Inf", "b", "nan"},
		nnz:     4,
	}, {
		name:    "NaN a new class after known classes that are text",
		in:      "a 1:1\nnan 1:2\n",
		f:       data.LIBSVM{Classes: []string{"b", "a"}},
		rows:    [][]float64{{1}, {2}},
		y:       []float64{1, 2},
		classes: []string{"b", "a", "nan"},
		nnz:     2,
	}, {
		name:    "labels and indices from 1",
		in:      "1 1:0.5 3:2\n-1 2:1\n",
		rows:    [][]float64{{0.5, 0, 2}, {0, 1, 0}},
		y:       []float64{1, 0},
		classes: []string{"-1", "1"},
		nnz:     3,
	}, {
		name:    "qid after the label",
		in:      "2 qid:7 1:1\n1 qid:8 2:3\n",
		rows:    [][]float64{{1, 0}, {0, 3}},
		y:       []float64{1, 0},
		classes: []string{"1", "2"},
		nnz:     2,
	}, {
		name:    "comments and blank lines",
		in:      "# a comment\n\n1 1:1 # after a row\n   \t\n0 2:2#x\n# 3 3:3\n",
		rows:    [][]float64{{1, 0}, {0, 2}},
		y:       []float64{1, 0},
		classes: []string{"0", "1"},
		nnz:     2,
	}, {
		name:    "explicit zeros left out, their index still counts",
		in:      "1 1:0 2:5 3:0.0\n0 1:-0\n",
		rows:    [][]float64{{0, 5, 0}, {0, 0, 0}},
		y:       []float64{1, 0},
		classes: []string{"0", "1"},
		nnz:     1,
	}, {
		name:    "a row of no features",
		in:      "1\n0 2:1\n",
		rows:    [][]float64{{0, 0}, {0, 1}},
		y:       []float64{1, 0},
		classes: []string{"0", "1"},
		nnz:     1,
	}, {
		name:    "CRLF, tabs and exponents",
		in:      "1\t1:1e1\t2:-2.5E-1\r\n0 2:+3\r\n",
		rows:    [][]float64{{10, -0.25}, {0, 3}},
		y:       []float64{1, 0},
		classes: []string{"0", "1"},
		nnz:     3,
	}, {
		name:    "Cols: values beyond it dropped and counted",
		in:      "1 1:1 3:4 5:6\n0 2:1 4:7\n",
		f:       data.LIBSVM{Cols: 2},
		rows:    [][]float64{{1, 0}, {0, 1}},
		y:       []float64{1, 0},
		classes: []string{"0", "1"},
		nnz:     2,
		dropped: 3,
	}, {
		name:    "Cols wider than the data",
		in:      "1 1:1\n",
		f:       data.LIBSVM{Cols: 3},
		rows:    [][]float64{{1, 0, 0}},
		y:       []float64{0},
		classes: []string{"1"},
		nnz:     1,
	}, {
		name:    "numeric labels sorted by value, 1 and 1.0 one class",
		in:      "10 1:1\n9 1:2\n-1 1:3\n1.0 1:4\n1 1:5\n2.5 1:6\n",
		rows:    [][]float64{{1}, {2}, {3}, {4}, {5}, {6}},
		y:       []float64{4, 3, 0, 1, 1, 2},
		classes: []string{"-1", "1", "2.5", "9", "10"},
		nnz:     6,
	}, {
		name:    "string labels sorted by text",
		in:      "pear 1:1\napple 1:2\n10 1:3\nfig 1:4\n",
		rows:    [][]float64{{1}, {2}, {3}, {4}},
		y:       []float64{3, 1, 0, 2},
		classes: []string{"10", "apple", "fig", "pear"},
		nnz:     4,
	}, {
		name:    "fixed classes by text and by value, unknown ones after in order",
		in:      "-1.0 1:1\n1 1:2\n+1 1:3\n9 1:4\n7 1:5\n9 1:6\n1.0 1:7\n",
		f:       data.LIBSVM{Classes: []string{"1", "-1"}},
		rows:    [][]float64{{1}, {2}, {3}, {4}, {5}, {6}, {7}},
		y:       []float64{1, 0, 0, 2, 3, 2, 0},
		classes: []string{"1", "-1", "9", "7"},
		nnz:     7,
	}, {
		name:    "fixed class 1.0 takes the label 1",
		in:      "1 1:1\n0 1:2\n",
		f:       data.LIBSVM{Classes: []string{"0.0", "1.0"}},
		rows:    [][]float64{{1}, {2}},
		y:       []float64{1, 0},
		classes: []string{"0.0", "1.0"},
		nnz:     2,
	}, {
		name:    "fixed classes not all present",
		in:      "b 1:1\n",
		f:       data.LIBSVM{Classes: []string{"a", "b", "c"}},
		rows:    [][]float64{{1}},
		y:       []float64{1},
		classes: []string{"a", "b", "c"},
		nnz:     1,
	}, {
		name:    "a line of exactly MaxLine bytes",
		in:      "1 1:1\n1 1:12\r\n",
		f:       data.LIBSVM{MaxLine: 6},
		rows:    [][]float64{{1}, {12}},
		y:       []float64{0, 0},
		classes: []string{"1"},
		nnz:     2,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, gz := range []bool{false, true} {
				in := []byte(tc.in)
				if gz {
					in = gzipped(t, in)
				}
				s, err := tc.f.Read(bytes.NewReader(in))
				if err != nil {
					t.Fatalf("gzip %v: %v", gz, err)
				}
				X, ok := s.X.(*perceptron.CSR)
				if !ok {
					t.Fatalf("X is a %T, want a *perceptron.CSR", s.X)
				}
				if got := dense(X); !sameRows(got, tc.rows) {
					t.Errorf("gzip %v: rows %v, want %v", gz, got, tc.rows)
				}
				if X.NNZ() != tc.nnz {
					t.Errorf("gzip %v: %d stored values, want %d", gz, X.NNZ(), tc.nnz)
				}
				if !slices.Equal(s.Y, tc.y) || !slices.Equal(s.Classes, tc.classes) {
					t.Errorf("gzip %v: Y %v, Classes %q; want %v, %q", gz, s.Y, s.Classes, tc.y, tc.classes)
				}
				if s.Dropped != tc.dropped || s.Features != nil {
					t.Errorf("gzip %v: Dropped %d, Features %q; want %d, nil", gz, s.Dropped, s.Features, tc.dropped)
				}
			}
		})
	}
}

func TestLIBSVMReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		f    data.LIBSVM
		subs []string
	}{
		{"no label", "1 1:1\n1:1 2:2\n", data.LIBSVM{}, []string{"line 2: ", "no label", `"1:1"`}},
		{"not index:value", "1 1:1 5\n", data.LIBSVM{}, []string{"line 1: ", `"5"`, "index:value"}},
		{"bad index", "1 1:1\n\n1 x:1\n", data.LIBSVM{}, []string{"line 3: ", `"x:1"`, "index"}},
		{"empty index", "1 :1\n", data.LIBSVM{}, []string{"line 1: ", "index"}},
		{"index 0", "1 0:1\n", data.LIBSVM{}, []string{"line 1: ", `"0:1"`, "from 1"}},
		{"negative index", "1 -2:1\n", data.LIBSVM{}, []string{"line 1: ", "from 1"}},
		{"decreasing index", "1 1:1\n1 3:1 2:1\n", data.LIBSVM{}, []string{"line 2: ", "index 2 after 3"}},
		{"repeated index", "1 2:1 2:1\n", data.LIBSVM{}, []string{"line 1: ", "index 2 after 2"}},
		{"index beyond 2^48", "1 281474976710657:1\n", data.LIBSVM{}, []string{"line 1: ", "too large"}},
		{"index beyond int64", "1 99999999999999999999999:1\n", data.LIBSVM{}, []string{"line 1: ", "too large"}},
		{"NaN", "1 1:NaN\n", data.LIBSVM{}, []string{"line 1: ", "index 1", "finite"}},
		{"infinity", "1 1:1 2:-Inf\n", data.LIBSVM{}, []string{"line 1: ", "index 2", "finite"}},
		{"overflow", "1 1:1e400\n", data.LIBSVM{}, []string{"line 1: ", "index 1", "finite"}},
		{"non-finite beyond Cols", "1 1:1 3:inf\n", data.LIBSVM{Cols: 1}, []string{"line 1: ", "index 3", "finite"}},
		{"not a number", "1 1:abc\n", data.LIBSVM{}, []string{"line 1: ", `"abc"`, "not a number"}},
		{"empty value", "1 1:\n", data.LIBSVM{}, []string{"line 1: ", "index 1", "empty"}},
		{"bad qid", "1 qid:x 1:1\n", data.LIBSVM{}, []string{"line 1: ", "qid", `"x"`}},
		{"qid not after the label", "1 1:1 qid:3\n", data.LIBSVM{}, []string{"line 1: ", `"qid:3"`}},
		{"label not UTF-8", "1 1:1\n\xff\xfe 1:1\n", data.LIBSVM{}, []string{"line 2: ", "label", `"\xff\xfe"`}},
		{"line longer than MaxLine", "1 1:1\n1 1:2\n1 1:1 2:2\n1 1:1\n", data.LIBSVM{MaxLine: 8}, []string{"line 3: ", "longer than 8 bytes"}},
		{"line of MaxLine+1 bytes", "1 1:1\n1 1:12\r\n", data.LIBSVM{MaxLine: 5}, []string{"line 2: ", "longer than 5 bytes"}},
		{"last line without end too long", "1 1:1\n1 1:123", data.LIBSVM{MaxLine: 6}, []string{"line 2: ", "longer than 6 bytes"}},
		{"byte-order mark and line 1 beyond MaxLine", "\ufeff1 1:1\n", data.LIBSVM{MaxLine: 7}, []string{"line 1: ", "longer than 7 bytes with the byte-order mark"}},
		{"NaN label", "1 1:1\nnan 2:1\n", data.LIBSVM{}, []string{"line 2: ", `the label "nan" is not a finite number`}},
		{"infinite label", "1 1:1\n2 1:1\n-Inf 2:1\n", data.LIBSVM{}, []string{"line 3: ", `"-Inf"`, "finite"}},
		{"label beyond float64", "1e400 1:1\n", data.LIBSVM{}, []string{"line 1: ", `"1e400"`, "finite"}},
		{"NaN label, known classes numbers", "1 1:1\nNaN 2:1\n", data.LIBSVM{Classes: []string{"-1", "1"}}, []string{"line 2: ", `"NaN"`, "finite"}},
		{"class twice in Classes", "1 1:1\n", data.LIBSVM{Classes: []string{"a", "b", "a"}}, []string{"known classes 1 and 3 are both", `"a"`}},
		{"empty class in Classes", "1 1:1\n", data.LIBSVM{Classes: []string{"a", ""}}, []string{"known class 2: ", "empty"}},
		{"no rows", "", data.LIBSVM{}, []string{"no rows"}},
		{"only comments", "# 1 1:1\n\n  # x\n", data.LIBSVM{}, []string{"no rows"}},
		{"no features", "1\n2 # 1:1\n", data.LIBSVM{}, []string{"no features"}},
		{"broken gzip", "\x1f\x8b\x08garbage", data.LIBSVM{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.f.Read(strings.NewReader(tc.in))
			if s != nil {
				t.Errorf("a Set with the error %v", err)
			}
			checkReadErr(t, err, tc.subs...)
		})
	}
}

// TestLIBSVMLabelsSplitByWhitespace checks that no LIBSVM label holds a
// tab, an end of line or other white space: they separate the fields.
func TestLIBSVMLabelsSplitByWhitespace(t *testing.T) {
	// A vertical tab, a no-break space, a next line and a line separator
	// are white space, as tabs are.
	s, err := data.LIBSVM{}.Read(strings.NewReader("x\v1:1\ny\u00a01:2\nz\u0085 1:3\nw\u20281:4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"w", "x", "y", "z"}; !slices.Equal(s.Classes, want) || !slices.Equal(s.Y, []float64{1, 2, 3, 0}) {
		t.Errorf("Classes %q, Y %v; want %q, [1 2 3 0]", s.Classes, s.Y, want)
	}
	if got := dense(s.X); !sameRows(got, [][]float64{{1}, {2}, {3}, {4}}) {
		t.Errorf("rows %v", got)
	}

	// A label of a tab splits into a label and a field that is not a
	// pair.
	s, err = data.LIBSVM{}.Read(strings.NewReader("a\tb 1:1\n"))
	checkReadErr(t, err, "line 1: ", `"b"`, "index:value")
	if s != nil {
		t.Fatal("a Set with an error")
	}
}

// TestLIBSVMLongLine reads a line of 100 MB with MaxLine 1 MiB, and
// checks that the reader refuses it by its number, having read and
// allocated no more than the limit and its buffers: the line is
// generated, never held by the test.
func TestLIBSVMLongLine(t *testing.T) {
	const line, limit = 100 << 20, 1 << 20
	for _, tc := range []struct {
		prefix string
		read   func(r io.Reader) error
	}{
		{"1 1:1\n1 1:2\n2 ", func(r io.Reader) error { _, err := data.LIBSVM{MaxLine: limit}.Read(r); return err }},
		{"1,1\n2,2\n", func(r io.Reader) error { _, err := data.CSV{MaxLine: limit}.Read(r); return err }},
	} {
		src := &source{prefix: tc.prefix, fill: '1', n: line}
		var err error
		alloc := allocated(func() { err = tc.read(src) })
		checkReadErr(t, err, "line 3: ", "longer than 1048576 bytes")
		// The reader holds at most the limit of a line, in a buffer that
		// grows by a quarter at a time, as append grows a large slice,
		// so that its allocations sum to less than five times its final
		// size: about 5 MiB. 16 MiB leaves room for a second copy and
		// the reader's buffers, and is a sixth of the line.
		if alloc > 16<<20 {
			t.Errorf("%d bytes allocated to refuse a line of %d with a limit of %d", alloc, line, limit)
		}
		// It reads the limit, a buffer or two more, and stops.
		if src.read > limit+64<<10 {
			t.Errorf("%d bytes read to refuse a line of %d with a limit of %d", src.read, line, limit)
		}
	}
}

// TestLongTokenQuoted checks that a bad token of 10 MB is quoted by a
// prefix of at most 40 bytes, in an error of fewer than maxErr bytes.
func TestLongTokenQuoted(t *testing.T) {
	const n = 10 << 20
	long := strings.Repeat("a", n)
	for _, tc := range []struct {
		name string
		read func() error
		subs []string
	}{
		{"LIBSVM value", func() error { _, err := data.LIBSVM{}.Read(strings.NewReader("1 1:" + long + "\n")); return err }, []string{"line 1: ", "not a number", fmt.Sprint(n)}},
		{"LIBSVM index", func() error { _, err := data.LIBSVM{}.Read(strings.NewReader("1 " + long + ":1\n")); return err }, []string{"line 1: ", "index"}},
		{"LIBSVM no label", func() error { _, err := data.LIBSVM{}.Read(strings.NewReader(long + ":1\n")); return err }, []string{"line 1: ", "no label"}},
		{"LIBSVM pair", func() error { _, err := data.LIBSVM{}.Read(strings.NewReader("1 " + long + "\n")); return err }, []string{"line 1: ", "index:value"}},
		{"LIBSVM label", func() error { _, err := data.LIBSVM{}.Read(strings.NewReader(long + "\xff 1:1\n")); return err }, []string{"line 1: ", "label"}},
		{"CSV field", func() error { _, err := data.CSV{}.Read(strings.NewReader("1,2,a\n1," + long + ",b\n")); return err }, []string{"line 2: ", "field 2", "not a number"}},
		{"CSV label", func() error { _, err := data.CSV{}.Read(strings.NewReader("1,\"" + long + "\tb\"\n")); return err }, []string{"line 1: ", "field 2", "label"}},
		{"CSV label column", func() error {
			_, err := data.CSV{Header: true, Label: long}.Read(strings.NewReader("x,y\n1,2\n"))
			return err
		}, []string{"line 2: ", "label column"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read()
			checkReadErr(t, err, tc.subs...)
			if err != nil && longestRun(err.Error(), 'a') > 40 {
				t.Errorf("error quotes %d bytes of the token: %.200q", longestRun(err.Error(), 'a'), err)
			}
		})
	}
}

func TestCSVRead(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in       string
		f        data.CSV
		rows     [][]float64
		y        []float64 // nil for no labels
		classes  []string
		features []string
	}{{
		name:    "no header, label last",
		in:      "1,2,b\n3,4,a\n",
		rows:    [][]float64{{1, 2}, {3, 4}},
		y:       []float64{1, 0},
		classes: []string{"a", "b"},
	}, {
		name:    "label last by name",
		in:      "1,2,b\n3,4,a\n",
		f:       data.CSV{Label: "last"},
		rows:    [][]float64{{1, 2}, {3, 4}},
		y:       []float64{1, 0},
		classes: []string{"a", "b"},
	}, {
		name:    "label first",
		in:      "b,1,2\na,3,4\n",
		f:       data.CSV{Label: "first"},
		rows:    [][]float64{{1, 2}, {3, 4}},
		y:       []float64{1, 0},
		classes: []string{"a", "b"},
	}, {
		name:    "label by number",
		in:      "1,b,2\n3,a,4\n",
		f:       data.CSV{Label: "2"},
		rows:    [][]float64{{1, 2}, {3, 4}},
		y:       []float64{1, 0},
		classes: []string{"a", "b"},
	}, {
		name:     "label by header name",
		in:       "x, species ,y\n1,b,2\n3,a,4\n",
		f:        data.CSV{Header: true, Label: "species"},
		rows:     [][]float64{{1, 2}, {3, 4}},
		y:        []float64{1, 0},
		classes:  []string{"a", "b"},
		features: []string{"x", "y"},
	}, {
		name:     "no label",
		in:       "x,y\n1,2\n3,4\n",
		f:        data.CSV{Header: true, Label: "none"},
		rows:     [][]float64{{1, 2}, {3, 4}},
		features: []string{"x", "y"},
	}, {
		name:    "semicolons",
		in:      "1.5;2;b\n3;-4e2;a\n",
		f:       data.CSV{Comma: ';'},
		rows:    [][]float64{{1.5, 2}, {3, -400}},
		y:       []float64{1, 0},
		classes: []string{"a", "b"},
	}, {
		name:     "byte order mark before the header",
		in:       "\ufeffx,y,c\n1,2,a\n",
		f:        data.CSV{Header: true},
		rows:     [][]float64{{1, 2}},
		y:        []float64{0},
		classes:  []string{"a"},
		features: []string{"x", "y"},
	}, {
		name:    "quoted fields",
		in:      "\"1\",\" 2 \",\"a, b\"\n3,\"4\",\"say \"\"c\"\"\"\n",
		rows:    [][]float64{{1, 2}, {3, 4}},
		y:       []float64{0, 1},
		classes: []string{"a, b", `say "c"`},
	}, {
		name:    "blank lines, CRLF and spaces",
		in:      "\r\n 1 , 2 , b \r\n\r\n3,4,a\r\n\n",
		rows:    [][]float64{{1, 2}, {3, 4}},
		y:       []float64{1, 0},
		classes: []string{"a", "b"},
	}, {
		name:    "string labels sorted by text",
		in:      "1,pear\n2,apple\n3,10\n4,fig\n5,apple\n",
		rows:    [][]float64{{1}, {2}, {3}, {4}, {5}},
		y:       []float64{3, 1, 0, 2, 1},
		classes: []string{"10", "apple", "fig", "pear"},
	}, {
		name:    "numeric labels sorted by value",
		in:      "1,10\n2,9\n3,-1\n4,2.5\n5,1e1\n",
		rows:    [][]float64{{1}, {2}, {3}, {4}, {5}},
		y:       []float64{3, 2, 0, 1, 3},
		classes: []string{"-1", "2.5", "9", "10"},
	}, {
		name:    "fixed classes, by text and by value, unknown ones after",
		in:      "1,b\n2,c\n3,2.0\n4,a\n5,z\n6,c\n",
		f:       data.CSV{Classes: []string{"b", "a", "2"}},
		rows:    [][]float64{{1}, {2}, {3}, {4}, {5}, {6}},
		y:       []float64{0, 3, 2, 1, 4, 3},
		classes: []string{"b", "a", "2", "c", "z"},
	}, {
		name:    "byte-order mark and line 1 of MaxLine bytes",
		in:      "\ufeff1,2,a\n3,4,b\n",
		f:       data.CSV{MaxLine: 8},
		rows:    [][]float64{{1, 2}, {3, 4}},
		y:       []float64{0, 1},
		classes: []string{"a", "b"},
	}, {
		name:    "quoted fields that join lines, within MaxLine",
		in:      "1,\"2\r\n\",\"a\"\"\"\n\"3\",4,b\n",
		f:       data.CSV{MaxLine: 13},
		rows:    [][]float64{{1, 2}, {3, 4}},
		y:       []float64{0, 1},
		classes: []string{`a"`, "b"},
	}, {
		name:    "labels that are text, NaN among them",
		in:      "1,nan\n2,inf\n3,cat\n",
		rows:    [][]float64{{1}, {2}, {3}},
		y:       []float64{2, 1, 0},
		classes: []string{"cat", "inf", "nan"},
	}, {
		name:    "multi-byte delimiter",
		in:      "1§2§a\n\"3\"§4§b\n",
		f:       data.CSV{Comma: '§'},
		rows:    [][]float64{{1, 2}, {3, 4}},
		y:       []float64{0, 1},
		classes: []string{"a", "b"},
	}, {
		name:    "a line of exactly MaxLine bytes",
		in:      "1,2,a\n3,4,b\r\n",
		f:       data.CSV{MaxLine: 5},
		rows:    [][]float64{{1, 2}, {3, 4}},
		y:       []float64{0, 1},
		classes: []string{"a", "b"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, gz := range []bool{false, true} {
				in := []byte(tc.in)
				if gz {
					in = gzipped(t, in)
				}
				s, err := tc.f.Read(bytes.NewReader(in))
				if err != nil {
					t.Fatalf("gzip %v: %v", gz, err)
				}
				if _, ok := s.X.(*mat.Dense); !ok {
					t.Fatalf("X is a %T, want a *mat.Dense", s.X)
				}
				if got := dense(s.X); !sameRows(got, tc.rows) {
					t.Errorf("gzip %v: rows %v, want %v", gz, got, tc.rows)
				}
				if (s.Y == nil) != (tc.y == nil) || !slices.Equal(s.Y, tc.y) || !slices.Equal(s.Classes, tc.classes) {
					t.Errorf("gzip %v: Y %v, Classes %q; want %v, %q", gz, s.Y, s.Classes, tc.y, tc.classes)
				}
				if !slices.Equal(s.Features, tc.features) || s.Dropped != 0 {
					t.Errorf("gzip %v: Features %q, Dropped %d; want %q, 0", gz, s.Features, s.Dropped, tc.features)
				}
			}
		})
	}
}

func TestCSVReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		f    data.CSV
		subs []string
		not  []string // what the error must not say
	}{
		{name: "semicolons read with commas", in: "x;y;label\n1;2;a\n", f: data.CSV{Header: true, Label: "label"},
			subs: []string{"line 2: ", `"label"`, "header", `delimiter ";"`}},
		{name: "tabs read with commas", in: "x\ty\tlabel\n1\t2\ta\n", f: data.CSV{Header: true, Label: "label"},
			subs: []string{"line 2: ", `delimiter "\t"`}},
		{name: "no such column", in: "x,y,label\n1,2,a\n", f: data.CSV{Header: true, Label: "class"},
			subs: []string{"line 2: ", `"class"`, "no such column"}, not: []string{"delimiter"}},
		{name: "label name without header", in: "1,2,a\n", f: data.CSV{Label: "class"},
			subs: []string{"line 1: ", `"class"`, "header"}},
		{name: "label number out of range", in: "1,2,a\n", f: data.CSV{Label: "4"},
			subs: []string{"line 1: ", "label column 4", "3 fields"}},
		{name: "label number 0", in: "1,2,a\n", f: data.CSV{Label: "0"},
			subs: []string{"line 1: ", "label column 0"}},
		{name: "quoted newline in a label", in: "1,a\n2,\"b\nc\"\n", f: data.CSV{},
			subs: []string{"line 2: ", "field 2", "label", `"b\nc"`}},
		{name: "tab in a label", in: "1,a\n2,\"b\tc\"\n", f: data.CSV{},
			subs: []string{"line 2: ", "field 2", "label", `"b\tc"`}},
		{name: "carriage return in a label", in: "1,a\n2,\"b\rc\"\n", f: data.CSV{},
			subs: []string{"line 2: ", "field 2", "label"}},
		{name: "label not UTF-8", in: "1,\xffa\n", f: data.CSV{},
			subs: []string{"line 1: ", "field 2", "label", `"\xffa"`}},
		{name: "empty label", in: "1,a\n2, \n", f: data.CSV{},
			subs: []string{"line 2: ", "field 2", "empty"}},
		{name: "ragged rows", in: "1,2,a\n3,4,b\n5,c\n", f: data.CSV{},
			subs: []string{"line 3: ", "2 fields, want 3", "line 1"}},
		{name: "header and row differ", in: "x,y\n1,2,a\n", f: data.CSV{Header: true},
			subs: []string{"line 1: ", "header has 2 fields", "line 2 3"}},
		{name: "non-numeric first line: a header?", in: "x,y,c\n1,2,a\n", f: data.CSV{},
			subs: []string{"line 1: ", "field 1", `"x"`, "not a number", "header"}},
		{name: "non-numeric field later", in: "1,2,a\n3,x,b\n", f: data.CSV{},
			subs: []string{"line 2: ", "field 2", `"x"`, "not a number"}, not: []string{"header"}},
		{name: "non-numeric field after a header", in: "x,y,c\n1,y,a\n", f: data.CSV{Header: true},
			subs: []string{"line 2: ", "field 2", `"y"`}, not: []string{"header"}},
		{name: "empty field", in: "1,,a\n", f: data.CSV{},
			subs: []string{"line 1: ", "field 2", "empty"}},
		{name: "infinity", in: "1,2,a\n3,inf,b\n", f: data.CSV{},
			subs: []string{"line 2: ", "field 2", "finite"}},
		{name: "NaN", in: "nan,2,a\n", f: data.CSV{},
			subs: []string{"line 1: ", "field 1", "finite"}},
		{name: "overflow", in: "1,2,a\n1e999,2,b\n", f: data.CSV{},
			subs: []string{"line 2: ", "field 1", "finite"}},
		{name: "bare quote", in: "1,2,a\n3,4\"x,b\n", f: data.CSV{},
			subs: []string{"line 2: "}},
		{name: "unclosed quote", in: "1,2,a\n3,4,\"b\n", f: data.CSV{},
			subs: []string{"line "}},
		{name: "line longer than MaxLine", in: "1,2,a\n1,2,b\n111,22,c\n", f: data.CSV{MaxLine: 6},
			subs: []string{"line 3: ", "longer than 6 bytes"}},
		{name: "line of MaxLine+1 bytes", in: "1,2,a\n1,2,ab\n", f: data.CSV{MaxLine: 5},
			subs: []string{"line 2: ", "longer than 5 bytes"}},
		{name: "line of MaxLine+1 bytes and CRLF", in: "1,2,a\r\n1,2,ab\r\n", f: data.CSV{MaxLine: 5},
			subs: []string{"line 2: ", "longer than 5 bytes"}},
		{name: "byte-order mark and line 1 beyond MaxLine", in: "\ufeff1,2,a\n", f: data.CSV{MaxLine: 7},
			subs: []string{"line 1: ", "longer than 7 bytes with the byte-order mark"}},
		{name: "quoted field joins lines beyond MaxLine", in: "1,\"2\n\",a\n", f: data.CSV{MaxLine: 7},
			subs: []string{"line 2: ", "longer than 7 bytes with the lines from line 1"}},
		{name: "quote in a quoted field", in: "1,\"2\"3,a\n", f: data.CSV{},
			subs: []string{"line 1: ", "field 2", "quote"}},
		{name: "quote after a quoted field's end of line", in: "1,2,a\n3,\"4\n5\"x,b\n", f: data.CSV{},
			subs: []string{"line 3: ", "field 2", "quote"}},
		{name: "NaN label", in: "1,2\n3,NaN\n", f: data.CSV{},
			subs: []string{"line 2: ", "field 2", `the label "NaN" is not a finite number`}},
		{name: "infinite label first", in: "+inf,2\n3,1\n", f: data.CSV{Label: "first"},
			subs: []string{"line 1: ", "field 1", `"+inf"`, "finite"}},
		{name: "label beyond float64", in: "1,2\n3,-1e999\n", f: data.CSV{},
			subs: []string{"line 2: ", "field 2", `"-1e999"`, "finite"}},
		{name: "delimiter an end of line", in: "1,2\n", f: data.CSV{Comma: '\n'}, subs: []string{"delimiter"}},
		{name: "delimiter not a character", in: "1,2\n", f: data.CSV{Comma: utf8.MaxRune + 1}, subs: []string{"delimiter"}},
		{name: "no rows", in: "", f: data.CSV{}, subs: []string{"no rows"}},
		{name: "blank lines only", in: "\n\r\n\n", f: data.CSV{}, subs: []string{"no rows"}},
		{name: "header only", in: "x,y,c\n", f: data.CSV{Header: true}, subs: []string{"no rows"}},
		{name: "no feature columns", in: "a\nb\n", f: data.CSV{}, subs: []string{"line 1: ", "no feature"}},
		{name: "bad delimiter", in: "1,2\n", f: data.CSV{Comma: '"'}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.f.Read(strings.NewReader(tc.in))
			if s != nil {
				t.Errorf("a Set with the error %v", err)
			}
			checkReadErr(t, err, tc.subs...)
			for _, n := range tc.not {
				if err != nil && strings.Contains(err.Error(), n) {
					t.Errorf("error %q holds %q", err, n)
				}
			}
		})
	}
}

// idxFile returns an IDX file of unsigned bytes of the dimensions dims,
// holding b, which need not be as long as dims say.
func idxFile(dims []uint32, b []byte) []byte {
	out := []byte{0, 0, 8, byte(len(dims))}
	for _, d := range dims {
		out = binary.BigEndian.AppendUint32(out, d)
	}
	return append(out, b...)
}

func TestIDXRead(t *testing.T) {
	// Three 2×2 images, whose pixels are multiples of 51: 51k/255 is the
	// float64 nearest k/5, as the division is correctly rounded.
	images := idxFile([]uint32{3, 2, 2}, []byte{
		0, 51, 102, 153,
		204, 255, 0, 0,
		255, 255, 51, 0,
	})
	labels := idxFile([]uint32{3}, []byte{7, 0, 7})
	want := [][]float64{{0, 0.2, 0.4, 0.6}, {0.8, 1, 0, 0}, {1, 1, 0.2, 0}}
	for _, gz := range []bool{false, true} {
		im, lb := images, labels
		if gz {
			im, lb = gzipped(t, im), gzipped(t, lb)
		}
		s, err := data.IDX{}.Read(bytes.NewReader(im), bytes.NewReader(lb))
		if err != nil {
			t.Fatalf("gzip %v: %v", gz, err)
		}
		if _, ok := s.X.(*mat.Dense); !ok {
			t.Fatalf("X is a %T, want a *mat.Dense", s.X)
		}
		if got := dense(s.X); !sameRows(got, want) {
			t.Errorf("gzip %v: rows %v, want %v", gz, got, want)
		}
		if !slices.Equal(s.Y, []float64{1, 0, 1}) || !slices.Equal(s.Classes, []string{"0", "7"}) {
			t.Errorf("gzip %v: Y %v, Classes %q; want [1 0 1], [0 7]", gz, s.Y, s.Classes)
		}

		s, err = data.IDX{}.Read(bytes.NewReader(im), nil)
		if err != nil {
			t.Fatalf("gzip %v, no labels: %v", gz, err)
		}
		if got := dense(s.X); !sameRows(got, want) || s.Y != nil || s.Classes != nil {
			t.Errorf("gzip %v, no labels: rows %v, Y %v, Classes %q; want %v, nil, nil", gz, got, s.Y, s.Classes, want)
		}
	}

	// The ten digits as fixed classes: a label is its class.
	digits := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
	s, err := data.IDX{Classes: digits}.Read(bytes.NewReader(images), bytes.NewReader(labels))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Y, []float64{7, 0, 7}) || !slices.Equal(s.Classes, digits) {
		t.Errorf("fixed classes: Y %v, Classes %q; want [7 0 7], the digits", s.Y, s.Classes)
	}

	// One dimension beyond the count: rows of 3 pixels.
	s, err = data.IDX{}.Read(bytes.NewReader(idxFile([]uint32{2, 3}, []byte{0, 255, 0, 255, 0, 255})), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := dense(s.X); !sameRows(got, [][]float64{{0, 1, 0}, {1, 0, 1}}) {
		t.Errorf("2×3 images: %v", got)
	}
}

func TestIDXReadErrors(t *testing.T) {
	images := idxFile([]uint32{3, 2, 2}, make([]byte, 12))
	labels := idxFile([]uint32{3}, []byte{1, 2, 3})
	for _, tc := range []struct {
		name           string
		images, labels []byte
		subs           []string
	}{
		{"more labels", images, idxFile([]uint32{4}, []byte{1, 2, 3, 4}), []string{"labels: ", "4 labels", "want 3"}},
		{"fewer labels", images, idxFile([]uint32{2}, []byte{1, 2}), []string{"labels: ", "2 labels", "want 3"}},
		{"labels of two dimensions", images, idxFile([]uint32{3, 1}, []byte{1, 2, 3}), []string{"labels: ", "2 dimensions", "want 1"}},
		{"images shorter than the header", idxFile([]uint32{3, 2, 2}, make([]byte, 11)), labels, []string{"images: ", "11 bytes", "want 12"}},
		{"labels shorter than the header", images, idxFile([]uint32{3}, []byte{1, 2}), []string{"labels: ", "2 bytes", "want 3"}},
		{"no header", nil, labels, []string{"images: ", "magic"}},
		{"not IDX", []byte("P5\n28 28\n255\n"), labels, []string{"images: ", "not an IDX file"}},
		{"not bytes", append([]byte{0, 0, 0x0d, 1}, images[4:]...), labels, []string{"images: ", "0x0d"}},
		{"no dimensions", []byte{0, 0, 8, 0}, labels, []string{"images: ", "no dimensions"}},
		{"short dimensions", []byte{0, 0, 8, 3, 0, 0, 0, 3, 0, 0}, labels, []string{"images: ", "dimension"}},
		{"one dimension", idxFile([]uint32{3}, []byte{1, 2, 3}), labels, []string{"images: ", "1 dimensions"}},
		{"no images", idxFile([]uint32{0, 2, 2}, nil), idxFile([]uint32{0}, nil), []string{"images: ", "no images"}},
		{"images of no pixels", idxFile([]uint32{3, 0}, nil), labels, []string{"images: ", "no pixels"}},
		{"dimensions too large", idxFile([]uint32{1 << 24, 1 << 24, 1 << 24}, nil), labels, []string{"images: ", "dimension 2", "larger than"}},
		{"broken gzip", []byte("\x1f\x8b\x08garbage"), labels, []string{"images: "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := data.IDX{}.Read(bytes.NewReader(tc.images), bytes.NewReader(tc.labels))
			if s != nil {
				t.Errorf("a Set with the error %v", err)
			}
			checkReadErr(t, err, tc.subs...)
		})
	}
}

// TestIDXShortOfItsHeader reads an IDX file whose header claims 2^28
// bytes, which fit in the memory, and that holds about 3 MiB: the reader
// must refuse it having allocated in proportion to the 3 MiB, not to the
// header's claim. A claim of 2^40 bytes, 9 TiB with their values, is
// refused before any is read.
func TestIDXShortOfItsHeader(t *testing.T) {
	const present = 3<<20 + 12345
	src := &source{prefix: string(idxFile([]uint32{1 << 14, 1 << 14}, nil)), n: 12 + present}
	var err error
	alloc := allocated(func() { _, err = data.IDX{}.Read(src, nil) })
	checkReadErr(t, err, "images: ", fmt.Sprint(present), fmt.Sprint(1<<28))
	// A buffer that doubles as it takes the bytes in allocates less than
	// twice its last size, which is less than twice the bytes: four
	// times the bytes. The race detector's build allocates each grown
	// buffer twice, as a temporary and as its copy: eight times the
	// bytes, and 1 MiB for the rest, where the header asks for 2^6
	// times as much.
	if alloc > 8*present+1<<20 {
		t.Errorf("%d bytes allocated to read %d bytes of an IDX file", alloc, present)
	}

	src = &source{prefix: string(idxFile([]uint32{1 << 20, 1 << 20}, nil)), n: 12 + present}
	_, err = data.IDX{}.Read(src, nil)
	checkReadErr(t, err, "images: ", fmt.Sprint(1<<40), "bytes that the header gives")
	if !errors.Is(err, perceptron.ErrTooLarge) {
		t.Errorf("error %q is not of kind ErrTooLarge", err)
	}
	if src.read > 4096 {
		t.Errorf("%d bytes read of a file whose header asks for 2^40", src.read)
	}
}

// TestIDXErrorShort checks that an IDX header of many dimensions gives an
// error of fewer than maxErr bytes, as every error of the readers.
func TestIDXErrorShort(t *testing.T) {
	ones := make([]uint32, 250)
	for i := range ones {
		ones[i] = 1
	}
	images := idxFile([]uint32{1, 1}, []byte{9})
	for _, tc := range []struct {
		name           string
		images, labels []byte
	}{
		{"labels of 250 dimensions", images, idxFile(ones, []byte{3})},
		{"images too large after 246 dimensions", idxFile(append(ones[:246:246], 1<<16, 1<<16, 1<<16, 1<<16), nil), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var labels io.Reader
			if tc.labels != nil {
				labels = bytes.NewReader(tc.labels)
			}
			_, err := data.IDX{}.Read(bytes.NewReader(tc.images), labels)
			checkReadErr(t, err)
		})
	}
}

// TestReadFinite checks that the readers keep the largest and the
// smallest float64 values, and read an underflow as the zero it rounds to.
func TestReadFinite(t *testing.T) {
	s, err := data.CSV{Label: "none"}.Read(strings.NewReader("1.7976931348623157e308,-1.7976931348623157e308,5e-324,1e-400\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dense(s.X)[0], []float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 0}; !slices.Equal(got, want) {
		t.Errorf("CSV: %v, want %v", got, want)
	}
	s, err = data.LIBSVM{}.Read(strings.NewReader("1 1:1.7976931348623157e308 2:5e-324 3:1e-400\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dense(s.X)[0], []float64{math.MaxFloat64, math.SmallestNonzeroFloat64, 0}; !slices.Equal(got, want) {
		t.Errorf("LIBSVM: %v, want %v", got, want)
	}
	if nnz := s.X.(*perceptron.CSR).NNZ(); nnz != 2 {
		t.Errorf("LIBSVM: %d stored values, want 2: an underflow to 0 is a zero", nnz)
	}
}

// TestNilReaders checks that a reader given no io.Reader says so, rather
// than panicking.
func TestNilReaders(t *testing.T) {
	_, err := data.LIBSVM{}.Read(nil)
	checkReadErr(t, err, "io.Reader is nil")
	_, err = data.CSV{}.Read(nil)
	checkReadErr(t, err, "io.Reader is nil")
	_, err = data.IDX{}.Read(nil, nil)
	checkReadErr(t, err, "images: ", "io.Reader is nil")
}

// TestMeaningKept checks that data whose meaning a reader would change are
// refused, as issue 47 found them taken: a byte-order mark after the start
// of the text, which made the label -1 a text and so every label a text; a
// line of a NUL byte, which made a class of it; values and labels in Go's
// syntax of numbers, which the package's grammar of numbers leaves out;
// and bytes after the data of an IDX file.
func TestMeaningKept(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func() error
		subs []string
	}{
		{"LIBSVM byte-order mark on line 3", func() error {
			_, err := data.LIBSVM{}.Read(strings.NewReader("1 1:1\n-1 2:1\n\ufeff-1 1:2\n1 2:2\n"))
			return err
		}, []string{"line 3: ", "byte-order mark"}},
		{"LIBSVM byte-order mark in a label", func() error {
			_, err := data.LIBSVM{}.Read(strings.NewReader("1 1:1\n-\ufeff1 2:1\n"))
			return err
		}, []string{"line 2: ", "U+FEFF"}},
		{"CSV byte-order mark on line 2", func() error {
			_, err := data.CSV{}.Read(strings.NewReader("1,a\n\ufeff2,b\n"))
			return err
		}, []string{"line 2: ", "byte-order mark"}},
		{"Text byte-order mark on line 2", func() error {
			_, err := data.Text{}.Read(strings.NewReader("__label__a x\n\ufeff__label__b y\n"))
			return err
		}, []string{"line 2: ", "byte-order mark"}},
		{"Text byte-order mark in a label", func() error {
			_, err := data.Text{Tab: true}.Read(strings.NewReader("a\tx\nb\ufeff\ty\n"))
			return err
		}, []string{"line 2: ", "U+FEFF"}},
		{"LIBSVM line of a NUL byte", func() error {
			_, err := data.LIBSVM{}.Read(strings.NewReader("1 1:1\n\x00\n-1 2:1\n"))
			return err
		}, []string{"line 2: ", `"\x00"`, "control character"}},
		{"CSV label of a NUL byte", func() error {
			_, err := data.CSV{}.Read(strings.NewReader("1,a\n2,\x00\n"))
			return err
		}, []string{"line 2: ", "field 2", "control character"}},
		{"LIBSVM value with underscores", func() error {
			_, err := data.LIBSVM{}.Read(strings.NewReader("1 1:1_000\n"))
			return err
		}, []string{"line 1: ", `"1_000"`, "not a number"}},
		{"LIBSVM hexadecimal value", func() error {
			_, err := data.LIBSVM{}.Read(strings.NewReader("1 1:0x1p3\n"))
			return err
		}, []string{"line 1: ", `"0x1p3"`, "not a number"}},
		{"CSV value with underscores", func() error {
			_, err := data.CSV{}.Read(strings.NewReader("1,a\n1_0,b\n"))
			return err
		}, []string{"line 2: ", "field 1", `"1_0"`, "not a number"}},
		{"CSV hexadecimal value", func() error {
			_, err := data.CSV{}.Read(strings.NewReader("0X1P-2,a\n"))
			return err
		}, []string{"line 1: ", "field 1", "not a number"}},
		{"IDX images with bytes after their data", func() error {
			_, err := data.IDX{}.Read(bytes.NewReader(append(idxFile([]uint32{2, 2}, []byte{1, 2, 3, 4}), 5)), nil)
			return err
		}, []string{"images: ", "bytes after the 4 of data"}},
		{"IDX labels with bytes after their data", func() error {
			_, err := data.IDX{}.Read(bytes.NewReader(idxFile([]uint32{2, 2}, []byte{1, 2, 3, 4})), bytes.NewReader(append(idxFile([]uint32{2}, []byte{1, 2}), 0)))
			return err
		}, []string{"labels: ", "bytes after the 2 of data"}},
		{"IDX gzipped images with bytes after their data", func() error {
			_, err := data.IDX{}.Read(bytes.NewReader(gzipped(t, append(idxFile([]uint32{1, 2}, []byte{1, 2}), 3))), nil)
			return err
		}, []string{"images: ", "bytes after the 2 of data"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkReadErr(t, tc.read(), tc.subs...)
		})
	}
	// A label in Go's syntax of numbers is a text, another class than the
	// number it would be.
	s, err := data.LIBSVM{}.Read(strings.NewReader("10 1:1\n1_0 1:1\n0xa 1:1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"0xa", "10", "1_0"}; !slices.Equal(s.Classes, want) {
		t.Errorf("Classes %q, want %q", s.Classes, want)
	}
}

// TestCSVLabelHint checks that a CSV file whose first column holds text
// labels, read with the label last, says in its error which setting names
// the label column, as issue 45 asked.
func TestCSVLabelHint(t *testing.T) {
	_, err := data.CSV{}.Read(strings.NewReader("cat,1,2\ndog,3,4\n"))
	checkReadErr(t, err, "line 1: ", "field 1", `"cat"`, "not a number", "CSV's Label first")
	_, err = data.CSV{Header: true}.Read(strings.NewReader("a,b,c\n1,x,2\n"))
	checkReadErr(t, err, "line 2: ", "field 2", `"x"`, "CSV's Label 2")
	// Not on the rows after the first, nor for a line of no number.
	_, err = data.CSV{}.Read(strings.NewReader("1,2,a\ncat,3,b\n"))
	checkReadErr(t, err, "line 2: ", "field 1")
	if strings.Contains(err.Error(), "CSV's Label") {
		t.Errorf("error %q: a hint of the label on line 2", err)
	}
	_, err = data.CSV{}.Read(strings.NewReader("a,b,c\n1,2,x\n"))
	checkReadErr(t, err, "line 1: ", "CSV's Header")
}

// TestTextReadFile checks that Text reads a path, as the other readers
// do, and that its errors start with the path.
func TestTextReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "text.txt.gz")
	if err := os.WriteFile(path, gzipped(t, []byte("__label__a x y\n__label__b z\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := data.Text{}.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := s.X.Dims(); n != 2 || !slices.Equal(s.Classes, []string{"a", "b"}) {
		t.Errorf("%d rows of classes %q, want 2 of [a b]", n, s.Classes)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("__label__a x\ny\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = data.Text{}.ReadFile(bad)
	checkReadErr(t, err, bad+": line 2: ", "no label")
	_, err = data.Text{}.ReadFile(filepath.Join(dir, "none.txt"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v, want one of fs.ErrNotExist", err)
	}
}
