// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary is the command when IPM_TEST_MAIN is set, so that the
// tests run it as a program, which they signal.
func TestMain(m *testing.M) {
	if os.Getenv("IPM_TEST_MAIN") != "" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// command returns the command ipm with the arguments.
func command(args ...string) *exec.Cmd {
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), "IPM_TEST_MAIN=1")
	return c
}

// writeShards writes n shards of noisy rows, which no epoch learns without a
// mistake, to dir, and returns their glob.
func writeShards(t *testing.T, dir string, n int) string {
	t.Helper()
	return writeRows(t, dir, n, 200, 20)
}

// writeRows writes n shards of noisy rows of three classes, each of rows
// rows of a third of cols features, to dir, and returns their glob.
func writeRows(t *testing.T, dir string, n, rows, cols int) string {
	t.Helper()
	rnd := rand.New(rand.NewPCG(1, 2))
	for k := range n {
		var b strings.Builder
		for range rows {
			fmt.Fprintf(&b, "%d", 1+rnd.IntN(3))
			for j := range cols {
				if rnd.IntN(3) == 0 {
					fmt.Fprintf(&b, " %d:%.3f", j+1, rnd.NormFloat64())
				}
			}
			b.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%02d.svm", k)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "part-*.svm")
}

// files returns the names of the files in dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestSignal checks that ipm, on SIGINT or SIGTERM as it trains, stops,
// says so and nothing else, no log of Beam's, exits with the signal's
// status as a shell gives it, and leaves no file of its run behind, and no
// model; with its files beside the model and in -work.
func TestSignal(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, work := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/work=%t", sig, work), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				glob := writeShards(t, dir, 3)
				args := []string{"-shards", glob, "-output", filepath.Join(dir, "model.json"), "-model", "averaged", "-epochs", "1000", "-no-stop"}
				workDir := dir
				if work {
					workDir = t.TempDir()
					args = append(args, "-work", workDir)
				}
				before := files(t, dir)
				c := command(args...)
				stderr, err := c.StderrPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Start(); err != nil {
					t.Fatal(err)
				}
				var out bytes.Buffer
				lines := bufio.NewScanner(stderr)
				for lines.Scan() {
					out.WriteString(lines.Text() + "\n")
					if strings.HasPrefix(lines.Text(), "ipm: epoch 2: ") {
						// Between the pipelines of epochs, or in one.
						time.Sleep(time.Duration(rand.IntN(100)) * time.Millisecond)
						if err := c.Process.Signal(sig); err != nil {
							t.Fatal(err)
						}
						break
					}
				}
				for lines.Scan() {
					out.WriteString(lines.Text() + "\n")
				}
				err = c.Wait()
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() != 128+int(sig) {
					t.Errorf("exit %v, want status %d\n%s", err, 128+int(sig), out.Bytes())
				}
				if want := fmt.Sprintf("ipm: %v: stopped\n", sig); !strings.HasSuffix(out.String(), want) {
					t.Errorf("stderr does not end with %q:\n%s", want, out.Bytes())
				}
				for line := range strings.Lines(out.String()) {
					if !strings.HasPrefix(line, "ipm: ") {
						t.Errorf("stderr holds a line not of ipm's, %q:\n%s", line, out.Bytes())
						break
					}
				}
				if after := files(t, dir); !slices.Equal(after, before) {
					t.Errorf("ipm left files: %q, before it %q", after, before)
				}
				if left := files(t, workDir); work && len(left) > 0 {
					t.Errorf("ipm left files in -work: %q", left)
				}
			})
		}
	}
}

// TestHelp checks that -h shows ipm's flags before Beam's.
func TestHelp(t *testing.T) {
	t.Parallel()
	out, _ := command("-h").CombinedOutput()
	help := string(out)
	beams := strings.Index(help, "\nBeam's flags, ")
	if beams < 0 {
		t.Fatalf("-h says nothing of Beam's flags:\n%s", help)
	}
	for _, name := range own {
		i := strings.Index(help, "\n  -"+name+" ")
		if i < 0 {
			i = strings.Index(help, "\n  -"+name+"\n") // a flag without a value
		}
		if i < 0 || i > beams {
			t.Errorf("-h shows -%s at %d, not among ipm's flags, before Beam's at %d", name, i, beams)
		}
	}
	if i := strings.Index(help, "\n  -runner "); i < beams {
		t.Errorf("-h shows Beam's -runner at %d, before Beam's flags at %d", i, beams)
	}
}

// TestEpochLines checks that ipm writes a line of each epoch to stderr,
// with its mistakes and time, and leaves nothing in the temporary folder,
// where Beam's runner leaves a file of each pipeline.
func TestEpochLines(t *testing.T) {
	t.Parallel()
	dir, tmp := t.TempDir(), t.TempDir()
	var stderr bytes.Buffer
	c := command("-shards", writeShards(t, dir, 2), "-output", filepath.Join(dir, "model.json"), "-epochs", "3")
	c.Env = append(c.Env, "TMPDIR="+tmp)
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.Bytes())
	}
	if left := files(t, tmp); len(left) > 0 {
		t.Errorf("ipm left %q in the temporary folder", left)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines on stderr, want 3:\n%s", len(lines), stderr.Bytes())
	}
	for e, l := range lines {
		var epoch, mistakes int
		var took string
		if _, err := fmt.Sscanf(l, "ipm: epoch %d: %d mistakes, %s", &epoch, &mistakes, &took); err != nil || epoch != e+1 || mistakes <= 0 {
			t.Errorf("line %q: %v", l, err)
		}
		if _, err := time.ParseDuration(took); err != nil {
			t.Errorf("line %q: the time: %v", l, err)
		}
	}
}

