// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// The least time between two progress reports: on a terminal, where a
// report replaces the last, and elsewhere, where each adds a line.
const (
	progressEveryTTY  = 200 * time.Millisecond
	progressEveryLine = time.Second
)

// progress reports a training run on w as it goes: the epoch, the mistakes
// so far and the time elapsed. On a terminal it rewrites one line, which it
// clears at the end; elsewhere it writes a line per report and a last line
// with the run's Stats.
type progress struct {
	w        io.Writer
	tty      bool
	name     string
	start    time.Time
	last     time.Time
	epoch    int
	mistakes int
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

// begin starts the report of the run of the classifier called name.
func (p *progress) begin(name string) {
	p.name = name
	p.start = time.Now()
	p.last = p.start
	p.epoch, p.mistakes = 0, 0
}

// update counts an update in epoch.
func (p *progress) update(epoch int) {
	p.epoch = epoch
	p.mistakes++
	every := progressEveryLine
	if p.tty {
		every = progressEveryTTY
	}
	if now := time.Now(); now.Sub(p.last) >= every {
		p.last = now
		p.report(fmt.Sprintf("epoch %d, %d mistakes", p.epoch, p.mistakes), now)
	}
}

// end finishes the report with the Stats of the run of m.
func (p *progress) end(m model) {
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
		return
	}
	st := m.Stats()
	conv := "not converged"
	if st.Converged {
		conv = "converged"
	}
	p.report(fmt.Sprintf("done: %d epochs, %d mistakes, %s", st.Epochs, st.Mistakes, conv), time.Now())
}

func (p *progress) report(msg string, now time.Time) {
	elapsed := now.Sub(p.start).Round(time.Millisecond)
	if p.tty {
		fmt.Fprintf(p.w, "\r%s: %s, %v\x1b[K", p.name, msg, elapsed)
		return
	}
	fmt.Fprintf(p.w, "%s: %s, %v\n", p.name, msg, elapsed)
}
