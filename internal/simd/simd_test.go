// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package simd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// values returns n values of the kinds that the kernels must treat as
// gonum does: ordinary ones of both signs and many magnitudes, zeros of
// both signs, subnormals, infinities and NaNs of several payloads, the
// last three with probability odd each if odd > 0.
func values(rnd *rand.Rand, n int, odd float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		switch u := rnd.Float64(); {
		case u < odd:
			v[i] = math.Float64frombits(0x7ff8000000000000 | rnd.Uint64()&0x8007ffffffffffff)
		case u < 2*odd:
			v[i] = math.Inf(1 - 2*rnd.IntN(2))
		case u < 3*odd:
			v[i] = math.Float64frombits(rnd.Uint64() & 0x800fffffffffffff) // subnormal
		case u < 0.05:
			v[i] = math.Copysign(0, float64(1-2*rnd.IntN(2)))
		default:
			v[i] = rnd.NormFloat64() * math.Pow(2, float64(rnd.IntN(40)-20))
		}
	}
	return v
}

// paths runs f once for every set of kernels that this processor and
// build can run, the fallback's alone last, with a name for each.
func paths(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	avx2, avx512 := useAVX2, useAVX512
	defer func() { useAVX2, useAVX512 = avx2, avx512 }()
	type path struct {
		name         string
		avx2, avx512 bool
	}
	ps := []path{{"AVX-512", true, true}, {"AVX2", true, false}, {"fallback", false, false}}
	for _, p := range ps {
		if p.avx2 && !hasAVX2 || p.avx512 && !hasAVX512 {
			t.Logf("%s: not on this processor or build", p.name)
			continue
		}
		useAVX2, useAVX512 = p.avx2, p.avx512
		t.Run(p.name, f)
	}
}

// same reports whether a and b hold the same bits, NaN payloads included.
func same(a, b []float64) bool {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

// TestScoresFallback checks that every kernel of Scores gives the bits of
// gonum's matrix-vector product, on random shapes, at unaligned starts,
// with NaNs and infinities, and writes nothing outside dst.
func TestScoresFallback(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(1, 2))
		for trial := range 3000 / trialShare {
			K := 1 + rnd.IntN(40)
			if trial < 80 {
				K = 1 + trial%40
			}
			d := rnd.IntN(70)
			if trial%10 == 0 {
				d = rnd.IntN(900)
			}
			odd := 0.0
			if trial%3 == 0 {
				odd = 0.02
			}
			ox, ow, od := rnd.IntN(8), rnd.IntN(8), rnd.IntN(8)
			x := values(rnd, ox+d, odd)[ox:]
			w := values(rnd, ow+d*K+rnd.IntN(3), odd)[ow:]
			got := values(rnd, od+K+8, 0)
			want := append([]float64(nil), got...)
			Scores(got[od:od+K], w, x)
			scoresGo(want[od:od+K], w, x)
			if !same(got, want) {
				t.Fatalf("K=%d d=%d offsets %d %d %d: got %v, want %v", K, d, ox, ow, od, got[od:od+K], want[od:od+K])
			}
		}
	})
}

// TestScoresOrder checks Scores against the sums formed one term after
// another in the order of the features, starting at zero: the order the
// kernels keep, independent of gonum. NaNs are compared as NaNs.
func TestScoresOrder(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(3, 4))
		for range 500 / trialShare {
			K, d := 1+rnd.IntN(40), rnd.IntN(300)
			x, w := values(rnd, d, 0.01), values(rnd, d*K, 0.01)
			got := make([]float64, K)
			Scores(got, w, x)
			for c := range K {
				var s float64
				for j := range d {
					p := w[j*K+c] * x[j]
					s += p
				}
				if math.Float64bits(s) != math.Float64bits(got[c]) && !(math.IsNaN(s) && math.IsNaN(got[c])) {
					t.Fatalf("K=%d d=%d score %d: got %v, want %v", K, d, c, got[c], s)
				}
			}
		}
	})
}

// TestDotRowsFallback checks that DotRows gives the bits of floats.Dot on
// every row, for any number of rows, lengths, strides and starts.
func TestDotRowsFallback(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(5, 6))
		for trial := range 3000 / trialShare {
			n, d := rnd.IntN(11), rnd.IntN(70)
			if trial%10 == 0 {
				d = rnd.IntN(900)
			}
			stride := d + rnd.IntN(5)
			odd := 0.0
			if trial%3 == 0 {
				odd = 0.02
			}
			ox, ow, od := rnd.IntN(8), rnd.IntN(8), rnd.IntN(8)
			x := values(rnd, ox+max(0, (n-1)*stride+d), odd)[ox:]
			w := values(rnd, ow+d, odd)[ow:]
			got := values(rnd, od+n+8, 0)
			want := append([]float64(nil), got...)
			DotRows(got[od:od+n], x, stride, w)
			for i := range n {
				want[od+i] = floats.Dot(x[i*stride:i*stride+d], w)
			}
			if !same(got, want) {
				t.Fatalf("n=%d d=%d stride %d offsets %d %d %d: got %v, want %v", n, d, stride, ox, ow, od, got, want)
			}
		}
	})
}

