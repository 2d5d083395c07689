// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// -classifier ovr:NAME fits perceptron.OneVsRest of NAME, as the library
// does on the same rows, saves it, and predict loads it.
func TestOneVsRest(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(21, 21))
	X, cls := classData(rnd, 90, 3, 3)
	labels := make([]string, len(cls))
	y := make([]float64, len(cls))
	for i, c := range cls {
		labels[i], y[i] = strconv.Itoa(c), float64(c)
	}
	file := writeFile(t, dir, "d.csv", csvNamed(X, labels, 3, false))
	model := filepath.Join(dir, "m.json")
	code, out, errs := runCmd("train", "-classifier", "ovr:averaged", "-o", model, file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	row := parseTable(t, out)[0]
	lib := &perceptron.OneVsRest{New: func() perceptron.Scorer {
		return &perceptron.Averaged{Stop: &perceptron.Stop{Tol: 1e-3, NoChange: 5}, Rand: rand.New(rand.NewPCG(1, 1))}
	}}
	Z := standardise(X)[0]
	if err := lib.Fit(Z, y); err != nil {
		t.Fatal(err)
	}
	right, mistakes, epochs := 0, 0, 0
	for i, p := range lib.PredictRows(nil, Z) {
		if p == y[i] {
			right++
		}
	}
	for _, m := range lib.Models() {
		st := m.(*perceptron.Averaged).Stats()
		mistakes += st.Mistakes
		epochs = max(epochs, st.Epochs)
	}
	if row.name != "ovr:averaged" || row.train != percent(float64(right)/90) || row.mistakes != mistakes || row.epochs != epochs {
		t.Errorf("train: %+v; library: %d right, %d mistakes, %d epochs", row, right, mistakes, epochs)
	}
	m, err := data.LoadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Classifier.(*perceptron.OneVsRest); !ok {
		t.Fatalf("the model is a %T", m.Classifier)
	}
	if code, out, _ := runCmd("eval", "-model", model, file); code != 0 || !strings.Contains(out, "an ovr:averaged model of 3 features") {
		t.Errorf("eval -model: exit %d:\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-classifier", "ovr:ovr:averaged"}, "-classifier \"ovr:ovr:averaged\": want one of"},
		{[]string{"-classifier", "ovr:pocket", "-init-weights", "1,2,3"}, "-init-weights: ovr:NAME learns each class against the rest"},
		{[]string{"-classifier", "ovr:averaged", "-ratchet"}, "-ratchet: only -classifier pocket takes this flag"},
	} {
		args := append(append([]string{"train", "-o", model}, c.args...), file)
		if code, _, errs := runCmd(args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d: %s", c.args, code, errs)
		}
	}
	if code, _, errs := runCmd("train", "-classifier", "ovr:pocket", "-ratchet", "-o", model, file); code != 0 {
		t.Errorf("ovr:pocket -ratchet: exit %d: %s", code, errs)
	}
}

