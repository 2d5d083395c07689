// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"unsafe"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// MemoryLeft returns the bytes that the process may still allocate, as the
// functions of the package reckon them before they allocate (the package's
// doc says how), or +Inf if nothing bounds them. A program sizes its own
// work by it, as the package does; it may be called concurrently with
// anything, and the answer changes as the process allocates.
func MemoryLeft() float64 {
	room, _ := memory.Room()
	return room
}

// CheckMemory returns nil if need more bytes fit in the memory left, or
// are no more than 64 KiB, and otherwise an error of kind
// perceptron.ErrTooLarge that gives the bytes needed, the room left and
// what bounds it: "data: needs 2.0 GiB of memory, more than the 1.1 GiB
// left under Go's memory limit". Before it refuses for Go's memory limit, it
// collects the garbage once and looks again, since the garbage counts
// toward that limit until it is collected. It may be called concurrently
// with anything.
func CheckMemory(need float64) error {
	if err := memory.Check(need); err != nil {
		return errorf(perceptron.ErrTooLarge, "data: %w", err)
	}
	return nil
}

// checkMemory returns an error of kind perceptron.ErrTooLarge if need
// bytes do not fit in the memory left, its message starting
// with what fmt.Sprintf(format, args...) says.
func checkMemory(need float64, format string, args ...any) error {
	if err := memory.Check(need); err != nil {
		return tooLarge(err, format, args...)
	}
	return nil
}

// grow returns s with room for n more elements. If it must allocate, it
// first checks the new array against the budget, and returns s and the
// budget's error, a *memory.Error, if it does not fit. The capacity grows
// as append grows it, twice over for small slices and by little more than
// a quarter for large ones: a large slice holds at most about 1.25 times
// its elements, and while it grows, the old array and the new, 2.25 times.
func grow[E any](s []E, n int) ([]E, error) {
	if n <= cap(s)-len(s) {
		return s, nil
	}
	return growTo(s, nextCap(cap(s), len(s)+n))
}

// nextCap returns the capacity that grow gives a slice of capacity c that
// must hold need elements.
func nextCap(c, need int) int {
	switch {
	case c < 256:
		c = max(2*c, 16)
	default:
		c += (c + 3*256) / 4
	}
	return max(c, need)
}

// growText returns s with room for n more elements, grown as grow grows it,
// or at once to the elements that the text of l is expected to give, if that
// is more: the rows of a file of known size then grow once or twice, not
// forty times, as a quarter at a time would. fitText cuts what the
// expectation left over. l is nil where the rows are not the whole text's,
// as for Rows, which holds one row at a time; growRows says the rest.
func growText[E any](s []E, n int, l *lines) ([]E, error) {
	if n <= cap(s)-len(s) {
		return s, nil
	}
	c := nextCap(cap(s), len(s)+n)
	if e := l.expect(len(s) + n); e > c {
		if t, err := growRows(s, e, l); err == nil {
			return t, nil
		}
	}
	return growRows(s, c, l)
}

// growRows is growTo for an array of the rows of the text l, which a read
// of all of it writes for the first time, and which takes a fault of the
// system for each page of memory fresh from it: the new array asks for
// huge pages while the read writes it (memory.Huge), and s, which it
// replaces, no longer does. fitText, which ends the read, withdraws the
// request from the last, and so does unadvise where the read fails, so
// that none outlives the read. If l is nil it is growTo.
func growRows[E any](s []E, c int, l *lines) ([]E, error) {
	if l == nil {
		return growTo(s, c)
	}
	t, err := growTo(s[:0], c)
	if err != nil {
		return s, err
	}
	// Before the copy, so that its writes and the read's take huge pages
	// where the memory is fresh from the system.
	memory.Huge(t[:c])
	memory.Ordinary(s[:cap(s)])
	return append(t, s...), nil
}

// unadvise withdraws the request of growRows from s, the rows of a read
// that fails.
func unadvise[E any](s []E) { memory.Ordinary(s[:cap(s)]) }

// fitText returns s, an array of rows that growText grew, having withdrawn
// its request for huge pages, or a copy of it without the room that
// growText left beyond a quarter of its elements, as grow would have left
// at most.
func fitText[E any](s []E) []E {
	unadvise(s)
	if cap(s)-len(s) <= len(s)/4+256 {
		memory.Drop(s[len(s):cap(s)]) // the rest of the last huge page
		return s
	}
	t, err := growTo([]E(nil), len(s))
	if err != nil {
		return s
	}
	return append(t, s...)
}

// growTo returns s with a capacity of c, which is more than its capacity,
// having checked the new array against the budget, as grow does. It makes
// the array and copies s, where append would clear the room beyond the
// length: room never written, of memory fresh from the system, as a large
// array usually is, then takes none, and the rows that a reader leaves
// with room to spare, which FitInPlace scales where they are, hold no
// more than their values.
func growTo[E any](s []E, c int) ([]E, error) {
	var e E
	if err := memory.Check(float64(c) * float64(unsafe.Sizeof(e))); err != nil {
		return s, err
	}
	t := make([]E, len(s), c)
	copy(t, s)
	return t, nil
}
