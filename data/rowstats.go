// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// rowStats are statistics of rows as a reader returns them, before any
// step of a Model: their number, and the mean and the standard deviation
// over the rows of the number of non-zero values of a row and of its
// Euclidean length.
type rowStats struct {
	Rows     int     `json:"rows"`
	NonZeros moments `json:"nonZeros"`
	Length   moments `json:"length"`
}

// moments are the mean and the standard deviation of a quantity.
type moments struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

// statsOf returns the statistics of the rows X, or none if X has no rows
// or a row whose length overflows. It holds a row's values at a time, for
// a sparse row.
func statsOf(X mat.Matrix) rowStats {
	n, _ := X.Dims()
	var acc rowAcc
	doer, sparse := X.(mat.RowNonZeroDoer)
	sparse = sparse && !isDense(X)
	var buf []float64
	for i := range n {
		if sparse {
			row := buf[:0]
			doer.DoRowNonZero(i, func(_, _ int, v float64) { row = append(row, v) })
			buf = row
			acc.add(row)
		} else {
			acc.add(rowOf(X, i))
		}
	}
	return acc.stats()
}

// rowAcc takes the statistics of rows one at a time.
type rowAcc struct {
	n          int
	nz, length welford
}

// add adds a row, the values of a dense row or the non-zeros of a sparse
// one, of which it reads the values other than 0.
func (a *rowAcc) add(row []float64) {
	k := 0
	for _, v := range row {
		if v != 0 {
			k++
		}
	}
	a.n++
	a.nz.add(float64(k))
	a.length.add(floats.Norm(row, 2)) // which leaves the zeros out
}

// stats returns the statistics of the rows added, or none if there are
// none or the length of one overflows.
func (a *rowAcc) stats() rowStats {
	s := rowStats{Rows: a.n, NonZeros: a.nz.moments(), Length: a.length.moments()}
	if s.check() != nil {
		// Rows whose lengths overflow have no statistics to compare with.
		return rowStats{}
	}
	return s
}

// merge returns the statistics of the rows of s and of t together, by the
// formulas of Chan, Golub and LeVeque (1979) for the mean and the sum of
// squared deviations of two parts.
func (s rowStats) merge(t rowStats) rowStats {
	switch {
	case s.Rows == 0:
		return t
	case t.Rows == 0:
		return s
	}
	n := float64(s.Rows + t.Rows)
	both := func(a, b moments) moments {
		na, nb := float64(s.Rows), float64(t.Rows)
		delta := b.Mean - a.Mean
		m2 := a.SD*a.SD*na + b.SD*b.SD*nb + delta*delta*na*nb/n
		return moments{Mean: a.Mean + delta*nb/n, SD: math.Sqrt(m2 / n)}
	}
	return rowStats{Rows: s.Rows + t.Rows, NonZeros: both(s.NonZeros, t.NonZeros), Length: both(s.Length, t.Length)}
}

// check returns an error if the statistics are not those of rows.
func (s *rowStats) check() error {
	for _, v := range []float64{s.NonZeros.Mean, s.NonZeros.SD, s.Length.Mean, s.Length.SD} {
		if !(v >= 0 && v <= math.MaxFloat64) {
			return errorf(perceptron.ErrFormat, "a mean or a deviation is %v, want a finite number >= 0", v)
		}
	}
	if s.Rows < 1 {
		return errorf(perceptron.ErrFormat, "%d rows, want 1 or more", s.Rows)
	}
	return nil
}

// welford is Welford's running mean and sum of squared deviations.
type welford struct {
	n, mean, m2 float64
}

func (w *welford) add(v float64) {
	w.n++
	delta := v - w.mean
	w.mean += delta / w.n
	w.m2 += delta * (v - w.mean)
}

func (w *welford) moments() moments {
	if w.n == 0 {
		return moments{}
	}
	return moments{Mean: w.mean, SD: math.Sqrt(w.m2 / w.n)}
}

// CheckRows returns an error if the rows X look unlike the rows that the
// model was trained on, as rows of another data set, or rows scaled
// otherwise, do. It compares the mean over the rows of X of the number of
// non-zero values of a row, and of its Euclidean length, with the mean
// over the training rows: a difference of more than the standard
// deviation of the training rows, or a tenth of their mean if that is
// larger, and of more than four times the standard error that the
// numbers of rows give the difference, beyond which chance rarely goes,
// makes the error, which says what differs. It returns nil for a Model
// that has no statistics of its training rows, one that neither Fit nor
// LoadModel of a file that records them made. An error of CheckRows is a
// warning: Predict does not call it.
//
// CheckRows reads the rows once, and holds a row's values at a time, for
// a sparse row. It may run concurrently as WriteTo.
func (m *Model) CheckRows(X mat.Matrix) error {
	if m.rows.Rows == 0 || X == nil {
		return nil
	}
	got := statsOf(X)
	if got.Rows == 0 {
		return nil
	}
	for _, c := range []struct {
		train, rows moments
		have, hint  string
	}{
		{m.rows.NonZeros, got.NonZeros, "%.3g non-zero values", "are they rows of the kind the model was trained on?"},
		{m.rows.Length, got.Length, "a length of %.3g", "are they scaled as the training rows were?"},
	} {
		diff := math.Abs(c.rows.Mean - c.train.Mean)
		noise := 4 * c.train.SD * math.Sqrt(1/float64(m.rows.Rows)+1/float64(got.Rows))
		if diff > max(c.train.SD, c.train.Mean/10) && diff > noise {
			return errorf(perceptron.ErrShape, "the rows have "+c.have+" on average, and the model's %d training rows had %.3g, with a standard deviation of %.3g: %s",
				c.rows.Mean, m.rows.Rows, c.train.Mean, c.train.SD, c.hint)
		}
	}
	return nil
}
