// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package idx

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// idx encodes an IDX file of unsigned bytes by hand.
func idx(dims []int, data []byte) []byte {
	b := []byte{0, 0, 0x08, byte(len(dims))}
	for _, d := range dims {
		b = append(b, byte(d>>24), byte(d>>16), byte(d>>8), byte(d))
	}
	return append(b, data...)
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestReadIDXAndSelect(t *testing.T) {
	images := idx([]int{4, 1, 2}, []byte{0, 255, 51, 102, 1, 2, 204, 0})
	labels := idx([]int{4}, []byte{3, 0, 5, 3})
	for name, enc := range map[string]func([]byte) []byte{"plain": func(b []byte) []byte { return b }, "gzip": gz} {
		im, err := Read(bytes.NewReader(enc(images)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lb, err := Read(bytes.NewReader(enc(labels)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(im.Dims, []int{4, 1, 2}) || !slices.Equal(lb.Dims, []int{4}) {
			t.Fatalf("%s: dims %v %v", name, im.Dims, lb.Dims)
		}
		X, y, err := Select(im, lb, 3, 5)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Select(im, lb, 3, 3); err == nil {
			t.Error("Select of one class twice succeeded")
		}
		if _, _, err := Select(im, lb, 1, 2); err == nil {
			t.Error("Select of absent classes succeeded")
		}
		// Rows 0, 2 and 3 are of class 3 or 5; pixels are scaled by 1/255.
		if r, c := X.Dims(); r != 3 || c != 2 {
			t.Fatalf("%s: X is %d×%d, want 3×2", name, r, c)
		}
		want := []float64{0, 1, 1.0 / 255, 2.0 / 255, 204.0 / 255, 0}
		if !slices.Equal(X.RawMatrix().Data, want) || !slices.Equal(y, []float64{1, -1, 1}) {
			t.Fatalf("%s: X=%v y=%v, want %v [1 -1 1]", name, X.RawMatrix().Data, y, want)
		}
	}
}

func TestReadIDXErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "reading the magic number"},
		{"not idx", []byte("P5\n28 28\n"), "bad magic number"},
		{"float elements", []byte{0, 0, 0x0d, 1, 0, 0, 0, 1}, "element type 0x0d"},
		{"no dimensions", []byte{0, 0, 8, 0}, "no dimensions"},
		{"short dimensions", []byte{0, 0, 8, 2, 0, 0, 0, 1}, "reading dimension 1"},
		{"short data", idx([]int{2, 3}, []byte{1, 2, 3}), "3 bytes of data, want 6"},
		{"huge", idx([]int{1 << 20, 1 << 20}, nil), "too large"},
		{"gzip, then garbage", append(gz([]byte{0, 0, 8}), 1, 2), "reading the magic number"},
	} {
		_, err := Read(bytes.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestInstalled reads the installed test files, the smaller ones: Pair
// reads the training files the same way.
func TestInstalled(t *testing.T) {
	if _, err := os.Stat(FashionDir); err != nil {
		t.Skipf("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist): %v", err)
	}
	im, err := ReadFile(filepath.Join(FashionDir, "t10k-images-idx3-ubyte.gz"))
	if err != nil {
		t.Fatal(err)
	}
	lb, err := ReadFile(filepath.Join(FashionDir, "t10k-labels-idx1-ubyte.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(im.Dims, []int{10000, 28, 28}) || !slices.Equal(lb.Dims, []int{10000}) {
		t.Fatalf("dims %v and %v, want [10000 28 28] and [10000]", im.Dims, lb.Dims)
	}
	// Fashion-MNIST has 1,000 test images per class.
	X, y, err := Select(im, lb, TShirt, Shirt)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := X.Dims(); r != 2000 || c != 784 || len(y) != 2000 {
		t.Errorf("test pair %d×%d with %d labels, want 2000×784", r, c, len(y))
	}
}

func FuzzRead(f *testing.F) {
	f.Add(idx([]int{2, 2}, []byte{1, 2, 3, 4}))
	f.Add(gz(idx([]int{1}, []byte{7})))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Read(bytes.NewReader(b))
		if err != nil {
			return
		}
		size := 1
		for _, d := range m.Dims {
			size *= d
		}
		if len(m.Data) != size {
			t.Fatalf("dims %v but %d bytes", m.Dims, len(m.Data))
		}
	})
}
