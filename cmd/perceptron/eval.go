// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// result is a classifier trained and tested.
type result struct {
	name  string
	m     model
	limit int           // the epoch limit
	fit   time.Duration // negative if not known
	train float64       // NaN if not measured
	test  float64       // NaN if there is no test set
	stats perceptron.Stats

	// report compares the classes predicted for the test rows with
	// theirs; nil if there are none.
	report *data.Report

	// note says why the training accuracy was not measured, if it was not.
	note string
}

// quadratic are the classifiers whose cost grows with the square of the
// rows: the exact pocket counts the mistakes of every training row after
// every update, the voted perceptron predicts with a vote of every
// mistake, and the kernel perceptron scores with a kernel value per
// support vector. -classifier all runs them only where that is cheap.
var quadratic = []string{"pocket", "voted", "kernel"}

// cheapCost is the most rows × rows × non-zeros a row × classes at which
// -classifier all runs the classifiers of quadratic: a few seconds each
// for a few thousand rows of a few hundred features, where Fashion-MNIST
// and the Debian sections take them hours.
const cheapCost = 1e11

// quadraticCost returns rows × rows × non-zeros a row × classes of the
// rows X of K classes.
func quadraticCost(X mat.Matrix, K int) float64 {
	n, d := X.Dims()
	perRow := float64(d)
	if m, ok := X.(*perceptron.CSR); ok {
		perRow = float64(m.NNZ()) / float64(max(n, 1))
	}
	return float64(n) * float64(n) * max(perRow, 1) * float64(max(K, 2))
}

// trainAccuracyCost is the most scalar operations that measuring the
// training accuracy may take: it would otherwise take longer than the
// training, for the vote of the voted perceptron's every mistake and
// the kernel's every support vector.
const trainAccuracyCost = 1e10

// predictCost estimates the operations of predicting the n rows X with
// the fitted m, of S scores.
func predictCost(m model, X mat.Matrix, S int) float64 {
	n, d := X.Dims()
	perRow := float64(d)
	if c, ok := X.(*perceptron.CSR); ok {
		perRow = float64(c.NNZ()) / float64(max(n, 1))
	}
	st := m.Stats()
	terms := 1.0
	switch k := m.(type) {
	case *perceptron.Voted:
		terms = float64(st.Mistakes + 1)
	case *perceptron.Kernel:
		terms = float64(min(st.Mistakes, n))
		if k.Budget > 0 {
			terms = min(terms, float64(k.Budget))
		}
	}
	return float64(n) * terms * (perRow + float64(S))
}

// fitModel trains the classifier called name on train, with the classes
// of train, after checking that its memory fits, with the model file
// that save would add, and tests it on test if test is not nil.
func fitModel(name string, o *options, train, test *dataset, save bool) (*result, error) {
	o.labels = train.classes.values
	m, ok := newModel(name, o)
	if !ok {
		return nil, usagef("unknown classifier %s: want one of %s", quote(name), classifierNames())
	}
	n, d := train.X.Dims()
	S := scoresOf(len(o.labels))
	if name != "kernel" && o.initWeights != nil && len(o.initWeights) != d*S {
		return nil, usagef("-init-weights: %s, want %d: %d per feature of the %s", plural(len(o.initWeights), "weight"), d*S, S, plural(d, "feature"))
	}
	if err := modelNeed(name, o, train.X, S, save).check(); err != nil {
		return nil, err
	}
	limit := o.epochs
	if limit == 0 {
		limit = defaultEpochs
	}
	if o.progress != nil {
		o.progress.begin(name, limit, n, !o.shuffle, o.describeStop(n))
	}
	start := time.Now()
	err := m.Fit(train.X, train.values())
	r := &result{name: name, m: m, limit: limit, fit: time.Since(start), train: math.NaN(), test: math.NaN()}
	if o.progress != nil {
		o.progress.end(m)
	}
	if err != nil {
		return nil, fmt.Errorf("training %s: %s", name, libError(err))
	}
	r.stats = m.Stats()
	if c := predictCost(m, train.X, S); c > trainAccuracyCost {
		r.note = fmt.Sprintf("%s: the training accuracy is not measured: predicting the training rows would take about %.1g operations, more than training (eval -model measures it on any rows)", name, c)
	} else {
		pred, _, err := classify(m, train, o.progress, "the training rows", false)
		if err != nil {
			return nil, err
		}
		r.train = accuracy(pred, train.Y)
	}
	if test != nil {
		pred, _, err := classify(m, test, o.progress, "the test rows", false)
		if err != nil {
			return nil, err
		}
		r.report = newReport(train.classes, test, pred)
		r.test, _, _ = r.report.Accuracy()
	}
	return r, nil
}

