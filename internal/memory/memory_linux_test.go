// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package memory

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestHuge checks that Huge advises Linux of the whole huge pages of a
// large slice and no more: the mapping that holds them carries the flag
// hg of MADV_HUGEPAGE in /proc/self/smaps, and the bytes before them do
// not.
func TestHuge(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("no transparent huge pages in this kernel:", err)
	}
	s := make([]float64, 8<<20) // 64 MiB
	Huge(s)
	const page = 2 << 20
	p := uintptr(unsafe.Pointer(&s[0]))
	first := (p + page - 1) &^ (page - 1)
	if !advised(t, first) || !advised(t, first+48<<20) {
		t.Errorf("the huge pages of a slice of 64 MiB at %#x are not advised", p)
	}
	if first > p && advised(t, p) {
		t.Errorf("the %d bytes before the first huge page of the slice are advised", first-p)
	}
	runtime.KeepAlive(s)
	small := make([]float64, 256<<10) // 2 MiB
	Huge(small)
	if q := uintptr(unsafe.Pointer(&small[0])); advised(t, q) {
		t.Errorf("a slice of 2 MiB at %#x is advised, want only those of 4 MiB or more", q)
	}
}

// advised reports whether the mapping of /proc/self/smaps that holds the
// address a carries the flag hg.
func advised(t *testing.T, a uintptr) bool {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= a && a < hi
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return slices.Contains(strings.Fields(flags), "hg")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no mapping of /proc/self/smaps holds %#x", a)
	return false
}
