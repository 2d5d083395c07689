// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// Hold out a third of the rows, fit an averaged perceptron to the rest,
// calibrate its scores on the rows held out, and give the probabilities
// of the classes of new rows, and for each its two most probable classes
// of those at least 0.2 probable.
func ExampleModel_Calibrate() {
	// 900 rows of two features, of three classes whose rows spread
	// around (0, 0), (2, 0) and (0, 2) and overlap.
	rnd := rand.New(rand.NewPCG(1, 2))
	centres := [][2]float64{{0, 0}, {2, 0}, {0, 2}}
	X := mat.NewDense(900, 2, nil)
	y := make([]float64, 900)
	for i := range 900 {
		c := i % 3
		X.Set(i, 0, centres[c][0]+rnd.NormFloat64())
		X.Set(i, 1, centres[c][1]+rnd.NormFloat64())
		y[i] = float64(c)
	}
	set := &data.Set{X: X, Y: y, Classes: []string{"red", "green", "blue"}}
	train, held, err := data.Split(set, 1.0/3, 1)
	if err != nil {
		log.Fatal(err)
	}
	m := &data.Model{Classifier: &perceptron.Averaged{Epochs: 10}}
	if err := m.Fit(train); err != nil {
		log.Fatal(err)
	}
	if err := m.Calibrate(held); err != nil {
		log.Fatal(err)
	}

	rows := mat.NewDense(3, 2, []float64{
		0, 0,
		1, 1,
		3, -1,
	})
	probs, err := m.Probabilities(rows)
	if err != nil {
		log.Fatal(err)
	}
	classes, top, err := m.Top(rows, 2, 0.2)
	if err != nil {
		log.Fatal(err)
	}
	for i := range 3 {
		fmt.Printf("%v: red %.2f, green %.2f, blue %.2f; top:", rows.RawRowView(i), probs[3*i], probs[3*i+1], probs[3*i+2])
		for j := range 2 {
			if c := classes[2*i+j]; c >= 0 {
				fmt.Printf(" %s %.2f", m.Classes[c], top[2*i+j])
			}
		}
		fmt.Println()
	}
	// Output:
	// [0 0]: red 0.83, green 0.09, blue 0.08; top: red 0.83
	// [1 1]: red 0.35, green 0.31, blue 0.34; top: red 0.35 blue 0.34
	// [3 -1]: red 0.03, green 0.97, blue 0.00; top: green 0.97
}
