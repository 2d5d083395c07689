// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bytes"
	"context"
	"errors"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// rowsOf returns the rows of X, dense or sparse, one at a time, with the
// classes y, indices into classes, if not nil, as a reader's Rows give
// them, and counts the passes over them in passes, if not nil.
func rowsOf(X mat.Matrix, y []float64, classes []string, passes *int) iter.Seq2[Row, error] {
	n, _ := X.Dims()
	return func(yield func(Row, error) bool) {
		if passes != nil {
			*passes++
		}
		for i := range n {
			row := Row{Class: -1, Line: i + 1}
			if c, ok := X.(*perceptron.CSR); ok {
				row.Ind = []int{}
				c.DoRowNonZero(i, func(_, j int, v float64) {
					row.Ind, row.Val = append(row.Ind, j), append(row.Val, v)
				})
			} else {
				row.Val = mat.Row(nil, i, X)
			}
			if y != nil {
				row.Class, row.Classes = int(y[i]), classes
			}
			if !yield(row, nil) {
				return
			}
		}
	}
}

// TestScalerRows checks that NewScalerRows and NewIDFRows give the bits of
// NewScaler and NewIDF of the rows in memory, on columns of every
// magnitude, dense and sparse, with columns beyond those of the rows.
func TestScalerRows(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 7))
	for name, X := range scalingSets(rnd) {
		_, d := X.Dims()
		want, werr := NewScaler(X)
		got, err := NewScalerRows(rowsOf(X, nil, nil, nil), d)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("%s: error %v, want %v", name, err, werr)
		}
		if err == nil && (!sameBits(got.Mean, want.Mean) || !sameBits(got.Scale, want.Scale)) {
			t.Fatalf("%s: Mean %v\nScale %v\nwant %v\n%v", name, got.Mean, got.Scale, want.Mean, want.Scale)
		}
		wantIDF, werr := NewIDF(X)
		gotIDF, err := NewIDFRows(rowsOf(X, nil, nil, nil), d)
		if err != nil || werr != nil || !sameBits(gotIDF.Scale, wantIDF.Scale) {
			t.Fatalf("%s: IDF %v, %v, want %v, %v", name, gotIDF, err, wantIDF, werr)
		}
	}
	// The columns of sparse rows are the largest of theirs and cols.
	X, _ := perceptron.NewCSR(2, 5, []int{0, 1, 2}, []int{0, 2}, []float64{2, 3})
	for _, cols := range []int{0, 5} {
		s, err := NewScalerRows(rowsOf(X, nil, nil, nil), cols)
		idf, err2 := NewIDFRows(rowsOf(X, nil, nil, nil), cols)
		if err != nil || err2 != nil || len(s.Scale) != max(cols, 3) || len(idf.Scale) != max(cols, 3) || s.Mean != nil {
			t.Errorf("cols %d: %v %v, %v %v", cols, s, err, idf, err2)
		}
	}
	dense := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	if _, err := NewScalerRows(rowsOf(dense, nil, nil, nil), 4); err == nil || !strings.Contains(err.Error(), "a row of 3 values, want 4") {
		t.Errorf("dense rows of 3 columns, not 4: %v", err)
	}
}

// TestSortClasses checks that SortClasses gives the classes of Read, and
// the class of each label.
func TestSortClasses(t *testing.T) {
	for _, labels := range [][]string{
		{"3", "1", "10", "1.0", "2"},
		{"b", "a", "10", "c"},
		{"-1", "+1"},
	} {
		var b strings.Builder
		for _, l := range labels {
			b.WriteString(l + " 1:1\n")
		}
		set, err := LIBSVM{}.Read(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		classes, class, err := SortClasses(labels)
		if err != nil || !slices.Equal(classes, set.Classes) {
			t.Errorf("%q: %q, %v, want %q", labels, classes, err, set.Classes)
		}
		for i, c := range class {
			if float64(c) != set.Y[i] {
				t.Errorf("%q: label %d of class %d, want %v", labels, i, c, set.Y[i])
			}
		}
	}
	if _, _, err := SortClasses([]string{"a", "b\tc"}); err == nil {
		t.Error("a label of a tab: no error")
	}
}

// streamData returns n rows of d features of k classes, far from
// standardised, dense and the same rows sparse, with about a third of
// their values zero.
func streamData(rnd *rand.Rand, n, d, k int) (dense, sparse *Set) {
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		y[i] = float64(rnd.IntN(k))
		for j := range d {
			if rnd.IntN(3) > 0 {
				X.Set(i, j, 50+10*rnd.NormFloat64()+5*y[i]*float64(j%3))
			}
		}
	}
	classes := []string{"alpha", "beta", "gamma", "delta"}[:k]
	return &Set{X: X, Y: y, Classes: classes}, &Set{X: sparseOfDense(X), Y: y, Classes: classes}
}

