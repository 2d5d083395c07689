// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package memory is the memory budget of this module's packages: what
// they check a size against before they allocate it, so that a size read
// from data, a file or a model becomes an error instead of a fatal error
// of Go's allocator, which no program can recover from.
//
// The budget is the least of the room that Go's memory limit
// (runtime/debug.SetMemoryLimit, or GOMEMLIMIT) leaves, which the caller
// sets, and of two bounds no allocation can pass: the room the process's
// limit of address space (RLIMIT_AS, ulimit -v) leaves, and the machine's
// memory and swap together, beyond which Linux refuses any one
// allocation. The two bounds are read from the operating system where it
// offers them (Linux); elsewhere only Go's memory limit counts.
//
// It also holds what the packages tell Linux of the memory they write for
// the first time: Huge asks for huge pages, Ordinary withdraws the
// request, and Drop gives back pages that no one will read.
package memory

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"unsafe"
)

// goLimit names Go's memory limit as the bound of Room.
const goLimit = "left under Go's memory limit"

// Room returns the bytes that the process may still allocate, +Inf if
// nothing bounds them, and the limit that bounds them, in words that
// follow the figure: "left under Go's memory limit".
func Room() (room float64, limit string) {
	room, limit = osRoom()
	if lim := debug.SetMemoryLimit(-1); lim != math.MaxInt64 {
		if r := float64(lim) - goMemory(); r < room {
			room, limit = max(r, 0), goLimit
		}
	}
	return room, limit
}

// Check returns nil if need more bytes fit in Room, or are no more than
// 64 KiB, and otherwise an error that gives the bytes needed and the room left, and the limit that
// bounds it. If Go's memory limit is what refuses, it collects the
// garbage once and looks again, since the memory Go holds counts garbage
// not yet collected.
func Check(need float64) error {
	if need <= unchecked {
		return nil
	}
	room, limit := Room()
	if need <= room {
		return nil
	}
	if limit == goLimit {
		runtime.GC()
		if room, limit = Room(); need <= room {
			return nil
		}
	}
	return &Error{Need: need, Room: room, Limit: limit}
}

// unchecked is the size that Check passes without a look at the budget,
// which costs system calls: less than the heap's unit of address space, an
// arena of 64 MiB, which Room keeps back beyond any allocation, it cannot
// decide whether the process runs out of memory.
const unchecked = 64 << 10

// Error is what Check returns: an allocation of Need bytes that the Room
// left by the Limit does not hold.
type Error struct {
	Need, Room float64
	Limit      string
}

func (e *Error) Error() string {
	return fmt.Sprintf("needs %s of memory, more than the %s %s", Bytes(e.Need), Bytes(e.Room), e.Limit)
}

// Refused reports whether err is or wraps an *Error: whether the memory
// left refused what err reports.
func Refused(err error) bool { return errors.As(err, new(*Error)) }

// goMemory returns the bytes that count toward Go's memory limit: all
// that the runtime has mapped, less what it has returned to the system.
func goMemory() float64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(s)
	return float64(s[0].Value.Uint64()) - float64(s[1].Value.Uint64())
}

// Bytes returns b in the binary unit that a reader takes in at a glance:
// "512 B", "1.5 KiB", "8.0 TiB".
func Bytes(b float64) string {
	if b < 1024 {
		return fmt.Sprintf("%.0f B", b)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	k := -1
	for b >= 1024 && k < len(units)-1 {
		b /= 1024
		k++
	}
	return fmt.Sprintf("%.1f %s", b, units[k])
}

// Huge asks the system to back s with huge pages where it can, while the
// caller writes s for the first time, and returns the function that ends
// the request, to be called once those writes are done. It is a hint that
// changes no value, and does nothing for less than 4 MiB.
//
// On Linux the first write of each page costs a fault of the system, and
// on a virtual machine perhaps one of the host too: with huge pages it is
// paid once for each huge page rather than for each 4 KiB. It asks only
// where Linux gives huge pages to memory that a program advises (the
// madvise mode of transparent huge pages), and done withdraws the advice,
// so that once s is freed the kernel makes no new huge pages there for
// the heap's other uses, as it makes none for the rest of Go's heap.
func Huge[E any](s []E) (done func()) {
	p, n := span(s)
	if n < hugeFloor {
		return func() {}
	}
	advise(p, n, true)
	return func() { advise(p, n, false) }
}

// Ordinary withdraws from s the request of Huge, as the function that
// Huge returned for s does, for a caller that holds s and no longer that
// function.
func Ordinary[E any](s []E) {
	if p, n := span(s); n >= hugeFloor {
		advise(p, n, false)
	}
}

// Drop gives the system back the whole pages of memory within s, which
// then read as zeros, for a caller that will read no element of s before
// it writes it, and whose elements hold no pointers: the room that a
// slice holds beyond its length, where a huge page that Huge asked for is
// backed whole though only its first bytes were written. Go's statistics
// of its memory still count those pages as held.
func Drop[E any](s []E) {
	p, n := span(s)
	drop(p, n)
}

// hugeFloor is the least size of a slice that Huge and Ordinary act on.
const hugeFloor = 4 << 20

// span returns the address and the size in bytes of the elements of s.
func span[E any](s []E) (unsafe.Pointer, uintptr) {
	return unsafe.Pointer(unsafe.SliceData(s)), uintptr(len(s)) * unsafe.Sizeof(*new(E))
}
