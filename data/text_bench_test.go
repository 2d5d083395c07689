// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seed5ae3614e/perceptron/data"
)

// benchText returns lines of fastText's format, of 60 words each on
// average drawn from a vocabulary of 20,000 of Zipf's law, with
// punctuation, as descriptions of packages are.
func benchText(lines int) string {
	rnd := rand.New(rand.NewPCG(3, 4))
	zipf := rand.NewZipf(rnd, 1.1, 1, 19_999)
	vocab := make([]string, 20_000)
	for i := range vocab {
		b := make([]byte, 2+rnd.IntN(9))
		for k := range b {
			b[k] = byte('a' + rnd.IntN(26))
		}
		vocab[i] = string(b)
	}
	var sb strings.Builder
	for range lines {
		sb.WriteString("__label__c")
		sb.WriteByte(byte('0' + rnd.IntN(10)))
		for range 30 + rnd.IntN(60) {
			sb.WriteByte(' ')
			w := vocab[zipf.Uint64()]
			if rnd.IntN(10) == 0 {
				w = strings.ToUpper(w[:1]) + w[1:] + ","
			}
			sb.WriteString(w)
		}
		sb.WriteString(".\n")
	}
	return sb.String()
}

func BenchmarkTextRead(b *testing.B) {
	text := benchText(5000)
	for _, tc := range []struct {
		name string
		h    data.Hashing
	}{
		{"words", data.Hashing{}},
		{"bigrams", data.Hashing{NGrams: 2}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := (data.Text{Hashing: tc.h}).Read(strings.NewReader(text)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
