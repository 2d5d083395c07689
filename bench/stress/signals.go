// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// issue47Tests are the cases of issue 47 that the loaders leave: SIGINT
// to the command started with SIGINT ignored, as a shell without job
// control starts a command run with &, which must end it with status 130
// and no file, in every phase; SIGKILL as the command writes its model,
// whose temporary file the next run must remove; the kinds of the errors
// of settings; a OneVsRest.New that returns one classifier twice; and the
// memory of 10^5 classes.
func issue47Tests() []test {
	signalled := func(phase string, args func(s *suite) ([]string, error)) test {
		return test{name: "signal/ignored-" + phase, code: 0, args: args, lib: func(s *suite, args []string) (string, error) {
			return ignoredSIGINT(args)
		}}
	}
	return []test{
		// As it reads its rows from standard input, which does not end.
		signalled("reading", func(s *suite) ([]string, error) {
			return []string{s.cmd, "train", "-o", filepath.Join(s.dir, "never.json"), "-"}, nil
		}),
		// As it trains, for seconds.
		signalled("training", func(s *suite) ([]string, error) {
			f, err := s.file("long.csv", longTraining)
			return []string{s.cmd, "train", "-classifier", "pocket", "-no-stop", "-o", filepath.Join(s.dir, "never.json"), f}, err
		}),
		{name: "signal/kill-write", code: 0, args: func(s *suite) ([]string, error) {
			svm, err := s.file("write.svm", text(fmt.Sprintf("1 %d:1\n-1 1:1\n", s.sized(4e6, 3e5))))
			return []string{s.cmd, svm}, err
		}, lib: killWrites},
		{name: "lib/setting-kinds", code: 0, lib: func(*suite, []string) (string, error) { return settingKinds() }},
		{name: "lib/onevsrest-new-twice", code: 1, want: `^perceptron: OneVsRest\.New returned the same \*perceptron\.Perceptron for class 2 as for class 1, .* \(of kind ErrSetting: true\)`, lib: func(*suite, []string) (string, error) {
			one := &perceptron.Perceptron{}
			o := &perceptron.OneVsRest{New: func() perceptron.Scorer { return one }}
			err := o.Fit(mat.NewDense(3, 1, []float64{0, 1, 2}), []float64{1, 2, 3})
			if err == nil {
				return "fitted", nil
			}
			return "", fmt.Errorf("%w (of kind ErrSetting: %t)", err, errors.Is(err, perceptron.ErrSetting))
		}},
		// The data set of issue 47: 10^5 rows of 1 column, 2.4 MB as
		// LIBSVM, each of a class of its own. The package documentation
		// says what Fit holds: 8·S·(3·(d+1)+1.25·n) bytes for Averaged,
		// 16·S·n for Kernel, with S = n = 10^5 and d = 1.
		classesTest(&perceptron.Averaged{}, "93.1 GiB"),
		classesTest(&perceptron.Kernel{}, "149.0 GiB"),
	}
}

