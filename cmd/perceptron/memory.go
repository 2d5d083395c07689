// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// The memory of the command is bounded by the budget of internal/memory,
// against which the library and package data check a size before they
// allocate it: Go's memory limit, which the command sets at start from
// what it measures of the machine, and the limits no allocation can pass.
//
// Until the library and package data check every size themselves, the
// command estimates, before a step that they do not check, the memory it
// takes, and refuses, with the figures, what would not fit: a LIBSVM file
// of a few lines can name a feature index of tens of millions, whose
// weights take gigabytes.

// setMemoryLimit sets Go's memory limit, unless GOMEMLIMIT sets it, to the
// memory that Go holds now and the room that the machine leaves the
// command: the least of the memory Linux has available (MemAvailable), the
// room that the memory.max of the command's control group and of those
// above it leave, and the room of memory.Room, which the limit of address
// space (ulimit -v) and the machine's memory and swap bound.
func setMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	room, _ := memory.Room()
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

// dataBytes returns the memory that the rows X take.
func dataBytes(X mat.Matrix) float64 {
	n, d := X.Dims()
	if m, ok := X.(*perceptron.CSR); ok {
		return 16*float64(m.NNZ()) + 8*float64(n+1)
	}
	return 8 * float64(n) * float64(d)
}

// need is an estimate of the memory of a step, in parts.
type need struct {
	what  string
	parts []string
	total float64
}

func (n *need) add(what string, bytes float64) {
	if bytes <= 0 {
		return
	}
	n.parts = append(n.parts, what+" "+memory.Bytes(bytes))
	n.total += bytes
}

// check returns an error, with the figures, if the estimate does not fit
// in the memory left.
func (n *need) check() error {
	err := memory.Check(n.total)
	var e *memory.Error
	if !errors.As(err, &e) {
		return err
	}
	return fmt.Errorf("%s would need about %s (%s), more than the %s %s: too much to hold",
		n.what, memory.Bytes(n.total), strings.Join(n.parts, ", "), memory.Bytes(e.Room), e.Limit)
}

// jsonNumberCost is the most memory that saving a model takes per number:
// the longest text of a float64 and its comma, 25 bytes, in the buffer of
// encoding/json, which grows by doubling, and in the copy it returns.
const jsonNumberCost = 3 * 25

// modelNeed returns the estimate of the memory of fitting the classifier
// called name with the options o on the rows X of S scores, and of saving
// it if save is set.
func modelNeed(name string, o *options, X mat.Matrix, S int, save bool) *need {
	n, d := X.Dims()
	rows := dataBytes(X)
	table := 8 * (float64(d) + 1) * float64(S) // weights and biases
	nd := &need{what: fmt.Sprintf("%s on %s of %s and %d classes", name, plural(n, "row"), plural(d, "feature"), max(S, 2))}
	saved := 0.0 // the numbers that the model file holds
	switch name {
	case "perceptron":
		nd.add("weights", table)
		saved = table / 8
	case "averaged":
		nd.add("weights and their sums", 2*table+8*float64(n*S))
		saved = 2 * table / 8
	case "pocket":
		nd.add("weights and the pocket", 2*table)
		nd.add("counting", min(16*table, 8<<22)+8*18*float64(n))
		saved = table / 8
	case "voted":
		nd.add("weights", 2*table)
		nd.add("the rows of the mistakes, at most", rows+16*float64(n))
		saved = table/8 + rows/8
	case "kernel":
		nd.add("support vectors, at most", rows)
		nd.add("kernel rows and scores", 8*float64(n)*float64(S+4)+8*3*64*float64(d))
		saved = rows/8 + float64(n*S)
	}
	if o.validation > 0 && !o.noStop {
		nd.add("the rows copied to hold out some", rows)
	}
	if save {
		nd.add("the model file's text", jsonNumberCost*saved)
	}
	return nd
}

// scaleNeed returns the estimate of the memory of standardising the rows
// X, of which train holds the training rows and the others more rows to
// scale with their scaler, if fit is set, or with a scaler of dense rows
// if centre is set.
func scaleNeed(X []mat.Matrix, fit, centre bool) *need {
	_, d := X[0].Dims()
	nd := &need{what: "standardising the rows"}
	if fit {
		nd.add("the scaler", 8*3*float64(d))
	}
	for _, x := range X {
		if _, ok := x.(*perceptron.CSR); ok && centre {
			n, d := x.Dims()
			nd.add("the rows centred, which fills them", 8*float64(n)*float64(d))
			continue
		}
		nd.add("the rows scaled", dataBytes(x))
	}
	return nd
}

// libraryLoadCost is the memory that the library's UnmarshalJSON takes
// at its peak per byte of the JSON that it loads, where its weights are
// written as short numbers, "0,", which take 8 bytes each once parsed, and
// which it holds more than once while it checks them: 12.3 measured on a
// Perceptron of 10⁸ zero weights under a tight memory limit, and a margin.
const libraryLoadCost = 16

// loadNeed returns the estimate of the memory of loading the library's
// JSON of n bytes.
func loadNeed(n int) *need {
	nd := &need{what: "loading the model's " + memory.Bytes(float64(n)) + " of JSON"}
	nd.add("the library's loading, at most", libraryLoadCost*float64(n))
	return nd
}