// eval -folds k tests each classifier on the k stratified folds of
// data.Fold, drawn from -split-seed, and prints the mean, the deviation
// and the range of the folds' test accuracy, which the library gives.
func TestFolds(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(22, 22))
	X, y := randomData(rnd, 100, 3)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 3, false))
	code, out, errs := runCmd("eval", "-classifier", "averaged", "-folds", "4", "-split-seed", "3", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	set, err := data.CSV{}.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var accs []string
	sum := 0.0
	for i := range 4 {
		train, test, err := data.Fold(set, 4, i, 3)
		if err != nil {
			t.Fatal(err)
		}
		std := standardise(train.X.(*mat.Dense), test.X.(*mat.Dense))
		m := fitted(t, "averaged", std[0], train.Y)
		right := 0
		for k, p := range m.PredictRows(nil, std[1]) {
			if p == test.Y[k] {
				right++
			}
		}
		acc := float64(right) / float64(len(test.Y))
		sum += acc
		accs = append(accs, percent(acc))
	}
	if want := "averaged: " + strings.Join(accs, " ") + "\n"; !strings.Contains(out, want) {
		t.Errorf("no %q in\n%s", want, out)
	}
	if want := percent(sum / 4); !strings.Contains(out, "  "+want+"  ") {
		t.Errorf("no mean %s in\n%s", want, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-folds", "1", file}, "-folds 1: want 2 or more"},
		{[]string{"-folds", "3", file, file}, "-folds: cross-validation tests on folds of TRAIN alone"},
		{[]string{"-folds", "3", "-split", "0.5", file}, "-split: -folds tests on folds of TRAIN"},
		{[]string{"-folds", "3", "-train-acc", file}, "-train-acc: -folds measures the test accuracy of each fold alone"},
	} {
		if code, _, errs := runCmd(append([]string{"eval"}, c.args...)...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d: %s", c.args, code, errs)
		}
	}
}

// train -model goes on training a saved model on new rows, as the
// library's Learn does on them transformed by the model's steps, with the
// model's classes, and saves it where -o says, which may be its own file.
func TestTrainFurther(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(23, 23))
	X, y := randomData(rnd, 80, 3)
	first := writeFile(t, dir, "a.csv", csvNamed(mat.DenseCopyOf(X.Slice(0, 40, 0, 3)), signs(y[:40]), 3, false))
	more := writeFile(t, dir, "b.csv", csvNamed(mat.DenseCopyOf(X.Slice(40, 80, 0, 3)), signs(y[40:]), 3, false))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-resumable", "-o", model, first); code != 0 {
		t.Fatal(errs)
	}
	before, err := data.LoadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd("train", "-model", model, "-o", model, more)
	if code != 0 || !strings.Contains(out, "trained an averaged model of 3 features further on each row once") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	after, err := data.LoadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	Z, _ := before.Transform(X.Slice(40, 80, 0, 3))
	values := make([]float64, 40)
	for i, v := range y[40:] {
		values[i] = float64(slices.Index(before.Classes, strconv.FormatFloat(v, 'g', -1, 64)))
	}
	a := before.Classifier.(*perceptron.Averaged)
	if err := a.Learn(Z, values); err != nil {
		t.Fatal(err)
	}
	w, _ := a.Weights()
	wa, _ := after.Classifier.(*perceptron.Averaged).Weights()
	if !slices.Equal(w, wa) {
		t.Errorf("weights %v, the library's Learn %v", wa, w)
	}
	other := writeFile(t, dir, "c.csv", []byte("1,2,3,maybe\n"))
	pocket := filepath.Join(dir, "p.json")
	if code, _, errs := runCmd("train", "-classifier", "pocket", "-o", pocket, first); code != 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-model", model, "-o", model, other}, 1, `the label "maybe" is no class of the model`},
		{[]string{"-model", pocket, "-o", pocket, more}, 1, "a pocket model learns only from the start"},
		{[]string{"-model", model, more}, 2, "-o FILE is required"},
		{[]string{"-model", model, "-o", model, "-epochs", "3", more}, 2, "-epochs: train -model goes on training a saved model, and takes only -o,"},
	} {
		if code, _, errs := runCmd(append([]string{"train"}, c.args...)...); code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d: %s", c.args, code, errs)
		}
	}
}

// - reads the data from standard input, whose format the command tells
// from its first line, gzipped or not, or that -format gives.
func TestStandardInput(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(24, 24)), 60, 2)
	csv := csvNamed(X, signs(y), 2, false)
	svm := libsvmOf(X, signs(y))
	file := writeFile(t, dir, "d.csv", csv)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-o", model, file); code != 0 {
		t.Fatal(errs)
	}
	_, want, _ := runCmd("predict", "-model", model, file)
	defer func() { stdin = os.Stdin }()
	for _, c := range []struct {
		in   []byte
		args []string
	}{
		{csv, nil},
		{gzipped(csv), nil},
		{append([]byte("# rows\n"), svm...), nil},
		{csv, []string{"-format", "csv"}},
	} {
		stdin = bytes.NewReader(c.in)
		args := append(append([]string{"predict", "-model", model}, c.args...), "-")
		if code, out, errs := runCmd(args...); code != 0 || out != want {
			t.Errorf("%q of %.20q: exit %d: %s", c.args, c.in, code, errs)
		}
	}
	stdin = bytes.NewReader([]byte("1 2 3\n"))
	if code, _, errs := runCmd("train", "-o", model, "-"); code != 2 || !strings.Contains(errs, "cannot tell the format of standard input") {
		t.Errorf("exit %d: %s", code, errs)
	}
	stdin = bytes.NewReader([]byte("1,2,x\n1,y\n"))
	if code, _, errs := runCmd("train", "-o", model, "-"); code != 1 || !strings.HasPrefix(errs, "perceptron: standard input: line 2: ") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// -q leaves on stderr nothing but errors, and predict -o writes the
