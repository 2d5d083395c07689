// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// skewed returns n rows of two features: of the label "b", one in ten,
// about (1, 1), and of "a" about (0, 0), both of deviation 1, so that the
// classes overlap and a classifier of the most accurate boundary finds
// few rows of b.
func skewed(rnd *rand.Rand, n int) (*mat.Dense, []string) {
	X := mat.NewDense(n, 2, nil)
	labels := make([]string, n)
	for i := range n {
		c := 0.0
		labels[i] = "a"
		if i%10 == 0 {
			c, labels[i] = 1, "b"
		}
		X.Set(i, 0, c+rnd.NormFloat64())
		X.Set(i, 1, c+rnd.NormFloat64())
	}
	return X, labels
}

// The class weight flags refuse a bad value with exit status 2 and a line
// naming the flag, before any data is read: the file does not exist.
func TestClassWeightFlagValues(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.csv")
	model := filepath.Join(dir, "m.json")
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"-class-weight", "bal"}, `invalid value \"bal\" for flag -class-weight: \"bal\" is not balanced`},
		{[]string{"-class-weight", ""}, `invalid value \"\" for flag -class-weight`},
		{[]string{"-w", "2"}, `invalid value \"2\" for flag -w: want -wNAME W`},
		{[]string{"-wa", "0"}, `invalid value \"0\" for flag -wa: \"0\" is not a finite number > 0`},
		{[]string{"-wa", "-1"}, `for flag -wa: \"-1\" is not a finite number > 0`},
		{[]string{"-wa", "NaN"}, `for flag -wa: \"NaN\" is not a finite number > 0`},
		{[]string{"-wa", "Inf"}, `for flag -wa: \"Inf\" is not a finite number > 0`},
		{[]string{"-w-1=x"}, `for flag -w-1: \"x\" is not a finite number > 0`},
		{[]string{"--wa", "1e999"}, `for flag -wa: \"1e999\" is not a finite number > 0`},
		{[]string{"-wb", "2", "-class-weight", "balanced", "-wa", "3"}, "-class-weight balanced and -wa both weigh the classes: give one"},
	} {
		for _, cmd := range []string{"train", "eval", "demo"} {
			args := append([]string{cmd}, c.flags...)
			switch cmd {
			case "train":
				args = append(args, "-o", model, missing)
			case "eval":
				args = append(args, missing)
			}
			code, out, errs := runCmd(args...)
			if code != 2 || out != "" || !strings.HasPrefix(errs, "perceptron: ") || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and a line with %s", args, code, out, errs, c.want)
			}
		}
	}
	// The commands that do not train, and training on a saved model,
	// take no weights.
	for _, args := range [][]string{
		{"predict", "-model", model, "-w1", "2", missing},
		{"eval", "-model", model, "-class-weight", "balanced", missing},
		{"eval", "-model", model, "-w1", "2", missing},
		{"train", "-model", model, "-w1", "2", "-o", model, missing},
	} {
		if code, out, errs := runCmd(args...); code != 2 || out != "" || !strings.Contains(errs, "-w1") && !strings.Contains(errs, "-class-weight") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2", args, code, out, errs)
		}
	}
	// A token after -- is a file, not a flag.
	if code, _, errs := runCmd("eval", "--", "-wa.csv"); code != 1 || !strings.Contains(errs, "-wa.csv") {
		t.Errorf("eval -- -wa.csv: exit %d, stderr %q; want exit 1 on the missing file -wa.csv", code, errs)
	}
}

