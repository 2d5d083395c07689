// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// bigIndex writes a file of ten lines of ten classes, one of whose
// features has the index 67108864: the weights of ten classes take 5 GiB,
// and the averaged perceptron's twice that.
func bigIndex(t *testing.T, dir string) string {
	var b strings.Builder
	for k := range 10 {
		b.WriteString(strconv.Itoa(k) + " 1:1")
		if k == 9 {
			b.WriteString(" 67108864:1")
		}
		b.WriteString("\n")
	}
	return writeFile(t, dir, "big.svm", []byte(b.String()))
}

// withRoom sets Go's memory limit to leave room bytes over what Go holds,
// until the test ends. It first returns what it can to the system, so that
// the room does not grow as the runtime returns more.
func withRoom(t *testing.T, room float64) {
	debug.FreeOSMemory()
	old := debug.SetMemoryLimit(int64(goHeld() + room))
	t.Cleanup(func() { debug.SetMemoryLimit(old) })
}

// The command refuses, with the figures and exit status 1, a model that
// would not fit in memory, before it allocates it.
func TestMemoryRefusal(t *testing.T) {
	dir := t.TempDir()
	big := bigIndex(t, dir)
	model := filepath.Join(dir, "m.json")
	// The weights and their sums take 15 GiB; 1 GiB is left.
	withRoom(t, 1<<30)
	code, out, errs := runCmd("train", "-classifier", "averaged", "-o", model, big)
	if code != 1 || out != "" || !strings.Contains(errs, "big.svm: training averaged: a model of 10 classes on 67108864 columns, trained on 10 rows, needs 15.0 GiB of memory") ||
		!strings.Contains(errs, "left under Go's memory limit") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("a model file was written")
	}
	// A model of 10⁶ weights, 8 MB, whose JSON takes 2 MB.
	wide := writeFile(t, dir, "wide.svm", []byte("1 1:1\n-1 1000000:1\n"))
	if code, _, errs := runCmd("train", "-o", model, wide); code != 0 {
		t.Fatal(errs)
	}
	// eval, which saves nothing, and predict, which loads the model, with
	// 1 MiB left under Go's memory limit.
	withRoom(t, 1<<20)
	code, _, errs = runCmd("eval", "-classifier", "averaged", "-idf=false", big, big)
	if code != 1 || !strings.Contains(errs, "needs 15.0 GiB of memory") || !strings.Contains(errs, "left under Go's memory limit") {
		t.Errorf("eval: exit %d, stderr %q", code, errs)
	}
	withRoom(t, 1<<20)
	code, _, errs = runCmd("predict", "-model", model, wide)
	if code != 1 || !strings.Contains(errs, "m.json: ") || !strings.Contains(errs, "needs") || !strings.Contains(errs, "left under Go's memory limit") {
		t.Errorf("predict: exit %d, stderr %q", code, errs)
	}
}

// The command sets Go's memory limit to what Go holds and at most the
// memory that Linux says is available, unless GOMEMLIMIT sets it.
func TestSetMemoryLimit(t *testing.T) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		t.Skip("no /proc/meminfo")
	}
	var avail float64
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "MemAvailable:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			avail = kb * 1024
		}
	}
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	setMemoryLimit()
	// Both sides move as the machine and Go allocate: a margin of 1 GiB.
	if lim := float64(debug.SetMemoryLimit(-1)); lim <= goHeld() || lim > goHeld()+avail+1<<30 {
		t.Errorf("the limit is %.0f bytes, with %.0f held and %.0f available", lim, goHeld(), avail)
	}
	debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "1GiB")
	setMemoryLimit()
	if lim := debug.SetMemoryLimit(-1); lim != old {
		t.Errorf("with GOMEMLIMIT set, the limit went from %d to %d", old, lim)
	}
}
