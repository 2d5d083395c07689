// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/seed5ae3614e/perceptron"
)

// The values of the text formats are decimal numbers of the grammar that
// the package's documentation gives, parsed to the bits that
// strconv.ParseFloat gives. scan parses the common values by hand, in one
// pass over their bytes, where the arithmetic of float64 is exact: digits
// that make a whole number of at most 2^53, and a power of ten that float64
// holds, as strconv's own fast path takes them (Clinger, 1990). It gives
// the others, of more digits or larger exponents, to strconv.ParseFloat,
// whose grammar holds the package's.

// numKind says what scan found.
type numKind uint8

const (
	numOK        numKind = iota // a finite number
	numSyntax                   // no number of the grammar
	numNonFinite                // a number, but an infinity or NaN, or beyond float64
)

// pow10 are the powers of ten that float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// scan parses the number that starts at b[i] and returns it and the index
// of the first byte after it. The number ends where the grammar can go no
// further: the caller checks what follows. It returns numSyntax if b[i:]
// starts with no number of the grammar, or with a number that the byte
// after it makes another token, as a letter or a point would, which only
// the caller can tell; numNonFinite for a number that is not finite.
func scan(b []byte, i int) (v float64, end int, kind numKind) {
	start := i
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var m uint64
	nd, exp := 0, 0 // significant digits in m, and the power of ten of its last
	digits, slow := false, false
	for ; i < len(b); i++ {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		digits = true
		if nd < 19 {
			m = m*10 + uint64(d)
			if m != 0 {
				nd++
			}
		} else {
			slow = true
		}
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b); i++ {
			d := b[i] - '0'
			if d > 9 {
				break
			}
			digits = true
			if nd < 19 {
				m = m*10 + uint64(d)
				if m != 0 {
					nd++
				}
				exp--
			} else {
				slow = true
			}
		}
	}
	if !digits {
		return special(b, start)
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		j := i + 1
		esign := 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			if b[j] == '-' {
				esign = -1
			}
			j++
		}
		if j == len(b) || b[j]-'0' > 9 {
			return 0, i, numSyntax // an e without digits after it
		}
		e := 0
		for ; j < len(b) && b[j]-'0' <= 9; j++ {
			if e < 1e5 { // beyond, the value is 0 or infinite, as strconv finds
				e = e*10 + int(b[j]-'0')
			}
		}
		exp += esign * e
		i = j
	}
	if !slow && m <= 1<<53 {
		// Clinger's fast path: m and the power of ten are exact, and one
		// operation rounds the value as strconv rounds it.
		f := float64(m)
		if neg {
			f = -f
		}
		switch {
		case m == 0 || exp == 0:
			return f, i, numOK
		case exp > 0 && exp <= 22:
			return f * pow10[exp], i, numOK
		case exp < 0 && exp >= -22:
			return f / pow10[-exp], i, numOK
		case exp > 22 && exp <= 22+15:
			// Some of the zeros of the power fit in the mantissa, exactly
			// while it stays below 2^53.
			if f *= pow10[exp-22]; f <= 1e15 && f >= -1e15 {
				return f * pow10[22], i, numOK
			}
		}
	}
	return parseSlow(b[start:i], i)
}

// parseSlow returns the value of the number s, of the grammar, as
// strconv.ParseFloat parses it, and end.
func parseSlow(s []byte, end int) (float64, int, numKind) {
	v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(s), len(s)), 64)
	switch {
	case err != nil && err.(*strconv.NumError).Err == strconv.ErrRange:
		return v, end, numNonFinite
	case err != nil:
		return 0, end, numSyntax // not reached: the grammar is strconv's
	}
	return v, end, numOK
}

// special parses the words of the numbers that are not finite, as
// strconv.ParseFloat takes them, in any case: inf and infinity, with or
// without a sign, and nan.
func special(b []byte, i int) (float64, int, numKind) {
	word := func(j int, w string) int {
		if len(b)-j < len(w) {
			return -1
		}
		for k := range len(w) {
			if b[j+k]|0x20 != w[k] {
				return -1
			}
		}
		return j + len(w)
	}
	j, sign := i, 1
	if j < len(b) && (b[j] == '+' || b[j] == '-') {
		if b[j] == '-' {
			sign = -1
		}
		j++
	} else if end := word(j, "nan"); end >= 0 {
		return math.NaN(), end, numNonFinite
	}
	for _, w := range []string{"infinity", "inf"} {
		if end := word(j, w); end >= 0 {
			return math.Inf(sign), end, numNonFinite
		}
	}
	return 0, i, numSyntax
}

// parseNumber parses the whole of s as a number of the grammar.
func parseNumber(s []byte) (float64, numKind) {
	v, end, kind := scan(s, 0)
	if end != len(s) {
		return 0, numSyntax
	}
	return v, kind
}

// quote returns s quoted, cut to its first 40 bytes: an error quotes a
// short, printable prefix of a bad token, however long the token.
func quote(s string) string {
	const most = 40
	if len(s) <= most {
		return strconv.QuoteToASCII(s)
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.QuoteToASCII(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
}

// number parses a feature value, which must be a finite number, with white
// space around it or none.
func number(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, errorf(perceptron.ErrFormat, "empty, want a number")
	}
	v, kind := parseNumber([]byte(t))
	switch kind {
	case numSyntax:
		return 0, errorf(perceptron.ErrFormat, "%s is not a number", quote(s))
	case numNonFinite:
		return 0, errorf(perceptron.ErrNonFinite, "%s is not a finite number", quote(s))
	}
	return v, nil
}
