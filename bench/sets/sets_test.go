// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sets

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func writeGzip(t *testing.T, path string, b []byte) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func idxFile(dims []int, data []byte) []byte {
	b := []byte{0, 0, 8, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, uint32(d))
	}
	return append(b, data...)
}

// A pair of the Debian sections holds the rows of its two classes, in
// their order, +1 and -1, and Normalize scales each row to unit length.
func TestDebian(t *testing.T) {
	dir := t.TempDir()
	writeGzip(t, filepath.Join(dir, "debian-sections.train.svm.gz"), []byte("14 1:1 3:1\n15 2:1\n3 1:1\n15 1:3 284746:4\n"))
	writeGzip(t, filepath.Join(dir, "debian-sections.test.svm.gz"), []byte("15 5:1\n2 1:1\n"))
	Xtr, ytr, Xte, yte, err := DebianPair(dir, Libs, LibDevel)
	if err != nil {
		t.Fatal(err)
	}
	if n, d := Xtr.Dims(); n != 3 || d != DebianFeatures || !slices.Equal(ytr, []float64{-1, 1, 1}) || Xtr.At(2, 0) != 3 || Xtr.At(2, DebianFeatures-1) != 4 {
		t.Errorf("training pair %dx%d, %v", n, d, ytr)
	}
	if n, _ := Xte.Dims(); n != 1 || !slices.Equal(yte, []float64{1}) || Xte.At(0, 4) != 1 {
		t.Errorf("test pair of %d rows, %v", n, yte)
	}
	_, yall, _, _, err := DebianAll(dir)
	if err != nil || !slices.Equal(yall, []float64{14, 15, 3, 15}) {
		t.Errorf("all: %v, %v", yall, err)
	}
	N := Normalize(Xtr)
	// The values divided by the norm, in float64 arithmetic.
	sqrt2, five := math.Sqrt(2), math.Sqrt(25)
	for i, want := range []float64{1 / sqrt2, 1, 3 / five} {
		if got := N.At(i, []int{0, 1, 0}[i]); got != want {
			t.Errorf("row %d: %v, want %v", i, got, want)
		}
	}
}

// Fashion-MNIST's images are rows of their pixels, the integers of the
// files divided by the scale, and a pair holds the images of its classes.
func TestFashion(t *testing.T) {
	dir := t.TempDir()
	for _, prefix := range []string{"train", "t10k"} {
		writeGzip(t, filepath.Join(dir, prefix+"-images-idx3-ubyte.gz"), idxFile([]int{3, 1, 2}, []byte{0, 255, 7, 128, 1, 2}))
		writeGzip(t, filepath.Join(dir, prefix+"-labels-idx1-ubyte.gz"), idxFile([]int{3}, []byte{TShirt, Shirt, 3}))
	}
	X, y, err := FashionAll(dir, "train", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(X, mat.NewDense(3, 2, []float64{0, 255, 7, 128, 1, 2})) || !slices.Equal(y, []float64{0, 6, 3}) {
		t.Errorf("%v, %v", mat.Formatted(X), y)
	}
	Xp, yp, _, _, err := FashionPair(dir, TShirt, Shirt)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(Xp, mat.NewDense(2, 2, []float64{0, 1, 7.0 / 255, 128.0 / 255})) || !slices.Equal(yp, []float64{1, -1}) {
		t.Errorf("%v, %v", mat.Formatted(Xp), yp)
	}
}
