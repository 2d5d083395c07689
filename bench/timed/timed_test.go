// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package timed

import (
	"os/exec"
	"strings"
	"testing"
)

// Run gives what a program wrote and measures it, and the tail of its
// stderr if it fails.
func TestRun(t *testing.T) {
	r, err := Run(exec.Command("sh", "-c", "echo out; echo err >&2; head -c 4000000 /dev/zero | tail -c 1"))
	if err != nil || string(r.Stdout[:4]) != "out\n" || string(r.Stderr) != "err\n" || r.Wall <= 0 || r.MaxRSS <= 0 {
		t.Errorf("Run: %+v, %v", r, err)
	}
	_, err = Run(exec.Command("sh", "-c", "printf 'x%.0s' $(seq 3000) >&2; echo last >&2; exit 3"))
	if err == nil || !strings.HasSuffix(err.Error(), "last\n") || strings.Count(err.Error(), "x") > 2000 {
		t.Errorf("a failed program: %.100v", err)
	}
}