// TestAxpyColumnsFallback checks that AxpyColumns gives the bits of
// gonum's two strided Axpys, on random shapes and columns, the same
// column twice among them, and touches no other element.
func TestAxpyColumnsFallback(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(7, 8))
		for trial := range 3000 / trialShare {
			K, d := 1+rnd.IntN(40), rnd.IntN(70)
			if trial%10 == 0 {
				d = rnd.IntN(900)
			}
			odd := 0.0
			if trial%3 == 0 {
				odd = 0.02
			}
			up, down := rnd.IntN(K), rnd.IntN(K)
			a, b := values(rnd, 2, odd)[0], values(rnd, 2, odd)[1]
			if trial%2 == 0 {
				b = -a
			}
			ox, ow := rnd.IntN(8), rnd.IntN(8)
			x := values(rnd, ox+d, odd)[ox:]
			got := values(rnd, ow+d*K+8, odd)
			want := append([]float64(nil), got...)
			AxpyColumns(got[ow:ow+d*K], K, x, a, up, b, down)
			axpyColumnsGo(want[ow:ow+d*K], K, x, a, up, b, down)
			if !same(got, want) {
				t.Fatalf("K=%d d=%d up %d down %d offsets %d %d: the weights differ", K, d, up, down, ox, ow)
			}
		}
	})
}

// TestScoresRowsFallback checks that ScoresRows gives, for every row, the
// bits of gonum's matrix-vector product on that row, for any number of
// rows, shapes, strides and starts, and writes nothing outside dst. The
// numbers of rows reach past two blocks of the largest kernel and end
// anywhere in a block, and every number of classes to 40 comes first, so
// that each copy of each kernel runs.
func TestScoresRowsFallback(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(9, 10))
		for trial := range 2000 / trialShare {
			n, K, d := rnd.IntN(41), 1+rnd.IntN(40), 1+rnd.IntN(70)
			if trial < 40 {
				K = 1 + trial
			}
			if trial%10 == 0 {
				d = 1 + rnd.IntN(900)
			}
			stride := d + rnd.IntN(5)
			odd := 0.0
			if trial%3 == 0 {
				odd = 0.02
			}
			ox, ow, od := rnd.IntN(8), rnd.IntN(8), rnd.IntN(8)
			x := values(rnd, ox+max(0, (n-1)*stride+d), odd)[ox:]
			w := values(rnd, ow+d*K, odd)[ow:]
			got := values(rnd, od+n*K+8, 0)
			want := append([]float64(nil), got...)
			ScoresRows(got[od:od+n*K], w, x, K, d, stride)
			for i := range n {
				scoresGo(want[od+i*K:od+i*K+K], w, x[i*stride:i*stride+d])
			}
			if !same(got, want) {
				t.Fatalf("n=%d K=%d d=%d stride %d offsets %d %d %d: the scores differ", n, K, d, stride, ox, ow, od)
			}
		}
	})
}

// TestScores3Fallback checks that Scores3 gives, for each of its three
// rows, the bits of gonum's matrix-vector product on that row, on random
// shapes, every number of classes to 40 first, at unaligned starts, with
// NaNs and infinities, and writes nothing outside dst.
func TestScores3Fallback(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(15, 16))
		for trial := range 2000 / trialShare {
			K, d := 1+rnd.IntN(40), rnd.IntN(70)
			if trial < 40 {
				K = 1 + trial
			}
			if trial%10 == 0 {
				d = rnd.IntN(900)
			}
			odd := 0.0
			if trial%3 == 0 {
				odd = 0.02
			}
			var xs [3][]float64
			for r := range xs {
				o := rnd.IntN(8)
				xs[r] = values(rnd, o+d, odd)[o:]
			}
			ow, od := rnd.IntN(8), rnd.IntN(8)
			w := values(rnd, ow+d*K+rnd.IntN(3), odd)[ow:]
			got := values(rnd, od+3*K+8, 0)
			want := append([]float64(nil), got...)
			Scores3(got[od:od+3*K], w, xs[0], xs[1], xs[2])
			for r, x := range xs {
				if d > 0 {
					scoresGo(want[od+r*K:od+(r+1)*K], w, x)
				}
			}
			if !same(got, want) {
				t.Fatalf("K=%d d=%d offsets %d %d: the scores differ", K, d, ow, od)
			}
		}
	})
}

