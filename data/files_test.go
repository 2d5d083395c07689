// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// ReadFile reads a file as Read reads its bytes, gzipped or not, and puts
// the path before its errors; IDX's finds the labels beside the images by
// their name, or reads the images alone.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	svm := []byte("1 1:1 3:2\n-1 2:1\n")
	for _, path := range []string{write("d.svm", svm), write("d.svm.gz", gzipped(t, svm))} {
		s, err := data.LIBSVM{}.ReadFile(path)
		if err != nil || !slices.Equal(s.Classes, []string{"-1", "1"}) || s.X.(*perceptron.CSR).NNZ() != 3 {
			t.Errorf("%s: %v", path, err)
		}
	}
	if s, err := (data.CSV{Header: true}).ReadFile(write("d.csv", []byte("a,b,y\n1,2,x\n3,4,z\n"))); err != nil || !slices.Equal(s.Features, []string{"a", "b"}) {
		t.Errorf("CSV: %v", err)
	}
	bad := write("bad.svm", []byte("1 1:1\n1 x\n"))
	if _, err := (data.LIBSVM{}).ReadFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": line 2: ") {
		t.Errorf("the error %v does not start with the path and the line", err)
	}
	if _, err := (data.CSV{}).ReadFile(filepath.Join(dir, "none.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}

	images := idxFile([]uint32{2, 1, 2}, []byte{0, 255, 255, 0})
	im := write("train-images-idx3-ubyte.gz", gzipped(t, images))
	write("train-labels-idx1-ubyte.gz", gzipped(t, idxFile([]uint32{2}, []byte{3, 1})))
	other := write("other-labels", idxFile([]uint32{2}, []byte{5, 5}))
	alone := write("t10k-images.idx3-ubyte", images)
	for _, c := range []struct {
		images, labels string
		classes        []string
	}{
		{im, "", []string{"1", "3"}},
		{im, other, []string{"5"}},
		{alone, "", nil},
	} {
		s, err := data.IDX{}.ReadFile(c.images, c.labels)
		if err != nil || !slices.Equal(s.Classes, c.classes) || (s.Y == nil) != (c.classes == nil) {
			t.Errorf("%s, %q: %v, %v", c.images, c.labels, s, err)
		}
	}
	if got, want := (data.IDX{}).LabelsFile(alone), filepath.Join(dir, "t10k-labels.idx1-ubyte"); got != want {
		t.Errorf("LabelsFile = %q, want %q", got, want)
	}
	if got := (data.IDX{}).LabelsFile(filepath.Join(dir, "pixels.bin")); got != "" {
		t.Errorf("LabelsFile of no images = %q", got)
	}
	short := write("short-labels", idxFile([]uint32{1}, []byte{1}))
	if _, err := (data.IDX{}).ReadFile(im, short); err == nil || !strings.HasPrefix(err.Error(), short+": 1 labels, want 2") {
		t.Errorf("the error %v does not start with the labels' path", err)
	}
}

// Rows cuts a Set into ranges of rows: dense rows in place, sparse rows
// copied, with their labels, as Subset gives them.
func TestSetRows(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	dense, sparse := modelData(rnd, 50, 4, 3)
	for _, s := range []*data.Set{dense, sparse} {
		for _, r := range [][2]int{{0, 50}, {10, 20}, {49, 50}, {7, 7}} {
			got, err := s.Rows(r[0], r[1])
			if err != nil {
				t.Fatal(err)
			}
			idx := make([]int, r[1]-r[0])
			for k := range idx {
				idx[k] = r[0] + k
			}
			want, _ := s.Subset(idx)
			if !mat.Equal(got.X, want.X) || !slices.Equal(got.Y, want.Y) || !slices.Equal(got.Classes, s.Classes) {
				t.Errorf("%T rows %v: not those of Subset", s.X, r)
			}
			if _, ok := got.X.(*perceptron.CSR); ok != (s == sparse) {
				t.Errorf("rows of a %T are a %T", s.X, got.X)
			}
		}
	}
	b, _ := dense.Rows(10, 20)
	b.X.(*mat.Dense).Set(0, 0, -7)
	if dense.X.At(10, 0) != -7 {
		t.Error("Rows copies dense rows")
	}
	for _, r := range [][2]int{{-1, 2}, {3, 2}, {0, 51}} {
		if _, err := dense.Rows(r[0], r[1]); err == nil || !strings.Contains(err.Error(), "want a range of the 50 rows") {
			t.Errorf("rows %v: %v", r, err)
		}
	}
}

func TestAccuracy(t *testing.T) {
	for _, c := range []struct {
		y, pred []float64
		want    float64
	}{
		{[]float64{0, 1, 2, 1}, []float64{0, 1, 1, 1}, 0.75},
		{[]float64{0, 1}, []float64{1, 0}, 0},
		{nil, nil, 0},
	} {
		if got := data.Accuracy(c.y, c.pred); got != c.want {
			t.Errorf("Accuracy(%v, %v) = %v, want %v", c.y, c.pred, got, c.want)
		}
		if c.y != nil {
			r, _ := data.NewReport([]string{"a", "b", "c"}, c.y, c.pred)
			if acc, _, _ := r.Accuracy(); acc != c.want {
				t.Errorf("Report's Accuracy %v", acc)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic on lengths that differ")
		}
	}()
	data.Accuracy([]float64{1}, nil)
}

// Learn on mini-batches of a Set learns what the classifier's Learn learns
// of the transformed rows, names the classes, and goes on from a loaded
// model with its classes, which are the only ones it takes.
func TestModelLearn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 2))
	_, set := modelData(rnd, 200, 6, 3)
	sc, _ := data.NewScaler(set.X)
	labels := []float64{0, 1, 2}
	m := &data.Model{Scaler: sc, Normalize: true, Classifier: &perceptron.Averaged{Labels: labels}}
	ref := &perceptron.Averaged{Labels: labels}
	for lo := 0; lo < 200; lo += 64 {
		b, err := set.Rows(lo, min(200, lo+64))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Learn(b); err != nil {
			t.Fatal(err)
		}
		Z, _ := m.Transform(b.X)
		if err := ref.Learn(Z, b.Y); err != nil {
			t.Fatal(err)
		}
	}
	w, _ := m.Classifier.(*perceptron.Averaged).Weights()
	wr, _ := ref.Weights()
	if !slices.Equal(w, wr) || !slices.Equal(m.Classes, set.Classes) || m.Features() != 6 {
		t.Fatalf("Learn in batches: classes %q", m.Classes)
	}
	// The statistics of the batches are those of the rows together.
	all := &data.Model{Classifier: &perceptron.Averaged{}}
	if err := all.Fit(set); err != nil {
		t.Fatal(err)
	}
	for _, scale := range []float64{1, 3} {
		X := mat.DenseCopyOf(set.X)
		X.Scale(scale, X)
		e1, e2 := m.CheckRows(X), all.CheckRows(X)
		if (e1 == nil) != (e2 == nil) || e1 != nil && e1.Error() != e2.Error() {
			t.Errorf("scale %v: %v, want %v", scale, e1, e2)
		}
	}

	// A loaded model goes on with its classes: rows read with them, and
	// no others.
	path := filepath.Join(t.TempDir(), "m.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	l, err := data.LoadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	X := mat.NewDense(2, 6, []float64{60, 50, 40, 60, 50, 40, 40, 50, 60, 40, 50, 60})
	next := &data.Set{X: X, Y: []float64{2, 0}, Classes: set.Classes}
	if err := l.Learn(next); err != nil {
		t.Fatal(err)
	}
	Z, _ := m.Transform(X)
	m.Classifier.(*perceptron.Averaged).Learn(Z, next.Y)
	w, _ = m.Classifier.(*perceptron.Averaged).Weights()
	wl, _ := l.Classifier.(*perceptron.Averaged).Weights()
	if !slices.Equal(w, wl) {
		t.Error("the loaded model learns otherwise")
	}
	for _, c := range []struct {
		s    *data.Set
		want string
	}{
		{&data.Set{X: X, Y: []float64{3, 0}, Classes: append(slices.Clone(set.Classes), "epsilon")}, `row 1 is of the class "epsilon", which is none of the Model's`},
		{&data.Set{X: X, Y: []float64{0, 1}, Classes: []string{"beta", "alpha"}}, `the Set's classes "beta", "alpha", want the Model's`},
		{&data.Set{X: X}, "Learn needs the labels"},
	} {
		if err := l.Learn(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
	p := &data.Model{Classifier: &perceptron.Pocket{}}
	if err := p.Learn(set); err == nil || !strings.Contains(err.Error(), "has no method Learn") {
		t.Errorf("Learn of a Pocket: %v", err)
	}
}
