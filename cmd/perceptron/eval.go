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
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// scaler standardises features: x_j becomes (x_j - mean_j) / scale_j, or
// x_j / scale_j if mean is nil, as for sparse rows, which centring would
// fill.
type scaler struct {
	mean, scale []float64
}

// fitScaler returns the scaler that gives every column of X standard
// deviation 1 over the n rows, as scikit-learn's StandardScaler does, and
// mean 0 if X is dense. Sparse rows it scales without centring, as
// StandardScaler(with_mean=False) does, with the deviations computed in
// O(non-zeros), the zeros counted. A constant column keeps its scale.
func fitScaler(X mat.Matrix) *scaler {
	if m, ok := X.(*perceptron.CSR); ok {
		return fitSparseScaler(m)
	}
	D := X.(*mat.Dense)
	n, d := D.Dims()
	mean := make([]float64, d)
	for i := range n {
		floats.Add(mean, D.RawRowView(i))
	}
	floats.Scale(1/float64(n), mean)
	scale := make([]float64, d)
	for i := range n {
		for j, v := range D.RawRowView(i) {
			scale[j] += (v - mean[j]) * (v - mean[j])
		}
	}
	for j, ss := range scale {
		scale[j] = deviation(ss, mean[j], n)
	}
	return &scaler{mean: mean, scale: scale}
}

// fitSparseScaler is fitScaler for sparse rows.
func fitSparseScaler(m *perceptron.CSR) *scaler {
	n, d := m.Dims()
	mean := make([]float64, d)
	count := make([]int, d)
	for i := range n {
		m.DoRowNonZero(i, func(_, j int, v float64) {
			mean[j] += v
			count[j]++
		})
	}
	floats.Scale(1/float64(n), mean)
	// The sum of squares of the deviations from the mean, the zeros' in
	// one term: a sum of squares, which does not cancel.
	scale := make([]float64, d)
	for i := range n {
		m.DoRowNonZero(i, func(_, j int, v float64) {
			scale[j] += (v - mean[j]) * (v - mean[j])
		})
	}
	for j, ss := range scale {
		scale[j] = deviation(ss+float64(n-count[j])*mean[j]*mean[j], mean[j], n)
	}
	return &scaler{scale: scale}
}

// deviation returns the standard deviation of a column of n values whose
// deviations from their mean have the sum of squares ss, or 1 if the
// column is constant: if its variance is within the rounding of its mean,
// as scikit-learn's StandardScaler judges it. A constant column of
// non-zeros is common in sparse data, and its deviation, mere rounding,
// would blow it up.
func deviation(ss, mean float64, n int) float64 {
	const eps = 0x1p-52
	v, fn := ss/float64(n), float64(n)
	if v <= fn*eps*v+(fn*mean*eps)*(fn*mean*eps) {
		return 1
	}
	return math.Sqrt(v)
}

// apply standardises the rows of ds: dense rows in place, sparse rows in
// a new matrix, sparse still unless s centres them, which fills them.
func (s *scaler) apply(ds *dataset) error {
	m, ok := ds.X.(*perceptron.CSR)
	switch {
	case ok && s.mean == nil:
		_, c := m.Dims()
		X, err := copyCSR(m, nil, c, s.scale)
		if err != nil {
			return fmt.Errorf("%s: standardising: %s", ds.name, libError(err))
		}
		ds.X = X
		return nil
	case ok:
		// A model trained on dense rows centres its features.
		if n, d := m.Dims(); n > maxCells/d {
			return fmt.Errorf("%s: %d rows of %d features are too many to hold centred, as the model's standardisation would have them", ds.name, n, d)
		}
		ds.X = denseOf(m)
	}
	s.applyDense(ds.X.(*mat.Dense))
	return nil
}

// applyDense standardises the dense rows X in place.
func (s *scaler) applyDense(X *mat.Dense) {
	n, _ := X.Dims()
	for i := range n {
		s.row(X.RawRowView(i))
	}
}

// row standardises x in place.
func (s *scaler) row(x []float64) {
	if s.mean != nil {
		floats.Sub(x, s.mean)
	}
	floats.Div(x, s.scale)
}

// split returns the rows of ds in a random order drawn from seed, cut into
// a test set of the fraction test of them and a training set of the rest.
func split(ds *dataset, test float64, seed uint64) (train, tst *dataset, err error) {
	n, _ := ds.X.Dims()
	nt := int(math.Round(test * float64(n)))
	if nt < 1 || nt >= n {
		return nil, nil, fmt.Errorf("%s: %d rows do not split into %v test and the rest training, with at least one row in each", ds.name, n, test)
	}
	perm := rand.New(rand.NewPCG(seed, 0)).Perm(n)
	part := func(rows []int) *dataset {
		var y []int
		if ds.y != nil {
			y = make([]int, len(rows))
			for k, i := range rows {
				y[k] = ds.y[i]
			}
		}
		return &dataset{name: ds.name, X: takeRows(ds.X, rows), classes: ds.classes, y: y, others: ds.others, features: ds.features}
	}
	return part(perm[nt:]), part(perm[:nt]), nil
}

// result is a classifier trained and tested.
type result struct {
	name  string
	m     model
	fit   time.Duration // negative if not known
	train float64
	test  float64 // NaN if there is no test set
	stats perceptron.Stats

	// conf is the confusion matrix of the test rows, nil if there are
	// none.
	conf *confusion
}

