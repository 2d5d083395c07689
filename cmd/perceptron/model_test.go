// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// train writes the binary form of a model file unless the name ends in
// .json or .json.gz, gzipped if it ends in .gz, and predict reads any of
// them to the same classes and scores.
func TestModelForms(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(42, 42)), 40, 3)
	svm := writeFile(t, dir, "d.svm", libsvmOf(X, signs(y)))
	var want string
	for _, c := range []struct {
		name, magic string
		gz          bool
	}{{"m", "PCPM", false}, {"m.model.gz", "PCPM", true}, {"m.json", "{", false}, {"m.JSON.gz", "{", true}, {"m.bin", "PCPM", false}} {
		model := filepath.Join(dir, c.name)
		if code, _, errs := runCmd("train", "-epochs", "3", "-o", model, svm); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errs)
		}
		b, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		if gz := bytes.HasPrefix(b, []byte{0x1f, 0x8b}); gz != c.gz {
			t.Errorf("%s: gzipped %v", c.name, gz)
		}
		if zr, err := gzip.NewReader(bytes.NewReader(b)); err == nil {
			b, _ = io.ReadAll(zr)
		}
		if !bytes.HasPrefix(b, []byte(c.magic)) {
			t.Errorf("%s: a file that starts with %q, want %q", c.name, b[:min(len(b), 4)], c.magic)
		}
		code, out, errs := runCmd("predict", "-score", "-model", model, svm)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errs)
		}
		if want == "" {
			want = out
		} else if out != want {
			t.Errorf("%s: predict writes\n%s\nwant\n%s", c.name, out, want)
		}
	}
}

// A model of text given rows of features, and a model of features given
// lines of text or IDX images of another width, are refused with exit
// status 1 and what the model takes, from the head of the model file
// before its classifier is read: a model file cut after its head is
// refused so too.
func TestModelRefusesRows(t *testing.T) {
	dir := t.TempDir()
	texts := []string{"red apples and pears", "green pears", "blue sky and sea", "grey sea"}
	ft, _ := fastText(texts, []string{"fruit", "fruit", "sky", "sky"})
	text := writeFile(t, dir, "t.txt", ft)
	X, y := randomData(rand.New(rand.NewPCG(43, 43)), 20, 4)
	svm := writeFile(t, dir, "d.svm", libsvmOf(X, signs(y)))
	images := writeFile(t, dir, "images", idxFile(0x08, []int{2, 3, 3}, make([]byte, 18)))
	labels := writeFile(t, dir, "labels", idxFile(0x08, []int{2}, []byte{0, 1}))
	textModel, svmModel := filepath.Join(dir, "t.model"), filepath.Join(dir, "s.model")
	for _, args := range [][]string{{"-bits", "8", "-o", textModel, text}, {"-o", svmModel, svm}} {
		if code, _, errs := runCmd(append([]string{"train", "-epochs", "2"}, args...)...); code != 0 {
			t.Fatal(errs)
		}
	}
	// The models cut after their heads.
	cut := func(path string) string {
		b, _ := os.ReadFile(path)
		return writeFile(t, dir, filepath.Base(path)+".cut", b[:16+binary.LittleEndian.Uint64(b[8:])])
	}
	for _, model := range []string{textModel, cut(textModel)} {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"predict", "-model", model, svm}, "d.svm is LIBSVM, and the model " + model + " was trained on text: it takes lines of text, whose n-grams it hashes into 2^8 features"},
			{[]string{"eval", "-model", model, images + "," + labels}, "images is IDX, and the model " + model + " was trained on text"},
			{[]string{"train", "-model", model, "-o", filepath.Join(dir, "x.model"), svm}, "d.svm is LIBSVM"},
		} {
			if code, out, errs := runCmd(c.args...); code != 1 || out != "" || !strings.Contains(errs, c.want) {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, errs, c.want)
			}
		}
	}
	for _, model := range []string{svmModel, cut(svmModel)} {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"predict", "-model", model, text}, "t.txt: lines of text, and the model was not trained on text: it takes rows of 4 features"},
			{[]string{"eval", "-model", model, images + "," + labels}, "images: IDX rows of 9 features, and the model " + model + " takes 4 features"},
		} {
			if code, out, errs := runCmd(c.args...); code != 1 || out != "" || !strings.Contains(errs, c.want) {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, errs, c.want)
			}
		}
	}
	// The whole model file is read once the rows fit: a cut file is then
	// refused for what it is.
	if code, _, errs := runCmd("predict", "-model", cut(svmModel), svm); code != 1 || !strings.Contains(errs, "not a model") {
		t.Errorf("a cut model: exit %d, %s", code, errs)
	}
	// -format text reads a file of LIBSVM's look as text.
	if code, _, errs := runCmd("predict", "-format", "text", "-model", textModel, svm); code != 0 {
		t.Errorf("-format text: exit %d, %s", code, errs)
	}
}
