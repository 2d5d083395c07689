// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
)

// The tests of this file run ipm as on a cluster, on loopback: Beam's
// prism runner as a job server in a process of its own (the Go SDK's
// command prism), and the workers in processes of their own, which prism
// starts for each job through Beam's boot program (the Go SDK's
// container, as in its image), in a process environment: boot fetches the
// worker's binary, that ipm stages, from the job server, and runs it. The
// binary is this test's, which is ipm when IPM_TEST_MAIN is set.

// tools returns the programs prism and boot, of the module's tools, which
// go tool builds into its cache once.
var tools = sync.OnceValues(func() ([2]string, error) {
	var paths [2]string
	for k, name := range []string{"prism", "container"} {
		c := exec.Command("go", "tool", "-n", name)
		c.Env = append(os.Environ(), "GOWORK=off")
		out, err := c.Output()
		if err != nil {
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				err = fmt.Errorf("%v: %s", err, exit.Stderr)
			}
			return paths, fmt.Errorf("go tool -n %s: %v", name, err)
		}
		paths[k] = strings.TrimSpace(string(out))
	}
	return paths, nil
})

// cluster is prism running as a job server in a process of its own.
type cluster struct {
	port  int
	prism *exec.Cmd
	flags []string // of ipm, to run on it
}

// startCluster starts prism in a process of its own, in a folder of its
// own, on a free port of loopback, and returns it once it listens. The
// test ends it, and every process it started.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the workers are found and killed through /proc")
	}
	bins, err := tools()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// prism starts a process environment's program with --id='ID', the
	// id in quotes, which boot takes as part of it; and boot writes the
	// options of the job in its working folder, and stages the worker's
	// binary in semi_persist_dir: each boot its own folder.
	shim := filepath.Join(dir, "boot.sh")
	script := fmt.Sprintf(`#!/bin/sh
id=${1#--id=}; id=${id#\'}; id=${id%%\'}; shift
cd "$(mktemp -d -p %q)" || exit 1
exec %q --id="$id" --semi_persist_dir="$PWD" "$@"
`, dir, bins[1])
	if err := os.WriteFile(shim, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	c := &cluster{port: port}
	c.prism = exec.Command(bins[0], "-job_port", strconv.Itoa(port), "-serve_http=false", "-log_level", "error")
	c.prism.Dir = dir
	c.prism.Env = append(os.Environ(), "IPM_TEST_MAIN=1") // for the workers
	var log bytes.Buffer
	c.prism.Stdout, c.prism.Stderr = &log, &log
	if err := c.prism.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		left := descendants(c.prism.Process.Pid)
		c.prism.Process.Kill()
		c.prism.Wait()
		for _, p := range left {
			syscall.Kill(p, syscall.SIGKILL)
		}
		if t.Failed() {
			t.Logf("prism's output:\n%s", log.Bytes())
		}
	})
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		if conn, err := net.Dial("tcp", fmt.Sprintf("localhost:%d", port)); err == nil {
			conn.Close()
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("prism does not listen on port %d:\n%s", port, log.Bytes())
		}
	}
	c.flags = []string{"--runner=universal", fmt.Sprintf("--endpoint=localhost:%d", port), "--environment_type=PROCESS",
		fmt.Sprintf(`--environment_config={"command": %q}`, shim), "--worker_binary=" + os.Args[0]}
	return c
}

// processes returns the parent of each process, by its id.
func processes() map[int]int {
	parents := map[int]int{}
	es, _ := os.ReadDir("/proc")
	for _, e := range es {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 {
			parents[pid], _ = strconv.Atoi(f[1])
		}
	}
	return parents
}

