// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

// Helpers of json_test.go, sparse_test.go and prefetch_test.go. Their
// names start with jt so as not to clash with those of the other test
// files.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"

	"gonum.org/v1/gonum/mat"
)

// jtClassData returns n rows of d features with labels of K classes, the
// class values jtClassValues[:K], each of which occurs: the first K rows
// are one of each class, and the rest take the class of the greatest
// score of a random linear teacher, one in five a random class instead.
// With scaled set the features are on scales from 10^-3 to 10^3, so that
// sums round; otherwise they are small integers in [-3, 3], so that every
// sum of the linear and polynomial models is exact.
func jtClassData(rnd *rand.Rand, n, d, K int, scaled bool) (*mat.Dense, []float64) {
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	teacher := make([]float64, K*(d+1))
	for i := range teacher {
		teacher[i] = rnd.NormFloat64()
	}
	for i := range n {
		x := X.RawRowView(i)
		for j := range x {
			if scaled {
				x[j] = rnd.NormFloat64() * math.Pow(10, float64(rnd.IntN(7)-3))
			} else {
				x[j] = float64(rnd.IntN(7) - 3)
			}
		}
		c := 0
		switch {
		case i < K:
			c = i
		case rnd.IntN(5) == 0:
			c = rnd.IntN(K)
		default:
			best := math.Inf(-1)
			for k := range K {
				s := teacher[k*(d+1)+d]
				for j, v := range x {
					s += teacher[k*(d+1)+j] * v
				}
				if s > best {
					best, c = s, k
				}
			}
		}
		y[i] = jtClassValues[c]
	}
	return X, y
}

// jtClassValues are the class values of jtClassData: not 0, 1, ..., so
// that a mix-up of a class and its index shows.
var jtClassValues = []float64{-7, 2.5, 4, 9.5, 11}

// jtCSR returns the non-zeros of X as a CSR, built naively.
func jtCSR(X *mat.Dense) *CSR {
	r, c := X.Dims()
	ptr := []int{0}
	var ind []int
	var val []float64
	for i := range r {
		for j := range c {
			if v := X.At(i, j); v != 0 {
				ind, val = append(ind, j), append(val, v)
			}
		}
		ptr = append(ptr, len(ind))
	}
	m, err := NewCSR(r, c, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return m
}

// jtFresh returns the zero value of the classifier type of m.
func jtFresh(m Scorer) Scorer {
	return reflect.New(reflect.TypeOf(m).Elem()).Interface().(Scorer)
}

// jtStats returns the Stats of m, and false for OneVsRest, which has none.
func jtStats(m Scorer) (Stats, bool) {
	s, ok := m.(interface{ Stats() Stats })
	if !ok {
		return Stats{}, false
	}
	return s.Stats(), true
}

// jtSetRand sets the Rand of m, a classifier of this package but
// OneVsRest, to r.
func jtSetRand(m Scorer, r *rand.Rand) {
	switch m := m.(type) {
	case *Perceptron:
		m.Rand = r
	case *Pocket:
		m.Rand = r
	case *Averaged:
		m.Rand = r
	case *Voted:
		m.Rand = r
	case *Kernel:
		m.Rand = r
	default:
		panic(fmt.Sprintf("jtSetRand: %T", m))
	}
}

// jtSameSettings returns a description of the first exported setting in
// which a and b, classifiers of the same type, differ, or "" if none: all
// but Rand, OnUpdate and New, which are not data.
func jtSameSettings(a, b Scorer) string {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for k := range va.NumField() {
		f := va.Type().Field(k)
		switch {
		case !f.IsExported(), f.Name == "Rand", f.Name == "OnUpdate", f.Name == "New":
			continue
		}
		if x, y := va.Field(k).Interface(), vb.Field(k).Interface(); !reflect.DeepEqual(x, y) {
			return fmt.Sprintf("%s is %v and %v", f.Name, x, y)
		}
	}
	return ""
}

// jtAllocated returns the bytes that f allocates on the heap, as the
// runtime counts them in TotalAlloc, which counts every allocation, freed
// or not, whatever the garbage collector does in between.
func jtAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// jtWidth returns the number of columns of the rows of the fitted m.
func jtWidth(m Scorer) int {
	if o, ok := m.(*OneVsRest); ok {
		return jtWidth(o.models[0])
	}
	return m.(model).width()
}
