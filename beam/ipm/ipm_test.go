// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// The tests run the pipelines on Beam's prism runner, in this process,
// as ptest does by default; go test's -runner flag (go test -args
// -runner=direct) picks another.
// Beam's logs at level info, which are many, are left out.
func TestMain(m *testing.M) {
	log.LogLevel = "warn"
	ptest.MainWithDefault(m, "prism")
}

func runner() string {
	if *ptest.Runner != "" {
		return *ptest.Runner
	}
	return ptest.DefaultRunner()
}

// shardSet is the rows of a shard, as the test makes them, and their
// labels.
type shardSet struct {
	X *perceptron.CSR
	y []float64
}

// problem describes data that the test makes: shards of rows of d
// features whose labels are among classes, by the linear rule of a random
// weight table, with the fraction noise of them drawn at random instead;
// without noise, the rule's class scores above the others by at least
// margin. Integer rows hold small whole numbers, and others floats of all
// 53 bits.
type problem struct {
	shards, rows, d int
	classes         []float64
	noise, margin   float64
	integer         bool
	seed            uint64
}

// make returns the shards of the problem.
func (p problem) make() []shardSet {
	rnd := rand.New(rand.NewPCG(p.seed, 1))
	K := len(p.classes)
	W := make([]float64, p.d*K)
	for j := range W {
		W[j] = rnd.NormFloat64()
	}
	sets := make([]shardSet, p.shards)
	for k := range sets {
		ptr := []int{0}
		var ind []int
		var val []float64
		y := make([]float64, p.rows)
		for i := 0; i < p.rows; {
			x := make([]float64, p.d)
			for j := range x {
				if rnd.Float64() < 0.3 {
					continue // sparse rows
				}
				if p.integer {
					x[j] = float64(rnd.IntN(7) - 3)
				} else {
					x[j] = rnd.NormFloat64()
				}
			}
			best, top, next := 0, math.Inf(-1), math.Inf(-1)
			for c := range K {
				s := 0.0
				for j, v := range x {
					s += v * W[j*K+c]
				}
				switch {
				case s > top:
					best, top, next = c, s, top
				case s > next:
					next = s
				}
			}
			if p.noise == 0 && top-next < p.margin {
				continue
			}
			if rnd.Float64() < p.noise {
				best = rnd.IntN(K)
			}
			y[i] = p.classes[best]
			for j, v := range x {
				if v != 0 {
					ind = append(ind, j)
					val = append(val, v)
				}
			}
			ptr = append(ptr, len(ind))
			i++
		}
		X, err := perceptron.NewCSR(p.rows, p.d, ptr, ind, val)
		if err != nil {
			panic(err)
		}
		sets[k] = shardSet{X, y}
	}
	return sets
}