// TestFitStream checks that FitStream, in the order of the rows, makes the
// Model that Fit makes of them in memory, to the byte of its file, with
// the steps of text and of dense rows, the weights of rows, every
// classifier that trains on a stream, and the shares of the averaged
// perceptron in memory and in a directory.
func TestFitStream(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 8))
	dense, sparse := streamData(rnd, 3000, 6, 4)
	defer func(v int) { chunkValues = v }(chunkValues)
	chunkValues = 1000
	stop := &perceptron.Stop{}
	for _, c := range []struct {
		name string
		make func() perceptron.Scorer
	}{
		{"perceptron", func() perceptron.Scorer { return &perceptron.Perceptron{Stop: stop} }},
		{"averaged", func() perceptron.Scorer { return &perceptron.Averaged{Stop: stop, Epochs: 20} }},
		{"voted", func() perceptron.Scorer { return &perceptron.Voted{Epochs: 3, Labels: []float64{0, 1, 2, 3}} }},
		{"ovr", func() perceptron.Scorer {
			return &perceptron.OneVsRest{New: func() perceptron.Scorer { return &perceptron.Averaged{Epochs: 5} }}
		}},
	} {
		for _, set := range []*Set{dense, sparse} {
			weights := make([]float64, len(set.Y))
			for i := range weights {
				weights[i] = float64(i%3) / 2
			}
			for _, weighed := range []bool{false, true} {
				m := Model{Classifier: c.make(), Normalize: true}
				var err error
				if set == dense {
					m.Scaler, err = NewScaler(set.X)
				} else {
					m.Scaler, err = NewIDF(set.X)
				}
				if err != nil {
					t.Fatal(err)
				}
				s := set
				if weighed {
					s = &Set{X: set.X, Y: set.Y, Classes: set.Classes, Weights: weights}
				}
				if err := m.Fit(s); err != nil {
					t.Fatal(err)
				}
				var want bytes.Buffer
				m.WriteTo(&want)

				str := Model{Classifier: c.make(), Scaler: m.Scaler, Normalize: true}
				passes := 0
				st := Stream{Rows: rowsOf(set.X, set.Y, set.Classes, &passes)}
				if weighed {
					rows := st.Rows
					st.Rows = func(yield func(Row, error) bool) {
						i := 0
						for row, err := range rows {
							row.Weight = weights[i]
							i++
							if !yield(row, err) {
								return
							}
						}
					}
					st.Weighted, st.Dir = true, t.TempDir()
				}
				if err := str.FitStream(context.Background(), st); err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				var got bytes.Buffer
				str.WriteTo(&got)
				if got.String() != want.String() {
					t.Fatalf("%s, weighed %v: FitStream saves\n%.2000s\nFit\n%.2000s", c.name, weighed, got.String(), want.String())
				}
				if passes < 2 {
					t.Errorf("%s: %d passes", c.name, passes)
				}
			}
		}
	}
}

// FitStream refuses what Fit refuses, and what a stream cannot train:
// rows without labels, weights not one for each row, a Pocket.
func TestFitStreamErrors(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 9))
	dense, _ := streamData(rnd, 100, 3, 2)
	rows := rowsOf(dense.X, dense.Y, dense.Classes, nil)
	for _, c := range []struct {
		m    Model
		s    Stream
		want string
	}{
		{Model{Classifier: &perceptron.Pocket{}}, Stream{Rows: rows}, "Pocket trains on rows in memory"},
		{Model{Classifier: &perceptron.Perceptron{}}, Stream{Rows: rowsOf(dense.X, nil, nil, nil)}, "line 1: the row has no label to train on"},
		{Model{Classifier: &perceptron.Perceptron{}}, Stream{Rows: rows, Weighted: true}, ""},
		{Model{Classifier: &perceptron.Perceptron{}}, Stream{Rows: func(yield func(Row, error) bool) {
			for row, err := range rows {
				row.Weight = -1
				if !yield(row, err) {
					return
				}
			}
		}, Weighted: true}, "line 1: the weight of the row is -1"},
		{Model{Classifier: &perceptron.Perceptron{}}, Stream{}, "the Stream has no Rows"},
		{Model{}, Stream{Rows: rows}, "no Classifier"},
		{Model{Classifier: &perceptron.Perceptron{}, Scaler: &Scaler{Scale: []float64{1, 1}}}, Stream{Rows: rows}, "a row of 3 values, want 2"},
	} {
		err := c.m.FitStream(context.Background(), c.s)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v: %v, want %q", c.want, err, c.want)
		}
	}
	// A row's error ends the stream.
	bad := func(yield func(Row, error) bool) {
		for row, err := range rows {
			if row.Line == 50 {
				yield(Row{}, errors.New("line 50: bad"))
				return
			}
			if !yield(row, err) {
				return
			}
		}
	}
	m := Model{Classifier: &perceptron.Averaged{}}
	if err := m.FitStream(context.Background(), Stream{Rows: bad}); err == nil || !strings.Contains(err.Error(), "line 50: bad") || m.Classes != nil {
		t.Errorf("a bad row: %v, classes %v", err, m.Classes)
	}
}
