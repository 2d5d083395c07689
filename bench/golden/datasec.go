// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// printSet prints a data.Set whole.
func printSet(p *printer, s *data.Set) {
	if s == nil {
		p.printf("set: nil")
		return
	}
	r, c := s.X.Dims()
	p.printf("X: %T %d×%d", s.X, r, c)
	matrix(p, "X", s.X)
	p.floats("Y", s.Y)
	p.printf("Classes: %s", quoted(s.Classes))
	p.printf("Features: %s", quoted(s.Features))
	p.printf("Dropped: %d", s.Dropped)
}

func gz(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

const libsvmText = `# a comment
+1 1:0.5 3:2 7:-1.25
-1 qid:3 2:1 3:0 4:1e-3 # trailing comment

2 1:1 2:2 3:3 4:4 5:5 6:6 7:7
-1 5:0.125
+1 1:-3 6:0.1
2 7:1
`

const csvText = "\ufeffa,b,c,label\n1,2,3,x\n0.5,-1,2e2,y\n\n4,4,4,x\n-0.1,0.2,0.3,z\n7,8,9,y\n"

// idx returns an IDX file of the dimensions dims and unsigned bytes.
func idx(dims []int, vals []byte) string {
	var b bytes.Buffer
	b.Write([]byte{0, 0, 8, byte(len(dims))})
	for _, d := range dims {
		binary.Write(&b, binary.BigEndian, uint32(d))
	}
	b.Write(vals)
	return b.String()
}

func sectionData(p *printer) {
	libsvms := []struct {
		name string
		f    data.LIBSVM
		text string
	}{
		{"libsvm", data.LIBSVM{}, libsvmText},
		{"libsvm-gz", data.LIBSVM{}, gz(libsvmText)},
		{"libsvm-cols5", data.LIBSVM{Cols: 5}, libsvmText},
		{"libsvm-classes", data.LIBSVM{Classes: []string{"2", "-1"}}, libsvmText},
		{"libsvm-maxline", data.LIBSVM{MaxLine: 20}, libsvmText},
		{"libsvm-bad-order", data.LIBSVM{}, "1 3:1 2:1\n"},
		{"libsvm-bad-value", data.LIBSVM{}, "1 1:1 2:x\n"},
		{"libsvm-nan", data.LIBSVM{}, "1 1:NaN\n"},
		{"libsvm-no-colon", data.LIBSVM{}, "1 1:1\n-1 2\n"},
		{"libsvm-index0", data.LIBSVM{}, "1 0:1\n"},
		{"libsvm-empty", data.LIBSVM{}, "\n# nothing\n"},
		{"libsvm-no-label", data.LIBSVM{}, "1:2 3:4\n"},
	}
	for _, c := range libsvms {
		p.run(c.name, func() {
			s, err := c.f.Read(strings.NewReader(c.text))
			p.err("Read", err)
			printSet(p, s)
		})
	}
	csvs := []struct {
		name string
		f    data.CSV
		text string
	}{
		{"csv-header", data.CSV{Header: true}, csvText},
		{"csv-header-gz", data.CSV{Header: true}, gz(csvText)},
		{"csv-label-first", data.CSV{Header: true, Label: "first"}, "y,a\n1,2\n0,3\n"},
		{"csv-label-name", data.CSV{Header: true, Label: "b"}, "a,b,c\n1,p,3\n4,q,6\n"},
		{"csv-label-number", data.CSV{Label: "2"}, "1;p;3\n4;q;6\n"},
		{"csv-semicolon", data.CSV{Comma: ';', Label: "2"}, "1;p;3\n4;q;6\n"},
		{"csv-none", data.CSV{Label: "none"}, "1,2\n3,4\n"},
		{"csv-classes", data.CSV{Classes: []string{"y", "x"}}, "1,x\n2,y\n3,z\n"},
		{"csv-ragged", data.CSV{}, "1,2,x\n3,y\n"},
		{"csv-nan", data.CSV{}, "1,NaN,x\n"},
		{"csv-text", data.CSV{}, "1,a,x\n"},
		{"csv-label-missing", data.CSV{Header: true, Label: "z"}, "a,b\n1,2\n"},
		{"csv-empty", data.CSV{}, ""},
		{"csv-maxline", data.CSV{MaxLine: 8}, "1,2,3,4,5,6,x\n"},
	}
	for _, c := range csvs {
		p.run(c.name, func() {
			s, err := c.f.Read(strings.NewReader(c.text))
			p.err("Read", err)
			printSet(p, s)
		})
	}
	images := idx([]int{3, 2, 2}, []byte{0, 255, 128, 1, 2, 3, 4, 5, 250, 251, 252, 253})
	labels := idx([]int{3}, []byte{7, 1, 7})
	idxs := []struct {
		name           string
		f              data.IDX
		images, labels string
		nolabels       bool
	}{
		{"idx", data.IDX{}, images, labels, false},
		{"idx-gz", data.IDX{}, gz(images), gz(labels), false},
		{"idx-classes", data.IDX{Classes: []string{"7", "3"}}, images, labels, false},
		{"idx-no-labels", data.IDX{}, images, "", true},
		{"idx-short", data.IDX{}, images[:len(images)-2], labels, false},
		{"idx-count", data.IDX{}, images, idx([]int{2}, []byte{1, 2}), false},
		{"idx-magic", data.IDX{}, "\x00\x00\x09\x01" + images[4:], labels, false},
	}
	for _, c := range idxs {
		p.run(c.name, func() {
			var s *data.Set
			var err error
			if c.nolabels {
				s, err = c.f.Read(strings.NewReader(c.images), nil)
			} else {
				s, err = c.f.Read(strings.NewReader(c.images), strings.NewReader(c.labels))
			}
			p.err("Read", err)
			printSet(p, s)
		})
	}
	// Split, Subset, Scaler and Report of the sets of the dump, dense and
	// sparse.
	for _, name := range []string{"tri", "noisy4", "sparse3"} {
		src := setNamed(name)
		var X mat.Matrix = src.X
		if name == "sparse3" {
			X = toCSR(src.X, false)
		}
		classes := src.classes()
		y := make([]float64, len(src.y))
		names := make([]string, len(classes))
		for i, c := range classes {
			names[i] = fmt.Sprintf("c%s", f(c))
		}
		for i, v := range src.y {
			for c := range classes {
				if classes[c] == v {
					y[i] = float64(c)
				}
			}
		}
		s := &data.Set{X: X, Y: y, Classes: names}
		for _, frac := range []float64{0.25, 0.5} {
			for _, seed := range []uint64{1, 2} {
				p.run(fmt.Sprintf("%s/split-%s-seed%d", name, f(frac), seed), func() {
					train, test, err := data.Split(s, frac, seed)
					p.err("Split", err)
					if err != nil {
						return
					}
					r, _ := train.X.Dims()
					rt, _ := test.X.Dims()
					p.printf("train %T %d rows, test %T %d rows", train.X, r, test.X, rt)
					p.floats("train.Y", train.Y)
					p.floats("test.Y", test.Y)
					p.printf("hash train.X %x test.X %x", hashMatrix(train.X), hashMatrix(test.X))
					sc, err := data.NewScaler(train.X)
					p.err("NewScaler", err)
					if err != nil {
						return
					}
					p.floats("Mean", sc.Mean)
					p.floats("Scale", sc.Scale)
					tx, err := sc.Transform(train.X)
					p.err("Transform train", err)
					ex, err := sc.Transform(test.X)
					p.err("Transform test", err)
					if err != nil {
						return
					}
					p.printf("hash scaled train %x test %x (%T)", hashMatrix(tx), hashMatrix(ex), ex)
					m := &perceptron.Averaged{Epochs: 10}
					p.err("fit", m.Fit(tx, train.Y))
					pred := m.PredictRows(nil, ex)
					p.floats("pred", pred)
					rep, err := newReport(test.Classes, test.Y, pred)
					p.err("NewReport", err)
					acc, right, total := rep.Accuracy()
					p.printf("accuracy %s, %d of %d", f(acc), right, total)
					for c := range rep.Classes {
						pr, rc, f1, sup := rep.Class(c)
						p.printf("class %d: precision %s recall %s f1 %s support %d", c, f(pr), f(rc), f(f1), sup)
					}
					p.text("report", rep.String())
					p.text("matrix80", rep.Matrix(80))
					p.text("matrix20", rep.Matrix(20))
				})
			}
		}
		p.run(name+"/subset", func() {
			sub, err := subset(s, []int{5, 0, 3, 3})
			p.err("Subset", err)
			printSet(p, sub)
			all, err := subset(s, nil)
			p.err("Subset nil", err)
			printSet(p, all)
			p.panics("Subset out of range", func() {
				_, err := subset(s, []int{100000})
				p.err("Subset out of range", err)
			})
		})
	}
	p.run("split-errors", func() {
		s := &data.Set{X: setNamed("tri").X, Y: []float64{0, 0, 0, 1, 1, 1, 2, 2, 2}, Classes: []string{"a", "b", "c"}}
		for _, frac := range []float64{0, 1, -0.5, 0.01, 0.99} {
			_, _, err := data.Split(s, frac, 1)
			p.err("Split "+f(frac), err)
		}
		_, _, err := data.Split(&data.Set{X: s.X, Classes: s.Classes}, 0.3, 1)
		p.err("Split no labels", err)
	})
	p.run("scaler-errors", func() {
		_, err := data.NewScaler(&mat.Dense{})
		p.err("NewScaler empty", err)
		_, err = data.NewScaler(withValue(setNamed("tri").X, 1, 1, math.Inf(1)))
		p.err("NewScaler inf", err)
		sc, err := data.NewScaler(setNamed("tri").X)
		p.err("NewScaler", err)
		_, err = sc.Transform(mat.NewDense(1, 3, nil))
		p.err("Transform wide", err)
		t, err := sc.Transform(toCSR(setNamed("tri").X, false))
		p.err("Transform sparse with mean", err)
		if err == nil {
			p.printf("Transform sparse with mean: %T, hash %x", t, hashMatrix(t))
		}
		tiny, err := data.NewScaler(mat.NewDense(2, 2, []float64{0, 0, 1e-300, -1e-300}))
		p.err("NewScaler tiny", err)
		_, err = tiny.Transform(mat.NewDense(1, 2, []float64{1e308, -1e308}))
		p.err("Transform overflow", err)
		sp, err := data.NewScaler(toCSR(setNamed("sparse3").X, false))
		p.err("NewScaler sparse", err)
		p.floats("sparse Mean", sp.Mean)
		p.floats("sparse Scale", sp.Scale)
		_, err = sp.Transform(mat.NewDense(1, 80, make([]float64, 80)))
		p.err("Transform dense by a sparse scaler", err)
	})
	p.run("report-panics", func() {
		p.panics("NewReport lengths", func() {
			_, err := newReport([]string{"a", "b"}, []float64{0, 1}, []float64{0})
			p.err("NewReport lengths", err)
		})
		p.panics("NewReport range", func() {
			_, err := newReport([]string{"a", "b"}, []float64{0, 2}, []float64{0, 1})
			p.err("NewReport range", err)
		})
		r, err := newReport([]string{"a", "b", "c"}, []float64{0, 1, 2, 2}, []float64{0, 2, 2, 2})
		p.err("NewReport", err)
		p.text("report", r.String())
	})
}

// quoted returns the strings of v quoted, or nil.
func quoted(v []string) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("[%d] %q", len(v), v)
}

// subset calls s.Subset, which returned the subset alone before it
// returned an error too: the dump builds against both.
func subset(s *data.Set, rows []int) (*data.Set, error) {
	out := reflect.ValueOf(s).MethodByName("Subset").Call([]reflect.Value{reflect.ValueOf(rows)})
	return out[0].Interface().(*data.Set), callError(out)
}

// newReport calls data.NewReport, which returned the report alone before
// it returned an error too.
func newReport(classes []string, y, pred []float64) (*data.Report, error) {
	out := reflect.ValueOf(data.NewReport).Call([]reflect.Value{reflect.ValueOf(classes), reflect.ValueOf(y), reflect.ValueOf(pred)})
	return out[0].Interface().(*data.Report), callError(out)
}

// callError returns the error that a call's results end in, if they have
// one and it is not nil.
func callError(out []reflect.Value) error {
	if len(out) < 2 || out[len(out)-1].IsNil() {
		return nil
	}
	return out[len(out)-1].Interface().(error)
}
