// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// fromConfusion returns true and predicted classes whose confusion matrix
// is c, in a random order.
func fromConfusion(rnd *rand.Rand, c [][]int) (y, pred []float64) {
	for t, row := range c {
		for p, n := range row {
			for range n {
				y = append(y, float64(t))
				pred = append(pred, float64(p))
			}
		}
	}
	rnd.Shuffle(len(y), func(a, b int) {
		y[a], y[b] = y[b], y[a]
		pred[a], pred[b] = pred[b], pred[a]
	})
	return y, pred
}

// The confusion matrix of the hand-computed report: rows the true
// classes a, b and c, columns the predicted.
//
//	   a  b  c   support
//	a  5  1  0   6
//	b  2  3  1   6
//	c  0  0  4   4
//	   7  4  5   predicted
//
// precision a 5/7, b 3/4, c 4/5; recall a 5/6, b 3/6, c 4/4; F1 =
// 2TP/(2TP+FP+FN): a 10/13, b 6/10, c 8/9; accuracy 12/16.
var handConfusion = [][]int{{5, 1, 0}, {2, 3, 1}, {0, 0, 4}}

func TestReportByHand(t *testing.T) {
	y, pred := fromConfusion(rand.New(rand.NewPCG(1, 1)), handConfusion)
	r := newReport(t, []string{"a", "b", "c"}, y, pred)
	if !slices.EqualFunc(r.Confusion, handConfusion, slices.Equal) {
		t.Fatalf("confusion %v, want %v", r.Confusion, handConfusion)
	}
	want := []struct {
		p, r, f1 float64
		support  int
	}{
		{5.0 / 7, 5.0 / 6, 10.0 / 13, 6},
		{3.0 / 4, 3.0 / 6, 6.0 / 10, 6},
		{4.0 / 5, 4.0 / 4, 8.0 / 9, 4},
	}
	for c, w := range want {
		p, rc, f1, n := r.Class(c)
		// Precision and recall are one division, exact to rounding; F1,
		// the harmonic mean of the two, a few more roundings.
		if p != w.p || rc != w.r || math.Abs(f1-w.f1) > 4*eps || n != w.support {
			t.Errorf("class %d: %v %v %v %d, want %v %v %v %d", c, p, rc, f1, n, w.p, w.r, w.f1, w.support)
		}
	}
	if acc, right, total := r.Accuracy(); acc != 0.75 || right != 12 || total != 16 {
		t.Errorf("accuracy %v, %d of %d; want 0.75, 12 of 16", acc, right, total)
	}

	// The averages, to four places: macro precision (5/7+3/4+4/5)/3 =
	// 317/420, recall (5/6+1/2+1)/3 = 7/9, F1 (10/13+3/5+8/9)/3 =
	// 1321/1755; weighted precision (6·5/7+6·3/4+4·4/5)/16 = 839/1120,
	// recall 12/16, F1 (6·10/13+6·3/5+4·8/9)/16 = 3443/4680.
	wantLines := [][]string{
		{"precision", "recall", "f1-score", "support"},
		{"a", "0.7143", "0.8333", "0.7692", "6"},
		{"b", "0.7500", "0.5000", "0.6000", "6"},
		{"c", "0.8000", "1.0000", "0.8889", "4"},
		{"accuracy", "0.7500", "16"},
		{"macro", "avg", "0.7548", "0.7778", "0.7527", "16"},
		{"weighted", "avg", "0.7491", "0.7500", "0.7357", "16"},
	}
	var got [][]string
	for line := range strings.Lines(r.String()) {
		if f := strings.Fields(line); len(f) > 0 {
			got = append(got, f)
		}
	}
	if !slices.EqualFunc(got, wantLines, slices.Equal) {
		t.Errorf("String:\n%s\nwant the fields %q", r, wantLines)
	}
}

