// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package memtest reads what Linux says of a test's memory: the advice
// of its mappings and which of its pages are resident, for the tests of
// internal/memory's hints and of their users. Its functions are Linux's.
package memtest
