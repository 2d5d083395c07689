// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// predict labels every row, also with a model of two labels that -pos and
// -neg picked, whose other labels count as wrong in its accuracy, as they
// do in eval -model, unless -pos and -neg leave their rows out again.
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
	if code != 0 || !strings.Contains(out, "3 test rows;") || parseTable(t, out)[0].test != "66.67%" {
		t.Errorf("eval: exit %d:\n%s", code, out)
	}
	code, out, _ = runCmd("eval", "-model", model, "-pos", "yes", "-neg", "no", test)
	if code != 0 || !strings.Contains(out, "2 test rows (1 row of other labels left out)") || parseTable(t, out)[0].test != "100.00%" {
		t.Errorf("eval -pos -neg: exit %d:\n%s", code, out)
	}
	if code, _, errs := runCmd("eval", "-model", model, "-pos", "no", "-neg", "yes", test); code != 2 || !strings.Contains(errs, `want the classes of the model, which are 2 classes: "no", "yes"`) {
		t.Errorf("eval -pos -neg swapped: exit %d: %s", code, errs)
	}
}

// predict -o - writes the predictions to stdout, as predict without -o
// does, and no file named -; -o FILE writes the same to FILE.
func TestPredictToStdout(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, "t.csv", []byte("1,1,yes\n2,2,yes\n-1,-1,no\n-2,-1,no\n"))
	writeFile(t, dir, "s.csv", []byte("1,2,yes\n-1,-2,no\n3,3,no\n"))
	if code, _, errs := runCmd("train", "-o", "m.json", "t.csv"); code != 0 {
		t.Fatal(errs)
	}
	code, want, errs := runCmd("predict", "-model", "m.json", "s.csv")
	if code != 0 || want != "yes\nno\nyes\n" {
		t.Fatalf("predict: exit %d, stdout %q, stderr %q", code, want, errs)
	}
	if code, out, errs := runCmd("predict", "-model", "m.json", "-o", "-", "s.csv"); code != 0 || out != want {
		t.Errorf("predict -o -: exit %d, stdout %q, stderr %q; want stdout %q", code, out, errs, want)
	}
	if code, out, errs := runCmd("predict", "-model", "m.json", "-o", "p.txt", "s.csv"); code != 0 || out != "" {
		t.Errorf("predict -o p.txt: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if b, err := os.ReadFile("p.txt"); err != nil || string(b) != want {
		t.Errorf("predict -o p.txt wrote %q, %v; want %q", b, err, want)
	}
	if names := listDir(t, dir); !slices.Equal(names, []string{"m.json", "p.txt", "s.csv", "t.csv"}) {
		t.Errorf("files %q", names)
	}
}

// Every value that standardising or predicting makes non-finite is an
// error naming its row.
func TestNonFiniteIsError(t *testing.T) {
	dir := t.TempDir()
	// Training rows of values so large that the scores of the training
	// rows overflow.
	huge := writeFile(t, dir, "h.csv", []byte("1e308,1e308,1\n-1e308,-1e308,-1\n1e308,1e308,-1\n-1e308,-1e308,1\n"))
	if code, out, errs := runCmd("train", "-classifier", "perceptron", "-standardize=false", "-shuffle=false", "-o", filepath.Join(dir, "m.json"), huge); code != 1 || out != "" || !strings.Contains(errs, "h.csv: row 1: the model's score is") {
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
