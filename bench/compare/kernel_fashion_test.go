// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func TestKernelTarget(t *testing.T) {
	for _, c := range []struct {
		acc, svcAcc, ours, svc float64
		met                    bool
	}{
		{0.885, 0.88, 10, 50, true},
		{0.9, 0.9, 1, 100, true},
		{math.Nextafter(0.885, 0), 0.88, 10, 50, false},
		{0.89, math.Nextafter(0.89, 1), 10, 50, false},
		{0.885, 0.88, 10, math.Nextafter(50, 0), false},
		{0.5, 0.88, 100, 1, false},
	} {
		line, met := kernelTarget(c.acc, c.svcAcc, c.ours, c.svc)
		if met != c.met || strings.HasSuffix(line, ": met") != c.met || strings.HasPrefix(line, "!!! ") == c.met {
			t.Errorf("accuracy %v, fit %v s against %v s: %q, met %t, want met %t", c.acc, c.ours, c.svc, line, met, c.met)
		}
	}
}

// The script fits SVC with gamma="scale", 1/(d·Var(X)) over every value
// of X, on three clusters far apart, which it classifies without error.
func TestRunSVC(t *testing.T) {
	t.Parallel()
	const d = 3
	var tr, te []float64
	var ytr, yte []float64
	for i := range 30 {
		c := float64(i % 3)
		x := []float64{10 * c, -5 * c, float64(i%5) / 10}
		if i < 24 {
			tr, ytr = append(tr, x...), append(ytr, c)
		} else {
			te, yte = append(te, x...), append(yte, c)
		}
	}
	ds := &dataSet{
		name:  "clusters",
		train: mat.NewDense(len(ytr), d, tr), ytrain: ytr,
		test: mat.NewDense(len(yte), d, te), ytest: yte,
	}
	fit, versions, err := runSVC("/usr/bin/python3", t.TempDir(), ds)
	var missing errMissing
	if errors.As(err, &missing) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if versions["scikit-learn"] == "" {
		t.Errorf("no scikit-learn version in %v", versions)
	}
	if fit.Test != 1 || fit.Seconds <= 0 || fit.Support < 3 || fit.Support > len(ytr) {
		t.Errorf("fit %+v: want test accuracy 1, a positive time and 3 to %d support vectors", fit, len(ytr))
	}
	if want := 1 / (d * stat.PopVariance(tr, nil)); math.Abs(fit.Gamma-want) > 1e-12*want {
		t.Errorf("gamma %v, want 1/(d·Var(X)) = %v", fit.Gamma, want)
	}
}
