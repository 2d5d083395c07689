// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package memtest

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

// Flags returns the flags hg and nh, or "", of the mappings of
// /proc/self/smaps that hold the addresses as, each "hg" or "nh" if all of
// them carry it, or their flags joined by "," if they differ.
func Flags(t testing.TB, as ...uintptr) string {
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
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	var mapping string
	for line := range strings.Lines(string(b)) {
		if fl, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			if slices.Contains(strings.Fields(fl), "hg") {
				return strings.TrimSpace(mapping)
			}
		} else if n, _ := fmt.Sscanf(line, "%x-%x ", new(uintptr), new(uintptr)); n == 2 {
			mapping = line
		}
	}
	return ""
}
