// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command fitshards trains by perceptron.FitShards on the LIBSVM shards
// that ipm trains on, with ipm's steps, and writes the model as ipm does,
// so that the two can be timed and their files compared with ipm
// -shuffle=false -no-stop: it reads every shard once, with the width and
// the classes given, weighs the columns by the IDF of all the shards'
// counts and scales each row to unit length, trains, and saves the
// data.Model as ipm does, in the form that the name of the file says. It
// prints the wall time of the reading and of the training on stderr.
//
//	go run ./bench/fitshards -shards '/tmp/shards/part-*.svm' -cols 284746 -classes $(seq -s, 0 34) \
//		-model averaged -mix mistakes -epochs 10 -output fitshards.model
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
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
	model := flag.String("model", "averaged", "the classifier: averaged or perceptron")
	epochs := flag.Int("epochs", 10, "the most epochs, each a round of mixing")
	mix := flag.String("mix", "uniform", "the mixing: uniform or mistakes")
	cols := flag.Int("cols", 0, "the width of the rows")
	classes := flag.String("classes", "", "the classes, separated by commas, as ipm's -classes")
	idf := flag.Bool("idf", true, "weigh each column by its inverse document frequency over all the shards, as ipm's -idf")
	normalize := flag.Bool("normalize", true, "scale each row to unit length, as ipm's -normalize")
	flag.Parse()
	log.SetFlags(0)
	if *shards == "" || *output == "" || *cols <= 0 || *classes == "" {
		log.Fatal("fitshards: -shards, -output, -cols and -classes are needed")
	}
	names := strings.Split(*classes, ",")
	start := time.Now()
	files, err := ipm.Glob(context.Background(), *shards)
	if err != nil {
		log.Fatal(err)
	}
	X := make([]mat.Matrix, len(files))
	y := make([][]float64, len(files))
	rows, df := 0, make([]int, *cols)
	for k, path := range files {
		set, err := data.LIBSVM{Cols: *cols, Classes: names}.ReadFile(path)
		if err != nil {
			log.Fatal(err)
		}
		if len(set.Classes) > len(names) {
			log.Fatalf("%s: a label is none of -classes", path)
		}
		X[k], y[k], rows = set.X, set.Y, rows+len(set.Y)
		n, _ := set.X.Dims()
		for i := range n {
			set.X.(*perceptron.CSR).DoRowNonZero(i, func(_, j int, v float64) {
				if v != 0 {
					df[j]++
				}
			})
		}
	}
	steps := &data.Model{Normalize: *normalize}
	if *idf {
		if steps.Scaler, err = data.NewIDFCounts(rows, df); err != nil {
			log.Fatal(err)
		}
	}
	for k := range X {
		if X[k], err = steps.Transform(X[k]); err != nil {
			log.Fatalf("%s: %v", files[k], err)
		}
	}
	read := time.Since(start)
	labels := make([]float64, len(names))
	for k := range labels {
		labels[k] = float64(k)
	}
	var m perceptron.Classifier
	switch *model {
	case "averaged":
		m = &perceptron.Averaged{Epochs: *epochs, Labels: labels}
	case "perceptron":
		m = &perceptron.Perceptron{Epochs: *epochs, Labels: labels}
	default:
		log.Fatalf("fitshards: -model %q, want averaged or perceptron", *model)
	}
	if err := perceptron.FitShards(m, X, y, *mix == "mistakes"); err != nil {
		log.Fatal(err)
	}
	fit := time.Since(start) - read
	steps.Classifier, steps.Classes = m.(perceptron.Scorer), names
	if err := steps.Save(*output); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "fitshards: read %d shards in %v, trained in %v, in all with the file %v\n", len(files), read.Round(time.Millisecond), fit.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}
