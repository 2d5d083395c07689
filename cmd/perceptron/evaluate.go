// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/seed5ae3614e/perceptron/data"
)

// evaluate fits and tests the classifiers names, with the steps before
// them that the flags ask for, fitted to the training rows, which were
// read with the CSV label column label; it draws the plot in format pf if
// not empty, and prints intro, which it calls after the tests, and the
// table, and the reports if reports is set.
func (j *job) evaluate(names []string, train *dataset, test rowBlocks, label, pf string, intro func() string, reports bool, stdout, stderr io.Writer) error {
	var raw *dataset
	if pf != "" {
		raw = plotRows(train)
	}
	pipe, err := j.pipeline(train, label)
	if err != nil {
		return err
	}
	j.startProgress(stderr)
	// The folds of the calibrations are of the rows as read, before the
	// first fit scales them where they are.
	calibrations := make([]*data.Calibration, len(names))
	for k, name := range names {
		if j.calibrate > 0 {
			if calibrations[k], err = calibrate(name, train, label, j.calibrate, &j.opts, &j.stepFlags); err != nil {
				return err
			}
		}
	}
	var rs []*result
	classes := train.classes
	for k, name := range names {
		r, err := fitModel(name, &j.opts, pipe, train)
		if err != nil {
			return err
		}
		r.model.Calibration = calibrations[k]
		if k == len(names)-1 && raw == nil {
			// The training rows are read no more: test rows read after
			// the fits take their place, not more memory, once they are
			// collected.
			train.Set = nil
			debug.FreeOSMemory()
		}
		rows := test
		if l, ok := test.(*laterRows); ok {
			if rows, err = l.resolve(); err != nil {
				return err
			}
		}
		if err := r.testOn(rows, classes, j.top, j.threshold, j.opts.progress, "the test rows"); err != nil {
			return err
		}
		if s, ok := rows.(*stream); ok && k == 0 {
			s.notes(stderr)
		}
		if raw == nil {
			r.release() // for the next fit's memory
		}
		rs = append(rs, r)
	}
	if pf != "" {
		img, err := drawPlot(pf, raw, rs, classes)
		if err != nil {
			return err
		}
		if err := writeFiles(stderr, outFile{"-plot", j.plot, bytesOut(img)}); err != nil {
			return err
		}
	}
	fmt.Fprint(stdout, intro())
	if err := writeTable(stdout, rs); err != nil {
		return err
	}
	if err := writeProbabilities(stdout, rs); err != nil {
		return err
	}
	if reports {
		if err := writeReports(stdout, rs); err != nil {
			return err
		}
	}
	return j.wrotePlot(stdout)
}
