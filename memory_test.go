// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/limit"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// wideCSR returns two sparse rows of 2^40 columns, whose model would take
// 8 TiB a score.
func wideCSR(t testing.TB) (*CSR, []float64) {
	X, err := NewCSR(2, 1<<40, []int{0, 1, 2}, []int{5, 1 << 39}, []float64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	return X, []float64{-1, 1}
}

// memoryCases are the calls whose sizes come from their input, each of
// which must refuse a size beyond the memory with an error of kind
// ErrTooLarge, and leave its classifier as it was.
func memoryCases(t testing.TB) []struct {
	name string
	run  func() (any, error)
} {
	X, y := wideCSR(t)
	fit := func(c Scorer) func() (any, error) { return func() (any, error) { return c, c.Fit(X, y) } }
	learn := func(c interface {
		Scorer
		Learn(mat.Matrix, []float64) error
	}) func() (any, error) {
		return func() (any, error) { return c, c.Learn(X, y) }
	}
	labels := []float64{-1, 1}
	return []struct {
		name string
		run  func() (any, error)
	}{
		{"Perceptron.Fit", fit(&Perceptron{})},
		{"Pocket.Fit", fit(&Pocket{})},
		{"Averaged.Fit", fit(&Averaged{})},
		{"Voted.Fit", fit(&Voted{})},
		{"OneVsRest.Fit", fit(&OneVsRest{})},
		{"Perceptron.Learn", learn(&Perceptron{Labels: labels})},
		{"Averaged.Learn", learn(&Averaged{Labels: labels})},
		{"Voted.Learn", learn(&Voted{Labels: labels})},
		{"FitShards", func() (any, error) {
			a := &Averaged{}
			return a, FitShards(a, []mat.Matrix{X, X}, [][]float64{y, y}, true)
		}},
		{"DenseCopy", func() (any, error) {
			// A matrix that is neither raw nor sparse is copied whole.
			p := &Perceptron{}
			y := make([]float64, 1<<20)
			y[0] = 1
			return p, p.Fit(bigZeros{}, y)
		}},
	}
}

// bigZeros is a matrix of 2^20 rows of 2^20 zeros, read element by
// element: a copy would take 8 TiB.
type bigZeros struct{}

func (bigZeros) Dims() (int, int)    { return 1 << 20, 1 << 20 }
func (bigZeros) At(int, int) float64 { return 0 }
func (b bigZeros) T() mat.Matrix     { return mat.Transpose{Matrix: b} }

// TestMemoryErrors checks that every call of memoryCases returns an error
// of kind ErrTooLarge that says what needs how much, and changes nothing;
// the machine's memory and swap bound them, whatever else does.
func TestMemoryErrors(t *testing.T) {
	for _, c := range memoryCases(t) {
		m, err := c.run()
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "needs") || !strings.HasPrefix(err.Error(), "perceptron: ") {
			t.Errorf("%s: %v, want an error of kind ErrTooLarge", c.name, err)
			continue
		}
		if c, ok := m.(Scorer); ok && c.Classes() != nil {
			t.Errorf("%s failed but left classes %v", c, c.Classes())
		}
	}
}

// TestGoMemoryLimit checks that Go's memory limit is a budget: a model of
// 16 MiB fits without one, and not under a limit 8 MiB above what the
// process holds.
func TestGoMemoryLimit(t *testing.T) {
	X := mat.NewDense(2, 1<<21, nil)
	X.Set(0, 0, 1)
	y := []float64{-1, 1}
	if err := (&Averaged{}).Fit(X, y); err != nil {
		t.Fatal(err)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(heapNow() + 8<<20)
	a := &Averaged{}
	err := a.Fit(X, y)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "Go's memory limit") {
		t.Fatalf("Fit of 3 tables of 16 MiB under a limit 8 MiB away: %v", err)
	}
	b, err := json.Marshal(&Perceptron{})
	if err == nil || !errors.Is(err, ErrNotFitted) {
		t.Errorf("Marshal of an unfitted Perceptron: %s, %v", b, err)
	}
}

