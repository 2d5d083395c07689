// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sparseSet returns n rows of d small integers, most of them zero, as a
// CSR and as the same matrix dense, with labels of K classes, the values
// jtClassValues[:K]: for two classes from a sparse hyperplane, for more
// from the sums of the rows over the columns of each class, the first K
// rows one of each class; a few labels are flipped to another class.
func sparseSet(rnd *rand.Rand, n, d, K int) (*CSR, *mat.Dense, []float64) {
	dense := mat.NewDense(n, d, nil)
	ptr := []int{0}
	var ind []int
	var val []float64
	y := make([]float64, n)
	for i := range n {
		s := make([]float64, K)
		for j := range d {
			if rnd.IntN(5) != 0 {
				continue
			}
			v := float64(rnd.IntN(7) - 3)
			if v == 0 {
				continue
			}
			dense.Set(i, j, v)
			ind = append(ind, j)
			val = append(val, v)
			s[j%K] += v
		}
		ptr = append(ptr, len(ind))
		c := 0
		switch {
		case K == 2:
			if s[0] > 0.5 {
				c = 1
			}
		case i < K:
			c = i
		default:
			c = argmax(s, -1)
		}
		if rnd.IntN(8) == 0 {
			c = (c + 1) % K
		}
		y[i] = jtClassValues[c]
	}
	X, err := NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return X, dense, y
}

// doer is a mat.RowNonZeroDoer that is not a CSR, which the classifiers
// copy once, sparse. Its At panics: a RowNonZeroDoer is read through
// DoRowNonZero alone, never element by element.
type doer struct{ *CSR }

func (d doer) DoRowNonZero(i int, fn func(i, j int, v float64)) { d.CSR.DoRowNonZero(i, fn) }
func (d doer) At(i, j int) float64                              { panic("doer: At called") }
func (d doer) T() mat.Matrix                                    { return mat.Transpose{Matrix: d} }

// setRand gives c a source of the seed to shuffle with, if shuffle.
func setRand(c Scorer, shuffle bool, seed uint64) {
	if !shuffle {
		return
	}
	r := rand.New(rand.NewPCG(seed, 7))
	if o, ok := c.(*OneVsRest); ok {
		o.New = func() Scorer { return &Perceptron{Epochs: 4, Rand: r} }
		return
	}
	jtSetRand(c, r)
}

// statsOf returns the Stats of c, or the zero Stats for OneVsRest.
func statsOf(c Scorer) Stats {
	s, _ := jtStats(c)
	return s
}

