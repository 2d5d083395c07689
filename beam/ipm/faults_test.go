// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
)

// TestBadShard checks that a missing shard and a malformed one fail the
// run with an error that names the file, and the line, and that the run
// leaves no file behind, the model's or its own: with the scan of the
// shards for their classes and width, and without, where the training
// reads them first.
func TestBadShard(t *testing.T) {
	t.Parallel()
	sets := problem{shards: 3, rows: 10, d: 4, classes: []float64{-1, 1}, noise: 0.2, seed: 9}.make()
	for _, tc := range []struct {
		name string
		bad  func(t *testing.T, paths []string) string // makes a shard bad, and returns what the error says
	}{
		{"missing", func(t *testing.T, paths []string) string {
			if err := os.Remove(paths[1]); err != nil {
				t.Fatal(err)
			}
			return paths[1] + "): cannot open it: no such file"
		}},
		{"malformed", func(t *testing.T, paths []string) string {
			b, err := os.ReadFile(paths[2])
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(b), "\n")
			lines[2] = "1 1:0.5 2:x\n"
			if err := os.WriteFile(paths[2], []byte(strings.Join(lines, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			return paths[2] + `): line 3: index 2: "x" is not a number`
		}},
	} {
		for _, scan := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/scan=%t", tc.name, scan), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				paths := write(t, dir, sets, nil)
				want := tc.bad(t, paths)
				before := list(t, dir)
				c := Config{Shards: paths, Epochs: 3, Output: filepath.Join(dir, "model.json"), Runner: runner()}
				if !scan {
					c.NoIDF, c.NoStop, c.Cols, c.Classes = true, true, 4, []string{"-1", "1"}
				}
				_, err := Run(context.Background(), c)
				if err == nil {
					t.Fatal("no error")
				}
				var pe *PipelineError
				if !errors.As(err, &pe) {
					t.Errorf("the error is not a pipeline's: %v", err)
				}
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the error does not say %q:\n%v", want, err)
				}
				if after := list(t, dir); !slices.Equal(after, before) {
					t.Errorf("the run left files: %q, before it %q", after, before)
				}
			})
		}
	}
}

// list returns the names of the files in dir.
func list(t *testing.T, dir string) []string {
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

// TestConfig checks that a run of a wrong Config fails before any
// pipeline, and writes nothing.
func TestConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "model.json")
	shards := []string{filepath.Join(dir, "shard.svm")}
	for _, tc := range []struct {
		c   Config
		err string
	}{
		{Config{Output: out}, "ipm: no shards"},
		{Config{Shards: shards, Output: out, Epochs: -1}, "ipm: -1 epochs"},
		{Config{Shards: shards, Output: out, Cols: -2}, "ipm: -2 columns"},
		{Config{Shards: shards}, "ipm: no output file"},
		{Config{Shards: shards, Output: out, Classes: []string{"1", "01"}}, `ipm: the classes: the classes "1" and "01" are the same number`},
	} {
		tc.c.Runner = runner()
		if _, err := Run(context.Background(), tc.c); err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("Run(%+v): error %v, want %q", tc.c, err, tc.err)
		}
	}
	if names := list(t, dir); len(names) != 0 {
		t.Errorf("the runs wrote %q", names)
	}
}

// TestGivenClasses checks that a label that none of the given classes is
// fails the run, naming the file and the row.
func TestGivenClasses(t *testing.T) {
	t.Parallel()
	sets := problem{shards: 2, rows: 10, d: 3, classes: []float64{1, 2, 3}, noise: 0.2, seed: 10}.make()
	for i, c := range sets[0].y {
		if c == 3 {
			sets[0].y[i] = 1 // so that shard 1 alone fails
		}
	}
	dir := t.TempDir()
	paths := write(t, dir, sets, nil)
	i := slices.Index(sets[1].y, 3)
	if i < 0 {
		t.Fatal("shard 1 has no row of class 3")
	}
	before := list(t, dir)
	_, err := Run(context.Background(), Config{Shards: paths, Epochs: 2, Classes: []string{"1", "2"}, Output: filepath.Join(dir, "model.json"), Runner: runner()})
	want := fmt.Sprintf(`ipm: shard 1 (%s): row %d: the label "3" is none of the classes ["1" "2"]`, paths[1], i+1)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
	if after := list(t, dir); !slices.Equal(after, before) {
		t.Errorf("the run left files: %q, before it %q", after, before)
	}
}