// scoresOf returns the number of scores of a model of K classes: one for
// two classes, and one per class for more.
func scoresOf(K int) int {
	if K > 2 {
		return K
	}
	return 1
}

// numScores returns the number of scores of m.
func numScores(m model) int { return scoresOf(len(m.Classes())) }

// accuracy returns the fraction of the classes pred that are those of y.
func accuracy(pred []int, y []float64) float64 {
	right := 0
	for i, c := range pred {
		if float64(c) == y[i] {
			right++
		}
	}
	return float64(right) / float64(max(len(y), 1))
}

// newReport returns the report of the classes pred predicted for the rows
// of test, of the classes of a model: those, then the labels of test that
// are none of them.
func newReport(classes *classSet, test *dataset, pred []int) *data.Report {
	names := append([]string(nil), classes.names...)
	if len(test.Classes) > len(names) {
		names = append(names, test.Classes[len(names):]...)
	}
	p := make([]float64, len(pred))
	for i, c := range pred {
		p[i] = float64(c)
	}
	return data.NewReport(names, test.Y, p)
}

// predictChunk is the number of rows that classify scores between two
// progress reports: enough for ScoreRows to share out over the cores.
const predictChunk = 1024

// classify returns the index of the class of each row of ds that m
// predicts, and with keep their scores, S a row, S being numScores(m). The
// class is the one the scores choose, as perceptron.Scorer says: for two
// classes the second if the score is >= 0, for more the first of the
// greatest. It returns an error naming the row whose scores are not
// finite, as when its values are too large for the weights. If p is not
// nil it reports the progress as scoring task.
func classify(m model, ds *dataset, p *progress, task string, keep bool) ([]int, []float64, error) {
	n, _ := ds.X.Dims()
	S := numScores(m)
	pred := make([]int, n)
	var all []float64
	if keep {
		all = make([]float64, 0, n*S)
	}
	if p != nil {
		p.beginScoring(task, n)
	}
	step := n
	if p != nil {
		step = predictChunk
	}
	scores := make([]float64, min(step, n)*S)
	for lo := 0; lo < n; lo += step {
		hi := min(n, lo+step)
		s := m.ScoreRows(scores[:(hi-lo)*S], rowRange(ds.X, lo, hi))
		for i := lo; i < hi; i++ {
			row := s[(i-lo)*S : (i-lo+1)*S]
			best := 0
			for c, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, nil, fmt.Errorf("%s: row %d%s: the model's score is %v: the values of the row are too large for its weights", ds.name, i+1, strings.TrimPrefix(ds.part, ","), v)
				}
				if v > row[best] {
					best = c
				}
			}
			if S == 1 {
				best = 0
				if row[0] >= 0 {
					best = 1
				}
			}
			pred[i] = best
		}
		if keep {
			all = append(all, s...)
		}
		if p != nil {
			p.scored(hi)
		}
	}
	if p != nil {
		p.endScoring()
	}
	return pred, all, nil
}

// rowRange returns rows lo to hi-1 of X: dense rows in place, sparse rows
// copied.
func rowRange(X mat.Matrix, lo, hi int) mat.Matrix {
	n, c := X.Dims()
	if lo == 0 && hi == n {
		return X
	}
	if d, ok := X.(*mat.Dense); ok {
		return d.Slice(lo, hi, 0, c)
	}
	rows := make([]int, hi-lo)
	for k := range rows {
		rows[k] = lo + k
	}
	return (&data.Set{X: X}).Subset(rows).X
}

// howEnded says how a training run of st ended, of at most limit epochs.
func howEnded(st perceptron.Stats, limit int) string {
	switch {
	case st.Converged:
		return "converged"
	case st.Epochs < limit:
		return "stopped"
	}
	return "limit"
}

