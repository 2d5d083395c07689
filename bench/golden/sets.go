// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// set is a data set of the dump: training rows X with labels y, rows
// test to score, which begin with the training rows, and rows probe, a
// few of them, to score where the cases are many.
type set struct {
	name           string
	X, test, probe *mat.Dense
	y              []float64

	// limit, if not zero, is the Epochs of the cases that leave Epochs
	// at its default, which on sets that no hyperplane separates would
	// run 1000 epochs and make the dump slow and long.
	limit int
}

// classes returns the distinct labels of s, in ascending order.
func (s *set) classes() []float64 {
	c := slices.Clone(s.y)
	slices.Sort(c)
	return slices.Compact(c)
}

// scores returns the number of scores of a model of K classes.
func scores(K int) int {
	if K == 2 {
		return 1
	}
	return K
}

func dense(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// small returns a hand-made set whose test rows are its rows and a grid
// of points about them, on halves, ties and all, of the step, and whose
// probe rows are its rows and a grid of 4 steps.
func small(name string, rows [][]float64, y []float64, lo, hi, step float64) *set {
	grid := func(step float64) *mat.Dense {
		g := slices.Clone(rows)
		for a := lo; a <= hi; a += step {
			for b := lo; b <= hi; b += step {
				g = append(g, []float64{a, b})
			}
		}
		return dense(g)
	}
	return &set{name: name, X: dense(rows), y: y, test: grid(step), probe: grid(4 * step)}
}

// sets are the data sets of the dump, in the order it prints them.
var sets = func() []*set {
	and := [][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	ss := []*set{
		// The notes' AND gate, which converges in 9 epochs to w=(3,2), b=-4.
		small("and", and, []float64{-1, -1, -1, 1}, -1, 2, 0.5),
		// AND with the labels 0 and 1, and with 5 and 3, the first class
		// being the larger label's.
		small("and01", and, []float64{0, 0, 0, 1}, -1, 2, 0.5),
		small("and53", and, []float64{5, 5, 5, 3}, -1, 2, 0.5),
		// The notes' XOR, in their order, which no line separates.
		small("xor", [][]float64{{0, 0}, {1, 1}, {0, 1}, {1, 0}}, []float64{1, 1, -1, -1}, -1, 2, 0.5),
		// The notes' example 1, XOR in disguise.
		small("xor2", [][]float64{{1, 1}, {2, 2}, {1, 2}, {2, 1}}, []float64{1, 1, -1, -1}, 0, 3, 0.5),
		// The 3-point exercise, through the origin from (1, -0.8).
		small("exercise", [][]float64{{1, 2}, {-1, 2}, {0, -1}}, []float64{1, -1, -1}, -2, 2, 0.5),
		// Three classes of integers, separable, in 2 dimensions.
		small("tri", [][]float64{{0, 0}, {1, 0}, {0, 1}, {4, 0}, {5, 1}, {4, 1}, {0, 4}, {1, 5}, {0, 5}},
			[]float64{1, 1, 1, 2, 2, 2, 3, 3, 3}, -1, 5, 1),
	}
	ss = append(ss,
		linear("sep2", 50, 4, []float64{-1, 1}, 0.3, 0, false, 0.0, 1),
		linear("noisy2", 80, 5, []float64{0, 2.5}, 0, 0.1, false, 0.0, 2),
		linear("int2", 40, 6, []float64{-1, 1}, 0, 0, true, 0.0, 3),
		linear("sep3", 60, 3, []float64{1, 2, 3}, 0.2, 0, false, 0.0, 4),
		linear("noisy4", 120, 6, []float64{-7, 0, 0.5, 42}, 0, 0.15, false, 0.0, 5),
		linear("int5", 100, 8, []float64{0, 1, 2, 3, 4}, 0, 0.05, true, 0.0, 6),
		linear("sparse2", 200, 60, []float64{-1, 1}, 0, 0.05, false, 0.08, 7),
		linear("sparse3", 240, 80, []float64{10, 20, 30}, 0, 0.05, false, 0.1, 8),
	)
	for _, s := range ss {
		if strings.HasPrefix(s.name, "noisy") || strings.HasPrefix(s.name, "sparse") || s.name == "int5" {
			s.limit = 25
		}
	}
	return ss
}()

// sizeSets are the larger sets of the sizes section: more rows than a
// block of scoring or of the Kernel's trainer, dense rows large enough
// for a shuffled epoch to prefetch them, and more classes than a sorted
// insertion takes.
var sizeSets = []*set{
	linear("big2", 600, 24, []float64{-1, 1}, 0, 0.1, false, 0.0, 9),
	linear("big5", 500, 16, []float64{1, 2, 3, 4, 5}, 0, 0.1, false, 0.0, 10),
	linear("wide", 2100, 64, []float64{-1, 1}, 0, 0.02, false, 0.0, 11),
	linear("sparse-wide", 600, 300, []float64{0, 1, 2}, 0, 0.05, false, 0.02, 12),
	many("many", 300, 3, 260, 13),
}

// many returns a random set of n rows of d columns and K classes, the
// class of row i being i mod K, halved.
func many(name string, n, d, K int, seed uint64) *set {
	s := linear(name, n, d, []float64{-1, 1}, 0, 0, false, 0, seed)
	for i := range s.y {
		s.y[i] = float64(i%K) * 0.5
	}
	return s
}

// setNamed returns the set of the name.
func setNamed(name string) *set {
	for _, s := range slices.Concat(sets, sizeSets) {
		if s.name == name {
			return s
		}
	}
	panic("golden: no set " + name)
}

// linear returns a random set of n rows of d columns whose class is the
// one of labels that the greatest of len(labels) random linear functions,
// or the sign of one for two classes, gives, seeded by seed: with a
// margin, the rows within it of the boundary are drawn again; with noise,
// that fraction of the rows take a random class. Integer sets have values
// in [-3, 3]; sparse ones have that density of non-zeros, all positive,
// as text has.
func linear(name string, n, d int, labels []float64, margin, noise float64, integer bool, density float64, seed uint64) *set {
	rnd := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	K := len(labels)
	S := scores(K)
	w := make([]float64, S*(d+1))
	for i := range w {
		w[i] = rnd.NormFloat64()
	}
	row := func() []float64 {
		x := make([]float64, d)
		for j := range x {
			switch {
			case density > 0:
				if rnd.Float64() < density {
					x[j] = math.Round(rnd.ExpFloat64()*64) / 64
				}
			case integer:
				x[j] = float64(rnd.IntN(7) - 3)
			default:
				x[j] = rnd.NormFloat64()
			}
		}
		return x
	}
	class := func(x []float64) (int, float64) {
		best, gap := 0, math.Inf(1)
		sc := make([]float64, S)
		for c := range sc {
			v := w[c*(d+1)+d] * 0.5
			if density > 0 {
				v = -0.3 * float64(d) * density
				if S > 1 {
					v = 0
				}
			}
			for j, xj := range x {
				v += w[c*(d+1)+j] * xj
			}
			sc[c] = v
		}
		if S == 1 {
			if sc[0] >= 0 {
				return 1, math.Abs(sc[0])
			}
			return 0, math.Abs(sc[0])
		}
		for c := range sc {
			if sc[c] > sc[best] {
				best = c
			}
		}
		for c := range sc {
			if c != best {
				gap = min(gap, sc[best]-sc[c])
			}
		}
		return best, gap
	}
	var X [][]float64
	var y []float64
	for len(X) < n {
		x := row()
		c, gap := class(x)
		if gap < margin {
			continue
		}
		if noise > 0 && rnd.Float64() < noise {
			c = rnd.IntN(K)
		}
		X, y = append(X, x), append(y, labels[c])
	}
	extra := make([][]float64, 20)
	for i := range extra {
		extra[i] = row()
	}
	extra = append(extra, make([]float64, d))
	return &set{name: name, X: dense(X), y: y, test: dense(append(slices.Clone(X), extra...)),
		probe: dense(append(slices.Clone(X[:10]), extra...))}
}

// A form is a way to give a matrix to the library: each reads the
// elements of a *mat.Dense through another path.
type form struct {
	name string
	of   func(*mat.Dense) mat.Matrix
}

var forms = []form{
	// A *mat.Dense, read in place.
	{"dense", func(m *mat.Dense) mat.Matrix { return m }},
	// A *mat.Dense with a stride beyond its columns, a view of a wider one.
	{"view", func(m *mat.Dense) mat.Matrix {
		r, c := m.Dims()
		w := mat.NewDense(r, c+3, nil)
		for i := range r {
			for j := range c + 3 {
				w.Set(i, j, 99)
			}
		}
		v := w.Slice(0, r, 1, c+1).(*mat.Dense)
		v.Copy(m)
		return v
	}},
	// A mat.Matrix that is neither a RawMatrixer nor a RowNonZeroDoer.
	{"wrapped", func(m *mat.Dense) mat.Matrix { return wrapped{m} }},
	// The implicit transpose of the dense transpose.
	{"transpose", func(m *mat.Dense) mat.Matrix { return mat.DenseCopyOf(m.T()).T() }},
	// A CSR of the non-zeros.
	{"csr", func(m *mat.Dense) mat.Matrix { return toCSR(m, false) }},
	// A CSR with every element stored, the zeros too.
	{"csr0", func(m *mat.Dense) mat.Matrix { return toCSR(m, true) }},
	// The implicit transpose of the CSR of the transpose.
	{"csrT", func(m *mat.Dense) mat.Matrix { return toCSR(mat.DenseCopyOf(m.T()), false).T() }},
	// A RowNonZeroDoer of another package, in column order and not.
	{"foreign", func(m *mat.Dense) mat.Matrix { return newForeign(m, false) }},
	{"reversed", func(m *mat.Dense) mat.Matrix { return newForeign(m, true) }},
	// gonum's BandDense, a RowNonZeroDoer that visits the zeros of its band.
	{"band", func(m *mat.Dense) mat.Matrix {
		r, c := m.Dims()
		b := mat.NewBandDense(r, c, r-1, c-1, nil)
		for i := range r {
			for j := range c {
				b.SetBand(i, j, m.At(i, j))
			}
		}
		return b
	}},
}

// formNamed returns the form of the name.
func formNamed(name string) form {
	for _, f := range forms {
		if f.name == name {
			return f
		}
	}
	panic("golden: no form " + name)
}

// wrapped hides every method of its matrix but those of mat.Matrix.
type wrapped struct{ m mat.Matrix }

func (w wrapped) Dims() (r, c int)    { return w.m.Dims() }
func (w wrapped) At(i, j int) float64 { return w.m.At(i, j) }
func (w wrapped) T() mat.Matrix       { return mat.Transpose{Matrix: w} }

// toCSR returns the CSR of m, of its non-zeros, or of every element.
func toCSR(m *mat.Dense, zeros bool) *perceptron.CSR {
	r, c := m.Dims()
	ptr := []int{0}
	var ind []int
	var val []float64
	for i := range r {
		for j := range c {
			if v := m.At(i, j); v != 0 || zeros {
				ind, val = append(ind, j), append(val, v)
			}
		}
		ptr = append(ptr, len(ind))
	}
	s, err := perceptron.NewCSR(r, c, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return s
}

// foreign is a sparse matrix of another package, a mat.RowNonZeroDoer
// that may visit a row's elements out of column order.
type foreign struct {
	r, c     int
	cols     [][]int
	vals     [][]float64
	reversed bool
}

func newForeign(m *mat.Dense, reversed bool) *foreign {
	r, c := m.Dims()
	f := &foreign{r: r, c: c, cols: make([][]int, r), vals: make([][]float64, r), reversed: reversed}
	for i := range r {
		for j := range c {
			if v := m.At(i, j); v != 0 {
				f.cols[i], f.vals[i] = append(f.cols[i], j), append(f.vals[i], v)
			}
		}
	}
	return f
}

func (f *foreign) Dims() (r, c int) { return f.r, f.c }

func (f *foreign) At(i, j int) float64 {
	if k, ok := slices.BinarySearch(f.cols[i], j); ok {
		return f.vals[i][k]
	}
	return 0
}

func (f *foreign) T() mat.Matrix { return mat.Transpose{Matrix: f} }

func (f *foreign) DoRowNonZero(i int, fn func(i, j int, v float64)) {
	n := len(f.cols[i])
	for k := range n {
		if f.reversed {
			k = n - 1 - k
		}
		fn(i, f.cols[i][k], f.vals[i][k])
	}
}
