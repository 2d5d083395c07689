// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import "gonum.org/v1/gonum/mat"

// CopyRows copies the rows of X as Fit does, and returns the slices of
// the copy: the benchmarks of package perceptron_test, which read the
// data sets through package data, measure it.
func CopyRows(X mat.Matrix) (ptr, ind []int, val []float64, err error) {
	r, err := rowsOf(X)
	if err != nil {
		return nil, nil, nil, err
	}
	return r.ptr, r.ind, r.data, nil
}
