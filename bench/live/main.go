// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command live measures prediction while learning (issue 43): on the
// Debian sections as raw text (go run ./bench/text -build), with the
// command's steps (word pairs hashed, IDF, rows of unit length), it fits
// an Averaged to most of the training lines, and then, for -d each, times
// one goroutine that learns the training lines left in batches of -batch
// lines, alone; one that predicts one test line at a time, alone; and
// both at once. It prints each rate, the ratios of the rates at once to
// those alone, and the memory of the model's tables against the heap
// that holds them while the learner learns beside the predictions.
//
//	go run ./bench/live [-dir /tmp/debian-text] [-d 10s] [-batch 1000] [-bits 19]
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

func main() {
	dir := flag.String("dir", "/tmp/debian-text", "the directory of train.txt and test.txt")
	d := flag.Duration("d", 10*time.Second, "the time of each phase")
	batch := flag.Int("batch", 1000, "the lines of a Learn")
	bits := flag.Int("bits", 19, "the bits of the hashing, as the command's -bits")
	held := flag.Int("held", 8000, "the training lines that the learner learns, not the fit")
	flag.Parse()
	log.SetFlags(0)

	h := data.Hashing{NGrams: 2, Bits: *bits}
	train, err := data.Text{Hashing: h}.ReadFile(filepath.Join(*dir, "train.txt"))
	if err != nil {
		log.Fatal(err)
	}
	test, err := data.Text{Hashing: h, Classes: train.Classes}.ReadFile(filepath.Join(*dir, "test.txt"))
	if err != nil {
		log.Fatal(err)
	}
	n, _ := train.X.Dims()
	fitRows := make([]int, n-*held)
	for i := range fitRows {
		fitRows[i] = i
	}
	fitSet, err := train.Subset(fitRows)
	if err != nil {
		log.Fatal(err)
	}
	idf, err := data.NewIDF(fitSet.X)
	if err != nil {
		log.Fatal(err)
	}
	clf := &perceptron.Averaged{Stop: &perceptron.Stop{}, Rand: rand.New(rand.NewPCG(1, 1))}
	m := &data.Model{Scaler: idf, Normalize: true, Classifier: clf}
	start := time.Now()
	if err := m.Fit(fitSet); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("fit %d lines in %v, %d epochs; %d lines to learn, %d to predict; GOMAXPROCS %d\n",
		len(fitRows), time.Since(start).Round(time.Millisecond), clf.Stats().Epochs, *held, testRows(test), runtime.GOMAXPROCS(0))

	// The rows as the classifier takes them, one test line a matrix, and
	// the lines to learn a batch a matrix, made before any timing.
	probes := oneRows(m, test.X, 2000)
	batches, labels := learnBatches(m, train, n-*held, n, *batch)

	var mem runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&mem)
	w, _ := clf.Weights()
	table := 2 * 8 * float64(len(w)) // the running weights and their sums
	base := float64(mem.HeapAlloc)

	// After a Learn an Averaged predicts from its weights and their sums
	// both, where after Fit from the sums alone: the predictions alone are
	// timed on the model as the learner leaves it.
	learnAlone, _, perLearn := learnFor(clf, batches, labels, *d, nil)
	runtime.GC()
	runtime.ReadMemStats(&mem)
	twice := float64(mem.HeapAlloc)
	predictAlone := predictFor(clf, probes, *d, nil)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var predictBoth float64
	wg.Add(1)
	go func() {
		defer wg.Done()
		predictBoth = predictFor(clf, probes, 0, &stop)
	}()
	learnBoth, peak, _ := learnFor(clf, batches, labels, *d, &stop)
	wg.Wait()

	fmt.Printf("predictions a second, one line each:  alone %10.0f   beside the learner %10.0f   ratio %.2f\n", predictAlone, predictBoth, predictBoth/predictAlone)
	fmt.Printf("lines learned a second, %d a Learn: alone %10.0f   beside the predictions %9.0f   ratio %.2f\n", *batch, learnAlone, learnBoth, learnBoth/learnAlone)
	fmt.Printf("the model's tables %.0f MB; heap after the fit %.0f MB, after Learns %.0f MB (%.2f times the tables), at most %.0f MB beside the predictions, garbage included; %.2f MB allocated a Learn\n",
		table/1e6, base/1e6, twice/1e6, twice/table, peak/1e6, perLearn/1e6)
}

