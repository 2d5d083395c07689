// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// constructors are the functions, by file and name, that build the errors of
// the package and of package data: the only places where fmt.Errorf,
// errors.New or an Error literal may build an error, so that every error
// returned has a kind. wrapf wraps an error of the caller's, such as
// ctx.Err() or os.Open's, with the kind that error has.
var constructors = map[string]bool{
	"errors.go:errorAt":      true,
	"errors.go:wrapf":        true,
	"data/errors.go:errorAt": true,
	"data/errors.go:wrapAt":  true,
}

// TestErrorSites checks that every error the package and package data
// build is built by the constructors, which give it a kind: it fails,
// naming the file and line, on a call of fmt.Errorf or errors.New, an Error
// literal, or a type with an Error method, anywhere else; but the kinds
// themselves, package-level variables of errors.go named Err.
func TestErrorSites(t *testing.T) {
	for _, dir := range []string{".", "data"} {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range errorSites(f, filepath.ToSlash(name)) {
				t.Errorf("%s: an error built outside the constructors of errors.go, with no kind", fset.Position(bad))
			}
		}
	}
}

// errorSites returns the places in the file f, at path name, that build
// an error outside the constructors.
func errorSites(f *ast.File, name string) []token.Pos {
	var bad []token.Pos
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && d.Name.Name == "Error" && (name != "errors.go" || recvName(d) != "Error") {
				bad = append(bad, d.Pos())
			}
			if constructors[name+":"+d.Name.Name] {
				continue
			}
			bad = append(bad, builds(d)...)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				v, ok := s.(*ast.ValueSpec)
				if ok && name == "errors.go" && len(v.Names) == 1 && strings.HasPrefix(v.Names[0].Name, "Err") {
					continue
				}
				bad = append(bad, builds(s)...)
			}
		}
	}
	return bad
}

// builds returns the places in n that build an error.
func builds(n ast.Node) []token.Pos {
	var bad []token.Pos
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if s, ok := n.Fun.(*ast.SelectorExpr); ok {
				if x, ok := s.X.(*ast.Ident); ok {
					switch x.Name + "." + s.Sel.Name {
					case "fmt.Errorf", "errors.New", "errors.Join":
						bad = append(bad, n.Pos())
					}
				}
			}
		case *ast.CompositeLit:
			switch t := n.Type.(type) {
			case *ast.Ident:
				if t.Name == "Error" {
					bad = append(bad, n.Pos())
				}
			case *ast.SelectorExpr:
				if t.Sel.Name == "Error" {
					bad = append(bad, n.Pos())
				}
			}
		}
		return true
	})
	return bad
}

// recvName returns the name of the type of the receiver of d.
func recvName(d *ast.FuncDecl) string {
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
