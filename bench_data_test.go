// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron_test

// The benchmarks on the Debian sections and Fashion-MNIST data sets,
// which they read through package data, by way of bench/sets: package
// data imports package perceptron, so they are in the external test
// package. Those of them that share a name with a benchmark of
// bench_test.go, BenchmarkShuffle and BenchmarkSparseCopy, run the
// sub-benchmarks of these data sets under that name, so that the names of
// every run line up for benchstat.

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/bench/sets"
)

// benchEpochs is the number of epochs each Fit benchmark runs, as in
// bench_test.go.
const benchEpochs = 10

// kernelEpochs is the number of epochs of the Kernel's Fit benchmarks, as
// in bench_test.go.
const kernelEpochs = 2

var benchSink float64

// debianSet is a training set of the Debian sections data set, read once.
type debianSet struct {
	once sync.Once
	X    *perceptron.CSR
	y    []float64
	err  error
}

var debianPair, debianClasses debianSet

// get returns the set that read returns, calling read only the first
// time, or skips b if the data are not there. The unit tests never read
// them.
func (c *debianSet) get(b *testing.B, read func() (*perceptron.CSR, []float64, error)) (*perceptron.CSR, []float64) {
	c.once.Do(func() {
		c.X, c.y, c.err = read()
		// Collect the garbage of reading the file now, not during the
		// first benchmark.
		runtime.GC()
	})
	switch {
	case errors.Is(c.err, fs.ErrNotExist):
		b.Skipf("the Debian sections data set is not in %s: %v", sets.DebianDir, c.err)
	case c.err != nil:
		b.Fatal(c.err)
	}
	return c.X, c.y
}

// benchDebian returns the training rows of libs (+1) against libdevel
// (-1) of the Debian sections data set, read once from sets.DebianDir
// beside the module, or skips b if the data are not there.
func benchDebian(b *testing.B) (*perceptron.CSR, []float64) {
	return debianPair.get(b, func() (*perceptron.CSR, []float64, error) {
		X, y, _, _, err := sets.DebianPair(sets.DebianDir, sets.Libs, sets.LibDevel)
		return X, y, err
	})
}

// benchDebianClasses returns the training rows of the Debian sections
// data set with all their classes, each row scaled to unit length as
// bench/compare scales them, read once from sets.DebianDir beside the
// module, or skips b if the data are not there.
func benchDebianClasses(b *testing.B) (*perceptron.CSR, []float64) {
	return debianClasses.get(b, func() (*perceptron.CSR, []float64, error) {
		X, y, _, _, err := sets.DebianAll(sets.DebianDir)
		if err != nil {
			return nil, nil, err
		}
		return sets.Normalize(X), y, nil
	})
}

// csrSlices returns the three slices of the compressed sparse rows of X,
// copied once, for the loops that read the rows bare: row i holds the
// values val[ptr[i]:ptr[i+1]] at the columns ind[ptr[i]:ptr[i+1]].
func csrSlices(X *perceptron.CSR) (ptr, ind []int, val []float64) {
	n, _ := X.Dims()
	ptr = make([]int, 1, n+1)
	ind = make([]int, 0, X.NNZ())
	val = make([]float64, 0, X.NNZ())
	for i := range n {
		X.DoRowNonZero(i, func(_, j int, v float64) {
			ind, val = append(ind, j), append(val, v)
		})
		ptr = append(ptr, len(ind))
	}
	return ptr, ind, val
}

// sparseRows is a sparse set as the bare loops read it.
type sparseRows struct {
	ptr, ind []int
	val      []float64
}

// fixedVector returns the fixed vector of the floors, of length d.
func fixedVector(d int) []float64 {
	v := make([]float64, d)
	for j := range v {
		v[j] = float64(j%7) - 3
	}
	return v
}

// benchFitOn runs Fit of the classifier that newC returns on X and y, and
// reports the cost of one epoch as ns/epoch and the fraction of visits
// that were mistakes, as benchFitOn of bench_test.go does.
func benchFitOn(b *testing.B, X mat.Matrix, y []float64, newC func() perceptron.Classifier) {
	var c perceptron.Classifier
	b.ReportAllocs()
	for b.Loop() {
		c = newC()
		if err := c.Fit(X, y); err != nil {
			b.Fatal(err)
		}
	}
	epochs := benchEpochs
	if s, ok := c.(interface{ Stats() perceptron.Stats }); ok {
		st := s.Stats()
		epochs = st.Epochs
		b.ReportMetric(float64(st.Mistakes)/float64(st.Epochs*len(y)), "mistakes/visit")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*epochs), "ns/epoch")
}

