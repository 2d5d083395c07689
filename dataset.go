// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"
	"reflect"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// dataset is a training set: rows of checked shape, and their labels as
// classes. The visits check the values of the rows.
type dataset struct {
	*rows

	// classes are the class values, in ascending order. With two, y holds
	// each row's label as the rule takes it, -1 for the first class and
	// +1 for the second; with more, cls holds the index of each row's
	// class, as scores decides. class reads either.
	classes []float64
	y       []float64
	cls     []int

	// index holds the row of X that each row is, for the training rows
	// of a Stop's validation; nil means the row of the same index.
	index []int

	// weight holds the weight of each class, and rowWeight that of each
	// row, by which the step of a mistake on the row grows; nil means 1
	// for every class, or row.
	weight, rowWeight []float64

	// halt, if not nil, stops the work on the rows when the context of
	// the call is done: a dataset lives as long as the call that made it.
	halt *halt
}

// maxElements is the most weights, or elements of another array that a
// model holds per feature and class, that a model may have: 2^45
// float64s, the 2^48 bytes that the runtime can address at most. Within
// it, needs checks what a model takes against the memory left. Where an
// int is 32 bits, the largest int.
const maxElements = min(1<<45, math.MaxInt)

// tableWords returns the words of a weight table of a model of ds: S·d
// weights and S biases.
func (ds *dataset) tableWords() float64 {
	return float64(scores(ds.classes)) * float64(ds.d+1)
}

// newDataset checks the shape of X and the labels y and returns them as a
// dataset whose classes are known, sorted, if known is not nil, and those
// of y otherwise.
func newDataset(X mat.Matrix, y, known []float64) (*dataset, error) {
	if isNil(X) {
		return nil, errorf(ErrShape, "perceptron: X is nil")
	}
	n, d := X.Dims()
	switch {
	case n == 0:
		return nil, errorf(ErrShape, "perceptron: X has no rows")
	case d == 0:
		return nil, errorf(ErrShape, "perceptron: X has no columns")
	case len(y) != n:
		return nil, errorf(ErrShape, "perceptron: len(y) is %d, want %d (the number of rows of X)", len(y), n)
	}
	classes, err := classesOf(y, known)
	if err != nil {
		return nil, err
	}
	if S := scores(classes); d > maxElements/S {
		return nil, errorf(ErrTooLarge, "perceptron: X has %d columns, too many for %d classes: a model would hold more than 2^45 weights", d, len(classes))
	}
	r, err := rowsOf(X)
	if err != nil {
		return nil, err
	}
	ds := &dataset{rows: r, classes: classes}
	switch {
	case scores(classes) > 1:
		ds.cls = make([]int, n)
		for i, v := range y {
			ds.cls[i], _ = slices.BinarySearch(classes, v)
		}
	case classes[0] == -1 && classes[1] == 1:
		ds.y = y // read in place: n fresh float64s would cost page faults
	default:
		ds.y = make([]float64, n)
		for i, v := range y {
			ds.y[i] = -1
			if v == classes[1] {
				ds.y[i] = 1
			}
		}
	}
	return ds, nil
}

// sign returns the label of row i of a set of two classes as the
// perceptron's rule takes it: -1 for the first class and +1 for the
// second.
func (ds *dataset) sign(i int) float64 { return ds.y[i] }

// origin returns the row of X that row i is, for what Fit reports.
func (ds *dataset) origin(i int) int {
	if ds.index == nil {
		return i
	}
	return ds.index[i]
}

// class returns the index of the class of row i.
func (ds *dataset) class(i int) int {
	if ds.cls == nil {
		return int(ds.y[i]+1) / 2
	}
	return ds.cls[i]
}

// classesOf returns the classes of the labels y: the values of known,
// sorted and without repeats, if known is not nil, and otherwise the
// distinct values of y, sorted. It returns an error naming the first
// label that is NaN or infinite, or not among known, or if there are
// fewer than two classes.
func classesOf(y, known []float64) ([]float64, error) {
	if known != nil {
		classes, err := checkLabels(known)
		if err != nil {
			return nil, err
		}
		for i, v := range y {
			if _, ok := slices.BinarySearch(classes, v); !ok {
				return nil, errorAt(ErrLabels, i, -1, "perceptron: y[%d] is %v, not one of the classes %v", i, v, classes)
			}
		}
		return classes, nil
	}
	if i := nonFinite(y); i >= 0 {
		return nil, errorAt(ErrNonFinite, i, -1, "perceptron: y[%d] is %v, want a finite class value", i, y[i])
	}
	classes := distinct(y)
	if len(classes) < 2 {
		return nil, errorf(ErrLabels, "perceptron: y has the single class %v: want at least two classes", classes[0])
	}
	return classes, nil
}

// checkLabels returns the classes of the setting Labels, sorted and
// without repeats, or an error if one is not finite or there are fewer
// than two.
func checkLabels(labels []float64) ([]float64, error) {
	if j := nonFinite(labels); j >= 0 {
		return nil, errorf(ErrNonFinite, "perceptron: Labels[%d] is %v, want a finite class value", j, labels[j])
	}
	classes := slices.Compact(slices.Sorted(slices.Values(labels)))
	if len(classes) < 2 {
		return nil, errorf(ErrSetting, "perceptron: Labels lists the classes %v, want at least two", classes)
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
// for more, of which the greatest chooses. It is where a model of two
// classes and a model of more part ways. The rest of the package reads
// the difference from the number of scores, or from the forms that follow
// from it: the labels of a dataset, signs with two classes and classes
// with more, and a move, whose down is -1 with two classes. The package
// parts the cases again where they differ, such as the rule (judge,
// moveOf, decide), the margin of a row, the loops that keep one score in
// a local for speed, the saved forms of Voted and Kernel, which keep the
// classes of each mistake only with more, and OneVsRest, which trains one
// classifier for two classes.
func scores(classes []float64) int {
	if len(classes) == 2 {
		return 1
	}
	return len(classes)
}

// isNil reports whether x is nil, or a nil pointer in an interface.
func isNil(x any) bool {
	v := reflect.ValueOf(x)
	return x == nil || v.Kind() == reflect.Pointer && v.IsNil()
}

// single reports whether every row of ds has the same label.
func (ds *dataset) single() bool {
	for _, c := range ds.y {
		if c != ds.y[0] {
			return false
		}
	}
	return true
}

// rowMask returns the mask of pollMask for a loop whose iterations each
// read S times a row of ds of the rows' average length.
func (ds *dataset) rowMask(S int) int {
	return pollMask(float64(S) * ds.words() / float64(max(ds.n, 1)))
}
