// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package memtest

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// Flags returns the flags hg and nh, or "", of the mappings of
// /proc/self/smaps that hold the addresses as, each "hg" or "nh" if all of
// them carry it, or their flags joined by "," if they differ.
func Flags(t testing.TB, as ...uintptr) string {
	t.Helper()
	ms := mappings(t)
	got := make([]string, len(as))
	for i, a := range as {
		k := slices.IndexFunc(ms, func(m mapping) bool { return m.lo <= a && a < m.hi })
		if k < 0 {
			t.Fatalf("no mapping of /proc/self/smaps holds %#x", a)
		}
		for _, v := range ms[k].flags {
			if v == "hg" || v == "nh" {
				got[i] = v
			}
		}
	}
	if slices.Min(got) == slices.Max(got) {
		return got[0]
	}
	return strings.Join(got, ",")
}

// Resident reports, for each whole page of n bytes at p, whether it is
// in memory (mincore(2)).
func Resident(t testing.TB, p uintptr, n int) []bool {
	t.Helper()
	page := uintptr(os.Getpagesize())
	start, end := (p+page-1)&^(page-1), (p+uintptr(n))&^(page-1)
	if end <= start {
		return nil
	}
	v := make([]byte, (end-start)/page)
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, start, end-start, uintptr(unsafe.Pointer(&v[0]))); e != 0 {
		t.Fatal(e)
	}
	in := make([]bool, len(v))
	for i, b := range v {
		in[i] = b&1 != 0
	}
	return in
}

// Advised returns the first mapping of /proc/self/smaps, as its line
// says it, that carries the advice of huge pages (hg), or "" if none.
func Advised(t testing.TB) string {
	t.Helper()
	for _, m := range mappings(t) {
		if slices.Contains(m.flags, "hg") {
			return m.line
		}
	}
	return ""
}

// mapping is a mapping of /proc/self/smaps: its line, its addresses from
// lo to hi, and the flags of its line VmFlags.
type mapping struct {
	line   string
	lo, hi uintptr
	flags  []string
}

// mappings returns the mappings of /proc/self/smaps, skipping t if it
// cannot be read.
func mappings(t testing.TB) []mapping {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	var ms []mapping
	for line := range strings.Lines(string(b)) {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			ms = append(ms, mapping{line: strings.TrimSpace(line), lo: lo, hi: hi})
		} else if fl, ok := strings.CutPrefix(line, "VmFlags:"); ok && len(ms) > 0 {
			ms[len(ms)-1].flags = strings.Fields(fl)
		}
	}
	return ms
}