// testRows returns the rows of s.
func testRows(s *data.Set) int {
	n, _ := s.X.Dims()
	return n
}

// oneRows returns the first k rows of X, transformed by the steps of m,
// each a matrix of one row.
func oneRows(m *data.Model, X mat.Matrix, k int) []mat.Matrix {
	T, err := m.Transform(X)
	if err != nil {
		log.Fatal(err)
	}
	n, _ := T.Dims()
	rows := make([]mat.Matrix, 0, min(k, n))
	for i := range min(k, n) {
		rows = append(rows, sliceRows(T, i, i+1))
	}
	return rows
}

// learnBatches returns the rows lo to hi-1 of s, transformed by the steps
// of m, in batches of b rows, and the class values of each batch's rows.
func learnBatches(m *data.Model, s *data.Set, lo, hi, b int) ([]mat.Matrix, [][]float64) {
	idx := make([]int, hi-lo)
	for i := range idx {
		idx[i] = lo + i
	}
	sub, err := s.Subset(idx)
	if err != nil {
		log.Fatal(err)
	}
	T, err := m.Transform(sub.X)
	if err != nil {
		log.Fatal(err)
	}
	values := m.Classifier.Classes()
	var Xs []mat.Matrix
	var ys [][]float64
	for i := 0; i+b <= hi-lo; i += b {
		y := make([]float64, b)
		for k := range y {
			y[k] = values[slicesIndex(m.Classes, sub.Classes[int(sub.Y[i+k])])]
		}
		Xs, ys = append(Xs, sliceRows(T, i, i+b)), append(ys, y)
	}
	return Xs, ys
}

func slicesIndex(classes []string, c string) int {
	for k, l := range classes {
		if l == c {
			return k
		}
	}
	log.Fatalf("the class %q of a line to learn is none of the model's", c)
	return -1
}

// sliceRows returns rows lo to hi-1 of the sparse rows T as a CSR.
func sliceRows(T mat.Matrix, lo, hi int) mat.Matrix {
	_, d := T.Dims()
	nz := T.(mat.RowNonZeroDoer)
	ptr := []int{0}
	var ind []int
	var val []float64
	for i := lo; i < hi; i++ {
		nz.DoRowNonZero(i, func(_, j int, v float64) {
			ind, val = append(ind, j), append(val, v)
		})
		ptr = append(ptr, len(ind))
	}
	c, err := perceptron.NewCSR(hi-lo, d, ptr, ind, val)
	if err != nil {
		log.Fatal(err)
	}
	return c
}

// predictFor predicts the rows one at a time, in turn, for d, or until
// stop is set, and returns the predictions a second.
func predictFor(c perceptron.Scorer, rows []mat.Matrix, d time.Duration, stop *atomic.Bool) float64 {
	dst := make([]float64, 1)
	start, count := time.Now(), 0
	for k := 0; ; k++ {
		c.PredictRows(dst, rows[k%len(rows)])
		count++
		if count%256 == 0 && (stop != nil && stop.Load() || stop == nil && time.Since(start) > d) {
			break
		}
	}
	return float64(count) / time.Since(start).Seconds()
}

// learnFor learns the batches in turn for d, then sets stop, if not nil,
// and returns the rows learned a second, the most heap in use at the end
// of a Learn, and the bytes that a Learn allocated on average. It reads
// the heap by runtime/metrics, which, unlike runtime.ReadMemStats, does
// not stop the goroutine that predicts.
func learnFor(c *perceptron.Averaged, Xs []mat.Matrix, ys [][]float64, d time.Duration, stop *atomic.Bool) (rate, peak, perLearn float64) {
	m := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(m)
	allocs := m[0].Value.Uint64()
	start, rows, k := time.Now(), 0, 0
	for ; time.Since(start) < d; k++ {
		if err := c.Learn(Xs[k%len(Xs)], ys[k%len(ys)]); err != nil {
			log.Fatal(err)
		}
		rows += len(ys[k%len(ys)])
		metrics.Read(m)
		peak = max(peak, float64(m[1].Value.Uint64()))
	}
	rate = float64(rows) / time.Since(start).Seconds()
	if stop != nil {
		stop.Store(true)
	}
	perLearn = float64(m[0].Value.Uint64()-allocs) / float64(k)
	debug.FreeOSMemory()
	return rate, peak, perLearn
}