// descendants returns the processes whose ancestor is the process pid.
func descendants(pid int) []int {
	parents := processes()
	var out []int
	for p := range parents {
		for a := parents[p]; a > 1; a = parents[a] {
			if a == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// workers returns the worker processes of the cluster, those that run
// with --worker=true against its port, by their id.
func (c *cluster) workers() []int {
	var out []int
	for p := range processes() {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		if slices.Contains(args, "--worker=true") && slices.Contains(args, fmt.Sprintf("--control_endpoint=localhost:%d", c.port)) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// ended waits for the workers of the cluster to end, as they do after
// their jobs, and fails the test if some have not within a time.
func (c *cluster) ended(t *testing.T) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		w := c.workers()
		if len(w) == 0 {
			return
		}
		if time.Since(start) > 30*time.Second {
			t.Errorf("the workers %v still run after their jobs", w)
			return
		}
	}
}

// inProcess runs ipm with args on prism in its own process, and returns
// the model it writes.
func inProcess(t *testing.T, args ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "model.json")
	c := command(append(args, "-output", out)...)
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWorkers checks that ipm, run against prism as a job server in a
// process of its own, with its workers in processes of their own, writes
// the model that it writes on prism in its own process, to the bit, of
// LIBSVM rows and of text; that the workers end after their jobs; and
// that it leaves no file of the run, nor of Beam's boot.
func TestWorkers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir() // removed after the cluster has ended
	c := startCluster(t)
	text := filepath.Join(dir, "text")
	if err := os.Mkdir(text, 0o755); err != nil {
		t.Fatal(err)
	}
	writeText(t, text, 2)
	for _, args := range [][]string{
		{"-shards", writeShards(t, dir, 3), "-epochs", "3", "-mix", "mistakes"},
		{"-shards", filepath.Join(text, "part-*.txt"), "-bits", "10", "-epochs", "2"},
	} {
		want := inProcess(t, args...)
		out := filepath.Join(dir, "model.json")
		boots := bootCopies(t)
		before := files(t, dir)
		ipm := command(append(append(args, "-output", out), c.flags...)...)
		var stderr bytes.Buffer
		ipm.Stderr = &stderr
		if err := ipm.Run(); err != nil {
			t.Fatalf("%v\n%s", err, stderr.Bytes())
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the model of the workers in processes of their own is not the model of one process:\n got %.500s\nwant %.500s", args[1], got, want)
		}
		if after := files(t, dir); !slices.Equal(after, slices.Sorted(slices.Values(append(before, "model.json")))) {
			t.Errorf("%s: ipm left files: %q, before it %q", args[1], after, before)
		}
		os.Remove(out)
		c.ended(t)
		if left := copiesLeft(t, boots); len(left) > 0 {
			t.Errorf("%s: the workers left their binaries that boot copied: %q", args[1], left)
		}
	}
}

// bootCopies returns the copies of workers' binaries that Beam's boot
// made in /tmp.
func bootCopies(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob("/tmp/bin[0-9]*/worker")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// copiesLeft returns the copies of workers' binaries in /tmp that are not
// among before and are still there 10 s after it is called. The workers
// of the tests that run beside the caller's make and remove theirs as
// they start, and TestWorkerKilled removes those of the workers it kills.
func copiesLeft(t *testing.T, before []string) []string {
	t.Helper()
	var left []string
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(100 * time.Millisecond) {
		left = slices.DeleteFunc(bootCopies(t), func(c string) bool { return slices.Contains(before, c) })
		if len(left) == 0 {
			break
		}
	}
	return left
}

// writeText writes n shards of lines of text in fastText's format to dir.
func writeText(t *testing.T, dir string, n int) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(3, 4))
	words := []string{"library", "game", "tool", "files", "development", "play", "python", "module", "the", "for"}
	for k := range n {
		var b strings.Builder
		for range 100 {
			c := rnd.IntN(3)
			fmt.Fprintf(&b, "__label__%s", []string{"libs", "games", "python"}[c])
			for range 4 + rnd.IntN(6) {
				w := words[rnd.IntN(len(words))]
				if rnd.IntN(2) == 0 {
					w = words[3*c+rnd.IntN(3)]
				}
				b.WriteString(" " + w)
			}
			b.WriteString("\n")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%02d.txt", k)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWorkerKilled checks that a worker killed during an epoch, at
// various times in it, five times, makes ipm either complete the run with
// the model of a run without the kill, if the runner runs the work again,
// or fail, with an error of one line, and remove the files of its run.
// Prism runs no work of a failed job again: a worker killed as it starts
// fails the run.
func TestWorkerKilled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir() // removed after the cluster has ended
	c := startCluster(t)
	// The timeout ends a run whose worker was killed before it connected,
	// for which prism waits; it must leave a loaded machine the time to
	// stage a job's worker, some 80 MB, which took more than 10 s once.
	args := []string{"-shards", writeRows(t, dir, 3, 2000, 300), "-epochs", "3", "-no-stop", "-timeout", "30s"}
	want := inProcess(t, args...)
	out := filepath.Join(dir, "model.json")
	rnd := rand.New(rand.NewPCG(5, 6))
	failed := 0
	for try := range 5 {
		before := files(t, dir)
		ipm := command(append(append(args, "-output", out), c.flags...)...)
		stderr, err := ipm.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := ipm.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(stderr)
		var log []string
		epoch := 1 + try%2 // the epoch after whose line the next job's worker is killed
		delay := time.Duration(rnd.IntN(300)) * time.Millisecond
		if try == 0 {
			delay = 0
		}
		killed := -1
		for lines.Scan() {
			log = append(log, lines.Text())
			if strings.HasPrefix(lines.Text(), fmt.Sprintf("ipm: epoch %d: ", epoch)) {
				killed = killWorker(c, c.workers(), delay)
				break
			}
		}
		for lines.Scan() {
			log = append(log, lines.Text())
		}
		err = ipm.Wait()
		if killed < 0 {
			t.Fatalf("try %d: no worker to kill after epoch %d:\n%s", try, epoch, strings.Join(log, "\n"))
		}
		if err == nil {
			if got, rerr := os.ReadFile(out); rerr != nil || !bytes.Equal(got, want) {
				t.Errorf("try %d: the run completed with another model than a run without a kill (%v)", try, rerr)
			}
			os.Remove(out)
		} else {
			failed++
			// The lines of the epochs before, and one of the error.
			var others []string
			for _, l := range log {
				var e, m int
				if _, err := fmt.Sscanf(l, "ipm: epoch %d: %d mistakes", &e, &m); err != nil {
					others = append(others, l)
				}
			}
			if len(others) != 1 || !strings.HasPrefix(others[0], "ipm: ") {
				t.Errorf("try %d: the killed worker's run failed with %d lines, want one of ipm's:\n%s", try, len(others), strings.Join(log, "\n"))
			}
		}
		t.Logf("try %d: killed worker %d %v after it started, after the line of epoch %d: %v", try, killed, delay, epoch, err)
		if after := files(t, dir); !slices.Equal(after, before) {
			t.Errorf("try %d: ipm left files: %q, before it %q", try, after, before)
		}
		c.ended(t)
	}
	if failed == 0 {
		t.Error("no kill failed the run: the kills came too late to test what they should")
	}
}

// killWorker kills the first worker of the cluster that is not among
// old, the delay after it starts, and returns its id, or -1 if none
// starts within a minute.
func killWorker(c *cluster, old []int, delay time.Duration) int {
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(10 * time.Millisecond) {
		for _, p := range c.workers() {
			if !slices.Contains(old, p) {
				time.Sleep(delay)
				exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", p))
				syscall.Kill(p, syscall.SIGKILL)
				// A worker killed before it removed the copy of
				// itself that boot made leaves it.
				if bootCopy(exe) {
					os.RemoveAll(filepath.Dir(exe))
				}
				return p
			}
		}
	}
	return -1
}

// TestDriverKilled checks that ipm killed by SIGKILL, as it runs on the
// cluster, in an epoch and after the last, as it writes the model, leaves
// no model at -output, or the whole model.
func TestDriverKilled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir() // removed after the cluster has ended
	c := startCluster(t)
	args := []string{"-shards", writeShards(t, dir, 2), "-epochs", "2", "-no-stop"}
	want := inProcess(t, args...)
	rnd := rand.New(rand.NewPCG(7, 8))
	for try, at := range []string{"ipm: epoch 1: ", "ipm: epoch 2: ", "ipm: epoch 2: "} {
		out := filepath.Join(dir, fmt.Sprintf("model-%d.json", try))
		ipm := command(append(append(args, "-output", out), c.flags...)...)
		log, _ := signalAt(t, ipm, at, time.Duration(rnd.IntN(100))*time.Millisecond, syscall.SIGKILL)
		got, err := os.ReadFile(out)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			t.Fatal(err)
		case !bytes.Equal(got, want):
			t.Errorf("try %d: a model of %d bytes at -output, not the whole model:\n%s", try, len(got), log)
		}
		c.ended(t)
	}
}

// driverOnly is a file system of local files, named driveronly://path,
// that ipm registers when IPM_TEST_DRIVER_FS is set: in the driver, and not
// in the workers, as a file system that the driver mounts and the workers
// do not.
type driverOnly struct{ filesystem.Interface }

func init() {
	if os.Getenv("IPM_TEST_DRIVER_FS") == "" {
		return
	}
	filesystem.Register("driveronly", func(ctx context.Context) filesystem.Interface { return driverOnly{local.New(ctx)} })
}

func onDriver(path string) string { return strings.TrimPrefix(path, "driveronly://") }

func (f driverOnly) List(ctx context.Context, glob string) ([]string, error) {
	l, err := f.Interface.List(ctx, onDriver(glob))
	for k := range l {
		l[k] = "driveronly://" + l[k]
	}
	return l, err
}

func (f driverOnly) OpenRead(ctx context.Context, path string) (io.ReadCloser, error) {
	return f.Interface.OpenRead(ctx, onDriver(path))
}

func (f driverOnly) OpenWrite(ctx context.Context, path string) (io.WriteCloser, error) {
	return f.Interface.OpenWrite(ctx, onDriver(path))
}

func (f driverOnly) Size(ctx context.Context, path string) (int64, error) {
	return f.Interface.Size(ctx, onDriver(path))
}

// TestUnreached checks that ipm, whose workers cannot reach the shards
// that it reaches, fails with an error of one line that says so, and
// leaves no file.
func TestUnreached(t *testing.T) {
	t.Parallel()
	dir := t.TempDir() // removed after the cluster has ended
	c := startCluster(t)
	glob := "driveronly://" + writeShards(t, dir, 2)
	before := files(t, dir)
	ipm := command(append([]string{"-shards", glob, "-output", filepath.Join(dir, "model.json"), "-epochs", "2"}, c.flags...)...)
	ipm.Env = append(ipm.Env, "IPM_TEST_DRIVER_FS=1")
	out, err := ipm.CombinedOutput()
	want := "this program reaches driveronly://" + filepath.Join(dir, "part-00.svm") + ", which the workers do not"
	if err == nil || strings.Count(string(out), "\n") != 1 || !strings.Contains(string(out), want) {
		t.Errorf("error %v, and the output\n%s\nwant one line that says %q", err, out, want)
	}
	if after := files(t, dir); !slices.Equal(after, before) {
		t.Errorf("ipm left files: %q, before it %q", after, before)
	}
	c.ended(t)
}
