// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/seed5ae3614e/perceptron"
)

// runCmd runs the command with args and returns its exit code and output.
func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// tableRow is a row of the table that demo, train and eval print.
type tableRow struct {
	name                string
	train, test         string
	mistakes, epochs    int
	converged           string
	fitTime             string
	trainAcc, testAcc   float64
	hasTrain, hasTest   bool
	mistakesOK, epochOK bool
}

// parseTable returns the rows of the table in out, after its header.
func parseTable(t *testing.T, out string) []tableRow {
	t.Helper()
	lines := strings.Split(out, "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "classifier ") })
	if start < 0 {
		t.Fatalf("no table in\n%s", out)
	}
	head := strings.Fields(lines[start])
	if want := []string{"classifier", "train", "acc", "test", "acc", "mistakes", "epochs", "converged", "fit", "time"}; !slices.Equal(head, want) {
		t.Fatalf("table header %q, want %q", head, want)
	}
	var rows []tableRow
	for _, l := range lines[start+1:] {
		f := strings.Fields(l)
		if len(f) != 7 {
			break
		}
		if utf8.RuneCountInString(l) != utf8.RuneCountInString(lines[start]) {
			t.Errorf("table row %q is not as wide as the header %q", l, lines[start])
		}
		r := tableRow{name: f[0], train: f[1], test: f[2], converged: f[5], fitTime: f[6]}
		r.trainAcc, r.hasTrain = parsePercent(f[1])
		r.testAcc, r.hasTest = parsePercent(f[2])
		var err1, err2 error
		r.mistakes, err1 = strconv.Atoi(f[3])
		r.epochs, err2 = strconv.Atoi(f[4])
		r.mistakesOK, r.epochOK = err1 == nil, err2 == nil
		rows = append(rows, r)
	}
	return rows
}

func parsePercent(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	return v / 100, err == nil && strings.HasSuffix(s, "%")
}

// The demo trains every classifier, tests each on the held-out rows, and
// stays quiet on stderr, which is not a terminal here.
func TestDemo(t *testing.T) {
	code, out, errs := runCmd()
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "569 rows of 30 features") || !strings.Contains(out, "427 training rows, 142 test rows") {
		t.Errorf("demo does not describe its data:\n%s", out)
	}
	rows := parseTable(t, out)
	var names []string
	for _, r := range rows {
		names = append(names, r.name)
	}
	if want := []string{"perceptron", "pocket", "averaged", "voted", "kernel"}; !slices.Equal(names, want) {
		t.Fatalf("the demo lists %q, want %q:\n%s", names, want, out)
	}
	if len(rows) != len(classifiers) {
		t.Fatalf("table has %d rows, want one per classifier (%d):\n%s", len(rows), len(classifiers), out)
	}
	for i, r := range rows {
		if r.name != classifiers[i].name || !r.hasTrain || !r.hasTest {
			t.Errorf("row %+v", r)
		}
		// Both classes are common: a classifier that learned nothing
		// would be right on at most 63% of the rows.
		if r.testAcc < 0.9 {
			t.Errorf("%s: test accuracy %v", r.name, r.testAcc)
		}
	}
}

