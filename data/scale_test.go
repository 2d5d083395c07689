// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// The scaling of 0142a54, in two passes over the rows and a function call
// for each value, against which the scaling of one pass must give the same
// bits.

// twoPassScaler is NewScaler of 0142a54.
func twoPassScaler(X mat.Matrix) (*Scaler, error) {
	if X == nil {
		return nil, errors.New("data: no rows to scale by: X is nil")
	}
	n, d := X.Dims()
	if n == 0 {
		return nil, errors.New("data: no rows to scale by")
	}
	if err := checkMemory(32*float64(d), "data: scaling %d columns", d); err != nil {
		return nil, err
	}
	doer, sparse := X.(mat.RowNonZeroDoer)
	sparse = sparse && !isDense(X)
	each := func(fn func(j int, v float64)) {
		if sparse {
			for i := range n {
				doer.DoRowNonZero(i, func(_, j int, v float64) { fn(j, v) })
			}
			return
		}
		for i := range n {
			for j, v := range rowOf(X, i) {
				fn(j, v)
			}
		}
	}
	s := &Scaler{Mean: make([]float64, d), Scale: make([]float64, d)}
	// Each column is divided by a power of two near its largest magnitude,
	// which is exact, so that the sums below cannot overflow however
	// large the values are. Scale holds the magnitudes, then the sums of
	// squared deviations.
	big := s.Scale
	each(func(j int, v float64) { big[j] = max(big[j], math.Abs(v)) })
	exp := make([]int, d)
	for j, b := range big {
		if math.IsInf(b, 0) || math.IsNaN(b) {
			return nil, errorf(perceptron.ErrNonFinite, "data: column %d: a value is not finite", j+1)
		}
		_, exp[j] = math.Frexp(b)
	}
	// Welford's running mean and sum of squared deviations.
	mean, m2, count := s.Mean, s.Scale, make([]float64, d)
	clear(m2)
	each(func(j int, v float64) {
		v = math.Ldexp(v, -exp[j])
		count[j]++
		delta := v - mean[j]
		mean[j] += delta / count[j]
		m2[j] += delta * (v - mean[j])
	})
	// The zeros a sparse column leaves out join its non-zeros.
	total := float64(n)
	for j := range d {
		if zeros := total - count[j]; zeros > 0 && count[j] > 0 {
			m2[j] += mean[j] * mean[j] * count[j] * zeros / total
			mean[j] = mean[j] * count[j] / total
		}
	}
	for j := range d {
		mean[j] = math.Ldexp(mean[j], exp[j])
		s.Scale[j] = math.Ldexp(math.Sqrt(m2[j]/total), exp[j])
		if s.Scale[j] == 0 {
			s.Scale[j] = 1
		}
	}
	if sparse {
		s.Mean = nil
	}
	return s, nil
}

// twoPassStandardise is the standardisation of a value of 0142a54.
func (s *Scaler) twoPassStandardise(j int, v float64) float64 {
	if s.Mean != nil {
		v -= s.Mean[j]
	}
	return v / s.Scale[j]
}

