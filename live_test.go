// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// learnerCase is a classifier with Learn, made afresh by new, with its
// classes in Labels.
type learnerCase struct {
	name string
	new  func() Scorer
}

func learnerCases(labels []float64) []learnerCase {
	return []learnerCase{
		{"Perceptron", func() Scorer { return &Perceptron{Labels: labels} }},
		{"Averaged", func() Scorer { return &Averaged{Labels: labels} }},
		{"Voted", func() Scorer { return &Voted{Labels: labels} }},
		{"Kernel", func() Scorer { return &Kernel{Labels: labels, Func: Poly{Degree: 2}, Prediction: PredictAveraged} }},
		{"OneVsRest", func() Scorer {
			return &OneVsRest{Labels: labels, New: func() Scorer { return &Averaged{} }}
		}},
	}
}

// TestPredictWhileLearning checks that the prediction methods of every
// classifier with Learn, called from many goroutines while one goroutine
// learns batch after batch, see the model as a whole Learn left it: the
// scores of a set of probe rows are those, to the bit, of a replica that
// learned the same batches alone, after some whole number of batches,
// never fewer than a read before saw, and a saved form, loaded again,
// scores as one of them too. Under the race detector it also checks that
// no memory is read while a Learn writes it.
func TestPredictWhileLearning(t *testing.T) {
	const batches, batch, d = 12, 40, 30
	for _, sparse := range []bool{false, true} {
		for _, labels := range [][]float64{{-1, 1}, {0, 1, 2}} {
			rnd := rand.New(rand.NewPCG(7, uint64(len(labels))))
			X, y := liveData(rnd, batches*batch+20, d, labels, sparse)
			probe := liveRows(X, batches*batch, batches*batch+20)
			for _, tc := range learnerCases(labels) {
				name := fmt.Sprintf("%s/sparse=%t/classes=%d", tc.name, sparse, len(labels))
				t.Run(name, func(t *testing.T) {
					// The replica's scores of the probe rows after each batch.
					replica := tc.new()
					var want [][]float64
					for b := range batches {
						if err := replica.(online).Learn(liveRows(X, b*batch, (b+1)*batch), y[b*batch:(b+1)*batch]); err != nil {
							t.Fatal(err)
						}
						want = append(want, replica.ScoreRows(nil, probe))
					}
					seen := func(s []float64) int {
						return slices.IndexFunc(want, func(w []float64) bool { return sameBits(w, s) })
					}
					c := tc.new()
					if err := c.(online).Learn(liveRows(X, 0, batch), y[:batch]); err != nil {
						t.Fatal(err)
					}
					var stop atomic.Bool
					var wg sync.WaitGroup
					for r := range 3 {
						wg.Add(1)
						go func() {
							defer wg.Done()
							last := 0
							for reads := 0; !stop.Load() || reads < 3; reads++ {
								var s []float64
								switch r {
								case 0:
									s = c.ScoreRows(nil, probe)
								case 1:
									b, err := Marshal(c)
									if err != nil {
										t.Errorf("Marshal: %v", err)
										return
									}
									l, err := Unmarshal(b)
									if err != nil {
										t.Errorf("Unmarshal: %v", err)
										return
									}
									s = l.ScoreRows(nil, probe)
								default:
									pred := c.PredictRows(nil, probe)
									for i := range pred {
										if p := c.Predict(rowOf(probe, i)); !slices.Contains(c.Classes(), p) {
											t.Errorf("Predict of probe %d: %v, no class", i, p)
										}
									}
									if st, ok := c.(interface{ Stats() Stats }); ok {
										_ = st.Stats()
									}
									continue
								}
								k := seen(s)
								if k < 0 {
									t.Errorf("reader %d saw scores of no whole Learn: %v", r, s[:min(6, len(s))])
									return
								}
								if k < last {
									t.Errorf("reader %d saw the model after %d batches, then after %d", r, last+1, k+1)
									return
								}
								last = k
								runtime.Gosched()
							}
						}()
					}
					for b := 1; b < batches; b++ {
						if err := c.(online).Learn(liveRows(X, b*batch, (b+1)*batch), y[b*batch:(b+1)*batch]); err != nil {
							t.Error(err)
						}
						runtime.Gosched()
					}
					stop.Store(true)
					wg.Wait()
					if k := seen(c.ScoreRows(nil, probe)); k != batches-1 {
						t.Errorf("after every batch the model scores as after %d", k+1)
					}
				})
			}
		}
	}
}

