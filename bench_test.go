// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/simd"
	"github.com/seed5ae3614e/perceptron/internal/synth"
)

// benchSizes are the (n, d) shapes of the benchmarks; 12000×784 is the size
// of a Fashion-MNIST class pair.
var benchSizes = []struct{ n, d int }{
	{1000, 10},
	{1000, 100},
	{12000, 784},
}

// benchEpochs is the number of epochs each Fit benchmark runs; the data are
// not separable, so every epoch runs.
const benchEpochs = 10

var benchCache struct {
	sync.Mutex
	sets map[[2]int]benchSet
}

type benchSet struct {
	X *mat.Dense
	y []float64
}

// benchData returns synth.Data(n, d), generated once per shape: n rows of
// d features in [0, 1), seeded, with one label in twenty flipped so that no
// line separates them.
func benchData(n, d int) (*mat.Dense, []float64) {
	benchCache.Lock()
	defer benchCache.Unlock()
	if c, ok := benchCache.sets[[2]int{n, d}]; ok {
		return c.X, c.y
	}
	X, y := synth.Data(n, d)
	if benchCache.sets == nil {
		benchCache.sets = make(map[[2]int]benchSet)
	}
	benchCache.sets[[2]int{n, d}] = benchSet{X, y}
	return X, y
}

// benchFit runs Fit of the classifier that newC returns on every size, and
// reports the cost of one epoch as ns/epoch. Each mistake costs an update
// on top of the epoch's dot products, so it also reports the fraction of
// visits that were mistakes.
func benchFit(b *testing.B, newC func() Classifier) {
	for _, sz := range benchSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			X, y := benchData(sz.n, sz.d)
			benchFitOn(b, X, y, newC)
		})
	}
}

// benchFitOn runs Fit of the classifier that newC returns on X and y, and
// reports what benchFit reports.
func benchFitOn(b *testing.B, X mat.Matrix, y []float64, newC func() Classifier) {
	var c Classifier
	b.ReportAllocs()
	for b.Loop() {
		c = newC()
		if err := c.Fit(X, y); err != nil {
			b.Fatal(err)
		}
	}
	epochs := benchEpochs
	if s, ok := c.(interface{ Stats() Stats }); ok {
		st := s.Stats()
		epochs = st.Epochs
		b.ReportMetric(float64(st.Mistakes)/float64(st.Epochs*len(y)), "mistakes/visit")
	}
	perEpoch := float64(b.Elapsed().Nanoseconds()) / float64(b.N*epochs)
	b.ReportMetric(perEpoch, "ns/epoch")
	if D, ok := X.(*mat.Dense); ok {
		b.ReportMetric(perEpoch/float64(streamFloor(D).Nanoseconds()), "epoch/stream")
	}
}

// streamFloor returns the fastest of three passes that read every row of
// X once and compute next to nothing (simd.Stream): the time to stream
// the rows, the least any pass over them can take.
func streamFloor(X *mat.Dense) time.Duration {
	var fastest time.Duration
	for range 3 {
		start := time.Now()
		benchStream = streamPass(X)
		if t := time.Since(start); fastest == 0 || t < fastest {
			fastest = t
		}
	}
	return fastest
}

// streamPass reads every row of X once, with simd.Stream.
func streamPass(X *mat.Dense) uint64 {
	n, _ := X.Dims()
	var s uint64
	for i := range n {
		s ^= simd.Stream(X.RawRowView(i))
	}
	return s
}

var benchStream uint64

// benchPredict fits c and runs its Predict on every row, for every size,
// and reports the cost of one prediction as ns/row.
func benchPredict(b *testing.B, c Classifier) {
	for _, sz := range benchSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			X, y := benchData(sz.n, sz.d)
			if err := c.Fit(X, y); err != nil {
				b.Fatal(err)
			}
			benchPredictRows(b, c, X)
		})
	}
}

