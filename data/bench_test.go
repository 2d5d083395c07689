// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/seed5ae3614e/perceptron/data"
)

// benchLIBSVM returns 20,000 rows of LIBSVM text of 10 classes and about
// 50 non-zeros each, among 100,000 features, as text data sets are.
func benchLIBSVM() []byte {
	rnd := rand.New(rand.NewPCG(1, 2))
	var b []byte
	for range 20000 {
		b = strconv.AppendInt(b, int64(rnd.IntN(10)), 10)
		j := 0
		for range 50 {
			j += 1 + rnd.IntN(4000)
			b = append(strconv.AppendInt(append(b, ' '), int64(j), 10), ":1"...)
		}
		b = append(b, '\n')
	}
	return b
}

// benchCSV returns 20,000 rows of CSV of 30 numbers and a label of 3
// classes.
func benchCSV() []byte {
	rnd := rand.New(rand.NewPCG(3, 4))
	var b []byte
	for i := range 20000 {
		for range 30 {
			b = append(strconv.AppendFloat(b, rnd.NormFloat64()*100, 'g', 6, 64), ',')
		}
		b = append(strconv.AppendInt(b, int64(i%3), 10), '\n')
	}
	return b
}

func BenchmarkLIBSVMRead(b *testing.B) {
	in := benchLIBSVM()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (data.LIBSVM{}).Read(bytes.NewReader(in)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCSVRead(b *testing.B) {
	in := benchCSV()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (data.CSV{}).Read(bytes.NewReader(in)); err != nil {
			b.Fatal(err)
		}
	}
}
