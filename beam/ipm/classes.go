// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// unionClasses returns the classes of all the shards, whose classes as
// data.LIBSVM reads them are names: sorted by value, each value once, if
// every name is a number, and by text otherwise, as data.LIBSVM sorts the
// labels of one file.
func unionClasses(names [][]string) []string {
	var all []string
	for _, n := range names {
		all = append(all, n...)
	}
	all = slices.Compact(slices.Sorted(slices.Values(all)))
	values, ok := numbers(all)
	if !ok {
		return all
	}
	byName := make(map[string]float64, len(all))
	for k, s := range all {
		byName[s] = values[k]
	}
	slices.SortStableFunc(all, func(a, b string) int { return cmp.Compare(byName[a], byName[b]) })
	return slices.CompactFunc(all, func(a, b string) bool { return byName[a] == byName[b] })
}

// checkClasses returns an error if there are no classes, if a class is
// empty or named twice, or if two are the same number, which a reader
// takes as one.
func checkClasses(classes []string) error {
	if len(classes) == 0 {
		return errors.New("no classes")
	}
	seen := make(map[string]bool, len(classes))
	for _, c := range classes {
		switch {
		case c == "":
			return errors.New("a class is empty")
		case seen[c]:
			return fmt.Errorf("the class %q is named twice", c)
		}
		seen[c] = true
	}
	values, ok := numbers(classes)
	if !ok {
		return nil
	}
	byValue := make(map[float64]string, len(classes))
	for k, v := range values {
		if c, dup := byValue[v]; dup {
			return fmt.Errorf("the classes %q and %q are the same number", c, classes[k])
		}
		byValue[v] = classes[k]
	}
	return nil
}

// numbers returns the values of the names and true if every one is a
// finite number.
func numbers(names []string) ([]float64, bool) {
	values := make([]float64, len(names))
	for k, s := range names {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		values[k] = v
	}
	return values, true
}