// kernelOf describes the kernel of m: linear for all but a Kernel.
func kernelOf(m model) string {
	k, ok := m.(*perceptron.Kernel)
	if !ok {
		return "linear"
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
	switch f := k.Func.(type) {
	case perceptron.RBF:
		if f.Gamma == 0 {
			return "rbf γ=1/d"
		}
		return "rbf γ=" + g(f.Gamma)
	case perceptron.Poly:
		return fmt.Sprintf("poly %d", max(f.Degree, 1))
	case nil:
		return "linear"
	}
	return "custom"
}

// ruleOf names the prediction rule of m.
func ruleOf(m model) string {
	switch m := m.(type) {
	case *perceptron.Kernel:
		return [...]string{"last", "voted", "averaged"}[m.Prediction]
	case *perceptron.Pocket:
		if m.Ratchet {
			return "pocket, ratchet"
		}
		return "pocket"
	case *perceptron.Averaged:
		return "averaged"
	case *perceptron.Voted:
		return "voted"
	}
	return "last"
}

// writeTable writes the results as an aligned table: names to the left,
// figures to the right, and the notes of the results after it.
func writeTable(w io.Writer, rs []*result) error {
	rows := [][]string{{"classifier", "kernel", "prediction", "epochs", "ended", "mistakes", "train acc", "test acc", "fit time"}}
	var notes []string
	for _, r := range rs {
		rows = append(rows, []string{r.name, kernelOf(r.m), ruleOf(r.m), strconv.Itoa(r.stats.Epochs), howEnded(r.stats, r.limit),
			strconv.Itoa(r.stats.Mistakes), percent(r.train), percent(r.test), duration(r.fit)})
		if r.note != "" {
			notes = append(notes, r.note)
		}
	}
	if err := writeAligned(w, rows, 3); err != nil {
		return err
	}
	for _, n := range notes {
		if _, err := fmt.Fprintln(w, n); err != nil {
			return err
		}
	}
	return nil
}

// writeAligned writes rows of cells as an aligned table: the first left
// columns to the left, the others to the right.
func writeAligned(w io.Writer, rows [][]string, left int) error {
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
			if j > 0 {
				line.WriteString("  ")
			}
			if j < left {
				line.WriteString(s + pad)
			} else {
				line.WriteString(pad + s)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeReports writes, for each result, the classification report and the
// confusion matrix of its test rows.
func writeReports(w io.Writer, rs []*result) error {
	for _, r := range rs {
		if r.report == nil {
			continue
		}
		_, err := fmt.Fprintf(w, "\n%s (%s, %s) on the test rows:\n\n%s\nconfusion matrix of the test rows:\n%s",
			r.name, kernelOf(r.m), ruleOf(r.m), r.report.String(), r.report.Matrix(100))
		if err != nil {
			return err
		}
	}
	return nil
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

// nonZeros returns, for sparse rows X, their non-zeros and the fraction of
// the elements that they are, as ", 901234 non-zeros (0.032%)". It returns
// "" for dense rows.
func nonZeros(X mat.Matrix) string {
	m, ok := X.(*perceptron.CSR)
	if !ok {
		return ""
	}
	n, d := m.Dims()
	p := 100 * float64(m.NNZ()) / (float64(n) * float64(d))
	prec := 2
	if p > 0 && p < 1 {
		prec = 1 - int(math.Floor(math.Log10(p)))
	}
	return fmt.Sprintf(", %s (%s%%)", plural(m.NNZ(), "non-zero"), strconv.FormatFloat(p, 'f', prec, 64))
}

// isSparse reports whether X is sparse.
func isSparse(X mat.Matrix) bool {
	_, ok := X.(*perceptron.CSR)
	return ok
}

// rms returns the root mean square of the values of X, zeros included.
func rms(X mat.Matrix) float64 {
	n, d := X.Dims()
	var sum, scale float64 = 0, 1
	add := func(v float64) {
		// Scaled sums of squares, as LAPACK's dnrm2, which do not overflow.
		if v == 0 {
			return
		}
		a := math.Abs(v)
		if a > scale {
			sum = 1 + sum*(scale/a)*(scale/a)
			scale = a
		} else {
			sum += (a / scale) * (a / scale)
		}
	}
	sum = 0
	switch m := X.(type) {
	case *perceptron.CSR:
		for i := range n {
			m.DoRowNonZero(i, func(_, _ int, v float64) { add(v) })
		}
	case *mat.Dense:
		for i := range n {
			for _, v := range m.RawRowView(i) {
				add(v)
			}
		}
	}
	return scale * math.Sqrt(sum/(float64(n)*float64(d)))
}

// quote returns s quoted, cut to a short printable prefix: an error
// quotes a bad token so, however long it is.
func quote(s string) string {
	const most = 40
	if len(s) <= most {
		return strconv.QuoteToASCII(s)
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.QuoteToASCII(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
}
