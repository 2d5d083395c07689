// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package idx reads IDX files, the format of MNIST and Fashion-MNIST, and
// builds the Fashion-MNIST class pairs that this module's evaluations and
// benchmarks use. Its errors carry no prefix: the caller names the file.
package idx

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
)

// FashionDir is where Debian's dataset-fashion-mnist package installs the
// Fashion-MNIST files.
const FashionDir = "/usr/share/datasets/fashion-mnist"

// Class indices of Fashion-MNIST used by the standard pairs.
const (
	TShirt    = 0
	Pullover  = 2
	Coat      = 4
	Shirt     = 6
	Sneaker   = 7
	AnkleBoot = 9
)

// FashionPairs are the binary tasks of the benchmarks: the first class is
// +1 and the second -1.
var FashionPairs = []struct {
	Name     string
	Pos, Neg int
}{
	{"tshirt-shirt", TShirt, Shirt},
	{"pullover-coat", Pullover, Coat},
	{"sneaker-ankleboot", Sneaker, AnkleBoot},
}

// File is the content of an IDX file: its dimension sizes and its bytes.
type File struct {
	Dims []int
	Data []byte
}

// Read reads an IDX file of unsigned bytes (type code 0x08), gzipped or
// not.
func Read(r io.Reader) (*File, error) {
	br := bufio.NewReader(r)
	if head, err := br.Peek(2); err == nil && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%v", err)
		}
		defer zr.Close()
		br = bufio.NewReader(zr)
	}
	var magic [4]byte
	if _, err := io.ReadFull(br, magic[:]); err != nil {
		return nil, fmt.Errorf("reading the magic number: %v", err)
	}
	if magic[0] != 0 || magic[1] != 0 {
		return nil, fmt.Errorf("bad magic number % x: not an IDX file", magic)
	}
	if magic[2] != 0x08 {
		return nil, fmt.Errorf("element type 0x%02x, want 0x08 (unsigned byte)", magic[2])
	}
	nd := int(magic[3])
	if nd == 0 {
		return nil, errors.New("no dimensions")
	}
	dims := make([]int, nd)
	size := 1
	for i := range dims {
		var v uint32
		if err := binary.Read(br, binary.BigEndian, &v); err != nil {
			return nil, fmt.Errorf("reading dimension %d: %v", i, err)
		}
		dims[i] = int(v)
		if dims[i] != 0 && size > (1<<31)/dims[i] {
			return nil, fmt.Errorf("dimensions %v are too large", dims[:i+1])
		}
		size *= dims[i]
	}
	var buf bytes.Buffer
	n, err := io.CopyN(&buf, br, int64(size))
	if err != nil {
		return nil, fmt.Errorf("%d bytes of data, want %d: %v", n, size, err)
	}
	return &File{Dims: dims, Data: buf.Bytes()}, nil
}

// ReadFile reads the IDX file at path.
func ReadFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return m, nil
}

// Select returns the images of classes pos and neg, in file order, as the
// rows of a matrix with pixels scaled to [0, 1], with labels +1 for pos and
// -1 for neg.
func Select(images, labels *File, pos, neg int) (*mat.Dense, []float64, error) {
	if len(images.Dims) < 2 || len(labels.Dims) != 1 || images.Dims[0] != labels.Dims[0] || images.Dims[0] == 0 {
		return nil, nil, fmt.Errorf("images %v do not match labels %v", images.Dims, labels.Dims)
	}
	if pos == neg {
		return nil, nil, fmt.Errorf("classes %d and %d are the same", pos, neg)
	}
	y := make([]float64, 0, len(labels.Data))
	for _, c := range labels.Data {
		switch int(c) {
		case pos:
			y = append(y, 1)
		case neg:
			y = append(y, -1)
		}
	}
	if len(y) == 0 {
		return nil, nil, fmt.Errorf("no image of class %d or %d", pos, neg)
	}
	d := len(images.Data) / images.Dims[0]
	X := mat.NewDense(len(y), d, nil)
	r := 0
	for i, c := range labels.Data {
		if int(c) != pos && int(c) != neg {
			continue
		}
		row := X.RawRowView(r)
		for j, px := range images.Data[i*d : (i+1)*d] {
			row[j] = float64(px) / 255
		}
		r++
	}
	return X, y, nil
}

// FashionPair loads the training and test sets of classes pos (+1) and
// neg (-1) from the four Fashion-MNIST files in dir.
func FashionPair(dir string, pos, neg int) (Xtrain *mat.Dense, ytrain []float64, Xtest *mat.Dense, ytest []float64, err error) {
	load := func(prefix string) (*mat.Dense, []float64, error) {
		im, err := ReadFile(filepath.Join(dir, prefix+"-images-idx3-ubyte.gz"))
		if err != nil {
			return nil, nil, err
		}
		lb, err := ReadFile(filepath.Join(dir, prefix+"-labels-idx1-ubyte.gz"))
		if err != nil {
			return nil, nil, err
		}
		return Select(im, lb, pos, neg)
	}
	if Xtrain, ytrain, err = load("train"); err != nil {
		return
	}
	Xtest, ytest, err = load("t10k")
	return
}

// Images returns every image of an IDX file of images, in file order, as
// the rows of a matrix with pixels scaled to [0, 1].
func Images(images *File) (*mat.Dense, error) {
	if len(images.Dims) < 2 || len(images.Data) == 0 {
		return nil, fmt.Errorf("dimensions %v are not those of images", images.Dims)
	}
	data := make([]float64, len(images.Data))
	for i, px := range images.Data {
		data[i] = float64(px) / 255
	}
	n := images.Dims[0]
	return mat.NewDense(n, len(data)/n, data), nil
}