// TestSparseMatchesDense fits every classifier on sparse integer rows as
// a CSR, as another mat.RowNonZeroDoer and dense, of two classes and
// more: the sums are exact, so the Stats, the weights, the support vectors
// and their coefficients, and every score and class, of dense rows and of
// sparse ones, must be the same to the bit. The support vectors of a
// Kernel trained on sparse rows are a CSR, and a dense matrix otherwise.
func TestSparseMatchesDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(61, 62))
	trials := 60
	if testing.Short() || raceEnabled {
		trials = 20
	}
	for trial := range trials {
		K := 2 + trial%3/2*(1+rnd.IntN(3))
		n, d := K+5+rnd.IntN(60), 1+rnd.IntN(40)
		X, D, y := sparseSet(rnd, n, d, K)
		seed := rnd.Uint64()
		epochs := 1 + rnd.IntN(8)
		shuffle := trial%2 == 0
		noBias := trial%5 == 4
		makers := []func() Scorer{
			func() Scorer { return &Perceptron{Epochs: epochs, NoBias: noBias} },
			func() Scorer { return &Pocket{Epochs: epochs, NoBias: noBias} },
			func() Scorer { return &Pocket{Epochs: epochs, NoBias: noBias, Ratchet: true} },
			func() Scorer { return &Averaged{Epochs: epochs, NoBias: noBias} },
			func() Scorer { return &Voted{Epochs: epochs, NoBias: noBias} },
			func() Scorer { return &Kernel{Epochs: epochs, NoBias: noBias} },
			func() Scorer {
				return &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, Epochs: epochs, NoBias: noBias, Prediction: PredictVoted}
			},
			func() Scorer {
				return &Kernel{Func: Poly{Degree: 3, Gamma: 0.5}, Epochs: epochs, Budget: 5, Prediction: PredictAveraged}
			},
			func() Scorer { return &OneVsRest{} },
		}
		for k, mk := range makers {
			var fits []Scorer
			for _, data := range []mat.Matrix{D, X, doer{X}} {
				c := mk()
				setRand(c, shuffle, seed)
				if err := c.Fit(data, y); err != nil {
					t.Fatal(err)
				}
				fits = append(fits, c)
			}
			dense := fits[0]
			want := func(X mat.Matrix) ([]float64, []float64) { return dense.ScoreRows(nil, X), dense.PredictRows(nil, X) }
			wantD, classesD := want(D)
			for f, c := range fits[1:] {
				name := fmt.Sprintf("trial %d, %T %d, fit %d", trial, c, k, f+1)
				if !reflect.DeepEqual(statsOf(c), statsOf(dense)) {
					t.Fatalf("%s: Stats %+v sparse, %+v dense", name, statsOf(c), statsOf(dense))
				}
				if w, ok := c.(interface{ Weights() ([]float64, []float64) }); ok {
					ws, bs := w.Weights()
					wd, bd := dense.(interface{ Weights() ([]float64, []float64) }).Weights()
					if !sameBits(ws, wd) || !sameBits(bs, bd) {
						t.Fatalf("%s: weights %v, %v sparse, %v, %v dense", name, ws, bs, wd, bd)
					}
				}
				if kc, ok := c.(*Kernel); ok {
					kd := dense.(*Kernel)
					saved := kc.Prediction
					for _, rule := range jtRules {
						kc.Prediction, dense.(*Kernel).Prediction = rule, rule
						svs, cs, bs := kc.SupportVectors()
						svd, cd, bd := dense.(*Kernel).SupportVectors()
						if _, ok := svs.(*CSR); !ok || !mat.Equal(svs, svd) || !sameBits(cs, cd) || !sameBits(bs, bd) {
							t.Fatalf("%s, rule %d: support vectors %T %v, coefficients %v, %v sparse; %T %v, %v, %v dense", name, rule, svs, mat.Formatted(svs), cs, bs, svd, mat.Formatted(svd), cd, bd)
						}
						if _, ok := svd.(*mat.Dense); !ok {
							t.Fatalf("%s: support vectors of dense rows are a %T", name, svd)
						}
						for _, Xs := range []mat.Matrix{D, X} {
							if s, w := kc.ScoreRows(nil, Xs), dense.ScoreRows(nil, Xs); !sameBits(s, w) {
								t.Fatalf("%s, rule %d: scores %v sparse, %v dense", name, rule, s, w)
							}
						}
					}
					kc.Prediction, kd.Prediction = saved, saved
				}
				for _, Xs := range []mat.Matrix{D, X, doer{X}} {
					s, cl := c.ScoreRows(nil, Xs), c.PredictRows(nil, Xs)
					if !sameBits(s, wantD) || !slices.Equal(cl, classesD) {
						t.Fatalf("%s: scores %v, classes %v of %T rows; the dense fit %v, %v", name, s, cl, Xs, wantD, classesD)
					}
				}
			}
		}
	}
}

// TestSparseJSON saves classifiers fitted on sparse rows, of a CSR and of
// another mat.RowNonZeroDoer: Voted and Kernel store their rows sparse,
// and save them so, and every classifier loads to one that scores every
// row as before, and as the one fitted on the rows dense.
func TestSparseJSON(t *testing.T) {
	rnd := rand.New(rand.NewPCG(63, 64))
	for _, K := range []int{2, 3} {
		X, D, y := sparseSet(rnd, 80, 30, K)
		for _, mk := range []func() Scorer{
			func() Scorer { return &Voted{Epochs: 3} },
			func() Scorer { return &Kernel{Func: RBF{Gamma: 0.1}, Epochs: 3, Budget: 20} },
			func() Scorer { return &Kernel{Func: jtPoly1Func, Epochs: 3, Prediction: PredictAveraged} },
			func() Scorer { return &Averaged{Epochs: 3} },
			func() Scorer { return &OneVsRest{New: func() Scorer { return &Voted{Epochs: 2} }} },
		} {
			var saved [][]byte
			var scores [][]float64
			for _, data := range []mat.Matrix{X, doer{X}, D} {
				c := mk()
				if err := c.Fit(data, y); err != nil {
					t.Fatal(err)
				}
				b, err := json.Marshal(c)
				if err != nil {
					t.Fatal(err)
				}
				_, isAveraged := c.(*Averaged)
				_, isDense := data.(*mat.Dense)
				if sparse := strings.Contains(string(b), `"sparse":true`); sparse != (!isAveraged && !isDense) || strings.Contains(string(b), `"sparse":false`) != (!isAveraged && isDense) {
					t.Errorf("%T of %T rows saves its rows sparse %t: %.300s", c, data, sparse, b)
				}
				saved = append(saved, b)
				scores = append(scores, c.ScoreRows(nil, D))
				jtCheckRoundTrip(t, fmt.Sprintf("%T of %T rows", c, data), c, D)
			}
			// The fits of the CSR and of the other RowNonZeroDoer save the
			// same.
			if string(saved[0]) != string(saved[1]) {
				t.Errorf("the fit of a CSR saves as\n%s\nof another RowNonZeroDoer as\n%s", saved[0], saved[1])
			}
			// The sums are exact: the fit of the rows dense scores the same.
			if !sameBits(scores[0], scores[2]) || !sameBits(scores[1], scores[2]) {
				t.Errorf("the fits of sparse rows score %v and %v, of dense ones %v", scores[0], scores[1], scores[2])
			}
		}
	}
}