// TestScoresSparseFallback checks that ScoresSparse gives the bits of
// gonum's AddScaled of the rows of w, on random shapes and columns, and
// writes nothing outside dst.
func TestScoresSparseFallback(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(11, 12))
		for trial := range 3000 / trialShare {
			K, d := 1+rnd.IntN(40), 1+rnd.IntN(300)
			nnz := rnd.IntN(min(d, 60) + 1)
			odd := 0.0
			if trial%3 == 0 {
				odd = 0.02
			}
			ind := rnd.Perm(d)[:nnz]
			if trial%2 == 0 {
				slices.Sort(ind)
			}
			ov, ow, od := rnd.IntN(8), rnd.IntN(8), rnd.IntN(8)
			val := values(rnd, ov+nnz, odd)[ov:]
			w := values(rnd, ow+d*K, odd)[ow:]
			got := values(rnd, od+K+8, 0)
			want := append([]float64(nil), got...)
			ScoresSparse(got[od:od+K], w, ind, val)
			scoresSparseGo(want[od:od+K], w, ind, val)
			if !same(got, want) {
				t.Fatalf("K=%d d=%d nnz=%d offsets %d %d %d: got %v, want %v", K, d, nnz, ov, ow, od, got[od:od+K], want[od:od+K])
			}
		}
	})
}

// TestStream checks Stream against the exclusive or of the values' bits
// taken one at a time, on every length to 70 and at unaligned starts.
func TestStream(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(13, 14))
		for n := range 70 {
			off := rnd.IntN(8)
			x := values(rnd, off+n, 0.05)[off:]
			var want uint64
			for _, v := range x {
				want ^= math.Float64bits(v)
			}
			if got := Stream(x); got != want {
				t.Fatalf("n=%d: got %x, want %x", n, got, want)
			}
		}
	})
}

// benchPaths runs f for every set of kernels that this processor and
// build can run, and for gonum's.
func benchPaths(b *testing.B, name string, f func(b *testing.B)) {
	avx2, avx512 := useAVX2, useAVX512
	defer func() { useAVX2, useAVX512 = avx2, avx512 }()
	for _, p := range []struct {
		name         string
		avx2, avx512 bool
	}{{"avx512", true, true}, {"avx2", true, false}, {"gonum", false, false}} {
		if p.avx2 && !hasAVX2 || p.avx512 && !hasAVX512 {
			continue
		}
		useAVX2, useAVX512 = p.avx2, p.avx512
		b.Run(name+"/path="+p.name, f)
	}
}

func BenchmarkScores(b *testing.B) {
	for _, K := range []int{2, 10, 35} {
		d := 784
		rnd := rand.New(rand.NewPCG(1, 1))
		x, w, dst := values(rnd, d, 0), values(rnd, d*K, 0), make([]float64, K)
		benchPaths(b, fmt.Sprintf("K=%d", K), func(b *testing.B) {
			for b.Loop() {
				Scores(dst, w, x)
			}
		})
	}
}

// BenchmarkScores3 times the scores of three rows at once, against
// BenchmarkScores's of one.
func BenchmarkScores3(b *testing.B) {
	for _, K := range []int{2, 10, 35} {
		d := 784
		rnd := rand.New(rand.NewPCG(1, 1))
		x, w, dst := values(rnd, 3*d, 0), values(rnd, d*K, 0), make([]float64, 3*K)
		benchPaths(b, fmt.Sprintf("K=%d", K), func(b *testing.B) {
			for b.Loop() {
				Scores3(dst, w, x[:d], x[d:2*d], x[2*d:])
			}
		})
	}
}

func BenchmarkDotRows(b *testing.B) {
	for _, d := range []int{10, 100, 784} {
		n := 256
		rnd := rand.New(rand.NewPCG(1, 1))
		x, w, dst := values(rnd, n*d, 0), values(rnd, d, 0), make([]float64, n)
		benchPaths(b, fmt.Sprintf("d=%d", d), func(b *testing.B) {
			for b.Loop() {
				DotRows(dst, x, d, w)
			}
		})
	}
}

func BenchmarkAxpyColumns(b *testing.B) {
	for _, K := range []int{2, 10, 35} {
		d := 784
		rnd := rand.New(rand.NewPCG(1, 1))
		x, w := values(rnd, d, 0), values(rnd, d*K, 0)
		benchPaths(b, fmt.Sprintf("K=%d", K), func(b *testing.B) {
			for b.Loop() {
				AxpyColumns(w, K, x, 1e-300, 0, -1e-300, K-1)
			}
		})
	}
}

func BenchmarkScoresRows(b *testing.B) {
	for _, K := range []int{2, 10, 35} {
		n, d := 256, 784
		rnd := rand.New(rand.NewPCG(1, 1))
		x, w, dst := values(rnd, n*d, 0), values(rnd, d*K, 0), make([]float64, n*K)
		benchPaths(b, fmt.Sprintf("K=%d", K), func(b *testing.B) {
			for b.Loop() {
				ScoresRows(dst, w, x, K, d, d)
			}
		})
	}
}

