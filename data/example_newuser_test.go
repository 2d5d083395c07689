// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// This example is a program of a new user of the package: it trains the
// averaged perceptron on Fashion-MNIST in mini-batches, measures its test
// accuracy, saves the model and loads it back. It needs the data of
// apt-get install dataset-fashion-mnist, and so has no output to check.

package data_test

import (
	"encoding/json"
	"fmt"
	"log"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

const dir = "/usr/share/datasets/fashion-mnist/"

func readFashion(images, labels string) *data.Set {
	im, err := os.Open(dir + images)
	if err != nil {
		log.Fatal(err)
	}
	defer im.Close()
	lb, err := os.Open(dir + labels)
	if err != nil {
		log.Fatal(err)
	}
	defer lb.Close()
	s, err := data.IDX{}.Read(im, lb)
	if err != nil {
		log.Fatal(err)
	}
	return s
}

func testAccuracy(m perceptron.Scorer, X mat.Matrix, s *data.Set) float64 {
	pred := m.PredictRows(nil, X)
	r, err := data.NewReport(s.Classes, s.Y, pred)
	if err != nil {
		log.Fatal(err)
	}
	acc, _, _ := r.Accuracy()
	return acc
}

func Example_fashionMNIST() {
	train := readFashion("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz")
	test := readFashion("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")
	sc, err := data.NewScaler(train.X)
	if err != nil {
		log.Fatal(err)
	}
	Xtr, err := sc.Transform(train.X)
	if err != nil {
		log.Fatal(err)
	}
	Xte, err := sc.Transform(test.X)
	if err != nil {
		log.Fatal(err)
	}
	// Mini-batches of 1000 rows: the scaled rows are a *mat.Dense.
	dense := Xtr.(*mat.Dense)
	n, d := dense.Dims()
	a := &perceptron.Averaged{Labels: []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
	for epoch := range 5 {
		for lo := 0; lo < n; lo += 1000 {
			hi := min(n, lo+1000)
			if err := a.Learn(dense.Slice(lo, hi, 0, d), train.Y[lo:hi]); err != nil {
				log.Fatal(err)
			}
		}
		fmt.Printf("epoch %d: test accuracy %.4f\n", epoch+1, testAccuracy(a, Xte, test))
	}
	b, err := json.Marshal(a)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(os.TempDir()+"/fashion.json", b, 0o644); err != nil {
		log.Fatal(err)
	}
	b, err = os.ReadFile(os.TempDir() + "/fashion.json")
	if err != nil {
		log.Fatal(err)
	}
	m, err := perceptron.Unmarshal(b)
	if err != nil {
		log.Fatal(err)
	}
	var st perceptron.Stats
	switch m := m.(type) {
	case *perceptron.Averaged:
		st = m.Stats()
	}
	fmt.Printf("loaded: test accuracy %.4f, %d mistakes\n", testAccuracy(m, Xte, test), st.Mistakes)
}
