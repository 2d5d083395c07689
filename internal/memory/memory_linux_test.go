// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package memory

import (
	"os"
	"syscall"
	"testing"
	"unsafe"

	"github.com/seed5ae3614e/perceptron/internal/memtest"
)

// TestHuge checks that Huge advises Linux of the whole huge pages of a
// large slice and of no other byte, and that its done withdraws the
// advice, as Ordinary does, by the flags hg and nh of the mappings in
// /proc/self/smaps. The slices are mapped for the test alone, where no
// other advice reaches.
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
	if got := memtest.Flags(t, first, last-1); got != "hg" {
		t.Errorf("the whole huge pages of a slice of 64 MiB: %q, want hg", got)
	}
	if got := memtest.Flags(t, first-4096, last); got != "" {
		t.Errorf("the slice's bytes before its first huge page and after its last: %q, want no advice", got)
	}
	done()
	if got := memtest.Flags(t, first, last-1); got != "nh" {
		t.Errorf("the slice's huge pages after done: %q, want nh, as no advice is here", got)
	}
	Huge(s)
	Ordinary(s)
	if got := memtest.Flags(t, first, last-1); got != "nh" {
		t.Errorf("the slice's huge pages after Ordinary: %q, want nh, as done leaves them", got)
	}
	if got := memtest.Flags(t, first-4096, last); got != "" {
		t.Errorf("after Ordinary, the slice's bytes before its first huge page and after its last: %q, want no advice", got)
	}
	small := mapped(int(page))
	Huge(small)
	if got := memtest.Flags(t, uintptr(unsafe.Pointer(&small[0]))); got != "" {
		t.Errorf("a slice of one huge page: %q, want no advice, only slices of 4 MiB or more", got)
	}
	Ordinary(small)
	if got := memtest.Flags(t, uintptr(unsafe.Pointer(&small[0]))); got != "" {
		t.Errorf("a slice of one huge page after Ordinary: %q, want no advice", got)
	}
}

// TestDrop checks that Drop gives back the whole pages within a slice,
// and no page that holds a byte outside it, by mincore(2), on memory that
// Huge advised, which huge pages back where Linux gives them (then
// split).
func TestDrop(t *testing.T) {
	page := os.Getpagesize()
	b, err := syscall.Mmap(-1, 0, 16<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(b)
	Huge(b)
	for i := range b {
		b[i] = 1
	}
	// From a byte past the start of a page to one before the end of a
	// page: the pages that hold the slice's first and last bytes keep
	// the bytes before and after it.
	lo, hi := 5<<20+100, 11<<20-100
	Drop(b[lo:hi])
	p := uintptr(unsafe.Pointer(&b[0]))
	in := memtest.Resident(t, p, len(b))
	for k, r := range in {
		dropped := k*page >= lo && (k+1)*page <= hi
		if r == dropped {
			t.Fatalf("page %d, bytes %d to %d: resident %t after Drop of bytes %d to %d", k, k*page, (k+1)*page, r, lo, hi)
		}
	}
	first := (lo + page - 1) / page * page // the first byte of the first whole page
	for i, want := range map[int]byte{lo - 1: 1, lo: 1, first: 0, hi - 1: 1, hi: 1} {
		if b[i] != want {
			t.Errorf("byte %d after Drop of bytes %d to %d: %d, want %d", i, lo, hi, b[i], want)
		}
	}
}
