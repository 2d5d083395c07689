// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package simd holds the vector kernels of the library's hot loops, in
// assembly for amd64 processors with AVX2 or AVX-512, chosen when the
// program starts, and gonum's code, which the library called before
// them, wherever they cannot run: on other processors and architectures,
// and under the build tags noasm, gccgo and safe, as gonum's own kernels.
// It holds too the prefetches that ask for the memory of the next visit
// of a shuffled epoch, which do nothing in those builds, and the kernels
// of package data's text reader, which split a line of ASCII into its
// words and hash 16 words and their pairs at once with AVX-512, to the
// keys of data's Go, which runs wherever they cannot.
//
// Every kernel gives the same bits as that code: each sum is formed in
// the same order, lane by lane, and products and sums round separately,
// with no fused multiply-add; where two NaNs meet, the one that the
// fallback keeps is kept. So a model does not depend on the processor
// that trained it. A kernel gains by summing independent sums at once:
// the K scores of a row, each over the features in order, side by side,
// or the dot products of several rows, each in lanes of its own.
package simd

// asmgen writes rows_amd64.s. The directive is in a file of every build,
// so that go generate runs it on any architecture and with any tags.
//
//go:generate go run ./asmgen
