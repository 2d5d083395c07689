// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"

	"github.com/seed5ae3614e/perceptron/data"
)

// The memory of the command is bounded by the budget that data.MemoryLeft
// gives, against which the library and package data check a size before
// they allocate it: Go's memory limit, which the command sets at start from
// what it measures of the machine, and the limits no allocation can pass.

// setMemoryLimit sets Go's memory limit, unless GOMEMLIMIT sets it, to the
// memory that Go holds now and the room that the machine leaves the
// command: the least of the memory Linux has available (MemAvailable), the
// room that the memory.max of the command's control group and of those
// above it leave, and the room of data.MemoryLeft, which the limit of address
// space (ulimit -v) and the machine's memory and swap bound.
func setMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	room := data.MemoryLeft()
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if _, rest, ok := strings.Cut(string(b), "MemAvailable:"); ok {
			kb, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
			if v, err := strconv.ParseFloat(kb, 64); err == nil {
				room = min(room, v*1024)
			}
		}
	}
	if limit := min(room, cgroupRoom()) + goHeld(); limit < math.MaxInt64 {
		debug.SetMemoryLimit(int64(limit))
	}
}

// gcPercent is the growth of the heap, in percent of what it holds, at
// which the command collects its garbage, unless GOGC sets it.
const gcPercent = 10

// setGCPercent sets the growth of the heap that starts a collection to
// gcPercent, unless GOGC sets it. The command holds large arrays of
// numbers, which the collector marks at little cost, and leaves garbage
// of many of them behind, as reading grows its arrays and as predicting
// copies its rows a block at a time: collected when the heap has grown by
// a tenth, not doubled, it raises the peak of the memory by a tenth of
// what the command holds, not as much again (bench/README.md).
func setGCPercent() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// cgroupRoom returns the least room that the memory.max of the command's
// control group, and of each group above it, leaves over its
// memory.current (cgroup v2), or +Inf if none has a limit.
func cgroupRoom() float64 {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return math.Inf(1)
	}
	read := func(path string) (float64, bool) {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0, false
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64) // "max" is no limit
		return v, err == nil
	}
	room := math.Inf(1)
	for _, line := range strings.Split(string(b), "\n") {
		group, ok := strings.CutPrefix(line, "0::")
		if !ok {
			continue
		}
		for dir := filepath.Join("/sys/fs/cgroup", group); strings.HasPrefix(dir, "/sys/fs/cgroup"); dir = filepath.Dir(dir) {
			lim, ok1 := read(filepath.Join(dir, "memory.max"))
			cur, ok2 := read(filepath.Join(dir, "memory.current"))
			if ok1 && ok2 {
				room = min(room, max(lim-cur, 0))
			}
		}
	}
	return room
}

// goHeld returns the bytes that count toward Go's memory limit: all that
// the runtime has mapped, less what it has returned to the system.
func goHeld() float64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(s)
	return float64(s[0].Value.Uint64()) - float64(s[1].Value.Uint64())
}
