// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"testing"
	"time"
)

// TestFitTimes reads the fit times of tables as eval prints them, and
// refuses output without them.
func TestFitTimes(t *testing.T) {
	const out = `train.svm: 48081 training rows
35 classes: "0", "1"
classifier  kernel  prediction  epochs  ended  mistakes  train acc  test acc  fit time
perceptron  linear  last             1  limit     18352     82.76%    71.72%  305.48ms
averaged    linear  averaged         1  limit     18352     90.73%    81.35%  1.2s

perceptron (linear, last) on the test rows:
 classifier 12.5s
`
	got, err := fitTimes(out)
	if want := 305480*time.Microsecond + 1200*time.Millisecond; err != nil || got != want {
		t.Errorf("fitTimes = %v, %v, want %v", got, err, want)
	}
	for _, bad := range []string{
		"",
		"no table\n",
		"x\nclassifier  kernel  fit time\n\n",
		"x\nclassifier  kernel  fit time\nperceptron  linear  soon\n",
	} {
		if got, err := fitTimes(bad); err == nil {
			t.Errorf("fitTimes(%q) = %v, want an error", bad, got)
		}
	}
}