// BenchmarkFloorSparse passes once over the rows of the sparse set and
// takes each row's dot product with a fixed dense vector, in a bare loop
// over the non-zeros: the least work an epoch on sparse rows can do, which
// the sparse Fit benchmarks' ns/epoch is measured against.
func BenchmarkFloorSparse(b *testing.B) {
	X, _ := benchDebian(b)
	_, d := X.Dims()
	ptr, ind, val := csrSlices(X)
	r := &sparseRows{ptr, ind, val}
	v := fixedVector(d)
	var sum float64
	b.ReportAllocs()
	for b.Loop() {
		sum += sparseFloor(r, v, nil)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/epoch")
	benchSink = sum
}

// sparseFloor returns the sum of the dot products of the rows of r with
// v, in index order if order is nil and in that order otherwise. It is a
// function of its own, as b.Loop keeps the calls in its body from being
// inlined, which would slow the floor as the epochs are not.
func sparseFloor(r *sparseRows, v []float64, order []int) float64 {
	var sum float64
	if order == nil {
		for i := range len(r.ptr) - 1 {
			ind, val := r.ind[r.ptr[i]:r.ptr[i+1]], r.val[r.ptr[i]:r.ptr[i+1]]
			var s float64
			for k, j := range ind {
				s += val[k] * v[j]
			}
			sum += s
		}
		return sum
	}
	for _, i := range order {
		ind, val := r.ind[r.ptr[i]:r.ptr[i+1]], r.val[r.ptr[i]:r.ptr[i+1]]
		var s float64
		for k, j := range ind {
			s += val[k] * v[j]
		}
		sum += s
	}
	return sum
}

// BenchmarkShuffle is the BenchmarkShuffle of bench_test.go on the sparse
// libs against libdevel rows of the Debian sections data set, its
// sub-benchmarks sparse/...: the floor, a bare pass over the rows in index
// order and in a random order, and the epochs of every classifier that
// shuffles in both orders, with the ratio of the fastest shuffled epoch
// to the fastest pass in index order.
func BenchmarkShuffle(b *testing.B) {
	models := []struct {
		name   string
		epochs int
		new    func(epochs int, r *rand.Rand) perceptron.Classifier
	}{
		{"Perceptron", benchEpochs, func(e int, r *rand.Rand) perceptron.Classifier { return &perceptron.Perceptron{Epochs: e, Rand: r} }},
		{"Pocket", benchEpochs, func(e int, r *rand.Rand) perceptron.Classifier {
			return &perceptron.Pocket{Epochs: e, Rand: r, Ratchet: true}
		}},
		{"Averaged", benchEpochs, func(e int, r *rand.Rand) perceptron.Classifier { return &perceptron.Averaged{Epochs: e, Rand: r} }},
		{"Voted", benchEpochs, func(e int, r *rand.Rand) perceptron.Classifier { return &perceptron.Voted{Epochs: e, Rand: r} }},
		{"Kernel", kernelEpochs, func(e int, r *rand.Rand) perceptron.Classifier { return &perceptron.Kernel{Epochs: e, Rand: r} }},
	}
	floor := func(b *testing.B) (*sparseRows, []float64, []int) {
		X, _ := benchDebian(b)
		n, d := X.Dims()
		ptr, ind, val := csrSlices(X)
		return &sparseRows{ptr, ind, val}, fixedVector(d), rand.New(rand.NewPCG(1, 2)).Perm(n)
	}
	b.Run("sparse/Floor", func(b *testing.B) {
		r, v, order := floor(b)
		var fastest [2]time.Duration
		for b.Loop() {
			for k := range fastest {
				start := time.Now()
				if k == 0 {
					benchSink += sparseFloor(r, v, nil)
				} else {
					benchSink += sparseFloor(r, v, order)
				}
				if t := time.Since(start); fastest[k] == 0 || t < fastest[k] {
					fastest[k] = t
				}
			}
		}
		reportOrders(b, fastest, 1)
	})
	for _, m := range models {
		b.Run("sparse/"+m.name, func(b *testing.B) {
			X, y := benchDebian(b)
			r, v, _ := floor(b)
			var fastest [2]time.Duration
			var pass time.Duration
			for b.Loop() {
				start := time.Now()
				benchSink += sparseFloor(r, v, nil)
				if t := time.Since(start); pass == 0 || t < pass {
					pass = t
				}
				for k := range fastest {
					var rnd *rand.Rand
					if k == 1 {
						rnd = rand.New(rand.NewPCG(1, 2))
					}
					start := time.Now()
					if err := m.new(m.epochs, rnd).Fit(X, y); err != nil {
						b.Fatal(err)
					}
					if t := time.Since(start); fastest[k] == 0 || t < fastest[k] {
						fastest[k] = t
					}
				}
			}
			reportOrders(b, fastest, m.epochs)
			b.ReportMetric(float64(fastest[1])/float64(m.epochs)/float64(pass), "shuffled/floor")
		})
	}
}

// reportOrders reports the fastest times of epochs epochs in index order
// and shuffled, per epoch, and their ratio.
func reportOrders(b *testing.B, fastest [2]time.Duration, epochs int) {
	b.ReportMetric(float64(fastest[0].Nanoseconds())/float64(epochs), "ns/epoch-inorder")
	b.ReportMetric(float64(fastest[1].Nanoseconds())/float64(epochs), "ns/epoch-shuffled")
	b.ReportMetric(float64(fastest[1])/float64(fastest[0]), "shuffled/inorder")
}

// foreignCSR is a sparse matrix of a type that the package does not know:
// it hides the *CSR that it wraps, so that Fit copies its rows through
// DoRowNonZero, as it does those of any other mat.RowNonZeroDoer.
type foreignCSR struct{ m *perceptron.CSR }

func (f foreignCSR) Dims() (r, c int)    { return f.m.Dims() }
func (f foreignCSR) At(i, j int) float64 { return f.m.At(i, j) }
func (f foreignCSR) T() mat.Matrix       { return mat.Transpose{Matrix: f} }
func (f foreignCSR) DoRowNonZero(i int, fn func(i, j int, v float64)) {
	f.m.DoRowNonZero(i, fn)
}

// BenchmarkSparseCopy is the BenchmarkSparseCopy of bench_test.go on the
// libs against libdevel rows of the Debian sections data set, its
// sub-benchmarks debian/...: the copy of the rows of a sparse matrix of a
// foreign type that Fit makes, and a bare copy of the same non-zeros, in
// ns/nonzero.
func BenchmarkSparseCopy(b *testing.B) {
	b.Run("debian/rowsOf", func(b *testing.B) {
		X, _ := benchDebian(b)
		var ptr, ind []int
		var val []float64
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if ptr, ind, val, err = perceptron.CopyRows(foreignCSR{X}); err != nil {
				b.Fatal(err)
			}
		}
		// The copy must hold the rows of X.
		wp, wi, wv := csrSlices(X)
		if !slices.Equal(ptr, wp) || !slices.Equal(ind, wi) || !slices.Equal(val, wv) {
			b.Fatal("the copy of the foreign matrix does not hold its rows")
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*X.NNZ()), "ns/nonzero")
	})
	b.Run("debian/copy", func(b *testing.B) {
		X, _ := benchDebian(b)
		_, xi, xv := csrSlices(X)
		ind, val := make([]int, len(xi)), make([]float64, len(xv))
		b.ReportAllocs()
		for b.Loop() {
			copy(ind, xi)
			copy(val, xv)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*X.NNZ()), "ns/nonzero")
	})
}

