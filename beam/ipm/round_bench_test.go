// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"context"
	"encoding"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/bench/sets"
	"github.com/seed5ae3614e/perceptron/data"
)

// BenchmarkRound measures the costs of a round of ipm for one shard, by
// the steps of a round as the pipelines run them, on the Debian sections'
// training rows through the command's steps, in a random order of a fixed
// seed cut into S shards, as ipm's README advises, Averaged, in the second
// round, from the model that the first mixed: decode, a worker's load of
// the model the shards learn from, from its blocks' files; learn,
// LearnShard of a shard's rows; encode, the binary form of the shard's
// part and the deltas of its blocks, whose bytes a round moves from the
// learn steps to the mix steps (B/part); and mix, the mix of one block of
// the S parts with the block of the model they learned from, and its
// binary form. The data are in ../shared/data/debian-sections beside the
// repository's module, or in the folder $IPM_DEBIAN; the benchmark skips
// if they are not there.
func BenchmarkRound(b *testing.B) {
	dir := os.Getenv("IPM_DEBIAN")
	if dir == "" {
		dir = filepath.Join("..", "..", sets.DebianDir)
	}
	train, err := data.LIBSVM{Cols: sets.DebianFeatures}.ReadFile(filepath.Join(dir, "debian-sections.train.svm.gz"))
	if err != nil {
		b.Skipf("the Debian sections: %v", err)
	}
	idf, err := data.NewIDF(train.X)
	if err != nil {
		b.Fatal(err)
	}
	rows, err := steps(idf, true).Transform(train.X)
	if err != nil {
		b.Fatal(err)
	}
	all, err := (&data.Set{X: rows, Y: train.Y, Classes: train.Classes}).Subset(rand.New(rand.NewPCG(46, 0)).Perm(len(train.Y)))
	if err != nil {
		b.Fatal(err)
	}
	labels := make([]float64, len(train.Classes))
	for k := range labels {
		labels[k] = float64(k)
	}
	m := model{Averaged: true, Labels: labels}
	cols := sets.DebianFeatures
	block := blockFeatures(len(labels))
	ctx := context.Background()
	for _, S := range []int{4, 16, 64} {
		n := len(train.Y)
		X := make([]mat.Matrix, S)
		y := make([][]float64, S)
		for k := range S {
			part, err := all.Rows(k*n/S, (k+1)*n/S)
			if err != nil {
				b.Fatal(err)
			}
			X[k], y[k] = part.X, part.Y
		}
		// The first round, and the blocks of its model, in files.
		start := m.fresh()
		parts := make([]perceptron.Classifier, S)
		for k := range S {
			if parts[k], err = perceptron.LearnShard(start, X[k], y[k]); err != nil {
				b.Fatal(err)
			}
		}
		if err := perceptron.Mix(start, parts, false); err != nil {
			b.Fatal(err)
		}
		from := filepath.Join(b.TempDir(), "epoch-0001")
		form, err := start.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		_, scores, head, tables, err := layout(form)
		if err != nil {
			b.Fatal(err)
		}
		for blk := range blocks(cols, block) {
			lo, hi := blockRange(blk, block, cols)
			f := withWidth(form[:head], hi-lo)
			for t := range tables {
				f = append(f, tableRows(form, cols, scores, head, t, lo, hi)...)
			}
			if err := writeFile(ctx, blockFile(from, blk), f); err != nil {
				b.Fatal(err)
			}
		}
		loaded, err := m.load(ctx, from, cols, block)
		if err != nil {
			b.Fatal(err)
		}
		learn := &learnFn{Model: m, Cols: cols, Block: block, From: from, Epoch: 2}
		b.Run(fmt.Sprintf("shards=%d/decode", S), func(b *testing.B) {
			for b.Loop() {
				if _, err := m.load(ctx, from, cols, block); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("shards=%d/learn", S), func(b *testing.B) {
			k := 0
			for b.Loop() {
				if parts[k%S], err = perceptron.LearnShard(loaded, X[k%S], y[k%S]); err != nil {
					b.Fatal(err)
				}
				k++
			}
		})
		for k := range S {
			if parts[k], err = perceptron.LearnShard(loaded, X[k], y[k]); err != nil {
				b.Fatal(err)
			}
		}
		// Block 0 of each part, for the mix.
		zero := make([]blockPart, S)
		b.Run(fmt.Sprintf("shards=%d/encode", S), func(b *testing.B) {
			k, bytes := 0, 0
			for b.Loop() {
				bytes = 0
				err := learn.encode(ctx, parts[k%S], shard{Index: k % S}, func(blk int, p blockPart) {
					bytes += len(p.Head) + len(p.Delta)
					if blk == 0 {
						zero[k%S] = p
					}
				})
				if err != nil {
					b.Fatal(err)
				}
				k++
			}
			b.ReportMetric(float64(bytes), "B/part")
		})
		for k := range S {
			err := learn.encode(ctx, parts[k], shard{Index: k}, func(blk int, p blockPart) {
				if blk == 0 {
					zero[k] = p
				}
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		mix := &mixFn{Model: m, Shards: S, Epoch: 2, Cols: cols, Block: block, From: from}
		b.Run(fmt.Sprintf("shards=%d/mix", S), func(b *testing.B) {
			for b.Loop() {
				if _, err := mix.mix(ctx, 0, append([]blockPart(nil), zero...)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
