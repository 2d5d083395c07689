// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/seed5ae3614e/perceptron"
)

// LIBLINEAR (Fan, Chang, Hsieh, Wang and Lin, 2008) runs as Debian's
// liblinear-tools installs it: liblinear-train fits a model on a LIBSVM
// file and writes it to a file, and liblinear-predict reads it and prints
// the accuracy on another LIBSVM file. liblinear-train reports no time of
// its own, so the time of a fit is the wall time of the command, which
// includes reading the text file and writing the model; the command notes
// the wall time of liblinear-predict on the training file, which reads
// the same file and the model, as an upper bound on that part.

var missingLiblinear = errMissing{"LIBLINEAR", "apt-get install liblinear-tools"}

// liblinear runs LIBLINEAR's solvers on a sparse data set.
func (r *run) liblinear() {
	ps := r.active("LIBLINEAR")
	if len(ps) == 0 {
		return
	}
	train, test := filepath.Join(r.dir, "train.svm"), filepath.Join(r.dir, "test.svm")
	Xtr, Xte := r.ds.train.(*perceptron.CSR), r.ds.test.(*perceptron.CSR)
	err := create(train, func(w io.Writer) error { return writeLibsvm(w, Xtr, r.ds.ytrain) })
	if err == nil {
		err = create(test, func(w io.Writer) error { return writeLibsvm(w, Xte, r.ds.ytest) })
	}
	if err != nil {
		r.fail("LIBLINEAR: writing the data: %v", err)
		return
	}
	for _, p := range ps {
		progress("%s: LIBLINEAR %s", r.ds.name, p.name)
		model := filepath.Join(r.dir, "liblinear-"+p.key+".model")
		fit, err := liblinearTrain(p.key, train, model)
		if err != nil {
			if _, ok := err.(errMissing); ok {
				r.note("%v", err)
				return
			}
			r.fail("%v", err)
			continue
		}
		read, right, err := liblinearPredict(train, model)
		var rightTest classified
		if err == nil {
			_, rightTest, err = liblinearPredict(test, model)
		}
		if err != nil {
			r.fail("%v", err)
			continue
		}
		r.rows = append(r.rows, row{
			system: p.system, model: p.name, epochs: noEpochs, fit: fit,
			train: right.accuracy(), test: rightTest.accuracy(),
		})
		r.note("LIBLINEAR %s: the fit time is liblinear-train's wall time, reading the file and writing the model included; liblinear-predict reads the training file and the model, and predicts, in %.2f s",
			p.name, read.Seconds())
	}
}

// liblinearTrain runs liblinear-train with the solver of number solver on
// the LIBSVM file data, writing the model to the file model, and returns
// its wall time.
func liblinearTrain(solver, data, model string) (time.Duration, error) {
	if _, err := exec.LookPath("liblinear-train"); err != nil {
		return 0, missingLiblinear
	}
	cmd := exec.Command("liblinear-train", "-q", "-s", solver, data, model)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("LIBLINEAR: liblinear-train: %v\n%s", err, out)
	}
	return t, nil
}

var liblinearAccuracy = regexp.MustCompile(`Accuracy = [0-9.]+% \(([0-9]+)/([0-9]+)\)`)

// liblinearPredict runs liblinear-predict with model on the LIBSVM file
// data, and returns its wall time and the rows it classified right.
func liblinearPredict(data, model string) (time.Duration, classified, error) {
	if _, err := exec.LookPath("liblinear-predict"); err != nil {
		return 0, classified{}, missingLiblinear
	}
	cmd := exec.Command("liblinear-predict", data, model, data+".pred")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t := time.Since(start)
	if err != nil {
		return 0, classified{}, fmt.Errorf("LIBLINEAR: liblinear-predict: %v\n%s", err, out)
	}
	c, err := parseLiblinear(out)
	return t, c, err
}

// parseLiblinear reads the rows classified right from the output of
// liblinear-predict.
func parseLiblinear(out []byte) (classified, error) {
	m := liblinearAccuracy.FindSubmatch(out)
	if m == nil {
		return classified{}, fmt.Errorf("LIBLINEAR: no accuracy in the output of liblinear-predict:\n%s", out)
	}
	right, _ := strconv.Atoi(string(m[1]))
	rows, _ := strconv.Atoi(string(m[2]))
	if rows == 0 {
		return classified{}, fmt.Errorf("LIBLINEAR: liblinear-predict classified no rows:\n%s", out)
	}
	return classified{right, rows}, nil
}

// writeLibsvm writes the rows of X with labels y in LIBSVM's format, one a
// line: the label, then index:value for each non-zero, indices from 1.
// Values are written in the shortest form that reads back to the same
// float64.
func writeLibsvm(w io.Writer, X *perceptron.CSR, y []float64) error {
	n, _ := X.Dims()
	var line []byte
	add := func(_, j int, v float64) {
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(j+1), 10)
		line = append(line, ':')
		line = strconv.AppendFloat(line, v, 'g', -1, 64)
	}
	for i := range n {
		line = strconv.AppendFloat(line[:0], y[i], 'g', -1, 64)
		X.DoRowNonZero(i, add)
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}
