// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// TestErrorKinds checks that the readers' errors about a malformed text
// are of their kinds, and that errors.As gives the *perceptron.Error with
// the line and the column of the rows of the field at fault, -1 where
// none; and that the errors of sets, models and files have their kinds.
func TestErrorKinds(t *testing.T) {
	csv := func(f data.CSV, s string) error { _, err := f.Read(strings.NewReader(s)); return err }
	libsvm := func(s string) error { _, err := data.LIBSVM{}.Read(strings.NewReader(s)); return err }
	text := func(s string) error { _, err := data.Text{}.Read(strings.NewReader(s)); return err }
	idx := func(b []byte) error { _, err := data.IDX{}.Read(strings.NewReader(string(b)), nil); return err }
	fit := func(s *data.Set) error { return (&data.Model{Classifier: &perceptron.Perceptron{}}).Fit(s) }
	X := mat.NewDense(2, 1, []float64{0, 1})
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"type":"Model"`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name           string
		err            error
		kind           error
		line, row, col int
	}{
		{"a CSV's field not a number", csv(data.CSV{}, "1,2,a\n1,x,b\n"), perceptron.ErrFormat, 2, -1, 1},
		{"a CSV's field after the label", csv(data.CSV{Label: "first"}, "a,1,2\nb,3,x\n"), perceptron.ErrFormat, 2, -1, 1},
		{"a CSV's NaN", csv(data.CSV{}, "1,2,a\n3,4,b\n5,NaN,a\n"), perceptron.ErrNonFinite, 3, -1, 1},
		{"a CSV's line of too few fields", csv(data.CSV{}, "1,2,a\n1,b\n"), perceptron.ErrFormat, 2, -1, -1},
		{"a CSV's NaN label", csv(data.CSV{}, "1,2,1\n1,3,NaN\n"), perceptron.ErrNonFinite, 2, -1, -1},
		{"a CSV's open quote", csv(data.CSV{}, "1,2,a\n1,\"2,a\n"), perceptron.ErrFormat, 2, -1, -1},
		{"a CSV of no rows", csv(data.CSV{}, ""), perceptron.ErrShape, 0, -1, -1},
		{"a CSV's label column", csv(data.CSV{Label: "9"}, "1,2,a\n"), perceptron.ErrSetting, 1, -1, -1},
		{"a LIBSVM value not a number", libsvm("1 1:2\n-1 1:1 3:x\n"), perceptron.ErrFormat, 2, -1, 2},
		{"a LIBSVM infinity", libsvm("1 1:2\n-1 1:1 3:inf\n"), perceptron.ErrNonFinite, 2, -1, 2},
		{"LIBSVM's indices out of order", libsvm("1 1:2\n\n-1 4:1 3:1\n"), perceptron.ErrFormat, 3, -1, 2},
		{"a LIBSVM line of no label", libsvm("1 1:2\n1:1\n"), perceptron.ErrFormat, 2, -1, -1},
		{"a line too long", func() error { _, err := data.LIBSVM{MaxLine: 8}.Read(strings.NewReader("1 1:2 2:3 4:5\n")); return err }(), perceptron.ErrFormat, 1, -1, -1},
		{"a text of a label on some lines", text("__label__a x y\nz\n"), perceptron.ErrFormat, 2, -1, -1},
		{"a text not UTF-8", text("__label__a x y\n__label__b \xff\n"), perceptron.ErrFormat, 2, -1, -1},
		{"an IDX of no magic", idx([]byte{1, 2, 3, 4}), perceptron.ErrFormat, 0, -1, -1},
		{"a Set's class out of range", fit(&data.Set{X: X, Y: []float64{0, 2}, Classes: []string{"a", "b"}}), perceptron.ErrLabels, 0, 1, -1},
		{"a Set without labels", fit(&data.Set{X: X}), perceptron.ErrLabels, 0, -1, -1},
		{"a Set of no rows", fit(&data.Set{}), perceptron.ErrShape, 0, -1, -1},
		{"a malformed model file", func() error { _, err := data.LoadModel(bad); return err }(), perceptron.ErrFormat, 0, -1, -1},
	} {
		var e *perceptron.Error
		if !errors.Is(c.err, c.kind) || !errors.As(c.err, &e) || e.Line != c.line || e.Row != c.row || e.Col != c.col {
			t.Errorf("%s: %v (%+v), want a *perceptron.Error of kind %v at line %d, row %d, column %d", c.name, c.err, e, c.kind, c.line, c.row, c.col)
		}
	}
	// A file that cannot be opened keeps the error of os.Open.
	for _, err := range []error{
		func() error { _, err := data.CSV{}.ReadFile(filepath.Join(dir, "none.csv")); return err }(),
		func() error { _, err := data.LoadModel(filepath.Join(dir, "none.json")); return err }(),
	} {
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a file that does not exist: %v, want an error that is fs.ErrNotExist", err)
		}
	}
}

// TestStreamErrorRow checks that an error about a row of a chunk of a
// Stream beyond the first gives the row of the stream, where its message
// names the row in the chunk and the chunk's first.
func TestStreamErrorRow(t *testing.T) {
	const n, bad = 600_000, 550_001 // beyond the first chunk, of 2^19 rows of 2 values
	rows := func(yield func(data.Row, error) bool) {
		for i := range n {
			v := float64(i % 7)
			if i == bad {
				v = math.NaN()
			}
			if !yield(data.Row{Val: []float64{v, 1}, Class: i % 2, Classes: []string{"a", "b"}, Line: i + 1}, nil) {
				return
			}
		}
	}
	err := (&data.Model{Classifier: &perceptron.Perceptron{Epochs: 1}}).FitStream(context.Background(), data.Stream{Rows: rows})
	var e *perceptron.Error
	if !errors.Is(err, perceptron.ErrNonFinite) || !errors.As(err, &e) || e.Row != bad || e.Col != 0 || !strings.Contains(err.Error(), "X[25713, 0] is NaN") {
		t.Errorf("%v (%+v), want an error of kind ErrNonFinite at row %d, column 0", err, e, bad)
	}
}
