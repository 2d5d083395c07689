// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// The seed corpora of these targets are in testdata/fuzz; run one with
// go test -fuzz FuzzReadCSV ./cmd/perceptron.

// checkRead checks what a reader returned: an error that names the file,
// or rows of finite numbers, sparse rows without zeros, with one label
// each, the index of a class or of another label, of classes of distinct
// names and ascending values.
func checkRead(t *testing.T, ds *dataset, err error, name string, labels bool) {
	t.Helper()
	if err != nil {
		if !strings.HasPrefix(err.Error(), name) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("error %q does not name %s on one line", err, name)
		}
		return
	}
	n, d := ds.X.Dims()
	if n == 0 || d == 0 {
		t.Fatalf("read %d×%d rows", n, d)
	}
	if labels != (ds.y != nil) || (labels && len(ds.y) != n) {
		t.Fatalf("%d rows, %d labels", n, len(ds.y))
	}
	if labels {
		c := ds.classes
		if len(c.names) != len(c.values) || len(c.names) < 2 || !slices.IsSorted(c.values) ||
			len(slices.Compact(slices.Clone(c.values))) != len(c.values) || len(slices.Compact(slices.Sorted(slices.Values(c.names)))) != len(c.names) {
			t.Fatalf("classes %+v", c)
		}
		for _, k := range ds.y {
			if k < 0 || k >= len(c.names)+len(ds.others) {
				t.Fatalf("label index %d of %d classes and %d others", k, len(c.names), len(ds.others))
			}
		}
	}
	m, sparse := ds.X.(*perceptron.CSR)
	for i := range n {
		var x []float64
		if sparse {
			_, x = csrRow(m, i)
		} else {
			x = ds.X.(*mat.Dense).RawRowView(i)
		}
		for _, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) || sparse && v == 0 {
				t.Fatalf("row %d: value %v", i, v)
			}
		}
	}
}

// sameData reports whether a and b hold rows of the same kind and labels
// of the same classes, by value, and rows of the same bits.
func sameData(a, b *dataset) bool {
	ra, ca := a.X.Dims()
	rb, cb := b.X.Dims()
	if ra != rb || ca != cb || (a.y == nil) != (b.y == nil) || !slices.Equal(a.y, b.y) {
		return false
	}
	if a.y != nil && !slices.Equal(a.classes.values, b.classes.values) {
		return false
	}
	sameBits := func(x, z []float64) bool {
		return slices.EqualFunc(x, z, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
	}
	ma, sa := a.X.(*perceptron.CSR)
	mb, sb := b.X.(*perceptron.CSR)
	if sa != sb {
		return false
	}
	if !sa {
		return sameBits(a.X.(*mat.Dense).RawMatrix().Data, b.X.(*mat.Dense).RawMatrix().Data)
	}
	for i := range ra {
		ia, va := csrRow(ma, i)
		ib, vb := csrRow(mb, i)
		if !slices.Equal(ia, ib) || !sameBits(va, vb) {
			return false
		}
	}
	return true
}

// rowLabels returns the label of each row of ds, as the names of its
// classes and others have it.
func rowLabels(ds *dataset) []string {
	if ds.y == nil {
		return nil
	}
	names := ds.labels()
	var l []string
	for _, k := range ds.y {
		l = append(l, names[k])
	}
	return l
}

// smallData lowers the guard on the size of the rows for a fuzz target,
// which would spend its time allocating otherwise.
func smallData(f *testing.F) {
	old := maxCells
	maxCells = 1 << 16
	f.Cleanup(func() { maxCells = old })
}

// FuzzReadCSV reads the input as CSV in two ways, and checks that what it
// reads writes back to CSV that reads to the same bits.
func FuzzReadCSV(f *testing.F) {
	smallData(f)
	f.Add([]byte("1,2,1\n-1,-2,-1\n"))
	f.Add([]byte("a,b,class\n1.5,2e3,yes\n-1,0x1p-2,no\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, spec := range []dataSpec{
			{label: "last", labels: &labelSpec{}},
			{header: true, label: "first", labels: &labelSpec{pos: "yes", neg: "no"}},
			{label: "none"},
		} {
			ds, err := readCSV(bytes.NewReader(data), "f.csv", spec, 0)
			checkRead(t, ds, err, "f.csv", spec.label != "none")
			if err != nil {
				continue
			}
			lc := -1
			if spec.labels != nil {
				lc = 0
				if spec.label == "last" {
					_, lc = ds.X.Dims()
				}
			}
			text := csvNamed(ds.X.(*mat.Dense), rowLabels(ds), lc, spec.header)
			again, err := readCSV(bytes.NewReader(text), "f.csv", spec, 0)
			if err != nil || !sameData(ds, again) {
				t.Fatalf("read %q, wrote %q, read back %v (%v)", data, text, again, err)
			}
		}
	})
}