// TestClassWeightTrain checks that train weighs the classes as the flags
// say: the model it saves has the weights of the classes by their index in
// its ClassWeight, and makes the mistakes and the predictions of the
// library's with those weights, on rows standardised apart from package
// data; -wNAME takes the label of a class, with -pos and -neg too, and
// refuses a label of no class.
func TestClassWeightTrain(t *testing.T) {
	dir := t.TempDir()
	X, labels := skewed(rand.New(rand.NewPCG(7, 8)), 300)
	file := writeFile(t, dir, "skew.csv", csvNamed(X, labels, 2, false))
	y := make([]float64, len(labels))
	for i, l := range labels {
		if l == "b" {
			y[i] = 1
		}
	}
	Z := standardise(X)[0]
	model := filepath.Join(dir, "m.json")
	for _, c := range []struct {
		flags []string
		cw    map[float64]float64
		line  string
	}{
		{[]string{"-wb", "9"}, map[float64]float64{1: 9}, `class weights (-wNAME): "b" 9; the others 1`},
		{[]string{"-wb=9", "-wa", "0.5"}, map[float64]float64{0: 0.5, 1: 9}, `class weights (-wNAME): "a" 0.5, "b" 9`},
		{[]string{"-class-weight", "balanced"}, map[float64]float64{0: 300.0 / (2 * 270), 1: 300.0 / (2 * 30)}, `class weights (balanced): "a" 0.5556, "b" 5`},
	} {
		for _, name := range []string{"averaged", "ovr:perceptron", "pocket"} {
			args := append([]string{"train", "-classifier", name, "-o", model}, c.flags...)
			code, out, errs := runCmd(append(args, file)...)
			if code != 0 {
				t.Fatalf("%q: exit %d: %s", args, code, errs)
			}
			if !strings.Contains(out, "\n"+c.line+"\n") {
				t.Errorf("%q: no line %q in\n%s", args, c.line, out)
			}
			m, err := data.LoadModel(model)
			if err != nil {
				t.Fatal(err)
			}
			// The library's, with the command's defaults.
			var lib perceptron.Scorer
			stop := &perceptron.Stop{Tol: 1e-3, NoChange: 5}
			rnd := func() *rand.Rand { return rand.New(rand.NewPCG(1, 1)) }
			switch name {
			case "averaged":
				lib = &perceptron.Averaged{Stop: stop, Rand: rnd(), ClassWeight: c.cw}
			case "pocket":
				lib = &perceptron.Pocket{Stop: stop, Rand: rnd(), ClassWeight: c.cw}
			default:
				lib = &perceptron.OneVsRest{ClassWeight: c.cw, New: func() perceptron.Scorer { return &perceptron.Perceptron{Stop: stop, Rand: rnd()} }}
			}
			got := reflect.ValueOf(m.Classifier).Elem().FieldByName("ClassWeight").Interface()
			if !reflect.DeepEqual(got, c.cw) {
				t.Errorf("%q: the model has ClassWeight %v, want %v", args, got, c.cw)
			}
			if err := lib.Fit(Z, y); err != nil {
				t.Fatal(err)
			}
			pred, err := m.Predict(X)
			if err != nil {
				t.Fatal(err)
			}
			ls, ms := statsOf(lib), statsOf(m.Classifier)
			if !reflect.DeepEqual(lib.PredictRows(nil, Z), pred) || ls.Mistakes != ms.Mistakes || ls.Epochs != ms.Epochs {
				t.Errorf("%q: the model made %d mistakes in %d epochs, the library's with ClassWeight %v %d in %d, or predicts otherwise", args, ms.Mistakes, ms.Epochs, c.cw, ls.Mistakes, ls.Epochs)
			}
		}
	}
	// -pos and -neg name the classes; a label of no class is refused once
	// the data are read.
	code, out, errs := runCmd("train", "-pos", "b", "-neg", "a", "-wb", "3", "-o", model, file)
	if code != 0 || !strings.Contains(out, `class weights (-wNAME): "b" 3; the others 1`) {
		t.Errorf("-pos b -neg a -wb 3: exit %d: %s%s", code, out, errs)
	}
	for _, flags := range [][]string{{"-wc", "3"}, {"-pos", "b", "-neg", "a", "-wc", "3"}} {
		args := append(append([]string{"train"}, flags...), "-o", model, file)
		code, out, errs := runCmd(args...)
		if code != 1 || out != "" || !strings.Contains(errs, `perceptron: -wc: no class has the label "c" (`) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 on -wc", args, code, out, errs)
		}
	}
}

// TestClassWeightLiblinear checks LIBLINEAR's form, -w-1 and -w1 on
// labels -1 and +1, which the classes take in the order of their values,
// and that a model saved with weights goes on learning with them.
func TestClassWeightLiblinear(t *testing.T) {
	dir := t.TempDir()
	X, labels := skewed(rand.New(rand.NewPCG(9, 10)), 200)
	for i, l := range labels {
		labels[i] = map[string]string{"a": "-1", "b": "+1"}[l]
	}
	file := writeFile(t, dir, "skew.svm", libsvmOf(X, labels))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-classifier", "perceptron", "-w-1", "0.5", "-w1", "2", "-o", model, file); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m, err := data.LoadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	if cw := m.Classifier.(*perceptron.Perceptron).ClassWeight; !reflect.DeepEqual(cw, map[float64]float64{0: 0.5, 1: 2}) {
		t.Errorf("ClassWeight %v, want class 0, -1, weighing 0.5 and class 1, +1, weighing 2", cw)
	}
	if code, _, errs := runCmd("train", "-model", model, "-o", model, file); code != 0 {
		t.Fatalf("train -model: exit %d: %s", code, errs)
	}
	if m, err = data.LoadModel(model); err != nil || !reflect.DeepEqual(m.Classifier.(*perceptron.Perceptron).ClassWeight, map[float64]float64{0: 0.5, 1: 2}) {
		t.Errorf("after train -model: %v", err)
	}
}

// TestClassWeightRecall checks, on rows of a rare class that overlaps a
// common one, that eval's report shows the recall of each class, and
// that the balanced weights raise the recall of the rare class, and the
// mean recall of the classes, over those of no weights, as weighing the
// rare class's mistakes more moves the boundary into the common class.
func TestClassWeightRecall(t *testing.T) {
	dir := t.TempDir()
	X, labels := skewed(rand.New(rand.NewPCG(11, 12)), 800)
	file := writeFile(t, dir, "skew.csv", csvNamed(X, labels, 2, false))
	recall := func(flags ...string) (rare, mean float64) {
		args := append(append([]string{"eval", "-classifier", "averaged"}, flags...), file)
		code, out, errs := runCmd(args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		for _, l := range strings.Split(out, "\n") {
			f := strings.Fields(l)
			switch {
			case len(f) == 5 && f[0] == "b":
				rare, _ = strconv.ParseFloat(f[2], 64)
			case len(f) == 6 && f[0] == "macro":
				mean, _ = strconv.ParseFloat(f[3], 64)
			}
		}
		if rare == 0 || mean == 0 {
			t.Fatalf("%q: no recall of b or macro average in\n%s", args, out)
		}
		return rare, mean
	}
	rare, mean := recall()
	wrare, wmean := recall("-class-weight", "balanced")
	if !(wrare > rare && wmean > mean) {
		t.Errorf("the recall of the rare class is %v, the mean recall %v without weights, and %v, %v with the balanced weights; want both higher", rare, mean, wrare, wmean)
	}
	code, out, errs := runCmd("eval", "-classifier", "averaged", "-folds", "3", "-class-weight", "balanced", file)
	if code != 0 || !strings.Contains(out, "\nclass weights (balanced): those of the training rows of each fold\n") {
		t.Errorf("eval -folds 3 -class-weight balanced: exit %d:\n%s%s", code, out, errs)
	}
}
