// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// Before it allocates a model's weights, its kernel rows or a scaled copy
// of the rows, the command estimates the memory they take and refuses, with
// the figures, what would not fit: a LIBSVM file of a few lines can name
// a feature index of tens of millions, whose weights take gigabytes.

// memoryAvailable returns the bytes of memory that the command may still
// take, the least of the memory the system has available, the room its
// control group leaves and the room its limit of address space leaves, and
// which of those it is. Tests replace it.
var memoryAvailable = func() (uint64, string) {
	avail, source := uint64(math.MaxUint64), "no limit known"
	if v, ok := meminfo("MemAvailable"); ok {
		avail, source = v, "MemAvailable in /proc/meminfo"
	}
	if max, cur, ok := cgroupMemory(); ok {
		room := uint64(0)
		if max > cur {
			room = max - cur
		}
		if room < avail {
			avail, source = room, "memory.max less memory.current of the control group"
		}
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err == nil && lim.Cur != math.MaxUint64 {
		size, _ := procStatus("VmSize")
		room := uint64(0)
		if lim.Cur > size {
			room = lim.Cur - size
		}
		if room < avail {
			avail, source = room, "RLIMIT_AS (ulimit -v) less the address space in use"
		}
	}
	return avail, source
}

// meminfo returns the field of /proc/meminfo called name, in bytes.
func meminfo(name string) (uint64, bool) { return kbField("/proc/meminfo", name) }

// procStatus returns the field of /proc/self/status called name, in bytes.
func procStatus(name string) (uint64, bool) { return kbField("/proc/self/status", name) }

// kbField returns the field called name of a file of lines "Name: N kB",
// in bytes.
func kbField(path, name string) (uint64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != name {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		return n * 1024, err == nil
	}
	return 0, false
}

// cgroupMemory returns the memory limit of the process's control group,
// cgroup v2's memory.max, and its use, memory.current, if it has a limit.
func cgroupMemory() (max, cur uint64, ok bool) {
	dir := "/sys/fs/cgroup"
	if b, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if p, ok := strings.CutPrefix(l, "0::"); ok {
				if _, err := os.Stat(filepath.Join(dir, p, "memory.max")); err == nil {
					dir = filepath.Join(dir, p)
				}
			}
		}
	}
	read := func(name string) (uint64, bool) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return 0, false
		}
		v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
		return v, err == nil // "max" is no limit
	}
	if max, ok = read("memory.max"); !ok {
		return 0, 0, false
	}
	cur, _ = read("memory.current")
	return max, cur, true
}

// bytesize returns b in a unit a reader takes in at a glance.
func bytesize(b uint64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	v, k := float64(b), 0
	for v >= unit && k < 5 {
		v /= unit
		k++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTPE"[k-1])
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
	n.parts = append(n.parts, fmt.Sprintf("%s %s", what, bytesize(uint64(min(bytes, math.MaxUint64/2)))))
	n.total += bytes
}

// check returns an error, with the figures, if the estimate is more than
// the memory available.
func (n *need) check() error {
	avail, source := memoryAvailable()
	if n.total <= float64(avail) {
		return nil
	}
	return fmt.Errorf("%s would need about %s (%s), and %s is available (%s): too much to hold",
		n.what, bytesize(uint64(min(n.total, math.MaxUint64/2))), strings.Join(n.parts, ", "), bytesize(avail), source)
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