// The demo's perceptron row must be what the library gives on the split
// rows standardised, by an independent computation, with the means and
// deviations of the training rows alone.
func TestDemoMatchesLibrary(t *testing.T) {
	code, out, _ := runCmd("demo", "-seed", "7", "-split", "0.3")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	got := parseTable(t, out)[0]

	ds, err := readCSV(bytes.NewReader(breastCancer), "b.csv", dataSpec{header: true, labels: &labelSpec{pos: "0", neg: "1"}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	train, test, err := split(ds, 0.3, 7)
	if err != nil {
		t.Fatal(err)
	}
	n, d := train.X.Dims()
	if want := int(math.Round(0.7 * 569)); n != want {
		t.Fatalf("%d training rows, want %d", n, want)
	}
	for j := range d {
		mean, sd := stat.PopMeanStdDev(mat.Col(nil, j, train.X), nil)
		for _, X := range []*mat.Dense{train.X.(*mat.Dense), test.X.(*mat.Dense)} {
			r, _ := X.Dims()
			for i := range r {
				X.Set(i, j, (X.At(i, j)-mean)/sd)
			}
		}
	}
	var p perceptron.Perceptron
	if err := p.Fit(train.X, train.values()); err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if got.epochs != st.Epochs || got.mistakes != st.Mistakes {
		t.Errorf("demo: %d epochs, %d mistakes; library: %d, %d", got.epochs, got.mistakes, st.Epochs, st.Mistakes)
	}
	if want := percent(predictAccuracy(&p, train)); got.train != want {
		t.Errorf("demo: train accuracy %s, library %s", got.train, want)
	}
	if want := percent(predictAccuracy(&p, test)); got.test != want {
		t.Errorf("demo: test accuracy %s, library %s", got.test, want)
	}
}

// predictAccuracy returns the fraction of the rows of ds that m.Predict
// labels right.
func predictAccuracy(m perceptron.Classifier, ds *dataset) float64 {
	n, _ := ds.X.Dims()
	right := 0
	for i, v := range ds.values() {
		if m.Predict(ds.X.(*mat.Dense).RawRowView(i)) == v {
			right++
		}
	}
	return float64(right) / float64(n)
}

// writeFile writes content to name in dir and returns its path.
func writeFile(t *testing.T, dir, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// randomData returns n rows of d features on varied scales, labelled by a
// random hyperplane with some labels flipped.
func randomData(rnd *rand.Rand, n, d int) (*mat.Dense, []float64) {
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	w := make([]float64, d)
	for j := range w {
		w[j] = rnd.NormFloat64()
	}
	for i := range n {
		s := 0.0
		for j := range d {
			v := rnd.NormFloat64()
			X.Set(i, j, 3+v*math.Pow(10, float64(j%5-2)))
			s += w[j] * v
		}
		y[i] = 1
		if s < 0 {
			y[i] = -1
		}
		if rnd.IntN(10) == 0 {
			y[i] = -y[i]
		}
	}
	return X, y
}

// csvOf writes X and y as CSV, with the label in column lc (from 0) named
// pos or neg, or no label if lc is negative, and a header if header is
// set.
func csvOf(X *mat.Dense, y []float64, lc int, pos, neg string, header bool) []byte {
	var labels []string
	for _, v := range y {
		labels = append(labels, map[bool]string{true: pos, false: neg}[v > 0])
	}
	return csvNamed(X, labels, lc, header)
}

// csvNamed writes X as CSV, with labels in column lc (from 0), or no
// label if lc is negative, and a header if header is set.
func csvNamed(X *mat.Dense, labels []string, lc int, header bool) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	n, d := X.Dims()
	if header {
		names := []string{}
		for j := range d {
			names = append(names, fmt.Sprintf("f%d", j+1))
		}
		if lc >= 0 {
			names = slices.Insert(names, lc, "class")
		}
		w.Write(names)
	}
	for i := range n {
		var f []string
		for _, v := range X.RawRowView(i) {
			f = append(f, strconv.FormatFloat(v, 'g', -1, 64))
		}
		if lc >= 0 {
			f = slices.Insert(f, lc, labels[i])
		}
		w.Write(f)
	}
	w.Flush()
	return b.Bytes()
}

// libsvmOf writes X, dense or sparse, and y in the LIBSVM format, leaving
// out zeros.
func libsvmOf(X mat.Matrix, y []float64) []byte {
	var b bytes.Buffer
	n, _ := X.Dims()
	for i := range n {
		if y[i] > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.FormatFloat(y[i], 'g', -1, 64))
		var ind []int
		var val []float64
		if m, ok := X.(*perceptron.CSR); ok {
			ind, val = csrRow(m, i)
		} else {
			val = X.(*mat.Dense).RawRowView(i)
		}
		for k, v := range val {
			j := k
			if ind != nil {
				j = ind[k]
			}
			if v != 0 {
				fmt.Fprintf(&b, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// A model that train saves and predict loads scores every row to the same
// bits as the model fitted in memory on the same standardised rows, for
// every classifier.
func TestTrainPredictRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(6, 6))
	for trial := range 10 * len(classifiers) {
		name := classifiers[trial%len(classifiers)].name
		dir := t.TempDir()
		n, d := 20+rnd.IntN(80), 1+rnd.IntN(8)
		X, y := randomData(rnd, n, d)
		lc := rnd.IntN(d + 1)
		data := writeFile(t, dir, "data.csv", csvOf(X, y, lc, "yes", "no", true))
		model := filepath.Join(dir, "model.json")
		// A hundred epochs: the labels are noisy, and every run would
		// take the default thousand.
		args := []string{"train", "-classifier", name, "-header", "-label", strconv.Itoa(lc + 1), "-pos", "yes", "-neg", "no", "-o", model, "-epochs", "100", data}
		o := &options{epochs: 100}
		if trial/len(classifiers)%2 == 1 {
			args = append(args, "-shuffle", "-seed", "3", "-epochs", "17", "-rate", "0.5")
			o = &options{shuffle: true, seed: 3, epochs: 17, rate: 0.5}
		}
		// Only the kernel perceptron takes the kernel flags.
		switch k := trial / len(classifiers) % 4; {
		case name != "kernel":
		case k == 1:
			args = append(args, "-kernel", "rbf", "-gamma", "0.5", "-budget", "10", "-prediction", "averaged")
			o.kernel, o.gamma, o.budget, o.prediction = "rbf", 0.5, 10, perceptron.PredictAveraged
		case k == 2:
			args = append(args, "-kernel", "poly", "-coef0", "1", "-prediction", "voted")
			o.kernel, o.coef0, o.prediction = "poly", 1, perceptron.PredictVoted
		}
		code, out, errs := runCmd(args...)
		if code != 0 {
			t.Fatalf("train %v: exit %d: %s", args, code, errs)
		}
		if !strings.Contains(out, "saved the model to "+model) {
			t.Errorf("train printed %q", out)
		}

		// The same fit in memory.
		sc := fitScaler(X)
		Xs := mat.DenseCopyOf(X)
		sc.applyDense(Xs)
		m, _ := newModel(name, o)
		if err := m.Fit(Xs, y); err != nil {
			t.Fatal(err)
		}
		row := parseTable(t, out)[0]
		if st := m.Stats(); row.epochs != st.Epochs || row.mistakes != st.Mistakes || row.test != "-" {
			t.Errorf("%s: train table %+v, library Stats %+v", name, row, st)
		}

		code, out, errs = runCmd("predict", "-model", model, "-header", "-label", strconv.Itoa(lc+1), "-score", data)
		if code != 0 {
			t.Fatalf("predict: exit %d: %s", code, errs)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != n {
			t.Fatalf("predict wrote %d lines for %d rows", len(lines), n)
		}
		scores := m.ScoreRows(nil, Xs)
		for i, l := range lines {
			label, score, _ := strings.Cut(l, "\t")
			if want := scores[i]; score != strconv.FormatFloat(want, 'g', -1, 64) {
				t.Fatalf("%s: row %d: score %s, want %v", name, i, score, want)
			}
			if wl := map[bool]string{true: "yes", false: "no"}[scores[i] >= 0]; label != wl {
				t.Fatalf("%s: row %d: label %s, want %s", name, i, label, wl)
			}
		}
	}
}

// The same rows in CSV, LIBSVM and IDX train the same model, dense or
// sparse, as they are: standardisation scales sparse rows without
// centring them.
func TestFormatsAgree(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(1, 2))
	const n, side = 40, 3
	d := side * side
	classes := make([]byte, n)
	pixels := make([]byte, n*d)
	for i := range classes {
		classes[i] = byte(rnd.IntN(4))
		for j := range d {
			// Pixels whose class shows in their brightness, and many
			// zeros for the sparse format to leave out.
			if rnd.IntN(3) > 0 {
				pixels[i*d+j] = byte(min(255, rnd.IntN(100)+40*int(classes[i])))
			}
		}
	}
	// Classes 1 (+1) and 3 (-1), as the IDX reader selects them.
	var data, y []float64
	for i, c := range classes {
		if c != 1 && c != 3 {
			continue
		}
		for _, px := range pixels[i*d : (i+1)*d] {
			data = append(data, float64(px)/255)
		}
		y = append(y, map[byte]float64{1: 1, 3: -1}[c])
	}
	X := mat.NewDense(len(y), d, data)

	im := idxFile(0x08, []int{n, side, side}, pixels)
	lb := idxFile(0x08, []int{n}, classes)
	writeFile(t, dir, "train-images-idx3-ubyte", im)
	writeFile(t, dir, "train-labels-idx1-ubyte.gz", gzipped(lb))
	writeFile(t, dir, "train-labels-idx1-ubyte", lb)
	sources := [][]string{
		{"-pos", "+1", "-neg", "-1", writeFile(t, dir, "d.csv", csvOf(X, y, d, "1", "-1", false))},
		{writeFile(t, dir, "d.svm", libsvmOf(X, y))},
		{"-pos", "1", "-neg", "3", filepath.Join(dir, "train-images-idx3-ubyte")},
		{"-pos", "1", "-neg", "3", writeFile(t, dir, "images.gz", gzipped(im)) + "," + filepath.Join(dir, "train-labels-idx1-ubyte.gz")},
	}
	var models [][]byte
	for _, src := range sources {
		model := filepath.Join(dir, "m.json")
		code, _, errs := runCmd(append([]string{"train", "-standardize=false", "-o", model}, src...)...)
		if code != 0 {
			t.Fatalf("train %v: exit %d: %s", src, code, errs)
		}
		b, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, libraryPart(t, b))
	}
	for k := 1; k < len(models); k++ {
		if !bytes.Equal(models[k], models[0]) {
			t.Errorf("%v trains\n%s\nbut %v trains\n%s", sources[k], models[k], sources[0], models[0])
		}
	}
}

// libraryPart returns the model file b without the command's member: the
// library's JSON form of the classifier.
func libraryPart(t *testing.T, b []byte) []byte {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatal(err)
	}
	if obj["command"] == nil {
		t.Fatalf("no member command in %s", b)
	}
	delete(obj, "command")
	lib, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

// Train gives every classifier the settings of the flags, and saves them.
func TestTrainSavesSettings(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", []byte("1,2,1\n-1,-2,-1\n2,1,1\n-2,0,-1\n"))
	model := filepath.Join(dir, "m.json")
	for _, c := range classifiers {
		args := []string{"train", "-classifier", c.name, "-o", model, "-epochs", "7", "-rate", "0.5", "-no-bias", "-shuffle", "-seed", "4"}
		switch c.name {
		case "pocket":
			args = append(args, "-ratchet")
		case "kernel":
			args = append(args, "-kernel", "poly", "-degree", "2", "-gamma", "0.25", "-coef0", "1.5", "-budget", "3", "-prediction", "voted")
		}
		if c.name != "kernel" {
			args = append(args, "-init-weights", "1,-2")
		}
		code, _, errs := runCmd(append(args, data)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, errs)
		}
		b, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Settings map[string]any `json:"settings"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		labels := []any{-1.0, 1.0}
		want := map[string]any{"epochs": 7.0, "rate": 0.5, "noBias": true, "initWeights": []any{1.0, -2.0}, "labels": labels}
		switch c.name {
		case "pocket":
			want["ratchet"] = true
		case "kernel":
			want = map[string]any{"epochs": 7.0, "rate": 0.5, "noBias": true, "budget": 3.0, "prediction": "voted",
				"func": map[string]any{"name": "poly", "degree": 2.0, "gamma": 0.25, "coef0": 1.5}, "labels": labels}
		}
		if got := f.Settings; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: saved settings %v, want %v", c.name, got, want)
		}
	}
}

// A flag that only some classifiers take is accepted with every
// classifier and with one that takes it; TestTrainSavesSettings shows
// that they reach them.
func TestFlagsOfSomeClassifiers(t *testing.T) {
	// The demo's rows have 30 features.
	w0 := strings.TrimSuffix(strings.Repeat("0.5,", 30), ",")
	code, out, errs := runCmd("demo", "-epochs", "5", "-ratchet", "-init-weights", w0, "-kernel", "poly", "-degree", "2", "-budget", "7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if rows := parseTable(t, out); len(rows) != len(classifiers) {
		t.Errorf("%d rows in the table, want %d", len(rows), len(classifiers))
	}
	data := writeFile(t, t.TempDir(), "d.csv", []byte("1,2,1\n-1,-2,-1\n2,1,1\n-2,0,-1\n"))
	for _, args := range [][]string{
		{"-classifier", "pocket", "-ratchet", "-init-weights", "1,1"},
		{"-classifier", "kernel", "-kernel", "rbf", "-gamma", "0.5", "-prediction", "voted"},
	} {
		if code, _, errs := runCmd(append(append([]string{"eval"}, args...), data, data)...); code != 0 {
			t.Errorf("eval %q: exit %d: %s", args, code, errs)
		}
	}

	// The table of the flags that only some classifiers take names
	// settings flags and classifiers that exist.
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	new(options).addFlags(fs)
	for name, takers := range only {
		if fs.Lookup(name) == nil {
			t.Errorf("only names the flag -%s, which is not a settings flag", name)
		}
		for _, c := range takers {
			if _, ok := newModel(c, &options{}); !ok {
				t.Errorf("only gives -%s to %q, which is not a classifier", name, c)
			}
		}
	}
}

// Flags may come after the file.
func TestFlagsAfterFile(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", []byte("1,2,1\n-1,-2,-1\n"))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", data, "-o", model, "-no-bias"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	s, err := loadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	if !s.m.(*perceptron.Perceptron).NoBias {
		t.Error("-no-bias after the file was not read")
	}
	// After --, every argument is a file.
	code, _, errs := runCmd("train", "-o", model, "--", data, "-no-bias")
	if code != 2 || !strings.Contains(errs, "want one data file, got 2") {
		t.Errorf("after --: exit %d, %s", code, errs)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"help"}, {"train", "-h"}, {"predict", "-h"}, {"eval", "-h"}, {"demo", "-h"}} {
		code, out, errs := runCmd(args...)
		if code != 0 || errs != "" || !strings.Contains(out, "Usage:") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

// Eval splits one file, or tests on a second; the test rows do not change
// the standardisation, and so not the training.
func TestEvalStandardisesOnTrainingRowsOnly(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(3, 3))
	X, y := randomData(rnd, 120, 4)
	train := writeFile(t, dir, "train.csv", csvOf(X.Slice(0, 80, 0, 4).(*mat.Dense), y[:80], 4, "1", "-1", false))
	Xt := mat.DenseCopyOf(X.Slice(80, 120, 0, 4))
	test1 := writeFile(t, dir, "test1.csv", csvOf(Xt, y[80:], 4, "1", "-1", false))
	Xt.Scale(1000, Xt)
	test2 := writeFile(t, dir, "test2.csv", csvOf(Xt, y[80:], 4, "1", "-1", false))
	var rows [2]tableRow
	for k, test := range []string{test1, test2} {
		code, out, errs := runCmd("eval", "-classifier", "perceptron", train, test)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		rows[k] = parseTable(t, out)[0]
	}
	if rows[0].train != rows[1].train || rows[0].mistakes != rows[1].mistakes || rows[0].epochs != rows[1].epochs {
		t.Errorf("training depends on the test rows: %+v and %+v", rows[0], rows[1])
	}
}

// Progress goes to stderr only when asked, as stderr is not a terminal in
// tests; a line reports the run, and the last the scoring of the training
// rows.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", []byte("1,2,1\n-1,-2,-1\n2,1,1\n"))
	model := filepath.Join(dir, "m.json")
	code, _, errs := runCmd("train", "-o", model, data)
	if code != 0 || errs != "" {
		t.Fatalf("without -progress: exit %d, stderr %q", code, errs)
	}
	code, out, errs := runCmd("train", "-progress", "-o", model, data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r := parseTable(t, out)[0]
	done := fmt.Sprintf("perceptron: done: %s, %s, converged, ", plural(r.epochs, "epoch"), plural(r.mistakes, "mistake"))
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], done) || !strings.HasPrefix(lines[1], "perceptron: scored the training rows: 3 rows, ") {
		t.Errorf("progress %q, want a line starting %q and one of the scoring", errs, done)
	}
	f, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) || isTerminal(&bytes.Buffer{}) {
		t.Error("a file or a buffer is taken for a terminal")
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("%s is taken for a terminal", os.DevNull)
	}
}

// Every progress report of training names the epoch of the most, and,
// once a row is done, the rows a second and the most time left; the
// scoring after a kernel's fit reports too.
func TestProgressReports(t *testing.T) {
	old, oldTTY := progressEveryLine, progressEveryTTY
	progressEveryLine, progressEveryTTY = 0, 0
	defer func() { progressEveryLine, progressEveryTTY = old, oldTTY }()
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(4, 4))
	X, y := randomData(rnd, 50, 2)
	data := writeFile(t, dir, "d.csv", csvOf(X, y, 2, "1", "-1", false))
	epoch := regexp.MustCompile(`^kernel: epoch ([0-9]+) of 7, [0-9]+ mistakes?(, [0-9]+ rows/s, at most [0-9hms]+ left)?, [0-9.µmhs]+ elapsed$`)
	scoringLine := regexp.MustCompile(`^kernel: scoring the (training|test) rows: ([0-9]+) of ([0-9]+) rows, [0-9]+ rows/s, [0-9hms]+ left, [0-9.µmhs]+ elapsed$`)
	scoredLine := regexp.MustCompile(`^kernel: scored the (training|test) rows: [0-9]+ rows, [0-9.µmhs]+ elapsed$`)
	code, _, errs := runCmd("eval", "-classifier", "kernel", "-epochs", "7", "-progress", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var epochs, scoring, scored []string
	for _, l := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
		switch {
		case epoch.MatchString(l):
			epochs = append(epochs, l)
			if !strings.Contains(l, "rows/s") {
				t.Errorf("no pace in %q, of rows visited in order", l)
			}
		case scoringLine.MatchString(l):
			scoring = append(scoring, l)
		case scoredLine.MatchString(l):
			scored = append(scored, scoredLine.FindStringSubmatch(l)[1])
		case strings.HasPrefix(l, "kernel: done: "):
		default:
			t.Errorf("progress line %q", l)
		}
	}
	if len(epochs) == 0 || len(scoring) != 2 || !slices.Equal(scored, []string{"training", "test"}) {
		t.Errorf("progress:\n%s", errs)
	}
}

// Plots come in the formats the help names; the axes are named by the
// header or by feature numbers, the legend names the classes without
// repeating a label, the SVG fonts fall back to those that every browser
// has, and the command says where the plot went.
func TestPlot(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(5, 5))
	X2, y2 := randomData(rnd, 50, 2)
	X5, y5 := randomData(rnd, 50, 5)
	two := writeFile(t, dir, "two.csv", csvOf(X2, y2, 2, "1", "-1", false))
	named := writeFile(t, dir, "named.csv", csvOf(X2, y2, 2, "yes", "no", true))
	five := writeFile(t, dir, "five.csv", csvOf(X5, y5, 5, "1", "-1", false))
	// Sparse rows of two features are drawn; of more, the mistakes alone.
	twoSparse := writeFile(t, dir, "two.svm", libsvmOf(X2, y2))
	fiveSparse := writeFile(t, dir, "five.svm", libsvmOf(X5, y5))
	for _, c := range []struct {
		args      []string
		ext       string
		has, lack []string
	}{
		// A few epochs: the voted perceptron's boundary costs a vote of
		// every voter at each point of the grid.
		{[]string{"eval", "-epochs", "20", two}, ".svg", []string{">feature 1<", ">feature 2<", ">1<", ">-1<", ">voted<"}, []string{"(+1)"}},
		{[]string{"eval", "-epochs", "20", "-header", "-pos", "yes", "-neg", "no", named}, ".svg", []string{">f1<", ">f2<", ">yes (+1)<", ">no (-1)<"}, []string{">feature 1<"}},
		{[]string{"eval", "-epochs", "20", five}, ".svg", []string{">epoch<", ">mistakes<"}, []string{"feature"}},
		{[]string{"eval", "-epochs", "20", twoSparse}, ".svg", []string{">feature 1<", ">feature 2<", ">+1<", ">-1<", ">kernel<"}, nil},
		{[]string{"eval", "-epochs", "20", fiveSparse}, ".svg", []string{">epoch<", ">mistakes<"}, []string{"feature"}},
		{[]string{"train", "-o", filepath.Join(dir, "m.json"), two}, ".png", nil, nil},
		{[]string{"train", "-o", filepath.Join(dir, "m.json"), two}, ".pdf", nil, nil},
		{[]string{"demo"}, ".png", nil, nil},
	} {
		img := filepath.Join(dir, "plot"+c.ext)
		os.Remove(img)
		code, out, errs := runCmd(append(c.args, "-plot", img)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		if !strings.HasSuffix(out, "\nwrote the plot to "+img+"\n") {
			t.Errorf("%v: stdout ends %q", c.args, out[max(0, len(out)-80):])
		}
		b, err := os.ReadFile(img)
		magic := map[string]string{".svg": "<svg", ".png": "\x89PNG", ".pdf": "%PDF"}[c.ext]
		if err != nil || !bytes.Contains(b[:min(len(b), 300)], []byte(magic)) {
			t.Errorf("%v: plot file %.40q, %v", c.args, b, err)
		}
		for _, s := range c.has {
			if !bytes.Contains(b, []byte(s)) {
				t.Errorf("%v: the plot has no %q", c.args, s)
			}
		}
		for _, s := range c.lack {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%v: the plot has %q", c.args, s)
			}
		}
		if c.ext != ".svg" {
			continue
		}
		fonts := regexp.MustCompile(`font-family:([^;"]*)`).FindAllSubmatch(b, -1)
		if len(fonts) == 0 {
			t.Errorf("%v: no font in the SVG", c.args)
		}
		for _, f := range fonts {
			if family := string(f[1]); !strings.HasSuffix(family, ",sans-serif") {
				t.Errorf("%v: font-family %q ends in no generic family", c.args, family)
				break
			}
		}
	}
}

// A model file that is not valid, or that the command does not know, is
// refused with a clear error.
func TestPredictRefusesForeignModels(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", []byte("1,2,1\n-1,-2,0\n"))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-o", model, data); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	good, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ old, new, want string }{
		{`"version":3`, `"version":4`, "member command of version 4, want 3"},
		{`"label":"last"`, `"label":""`, "no label column, want the -label of training"},
		{`"type":"Perceptron"`, `"type":"Forest"`, `the model is of type "Forest", which the command does not know: want Perceptron, Pocket, Averaged, Voted or Kernel`},
		{`"type":"Perceptron"`, `"type":"perceptron"`, `the model is of type "perceptron", which the command does not know`},
		{`"type":"Perceptron"`, `"format":"x","type":"Perceptron"`, "not a model file of this command, nor a model of the library"},
		{`"type":"Perceptron","version":1`, `"type":"Perceptron","version":9`, "saved Perceptron of format version 9, want 1"},
		{`"type":"Perceptron",`, ``, "not a model file of this command, nor a model of the library: no type"},
		{`"features":2`, `"features":3`, "3 features, but the model has 2"},
		{`"scale":[1,2]`, `"scale":null`, "standardisation of 2 means and 0 scales, want 2 scales, and as many means or none"},
		{`"scale":[1,2]`, `"scale":[1,0]`, "scale 2 is 0, want a finite number > 0"},
		{`"classes":["0","1"]`, `"classes":["1","1"]`, `class label "1", want a label that is not empty`},
		{`"classes":["0","1"]`, `"classes":["0"," 1"]`, `class label " 1", want a label that is not empty, without spaces around it`},
		{`"classes":["0","1"]`, `"classes":["0"]`, "1 class labels, but the model has 2 classes"},
		{`"picked":false`, `"picked":true`, "classes picked by -pos and -neg, but the model's classes are [0 1], not -1 and +1"},
		{`"picked":false`, `"picked":false,"extra":1`, `member command: json: unknown field "extra"`},
		// The library refuses a member that it does not define: a misspelt
		// command would otherwise lose the standardisation without a word.
		{`"command":{`, `"commands":{`, `not a saved Perceptron: json: unknown field "commands"`},
		{`{"type"`, `["type"`, "not a model: "},
	} {
		if !bytes.Contains(good, []byte(c.old)) {
			t.Fatalf("model file %s has no %s", good, c.old)
		}
		bad := writeFile(t, dir, "bad.json", bytes.Replace(good, []byte(c.old), []byte(c.new), 1))
		code, out, errs := runCmd("predict", "-model", bad, data)
		want := "perceptron: " + bad + ": "
		if code != 1 || out != "" || !strings.HasPrefix(errs, want) || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and one line starting %q containing %q", c.new, code, out, errs, want, c.want)
		}
	}
}

// The model does not take rows of another width, whatever the file says.
func TestPredictChecksFeatures(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", []byte("1,2,1\n-1,-2,-1\n"))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-o", model, "-standardize=false", data); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	good, _ := os.ReadFile(model)
	bad := writeFile(t, dir, "bad.json", bytes.Replace(good, []byte(`"features":2`), []byte(`"features":3`), 1))
	code, _, errs := runCmd("predict", "-model", bad, data)
	if code != 1 || !strings.Contains(errs, "3 features, but the model has 2") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCmd("predict", "-model", model, "-label", "none", data)
	if code != 1 || !strings.Contains(errs, "d.csv:1: 3 features, want 2 as the model has (if a column is the label, name it with -label)") {
		t.Errorf("predict -label none on rows with a label column: exit %d, stderr %q", code, errs)
	}
	unlabelled := writeFile(t, dir, "u.csv", []byte("1,2\n-1,-2\n"))
	code, _, errs = runCmd("predict", "-model", model, unlabelled)
	if code != 1 || !strings.Contains(errs, "u.csv:1: 1 feature, want 2 as the model has (if the file has no label column, use -label none)") {
		t.Errorf("predict on rows without a label column: exit %d, stderr %q", code, errs)
	}
}

