// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

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
		s, err := loadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		Xs, err := s.sc.Transform(X)
		if err != nil {
			t.Fatal(err)
		}
		scores := s.m.ScoreRows(nil, Xs)
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

// eval TRAIN TEST gives, for each classifier, the epochs, mistakes and
// accuracies of the library's classifier fitted with the command's
// defaults on the rows standardised apart from the command; the kernel's
// row is the demo's kernel.
func TestEvalMatchesLibrary(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 1))
	X, y := randomData(rnd, 120, 4)
	dir := t.TempDir()
	tr := writeFile(t, dir, "train.csv", csvNamed(mat.DenseCopyOf(X.Slice(0, 80, 0, 4)), signs(y[:80]), 4, false))
	te := writeFile(t, dir, "test.csv", csvNamed(mat.DenseCopyOf(X.Slice(80, 120, 0, 4)), signs(y[80:]), 4, false))
	code, out, errs := runCmd("eval", tr, te)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	std := standardise(mat.DenseCopyOf(X.Slice(0, 80, 0, 4)), mat.DenseCopyOf(X.Slice(80, 120, 0, 4)))
	rows := parseTable(t, out)
	if len(rows) != len(classifiers) {
		t.Fatalf("%d rows, want every classifier on 80 rows:\n%s", len(rows), out)
	}
	for _, r := range rows {
		m := fitted(t, r.name, std[0], y[:80])
		st := m.(interface{ Stats() perceptron.Stats }).Stats()
		right := 0
		for i, p := range m.PredictRows(nil, std[1]) {
			if p == y[80+i] {
				right++
			}
		}
		if want := percent(float64(right) / 40); r.test != want || r.epochs != st.Epochs || r.mistakes != st.Mistakes {
			t.Errorf("%s: eval %s in %d epochs, %d mistakes; library %s in %d, %d", r.name, r.test, r.epochs, r.mistakes, want, st.Epochs, st.Mistakes)
		}
		if !strings.Contains(out, "\n"+r.name+" ("+r.kernel+", "+r.rule+") on the test rows:\n") {
			t.Errorf("%s: no report", r.name)
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
	var f struct{ Settings map[string]any }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Settings
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
		{nil, "perceptron: training on 40 rows, stopping at most 1000 epochs, or after 5 epochs whose training loss has not fallen by 0.001 × 40 rows"},
		{[]string{"-epochs", "7", "-no-stop"}, "perceptron: training on 40 rows, stopping at most 7 epochs, or at an epoch without a mistake"},
		{[]string{"-validation", "0.25", "-no-change", "2"}, "stopping at most 1000 epochs, or after 2 epochs whose accuracy on a held-out 0.25 of the rows has not risen by 0.001"},
	} {
		args := append(append([]string{"train", "-progress", "-o", filepath.Join(dir, "m.json")}, c.flags...), file)
		code, _, errs := runCmd(args...)
		if code != 0 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "perceptron: done: ") {
			t.Errorf("%q: exit %d, stderr\n%s\nwant %q", c.flags, code, errs, c.want)
		}
	}
}

// -classifier all leaves out pocket, voted and kernel where rows² ×
// non-zeros a row × classes is over the bound, and says so.
func TestCheapRule(t *testing.T) {
	for _, c := range []struct {
		n, perRow, K int
		out          bool
	}{
		{1000, 10, 2, false},
		{20000, 100, 10, true}, // 4e11
		{2000, 10, 2, false},   // 8e7
		{250000, 1, 2, true},   // 1.25e11
		{200000, 1, 2, false},  // 8e10
	} {
		n, d := c.n, c.perRow
		ptr := make([]int, n+1)
		ind := make([]int, 0, n*d)
		val := make([]float64, 0, n*d)
		for i := range n {
			for j := range d {
				ind, val = append(ind, j), append(val, 1)
			}
			ptr[i+1] = len(ind)
		}
		X, err := perceptron.NewCSR(n, d, ptr, ind, val)
		if err != nil {
			t.Fatal(err)
		}
		j := &job{classifier: "all"}
		all, _ := j.classifiers()
		names, note := j.cheapOnes(all, X, c.K)
		cost := float64(n) * float64(n) * float64(d) * float64(c.K)
		if out := cost > cheapCost; out != c.out {
			t.Fatalf("case %+v: cost %g: the case is wrong", c, cost)
		}
		want := all
		if c.out {
			want = []string{"perceptron", "averaged"}
		}
		if !slices.Equal(names, want) || (note != "") != c.out || c.out && !strings.Contains(note, "pocket, voted and kernel left out") {
			t.Errorf("%+v: runs %q, note %q", c, names, note)
		}
		// Named, any classifier runs.
		j.classifier = "pocket"
		if names, _ := j.cheapOnes([]string{"pocket"}, X, c.K); !slices.Equal(names, []string{"pocket"}) {
			t.Errorf("-classifier pocket runs %q", names)
		}
	}
}

