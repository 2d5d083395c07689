// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// idxFile returns an IDX file of element type typ with dimensions dims.
func idxFile(typ byte, dims []int, data []byte) []byte {
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, uint32(d))
	}
	return append(b, data...)
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// Every bad input ends the command with one line on stderr that names the
// file, the line where there is one, and what is wrong, with exit code 1
// for bad data and 2 for a bad command line, and writes nothing: a model
// file already there is left as it was.
func TestBadInput(t *testing.T) {
	good := []byte("1,2,1\n-1,-2,-1\n")
	im := idxFile(0x08, []int{3, 2, 2}, make([]byte, 12))
	for _, c := range []struct {
		file    string
		content []byte
		flags   []string
		code    int
		want    string
	}{
		// CSV.
		{"f.csv", []byte("1,2,1\n3,4\n"), nil, 1, "f.csv:2: 2 fields, want 3 as on line 1"},
		{"f.csv", []byte("1,2,1\n3,abc,1\n"), nil, 1, `f.csv:2: field 2: "abc" is not a number`},
		{"f.csv", []byte("1,2,1\n\n\n3,x,1\n"), nil, 1, `f.csv:4: field 2: "x" is not a number`},
		{"f.csv", []byte("1,2,yes\n3,4,maybe\n"), []string{"-pos", "yes", "-neg", "no"}, 1, `f.csv: no row has the label "no" (-neg), and 1 row of other labels are left out`},
		{"f.csv", []byte("1,2,a\n3,4,b\n"), []string{"-pos", "x", "-neg", "y"}, 1, `f.csv: no row has the label "x" (-pos) or "y" (-neg), and 2 rows of other labels are left out`},
		{"f.csv", []byte("1,2,1\n3,4,1.0\n"), nil, 1, `f.csv: every row has the label "1": want two classes or more`},
		{"f.csv", []byte("1,2,yes\n3,4, \n"), nil, 1, `f.csv:2: field 3: empty label, want that of a class`},
		{"f.csv", []byte("yes,1,2\n,3,4\n"), []string{"-label", "first"}, 1, `f.csv:2: field 1: empty label, want that of a class`},
		{"f.csv", []byte(""), nil, 1, "f.csv: empty file"},
		{"f.csv", []byte("\n\n"), nil, 1, "f.csv: empty file"},
		{"f.csv", []byte("a,b,c\n"), []string{"-header"}, 1, "f.csv: no rows after the header"},
		{"f.csv", []byte("569,30,malignant,benign\n1,2,1\n"), []string{"-header"}, 1, "f.csv:1: the header has 4 fields, want 3 as the rows have from line 2"},
		{"f.csv", []byte("a,b\n\n1,2,1\n"), []string{"-header", "-label", "b"}, 1, "f.csv:1: the header has 2 fields, want 3 as the rows have from line 3"},
		{"f.csv", []byte("x,y,class\n1,2,1\n"), nil, 1, `f.csv:1: field 1: "x" is not a number (if line 1 is a header, use -header)`},
		{"f.csv", []byte("1,NaN,1\n"), nil, 1, `f.csv:1: field 2: "NaN" is not a finite number`},
		{"f.csv", []byte("1,1e999,1\n"), nil, 1, `f.csv:1: field 2: "1e999" is not a finite number`},
		{"f.csv", []byte("1,,1\n"), nil, 1, "f.csv:1: field 2: empty, want a number"},
		{"f.csv", []byte("1,2,1\n1,\"2,1\n"), nil, 1, "f.csv:2: "},
		{"f.csv", []byte("1\n-1\n"), nil, 1, "f.csv:1: no feature columns"},
		{"f.csv", good, []string{"-label", "4"}, 2, "f.csv:1: -label 4: the rows have 3 fields"},
		{"f.csv", good, []string{"-label", "class"}, 2, `f.csv:1: -label "class": no header names the columns`},
		{"f.csv", []byte("a,b,c\n1,2,1\n"), []string{"-header", "-label", "d"}, 2, `f.csv:2: -label "d": no such column in the header`},
		// LIBSVM.
		{"f.svm", []byte("+1 1:2 3:4\n-1 2:x\n"), nil, 1, `f.svm:2: "2:x": "x" is not a number`},
		{"f.svm", []byte("+1 3:1 2:1\n"), nil, 1, `f.svm:1: "2:1": index 2 after 3, want increasing indices`},
		{"f.svm", []byte("+1 1:1 1:2\n"), nil, 1, `f.svm:1: "1:2": index 1 appears twice`},
		{"f.svm", []byte("+1 0:1\n"), nil, 1, `f.svm:1: "0:1": index 0, want indices from 1`},
		{"f.svm", []byte("+1 1:1\n-1 -2:1\n"), nil, 1, `f.svm:2: "-2:1": index -2, want indices from 1`},
		{"f.svm", []byte("+1 a:1\n"), nil, 1, `f.svm:1: "a:1": index "a" is not a whole number`},
		{"f.svm", []byte("+1 :1\n"), nil, 1, `f.svm:1: ":1": index "" is not a whole number`},
		{"f.svm", []byte("+1 99999999999999999999:1\n"), nil, 1, `f.svm:1: "99999999999999999999:1": index 99999999999999999999 is too large`},
		{"f.svm", []byte("+1 -99999999999999999999:1\n"), nil, 1, `f.svm:1: "-99999999999999999999:1": index -99999999999999999999, want indices from 1`},
		{"f.svm", []byte("+1 100000000:1\n"), nil, 1, `f.svm:1: "100000000:1": index 100000000 is too large: the command takes at most 67108864 features`},
		{"f.svm", []byte("+1 1\n"), nil, 1, `f.svm:1: "1" is not index:value`},
		{"f.svm", []byte("+1 2:1\n-1 1:nan\n"), nil, 1, `f.svm:2: "1:nan": "nan" is not a finite number`},
		{"f.svm", []byte("+1 2:1 3:\n"), nil, 1, `f.svm:1: "3:": empty, want a number`},
		{"f.svm", []byte("2 1:1\n2.0 2:1\n"), nil, 1, `f.svm: every row has the label "2": want two classes or more`},
		{"f.svm", []byte("+1 1:1\nx 1:1\n"), nil, 1, `f.svm:2: label "x" is not a number`},
		{"f.svm", []byte("+1 1:1\n1:1 2:1\n"), nil, 1, `f.svm:2: no label: the line starts with "1:1"`},
		{"f.svm", []byte("+1 qid:2 1:1\n-1 1:1 qid:2\n"), nil, 1, `f.svm:2: "qid:2": a qid comes right after the label`},
		{"f.svm", []byte("+1 qid:x 1:1\n"), nil, 1, `f.svm:1: "qid:x": qid "x" is not a whole number`},
		{"f.svm", []byte("0 1:1\n1 1:2\n2 2:1\n"), []string{"-pos", "2", "-neg", "7"}, 1, `f.svm: no row has the label "7" (-neg), and 2 rows of other labels are left out`},
		{"f.svm", []byte("0 1:1\n1 1:2\n"), []string{"-pos", "2", "-neg", "7"}, 1, `f.svm: no row has the label "2" (-pos) or "7" (-neg), and 2 rows of other labels are left out`},
		{"f.svm", []byte("0 1:1\nx 1:2\n"), []string{"-pos", "2", "-neg", "0"}, 1, `f.svm:2: label "x" is not a number`},
		{"f.svm", []byte("0 1:1\nnan 1:2\n"), []string{"-pos", "2", "-neg", "0"}, 1, `f.svm:2: label "nan" is not a number`},
		{"f.svm", []byte("0 1:1\n1e999 1:2\n"), nil, 1, `f.svm:2: label "1e999" is not a number`},
		{"f.svm.gz", gzipped([]byte("+1 1:1\n-1 2:1\n"))[:20], nil, 1, "f.svm.gz:…: unexpected EOF"},
		{"f.svm.gz", []byte("\x1f\x8bnot gzip"), nil, 1, "f.svm.gz: gzip: invalid header"},
		{"f.svm", []byte("# a comment\n\n"), nil, 1, "f.svm: empty file"},
		{"f.svm", []byte("+1 1:1 # comment\n\n-1 2:inf\n"), nil, 1, `f.svm:3: "2:inf": "inf" is not a finite number`},
		{"f.svm", []byte("+1\n-1\n"), nil, 1, "f.svm: no features on any line"},
		{"f.svm", []byte("+1 1:1\r\n-1 2:1 x\r\n"), nil, 1, `f.svm:2: "x" is not index:value`},
		// IDX.
		{"c-images-idx3-ubyte", []byte("not an idx file"), []string{"-pos", "0", "-neg", "1"}, 1, "c-images-idx3-ubyte: …bad magic number"},
		{"c-images-idx3-ubyte", im[:20], []string{"-pos", "0", "-neg", "1"}, 1, "c-images-idx3-ubyte: …4 bytes of data, want 12"},
		{"c-images-idx3-ubyte", gzipped(im)[:15], []string{"-pos", "0", "-neg", "1"}, 1, "c-images-idx3-ubyte: …unexpected EOF"},
		{"a-images-idx3-ubyte", im, []string{"-pos", "0", "-neg", "1"}, 2, "a-labels-idx1-ubyte: no such file"},
		{"b-images-idx3-ubyte", im, []string{"-pos", "0", "-neg", "1"}, 1, "b-images-idx3-ubyte, b-labels-idx1-ubyte: …images [3 2 2] do not match labels [2]"},
		{"c-images-idx3-ubyte", im, []string{"-pos", "5", "-neg", "6"}, 1, "c-labels-idx1-ubyte: no image of class 5 (-pos) or class 6 (-neg); the classes present are 0 and 1"},
		{"c-images-idx3-ubyte", im, []string{"-pos", "0", "-neg", "11"}, 1, "c-labels-idx1-ubyte: no image of class 11 (-neg); the classes present are 0 and 1"},
		{"d-images-idx3-ubyte", im, []string{"-pos", "1", "-neg", "300"}, 1, "d-labels-idx1-ubyte: no image of class 300 (-neg); the classes present are 1 to 3"},
		{"c-images-idx3-ubyte", idxFile(0x08, []int{0, 2}, nil), []string{"-pos", "0", "-neg", "1"}, 1, "c-images-idx3-ubyte: no pixels in images of dimensions [0 2]"},
		{"c-images-idx3-ubyte", im, []string{"-pos", "T-shirt", "-neg", "6"}, 2, `IDX labels are class numbers: -pos "T-shirt" and -neg "6"`},
		{"b-images-idx3-ubyte", im, nil, 1, "b-images-idx3-ubyte, b-labels-idx1-ubyte: images [3 2 2] do not match labels [2]"},
		{"e-images-idx3-ubyte", im, nil, 1, `e-labels-idx1-ubyte: every row has the label "2": want two classes or more`},
		{"images.idx", im, []string{"-format", "idx", "-pos", "0", "-neg", "1"}, 2, "images.idx: name the IDX labels file too, as IMAGES,LABELS"},
		// The command line.
		{"f.csv", good, []string{"-epochs", "x"}, 2, `train: invalid value "x" for flag -epochs`},
		{"f.csv", good, []string{"-frobnicate"}, 2, "train: flag provided but not defined: -frobnicate"},
		{"f.csv", good, []string{"-epochs", "-3"}, 2, "training perceptron: Epochs is -3, want >= 0"},
		{"f.csv", good, []string{"-rate", "NaN"}, 2, "training perceptron: Rate is NaN"},
		{"f.csv", good, []string{"-init-weights", "1,x"}, 2, `invalid value "1,x" for flag -init-weights`},
		{"f.csv", good, []string{"-init-weights", "1,2,3"}, 2, "training perceptron: InitWeights has length 3, want 2"},
		// The library's biases start at zero: there is no -init-bias.
		{"f.csv", good, []string{"-init-bias", "1"}, 2, "train: flag provided but not defined: -init-bias"},
		{"f.csv", good, []string{"-classifier", "forest"}, 2, `-classifier "forest": want one of perceptron`},
		{"f.csv", good, []string{"-pos", "1"}, 2, "-pos and -neg go together"},
		{"f.csv", good, []string{"-pos", "1", "-neg", "1.0"}, 2, `-pos "1" and -neg "1.0" are the same label`},
		{"f.csv", good, []string{"-label", "none"}, 2, "-label none: training needs the labels"},
		{"f.csv", good, []string{"-format", "xml"}, 2, `-format "xml": want csv, libsvm or idx`},
		{"f.txt", good, nil, 2, "cannot tell the format of"},
		{"f.csv", good, []string{"-plot", "p.gif"}, 2, "-plot p.gif: want a file name ending in .svg, .png or .pdf (or .eps"},
		{"f.csv", good, []string{"-plot", "nodir/p.svg"}, 2, "-plot nodir/p.svg: directory nodir: no such file or directory"},
		{"f.csv", good, []string{"-o", "f.csv"}, 2, "-o f.csv is the input file f.csv"},
		{"f.csv", good, []string{"-plot", "f.svg", "-o", "f.svg"}, 2, "-o f.svg and -plot f.svg are the same file"},
	} {
		t.Run(c.want, func(t *testing.T) {
			dir := t.TempDir()
			cwd, _ := os.Getwd()
			if err := os.Chdir(dir); err != nil {
				t.Fatal(err)
			}
			defer os.Chdir(cwd)
			writeFile(t, dir, c.file, c.content)
			if strings.HasPrefix(c.file, "b-") {
				writeFile(t, dir, "b-labels-idx1-ubyte", idxFile(0x08, []int{2}, []byte{0, 1}))
			}
			if strings.HasPrefix(c.file, "d-") {
				writeFile(t, dir, "d-labels-idx1-ubyte", idxFile(0x08, []int{3}, []byte{3, 1, 2}))
			}
			if strings.HasPrefix(c.file, "e-") {
				writeFile(t, dir, "e-labels-idx1-ubyte", idxFile(0x08, []int{3}, []byte{2, 2, 2}))
			}
			if strings.HasPrefix(c.file, "c-") {
				writeFile(t, dir, "c-labels-idx1-ubyte", idxFile(0x08, []int{3}, []byte{0, 1, 0}))
			}
			writeFile(t, dir, "m.json", []byte("old"))
			before := listDir(t, dir)
			code, out, errs := runCmd(append(append([]string{"train", "-o", "m.json"}, c.flags...), c.file)...)
			if code != c.code || out != "" || !strings.HasPrefix(errs, "perceptron: ") || !containsInOrder(errs, c.want) || strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, one line with %q", code, out, errs, c.code, c.want)
			}
			if strings.Contains(errs, ": idx: ") || strings.Contains(errs, ": fashion: ") {
				t.Errorf("stderr %q names a package", errs)
			}
			if after := listDir(t, dir); !slices.Equal(after, before) {
				t.Errorf("files %v after, %v before", after, before)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "m.json")); string(b) != "old" {
				t.Errorf("the model file was changed to %q", b)
			}
		})
	}
}

