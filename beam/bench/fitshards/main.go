// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command fitshards trains by perceptron.FitShards on the shards that
// ipm trains on, and writes the model as ipm does, so that the two can
// be timed and their files compared: it reads every shard once, with the
// width and the classes given, trains, and writes the model's JSON. It
// prints the wall time of the reading and of the training on stderr.
//
//	go run ./bench/fitshards -shards 'data/part-*.svm' -cols 284746 -classes $(seq -s, 0 34) \
//		-model averaged -mix mistakes -epochs 10 -output fitshards.json
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/beam/ipm"
	"github.com/seed5ae3614e/perceptron/data"
)

func main() {
	shards := flag.String("shards", "", "the shards' LIBSVM files, a glob, as ipm's -shards")
	output := flag.String("output", "", "the file of the model")
	model := flag.String("model", "averaged", "the classifier: perceptron or averaged")
	epochs := flag.Int("epochs", 10, "the most epochs, each a round of mixing")
	mix := flag.String("mix", "mistakes", "the mixing: uniform or mistakes")
	cols := flag.Int("cols", 0, "the width of the rows")
	classes := flag.String("classes", "", "the classes, numbers separated by commas, as ipm's -classes")
	flag.Parse()
	log.SetFlags(0)
	if *shards == "" || *output == "" || *cols <= 0 || *classes == "" {
		log.Fatal("fitshards: -shards, -output, -cols and -classes are needed")
	}
	names := strings.Split(*classes, ",")
	labels := make([]float64, len(names))
	for k, s := range names {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			log.Fatalf("fitshards: -classes: %v", err)
		}
		labels[k] = v
	}
	start := time.Now()
	files, err := ipm.Glob(context.Background(), *shards)
	if err != nil {
		log.Fatal(err)
	}
	X := make([]mat.Matrix, len(files))
	y := make([][]float64, len(files))
	for k, path := range files {
		f, err := os.Open(path)
		if err != nil {
			log.Fatal(err)
		}
		set, err := data.LIBSVM{Cols: *cols, Classes: names}.Read(f)
		f.Close()
		if err != nil {
			log.Fatalf("%s: %v", path, err)
		}
		if len(set.Classes) > len(names) {
			log.Fatalf("%s: a label is none of -classes", path)
		}
		X[k], y[k] = set.X, make([]float64, len(set.Y))
		for i, c := range set.Y {
			y[k][i] = labels[int(c)]
		}
	}
	read := time.Since(start)
	var m perceptron.Classifier
	switch *model {
	case "averaged":
		m = &perceptron.Averaged{Epochs: *epochs, Labels: labels}
	case "perceptron":
		m = &perceptron.Perceptron{Epochs: *epochs, Labels: labels}
	default:
		log.Fatalf("fitshards: -model %q, want perceptron or averaged", *model)
	}
	if err := perceptron.FitShards(m, X, y, *mix == "mistakes"); err != nil {
		log.Fatal(err)
	}
	fit := time.Since(start) - read
	b, err := json.Marshal(m)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*output, b, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "fitshards: read %d shards in %v, trained in %v, in all with the file %v\n", len(files), read.Round(time.Millisecond), fit.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}
