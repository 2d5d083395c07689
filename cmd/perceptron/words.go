// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron"
	"gonum.org/v1/gonum/mat"
)

// howEnded says how a training run of st ended, of at most limit epochs.
func howEnded(st perceptron.Stats, limit int) string {
	switch {
	case st.Converged:
		return "converged"
	case st.Epochs < limit:
		return "stopped"
	}
	return "limit"
}

// writeAligned writes rows of cells as an aligned table: the first left
// columns to the left, the others to the right.
func writeAligned(w io.Writer, rows [][]string, left int) error {
	// Widths count runes, not bytes: the µ of microseconds is two bytes.
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		for j, s := range row {
			width[j] = max(width[j], utf8.RuneCountInString(s))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		var line strings.Builder
		for j, s := range row {
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(s))
			if j > 0 {
				line.WriteString("  ")
			}
			if j < left {
				line.WriteString(s + pad)
			} else {
				line.WriteString(pad + s)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// plural returns n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func percent(a float64) string {
	if math.IsNaN(a) {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*a)
}

// duration rounds d to three or four significant figures; a negative d
// is not known.
func duration(d time.Duration) string {
	switch {
	case d < 0:
		return "-"
	case d < time.Millisecond:
		return d.Round(time.Microsecond / 10).String()
	case d < time.Second:
		return d.Round(time.Microsecond * 10).String()
	}
	return d.Round(time.Millisecond * 10).String()
}

// nonZeros returns, for sparse rows X, their non-zeros and the fraction of
// the elements that they are, as ", 901234 non-zeros (0.032%)". It returns
// "" for dense rows.
func nonZeros(X mat.Matrix) string {
	m, ok := X.(*perceptron.CSR)
	if !ok {
		return ""
	}
	n, d := m.Dims()
	return nonZerosOf(m.NNZ(), n, d)
}

// nonZerosOf returns what nonZeros returns of nnz non-zeros of n sparse
// rows of d columns.
func nonZerosOf(nnz, n, d int) string {
	p := 100 * float64(nnz) / (float64(n) * float64(d))
	prec := 2
	if p > 0 && p < 1 {
		prec = 1 - int(math.Floor(math.Log10(p)))
	}
	return fmt.Sprintf(", %s (%s%%)", plural(nnz, "non-zero"), strconv.FormatFloat(p, 'f', prec, 64))
}

// article returns the indefinite article of word: "an" before a vowel.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}

// joinWords returns the words joined as in "a, b or c", with conj for
// "or".
func joinWords(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// quote returns s quoted in Go's syntax, with its bytes that are not
// printable ASCII escaped, cut to its first 40 characters and an ellipsis:
// an error quotes a bad token so, however long it is.
func quote(s string) string {
	q := fmt.Sprintf("%+.40q", s)
	if utf8.RuneCountInString(s) > 40 {
		q += "…"
	}
	return q
}

// quoteAll quotes the first most of labels, joined.
func quoteAll(labels []string, most int) string {
	var q []string
	for _, l := range labels[:min(len(labels), most)] {
		q = append(q, quote(l))
	}
	if len(labels) > most {
		q = append(q, "…")
	}
	return strings.Join(q, ", ")
}

// errText returns the message of an error of the library or of package
// data without their names, for a message of the command that gives its
// own context.
func errText(err error) string {
	s := err.Error()
	for _, prefix := range []string{"data: ", "perceptron: "} {
		s = strings.TrimPrefix(s, prefix)
	}
	return s
}

// usageError is an error in the command line. The command exits with code
// 2 on it, and 1 on any other error.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}
