// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build race

package limit

// race is whether the race detector is on: its shadow memory takes
// terabytes of address space, more than any lowered limit leaves.
const race = true