// Predict without -label skips the column that train read the labels
// from, and -label overrides it.
func TestPredictUsesTrainLabel(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(8, 8))
	X, y := randomData(rnd, 30, 3)
	headed := writeFile(t, dir, "h.csv", csvOf(X, y, 1, "yes", "no", true))
	plain := writeFile(t, dir, "p.csv", csvOf(X, y, 1, "yes", "no", false))
	bare := writeFile(t, dir, "b.csv", csvOf(X, y, -1, "", "", false))
	model := filepath.Join(dir, "m.json")
	predictions := func(args ...string) string {
		t.Helper()
		code, out, errs := runCmd(append([]string{"predict", "-model", model, "-score"}, args...)...)
		if code != 0 {
			t.Fatalf("predict %q: exit %d: %s", args, code, errs)
		}
		return out
	}
	for _, label := range []string{"2", "class"} {
		data := headed
		if label == "2" {
			data = plain
		}
		if code, _, errs := runCmd("train", "-header="+strconv.FormatBool(data == headed), "-label", label, "-pos", "yes", "-neg", "no", "-o", model, data); code != 0 {
			t.Fatalf("train -label %s: exit %d: %s", label, code, errs)
		}
		want := predictions("-label", "none", bare)
		if got := predictions("-header="+strconv.FormatBool(data == headed), data); got != want {
			t.Errorf("trained with -label %s, predict without -label wrote\n%s\nwant\n%s", label, got, want)
		}
	}
	code, _, errs := runCmd("predict", "-model", model, headed)
	if code != 2 || !strings.Contains(errs, `h.csv:1: the model's -label "class": no header names the columns (use -header)`) {
		t.Errorf("a column named by the model, without -header: exit %d, stderr %q", code, errs)
	}

}