// benchPredictRows runs c's Predict on every row of X, and reports the
// cost of one prediction as ns/row.
func benchPredictRows(b *testing.B, c Classifier, X *mat.Dense) {
	n, _ := X.Dims()
	var sum float64
	b.ReportAllocs()
	for b.Loop() {
		for i := range n {
			sum += c.Predict(X.RawRowView(i))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
	benchSink = sum
}

var benchSink float64

// BenchmarkFloor streams the rows once and takes each row's dot product
// with a fixed vector: the least work an epoch can do. Its ns/epoch is the
// floor that the Fit benchmarks' ns/epoch is measured against.
func BenchmarkFloor(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			X, _ := benchData(sz.n, sz.d)
			v := make([]float64, sz.d)
			for j := range v {
				v[j] = float64(j%7) - 3
			}
			var sum float64
			b.ReportAllocs()
			for b.Loop() {
				for i := range sz.n {
					sum += floats.Dot(X.RawRowView(i), v)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/epoch")
			benchSink = sum
		})
	}
}

// BenchmarkFloorStream reads every row once and computes next to nothing
// (simd.Stream): the stream floor, the time to read the rows, which the
// Fit benchmarks report their epochs against as epoch/stream, beside the
// floor of their arithmetic (BenchmarkFloor, BenchmarkFloorMulticlass).
func BenchmarkFloorStream(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			X, _ := benchData(sz.n, sz.d)
			b.ReportAllocs()
			for b.Loop() {
				benchStream ^= streamPass(X)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/epoch")
		})
	}
}

// BenchmarkShuffle compares epochs in index order with epochs in a fresh
// random order, for the floor and for every classifier that shuffles, on
// the 12000×784 dense set (its sub-benchmarks dense/...) and, in
// bench_data_test.go, where the BenchmarkShuffle of package
// perceptron_test reads the data set through package data, on the sparse
// libs against libdevel rows (sparse/...): each iteration fits in both orders, and it reports the fastest Fit of
// each as ns/epoch, and their ratio as shuffled/inorder. The fastest Fit
// is the one that the machine's other work disturbed least. The Pocket is
// Gallant's ratchet, whose counts are few: the exact pocket's counts cost
// the same in either order.
//
// A shuffled epoch on dense rows asks for the next visit's row while it
// visits one, so that the row streams in meanwhile. On dense rows the
// floor also times a bare shuffled pass that does the same, in line, as
// ns/epoch-prefetched and prefetched/inorder: the least that a shuffled
// epoch can cost. Each classifier's iteration also times a bare pass in
// index order, and reports the fastest shuffled epoch over the fastest
// such pass as shuffled/floor, measured in the same run as the epochs.
func BenchmarkShuffle(b *testing.B) {
	sets := []struct {
		name string
		data func(b *testing.B) (mat.Matrix, []float64)
	}{
		{"dense", func(*testing.B) (mat.Matrix, []float64) { return benchData(12000, 784) }},
	}
	models := []struct {
		name   string
		epochs int
		new    func(epochs int, r *rand.Rand) Classifier
	}{
		{"Perceptron", benchEpochs, func(e int, r *rand.Rand) Classifier { return &Perceptron{Epochs: e, Rand: r} }},
		{"Pocket", benchEpochs, func(e int, r *rand.Rand) Classifier { return &Pocket{Epochs: e, Rand: r, Ratchet: true} }},
		{"Averaged", benchEpochs, func(e int, r *rand.Rand) Classifier { return &Averaged{Epochs: e, Rand: r} }},
		{"Voted", benchEpochs, func(e int, r *rand.Rand) Classifier { return &Voted{Epochs: e, Rand: r} }},
		{"Kernel", kernelEpochs, func(e int, r *rand.Rand) Classifier { return &Kernel{Epochs: e, Rand: r} }},
	}
	for _, set := range sets {
		b.Run(set.name+"/Floor", func(b *testing.B) {
			X, _ := set.data(b)
			f := newFloorPass(b, X)
			// In index order, shuffled, and shuffled with the next row
			// asked for in line, on dense rows.
			passes := 2
			if !f.rows.sparse() {
				passes = 3
			}
			var fastest [3]time.Duration
			for b.Loop() {
				for k := range passes {
					start := time.Now()
					switch k {
					case 0:
						benchSink += orderFloor(f.rows, f.v, nil)
					case 1:
						benchSink += orderFloor(f.rows, f.v, f.order)
					case 2:
						benchSink += prefetchFloor(f.rows, f.v, f.order)
					}
					if t := time.Since(start); fastest[k] == 0 || t < fastest[k] {
						fastest[k] = t
					}
				}
			}
			reportOrders(b, [2]time.Duration{fastest[0], fastest[1]}, 1)
			if passes == 3 {
				b.ReportMetric(float64(fastest[2].Nanoseconds()), "ns/epoch-prefetched")
				b.ReportMetric(float64(fastest[2])/float64(fastest[0]), "prefetched/inorder")
			}
		})
		for _, m := range models {
			b.Run(set.name+"/"+m.name, func(b *testing.B) {
				X, y := set.data(b)
				f := newFloorPass(b, X)
				var fastest [2]time.Duration
				var floor time.Duration
				for b.Loop() {
					start := time.Now()
					benchSink += orderFloor(f.rows, f.v, nil)
					if t := time.Since(start); floor == 0 || t < floor {
						floor = t
					}
					for k := range fastest {
						var r *rand.Rand
						if k == 1 {
							r = rand.New(rand.NewPCG(1, 2))
						}
						start := time.Now()
						if err := m.new(m.epochs, r).Fit(X, y); err != nil {
							b.Fatal(err)
						}
						if t := time.Since(start); fastest[k] == 0 || t < fastest[k] {
							fastest[k] = t
						}
					}
				}
				reportOrders(b, fastest, m.epochs)
				b.ReportMetric(float64(fastest[1])/float64(m.epochs)/float64(floor), "shuffled/floor")
			})
		}
	}
}

