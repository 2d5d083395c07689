// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"errors"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The grammar of values, as the package's documentation states it, apart
// from the code that parses it.
var (
	decimal  = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
	nonFinte = regexp.MustCompile(`^([+-]?(?i:inf|infinity)|(?i:nan))$`)
)

// checkNumber fails t unless parseNumber parses s as the grammar and
// strconv.ParseFloat say: a decimal number to the bits that ParseFloat
// gives, if finite; an infinity, NaN or a number beyond float64 as a
// number that is not finite; anything else as no number.
func checkNumber(t *testing.T, s string) {
	t.Helper()
	v, kind := parseNumber([]byte(s))
	want, err := strconv.ParseFloat(s, 64)
	switch {
	case decimal.MatchString(s) && err == nil:
		if kind != numOK || math.Float64bits(v) != math.Float64bits(want) {
			t.Fatalf("%q: %v (%x), kind %d; want %v (%x), as strconv.ParseFloat", s, v, math.Float64bits(v), kind, want, math.Float64bits(want))
		}
	case decimal.MatchString(s) && errors.Is(err, strconv.ErrRange), nonFinte.MatchString(s):
		if kind != numNonFinite {
			t.Fatalf("%q: kind %d, want a number that is not finite (ParseFloat: %v, %v)", s, kind, want, err)
		}
	case kind != numSyntax:
		t.Fatalf("%q: %v, kind %d; want no number", s, v, kind)
	}
}

func TestParseNumberEdges(t *testing.T) {
	for _, s := range []string{
		"0", "-0", "+0", "0.0", "-0.0", ".0", "0.", "00", "-.0e-0",
		"1", "-1", "+1", "1.", ".5", "-.5", "+.5e+3", "5e0", "5E-0",
		"123.456", "-123.456e-7", "1e22", "1e23", "9e22", "1e-22", "1e-23",
		"123456789012345e22", "1234567890123456e22", "1e37", "123e35", "1e38",
		"9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
		"18014398509481985", "4503599627370497.5", "0.1", "0.2", "0.3", "0.30000000000000004",
		"2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
		"2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "-1e-400",
		"1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e309", "-1e400",
		"1e99999999999999999999", "1e-99999999999999999999", "0e99999999999999999999",
		"123456789012345678901234567890", "0.000000000000000000000000000001",
		"1.00000000000000000000000000000000000000000001", "99999999999999999999e-20",
		"8.98846567431158e307", "7.2057594037927933e16", "1.8446744073709552e19",
		"inf", "-Inf", "+INF", "infinity", "-Infinity", "nan", "NaN", "NAN",
		"+nan", "-nan", "infin", "infx", "nanx", "in", "na",
		"", "+", "-", ".", "+.", "-.e1", "e1", "1e", "1e+", "1e-", "1.e", "1.2.3", "1e5e",
		"1_000", "1__0", "_1", "0x10", "0x1p3", "0X1P-2", "0b101", "0o17", "1 ", " 1", "1,5", "١",
	} {
		checkNumber(t, s)
	}
}

// TestParseNumberRandom parses many numbers of random digits and
// exponents, and the shortest and longer forms of random float64 values of
// every magnitude, against strconv.ParseFloat.
func TestParseNumberRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + rnd.IntN(10)))
		}
		return b.String()
	}
	n := 30000
	if testing.Short() {
		n = 3000
	}
	for range n {
		// Random digits, points, signs and exponents.
		var b strings.Builder
		switch rnd.IntN(3) {
		case 0:
			b.WriteByte('-')
		case 1:
			b.WriteByte('+')
		}
		b.WriteString(digits(rnd.IntN(22)))
		if rnd.IntN(2) == 0 {
			b.WriteByte('.')
			b.WriteString(digits(rnd.IntN(22)))
		}
		if rnd.IntN(2) == 0 {
			b.WriteString([]string{"e", "E", "e-", "e+", "E-"}[rnd.IntN(5)])
			b.WriteString(strconv.Itoa(rnd.IntN(700)))
		}
		checkNumber(t, b.String())

		// A float64 of random bits, written as writers of data write it.
		f := math.Float64frombits(rnd.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		for _, prec := range []int{-1, 17, 16, 15, 6, 3} {
			checkNumber(t, strconv.FormatFloat(f, 'g', prec, 64))
			checkNumber(t, strconv.FormatFloat(f, 'e', prec, 64))
		}
		// And of a common magnitude, in fixed notation.
		g := rnd.NormFloat64() * math.Pow(10, float64(rnd.IntN(16)-8))
		checkNumber(t, strconv.FormatFloat(g, 'f', -1, 64))
		checkNumber(t, strconv.FormatFloat(g, 'f', rnd.IntN(12), 64))
		checkNumber(t, strconv.FormatFloat(float64(float32(g)), 'g', -1, 32))
		// Whole numbers near 2^53 and halfway cases of 17 digits.
		w := uint64(1)<<53 + rnd.Uint64N(1<<12) - 1<<11
		checkNumber(t, strconv.FormatUint(w, 10))
		checkNumber(t, strconv.FormatUint(w, 10)+"e"+strconv.Itoa(rnd.IntN(40)-20))
	}
}

// FuzzNumber checks any text against the grammar and strconv.ParseFloat.
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"1", "-0.5", "1e22", "123456789012345678e-5", "inf", "nan", "0x1p3", "1_0", "1e400", ".5e-3", "9007199254740993"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkNumber(t, s)
		// Parsed within a line, a number ends where the grammar does.
		v, end, kind := scan([]byte(s+" x"), 0)
		w, wkind := parseNumber([]byte(s))
		if wkind != numSyntax && (end != len(s) || kind != wkind || math.Float64bits(v) != math.Float64bits(w)) {
			t.Fatalf("%q: within a line %v, %d, kind %d; alone %v, kind %d", s, v, end, kind, w, wkind)
		}
	})
}
