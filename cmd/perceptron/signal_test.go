// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ignoring returns cmd started with SIGINT ignored, as a shell without job
// control starts a command run with &: by a shell that ignores it and
// runs the command in its place.
func ignoring(cmd *exec.Cmd) *exec.Cmd {
	cmd.Args = append([]string{"sh", "-c", `trap "" INT; exec "$0" "$@"`, cmd.Path}, cmd.Args[1:]...)
	cmd.Path = "/bin/sh"
	return cmd
}

// waitCaught waits until the process pid runs the program exe and catches
// SIGINT, as Linux tells in /proc, and reports whether it does within d.
// It waits for exe because the shell that ignoring starts catches SIGINT
// itself, as dash does under -c, until its trap and exec have run.
func waitCaught(pid int, exe string, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if path, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err != nil || path != exe {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return false
		}
		for l := range strings.Lines(string(b)) {
			if mask, ok := strings.CutPrefix(l, "SigCgt:"); ok {
				m, _ := strconv.ParseUint(strings.TrimSpace(mask), 16, 64)
				if m&(1<<(syscall.SIGINT-1)) != 0 {
					return true
				}
			}
		}
	}
	return false
}

// waitFor returns the rest of r, the child cmd's stderr, once cmd has
// ended, and its error; or kills cmd and returns an error if it has not
// ended within d.
func waitFor(cmd *exec.Cmd, r io.Reader, d time.Duration) (string, error) {
	rest := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		rest <- b
	}()
	var b []byte
	select {
	case b = <-rest:
	case <-time.After(d):
		cmd.Process.Kill()
		cmd.Wait()
		return string(<-rest), fmt.Errorf("still running %v after the signal", d)
	}
	return string(b), cmd.Wait()
}

// SIGINT ends the command as it reads its data, as it trains and as it
// writes its model, leaving no file, whether it was started with SIGINT
// ignored or not: by the signal, or with the exit status of a process
// that SIGINT ended, 130, if it was started with it ignored, when its
// default action, once the command has caught it, cannot be restored.
func TestSignalIgnoredAtStart(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip(err)
	}
	// Long enough to tell a hang, and only a failure waits for it.
	const hang = 20 * time.Second
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(4, 7)), 4000, 20)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 20, false))
	out := filepath.Join(dir, "m.json")
	for _, ignored := range []bool{false, true} {
		for _, c := range []struct {
			phase, mode string
			args        []string
			first, last string // the lines of stderr before the signal, and after it
		}{
			{"reading", "main", []string{"train", "-o", out, "-"}, "", ""},
			{"training", "training", []string{"train", "-classifier", "pocket", "-no-stop", "-o", out, file}, "training", "perceptron: interrupt: training stopped"},
			{"writing", "pause", []string{"train", "-o", out, file}, "temporary file ", ""},
		} {
			cmd := child(t, c.mode, c.args...)
			exe := cmd.Path
			if ignored {
				cmd = ignoring(cmd)
			}
			stdin, _ := cmd.StdinPipe() // never closed: reading waits
			defer stdin.Close()
			stderr, _ := cmd.StderrPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(stderr)
			if c.first != "" {
				if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, c.first) {
					cmd.Process.Kill()
					t.Fatalf("%s, ignored %t: the child wrote %q, %v", c.phase, ignored, line, err)
				}
			}
			if !waitCaught(cmd.Process.Pid, exe, hang) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Errorf("%s, ignored %t: the child does not catch SIGINT", c.phase, ignored)
				continue
			}
			cmd.Process.Signal(syscall.SIGINT)
			rest, err := waitFor(cmd, r, hang)
			var ee *exec.ExitError
			ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
			switch {
			case !errors.As(err, &ee):
				t.Errorf("%s, ignored %t: %v", c.phase, ignored, err)
			case ignored && (ws.Signaled() || ws.ExitStatus() != 130):
				t.Errorf("%s, ignored %t: the child ended with %v, want exit status 130", c.phase, ignored, err)
			case !ignored && (!ws.Signaled() || ws.Signal() != syscall.SIGINT):
				t.Errorf("%s, ignored %t: the child ended with %v, want SIGINT", c.phase, ignored, err)
			}
			lines := strings.Split(strings.TrimSuffix(rest, "\n"), "\n")
			if c.mode == "training" {
				lines = lines[1:] // when it caught the signal
			}
			if got := strings.Join(lines, "\n"); got != c.last {
				t.Errorf("%s, ignored %t: the child wrote %q, want %q", c.phase, ignored, got, c.last)
			}
			if names := listDir(t, dir); !slices.Equal(names, []string{"d.csv"}) {
				t.Errorf("%s, ignored %t: files %v, want only d.csv", c.phase, ignored, names)
			}
		}
	}
}

