// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron"
)

// Report compares the classes that a classifier predicts with the true
// ones: the counts of the confusion matrix, from which it gives the
// measures of scikit-learn's classification_report.
type Report struct {
	// Classes are the names of the classes.
	Classes []string

	// Confusion counts the rows of each true class by the class
	// predicted: Confusion[t][p] rows of class t were predicted p.
	Confusion [][]int
}

// NewReport returns the Report of the true classes y and the predicted
// classes pred, both indices into classes, as a Set's Y holds them. It
// returns an error if y and pred differ in length, or naming the first
// that is not a class: a whole number from 0 to len(classes)-1.
//
// NewReport holds the counts of the confusion matrix, 8 bytes for each
// pair of classes, and checks their memory first.
func NewReport(classes []string, y, pred []float64) (*Report, error) {
	if len(y) != len(pred) {
		return nil, errorf(perceptron.ErrShape, "data: %d true classes and %d predicted, want as many", len(y), len(pred))
	}
	k := len(classes)
	for _, c := range []struct {
		name string
		y    []float64
	}{{"y", y}, {"pred", pred}} {
		for i, v := range c.y {
			if !(v >= 0 && v < float64(k)) || v != math.Trunc(v) {
				return nil, errorAt(perceptron.ErrLabels, 0, i, -1, "data: %s[%d] is %v, want a class: a whole number from 0 to %d, an index into the %d classes", c.name, i, v, k-1, k)
			}
		}
	}
	if err := checkMemory(8*float64(k)*float64(k)+24*float64(k), "data: a confusion matrix of %d classes", k); err != nil {
		return nil, err
	}
	r := &Report{Classes: classes, Confusion: make([][]int, k)}
	counts := make([]int, k*k)
	for t := range r.Confusion {
		r.Confusion[t] = counts[t*k : (t+1)*k : (t+1)*k]
	}
	for i := range y {
		r.Confusion[int(y[i])][int(pred[i])]++
	}
	return r, nil
}

// square panics unless the confusion matrix of r is square, a row and a
// column for each class, and c is a class of r if it is not negative.
func (r *Report) square(c int) {
	k := len(r.Classes)
	if len(r.Confusion) != k {
		panic(fmt.Sprintf("data: Confusion has length %d, want %d, the number of classes", len(r.Confusion), k))
	}
	for t, row := range r.Confusion {
		if len(row) != k {
			panic(fmt.Sprintf("data: Confusion[%d] has length %d, want %d, the number of classes", t, len(row), k))
		}
	}
	if c >= k {
		panic(fmt.Sprintf("data: class %d of a Report of %d classes", c, k))
	}
}

// Accuracy returns the fraction of the rows predicted right, with the
// counts of those and of all.
func (r *Report) Accuracy() (acc float64, right, total int) {
	for t, row := range r.Confusion {
		for p, n := range row {
			total += n
			if p == t {
				right += n
			}
		}
	}
	if total == 0 {
		return 0, 0, 0
	}
	return float64(right) / float64(total), right, total
}

// Accuracy returns the fraction of the classes pred that are the classes
// y, as Predict gives them and a Set's Y holds them: of the rows predicted
// right. It returns 0 if y is empty, as Report's Accuracy does, and panics
// if y and pred differ in length.
func Accuracy(y, pred []float64) float64 {
	if len(y) != len(pred) {
		panic(fmt.Sprintf("data: Accuracy of %d classes and %d predicted, want as many", len(y), len(pred)))
	}
	right := 0
	for i, c := range pred {
		if c == y[i] {
			right++
		}
	}
	if right == 0 {
		return 0
	}
	return float64(right) / float64(len(y))
}

