// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sparseSet returns n rows of d small integers, most of them zero, as a
// CSR and as the same matrix dense, with labels from a sparse hyperplane
// and some flipped.
func sparseSet(rnd *rand.Rand, n, d int) (*CSR, *mat.Dense, []float64) {
	dense := mat.NewDense(n, d, nil)
	ptr := []int{0}
	var ind []int
	var val []float64
	y := make([]float64, n)
	for i := range n {
		s := 0.0
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
			if j%3 == 0 {
				s += v
			}
		}
		ptr = append(ptr, len(ind))
		y[i] = sign(s - 0.5)
		if rnd.IntN(8) == 0 {
			y[i] = -y[i]
		}
	}
	X, err := NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return X, dense, y
}

// doer is a mat.RowNonZeroDoer that is not a CSR, whose rows Fit copies.
type doer struct{ *CSR }

func (d doer) DoRowNonZero(i int, fn func(i, j int, v float64)) { d.CSR.DoRowNonZero(i, fn) }

// TestSparseMatchesDense fits every classifier on sparse integer rows, as
// a CSR, as another mat.RowNonZeroDoer and dense: the sums are exact, so
// the weights, the Stats and every score must be the same to the bit.
func TestSparseMatchesDense(t *testing.T) {
	rnd := rand.New(rand.NewPCG(61, 62))
	for trial := range 60 {
		n, d := 5+rnd.IntN(60), 1+rnd.IntN(40)
		X, D, y := sparseSet(rnd, n, d)
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
			for f, c := range fits[1:] {
				if !slices.Equal(statsOf(c).EpochMistakes, statsOf(dense).EpochMistakes) {
					t.Fatalf("trial %d, %T %d, fit %d: mistakes per epoch %v sparse, %v dense", trial, c, k, f, statsOf(c).EpochMistakes, statsOf(dense).EpochMistakes)
				}
				if w, ok := c.(interface{ Weights() []float64 }); ok && !sameBits(w.Weights(), dense.(interface{ Weights() []float64 }).Weights()) {
					t.Fatalf("trial %d, %T %d: weights differ", trial, c, k)
				}
				sparseScores := c.(interface {
					ScoreRows([]float64, mat.Matrix) []float64
				}).ScoreRows(nil, X)
				for i := range n {
					a, b := c.Score(D.RawRowView(i)), dense.Score(D.RawRowView(i))
					if math.Float64bits(a) != math.Float64bits(b) || sparseScores[i] != a {
						t.Fatalf("trial %d, %T %d: row %d scores %v (%v on sparse rows), dense fit %v", trial, c, k, i, a, sparseScores[i], b)
					}
				}
			}
		}
	}
}

func setRand(c Scorer, shuffle bool, seed uint64) {
	if !shuffle {
		return
	}
	r := rand.New(rand.NewPCG(seed, 7))
	switch c := c.(type) {
	case *Perceptron:
		c.Rand = r
	case *Pocket:
		c.Rand = r
	case *Averaged:
		c.Rand = r
	case *Voted:
		c.Rand = r
	case *Kernel:
		c.Rand = r
	}
}

func statsOf(c Scorer) Stats { return c.(interface{ Stats() Stats }).Stats() }