// TestCancel checks that a run whose context is done as it runs, at
// various times, fails and leaves no file behind, on prism and on the
// direct runner.
func TestCancel(t *testing.T) {
	t.Parallel()
	sets := problem{shards: 3, rows: 40, d: 6, classes: []float64{1, 2, 3}, noise: 0.3, seed: 19}.make()
	for _, r := range []string{"prism", "direct"} {
		for _, after := range []time.Duration{0, 20 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond} {
			t.Run(fmt.Sprintf("%s/%v", r, after), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				paths := write(t, dir, sets, nil)
				before := list(t, dir)
				ctx, cancel := context.WithTimeout(context.Background(), after)
				defer cancel()
				_, err := Run(ctx, Config{Shards: paths, Epochs: 1000, NoStop: true, Output: filepath.Join(dir, "model.json"), Runner: r, block: 2})
				if err == nil {
					t.Fatal("no error")
				}
				// Steps of a pipeline that prism goes on running stop
				// before they write.
				time.Sleep(100 * time.Millisecond)
				if after := list(t, dir); !slices.Equal(after, before) {
					t.Errorf("the run left files: %q, before it %q", after, before)
				}
			})
		}
	}
}

// TestTimeout checks that a run whose pipeline runs longer than the
// Timeout fails, saying so, and leaves no file behind, on prism and on
// the direct runner.
func TestTimeout(t *testing.T) {
	t.Parallel()
	sets := problem{shards: 3, rows: 40, d: 6, classes: []float64{1, 2, 3}, noise: 0.3, seed: 22}.make()
	for _, r := range []string{"prism", "direct"} {
		dir := t.TempDir()
		paths := write(t, dir, sets, nil)
		before := list(t, dir)
		_, err := Run(context.Background(), Config{Shards: paths, Epochs: 1000, NoStop: true, Timeout: time.Nanosecond, Output: filepath.Join(dir, "model.json"), Runner: r})
		if err == nil || !strings.Contains(err.Error(), "ran for more than 1ns: its job is cancelled") {
			t.Errorf("%s: error %v", r, err)
		}
		time.Sleep(100 * time.Millisecond)
		if after := list(t, dir); !slices.Equal(after, before) {
			t.Errorf("%s: the run left files: %q, before it %q", r, after, before)
		}
	}
}

// TestWorkersEnd checks that the workers that prism starts in this
// process for the jobs of runs end with their jobs, whether a job ends,
// or is cancelled as its run times out or its context is done: the pool
// that starts them lasts as long as the process, and a worker left in it
// would go on. It does not run in parallel, so that no other test's
// workers run, and it sees workers as a run runs, so that it is known to
// look for the right goroutines.
func TestWorkersEnd(t *testing.T) {
	sets := problem{shards: 3, rows: 40, d: 6, classes: []float64{1, 2, 3}, noise: 0.3, seed: 23}.make()
	seen := 0
	for _, c := range []struct {
		epochs         int
		timeout, after time.Duration
	}{{3, 0, 0}, {1000, 0, 400 * time.Millisecond}, {1000, time.Nanosecond, 0}, {1000, 0, 20 * time.Millisecond}, {3, 0, 0}} {
		dir := t.TempDir()
		paths := write(t, dir, sets, nil)
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		if c.after > 0 {
			ctx, cancel = context.WithTimeout(ctx, c.after)
		}
		ended, sampled := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(sampled)
			for {
				select {
				case <-ended:
					return
				case <-time.After(2 * time.Millisecond):
					seen = max(seen, workerGoroutines())
				}
			}
		}()
		_, err := Run(ctx, Config{Shards: paths, Epochs: c.epochs, NoStop: true, Timeout: c.timeout, Output: filepath.Join(dir, "model.json"), Runner: "prism"})
		cancel()
		close(ended)
		<-sampled
		if (err == nil) != (c.after == 0 && c.timeout == 0) {
			t.Errorf("%+v: error %v", c, err)
		}
	}
	if seen == 0 {
		t.Fatal("no worker's goroutine seen as the runs ran")
	}
	for end := time.Now().Add(30 * time.Second); workerGoroutines() > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%d goroutines of workers run 30 s after the runs have ended", workerGoroutines())
		}
	}
}