// containsInOrder reports whether s holds the parts of want, split at …,
// in order: the words of the IDX reader's errors are not the command's.
func containsInOrder(s, want string) bool {
	for part := range strings.SplitSeq(want, "…") {
		i := strings.Index(s, part)
		if i < 0 {
			return false
		}
		s = s[i+len(part):]
	}
	return true
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// Usage errors of each command exit with code 2 and one line.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", []byte("1,2,1\n-1,-2,-1\n2,1,1\n-2,0,-1\n1,1,1\n-1,0,-1\n2,2,1\n-2,-1,-1\n"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"frob"}, `unknown command "frob"`},
		{[]string{"-frob"}, "demo: flag provided but not defined: -frob"},
		{[]string{"demo", "x.csv"}, `demo: takes no file, got "x.csv"`},
		{[]string{"demo", "-split", "1"}, "-split 1: want a fraction between 0 and 1"},
		{[]string{"train", data}, "train: -o FILE is required"},
		{[]string{"train"}, "train: want one data file, got 0"},
		{[]string{"train", "-o", "m.json", data, data}, "train: want one data file, got 2"},
		{[]string{"train", "-o", "m.json", filepath.Join(dir, "missing.csv")}, "missing.csv: no such file or directory"},
		{[]string{"predict", data}, "predict: -model FILE is required"},
		{[]string{"predict", "-model", filepath.Join(dir, "missing.json"), data}, "missing.json: no such file or directory"},
		{[]string{"predict", "-model", "m.json"}, "predict: want one data file, got 0"},
		{[]string{"predict", "-pos", "1", "-model", "m.json", data}, "predict: flag provided but not defined: -pos"},
		{[]string{"eval"}, "eval: want a training file and an optional test file, got 0 files"},
		{[]string{"eval", "-classifier", "forest", data}, `-classifier "forest": want all or one of perceptron`},
		{[]string{"eval", "-split", "0", data}, "-split 0: want a fraction between 0 and 1"},
		{[]string{"eval", data, filepath.Join(dir, "missing.csv")}, "missing.csv: no such file or directory"},
		{[]string{"eval", "-kernel", "sigmoid", data}, `eval: invalid value "sigmoid" for flag -kernel: "sigmoid" is not linear, poly or rbf`},
		{[]string{"eval", "-prediction", "median", data}, `eval: invalid value "median" for flag -prediction: "median" is not last, voted or averaged`},
		{[]string{"train", "-classifier", "kernel", "-o", "m.json", "-gamma", "0.5", data}, "-gamma: only -kernel poly and rbf have gamma"},
		{[]string{"train", "-classifier", "kernel", "-o", "m.json", "-kernel", "rbf", "-degree", "2", data}, "-degree: only -kernel poly has a degree"},
		{[]string{"train", "-o", "m.json", "-kernel", "rbf", data}, "-kernel: only -classifier kernel takes this flag"},
		{[]string{"train", "-classifier", "averaged", "-o", "m.json", "-ratchet", data}, "-ratchet: only -classifier pocket takes this flag"},
		{[]string{"train", "-classifier", "kernel", "-o", "m.json", "-init-weights", "1,1", data}, "-init-weights: only -classifier perceptron, pocket, averaged or voted takes this flag"},
		{[]string{"eval", "-classifier", "voted", "-prediction", "voted", data}, "-prediction: only -classifier kernel takes this flag"},
		{[]string{"eval", "-classifier", "kernel", "-kernel", "rbf", "-degree", "0", data}, "-degree: only -kernel poly has a degree"},
		{[]string{"demo", "-kernel", "linear", "-coef0", "1"}, "-coef0: only -kernel poly has coef0"},
		{[]string{"eval", "-classifier", "kernel", "-budget", "-1", data}, "training kernel: Budget is -1, want >= 0"},
		{[]string{"train", "-classifier", "kernel", "-kernel", "poly", "-degree", "-2", "-o", "m.json", data}, "training kernel: Poly.Degree is -2, want >= 0"},
	} {
		code, out, errs := runCmd(c.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, "perceptron: ") || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, one line with %q", c.args, code, out, errs, c.want)
		}
	}
}

