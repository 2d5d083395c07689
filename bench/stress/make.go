// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// gzipped returns a maker of a gzip file of head, then of times copies of
// body, each copy a gzip member of its own, which gzip.Reader reads as one
// stream, and then of tail: a small file of a large text.
func gzipped(head, body []byte, times int, tail []byte) func(string) error {
	return func(path string) error {
		member := func(b []byte) []byte {
			var m bytes.Buffer
			w := gzip.NewWriter(&m)
			w.Write(b)
			w.Close()
			return m.Bytes()
		}
		var out bytes.Buffer
		if head != nil {
			out.Write(member(head))
		}
		one := member(body)
		for range times {
			out.Write(one)
		}
		if tail != nil {
			out.Write(member(tail))
		}
		return os.WriteFile(path, out.Bytes(), 0o644)
	}
}

// idx returns the IDX header of unsigned bytes of the dimensions dims, and
// the data after it.
func idx(dims []uint32, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, 0x800|uint32(len(dims)))
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return append(b, data...)
}

// trained returns a maker of the model file that the command's train
// saves of the data file data, run without a limit: the cases that load
// it do not depend on the case of training it.
func (s *suite) trained(data string) func(string) error {
	return func(path string) error {
		args := append(append([]string{"train"}, wideFlags...), "-o", path, data)
		if out, err := exec.Command(s.cmd, args...).CombinedOutput(); err != nil {
			return fmt.Errorf("perceptron train -o %s %s: %v: %s", path, data, err, firstLine(string(out), 300))
		}
		return nil
	}
}

// wideFlags train a perceptron with no steps before it, which holds one
// number a column, where the defaults' averaged perceptron holds three
// while it trains and the weights of the features a fourth: 10^8 columns
// of those do not fit under 3 GB beside the 1.2 GB of address space that
// Go's runtime reserves at its start.
var wideFlags = []string{"-classifier", "perceptron", "-idf=false", "-normalize=false"}

// bareModel returns a maker of the library's JSON of a Perceptron of d
// weights, trained on the rows "1 d:1" and "-1 1:1": 2 bytes a weight.
func bareModel(d int) func(string) error {
	return func(path string) error {
		X, err := perceptron.NewCSR(2, d, []int{0, 1, 2}, []int{d - 1, 0}, []float64{1, 1})
		if err != nil {
			return err
		}
		p := &perceptron.Perceptron{}
		if err := p.Fit(X, []float64{1, -1}); err != nil {
			return err
		}
		b, err := json.Marshal(p)
		if err != nil {
			return err
		}
		return os.WriteFile(path, b, 0o644)
	}
}

