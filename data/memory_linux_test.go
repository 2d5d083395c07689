// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/seed5ae3614e/perceptron/internal/memtest"
)

// TestRowsHugePages checks the requests for huge pages of the arrays of a
// read's rows, by the flags of their mappings: growRows asks for them for
// the array it makes and withdraws them from the one it replaces, and
// fitText, which ends a read and Hashing.Transform, withdraws them and
// gives the pages beyond the length back, which a huge page would
// otherwise hold.
func TestRowsHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") {
		t.Skip("Linux does not give huge pages to memory advised of them alone here")
	}
	at := func(s []float64, i int) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(s))) + uintptr(8*i) }
	fill := func(s []float64, from int) {
		for i := from; i < len(s); i++ {
			s[i] = float64(i)
		}
	}
	a, err := growRows([]float64{0, 1, 2}, 1<<20) // 8 MiB
	if err != nil {
		t.Fatal(err)
	}
	a = a[:800_000]
	fill(a, 3)
	if got := memtest.Flags(t, at(a, 1<<19)); got != "hg" {
		t.Errorf("the array that growRows made: %q, want hg", got)
	}
	b, err := growRows(a, 2<<20) // 16 MiB
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
	// A length that fitText keeps, more than 2 MiB before the end, so
	// that a whole huge page holds the last elements and what follows.
	n := 1_700_000
	b = b[:n]
	fill(b, len(a))
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

	// Transform ends as a read does: no request outlives it. Its rows
	// here hold 960,000 values, 7.3 MiB of them.
	texts := make([]string, 32_000)
	for i := range texts {
		var b strings.Builder
		for k := range 30 {
			fmt.Fprintf(&b, "w%d ", 30*i+k)
		}
		texts[i] = b.String()
	}
	X, err := Hashing{}.Transform(texts)
	if err != nil {
		t.Fatal(err)
	}
	_, ind, val := X.RawCSR()
	for _, p := range []uintptr{uintptr(unsafe.Pointer(&ind[len(ind)/2])), uintptr(unsafe.Pointer(&val[len(val)/2]))} {
		if got := memtest.Flags(t, p); got == "hg" {
			t.Errorf("Transform's rows after it returned: %q, want no request for huge pages", got)
		}
	}
}
