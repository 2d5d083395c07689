// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// bigIndex writes a file of ten lines of ten classes, one of whose
// features has the index 67108864: the weights of ten classes take 5 GiB,
// and the averaged perceptron's twice that.
func bigIndex(t *testing.T, dir string) string {
	var b strings.Builder
	for k := range 10 {
		b.WriteString(strconv.Itoa(k) + " 1:1")
		if k == 9 {
			b.WriteString(" 67108864:1")
		}
		b.WriteString("\n")
	}
	return writeFile(t, dir, "big.svm", []byte(b.String()))
}

// The command refuses, with the figures and exit status 1, a model that
// would not fit in memory, before it allocates it.
func TestMemoryRefusal(t *testing.T) {
	dir := t.TempDir()
	big := bigIndex(t, dir)
	model := filepath.Join(dir, "m.json")
	// Saving the model would take 100 GiB on any machine.
	code, out, errs := runCmd("train", "-classifier", "averaged", "-o", model, big)
	if code != 1 || out != "" || !strings.Contains(errs, "averaged on 10 rows of 67108864 features and 10 classes would need about") ||
		!strings.Contains(errs, "weights and their sums 10.0 GiB") || !strings.Contains(errs, "the model file's text") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("a model file was written")
	}
	// eval, which saves nothing, with 1 GiB available.
	defer func(f func() (uint64, string)) { memoryAvailable = f }(memoryAvailable)
	memoryAvailable = func() (uint64, string) { return 1 << 30, "the test" }
	code, _, errs = runCmd("eval", "-classifier", "averaged", big, big)
	if code != 1 || !strings.Contains(errs, "1.0 GiB is available (the test): too much to hold") {
		t.Errorf("eval: exit %d, stderr %q", code, errs)
	}
	// Loading a model file is bounded by the memory too.
	X, y := randomData(rand.New(rand.NewPCG(1, 2)), 20, 2)
	good := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
	memoryAvailable = func() (uint64, string) { return 1 << 40, "the test" }
	if code, _, errs := runCmd("train", "-o", model, good); code != 0 {
		t.Fatal(errs)
	}
	memoryAvailable = func() (uint64, string) { return 1000, "the test" }
	if code, _, errs := runCmd("predict", "-model", model, good); code != 1 || !strings.Contains(errs, "the model's text is longer than 200 B") {
		t.Errorf("predict: exit %d, stderr %q", code, errs)
	}
}

// Under a limit of address space, RLIMIT_AS, the command refuses a model
// that would not fit in it.
func TestAddressSpaceLimit(t *testing.T) {
	dir := t.TempDir()
	big := bigIndex(t, dir)
	cmd := child(t, "rlimit", []string{"PERCEPTRON_TEST_RLIMIT=" + strconv.Itoa(2<<30)}, "eval", "-classifier", "averaged", big, big)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "RLIMIT_AS (ulimit -v) less the address space in use") {
		t.Errorf("%v: %s", err, out)
	}
}