func BenchmarkScoresSparse(b *testing.B) {
	for _, K := range []int{2, 10, 35} {
		d, nnz := 100000, 100
		rnd := rand.New(rand.NewPCG(1, 1))
		w, dst := values(rnd, d*K, 0), make([]float64, K)
		ind := rnd.Perm(d)[:nnz]
		slices.Sort(ind)
		val := values(rnd, nnz, 0)
		benchPaths(b, fmt.Sprintf("K=%d", K), func(b *testing.B) {
			for b.Loop() {
				ScoresSparse(dst, w, ind, val)
			}
		})
	}
}

func BenchmarkStream(b *testing.B) {
	x := values(rand.New(rand.NewPCG(1, 1)), 12000*784, 0)
	benchPaths(b, "n=12000*784", func(b *testing.B) {
		for b.Loop() {
			Stream(x)
		}
	})
}

// TestProductsFallback checks that Products gives the bits of gonum's
// matrix-vector product of the first n[e] rows with each vector, on
// random shapes, numbers of vectors and rows, lengths odd and even, at
// unaligned starts, with NaNs and infinities, and writes nothing else.
func TestProductsFallback(t *testing.T) {
	paths(t, func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(9, 10))
		for trial := range 3000 / trialShare {
			ne, m, d := 1+rnd.IntN(ProductsMost), rnd.IntN(20), rnd.IntN(40)
			if trial%10 == 0 {
				d = rnd.IntN(900)
			}
			stride := d + rnd.IntN(5)
			odd := 0.0
			if trial%3 == 0 {
				odd = 0.02
			}
			n := make([]int, ne)
			xs := make([][]float64, ne)
			for e := range ne {
				n[e] = rnd.IntN(m + 1)
				if rnd.IntN(2) == 0 {
					n[e] = m
				}
				o := rnd.IntN(8)
				xs[e] = values(rnd, o+d, odd)[o:]
			}
			// a as short as the rows reached allow, and work with a
			// canary after it.
			oa, od, rows := rnd.IntN(8), rnd.IntN(8), slices.Max(n)
			a := values(rnd, oa+max(0, (rows-1)*stride+d), odd)[oa:]
			if rows == 1 && rnd.IntN(2) == 0 {
				stride = rnd.IntN(d + 1) // any stride for one row
			}
			got := values(rnd, od+ne*m+8, 0)
			want := slices.Clone(got)
			work := values(rnd, ProductsWork(d, m)+8, odd)
			canary := slices.Clone(work[ProductsWork(d, m):])
			Products(got[od:od+ne*m], a, stride, xs, n, work[:ProductsWork(d, m)])
			if !same(work[ProductsWork(d, m):], canary) {
				t.Fatalf("vectors %d, rows %v of %d, d=%d: Products writes past its work", ne, n, m, d)
			}
			for e, x := range xs {
				if n[e] == 0 || d == 0 {
					continue
				}
				blas64.Gemv(blas.NoTrans, 1,
					blas64.General{Rows: n[e], Cols: d, Stride: max(stride, d), Data: a[:max(0, (n[e]-1)*stride)+d]},
					blas64.Vector{N: d, Inc: 1, Data: x},
					0, blas64.Vector{N: n[e], Inc: 1, Data: want[od+e*m:]})
			}
			if !same(got, want) {
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Errorf("element %d: got %v, want %v", i-od, got[i], want[i])
					}
				}
				t.Fatalf("vectors %d, rows %v of %d, d=%d, stride %d, offsets %d %d", ne, n, m, d, stride, oa, od)
			}
		}
	})
}

// BenchmarkProducts times Products of ne vectors with 64 rows of d
// values on each path: 16 vectors of 784 are the kernel's Gram rows on
// Fashion-MNIST.
func BenchmarkProducts(b *testing.B) {
	const m = 64
	for _, sz := range []struct{ ne, d int }{{16, 10}, {16, 100}, {16, 784}, {8, 10}, {8, 100}} {
		rnd := rand.New(rand.NewPCG(1, 2))
		a := values(rnd, m*sz.d, 0)
		xs := make([][]float64, sz.ne)
		n := make([]int, sz.ne)
		for e := range xs {
			xs[e], n[e] = values(rnd, sz.d, 0), m
		}
		dst, work := make([]float64, sz.ne*m), make([]float64, ProductsWork(sz.d, m))
		benchPaths(b, fmt.Sprintf("ne=%d,d=%d", sz.ne, sz.d), func(b *testing.B) {
			for b.Loop() {
				Products(dst, a, sz.d, xs, n, work)
			}
		})
	}
}