// twoPassTransform is the copy of rows of 0142a54 that Model's Transform
// made.
func twoPassCopy(X mat.Matrix, first int, what string, dense bool, f func(j int, v float64) float64, post func(row []float64) error) (mat.Matrix, error) {
	n, d := X.Dims()
	bad := func(i, j int, v float64) error {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return errorf(perceptron.ErrNonFinite, "data: row %d, column %d: %v, want a finite value", first+i+1, j+1, v)
		}
		return errorf(perceptron.ErrNonFinite, "data: row %d, column %d: %s overflows (the value is %v)", first+i+1, j+1, what, v)
	}
	if m, ok := X.(mat.RowNonZeroDoer); ok && !dense && !isDense(X) {
		nnz := 0
		for i := range n {
			m.DoRowNonZero(i, func(_, _ int, _ float64) { nnz++ })
		}
		if err := checkMemory(16*float64(nnz)+8*float64(n+1), "data: %s %d sparse rows of %d non-zeros", what, n, nnz); err != nil {
			return nil, err
		}
		ptr := make([]int, 1, n+1)
		ind, val := make([]int, 0, nnz), make([]float64, 0, nnz)
		var err error
		for i := range n {
			m.DoRowNonZero(i, func(_, j int, v float64) {
				w := f(j, v)
				if (math.IsInf(w, 0) || math.IsNaN(w)) && err == nil {
					err = bad(i, j, v)
				}
				ind = append(ind, j)
				val = append(val, w)
			})
			if err != nil {
				return nil, err
			}
			if post != nil {
				if err := post(val[ptr[i]:]); err != nil {
					return nil, fmt.Errorf("data: row %d: %w", first+i+1, err)
				}
			}
			ptr = append(ptr, len(ind))
		}
		return perceptron.NewCSR(n, d, ptr, ind, val)
	}
	if err := checkMemory(8*float64(n)*float64(d), "data: %s %d rows of %d columns", what, n, d); err != nil {
		return nil, err
	}
	if n == 0 || d == 0 {
		return mat.NewDense(1, max(d, 1), nil).Slice(0, 0, 0, d), nil // gonum makes no Dense of no rows
	}
	out := mat.NewDense(n, d, nil)
	for i := range n {
		row := out.RawRowView(i)
		copy(row, rowOf(X, i))
		for j, v := range row {
			w := f(j, v)
			if math.IsInf(w, 0) || math.IsNaN(w) {
				return nil, bad(i, j, v)
			}
			row[j] = w
		}
		if post != nil {
			if err := post(row); err != nil {
				return nil, fmt.Errorf("data: row %d: %w", first+i+1, err)
			}
		}
	}
	return out, nil
}

// twoPassModel is Model's Transform of 0142a54.
func twoPassModel(X mat.Matrix, s *Scaler, unit bool) (mat.Matrix, error) {
	var post func([]float64) error
	if unit {
		post = normalize
	}
	switch {
	case s != nil:
		return twoPassCopy(X, 0, "standardising", s.Mean != nil, s.twoPassStandardise, post)
	case post != nil:
		return twoPassCopy(X, 0, "normalising", false, func(_ int, v float64) float64 { return v }, post)
	}
	return X, nil
}

// wrapped hides the raw data of a matrix, as a foreign mat.Matrix would.
type wrapped struct{ mat.Matrix }

