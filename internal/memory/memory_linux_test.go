// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package memory

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestHuge checks that Huge advises Linux of the whole huge pages of a
// large slice and of no other byte, and that its done withdraws the
// advice, by the flags hg and nh of the mappings in /proc/self/smaps. The
// slices are mapped for the test alone, where no other advice reaches.
func TestHuge(t *testing.T) {
	page := hugePage()
	if page == 0 {
		t.Skip("Linux does not give huge pages to memory advised of them alone here")
	}
	mapped := func(n int) []byte {
		b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { syscall.Munmap(b) })
		return b
	}
	// 64 MiB from a byte 4 KiB past a huge page's start, so that the first
	// huge page is not the slice's.
	b := mapped(64<<20 + int(page))
	p := uintptr(unsafe.Pointer(&b[0]))
	first := (p + page) &^ (page - 1)
	s := b[first-p-4096 : first-p-4096+64<<20]
	done := Huge(s)
	last := (first - 4096 + 64<<20) &^ (page - 1) // the end of the last whole huge page
	if got := flags(t, first, last-1); got != "hg" {
		t.Errorf("the whole huge pages of a slice of 64 MiB: %q, want hg", got)
	}
	if got := flags(t, first-4096, last); got != "" {
		t.Errorf("the slice's bytes before its first huge page and after its last: %q, want no advice", got)
	}
	done()
	if got := flags(t, first, last-1); got != "nh" {
		t.Errorf("the slice's huge pages after done: %q, want nh, as no advice is here", got)
	}
	small := mapped(int(page))
	Huge(small)
	if got := flags(t, uintptr(unsafe.Pointer(&small[0]))); got != "" {
		t.Errorf("a slice of one huge page: %q, want no advice, only slices of 4 MiB or more", got)
	}
}

// flags returns the flags hg and nh, or "", of the mappings of
// /proc/self/smaps that hold the addresses as, each "hg" or "nh" if all of
// them carry it, or their flags joined by "," if they differ.
func flags(t *testing.T, as ...uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	got := make([]string, len(as))
	found := make([]bool, len(as))
	var in []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = in[:0]
			for i, a := range as {
				if lo <= a && a < hi {
					in = append(in, i)
				}
			}
			continue
		}
		if fl, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			for _, i := range in {
				found[i] = true
				for _, v := range strings.Fields(fl) {
					if v == "hg" || v == "nh" {
						got[i] = v
					}
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for i, a := range as {
		if !found[i] {
			t.Fatalf("no mapping of /proc/self/smaps holds %#x", a)
		}
	}
	if slices.Min(got) == slices.Max(got) {
		return got[0]
	}
	return strings.Join(got, ",")
}
