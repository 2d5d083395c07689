// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"os"
	"strconv"
	"text/tabwriter"
	"time"
)

// table prints the rows, each of our classifiers followed by the peers
// set against it, then the notes.
func (r *run) table() {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "system\tmodel\tepochs\tfit s\tms/epoch\tpeer/ours per epoch\ttrain %\ttest %\t")
	line := func(w row, ratio string) {
		ep, per := "-", "-"
		if w.epochs > 0 {
			ep = strconv.Itoa(w.epochs)
			per = strconv.FormatFloat(ms(w.fit)/float64(w.epochs), 'f', decimals(ms(w.fit)/float64(w.epochs)), 64)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%s\t%s\t%.2f\t%.2f\t\n",
			w.system, w.model, ep, w.fit.Seconds(), per, ratio, 100*w.train, 100*w.test)
	}
	done := make([]bool, len(r.rows))
	for i, o := range r.rows {
		if o.system != "this library" {
			continue
		}
		line(o, "")
		done[i] = true
		for j, p := range r.rows {
			if p.vs == o.model {
				ratio := perEpoch(p) / perEpoch(o)
				line(p, strconv.FormatFloat(ratio, 'f', decimals(ratio), 64)+"x")
				done[j] = true
			}
		}
	}
	for j, p := range r.rows {
		if !done[j] {
			line(p, "")
		}
	}
	tw.Flush()
	for _, s := range r.notes {
		fmt.Println("   " + s)
	}
}

// perEpoch returns the fit time of w per epoch, in seconds.
func perEpoch(w row) float64 {
	return w.fit.Seconds() / float64(max(w.epochs, 1))
}

// decimals returns the number of decimals to print v with, a time in
// milliseconds or a ratio: two below 10, so that a ratio of 2.99 does not
// read as 3.0, one below 100, none above.
func decimals(v float64) int {
	switch {
	case v >= 100:
		return 0
	case v >= 10:
		return 1
	}
	return 2
}

func ms(t time.Duration) float64 { return t.Seconds() * 1000 }

// accuracy returns the fraction of pred that equals y.
func accuracy(pred, y []float64) float64 {
	right := 0
	for i, v := range pred {
		if v == y[i] {
			right++
		}
	}
	return float64(right) / float64(len(y))
}