// The library refuses a model file of the command, saying how to load it,
// and loads what is left without "command".
func TestLibraryRefusesCommandFile(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(4, 4)), 30, 2)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-classifier", "averaged", "-o", model, file); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(model)
	_, err := perceptron.Unmarshal(b)
	if err == nil || !strings.Contains(err.Error(), `remove its member "command"`) || !strings.Contains(err.Error(), "perceptron predict") {
		t.Fatalf("the library loads a command file: %v", err)
	}
	var obj map[string]json.RawMessage
	json.Unmarshal(b, &obj)
	delete(obj, "command")
	lib, _ := json.Marshal(obj)
	m, err := perceptron.Unmarshal(lib)
	if err != nil {
		t.Fatal(err)
	}
	// The library's model alone is a model file of the command too, whose
	// rows it takes unscaled.
	bare := writeFile(t, dir, "bare.json", lib)
	code, out, errs := runCmd("eval", "-model", bare, file)
	if code != 0 || !strings.Contains(out, "the library's JSON alone: the rows are taken as they are, not standardised") {
		t.Errorf("eval of the bare model: exit %d: %s%s", code, out, errs)
	}
	if _, ok := m.(*perceptron.Averaged); !ok {
		t.Errorf("loaded a %T", m)
	}
}

// eval -model says, before any figure, that the test rows are not those
// the model was trained on: another width, an error; LIBSVM values beyond
// its width, ignored and counted; rows scaled otherwise, a warning.
func TestEvalModelOtherFeatures(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(5, 5))
	X, y := randomData(rnd, 60, 3)
	for j := range 3 {
		for i := range 60 {
			X.Set(i, j, 40+10*X.At(i, j)) // far from standardised
		}
	}
	raw := writeFile(t, dir, "raw.csv", csvNamed(X, signs(y), 3, false))
	std := writeFile(t, dir, "std.csv", csvNamed(standardise(X)[0], signs(y), 3, false))
	wide := writeFile(t, dir, "wide.csv", csvNamed(mat.NewDense(60, 4, nil), signs(y), 4, false))
	scaled := filepath.Join(dir, "scaled.json")
	unscaled := filepath.Join(dir, "unscaled.json")
	if code, _, errs := runCmd("train", "-o", scaled, raw); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCmd("train", "-standardize=false", "-o", unscaled, std); code != 0 {
		t.Fatal(errs)
	}
	warn := "are they scaled as the training rows were?"
	for _, c := range []struct {
		model, file string
		code        int
		want        string
	}{
		{scaled, raw, 0, ""},
		{scaled, std, 0, warn},
		{unscaled, std, 0, ""},
		{unscaled, raw, 0, warn},
		{scaled, wide, 1, "rows of 4 features, want 3 as the model has"},
	} {
		code, both := runBoth("eval", "-model", c.model, c.file)
		table := strings.Index(both, "classifier ")
		switch {
		case code != c.code:
			t.Errorf("%s on %s: exit %d: %s", c.model, c.file, code, both)
		case c.want == "" && strings.Contains(both, "warning"):
			t.Errorf("%s on %s: a warning: %s", c.model, c.file, both)
		case c.want != "" && !strings.Contains(both, c.want):
			t.Errorf("%s on %s: no %q in\n%s", c.model, c.file, c.want, both)
		case c.want != "" && (c.code == 0) != (table > strings.Index(both, c.want)):
			t.Errorf("%s on %s: the message comes after the figures:\n%s", c.model, c.file, both)
		}
	}
	// LIBSVM rows wider than the model.
	train := writeFile(t, dir, "t.svm", []byte("1 1:1 3:2\n-1 2:1 3:-1\n1 1:2\n-1 2:3\n"))
	test := writeFile(t, dir, "w.svm", []byte("1 1:1 3:2 5:7\n-1 2:1 4:1 6:1\n"))
	model := filepath.Join(dir, "svm.json")
	if code, _, errs := runCmd("train", "-o", model, train); code != 0 {
		t.Fatal(errs)
	}
	code, both := runBoth("eval", "-model", model, test)
	msg := "3 values at feature indices beyond the model's 3 ignored, as liblinear-predict ignores them"
	if code != 0 || !strings.Contains(both, msg) || strings.Index(both, msg) > strings.Index(both, "classifier ") {
		t.Errorf("exit %d:\n%s", code, both)
	}
}

