// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build unix

package perceptron

import (
	"syscall"
	"time"
)

// workTime returns the CPU time that the process has taken, of the user
// and of the system: the time of its work, which other processes on a
// loaded machine do not stretch, as they stretch the wall clock's.
func workTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		panic(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
