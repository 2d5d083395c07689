// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLayers checks the layers that job.go describes: the files that name
// the type job, or make one, are the commands' and the job's, each of
// them does, and no other file does.
func TestLayers(t *testing.T) {
	layers := []string{
		"demo.go", "eval.go", "predict.go", "train.go", // the commands
		"flags.go", "job.go", "evaluate.go", "folds.go", "learn.go", "trainstream.go", // the job
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var know []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		named := false
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && (id.Name == "job" || id.Name == "newJob") {
				named = true
			}
			return !named
		})
		if named {
			know = append(know, name)
		}
	}
	slices.Sort(know)
	slices.Sort(layers)
	if !slices.Equal(know, layers) {
		t.Errorf("the files that name the job: %v, want those of job.go's layers, %v", know, layers)
	}
}
