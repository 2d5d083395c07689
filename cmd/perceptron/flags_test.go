// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every numeric flag of every command that takes it refuses a value out
// of its range with exit status 2 and a line naming the flag, before any
// data is read: the data file named does not exist, which would be exit
// status 1.
func TestFlagValues(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.csv")
	model := filepath.Join(dir, "m.json")
	kernel := []string{"-classifier", "kernel"}
	poly := []string{"-classifier", "kernel", "-kernel", "poly"}
	for _, c := range []struct {
		flag   string
		values []string
		with   []string // other flags that the flag needs
		split  bool     // a flag of eval and demo alone
		text   bool     // a flag of train and eval alone
	}{
		{"epochs", []string{"-1"}, nil, false, false},
		{"rate", []string{"-1", "NaN", "Inf", "-Inf"}, nil, false, false},
		{"tol", []string{"0", "-1", "NaN", "Inf"}, nil, false, false},
		{"no-change", []string{"0", "-1"}, nil, false, false},
		{"validation", []string{"-0.1", "1", "NaN", "Inf"}, nil, false, false},
		{"degree", []string{"-1"}, poly, false, false},
		{"gamma", []string{"-1", "NaN", "Inf"}, kernel, false, false},
		{"coef0", []string{"Inf", "-Inf", "NaN"}, poly, false, false},
		{"budget", []string{"-1"}, kernel, false, false},
		{"split", []string{"0", "1", "-0.5", "NaN", "Inf"}, nil, true, false},
		{"ngrams", []string{"0", "-1"}, nil, false, true},
		{"bits", []string{"0", "-1", "31"}, nil, false, true},
	} {
		for _, cmd := range []string{"train", "eval", "demo"} {
			if c.split && cmd == "train" || c.text && cmd == "demo" {
				continue
			}
			for _, v := range c.values {
				args := []string{cmd}
				if cmd == "demo" {
					// The demo runs every classifier.
					args = append(args, slices.DeleteFunc(slices.Clone(c.with), func(s string) bool { return s == "-classifier" || s == "kernel" })...)
				} else {
					args = append(args, c.with...)
				}
				args = append(args, "-"+c.flag, v)
				switch cmd {
				case "train":
					args = append(args, "-o", model, missing)
				case "eval":
					args = append(args, missing)
				}
				code, out, errs := runCmd(args...)
				if code != 2 || out != "" || !strings.HasPrefix(errs, "perceptron: -"+c.flag+" ") || strings.Count(errs, "\n") != 1 {
					t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and a line on -%s", args, code, out, errs, c.flag)
				}
			}
		}
	}
	// The flags whose values parse as no number are refused by the parser.
	for _, args := range [][]string{
		{"train", "-seed", "-1", "-o", model, missing},
		{"eval", "-split-seed", "x", missing},
		{"demo", "-no-change", "1.5"},
		{"train", "-init-weights", "1,NaN", "-o", model, missing},
	} {
		if code, out, errs := runCmd(args...); code != 2 || out != "" || !strings.Contains(errs, "invalid value") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2", args, code, out, errs)
		}
	}
}