// votedFile returns the JSON of a Voted of two classes that made m
// mistakes, all on one dense row of d ones, at rate 1: its weights and
// bias are m, and it has m+1 voters of one visit each. Decoded, it holds
// 8·(2d+2m) bytes; its voters' weights, made one by one, m·d numbers.
func votedFile(d, m int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"Voted","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":null,"stop":null},`)
	b.WriteString(`"model":{"classes":[-1,1],"weights":[`)
	mm := strconv.Itoa(m)
	b.WriteString(strings.Repeat(mm+",", d-1) + mm)
	row := make([]byte, 8*d)
	for j := range d {
		binary.LittleEndian.PutUint64(row[8*j:], math.Float64bits(1))
	}
	fmt.Fprintf(&b, `],"biases":[%d],"throughOrigin":false,"rows":{"rows":1,"cols":%d,"sparse":false,"values":"%s"},"steps":[1],`, m, d, base64.StdEncoding.EncodeToString(row))
	b.WriteString(`"mistakeRows":[` + strings.Repeat("0,", m-1) + `0],"counts":[` + strings.Repeat("1,", m) + `1]},`)
	fmt.Fprintf(&b, `"stats":{"epochs":1,"converged":false,"mistakes":%d,"epochMistakes":[%d],"epochLoss":[0]}}`, m, m)
	return b.Bytes()
}

// oneVsRestFile returns the JSON of a OneVsRest of k classes on d
// features, each class's Perceptron trained for one epoch on k sparse
// rows, row i of class i and a one at column i mod d.
func oneVsRestFile(k, d int) ([]byte, error) {
	ptr, ind, val, y := make([]int, k+1), make([]int, k), make([]float64, k), make([]float64, k)
	for i := range k {
		ptr[i+1], ind[i], val[i], y[i] = i+1, i%d, 1, float64(i)
	}
	X, err := perceptron.NewCSR(k, d, ptr, ind, val)
	if err != nil {
		return nil, err
	}
	o := &perceptron.OneVsRest{New: func() perceptron.Scorer { return &perceptron.Perceptron{Epochs: 1} }}
	if err := o.Fit(X, y); err != nil {
		return nil, err
	}
	return json.Marshal(o)
}

// rows3 returns six rows of three features, dense and sparse, and labels
// of two classes and of three.
func rows3() (dense *mat.Dense, sparse *perceptron.CSR, y2, y3 []float64) {
	v := []float64{1, 0, 2, 0, 1, -1, 2, 1, 0, -1, 0, 1, 0, -2, 1, 1, 1, 1}
	ptr, ind, val := []int{0}, []int(nil), []float64(nil)
	for k, x := range v {
		if x != 0 {
			ind, val = append(ind, k%3), append(val, x)
		}
		if k%3 == 2 {
			ptr = append(ptr, len(ind))
		}
	}
	sparse, err := perceptron.NewCSR(6, 3, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return mat.NewDense(6, 3, v), sparse, []float64{1, -1, 1, -1, -1, 1}, []float64{0, 1, 2, 0, 1, 2}
}

// model is the JSON of a small fitted classifier.
type model struct {
	name string
	json []byte
}

// models returns a small fitted classifier of every type, in every form
// that its file takes: two classes and three, dense rows and sparse, each
// kernel and prediction rule, a budget, and a OneVsRest.
func models() ([]model, error) {
	dense, sparse, y2, y3 := rows3()
	seeded := func() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
	var ms []model
	for _, c := range []struct {
		name string
		m    perceptron.Scorer
		X    mat.Matrix
		y    []float64
	}{
		{"Perceptron", &perceptron.Perceptron{Epochs: 5}, dense, y2},
		{"Perceptron3", &perceptron.Perceptron{Epochs: 5}, sparse, y3},
		{"Pocket3", &perceptron.Pocket{Epochs: 5}, dense, y3},
		{"Averaged", &perceptron.Averaged{Epochs: 5}, sparse, y2},
		{"Averaged3", &perceptron.Averaged{Epochs: 5}, dense, y3},
		{"Voted", &perceptron.Voted{Epochs: 5}, dense, y2},
		{"Voted3", &perceptron.Voted{Epochs: 5}, sparse, y3},
		{"Kernel", &perceptron.Kernel{Epochs: 5}, dense, y2},
		{"KernelPoly3", &perceptron.Kernel{Func: perceptron.Poly{Degree: 2}, Prediction: perceptron.PredictAveraged, Budget: 2, Rand: seeded(), Epochs: 5}, sparse, y3},
		{"KernelRBF", &perceptron.Kernel{Func: perceptron.RBF{}, Prediction: perceptron.PredictVoted, Epochs: 5}, dense, y2},
		{"OneVsRest", &perceptron.OneVsRest{New: func() perceptron.Scorer { return &perceptron.Pocket{Ratchet: true, Epochs: 5} }}, sparse, y3},
	} {
		if err := c.m.Fit(c.X, c.y); err != nil {
			return nil, fmt.Errorf("%s: %v", c.name, err)
		}
		b, err := json.Marshal(c.m)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.name, err)
		}
		ms = append(ms, model{c.name, b})
	}
	return ms, nil
}

// modelJSON returns the JSON of the model of models named name.
func modelJSON(name string) []byte {
	ms, err := models()
	if err != nil {
		panic(err)
	}
	for _, m := range ms {
		if m.name == name {
			return m.json
		}
	}
	panic("no model " + name)
}

// The pieces that mutate puts into a model file: numbers at the edges of
// what a size, an index or a float64 holds, and JSON of the wrong kind.
var (
	numberRE = regexp.MustCompile(`-?[0-9][0-9.eE+-]*`)
	numbers  = []string{"0", "-1", "-0", "0.5", "3", "1e999", "-1e999", "1e-400", "1e308", "2147483648",
		"4611686018427387904", "9223372036854775807", "-9223372036854775808", "18446744073709551616"}
	tokens = []string{"null", "[]", "{}", `""`, ",", "[", "{", `"x":1,`, `"type":"Voted",`, "true", "NaN"}
)

// mutate returns b with one to three random changes: a number replaced,
// a byte changed, a span deleted or repeated, a token put in, or the end
// cut off.
func mutate(rng *rand.Rand, b []byte) []byte {
	b = bytes.Clone(b)
	for range 1 + rng.IntN(3) {
		if len(b) == 0 {
			return b
		}
		i := rng.IntN(len(b))
		j := min(len(b), i+1+rng.IntN(32))
		switch rng.IntN(10) {
		case 0, 1, 2, 3, 4: // half the changes keep the JSON valid
			if locs := numberRE.FindAllIndex(b, -1); len(locs) > 0 {
				l := locs[rng.IntN(len(locs))]
				b = slices.Concat(b[:l[0]], []byte(numbers[rng.IntN(len(numbers))]), b[l[1]:])
			}
		case 5:
			const alphabet = `{}[]":,0123456789-.eE ntfx`
			b[i] = alphabet[rng.IntN(len(alphabet))]
		case 6:
			b = slices.Concat(b[:i], b[j:])
		case 7:
			k := rng.IntN(len(b))
			b = slices.Concat(b[:k], b[i:j], b[k:])
		case 8:
			b = slices.Concat(b[:i], []byte(tokens[rng.IntN(len(tokens))]), b[i:])
		case 9:
			b = b[:i]
		}
	}
	return b
}
