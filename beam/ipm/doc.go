// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package ipm trains a Perceptron or an Averaged of package perceptron by
// iterative parameter mixing (McDonald, Hall and Mann, 2010) on Apache
// Beam: the rows are sharded LIBSVM files, one shard a file, on any file
// system that Beam reads, and each epoch trains every shard on a worker
// and mixes the shards' models with perceptron.Mix.
//
// Run drives the pipelines. A first pipeline reads every shard for the
// classes and the width of the rows, unless both are given. Then each
// epoch is a pipeline of its own:
//
//	shards ──ParDo(learn, side input: the model)──▶ (shard, model JSON) ─┐
//	the model ───────────────────────────────────▶ (-1, model JSON) ────┴─Combine(mix)──▶ the next model
//
// The learn step loads the model of the epoch before (perceptron.Unmarshal),
// or makes a fresh one with the classes, reads its shard with data.LIBSVM
// through Beam's file systems, learns one epoch of it with
// perceptron.LearnShard and emits the shard's part, as JSON, with the
// shard's index. The mix step is a global Combine that collects the
// shards' parts and the model they learned from, and calls perceptron.Mix
// on them in the order of the shards, so that the result is the same bit
// for bit whatever order the runner delivers them in, and the same as
// perceptron.FitShards on the same shards. The driver stops after an
// epoch without a mistake, or at the epoch limit, and renames the last
// model to the output; a failed run writes no model.
//
// The epochs are a loop in the driver, not one unrolled pipeline: Beam
// has no loop, the stopping rule depends on the data, and an unrolled
// pipeline would hold a stage for every epoch up to the limit (1000 by
// default) and run them all, however early the training converged. The
// cost is a job per epoch, which reads the shards again. Each epoch's
// model passes from one pipeline to the next as a file beside the output
// (or in Config.Work), which the next pipeline reads as its side input,
// so that a large model does not swell the pipeline's graph.
package ipm
