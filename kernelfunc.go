// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math"

	"github.com/seed5ae3614e/perceptron/internal/simd"
)

// KernelFunc is a kernel: a function K(x, z) that is an inner product of x
// and z mapped into some feature space. Poly, RBF and Custom are the kernel
// functions besides the linear kernel x·z, which is Kernel's when its
// Func is nil.
type KernelFunc interface {
	// kernel returns the kernel for rows of length d with its defaults
	// filled in, or an error if a parameter is not valid.
	kernel(d int) (kern, error)
}

// Poly is the polynomial kernel (Gamma·x·z + Coef0)^Degree.
//
// Degree must not be negative; zero means 3. Gamma must be finite and not
// negative; zero means 1/d for rows of length d. Coef0 must be finite.
// The kernel of Freund and Schapire (1999), (x·z + 1)^3, is
// Poly{Degree: 3, Gamma: 1, Coef0: 1}.
type Poly struct {
	Degree int
	Gamma  float64
	Coef0  float64
}

// RBF is the Gaussian radial basis function kernel exp(-Gamma·||x-z||²).
//
// Gamma must be finite and not negative; zero means 1/d for rows of
// length d. The squared distance is computed as ||x||² + ||z||² - 2·x·z,
// clamped at zero, which loses precision on rows far from the origin
// compared with their distances: centre the data.
type RBF struct {
	Gamma float64
}

// Custom is a kernel given by a function. The function must be symmetric,
// K(x, z) = K(z, x), must not modify or retain its arguments, and must be
// safe for concurrent use: Kernel calls it from several goroutines. If it
// panics, the panic reaches the caller of the Kernel method that called
// it, on the caller's goroutine. It must not call runtime.Goexit, as
// testing's FailNow does.
type Custom func(x, z []float64) float64

func (p Poly) kernel(d int) (kern, error) {
	switch {
	case p.Degree < 0:
		return kern{}, errorf(ErrSetting, "perceptron: Poly.Degree is %d, want >= 0", p.Degree)
	case !(p.Gamma >= 0) || math.IsInf(p.Gamma, 1):
		return kern{}, badSetting(p.Gamma, "perceptron: Poly.Gamma is %v, want a finite value >= 0", p.Gamma)
	case !finite(p.Coef0):
		return kern{}, errorf(ErrNonFinite, "perceptron: Poly.Coef0 is %v, want a finite value", p.Coef0)
	}
	k := kern{kind: polyKernel, degree: p.Degree, gamma: p.Gamma, coef0: p.Coef0}
	if k.degree == 0 {
		k.degree = 3
	}
	if k.gamma == 0 {
		k.gamma = 1 / float64(d)
	}
	return k, nil
}

func (r RBF) kernel(d int) (kern, error) {
	if !(r.Gamma >= 0) || math.IsInf(r.Gamma, 1) {
		return kern{}, badSetting(r.Gamma, "perceptron: RBF.Gamma is %v, want a finite value >= 0", r.Gamma)
	}
	k := kern{kind: rbfKernel, gamma: r.Gamma}
	if k.gamma == 0 {
		k.gamma = 1 / float64(d)
	}
	return k, nil
}

func (f Custom) kernel(int) (kern, error) {
	if f == nil {
		return kern{}, errorf(ErrSetting, "perceptron: Custom kernel is nil")
	}
	return kern{kind: customKernel, f: f}, nil
}

type kernelKind int

const (
	linearKernel kernelKind = iota
	polyKernel
	rbfKernel
	customKernel
)

// kern is a kernel with its parameters resolved. The built-in kernels are
// functions of x·z and, for RBF, of the squared norms of x and z, so that
// the kernel values of many pairs come from dot products formed a matrix
// at a time, by gonum's BLAS or, several vectors at once, by simd's
// Products, to the same bits.
type kern struct {
	kind         kernelKind
	degree       int
	gamma, coef0 float64
	f            func(x, z []float64) float64
}

// norms reports whether the kernel needs the squared norms of its
// arguments.
func (k *kern) norms() bool { return k.kind == rbfKernel }

