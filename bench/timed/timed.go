// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package timed runs a program and measures it from outside, as the
// benchmark tools of bench/ time commands: its wall time, its processor
// time and its peak resident memory, from its rusage. It is benchmark
// code: the library and the command do not use it.
package timed

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Result is what Run measured of a run of a program, and what it wrote.
type Result struct {
	Wall, CPU      time.Duration
	MaxRSS         int64 // bytes
	Stdout, Stderr []byte
}

// Run runs cmd, whose Stdout and Stderr it sets, and measures it. If the
// program fails, the error gives the last 2000 bytes of its stderr.
func Run(cmd *exec.Cmd) (Result, error) {
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	start := time.Now()
	err := cmd.Run()
	r := Result{Wall: time.Since(start), Stdout: out.Bytes(), Stderr: errs.Bytes()}
	if err != nil {
		tail := r.Stderr[max(0, len(r.Stderr)-2000):]
		return r, fmt.Errorf("%s: %v: %s", strings.Join(cmd.Args, " "), err, tail)
	}
	r.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.MaxRSS = int64(u.Maxrss) << 10 // KiB on Linux
	}
	return r, nil
}
