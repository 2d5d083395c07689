// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// A model file of 2 GiB of zero bytes, gzipped into 2 MB, is refused at
// once.
func TestModelBomb(t *testing.T) {
	dir := t.TempDir()
	path := gzipFile(t, filepath.Join(dir, "bomb.json.gz"), nil, make([]byte, 1<<20), 2048, nil)
	file := writeFile(t, dir, "d.csv", []byte("1,2,1\n"))
	start := time.Now()
	if code, _, errs := runCmd("predict", "-model", path, file); code != 1 || !strings.Contains(errs, "bomb.json.gz: not a model") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the refusal took %v", d)
	}
}

// A Go program that loads a model that train saved, with data.LoadModel,
// predicts the rows of a file, read by package data, as predict does: the
// same classes, and the same scores to the bit, dense and sparse, gzipped
// or not, with each step before the classifier.
func TestGoPredictsAsCommand(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(9, 9))
	X, y := randomData(rnd, 120, 4)
	for i := range 120 {
		for j := range 4 {
			X.Set(i, j, 30+7*X.At(i, j)) // far from standardised
		}
	}
	labels := make([]string, len(y))
	for i := range y {
		labels[i] = []string{"low", "mid", "high"}[(i+int(y[i]+1))%3]
	}
	csvFile := writeFile(t, dir, "d.csv", csvNamed(X, labels, 0, true))
	svmFile := writeFile(t, dir, "d.svm", libsvmOf(X, signs(y)))
	for _, c := range []struct {
		file  string
		read  func() (*data.Set, error)
		flags []string // of reading
		train []string // of training
	}{
		{csvFile, func() (*data.Set, error) {
			return data.CSV{Header: true, Label: "none"}.Read(bytes.NewReader(stripColumn(t, csvFile)))
		}, []string{"-header", "-label", "first"}, nil},
		{svmFile, func() (*data.Set, error) { return data.LIBSVM{Cols: 4}.Read(mustOpen(t, svmFile)) }, nil, nil},
		{svmFile, func() (*data.Set, error) { return data.LIBSVM{Cols: 4}.Read(mustOpen(t, svmFile)) }, nil, []string{"-standardize"}},
	} {
		for _, classifier := range []string{"averaged", "voted", "kernel"} {
			for _, name := range []string{"m.json", "m.json.gz"} {
				model := filepath.Join(dir, name)
				args := append(append([]string{"train", "-classifier", classifier, "-epochs", "3", "-o", model}, c.flags...), c.train...)
				if code, _, errs := runCmd(append(args, c.file)...); code != 0 {
					t.Fatalf("%q: exit %d: %s", args, code, errs)
				}
				pargs := append([]string{"predict", "-score", "-model", model}, c.flags...)
				code, out, errs := runCmd(append(pargs, c.file)...)
				if code != 0 {
					t.Fatalf("%q: exit %d: %s", pargs, code, errs)
				}
				m, err := data.LoadModel(model)
				if err != nil {
					t.Fatal(err)
				}
				set, err := c.read()
				if err != nil {
					t.Fatal(err)
				}
				pred, err := m.Predict(set.X)
				if err != nil {
					t.Fatal(err)
				}
				scores, err := m.Score(set.X)
				if err != nil {
					t.Fatal(err)
				}
				names := m.Classes
				if m.Names != nil {
					names = m.Names
				}
				S := len(scores) / len(pred)
				var b strings.Builder
				for i, k := range pred {
					b.WriteString(names[int(k)])
					for _, v := range scores[i*S : (i+1)*S] {
						b.WriteString("\t" + strconv.FormatFloat(v, 'g', -1, 64))
					}
					b.WriteByte('\n')
				}
				_, lines, _ := strings.Cut(out, "\n") // after the header
				if lines != b.String() {
					t.Errorf("%s %s %q: the command predicts\n%s\nand Go\n%s", c.file, classifier, c.flags, lines, b.String())
				}
			}
		}
	}
}

// stripColumn returns the CSV file at path without its first column.
func stripColumn(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for line := range strings.Lines(string(b)) {
		_, rest, _ := strings.Cut(line, ",")
		out.WriteString(rest)
	}
	return out.Bytes()
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// The library refuses a model file of the command, whose member
// classifier is the library's JSON; that alone is a model file too, whose
// rows the command takes as they are.
func TestLibraryJSONInModel(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(4, 4)), 30, 2)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-classifier", "averaged", "-o", model, file); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(model)
	if _, err := perceptron.Unmarshal(b); !errors.Is(err, perceptron.ErrFormat) {
		t.Fatalf("the library loads a command file: %v", err)
	}
	var obj map[string]json.RawMessage
	json.Unmarshal(b, &obj)
	m, err := perceptron.Unmarshal(obj["classifier"])
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(*perceptron.Averaged); !ok {
		t.Errorf("loaded a %T", m)
	}
	bare := writeFile(t, dir, "bare.json", obj["classifier"])
	code, out, errs := runCmd("eval", "-model", bare, file)
	if code != 0 || !strings.Contains(out, "an averaged model of 2 features, which takes the rows as they are") {
		t.Errorf("eval of the bare model: exit %d: %s%s", code, out, errs)
	}
}