// FuzzReadLIBSVM checks that what the LIBSVM reader reads is sparse rows
// that write back to text that reads to the same rows, bit for bit. The
// reader holds the rows in memory in proportion to their non-zeros, so
// that a large index needs no guard here.
func FuzzReadLIBSVM(f *testing.F) {
	f.Add([]byte("+1 1:2 3:4\n-1 2:0.5 # comment\n"))
	f.Add([]byte("1 1:1\r\n\n-1 10:-3e-5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := readLIBSVM(bytes.NewReader(data), "f.svm", &labelSpec{}, 0)
		checkRead(t, ds, err, "f.svm", true)
		if err != nil {
			return
		}
		if _, ok := ds.X.(*perceptron.CSR); !ok {
			t.Fatalf("rows %T, want a CSR", ds.X)
		}
		_, d := ds.X.Dims()
		text := libsvmOf(ds.X, ds.values())
		again, err := readLIBSVM(bytes.NewReader(text), "f.svm", &labelSpec{}, d)
		if err != nil || !sameData(ds, again) {
			t.Fatalf("read %q, wrote %q, read back %v (%v)", data, text, again, err)
		}
	})
}

// FuzzReadIDX checks that the IDX reader returns an error or images with
// pixels in [0, 1].
func FuzzReadIDX(f *testing.F) {
	f.Add(idxFile(0x08, []int{3, 1, 2}, []byte{0, 255, 1, 2, 3, 4}), idxFile(0x08, []int{3}, []byte{0, 1, 0}))
	f.Add(gzipped(idxFile(0x08, []int{2, 2}, []byte{9, 8, 7, 6})), gzipped(idxFile(0x08, []int{2}, []byte{1, 0})))
	f.Fuzz(func(t *testing.T, images, labels []byte) {
		for _, lab := range []*labelSpec{{pos: "0", neg: "1"}, {}, nil} {
			ds, err := readIDX(bytes.NewReader(images), "im", bytes.NewReader(labels), "lb", lab, 0)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "im") && !strings.HasPrefix(err.Error(), "lb") || strings.Contains(err.Error(), ": idx: ") {
					t.Fatalf("error %q names no file, or names the IDX package", err)
				}
				continue
			}
			checkRead(t, ds, nil, "im", lab != nil)
			for _, v := range ds.X.(*mat.Dense).RawMatrix().Data {
				if v < 0 || v > 1 {
					t.Fatalf("pixel %v", v)
				}
			}
		}
	})
}

// FuzzDecodeModel checks that a model file that loads takes rows of its
// features and saves to a file that loads to the same bytes.
func FuzzDecodeModel(f *testing.F) {
	// An old model file, which no longer loads.
	f.Add([]byte(`{"format":"perceptron-command-model","version":1,"classifier":"perceptron","features":2,"pos":"+1","neg":"-1","mean":[0,1],"scale":[1,2],"model":{"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0},"model":{"weights":[1,-2],"bias":0.5},"stats":{"epochs":1,"converged":true,"mistakes":0,"epochMistakes":[0]}}}`))
	// Every classifier fitted on two and on three classes, as train
	// saves it, and as the library's JSON alone.
	X := mat.NewDense(6, 2, []float64{1, 2, -1, -2, 2, 1, -2, 0, 0, 3, 1, -3})
	for _, k := range []int{2, 3} {
		classes := valueClasses([]float64{-1, 1, 2}[:k])
		ds := &dataset{name: "seed", X: X, classes: classes, y: []int{1, 0, 1, 0, k - 1, k - 1}}
		for _, c := range classifiers {
			r, err := fitModel(c.name, &options{epochs: 5}, ds, nil)
			if err != nil {
				f.Fatal(err)
			}
			s := &saved{classifier: c.name, m: r.m, features: 2, classes: classes, label: defaultLabel, sc: &scaler{mean: []float64{0, 1}, scale: []float64{1, 2}}}
			data, err := s.encode()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
			lib, err := json.Marshal(r.m)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(lib)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := decodeModel(data)
		if err != nil {
			return
		}
		zero, err := perceptron.NewCSR(1, s.features, []int{0, 0}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		ds := &dataset{name: "zero", X: zero}
		if s.sc != nil {
			if err := s.sc.apply(ds); err != nil {
				return
			}
		}
		_ = s.m.ScoreRows(nil, ds.X)
		out, err := s.encode()
		if err != nil {
			t.Fatalf("loaded %s, cannot save it: %v", data, err)
		}
		s2, err := decodeModel(out)
		if err != nil {
			t.Fatalf("saved %s, cannot load it: %v", out, err)
		}
		again, err := s2.encode()
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("saved %s, then %s (%v)", out, again, err)
		}
	})
}
