// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command mixing measures iterative parameter mixing (perceptron.Mix and
// LearnShard) of the averaged perceptron on shards of real data sets: the
// test accuracy after every round, the rounds needed to come within half a
// point of the accuracy of one shard after 10, and the wall time of a
// round, at GOMAXPROCS 1 and 2. It prints Markdown tables.
//
//	go run ./bench/mixing -set debian -data ../shared/data/debian-sections
//	go run ./bench/mixing -set fashion
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

func main() {
	set := flag.String("set", "debian", "the data set: debian (35 sections, sparse) or fashion (Fashion-MNIST, 10 classes)")
	dir := flag.String("data", "", "the directory of the data set (default: ../shared/data/debian-sections, /usr/share/datasets/fashion-mnist)")
	rounds := flag.Int("rounds", 20, "rounds of mixing, each an epoch of every shard")
	timed := flag.Int("timed", 3, "rounds timed for the wall time, or 0 for none")
	accuracy := flag.Bool("accuracy", true, "measure the accuracy of every round")
	flag.Parse()
	log.SetFlags(0)
	train, test, err := load(*set, *dir)
	if err != nil {
		log.Fatal(err)
	}
	n, d := train.X.Dims()
	fmt.Printf("## %s: %d training rows, %d test rows, %d features, %d classes\n\n", *set, n, len(test.Y), d, len(train.Classes))

	shardCounts := []int{1, 2, 4, 8, 16}
	if *accuracy {
		accuracies(train, test, shardCounts, *rounds)
	}
	if *timed > 0 {
		timings(train, shardCounts, *timed)
	}
}

// accuracies prints the test accuracy after every round of mixing, and
// the rounds each count of shards needs to come within half a point of
// one shard's accuracy after 10.
func accuracies(train, test *data.Set, shardCounts []int, rounds int) {
	acc := map[string][]float64{}
	fmt.Println("| shards | mixing | test accuracy after 10 | after 20 | rounds to within 0.5 points of 1 shard at 10 |")
	fmt.Println("|---:|---|---:|---:|---:|")
	var target float64
	for _, k := range shardCounts {
		for _, byMistakes := range []bool{false, true} {
			if k == 1 && byMistakes {
				continue // one shard mixes to itself either way
			}
			a := curve(train, test, k, byMistakes, rounds)
			name := fmt.Sprintf("%d/%t", k, byMistakes)
			acc[name] = a
			if k == 1 {
				target = a[9] - 0.005
			}
			need := "more than " + fmt.Sprint(rounds)
			for r, v := range a {
				if v >= target {
					need = fmt.Sprint(r + 1)
					break
				}
			}
			fmt.Printf("| %d | %s | %.2f%% | %.2f%% | %s |\n", k, mixing(k, byMistakes), 100*a[9], 100*a[min(19, len(a)-1)], need)
		}
	}
	fmt.Println()
	fmt.Println("Test accuracy (%) after each round:")
	fmt.Println()
	for _, k := range shardCounts {
		for _, byMistakes := range []bool{false, true} {
			a, ok := acc[fmt.Sprintf("%d/%t", k, byMistakes)]
			if !ok {
				continue
			}
			var s []string
			for _, v := range a {
				s = append(s, fmt.Sprintf("%.2f", 100*v))
			}
			fmt.Printf("- %d shards, %s: %s\n", k, mixing(k, byMistakes), strings.Join(s, " "))
		}
	}
	fmt.Println()
}

// timings prints the wall time of a round of FitShards at GOMAXPROCS 1
// and 2.
func timings(train *data.Set, shardCounts []int, timed int) {
	fmt.Println("| shards | round at GOMAXPROCS 1 | at GOMAXPROCS 2 | ratio to 1 shard at 2 |")
	fmt.Println("|---:|---:|---:|---:|")
	var one float64
	for _, k := range shardCounts {
		t1 := wall(train, k, timed, 1)
		t2 := wall(train, k, timed, 2)
		if k == 1 {
			one = t2.Seconds()
		}
		fmt.Printf("| %d | %v | %v | %.2f |\n", k, t1.Round(time.Millisecond), t2.Round(time.Millisecond), t2.Seconds()/one)
	}
}

func mixing(k int, byMistakes bool) string {
	switch {
	case k == 1:
		return "-"
	case byMistakes:
		return "by mistakes"
	}
	return "uniform"
}

// shards splits the rows of s into k shards, of rows drawn at random
// with a fixed seed, so that each is a sample of the set.
func shards(s *data.Set, k int) ([]mat.Matrix, [][]float64) {
	n := len(s.Y)
	order := rand.New(rand.NewPCG(1, 2)).Perm(n)
	X := make([]mat.Matrix, k)
	y := make([][]float64, k)
	for c := range k {
		var rows []int
		for p := c; p < n; p += k {
			rows = append(rows, order[p])
		}
		slices.Sort(rows)
		sub, err := s.Subset(rows)
		if err != nil {
			log.Fatal(err)
		}
		X[c], y[c] = sub.X, sub.Y
	}
	return X, y
}