// A LIBSVM test file wider than the training file has its values beyond
// ignored and counted, and predicts as the file without them; a CSV file
// of another width is an error. The help says so.
func TestWidthRule(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "t.svm", []byte("1 1:1 3:2\n-1 2:1 3:-1\n1 1:2\n-1 2:3\n1 1:1 2:-1\n"))
	wide := writeFile(t, dir, "w.svm", []byte("1 1:1 3:2 5:7\n-1 2:1 4:1 6:1\n1 3:1\n"))
	cut := writeFile(t, dir, "c.svm", []byte("1 1:1 3:2\n-1 2:1\n1 3:1\n"))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-o", model, train); code != 0 {
		t.Fatal(errs)
	}
	code, outWide, errs := runCmd("predict", "-model", model, wide)
	if code != 0 || !strings.Contains(errs, "3 values at feature indices beyond the model's 3 ignored") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	_, outCut, _ := runCmd("predict", "-model", model, cut)
	if outWide != outCut {
		t.Errorf("wide rows predict %q, the rows cut %q", outWide, outCut)
	}
	code, out, errs := runCmd("eval", "-classifier", "perceptron", train, wide)
	if code != 0 || !strings.Contains(errs, "3 values at feature indices beyond the model's 3 ignored") || out == "" {
		t.Errorf("eval: exit %d, stderr %q", code, errs)
	}
	csv3 := writeFile(t, dir, "a.csv", []byte("1,2,3,1\n3,2,1,-1\n1,1,1,1\n0,0,1,-1\n"))
	csv2 := writeFile(t, dir, "b.csv", []byte("1,2,1\n3,2,-1\n"))
	if code, out, errs := runCmd("eval", "-classifier", "perceptron", csv3, csv2); code != 1 || out != "" || !strings.Contains(errs, "rows of 2 features, want 3") {
		t.Errorf("CSV of another width: exit %d, stderr %q", code, errs)
	}
	_, help, _ := runCmd("-h")
	if !strings.Contains(help, "A LIBSVM value at an\nindex beyond them is ignored, and counted on stderr, as liblinear-predict does; a CSV or\nIDX file of another width is an error.") {
		t.Error("the help does not state the rule of widths")
	}
}

// Output: predict's scores have a header naming their columns; eval
// prints a classification report and a confusion matrix with the names
// of the classes, in 100 columns at 35 classes.
func TestReportsAndHeaders(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(9, 9))
	const K = 35
	X, cls := classData(rnd, 20*K, 4, K)
	var labels []string
	for _, c := range cls {
		labels = append(labels, fmt.Sprintf("section-%02d", c))
	}
	file := writeFile(t, dir, "k.csv", csvNamed(X, labels, 4, true))
	code, out, errs := runCmd("eval", "-header", "-label", "class", "-classifier", "averaged", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	report := out[strings.Index(out, "averaged (linear, averaged) on the test rows:"):]
	for _, want := range []string{"precision    recall  f1-score   support", "section-00", "section-34", "weighted avg", "confusion matrix of the test rows:\n"} {
		if !strings.Contains(report, want) {
			t.Errorf("no %q in\n%s", want, report)
		}
	}
	for _, l := range strings.Split(report, "\n") {
		if utf8.RuneCountInString(l) > 100 {
			t.Errorf("a line of %d columns: %q", utf8.RuneCountInString(l), l)
		}
	}
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-header", "-label", "class", "-o", model, file); code != 0 {
		t.Fatal(errs)
	}
	_, out, _ = runCmd("predict", "-header", "-model", model, "-score", file)
	head := strings.SplitN(out, "\n", 2)[0]
	want := "class"
	for k := range K {
		want += fmt.Sprintf("\tsection-%02d", k)
	}
	if head != want {
		t.Errorf("header %q, want %q", head, want)
	}
}

