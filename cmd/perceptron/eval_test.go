// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// eval TRAIN TEST gives, for each classifier, the epochs, mistakes and
// test accuracy of the library's classifier fitted with the command's
// defaults on the rows standardised apart from the command, and with
// -train-acc its training accuracy too; the kernel's row is the demo's
// kernel.
func TestEvalMatchesLibrary(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 1))
	X, y := randomData(rnd, 120, 4)
	dir := t.TempDir()
	tr := writeFile(t, dir, "train.csv", csvNamed(mat.DenseCopyOf(X.Slice(0, 80, 0, 4)), signs(y[:80]), 4, false))
	te := writeFile(t, dir, "test.csv", csvNamed(mat.DenseCopyOf(X.Slice(80, 120, 0, 4)), signs(y[80:]), 4, false))
	std := standardise(mat.DenseCopyOf(X.Slice(0, 80, 0, 4)), mat.DenseCopyOf(X.Slice(80, 120, 0, 4)))
	accuracy := func(m perceptron.Scorer, X mat.Matrix, y []float64) string {
		right := 0
		for i, p := range m.PredictRows(nil, X) {
			if p == y[i] {
				right++
			}
		}
		return percent(float64(right) / float64(len(y)))
	}
	for _, trainAcc := range []bool{false, true} {
		code, out, errs := runCmd("eval", "-train-acc="+fmt.Sprint(trainAcc), tr, te)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		rows := parseTable(t, out)
		if len(rows) != len(classifiers) {
			t.Fatalf("%d rows, want every classifier on 80 rows:\n%s", len(rows), out)
		}
		for _, r := range rows {
			m := fitted(t, r.name, std[0], y[:80])
			st := m.(interface{ Stats() perceptron.Stats }).Stats()
			if want := accuracy(m, std[1], y[80:]); r.test != want || r.epochs != st.Epochs || r.mistakes != st.Mistakes {
				t.Errorf("%s: eval %s in %d epochs, %d mistakes; library %s in %d, %d", r.name, r.test, r.epochs, r.mistakes, want, st.Epochs, st.Mistakes)
			}
			if want := accuracy(m, std[0], y[:80]); trainAcc && r.train != want || !trainAcc && r.train != "" {
				t.Errorf("%s, -train-acc=%v: training accuracy %q; library %s", r.name, trainAcc, r.train, want)
			}
			if !strings.Contains(out, "\n"+r.name+" ("+r.kernel+", "+r.rule+") on the test rows:\n") {
				t.Errorf("%s: no report", r.name)
			}
		}
	}
}

// -classifier all leaves out pocket, voted and kernel where rows² ×
// the non-zeros of a row × classes is over the bound, and says so.
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
		rows, perRow := rowShape(X)
		names, note := j.cheapOnes(all, quadraticCost(rows, perRow, c.K))
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
		if names, _ := j.cheapOnes([]string{"pocket"}, quadraticCost(rows, perRow, c.K)); !slices.Equal(names, []string{"pocket"}) {
			t.Errorf("-classifier pocket runs %q", names)
		}
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
// of the classes, in 100 columns at 35 classes; of few classes, the
// matrix is headed by their names, as the labels give them, never
// renumbered.
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
	digits := writeFile(t, dir, "d.svm", []byte("0 1:1\n1 2:1\n2 3:1\n0 1:2\n1 2:2\n2 3:2\n"))
	_, out, _ = runCmd("eval", "-classifier", "perceptron", digits, digits)
	if want := "confusion matrix of the test rows:\n   0  1  2  (predicted)\n0  2  0  0\n1  0  2  0\n2  0  0  2\n"; !strings.HasSuffix(out, want) {
		t.Errorf("the matrix of the digits is not\n%s\nin\n%s", want, out)
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

// eval's split is seeded by -split-seed, apart from -seed, which seeds
// -shuffle, and changes nothing of a run in the order of the rows.
func TestSplitSeed(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(10, 10)), 200, 3)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 3, false))
	table := func(args ...string) string {
		code, out, errs := runCmd(append([]string{"eval", "-classifier", "perceptron", "-train-acc"}, append(args, file)...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		r := parseTable(t, out)[0]
		return fmt.Sprint(r.epochs, r.mistakes, r.train, r.test)
	}
	base := table("-shuffle=false")
	if table("-shuffle=false", "-seed", "9") != base {
		t.Error("-seed changes a run in order")
	}
	if table("-shuffle=false", "-split-seed", "9") == base {
		t.Error("-split-seed changes nothing")
	}
	if table("-seed", "9") == table("-seed", "8") {
		t.Error("-seed does not seed -shuffle")
	}
}

// The table names the kernel with its degree, which is 3 when -degree
// leaves it zero, as perceptron.Poly documents.
func TestKernelColumn(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(13, 13)), 40, 2)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"-kernel", "poly"}, "poly 3"},
		{[]string{"-kernel", "poly", "-degree", "2"}, "poly 2"},
		{[]string{"-gamma", "0.5"}, "rbf γ=0.5"},
		{nil, "rbf γ=1/d"},
	} {
		args := append(append([]string{"eval", "-classifier", "kernel"}, c.flags...), file)
		code, out, errs := runCmd(args...)
		if code != 0 || parseTable(t, out)[0].kernel != c.want {
			t.Errorf("%q: exit %d, %s%s; want the kernel %q", c.flags, code, out, errs, c.want)
		}
	}
}