// predictions to a file, not to stdout; a mistyped flag or command gets
// the nearest name.
func TestQuietOutputNearest(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(25, 25))
	var words, pixels bytes.Buffer
	for i := range 200 {
		fmt.Fprintf(&words, "%d 1:1 %d:1\n", i%2, 2+rnd.IntN(50))
		fmt.Fprintf(&pixels, "%d", i%2)
		for j := range 50 {
			fmt.Fprintf(&pixels, " %d:%.2f", j+1, 0.5+rnd.Float64())
		}
		pixels.WriteByte('\n')
	}
	train := writeFile(t, dir, "w.svm", words.Bytes())
	other := writeFile(t, dir, "p.svm", pixels.Bytes())
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-q", "-progress", "-o", model, train); code != 0 || errs != "" {
		t.Fatalf("train -q: exit %d, stderr %q", code, errs)
	}
	_, want, _ := runCmd("predict", "-model", model, other)
	code, out, errs := runCmd("predict", "-q", "-model", model, other)
	if code != 0 || errs != "" || out != want {
		t.Errorf("predict -q: exit %d, stderr %q", code, errs)
	}
	if _, _, errs := runCmd("predict", "-model", model, other); !strings.Contains(errs, "warning") || !strings.Contains(errs, "Accuracy") {
		t.Errorf("predict without -q: stderr %q", errs)
	}
	pred := filepath.Join(dir, "pred.txt")
	code, out, _ = runCmd("predict", "-q", "-model", model, "-o", pred, other)
	if b, _ := os.ReadFile(pred); code != 0 || out != "" || string(b) != want {
		t.Errorf("predict -o: exit %d, stdout %q, file %q", code, out, b)
	}
	if code, _, errs := runCmd("predict", "-model", model, "-o", other, other); code != 2 || !strings.Contains(errs, "is the input file") {
		t.Errorf("predict -o of the input: exit %d: %s", code, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"trian"}, "did you mean train?"},
		{[]string{"eval", "-clasifier", "averaged", train}, "did you mean -classifier?"},
		{[]string{"train", "-shufle=false", train}, "did you mean -shuffle?"},
		{[]string{"predict", "-modle", model, train}, "did you mean -model?"},
		{[]string{"eval", "-x", train}, "flag provided but not defined: -x (see"},
	} {
		if code, _, errs := runCmd(c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d: %s", c.args, code, errs)
		}
	}
}

// train saves what prediction reads of the averaged perceptron, about half
// the file of train -resumable, which predicts the same; train -model and
// serve -learn refuse the first, saying what to do, and learn on the
// second.
func TestResumable(t *testing.T) {
	dir := t.TempDir()
	texts, labels := topicLines(rand.New(rand.NewPCG(29, 29)), 300)
	ft, _ := fastText(texts, labels)
	lines := writeFile(t, dir, "lines.txt", ft)
	short, full := filepath.Join(dir, "short.model"), filepath.Join(dir, "full.model")
	mustRun(t, "train", "-bits", "12", "-o", short, lines)
	mustRun(t, "train", "-resumable", "-bits", "12", "-o", full, lines)
	a, err1 := os.Stat(short)
	b, err2 := os.Stat(full)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if 10*a.Size() > 6*b.Size() {
		t.Errorf("train saves %d bytes, and train -resumable %d: want about half", a.Size(), b.Size())
	}
	var outs []string
	for _, m := range []string{short, full} {
		code, out, errs := runCmd("predict", "-score", "-model", m, lines)
		if code != 0 {
			t.Fatalf("predict -model %s: exit %d: %s", m, code, errs)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Error("the models of train and train -resumable predict otherwise")
	}
	code, _, errs := runCmd("train", "-model", short, "-o", short, lines)
	if code != 1 || !strings.Contains(errs, "holds what prediction reads alone") || !strings.Contains(errs, "train it with -resumable") {
		t.Errorf("train -model of a model of train: exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd("train", "-model", full, "-o", filepath.Join(dir, "more.model"), lines); code != 0 {
		t.Errorf("train -model of a model of train -resumable: exit %d: %s", code, errs)
	}
	line := []byte("__label__" + labels[0] + " " + texts[0] + "\n")
	ts := startServer(t, "-model", short, "-learn", "-save", filepath.Join(dir, "s.model"))
	if status, body := ts.do(t, "POST", "/learn", "", line); status != http.StatusConflict || !strings.Contains(body, "train it with -resumable") {
		t.Errorf("serve -learn of a model of train: POST /learn: %d %s", status, body)
	}
	if status, body := ts.do(t, "POST", "/predict", "", []byte(texts[0]+"\n")); status != http.StatusOK {
		t.Errorf("serve -learn of a model of train: POST /predict: %d %s", status, body)
	}
	ts = startServer(t, "-model", full, "-learn", "-save", filepath.Join(dir, "f.model"))
	if status, body := ts.do(t, "POST", "/learn", "", line); status != http.StatusOK {
		t.Errorf("serve -learn of a model of train -resumable: POST /learn: %d %s", status, body)
	}
}
