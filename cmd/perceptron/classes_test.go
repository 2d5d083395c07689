// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

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

// FuzzClassNames checks that a -classes file that reads names every label
// a number once, with a name of one line, each name once.
func FuzzClassNames(f *testing.F) {
	f.Add([]byte("0 admin 1479\n1 devel 3541\n2 doc 4471\n"))
	f.Add([]byte("T-shirt/top\nTrouser\nPullover\n"))
	f.Add([]byte("# comment\n\n0 a b 3\n1 c\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		names, err := readClassNames(bytes.NewReader(b))
		if err != nil {
			return
		}
		if len(names.labels) != len(names.names) {
			t.Fatalf("%d labels and %d names", len(names.labels), len(names.names))
		}
		seen := map[string]bool{}
		for k, label := range names.labels {
			if _, err := strconv.Atoi(label); err != nil || slices.Contains(names.labels[:k], label) {
				t.Errorf("label %q", label)
			}
		}
		for _, name := range names.names {
			if name == "" || !utf8.ValidString(name) || strings.ContainsAny(name, "\t\r\n") || strings.TrimSpace(name) != name || seen[name] {
				t.Errorf("name %q", name)
			}
			seen[name] = true
		}
	})
}

// A label column that looks like a feature is refused, with the flags that
// fix it, unless -many-classes says that the labels are classes; -classes
// is refused where it does not apply: of labels that are no numbers, or a
// file of rows of data.
func TestLabelsLikeClasses(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(3, 3))
	X, y := randomData(rnd, 200, 3)
	// The labels first, and no -label: the last column, of values of a
	// feature, is taken for them.
	first := writeFile(t, dir, "first.csv", csvNamed(X, signs(y), 0, true))
	model := filepath.Join(dir, "m.json")
	code, _, errs := runCmd("train", "-header", "-o", model, first)
	if code != 1 || !strings.Contains(errs, "the labels look like the values of a feature, not classes: ") ||
		!strings.Contains(errs, "name another with -label, and give -header") || !strings.Contains(errs, "-many-classes") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd("train", "-header", "-label", "first", "-o", model, first); code != 0 {
		t.Errorf("-label first: exit %d: %s", code, errs)
	}
	// Numbers, not whole, of which some repeat.
	var tenths []string
	for i := range y {
		tenths = append(tenths, strconv.FormatFloat(float64(i%20)/10, 'f', 1, 64))
	}
	last := writeFile(t, dir, "tenths.csv", csvNamed(X, tenths, 3, false))
	if code, _, errs := runCmd("train", "-o", model, last); code != 1 || !strings.Contains(errs, `its 20 labels are numbers, not all whole, as "0.1"`) {
		t.Errorf("exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd("train", "-many-classes", "-o", model, last); code != 0 {
		t.Errorf("-many-classes: exit %d: %s", code, errs)
	}

	svm := writeFile(t, dir, "d.svm", libsvmOf(X, signs(y)))
	words := make([]string, len(y))
	for i := range words {
		words[i] = []string{"yes", "no"}[i%2]
	}
	named := writeFile(t, dir, "named.csv", csvNamed(X, words, 3, false))
	numbered := writeFile(t, dir, "classes.txt", []byte("-1 minus\n1 plus\n"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-classes", first, svm}, "holds 4 fields apart by \",\", as a row of data does, not a name"},
		{[]string{"-classes", numbered, named}, "names numbered labels, and " + named + " has the label \"yes\", which is no number"},
	} {
		args := append([]string{"train", "-o", model}, c.args...)
		if code, _, errs := runCmd(args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d: %s", c.args, code, errs)
		}
	}
	if code, out, errs := runCmd("train", "-classes", numbered, "-o", model, svm); code != 0 || !strings.Contains(out, `"minus", "plus"`) {
		t.Errorf("-classes of numbered labels: exit %d: %s%s", code, out, errs)
	}
}

// predict and eval -model warn, before any figure, of rows unlike the
// training rows: rows of many more non-zeros, as pixels are, for a model
// of sparse rows of words.
func TestWarnOtherRows(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(4, 4))
	var words, pixels bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&words, "%d", i%3)
		for j := range 1 + rnd.IntN(6) {
			fmt.Fprintf(&words, " %d:1", 1+j*50+rnd.IntN(50))
		}
		words.WriteByte('\n')
		fmt.Fprintf(&pixels, "%d", i%3)
		for j := range 100 {
			if rnd.IntN(2) == 0 {
				fmt.Fprintf(&pixels, " %d:%.3f", j+1, rnd.Float64())
			}
		}
		pixels.WriteByte('\n')
	}
	train := writeFile(t, dir, "words.svm", words.Bytes())
	other := writeFile(t, dir, "pixels.svm", pixels.Bytes())
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-classifier", "averaged", "-o", model, train); code != 0 {
		t.Fatal(errs)
	}
	for _, args := range [][]string{{"predict", "-model", model}, {"eval", "-model", model}} {
		for _, file := range []string{train, other} {
			code, both := runBoth(append(args, file)...)
			warned := strings.HasPrefix(both, "perceptron: warning: "+other+": the rows have ") && strings.Contains(both, "non-zero values on average")
			if code != 0 || warned != (file == other) {
				t.Errorf("%q %s: exit %d:\n%.300s", args, file, code, both)
			}
		}
	}
}
