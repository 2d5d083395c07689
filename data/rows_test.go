// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"bytes"
	"errors"
	"io"
	"iter"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// streamed is what a sequence of rows gave: each row's columns, nil for a
// dense row, and values, and its label, the values left out of all, and
// the error that ended it, if any.
type streamed struct {
	ind     [][]int
	val     [][]float64
	labels  []string
	dropped int
	err     error
}

// collect ranges over rows, and holds copies of them.
func collect(t *testing.T, rows iter.Seq2[data.Row, error]) streamed {
	t.Helper()
	var s streamed
	for row, err := range rows {
		if err != nil {
			if s.err != nil {
				t.Fatalf("a second error, %v, after %v", err, s.err)
			}
			s.err = err
			continue
		}
		n := len(s.val)
		switch {
		case s.err != nil:
			t.Fatalf("a row after the error %v", s.err)
		case row.Ind != nil && len(row.Ind) != len(row.Val):
			t.Fatalf("row %d: %d columns, %d values", n, len(row.Ind), len(row.Val))
		case row.Class < 0 && row.Classes != nil:
			t.Fatalf("row %d: class %d, and classes %q", n, row.Class, row.Classes)
		case row.Class >= len(row.Classes):
			t.Fatalf("row %d: class %d of %d", n, row.Class, len(row.Classes))
		}
		s.ind = append(s.ind, slices.Clone(row.Ind))
		s.val = append(s.val, slices.Clone(row.Val))
		label := ""
		if row.Class >= 0 {
			label = row.Classes[row.Class]
		}
		s.labels = append(s.labels, label)
		s.dropped += row.Dropped
	}
	return s
}

