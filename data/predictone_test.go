// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seed5ae3614e/perceptron"
)

// oneRowModel returns a Model of text hashed into 2^bits columns,
// weighed by IDF and scaled to unit length, fitted to a few lines, and
// the row of one text.
func oneRowModel(t testing.TB, bits int) (*Model, *perceptron.CSR) {
	h := Hashing{NGrams: 2, Bits: bits}
	set, err := Text{Hashing: h}.Read(strings.NewReader("__label__a red apples and pears\n__label__b the blue sea\n__label__c green pears and apples\n__label__b a grey sea\n"))
	if err != nil {
		t.Fatal(err)
	}
	idf, err := NewIDF(set.X)
	if err != nil {
		t.Fatal(err)
	}
	m := &Model{Classifier: &perceptron.Averaged{Epochs: 3}, Hashing: &h, Scaler: idf, Normalize: true}
	if err := m.Fit(set); err != nil {
		t.Fatal(err)
	}
	X, err := h.Transform([]string{"ripe red pears by the sea"})
	if err != nil {
		t.Fatal(err)
	}
	return m, X
}

// Predict of one sparse row holds memory of its non-zeros, not of the
// columns: no dense copy of it, of any width.
func TestPredictOneSparseRow(t *testing.T) {
	m, X := oneRowModel(t, 20)
	if _, err := m.Predict(X); err != nil {
		t.Fatal(err)
	}
	var err error
	if a := jtAllocs(func() { _, err = m.Predict(X) }); err != nil || a > 16<<10 {
		t.Errorf("Predict of one row of %d non-zeros in 2^20 columns allocates %d bytes (%v)", X.NNZ(), a, err)
	}
}

// jtAllocs returns the bytes that f allocates.
func jtAllocs(f func()) uint64 {
	return uint64(testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f()
		}
	}).AllocedBytesPerOp())
}

// BenchmarkPredictOneRow times Predict of one row of text of a Model of
// 2^12 to 2^20 columns: the time of its non-zeros, whatever the columns.
func BenchmarkPredictOneRow(b *testing.B) {
	for _, bits := range []int{12, 16, 20} {
		m, X := oneRowModel(b, bits)
		b.Run(fmt.Sprintf("bits=%d", bits), func(b *testing.B) {
			for b.Loop() {
				if _, err := m.Predict(X); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