// floorPass is what the bare passes of BenchmarkShuffle read: the rows
// of a set, as the classifiers read them, a fixed vector, and a random
// order of the rows.
type floorPass struct {
	rows  *rows
	v     []float64
	order []int
}

// newFloorPass returns the bare passes' view of the rows of X.
func newFloorPass(b *testing.B, X mat.Matrix) *floorPass {
	r, err := rowsOf(X)
	if err != nil {
		b.Fatal(err)
	}
	v := make([]float64, r.d)
	for j := range v {
		v[j] = float64(j%7) - 3
	}
	return &floorPass{rows: r, v: v, order: rand.New(rand.NewPCG(1, 2)).Perm(r.n)}
}

// orderFloor returns the sum of the dot products of the rows with v, in
// index order if order is nil and in that order otherwise. It is a
// function of its own, as b.Loop keeps the calls in its body from being
// inlined, which would slow the floor as the epochs are not.
func orderFloor(r *rows, v []float64, order []int) float64 {
	var sum float64
	if order == nil {
		for i := range r.n {
			x := r.row(i)
			sum += x.dot(v)
		}
		return sum
	}
	for _, i := range order {
		x := r.row(i)
		sum += x.dot(v)
	}
	return sum
}

// prefetchFloor is orderFloor of dense rows in the given order that,
// before it visits a row, asks for the cache lines of the next one, as a
// shuffled epoch does.
func prefetchFloor(r *rows, v []float64, order []int) float64 {
	var sum float64
	for p, i := range order {
		if p+1 < len(order) {
			simd.Prefetch(r.dense(order[p+1]))
		}
		x := r.row(i)
		sum += x.dot(v)
	}
	return sum
}

// reportOrders reports the fastest times of epochs epochs in index order
// and shuffled, per epoch, and their ratio.
func reportOrders(b *testing.B, fastest [2]time.Duration, epochs int) {
	b.ReportMetric(float64(fastest[0].Nanoseconds())/float64(epochs), "ns/epoch-inorder")
	b.ReportMetric(float64(fastest[1].Nanoseconds())/float64(epochs), "ns/epoch-shuffled")
	b.ReportMetric(float64(fastest[1])/float64(fastest[0]), "shuffled/inorder")
}

// BenchmarkSparseCopy measures what rowsOf pays to copy the rows of a
// sparse matrix of a type foreign to the package, which it reads through
// DoRowNonZero, against a bare copy of the same non-zeros between slices,
// the least that moving them costs: each reports ns/nonzero. It runs on
// synthetic rows, 20000 of 300000 columns with about 100 non-zeros each
// (synthetic/...), and, in bench_data_test.go, the BenchmarkSparseCopy of
// package perceptron_test on the libs against libdevel rows of the Debian
// sections data set (debian/...), which it skips if the data are not
// there.
func BenchmarkSparseCopy(b *testing.B) {
	sets := []struct {
		name string
		data func(b *testing.B) *CSR
	}{
		{"synthetic", func(*testing.B) *CSR { return benchSparse(20000, 300000, 100) }},
	}
	for _, set := range sets {
		b.Run(set.name+"/rowsOf", func(b *testing.B) {
			X := set.data(b)
			var r *rows
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if r, err = rowsOf(foreignCSR{X}); err != nil {
					b.Fatal(err)
				}
			}
			// The copy must hold the rows of X.
			if r.n != X.r || r.d != X.c || !slices.Equal(r.ptr, X.ptr) || !slices.Equal(r.ind, X.ind) || !sameBits(r.data, X.val) {
				b.Fatal("rowsOf of the foreign matrix does not hold its rows")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*X.NNZ()), "ns/nonzero")
		})
		b.Run(set.name+"/copy", func(b *testing.B) {
			X := set.data(b)
			ind, val := make([]int, X.NNZ()), make([]float64, X.NNZ())
			b.ReportAllocs()
			for b.Loop() {
				copy(ind, X.ind)
				copy(val, X.val)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*X.NNZ()), "ns/nonzero")
		})
	}
}

