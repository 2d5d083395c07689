package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

func main() {
	h := data.Hashing{NGrams: 2, Bits: 19, NoNorm: true}
	set, err := data.Text{Hashing: h}.ReadFile("/tmp/debian-text/train.txt")
	if err != nil {
		panic(err)
	}
	idf, err := data.NewIDF(set.X)
	if err != nil {
		panic(err)
	}
	m := &data.Model{Classifier: &perceptron.Averaged{Stop: &perceptron.Stop{Tol: 1e-3, NoChange: 5}, Rand: rand.New(rand.NewPCG(1, 1))}, Hashing: &h, Scaler: idf, Normalize: true}
	runtime.GC()
	runtime.MemProfileRate = 64 << 10
	if err := m.FitInPlace(context.Background(), set); err != nil {
		panic(err)
	}
	runtime.GC()
	f, _ := os.Create("/tmp/fit.alloc")
	pprof.Lookup("allocs").WriteTo(f, 0)
	f.Close()
	fmt.Println(m.Classifier.(*perceptron.Averaged).Stats().Epochs)
}
