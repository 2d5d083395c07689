// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// dataset is a training set: rows of checked shape, and their labels as
// classes. The visits check the values of the rows.
type dataset struct {
	*rows

	// classes are the class values, in ascending order. With two, y holds
	// each row's label as -1 for the first and +1 for the second; with
	// more, cls holds the index of each row's class.
	classes []float64
	y       []float64
	cls     []int
}

// newDataset checks the shape of X and the labels y and returns them as a
// dataset whose classes are known, sorted, if known is not nil, and those
// of y otherwise.
func newDataset(X mat.Matrix, y, known []float64) (*dataset, error) {
	if d, ok := X.(*mat.Dense); X == nil || ok && d == nil {
		return nil, errors.New("perceptron: X is nil")
	}
	if e, ok := X.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
		return nil, errors.New("perceptron: X has no rows")
	}
	n, d := X.Dims()
	switch {
	case n == 0:
		return nil, errors.New("perceptron: X has no rows")
	case d == 0:
		return nil, errors.New("perceptron: X has no columns")
	case len(y) != n:
		return nil, fmt.Errorf("perceptron: len(y) is %d, want %d (the number of rows of X)", len(y), n)
	}
	classes, err := classesOf(y, known)
	if err != nil {
		return nil, err
	}
	r, err := rowsOf(X)
	if err != nil {
		return nil, err
	}
	ds := &dataset{rows: r, classes: classes}
	switch {
	case len(classes) > 2:
		ds.cls = make([]int, n)
		for i, v := range y {
			ds.cls[i], _ = slices.BinarySearch(classes, v)
		}
	case classes[0] == -1 && classes[1] == 1:
		ds.y = y // read in place: n fresh float64s would cost page faults
	default:
		ds.y = make([]float64, n)
		for i, v := range y {
			ds.y[i] = sign(v - classes[1])
		}
	}
	return ds, nil
}

// classesOf returns the classes of the labels y: the values of known,
// sorted and without repeats, if known is not nil, and otherwise the
// distinct values of y, sorted. It returns an error naming the first
// label that is NaN or infinite, or not among known, or if there are
// fewer than two classes.
func classesOf(y, known []float64) ([]float64, error) {
	if known != nil {
		if j := nonFinite(known); j >= 0 {
			return nil, fmt.Errorf("perceptron: Labels[%d] is %v, want a finite class value", j, known[j])
		}
		classes := slices.Compact(slices.Sorted(slices.Values(known)))
		if len(classes) < 2 {
			return nil, fmt.Errorf("perceptron: Labels lists the single class %v, want at least two", classes)
		}
		for i, v := range y {
			if _, ok := slices.BinarySearch(classes, v); !ok {
				return nil, fmt.Errorf("perceptron: y[%d] is %v, not one of the classes %v", i, v, classes)
			}
		}
		return classes, nil
	}
	if i := nonFinite(y); i >= 0 {
		return nil, fmt.Errorf("perceptron: y[%d] is %v, want a finite class value", i, y[i])
	}
	classes := distinct(y)
	if len(classes) < 2 {
		return nil, fmt.Errorf("perceptron: y has the single class %v: want at least two classes", classes[0])
	}
	return classes, nil
}

// distinct returns the distinct values of y, which holds no NaN, sorted,
// each as it first occurs. Two values it finds in two passes of
// comparisons; more it keeps in a sorted list as it goes, which costs
// O(log K) a label for K classes and allocates nothing per row, where
// sorting a copy of y would; past maxInsert classes it sorts a copy after
// all.
func distinct(y []float64) []float64 {
	if lo, hi, ok := twoValues(y); ok {
		return []float64{lo, hi}
	}
	const maxInsert = 256
	var classes []float64
	for _, v := range y {
		c, ok := slices.BinarySearch(classes, v)
		if ok {
			continue
		}
		if len(classes) == maxInsert {
			return slices.Compact(slices.Sorted(slices.Values(y)))
		}
		classes = slices.Insert(classes, c, v)
	}
	return classes
}

// twoValues returns the least and the greatest of the labels y, which
// hold no NaN, each as it first occurs, and whether they are y's only
// values and differ: the common case of two classes, checked with
// comparisons that are predicted right, where a search of the classes for
// every label would branch on the label.
func twoValues(y []float64) (lo, hi float64, ok bool) {
	if len(y) == 0 {
		return 0, 0, false
	}
	lo, hi = y[0], y[0]
	for _, v := range y {
		if v < lo {
			lo = v
		} else if v > hi {
			hi = v
		}
	}
	if lo == hi {
		return lo, hi, false
	}
	for _, v := range y {
		if v != lo && v != hi {
			return lo, hi, false
		}
	}
	return lo, hi, true
}

// scores returns the number of scores that a model of the classes
// computes: one for two classes, whose sign chooses, and one per class
// for more, of which the greatest chooses.
func scores(classes []float64) int {
	if len(classes) == 2 {
		return 1
	}
	return len(classes)
}

// class returns the index in classes of the label v, for Learn, or an
// error if it is not one of them.
func class(classes []float64, v float64) (int, error) {
	c, ok := slices.BinarySearch(classes, v)
	if !ok {
		return 0, fmt.Errorf("perceptron: y is %v, not one of the classes %v", v, classes)
	}
	return c, nil
}

// defaultClasses are the classes of a classifier that Learn starts with
// when Labels is nil.
var defaultClasses = []float64{-1, 1}

// checkExample returns an error if x is not a valid row of length d, for
// Learn.
func checkExample(x []float64, d int) error {
	if len(x) == 0 {
		return errors.New("perceptron: x is empty")
	}
	if len(x) != d {
		return fmt.Errorf("perceptron: x has length %d, want %d", len(x), d)
	}
	if j := nonFinite(x); j >= 0 {
		return fmt.Errorf("perceptron: x[%d] is %v, want a finite value", j, x[j])
	}
	return nil
}

// argmax returns the index of the greatest of s, the first of those if
// several tie, skipping the index skip.
func argmax(s []float64, skip int) int {
	best := -1
	for c, v := range s {
		if c != skip && (best < 0 || v > s[best]) {
			best = c
		}
	}
	return best
}

// startClasses returns the classes that Learn starts with: those of
// labels, or -1 and +1.
func startClasses(labels []float64) ([]float64, error) {
	if labels == nil {
		return defaultClasses, nil
	}
	return classesOf(nil, labels)
}

// nonZero reports whether some element of x is not zero.
func nonZero(x []float64) bool {
	return slices.ContainsFunc(x, func(v float64) bool { return v != 0 })
}
