// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package sets builds the data sets of this module's benchmarks, the
// package's own in the root and those of bench/compare, from the files of
// the Debian sections and Fashion-MNIST data sets, which package data
// reads: their class pairs, and all their classes. It is benchmark code:
// the library and the command do not use it.
package sets

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// DebianDir is where the Debian sections data set is, relative to the
// root of the module.
const DebianDir = "../shared/data/debian-sections"

// DebianFeatures is the number of features of the Debian sections data
// set, the words of its vocabulary.
const DebianFeatures = 284_746

// DebianClasses is the number of classes of the Debian sections data
// set, numbered 0 to DebianClasses-1.
const DebianClasses = 35

// Class numbers of the Debian sections used by the standard pair.
const (
	LibDevel = 14
	Libs     = 15
)

// FashionDir is where Debian's dataset-fashion-mnist package installs the
// Fashion-MNIST files.
const FashionDir = "/usr/share/datasets/fashion-mnist"

// Class numbers of Fashion-MNIST used by the standard pairs.
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

// labelled is a set's rows, and the label of each, the number its file
// gives its class.
type labelled struct {
	X mat.Matrix
	y []float64
}

// numbers returns the rows of s with the label of each row as the number
// its class is named by.
func numbers(s *data.Set) (*labelled, error) {
	values := make([]float64, len(s.Classes))
	for k, c := range s.Classes {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil {
			return nil, fmt.Errorf("the label %q is not a number", c)
		}
		values[k] = v
	}
	y := make([]float64, len(s.Y))
	for i, c := range s.Y {
		y[i] = values[int(c)]
	}
	return &labelled{s.X, y}, nil
}

// pair returns the rows of l labelled pos, as +1, and neg, as -1, in
// their order.
func (l *labelled) pair(pos, neg int) (mat.Matrix, []float64) {
	var rows []int
	var y []float64
	for i, c := range l.y {
		switch c {
		case float64(pos):
			rows, y = append(rows, i), append(y, 1)
		case float64(neg):
			rows, y = append(rows, i), append(y, -1)
		}
	}
	sub, err := (&data.Set{X: l.X}).Subset(rows)
	if err != nil {
		panic(err) // the rows are rows of l.X, and the benchmarks' sets fit in memory
	}
	return sub.X, y
}

// readFile reads the file at path with read.
func readFile(path string, read func(*os.File) (*data.Set, error)) (*data.Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// debian reads the training and test files of the Debian sections data
// set in dir, of DebianFeatures columns, labelled with their class
// numbers.
func debian(dir string) (train, test *labelled, err error) {
	var out [2]*labelled
	for k, name := range []string{"debian-sections.train.svm.gz", "debian-sections.test.svm.gz"} {
		s, err := readFile(filepath.Join(dir, name), func(f *os.File) (*data.Set, error) {
			return data.LIBSVM{Cols: DebianFeatures}.Read(f)
		})
		if err != nil {
			return nil, nil, err
		}
		if s.Dropped > 0 {
			return nil, nil, fmt.Errorf("%s: %d values beyond the %d features", name, s.Dropped, DebianFeatures)
		}
		if out[k], err = numbers(s); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return out[0], out[1], nil
}

// DebianPair returns the training and test rows of the Debian sections
// data set in dir whose class is pos, labelled +1, or neg, labelled -1,
// in the order of the files, as CSR matrices of DebianFeatures columns.
func DebianPair(dir string, pos, neg int) (Xtrain *perceptron.CSR, ytrain []float64, Xtest *perceptron.CSR, ytest []float64, err error) {
	train, test, err := debian(dir)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	Xtr, ytr := train.pair(pos, neg)
	Xte, yte := test.pair(pos, neg)
	return Xtr.(*perceptron.CSR), ytr, Xte.(*perceptron.CSR), yte, nil
}

// DebianAll returns every training and test row of the Debian sections
// data set in dir, in the order of the files, labelled with their class
// numbers, as CSR matrices of DebianFeatures columns.
func DebianAll(dir string) (Xtrain *perceptron.CSR, ytrain []float64, Xtest *perceptron.CSR, ytest []float64, err error) {
	train, test, err := debian(dir)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return train.X.(*perceptron.CSR), train.y, test.X.(*perceptron.CSR), test.y, nil
}

// Normalize returns the rows of X, each that is not empty scaled to unit
// Euclidean length, the usual scaling of rows of word counts or presence:
// unscaled, a long text weighs more in every update than a short one.
func Normalize(X *perceptron.CSR) *perceptron.CSR {
	n, d := X.Dims()
	ptr := make([]int, 1, n+1)
	ind := make([]int, 0, X.NNZ())
	val := make([]float64, 0, X.NNZ())
	for i := range n {
		start := len(val)
		var q float64
		X.DoRowNonZero(i, func(_, j int, v float64) {
			ind, val = append(ind, j), append(val, v)
			q += v * v
		})
		if q > 0 {
			q = math.Sqrt(q)
			for k := start; k < len(val); k++ {
				val[k] /= q
			}
		}
		ptr = append(ptr, len(ind))
	}
	N, err := perceptron.NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return N
}

// FashionAll returns every image of the Fashion-MNIST files in dir whose
// names start with prefix, train or t10k, one a row, with their class
// numbers as labels, and pixel values, the integers 0 to 255 of the files,
// divided by scale.
func FashionAll(dir, prefix string, scale float64) (*mat.Dense, []float64, error) {
	images := filepath.Join(dir, prefix+"-images-idx3-ubyte.gz")
	labels := filepath.Join(dir, prefix+"-labels-idx1-ubyte.gz")
	lb, err := os.Open(labels)
	if err != nil {
		return nil, nil, err
	}
	defer lb.Close()
	s, err := readFile(images, func(im *os.File) (*data.Set, error) { return data.IDX{}.Read(im, lb) })
	if err != nil {
		return nil, nil, err
	}
	l, err := numbers(s)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", labels, err)
	}
	// data reads the pixels divided by 255: the integers of the file are
	// those values times 255, rounded, and the division by scale of the
	// integers is that of the file's values.
	X := l.X.(*mat.Dense)
	n, _ := X.Dims()
	for i := range n {
		row := X.RawRowView(i)
		for j, v := range row {
			row[j] = math.Round(v*255) / scale
		}
	}
	return X, l.y, nil
}

// FashionPair returns the training and test images of the Fashion-MNIST
// classes pos, labelled +1, and neg, labelled -1, in dir, in the order of
// the files, with pixels scaled to [0, 1].
func FashionPair(dir string, pos, neg int) (Xtrain *mat.Dense, ytrain []float64, Xtest *mat.Dense, ytest []float64, err error) {
	var out [2]struct {
		X *mat.Dense
		y []float64
	}
	for k, prefix := range []string{"train", "t10k"} {
		X, y, err := FashionAll(dir, prefix, 255)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		Xp, yp := (&labelled{X, y}).pair(pos, neg)
		if len(yp) == 0 {
			return nil, nil, nil, nil, fmt.Errorf("%s: no image of class %d or %d", prefix, pos, neg)
		}
		out[k].X, out[k].y = Xp.(*mat.Dense), yp
	}
	return out[0].X, out[0].y, out[1].X, out[1].y, nil
}