// Eval of files with different widths: sparse rows widen to the larger,
// dense rows must agree.
func TestEvalWidths(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "train.svm", []byte("+1 1:1\n-1 1:-1\n+1 1:2\n"))
	test := writeFile(t, dir, "test.svm", []byte("+1 1:1 3:5\n-1 1:-2\n"))
	code, out, errs := runCmd("eval", train, test)
	if code != 0 || !strings.Contains(out, "3 features") {
		t.Errorf("sparse: exit %d, %s%s", code, out, errs)
	}
	tr := writeFile(t, dir, "train.csv", []byte("1,1\n-1,-1\n"))
	te := writeFile(t, dir, "test.csv", []byte("1,2,1\n-1,-1,-1\n"))
	code, _, errs = runCmd("eval", tr, te)
	if code != 1 || !strings.Contains(errs, "train.csv has 1 feature and "+te+" 2") {
		t.Errorf("dense: exit %d, %s", code, errs)
	}
	// Sparse rows widen to dense ones, never the other way.
	code, out, errs = runCmd("eval", train, te)
	if code != 0 || !strings.Contains(out, "2 features") {
		t.Errorf("sparse and dense: exit %d, %s%s", code, out, errs)
	}
	code, _, errs = runCmd("eval", test, te)
	if code != 1 || !strings.Contains(errs, "test.svm has 3 features and "+te+" 2") {
		t.Errorf("sparse and narrower dense: exit %d, %s", code, errs)
	}
}