// foreignCSR is a sparse matrix of a type that the package does not know:
// it hides the *CSR that it wraps, so that rowsOf copies its rows through
// DoRowNonZero, as it does those of any other mat.RowNonZeroDoer. It
// yields the elements of a row in the order of the columns.
type foreignCSR struct{ m *CSR }

func (f foreignCSR) Dims() (r, c int)    { return f.m.Dims() }
func (f foreignCSR) At(i, j int) float64 { return f.m.At(i, j) }
func (f foreignCSR) T() mat.Matrix       { return mat.Transpose{Matrix: f} }
func (f foreignCSR) DoRowNonZero(i int, fn func(i, j int, v float64)) {
	f.m.DoRowNonZero(i, fn)
}

var sparseCache struct {
	sync.Mutex
	sets map[[3]int]*CSR
}

// benchSparse returns n seeded random sparse rows of d columns with about
// perRow non-zeros each, normal values at columns a random gap apart,
// generated once per shape.
func benchSparse(n, d, perRow int) *CSR {
	sparseCache.Lock()
	defer sparseCache.Unlock()
	key := [3]int{n, d, perRow}
	if X, ok := sparseCache.sets[key]; ok {
		return X
	}
	rnd := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	ptr := make([]int, 1, n+1)
	ind := make([]int, 0, n*perRow)
	val := make([]float64, 0, n*perRow)
	// Gaps uniform in [1, 2d/perRow], of mean about d/perRow.
	gap := 2 * d / perRow
	for range n {
		for j := rnd.IntN(gap); j < d; j += 1 + rnd.IntN(gap) {
			ind = append(ind, j)
			val = append(val, rnd.NormFloat64())
		}
		ptr = append(ptr, len(ind))
	}
	X, err := NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	if sparseCache.sets == nil {
		sparseCache.sets = make(map[[3]int]*CSR)
	}
	sparseCache.sets[key] = X
	return X
}

// classSizes are the (n, d) shapes of the multiclass benchmarks, each
// with classK classes; 12000×784 is the size of a Fashion-MNIST class pair.
var classSizes = []struct{ n, d int }{
	{1000, 100},
	{12000, 784},
}

// classK is the number of classes of the dense multiclass benchmarks, as
// many as Fashion-MNIST has.
const classK = 10

var classCache = map[[2]int][]float64{}

// benchClasses returns the rows of benchData(n, d) with labels of classK
// classes, 0 to classK-1: the class whose row of a seeded random teacher
// scores the row, centred, highest, with one label in twenty replaced by
// a random class, so that no linear model separates them. The same n and
// d give the same data.
func benchClasses(n, d int) (*mat.Dense, []float64) {
	X, _ := benchData(n, d)
	if y, ok := classCache[[2]int{n, d}]; ok {
		return X, y
	}
	rnd := rand.New(rand.NewPCG(uint64(n), uint64(d)+classK))
	teacher := make([]float64, classK*d)
	for j := range teacher {
		teacher[j] = rnd.NormFloat64()
	}
	y := make([]float64, n)
	centred := make([]float64, d)
	for i := range n {
		floats.AddConst(-0.5, floats.ScaleTo(centred, 1, X.RawRowView(i)))
		best := math.Inf(-1)
		for c := range classK {
			if s := floats.Dot(centred, teacher[c*d:(c+1)*d]); s > best {
				best, y[i] = s, float64(c)
			}
		}
		if rnd.IntN(20) == 0 {
			y[i] = float64(rnd.IntN(classK))
		}
	}
	classCache[[2]int{n, d}] = y
	return X, y
}

// benchClassFit runs Fit of the classifier that newC returns on every
// multiclass size, and reports what benchFit reports.
func benchClassFit(b *testing.B, newC func() Classifier) {
	for _, sz := range classSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d,K=%d", sz.n, sz.d, classK), func(b *testing.B) {
			X, y := benchClasses(sz.n, sz.d)
			benchFitOn(b, X, y, newC)
		})
	}
}

// BenchmarkFloorMulticlass streams the rows once and takes each row's dot
// product with classK fixed vectors, one after the other: the arithmetic
// of the scores that every epoch of a model of classK scores computes on
// dense rows, in a bare loop, the reference for the multiclass Fit
// benchmarks' ns/epoch.
func BenchmarkFloorMulticlass(b *testing.B) {
	for _, sz := range classSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d,K=%d", sz.n, sz.d, classK), func(b *testing.B) {
			X, _ := benchClasses(sz.n, sz.d)
			v := make([]float64, classK*sz.d)
			for j := range v {
				v[j] = float64(j%7) - 3
			}
			var sum float64
			b.ReportAllocs()
			for b.Loop() {
				sum += denseClassFloor(X, v, classK)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/epoch")
			benchSink = sum
		})
	}
}