func TestNewCSRErrors(t *testing.T) {
	for _, c := range []struct {
		r, c int
		ptr  []int
		ind  []int
		val  []float64
		want string
	}{
		{-1, 2, nil, nil, nil, "dimensions -1×2, want them >= 0"},
		{2, -3, nil, nil, nil, "dimensions 2×-3, want them >= 0"},
		{0, 2, nil, nil, nil, "ptr has 0 elements, want 1 (rows+1)"},
		{2, 2, []int{0, 1}, []int{0}, []float64{1}, "ptr has 2 elements, want 3 (rows+1)"},
		{math.MaxInt, 2, []int{0, 1}, []int{0}, []float64{1}, "ptr has 2 elements, want"},
		{1, 2, []int{1, 1}, []int{0}, []float64{1}, "ptr[0] is 1, want 0"},
		{1, 2, []int{0, 1}, []int{0}, []float64{1, 2}, "1 column indices and 2 values, want as many"},
		{1, 2, []int{0, 2}, []int{0}, []float64{1}, "ptr[1] is 2, want 1 (the number of values)"},
		{3, 2, []int{0, 2, 1, 2}, []int{0, 1}, []float64{1, 2}, "row 1 spans [2, 1), want a span of [0, 2)"},
		{3, 2, []int{0, 3, 1, 2}, []int{0, 1}, []float64{1, 2}, "row 0 spans [0, 3), want a span of [0, 2)"},
		{1, 2, []int{0, 1}, []int{2}, []float64{1}, "row 0: column 2 is out of range [0, 2)"},
		{1, 2, []int{0, 1}, []int{-1}, []float64{1}, "row 0: column -1 is out of range [0, 2)"},
		{1, 0, []int{0, 1}, []int{0}, []float64{1}, "row 0: column 0 is out of range [0, 0)"},
		{1, 3, []int{0, 2}, []int{1, 1}, []float64{1, 2}, "row 0: column 1 appears twice"},
		{2, 3, []int{0, 0, 2}, []int{2, 1}, []float64{1, 2}, "row 1: column 1 comes after column 2, want increasing columns"},
		{1, 3, []int{0, 1}, []int{1}, []float64{math.NaN()}, "row 0: column 1 is NaN, want a finite value"},
		{1, 3, []int{0, 1}, []int{1}, []float64{math.Inf(-1)}, "row 0: column 1 is -Inf, want a finite value"},
	} {
		m, err := NewCSR(c.r, c.c, c.ptr, c.ind, c.val)
		if m != nil || err == nil || !strings.HasPrefix(err.Error(), "perceptron: NewCSR: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewCSR(%d, %d, %v, %v, %v): %v, error %v, want one containing %q", c.r, c.c, c.ptr, c.ind, c.val, m, err, c.want)
		}
	}
}

