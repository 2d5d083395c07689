// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"bytes"
	"compress/gzip"
	"context"
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

	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// The tests run the pipelines on Beam's prism runner, in this process,
// as ptest does by default; go test's -runner flag (go test -args
// -runner=direct) picks another.
// Beam's logs at level info, which are many, are left out. The temporary
// folder is the tests' own, removed as they end.
func TestMain(m *testing.M) {
	log.LogLevel = "warn"
	tmp, err := os.MkdirTemp("", "ipm.test-")
	if err == nil {
		err = os.Setenv("TMPDIR", tmp)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := ptest.MainRetWithDefault(m, "prism")
	os.RemoveAll(tmp)
	os.Exit(code)
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

// plain returns the text of the file path, gunzipped if it is gzipped.
func plain(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if b, err = io.ReadAll(zr); err != nil {
		t.Fatal(err)
	}
	return b
}

// reference returns the model file that a run of c should write for the
// shards' files, computed without the pipelines: the files read as one
// file of them all is read by the readers of package data, as the command
// perceptron reads a training file, for the classes and the width; the
// steps fitted to those rows, data.NewIDF of them; each shard's rows read
// with those classes and that width, through the steps; trained by
// perceptron.FitShards, or, with shuffled rows or the stopping rule, by
// LearnShard and Mix a round at a time, as FitShards trains; written by
// data.Model's WriteTo. It returns the model too.
func reference(t *testing.T, paths []string, c Config) ([]byte, *data.Model) {
	t.Helper()
	text := c.Format == formatText
	h := defaultHashing
	if c.Hashing != nil {
		h = *c.Hashing
	}
	read := func(b []byte, cols int, classes []string) *data.Set {
		var set *data.Set
		var err error
		if text {
			set, err = data.Text{Hashing: h, Tab: tabbed(firstLine(b)), Classes: classes}.Read(bytes.NewReader(b))
		} else {
			set, err = data.LIBSVM{Cols: cols, Classes: classes}.Read(bytes.NewReader(b))
		}
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	var all []byte
	for _, p := range paths {
		all = append(all, plain(t, p)...)
	}
	union := read(all, c.Cols, c.Classes)
	_, cols := union.X.Dims()
	classes := union.Classes
	steps := &data.Model{Normalize: !c.NoNormalize}
	if !c.NoIDF {
		var err error
		if steps.Scaler, err = data.NewIDF(union.X); err != nil {
			t.Fatal(err)
		}
	}
	X := make([]mat.Matrix, len(paths))
	y := make([][]float64, len(paths))
	rows := 0
	for k, p := range paths {
		set := read(plain(t, p), cols, classes)
		var err error
		if X[k], err = steps.Transform(set.X); err != nil {
			t.Fatal(err)
		}
		y[k], rows = set.Y, rows+len(set.Y)
	}
	labels := make([]float64, len(classes))
	for k := range labels {
		labels[k] = float64(k)
	}
	var m interface {
		perceptron.Scorer
		Stats() perceptron.Stats
	}
	if c.Perceptron {
		m = &perceptron.Perceptron{Epochs: c.Epochs, Rate: c.Rate, NoBias: c.NoBias, Labels: labels}
	} else {
		m = &perceptron.Averaged{Epochs: c.Epochs, Rate: c.Rate, NoBias: c.NoBias, Labels: labels}
	}
	if c.InOrder && c.NoStop {
		if err := perceptron.FitShards(m, X, y, c.ByMistakes); err != nil {
			t.Fatal(err)
		}
	} else {
		tol, noChange := c.Tol, c.NoChange
		if tol == 0 {
			tol = 1e-3
		}
		if noChange == 0 {
			noChange = 5
		}
		best, still := math.Inf(1), 0
		limit := c.Epochs
		if limit == 0 {
			limit = 1000
		}
		for e := 1; e <= limit; e++ {
			parts := make([]perceptron.Classifier, len(X))
			for k := range X {
				Xk, yk := X[k], y[k]
				if !c.InOrder {
					rows := order(len(yk), c.Seed, k, e)
					set, err := (&data.Set{X: Xk, Y: yk, Classes: classes}).Subset(rows)
					if err != nil {
						t.Fatal(err)
					}
					Xk, yk = set.X, set.Y
				}
				var err error
				if parts[k], err = perceptron.LearnShard(m, Xk, yk); err != nil {
					t.Fatal(err)
				}
			}
			if err := perceptron.Mix(m, parts, c.ByMistakes); err != nil {
				t.Fatal(err)
			}
			st := m.Stats()
			if st.Converged {
				break
			}
			mistakes := float64(st.EpochMistakes[e-1])
			if mistakes <= best-tol*float64(rows) {
				still = 0
			} else {
				still++
			}
			best = min(best, mistakes)
			if !c.NoStop && still >= noChange {
				break
			}
		}
	}
	model := &data.Model{Classifier: m, Classes: classes, Scaler: steps.Scaler, Normalize: steps.Normalize}
	if text {
		model.Hashing = &h
	}
	var b bytes.Buffer
	if _, err := model.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), model
}

// check runs c and checks that it writes the model of reference, to the
// bit, that OnEpoch sees the mistakes of the model's epochs, and returns
// the model's Stats.
func check(t *testing.T, c Config) perceptron.Stats {
	t.Helper()
	want, m := reference(t, c.Shards, c)
	var mistakes []int
	c.OnEpoch = func(e, m int, _ time.Duration) {
		if e != len(mistakes)+1 {
			t.Errorf("OnEpoch of epoch %d after %d", e, len(mistakes))
		}
		mistakes = append(mistakes, m)
	}
	c.Output = filepath.Join(t.TempDir(), "model.bin")
	if c.Runner == "" {
		c.Runner = runner()
	}
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(c.Output)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the model of the pipelines is not the reference's:\n got %.2000s\nwant %.2000s", got, want)
	}
	var b bytes.Buffer
	if _, err := res.Model.WriteTo(&b); err != nil || !bytes.Equal(b.Bytes(), got) {
		t.Errorf("Result.Model is not the model written (%v)", err)
	}
	st := m.Classifier.(interface{ Stats() perceptron.Stats }).Stats()
	if !slices.Equal(mistakes, st.EpochMistakes) {
		t.Errorf("OnEpoch saw the mistakes %v, the reference made %v", mistakes, st.EpochMistakes)
	}
	return st
}

// TestFitShards checks that the pipelines train the model of
// perceptron.FitShards on the same shards with the same steps, to the
// bit, and write it as data.Model writes it; and with the rows of each
// shard shuffled, and stopped by the rule of mistakes, that of LearnShard
// and Mix round by round.
func TestFitShards(t *testing.T) {
	t.Parallel()
	multi := []float64{1, 2, 3}
	for _, tc := range []struct {
		name     string
		p        problem
		epochs   int
		converge bool     // that FitShards stops before the limit, on the rows as read
		names    []string // of the classes, for labels that are not numbers
	}{
		{name: "separable", p: problem{shards: 4, rows: 25, d: 6, classes: multi, margin: 0.5, seed: 1}, epochs: 40, converge: true},
		{name: "noisy", p: problem{shards: 3, rows: 30, d: 5, classes: multi, noise: 0.3, seed: 2}, epochs: 3},
		{name: "binary", p: problem{shards: 3, rows: 20, d: 4, classes: []float64{-1, 1}, noise: 0.2, seed: 3}, epochs: 2},
		{name: "names", p: problem{shards: 2, rows: 20, d: 4, classes: []float64{0, 1, 2}, noise: 0.2, seed: 4}, epochs: 2, names: []string{"cat", "dog", "eel"}},
	} {
		sets := tc.p.make()
		var names map[float64]string
		if tc.names != nil {
			names = map[float64]string{}
			for k, c := range tc.p.classes {
				names[c] = tc.names[k]
			}
		}
		paths := write(t, t.TempDir(), sets, names)
		for _, plainPerceptron := range []bool{false, true} {
			for _, byMistakes := range []bool{false, true} {
				for _, steps := range []bool{false, true} {
					name := fmt.Sprintf("%s/perceptron=%t/byMistakes=%t/steps=%t", tc.name, plainPerceptron, byMistakes, steps)
					t.Run(name, func(t *testing.T) {
						t.Parallel()
						// Blocks of 2 features, so that the blocks of
						// the model are several.
						c := Config{Shards: paths, Perceptron: plainPerceptron, Epochs: tc.epochs, ByMistakes: byMistakes, InOrder: true, NoStop: true, NoIDF: !steps, NoNormalize: !steps, block: 2}
						st := check(t, c)
						if converged := st.Converged && st.Epochs < tc.epochs; !steps && converged != tc.converge {
							t.Fatalf("FitShards stopped after %d of %d epochs, converged %t: the data do not test what they should", st.Epochs, tc.epochs, st.Converged)
						}
					})
				}
			}
		}
	}
	sets := problem{shards: 3, rows: 40, d: 7, classes: multi, noise: 0.3, seed: 21}.make()
	paths := write(t, t.TempDir(), sets, nil)
	for _, tc := range []struct {
		name string
		c    Config
	}{
		{"shuffled", Config{Epochs: 4, NoStop: true, Seed: 7}},
		{"shuffled/perceptron/mistakes", Config{Epochs: 4, NoStop: true, Perceptron: true, ByMistakes: true}},
		{"stopped", Config{Epochs: 60, NoChange: 2, Tol: 0.05}},
		{"stopped/in order", Config{Epochs: 60, InOrder: true, NoChange: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := tc.c
			c.Shards, c.block = paths, 3
			st := check(t, c)
			if !c.NoStop && st.Epochs >= c.Epochs {
				t.Errorf("the rule did not stop the run before epoch %d: the data do not test what they should", c.Epochs)
			}
		})
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
			// The classes are the indices of the labels, ascending.
			y := make([]float64, len(sets[0].y))
			for i, v := range sets[0].y {
				y[i] = float64(slices.Index(tc.p.classes, v))
			}
			labels := []float64{0, 1, 2}[:len(tc.p.classes)]
			var fit interface {
				perceptron.Scorer
				Weights() (w, b []float64)
				Stats() perceptron.Stats
			}
			if tc.averaged {
				fit = &perceptron.Averaged{Epochs: tc.epochs, Labels: labels}
			} else {
				fit = &perceptron.Perceptron{Epochs: tc.epochs, Labels: labels}
			}
			if err := fit.Fit(sets[0].X, y); err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), Config{Shards: paths, Perceptron: !tc.averaged, Epochs: tc.epochs, InOrder: true, NoStop: true, NoIDF: true, NoNormalize: true,
				Output: filepath.Join(dir, "model.json"), Runner: runner()})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Model.Classifier.(interface {
				Weights() (w, b []float64)
				Stats() perceptron.Stats
			})
			w, b := got.Weights()
			fw, fb := fit.Weights()
			if !sameBits(w, fw) || !sameBits(b, fb) {
				t.Errorf("weights %v and biases %v, Fit's %v and %v", w, b, fw, fb)
			}
			if !slices.Equal(res.Model.Classifier.Classes(), fit.Classes()) {
				t.Errorf("classes %v, Fit's %v", res.Model.Classifier.Classes(), fit.Classes())
			}
			s, fs := got.Stats(), fit.Stats()
			if s.Epochs != fs.Epochs || s.Converged != fs.Converged || s.Mistakes != fs.Mistakes || !slices.Equal(s.EpochMistakes, fs.EpochMistakes) {
				t.Errorf("stats %+v, Fit's %+v", s, fs)
			}
			if s.Converged != strings.HasSuffix(tc.name, "separable") {
				t.Errorf("converged %t: the data do not test what they should", s.Converged)
			}
		})
	}
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
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
		if _, err := Run(context.Background(), Config{Shards: paths, ByMistakes: true, Epochs: 4, Output: out, Runner: r, block: 3}); err != nil {
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

// TestOutputForm checks that a run writes the form of the model that
// data.Model's Save writes by the name of the file: the JSON form and a
// newline for .json and .json.gz, the binary form otherwise, gzipped for
// .gz; and that data.LoadModel reads each.
func TestOutputForm(t *testing.T) {
	t.Parallel()
	sets := problem{shards: 2, rows: 15, d: 4, classes: []float64{1, 2, 3}, noise: 0.1, seed: 12}.make()
	dir := t.TempDir()
	paths := write(t, dir, sets, nil)
	for _, name := range []string{"model.json", "model.JSON.gz", "model.gz", "model"} {
		out := filepath.Join(dir, name)
		res, err := Run(context.Background(), Config{Shards: paths, Epochs: 2, Output: out, Runner: runner()})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var want []byte
		if strings.Contains(strings.ToLower(name), ".json") {
			if want, err = res.Model.MarshalJSON(); err != nil {
				t.Fatal(err)
			}
			want = append(want, '\n')
		} else {
			var b bytes.Buffer
			if _, err := res.Model.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			want = b.Bytes()
		}
		raw, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if gz := len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b; gz != strings.HasSuffix(name, ".gz") {
			t.Errorf("%s: gzipped %t", name, gz)
		}
		if got := plain(t, out); !bytes.Equal(got, want) {
			t.Errorf("%s: the file is not the form that Save writes:\n got %.300s\nwant %.300s", name, got, want)
		}
		if _, err := data.LoadModel(out); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestReadOnce checks that a run reads each shard once, on prism and on
// the direct runner, which run the pipelines in this process: with the
// scan of the shards, whose rows the training takes, and without; and
// that the rows the scan read train the model of the reference, of labels
// that are numbers and labels that are names. A shard of numbers among
// shards of names is read again, as the scan made one class of 1 and 1.0.
// It counts the reads of all the package, and so does not run in
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
		if tc.names != nil {
			names = map[float64]string{}
			for k, n := range tc.names {
				names[float64(k)] = n
			}
		}
		dir := t.TempDir()
		paths := write(t, dir, sets, names)
		c := Config{Shards: paths, ByMistakes: true, Epochs: 3, block: 4}
		if !tc.scan {
			c.NoIDF, c.NoStop, c.Cols, c.Classes = true, true, 9, []string{"0", "1", "2"}
		}
		want, _ := reference(t, paths, c)
		for _, r := range []string{"prism", "direct"} {
			c.Output, c.Runner = filepath.Join(dir, r+".bin"), r
			before := shardReads.Load()
			if _, err := Run(context.Background(), c); err != nil {
				t.Fatalf("%s on %s: %v", tc.name, r, err)
			}
			if reads := shardReads.Load() - before; reads != int64(tc.wantReads) {
				t.Errorf("%s on %s: %d reads of the 3 shards, want %d", tc.name, r, reads, tc.wantReads)
			}
			if got, err := os.ReadFile(c.Output); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s on %s: the model is not the reference's (%v):\n got %.1000s\nwant %.1000s", tc.name, r, err, got, want)
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