// scalingSets returns matrices that put the scaling to the test: values
// of every magnitude, from subnormal to nearly the largest float64, in
// columns of one magnitude and of many; columns whose largest magnitude
// rows further down raise past one power of two after another, in order
// and at random; zeros; and the same as CSR and hidden behind a wrapper.
func scalingSets(rnd *rand.Rand) map[string]mat.Matrix {
	sets := map[string]mat.Matrix{}
	value := func(kind, i, n int) float64 {
		switch kind {
		case 0:
			return rnd.NormFloat64()
		case 1: // magnitudes that grow down the rows
			return rnd.NormFloat64() * math.Ldexp(1, i*40/n)
		case 2: // any magnitude
			return math.Ldexp(rnd.Float64()-0.5, rnd.IntN(2100)-1075)
		case 3: // pixels
			return float64(rnd.IntN(256)) / 255
		case 4: // mostly zeros, some values growing late
			if rnd.IntN(10) != 0 {
				return 0
			}
			return float64(i) * rnd.Float64()
		case 5: // huge
			return (rnd.Float64() - 0.5) * math.MaxFloat64
		case 6: // tiny, near the subnormals
			return (rnd.Float64() - 0.5) * math.Ldexp(1, -1000-rnd.IntN(74))
		case 7: // near-equal values of both signs, that cancel, growing
			return float64(1-2*(i%2)) * (1 + rnd.Float64()*0x1p-50) * math.Ldexp(1, i*12/n)
		case 8: // magnitudes 2^199 apart, and a largest one late
			switch {
			case i == n-1:
				return 3
			case i%2 == 0:
				return math.Ldexp(rnd.Float64()+1, -199)
			}
			return rnd.Float64()
		case 9: // magnitudes 2^201 apart, and a largest one late
			switch {
			case i == n-1:
				return -3
			case i%2 == 0:
				return math.Ldexp(rnd.Float64()+1, -202)
			}
			return rnd.Float64()
		}
		return float64(i % 3)
	}
	for _, shape := range [][2]int{{1, 1}, {3, 8}, {700, 9}, {5000, 3}, {257, 1100}} {
		n, d := shape[0], shape[1]
		X := mat.NewDense(n, d, nil)
		for j := range d {
			kind := j % 11
			for i := range n {
				X.Set(i, j, value(kind, i, n))
			}
		}
		name := fmt.Sprintf("%dx%d", n, d)
		sets[name] = X
		sets[name+" wrapped"] = wrapped{X}
		// A view with a stride.
		wide := mat.NewDense(n, d+3, nil)
		wide.Slice(0, n, 1, d+1).(*mat.Dense).Copy(X)
		sets[name+" strided"] = wide.Slice(0, n, 1, d+1)
		// Sparse, with an explicit zero now and then.
		ptr, ind, val := []int{0}, []int(nil), []float64(nil)
		for i := range n {
			for j := range d {
				if v := X.At(i, j); v != 0 || rnd.IntN(50) == 0 {
					ind, val = append(ind, j), append(val, v)
				}
			}
			ptr = append(ptr, len(ind))
		}
		csr, err := perceptron.NewCSR(n, d, ptr, ind, val)
		if err != nil {
			panic(err)
		}
		sets[name+" sparse"] = csr
	}
	return sets
}

