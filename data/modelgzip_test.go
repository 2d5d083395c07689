// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// TestLoadModelGzipDamaged checks that LoadModel refuses a gzipped model
// file cut short at any byte, or with any byte changed, with an error of
// kind perceptron.ErrFormat that names the path, unless the change is in
// a part of gzip's head that holds no text, when it loads the model.
func TestLoadModelGzipDamaged(t *testing.T) {
	dir := t.TempDir()
	set := &data.Set{
		X:       mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0.5}),
		Y:       []float64{0, 1, 1, 0},
		Classes: []string{"no", "yes"},
	}
	m := &data.Model{Classifier: &perceptron.Averaged{Epochs: 3}}
	if err := m.Fit(set); err != nil {
		t.Fatal(err)
	}
	want, err := m.Predict(set.X)
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.json.gz")
	if err := m.Save(good); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "m.json.gz")
	load := func(b []byte) (*data.Model, error) {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return data.LoadModel(path)
	}
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, perceptron.ErrFormat) || !strings.HasPrefix(err.Error(), path+": ") {
			t.Errorf("%s: %v, want an error of kind ErrFormat that names the file", what, err)
		}
	}
	for n := 2; n < len(b); n++ {
		_, err := load(b[:n])
		refused(fmt.Sprintf("cut to %d of %d bytes", n, len(b)), err)
	}
	// The head's flags, modification time, extra flags and system: 3 to 9.
	for i := range b {
		c := slices.Clone(b)
		c[i] ^= 0x55
		l, err := load(c)
		if 3 < i && i < 10 && err == nil {
			if got, err := l.Predict(set.X); err != nil || !slices.Equal(got, want) {
				t.Errorf("byte %d changed: the model predicts %v, %v, want %v", i, got, err, want)
			}
			continue
		}
		refused(fmt.Sprintf("byte %d of %d changed", i, len(b)), err)
	}
}