// TestReportZeros checks the measures of classes of no rows and of no
// predictions: a fraction of no rows is 0, as scikit-learn reports it.
func TestReportZeros(t *testing.T) {
	// a: 2 rows, predicted b; b: no rows, predicted twice; c: no rows,
	// never predicted; d: one row, predicted right.
	r := newReport(t, []string{"a", "b", "c", "d"}, []float64{0, 0, 3}, []float64{1, 1, 3})
	for c, w := range [][4]float64{{0, 0, 0, 2}, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 1, 1}} {
		p, rc, f1, n := r.Class(c)
		if got := [4]float64{p, rc, f1, float64(n)}; got != w {
			t.Errorf("class %d: %v, want %v", c, got, w)
		}
	}
	if acc, right, total := r.Accuracy(); acc != 1.0/3 || right != 1 || total != 3 {
		t.Errorf("accuracy %v, %d of %d; want 1/3, 1 of 3", acc, right, total)
	}
	if acc, right, total := newReport(t, []string{"a"}, nil, nil).Accuracy(); acc != 0 || right != 0 || total != 0 {
		t.Errorf("accuracy of no rows %v, %d of %d; want 0", acc, right, total)
	}
}

// newReport returns the Report of NewReport, failing t on an error.
func newReport(t *testing.T, classes []string, y, pred []float64) *data.Report {
	t.Helper()
	r, err := data.NewReport(classes, y, pred)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNewReportErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		y, pred []float64
		kind    error
		subs    []string
	}{
		{"lengths differ", []float64{0, 1}, []float64{0}, perceptron.ErrShape, []string{"2 true classes and 1 predicted"}},
		{"true class out of range", []float64{0, 2}, []float64{0, 1}, nil, []string{"y[1] is 2", "from 0 to 1"}},
		{"predicted class out of range", []float64{0, 1}, []float64{0, -1}, nil, []string{"pred[1] is -1"}},
		{"true class not whole", []float64{0.5, 1}, []float64{0, 1}, nil, []string{"y[0] is 0.5"}},
		{"predicted class NaN", []float64{0, 1}, []float64{0, math.NaN()}, nil, []string{"pred[1] is NaN"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := data.NewReport([]string{"a", "b"}, tc.y, tc.pred)
			if r != nil || err == nil {
				t.Fatalf("NewReport = %v, %v; want an error", r, err)
			}
			for _, sub := range tc.subs {
				if !strings.Contains(err.Error(), sub) {
					t.Errorf("error %q does not hold %q", err, sub)
				}
			}
			if tc.kind != nil && !errors.Is(err, tc.kind) {
				t.Errorf("error %q is not of kind %v", err, tc.kind)
			}
		})
	}
}

// TestReportPanics checks that the methods of a Report built by hand,
// whose confusion matrix is not square, panic with a message that says
// so, as they document, and Class of a class it has not.
func TestReportPanics(t *testing.T) {
	ragged := &data.Report{Classes: []string{"a", "b"}, Confusion: [][]int{{1, 0}, {0}}}
	short := &data.Report{Classes: []string{"a", "b"}, Confusion: [][]int{{1, 0}}}
	good := &data.Report{Classes: []string{"a", "b"}, Confusion: [][]int{{1, 0}, {0, 1}}}
	for _, tc := range []struct {
		name string
		call func()
		want string
	}{
		{"String of ragged", func() { _ = ragged.String() }, "Confusion[1] has length 1, want 2"},
		{"Matrix of short", func() { _ = short.Matrix(80) }, "Confusion has length 1, want 2"},
		{"Class of ragged", func() { ragged.Class(0) }, "Confusion[1]"},
		{"Class 2 of 2", func() { good.Class(2) }, "class 2 of a Report of 2 classes"},
		{"Class -1", func() { good.Class(-1) }, "class -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg, ok := r.(string); !ok || !strings.HasPrefix(msg, "data: ") || !strings.Contains(msg, tc.want) {
					t.Errorf("panic %v, want one holding %q", r, tc.want)
				}
			}()
			tc.call()
		})
	}
}

// naiveMeasures returns the precision, recall, F1 and support of each of
// k classes, from the true and the predicted classes one by one.
func naiveMeasures(k int, y, pred []float64) (p, r, f1 []float64, support []int) {
	p, r, f1, support = make([]float64, k), make([]float64, k), make([]float64, k), make([]int, k)
	for c := range k {
		tp, fp, fn := 0, 0, 0
		for i := range y {
			isC, predC := int(y[i]) == c, int(pred[i]) == c
			switch {
			case isC && predC:
				tp++
			case predC:
				fp++
			case isC:
				fn++
			}
		}
		if tp+fp > 0 {
			p[c] = float64(tp) / float64(tp+fp)
		}
		if tp+fn > 0 {
			r[c] = float64(tp) / float64(tp+fn)
		}
		if tp > 0 {
			f1[c] = float64(2*tp) / float64(2*tp+fp+fn)
		}
		support[c] = tp + fn
	}
	return p, r, f1, support
}

