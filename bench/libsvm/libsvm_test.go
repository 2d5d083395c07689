// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package libsvm

import (
	"reflect"
	"strings"
	"testing"
)

// pair keeps classes 1 (+1) and 2 (-1).
func pair(c float64) (float64, bool) {
	switch c {
	case 1:
		return 1, true
	case 2:
		return -1, true
	}
	return 0, false
}

func TestRead(t *testing.T) {
	in := "1 1:0.5 4:2\n" +
		"3 2:1\n" + // left out
		"\n" +
		"2\t3:-1e-3\n" +
		"2\n" + // a row of zeros
		" 1 2:1 7:3 \n"
	s, err := Read(strings.NewReader(in), pair)
	if err != nil {
		t.Fatal(err)
	}
	want := &Set{
		Rows: 4, Cols: 7,
		Ptr: []int{0, 2, 3, 3, 5},
		Ind: []int{0, 3, 2, 1, 6},
		Val: []float64{0.5, 2, -1e-3, 1, 3},
		Y:   []float64{1, -1, -1, 1},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got %+v\nwant %+v", s, want)
	}
	if got, want := s.Bytes(), 8*(5+5+5); got != want {
		t.Errorf("Bytes: %d, want %d", got, want)
	}
}

func TestReadErrors(t *testing.T) {
	for _, in := range []string{
		"x 1:1\n",
		"1 1:1 1:2\n",
		"1 2:1 1:2\n",
		"1 0:1\n",
		"1 1\n",
		"1 1:a\n",
		"3 1:1\n1 a:1\n",
	} {
		if _, err := Read(strings.NewReader(in), pair); err == nil {
			t.Errorf("%q: no error", in)
		} else if !strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("%q: error %q names no line", in, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	s := &Set{
		Rows: 4, Cols: 4,
		Ptr: []int{0, 2, 2, 3, 7},
		Ind: []int{0, 3, 1, 0, 1, 2, 3},
		Val: []float64{3, -4, 2, 1, 1, 1, 1},
		Y:   []float64{1, 1, -1, -1},
	}
	s.Normalize()
	// Lengths 5, 0 (an empty row, left as it is), 2 and 2.
	want := []float64{3.0 / 5, -4.0 / 5, 1, 0.5, 0.5, 0.5, 0.5}
	if !reflect.DeepEqual(s.Val, want) {
		t.Errorf("got %v, want %v", s.Val, want)
	}
}