// BenchmarkFloorScores streams the rows once and takes each row's classK
// scores under fixed weights held feature by feature, as a weight table
// holds them, with the kernel the epochs use (simd.Scores): the bare floor
// of the arithmetic of a multiclass epoch, where BenchmarkFloorMulticlass
// is the floor of classK separate dot products.
func BenchmarkFloorScores(b *testing.B) {
	for _, sz := range classSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d,K=%d", sz.n, sz.d, classK), func(b *testing.B) {
			X, _ := benchClasses(sz.n, sz.d)
			v := make([]float64, classK*sz.d)
			for j := range v {
				v[j] = float64(j%7) - 3
			}
			s := make([]float64, classK)
			b.ReportAllocs()
			for b.Loop() {
				for i := range sz.n {
					simd.Scores(s, v, X.RawRowView(i))
					benchSink += s[i%classK]
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/epoch")
		})
	}
}

// denseClassFloor returns the sum of the K dot products of each row of X
// with the K vectors of length d laid end to end in v; a function of its
// own for the reason orderFloor is.
func denseClassFloor(X *mat.Dense, v []float64, K int) float64 {
	n, d := X.Dims()
	var sum float64
	for i := range n {
		x := X.RawRowView(i)
		for c := range K {
			sum += floats.Dot(x, v[c*d:(c+1)*d])
		}
	}
	return sum
}

func BenchmarkPerceptronFitMulticlass(b *testing.B) {
	benchClassFit(b, func() Classifier { return &Perceptron{Epochs: benchEpochs} })
}

func BenchmarkAveragedFitMulticlass(b *testing.B) {
	benchClassFit(b, func() Classifier { return &Averaged{Epochs: benchEpochs} })
}

// BenchmarkPocketFitMulticlass measures the exact pocket of classK
// classes, whose counts score the rows of each class several at a time,
// on the smaller set of classes: a fit on the larger takes minutes.
func BenchmarkPocketFitMulticlass(b *testing.B) {
	sz := classSizes[0]
	b.Run(fmt.Sprintf("n=%d,d=%d,K=%d", sz.n, sz.d, classK), func(b *testing.B) {
		X, y := benchClasses(sz.n, sz.d)
		benchFitOn(b, X, y, func() Classifier { return &Pocket{Epochs: benchEpochs} })
	})
}

// BenchmarkOneVsRestFit trains a binary Perceptron per class, the way
// scikit-learn learns classK classes, where the multiclass benchmarks
// learn them together.
func BenchmarkOneVsRestFit(b *testing.B) {
	benchClassFit(b, func() Classifier {
		return &OneVsRest{New: func() Scorer { return &Perceptron{Epochs: benchEpochs} }}
	})
}

// BenchmarkOneVsRestPredict is Predict of rows of 10 columns by a
// OneVsRest of three classes, which asks each class's Perceptron for its
// score of the row: from one goroutine, and from GOMAXPROCS at once.
func BenchmarkOneVsRestPredict(b *testing.B) {
	const n, d = 1000, 10
	X, _ := benchData(n, d)
	y := make([]float64, n)
	for i := range y {
		y[i] = float64(i % 3)
	}
	o := &OneVsRest{New: func() Scorer { return &Perceptron{Epochs: benchEpochs} }}
	if err := o.Fit(X, y); err != nil {
		b.Fatal(err)
	}
	benchPredictAtOnce(b, o, X)
}

// benchPredictAtOnce runs the benchmarks of c's Predict of the rows of X
// from one goroutine, reporting ns/row, and from GOMAXPROCS at once.
func benchPredictAtOnce(b *testing.B, c Classifier, X *mat.Dense) {
	n, _ := X.Dims()
	b.Run("goroutines=1", func(b *testing.B) { benchPredictRows(b, c, X) })
	b.Run("goroutines=GOMAXPROCS", func(b *testing.B) {
		var mu sync.Mutex
		b.RunParallel(func(pb *testing.PB) {
			var sum float64
			for i := 0; pb.Next(); i = (i + 1) % n {
				sum += c.Predict(X.RawRowView(i))
			}
			mu.Lock()
			benchSink += sum
			mu.Unlock()
		})
	})
}

