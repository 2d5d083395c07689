// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build linux && amd64 && !noasm && !gccgo && !safe

package simd

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestFeatures checks the kernels' features against those that Linux
// lists in /proc/cpuinfo, where it names only the instruction sets whose
// registers it saves.
func TestFeatures(t *testing.T) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip(err)
	}
	var flags []string
	for line := range strings.Lines(string(b)) {
		if name, list, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			flags = strings.Fields(list)
			break
		}
	}
	if flags == nil {
		t.Skip("no flags in /proc/cpuinfo")
	}
	has := func(names ...string) bool {
		for _, n := range names {
			if !slices.Contains(flags, n) {
				return false
			}
		}
		return true
	}
	avx2 := has("avx", "avx2")
	avx512 := avx2 && has("avx512f", "avx512dq", "avx512bw", "avx512vl")
	if hasAVX2 != avx2 || hasAVX512 != avx512 {
		t.Errorf("AVX2 %t and AVX-512 %t, /proc/cpuinfo lists %t and %t", hasAVX2, hasAVX512, avx2, avx512)
	}
}
