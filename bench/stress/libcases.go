// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// libTests are the misuses of the library of issue 31: each must return
// an error, or panic with a clear message where the documentation says
// so, never dereference nil, index out of range or die allocating.
func libTests() []test {
	wide := func() *perceptron.CSR {
		X, err := perceptron.NewCSR(2, 1<<40, []int{0, 1, 2}, []int{0, 1 << 39}, []float64{1, 1})
		if err != nil {
			panic(err)
		}
		return X
	}
	ts := []test{}
	// Weights of 2^40 columns need 8 TiB.
	for _, m := range []perceptron.Scorer{&perceptron.Perceptron{}, &perceptron.Pocket{}, &perceptron.Averaged{}, &perceptron.Voted{}, &perceptron.OneVsRest{}} {
		ts = append(ts, test{name: "lib/fit-2^40/" + typeName(m), code: 1, want: `^perceptron: .*needs [0-9.]+ TiB of memory`, lib: func(*suite, []string) (string, error) {
			return "fitted", m.Fit(wide(), []float64{-1, 1})
		}})
	}
	// A Kernel holds its support vectors, in proportion to their
	// non-zeros: it fits, saves, loads, scores and learns one more row.
	ts = append(ts, test{name: "lib/fit-2^40/Kernel", code: 0, lib: func(*suite, []string) (string, error) {
		k := &perceptron.Kernel{}
		if err := k.Fit(wide(), []float64{-1, 1}); err != nil {
			return "", err
		}
		b, err := json.Marshal(k)
		if err != nil {
			return "", err
		}
		m, err := perceptron.Unmarshal(b)
		if err != nil {
			return "", err
		}
		row, err := perceptron.NewCSR(1, 1<<40, []int{0, 1}, []int{1 << 30}, []float64{1})
		if err != nil {
			return "", err
		}
		m.ScoreRows(nil, row)
		if _, err := json.Marshal(m); err != nil {
			return "", err
		}
		return "fitted, saved, loaded, scored and learned a row", m.(*perceptron.Kernel).Learn(row, []float64{1})
	}})
	ts = append(ts, test{name: "lib/csr-maxint-rows", code: 1, want: `^perceptron: .*want 9223372036854775808 \(rows\+1\)`, lib: func(*suite, []string) (string, error) {
		_, err := perceptron.NewCSR(math.MaxInt, 1, []int{0}, nil, nil)
		return "made", err
	}})
	// Hand-built Sets that are not what a reader returns.
	X := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	ab := []string{"a", "b"}
	for _, c := range []struct {
		name, want string
		set        *data.Set
	}{
		{"y-past-classes", `Y\[1\] is 2`, &data.Set{X: X, Y: []float64{0, 2, 1}, Classes: ab}},
		{"y-negative", `Y\[1\] is -1`, &data.Set{X: X, Y: []float64{0, -1, 1}, Classes: ab}},
		{"y-nan", `Y\[0\] is NaN`, &data.Set{X: X, Y: []float64{math.NaN(), 1, 0}, Classes: ab}},
		{"y-half", `Y\[2\] is 0\.5`, &data.Set{X: X, Y: []float64{0, 1, 0.5}, Classes: ab}},
		{"nil-classes", `Classes`, &data.Set{X: X, Y: []float64{0, 1, 0}}},
		{"y-longer", `\b4\b.*\b3\b`, &data.Set{X: X, Y: []float64{0, 1, 0, 1}, Classes: ab}},
		{"nil-x", `X is nil`, &data.Set{Y: []float64{0, 1, 0}, Classes: ab}},
	} {
		ts = append(ts, test{name: "lib/split/" + c.name, code: 1, want: `^data: .*` + c.want, lib: func(*suite, []string) (string, error) {
			_, _, err := data.Split(c.set, 0.5, 1)
			return "split", err
		}})
	}
	ts = append(ts, test{name: "lib/onevsrest-typed-nil", code: 1, want: `^perceptron: .*OneVsRest\.New returned a nil \*perceptron\.Perceptron`, lib: func(*suite, []string) (string, error) {
		o := &perceptron.OneVsRest{New: func() perceptron.Scorer { var p *perceptron.Perceptron; return p }}
		return "fitted", o.Fit(mat.NewDense(2, 1, []float64{0, 1}), []float64{-1, 1})
	}})
	for _, m := range []perceptron.Scorer{&perceptron.Perceptron{}, &perceptron.Pocket{}, &perceptron.Averaged{}, &perceptron.Voted{}, &perceptron.Kernel{}, &perceptron.OneVsRest{}} {
		ts = append(ts, test{name: "lib/scorerows-nil/" + typeName(m), code: 1, want: `^perceptron: .*X is nil`, lib: func(*suite, []string) (string, error) {
			if err := m.Fit(mat.NewDense(2, 1, []float64{0, 1}), []float64{-1, 1}); err != nil {
				return "", err
			}
			return "scored", panicOf(func() { m.ScoreRows(nil, nil) })
		}})
	}
	ts = append(ts, test{name: "lib/scaler-nil", code: 1, want: `^data: .*X is nil`, lib: func(*suite, []string) (string, error) {
		_, err := data.NewScaler(nil)
		return "scaled", err
	}})
	// A byte-order mark counts toward MaxLine: 8 bytes of line 1.
	ts = append(ts, test{name: "lib/maxline-bom/libsvm", code: 1, want: `^line 1: longer than 6 bytes`, lib: func(*suite, []string) (string, error) {
		_, err := data.LIBSVM{MaxLine: 6}.Read(strings.NewReader("\ufeff1 1:1\n"))
		return "read", err
	}})
	ts = append(ts, test{name: "lib/maxline-bom/csv", code: 1, want: `^line 1: longer than 5 bytes`, lib: func(*suite, []string) (string, error) {
		_, err := data.CSV{MaxLine: 5}.Read(strings.NewReader("\ufeff1,2,a\n"))
		return "read", err
	}})
	return ts
}

// setMember returns b with the value of the member that path names
// replaced by value: the first member of the last name of the path after
// the first of the name before it, and so on, at any depth.
func setMember(b []byte, path, value string) ([]byte, error) {
	i := 0
	for name := range strings.SplitSeq(path, ".") {
		key := []byte(`"` + name + `":`)
		k := bytes.Index(b[i:], key)
		if k < 0 {
			return nil, fmt.Errorf("stress: no member %s in %.100s", path, b)
		}
		i += k + len(key)
	}
	d := json.NewDecoder(bytes.NewReader(b[i:]))
	if err := d.Decode(new(json.RawMessage)); err != nil {
		return nil, err
	}
	return slices.Concat(b[:i], []byte(value), b[i+int(d.InputOffset()):]), nil
}

// typeName returns the name of the type that m points to.
func typeName(m perceptron.Scorer) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", m), "*perceptron.")
}

// panicOf calls f, which must panic with a clear message, and returns it
// as an error; an error of Go's runtime, such as a nil dereference, it
// raises again. It returns an error too if f does not panic.
func panicOf(f func()) (err error) {
	defer func() {
		r := recover()
		if _, ok := r.(runtime.Error); ok {
			panic(r)
		}
		if r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	f()
	return errors.New("no panic")
}