// TestCSRShapeErrors checks that a CSR of no columns, or of no rows, is
// valid, and that Fit and Learn of every classifier refuse it as they
// refuse any such matrix, and that a fitted classifier panics scoring it.
func TestCSRShapeErrors(t *testing.T) {
	noCols, err := NewCSR(3, 0, []int{0, 0, 0, 0}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := noCols.Dims(); r != 3 || c != 0 || noCols.NNZ() != 0 {
		t.Fatalf("NewCSR(3, 0) is %d×%d with %d non-zeros", r, c, noCols.NNZ())
	}
	noRows, err := NewCSR(0, 1, []int{0}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	y3 := []float64{1, -1, 1}
	for _, m := range jtZeros() {
		for _, c := range []struct {
			X    mat.Matrix
			y    []float64
			want string
		}{
			{noCols, y3, "perceptron: X has no columns"},
			{doer{noCols}, y3, "perceptron: X has no columns"},
			{noRows, nil, "perceptron: X has no rows"},
			{&CSR{}, nil, "perceptron: X has no rows"},
		} {
			if err := m.Fit(c.X, c.y); err == nil || err.Error() != c.want {
				t.Errorf("%T.Fit of a %T: %v, want %q", m, c.X, err, c.want)
			}
			if l, ok := m.(onlineLearner); ok {
				reflect.ValueOf(m).Elem().FieldByName("Labels").Set(reflect.ValueOf([]float64{-1, 1}))
				if err := l.Learn(c.X, c.y); err == nil || err.Error() != c.want {
					t.Errorf("%T.Learn of a %T: %v, want %q", m, c.X, err, c.want)
				}
				if l.Classes() != nil {
					t.Errorf("%T: a failed Learn fits it", m)
				}
			}
		}
		// A fitted classifier panics scoring rows of no columns.
		X, y := twoPoints()
		if err := m.Fit(jtCSR(X), y); err != nil {
			t.Fatal(err)
		}
		mustPanic(t, fmt.Sprintf("%T.ScoreRows of no columns", m), "X has 0 columns, want 1", func() { m.ScoreRows(nil, noCols) })
		mustPanic(t, fmt.Sprintf("%T.PredictRows of no columns", m), "X has 0 columns, want 1", func() { m.PredictRows(nil, noCols) })
		if got := m.ScoreRows(nil, noRows); len(got) != 0 {
			t.Errorf("%T: ScoreRows of no rows gives %v", m, got)
		}
	}
}

// TestCSRMatrix checks the CSR's methods against a naive reading of its
// three slices: Dims, At, T, NNZ and DoRowNonZero, on random matrices
// with explicit zeros, and their panics out of range.
func TestCSRMatrix(t *testing.T) {
	rnd := rand.New(rand.NewPCG(71, 72))
	for range 50 {
		r, c := rnd.IntN(6), rnd.IntN(6)
		ptr, ind, val := []int{0}, []int{}, []float64{}
		for range r {
			for j := range c {
				if rnd.IntN(3) == 0 {
					ind, val = append(ind, j), append(val, float64(rnd.IntN(5)-2)) // zeros too
				}
			}
			ptr = append(ptr, len(ind))
		}
		X, err := NewCSR(r, c, slices.Clone(ptr), slices.Clone(ind), slices.Clone(val))
		if err != nil {
			t.Fatal(err)
		}
		// The naive reading: the elements of row i are at
		// ptr[i]..ptr[i+1]-1, every other element is zero.
		want := make([][]float64, r)
		for i := range r {
			want[i] = make([]float64, c)
			for k := ptr[i]; k < ptr[i+1]; k++ {
				want[i][ind[k]] = val[k]
			}
		}
		if gr, gc := X.Dims(); gr != r || gc != c || X.NNZ() != len(ind) {
			t.Fatalf("Dims %d×%d, NNZ %d, want %d×%d, %d", gr, gc, X.NNZ(), r, c, len(ind))
		}
		T := X.T()
		if tr, tc := T.Dims(); tr != c || tc != r {
			t.Fatalf("T is %d×%d, want %d×%d", tr, tc, c, r)
		}
		for i := range r {
			for j := range c {
				if X.At(i, j) != want[i][j] || T.At(j, i) != want[i][j] {
					t.Fatalf("At(%d, %d) = %v, T().At(%d, %d) = %v, want %v", i, j, X.At(i, j), j, i, T.At(j, i), want[i][j])
				}
			}
			var got []float64
			X.DoRowNonZero(i, func(ii, j int, v float64) {
				if ii != i {
					t.Fatalf("DoRowNonZero(%d) calls with row %d", i, ii)
				}
				got = append(got, float64(j), v)
			})
			var wantRow []float64
			for k := ptr[i]; k < ptr[i+1]; k++ {
				wantRow = append(wantRow, float64(ind[k]), val[k])
			}
			if !slices.Equal(got, wantRow) {
				t.Fatalf("DoRowNonZero(%d) gives (column, value) %v, want %v", i, got, wantRow)
			}
		}
		mustPanic(t, "At of row -1", mat.ErrRowAccess.Error(), func() { X.At(-1, 0) })
		mustPanic(t, "At of row r", mat.ErrRowAccess.Error(), func() { X.At(r, 0) })
		if r > 0 {
			mustPanic(t, "At of column c", mat.ErrColAccess.Error(), func() { X.At(0, c) })
			mustPanic(t, "At of column -1", mat.ErrColAccess.Error(), func() { X.At(0, -1) })
		}
		mustPanic(t, "DoRowNonZero of row r", mat.ErrRowAccess.Error(), func() { X.DoRowNonZero(r, func(int, int, float64) {}) })
		mustPanic(t, "DoRowNonZero of row -1", mat.ErrRowAccess.Error(), func() { X.DoRowNonZero(-1, func(int, int, float64) {}) })
	}
	var empty CSR
	if r, c := empty.Dims(); r != 0 || c != 0 || empty.NNZ() != 0 {
		t.Errorf("the zero CSR is %d×%d with %d non-zeros", r, c, empty.NNZ())
	}
}

// badDoer yields the elements of its rows as given, checked or not.
type badDoer struct {
	n, d int
	rows [][]struct {
		j int
		v float64
	}
}

func (b badDoer) Dims() (int, int)    { return b.n, b.d }
func (b badDoer) At(i, j int) float64 { panic("badDoer: At called") }
func (b badDoer) T() mat.Matrix       { return mat.Transpose{Matrix: b} }
func (b badDoer) DoRowNonZero(i int, fn func(i, j int, v float64)) {
	for _, e := range b.rows[i] {
		fn(i, e.j, e.v)
	}
}

// TestRowNonZeroDoerErrors checks that a mat.RowNonZeroDoer whose rows
// are not valid is an error of Fit and Learn, naming the row and the
// column, and changing nothing, and a panic of the scoring methods; and
// that its rows come sorted whatever the order it yields them in.
func TestRowNonZeroDoerErrors(t *testing.T) {
	type e = struct {
		j int
		v float64
	}
	y := []float64{1, -1}
	for _, c := range []struct {
		rows [][]e
		want string
	}{
		{[][]e{{{0, 1}}, {{3, 1}}}, "perceptron: X row 1: column 3 is out of range [0, 3)"},
		{[][]e{{{0, 1}}, {{-1, 1}}}, "perceptron: X row 1: column -1 is out of range [0, 3)"},
		{[][]e{{{0, 1}}, {{1, math.NaN()}}}, "perceptron: X row 1: column 1 is NaN, want a finite value"},
		{[][]e{{{0, math.Inf(1)}}, {}}, "perceptron: X row 0: column 0 is +Inf, want a finite value"},
		{[][]e{{{2, 1}, {2, 1}}, {}}, "perceptron: X row 0: column 2 appears twice"},
		{[][]e{{{2, 1}, {0, 1}, {2, 1}}, {}}, "perceptron: X row 0: column 2 appears twice"},
	} {
		X := badDoer{2, 3, c.rows}
		for _, m := range jtZeros() {
			if err := m.Fit(X, y); err == nil || err.Error() != c.want {
				t.Errorf("%T.Fit: error %v, want %q", m, err, c.want)
			}
		}
		// Learn changes nothing.
		p := &Perceptron{}
		if err := p.Fit(mat.NewDense(2, 3, []float64{1, 0, 0, -1, 0, 0}), y); err != nil {
			t.Fatal(err)
		}
		before, _ := json.Marshal(p)
		if err := p.Learn(X, y); err == nil || err.Error() != c.want {
			t.Errorf("Learn: error %v, want %q", err, c.want)
		}
		if after, _ := json.Marshal(p); string(after) != string(before) {
			t.Errorf("a failed Learn changes the perceptron to %s", after)
		}
		mustPanic(t, "ScoreRows", c.want, func() { p.ScoreRows(nil, X) })
		mustPanic(t, "PredictRows", c.want, func() { p.PredictRows(nil, X) })
	}
	// Unsorted rows are sorted, and train as the rows dense.
	rows := [][]e{{{2, 1}, {0, 2}}, {{1, -1}, {0, 1}}}
	D := mat.NewDense(2, 3, []float64{2, 0, 1, 1, -1, 0})
	for _, m := range []func() Scorer{
		func() Scorer { return &Perceptron{Epochs: 5} },
		func() Scorer { return &Voted{Epochs: 5} },
		func() Scorer { return &Kernel{Epochs: 5, Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}} },
	} {
		p, q := m(), m()
		if err := p.Fit(badDoer{2, 3, rows}, y); err != nil {
			t.Fatal(err)
		}
		if err := q.Fit(D, y); err != nil {
			t.Fatal(err)
		}
		if a, b := p.ScoreRows(nil, D), q.ScoreRows(nil, D); !sameBits(a, b) {
			t.Errorf("%T: unsorted rows score %v, the dense rows %v", p, a, b)
		}
		if a, b := p.ScoreRows(nil, badDoer{2, 3, rows}), q.ScoreRows(nil, D); !sameBits(a, b) {
			t.Errorf("%T: unsorted rows scored %v, the dense rows %v", p, a, b)
		}
	}
}

// TestSparseLearn checks that Learn on sparse rows, of a CSR and of
// another mat.RowNonZeroDoer, learns as Learn on each row dense does, and
// that epochs of it in order from a fresh classifier given Labels are
// the epochs of a Fit of the rows dense, with Rand nil: the same model,
// scores to the bit on integer data, and the same mistakes.
func TestSparseLearn(t *testing.T) {
	rnd := rand.New(rand.NewPCG(65, 66))
	for trial := range 20 {
		K := 2 + trial%2
		X, D, y := sparseSet(rnd, 40, 12, K)
		labels := jtClassValues[:K]
		epochs := 1 + rnd.IntN(3)
		for _, mk := range []func() onlineLearner{
			func() onlineLearner { return &Perceptron{Labels: labels, Epochs: epochs} },
			func() onlineLearner { return &Averaged{Labels: labels, Epochs: epochs} },
			func() onlineLearner { return &Voted{Labels: labels, Epochs: epochs} },
			func() onlineLearner { return &Kernel{Labels: labels, Epochs: epochs} },
			func() onlineLearner {
				return &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, Labels: labels, Epochs: epochs, Prediction: PredictAveraged}
			},
		} {
			sparse, foreign, rows, fit := mk(), mk(), mk(), mk()
			for range epochs {
				if err := sparse.Learn(X, y); err != nil {
					t.Fatal(err)
				}
				if err := foreign.Learn(doer{X}, y); err != nil {
					t.Fatal(err)
				}
				for i := range y {
					if err := learnOne(rows, D.RawRowView(i), y[i]); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := fit.Fit(D, y); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("trial %d, %T", trial, fit)
			want := statsOf(fit).Mistakes
			for k, m := range []onlineLearner{sparse, foreign, rows} {
				if got := statsOf(m).Mistakes; got != want {
					t.Fatalf("%s, learner %d: %d mistakes, Fit %d", name, k, got, want)
				}
				for _, Xs := range []mat.Matrix{D, X} {
					rules := []Prediction{0}
					if _, ok := m.(*Kernel); ok {
						rules = jtRules
					}
					for _, rule := range rules {
						if kl, ok := m.(*Kernel); ok {
							kl.Prediction, fit.(*Kernel).Prediction = rule, rule
						}
						if a, b := m.ScoreRows(nil, Xs), fit.ScoreRows(nil, Xs); !sameBits(a, b) {
							t.Fatalf("%s, learner %d, rule %d: scores %v, Fit's %v", name, k, rule, a, b)
						}
						if a, b := m.PredictRows(nil, Xs), fit.PredictRows(nil, Xs); !slices.Equal(a, b) {
							t.Fatalf("%s, learner %d, rule %d: classes %v, Fit's %v", name, k, rule, a, b)
						}
					}
				}
				if w, ok := m.(interface{ Weights() ([]float64, []float64) }); ok {
					wl, bl := w.Weights()
					wf, bf := fit.(interface{ Weights() ([]float64, []float64) }).Weights()
					if !sameBits(wl, wf) || !sameBits(bl, bf) {
						t.Fatalf("%s, learner %d: weights %v, %v; Fit's %v, %v", name, k, wl, bl, wf, bf)
					}
				}
			}
		}
	}
	// Learn checks every row before it learns one: an infinity of row 1
	// leaves the perceptron as it was.
	p := &Perceptron{Labels: []float64{-1, 1}}
	for _, c := range []struct {
		X    mat.Matrix
		want string
	}{
		{mat.NewDense(2, 2, []float64{1, 0, 1, math.Inf(1)}), "perceptron: X[1, 1] is +Inf, want a finite value"},
		{badDoer{2, 2, [][]struct {
			j int
			v float64
		}{{{0, 1}}, {{1, math.Inf(1)}}}}, "perceptron: X row 1: column 1 is +Inf, want a finite value"},
	} {
		if err := p.Learn(c.X, []float64{1, -1}); err == nil || err.Error() != c.want || p.Classes() != nil || statsOf(p).Mistakes != 0 {
			t.Errorf("Learn on an infinity of a %T: %v, classes %v", c.X, err, p.Classes())
		}
	}
}

// TestSparseCustomKernel checks that a Custom kernel sees dense rows when
// the data are sparse, and trains and scores as on the dense data.
func TestSparseCustomKernel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(67, 68))
	X, D, y := sparseSet(rnd, 50, 9, 2)
	f := Custom(func(x, z []float64) float64 {
		if len(x) != 9 || len(z) != 9 {
			panic("not a dense row")
		}
		s := 1.0
		for j := range x {
			s += x[j] * z[j]
		}
		return s * s
	})
	ks, kd := &Kernel{Func: f, Epochs: 4}, &Kernel{Func: f, Epochs: 4}
	if err := ks.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	if err := kd.Fit(D, y); err != nil {
		t.Fatal(err)
	}
	for _, Xs := range []mat.Matrix{D, X} {
		if a, b := ks.ScoreRows(nil, Xs), kd.ScoreRows(nil, Xs); !sameBits(a, b) {
			t.Fatalf("%T rows: %v fitted sparse, %v dense", Xs, a, b)
		}
	}
}