// -classes names the classes of LIBSVM and IDX files, in either format,
// and the names go into the model, the reports and predict's output.
func TestClassesFile(t *testing.T) {
	dir := t.TempDir()
	svm := writeFile(t, dir, "d.svm", []byte("0 1:1\n1 2:1\n2 1:-1\n0 1:2\n1 2:2\n2 1:-2\n0 1:1 2:0.1\n1 2:1.5\n2 1:-1.5\n"))
	numbered := writeFile(t, dir, "classes.txt", []byte("0 alpha 3\n1 beta 3\n2 gamma 3\n"))
	model := filepath.Join(dir, "m.json")
	if code, out, errs := runCmd("train", "-classes", numbered, "-o", model, svm); code != 0 || !strings.Contains(out, `3 classes: "alpha", "beta", "gamma"`) {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	_, out, _ := runCmd("predict", "-model", model, svm)
	if lines := strings.Fields(out); !slices.Equal(lines[:3], []string{"alpha", "beta", "gamma"}) {
		t.Errorf("predict: %q", lines)
	}
	// The names pick classes too, as the labels do.
	if code, out, errs := runCmd("eval", "-classes", numbered, "-pos", "beta", "-neg", "0", "-classifier", "perceptron", svm, svm); code != 0 || !strings.Contains(out, `+1 is "beta", -1 is "alpha"`) {
		t.Errorf("-pos beta -neg 0: exit %d: %s%s", code, out, errs)
	}
	// One name a line, for the labels 0, 1, …, as IDX files number them.
	im := writeFile(t, dir, "x-images-idx3-ubyte", idxFile(0x08, []int{6, 1, 2}, []byte{0, 9, 9, 0, 0, 8, 8, 0, 1, 9, 9, 1}))
	writeFile(t, dir, "x-labels-idx1-ubyte", idxFile(0x08, []int{6}, []byte{0, 1, 0, 1, 0, 1}))
	names := writeFile(t, dir, "names.txt", []byte("T-shirt/top\nTrouser\n"))
	if code, out, errs := runCmd("eval", "-classes", names, "-classifier", "perceptron", im, im); code != 0 || !strings.Contains(out, "T-shirt/top") || !strings.Contains(out, "Trouser") {
		t.Errorf("IDX: exit %d: %s%s", code, out, errs)
	}
	// predict labels images that have no labels file, and names them.
	if code, _, errs := runCmd("train", "-classes", names, "-o", model, im); code != 0 {
		t.Fatal(errs)
	}
	alone := writeFile(t, dir, "y-images-idx3-ubyte", idxFile(0x08, []int{2, 1, 2}, []byte{0, 9, 9, 0}))
	if code, out, errs := runCmd("predict", "-model", model, alone); code != 0 || len(strings.Fields(out)) != 2 || errs != "" ||
		!slices.Contains([]string{"T-shirt/top", "Trouser"}, strings.Fields(out)[0]) {
		t.Errorf("predict of images alone: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, c := range []struct {
		content, want string
	}{
		{"0 alpha\n1 alpha\n", "line 2: the name \"alpha\" again, as on line 1"},
		{"0 alpha\n0 beta\n", "line 2: the label \"0\" again"},
		{"0 alpha\n1 beta\n", "the label \"2\" is no class of"},
		{"0 alpha\nbeta\n", "line 2: \"beta\": want a number and a name, as the lines before"},
		{"", "no class names"},
	} {
		f := writeFile(t, dir, "bad.txt", []byte(c.content))
		if code, _, errs := runCmd("train", "-classes", f, "-o", model, svm); code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.content, code, errs, c.want)
		}
	}
}