// A model file whose name ends in .gz is gzipped, and predict reads it as
// the plain file.
func TestGzipModel(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", twoFeatures)
	plain, zipped := filepath.Join(dir, "m.json"), filepath.Join(dir, "m.json.gz")
	for _, m := range []string{plain, zipped} {
		if code, _, errs := runCmd("train", "-classifier", "kernel", "-o", m, data); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
	}
	zb, _ := os.ReadFile(zipped)
	pb, _ := os.ReadFile(plain)
	if !bytes.HasPrefix(zb, []byte{0x1f, 0x8b}) || bytes.HasPrefix(pb, []byte{0x1f, 0x8b}) {
		t.Fatalf("m.json.gz starts %q, m.json %q", zb[:min(4, len(zb))], pb[:min(4, len(pb))])
	}
	if !bytes.Equal(gunzip(t, zb), pb) {
		t.Errorf("m.json.gz unzips to\n%s\nnot\n%s", gunzip(t, zb), pb)
	}
	var outs []string
	for _, m := range []string{plain, zipped} {
		code, out, errs := runCmd("predict", "-model", m, "-score", data)
		if code != 0 {
			t.Fatalf("predict -model %s: exit %d: %s", m, code, errs)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("the gzipped model predicts\n%s\nthe plain one\n%s", outs[1], outs[0])
	}
	bad := writeFile(t, dir, "bad.json.gz", zb[:len(zb)/2])
	code, _, errs := runCmd("predict", "-model", bad, data)
	if code != 1 || !strings.HasPrefix(errs, "perceptron: "+bad+": ") {
		t.Errorf("a truncated gzipped model: exit %d, stderr %q", code, errs)
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Eval -model tests a saved model on a file, with the model's labels,
// label column and standardisation, as predict labels the rows.
func TestEvalModel(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(9, 9))
	X, y := randomData(rnd, 60, 3)
	train := writeFile(t, dir, "train.csv", csvOf(X.Slice(0, 40, 0, 3).(*mat.Dense), y[:40], 0, "yes", "no", true))
	test := writeFile(t, dir, "test.csv", csvOf(mat.DenseCopyOf(X.Slice(40, 60, 0, 3)), y[40:], 0, "yes", "no", true))
	for _, c := range classifiers {
		model := filepath.Join(dir, c.name+".json.gz")
		code, _, errs := runCmd("train", "-classifier", c.name, "-header", "-label", "class", "-pos", "yes", "-neg", "no", "-epochs", "50", "-o", model, train)
		if code != 0 {
			t.Fatalf("train: exit %d: %s", code, errs)
		}
		code, out, errs := runCmd("predict", "-model", model, "-header", test)
		if code != 0 {
			t.Fatalf("predict: exit %d: %s", code, errs)
		}
		right := 0
		for i, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if (l == "yes") == (y[40+i] > 0) {
				right++
			}
		}
		code, out, errs = runCmd("eval", "-model", model, "-header", test)
		if code != 0 {
			t.Fatalf("eval -model: exit %d: %s", code, errs)
		}
		rows := parseTable(t, out)
		if len(rows) != 1 {
			t.Fatalf("eval -model printed\n%s", out)
		}
		r := rows[0]
		s, err := loadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		st := s.m.Stats()
		if r.name != c.name || r.train != "-" || r.test != percent(float64(right)/20) || r.mistakes != st.Mistakes || r.epochs != st.Epochs || r.fitTime != "-" {
			t.Errorf("%s: eval -model row %+v; predict is right on %d of 20 rows, Stats %+v", c.name, r, right, st)
		}
	}
	model := filepath.Join(dir, "perceptron.json.gz")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-epochs", "3", test}, "-epochs: eval -model tests a saved model, and takes only -format, -header, -label and -progress"},
		{[]string{"-pos", "1", "-neg", "2", test}, "-neg: eval -model tests a saved model"},
		{[]string{"-header", train, test}, "eval -model: want one test file, got 2"},
		{[]string{"-label", "none", test}, "eval -model: -label none: the test rows need their labels"},
	} {
		code, out, errs := runCmd(append([]string{"eval", "-model", model}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}
