// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build unix

package main

import (
	"os"
	"syscall"
)

// What the command asks of the system that Unix and Windows do apart.

// raise sends the signal n to the process itself.
func raise(n syscall.Signal) { syscall.Kill(os.Getpid(), n) }

// writableDir returns an error if the process may not create files in
// dir, as access(2) tells with W_OK|X_OK.
func writableDir(dir string) error { return syscall.Access(dir, 2|1) }

// lock locks f for this process alone, without waiting: it returns
// syscall.EWOULDBLOCK if another holds the lock, and another error if the
// file system has no locks.
func lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }
