// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command golden prints a deterministic dump of every model of package
// perceptron under every setting, on every kind of input, with every
// output of the models and of package data, every float by its exact
// value. Two commits that print the same dump compute the same bits.
//
//	go run ./bench/golden > golden.txt
//	go run ./bench/golden -times 100ms models kernel > /dev/null
//
// The arguments, if any, name the sections to print; -times prints to
// standard error the cases slower than its duration, and not to the dump;
// -json prints every saved model whole, where the dump prints the long
// members of a large one by their length and hash.
//
// Each case starts with a line "=== section/case", so that a diff points
// at the case. It uses only the exported API of the library and of
// package data, so that it builds against older commits: see README.md
// and compare.sh.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed5ae3614e/perceptron"
	"gonum.org/v1/gonum/mat"
)

func main() {
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	p := &printer{w: w}
	sections := []struct {
		name string
		run  func(*printer)
	}{
		{"sets", sectionSets},
		{"models", sectionModels},
		{"sizes", sectionSizes},
		{"settings", sectionSettings},
		{"inputs", sectionInputs},
		{"kernel", sectionKernel},
		{"onevsrest", sectionOneVsRest},
		{"learn", sectionLearn},
		{"shards", sectionShards},
		{"margins", sectionMargins},
		{"errors", sectionErrors},
		{"data", sectionData},
		{"weights", sectionWeights},
	}
	jsonText := flag.Bool("json", false, "print every saved model whole, not the long members of the large ones by their hash")
	times := flag.Duration("times", 0, "print to standard error the cases that take longer than this, and each section's time")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: golden [-json] [-times d] [section...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	p.times, p.jsonText = *times, *jsonText
	for _, s := range sections {
		if flag.NArg() > 0 && !slices.Contains(flag.Args(), s.name) {
			continue
		}
		start := time.Now()
		p.section = s.name
		s.run(p)
		if p.times > 0 {
			fmt.Fprintf(os.Stderr, "section %s: %v\n", s.name, time.Since(start).Round(time.Millisecond))
		}
	}
	fmt.Fprintf(w, "=== end: %d cases\n", p.cases)
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "golden:", err)
		os.Exit(1)
	}
}

// printer writes the dump. Its methods print one value or one line each.
type printer struct {
	w       *bufio.Writer
	section string
	cases   int

	times    time.Duration
	jsonText bool
}

// run prints the header of the case name and runs f, printing the value
// of any panic in it, which ends the case.
func (p *printer) run(name string, f func()) {
	p.cases++
	fmt.Fprintf(p.w, "=== %s/%s\n", p.section, name)
	start := time.Now()
	if msg, ok := catch(f); ok {
		p.printf("PANIC: %s", msg)
	}
	if t := time.Since(start); p.times > 0 && t > p.times {
		fmt.Fprintf(os.Stderr, "%v %s/%s\n", t.Round(time.Millisecond), p.section, name)
	}
}

// catch runs f and returns the text of the value it panicked with, and
// whether it panicked.
func catch(f func()) (msg string, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			msg, panicked = fmt.Sprint(r), true
		}
	}()
	f()
	return "", false
}

// panics prints what f panics with, or that it did not.
func (p *printer) panics(what string, f func()) {
	if msg, ok := catch(f); ok {
		p.printf("%s: panic: %s", what, msg)
	} else {
		p.printf("%s: no panic", what)
	}
}

func (p *printer) printf(format string, args ...any) {
	fmt.Fprintf(p.w, format, args...)
	p.w.WriteByte('\n')
}

// err prints an error, or nil.
func (p *printer) err(what string, err error) {
	if err == nil {
		p.printf("%s: err <nil>", what)
		return
	}
	p.printf("%s: err %q", what, err.Error())
}

// perLine is the number of values on a line of a vector.
const perLine = 8

// floats prints v by the exact value of each element, perLine a line,
// telling nil from empty.
func (p *printer) floats(name string, v []float64) {
	switch {
	case v == nil:
		p.printf("%s: nil", name)
		return
	case len(v) <= perLine:
		p.printf("%s: [%d] %s", name, len(v), fs(v))
		return
	}
	p.printf("%s: [%d]", name, len(v))
	for i := 0; i < len(v); i += perLine {
		p.printf("  %d: %s", i, fs(v[i:min(i+perLine, len(v))]))
	}
}

// rows prints the n×s values of v as n rows of s, a row of more than
// wideRow by its hash.
func (p *printer) rows(name string, v []float64, s int) {
	if s <= 1 || v == nil {
		p.floats(name, v)
		return
	}
	p.printf("%s: [%d] by %d", name, len(v), s)
	for i := 0; i+s <= len(v); i += s {
		if s > wideRow {
			p.printf("  %d: hash %x", i/s, hash(v[i:i+s]))
		} else {
			p.printf("  %d: %s", i/s, fs(v[i:i+s]))
		}
	}
}

// wideRow is the most values of a row that rows prints.
const wideRow = 24

// ints prints v, 20 a line, telling nil from empty.
func (p *printer) ints(name string, v []int) {
	if v == nil {
		p.printf("%s: nil", name)
		return
	}
	p.printf("%s: [%d]", name, len(v))
	for i := 0; i < len(v); i += 20 {
		var b strings.Builder
		for j, x := range v[i:min(i+20, len(v))] {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(x))
		}
		p.printf("  %d: %s", i, b.String())
	}
}

// text prints s line by line, in lines of at most 160 bytes.
func (p *printer) text(name, s string) {
	p.printf("%s: %d bytes", name, len(s))
	for _, l := range strings.Split(s, "\n") {
		p.printf("  |%s", l[:min(160, len(l))])
		for i := 160; i < len(l); i += 160 {
			p.printf("  +%s", l[i:min(i+160, len(l))])
		}
	}
}

// f returns the shortest decimal that reads back to exactly v, as "-0"
// for negative zero.
func f(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// fs returns the values of v, each as f writes it, separated by spaces.
func fs(v []float64) string {
	var b strings.Builder
	for i, x := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f(x))
	}
	return b.String()
}

// same reports whether a and b hold the same bits, telling nil from empty.
func same(a, b []float64) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// hash returns the FNV-1a hash of the bits of v.
func hash(v []float64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, x := range v {
		u := math.Float64bits(x)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

// hashMatrix returns the hash of the elements of m, row by row.
func hashMatrix(m mat.Matrix) uint64 {
	r, c := m.Dims()
	v := make([]float64, 0, r*c)
	for i := range r {
		for j := range c {
			v = append(v, m.At(i, j))
		}
	}
	return hash(v)
}

// hashStored returns the hash of the stored elements of m, their columns
// and values, row by row.
func hashStored(m *perceptron.CSR) uint64 {
	r, _ := m.Dims()
	var v []float64
	for i := range r {
		m.DoRowNonZero(i, func(i, j int, x float64) { v = append(v, float64(i), float64(j), x) })
	}
	return hash(v)
}
