// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
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