// eval's split is seeded by -split-seed, apart from -seed, which seeds
// -shuffle.
func TestSplitSeed(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(10, 10)), 200, 3)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 3, false))
	table := func(args ...string) string {
		code, out, errs := runCmd(append([]string{"eval", "-classifier", "perceptron"}, append(args, file)...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		r := parseTable(t, out)[0]
		return fmt.Sprint(r.epochs, r.mistakes, r.train, r.test)
	}
	base := table()
	if table("-seed", "9") != base {
		t.Error("-seed changes a run in order")
	}
	if table("-split-seed", "9") == base {
		t.Error("-split-seed changes nothing")
	}
	if table("-shuffle", "-seed", "9") == table("-shuffle", "-seed", "8") {
		t.Error("-seed does not seed -shuffle")
	}
}

// Every value that standardising or predicting makes non-finite is an
// error naming its row.
func TestNonFiniteIsError(t *testing.T) {
	dir := t.TempDir()
	// Training rows of values so large that the scores of the training
	// rows overflow.
	huge := writeFile(t, dir, "h.csv", []byte("1e308,1e308,1\n-1e308,-1e308,-1\n1e308,1e308,-1\n-1e308,-1e308,1\n"))
	if code, out, errs := runCmd("train", "-standardize=false", "-o", filepath.Join(dir, "m.json"), huge); code != 1 || out != "" || !strings.Contains(errs, "h.csv: row 1: the model's score is") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	// A model of the library with weights 1 and 1 scores 1.5e308 twice
	// as +Inf.
	bare := writeFile(t, dir, "bare.json", []byte(`{"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":null,"stop":null},"model":{"classes":[-1,1],"weights":[1,1],"biases":[0],"throughOrigin":false},"stats":{"epochs":1,"converged":true,"mistakes":0,"epochMistakes":[0],"epochLoss":[0]}}`))
	rows := writeFile(t, dir, "r.csv", []byte("1,2,1\n1.5e308,1.5e308,1\n"))
	if code, out, errs := runCmd("predict", "-model", bare, rows); code != 1 || out != "" || !strings.Contains(errs, "r.csv: row 2: the model's score is +Inf") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// A standardisation of a tiny scale.
	var obj map[string]json.RawMessage
	b, _ := os.ReadFile(bare)
	json.Unmarshal(b, &obj)
	obj["command"] = json.RawMessage(`{"version":4,"features":2,"label":"last","classes":["-1","1"],"picked":false,"mean":[0,0],"scale":[1e-300,1],"rms":0}`)
	b, _ = json.Marshal(obj)
	tiny := writeFile(t, dir, "tiny.json", b)
	if code, _, errs := runCmd("predict", "-model", tiny, rows); code != 1 || !strings.Contains(errs, "row 2, column 1: standardising overflows") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// A CSV file whose header lacks the label column hints at its delimiter,
// and -delimiter reads it.
func TestDelimiter(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "s.csv", []byte("a;b;target\n1;2;0\n2;1;1\n0;1;0\n3;3;1\n"))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-header", "-label", "target", "-o", model, file); code != 1 || !strings.Contains(errs, `is the delimiter ";"?`) {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCmd("train", "-header", "-label", "target", "-delimiter", ";", "-o", model, file); code != 0 {
		t.Errorf("-delimiter ';': exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runCmd("train", "-delimiter", "ab", "-o", model, file); code != 2 {
		t.Errorf("-delimiter ab: exit %d", code)
	}
}

// Exit status 2 is for usage errors alone, 1 for every error of data,
// files and resources.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(11, 11)), 30, 2)
	good := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-o", model, good); code != 0 {
		t.Fatal(errs)
	}
	tab := writeFile(t, dir, "tab.csv", []byte("1,2,a\n3,4,\"b\tc\"\n"))
	overflow := writeFile(t, dir, "o.csv", []byte("1e10,1,1\n-1e10,-1,-1\n1e10,1,-1\n-1e10,-1,1\n"))
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"train", "-nosuch", good}, 2, "flag provided but not defined"},
		{[]string{"train", "-epochs", "x", "-o", model, good}, 2, "invalid value"},
		{[]string{"train", "-o", model}, 2, "want one data file"},
		{[]string{"train", good}, 2, "-o FILE is required"},
		{[]string{"train", "-pos", "1", "-o", model, good}, 2, "-pos and -neg go together"},
		{[]string{"train", "-classifier", "nosuch", "-o", model, good}, 2, "-classifier"},
		{[]string{"train", "-o", filepath.Join(dir, "p.svg"), "-plot", filepath.Join(dir, "p.svg"), good}, 2, "are the same file"},
		{[]string{"train", "-o", good, good}, 2, "is the input file"},
		{[]string{"train", "-init-weights", "1,2,3", "-o", model, good}, 2, "-init-weights: 3 weights, want 2"},
		{[]string{"eval", "-model", model, "-epochs", "3", good}, 2, "eval -model tests a saved model"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"train", "-o", model, filepath.Join(dir, "missing.csv")}, 1, "no such file"},
		{[]string{"predict", "-model", filepath.Join(dir, "missing.json"), good}, 1, "no such file"},
		{[]string{"train", "-o", sub, good}, 1, "is a directory"},
		{[]string{"train", "-o", filepath.Join(dir, "nodir", "m.json"), good}, 1, "no such file or directory"},
		{[]string{"train", "-o", "/proc/m.json", good}, 1, "writing /proc/m.json"},
		{[]string{"train", "-o", model, tab}, 1, "line 2"},
		{[]string{"train", "-standardize=false", "-rate", "1e300", "-o", model, overflow}, 1, "training perceptron"},
		{[]string{"predict", "-model", good, good}, 1, "not a model"},
	} {
		code, out, errs := runCmd(c.args...)
		if code != c.code || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 || c.code != 0 && out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out, errs, c.code, c.want)
		}
	}
	_, help, _ := runCmd("-h")
	if !strings.Contains(help, "Exit status: 0 on success; 2 on a usage error, of the flags or the arguments; 1 on any\nother error") {
		t.Error("the help does not document the exit status")
	}
}

