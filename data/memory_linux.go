// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"math"
	"syscall"
)

// arena is the unit in which Go's runtime reserves address space for its
// heap on 64-bit Linux: an allocation that the heap's free pages cannot
// hold reserves one or more new arenas of 64 MiB, and the program ends in
// a fatal error if the limit of address space leaves no room for them,
// whatever the size of the allocation.
const arena = 64 << 20

// runtimeReserve returns the address space that Go's runtime may reserve
// beyond the size of an allocation, if the process has a limit of address
// space: an arena, and a sixteenth of one for the arena's own records.
// Without a limit it returns 0: Go's memory limit, and the machine's
// memory, count what the runtime maps, not what it reserves.
func runtimeReserve() float64 {
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &lim) != nil || lim.Cur == math.MaxUint64 {
		return 0
	}
	return arena + arena/16
}
