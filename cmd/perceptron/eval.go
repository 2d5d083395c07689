// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"time"
	"unicode/utf8"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// scaler standardises features: x_j becomes (x_j - mean_j) / scale_j.
type scaler struct {
	mean, scale []float64
}

// fitScaler returns the scaler that gives every column of X mean 0 and
// standard deviation 1 (over the n rows, as scikit-learn's StandardScaler
// does). A constant column is only centred.
func fitScaler(X *mat.Dense) *scaler {
	n, d := X.Dims()
	mean := make([]float64, d)
	for i := range n {
		floats.Add(mean, X.RawRowView(i))
	}
	floats.Scale(1/float64(n), mean)
	scale := make([]float64, d)
	for i := range n {
		for j, v := range X.RawRowView(i) {
			scale[j] += (v - mean[j]) * (v - mean[j])
		}
	}
	for j, v := range scale {
		scale[j] = math.Sqrt(v / float64(n))
		if scale[j] == 0 {
			scale[j] = 1
		}
	}
	return &scaler{mean: mean, scale: scale}
}

// apply standardises the rows of X in place.
func (s *scaler) apply(X *mat.Dense) {
	n, _ := X.Dims()
	for i := range n {
		s.row(X.RawRowView(i))
	}
}

// row standardises x in place.
func (s *scaler) row(x []float64) {
	floats.Sub(x, s.mean)
	floats.Div(x, s.scale)
}

// split returns the rows of ds in a random order drawn from seed, cut into
// a test set of the fraction test of them and a training set of the rest.
func split(ds *dataset, test float64, seed uint64) (train, tst *dataset, err error) {
	n, d := ds.X.Dims()
	nt := int(math.Round(test * float64(n)))
	if nt < 1 || nt >= n {
		return nil, nil, fmt.Errorf("%s: %d rows do not split into %v test and the rest training, with at least one row in each", ds.name, n, test)
	}
	perm := rand.New(rand.NewPCG(seed, 0)).Perm(n)
	part := func(idx []int) *dataset {
		X := mat.NewDense(len(idx), d, nil)
		y := make([]float64, len(idx))
		for k, i := range idx {
			X.SetRow(k, ds.X.RawRowView(i))
			y[k] = ds.y[i]
		}
		return &dataset{name: ds.name, X: X, y: y, features: ds.features}
	}
	return part(perm[nt:]), part(perm[:nt]), nil
}

// widen returns ds with its rows padded with zero features to d columns:
// a sparse file has as many features as its largest index.
func widen(ds *dataset, d int) *dataset {
	n, c := ds.X.Dims()
	if c == d {
		return ds
	}
	X := mat.NewDense(n, d, nil)
	X.Slice(0, n, 0, c).(*mat.Dense).Copy(ds.X)
	return &dataset{name: ds.name, X: X, y: ds.y}
}

// result is a classifier trained and tested.
type result struct {
	name  string
	m     model
	fit   time.Duration // negative if not known
	train float64
	test  float64 // NaN if there is no test set
	stats perceptron.Stats
}

// fitModel trains the classifier called name on train, and tests it on
// test if test is not nil.
func fitModel(name string, o *options, train, test *dataset) (*result, error) {
	m, ok := newModel(name, o)
	if !ok {
		return nil, usagef("unknown classifier %q: want one of %s", name, classifierNames())
	}
	if o.progress != nil {
		n, _ := train.X.Dims()
		o.progress.begin(name, cmp.Or(o.epochs, perceptron.DefaultEpochs), n, !o.shuffle)
	}
	start := time.Now()
	err := m.Fit(train.X, train.y)
	r := &result{name: name, m: m, fit: time.Since(start), test: math.NaN()}
	if o.progress != nil {
		o.progress.end(m)
	}
	if err != nil {
		// The readers have checked the data, so what Fit rejects are the
		// settings.
		return nil, usagef("training %s: %s", name, libError(err))
	}
	r.train = accuracy(m, train, o.progress, "the training rows")
	if test != nil {
		r.test = accuracy(m, test, o.progress, "the test rows")
	}
	r.stats = m.Stats()
	return r, nil
}

// accuracy returns the fraction of the rows of ds that m labels right. If
// p is not nil it reports the progress of the scoring, which can take long,
// as scoring task.
func accuracy(m model, ds *dataset, p *progress, task string) float64 {
	right := 0
	for i, s := range scoreRows(m, ds.X, p, task) {
		// Predict is +1 where Score is >= 0.
		if (s >= 0) == (ds.y[i] > 0) {
			right++
		}
	}
	return float64(right) / float64(len(ds.y))
}

// scoreChunk is the number of rows that scoreRows scores between two
// progress reports: enough for ScoreRows to share out over the cores.
const scoreChunk = 1024

// scoreRows returns the scores by m of the rows of X. If p is not nil it
// reports the progress as scoring task.
func scoreRows(m model, X *mat.Dense, p *progress, task string) []float64 {
	n, d := X.Dims()
	scores := make([]float64, n)
	if p == nil {
		return m.ScoreRows(scores, X)
	}
	p.beginScoring(task, n)
	for lo := 0; lo < n; lo += scoreChunk {
		hi := min(n, lo+scoreChunk)
		m.ScoreRows(scores[lo:hi], X.Slice(lo, hi, 0, d))
		p.scored(hi)
	}
	p.endScoring()
	return scores
}

// writeTable writes the results as an aligned table: names to the left,
// figures to the right.
func writeTable(w io.Writer, rs []*result) error {
	rows := [][]string{{"classifier", "train acc", "test acc", "mistakes", "epochs", "converged", "fit time"}}
	rows = append(rows, tableRows(rs)...)
	// Widths count runes, not bytes: the µ of microseconds is two bytes.
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		for j, s := range row {
			width[j] = max(width[j], utf8.RuneCountInString(s))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		for j, s := range row {
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(s))
			if j == 0 {
				b.WriteString(s + pad)
			} else {
				b.WriteString("  " + pad + s)
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func tableRows(rs []*result) [][]string {
	var rows [][]string
	for _, r := range rs {
		conv := "no"
		if r.stats.Converged {
			conv = "yes"
		}
		rows = append(rows, []string{r.name, percent(r.train), percent(r.test),
			fmt.Sprint(r.stats.Mistakes), fmt.Sprint(r.stats.Epochs), conv, duration(r.fit)})
	}
	return rows
}

// plural returns n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func percent(a float64) string {
	if math.IsNaN(a) {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", 100*a)
}

// duration rounds d to three or four significant figures; a negative d
// is not known.
func duration(d time.Duration) string {
	switch {
	case d < 0:
		return "-"
	case d < time.Millisecond:
		return d.Round(time.Microsecond / 10).String()
	case d < time.Second:
		return d.Round(time.Microsecond * 10).String()
	}
	return d.Round(time.Millisecond * 10).String()
}

// libError returns the message of an error of the library without the
// library's name, for a message of the command that gives its own context.
func libError(err error) string {
	return strings.TrimPrefix(err.Error(), "perceptron: ")
}
