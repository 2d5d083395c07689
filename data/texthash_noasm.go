// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !amd64 || noasm || gccgo || safe

package data

// Without assembly hashes takes the words one at a time.
var useAVX512 bool

func hashesAsm(h *hasher, n int) bool { return false }
