// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// This example is a program of a new user of the package: it trains the
// averaged perceptron on Fashion-MNIST in mini-batches, measures its test
// accuracy, saves the model and loads it back. It needs the data of
// apt-get install dataset-fashion-mnist, and so has no output to check.

package data_test

import (
	"fmt"
	"log"
	"os"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

const fashion = "/usr/share/datasets/fashion-mnist/"

func Example_fashionMNIST() {
	train, err := data.IDX{}.ReadFile(fashion+"train-images-idx3-ubyte.gz", "")
	if err != nil {
		log.Fatal(err)
	}
	test, err := data.IDX{}.ReadFile(fashion+"t10k-images-idx3-ubyte.gz", "")
	if err != nil {
		log.Fatal(err)
	}
	sc, err := data.NewScaler(train.X)
	if err != nil {
		log.Fatal(err)
	}
	m := &data.Model{Scaler: sc, Classifier: &perceptron.Averaged{Labels: []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}}
	n := len(train.Y)
	for epoch := range 5 {
		for lo := 0; lo < n; lo += 1000 {
			batch, err := train.Rows(lo, min(n, lo+1000))
			if err != nil {
				log.Fatal(err)
			}
			if err := m.Learn(batch); err != nil {
				log.Fatal(err)
			}
		}
		pred, err := m.Predict(test.X)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("epoch %d: test accuracy %.4f\n", epoch+1, data.Accuracy(test.Y, pred))
	}
	path := os.TempDir() + "/fashion.json"
	if err := m.Save(path); err != nil {
		log.Fatal(err)
	}
	m, err = data.LoadModel(path)
	if err != nil {
		log.Fatal(err)
	}
	pred, err := m.Predict(test.X)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("loaded: test accuracy %.4f\n", data.Accuracy(test.Y, pred))
}
