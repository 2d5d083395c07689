// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package synth

import (
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func TestData(t *testing.T) {
	const n, d = 2000, 7
	X, y := Data(n, d)
	if r, c := X.Dims(); r != n || c != d || len(y) != n {
		t.Fatalf("got %d×%d with %d labels, want %d×%d with %d", r, c, len(y), n, d, n)
	}
	for i := range n {
		for j, v := range X.RawRowView(i) {
			if v < 0 || v >= 1 {
				t.Fatalf("X[%d, %d] = %v, want a value in [0, 1)", i, j, v)
			}
		}
	}
	pos := 0
	for i, v := range y {
		switch v {
		case 1:
			pos++
		case -1:
		default:
			t.Fatalf("y[%d] = %v, want -1 or +1", i, v)
		}
	}
	if pos == 0 || pos == n {
		t.Errorf("%d of %d labels are +1, want both classes", pos, n)
	}
	X2, y2 := Data(n, d)
	if !mat.Equal(X, X2) || !floats.Equal(y, y2) {
		t.Error("the same shape gave different data")
	}
	if X3, _ := Data(n, d+1); mat.Equal(X.Slice(0, n, 0, d), X3.Slice(0, n, 0, d)) {
		t.Error("another shape gave the same data")
	}
}