// norm returns the squared norm of x if the kernel needs it, and 0 if not.
func (k *kern) norm(x vec) float64 {
	if k.norms() {
		return x.norm2()
	}
	return 0
}

// ofDot returns the kernel value of a pair with dot product s and squared
// norms xn and zn.
func (k *kern) ofDot(s, xn, zn float64) float64 {
	switch k.kind {
	case polyKernel:
		return powi(k.gamma*s+k.coef0, k.degree)
	case rbfKernel:
		return math.Exp(-k.gamma * max(xn+zn-2*s, 0))
	}
	return s
}

// powi returns x^n by repeated squaring.
func powi(x float64, n int) float64 {
	r := 1.0
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r *= x
		}
		x *= x
	}
	return r
}

// values sets dst[q] = K(v, a_q) for the rows a_q of a, which has
// len(dst) rows. an holds the squared norms of the rows of a and vn that
// of v when the kernel needs them.
func (k *kern) values(dst []float64, a *rows, an []float64, v vec, vn float64) {
	if len(dst) == 0 {
		return
	}
	if k.kind == customKernel {
		// A Custom kernel takes dense rows: sparse ones are spread out
		// into scratch of length d.
		vb, ab := getBuffer(a.d), getBuffer(a.d)
		defer putBuffer(vb)
		defer putBuffer(ab)
		vx := v.full(*vb)
		for q := range dst {
			dst[q] = k.f(vx, a.row(q).full(*ab))
		}
		return
	}
	a.products(dst, v)
	if k.kind == linearKernel {
		return
	}
	for q, s := range dst {
		var aq float64
		if an != nil {
			aq = an[q]
		}
		dst[q] = k.ofDot(s, aq, vn)
	}
}

// manyValues is a batch of up to chunkChanges vectors whose kernel values
// with the first rows of a block are formed together: the vectors vs,
// their squared norms vn where the kernel needs them, and the number of
// rows n that each reaches; and scratch: for the values, blockRows a
// vector, and, where the batch forms many vectors' dot products at once,
// for the vectors' values xs and the work of simd.Products.
type manyValues struct {
	vs   []vec
	vn   []float64
	n    []int
	k    []float64
	xs   [][]float64
	work []float64
}

// A batch's vectors are simd.Products' at once.
const _ = uint(simd.ProductsMost - chunkChanges)

// manyMinD is the fewest features on which valuesOf forms many vectors'
// dot products at once: on fewer the kernel values' other work costs
// more than the dot products, and the batches' bookkeeping costs more
// than it saves.
const manyMinD = 32

// many reports whether valuesOf can form the kernel's values of dense
// rows of d values, or sparse ones, with many vectors at once.
func (k *kern) many(d int, sparse bool) bool {
	return k.kind != customKernel && !sparse && d >= manyMinD
}

// manyWork returns the length of the work of a manyValues for rows of d
// values whose values are formed many vectors at once, if many is true.
func manyWork(d int, many bool) int {
	if !many {
		return 0
	}
	return simd.ProductsWork(d, blockRows)
}

// manyValuesWords returns the most words of a manyValues for rows of d
// values, dense or sparse, whatever the kernel.
func manyValuesWords(d int, sparse bool) float64 {
	return float64(chunkChanges*blockRows + manyWork(d, !sparse && d >= manyMinD))
}

// newManyValues returns a manyValues for rows of d values whose values
// are formed many vectors at once if many is true.
func newManyValues(d int, many bool) *manyValues {
	mv := &manyValues{
		vs: make([]vec, 0, chunkChanges),
		vn: make([]float64, 0, chunkChanges),
		n:  make([]int, 0, chunkChanges),
		k:  make([]float64, chunkChanges*blockRows),
	}
	if many {
		mv.xs, mv.work = make([][]float64, 0, chunkChanges), make([]float64, manyWork(d, true))
	}
	return mv
}

// reset empties the batch.
func (mv *manyValues) reset() { mv.vs, mv.vn, mv.n = mv.vs[:0], mv.vn[:0], mv.n[:0] }

