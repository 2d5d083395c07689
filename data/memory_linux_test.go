// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/seed5ae3614e/perceptron/internal/memtest"
)

// hugeAdvised skips t unless Linux gives huge pages to memory advised of
// them alone, as memory.Huge asks for them.
func hugeAdvised(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	_, serr := os.Stat("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")
	if err != nil || serr != nil || !strings.Contains(string(mode), "[madvise]") {
		t.Skip("Linux does not give huge pages to memory advised of them alone here")
	}
}

// TestRowsHugePages checks the requests for huge pages of the arrays of a
// read's rows, by the flags of their mappings: growRows asks for them for
// the array it makes and withdraws them from the one it replaces, but not
// for Rows, and fitText, which ends a read, withdraws them and gives the
// pages beyond the length back, which a huge page would otherwise hold.
func TestRowsHugePages(t *testing.T) {
	hugeAdvised(t)
	at := func(s []float64, i int) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(s))) + uintptr(8*i) }
	fill := func(s []float64, from int) {
		for i := from; i < len(s); i++ {
			s[i] = float64(i)
		}
	}
	if a, err := growRows([]float64{0}, 1<<20, nil); err != nil || memtest.Flags(t, at(a, 1<<19)) == "hg" {
		t.Errorf("growRows of the rows of Rows: %v, flags %q, want no request", err, memtest.Flags(t, at(a, 1<<19)))
	}
	text := &lines{}
	a, err := growRows([]float64{0, 1, 2}, 1<<20, text) // 8 MiB
	if err != nil {
		t.Fatal(err)
	}
	a = a[:800_000]
	fill(a, 3)
	if got := memtest.Flags(t, at(a, 1<<19)); got != "hg" {
		t.Errorf("the array that growRows made: %q, want hg", got)
	}
	b, err := growRows(a, 2<<20, text) // 16 MiB
	if err != nil {
		t.Fatal(err)
	}
	if got := memtest.Flags(t, at(a, 1<<19)); got != "nh" {
		t.Errorf("the array that growRows replaced: %q, want nh", got)
	}
	if got := memtest.Flags(t, at(b, 1<<20)); got != "hg" {
		t.Errorf("the array that replaced it: %q, want hg", got)
	}
	if !slices.Equal(b, a) {
		t.Fatal("growRows did not copy the elements")
	}
	// A length that fitText keeps, 3.2 MB before the end of the array,
	// so that the huge page that holds the last element lies within it.
	n := 1_700_000
	b = b[:n]
	fill(b, len(a))
	if !slices.Contains(memtest.Resident(t, at(b, n), 8*(cap(b)-n)), true) {
		t.Skip("no huge page holds the last elements here: the pages beyond them are not resident to give back")
	}
	c := fitText(b)
	if &c[0] != &b[0] {
		t.Fatalf("fitText copied %d elements of a capacity of %d", n, cap(b))
	}
	if got := memtest.Flags(t, at(c, 1<<20)); got != "nh" {
		t.Errorf("the array after fitText: %q, want nh", got)
	}
	for k, in := range memtest.Resident(t, at(c, n), 8*(cap(c)-n)) {
		if in {
			t.Errorf("page %d beyond the length after fitText is resident", k)
		}
	}
	if c[n-1] != float64(n-1) || c[0] != 0 {
		t.Errorf("fitText changed the elements: %v, %v", c[0], c[n-1])
	}
}

// TestReadsLeaveNoRequest checks that no request for huge pages outlives
// a read of rows of more than 4 MiB, whole or failed at its last line, by
// each reader, or Rows, or Hashing.Transform: no mapping of the process
// carries one after it.
func TestReadsLeaveNoRequest(t *testing.T) {
	hugeAdvised(t)
	if m := memtest.Advised(t); m != "" {
		t.Skipf("a mapping is advised before the reads: %s", m)
	}
	var libsvm, csv, text bytes.Buffer
	for i := range 20_000 {
		fmt.Fprintf(&libsvm, "%d", i%2)
		for k := range 40 {
			fmt.Fprintf(&libsvm, " %d:%d", 40*i+k+1, k+1)
			fmt.Fprintf(&csv, "%d,", k+1)
			fmt.Fprintf(&text, "w%d ", 40*i+k)
		}
		fmt.Fprintf(&csv, "%d\n", i%2)
		fmt.Fprintf(&text, "\n")
	}
	texts := strings.Split(strings.TrimSpace(text.String()), "\n")
	hashing := Hashing{NGrams: 2}
	for _, r := range []struct {
		name string
		read func(b []byte) error
	}{
		{"LIBSVM", func(b []byte) error { _, err := LIBSVM{}.Read(bytes.NewReader(b)); return err }},
		{"CSV", func(b []byte) error { _, err := CSV{Label: "last"}.Read(bytes.NewReader(b)); return err }},
		{"Text", func(b []byte) error { _, err := Text{Hashing: hashing}.Read(bytes.NewReader(b)); return err }},
		{"LIBSVM Rows", func(b []byte) error {
			for _, err := range (LIBSVM{}).Rows(bytes.NewReader(b)) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
	} {
		in := map[string][]byte{"LIBSVM": libsvm.Bytes(), "CSV": csv.Bytes(), "Text": text.Bytes(), "LIBSVM Rows": libsvm.Bytes()}[r.name]
		for _, bad := range []bool{false, true} {
			b := in
			if bad {
				b = append(slices.Clip(in), "x:y \xff\n"...) // no pair, no field of the rest, no UTF-8
			}
			if err := r.read(b); (err != nil) != bad {
				t.Fatalf("%s, failing %t: %v", r.name, bad, err)
			}
			if m := memtest.Advised(t); m != "" {
				t.Errorf("%s, failing %t: a mapping is advised after the read: %s", r.name, bad, m)
			}
		}
	}
	if _, err := hashing.Transform(texts); err != nil {
		t.Fatal(err)
	}
	if m := memtest.Advised(t); m != "" {
		t.Errorf("Transform: a mapping is advised after it: %s", m)
	}
}
