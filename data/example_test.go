// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// The petal length and width of flowers of three species: a CSV file with
// a header, the label in the last column.
const petals = `length,width,species
5.6,1.9,virginica
5.6,1.8,virginica
1.6,0.2,setosa
5.1,1.8,virginica
1.4,0.4,setosa
1.4,0.3,setosa
5.1,2.0,virginica
5.3,1.8,virginica
4.5,1.5,versicolor
5.9,2.2,virginica
1.6,0.2,setosa
1.3,0.2,setosa
4.3,1.1,versicolor
4.4,1.7,versicolor
6.1,2.0,virginica
1.3,0.4,setosa
1.4,0.2,setosa
3.8,1.2,versicolor
1.3,0.1,setosa
4.7,1.8,versicolor
5.7,2.2,virginica
4.3,1.1,versicolor
4.5,1.8,virginica
5.3,2.0,virginica
1.2,0.2,setosa
6.1,1.8,virginica
1.4,0.2,setosa
4.1,1.3,versicolor
5.2,1.8,virginica
1.2,0.2,setosa
`

// Read a CSV file, hold out a test set of 30% of each class, standardise
// the features as the training rows give them, train an averaged
// perceptron, and report how it does on the test rows.
func Example() {
	set, err := data.CSV{Header: true}.Read(strings.NewReader(petals))
	if err != nil {
		log.Fatal(err)
	}
	train, test, err := data.Split(set, 0.3, 2)
	if err != nil {
		log.Fatal(err)
	}
	scaler, err := data.NewScaler(train.X)
	if err != nil {
		log.Fatal(err)
	}
	trainX, err := scaler.Transform(train.X)
	if err != nil {
		log.Fatal(err)
	}
	testX, err := scaler.Transform(test.X)
	if err != nil {
		log.Fatal(err)
	}

	var clf perceptron.Averaged
	if err := clf.Fit(trainX, train.Y); err != nil {
		log.Fatal(err)
	}
	pred := clf.PredictRows(nil, testX)

	fmt.Printf("%d training rows, %d test rows of %q\n\n", len(train.Y), len(test.Y), set.Features)
	report, err := data.NewReport(set.Classes, test.Y, pred)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(report)
	// The test rows are round(0.3·n) of the n of each class: 3 of 11
	// setosa, 2 of 7 versicolor and 4 of 12 virginica. One virginica, of
	// petals 4.5 by 1.8, is taken for a versicolor: versicolor's precision
	// is 2/3 and F1 4/5, virginica's recall 3/4 and F1 6/7.

	// Output:
	// 21 training rows, 9 test rows of ["length" "width"]
	//
	//               precision    recall  f1-score   support
	//
	//       setosa     1.0000    1.0000    1.0000         3
	//   versicolor     0.6667    1.0000    0.8000         2
	//    virginica     1.0000    0.7500    0.8571         4
	//
	//     accuracy                         0.8889         9
	//    macro avg     0.8889    0.9167    0.8857         9
	// weighted avg     0.9259    0.8889    0.8921         9
}

// IDX reads each image into a row of its pixels, each byte from 0 to 255
// divided by 255, to a value from 0 to 1, and each label into a class.
func ExampleIDX() {
	// Two images of 2×2 pixels, and their labels, as IDX files hold them.
	images := []byte{0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 51, 204, 255, 255, 0, 0, 102}
	labels := []byte{0, 0, 8, 1, 0, 0, 0, 2, 7, 3}
	s, err := data.IDX{}.Read(bytes.NewReader(images), bytes.NewReader(labels))
	if err != nil {
		log.Fatal(err)
	}
	for i := range 2 {
		fmt.Printf("%.1f, class %s\n", mat.Row(nil, i, s.X), s.Classes[int(s.Y[i])])
	}
	// Output:
	// [0.0 0.2 0.8 1.0], class 7
	// [1.0 0.0 0.0 0.4], class 3
}

// A Model trains on rows that a reader gives one at a time, reading them
// again for each epoch, in memory that does not grow with them, as on a
// file larger than the memory: the classes are the labels in the order in
// which they come, which a reader given them reads new rows by.
func ExampleModel_FitStream() {
	text := "1 1:1 2:1\n-1 3:1\n1 1:2\n-1 3:2 4:1\n"
	rows := data.LIBSVM{}.Rows(strings.NewReader(text))
	m := data.Model{Classifier: &perceptron.Averaged{Epochs: 10}, Normalize: true}
	if err := m.FitStream(context.Background(), data.Stream{Rows: rows}); err != nil {
		fmt.Println(err)
		return
	}
	test, err := data.LIBSVM{Cols: m.Features(), Classes: m.Classes}.Read(strings.NewReader("-1 3:5\n1 2:3\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	pred, _ := m.Predict(test.X)
	fmt.Println(m.Classes, pred)
	// Output: [1 -1] [1 0]
}
