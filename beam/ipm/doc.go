// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package ipm trains the model that the command perceptron trains, an
// Averaged or a Perceptron of package perceptron with the steps before
// it, by iterative parameter mixing (McDonald, Hall and Mann, 2010) on
// Apache Beam: the rows are sharded files of LIBSVM rows or of lines of
// text, one shard a file, on any file system that Beam reads, and each
// epoch trains every shard on a worker and mixes the shards' models with
// perceptron.Mix. The model is written as a data.Model, which
// data.LoadModel and the command read.
//
// The shards are read as the command reads a training file, with
// data.LIBSVM or data.Text, and their rows go through the command's
// default steps for sparse rows: each column weighed by its inverse
// document frequency over all the shards, data.NewIDF's of their union,
// made of the counts of each shard summed by a Beam combine with
// data.NewIDFCounts; and each row scaled to unit length.
//
// Run drives the pipelines. A first pipeline, the scan, reads every shard
// for the classes, the width of the rows and the counts of the IDF. Then
// each epoch is a pipeline of its own:
//
//	shards ──ParDo(learn)──▶ (block, the shard's part of the block) ──GroupByKey──▶ ParDo(mix) ──▶ the blocks of the next model
//
// The model crosses between the driver and the workers in the binary form
// of package perceptron (MarshalBinary), cut into blocks of features, one
// file each: the block of features [lo, hi) of a model is the binary form
// of a model of hi-lo columns, and perceptron.Mix mixes a model feature by
// feature, so that the mix of a block needs that block of every shard and
// nothing else.
//
// The learn step loads the model of the epoch before from its blocks, or
// makes a fresh one with the classes, reads its shard through Beam's file
// systems and takes its rows through the steps, orders them for the epoch
// by a draw of the seed, the shard and the epoch alone, learns one epoch
// of them with perceptron.LearnShard, and emits each block of the shard's
// part, keyed by the block: the head of its binary form, and its weights
// as a delta against the block of the model it learned from, which holds
// little, since a shard changes the weights of the features of its
// mistakes only. The mix step takes a block's parts of all the shards, one
// block at a time, and mixes them with perceptron.Mix in the order of the
// shards, so that the result is the same bit for bit whatever order the
// runner delivers them in and whichever worker runs a step, and with the
// rows in their order, the same as perceptron.FitShards on the same shards
// through the same steps; it writes the mixed block to its file. No step
// holds the parts of every shard at once: a learn step holds its shard's
// part, and a mix step a block of each.
//
// The driver stops after an epoch without a mistake, by the command's rule
// of stopping on the mistakes of the epochs, or at the epoch limit, joins
// the blocks of the last model and writes it with the steps to the output,
// atomically, in the form that data.Model's Save gives its name; a failed
// run writes no model. It removes the files of the run as it goes, and
// when it ends, also when its context is done or a pipeline has run for
// its Timeout: then the steps of the run that start in this process fail,
// the pipeline's job is cancelled on the runner's job service, and Run
// waits for the job and for the steps in this process before it removes
// the files.
//
// A process keeps, for a run, the rows of the shards it has read, through
// the steps, and the model that the shards of the epoch at hand learn
// from. Prism and the direct runner run the steps in the driver's process,
// where each shard is parsed once a run, by the scan of the shards or by
// the first epoch, and each epoch's model is loaded once. A runner whose
// workers are new processes for each pipeline, as prism's in a process of
// its own and Dataflow's are for each job, parses the shards again every
// epoch.
//
// The epochs are a loop in the driver, not one unrolled pipeline: Beam
// has no loop, the stopping rule depends on the data, and an unrolled
// pipeline would hold a stage for every epoch up to the limit (1000 by
// default) and run them all, however early the training stopped. The
// cost is a job per epoch.
package ipm