// liveData returns n rows of d columns, dense or sparse, with labels among
// labels that a line through the origin nearly separates.
func liveData(rnd *rand.Rand, n, d int, labels []float64, sparse bool) (mat.Matrix, []float64) {
	dense := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			if !sparse || rnd.IntN(4) == 0 {
				dense.Set(i, j, rnd.NormFloat64())
			}
		}
		k := int(math.Abs(dense.At(i, 0)+dense.At(i, 1)-dense.At(i, 2))*2) % len(labels)
		if rnd.IntN(10) == 0 {
			k = rnd.IntN(len(labels))
		}
		y[i] = labels[k]
	}
	if !sparse {
		return dense, y
	}
	return csrOfDense(dense), y
}

// csrOfDense returns the non-zeros of X as a CSR.
func csrOfDense(X *mat.Dense) *CSR {
	n, d := X.Dims()
	ptr := []int{0}
	var ind []int
	var val []float64
	for i := range n {
		for j := range d {
			if v := X.At(i, j); v != 0 {
				ind, val = append(ind, j), append(val, v)
			}
		}
		ptr = append(ptr, len(ind))
	}
	c, err := NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return c
}

// liveRows returns rows lo to hi-1 of X, of the same kind.
func liveRows(X mat.Matrix, lo, hi int) mat.Matrix {
	switch X := X.(type) {
	case *mat.Dense:
		_, d := X.Dims()
		return X.Slice(lo, hi, 0, d)
	case *CSR:
		_, d := X.Dims()
		dense := mat.NewDense(hi-lo, d, nil)
		for i := lo; i < hi; i++ {
			X.DoRowNonZero(i, func(_, j int, v float64) { dense.Set(i-lo, j, v) })
		}
		return csrOfDense(dense)
	}
	panic("liveRows")
}

// rowOf returns row i of X, dense.
func rowOf(X mat.Matrix, i int) []float64 { return mat.Row(nil, i, X) }

// TestPredictPaths checks that Predict of a linear classifier decides as
// PredictRows does, which reads the model through its predictor, both on a
// model published whole (after Fit, and after PredictOnly of a fitted
// Averaged), which Predict reads without counting itself in, and on one
// that Learn writes again, which it reads through the general path.
func TestPredictPaths(t *testing.T) {
	const n, d = 120, 12
	for _, labels := range [][]float64{{-1, 1}, {0, 1, 2}} {
		rnd := rand.New(rand.NewPCG(11, uint64(len(labels))))
		X, y := liveData(rnd, n, d, labels, false)
		dense := X.(*mat.Dense)
		for _, c := range []interface {
			Scorer
			lin() *linearState
		}{
			&Perceptron{Epochs: 3, Labels: labels},
			&Pocket{Epochs: 3, Labels: labels},
			&Averaged{Epochs: 3, Labels: labels},
		} {
			name := fmt.Sprintf("%T/classes=%d", c, len(labels))
			check := func(stage string, fixed bool) {
				t.Helper()
				got := c.lin().live.Read()
				got.Done()
				if got.Fixed() != fixed {
					t.Fatalf("%s %s: the view is fixed: %t, want %t", name, stage, got.Fixed(), fixed)
				}
				want := c.PredictRows(nil, X)
				for i := range n {
					if got := c.Predict(dense.RawRowView(i)); got != want[i] {
						t.Fatalf("%s %s: row %d: Predict gave %v, PredictRows %v", name, stage, i, got, want[i])
					}
				}
			}
			if err := c.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			check("after Fit", true)
			if a, ok := c.(*Averaged); ok {
				if err := PredictOnly(a); err != nil {
					t.Fatal(err)
				}
				check("after PredictOnly", true)
				if err := a.Fit(X, y); err != nil {
					t.Fatal(err)
				}
			}
			l, ok := c.(online)
			if !ok {
				continue
			}
			if err := l.Learn(X, y); err != nil {
				t.Fatal(err)
			}
			if err := l.Learn(X, y); err != nil {
				t.Fatal(err)
			}
			check("after Learn", false)
		}
	}
}
