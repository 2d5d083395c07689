// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// writeTable writes the results as an aligned table: names to the left,
// figures to the right, and the notes of the results after it. The
// column of the training accuracy is left out if no result measured it or
// says why it did not.
func writeTable(w io.Writer, rs []*result) error {
	trainAcc := false
	for _, r := range rs {
		trainAcc = trainAcc || !math.IsNaN(r.train) || r.note != ""
	}
	row := func(name, kernel, rule, epochs, ended, mistakes, train, test, fit string) []string {
		if !trainAcc {
			return []string{name, kernel, rule, epochs, ended, mistakes, test, fit}
		}
		return []string{name, kernel, rule, epochs, ended, mistakes, train, test, fit}
	}
	rows := [][]string{row("classifier", "kernel", "prediction", "epochs", "ended", "mistakes", "train acc", "test acc", "fit time")}
	var notes []string
	for _, r := range rs {
		kernel, rule := r.describe()
		rows = append(rows, row(r.name, kernel, rule, strconv.Itoa(r.stats.Epochs), howEnded(r.stats, r.limit),
			strconv.Itoa(r.stats.Mistakes), percent(r.train), percent(r.test), duration(r.fit)))
		if r.note != "" {
			notes = append(notes, r.note)
		}
	}
	if err := writeAligned(w, rows, 3); err != nil {
		return err
	}
	for _, n := range notes {
		if _, err := fmt.Fprintln(w, n); err != nil {
			return err
		}
	}
	return nil
}

// writeReports writes, for each result, the classification report and the
// confusion matrix of its test rows.
func writeReports(w io.Writer, rs []*result) error {
	for _, r := range rs {
		if r.report == nil {
			continue
		}
		kernel, rule := r.describe()
		_, err := fmt.Fprintf(w, "\n%s (%s, %s) on the test rows:\n\n%s\nconfusion matrix of the test rows:\n%s",
			r.name, kernel, rule, r.report.String(), r.report.Matrix(100))
		if err != nil {
			return err
		}
	}
	return nil
}

// writeProbabilities writes, for the results whose models are calibrated,
// what their probabilities measure on the test rows, as an aligned table
// and a line that says what it shows.
func writeProbabilities(w io.Writer, rs []*result) error {
	var pm *probabilityMeasures
	rows := [][]string{nil}
	for _, r := range rs {
		if r.probs == nil {
			continue
		}
		pm = r.probs
		rows = append(rows, []string{r.name, strconv.FormatFloat(pm.logLoss, 'f', 4, 64), strconv.FormatFloat(pm.brier, 'f', 4, 64), percent(pm.precision), percent(pm.recall)})
	}
	if pm == nil {
		return nil
	}
	at := fmt.Sprintf("@%d", pm.k)
	rows[0] = []string{"classifier", "log-loss", "Brier", "P" + at, "R" + at}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	if err := writeAligned(w, rows, 1); err != nil {
		return err
	}
	left := ""
	if pm.left > 0 {
		left = fmt.Sprintf(", but for the %s of labels that are no class of the model, which P%s and R%s count", plural(pm.left, "test row"), at, at)
	}
	most := fmt.Sprintf("the %d most probable classes of each row", pm.k)
	if pm.k == 1 {
		most = "the most probable class of each row"
	}
	if pm.threshold > 0 {
		most += fmt.Sprintf(" of those at least %g probable", pm.threshold)
	}
	_, err := fmt.Fprintf(w, "the probabilities of the classes of the test rows: their log-loss and Brier score, the mean over the rows%s, lower better;\n"+
		"P%s and R%s, the precision and the recall of %s, as fastText's test measures them\n", left, at, at, most)
	return err
}