// sameBits reports whether a and b hold the same bits.
func sameBits(a, b []float64) bool {
	return len(a) == len(b) && (a == nil) == (b == nil) && slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestScalerOnePass checks that NewScaler, in one pass, gives the bits
// that the two passes of 0142a54 give, on columns of every magnitude and
// of magnitudes that the rows raise, whether it takes the sums of a column
// again or reads the rows twice; and that NewIDF does too.
func TestScalerOnePass(t *testing.T) {
	rnd := rand.New(rand.NewPCG(48, 1))
	for round := range 3 {
		for name, X := range scalingSets(rnd) {
			got, err := NewScaler(X)
			want, werr := twoPassScaler(X)
			if err != nil || werr != nil {
				if err == nil || werr == nil || err.Error() != werr.Error() {
					t.Fatalf("%d %s: error %v, want %v", round, name, err, werr)
				}
				continue
			}
			if !sameBits(got.Mean, want.Mean) || !sameBits(got.Scale, want.Scale) {
				t.Fatalf("%d %s: Mean %v\nScale %v\nwant %v\n%v", round, name, got.Mean, got.Scale, want.Mean, want.Scale)
			}
		}
	}
	// A value that is not finite, in the first column of any that has one.
	X := mat.NewDense(3000, 4, nil)
	X.Set(10, 3, math.Inf(1))
	X.Set(2500, 1, math.NaN())
	_, err := NewScaler(X)
	if !errors.Is(err, perceptron.ErrNonFinite) || err.Error() != "data: column 2: a value is not finite" {
		t.Errorf("error %v, want column 2 not finite", err)
	}
}

// TestTransformAsBefore checks that Transform, Model's Transform and the
// transform in place give the bits and the errors of 0142a54's copies,
// with each step and both, on rows of every magnitude, overflows
// included.
func TestTransformAsBefore(t *testing.T) {
	rnd := rand.New(rand.NewPCG(48, 2))
	for name, X := range scalingSets(rnd) {
		sc, err := NewScaler(X)
		if err != nil {
			t.Fatal(err)
		}
		idf, err := NewIDF(X)
		if err != nil {
			t.Fatal(err)
		}
		// A Scaler of tiny scales makes some values overflow.
		tiny := &Scaler{Scale: slices.Clone(sc.Scale)}
		for j := range tiny.Scale {
			tiny.Scale[j] = math.Ldexp(1, -1000)
		}
		for _, s := range []*Scaler{sc, idf, tiny, nil} {
			for _, unit := range []bool{false, true} {
				if s == nil && !unit {
					continue
				}
				if s != nil && s.Mean == nil && !isDense(X) {
					if _, ok := X.(mat.RowNonZeroDoer); !ok {
						continue
					}
				}
				want, werr := twoPassModel(X, s, unit)
				got, err := transformRows(X, 0, s, unit, false, nil)
				checkSameRows(t, name, got, err, want, werr)
				if raw, ok := X.(*mat.Dense); ok {
					in := mat.DenseCopyOf(raw)
					got, err := transformRows(in, 0, s, unit, true, nil)
					if err == nil && got != mat.Matrix(in) {
						t.Fatalf("%s: in place, a new matrix", name)
					}
					checkSameRows(t, name+" in place", got, err, want, werr)
				}
			}
		}
	}
}

// checkSameRows fails t unless the rows got, or the error err, are those
// of want, or werr: the same type, bits and message.
func checkSameRows(t *testing.T, name string, got mat.Matrix, err error, want mat.Matrix, werr error) {
	t.Helper()
	if err != nil || werr != nil {
		if err == nil || werr == nil || err.Error() != werr.Error() {
			t.Fatalf("%s: error %v, want %v", name, err, werr)
		}
		return
	}
	if fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
		t.Fatalf("%s: a %T, want a %T", name, got, want)
	}
	n, d := want.Dims()
	if r, c := got.Dims(); r != n || c != d {
		t.Fatalf("%s: %d×%d, want %d×%d", name, r, c, n, d)
	}
	for i := range n {
		if a, b := mat.Row(nil, i, got), mat.Row(nil, i, want); !sameBits(a, b) {
			t.Fatalf("%s: row %d: %v, want %v", name, i, a, b)
		}
	}
	if g, ok := got.(*perceptron.CSR); ok && g.NNZ() != want.(*perceptron.CSR).NNZ() {
		t.Fatalf("%s: %d stored values, want %d", name, g.NNZ(), want.(*perceptron.CSR).NNZ())
	}
}