// By default sparse rows are weighed by the inverse document frequency of
// their features and scaled to unit length, as scikit-learn's
// TfidfTransformer does, computed here apart from package data; the
// classifier then fits them as the library does, shuffled from -seed 1.
func TestSparseDefaults(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(12, 12))
	X, cls := classData(rnd, 150, 20, 3)
	for i := range 150 {
		for j := range 20 {
			if rnd.IntN(3) > 0 {
				X.Set(i, j, 0)
			}
		}
	}
	labels := make([]string, len(cls))
	for i, c := range cls {
		labels[i] = strconv.Itoa(c)
	}
	train := writeFile(t, dir, "train.svm", libsvmOf(mat.DenseCopyOf(X.Slice(0, 100, 0, 20)), labels[:100]))
	test := writeFile(t, dir, "test.svm", libsvmOf(mat.DenseCopyOf(X.Slice(100, 150, 0, 20)), labels[100:]))
	code, out, errs := runCmd("eval", "-classifier", "averaged", train, test)
	if code != 0 || !strings.Contains(out, "each feature weighed by its inverse document frequency on the training rows, each row scaled to unit length") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	weigh := make([]float64, 20)
	for j := range 20 {
		df := 0.0
		for i := range 100 {
			if X.At(i, j) != 0 {
				df++
			}
		}
		weigh[j] = 1 / (math.Log(101/(1+df)) + 1)
	}
	Z := mat.NewDense(150, 20, nil)
	for i := range 150 {
		ss := 0.0
		for j := range 20 {
			v := X.At(i, j) / weigh[j]
			Z.Set(i, j, v)
			ss += v * v
		}
		for j := range 20 {
			Z.Set(i, j, Z.At(i, j)/math.Sqrt(ss))
		}
	}
	y := make([]float64, 150)
	for i, c := range cls {
		y[i] = float64(c)
	}
	m := fitted(t, "averaged", Z.Slice(0, 100, 0, 20), y[:100])
	right := 0
	for i, p := range m.PredictRows(nil, Z.Slice(100, 150, 0, 20)) {
		if p == y[100+i] {
			right++
		}
	}
	r := parseTable(t, out)[0]
	st := m.(*perceptron.Averaged).Stats()
	if want := percent(float64(right) / 50); r.test != want || r.epochs != st.Epochs || r.mistakes != st.Mistakes {
		t.Errorf("eval %s in %d epochs, %d mistakes; library %s in %d, %d", r.test, r.epochs, r.mistakes, want, st.Epochs, st.Mistakes)
	}
	if code, _, errs := runCmd("eval", "-idf", "-standardize", train, test); code != 2 || !strings.Contains(errs, "-idf and -standardize both scale the features: give one") {
		t.Errorf("-idf -standardize: exit %d: %s", code, errs)
	}
}