// sparseCertificate checks that m.Lower is the geometric margin of m.W,
// m.B on the rows of D, computed naively, that the bounds are in order,
// and, for separable data, within tol of each other.
func sparseCertificate(t *testing.T, name string, D *mat.Dense, y []float64, m MaxMargin, tol float64) {
	t.Helper()
	n, d := D.Dims()
	var nw, r float64
	for _, v := range m.W {
		nw += v * v
	}
	nw = math.Sqrt(nw)
	got := math.Inf(1)
	for i := range n {
		s, xx := m.B, 0.0
		for j := range d {
			s += m.W[j] * D.At(i, j)
			xx += D.At(i, j) * D.At(i, j)
		}
		got = math.Min(got, y[i]*s/nw)
		r = math.Max(r, math.Sqrt(xx))
	}
	if math.Abs(got-m.Lower) > 1e-12*(math.Abs(m.Lower)+r+math.Abs(m.B)/nw) {
		t.Errorf("%s: Lower = %v, but the hyperplane has margin %v", name, m.Lower, got)
	}
	if m.Lower > m.Upper || m.Upper < 0 {
		t.Errorf("%s: bounds [%v, %v] out of order", name, m.Lower, m.Upper)
	}
	if m.Lower > 0 && m.Upper-m.Lower > tol*m.Upper {
		t.Errorf("%s: bounds [%v, %v] further apart than %v", name, m.Lower, m.Upper, tol)
	}
}