func TestReadCSVLabelColumns(t *testing.T) {
	for _, c := range []struct {
		text, label string
		header      bool
		X           []float64
		y           []int
	}{
		{"a,class,b\n1,yes,2\n-3,no,4\n", "class", true, []float64{1, 2, -3, 4}, []int{1, 0}},
		{"1,yes,2\n-3,no,4\n", "2", false, []float64{1, 2, -3, 4}, []int{1, 0}},
		{"yes,1,2\nno,-3,4\n", "first", false, []float64{1, 2, -3, 4}, []int{1, 0}},
		{"1,2,yes\n-3,4,no\n", "last", false, []float64{1, 2, -3, 4}, []int{1, 0}},
		{"a,b\n1,2\n-3,4\n", "none", true, []float64{1, 2, -3, 4}, nil},
		{"\ufeff1, 2,yes\r\n-3,4 ,no\r\n", "last", false, []float64{1, 2, -3, 4}, []int{1, 0}},
	} {
		spec := dataSpec{header: c.header, label: c.label}
		if c.y != nil {
			spec.labels = &labelSpec{pos: "yes", neg: "no"}
		}
		ds, err := readCSV(strings.NewReader(c.text), "f.csv", spec, 0)
		if err != nil {
			t.Errorf("-label %s: %v", c.label, err)
			continue
		}
		X := ds.X.(*mat.Dense).RawMatrix().Data
		if r, d := ds.X.Dims(); r != 2 || d != 2 || !slices.Equal(X, c.X) || !slices.Equal(ds.y, c.y) {
			t.Errorf("-label %s: X %v y %v, want %v %v", c.label, X, ds.y, c.X, c.y)
		}
	}
}

