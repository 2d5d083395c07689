// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"os"
	"syscall"
)

// raise does nothing: Windows has no signals to send a process, and
// endBySignal then ends the command with exit status 128 and the signal's
// number.
func raise(syscall.Signal) {}

// writableDir returns nil: Windows has no access(2), and the creation of
// the file tells.
func writableDir(string) error { return nil }

// lock returns errors.ErrUnsupported: the command takes the file system
// for one without locks, and names a temporary file left beside a file it
// writes, for the user to remove, where Unix removes it.
func lock(*os.File) error { return errors.ErrUnsupported }