// checkStream fails t unless the rows of a sequence are those of the Set
// that Read returned, or both ended in the same error, or, for the two
// files of IDX, in errors. Read of IDX reads the images, then the labels,
// where the rows read both at once, which finds another error first.
func checkStream(t *testing.T, set *data.Set, err error, s streamed) {
	t.Helper()
	if err != nil || s.err != nil {
		// Read holds the rows, and the rows of a header that asks for more
		// than the memory left make an error of Read's, where the rows one
		// at a time find that the file holds fewer; both check the memory
		// of a row.
		tooLarge := errors.Is(err, perceptron.ErrTooLarge) || errors.Is(s.err, perceptron.ErrTooLarge)
		idx := err != nil && (strings.HasPrefix(err.Error(), "images: ") || strings.HasPrefix(err.Error(), "labels: "))
		if err == nil || s.err == nil || err.Error() != s.err.Error() && !tooLarge && !idx {
			t.Fatalf("Read's error %v, the rows' %v", err, s.err)
		}
		return
	}
	n, _ := set.X.Dims()
	if len(s.val) != n || s.dropped != set.Dropped {
		t.Fatalf("%d rows, %d values dropped, Read %d and %d", len(s.val), s.dropped, n, set.Dropped)
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for i := range n {
		switch X := set.X.(type) {
		case *perceptron.CSR:
			var ind []int
			var val []float64
			X.DoRowNonZero(i, func(_, j int, v float64) { ind, val = append(ind, j), append(val, v) })
			if s.ind[i] == nil || !slices.Equal(s.ind[i], ind) || !slices.EqualFunc(s.val[i], val, same) {
				t.Fatalf("row %d: %v at %v, Read %v at %v", i, s.val[i], s.ind[i], val, ind)
			}
		case *mat.Dense:
			if want := X.RawRowView(i); s.ind[i] != nil || !slices.EqualFunc(s.val[i], want, same) {
				t.Fatalf("row %d: %v at %v, Read %v", i, s.val[i], s.ind[i], want)
			}
		}
		label := ""
		if set.Y != nil {
			label = set.Classes[int(set.Y[i])]
		}
		if l := s.labels[i]; l != label && !sameNumber(l, label) {
			t.Fatalf("row %d: label %q, Read %q", i, l, label)
		}
	}
}

// TestRowsAsRead checks that the rows of each reader, one at a time, are
// those that Read reads, with their labels, or end in its error, on plain
// and gzipped text, and that they are read again from a bytes.Reader.
func TestRowsAsRead(t *testing.T) {
	libsvm := "1 1:0.5 3:2 # c\n\n-1 qid:3 2:1e-3 4:0\n2 7:1\n+1 1:-3\n"
	csv := "x,y,c\n1,2,a\n3,\" 4 \",b\n5,6,\"a\"\n"
	text := "__label__b Hello world\n\n__label__a the end of it.\r\n__label__b again\n"
	images := idxFile([]uint32{3, 2, 2}, []byte{0, 51, 102, 153, 204, 255, 0, 0, 255, 255, 51, 0})
	labels := idxFile([]uint32{3}, []byte{7, 0, 7})
	type reader struct {
		name string
		in   []byte
		read func(r io.Reader) (*data.Set, error)
		rows func(r io.Reader) iter.Seq2[data.Row, error]
	}
	var readers []reader
	for _, tc := range []struct {
		name, in string
	}{
		{"good", ""},
		{"bad value", "1 1:x\n"},
		{"bad label", "\x00\n"},
		{"nan label", "nan 1:1\n"},
		{"text label", "a 1:1\n"},
		{"empty", "# nothing\n"},
	} {
		in := libsvm + tc.in
		if tc.name == "empty" {
			in = tc.in
		}
		for _, f := range []data.LIBSVM{{}, {Cols: 3, Classes: []string{"2", "1"}}} {
			readers = append(readers, reader{"LIBSVM " + tc.name, []byte(in), f.Read, f.Rows})
		}
	}
	for _, in := range []string{csv, csv + "7,x,a\n", csv + "7,8\n", "x,y,c\n"} {
		for _, f := range []data.CSV{{Header: true}, {Header: true, Label: "first", Classes: []string{"5"}}, {Header: true, Label: "none"}} {
			readers = append(readers, reader{"CSV", []byte(in), f.Read, f.Rows})
		}
	}
	for _, in := range []string{text, text + "no label\n", "\n"} {
		for _, f := range []data.Text{{}, {Hashing: data.Hashing{NGrams: 2, Bits: 4}, Classes: []string{"a"}}} {
			readers = append(readers, reader{"Text", []byte(in), f.Read, f.Rows})
		}
	}
	for _, lb := range [][]byte{labels, nil, idxFile([]uint32{2}, []byte{1, 2})} {
		f := data.IDX{}
		var lr func() io.Reader
		if lb != nil {
			lr = func() io.Reader { return bytes.NewReader(lb) }
		} else {
			lr = func() io.Reader { return nil }
		}
		readers = append(readers, reader{"IDX", images,
			func(r io.Reader) (*data.Set, error) { return f.Read(r, lr()) },
			func(r io.Reader) iter.Seq2[data.Row, error] { return f.Rows(r, lr()) }})
	}
	for _, r := range readers {
		for _, gz := range []bool{false, true} {
			in := r.in
			if gz {
				in = gzipped(t, in)
			}
			set, err := r.read(bytes.NewReader(in))
			rows := r.rows(bytes.NewReader(in))
			checkStream(t, set, err, collect(t, rows))
			// Again, from the start.
			checkStream(t, set, err, collect(t, rows))
		}
	}
}

// TestRowsOnce checks that the rows of a reader that is no io.Seeker are
// read once, and a second range says so.
func TestRowsOnce(t *testing.T) {
	r := io.MultiReader(strings.NewReader("1 1:1\n2 2:2\n"))
	rows := data.LIBSVM{}.Rows(r)
	if s := collect(t, rows); s.err != nil || len(s.val) != 2 {
		t.Fatalf("%d rows, error %v; want 2, nil", len(s.val), s.err)
	}
	s := collect(t, rows)
	if s.err == nil || len(s.val) != 0 || !strings.Contains(s.err.Error(), "read once") {
		t.Fatalf("again: %d rows, error %v; want an error that they are read once", len(s.val), s.err)
	}
}

// TestRowsBreak checks that a range that stops early leaves the rows to be
// read again from the start.
func TestRowsBreak(t *testing.T) {
	rows := data.CSV{}.Rows(strings.NewReader("1,a\n2,b\n3,a\n"))
	for row, err := range rows {
		if err != nil || row.Val[0] != 1 {
			t.Fatalf("first row %v, error %v", row.Val, err)
		}
		break
	}
	if s := collect(t, rows); s.err != nil || len(s.val) != 3 {
		t.Fatalf("%d rows, error %v; want 3, nil", len(s.val), s.err)
	}
}

// TestRowsClasses checks that the classes of the rows grow in the order
// of first appearance after the reader's, where Read sorts them.
func TestRowsClasses(t *testing.T) {
	var got []string
	var classes []int
	for row, err := range (data.LIBSVM{Classes: []string{"5"}}).Rows(strings.NewReader("3 1:1\n5.0 1:1\n1 1:1\n3 1:1\n")) {
		if err != nil {
			t.Fatal(err)
		}
		got = row.Classes
		classes = append(classes, row.Class)
	}
	if want := []string{"5", "3", "1"}; !slices.Equal(got, want) || !slices.Equal(classes, []int{1, 0, 2, 1}) {
		t.Errorf("classes %q, rows' %v; want %q, [1 0 2 1]", got, classes, want)
	}
}

// TestRowsMemory streams 200,000 rows of each reader of text, and checks
// that they allocate little, whatever the rows: a row's values and the
// reader's buffers.
func TestRowsMemory(t *testing.T) {
	const n = 200000
	for _, tc := range []struct {
		name string
		line string
		rows func(io.Reader) iter.Seq2[data.Row, error]
	}{
		{"LIBSVM", "1 1:0.5 3:2 7:1\n", data.LIBSVM{}.Rows},
		{"CSV", "1,2.5,3,a\n", data.CSV{}.Rows},
		{"Text", "__label__a some words and more words\n", data.Text{Hashing: data.Hashing{NGrams: 2, Bits: 16}}.Rows},
	} {
		t.Run(tc.name, func(t *testing.T) {
			count := 0
			alloc := allocated(func() {
				for _, err := range tc.rows(&repeated{line: tc.line, n: n}) {
					if err != nil {
						t.Fatal(err)
					}
					count++
				}
			})
			if count != n {
				t.Fatalf("%d rows, want %d", count, n)
			}
			if alloc > 2<<20 {
				t.Errorf("%d bytes allocated for %d rows of %d bytes", alloc, n, len(tc.line))
			}
		})
	}
}