// TestSparseJSON saves models fitted on sparse rows and loads them: Voted
// and Kernel keep their rows sparse, and every model scores as before.
func TestSparseJSON(t *testing.T) {
	rnd := rand.New(rand.NewPCG(63, 64))
	X, D, y := sparseSet(rnd, 80, 30)
	for _, c := range []Scorer{&Voted{Epochs: 3}, &Kernel{Func: RBF{Gamma: 0.1}, Epochs: 3}, &Averaged{Epochs: 3}} {
		if err := c.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := c.(*Averaged); !ok && !strings.Contains(string(data), `"sparse":true`) {
			t.Errorf("%T: saved rows are not sparse: %.200s", c, data)
		}
		var loaded Scorer
		switch c.(type) {
		case *Voted:
			loaded = &Voted{}
		case *Kernel:
			loaded = &Kernel{}
		case *Averaged:
			loaded = &Averaged{}
		}
		if err := json.Unmarshal(data, loaded); err != nil {
			t.Fatalf("%T: %v", c, err)
		}
		for i := range 80 {
			x := D.RawRowView(i)
			if a, b := c.Score(x), loaded.Score(x); math.Float64bits(a) != math.Float64bits(b) {
				t.Fatalf("%T: row %d scores %v loaded, %v saved", c, i, b, a)
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
		{-1, 2, nil, nil, nil, "dimensions -1×2"},
		{2, 2, []int{0, 1}, []int{0}, []float64{1}, "ptr has 2 elements, want 3"},
		{1, 2, []int{1, 1}, []int{0}, []float64{1}, "ptr[0] is 1, want 0"},
		{1, 2, []int{0, 1}, []int{0}, []float64{1, 2}, "1 column indices and 2 values"},
		{1, 2, []int{0, 2}, []int{0}, []float64{1}, "ptr[1] is 2, want 1"},
		{3, 2, []int{0, 2, 1, 2}, []int{0, 1}, []float64{1, 2}, "row 1 spans [2, 1)"},
		{1, 2, []int{0, 1}, []int{2}, []float64{1}, "row 0: column 2 is out of range [0, 2)"},
		{1, 2, []int{0, 1}, []int{-1}, []float64{1}, "row 0: column -1 is out of range"},
		{1, 3, []int{0, 2}, []int{1, 1}, []float64{1, 2}, "row 0: column 1 appears twice"},
		{2, 3, []int{0, 0, 2}, []int{2, 1}, []float64{1, 2}, "row 1: column 1 comes after column 2"},
		{1, 3, []int{0, 1}, []int{1}, []float64{math.NaN()}, "row 0: column 1 is NaN"},
		{1, 3, []int{0, 1}, []int{1}, []float64{math.Inf(-1)}, "row 0: column 1 is -Inf"},
	} {
		_, err := NewCSR(c.r, c.c, c.ptr, c.ind, c.val)
		if err == nil || !strings.HasPrefix(err.Error(), "perceptron: NewCSR: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewCSR(%d, %d, %v, %v, %v): error %v, want one containing %q", c.r, c.c, c.ptr, c.ind, c.val, err, c.want)
		}
	}
}

func TestCSRMatrix(t *testing.T) {
	X, err := NewCSR(3, 4, []int{0, 2, 2, 3}, []int{0, 3, 1}, []float64{1, -2, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(3, 4, []float64{1, 0, 0, -2, 0, 0, 0, 0, 0, 0.5, 0, 0})
	if !mat.Equal(X, want) || !mat.Equal(X.T(), want.T()) || X.NNZ() != 3 {
		t.Errorf("CSR is %v, want %v", mat.Formatted(X), mat.Formatted(want))
	}
	var got []float64
	X.DoRowNonZero(0, func(i, j int, v float64) { got = append(got, float64(i), float64(j), v) })
	if !slices.Equal(got, []float64{0, 0, 1, 0, 3, -2}) {
		t.Errorf("DoRowNonZero(0) gives %v", got)
	}
	mustPanic(t, "At out of range", mat.ErrColAccess.Error(), func() { X.At(0, 4) })
	mustPanic(t, "Row out of range", mat.ErrRowAccess.Error(), func() { X.Row(3) })
	var empty CSR
	if err := (&Perceptron{}).Fit(&empty, nil); err == nil || err.Error() != "perceptron: X has no rows" {
		t.Errorf("Fit of the zero CSR: %v", err)
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
func (b badDoer) At(i, j int) float64 { return 0 }
func (b badDoer) T() mat.Matrix       { return mat.Transpose{Matrix: b} }
func (b badDoer) DoRowNonZero(i int, fn func(i, j int, v float64)) {
	for _, e := range b.rows[i] {
		fn(i, e.j, e.v)
	}
}

// TestRowNonZeroDoerErrors checks that a mat.RowNonZeroDoer whose rows
// are not valid is an error naming the row and the column, and that its
// rows come sorted whatever the order it yields them in.
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
		{[][]e{{{0, 1}}, {{1, math.NaN()}}}, "perceptron: X row 1: column 1 is NaN, want a finite value"},
		{[][]e{{{2, 1}, {2, 1}}, {}}, "perceptron: X row 0: column 2 appears twice"},
	} {
		p := &Perceptron{}
		if err := p.Fit(badDoer{2, 3, c.rows}, y); err == nil || err.Error() != c.want {
			t.Errorf("Fit: error %v, want %q", err, c.want)
		}
	}
	// Unsorted rows are sorted.
	p := &Perceptron{Epochs: 5}
	if err := p.Fit(badDoer{2, 3, [][]e{{{2, 1}, {0, 2}}, {{1, -1}, {0, 1}}}}, y); err != nil {
		t.Fatal(err)
	}
	q := &Perceptron{Epochs: 5}
	if err := q.Fit(mat.NewDense(2, 3, []float64{2, 0, 1, 1, -1, 0}), y); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Weights(), q.Weights()) || p.Bias() != q.Bias() {
		t.Errorf("unsorted rows give w=%v b=%v, the dense rows w=%v b=%v", p.Weights(), p.Bias(), q.Weights(), q.Bias())
	}
}

// TestLearnRows checks that LearnRows on sparse rows learns as Learn does
// on each row, and that one epoch of it in order is one epoch of Fit.
func TestLearnRows(t *testing.T) {
	rnd := rand.New(rand.NewPCG(65, 66))
	for range 20 {
		X, D, y := sparseSet(rnd, 40, 12)
		p, q, f := &Perceptron{}, &Perceptron{}, &Perceptron{Epochs: 1}
		m, err := p.LearnRows(X, y)
		if err != nil {
			t.Fatal(err)
		}
		for i := range y {
			if _, err := q.Learn(D.RawRowView(i), y[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Fit(D, y); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Weights(), q.Weights()) || p.Bias() != q.Bias() || !slices.Equal(p.Weights(), f.Weights()) || m != f.Stats().Mistakes {
			t.Fatalf("LearnRows w=%v b=%v with %d mistakes, Learn w=%v b=%v, Fit w=%v with %d", p.Weights(), p.Bias(), m, q.Weights(), q.Bias(), f.Weights(), f.Stats().Mistakes)
		}
		k, kl, kf := &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}}, &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}}, &Kernel{Func: Poly{Degree: 2, Gamma: 1, Coef0: 1}, Epochs: 1}
		if _, err := k.LearnRows(X, y); err != nil {
			t.Fatal(err)
		}
		for i := range y {
			if _, err := kl.Learn(D.RawRowView(i), y[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := kf.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		for i := range y {
			x := D.RawRowView(i)
			if a, b, c := k.Score(x), kl.Score(x), kf.Score(x); a != b || a != c {
				t.Fatalf("row %d: LearnRows scores %v, Learn %v, Fit %v", i, a, b, c)
			}
		}
	}
	if _, err := (&Perceptron{}).LearnRows(mat.NewDense(1, 2, []float64{1, math.Inf(1)}), []float64{1}); err == nil || !strings.Contains(err.Error(), "X[0, 1] is +Inf") {
		t.Errorf("LearnRows on an infinity: %v", err)
	}
}

// TestSparseCustomKernel checks that a Custom kernel sees dense rows when
// the data are sparse, and trains as on the dense data.
func TestSparseCustomKernel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(67, 68))
	X, D, y := sparseSet(rnd, 50, 9)
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
	for i := range y {
		x := D.RawRowView(i)
		if a, b := ks.Score(x), kd.Score(x); a != b {
			t.Fatalf("row %d: %v sparse, %v dense", i, a, b)
		}
	}
}

// TestSparseMargins checks the margin routines on sparse rows against the
// same rows dense, and that they run on rows far too wide to be held
// dense.
func TestSparseMargins(t *testing.T) {
	rnd := rand.New(rand.NewPCG(69, 70))
	for trial := range 20 {
		n, d := 10+rnd.IntN(60), 2+rnd.IntN(30)
		X, D, y := sparseSet(rnd, n, d)
		w := make([]float64, d)
		for j := range w {
			w[j] = float64(rnd.IntN(5) - 2)
		}
		for _, f := range []func(mat.Matrix, []float64, []float64, float64) (float64, error){FunctionalMargin, GeometricMargin, PerceptronCriterion, ZeroOneError} {
			a, err1 := f(X, y, w, 0.5)
			b, err2 := f(D, y, w, 0.5)
			if err1 != nil || err2 != nil || a != b {
				t.Fatalf("trial %d: %v (%v) sparse, %v (%v) dense", trial, a, err1, b, err2)
			}
		}
		// Labels from a hyperplane with a gap make the data separable.
		for i := range n {
			ind, val := X.Row(i)
			s := 0.25
			for k, j := range ind {
				if j == 0 {
					s += val[k]
				}
			}
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
				checkCertificate(t, "sparse", X, y, ms, DefaultMarginTol)
			}
			bs, err1 := NovikoffBound(X, y, set)
			bd, err2 := NovikoffBound(D, y, set)
			if (err1 == nil) != (err2 == nil) || math.Abs(bs.R-bd.R) > 1e-12*bd.R || math.Abs(bs.Margin-bd.Margin) > 2*DefaultMarginTol*bd.Margin {
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
}