// write writes the shards as LIBSVM files in dir, their labels as names
// gives them, or as numbers if names is nil, and returns their paths.
func write(t *testing.T, dir string, sets []shardSet, names map[float64]string) []string {
	t.Helper()
	var paths []string
	for k, s := range sets {
		var b strings.Builder
		for i, c := range s.y {
			if names != nil {
				b.WriteString(names[c])
			} else {
				b.WriteString(strconv.FormatFloat(c, 'g', -1, 64))
			}
			s.X.DoRowNonZero(i, func(_, j int, v float64) {
				fmt.Fprintf(&b, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
			})
			b.WriteByte('\n')
		}
		path := filepath.Join(dir, fmt.Sprintf("shard-%02d.svm", k))
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// labels returns the distinct labels of the shards, ascending.
func labels(sets []shardSet) []float64 {
	var all []float64
	for _, s := range sets {
		all = append(all, s.y...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// fitShards returns the saved model of perceptron.FitShards on the
// shards, with the given labels.
func fitShards(t *testing.T, sets []shardSet, averaged, byMistakes bool, epochs int, labels []float64) ([]byte, perceptron.Stats) {
	t.Helper()
	X := make([]mat.Matrix, len(sets))
	y := make([][]float64, len(sets))
	for k, s := range sets {
		X[k], y[k] = s.X, s.y
	}
	var m interface {
		perceptron.Classifier
		Stats() perceptron.Stats
	}
	if averaged {
		m = &perceptron.Averaged{Epochs: epochs, Labels: labels}
	} else {
		m = &perceptron.Perceptron{Epochs: epochs, Labels: labels}
	}
	if err := perceptron.FitShards(m, X, y, byMistakes); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b, m.Stats()
}

// TestFitShards checks that the pipelines train the model of
// perceptron.FitShards on the same shards, to the bit.
func TestFitShards(t *testing.T) {
	t.Parallel()
	multi := []float64{1, 2, 3}
	for _, tc := range []struct {
		name     string
		p        problem
		epochs   int
		converge bool     // that FitShards stops before the limit
		names    []string // of the classes, for labels that are not numbers
	}{
		{name: "separable", p: problem{shards: 4, rows: 25, d: 6, classes: multi, margin: 0.5, seed: 1}, epochs: 40, converge: true},
		{name: "noisy", p: problem{shards: 3, rows: 30, d: 5, classes: multi, noise: 0.3, seed: 2}, epochs: 3},
		{name: "binary", p: problem{shards: 3, rows: 20, d: 4, classes: []float64{-1, 1}, noise: 0.2, seed: 3}, epochs: 2},
		{name: "names", p: problem{shards: 2, rows: 20, d: 4, classes: []float64{0, 1, 2}, noise: 0.2, seed: 4}, epochs: 2, names: []string{"cat", "dog", "eel"}},
	} {
		sets := tc.p.make()
		dir := t.TempDir()
		var names map[float64]string
		if tc.names != nil {
			names = map[float64]string{}
			for k, c := range tc.p.classes {
				names[c] = tc.names[k]
			}
		}
		paths := write(t, dir, sets, names)
		for _, averaged := range []bool{false, true} {
			for _, byMistakes := range []bool{false, true} {
				name := fmt.Sprintf("%s/averaged=%t/byMistakes=%t", tc.name, averaged, byMistakes)
				t.Run(name, func(t *testing.T) {
					want, st := fitShards(t, sets, averaged, byMistakes, tc.epochs, labels(sets))
					if converged := st.Converged && st.Epochs < tc.epochs; converged != tc.converge {
						t.Fatalf("FitShards stopped after %d of %d epochs, converged %t: the data do not test what they should", st.Epochs, tc.epochs, st.Converged)
					}
					out := filepath.Join(t.TempDir(), "model.json")
					var mistakes []int
					onEpoch := func(e, m int, _ time.Duration) {
						if e != len(mistakes)+1 {
							t.Errorf("OnEpoch of epoch %d after %d", e, len(mistakes))
						}
						mistakes = append(mistakes, m)
					}
					// Blocks of 2 features, so that the blocks of the
					// model are several.
					res, err := Run(context.Background(), Config{Shards: paths, Averaged: averaged, Epochs: tc.epochs, ByMistakes: byMistakes, Output: out, Runner: runner(), OnEpoch: onEpoch, block: 2})
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(mistakes, st.EpochMistakes) {
						t.Errorf("OnEpoch saw the mistakes %v, FitShards made %v", mistakes, st.EpochMistakes)
					}
					got, err := os.ReadFile(out)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Errorf("the model of the pipelines is not FitShards':\n got %s\nwant %s", got, want)
					}
					if !bytes.Equal(res.Saved, got) {
						t.Errorf("Result.Saved is not the file written")
					}
					if tc.names != nil && !slices.Equal(res.Classes, tc.names) {
						t.Errorf("classes %q, want %q", res.Classes, tc.names)
					}
					if _, d := sets[0].X.Dims(); res.Cols != d {
						t.Errorf("%d columns, want %d", res.Cols, d)
					}
				})
			}
		}
	}
}

// TestFit checks that the mix of one shard is the library's Fit of its
// rows, with the same epochs: to the bit for Perceptron, and for Averaged
// on rows of whole numbers, where its sums are exact.
func TestFit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		averaged bool
		p        problem
		epochs   int
	}{
		{"Perceptron/separable", false, problem{shards: 1, rows: 40, d: 5, classes: []float64{1, 2, 3}, margin: 0.5, seed: 5}, 30},
		{"Perceptron/noisy", false, problem{shards: 1, rows: 40, d: 5, classes: []float64{-1, 1}, noise: 0.3, seed: 6}, 4},
		{"Averaged/separable", true, problem{shards: 1, rows: 40, d: 5, classes: []float64{1, 2, 3}, margin: 0.5, integer: true, seed: 7}, 30},
		{"Averaged/noisy", true, problem{shards: 1, rows: 40, d: 5, classes: []float64{1, 2, 3}, noise: 0.3, integer: true, seed: 8}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sets := tc.p.make()
			dir := t.TempDir()
			paths := write(t, dir, sets, nil)
			var fit interface {
				perceptron.Scorer
				Weights() (w, b []float64)
				Stats() perceptron.Stats
			}
			if tc.averaged {
				fit = &perceptron.Averaged{Epochs: tc.epochs, Labels: labels(sets)}
			} else {
				fit = &perceptron.Perceptron{Epochs: tc.epochs, Labels: labels(sets)}
			}
			if err := fit.Fit(sets[0].X, sets[0].y); err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), Config{Shards: paths, Averaged: tc.averaged, Epochs: tc.epochs, Output: filepath.Join(dir, "model.json"), Runner: runner()})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Model.(interface {
				Weights() (w, b []float64)
				Stats() perceptron.Stats
			})
			w, b := got.Weights()
			fw, fb := fit.Weights()
			if !sameBits(w, fw) || !sameBits(b, fb) {
				t.Errorf("weights %v and biases %v, Fit's %v and %v", w, b, fw, fb)
			}
			if !slices.Equal(res.Model.Classes(), fit.Classes()) {
				t.Errorf("classes %v, Fit's %v", res.Model.Classes(), fit.Classes())
			}
			s, fs := got.Stats(), fit.Stats()
			if s.Epochs != fs.Epochs || s.Converged != fs.Converged || s.Mistakes != fs.Mistakes || !slices.Equal(s.EpochMistakes, fs.EpochMistakes) {
				t.Errorf("stats %+v, Fit's %+v", s, fs)
			}
			if s.Converged != strings.HasSuffix(tc.name, "separable") {
				t.Errorf("converged %t: the data do not test what they should", s.Converged)
			}
			if !tc.averaged {
				// Beyond the weights, the saved models are the same but for
				// Fit's training loss, which a mix does not measure.
				if g, f := member(t, res.Saved, "model"), member(t, jsonOf(t, fit), "model"); !bytes.Equal(g, f) {
					t.Errorf("saved model %s, Fit's %s", g, f)
				}
				if g, f := member(t, res.Saved, "settings"), member(t, jsonOf(t, fit), "settings"); !bytes.Equal(g, f) {
					t.Errorf("saved settings %s, Fit's %s", g, f)
				}
			}
		})
	}
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// member returns the member name of the saved model b.
func member(t *testing.T, b []byte, name string) []byte {
	t.Helper()
	var env map[string]json.RawMessage
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatal(err)
	}
	return env[name]
}

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
			return paths[1] + "): no such file"
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
				c := Config{Shards: paths, Averaged: true, Epochs: 3, Output: filepath.Join(dir, "model.json"), Runner: runner()}
				if !scan {
					c.Cols, c.Classes = 4, []string{"-1", "1"}
				}
				res, err := Run(context.Background(), c)
				if err == nil {
					t.Fatalf("no error, and a model %s", res.Saved)
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

func TestUnionClasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		names [][]string
		want  []string
	}{
		{[][]string{{"1", "2"}, {"10", "2.0"}, {"-1"}}, []string{"-1", "1", "2", "10"}},
		{[][]string{{"b", "a"}, {"c", "a"}}, []string{"a", "b", "c"}},
		{[][]string{{"2"}, {"10", "a"}}, []string{"10", "2", "a"}},
		{[][]string{{"+1", "-1"}, {"1"}}, []string{"-1", "+1"}},
	} {
		if got := unionClasses(tc.names); !slices.Equal(got, tc.want) {
			t.Errorf("unionClasses(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

func TestLabelValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		classes []string
		want    []float64
		err     string
	}{
		{classes: []string{"-1", "+1"}, want: []float64{-1, 1}},
		{classes: []string{"3", "1.5", "2e3"}, want: []float64{3, 1.5, 2000}},
		{classes: []string{"cat", "1", "dog"}, want: []float64{0, 1, 2}},
		{classes: []string{"1", "inf"}, want: []float64{0, 1}},
		{classes: []string{}, err: "no classes"},
		{classes: []string{"a", ""}, err: "a class is empty"},
		{classes: []string{"a", "b", "a"}, err: `the class "a" is named twice`},
		{classes: []string{"1", "1.0"}, err: `the classes "1" and "1.0" are the same number`},
	} {
		got, err := labelValues(tc.classes)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("labelValues(%q): error %v, want %q", tc.classes, err, tc.err)
		case tc.err == "" && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("labelValues(%q) = %v, %v, want %v", tc.classes, got, err, tc.want)
		}
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"b-10.svm", "b-02.svm", "a.svm", "b-01.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Glob(context.Background(), filepath.Join(dir, "*.svm"))
	want := []string{filepath.Join(dir, "a.svm"), filepath.Join(dir, "b-02.svm"), filepath.Join(dir, "b-10.svm")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Glob = %q, %v, want %q", got, err, want)
	}
	pattern := filepath.Join(dir, "*.csv")
	if _, err := Glob(context.Background(), pattern); err == nil || !strings.Contains(err.Error(), "no file matches "+pattern) {
		t.Errorf("Glob of no file: error %v", err)
	}
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

// TestRunners checks that Beam's legacy direct runner, which runs the
// steps in another order, writes the bytes that prism writes.
func TestRunners(t *testing.T) {
	t.Parallel()
	sets := problem{shards: 5, rows: 15, d: 4, classes: []float64{1, 2, 3, 4}, noise: 0.1, seed: 11}.make()
	dir := t.TempDir()
	paths := write(t, dir, sets, nil)
	var saved [][]byte
	for _, r := range []string{"prism", "direct"} {
		out := filepath.Join(dir, r+".json")
		if _, err := Run(context.Background(), Config{Shards: paths, Averaged: true, ByMistakes: true, Epochs: 4, Output: out, Runner: r, block: 3}); err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		saved = append(saved, b)
	}
	if !bytes.Equal(saved[0], saved[1]) {
		t.Errorf("prism wrote\n%s\nand direct\n%s", saved[0], saved[1])
	}
}

// TestReadOnce checks that a run reads each shard once, on prism and on
// the direct runner, which run the pipelines in this process: with the
// scan of the shards, whose rows the training takes, and without; and
// that the rows the scan read train the model of FitShards, of labels
// that are numbers and labels that are names. A shard of numbers among
// shards of names is read again, as the scan made one class of 1 and
// 1.0. It counts the reads of all the package, and so does not run in
// parallel.
func TestReadOnce(t *testing.T) {
	for _, tc := range []struct {
		name      string
		names     []string // of the classes 0, 1 and 2, or nil for numbers
		scan      bool
		wantReads int // of the 3 shards
	}{
		{"numbers", nil, true, 3},
		{"numbers/no scan", nil, false, 3},
		{"names", []string{"eel", "cat", "dog"}, true, 3},
		{"numbers among names", []string{"1", "2", "cat"}, true, 4},
	} {
		sets := problem{shards: 3, rows: 15, d: 9, classes: []float64{0, 1, 2}, noise: 0.2, seed: 18}.make()
		// Shard 0 has no row of class 2, and the first shard's last
		// column is empty, so that the scan's width of it is less.
		for i, c := range sets[0].y {
			if c == 2 {
				sets[0].y[i] = 0
			}
		}
		sets[0] = shardSet{dropColumns(t, sets[0].X, 8), sets[0].y}
		var names map[float64]string
		var classes []float64 // the model's, by the order of the classes
		if tc.names != nil {
			names = map[float64]string{}
			for k, n := range tc.names {
				names[float64(k)] = n
			}
			sorted := slices.Sorted(slices.Values(tc.names))
			for k := range tc.names {
				classes = append(classes, float64(slices.Index(sorted, tc.names[k])))
			}
		}
		dir := t.TempDir()
		paths := write(t, dir, sets, names)
		want := func() []byte {
			if classes == nil {
				b, _ := fitShards(t, sets, true, true, 3, labels(sets))
				return b
			}
			relabeled := make([]shardSet, len(sets))
			for k, s := range sets {
				y := make([]float64, len(s.y))
				for i, c := range s.y {
					y[i] = classes[int(c)]
				}
				relabeled[k] = shardSet{s.X, y}
			}
			b, _ := fitShards(t, relabeled, true, true, 3, []float64{0, 1, 2})
			return b
		}()
		for _, r := range []string{"prism", "direct"} {
			c := Config{Shards: paths, Averaged: true, ByMistakes: true, Epochs: 3, Output: filepath.Join(dir, r+".json"), Runner: r, block: 4}
			if !tc.scan {
				c.Cols, c.Classes = 9, []string{"0", "1", "2"}
			}
			before := shardReads.Load()
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatalf("%s on %s: %v", tc.name, r, err)
			}
			if reads := shardReads.Load() - before; reads != int64(tc.wantReads) {
				t.Errorf("%s on %s: %d reads of the 3 shards, want %d", tc.name, r, reads, tc.wantReads)
			}
			if !bytes.Equal(res.Saved, want) {
				t.Errorf("%s on %s: the model is not FitShards':\n got %s\nwant %s", tc.name, r, res.Saved, want)
			}
		}
	}
}

// dropColumns returns the rows of X without their values in the columns
// from d on.
func dropColumns(t *testing.T, X *perceptron.CSR, d int) *perceptron.CSR {
	t.Helper()
	r, c := X.Dims()
	ptr := []int{0}
	var ind []int
	var val []float64
	for i := range r {
		X.DoRowNonZero(i, func(_, j int, v float64) {
			if j < d {
				ind, val = append(ind, j), append(val, v)
			}
		})
		ptr = append(ptr, len(ind))
	}
	n, err := perceptron.NewCSR(r, c, ptr, ind, val)
	if err != nil {
		t.Fatal(err)
	}
	return n
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
				res, err := Run(ctx, Config{Shards: paths, Averaged: true, Epochs: 1000, Output: filepath.Join(dir, "model.json"), Runner: r, block: 2})
				if err == nil {
					t.Fatalf("no error, and a model %s", res.Saved)
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