// TestFitInPlace checks that FitInPlace fits the Model that Fit fits, to
// the bit, with the statistics of the rows as given, having transformed
// dense rows and the sparse rows of a CSR where they are, and other rows,
// or sparse rows that a Scaler centres, into a copy that replaced them;
// and that TransformInPlace transforms as Transform does.
func TestFitInPlace(t *testing.T) {
	rnd := rand.New(rand.NewPCG(48, 3))
	const n, d = 300, 7
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			X.Set(i, j, rnd.NormFloat64()*float64(j+1)+float64(j))
		}
		y[i] = float64(i % 3)
	}
	csr := sparseOfDense(X)
	centre := func(mat.Matrix) *Model { s, _ := NewScaler(X); return &Model{Scaler: s} }
	for _, tc := range []struct {
		name    string
		X       mat.Matrix
		steps   func(X mat.Matrix) *Model
		inPlace bool
	}{
		{"dense standardised", X, func(X mat.Matrix) *Model { s, _ := NewScaler(X); return &Model{Scaler: s} }, true},
		{"dense standardised and normalised", X, func(X mat.Matrix) *Model { s, _ := NewScaler(X); return &Model{Scaler: s, Normalize: true} }, true},
		{"dense normalised", X, func(X mat.Matrix) *Model { return &Model{Normalize: true} }, true},
		{"dense as it is", X, func(X mat.Matrix) *Model { return &Model{} }, true},
		{"sparse weighed and normalised", csr, func(X mat.Matrix) *Model { s, _ := NewIDF(X); return &Model{Scaler: s, Normalize: true} }, true},
		{"sparse scaled", csr, func(X mat.Matrix) *Model { s, _ := NewScaler(X); return &Model{Scaler: s} }, true},
		{"sparse centred", csr, centre, false},
		{"dense without raw data", mat.Transpose{Matrix: X.T()}, centre, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			copyOf := func() mat.Matrix {
				if _, ok := tc.X.(mat.Transpose); ok {
					return mat.Transpose{Matrix: mat.DenseCopyOf(X).T()}
				}
				if c, ok := tc.X.(*perceptron.CSR); ok {
					r, d := c.Dims()
					ptr, ind, val := c.RawCSR()
					c, err := perceptron.NewCSR(r, d, slices.Clone(ptr), slices.Clone(ind), slices.Clone(val))
					if err != nil {
						t.Fatal(err)
					}
					return c
				}
				return mat.DenseCopyOf(tc.X)
			}
			want := tc.steps(tc.X)
			want.Classifier = &perceptron.Averaged{Epochs: 3}
			if err := want.Fit(&Set{X: copyOf(), Y: y, Classes: []string{"a", "b", "c"}}); err != nil {
				t.Fatal(err)
			}
			transformed, err := want.Transform(tc.X)
			if err != nil {
				t.Fatal(err)
			}
			got := tc.steps(tc.X)
			got.Classifier = &perceptron.Averaged{Epochs: 3}
			in := copyOf()
			s := &Set{X: in, Y: y, Classes: []string{"a", "b", "c"}}
			if err := got.FitInPlace(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			var a, b bytes.Buffer
			want.WriteTo(&a)
			got.WriteTo(&b)
			if a.String() != b.String() {
				t.Fatalf("FitInPlace's model\n%s\nFit's\n%s", b.String(), a.String())
			}
			if (s.X == in) != tc.inPlace {
				t.Fatalf("s.X is the %T given: %v, want %v", in, s.X == in, tc.inPlace)
			}
			checkSameRows(t, "the rows of s", s.X, nil, transformed, nil)

			// TransformInPlace of the rows as given.
			in = copyOf()
			out, err := want.TransformInPlace(in)
			checkSameRows(t, "TransformInPlace", out, err, transformed, nil)
			if (out == in) != tc.inPlace {
				t.Fatalf("TransformInPlace of a %T returned the rows given: %v, want %v", in, out == in, tc.inPlace)
			}
		})
	}
}

// TestFitInPlaceMemory checks that FitInPlace of dense rows, and of
// sparse ones, allocates little beyond the model, where Fit allocates a
// copy of the rows.
func TestFitInPlaceMemory(t *testing.T) {
	const n, d = 20000, 50
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	rnd := rand.New(rand.NewPCG(48, 4))
	for i := range n {
		for j := range d {
			X.Set(i, j, rnd.NormFloat64())
		}
		y[i] = float64(i % 2)
	}
	sc, err := NewScaler(X)
	if err != nil {
		t.Fatal(err)
	}
	idf, err := NewIDF(sparseOfDense(X))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		steps Model
		rows  func() mat.Matrix
		bytes uint64 // of a copy of the rows
	}{
		{"dense", Model{Scaler: sc}, func() mat.Matrix { return mat.DenseCopyOf(X) }, 8 * n * d},
		{"sparse", Model{Scaler: idf, Normalize: true}, func() mat.Matrix { return sparseOfDense(X) }, 16*n*d + 8*(n+1)},
	} {
		var fit, inPlace uint64
		for _, in := range []bool{false, true} {
			m := c.steps
			m.Classifier = &perceptron.Perceptron{Epochs: 1}
			s := &Set{X: c.rows(), Y: y, Classes: []string{"a", "b"}}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if in {
				err = m.FitInPlace(context.Background(), s)
			} else {
				err = m.Fit(s)
			}
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if in {
				inPlace = after.TotalAlloc - before.TotalAlloc
			} else {
				fit = after.TotalAlloc - before.TotalAlloc
			}
		}
		if fit < c.bytes || inPlace > c.bytes/8 {
			t.Errorf("%s: Fit allocated %d bytes and FitInPlace %d, rows of %d: want the rows' bytes and less than an eighth of them", c.name, fit, inPlace, c.bytes)
		}
	}
}

