// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A model file of 2 GiB of zero bytes, gzipped into 2 MB, is refused at
// once: the command reads a few kilobytes of it.
func TestModelBomb(t *testing.T) {
	dir := t.TempDir()
	path := gzipFile(t, filepath.Join(dir, "bomb.json.gz"), nil, make([]byte, 1<<20), 2048, nil)
	fi, _ := os.Stat(path)
	if fi.Size() > 4<<20 {
		t.Fatalf("the bomb is %d bytes", fi.Size())
	}
	in, _ := os.Open(path)
	defer in.Close()
	c := &countingReader{r: in}
	_, err := readModel(c)
	if err == nil || !strings.Contains(err.Error(), "not a model") || c.n > 64<<10 {
		t.Errorf("read %d bytes of the file: %v", c.n, err)
	}
	data := writeFile(t, dir, "d.csv", []byte("1,2,1\n"))
	start := time.Now()
	if code, _, errs := runCmd("predict", "-model", path, data); code != 1 || !strings.Contains(errs, "not a model") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the refusal took %v", d)
	}
}

// A model whose text is longer than the memory left holds, white space
// that JSON allows, is refused once that much is read; with the memory,
// the same text is not a model, but not too long.
func TestModelText(t *testing.T) {
	text := "{" + strings.Repeat(" ", 16<<20) + "}"
	if _, err := readModel(strings.NewReader(text)); err == nil || strings.Contains(err.Error(), "memory") {
		t.Errorf("with the memory: %v", err)
	}
	withRoom(t, 4<<20)
	c := &countingReader{r: strings.NewReader(text)}
	_, err := readModel(c)
	var e *memory.Error
	if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "reading the model's text of more than") || c.n > 8<<20 {
		t.Errorf("read %d bytes: %v", c.n, err)
	}
}

// trainedModels returns the model files of every classifier trained on
// two and on three classes, as train saves them.
func trainedModels(t testing.TB) [][]byte {
	dir := t.TempDir()
	var files [][]byte
	for _, file := range []string{"1,2,a\n-1,-2,b\n2,1,a\n-2,0,b\n0,3,a\n", "1,2,x\n-1,-2,y\n2,1,z\n-2,0,x\n0,3,y\n3,3,z\n"} {
		p := filepath.Join(dir, "d.csv")
		os.WriteFile(p, []byte(file), 0o644)
		for _, c := range classifiers {
			m := filepath.Join(dir, "m.json")
			if code := run([]string{"train", "-classifier", c.name, "-epochs", "5", "-o", m, p}, io.Discard, io.Discard); code != 0 {
				t.Fatalf("train %s: exit %d", c.name, code)
			}
			b, _ := os.ReadFile(m)
			files = append(files, b)
		}
	}
	return files
}

// A model file that loads saves to one that loads to the same bytes: the
// old failing input of FuzzDecodeModel, a class label " a", which no
// reader gives, is refused, and labels and names with spaces inside load
// and save as they were.
func TestModelResaves(t *testing.T) {
	base := trainedModels(t)[0]
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{`"classes":["a","b"]`, `"classes":[" a","b"]`, false},
		{`"classes":["a","b"]`, `"classes":["a\tb","b"]`, false},
		{`"classes":["a","b"]`, `"classes":["a","a"]`, false},
		{`"classes":["a","b"]`, `"classes":["1","1.0"]`, false},
		{`"classes":["a","b"]`, `"classes":["a b","b"],"names":["first one","b"]`, true},
	} {
		b := bytes.Replace(base, []byte(c.from), []byte(c.to), 1)
		if bytes.Equal(b, base) {
			t.Fatalf("no %s in %s", c.from, base)
		}
		s, err := readModel(bytes.NewReader(b))
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.to, err)
			continue
		}
		if err != nil {
			if !strings.Contains(err.Error(), "class label") {
				t.Errorf("%s: %v", c.to, err)
			}
			continue
		}
		out, err := s.encode()
		if err != nil {
			t.Fatal(err)
		}
		s2, err := readModel(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("saved %s, which does not load: %v", out, err)
		}
		again, _ := s2.encode()
		if !bytes.Equal(again, out) || s2.classes.names[0] != "first one" || s2.classes.labels[0] != "a b" {
			t.Errorf("saved %s, then %s", out, again)
		}
	}
}

// FuzzDecodeModel checks that a model file that loads takes rows of its
// features and saves to a file that loads to the same bytes.
func FuzzDecodeModel(f *testing.F) {
	for _, b := range trainedModels(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := readModel(bytes.NewReader(b))
		if err != nil {
			return
		}
		ds := &dataset{name: "zero", Set: &data.Set{X: mat.NewDense(1, s.features, nil)}}
		if _, err := applyModel(s, ds); err == nil {
			classify(s.m, ds, nil, "", true)
		}
		out, err := s.encode()
		if err != nil {
			t.Fatalf("loaded %s, cannot save it: %v", b, err)
		}
		s2, err := readModel(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("saved %s, cannot load it: %v", out, err)
		}
		again, err := s2.encode()
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("saved %s, then %s (%v)", out, again, err)
		}
	})
}

// The library refuses a model file of the command, saying how to load it,
// and loads what is left without "command".
func TestLibraryRefusesCommandFile(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(4, 4)), 30, 2)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-classifier", "averaged", "-o", model, file); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(model)
	_, err := perceptron.Unmarshal(b)
	if !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), `unknown field "command"`) {
		t.Fatalf("the library loads a command file: %v", err)
	}
	var obj map[string]json.RawMessage
	json.Unmarshal(b, &obj)
	delete(obj, "command")
	lib, _ := json.Marshal(obj)
	m, err := perceptron.Unmarshal(lib)
	if err != nil {
		t.Fatal(err)
	}
	// The library's model alone is a model file of the command too, whose
	// rows it takes unscaled.
	bare := writeFile(t, dir, "bare.json", lib)
	code, out, errs := runCmd("eval", "-model", bare, file)
	if code != 0 || !strings.Contains(out, "the library's JSON alone: the rows are taken as they are, not standardised") {
		t.Errorf("eval of the bare model: exit %d: %s%s", code, out, errs)
	}
	if _, ok := m.(*perceptron.Averaged); !ok {
		t.Errorf("loaded a %T", m)
	}
}
