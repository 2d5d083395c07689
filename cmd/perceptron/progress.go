// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/seed5ae3614e/perceptron"
)

// The least time between two progress reports: on a terminal, where a
// report replaces the last, and elsewhere, where each adds a line. Tests
// set them to zero.
var (
	progressEveryTTY  = 200 * time.Millisecond
	progressEveryLine = time.Second
)

// progress reports a training run, or the scoring of rows, on w as it
// goes: how far it is of how far it may go, the rows a second, the most
// time left, and the time elapsed. On a terminal it rewrites one line,
// which it clears at the end; elsewhere it writes a line per report and a
// last line with the outcome.
type progress struct {
	w     io.Writer
	tty   bool
	name  string // the classifier's
	task  string // what is scored, or "" for training
	start time.Time
	last  time.Time

	// Training visits rows rows an epoch for at most epochs epochs; the
	// row index of an update tells the progress within an epoch only if
	// the rows are visited in order.
	epochs, rows int
	inOrder      bool
	epoch        int
	mistakes     int

	// done is the number of rows scored so far.
	done int
}

// isTerminal reports whether w is a terminal: a character device other
// than the null device, to which 2>/dev/null sends stderr.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// begin starts the report of the training of the classifier called name
// on rows rows for at most epochs epochs, which stops as rule says.
func (p *progress) begin(name string, epochs, rows int, inOrder bool, rule string) {
	*p = progress{w: p.w, tty: p.tty, name: name, epochs: epochs, rows: rows, inOrder: inOrder}
	p.start = time.Now()
	p.last = p.start
	fmt.Fprintf(p.w, "%s: training on %s, stopping %s\n", name, plural(rows, "row"), rule)
}

// update counts an update at row i of epoch.
func (p *progress) update(epoch, i int) {
	p.epoch = epoch
	p.mistakes++
	now := time.Now()
	if !p.due(now) {
		return
	}
	done := (epoch - 1) * p.rows
	if p.inOrder {
		done += i + 1
	}
	p.report(fmt.Sprintf("epoch %d of at most %d, %s%s", epoch, p.epochs, plural(p.mistakes, "mistake"),
		p.pace(done, p.epochs*p.rows, now, "at most ")), now)
}

// due reports whether a report is due at now, and if so takes it as made.
func (p *progress) due(now time.Time) bool {
	every := progressEveryLine
	if p.tty {
		every = progressEveryTTY
	}
	if now.Sub(p.last) < every {
		return false
	}
	p.last = now
	return true
}

// pace returns the rows a second of done rows of total, and the time the
// rest would take at that pace, prefixed by bound.
func (p *progress) pace(done, total int, now time.Time, bound string) string {
	elapsed := now.Sub(p.start).Seconds()
	if done <= 0 || elapsed <= 0 {
		return ""
	}
	rate := float64(done) / elapsed
	left := time.Duration(float64(total-done) / rate * float64(time.Second))
	return fmt.Sprintf(", %.0f rows/s, %s%v left", rate, bound, left.Round(time.Second))
}

// end finishes the report of training with the Stats of the run.
func (p *progress) end(st perceptron.Stats) {
	cr := ""
	if p.tty {
		cr = "\r\x1b[K"
	}
	fmt.Fprintf(p.w, "%s%s: done: %s, %s, %s, %v elapsed\n", cr, p.name, plural(st.Epochs, "epoch"), plural(st.Mistakes, "mistake"),
		howEnded(st, p.epochs), time.Since(p.start).Round(time.Millisecond))
}

// stop finishes the report of training that a signal stopped, which the
// command's error then says: on a terminal it clears the line.
func (p *progress) stop() {
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// beginScoring starts the report of the scoring of rows rows of task by
// the classifier of the last training run, or p.name; rows is 0 for rows
// of a stream, whose number is not known before they are all read.
func (p *progress) beginScoring(task string, rows int) {
	*p = progress{w: p.w, tty: p.tty, name: p.name, task: task, rows: rows}
	p.start = time.Now()
	p.last = p.start
}

// scored reports that done rows have been scored.
func (p *progress) scored(done int) {
	p.done = done
	now := time.Now()
	switch {
	case !p.due(now):
	case p.rows == 0:
		p.report(fmt.Sprintf("scoring %s: %s, %.0f rows/s", p.task, plural(done, "row"), float64(done)/max(now.Sub(p.start).Seconds(), 1e-9)), now)
	default:
		p.report(fmt.Sprintf("scoring %s: %d of %s%s", p.task, done, plural(p.rows, "row"), p.pace(done, p.rows, now, "")), now)
	}
}

// endScoring finishes the report of scoring.
func (p *progress) endScoring() {
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
		return
	}
	p.report(fmt.Sprintf("scored %s: %s", p.task, plural(max(p.rows, p.done), "row")), time.Now())
}

func (p *progress) report(msg string, now time.Time) {
	elapsed := now.Sub(p.start).Round(time.Millisecond)
	if p.tty {
		fmt.Fprintf(p.w, "\r%s: %s, %v elapsed\x1b[K", p.name, msg, elapsed)
		return
	}
	fmt.Fprintf(p.w, "%s: %s, %v elapsed\n", p.name, msg, elapsed)
}
