// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// The command is in three layers. A command (demo.go, train.go,
// predict.go, eval.go; serve's files, which have their own server) parses
// its flags into a job and checks them; flags.go defines the flags that
// the commands share. A job (this file) says what the flags ask, and runs
// what reads more than one of them: the evaluation of eval and demo
// (evaluate.go), their folds (folds.go), the training of a model further
// (learn.go), and training on a stream (trainstream.go). The work under
// them, in every other file, takes the values it needs and knows no job,
// so that it reads without the flags; TestLayers keeps it so.

// job holds the flags of a command.
type job struct {
	format      string
	header      bool
	manyClasses bool
	quiet       bool
	delimiter   string
	label       string
	classesFile string
	pos, neg    string
	opts        options
	classifier  string
	out         string
	split       float64
	splitSeed   uint64
	folds       int
	plot        string
	progress    bool
	model       string
	resumable   bool
	score       bool
	stream      switchFlag
	weights     string // the file of the weights of the rows, -weights

	// calibrate is the number of folds of -calibrate; top and threshold
	// are -k and -threshold.
	calibrate int
	top       int
	threshold float64

	stepFlags
}

func newJob() *job { return &job{opts: newOptions()} }

// errOut returns where the command writes its progress, warnings and
// notes: stderr, or nowhere with -q, which turns -progress off.
func (j *job) errOut(stderr io.Writer) io.Writer {
	if !j.quiet {
		return stderr
	}
	j.progress = false
	return io.Discard
}

// spec returns how to read a data file, checking the flags; training says
// that the file is a training file, whose classes the flags give.
func (j *job) spec(training bool) (readSpec, error) {
	switch j.format {
	case "", "csv", "libsvm", "idx", "text":
	default:
		return readSpec{}, usagef("-format %s: want csv, libsvm, idx or text", quote(j.format))
	}
	comma := []rune(strings.ReplaceAll(j.delimiter, `\t`, "\t"))
	if len(comma) != 1 || comma[0] == '"' || comma[0] == '\n' || comma[0] == '\r' {
		return readSpec{}, usagef("-delimiter %s: want one character, not a quote or an end of line", quote(j.delimiter))
	}
	s := readSpec{format: j.format, header: j.header, comma: comma[0], label: j.label, labelFlag: "-label", labels: true, manyClasses: j.manyClasses}
	if !training {
		return s, nil
	}
	if s.label == "" {
		s.label = defaultLabel
	}
	pos, neg := strings.TrimSpace(j.pos), strings.TrimSpace(j.neg)
	switch {
	case (pos == "") != (neg == ""):
		return readSpec{}, usagef("-pos and -neg go together: give both or neither")
	case pos != "" && pos == neg:
		return readSpec{}, usagef("-pos %s and -neg %s are the same label", quote(pos), quote(neg))
	case j.label == "none":
		return readSpec{}, usagef("-label none: training needs the labels")
	}
	s.pos, s.neg, s.weights = pos, neg, j.weights
	h := j.hashing()
	s.hashing, s.textFlags = &h, j.textSet
	return s, nil
}

// readNames reads the -classes file into spec, if the flag names one.
func (j *job) readNames(spec *readSpec) error {
	if j.classesFile == "" {
		return nil
	}
	f, err := os.Open(j.classesFile)
	if err != nil {
		return err
	}
	defer f.Close()
	names, err := readClassNames(f)
	if err != nil {
		return fmt.Errorf("-classes %s: %w", j.classesFile, err)
	}
	names.file = j.classesFile
	spec.names = names
	return nil
}

// plotFormat returns the format of the -plot file, or "" for none.
func (j *job) plotFormat() (string, error) {
	if j.plot == "" {
		return "", nil
	}
	return plotFormat(j.plot)
}

// outFiles returns the files that the flags name for writing; a path is
// empty if its flag was not given.
func (j *job) outFiles() []outFile {
	return []outFile{{flag: "-o", path: j.out}, {flag: "-plot", path: j.plot}}
}

// startProgress sets up the progress reports that the flags ask for.
func (j *job) startProgress(stderr io.Writer) {
	if j.progress {
		j.opts.progress = &progress{w: stderr, tty: isTerminal(stderr)}
	}
}

// wrotePlot says where the plot went, if -plot asked for one.
func (j *job) wrotePlot(stdout io.Writer) error {
	if j.plot == "" {
		return nil
	}
	_, err := fmt.Fprintf(stdout, "wrote the plot to %s\n", j.plot)
	return err
}

// classifiers returns the names of the classifiers that -classifier asks
// for, and, for all, those of quadratic that it leaves out as too costly
// on the rows X of K classes, which may be nil.
func (j *job) classifiers() ([]string, error) {
	if j.classifier == "all" {
		var names []string
		for _, c := range classifiers {
			names = append(names, c.name)
		}
		return names, nil
	}
	if _, ok := newModel(j.classifier, &options{}); !ok {
		return nil, usagef("-classifier %s: want all or one of %s", quote(j.classifier), classifierNames())
	}
	return []string{j.classifier}, nil
}

// cheapOnes returns those of names that run on rows whose quadraticCost is
// c: all, unless -classifier all leaves out the costly ones of quadratic,
// which it returns with a note.
func (j *job) cheapOnes(names []string, c float64) ([]string, string) {
	if j.classifier != "all" || c <= cheapCost {
		return names, ""
	}
	left := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !slices.Contains(quadratic, n) })
	names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(quadratic, n) })
	return names, fmt.Sprintf("%s left out: their cost grows with the square of the rows, and rows² × the non-zeros of a row × classes is %.2g here, over %.0g; -classifier NAME runs one\n",
		joinWords(left, "and"), c, cheapCost)
}
