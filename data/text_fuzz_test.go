// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// fuzzHashing returns the Hashing of the fuzzed settings: every NGrams
// from 0 to 4, every Bits from 0 to 30, and every Values.
func fuzzHashing(ngrams, bits, values uint8, signed, noNorm bool) data.Hashing {
	return data.Hashing{
		NGrams: int(ngrams % 5),
		Bits:   int(bits % 31),
		Seed:   uint32(ngrams) * 0x9e3779b9,
		Signed: signed,
		Values: []string{"", "count", "binary", "tf"}[values%4],
		NoNorm: noNorm,
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{
		"__label__b Hello world\n\n__label__a the end of it.\r\n",
		"word __label__x more __label__y words\n__label__y\n",
		"__label__a a__label__b __label__\n",
		"\ufeffone text\nanother\n",
		"spam\tBuy now!\n ham \tsee you __label__x\nspam\t\n",
		"\tno label\n",
		"__label__10 x\n__label__9 y\n__label__1e1 z\n__label__nan w\n",
		"__label__a x\ny\n",
		"x\n__label__a y\n",
		"__label__a ÉCOLE Straße ΣΊΣΥΦΟΣ cafe\u0301 東京、大阪 ١٢٣\n",
		"__label__a ab\xffc\n",
		"a\rb\tc\u00a0d\u2028e\n",
		"__label__a a a a a a a a a a a a a a a a a\n",
	} {
		f.Add([]byte(s), false, uint8(2), uint8(4), uint8(0), false, false, uint16(0), "")
		f.Add([]byte(s), true, uint8(3), uint8(1), uint8(3), true, true, uint16(12), "a|b")
	}
	f.Add(gzipped(f, []byte("__label__a x y\n__label__b z\n")), false, uint8(1), uint8(0), uint8(2), true, false, uint16(0), "b")
	f.Fuzz(func(t *testing.T, in []byte, tab bool, ngrams, bits, values uint8, signed, noNorm bool, maxLine uint16, classes string) {
		fixed := fixedClasses(classes)
		h := fuzzHashing(ngrams, bits, values, signed, noNorm)
		r := data.Text{Hashing: h, Tab: tab, Classes: fixed, MaxLine: int(maxLine)}
		s, err := r.Read(bytes.NewReader(in))
		checkStream(t, s, err, collect(t, r.Rows(bytes.NewReader(in))))
		if err != nil {
			checkErr(t, s, err)
			return
		}
		checkSet(t, s, s.Y != nil, fixed)
		X, ok := s.X.(*perceptron.CSR)
		if !ok {
			t.Fatalf("X is a %T", s.X)
		}
		text, ok := plain(in)
		if !ok {
			return
		}
		if !utf8.Valid(text) {
			t.Fatal("text that is not UTF-8 read")
		}
		checkMaxLine(t, text, r.MaxLine)
		labels, rows, some, all := naiveText(string(text), tab)
		switch {
		case some && !all:
			t.Fatalf("lines with labels and lines without read: %q", labels)
		case all != (s.Y != nil):
			t.Fatalf("every line has a label: %v; Y %v", all, s.Y)
		}
		checkRows(t, h, X, rows)
		if all {
			checkLabels(t, s, labels)
		}
	})
}

func FuzzHashing(f *testing.F) {
	for _, s := range texts {
		f.Add(s, "new york new york", uint8(2), uint8(8), uint8(0), false, false)
		f.Add(s, "", uint8(4), uint8(2), uint8(3), true, true)
	}
	f.Add("caf\xe9", "ok", uint8(1), uint8(0), uint8(1), false, false)
	f.Fuzz(func(t *testing.T, a, b string, ngrams, bits, values uint8, signed, noNorm bool) {
		h := fuzzHashing(ngrams, bits, values, signed, noNorm)
		X, err := h.Transform([]string{a, b})
		if err != nil {
			checkShortPrintable(t, err.Error())
			if utf8.ValidString(a) && utf8.ValidString(b) {
				t.Fatalf("%+v: %v", h, err)
			}
			return
		}
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			t.Fatal("text that is not UTF-8 transformed")
		}
		checkRows(t, h, X, []string{a, b})
	})
}