// heapNow returns the bytes that count toward Go's memory limit, after
// returning to the system what Go holds free, which it would return once
// a limit set near them is reached, leaving more room than the limit
// meant.
func heapNow() int64 {
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.Sys - ms.HeapReleased)
}

// TestMemoryLimitSubprocess runs memoryCases, and the loading of a model
// whose weights would not fit, in a process whose address space is
// limited as `ulimit -v 1600000` limits it, some 400 MB above what Go
// reserves at its start: each must end in an error, never in Go's fatal
// "out of memory".
func TestMemoryLimitSubprocess(t *testing.T) {
	if !limit.Supported() {
		t.Skip("no lowered RLIMIT_AS here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r, err := limit.Run(time.Minute, 1600000, nil, []string{"PERCEPTRON_MEMORY_CHILD=1"}, exe, "-test.run=^TestMemoryChild$", "-test.v")
	if err != nil {
		t.Fatal(err)
	}
	if r.Code != 0 || r.Fatal() {
		t.Fatalf("the child exits %d:\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(string(r.Stdout), "left under the limit of address space") {
		t.Errorf("the child did not meet the limit of address space:\n%s", r.Stdout)
	}
}

// TestMemoryChild is TestMemoryLimitSubprocess's child.
func TestMemoryChild(t *testing.T) {
	if os.Getenv("PERCEPTRON_MEMORY_CHILD") == "" {
		t.Skip("run by TestMemoryLimitSubprocess")
	}
	for _, c := range memoryCases(t) {
		_, err := c.run()
		fmt.Printf("%s: %v\n", c.name, err)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v, want an error of kind ErrTooLarge", c.name, err)
		}
	}
	// A saved Perceptron whose weights, 2^25 zeros, take 256 MiB, from a
	// file of 64 MiB.
	head := `{"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":null,"stop":null},"model":{"classes":[-1,1],"weights":[`
	tail := `0],"biases":[0],"throughOrigin":false},"stats":{"epochs":0,"converged":false,"mistakes":0,"epochMistakes":[],"epochLoss":[]}}`
	b := make([]byte, 0, len(head)+2<<25+len(tail))
	b = append(b, head...)
	for range 1<<25 - 1 {
		b = append(b, '0', ',')
	}
	b = append(b, tail...)
	_, err := Unmarshal(b)
	fmt.Printf("Unmarshal: %v\n", err)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("Unmarshal of 2^25 weights: %v, want an error of kind ErrTooLarge", err)
	}
}

// TestMemoryOfClasses checks the package documentation's account of what
// grows with the classes, on the data set of issue 47: 10^5 rows of one
// column, each of a class of its own, which Averaged's Fit and Kernel's
// refuse as needing 8·S·(3·(d+1)+1.25·n) and 16·S·n bytes, and little
// more.
func TestMemoryOfClasses(t *testing.T) {
	const n, d = 100000, 1
	ptr, ind, val, y := make([]int, n+1), make([]int, n), make([]float64, n), make([]float64, n)
	for i := range n {
		ptr[i+1], val[i], y[i] = i+1, float64(i%7), float64(i)
	}
	X, err := NewCSR(n, d, ptr, ind, val)
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(heapNow() + 1<<30)
	S := float64(n) // a score per class
	for _, c := range []struct {
		m    Scorer
		need float64
	}{
		{&Averaged{}, 8 * S * (3*(d+1) + 1.25*n)},
		{&Kernel{}, 16 * S * n},
	} {
		err := c.m.Fit(X, y)
		var m *memory.Error
		if !errors.Is(err, ErrTooLarge) || !errors.As(err, &m) {
			t.Errorf("%T: %v, want an error of kind ErrTooLarge", c.m, err)
			continue
		}
		if !(m.Need >= c.need && m.Need <= 1.001*c.need) {
			t.Errorf("%T needs %v bytes, want %v and little more", c.m, m.Need, c.need)
		}
	}
}
