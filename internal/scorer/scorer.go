// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package scorer gives package data what it needs of package perceptron's
// classifiers beyond their exported methods: the number of features of a
// classifier's rows, which no method of a Scorer tells, and the reading of
// a saved classifier whose JSON syntax data has checked already, as part
// of a model file's, so that a model file's text is checked once. Package
// perceptron sets both when it is loaded.
package scorer

// Width returns the number of features of the rows that c scores, if c is
// a classifier of package perceptron that has been fitted or loaded, and
// 0 otherwise.
var Width func(c any) int

// UnmarshalValid is package perceptron's Unmarshal of the saved form of a
// classifier, binary, or JSON whose syntax is known to be valid, with
// Width of the classifier.
var UnmarshalValid func(form []byte) (c any, width int, err error)
