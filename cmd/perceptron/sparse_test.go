// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/seed5ae3614e/perceptron"
)

// csrRow returns the columns and the values of the stored elements of row
// i of m, in the order in which DoRowNonZero yields them, the order of the
// columns.
func csrRow(m *perceptron.CSR, i int) (ind []int, val []float64) {
	m.DoRowNonZero(i, func(_, j int, v float64) {
		ind = append(ind, j)
		val = append(val, v)
	})
	return ind, val
}

// sparseData returns n rows of d features with about perRow non-zeros
// each, of varied scales, labelled by a random hyperplane: as a CSR and as
// the same rows dense.
func sparseData(rnd *rand.Rand, n, d, perRow int) (*perceptron.CSR, *mat.Dense, []float64) {
	w := make([]float64, d)
	for j := range w {
		w[j] = rnd.NormFloat64()
	}
	ptr := []int{0}
	var ind []int
	var val []float64
	y := make([]float64, n)
	for i := range n {
		s := 0.0
		for j := range d {
			if rnd.IntN(d) >= perRow {
				continue
			}
			v := rnd.NormFloat64() * math.Pow(10, float64(j%3-1))
			ind = append(ind, j)
			val = append(val, v)
			s += w[j] * v
		}
		ptr = append(ptr, len(ind))
		y[i] = 1
		if s < 0 {
			y[i] = -1
		}
	}
	m, err := perceptron.NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return m, denseOf(m), y
}

// binaryLabels returns the labels y, -1 and +1, as the indices of the classes
// -1 and +1.
func binaryLabels(y []float64) ([]int, *classSet) {
	k := make([]int, len(y))
	for i, v := range y {
		k[i] = int(v+1) / 2
	}
	return k, &classSet{names: []string{"-1", "+1"}, values: []float64{-1, 1}}
}

// The scaler of sparse rows gives each column deviation 1 over all the
// rows, zeros counted, and does not centre them: it divides the stored
// values and stores no others. A column of zeros, or of one value in
// every row, keeps its scale.
func TestSparseScaler(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	const n, d = 50, 7
	ptr := []int{0}
	var ind []int
	var val []float64
	for range n {
		for j := range d {
			switch {
			case j == 3: // all zero
			case j == 4: // the same value in every row
				ind, val = append(ind, j), append(val, 0.1)
			case rnd.IntN(3) == 0:
				ind, val = append(ind, j), append(val, rnd.NormFloat64()*float64(j+1))
			}
		}
		ptr = append(ptr, len(ind))
	}
	m, err := perceptron.NewCSR(n, d, ptr, ind, val)
	if err != nil {
		t.Fatal(err)
	}
	sc := fitScaler(m)
	if sc.mean != nil || len(sc.scale) != d {
		t.Fatalf("mean %v, %d scales", sc.mean, len(sc.scale))
	}
	D := denseOf(m)
	for j := range d {
		want := stat.PopStdDev(mat.Col(nil, j, D), nil)
		if j == 3 || j == 4 {
			want = 1
		}
		// Up to the rounding of sums taken in another order.
		if math.Abs(sc.scale[j]-want) > 1e-14*want {
			t.Errorf("column %d: scale %v, want %v", j, sc.scale[j], want)
		}
	}
	ds := &dataset{name: "s", X: m}
	if err := sc.apply(ds); err != nil {
		t.Fatal(err)
	}
	s := ds.X.(*perceptron.CSR)
	if s.NNZ() != m.NNZ() {
		t.Fatalf("%d non-zeros scaled, %d before", s.NNZ(), m.NNZ())
	}
	for i := range n {
		ia, va := csrRow(m, i)
		ib, vb := csrRow(s, i)
		if !slices.Equal(ia, ib) {
			t.Fatalf("row %d: columns %v, then %v", i, ia, ib)
		}
		for k, j := range ia {
			if vb[k] != va[k]/sc.scale[j] {
				t.Fatalf("row %d column %d: %v scaled by %v is %v", i, j, va[k], sc.scale[j], vb[k])
			}
		}
	}
}