// workerGoroutines returns the number of goroutines of this process that
// run Beam's worker, its harness.
func workerGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	n := 0
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, "/beam/core/runtime/harness.") {
			n++
		}
	}
	return n
}

// failRemove is a file system of local files, named failrm://path, that
// cannot remove them.
type failRemove struct{ local filesystem.Interface }

func init() {
	filesystem.Register("failrm", func(ctx context.Context) filesystem.Interface { return failRemove{local.New(ctx)} })
}

func unfail(path string) string { return strings.TrimPrefix(path, "failrm://") }

func (f failRemove) List(ctx context.Context, glob string) ([]string, error) {
	l, err := f.local.List(ctx, unfail(glob))
	for k := range l {
		l[k] = "failrm://" + l[k]
	}
	return l, err
}

func (f failRemove) OpenRead(ctx context.Context, path string) (io.ReadCloser, error) {
	return f.local.OpenRead(ctx, unfail(path))
}

func (f failRemove) OpenWrite(ctx context.Context, path string) (io.WriteCloser, error) {
	return f.local.OpenWrite(ctx, unfail(path))
}

func (f failRemove) Size(ctx context.Context, path string) (int64, error) {
	return f.local.Size(ctx, unfail(path))
}

func (f failRemove) Close() error { return f.local.Close() }

func (f failRemove) Remove(context.Context, string) error { return errors.New("failrm: no removal") }

// TestLeftFiles checks that a run that fails and cannot remove its files
// says where they are in its error.
func TestLeftFiles(t *testing.T) {
	t.Parallel()
	sets := problem{shards: 2, rows: 30, d: 5, classes: []float64{1, 2, 3}, noise: 0.3, seed: 20}.make()
	dir, work := t.TempDir(), t.TempDir()
	paths := write(t, dir, sets, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopAt := func(e, _ int, _ time.Duration) {
		if e == 2 {
			cancel()
		}
	}
	_, err := Run(ctx, Config{Shards: paths, Epochs: 10, Output: filepath.Join(dir, "model.json"), Work: "failrm://" + work, Runner: runner(), OnEpoch: stopAt, block: 2})
	left := list(t, work)
	if len(left) == 0 {
		t.Fatalf("no file left in the folder that cannot remove them; error %v", err)
	}
	// As many files as that, of one run, are named by the start of their
	// names.
	if len(left) <= 5 {
		t.Fatalf("%d files left, too few to test what it should", len(left))
	}
	prefix, _, _ := strings.Cut(left[0], ".")
	want := fmt.Sprintf("; the run could not remove %d of its files: failrm://%s*", len(left), filepath.Join(work, prefix))
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("error %v, want one that ends with %q", err, want)
	}
	for _, name := range left {
		if !strings.HasPrefix(name, prefix+".") {
			t.Errorf("the file %s left is not of the run %s", name, prefix)
		}
	}
}

func TestLeft(t *testing.T) {
	t.Parallel()
	r := &run{prefix: "dir/ipm-1"}
	for _, tc := range []struct {
		left []string
		want string
	}{
		{[]string{"dir/ipm-1.a", "out.tmp"}, "the run could not remove its files dir/ipm-1.a, out.tmp"},
		{[]string{"dir/ipm-1.a", "dir/ipm-1.b", "dir/ipm-1.c", "dir/ipm-1.d", "dir/ipm-1.e", "dir/ipm-1.f"}, "the run could not remove 6 of its files: dir/ipm-1*"},
		{[]string{"dir/ipm-1.a", "dir/ipm-1.b", "dir/ipm-1.c", "dir/ipm-1.d", "dir/ipm-1.e", "out.tmp"}, "the run could not remove 6 of its files: dir/ipm-1.a, dir/ipm-1.b, dir/ipm-1.c, dir/ipm-1.d, dir/ipm-1.e, …"},
	} {
		if got := r.left(tc.left); got != tc.want {
			t.Errorf("left(%q) = %q, want %q", tc.left, got, tc.want)
		}
	}
}