// An error quotes a short, printable prefix of a bad token, however long.
func TestShortQuotes(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("\x01ü", 5000)
	file := writeFile(t, dir, "d.csv", []byte("1,2,a\n3,"+long+",b\n"))
	for _, args := range [][]string{
		{long},
		{"train", "-" + long, file},
		{"train", "-format", long, "-o", "m.json", file},
		{"train", "-classifier", long, "-o", "m.json", file},
		{"train", "-o", filepath.Join(dir, "m.json"), file},
		{"train", "-pos", long, "-neg", "x", "-o", filepath.Join(dir, "m.json"), file},
	} {
		code, _, errs := runCmd(args...)
		if code == 0 || len(errs) > 400 || strings.ContainsRune(errs, '\x01') {
			t.Errorf("exit %d, stderr of %d bytes: %.200q", code, len(errs), errs)
		}
	}
}

// The same rows as CSV and as gzipped LIBSVM train the same model, when
// neither is standardised: dense and sparse rows are one to the library.
func TestFormatsAgree(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(12, 12)), 50, 4)
	csvFile := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 4, false))
	svmFile := writeFile(t, dir, "d.svm.gz", gzipped(libsvmOf(X, signs(y))))
	var models []string
	for _, f := range []string{csvFile, svmFile} {
		model := filepath.Join(dir, "m.json")
		if code, _, errs := runCmd("train", "-classifier", "averaged", "-standardize=false", "-o", model, f); code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, errs)
		}
		b, _ := os.ReadFile(model)
		var obj struct{ Model json.RawMessage }
		json.Unmarshal(b, &obj)
		models = append(models, string(obj.Model))
	}
	if models[0] != models[1] {
		t.Errorf("CSV trains\n%s\nLIBSVM\n%s", models[0], models[1])
	}
}

// predict labels every row, also with a model of two labels that -pos and
// -neg picked, whose other labels count as wrong in its accuracy; eval
// leaves their rows out.
func TestPredictKeepsEveryRow(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "t.csv", []byte("1,1,yes\n2,2,yes\n-1,-1,no\n-2,-1,no\n0,5,maybe\n"))
	test := writeFile(t, dir, "s.csv", []byte("1,2,yes\n-1,-2,no\n3,3,maybe\n"))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-pos", "yes", "-neg", "no", "-o", model, train); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := runCmd("predict", "-model", model, test)
	if code != 0 || out != "yes\nno\nyes\n" || errs != "Accuracy = 66.6667% (2/3)\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, _ = runCmd("eval", "-model", model, test)
	if code != 0 || !strings.Contains(out, "2 test rows (1 row of other labels left out)") || parseTable(t, out)[0].test != "100.00%" {
		t.Errorf("eval: exit %d:\n%s", code, out)
	}
}