// A split of sparse rows holds the rows of the same split of them dense.
func TestSplitSparse(t *testing.T) {
	m, D, yf := sparseData(rand.New(rand.NewPCG(2, 2)), 30, 8, 3)
	y, classes := binaryLabels(yf)
	strain, stest, err := split(&dataset{name: "s", X: m, y: y, classes: classes}, 0.3, 5)
	if err != nil {
		t.Fatal(err)
	}
	dtrain, dtest, err := split(&dataset{name: "d", X: D, y: y, classes: classes}, 0.3, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct{ s, d *dataset }{{strain, dtrain}, {stest, dtest}} {
		sm, ok := p.s.X.(*perceptron.CSR)
		if !ok {
			t.Fatalf("a split of sparse rows is %T", p.s.X)
		}
		if !mat.Equal(denseOf(sm), p.d.X) || !slices.Equal(p.s.y, p.d.y) {
			t.Errorf("sparse part\n%v\ndense part\n%v", mat.Formatted(denseOf(sm)), mat.Formatted(p.d.X))
		}
	}
}

// Sparse rows are left as they are by default; with -standardize a model
// trained on them saves scales and no means, and predict and eval -model
// scale the rows of a LIBSVM file, or of a CSV file of the same rows, as
// train scaled the training rows, without centring them.
func TestSparseModel(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(3, 3))
	const n, d = 60, 40
	_, D, y := sparseData(rnd, n, d, 5)
	svm := writeFile(t, dir, "d.svm", libsvmOf(D, y))
	csv := writeFile(t, dir, "d.csv", csvOf(D, y, d, "+1", "-1", false))
	model := filepath.Join(dir, "m.json")
	for _, standardize := range []bool{false, true} {
		args := []string{"train", "-epochs", "50", "-o", model, svm}
		if standardize {
			args = append(args, "-standardize")
		}
		code, out, errs := runCmd(args...)
		if code != 0 {
			t.Fatalf("train: exit %d: %s", code, errs)
		}
		if strings.Contains(out, "scaled, not centred, as the rows are sparse") != standardize {
			t.Errorf("-standardize=%v: train does not say how it scaled the rows:\n%s", standardize, out)
		}
		b, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		var f struct{ Command commandJSON }
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		if wantScales := map[bool]int{false: 0, true: d}[standardize]; f.Command.Mean != nil || len(f.Command.Scale) != wantScales {
			t.Fatalf("-standardize=%v: the model saves %d means and %d scales, want none and %d", standardize, len(f.Command.Mean), len(f.Command.Scale), wantScales)
		}

		// The same fit in memory.
		ds, err := readData(svm, dataSpec{labels: &labelSpec{}}, 0)
		if err != nil {
			t.Fatal(err)
		}
		Ds := mat.DenseCopyOf(D)
		if standardize {
			sc := fitScaler(ds.X)
			if err := sc.apply(ds); err != nil {
				t.Fatal(err)
			}
			sc.applyDense(Ds)
		}
		m := &perceptron.Perceptron{Epochs: 50}
		if err := m.Fit(ds.X, ds.values()); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			file   string
			scores []float64
		}{
			{svm, m.ScoreRows(nil, ds.X)},
			{csv, m.ScoreRows(nil, Ds)},
		} {
			code, out, errs := runCmd("predict", "-model", model, "-score", c.file)
			if code != 0 {
				t.Fatalf("predict %s: exit %d: %s", c.file, code, errs)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != n {
				t.Fatalf("predict %s wrote %d lines for %d rows", c.file, len(lines), n)
			}
			right := 0
			for i, l := range lines {
				label, score, _ := strings.Cut(l, "\t")
				want := c.scores[i]
				if score != strconv.FormatFloat(want, 'g', -1, 64) || label != map[bool]string{true: "+1", false: "-1"}[want >= 0] {
					t.Fatalf("predict %s: row %d: %q, want score %v", c.file, i, l, want)
				}
				if (want >= 0) == (y[i] > 0) {
					right++
				}
			}
			code, out, errs = runCmd("eval", "-model", model, c.file)
			if code != 0 {
				t.Fatalf("eval -model %s: exit %d: %s", c.file, code, errs)
			}
			if r := parseTable(t, out)[0]; r.test != percent(float64(right)/n) {
				t.Errorf("eval -model %s: test accuracy %s, predict is right on %d of %d rows", c.file, r.test, right, n)
			}
		}
	}
}