// add puts the vector v, of squared norm vn, in the batch, to reach the
// first n rows.
func (mv *manyValues) add(v vec, vn float64, n int) {
	mv.vs, mv.vn, mv.n = append(mv.vs, v), append(mv.vn, vn), append(mv.n, n)
}

// valuesOf returns the kernel values of the batch mv with the rows of a,
// m of them at most: its element e·m+q is K(vs[e], a_q) for q < n[e], as
// values sets it, the dot products of many vectors at once where mv was
// made to and the rows and vectors are dense; its other elements are
// left as they were. an holds the squared norms of the rows of a where
// the kernel needs them.
func (k *kern) valuesOf(m int, a *rows, an []float64, mv *manyValues) []float64 {
	dst := mv.k[:len(mv.vs)*m]
	many := mv.work != nil && k.kind != customKernel && !a.sparse()
	for _, v := range mv.vs {
		many = many && v.ind == nil
	}
	if !many {
		for e, v := range mv.vs {
			k.values(dst[e*m:e*m+mv.n[e]], a, an, v, mv.vn[e])
		}
		return dst
	}
	xs := mv.xs[:0]
	for _, v := range mv.vs {
		xs = append(xs, v.val)
	}
	simd.Products(dst, a.data, a.stride, xs, mv.n, mv.work)
	if k.kind == linearKernel {
		return dst
	}
	for e, vn := range mv.vn {
		for q, s := range dst[e*m : e*m+mv.n[e]] {
			var aq float64
			if an != nil {
				aq = an[q]
			}
			dst[e*m+q] = k.ofDot(s, aq, vn)
		}
	}
	return dst
}

// kernelJSON is the JSON form of a kernel function: its name, linear,
// poly or rbf, and the parameters of Poly and RBF. The parameters that a
// kernel does not have are zero.
type kernelJSON struct {
	Name   string  `json:"name"`
	Degree int     `json:"degree"`
	Gamma  float64 `json:"gamma"`
	Coef0  float64 `json:"coef0"`
}

// funcJSON returns the JSON form of f, or an error if f, such as a Custom
// kernel, cannot be saved.
func funcJSON(f KernelFunc) (*kernelJSON, error) {
	switch f := f.(type) {
	case nil:
		return nil, nil
	case Poly:
		return &kernelJSON{Name: "poly", Degree: f.Degree, Gamma: f.Gamma, Coef0: f.Coef0}, nil
	case *Poly:
		return funcJSON(*f)
	case RBF:
		return &kernelJSON{Name: "rbf", Gamma: f.Gamma}, nil
	case *RBF:
		return funcJSON(*f)
	}
	return nil, errorf(ErrSetting, "perceptron: a Custom kernel is a Go function, which cannot be saved")
}

// kernelFunc returns the kernel function of j, nil for the linear
// kernel.
func (j *kernelJSON) kernelFunc() (KernelFunc, error) {
	switch {
	case j.Name == "linear" && j.Degree == 0 && j.Gamma == 0 && j.Coef0 == 0:
		return nil, nil
	case j.Name == "poly":
		return Poly{Degree: j.Degree, Gamma: j.Gamma, Coef0: j.Coef0}, nil
	case j.Name == "rbf" && j.Degree == 0 && j.Coef0 == 0:
		return RBF{Gamma: j.Gamma}, nil
	}
	return nil, errorf(ErrFormat, "kernel %.20q with degree %d, gamma %v and coef0 %v, want linear, poly or rbf with their parameters alone", j.Name, j.Degree, j.Gamma, j.Coef0)
}

// json returns the JSON form of the resolved kernel k, which is not a
// Custom one.
func (k *kern) json() kernelJSON {
	name := map[kernelKind]string{linearKernel: "linear", polyKernel: "poly", rbfKernel: "rbf"}[k.kind]
	return kernelJSON{Name: name, Degree: k.degree, Gamma: k.gamma, Coef0: k.coef0}
}