// fitModel trains the classifier called name on train, with the classes
// of train, and tests it on test if test is not nil.
func fitModel(name string, o *options, train, test *dataset) (*result, error) {
	o.labels = train.classes.values
	m, ok := newModel(name, o)
	if !ok {
		return nil, usagef("unknown classifier %q: want one of %s", name, classifierNames())
	}
	if o.progress != nil {
		n, _ := train.X.Dims()
		o.progress.begin(name, cmp.Or(o.epochs, defaultEpochs), n, !o.shuffle)
	}
	start := time.Now()
	err := m.Fit(train.X, train.values())
	r := &result{name: name, m: m, fit: time.Since(start), test: math.NaN()}
	if o.progress != nil {
		o.progress.end(m)
	}
	if err != nil {
		// The readers have checked the data, so what Fit rejects are the
		// settings.
		return nil, usagef("training %s: %s", name, libError(err))
	}
	r.train, _ = testModel(m, train, o.progress, "the training rows")
	if test != nil {
		r.test, r.conf = testModel(m, test, o.progress, "the test rows")
	}
	r.stats = m.Stats()
	return r, nil
}

// confusion is a confusion matrix: the rows of each true label by the
// class predicted.
type confusion struct {
	labels []string // the true labels: the k classes, then labels of no class
	k      int
	counts []int // counts[t*k+c]: rows of label t predicted of class c
}

// testModel returns the fraction of the rows of ds that m labels right,
// and their confusion matrix. If p is not nil it reports the progress of
// the prediction, which can take long, as predicting task.
func testModel(m model, ds *dataset, p *progress, task string) (float64, *confusion) {
	k := len(ds.classes.values)
	c := &confusion{labels: ds.labels(), k: k}
	c.counts = make([]int, len(c.labels)*k)
	right := 0
	for i, v := range predictRows(m, ds.X, p, task) {
		pc, ok := ds.classes.index(v)
		if !ok {
			panic(fmt.Sprintf("the model predicts %v, not one of the classes %v", v, ds.classes.values))
		}
		c.counts[ds.y[i]*k+pc]++
		if ds.y[i] == pc {
			right++
		}
	}
	return float64(right) / float64(len(ds.y)), c
}

// writeConfusion writes the confusion matrix c of the classifier called
// name: a row per true label, a column per class predicted, the recall
// of each label and the precision of each class, "-" where no row has
// the label or none is predicted of the class.
func writeConfusion(w io.Writer, name string, c *confusion) error {
	head := append([]string{""}, c.labels[:c.k]...)
	rows := [][]string{append(head, "recall")}
	colSum := make([]int, c.k)
	for t, label := range c.labels {
		row := []string{label}
		sum := 0
		for p := range c.k {
			n := c.counts[t*c.k+p]
			row = append(row, strconv.Itoa(n))
			sum += n
			colSum[p] += n
		}
		recall := math.NaN()
		if sum > 0 {
			recall = 0
			if t < c.k {
				recall = float64(c.counts[t*c.k+t]) / float64(sum)
			}
		}
		rows = append(rows, append(row, percent(recall)))
	}
	prec := []string{"precision"}
	for p, sum := range colSum {
		v := math.NaN()
		if sum > 0 {
			v = float64(c.counts[p*c.k+p]) / float64(sum)
		}
		prec = append(prec, percent(v))
	}
	rows = append(rows, append(prec, ""))
	if _, err := fmt.Fprintf(w, "\n%s on the test rows: true labels down, predicted classes across\n", name); err != nil {
		return err
	}
	return writeAligned(w, rows)
}

// predictChunk is the number of rows that predictRows predicts between two
// progress reports: enough for PredictRows to share out over the cores.
const predictChunk = 1024

// predictRows returns the classes that m predicts for the rows of X. If p
// is not nil it reports the progress as predicting task.
func predictRows(m model, X mat.Matrix, p *progress, task string) []float64 {
	n, _ := X.Dims()
	pred := make([]float64, n)
	if p == nil {
		return m.PredictRows(pred, X)
	}
	p.beginScoring(task, n)
	for lo := 0; lo < n; lo += predictChunk {
		hi := min(n, lo+predictChunk)
		m.PredictRows(pred[lo:hi], rowRange(X, lo, hi))
		p.scored(hi)
	}
	p.endScoring()
	return pred
}

// scoreRows returns the scores by m of the rows of X, those of row i at
// [i·S, (i+1)·S], S being the number of scores of m: one for two
// classes, and one per class for more.
func scoreRows(m model, X mat.Matrix) []float64 {
	n, _ := X.Dims()
	return m.ScoreRows(make([]float64, n*numScores(m)), X)
}

// numScores returns the number of scores of m: one for two classes, and
// one per class for more.
func numScores(m model) int {
	if k := len(m.Classes()); k > 2 {
		return k
	}
	return 1
}

// writeTable writes the results as an aligned table: names to the left,
// figures to the right.
func writeTable(w io.Writer, rs []*result) error {
	rows := [][]string{{"classifier", "train acc", "test acc", "mistakes", "epochs", "converged", "fit time"}}
	return writeAligned(w, append(rows, tableRows(rs)...))
}

// writeAligned writes rows of cells as an aligned table: the first column
// to the left, the others to the right.
func writeAligned(w io.Writer, rows [][]string) error {
	// Widths count runes, not bytes: the µ of microseconds is two bytes.
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		for j, s := range row {
			width[j] = max(width[j], utf8.RuneCountInString(s))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		var line strings.Builder
		for j, s := range row {
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(s))
			if j == 0 {
				line.WriteString(s + pad)
			} else {
				line.WriteString("  " + pad + s)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
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