// naiveAverages returns the macro and the weighted averages of m, whose
// entries are the measures of the classes.
func naiveAverages(m [3][]float64, support []int) (macro, weighted [3]float64) {
	total := 0
	for _, n := range support {
		total += n
	}
	for k := range m {
		for c, v := range m[k] {
			macro[k] += v / float64(len(m[k]))
			weighted[k] += v * float64(support[c]) / float64(total)
		}
	}
	return macro, weighted
}

// randomReport returns k class names, of one to ten runes some of them
// not ASCII, and n true and predicted classes, right with probability
// 1/2, some classes seldom or never true.
func randomReport(rnd *rand.Rand, k, n int) (names []string, y, pred []float64) {
	runes := []rune("abcxyzé日本-_ ")
	for c := range k {
		var b strings.Builder
		fmt.Fprintf(&b, "%d", c)
		for range rnd.IntN(10) {
			b.WriteRune(runes[rnd.IntN(len(runes))])
		}
		names = append(names, strings.TrimSpace(b.String()))
	}
	weights := make([]float64, k)
	for c := range weights {
		weights[c] = math.Pow(rnd.Float64(), 3)
	}
	draw := func() float64 {
		u := rnd.Float64() * floatsSum(weights)
		for c, w := range weights {
			if u < w {
				return float64(c)
			}
			u -= w
		}
		return float64(k - 1)
	}
	for range n {
		t := draw()
		p := t
		if rnd.IntN(2) == 0 {
			p = float64(rnd.IntN(k))
		}
		y, pred = append(y, t), append(pred, p)
	}
	return names, y, pred
}

func floatsSum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// TestReportRandom checks the measures and String of random reports
// against a naive computation from the rows.
func TestReportRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 3))
	for trial := range 200 {
		k, n := 1+rnd.IntN(7), 1+rnd.IntN(300)
		names, y, pred := randomReport(rnd, k, n)
		r := newReport(t, names, y, pred)
		p, rc, f1, support := naiveMeasures(k, y, pred)
		for c := range k {
			gp, gr, gf, gn := r.Class(c)
			if gp != p[c] || gr != rc[c] || math.Abs(gf-f1[c]) > 4*eps || gn != support[c] {
				t.Fatalf("trial %d, class %d: %v %v %v %d, want %v %v %v %d", trial, c, gp, gr, gf, gn, p[c], rc[c], f1[c], support[c])
			}
		}
		right := 0
		for i := range y {
			if y[i] == pred[i] {
				right++
			}
		}
		if acc, gr, gt := r.Accuracy(); acc != float64(right)/float64(n) || gr != right || gt != n {
			t.Fatalf("trial %d: accuracy %v, %d of %d; want %d of %d", trial, acc, gr, gt, right, n)
		}

		// String, to four places: each number within half a unit of the
		// fourth place of the naive one, and a little more for the
		// different roundings of the two sums.
		macro, weighted := naiveAverages([3][]float64{p, rc, f1}, support)
		wantRows := [][4]float64{}
		for c := range k {
			wantRows = append(wantRows, [4]float64{p[c], rc[c], f1[c], float64(support[c])})
		}
		wantRows = append(wantRows,
			[4]float64{float64(right) / float64(n), float64(n)},
			[4]float64{macro[0], macro[1], macro[2], float64(n)},
			[4]float64{weighted[0], weighted[1], weighted[2], float64(n)})
		heads := append(slices.Clone(names), "accuracy", "macro avg", "weighted avg")
		lines := reportLines(t, r.String())
		if len(lines) != k+3 {
			t.Fatalf("trial %d: %d lines of measures, want %d:\n%s", trial, len(lines), k+3, r)
		}
		for i, line := range lines {
			if line.name != heads[i] {
				t.Fatalf("trial %d: line %d is of %q, want %q", trial, i, line.name, heads[i])
			}
			for j, v := range line.values {
				if math.Abs(v-wantRows[i][j]) > 0.5e-4+1e-12 {
					t.Fatalf("trial %d: line %q: %v, want %v:\n%s", trial, line.name, line.values, wantRows[i], r)
				}
			}
		}
	}
}

