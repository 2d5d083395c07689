// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestUnionClasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		names [][]string
		want  []string
	}{
		{[][]string{{"1", "2"}, {"10", "2.0"}, {"-1"}}, []string{"-1", "1", "2", "10"}},
		{[][]string{{"b", "a"}, {"c", "a"}}, []string{"a", "b", "c"}},
		{[][]string{{"2"}, {"10", "a"}}, []string{"10", "2", "a"}},
		{[][]string{{"+1", "-1"}, {"1"}}, []string{"-1", "+1"}},
	} {
		if got := unionClasses(tc.names); !slices.Equal(got, tc.want) {
			t.Errorf("unionClasses(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

func TestCheckClasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		classes []string
		err     string
	}{
		{classes: []string{"-1", "+1"}},
		{classes: []string{"cat", "1", "dog"}},
		{classes: []string{"1", "inf"}},
		{classes: []string{}, err: "no classes"},
		{classes: []string{"a", ""}, err: "a class is empty"},
		{classes: []string{"a", "b", "a"}, err: `the class "a" is named twice`},
		{classes: []string{"1", "1.0"}, err: `the classes "1" and "1.0" are the same number`},
	} {
		err := checkClasses(tc.classes)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("checkClasses(%q): error %v, want %q", tc.classes, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("checkClasses(%q): error %v", tc.classes, err)
		}
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"b-10.svm", "b-02.svm", "a.svm", "b-01.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Glob(context.Background(), filepath.Join(dir, "*.svm"))
	want := []string{filepath.Join(dir, "a.svm"), filepath.Join(dir, "b-02.svm"), filepath.Join(dir, "b-10.svm")}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Glob = %q, %v, want %q", got, err, want)
	}
	pattern := filepath.Join(dir, "*.csv")
	if _, err := Glob(context.Background(), pattern); err == nil || !strings.Contains(err.Error(), "no file matches "+pattern) {
		t.Errorf("Glob of no file: error %v", err)
	}
}
