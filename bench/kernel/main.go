// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command kernel evaluates the kernel perceptron on a Fashion-MNIST class
// pair: for each configuration it fits a Kernel on the training rows,
// times the fit, and prints the test accuracy of the three prediction
// rules.
//
// Usage:
//
//	go run ./bench/kernel [flags]
//
// With no flags it runs the configurations of the README on T-shirt/top
// (+1) against Shirt (-1). The flags -kernel, -degree, -gamma, -coef0,
// -epochs, -nobias, -budget and -seeds run one configuration instead.
// -seeds n repeats it with n seeded shuffles and prints their mean.
//
// It needs Debian's dataset-fashion-mnist (or the four IDX files in
// -data) and exits with a message if they are missing.
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/fashion"
)

type config struct {
	kernel string
	degree int
	gamma  float64
	coef0  float64
	epochs int
	noBias bool
	budget int
	seed   uint64 // 0: the rows in file order
}

func (c config) fn() perceptron.KernelFunc {
	switch c.kernel {
	case "poly":
		return perceptron.Poly{Degree: c.degree, Gamma: c.gamma, Coef0: c.coef0}
	case "rbf":
		return perceptron.RBF{Gamma: c.gamma}
	case "linear":
		return perceptron.Linear{}
	}
	log.Fatalf("unknown kernel %q: want poly, rbf or linear", c.kernel)
	return nil
}

func (c config) String() string {
	var s string
	switch c.kernel {
	case "poly":
		s = fmt.Sprintf("poly (%g·x·z+%g)^%d", c.gamma, c.coef0, c.degree)
	case "rbf":
		s = fmt.Sprintf("rbf gamma=%g", c.gamma)
	default:
		s = c.kernel
	}
	if c.noBias {
		s += ", no bias"
	}
	if c.budget > 0 {
		s += fmt.Sprintf(", budget %d", c.budget)
	}
	return s
}

// readme are the configurations of the README: Weka's -I 1 -E 3, in file
// order and shuffled, and for three epochs; then the RBF kernel that comes
// closest to SVC, and the same with a budget.
var readme = []config{
	{kernel: "poly", degree: 3, gamma: 1, coef0: 1, epochs: 1, noBias: true},
	{kernel: "poly", degree: 3, gamma: 1, coef0: 1, epochs: 1, noBias: true, seed: 1},
	{kernel: "poly", degree: 3, gamma: 1, coef0: 1, epochs: 3, noBias: true, seed: 1},
	{kernel: "rbf", gamma: 0.04, epochs: 2, seed: 1},
	{kernel: "rbf", gamma: 0.04, epochs: 3, seed: 1},
	{kernel: "rbf", gamma: 0.04, epochs: 3, seed: 1, budget: 2000},
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("kernel: ")
	var (
		dir   = flag.String("data", fashion.Dir, "directory of the Fashion-MNIST IDX files")
		pair  = flag.String("pair", "tshirt-shirt", "class pair: tshirt-shirt, pullover-coat or sneaker-ankleboot")
		one   config
		seeds = flag.Int("seeds", 0, "repeat with this many seeded shuffles (0: the rows in file order)")
	)
	flag.StringVar(&one.kernel, "kernel", "", "run one configuration with this kernel: poly, rbf or linear")
	flag.IntVar(&one.degree, "degree", 3, "degree of the polynomial kernel")
	flag.Float64Var(&one.gamma, "gamma", 1, "gamma of the polynomial or RBF kernel")
	flag.Float64Var(&one.coef0, "coef0", 1, "coef0 of the polynomial kernel")
	flag.IntVar(&one.epochs, "epochs", 1, "epochs")
	flag.BoolVar(&one.noBias, "nobias", false, "train without a bias")
	flag.IntVar(&one.budget, "budget", 0, "budget on the support vectors (0: none)")
	flag.Parse()

	pos, neg := -1, -1
	for _, p := range fashion.Pairs {
		if p.Name == *pair {
			pos, neg = p.Pos, p.Neg
		}
	}
	if pos < 0 {
		log.Fatalf("unknown pair %q", *pair)
	}
	Xtr, ytr, Xte, yte, err := fashion.Pair(*dir, pos, neg)
	if err != nil {
		log.Fatalf("%v\n(install the data with: apt-get install dataset-fashion-mnist)", err)
	}
	n, d := Xtr.Dims()
	fmt.Printf("%s: %d training and %d test rows of %d pixels; GOMAXPROCS=%d\n\n", *pair, n, len(yte), d, runtime.GOMAXPROCS(0))

	configs := readme
	if one.kernel != "" {
		configs = nil
		if *seeds == 0 {
			configs = append(configs, one)
		}
		for s := range *seeds {
			c := one
			c.seed = uint64(s + 1)
			configs = append(configs, c)
		}
	}

	const row = "%-34s %-7s %6s %7s %8s %7s %7s %7s %9s %9s\n"
	fmt.Printf(row, "kernel", "order", "epochs", "fit s", "mistakes", "vectors", "last %", "voted %", "averaged %", "predict s")
	var sum [3]float64
	for _, c := range configs {
		r := run(c, Xtr, ytr, Xte, yte)
		order := "file"
		if c.seed != 0 {
			order = fmt.Sprintf("seed %d", c.seed)
		}
		fmt.Printf(row, c, order, fmt.Sprint(r.epochs), fmt.Sprintf("%.2f", r.fit.Seconds()),
			fmt.Sprint(r.mistakes), fmt.Sprint(r.vectors), fmt.Sprintf("%.2f", r.acc[0]),
			fmt.Sprintf("%.2f", r.acc[1]), fmt.Sprintf("%.2f", r.acc[2]), fmt.Sprintf("%.2f", r.predict.Seconds()))
		for i, a := range r.acc {
			sum[i] += a
		}
	}
	if len(configs) > 1 && one.kernel != "" {
		m := float64(len(configs))
		fmt.Printf(row, fmt.Sprintf("mean of %d", len(configs)), "", "", "", "", "",
			fmt.Sprintf("%.2f", sum[0]/m), fmt.Sprintf("%.2f", sum[1]/m), fmt.Sprintf("%.2f", sum[2]/m), "")
	}
}

type result struct {
	epochs, mistakes, vectors int
	fit, predict              time.Duration
	acc                       [3]float64
}

func run(c config, Xtr *mat.Dense, ytr []float64, Xte *mat.Dense, yte []float64) result {
	k := &perceptron.Kernel{Func: c.fn(), Epochs: c.epochs, NoBias: c.noBias, Budget: c.budget}
	if c.seed != 0 {
		k.Rand = rand.New(rand.NewPCG(c.seed, 0))
	}
	start := time.Now()
	if err := k.Fit(Xtr, ytr); err != nil {
		log.Fatal(err)
	}
	r := result{fit: time.Since(start)}
	st := k.Stats()
	r.epochs, r.mistakes = st.Epochs, st.Mistakes
	sv, _ := k.SupportVectors()
	r.vectors, _ = sv.Dims()
	start = time.Now()
	for i, p := range []perceptron.Prediction{perceptron.PredictLast, perceptron.PredictVoted, perceptron.PredictAveraged} {
		k.Prediction = p
		right := 0
		for j, l := range k.PredictRows(nil, Xte) {
			if l == yte[j] {
				right++
			}
		}
		r.acc[i] = 100 * float64(right) / float64(len(yte))
	}
	r.predict = time.Since(start)
	if math.IsNaN(r.acc[0]) {
		log.Fatal("no test rows")
	}
	return r
}