type reportLine struct {
	name   string
	values []float64 // precision, recall, F1 and support, or accuracy and support
}

// reportLines parses the lines of measures of a report, after its header:
// a name, right-aligned, then four numbers, or for accuracy two.
func reportLines(t *testing.T, s string) []reportLine {
	t.Helper()
	all := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	var out []reportLine
	for _, line := range all[1:] {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Fields(line)
		n := 4
		if len(f) == 3 && f[0] == "accuracy" {
			n = 2
		}
		if len(f) < n+1 {
			t.Fatalf("line %q: want a name and %d numbers", line, n)
		}
		var values []float64
		for _, w := range f[len(f)-n:] {
			v, err := strconv.ParseFloat(w, 64)
			if err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			values = append(values, v)
		}
		// The name is what precedes the numbers, right-aligned.
		name := line
		for range n {
			name = strings.TrimRight(name, " ")
			name = name[:strings.LastIndexByte(name, ' ')+1]
		}
		out = append(out, reportLine{strings.TrimSpace(name), values})
	}
	return out
}

// TestReportLayout checks the lines of String: the header, a blank line,
// a line per class, a blank line, and the accuracy, macro and weighted
// averages, every line but the blank ones of the same width in runes, the
// names right-aligned in a column as wide as the longest name or
// "weighted avg", and the numbers right-aligned below their headings.
func TestReportLayout(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 5))
	for trial := range 50 {
		k := 1 + rnd.IntN(6)
		names, y, pred := randomReport(rnd, k, 1+rnd.IntN(100))
		if trial == 0 {
			names[0] = "a class of a long name, é"
		}
		s := newReport(t, names, y, pred).String()
		lines := strings.Split(s, "\n")
		if len(lines) != k+7 || lines[k+6] != "" {
			t.Fatalf("%d lines, want %d ending in a newline:\n%s", len(lines), k+7, s)
		}
		lines = lines[:k+6]
		if lines[1] != "" || lines[k+2] != "" {
			t.Fatalf("no blank line after the header or after the classes:\n%s", s)
		}
		w := len("weighted avg")
		for _, n := range names {
			w = max(w, utf8.RuneCountInString(n))
		}
		width := utf8.RuneCountInString(lines[0])
		heads := map[int]string{}
		for c, n := range names {
			heads[2+c] = n
		}
		heads[k+3], heads[k+4], heads[k+5] = "accuracy", "macro avg", "weighted avg"
		for i, line := range lines {
			if line == "" {
				continue
			}
			if utf8.RuneCountInString(line) != width {
				t.Errorf("line %d of %d runes, the header of %d:\n%s", i, utf8.RuneCountInString(line), width, s)
			}
			runes := []rune(line)
			if i > 0 && string(runes[:w]) != fmt.Sprintf("%*s", w, heads[i]) {
				t.Errorf("line %d does not start with %q right-aligned in %d runes:\n%s", i, heads[i], w, s)
			}
			if i == 0 && strings.TrimSpace(string(runes[:w])) != "" {
				t.Errorf("the header does not start with %d spaces:\n%s", w, s)
			}
		}
		// Each number ends where its heading does.
		for _, h := range []string{"precision", "recall", "f1-score", "support"} {
			end := strings.Index(lines[0], h) + len(h) // the header is ASCII
			for i := 2; i < len(lines); i++ {
				r := []rune(lines[i])
				if len(r) == 0 || (i == k+3 && h != "f1-score" && h != "support") {
					continue
				}
				if end > len(r) || r[end-1] == ' ' || (end < len(r) && r[end] != ' ') {
					t.Errorf("line %d: no number ends below %q, at rune %d:\n%s", i, h, end, s)
				}
			}
		}
	}
}

