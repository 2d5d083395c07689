// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// weightsFile writes the weights w, one a line, with a blank line among
// them, to the file name in dir.
func weightsFile(t *testing.T, dir, name string, w []float64) string {
	var b bytes.Buffer
	for i, v := range w {
		if i == 2 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%v\n", v)
	}
	return writeFile(t, dir, name, b.Bytes())
}

// TestRowWeightsTrain checks that train -weights weighs the rows as the
// library's FitContext does with the same weights, for the rows the
// flags keep: the model it saves makes the mistakes and the predictions
// of the library's, on rows standardised apart from package data, with
// the command's defaults; and that train -model -weights learns as the
// Model's LearnContext does.
func TestRowWeightsTrain(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(13, 14))
	X, labels := skewed(rnd, 300)
	// A third label, which -pos and -neg leave out with its weights.
	for i := range labels {
		if i%7 == 3 {
			labels[i] = "c"
		}
	}
	w := make([]float64, 300)
	for i := range w {
		w[i] = []float64{0, 0.5, 1, 2, 3}[rnd.IntN(5)]
	}
	file := writeFile(t, dir, "skew.csv", csvNamed(X, labels, 2, false))
	wfile := weightsFile(t, dir, "skew.w", w)
	var keep []int
	for i, l := range labels {
		if l != "c" {
			keep = append(keep, i)
		}
	}
	kx := mat.NewDense(len(keep), 2, nil)
	ky, kw := make([]float64, len(keep)), make([]float64, len(keep))
	zeros := 0
	for k, i := range keep {
		kx.SetRow(k, X.RawRowView(i))
		kw[k] = w[i]
		if labels[i] == "b" {
			ky[k] = 1
		}
		if w[i] == 0 {
			zeros++
		}
	}
	Z := standardise(kx)[0]
	model := filepath.Join(dir, "m.json")
	for _, name := range []string{"averaged", "ovr:perceptron", "pocket", "kernel"} {
		args := []string{"train", "-classifier", name, "-pos", "b", "-neg", "a", "-weights", wfile, "-o", model, file}
		code, out, errs := runCmd(args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		if line := fmt.Sprintf("\nrow weights (-weights %s): mean %.4g, %d rows of weight 0\n", wfile, sum(kw)/float64(len(kw)), zeros); !strings.Contains(out, line) {
			t.Errorf("%q: no line %q in\n%s", args, line, out)
		}
		m, err := data.LoadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		stop := &perceptron.Stop{Tol: 1e-3, NoChange: 5}
		rnd := func() *rand.Rand { return rand.New(rand.NewPCG(1, 1)) }
		var lib perceptron.Scorer
		switch name {
		case "averaged":
			lib = &perceptron.Averaged{Stop: stop, Rand: rnd()}
		case "pocket":
			lib = &perceptron.Pocket{Stop: stop, Rand: rnd()}
		case "kernel":
			k := m.Classifier.(*perceptron.Kernel)
			lib = &perceptron.Kernel{Func: k.Func, Prediction: k.Prediction, Stop: stop, Rand: rnd()}
		default:
			lib = &perceptron.OneVsRest{New: func() perceptron.Scorer { return &perceptron.Perceptron{Stop: stop, Rand: rnd()} }}
		}
		if err := perceptron.FitContext(context.Background(), lib, Z, ky, kw...); err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(kx)
		if err != nil {
			t.Fatal(err)
		}
		ls, ms := statsOf(lib), statsOf(m.Classifier)
		if !reflect.DeepEqual(lib.PredictRows(nil, Z), pred) || ls.Mistakes != ms.Mistakes || ls.Epochs != ms.Epochs {
			t.Errorf("%q: the model made %d mistakes in %d epochs, the library's with the weights %d in %d, or predicts otherwise", args, ms.Mistakes, ms.Epochs, ls.Mistakes, ls.Epochs)
		}
	}

	// train -model -weights learns as the Model's LearnContext.
	if code, _, errs := runCmd("train", "-resumable", "-classifier", "averaged", "-pos", "b", "-neg", "a", "-o", model, file); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m, err := data.LoadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	more := filepath.Join(dir, "more.json")
	klabels := make([]string, len(keep))
	for k, i := range keep {
		klabels[k] = labels[i]
	}
	kfile := writeFile(t, dir, "kept.csv", csvNamed(kx, klabels, 2, false))
	kwfile := weightsFile(t, dir, "kept.w", kw)
	code, out, errs := runCmd("train", "-model", model, "-weights", kwfile, "-o", more, kfile)
	if code != 0 || !strings.Contains(out, "row weights (-weights ") {
		t.Fatalf("train -model -weights: exit %d:\n%s%s", code, out, errs)
	}
	got, err := data.LoadModel(more)
	if err != nil {
		t.Fatal(err)
	}
	set := &data.Set{X: kx, Y: ky, Classes: m.Classes, Weights: kw}
	if err := m.LearnContext(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Classifier.ScoreRows(nil, Z), m.Classifier.ScoreRows(nil, Z)) {
		t.Errorf("train -model -weights learns otherwise than the Model's LearnContext")
	}
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// TestRowWeightsEval checks that eval weighs the training rows alone, of
// a test file, of a split and of folds, and that weights of 1 train as
// none do.
func TestRowWeightsEval(t *testing.T) {
	dir := t.TempDir()
	X, labels := skewed(rand.New(rand.NewPCG(15, 16)), 200)
	file := writeFile(t, dir, "train.csv", csvNamed(X, labels, 2, false))
	test := writeFile(t, dir, "test.csv", csvNamed(X.Slice(0, 50, 0, 2).(*mat.Dense), labels[:50], 2, false))
	ones := make([]float64, 200)
	for i := range ones {
		ones[i] = 1
	}
	wfile := weightsFile(t, dir, "ones.w", ones)
	for _, files := range [][]string{{file, test}, {file}, {"-folds", "3", file}} {
		args := append([]string{"eval", "-classifier", "averaged", "-weights", wfile}, files...)
		code, out, errs := runCmd(args...)
		if code != 0 || !strings.Contains(out, "row weights (-weights ") {
			t.Fatalf("%q: exit %d:\n%s%s", args, code, out, errs)
		}
		plain := append([]string{"eval", "-classifier", "averaged"}, files...)
		_, want, _ := runCmd(plain...)
		strip := func(s string) string {
			// Without the weights' line and the times.
			s = regexp.MustCompile(`(?m)^row weights.*\n`).ReplaceAllString(s, "")
			return regexp.MustCompile(` +[0-9.]+(ns|µs|ms|s)\b`).ReplaceAllString(s, " T")
		}
		if strip(out) != strip(want) {
			t.Errorf("%q: weights of 1 give\n%s\nwant\n%s", args, out, want)
		}
	}
}

// TestRowWeightsErrors checks the errors of -weights: a file of the
// wrong count, a line that is no weight, a missing file, and the commands
// that take no weights.
func TestRowWeightsErrors(t *testing.T) {
	dir := t.TempDir()
	X, labels := skewed(rand.New(rand.NewPCG(17, 18)), 20)
	file := writeFile(t, dir, "d.csv", csvNamed(X, labels, 2, false))
	model := filepath.Join(dir, "m.json")
	for _, c := range []struct {
		content, want string
	}{
		{"1\n2\n3\n", "w.txt: 3 weights for the 20 rows of " + file + ", want one a row"},
		{strings.Repeat("1\n", 21), "w.txt: more weights than the 20 rows of " + file + ", want one a row"},
		{"1\nx\n", `w.txt: line 2: "x" is not a number, want the weight of a row`},
		{"1\n\n-1\n", `w.txt: line 3: "-1", want a finite weight >= 0`},
		{"NaN\n", `w.txt: line 1: "NaN", want a finite weight >= 0`},
		{"1e999\n", `w.txt: line 1: "1e999", want a finite weight >= 0`},
	} {
		wfile := writeFile(t, dir, "w.txt", []byte(c.content))
		for _, args := range [][]string{
			{"train", "-weights", wfile, "-o", model, file},
			{"eval", "-weights", wfile, file},
		} {
			code, out, errs := runCmd(args...)
			if code != 1 || out != "" || !strings.HasSuffix(strings.TrimSpace(errs), c.want) {
				t.Errorf("%q with %q: exit %d, stdout %q, stderr %q; want exit 1 and %q", args, c.content, code, out, errs, c.want)
			}
		}
	}
	if _, err := os.Stat(model); err == nil {
		t.Errorf("a failed train wrote the model")
	}
	missing := filepath.Join(dir, "missing.w")
	if code, _, errs := runCmd("train", "-weights", missing, "-o", model, file); code != 1 || !strings.Contains(errs, "missing.w") {
		t.Errorf("-weights of a missing file: exit %d, stderr %q", code, errs)
	}
	// The output is no input.
	w := writeFile(t, dir, "w2.txt", []byte(strings.Repeat("1\n", 20)))
	if code, _, errs := runCmd("train", "-weights", w, "-o", w, file); code != 2 || !strings.Contains(errs, "w2.txt") {
		t.Errorf("-o the weights file: exit %d, stderr %q", code, errs)
	}
	for _, args := range [][]string{
		{"predict", "-weights", w, "-model", model, file},
		{"eval", "-model", model, "-weights", w, file},
		{"demo", "-weights", w},
	} {
		if code, _, errs := runCmd(args...); code != 2 || !strings.Contains(errs, "weights") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2", args, code, errs)
		}
	}
}

