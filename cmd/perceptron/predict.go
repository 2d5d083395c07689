// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

const predictHelp = `Usage: perceptron predict [flags] FILE

Predict labels each row of FILE with a saved model, the class of each row
on a line of its own: its name, or the label of its class as the training
file wrote it. -score adds the scores, separated by tabs, under a header
that names the columns: for two classes a single score, the decision
function, >= 0 for the second class (+1 with -pos and -neg); for more, a
score for each class, of which the greatest decides. The rows must have the
features of the training rows, which predict transforms as train did: the
standardisation, the weights of -idf and the unit length of -normalize. A
LIBSVM value beyond them is ignored, and counted on stderr, as
liblinear-predict does, and a CSV or IDX file of another width is an error.
The label column of a CSV file, the one train read unless -label names
another, is skipped; a file without one needs -label none. A model trained
on text reads FILE as lines of text, whatever its name, and hashes them as
train did, which its file keeps: a line without a label is text to label.
A model file is read in either form, gzipped or not, as its first bytes
tell, its head first: rows that the model does not take, lines of text for
a model of features, rows of features for a model of text and IDX images
of another width, are refused before the rest is read.

With -k N, predict writes for each row, in place of its class, the N most
probable classes, each followed by its probability, separated by tabs, as
fastText's predict-prob does, most probable first; with -threshold P, only
those at least P probable, and an empty line for a row that has none. The
probabilities are those of a model that train -calibrate fitted; the most
probable class may differ at times from the class that predict writes
without -k, which the scores choose.

If the rows have labels, predict writes to stderr the accuracy, as
liblinear-predict does: Accuracy = P% (right/total), and, with -k, the
precision and the recall of the classes it wrote, as fastText's test:
P@N = ..., R@N = .... A label that is no class of the model counts as
wrong. Before the first class it writes, predict warns on stderr if the
first 1024 rows look unlike the training rows, as eval -model does.

Predict reads the rows a block of 1024 at a time, and writes the classes
of each block once it has read it, in memory independent of the number of
rows: a file larger than the memory is predicted as any other, to the
same bits as rows in memory are. Of standard input it writes the class of
each row as soon as it has read the row, when the next has not come yet,
but with a model of the kernel perceptron, whose scores of a row differ
in their last bits with the rows scored with it: it writes those a block
at a time. An error ends it after the classes of the rows before it,
which stdout keeps.

The model may be the library's form of a classifier alone, as json.Marshal
or perceptron.Marshal writes it: then the labels are the class values, the
rows are taken as they are, and the label column of a CSV file is the last,
as in training, unless -label names another.

With -o FILE, predict writes the classes to FILE, replaced whole once they
are all made, not to stdout; -o - writes them to stdout, as without -o. A
FILE of - reads the rows from standard input.

Examples:
  perceptron predict -model cancer.json -header -score cmd/perceptron/data/breast_cancer.csv
  zcat new-rows.svm.gz | perceptron predict -model debian.model -o classes.txt -
  perceptron predict -model cancer.json -label none new-rows.csv
  perceptron predict -model topics.model new-headlines.txt
  perceptron predict -model topics.model -k 3 -threshold 0.1 new-headlines.txt

Exit status: 0 on success, 2 on a usage error, 1 on any other.

Flags:
`

