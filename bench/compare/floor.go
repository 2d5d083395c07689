// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/simd"
)

// streamFloor returns the time of one pass that reads every row of X, a
// *mat.Dense, once, computing next to nothing (simd.Stream, as
// BenchmarkFloorStream measures it): the least time any pass over the rows
// can take. It times repeat runs of passes passes and returns the fastest
// run's time per pass, as floor does, and 0 for rows that are not dense.
func streamFloor(X mat.Matrix, repeat, passes int) time.Duration {
	D, ok := X.(*mat.Dense)
	if !ok {
		return 0
	}
	n, _ := D.Dims()
	best := time.Duration(math.MaxInt64)
	var sum uint64
	for range repeat {
		runtime.GC()
		start := time.Now()
		for range passes {
			for i := range n {
				sum ^= simd.Stream(D.RawRowView(i))
			}
		}
		best = min(best, time.Since(start)/time.Duration(passes))
	}
	runtime.KeepAlive(sum)
	return best
}

// floor returns the time of one pass that computes the S scores of every
// row of X, a *mat.Dense or a *perceptron.CSR, under fixed dense weights,
// in bare loops: the arithmetic that every epoch does, the reference for
// the time of an epoch. For one score it takes the dot product
// of each row with a vector, as BenchmarkFloor and, for sparse rows,
// BenchmarkFloorSparse measure it; for more, on dense rows, the dot
// products with S vectors, one after the other, as
// BenchmarkFloorMulticlass does, and on sparse rows, for each non-zero
// x_j, adds x_j times the S weights of feature j, side by side as the
// library lays them, to the scores, as BenchmarkFloorMulticlassSparse
// does. It times repeat runs of passes passes and returns the fastest
// run's time per pass, so that the floor, timed as the Fits are, meets
// the machine's other work as often as they do.
func floor(X mat.Matrix, S, repeat, passes int) time.Duration {
	n, d := X.Dims()
	v := make([]float64, d*S)
	for j := range v {
		v[j] = float64(j%7) - 3
	}
	s := make([]float64, S)
	// The slices of sparse rows, copied once, outside the timed passes,
	// which read them as the library reads its own.
	var ptr, ind []int
	var val []float64
	if m, ok := X.(*perceptron.CSR); ok {
		ptr, ind, val = csrSlices(m)
	}
	pass := func() float64 {
		var sum float64
		switch X := X.(type) {
		case *mat.Dense:
			for i := range n {
				x := X.RawRowView(i)
				for c := range S {
					sum += floats.Dot(x, v[c*d:(c+1)*d])
				}
			}
		case *perceptron.CSR:
			if S == 1 {
				for i := range n {
					rind, rval := ind[ptr[i]:ptr[i+1]], val[ptr[i]:ptr[i+1]]
					var s float64
					for k, j := range rind {
						s += rval[k] * v[j]
					}
					sum += s
				}
				break
			}
			for i := range n {
				clear(s)
				rind, rval := ind[ptr[i]:ptr[i+1]], val[ptr[i]:ptr[i+1]]
				for k, j := range rind {
					x, w := rval[k], v[j*S:j*S+S]
					for c := range s {
						s[c] += x * w[c]
					}
				}
				sum += s[i%S]
			}
		default:
			panic(fmt.Sprintf("compare: floor of a %T", X))
		}
		return sum
	}
	best := time.Duration(math.MaxInt64)
	var sum float64
	for range repeat {
		// Collect the garbage of loading the data first, so that the
		// collector does not run during the passes, as it does not
		// during the timed Fits.
		runtime.GC()
		start := time.Now()
		for range passes {
			sum += pass()
		}
		best = min(best, time.Since(start)/time.Duration(passes))
	}
	runtime.KeepAlive(sum)
	return best
}

// machine prints what the figures were measured on.
func machine() {
	cpu := "?"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	load := "?"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	java := "not found"
	if out, err := exec.Command("java", "-version").CombinedOutput(); err == nil {
		java, _, _ = strings.Cut(string(out), "\n")
	}
	fmt.Printf("date:    %s\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Printf("machine: %d cores (runtime.NumCPU), %s, %s/%s, load average %s at the start\n",
		runtime.NumCPU(), cpu, runtime.GOOS, runtime.GOARCH, load)
	fmt.Printf("Go:      %s, GOMAXPROCS=%d\n", runtime.Version(), runtime.GOMAXPROCS(0))
	fmt.Printf("Java:    %s\n", java)
}
