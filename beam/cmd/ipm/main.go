// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command ipm trains a perceptron or an averaged perceptron by iterative
// parameter mixing on Apache Beam, with package ipm: the shards are the
// LIBSVM files that a glob matches, one shard a file, in the order of
// their names, and the model is written as package perceptron saves it,
// which perceptron.Unmarshal loads.
//
// Usage:
//
//	ipm -shards 'data/part-*.svm' -output model.json [flags] [Beam's flags]
//
// Its flags:
//
//	-shards glob       the shards' files, local or on a file system of Beam's (gs://, s3://)
//	-output path       the model file, written when the training has succeeded, and only then
//	-model name        perceptron or averaged (default perceptron)
//	-epochs n          the most epochs, each a round of mixing; 0 means 1000
//	-mix how           uniform, or mistakes to weight each shard by its mistakes
//	-rate r            the learning rate; 0 means 1
//	-nobias            train through the origin
//	-cols n            the width of the rows; 0 finds it in the shards
//	-classes a,b,...   the classes; empty finds them in the shards
//	-work dir          where the models pass between epochs; empty is beside -output
//	-log_level level   Beam's logs: debug, info, warn or error (default warn)
//
// and Beam's, as --runner: prism (the default, in this process), direct,
// flink, spark, dataflow or universal, with the runner's own flags, as
// README.md says.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	// The file systems of s3:// paths; beamx registers gs:// and local ones.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	// Beam's runners, for --runner, and the file systems of local and gs:// paths.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/beam/ipm"
)

var (
	shards   = flag.String("shards", "", "the shards' LIBSVM files, a glob: one shard a file, in the order of the names")
	output   = flag.String("output", "", "the file of the model, written only when the training succeeds")
	model    = flag.String("model", "perceptron", "the classifier: perceptron or averaged")
	epochs   = flag.Int("epochs", 0, "the most epochs, each a round of mixing; 0 means 1000")
	mix      = flag.String("mix", "uniform", "the mixing: uniform, or mistakes to weight each shard by its mistakes in the epoch")
	rate     = flag.Float64("rate", 0, "the learning rate; 0 means 1")
	noBias   = flag.Bool("nobias", false, "train through the origin")
	cols     = flag.Int("cols", 0, "the width of the rows; 0 finds it in the shards")
	classes  = flag.String("classes", "", "the classes, separated by commas; empty finds them in the shards")
	work     = flag.String("work", "", "the folder where the models pass between epochs, which the workers and this program reach; empty is beside -output")
	logLevel = flag.String("log_level", "warn", "the level of Beam's logs: debug, info, warn or error")
)

func main() {
	flag.Parse()
	beamlog.LogLevel = *logLevel
	// On a runner that starts this program as its worker, Init runs the
	// worker and does not return.
	beam.Init()
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	c := ipm.Config{Epochs: *epochs, Rate: *rate, NoBias: *noBias, Cols: *cols, Output: *output, Work: *work}
	switch *model {
	case "perceptron":
	case "averaged":
		c.Averaged = true
	default:
		return fmt.Errorf("ipm: -model %q, want perceptron or averaged", *model)
	}
	switch *mix {
	case "uniform":
	case "mistakes":
		c.ByMistakes = true
	default:
		return fmt.Errorf("ipm: -mix %q, want uniform or mistakes", *mix)
	}
	if *classes != "" {
		c.Classes = strings.Split(*classes, ",")
	}
	switch {
	case *shards == "":
		return errors.New("ipm: no -shards")
	case *output == "":
		return errors.New("ipm: no -output")
	case flag.NArg() > 0:
		return fmt.Errorf("ipm: arguments %q after the flags: quote the glob of -shards", flag.Args())
	}
	files, err := ipm.Glob(ctx, *shards)
	if err != nil {
		return err
	}
	c.Shards = files
	res, err := ipm.Run(ctx, c)
	if err != nil {
		return err
	}
	st := res.Model.(interface{ Stats() perceptron.Stats }).Stats()
	fmt.Printf("%s: %s of %d classes on %d columns, %d shards, %d epochs, converged %t, mistakes by epoch %v\n",
		c.Output, *model, len(res.Classes), res.Cols, len(files), st.Epochs, st.Converged, st.EpochMistakes)
	pairs := make([]string, len(res.Classes))
	for k, name := range res.Classes {
		pairs[k] = fmt.Sprintf("%s=%v", name, res.Labels[k])
	}
	fmt.Printf("classes, as the shards write them and as the model's: %s\n", strings.Join(pairs, " "))
	return nil
}