func predictCommand(args []string, stdout, stderr io.Writer) error {
	j := newJob()
	fs := newFlagSet("predict")
	fs.StringVar(&j.model, "model", "", "the model `FILE` that train saved, or the library's form of a classifier (required)")
	fs.BoolVar(&j.score, "score", false, "write the scores after each class, separated by tabs, under a header")
	fs.StringVar(&j.out, "o", "", "write the predictions to `FILE`, which is replaced whole once they are all made, not to stdout (- is stdout)")
	j.topFlags(fs, "write")
	j.dataFlags(fs, false)
	files, err := parseArgs(fs, predictHelp, args, stdout)
	if err != nil {
		return err
	}
	stderr = j.errOut(stderr)
	if len(files) != 1 {
		return usagef("predict: want one data file, got %d (see perceptron predict -h)", len(files))
	}
	if j.model == "" {
		return usagef("predict: -model FILE is required: the model that train saved")
	}
	top, err := j.checkTop(fs)
	if err != nil {
		return err
	}
	if top && j.score {
		return usagef("-score and -k: give one: -k writes the probabilities of the most probable classes, -score the scores of all")
	}
	if j.out == "-" {
		j.out = "" // stdout, as a data FILE of - is stdin
	}
	spec, err := j.spec(false)
	if err != nil {
		return err
	}
	if err := checkOutputs(j.outFiles(), append(inputFiles(files[0], spec), j.model)); err != nil {
		return err
	}
	m, err := loadModel(j.model, files[0], spec)
	if err != nil {
		return err
	}
	if top && m.Calibration == nil {
		return uncalibrated(j.model)
	}
	spec.keepRows = true
	if spec, err = modelSpec(spec, m); err != nil {
		return err
	}
	s, err := openStream(files[0], spec)
	if err != nil {
		return err
	}
	defer s.close()
	s.check, s.warn, s.early = m.CheckRows, stderr, !kernelScores(m.Classifier)
	out := predicted{names: spec.known.names, score: j.score}
	if top {
		out.k = min(j.top, len(m.Classes))
	}
	var right, rows int
	var hit hits
	labelled := false
	write := func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if j.score {
			out.header(bw)
		}
		err := s.blocks(data.BlockRows, func(b *dataset) error {
			pred, scores, err := classify(m, b, nil, "", j.score)
			if err != nil {
				return err
			}
			var top []int
			var probs []float64
			if out.k > 0 {
				// The rows are scaled where they are by now: the model
				// without its steps takes them.
				bare, err := b.scale(m)
				if err != nil {
					return err
				}
				if top, probs, err = bare.Top(b.X, j.top, j.threshold); err != nil {
					return b.rowError(err)
				}
			}
			out.write(bw, pred, scores, top, probs)
			rows += len(pred)
			if labelled = b.Y != nil; labelled {
				for i, c := range pred {
					if c == b.Y[i] {
						right++
					}
				}
				hit.add(b.Y, top)
			}
			// Each block's predictions as soon as they are made.
			return bw.Flush()
		})
		if err != nil {
			return err
		}
		return bw.Flush()
	}
	if j.out == "" {
		if err := write(stdout); err != nil {
			return err
		}
	} else if err := writeFiles(stderr, outFile{"-o", j.out, write}); err != nil {
		return err
	}
	s.notes(stderr)
	if labelled {
		acc := float64(right) / float64(max(rows, 1))
		fmt.Fprintf(stderr, "Accuracy = %s%% (%d/%d)\n", strconv.FormatFloat(100*acc, 'g', 6, 64), right, rows)
		if top {
			p, r := hit.rates()
			fmt.Fprintf(stderr, "P@%d = %s, R@%d = %s\n", out.k, strconv.FormatFloat(p, 'g', 6, 64), out.k, strconv.FormatFloat(r, 'g', 6, 64))
		}
	}
	return nil
}

// kernelScores reports whether c scores with a kernel perceptron, whose
// scores of a row may differ in their last bits with the rows scored with
// it, as data.BlockRows says.
func kernelScores(c perceptron.Scorer) bool {
	if o, ok := c.(*perceptron.OneVsRest); ok && len(o.Models()) > 0 {
		c = o.Models()[0]
	}
	_, ok := c.(*perceptron.Kernel)
	return ok
}

// predicted writes the classes that predict writes, with their scores, or
// the most probable classes and their probabilities.
type predicted struct {
	names []string // of the classes
	score bool     // whether to write the scores

	// k, if not 0, is the number of the most probable classes of each
	// row, which predict writes with their probabilities in place of the
	// classes.
	k int
}

// header writes the header of the scores, which names their columns.
func (p predicted) header(w *bufio.Writer) {
	w.WriteString("class")
	if len(p.names) == 2 {
		fmt.Fprintf(w, "\tscore (>= 0: %s)", p.names[1])
	} else {
		for _, name := range p.names {
			w.WriteString("\t" + name)
		}
	}
	w.WriteByte('\n')
}

// write writes the class of each row, pred, with its scores if p.score is
// set, or its most probable classes top, -1 for none, and their
// probabilities, a line at a time: their text is many times the size of
// the scores.
func (p predicted) write(w *bufio.Writer, pred, scores []float64, top []int, probs []float64) {
	S := len(scores) / max(len(pred), 1)
	var num []byte
	for i, c := range pred {
		if p.k > 0 {
			sep := ""
			for j, t := range top[i*p.k : (i+1)*p.k] {
				if t >= 0 {
					w.WriteString(sep + p.names[t])
					num = strconv.AppendFloat(append(num[:0], '\t'), probs[i*p.k+j], 'g', -1, 64)
					w.Write(num)
					sep = "\t"
				}
			}
			w.WriteByte('\n')
			continue
		}
		w.WriteString(p.names[int(c)])
		if p.score {
			for _, v := range scores[i*S : i*S+S] {
				num = strconv.AppendFloat(append(num[:0], '\t'), v, 'g', -1, 64)
				w.Write(num)
			}
		}
		w.WriteByte('\n')
	}
}