// TestSecondSignal checks that ipm, on a second SIGINT before the run has
// stopped, exits at once with the signal's status, and says where the
// files of the run may be.
func TestSecondSignal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := command("-shards", writeShards(t, dir, 3), "-output", filepath.Join(dir, "model.json"), "-model", "averaged", "-epochs", "1000", "-no-stop")
	stderr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		out.WriteString(lines.Text() + "\n")
		if strings.HasPrefix(lines.Text(), "ipm: epoch 1: ") {
			c.Process.Signal(syscall.SIGINT)
		}
		if strings.HasPrefix(lines.Text(), "ipm: interrupt: stopping the run") {
			c.Process.Signal(syscall.SIGINT)
			break
		}
	}
	for lines.Scan() {
		out.WriteString(lines.Text() + "\n")
	}
	err = c.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("exit %v, want status 130\n%s", err, out.Bytes())
	}
	// Either ipm exited before its run had stopped, and says where its
	// files are, as it does most times, or the run stopped first, within
	// the moment between the signals, and removed them.
	where := fmt.Sprintf("ipm: stopped before the run removed its files: they are %s\n", filepath.Join(dir, "model.json.ipm-*"))
	if !strings.HasSuffix(out.String(), where) && !strings.HasSuffix(out.String(), "ipm: interrupt: stopped\n") {
		t.Errorf("stderr ends with neither %q nor the end of a stopped run:\n%s", where, out.Bytes())
	}
}

// TestSignalIgnored checks that ipm, started with SIGINT ignored, as a
// shell without job control starts a command run with &, stops on SIGINT
// as it does otherwise: exit status 130, and no file of its run left.
func TestSignalIgnored(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := command("-shards", writeShards(t, dir, 3), "-output", filepath.Join(dir, "model.json"), "-model", "averaged", "-epochs", "1000", "-no-stop")
	c.Args = append([]string{"sh", "-c", `trap "" INT; exec "$0" "$@"`, c.Path}, c.Args[1:]...)
	c.Path = "/bin/sh"
	before := files(t, dir)
	out, err := signalAt(t, c, "ipm: epoch 1: ", 0, syscall.SIGINT)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("exit %v, want status 130\n%s", err, out)
	}
	if !strings.HasSuffix(out, "ipm: interrupt: stopped\n") {
		t.Errorf("stderr does not end with the stop:\n%s", out)
	}
	if after := files(t, dir); !slices.Equal(after, before) {
		t.Errorf("ipm left files: %q, before it %q", after, before)
	}
}

// TestKilledRunNamed checks that the files that a run killed by SIGKILL
// leaves, beside the model and in -work, the next run of the same output
// or -work names on stderr, and leaves, as it cannot tell them from the
// files of a run that goes on.
func TestKilledRunNamed(t *testing.T) {
	t.Parallel()
	for _, work := range []bool{false, true} {
		dir := t.TempDir()
		glob := writeShards(t, dir, 2)
		args := []string{"-shards", glob, "-output", filepath.Join(dir, "model.json"), "-model", "averaged"}
		pattern := filepath.Join(dir, "model.json.ipm-*")
		if work {
			args = append(args, "-work", t.TempDir())
			pattern = args[len(args)-1] + "/ipm-*"
		}
		signalAt(t, command(append(args, "-epochs", "1000", "-no-stop")...), "ipm: epoch 1: ", 0, syscall.SIGKILL)
		left, _ := filepath.Glob(pattern)
		if len(left) == 0 {
			t.Fatalf("work %t: SIGKILL left no file of the run", work)
		}
		c := command(append(args, "-epochs", "1")...)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		if err := c.Run(); err != nil {
			t.Fatalf("work %t: %v\n%s", work, err, stderr.Bytes())
		}
		want := fmt.Sprintf("ipm: %s are %d files of runs that were killed or still run: remove them if no run of this -output or -work goes on\n", pattern, len(left))
		if !strings.HasPrefix(stderr.String(), want) {
			t.Errorf("work %t: stderr does not start with %q:\n%s", work, want, stderr.Bytes())
		}
		if still, _ := filepath.Glob(pattern); !slices.Equal(still, left) {
			t.Errorf("work %t: files %q after the next run, want %q", work, still, left)
		}
	}
}

// signalAt starts c, sends it sig the delay after it writes a line to
// stderr that starts with at, and returns its stderr and its error once it
// ends. A signal sent at once must reach c; after a delay, c may have
// ended.
func signalAt(t *testing.T, c *exec.Cmd, at string, delay time.Duration, sig syscall.Signal) (string, error) {
	t.Helper()
	stderr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		out.WriteString(lines.Text() + "\n")
		if strings.HasPrefix(lines.Text(), at) {
			time.Sleep(delay)
			if err := c.Process.Signal(sig); err != nil && delay == 0 {
				t.Fatal(err)
			}
			break
		}
	}
	for lines.Scan() {
		out.WriteString(lines.Text() + "\n")
	}
	return out.String(), c.Wait()
}