func BenchmarkPerceptronFit(b *testing.B) {
	benchFit(b, func() Classifier { return &Perceptron{Epochs: benchEpochs} })
}

// BenchmarkPerceptronFitShuffled adds the cost of a fresh random order in
// every epoch.
func BenchmarkPerceptronFitShuffled(b *testing.B) {
	benchFit(b, func() Classifier {
		return &Perceptron{Epochs: benchEpochs, Rand: rand.New(rand.NewPCG(1, 2))}
	})
}

func BenchmarkPerceptronPredict(b *testing.B) {
	benchPredict(b, &Perceptron{Epochs: benchEpochs})
}

// BenchmarkPerceptronPredictLearning is Predict of rows of 10 columns by
// a Perceptron that a Learn has written since its Fit, whose predictions
// count themselves in and out of the model that they read (internal/live):
// from one goroutine, and from GOMAXPROCS at once.
func BenchmarkPerceptronPredictLearning(b *testing.B) {
	const n, d = 1000, 10
	X, y := benchData(n, d)
	p := &Perceptron{Epochs: benchEpochs}
	if err := p.Fit(X, y); err != nil {
		b.Fatal(err)
	}
	if err := p.Learn(X, y); err != nil {
		b.Fatal(err)
	}
	v := p.view()
	v.Done()
	if v.Fixed() {
		b.Fatal("the model that the predictions read is not the one that Learn writes again")
	}
	benchPredictAtOnce(b, p, X)
}

func BenchmarkPocketFit(b *testing.B) {
	benchFit(b, func() Classifier { return &Pocket{Epochs: benchEpochs} })
}

func BenchmarkPocketRatchetFit(b *testing.B) {
	benchFit(b, func() Classifier { return &Pocket{Epochs: benchEpochs, Ratchet: true} })
}

func BenchmarkPocketPredict(b *testing.B) {
	benchPredict(b, &Pocket{Epochs: benchEpochs})
}

func BenchmarkAveragedFit(b *testing.B) {
	benchFit(b, func() Classifier { return &Averaged{Epochs: benchEpochs} })
}

func BenchmarkAveragedPredict(b *testing.B) {
	benchPredict(b, &Averaged{Epochs: benchEpochs})
}

func BenchmarkVotedFit(b *testing.B) {
	benchFit(b, func() Classifier { return &Voted{Epochs: benchEpochs} })
}

func BenchmarkVotedPredict(b *testing.B) {
	benchPredict(b, &Voted{Epochs: benchEpochs})
}

// BenchmarkEpoch reports, as ns/epoch, the cost of one more epoch of Fit
// on the largest size, apart from the work that Fit does once whatever the
// number of epochs (Pocket's count of the starting weights, Averaged's
// final average, Voted's copy of its rows), which it reports as ns/once:
// with t(E) the fastest of the Fits of E epochs, ns/epoch is
// (t(2·benchEpochs) - t(benchEpochs)) / benchEpochs and ns/once is
// t(benchEpochs) - benchEpochs·ns/epoch, a small difference of large
// times that noise can make negative. The fastest Fit is the one that the
// machine's other work and the page faults of fresh memory disturbed least.
func BenchmarkEpoch(b *testing.B) {
	X, y := benchData(12000, 784)
	for _, c := range []struct {
		name string
		new  func(epochs int) Classifier
	}{
		{"Perceptron", func(e int) Classifier { return &Perceptron{Epochs: e} }},
		{"Pocket", func(e int) Classifier { return &Pocket{Epochs: e} }},
		{"Averaged", func(e int) Classifier { return &Averaged{Epochs: e} }},
		{"Voted", func(e int) Classifier { return &Voted{Epochs: e} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var fastest [2]time.Duration // of benchEpochs and 2·benchEpochs epochs
			for b.Loop() {
				for k := range fastest {
					start := time.Now()
					if err := c.new((k+1)*benchEpochs).Fit(X, y); err != nil {
						b.Fatal(err)
					}
					if t := time.Since(start); fastest[k] == 0 || t < fastest[k] {
						fastest[k] = t
					}
				}
			}
			epoch := float64((fastest[1] - fastest[0]).Nanoseconds()) / benchEpochs
			b.ReportMetric(epoch, "ns/epoch")
			b.ReportMetric(float64(fastest[0].Nanoseconds())-benchEpochs*epoch, "ns/once")
		})
	}
}

// kernelEpochs is the number of epochs each Kernel Fit benchmark runs:
// an epoch costs in proportion to the support vectors, so fewer than the
// linear classifiers' benchEpochs.
const kernelEpochs = 2

