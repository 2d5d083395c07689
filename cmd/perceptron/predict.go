// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

const predictHelp = `Usage: perceptron predict [flags] FILE

Predict labels each row of FILE with a saved model, one class a line: its
name, or the label of its class as the training file wrote it. -score adds
the scores, separated by tabs, under a header that names the columns: for
two classes one, the decision function, >= 0 for the second class (+1 with
-pos and -neg); for more, one per class, of which the greatest decides. The
rows must have the features of the training rows, which predict
standardises as train did; a LIBSVM value beyond them is ignored, and
counted on stderr, as liblinear-predict does, and a CSV or IDX file of
another width is an error. The label column of a CSV file, the one train
read unless -label names another, is skipped; a file without one needs
-label none. A model file whose name ends in .gz is read gzipped.

If the rows have labels, predict writes to stderr the accuracy, as
liblinear-predict does: Accuracy = P% (right/total). A label that is no
class of the model counts as wrong.

The model may be the library's JSON form of a classifier alone, as
json.Marshal writes it: then the labels are the class values, nothing is
standardised, and the label column of a CSV file is the last, as in
training, unless -label names another.

Examples:
  perceptron predict -model cancer.json -header -score cmd/perceptron/data/breast_cancer.csv
  perceptron predict -model cancer.json -label none new-rows.csv

Exit status: 0 on success, 2 on a usage error, 1 on any other.

Flags:
`

func predict(args []string, stdout, stderr io.Writer) error {
	j := newJob()
	fs := newFlagSet("predict")
	fs.StringVar(&j.model, "model", "", "the model `FILE` that train saved, or the library's JSON of a classifier (required)")
	fs.BoolVar(&j.score, "score", false, "write the scores after each class, separated by tabs, under a header")
	j.dataFlags(fs, false)
	files, err := parseArgs(fs, predictHelp, args, stdout)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("predict: want one data file, got %d (see perceptron predict -h)", len(files))
	}
	if j.model == "" {
		return usagef("predict: -model FILE is required: the model that train saved")
	}
	spec, err := j.spec(false)
	if err != nil {
		return err
	}
	s, err := loadModel(j.model)
	if err != nil {
		return err
	}
	spec.keepRows = true
	ds, warning, err := readForModel(files[0], spec, s, stderr)
	if err != nil {
		return err
	}
	if warning != "" {
		fmt.Fprintln(stderr, "perceptron: "+warning)
	}
	pred, scores, err := classify(s.m, ds, nil, "", j.score)
	if err != nil {
		return err
	}
	// The lines go out as they are made: their text is many times the
	// size of the scores.
	S := numScores(s.m)
	w := bufio.NewWriterSize(stdout, 1<<16)
	if j.score {
		w.WriteString("class")
		if S == 1 {
			fmt.Fprintf(w, "\tscore (>= 0: %s)", s.classes.names[1])
		} else {
			for _, name := range s.classes.names {
				w.WriteString("\t" + name)
			}
		}
		w.WriteByte('\n')
	}
	var num []byte
	for i, c := range pred {
		w.WriteString(s.classes.names[c])
		if j.score {
			for _, v := range scores[i*S : i*S+S] {
				num = strconv.AppendFloat(append(num[:0], '\t'), v, 'g', -1, 64)
				w.Write(num)
			}
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if ds.Y != nil {
		acc := accuracy(pred, ds.Y)
		right := int(math.Round(acc * float64(len(pred))))
		fmt.Fprintf(stderr, "Accuracy = %s%% (%d/%d)\n", strconv.FormatFloat(100*acc, 'g', 6, 64), right, len(pred))
	}
	return nil
}

// readForModel reads the rows of the file at path for the model s: its
// width, its classes, its label column unless -label names another, and
// its standardisation. It says on stderr how many LIBSVM values beyond the
// width it ignored, and returns the warning of applyModel.
func readForModel(path string, spec readSpec, s *saved, stderr io.Writer) (*dataset, string, error) {
	if spec.label == "" {
		spec.label, spec.labelFlag = s.label, "the model's -label"
	}
	spec.labels = spec.label != "none"
	spec.known, spec.width = s.classes, s.features
	ds, err := readData(path, spec)
	if err != nil {
		return nil, "", err
	}
	dropped(stderr, ds, s.features)
	warning, err := applyModel(s, ds)
	return ds, warning, err
}

// dropped says on stderr how many values of ds beyond the width of its
// model were ignored, if any.
func dropped(stderr io.Writer, ds *dataset, width int) {
	if ds.Dropped > 0 {
		fmt.Fprintf(stderr, "perceptron: %s: %s at feature indices beyond the model's %d ignored, as liblinear-predict ignores them\n",
			ds.name, plural(ds.Dropped, "value"), width)
	}
}

// applyModel standardises the rows of ds as the model s does, and returns
// a warning if the rows then look unlike its training rows: their root
// mean square more than twice or less than half that of the training
// rows, as when the rows were scaled already, or were not and the model
// was trained on rows that were.
func applyModel(s *saved, ds *dataset) (warning string, err error) {
	if s.sc != nil {
		if err := scaleNeed([]mat.Matrix{ds.X}, false, s.sc.Mean != nil).check(); err != nil {
			return "", fmt.Errorf("%s: %v", ds.name, err)
		}
		if ds.X, err = s.sc.Transform(ds.X); err != nil {
			return "", ds.rowError(err)
		}
	}
	if s.rms == 0 {
		return "", nil
	}
	if r := rms(ds.X); r > 2*s.rms || r < s.rms/2 {
		how := "the model standardises its rows itself"
		if s.sc == nil {
			how = "the model takes its rows as they are: train standardised none"
		}
		return fmt.Sprintf("warning: %s: the values of the rows, as the model sees them, have a root mean square of %.3g, and those of its training rows had %.3g: are they scaled as the training rows were? (%s)",
			ds.name, r, s.rms, how), nil
	}
	return "", nil
}