// TestSparseMargins checks the margin routines on sparse rows against the
// same rows dense, and that they run on rows far too wide to be held
// dense.
func TestSparseMargins(t *testing.T) {
	const tol = 1e-6 // the default tolerance
	rnd := rand.New(rand.NewPCG(69, 70))
	for trial := range 20 {
		n, d := 10+rnd.IntN(60), 2+rnd.IntN(30)
		X, D, y := sparseSet(rnd, n, d, 2)
		for i := range y {
			y[i] = sign(y[i]) // -7 and 2.5: the labels -1 and +1 of the margin routines
		}
		w := make([]float64, d)
		for j := range w {
			w[j] = float64(rnd.IntN(5) - 2)
		}
		for _, f := range []func(mat.Matrix, []float64, []float64, float64) (float64, error){FunctionalMargin, GeometricMargin, PerceptronCriterion, ZeroOneError} {
			a, err1 := f(X, y, w, 0.5)
			b, err2 := f(D, y, w, 0.5)
			c, err3 := f(doer{X}, y, w, 0.5)
			if err1 != nil || err2 != nil || err3 != nil || a != b || c != b {
				t.Fatalf("trial %d: %v (%v) sparse, %v (%v) dense, %v (%v) foreign", trial, a, err1, b, err2, c, err3)
			}
		}
		// Labels from a hyperplane with a gap make the data separable.
		for i := range n {
			s := 0.25
			X.DoRowNonZero(i, func(_, j int, v float64) {
				if j == 0 {
					s += v
				}
			})
			y[i] = sign(s)
		}
		for _, noBias := range []bool{false, true} {
			set := &MarginSettings{NoBias: noBias}
			ms, err1 := DatasetMargin(X, y, set)
			md, err2 := DatasetMargin(D, y, set)
			if (err1 == nil) != (err2 == nil) || ms.Lower > md.Upper*(1+1e-9) || md.Lower > ms.Upper*(1+1e-9) {
				t.Fatalf("trial %d, NoBias %v: sparse margin in [%v, %v] (%v), dense in [%v, %v] (%v)", trial, noBias, ms.Lower, ms.Upper, err1, md.Lower, md.Upper, err2)
			}
			if err1 == nil {
				sparseCertificate(t, "sparse", D, y, ms, tol)
			}
			bs, err1 := NovikoffBound(X, y, set)
			bd, err2 := NovikoffBound(D, y, set)
			if (err1 == nil) != (err2 == nil) || math.Abs(bs.R-bd.R) > 1e-12*bd.R || math.Abs(bs.Margin-bd.Margin) > 2*tol*bd.Margin {
				t.Fatalf("trial %d, NoBias %v: sparse bound %+v (%v), dense %+v (%v)", trial, noBias, bs, err1, bd, err2)
			}
		}
	}
	// A million columns, two non-zeros a row: dense, 800 MB.
	const n, d = 100, 1 << 20
	ptr, ind, val := []int{0}, []int(nil), []float64(nil)
	y := make([]float64, n)
	for i := range n {
		j := rnd.IntN(d - 1)
		ind = append(ind, j, d-1)
		val = append(val, float64(i%7+1), 1)
		ptr = append(ptr, len(ind))
		y[i] = float64(2*(i%2) - 1)
		if y[i] > 0 {
			val[len(val)-1] = 3
		}
	}
	X, err := NewCSR(n, d, ptr, ind, val)
	if err != nil {
		t.Fatal(err)
	}
	m, err := DatasetMargin(X, y, nil)
	if err != nil || !(m.Lower > 0) {
		t.Errorf("wide sparse set: margin in [%v, %v], %v", m.Lower, m.Upper, err)
	}
	if _, err := Separable(X, y); err == nil || !strings.Contains(err.Error(), "too large for the simplex method") {
		t.Errorf("Separable of the wide set: %v", err)
	}
	// Every classifier trains on it, in memory of the non-zeros.
	for _, c := range []Scorer{&Perceptron{Epochs: 3}, &Voted{Epochs: 3}, &Kernel{Epochs: 3, Func: RBF{}}, &Averaged{Epochs: 3}} {
		if err := c.Fit(X, y); err != nil {
			t.Fatalf("%T: %v", c, err)
		}
		if got := c.PredictRows(nil, X); !slices.Equal(got, y) && statsOf(c).Converged {
			t.Errorf("%T converged but classifies %v", c, got)
		}
	}
}