// benchKernelFit runs Fit of a Kernel with kernel f for kernelEpochs epochs
// on every size, and reports the cost of one epoch as ns/epoch and the
// number of support vectors.
func benchKernelFit(b *testing.B, f KernelFunc) {
	for _, sz := range benchSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			X, y := benchData(sz.n, sz.d)
			var k *Kernel
			b.ReportAllocs()
			for b.Loop() {
				k = &Kernel{Func: f, Epochs: kernelEpochs}
				if err := k.Fit(X, y); err != nil {
					b.Fatal(err)
				}
			}
			st := k.Stats()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*st.Epochs), "ns/epoch")
			b.ReportMetric(float64(st.Mistakes)/float64(st.Epochs*sz.n), "mistakes/visit")
			b.ReportMetric(float64(k.work().m.vectors()), "vectors")
		})
	}
}

func BenchmarkKernelFitPoly(b *testing.B) {
	benchKernelFit(b, Poly{Degree: 3, Gamma: 1, Coef0: 1})
}

func BenchmarkKernelFitRBF(b *testing.B) {
	benchKernelFit(b, RBF{})
}

// benchKernel returns a Kernel fitted on benchData(n, d) with the RBF
// kernel, cached so that each size is fitted once.
func benchKernel(b *testing.B, n, d int) *Kernel {
	key := [2]int{n, d}
	if k, ok := benchKernels[key]; ok {
		return k
	}
	X, y := benchData(n, d)
	k := &Kernel{Func: RBF{}, Epochs: kernelEpochs}
	if err := k.Fit(X, y); err != nil {
		b.Fatal(err)
	}
	benchKernels[key] = k
	return k
}

var benchKernels = map[[2]int]*Kernel{}

// BenchmarkKernelPredict measures Predict with each rule, one row at a
// time: each prediction reads every support vector. It reports the number
// of support vectors.
func BenchmarkKernelPredict(b *testing.B) {
	for _, p := range []Prediction{PredictLast, PredictVoted, PredictAveraged} {
		for _, sz := range benchSizes {
			b.Run(fmt.Sprintf("%s/n=%d,d=%d", predictionNames[p], sz.n, sz.d), func(b *testing.B) {
				k := benchKernel(b, sz.n, sz.d)
				k.Prediction = p
				X, _ := benchData(sz.n, sz.d)
				var sum float64
				i := 0
				b.ReportAllocs()
				for b.Loop() {
					sum += k.Predict(X.RawRowView(i % sz.n))
					i++
				}
				benchSink = sum
				b.ReportMetric(float64(k.work().m.vectors()), "vectors")
			})
		}
	}
}

// BenchmarkKernelScoreRows measures ScoreRows on the training rows, with
// the voted rule, and reports the cost of one row as ns/row.
func BenchmarkKernelScoreRows(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			k := benchKernel(b, sz.n, sz.d)
			k.Prediction = PredictVoted
			X, _ := benchData(sz.n, sz.d)
			dst := make([]float64, sz.n)
			b.ReportAllocs()
			for b.Loop() {
				k.ScoreRows(dst, X)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sz.n), "ns/row")
			b.ReportMetric(float64(k.work().m.vectors()), "vectors")
		})
	}
}

// marginSizes are the (n, d) shapes of the margin benchmarks; 10000×100 is
// the size at which the issue asks DatasetMargin and the linear program to
// be compared.
var marginSizes = []struct{ n, d int }{
	{1000, 10},
	{1000, 100},
	{10000, 100},
}

var separableCache = map[[2]int]benchSet{}

// benchSeparable returns n rows of d features uniform in [-1, 1), labelled
// by a random hyperplane and at least 0.1 from it, so separable with a
// margin of at least 0.1 (see marginSet). The same n and d give the
// same data.
func benchSeparable(n, d int) (*mat.Dense, []float64) {
	if c, ok := separableCache[[2]int{n, d}]; ok {
		return c.X, c.y
	}
	X, y, _, _ := marginSet(rand.New(rand.NewPCG(uint64(n), uint64(d))), n, d, 0.1, true)
	separableCache[[2]int{n, d}] = benchSet{X, y}
	return X, y
}

// BenchmarkDatasetMargin computes the margin of separable data with a bias
// to the default tolerance, 1e-6, and reports the iterations it needed.
func BenchmarkDatasetMargin(b *testing.B) {
	for _, sz := range marginSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			X, y := benchSeparable(sz.n, sz.d)
			var m MaxMargin
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if m, err = DatasetMargin(X, y, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(marginRun(b, X, y, m)), "iterations")
		})
	}
}