// curve returns the test accuracy after each round of mixing k shards.
func curve(train, test *data.Set, k int, byMistakes bool, rounds int) []float64 {
	X, y := shards(train, k)
	m := &perceptron.Averaged{Labels: classValues(train)}
	var acc []float64
	for range rounds {
		round(m, X, y, byMistakes)
		pred := m.PredictRows(nil, test.X)
		right := 0
		for i, p := range pred {
			if p == test.Y[i] {
				right++
			}
		}
		acc = append(acc, float64(right)/float64(len(pred)))
	}
	return acc
}

// round is a round of mixing: every shard learns an epoch, in turn, and
// Mix mixes them, in the shard order.
func round(m *perceptron.Averaged, X []mat.Matrix, y [][]float64, byMistakes bool) {
	parts := make([]perceptron.Classifier, len(X))
	for k := range X {
		var err error
		if parts[k], err = perceptron.LearnShard(m, X[k], y[k]); err != nil {
			log.Fatal(err)
		}
	}
	if err := perceptron.Mix(m, parts, byMistakes); err != nil {
		log.Fatal(err)
	}
}

// wall returns the wall time of a round of FitShards of k shards at the
// given GOMAXPROCS: that of timed rounds, after an untimed run, divided by
// their number.
func wall(train *data.Set, k, timed, procs int) time.Duration {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	X, y := shards(train, k)
	fit := func(rounds int) {
		m := &perceptron.Averaged{Epochs: rounds, Labels: classValues(train)}
		if err := perceptron.FitShards(m, X, y, false); err != nil {
			log.Fatal(err)
		}
	}
	fit(1)
	start := time.Now()
	fit(timed)
	return time.Since(start) / time.Duration(timed)
}

// classValues returns the class values of a Set: the indices of its
// classes.
func classValues(s *data.Set) []float64 {
	v := make([]float64, len(s.Classes))
	for c := range v {
		v[c] = float64(c)
	}
	return v
}

func load(set, dir string) (train, test *data.Set, err error) {
	switch set {
	case "debian":
		if dir == "" {
			dir = "../shared/data/debian-sections"
		}
		train, err = readFile(filepath.Join(dir, "debian-sections.train.svm.gz"), func(r io.Reader) (*data.Set, error) { return data.LIBSVM{}.Read(r) })
		if err != nil {
			return nil, nil, err
		}
		_, d := train.X.Dims()
		test, err = readFile(filepath.Join(dir, "debian-sections.test.svm.gz"), func(r io.Reader) (*data.Set, error) {
			return data.LIBSVM{Cols: d, Classes: train.Classes}.Read(r)
		})
		if err != nil {
			return nil, nil, err
		}
		// As bench/compare does: rows of word presence scaled to unit length.
		train.X, test.X = unit(train.X.(*perceptron.CSR)), unit(test.X.(*perceptron.CSR))
		return train, test, nil
	case "fashion":
		if dir == "" {
			dir = "/usr/share/datasets/fashion-mnist"
		}
		read := func(prefix string, classes []string) (*data.Set, error) {
			im, err := os.Open(filepath.Join(dir, prefix+"-images-idx3-ubyte.gz"))
			if err != nil {
				return nil, err
			}
			defer im.Close()
			lb, err := os.Open(filepath.Join(dir, prefix+"-labels-idx1-ubyte.gz"))
			if err != nil {
				return nil, err
			}
			defer lb.Close()
			return data.IDX{Classes: classes}.Read(im, lb)
		}
		if train, err = read("train", nil); err != nil {
			return nil, nil, err
		}
		test, err = read("t10k", train.Classes)
		return train, test, err
	}
	return nil, nil, fmt.Errorf("unknown set %q, want debian or fashion", set)
}

func readFile(path string, read func(io.Reader) (*data.Set, error)) (*data.Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := read(f) // gzipped or not
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// unit returns the rows of X scaled to unit length, as bench/compare
// gives them to every system; a row of zeros stays zero.
func unit(X *perceptron.CSR) *perceptron.CSR {
	n, d := X.Dims()
	ptr := []int{0}
	var ind []int
	var val []float64
	for i := range n {
		lo := len(val)
		X.DoRowNonZero(i, func(_, j int, v float64) {
			ind = append(ind, j)
			val = append(val, v)
		})
		if norm := floats.Norm(val[lo:], 2); norm > 0 {
			floats.Scale(1/norm, val[lo:])
		}
		ptr = append(ptr, len(ind))
	}
	U, err := perceptron.NewCSR(n, d, ptr, ind, val)
	if err != nil {
		log.Fatal(err)
	}
	return U
}