// TestCSRRowSlice checks RowSlice against the rows of the dense copy, over
// seeded matrices and ranges: the same elements, in place of m's, and a
// classifier scores them as the rows they are.
func TestCSRRowSlice(t *testing.T) {
	rnd := rand.New(rand.NewPCG(81, 1))
	for trial := range 50 {
		n, d := 2+rnd.IntN(20), 1+rnd.IntN(8)
		X, D, y := sparseSet(rnd, n, d, 2)
		y[0], y[1] = jtClassValues[0], jtClassValues[1] // two classes
		p := &Perceptron{}
		if err := p.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		i := rnd.IntN(n + 1)
		k := i + rnd.IntN(n-i+1)
		s := X.RowSlice(i, k)
		if r, c := s.Dims(); r != k-i || c != d {
			t.Fatalf("trial %d: RowSlice(%d, %d) is %d×%d", trial, i, k, r, c)
		}
		nnz := 0
		for r := range k - i {
			for j := range d {
				if got, want := s.At(r, j), D.At(i+r, j); got != want {
					t.Fatalf("trial %d: RowSlice(%d, %d).At(%d, %d) = %v, want %v", trial, i, k, r, j, got, want)
				}
			}
			s.DoRowNonZero(r, func(row, _ int, _ float64) {
				if row != r {
					t.Fatalf("trial %d: DoRowNonZero(%d) gives row %d", trial, r, row)
				}
				nnz++
			})
		}
		if nnz != s.NNZ() {
			t.Fatalf("trial %d: NNZ %d, and DoRowNonZero gives %d", trial, s.NNZ(), nnz)
		}
		if k > i {
			if !sameBits(p.ScoreRows(nil, s), p.ScoreRows(nil, D.Slice(i, k, 0, d))) {
				t.Fatalf("trial %d: the scores of RowSlice(%d, %d) are not those of its rows", trial, i, k)
			}
			if len(s.ind) > 0 && &s.ind[0] != &X.ind[X.ptr[i]] {
				t.Fatalf("trial %d: RowSlice copies the columns", trial)
			}
		}
	}
	X, _, _ := sparseSet(rnd, 3, 2, 2)
	for _, r := range [][2]int{{-1, 1}, {0, 4}, {2, 1}} {
		if !panics(func() { X.RowSlice(r[0], r[1]) }) {
			t.Errorf("RowSlice(%d, %d) of 3 rows does not panic", r[0], r[1])
		}
	}
	if r, c := new(CSR).RowSlice(0, 0).Dims(); r != 0 || c != 0 {
		t.Errorf("RowSlice of the zero CSR is %d×%d", r, c)
	}
}

// RawCSR gives the slices that NewCSR took, not copies: a value set
// there is the matrix's, and that of a RowSlice of it.
func TestCSRRawCSR(t *testing.T) {
	ptr, ind, val := []int{0, 2, 3}, []int{0, 2, 1}, []float64{1, 2, 3}
	X, err := NewCSR(2, 3, ptr, ind, val)
	if err != nil {
		t.Fatal(err)
	}
	p, i, v := X.RawCSR()
	if &p[0] != &ptr[0] || &i[0] != &ind[0] || &v[0] != &val[0] || len(p) != 3 || len(i) != 3 || len(v) != 3 {
		t.Fatalf("RawCSR gives %v %v %v, not the slices of NewCSR", p, i, v)
	}
	s := X.RowSlice(1, 2)
	v[2] = 7
	if X.At(1, 1) != 7 || s.At(0, 1) != 7 {
		t.Errorf("a value set through RawCSR: At gives %v, and %v in a RowSlice, want 7", X.At(1, 1), s.At(0, 1))
	}
	if p, i, v := new(CSR).RawCSR(); p != nil || i != nil || v != nil {
		t.Errorf("RawCSR of the zero CSR: %v %v %v", p, i, v)
	}
}