// sklearnReport formats a report as scikit-learn's classification_report
// does with digits=4, translated from its format strings:
//
//	head_fmt = "{:>{width}s} " + " {:>9}" * len(headers)
//	row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
//	row_fmt_accuracy = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
//
// with a blank line after the header and another after the classes, and
// width the longest of the names, "weighted avg" and digits.
func sklearnReport(names []string, rows [][4]float64) string {
	width := len("weighted avg")
	for _, n := range names {
		width = max(width, utf8.RuneCountInString(n))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%*s ", width, "")
	for _, h := range []string{"precision", "recall", "f1-score", "support"} {
		fmt.Fprintf(&b, " %9s", h)
	}
	b.WriteString("\n\n")
	row := func(name string, v [4]float64) {
		fmt.Fprintf(&b, "%*s ", width, name)
		fmt.Fprintf(&b, " %9.4f %9.4f %9.4f %9d\n", v[0], v[1], v[2], int(v[3]))
	}
	k := len(names)
	for c := range k {
		row(names[c], rows[c])
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "%*s ", width, "accuracy")
	fmt.Fprintf(&b, " %9s %9s %9.4f %9d\n", "", "", rows[k][0], int(rows[k][1]))
	row("macro avg", rows[k+1])
	row("weighted avg", rows[k+2])
	return b.String()
}

// TestReportScikitLearn compares String with the text of scikit-learn's
// classification_report of digits=4 on the hand-computed report, whose
// numbers TestReportByHand checks: the layout that String's
// documentation promises, space for space.
func TestReportScikitLearn(t *testing.T) {
	y, pred := fromConfusion(rand.New(rand.NewPCG(1, 1)), handConfusion)
	r := newReport(t, []string{"a", "b", "c"}, y, pred)
	want := sklearnReport(r.Classes, [][4]float64{
		{5.0 / 7, 5.0 / 6, 10.0 / 13, 6},
		{3.0 / 4, 3.0 / 6, 6.0 / 10, 6},
		{4.0 / 5, 4.0 / 4, 8.0 / 9, 4},
		{12.0 / 16, 16},
		{317.0 / 420, 7.0 / 9, 1321.0 / 1755, 16},
		{839.0 / 1120, 12.0 / 16, 3443.0 / 4680, 16},
	})
	if got := r.String(); got != want {
		t.Errorf("String:\n%s\nscikit-learn's classification_report(digits=4):\n%s", got, want)
	}
}

// randomConfusion returns a k-class report of n rows, each right with
// probability right, or taken for one of a few classes near its own.
func randomConfusion(t *testing.T, rnd *rand.Rand, names []string, n int, right float64) *data.Report {
	k := len(names)
	y, pred := make([]float64, n), make([]float64, n)
	for i := range n {
		c := rnd.IntN(k)
		y[i], pred[i] = float64(c), float64(c)
		if rnd.Float64() >= right {
			pred[i] = float64((c + 1 + rnd.IntN(min(5, k))) % k)
		}
	}
	return newReport(t, names, y, pred)
}

// TestMatrixTable checks that Matrix of few classes lays out the whole
// matrix, its counts right and every line within the width, whenever it
// lays it out; that it does so for widths beyond some width; and that
// for none below it does.
func TestMatrixTable(t *testing.T) {
	rnd := rand.New(rand.NewPCG(6, 7))
	for trial := range 40 {
		k := 1 + rnd.IntN(6)
		names := make([]string, k)
		for c := range names {
			// Names of other widths than the counts, one with a space and
			// one of letters of two bytes.
			names[c] = []string{"class A", "b", "ça", "dd", "electron", "f"}[c]
		}
		r := randomConfusion(t, rnd, names, []int{0, 5, 50, 2000}[trial%4], 0.6)
		table := false
		for width := 1; width <= 120; width++ {
			s := r.Matrix(width)
			isTable := strings.Contains(s, "(predicted)")
			if table && !isTable {
				t.Fatalf("%d classes: the whole matrix at width %d, not at %d", k, width-1, width)
			}
			table = isTable
			if !isTable {
				continue
			}
			for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
				if n := utf8.RuneCountInString(line); n > width {
					t.Fatalf("%d classes, width %d: a line of %d runes, %q, in\n%s", k, width, n, line, s)
				}
			}
			checkTable(t, r, s)
		}
		if !table {
			t.Fatalf("%d classes: no whole matrix in 120 columns:\n%s", k, r.Matrix(120))
		}
	}
}