// sparseOfDense returns the non-zeros of X as a CSR.
func sparseOfDense(X *mat.Dense) *perceptron.CSR {
	n, d := X.Dims()
	ptr, ind, val := []int{0}, []int(nil), []float64(nil)
	for i := range n {
		for j, v := range X.RawRowView(i) {
			if v != 0 {
				ind, val = append(ind, j), append(val, v)
			}
		}
		ptr = append(ptr, len(ind))
	}
	c, err := perceptron.NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return c
}

// FuzzScaler checks NewScaler against the two passes of 0142a54 on rows of
// any bits: the values of its bytes, 8 at a time, dealt to the columns, each
// column's rows in blocks of powers of two that grow down the rows, as a
// later row of larger values makes the one pass change its power.
func FuzzScaler(f *testing.F) {
	seed := func(vs ...float64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	f.Add(seed(1, -1+0x1p-52, 0, 3, 1e-300, 1e300), uint8(2), uint8(1))
	f.Add(seed(0x1p-199, 1, 0x1p-201, 4, 0, -0x1p-1074, 2), uint8(1), uint8(0))
	f.Add(seed(math.MaxFloat64, -math.MaxFloat64, 5e-324, 1), uint8(3), uint8(40))
	f.Fuzz(func(t *testing.T, b []byte, cols, grow uint8) {
		d := 1 + int(cols%6)
		vs := make([]float64, 0, len(b)/8)
		for k := 0; k+8 <= len(b); k += 8 {
			v := math.Float64frombits(binary.LittleEndian.Uint64(b[k:]))
			if v-v != 0 {
				v = 0
			}
			vs = append(vs, v)
		}
		// Enough rows for several blocks of a few columns.
		n := 300
		if len(vs) == 0 {
			return
		}
		X := mat.NewDense(n, d, nil)
		for i := range n {
			for j := range d {
				v := vs[(i*d+j)%len(vs)]
				if w := math.Ldexp(v, i*int(grow%64)/n); w-w == 0 {
					v = w
				}
				X.Set(i, j, v)
			}
		}
		for _, M := range []mat.Matrix{X, sparseOfDense(X)} {
			got, err := NewScaler(M)
			want, werr := twoPassScaler(M)
			if (err == nil) != (werr == nil) {
				t.Fatalf("error %v, want %v", err, werr)
			}
			if err == nil && (!sameBits(got.Mean, want.Mean) || !sameBits(got.Scale, want.Scale)) {
				t.Fatalf("%T: Mean %v, Scale %v; want %v, %v", M, got.Mean, got.Scale, want.Mean, want.Scale)
			}
		}
	})
}

// TransformInPlace of sparse rows stops at the first value that scaling
// makes overflow, with an error that names its row and column, and leaves
// the rows before it scaled where they are.
func TestTransformInPlaceSparseError(t *testing.T) {
	X, err := perceptron.NewCSR(3, 2, []int{0, 1, 3, 4}, []int{0, 0, 1, 1}, []float64{1, 2, math.MaxFloat64, 3})
	if err != nil {
		t.Fatal(err)
	}
	m := &Model{Scaler: &Scaler{Scale: []float64{4, 0.5}}}
	_, err = m.TransformInPlace(X)
	var e *perceptron.Error
	if !errors.Is(err, perceptron.ErrNonFinite) || !errors.As(err, &e) || e.Row != 1 || e.Col != 1 || !strings.Contains(err.Error(), "row 2, column 2") {
		t.Fatalf("error %v, want one of kind ErrNonFinite at row 2, column 2", err)
	}
	if _, _, val := X.RawCSR(); val[0] != 0.25 || val[3] != 3 {
		t.Errorf("values %v after the error: want the first row scaled, the last as it was", val)
	}
}
