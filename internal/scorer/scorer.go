// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package scorer gives package data what it needs of package perceptron's
// classifiers beyond their exported methods: the number of features of a
// classifier's rows, which no method of a Scorer tells, and which data
// checks against the steps before the classifier in a model. Package
// perceptron sets it when it is loaded.
package scorer

// Width returns the number of features of the rows that c scores, if c is
// a classifier of package perceptron that has been fitted or loaded, and
// 0 otherwise.
var Width func(c any) int
