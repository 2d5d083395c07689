// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package memory

import (
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// osRoom returns the room that the limit of address space leaves, or the
// machine's memory and swap if they are less, and which it is: Linux's
// default overcommit refuses an allocation larger than both together.
func osRoom() (float64, string) {
	room, limit := math.Inf(1), ""
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) == nil {
		room = float64(si.Totalram+si.Totalswap) * float64(si.Unit)
		limit = "of memory and swap that the machine has"
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &lim) != nil || lim.Cur == math.MaxUint64 {
		return room, limit
	}
	if r := float64(lim.Cur) - addressSpace() - arenaReserve; r < room {
		room, limit = max(r, 0), "left under the limit of address space (ulimit -v)"
	}
	return room, limit
}

// arenaReserve is the address space that Go's runtime may reserve beyond
// an allocation: on 64-bit Linux it reserves its heap in arenas of 64 MiB,
// so an allocation that the heap's free pages cannot hold reserves a new
// arena, and a sixteenth of one for the arena's records, whatever its
// size; under a limit of address space with no room for them, the program
// ends in a fatal error.
const arenaReserve = 64<<20 + 4<<20

// addressSpace returns the bytes of address space the process holds, the
// first field of /proc/self/statm in pages, or +Inf if it cannot tell.
func addressSpace() float64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return math.Inf(1)
	}
	f, _, _ := strings.Cut(string(b), " ")
	pages, err := strconv.ParseUint(f, 10, 64)
	if err != nil {
		return math.Inf(1)
	}
	return float64(pages) * float64(os.Getpagesize())
}

// advise advises Linux to back the whole huge pages within the n bytes at
// p with transparent huge pages (MADV_HUGEPAGE) if on is set, or
// withdraws the advice (MADV_NOHUGEPAGE, which in that mode is what no
// advice is), if it gives them only to memory so advised. It ignores
// errors: the advice changes no byte.
func advise(p unsafe.Pointer, n uintptr, on bool) {
	page := hugePage()
	if page == 0 {
		return
	}
	start := (uintptr(p) + page - 1) &^ (page - 1)
	end := (uintptr(p) + n) &^ (page - 1)
	if end <= start {
		return
	}
	advice := syscall.MADV_NOHUGEPAGE
	if on {
		advice = syscall.MADV_HUGEPAGE
	}
	syscall.Syscall(syscall.SYS_MADVISE, start, end-start, uintptr(advice))
}

// drop gives Linux back the whole pages within the n bytes at p
// (MADV_DONTNEED), which then read as zeros; it splits a huge page that
// they share with other bytes. It ignores errors.
func drop(p unsafe.Pointer, n uintptr) {
	page := uintptr(os.Getpagesize())
	start := (uintptr(p) + page - 1) &^ (page - 1)
	end := (uintptr(p) + n) &^ (page - 1)
	if end > start {
		syscall.Syscall(syscall.SYS_MADVISE, start, end-start, syscall.MADV_DONTNEED)
	}
}

// hugePage returns the size of a transparent huge page if Linux gives
// them only to memory that a program advises of them (their madvise
// mode), and 0 if it gives them to all memory or to none.
var hugePage = sync.OnceValue(func() uintptr {
	const dir = "/sys/kernel/mm/transparent_hugepage/"
	mode, err := os.ReadFile(dir + "enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") {
		return 0
	}
	b, err := os.ReadFile(dir + "hpage_pmd_size")
	if err != nil {
		return 0
	}
	size, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || size&(size-1) != 0 {
		return 0
	}
	return uintptr(size)
})