// The LIBSVM reader skips a qid after the label, comments and blank
// lines, leaves out explicit zeros of either sign, and gives the rows as
// many columns as the largest index, a zero's too, or as the model has.
func TestReadLIBSVM(t *testing.T) {
	text := "+1 qid:3 1:2 4:-0 # comment\r\n\n-1 2:0.5 3:0.0 5:0e5\n+1 1:-0\n"
	type elem struct {
		j int
		v float64
	}
	want := [][]elem{{{0, 2}}, {{1, 0.5}}, nil}
	for _, d := range []int{0, 5, 6} {
		ds, err := readLIBSVM(strings.NewReader(text), "f.svm", &labelSpec{}, d)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := ds.X.(*perceptron.CSR)
		if !ok {
			t.Fatalf("d %d: rows %T, want a CSR", d, ds.X)
		}
		if n, c := m.Dims(); n != 3 || c != max(d, 5) || !slices.Equal(ds.values(), []float64{1, -1, 1}) {
			t.Errorf("d %d: %d×%d rows, labels %v", d, n, c, ds.values())
		}
		for i, w := range want {
			ind, val := csrRow(m, i)
			var got []elem
			for k, j := range ind {
				got = append(got, elem{j, val[k]})
			}
			if !slices.Equal(got, w) {
				t.Errorf("d %d: row %d is %v, want %v", d, i, got, w)
			}
		}
	}
	_, err := readLIBSVM(strings.NewReader(text), "f.svm", &labelSpec{}, 4)
	if want := `f.svm:3: "5:0e5": index 5, but the model has 4 features`; err == nil || err.Error() != want {
		t.Errorf("rows wider than the model: %v, want %s", err, want)
	}
}

// The summaries of train and eval count the non-zeros of sparse rows, say
// whether they are scaled, not centred, and name the classes.
func TestSparseSummary(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "a.svm", []byte("+1 1:1 4:2\n-1 2:1\n+1 3:-1 4:1\n"))
	test := writeFile(t, dir, "b.svm", []byte("+1 1:1\n-1 2:3\n"))
	wide := writeFile(t, dir, "c.svm", []byte("+1 1:1\n-1 200000:1\n"))
	picked := writeFile(t, dir, "d.svm", []byte("1 1:1\n2 2:1\n3 3:1\n"))
	model := filepath.Join(dir, "m.json")
	const classes = `2 classes: "-1", "+1" (a score >= 0 is "+1")`
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-o", model, "-pos", "3", "-neg", "1", picked},
			picked + `: 2 rows, 3 features, 2 non-zeros (33.33%) (1 row of other labels left out); +1 is "3", -1 is "1"`},
		{[]string{"train", "-o", model, "-standardize", wide},
			wide + `: 2 rows, 200000 features, 2 non-zeros (0.00050%), scaled, not centred, as the rows are sparse; ` + classes},
		{[]string{"train", "-o", model, train},
			train + `: 3 rows, 4 features, 5 non-zeros (41.67%); ` + classes},
		{[]string{"train", "-o", model, "-standardize=true", train},
			train + `: 3 rows, 4 features, 5 non-zeros (41.67%), scaled, not centred, as the rows are sparse; ` + classes},
		{[]string{"eval", "-classifier", "perceptron", "-standardize", train, test},
			train + ": 3 training rows, 5 non-zeros (41.67%); " + test + ": 2 test rows, 2 non-zeros (25.00%); " +
				`4 features, scaled on the training rows, not centred, as the rows are sparse; ` + classes},
		{[]string{"eval", "-classifier", "perceptron", train, test},
			train + ": 3 training rows, 5 non-zeros (41.67%); " + test + ": 2 test rows, 2 non-zeros (25.00%); 4 features; " + classes},
		{[]string{"eval", "-model", model, test},
			model + ": a perceptron model of 4 features, scaled, not centred, as the rows are sparse; " + test + `: 2 test rows, 2 non-zeros (25.00%); ` + classes},
	} {
		code, out, errs := runCmd(c.args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", c.args, code, errs)
		}
		if first, _, _ := strings.Cut(out, "\n"); first != c.want {
			t.Errorf("%q: summary\n%s\nwant\n%s", c.args, first, c.want)
		}
	}
}

