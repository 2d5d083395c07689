// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// validCases are texts on either side of the grammar, which Valid must
// judge as json.Valid does.
var validCases = []string{
	``, ` `, `0`, `-0`, `-`, `01`, `1.`, `.5`, `1.5e`, `1e+`, `1E-7`, `-12.5e+3`, `1x`,
	`"`, `"a`, `"\u00e9\"\\\/\b\f\n\r\t"`, `"\u00g0"`, `"\x"`, "\"\x01\"", "\"\xff\xfe\"", `"\u12"`,
	`true`, `tru`, `truex`, `false`, `null`, `nul`, `None`,
	`[]`, `[ ]`, `[1,]`, `[,1]`, `[1 2]`, `[1,[2,[3]]]`, `[`, `]`, `[1}`,
	`{}`, `{ }`, `{"a":1}`, `{"a" : 1 , "b":[true]}`, `{"a"}`, `{"a":}`, `{a:1}`, `{"a":1,}`, `{,"a":1}`, `{"a":1]`, `{1:2}`,
	` {"a":[1,{"b":null}]} `, `{"a":1} {}`, `1 2`, "\t\n\r 7 \n",
	strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth),
	strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
	strings.Repeat(`{"a":`, maxDepth) + "1" + strings.Repeat("}", maxDepth),
	strings.Repeat(`{"a":`, maxDepth+1) + "1" + strings.Repeat("}", maxDepth+1),
}

func TestValid(t *testing.T) {
	for _, c := range validCases {
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%.60q) = %v, json.Valid %v", c, got, want)
		}
	}
}

// FuzzValid checks that Valid judges any text as json.Valid does.
func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid %v", b, got, want)
		}
	})
}

// BenchmarkValid compares Valid with json.Valid on the text of a model's
// numbers.
func BenchmarkValid(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"type":"Averaged","model":{"weights":[`)
	for i := range 100000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString("-0.0123456789012345e-3")
	}
	sb.WriteString(`]}}`)
	text := []byte(sb.String())
	for _, c := range []struct {
		name  string
		valid func([]byte) bool
	}{{"jsonscan", Valid}, {"encoding-json", json.Valid}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if !c.valid(text) {
					b.Fatal("invalid")
				}
			}
		})
	}
}