func BenchmarkPerceptronFitSparse(b *testing.B) {
	X, y := benchDebian(b)
	benchFitOn(b, X, y, func() perceptron.Classifier { return &perceptron.Perceptron{Epochs: benchEpochs} })
}

func BenchmarkAveragedFitSparse(b *testing.B) {
	X, y := benchDebian(b)
	benchFitOn(b, X, y, func() perceptron.Classifier { return &perceptron.Averaged{Epochs: benchEpochs} })
}

// BenchmarkFloorMulticlassSparse passes once over the rows of the Debian
// sections data set and adds, for each non-zero x_j of a row, x_j times
// the weights of feature j for every class, side by side as the library
// lays them, to the row's scores, in a bare loop: the arithmetic of the
// scores that every epoch of a model of the 35 classes computes on these
// rows, the reference for the sparse multiclass Fit benchmarks' ns/epoch.
func BenchmarkFloorMulticlassSparse(b *testing.B) {
	X, _ := benchDebianClasses(b)
	_, d := X.Dims()
	ptr, ind, val := csrSlices(X)
	r := &sparseRows{ptr, ind, val}
	w := fixedVector(d * sets.DebianClasses)
	var sum float64
	b.ReportAllocs()
	for b.Loop() {
		sum += sparseClassFloor(r, w, sets.DebianClasses)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/epoch")
	benchSink = sum
}

// sparseClassFloor returns the sum of the K scores of the rows of r under
// the feature-major weights w; a function of its own for the reason
// sparseFloor is.
func sparseClassFloor(r *sparseRows, w []float64, K int) float64 {
	s := make([]float64, K)
	var sum float64
	for i := range len(r.ptr) - 1 {
		clear(s)
		ind, val := r.ind[r.ptr[i]:r.ptr[i+1]], r.val[r.ptr[i]:r.ptr[i+1]]
		for k, j := range ind {
			v, wj := val[k], w[j*K:j*K+K]
			for c := range s {
				s[c] += v * wj[c]
			}
		}
		sum += s[i%K]
	}
	return sum
}

// The sparse multiclass Fits visit the rows in a fresh order every epoch,
// as bench/compare fits them: the file is in the order of the package
// names.

func BenchmarkPerceptronFitMulticlassSparse(b *testing.B) {
	X, y := benchDebianClasses(b)
	benchFitOn(b, X, y, func() perceptron.Classifier {
		return &perceptron.Perceptron{Epochs: benchEpochs, Rand: rand.New(rand.NewPCG(1, 0))}
	})
}

func BenchmarkAveragedFitMulticlassSparse(b *testing.B) {
	X, y := benchDebianClasses(b)
	benchFitOn(b, X, y, func() perceptron.Classifier {
		return &perceptron.Averaged{Epochs: benchEpochs, Rand: rand.New(rand.NewPCG(1, 0))}
	})
}

// BenchmarkPredictRowsMulticlassSparse measures PredictRows of an
// Averaged of one epoch on the rows of the 35 Debian sections, whose
// scores read the weights of each row's columns from all over a table of
// 80 MB.
func BenchmarkPredictRowsMulticlassSparse(b *testing.B) {
	X, y := benchDebianClasses(b)
	m := &perceptron.Averaged{Epochs: 1, Rand: rand.New(rand.NewPCG(1, 0))}
	if err := m.Fit(X, y); err != nil {
		b.Fatal(err)
	}
	dst := m.PredictRows(nil, X)
	b.ReportAllocs()
	for b.Loop() {
		dst = m.PredictRows(dst, X)
	}
}

// BenchmarkKernelFashion runs one epoch of the kernel (x·z+1)^3 without a
// bias, Weka's VotedPerceptron -I 1 -E 3, on Fashion-MNIST T-shirt/top
// against Shirt: 12,000 rows of 784 pixels. It skips if the data are not
// installed.
func BenchmarkKernelFashion(b *testing.B) {
	X, y, _, _, err := sets.FashionPair(sets.FashionDir, sets.TShirt, sets.Shirt)
	if err != nil {
		b.Skipf("Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist): %v", err)
	}
	var k *perceptron.Kernel
	b.ReportAllocs()
	for b.Loop() {
		k = &perceptron.Kernel{Func: perceptron.Poly{Degree: 3, Gamma: 1, Coef0: 1}, Epochs: 1, NoBias: true}
		if err := k.Fit(X, y); err != nil {
			b.Fatal(err)
		}
	}
	sv, _, _ := k.SupportVectors()
	vectors, _ := sv.Dims()
	b.ReportMetric(float64(vectors), "vectors")
	b.ReportMetric(float64(k.Stats().Mistakes), "mistakes")
}