// A run that SIGKILL ends as it writes its model leaves its temporary
// file, which the next run that writes the model removes, saying so,
// quietly with -q; it leaves the temporary file of a run that writes the
// model at the same time.
func TestKilledWriteDebris(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(5, 9)), 40, 2)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
	out := filepath.Join(dir, "m.json")
	// pause starts a run that stops once it has made its temporary file,
	// and returns it, the file and what the run wrote to stderr before.
	pause := func() (*exec.Cmd, string, string) {
		cmd := child(t, "pause", "train", "-o", out, file)
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(stderr)
		var before strings.Builder
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				cmd.Process.Kill()
				t.Fatalf("the child wrote %q, %v", before.String()+line, err)
			}
			if tmp, ok := strings.CutPrefix(line, "temporary file "); ok {
				return cmd, strings.TrimSpace(tmp), before.String()
			}
			before.WriteString(line)
		}
	}
	kill := func(cmd *exec.Cmd) {
		cmd.Process.Kill()
		cmd.Wait()
	}
	// train runs the command to its end, and returns its stderr.
	train := func(args ...string) string {
		cmd := child(t, "main", append([]string{"train", "-o", out}, append(args, file)...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %s", err, stderr.String())
		}
		return stderr.String()
	}
	removed := func(tmp string) string {
		return fmt.Sprintf("perceptron: removed %s, the temporary file of a run that was killed as it wrote %s\n", tmp, out)
	}
	killed, left, _ := pause()
	kill(killed)
	if _, err := os.Stat(left); err != nil {
		t.Fatalf("SIGKILL left no temporary file: %v", err)
	}
	running, tmp, errs := pause()
	defer kill(running)
	if errs != removed(left) {
		t.Errorf("stderr %q, want %q", errs, removed(left))
	}
	if errs := train(); strings.Contains(errs, filepath.Base(tmp)) {
		t.Errorf("stderr %q, which names the file %s of a run that writes", errs, tmp)
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{filepath.Base(tmp), "d.csv", "m.json"}) {
		t.Errorf("files %v, want %s, d.csv and m.json", names, filepath.Base(tmp))
	}
	kill(running)
	if errs := train("-q"); errs != "" {
		t.Errorf("-q: stderr %q", errs)
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{"d.csv", "m.json"}) {
		t.Errorf("files %v, want d.csv and m.json", names)
	}
}

// isTemp knows the names of the temporary files of a file, and no
// other.
func TestIsTemp(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, c := range []struct {
		name, base string
		want       bool
	}{
		{tempName("m.json", [6]byte{1, 2, 3, 4, 5, 0xff}), "m.json", true},
		{".m.json.0102030405ff.tmp", "m.json", true},
		{tempName(long, [6]byte{}), long, true},
		{".m.json.0102030405FF.tmp", "m.json", false},
		{".m.json.0102030405f.tmp", "m.json", false},
		{".m.json.0102030405fg.tmp", "m.json", false},
		{".m.json.0102030405ff.tmp", "n.json", false},
		{".m.json.0102030405ff.tmp", "m", false},
		{"m.json.0102030405ff.tmp", "m.json", false},
		{".m.json.0102030405ff", "m.json", false},
		{"." + long + ".0102030405ff.tmp", long, false},
	} {
		if got := isTemp(c.name, c.base); got != c.want {
			t.Errorf("isTemp(%q, %q) = %t", c.name, c.base, got)
		}
	}
}