// Rows of two million features, a few of them non-zero, train and predict
// in memory in proportion to their non-zeros and the features: a few
// vectors of the features, such as the weights and the scales, and none
// of the rows, which would take 32 GB dense.
func TestWideSparse(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(7, 7))
	const n, d = 2000, 2_000_000
	var b strings.Builder
	y := make([]string, n)
	for i := range n {
		// Feature 1 is the label, so that training converges at once.
		y[i] = map[bool]string{true: "+1", false: "-1"}[rnd.IntN(2) == 0]
		b.WriteString(y[i] + " 1:" + y[i])
		prev := 1
		for range 4 {
			prev += 1 + rnd.IntN((d-prev)/8)
			b.WriteString(" " + strconv.Itoa(prev) + ":" + strconv.FormatFloat(rnd.NormFloat64(), 'g', -1, 64))
		}
		if i == 0 {
			b.WriteString(" " + strconv.Itoa(d) + ":1")
		}
		b.WriteByte('\n')
	}
	data := writeFile(t, dir, "wide.svm", []byte(b.String()))
	model := filepath.Join(dir, "m.json")
	for _, args := range [][]string{{"train", "-o", model, data}, {"predict", "-model", model, data}} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code, out, errs := runCmd(args...)
		runtime.ReadMemStats(&after)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, errs)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32*8*d {
			t.Errorf("%s allocated %d MiB, more than 32 numbers a feature", args[0], alloc>>20)
		}
		if args[0] == "train" && !strings.HasPrefix(out, data+": 2000 rows, 2000000 features, 10001 non-zeros") {
			t.Errorf("train printed\n%s", out)
		}
		if args[0] == "predict" && out != strings.Join(y, "\n")+"\n" {
			t.Errorf("predict labels the rows\n%.100s…\nnot as their labels\n%.100s…", out, strings.Join(y, "\n"))
		}
	}
}

// A sparse file whose values are all zero stores no element: every
// classifier trains on it and predicts its rows, and as the rows are the
// same they get one class, which is right on one of the two.
func TestSparseAllZeros(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "zeros.svm", []byte("+1 1:0\n-1 2:0\n"))
	for _, c := range classifiers {
		model := filepath.Join(dir, c.name+".json")
		code, out, errs := runCmd("train", "-classifier", c.name, "-epochs", "3", "-o", model, data)
		if code != 0 {
			t.Errorf("train %s: exit %d: %s", c.name, code, errs)
			continue
		}
		if !strings.HasPrefix(out, data+": 2 rows, 2 features, 0 non-zeros (0.00%)") || parseTable(t, out)[0].train != "50.00%" {
			t.Errorf("train %s printed\n%s", c.name, out)
		}
		code, out, errs = runCmd("predict", "-model", model, data)
		if lines := strings.Split(out, "\n"); code != 0 || len(lines) != 3 || lines[0] != lines[1] || lines[2] != "" {
			t.Errorf("predict %s: exit %d, %q%s", c.name, code, out, errs)
		}
	}
}

// With -pos and -neg, a LIBSVM file of more classes gives the rows of the
// two, and its width counts the others.
func TestLIBSVMClasses(t *testing.T) {
	text := "0 1:1\n1 5:1\n2 1:-1 3:1\n1 2:2\n0 1:2 3:4\n"
	ds, err := readLIBSVM(strings.NewReader(text), "f.svm", &labelSpec{pos: "2", neg: "0"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := ds.X.(*perceptron.CSR)
	want := mat.NewDense(3, 5, []float64{
		1, 0, 0, 0, 0,
		-1, 0, 1, 0, 0,
		2, 0, 4, 0, 0,
	})
	if !mat.Equal(denseOf(m), want) || !slices.Equal(ds.values(), []float64{-1, 1, -1}) || ds.left != 2 {
		t.Errorf("rows\n%v\nlabels %v, %d left out", mat.Formatted(denseOf(m)), ds.values(), ds.left)
	}
}

// A gzipped data file reads as the file itself, whatever its name.
func TestGzippedData(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(4, 4))
	_, D, y := sparseData(rnd, 30, 6, 3)
	for _, c := range []struct{ plain, zipped string }{
		{writeFile(t, dir, "d.svm", libsvmOf(D, y)), writeFile(t, dir, "d.svm.gz", gzipped(libsvmOf(D, y)))},
		{writeFile(t, dir, "d.csv", csvOf(D, y, 6, "1", "-1", false)), writeFile(t, dir, "d.csv.gz", gzipped(csvOf(D, y, 6, "1", "-1", false)))},
		{writeFile(t, dir, "e.svm", libsvmOf(D, y)), writeFile(t, dir, "e-zipped.svm", gzipped(libsvmOf(D, y)))},
	} {
		var models [2][]byte
		for k, data := range []string{c.plain, c.zipped} {
			model := filepath.Join(dir, "m.json")
			if code, _, errs := runCmd("train", "-o", model, data); code != 0 {
				t.Fatalf("train %s: exit %d: %s", data, code, errs)
			}
			b, err := os.ReadFile(model)
			if err != nil {
				t.Fatal(err)
			}
			models[k] = b
		}
		if !bytes.Equal(models[0], models[1]) {
			t.Errorf("%s trains\n%s\nbut %s\n%s", c.zipped, models[1], c.plain, models[0])
		}
	}
}
