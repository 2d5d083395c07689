// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed5ae3614e/perceptron/data"
)

// A model that train saves and predict loads predicts every row as the
// library's classifier fitted with the command's defaults on the rows
// standardised apart from the command, and scores them to the bits of the
// saved model on the rows that the saved standardisation gives.
func TestTrainPredictRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(6, 6))
	for trial := range 3 * len(classifiers) {
		name := classifiers[trial%len(classifiers)].name
		dir := t.TempDir()
		n, d := 30+rnd.IntN(50), 2+rnd.IntN(4)
		X, y := randomData(rnd, n, d)
		file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), d, false))
		model := filepath.Join(dir, "m.json")
		if code, _, errs := runCmd("train", "-classifier", name, "-o", model, file); code != 0 {
			t.Fatalf("%s: train: exit %d: %s", name, code, errs)
		}
		code, out, errs := runCmd("predict", "-model", model, "-score", file)
		if code != 0 {
			t.Fatalf("%s: predict: exit %d: %s", name, code, errs)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if lines[0] != "class\tscore (>= 0: 1)" || len(lines) != n+1 {
			t.Fatalf("%s: predict wrote %d lines, the first %q", name, len(lines), lines[0])
		}
		lib := fitted(t, name, standardise(X)[0], y)
		pred := lib.PredictRows(nil, standardise(X)[0])
		m, err := data.LoadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		Xs, err := m.Scaler.Transform(X)
		if err != nil {
			t.Fatal(err)
		}
		scores := m.Classifier.ScoreRows(nil, Xs)
		right := 0
		for i, l := range lines[1:] {
			f := strings.Split(l, "\t")
			if want := strconv.FormatFloat(pred[i], 'g', -1, 64); f[0] != want {
				t.Errorf("%s: row %d: predict says %s, the library %s", name, i+1, f[0], want)
			}
			if want := strconv.FormatFloat(scores[i], 'g', -1, 64); f[1] != want {
				t.Errorf("%s: row %d: score %s, the saved model's %s", name, i+1, f[1], want)
			}
			if f[0] == signs(y)[i] {
				right++
			}
		}
		if want := fmt.Sprintf("Accuracy = %s%% (%d/%d)\n", strconv.FormatFloat(100*float64(right)/float64(n), 'g', 6, 64), right, n); errs != want {
			t.Errorf("%s: predict's stderr %q, want %q", name, errs, want)
		}
	}
}

// savedSettings returns the settings member of the model file at path.
func savedSettings(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Classifier struct{ Settings map[string]any }
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Classifier.Settings
}

// Training stops by scikit-learn's rule unless the flags say otherwise,
// and the model saves the rule it was trained with.
func TestStopFlags(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(2, 2)), 60, 3)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 3, false))
	model := filepath.Join(dir, "m.json")
	for _, c := range []struct {
		flags []string
		want  any
	}{
		{nil, map[string]any{"tol": 0.001, "noChange": 5.0, "validation": 0.0}},
		{[]string{"-no-stop"}, nil},
		{[]string{"-tol", "0.01", "-no-change", "3", "-validation", "0.2"}, map[string]any{"tol": 0.01, "noChange": 3.0, "validation": 0.2}},
	} {
		args := append(append([]string{"train", "-o", model}, c.flags...), file)
		if code, _, errs := runCmd(args...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		if got := savedSettings(t, model)["stop"]; fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: saved stop %v, want %v", c.flags, got, c.want)
		}
	}
	// Without the rule, training runs to the epoch limit on rows that no
	// hyperplane separates; with it, it stops before.
	_, out, _ := runCmd("train", "-no-stop", "-epochs", "300", "-o", model, file)
	if r := parseTable(t, out)[0]; r.epochs != 300 || r.ended != "limit" {
		t.Errorf("-no-stop: %+v, want 300 epochs to the limit", r)
	}
	_, out, _ = runCmd("train", "-epochs", "300", "-o", model, file)
	if r := parseTable(t, out)[0]; r.epochs >= 300 || r.ended != "stopped" {
		t.Errorf("default: %+v, want a stop before 300 epochs", r)
	}
	for _, flags := range [][]string{{"-no-stop", "-tol", "0.1"}, {"-tol", "-1"}, {"-tol", "0"}, {"-no-change", "0"}, {"-validation", "1"}, {"-validation", "-0.1"}} {
		args := append(append([]string{"train", "-o", model}, flags...), file)
		if code, out, errs := runCmd(args...); code != 2 || out != "" || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error", flags, code, out, errs)
		}
	}
}

// Progress reports say how training stops and after how many epochs at
// most.
func TestProgressShowsRule(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(3, 3)), 40, 2)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{nil, "averaged: training on 40 rows, stopping at most 1000 epochs, or after 5 epochs whose training loss has not fallen by 0.001 × 40 rows"},
		{[]string{"-epochs", "7", "-no-stop"}, "averaged: training on 40 rows, stopping at most 7 epochs, or at an epoch without a mistake"},
		{[]string{"-validation", "0.25", "-no-change", "2"}, "stopping at most 1000 epochs, or after 2 epochs whose accuracy on a held-out 0.25 of the rows has not risen by 0.001"},
	} {
		args := append(append([]string{"train", "-progress", "-o", filepath.Join(dir, "m.json")}, c.flags...), file)
		code, _, errs := runCmd(args...)
		if code != 0 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "averaged: done: ") {
			t.Errorf("%q: exit %d, stderr\n%s\nwant %q", c.flags, code, errs, c.want)
		}
	}
}