// TestLearnOneVsRest checks that train -model goes on training an ovr:
// model, as the Model's Learn does, and refuses an ovr:pocket one.
func TestLearnOneVsRest(t *testing.T) {
	dir := t.TempDir()
	X, cls := classData(rand.New(rand.NewPCG(19, 20)), 120, 3, 3)
	labels := make([]string, len(cls))
	for i, c := range cls {
		labels[i] = []string{"x", "y", "z"}[c]
	}
	first := writeFile(t, dir, "a.csv", csvNamed(X.Slice(0, 60, 0, 3).(*mat.Dense), labels[:60], 3, false))
	more := writeFile(t, dir, "b.csv", csvNamed(X.Slice(60, 120, 0, 3).(*mat.Dense), labels[60:], 3, false))
	for _, name := range []string{"ovr:averaged", "ovr:pocket"} {
		model := filepath.Join(dir, "m.json")
		if code, _, errs := runCmd("train", "-resumable", "-classifier", name, "-o", model, first); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errs)
		}
		before, err := data.LoadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		code, _, errs := runCmd("train", "-model", model, "-o", model, more)
		if name == "ovr:pocket" {
			if code != 1 || !strings.Contains(errs, "an ovr:pocket model learns only from the start") {
				t.Errorf("train -model of an ovr:pocket model: exit %d: %s", code, errs)
			}
			continue
		}
		if code != 0 {
			t.Fatalf("train -model of an %s model: exit %d: %s", name, code, errs)
		}
		after, err := data.LoadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		y := make([]float64, 60)
		for i, l := range labels[60:] {
			y[i] = float64(slices.Index(before.Classes, l))
		}
		if err := before.Learn(&data.Set{X: X.Slice(60, 120, 0, 3), Y: y, Classes: before.Classes}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(after.Classifier.ScoreRows(nil, X), before.Classifier.ScoreRows(nil, X)) {
			t.Errorf("train -model of an %s model learns otherwise than the Model's Learn", name)
		}
	}
}

// FuzzReadWeights checks that readWeights never panics, and returns a
// finite weight >= 0 for each of the n rows, or an error.
func FuzzReadWeights(f *testing.F) {
	f.Add([]byte("1\n2\n\n0.5\n"), uint8(3))
	f.Add([]byte("1e999\n"), uint8(1))
	f.Add([]byte("-0\r\n nan \n"), uint8(2))
	f.Add([]byte("0x1p-3\n+Inf\n"), uint8(2))
	path := filepath.Join(f.TempDir(), "w")
	f.Fuzz(func(t *testing.T, content []byte, n uint8) {
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := readWeights(path, int(n), "data")
		if err != nil {
			return
		}
		if len(w) != int(n) {
			t.Fatalf("%d weights for %d rows", len(w), n)
		}
		for i, v := range w {
			if !(v >= 0) || math.IsInf(v, 0) {
				t.Fatalf("weight %d is %v", i, v)
			}
		}
	})
}
