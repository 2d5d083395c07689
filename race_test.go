// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build race

package perceptron

// raceEnabled reports whether the tests run under the race detector, which
// makes sync.Pool drop what is put in it at random, so that the pooled
// scratch of predictions allocates.
const raceEnabled = true