// Class returns the precision, the recall, the F1 score and the support
// of class c: the fraction of the rows predicted c that are c, the
// fraction of the rows of c predicted c, their harmonic mean, and the
// rows of c. A fraction of no rows is 0, as scikit-learn reports it. Class
// panics if c is not a class of r, from 0 to len(r.Classes)-1, or if
// Confusion has not a row and a column for each class.
func (r *Report) Class(c int) (precision, recall, f1 float64, support int) {
	if c < 0 {
		panic(fmt.Sprintf("data: class %d of a Report", c))
	}
	r.square(c)
	right, predicted := r.Confusion[c][c], 0
	for t := range r.Confusion {
		predicted += r.Confusion[t][c]
		support += r.Confusion[c][t]
	}
	precision, recall = ratio(right, predicted), ratio(right, support)
	if precision+recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	return precision, recall, f1, support
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// String returns the report as scikit-learn's classification_report
// writes it: the precision, recall, F1 score and support of each class,
// the accuracy, and the macro average and the average weighted by
// support of each measure. It panics if Confusion has not a row and a
// column for each class.
func (r *Report) String() string {
	r.square(-1)
	w := len("weighted avg")
	for _, name := range r.Classes {
		w = max(w, utf8.RuneCountInString(name))
	}
	var b strings.Builder
	line := func(name string, p, rc, f1 float64, support int) {
		fmt.Fprintf(&b, "%*s  %9.4f %9.4f %9.4f %9d\n", w, name, p, rc, f1, support)
	}
	fmt.Fprintf(&b, "%*s  %9s %9s %9s %9s\n\n", w, "", "precision", "recall", "f1-score", "support")
	var sum, weighted [3]float64
	total := 0
	for c, name := range r.Classes {
		p, rc, f1, n := r.Class(c)
		line(name, p, rc, f1, n)
		for k, v := range [3]float64{p, rc, f1} {
			sum[k] += v
			weighted[k] += v * float64(n)
		}
		total += n
	}
	acc, _, _ := r.Accuracy()
	k := float64(max(len(r.Classes), 1))
	t := float64(max(total, 1))
	fmt.Fprintf(&b, "\n%*s  %9s %9s %9.4f %9d\n", w, "accuracy", "", "", acc, total)
	line("macro avg", sum[0]/k, sum[1]/k, sum[2]/k, total)
	line("weighted avg", weighted[0]/t, weighted[1]/t, weighted[2]/t, total)
	return b.String()
}

// Matrix returns the confusion matrix as text: whole, a row for each true
// class and a column for each predicted one, headed by the names of the
// classes, if every line fits in width columns; otherwise a line for each
// class, of its largest confusions. It panics if Confusion has not a row and a
// column for each class.
func (r *Report) Matrix(width int) string {
	r.square(-1)
	runes := utf8.RuneCountInString
	// The names of the rows, then each column: its name over its counts,
	// two spaces before it.
	left := 0
	for _, name := range r.Classes {
		left = max(left, runes(name))
	}
	cols := make([]int, len(r.Classes))
	total := left
	for p, name := range r.Classes {
		cols[p] = runes(name)
		for t := range r.Confusion {
			cols[p] = max(cols[p], len(strconv.Itoa(r.Confusion[t][p])))
		}
		total += 2 + cols[p]
	}
	const predicted = "  (predicted)"
	var b strings.Builder
	if total+len(predicted) <= width {
		pad := func(s string, w int) string { return strings.Repeat(" ", max(w-runes(s), 0)) }
		b.WriteString(pad("", left))
		for p, name := range r.Classes {
			b.WriteString("  " + pad(name, cols[p]) + name)
		}
		b.WriteString(predicted + "\n")
		for t, row := range r.Confusion {
			b.WriteString(r.Classes[t] + pad(r.Classes[t], left))
			for p, n := range row {
				c := strconv.Itoa(n)
				b.WriteString("  " + pad(c, cols[p]) + c)
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	// Too wide: for each class, its rows predicted right, and the classes
	// it is most often taken for.
	const shown = 3
	for t, row := range r.Confusion {
		_, _, _, support := r.Class(t)
		fmt.Fprintf(&b, "%s: %d of %d right", r.Classes[t], row[t], support)
		var off []int
		for p, n := range row {
			if p != t && n > 0 {
				off = append(off, p)
			}
		}
		slices.SortStableFunc(off, func(a, c int) int { return cmp.Compare(row[c], row[a]) })
		for k, p := range off[:min(shown, len(off))] {
			sep := ","
			if k == 0 {
				sep = "; taken for"
			}
			fmt.Fprintf(&b, "%s %s %d", sep, r.Classes[p], row[p])
		}
		b.WriteByte('\n')
	}
	return b.String()
}
