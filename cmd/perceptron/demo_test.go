// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// The demo trains every classifier, the kernel with the Gaussian kernel
// and the averaged prediction, and stays quiet on stderr, which is not a
// terminal here.
func TestDemo(t *testing.T) {
	code, out, errs := runCmd()
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "569 rows of 30 features") || !strings.Contains(out, "427 training rows, 142 test rows") {
		t.Errorf("demo does not describe its data:\n%s", out)
	}
	if !strings.Contains(out, "Stopping at most 1000 epochs, or after 5 epochs") {
		t.Errorf("demo does not state its stopping rule:\n%s", out)
	}
	rows := parseTable(t, out)
	var names []string
	for _, r := range rows {
		names = append(names, r.name)
	}
	if want := []string{"perceptron", "pocket", "averaged", "voted", "kernel"}; !slices.Equal(names, want) {
		t.Fatalf("the demo lists %q, want %q:\n%s", names, want, out)
	}
	for _, r := range rows {
		wantKernel, wantRule := "linear", map[string]string{"perceptron": "last", "pocket": "pocket", "averaged": "averaged", "voted": "voted"}[r.name]
		if r.name == "kernel" {
			wantKernel, wantRule = "rbf γ=1/d", "averaged"
		}
		if r.kernel != wantKernel || r.rule != wantRule || !slices.Contains([]string{"converged", "stopped", "limit"}, r.ended) {
			t.Errorf("row %+v", r)
		}
		// Both classes are common: a classifier that learned nothing
		// would be right on at most 63% of the rows.
		if acc, err := strconv.ParseFloat(strings.TrimSuffix(r.test, "%"), 64); err != nil || acc < 90 {
			t.Errorf("%s: test accuracy %s", r.name, r.test)
		}
	}
}

// The demo prints what the repository's README.md shows of it, but the
// fit times: the lines before the table, the table's header, and each
// row's cells.
func TestDemoInREADME(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("the command is not in the repository's checkout")
	}
	if err != nil {
		t.Fatal(err)
	}
	const first = "Wisconsin breast cancer data (embedded)"
	_, block, found := strings.Cut(string(readme), "```\n"+first)
	block, _, closed := strings.Cut(block, "```")
	if !found || !closed {
		t.Fatalf("README.md shows no output of the demo that begins with %q", first)
	}
	shown := first + block
	code, out, errs := runCmd()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	before := func(s string) string {
		i := strings.Index(s, "classifier ")
		if i < 0 {
			t.Fatalf("no table in\n%s", s)
		}
		header, _, _ := strings.Cut(s[i:], "\n")
		return s[:i] + header
	}
	if got, want := before(out), before(shown); got != want {
		t.Errorf("the demo begins\n%s\nREADME.md shows\n%s", got, want)
	}
	if got, want := parseTable(t, out), parseTable(t, shown); !slices.Equal(got, want) || strings.Count(out, "\n") != strings.Count(shown, "\n") {
		t.Errorf("the demo prints\n%s\nREADME.md shows\n%s", out, shown)
	}
}

// The demo makes malignant +1, where eval, which numbers the classes in
// the order of their labels, makes label 0, malignant, -1: eval with -pos
// 0 -neg 1, as the demo's help says, and -train-acc, which the demo
// measures, prints the demo's table, but the fit times, on every split.
func TestDemoAsEval(t *testing.T) {
	for _, seed := range []string{"1", "2", "7"} {
		code, demo, errs := runCmd("demo", "-split-seed", seed)
		if code != 0 {
			t.Fatalf("demo: exit %d: %s", code, errs)
		}
		code, eval, errs := runCmd("eval", "-header", "-pos", "0", "-neg", "1", "-train-acc", "-split-seed", seed, "data/breast_cancer.csv")
		if code != 0 {
			t.Fatalf("eval: exit %d: %s", code, errs)
		}
		if got, want := parseTable(t, eval), parseTable(t, demo); !slices.Equal(got, want) {
			t.Errorf("split seed %s: eval -pos 0 -neg 1 prints\n%s\nthe demo\n%s", seed, eval, demo)
		}
	}
}

// cancerSet returns the embedded data as the demo reads them, with
// benign, -1, class 0 and malignant, +1, class 1, read here with package
// data alone.
func cancerSet(t *testing.T) *data.Set {
	set, err := data.CSV{Header: true, Label: "target"}.Read(bytes.NewReader(breastCancer))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(set.Classes, []string{"0", "1"}) {
		t.Fatalf("classes %q", set.Classes)
	}
	for i, c := range set.Y {
		set.Y[i] = 1 - c
	}
	set.Classes = []string{"benign", "malignant"}
	return set
}

// The demo's rows are those that the library gives on the split rows
// standardised, by an independent computation, with the means and
// deviations of the training rows alone, every classifier with the
// command's defaults: scikit-learn's stopping rule, and the kernel's
// Gaussian kernel, averaged.
func TestDemoMatchesLibrary(t *testing.T) {
	code, out, errs := runCmd("demo", "-split-seed", "7", "-split", "0.3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := parseTable(t, out)
	train, test, err := data.Split(cancerSet(t), 0.3, 7)
	if err != nil {
		t.Fatal(err)
	}
	std := standardise(train.X.(*mat.Dense), test.X.(*mat.Dense))
	y := func(s *data.Set) []float64 {
		v := make([]float64, len(s.Y))
		for i, c := range s.Y {
			v[i] = 2*c - 1
		}
		return v
	}
	acc := func(m perceptron.Scorer, X mat.Matrix, y []float64) string {
		right := 0
		for i, p := range m.PredictRows(nil, X) {
			if p == y[i] {
				right++
			}
		}
		return percent(float64(right) / float64(len(y)))
	}
	for _, r := range got {
		m := fitted(t, r.name, std[0], y(train))
		st := m.(interface{ Stats() perceptron.Stats }).Stats()
		if r.epochs != st.Epochs || r.mistakes != st.Mistakes {
			t.Errorf("%s: demo %d epochs, %d mistakes; library %d, %d", r.name, r.epochs, r.mistakes, st.Epochs, st.Mistakes)
		}
		if want := acc(m, std[0], y(train)); r.train != want {
			t.Errorf("%s: demo train accuracy %s, library %s", r.name, r.train, want)
		}
		if want := acc(m, std[1], y(test)); r.test != want {
			t.Errorf("%s: demo test accuracy %s, library %s", r.name, r.test, want)
		}
	}
}
