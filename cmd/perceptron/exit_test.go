// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
		{[]string{"train", "-init-weights", "1,2,3", "-o", model, good}, 2, "-init-weights: InitWeights has length 3, want 2"},
		{[]string{"eval", "-model", model, "-epochs", "3", good}, 2, "eval -model tests a saved model"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"train", "-o", model, filepath.Join(dir, "missing.csv")}, 1, "no such file"},
		{[]string{"predict", "-model", filepath.Join(dir, "missing.json"), good}, 1, "no such file"},
		{[]string{"train", "-o", sub, good}, 1, "is a directory"},
		{[]string{"train", "-o", filepath.Join(dir, "nodir", "m.json"), good}, 1, "no such file or directory"},
		{[]string{"train", "-o", "/proc/m.json", good}, 1, "writing /proc/m.json"},
		{[]string{"train", "-o", model, tab}, 1, "line 2"},
		{[]string{"train", "-standardize=false", "-rate", "1e300", "-o", model, overflow}, 1, "training averaged"},
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

// An error is one line of at most 2 kB, however long the path it names.
func TestLongPath(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, strings.Repeat("d", 200), strings.Repeat("e", 3000), "m.json")
	code, out, errs := runCmd("train", "-o", long, long)
	if code == 0 || out != "" || len(errs) > 2000 || strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "…\n") {
		t.Errorf("exit %d, stderr of %d bytes: %.200q", code, len(errs), errs)
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
