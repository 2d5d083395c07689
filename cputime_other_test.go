// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !unix

package perceptron

import "time"

var startTime = time.Now()

// workTime returns the wall clock's time since the tests began, where the
// system does not report the process's CPU time.
func workTime() time.Duration { return time.Since(startTime) }