// checkTable checks the whole matrix s: a heading line of the predicted
// classes' names, right-aligned over their columns, and a line per true
// class of its name and its counts, each under the name of its column.
func checkTable(t *testing.T, r *data.Report, s string) {
	t.Helper()
	k := len(r.Classes)
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) != k+1 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), k+1, s)
	}
	head := []rune(lines[0])
	if !strings.HasSuffix(lines[0], "  (predicted)") {
		t.Fatalf("heading %q:\n%s", lines[0], s)
	}
	// Each column ends where its name ends in the heading.
	end := len(head) - len("  (predicted)")
	var ends []int
	for p := k - 1; p >= 0; p-- {
		name := []rune(r.Classes[p])
		if end < len(name) || string(head[end-len(name):end]) != r.Classes[p] {
			t.Fatalf("heading %q: no %q ending at %d:\n%s", lines[0], r.Classes[p], end, s)
		}
		ends = append([]int{end}, ends...)
		end -= len(name)
		for end > 0 && head[end-1] == ' ' {
			end--
		}
	}
	for c := range k {
		line := []rune(lines[1+c])
		if !strings.HasPrefix(lines[1+c], r.Classes[c]+" ") {
			t.Fatalf("row %d: %q does not start with %q:\n%s", c+1, lines[1+c], r.Classes[c], s)
		}
		for p, e := range ends {
			start := e
			for start > 0 && line[start-1] != ' ' {
				start--
			}
			if got := string(line[start:e]); got != fmt.Sprint(r.Confusion[c][p]) {
				t.Fatalf("row %d, column %d: %q, want %d:\n%s", c+1, p+1, got, r.Confusion[c][p], s)
			}
		}
		if len(line) != ends[k-1] {
			t.Fatalf("row %d: %q goes on after the last column:\n%s", c+1, lines[1+c], s)
		}
	}
}

// TestMatrixLargest checks Matrix of 35 classes in 100 columns, too many
// for the whole matrix: a line per class, in order, of its rows predicted
// right, its support, and the classes it is most often taken for, with
// their counts, at most three, largest first.
func TestMatrixLargest(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 9))
	const k = 35
	names := make([]string, k)
	for c := range names {
		names[c] = fmt.Sprintf("k%02d", c+1)
	}
	for trial, n := range []int{0, 30, 700, 5000} {
		r := randomConfusion(t, rnd, names, n, 0.5)
		s := r.Matrix(100)
		if strings.Contains(s, "(predicted)") {
			t.Fatalf("35 classes in 100 columns: the whole matrix:\n%s", s)
		}
		lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		if len(lines) != k {
			t.Fatalf("trial %d: %d lines, want one per class, %d:\n%s", trial, len(lines), k, s)
		}
		re := regexp.MustCompile(`^(\S+): (\d+) of (\d+) right(?:; taken for (.*))?$`)
		for c, line := range lines {
			if utf8.RuneCountInString(line) > 100 {
				t.Errorf("a line of %d runes: %q", utf8.RuneCountInString(line), line)
			}
			m := re.FindStringSubmatch(line)
			row := r.Confusion[c]
			support := 0
			for _, v := range row {
				support += v
			}
			if m == nil || m[1] != names[c] || m[2] != fmt.Sprint(row[c]) || m[3] != fmt.Sprint(support) {
				t.Fatalf("line %q, want %s: %d of %d right", line, names[c], row[c], support)
			}
			var off []int // the counts of the classes c is taken for
			for p, v := range row {
				if p != c && v > 0 {
					off = append(off, v)
				}
			}
			slices.Sort(off)
			slices.Reverse(off)
			var listed []int
			if m[4] != "" {
				for _, item := range strings.Split(m[4], ", ") {
					name, count, ok := strings.Cut(item, " ")
					p := slices.Index(names, name)
					v, err := strconv.Atoi(count)
					if !ok || p < 0 || p == c || err != nil || row[p] != v {
						t.Fatalf("line %q: %q is not a class it is taken for and its count", line, item)
					}
					listed = append(listed, v)
				}
			}
			if want := off[:min(3, len(off))]; !slices.Equal(listed, want) {
				t.Fatalf("line %q: counts %v, want the largest %v of %v", line, listed, want, off)
			}
		}
	}
}
