// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"errors"
	"fmt"
	"math"
)

// NewIDFCounts returns the Scaler that NewIDF returns for rows of which n
// are counted and df[j] are not zero in column j, to the bit. The counts of
// parts of the rows add up to those of all of them, so that the Scaler of
// rows read in parts, as shards on machines of their own, is NewIDF's of
// their union. It returns an error if n is less than 1, or naming the
// column of a count that is negative or more than n.
//
// NewIDFCounts holds 8 bytes for each column, which the Scaler keeps, and
// checks them first.
func NewIDFCounts(n int, df []int) (*Scaler, error) {
	if n < 1 {
		return nil, errors.New("data: no rows to weigh by")
	}
	for j, f := range df {
		if f < 0 || f > n {
			return nil, fmt.Errorf("data: column %d: a count of %d rows, want 0 to %d", j+1, f, n)
		}
	}
	if err := checkMemory(8*float64(len(df)), "data: weighing %d columns", len(df)); err != nil {
		return nil, err
	}
	scale := make([]float64, len(df))
	for j, f := range df {
		scale[j] = inverseIDF(n, float64(f))
	}
	return &Scaler{Scale: scale}, nil
}

// inverseIDF returns the inverse of the inverse document frequency of a
// column not zero in df of n rows.
func inverseIDF(n int, df float64) float64 {
	return 1 / (math.Log((1+float64(n))/(1+df)) + 1)
}