// The labeler: -pos and -neg pick two labels, numbers compared as
// numbers, and leave out the others; without them the classes are the
// labels of the file, by value if they are all numbers, each named by its
// first text, and by text otherwise, in sorted order; test rows read by
// known classes find their class by text or number, and a label of no
// class gets an index after the classes.
func TestLabeler(t *testing.T) {
	read := func(spec *labelSpec, labels ...string) (*dataset, []bool) {
		t.Helper()
		l := newLabeler(spec)
		var keep []bool
		for _, s := range labels {
			k, err := l.add(s)
			if err != nil {
				t.Fatalf("add(%q): %v", s, err)
			}
			keep = append(keep, k)
		}
		ds := &dataset{name: "f"}
		if err := l.finish(ds); err != nil {
			t.Fatalf("%q: %v", labels, err)
		}
		return ds, keep
	}

	ds, keep := read(&labelSpec{pos: "1", neg: "0"}, "1", "1.0", "+1", " 1 ", "0", "0.0", "-0", "2", "x")
	if !slices.Equal(keep, []bool{true, true, true, true, true, true, true, false, false}) ||
		!slices.Equal(ds.y, []int{1, 1, 1, 1, 0, 0, 0}) || ds.left != 2 ||
		!slices.Equal(ds.classes.names, []string{"0", "1"}) || !slices.Equal(ds.classes.values, []float64{-1, 1}) || !ds.classes.picked {
		t.Errorf("-pos 1 -neg 0: kept %v, y %v, %d left, classes %+v", keep, ds.y, ds.left, ds.classes)
	}

	ds, _ = read(&labelSpec{}, "10", "-2", "+10", "3.5", "-2.0", "1e1")
	if !slices.Equal(ds.y, []int{2, 0, 2, 1, 0, 2}) || !slices.Equal(ds.classes.values, []float64{-2, 3.5, 10}) ||
		!slices.Equal(ds.classes.names, []string{"-2", "3.5", "10"}) || ds.classes.picked {
		t.Errorf("numbers: y %v, classes %+v", ds.y, ds.classes)
	}

	ds, _ = read(&labelSpec{}, "pear", "apple", "1", "pear", "1.0")
	if !slices.Equal(ds.y, []int{3, 2, 0, 3, 1}) || !slices.Equal(ds.classes.values, []float64{0, 1, 2, 3}) ||
		!slices.Equal(ds.classes.names, []string{"1", "1.0", "apple", "pear"}) {
		t.Errorf("texts: y %v, classes %+v", ds.y, ds.classes)
	}

	known := &classSet{names: []string{"-2", "3.5", "10"}, values: []float64{-2, 3.5, 10}}
	ds, _ = read(&labelSpec{known: known}, "10", "1e1", "7", "-2", "x", "7.0")
	if !slices.Equal(ds.y, []int{2, 2, 3, 0, 4, 3}) || ds.classes != known || !slices.Equal(ds.others, []string{"7", "x"}) || !slices.Equal(ds.labels(), []string{"-2", "3.5", "10", "7", "x"}) {
		t.Errorf("known classes: y %v, others %q", ds.y, ds.others)
	}

	picked := pickedClasses("yes", "no")
	ds, keep = read(&labelSpec{known: picked}, "yes", "maybe", "no")
	if !slices.Equal(keep, []bool{true, false, true}) || !slices.Equal(ds.y, []int{1, 0}) || ds.left != 1 || ds.classes != picked {
		t.Errorf("known picked classes: kept %v, y %v", keep, ds.y)
	}

	for _, c := range []struct {
		spec   *labelSpec
		labels []string
		want   string
	}{
		{&labelSpec{}, []string{"a", "a"}, `f: every row has the label "a": want two classes or more`},
		{&labelSpec{pos: "a", neg: "b"}, []string{"a", "a"}, `f: no row has the label "b" (-neg)`},
		{&labelSpec{known: picked}, []string{"yes", "maybe"}, `f: no row has the label "no" (-neg), and 1 row of other labels are left out`},
	} {
		l := newLabeler(c.spec)
		for _, s := range c.labels {
			l.add(s)
		}
		if err := l.finish(&dataset{name: "f"}); err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v, want %s", c.labels, err, c.want)
		}
	}
	// A test file may lack a class when no row is left out.
	read(&labelSpec{known: picked}, "yes", "yes")
	if _, err := newLabeler(&labelSpec{}).add("  "); err == nil {
		t.Error("an empty label read")
	}
}