// longTraining makes a file of 4000 rows of 20 noisy features, whose
// pocket without a stop trains for seconds.
func longTraining(path string) error {
	var b bytes.Buffer
	v := uint64(1)
	for i := range 4000 {
		for range 20 {
			v = v*6364136223846793005 + 1442695040888963407
			fmt.Fprintf(&b, "%.3f,", float64(v>>40)/float64(1<<24)-0.5)
		}
		fmt.Fprintf(&b, "%d\n", 2*(i%2)-1)
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// ignoredSIGINT runs the command args, started with SIGINT ignored by the
// shell that runs it, with a standard input that does not end, and sends
// it SIGINT once it catches it and a moment more: it must end within 10
// seconds with status 130, having written nothing but the line of a
// stopped training.
func ignoredSIGINT(args []string) (string, error) {
	cmd := exec.Command("/bin/sh", append([]string{"-c", `trap "" INT; exec "$0" "$@"`}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", err
	}
	defer stdin.Close()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	start := time.Now()
	for !catches(cmd.Process.Pid, syscall.SIGINT) {
		if time.Since(start) > 10*time.Second {
			cmd.Process.Kill()
			<-done
			return "", errors.New("the command does not catch SIGINT")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		return "", errors.New("the command still runs 10 s after SIGINT")
	}
	code := cmd.ProcessState.ExitCode()
	if errs := stderr.String(); code != 130 || stdout.Len() > 0 || errs != "" && errs != "perceptron: interrupt: training stopped\n" {
		return "", fmt.Errorf("the command ended with %v, stdout %q, stderr %q; want status 130 and nothing but a line of a stopped training", cmd.ProcessState, clip(stdout.String(), 200), clip(errs, 2000))
	}
	return fmt.Sprintf("ended with status 130 %v after SIGINT", time.Since(start).Round(time.Millisecond)), nil
}

// catches reports whether the process pid catches the signal sig, as
// Linux tells in /proc.
func catches(pid int, sig syscall.Signal) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return false
	}
	for l := range strings.Lines(string(b)) {
		if mask, ok := strings.CutPrefix(l, "SigCgt:"); ok {
			m, _ := strconv.ParseUint(strings.TrimSpace(mask), 16, 64)
			return m&(1<<(sig-1)) != 0
		}
	}
	return false
}

// killWrites runs the command args[0]'s train -o on the file args[1],
// whose model takes a moment to write, and sends it SIGKILL as soon as
// its temporary file appears, until a few runs have left theirs; then
// trains once more to the end. Each run that writes must remove the
// temporary files that the run before it left, saying so, and the last
// must write a model that loads.
func killWrites(s *suite, args []string) (string, error) {
	dir, err := os.MkdirTemp("", "stress-kill")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "m.json")
	temps := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, ".m.json.*.tmp"))
		return m
	}
	// run runs the command, killing it as soon as a temporary file other
	// than those left appears if kill is set, and returns an error if it
	// does not remove those left, saying so, or, not killed, fails.
	run := func(left []string, kill bool) (killed bool, err error) {
		cmd := exec.Command(args[0], append([]string{"train", "-o", out}, append(wideFlags, args[1])...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			return false, err
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
	watch:
		for {
			select {
			case err = <-done:
				break watch
			default:
			}
			if kill && len(temps()) > len(left) {
				cmd.Process.Kill()
				<-done
				killed = true
				break watch
			}
			time.Sleep(100 * time.Microsecond)
		}
		if err != nil {
			return false, fmt.Errorf("%v: %s", err, clip(stderr.String(), 2000))
		}
		for _, tmp := range left {
			if _, err := os.Stat(tmp); err == nil || !strings.Contains(stderr.String(), "perceptron: removed "+tmp+", ") {
				return killed, fmt.Errorf("a run did not remove %s, which the run before left, or did not say so: %s", tmp, clip(stderr.String(), 2000))
			}
		}
		return killed, nil
	}
	want, tries, killed, kept := s.sized(5, 2), 0, 0, 0
	var left []string
	for ; tries < 10*want && kept < want; tries++ {
		k, err := run(left, true)
		if err != nil {
			return "", err
		}
		if k {
			killed++
		}
		left = temps()
		kept += len(left)
	}
	if kept == 0 {
		return "", fmt.Errorf("none of %d runs, %d killed as they wrote, left a temporary file", tries, killed)
	}
	if _, err := run(left, false); err != nil {
		return "", err
	}
	if after := temps(); len(after) > 0 {
		return "", fmt.Errorf("the last run left the temporary files %v", after)
	}
	if _, err := data.LoadModel(out); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d of %d runs killed as they wrote left %d files, each of which the next run removed", killed, tries, kept), nil
}

// settingKinds fits with every setting of a float64 NaN, infinite and
// finite but out of its range, and returns an error if the first two are
// not refused with an error of kind ErrNonFinite, or the last of kind
// ErrSetting.
func settingKinds() (string, error) {
	X := mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0})
	y := []float64{-1, 1, 1, -1}
	fit := func(c perceptron.Scorer) error { return c.Fit(X, y) }
	n := 0
	for _, c := range []struct {
		name string
		bad  float64
		err  func(v float64) error
	}{
		{"Perceptron.Rate", -1, func(v float64) error { return fit(&perceptron.Perceptron{Rate: v}) }},
		{"Pocket.Rate", -1, func(v float64) error { return fit(&perceptron.Pocket{Rate: v}) }},
		{"Averaged.Rate", -1, func(v float64) error { return fit(&perceptron.Averaged{Rate: v}) }},
		{"Voted.Rate", -1, func(v float64) error { return fit(&perceptron.Voted{Rate: v}) }},
		{"Kernel.Rate", -1, func(v float64) error { return fit(&perceptron.Kernel{Rate: v}) }},
		{"Stop.Tol", -1, func(v float64) error { return fit(&perceptron.Averaged{Stop: &perceptron.Stop{Tol: v}}) }},
		{"Stop.Validation", 1, func(v float64) error { return fit(&perceptron.Perceptron{Stop: &perceptron.Stop{Validation: v}}) }},
		{"Poly.Gamma", -1, func(v float64) error { return fit(&perceptron.Kernel{Func: perceptron.Poly{Gamma: v}}) }},
		{"Poly.Coef0", math.NaN(), func(v float64) error { return fit(&perceptron.Kernel{Func: perceptron.Poly{Coef0: v}}) }},
		{"RBF.Gamma", -1, func(v float64) error { return fit(&perceptron.Kernel{Func: perceptron.RBF{Gamma: v}}) }},
		{"ClassWeight", 0, func(v float64) error { return fit(&perceptron.Voted{ClassWeight: map[float64]float64{1: v}}) }},
		{"ClassWeight's class", 2, func(v float64) error { return fit(&perceptron.Pocket{ClassWeight: map[float64]float64{v: 1}}) }},
		{"Labels", 2, func(v float64) error { return fit(&perceptron.Averaged{Labels: []float64{v, v}}) }},
		{"MarginSettings.Tol", 1, func(v float64) error {
			_, err := perceptron.DatasetMargin(X, y, &perceptron.MarginSettings{Tol: v})
			return err
		}},
	} {
		for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), c.bad} {
			kind := perceptron.ErrNonFinite
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				kind = perceptron.ErrSetting
			}
			if err := c.err(v); !errors.Is(err, kind) {
				return "", fmt.Errorf("%s %v: %v, want an error of kind %v", c.name, v, err, kind)
			}
			n++
		}
	}
	return fmt.Sprintf("%d bad settings refused with errors of their kinds", n), nil
}

// classesTest returns the case of the Fit of m on the data set of 10^5
// rows, each of a class of its own, which must be refused as needing
// need.
func classesTest(m perceptron.Scorer, need string) test {
	return test{name: "lib/classes-1e5/" + typeName(m), code: 1, want: `^perceptron: a model of 100000 classes .* needs ` + strings.ReplaceAll(need, ".", `\.`) + ` of memory`, lib: func(*suite, []string) (string, error) {
		const n = 100000
		ptr, ind, val, y := make([]int, n+1), make([]int, n), make([]float64, n), make([]float64, n)
		for i := range n {
			ptr[i+1], val[i], y[i] = i+1, float64(i%7), float64(i)
		}
		X, err := perceptron.NewCSR(n, 1, ptr, ind, val)
		if err != nil {
			return "", err
		}
		return "fitted", m.Fit(X, y)
	}}
}