// marginRun returns the iterations that DatasetMargin, with a bias and
// the default settings, made on X and y, which it does not report: it
// runs DatasetMargin's solver once more, and fails b unless the solver
// returns m, DatasetMargin's result, bit for bit.
func marginRun(b *testing.B, X mat.Matrix, y []float64, m MaxMargin) int {
	ds, set, err := marginData(X, y, nil)
	if err != nil {
		b.Fatal(err)
	}
	np, err := newNearest(ds, 2, 0, set.Tol)
	if err == nil {
		err = np.solve()
	}
	if err != nil {
		b.Fatal(err)
	}
	if !sameBits(np.p, m.W) || !sameBits([]float64{np.b, np.lower, np.upper}, []float64{m.B, m.Lower, m.Upper}) {
		b.Fatalf("the solver gives W %v, B %v, bounds [%v, %v]; DatasetMargin %v, %v, [%v, %v]", np.p, np.b, np.lower, np.upper, m.W, m.B, m.Lower, m.Upper)
	}
	return np.iters
}

// BenchmarkSeparable decides the separability of the same data by the
// linear program that Separable solves, d+2 rows by n+2d columns.
func BenchmarkSeparable(b *testing.B) {
	for _, sz := range marginSizes {
		b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
			X, y := benchSeparable(sz.n, sz.d)
			b.ReportAllocs()
			for b.Loop() {
				if sep, err := Separable(X, y); err != nil || !sep {
					b.Fatal(sep, err)
				}
			}
		})
	}
}

// BenchmarkSeparablePrimal decides separability by the linear program
// y_i(w·x_i+b) >= 1 written literally (see primalSeparable): n rows by
// n+2(d+1) columns, each pivot an n×n solve. At n=10000 its matrix alone
// would take 816 MB, so it runs at sizes that show how its cost grows.
func BenchmarkSeparablePrimal(b *testing.B) {
	for _, n := range []int{100, 200, 400} {
		b.Run(fmt.Sprintf("n=%d,d=10", n), func(b *testing.B) {
			X, y := benchSeparable(n, 10)
			b.ReportAllocs()
			for b.Loop() {
				if sep, err := primalSeparable(X, y); err != nil || !sep {
					b.Fatal(sep, err)
				}
			}
		})
	}
}

// BenchmarkDatasetMarginMDM runs the algorithm of Mitchell, Dem'yanov and
// Malozemov (see mdmMargin) to the same tolerance as BenchmarkDatasetMargin
// on the smallest size, and reports the pair steps it needed.
func BenchmarkDatasetMarginMDM(b *testing.B) {
	sz := marginSizes[0]
	b.Run(fmt.Sprintf("n=%d,d=%d", sz.n, sz.d), func(b *testing.B) {
		X, y := benchSeparable(sz.n, sz.d)
		set, err := new(MarginSettings).resolve()
		if err != nil {
			b.Fatal(err)
		}
		var steps int
		b.ReportAllocs()
		for b.Loop() {
			var lower, upper float64
			lower, upper, steps = mdmMargin(X, y, false, set.Tol, 10000000)
			if upper-lower > set.Tol*upper {
				b.Fatal("mdm did not converge")
			}
		}
		b.ReportMetric(float64(steps), "steps")
	})
}

// BenchmarkScoreRows times ScoreRows and PredictRows of a fitted Averaged
// on all the rows of the 12000×784 set at once, with two classes and with
// classK, and reports ns/row and the time of a call over the stream floor
// of the rows, as call/stream.
func BenchmarkScoreRows(b *testing.B) {
	for _, K := range []int{2, classK} {
		X, y := benchData(12000, 784)
		if K > 2 {
			X, y = benchClasses(12000, 784)
		}
		a := &Averaged{Epochs: 2}
		if err := a.Fit(X, y); err != nil {
			b.Fatal(err)
		}
		S := 1
		if K > 2 {
			S = K
		}
		for _, m := range []struct {
			name string
			run  func(dst []float64)
		}{
			{"ScoreRows", func(dst []float64) { a.ScoreRows(dst, X) }},
			{"PredictRows", func(dst []float64) { a.PredictRows(dst[:12000], X) }},
		} {
			b.Run(fmt.Sprintf("%s/n=12000,d=784,K=%d", m.name, K), func(b *testing.B) {
				dst := make([]float64, 12000*S)
				b.ReportAllocs()
				for b.Loop() {
					m.run(dst)
				}
				perCall := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
				b.ReportMetric(perCall/12000, "ns/row")
				b.ReportMetric(perCall/float64(streamFloor(X).Nanoseconds()), "call/stream")
			})
		}
	}
}