// The scaler gives the training columns mean 0 and deviation 1, leaves a
// constant column centred, and changes nothing else.
func TestScaler(t *testing.T) {
	X := mat.NewDense(4, 3, []float64{
		1, 10, 5,
		2, 20, 5,
		3, 30, 5,
		4, 40, 5,
	})
	sc := fitScaler(X)
	sc.applyDense(X)
	s := math.Sqrt(1.25)
	want := []float64{
		-1.5 / s, -1.5 / s, 0,
		-0.5 / s, -0.5 / s, 0,
		0.5 / s, 0.5 / s, 0,
		1.5 / s, 1.5 / s, 0,
	}
	for i, v := range X.RawMatrix().Data {
		if math.Abs(v-want[i]) > 1e-15 {
			t.Fatalf("standardised %v, want %v", X.RawMatrix().Data, want)
		}
	}
	if sc.scale[2] != 1 || sc.mean[2] != 5 {
		t.Errorf("constant column: mean %v scale %v", sc.mean[2], sc.scale[2])
	}
}

func TestSplit(t *testing.T) {
	n := 10
	X := mat.NewDense(n, 1, nil)
	y := make([]int, n)
	for i := range n {
		X.Set(i, 0, float64(i))
		y[i] = i % 3
	}
	ds := &dataset{name: "d", X: X, y: y, classes: &classSet{names: []string{"a", "b", "c"}, values: []float64{0, 1, 2}}}
	train, test, err := split(ds, 0.3, 1)
	if err != nil {
		t.Fatal(err)
	}
	var seen []int
	for _, part := range []*dataset{train, test} {
		r, _ := part.X.Dims()
		for i := range r {
			v := int(part.X.At(i, 0))
			if part.y[i] != y[v] {
				t.Errorf("row %d lost its label", v)
			}
			seen = append(seen, v)
		}
	}
	if r, _ := test.X.Dims(); r != 3 {
		t.Errorf("%d test rows, want 3", r)
	}
	slices.Sort(seen)
	for i, v := range seen {
		if v != i {
			t.Fatalf("rows %v after the split", seen)
		}
	}
	again, _, _ := split(ds, 0.3, 1)
	if !mat.Equal(again.X, train.X) {
		t.Error("the same seed splits differently")
	}
	other, _, _ := split(ds, 0.3, 2)
	if mat.Equal(other.X, train.X) {
		t.Error("seeds 1 and 2 split alike")
	}
	if train.classes != ds.classes || test.classes != ds.classes {
		t.Error("the parts of a split have other classes")
	}
	if _, _, err := split(&dataset{name: "d", X: mat.NewDense(1, 1, nil), y: []int{1}}, 0.3, 1); err == nil {
		t.Error("one row split")
	}
}

