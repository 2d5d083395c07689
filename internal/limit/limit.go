// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package limit runs a program under a lowered limit of address space
// (RLIMIT_AS, as ulimit -v sets it), for the tests of this module's
// memory contract: a size beyond the memory must end in an error, and
// never in a fatal error of Go's allocator.
package limit

import (
	"bytes"
	"context"
	"debug/elf"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

// Result is what a program run under a limit did.
type Result struct {
	Stdout, Stderr []byte
	Code           int           // the exit status, or -1 if a signal ended it
	Elapsed        time.Duration // the wall time it took
	CPU            time.Duration // the CPU time it took, of the user and of the system
}

// Fatal reports whether the program ended in a fatal error of Go's
// runtime, such as "fatal error: out of memory", or a panic.
func (r *Result) Fatal() bool {
	return bytes.Contains(r.Stderr, []byte("fatal error:")) ||
		bytes.Contains(r.Stderr, []byte("goroutine ")) && bytes.Contains(r.Stderr, []byte("panic"))
}

// Supported reports whether Run can lower the limit here: on Linux, with
// a POSIX shell, in a program without the race detector and without C's
// runtime. Both take address space that the limits of the tests leave no
// room for: the race detector its shadow memory, and C's runtime, which a
// program that imports net links unless CGO_ENABLED=0, a stack of
// megabytes for each thread and an arena of malloc for many, where a
// thread that cannot be made is a fatal error of Go's runtime.
func Supported() bool {
	if runtime.GOOS != "linux" || race || linksC() {
		return false
	}
	_, err := exec.LookPath("sh")
	return err == nil
}

// linksC reports whether this program links C's runtime: whether it is
// linked dynamically, as Go links a program on Linux only with cgo.
func linksC() bool {
	f, err := elf.Open("/proc/self/exe")
	if err != nil {
		return false
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return true
		}
	}
	return false
}

// Run runs name with args, its standard input in, and the environment
// env added to this process's, under a limit of kib KiB of address space
// and of cpu of CPU time, rounded up to whole seconds (ulimit -v and
// ulimit -t), that a shell sets before it executes the program. The
// limit of CPU time is what a loaded machine does not stretch: the
// kernel ends the program once it has worked that long, however long it
// waited for the processors. Run gives up on a program that waits without
// working after wallFactor times cpu of wall time. The error is about
// running it at all, or about its ending at a limit of time, not about
// its exit status.
func Run(cpu time.Duration, kib int, in []byte, env []string, name string, args ...string) (*Result, error) {
	secs := max(1, int(math.Ceil(cpu.Seconds())))
	ctx, cancel := context.WithTimeout(context.Background(), wallFactor*time.Duration(secs)*time.Second)
	defer cancel()
	sh := append([]string{"-c", `ulimit -v "$0" && ulimit -t "$1" && shift && exec "$@"`, strconv.Itoa(kib), strconv.Itoa(secs), name}, args...)
	cmd := exec.CommandContext(ctx, "sh", sh...)
	cmd.Env = append(cmd.Environ(), env...)
	cmd.Stdin = bytes.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := &Result{Stdout: out.Bytes(), Stderr: errb.Bytes(), Elapsed: time.Since(start)}
	if cmd.ProcessState != nil {
		r.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if ctx.Err() != nil {
		return r, fmt.Errorf("%s did not end within %v of wall time, %v of it CPU time", name, r.Elapsed.Round(time.Millisecond), r.CPU.Round(time.Millisecond))
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.Code = ee.ExitCode()
		err = nil
	}
	// The kernel kills the program at the limit of CPU time with SIGKILL
	// (ulimit -t sets the hard limit with the soft one, and the hard one
	// is checked first) when its CPU time reaches it by the kernel's
	// count; the CPU time of the rusage at its end may fall short of that:
	// of a limit of 1 s, 0.99 s on an idle machine, but 0.89 s and once
	// 0.85 s on one busy with other tests.
	if killedBy(cmd.ProcessState, syscall.SIGKILL) && r.CPU >= time.Duration(secs)*time.Second*3/4 {
		return r, fmt.Errorf("%s did not end within %v of CPU time", name, time.Duration(secs)*time.Second)
	}
	return r, err
}

// killedBy reports whether the signal sig ended the process of ps.
func killedBy(ps *os.ProcessState, sig syscall.Signal) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// wallFactor is how many times its limit of CPU time Run waits for a
// program in wall time: more than a loaded machine, of twenty programs
// that work on two processors, stretches it.
const wallFactor = 20
