// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/data"
)

// predict, which reads its rows a block at a time, writes the scores that
// the model gives the rows all read at once, in memory, to the bit, on
// rows of several blocks: those of a kernel perceptron, which depend on
// the rows scored together, and of the averaged perceptron on sparse rows.
func TestPredictBlocksAsInMemory(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(3, 4))
	X, y := randomData(rnd, 2600, 5)
	csvPath := writeFile(t, dir, "r.csv", csvNamed(X, signs(y), 5, false))
	svmPath := writeFile(t, dir, "r.svm", libsvmOf(X, signs(y)))
	for _, c := range []struct {
		classifier, file string
		read             func(string) (*data.Set, error)
	}{
		{"kernel", csvPath, data.CSV{}.ReadFile},
		{"averaged", svmPath, data.LIBSVM{}.ReadFile},
	} {
		model := filepath.Join(dir, c.classifier+".json")
		if code, _, errs := runCmd("train", "-classifier", c.classifier, "-epochs", "3", "-o", model, c.file); code != 0 {
			t.Fatal(errs)
		}
		code, out, errs := runCmd("predict", "-score", "-model", model, c.file)
		if code != 0 {
			t.Fatal(errs)
		}
		m, err := data.LoadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		set, err := c.read(c.file)
		if err != nil {
			t.Fatal(err)
		}
		scores, err := m.Score(set.X)
		if err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(set.X)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(pred)+1 {
			t.Fatalf("%s: %d lines, want a header and %d", c.classifier, len(lines), len(pred))
		}
		for i, line := range lines[1:] {
			want := m.Classes[int(pred[i])] + "\t" + strconv.FormatFloat(scores[i], 'g', -1, 64)
			if line != want {
				t.Fatalf("%s: row %d: %q, in memory %q", c.classifier, i+1, line, want)
			}
		}
	}
}

// An error of a row in a later block names the row as the file counts
// it, and ends predict after the classes of the blocks before, which
// stdout keeps.
func TestPredictStreamError(t *testing.T) {
	dir := t.TempDir()
	bare := writeFile(t, dir, "bare.json", []byte(`{"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":null,"stop":null},"model":{"classes":[-1,1],"weights":[1,1],"biases":[0],"throughOrigin":false},"stats":{"epochs":1,"converged":true,"mistakes":0,"epochMistakes":[0],"epochLoss":[0]}}`))
	var b bytes.Buffer
	for range 1499 {
		b.WriteString("1,2,1\n")
	}
	b.WriteString("1.5e308,1.5e308,1\n1,2,1\n")
	rows := writeFile(t, dir, "r.csv", b.Bytes())
	code, out, errs := runCmd("predict", "-model", bare, rows)
	if code != 1 || out != strings.Repeat("1\n", data.BlockRows) || !strings.Contains(errs, "r.csv: row 1500: the model's score is +Inf") {
		t.Errorf("exit %d, %d bytes of stdout, stderr %q", code, len(out), errs)
	}
}

// Of standard input, predict writes each row's class as soon as it has
// read the row, before the next comes, with a model whose scores do not
// depend on the rows scored together; a kernel perceptron's it writes a
// block at a time.
func TestPredictAsRead(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "t.csv", []byte("1,1,yes\n2,2,yes\n-1,-1,no\n-2,-1,no\n"))
	defer func() { stdin = os.Stdin }()
	for _, classifier := range []string{"averaged", "kernel"} {
		model := filepath.Join(dir, classifier+".json")
		if code, _, errs := runCmd("train", "-classifier", classifier, "-o", model, train); code != 0 {
			t.Fatal(errs)
		}
		pr, pw := io.Pipe()
		stdin = pr
		or, ow := io.Pipe()
		done := make(chan string)
		go func() {
			var errb bytes.Buffer
			code := run([]string{"predict", "-model", model, "-"}, ow, &errb)
			ow.Close()
			done <- fmt.Sprintf("exit %d: %s", code, errb.String())
		}()
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(or)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		fmt.Fprint(pw, "1.5,1.5,yes\n")
		select {
		case l := <-lines:
			if classifier == "kernel" || l != "yes" {
				t.Errorf("%s: the first row's class %q before the second row", classifier, l)
			}
		case <-time.After(2 * time.Second):
			// Long enough on a loaded machine for the class of one row: the
			// kernel perceptron's comes with the block.
			if classifier != "kernel" {
				t.Errorf("%s: no class of the first row before the second", classifier)
			}
		}
		fmt.Fprint(pw, "-1.5,-1.5,no\n")
		pw.Close()
		var got []string
		for l := range lines {
			got = append(got, l)
		}
		if res := <-done; !strings.HasPrefix(res, "exit 0: ") || classifier == "averaged" && strings.Join(got, " ") != "no" || classifier == "kernel" && strings.Join(got, " ") != "yes no" {
			t.Errorf("%s: %s, then %q", classifier, res, got)
		}
	}
}

// eval reads TEST a block at a time with -stream, to the results of the
// rows in memory, with its labels that are no class of TRAIN.
func TestEvalStreamTest(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(5, 6))
	X, y := classData(rnd, 3600, 4, 3)
	labels := make([]string, len(y))
	for i, c := range y {
		labels[i] = strconv.Itoa(c)
		if i > 1200 && i%500 == 0 {
			labels[i] = "9"
		}
	}
	train := writeFile(t, dir, "train.svm", libsvmOf(mat.DenseCopyOf(X.Slice(0, 1200, 0, 4)), labels[:1200]))
	test := writeFile(t, dir, "test.svm", libsvmOf(mat.DenseCopyOf(X.Slice(1200, 3600, 0, 4)), labels[1200:]))
	fitTime := regexp.MustCompile(` +[0-9.]+[^ 0-9.]*s\n`)
	for _, args := range [][]string{
		{"-classifier", "all"},
		{"-classifier", "averaged", "-calibrate", "3", "-k", "2"},
	} {
		args = append(args, train, test)
		code, mem, errs := runCmd(append([]string{"eval"}, args...)...)
		if code != 0 {
			t.Fatal(errs)
		}
		code, str, errs := runCmd(append([]string{"eval", "-stream"}, args...)...)
		if code != 0 {
			t.Fatal(errs)
		}
		if a, b := fitTime.ReplaceAllString(mem, "\n"), fitTime.ReplaceAllString(str, "\n"); a != b || !strings.Contains(str, "2400 test rows") {
			t.Errorf("eval %q:\n%s\nwith -stream:\n%s", args, mem, str)
		}
	}
}