// writeFiles leaves no file, new or temporary, when one of them cannot be
// written.
func TestWriteFilesAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	err := writeFiles(outFile{"-o", a, []byte("a")}, outFile{"-plot", filepath.Join(dir, "no", "b.svg"), []byte("b")})
	if err == nil {
		t.Fatal("no error writing into a missing directory")
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Errorf("files left: %v", names)
	}
	if err := writeFiles(outFile{"-o", a, []byte("a")}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(a); string(b) != "a" || len(listDir(t, dir)) != 1 {
		t.Errorf("wrote %q; files %v", b, listDir(t, dir))
	}
}

// The shipped data file has a header that names its 31 columns, the
// features as scikit-learn names them and the class last.
func TestShippedDataHeader(t *testing.T) {
	spec := dataSpec{header: true, label: "target", labels: &labelSpec{pos: "0", neg: "1"}}
	ds, err := readCSV(bytes.NewReader(breastCancer), "breast_cancer.csv", spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	n, d := ds.X.Dims()
	if n != 569 || d != 30 || len(ds.features) != 30 {
		t.Fatalf("%d rows, %d features, %d names", n, d, len(ds.features))
	}
	for j, want := range map[int]string{0: "mean radius", 10: "radius error", 29: "worst fractal dimension"} {
		if ds.features[j] != want {
			t.Errorf("feature %d is %q, want %q", j+1, ds.features[j], want)
		}
	}
	if names := slices.Compact(slices.Sorted(slices.Values(ds.features))); len(names) != 30 {
		t.Errorf("the feature names are not all different: %q", ds.features)
	}
}
