// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !amd64 || noasm || gccgo || safe

package data

// Without assembly add and hashes take the words one at a time.
var useAVX512, useWordsAVX512 bool

func hashesAsm(h *hasher, n int) bool { return false }

func wordsAsm(h *hasher, s string) bool { return false }
