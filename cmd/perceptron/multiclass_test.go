// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// classData returns n rows of d features around k centres, and the class
// of each, from 0 to k-1, with some rows given another class.
func classData(rnd *rand.Rand, n, d, k int) (*mat.Dense, []int) {
	centres := make([][]float64, k)
	for c := range centres {
		centres[c] = make([]float64, d)
		for j := range d {
			centres[c][j] = 3 * rnd.NormFloat64()
		}
	}
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := range n {
		y[i] = rnd.IntN(k)
		for j := range d {
			X.Set(i, j, centres[y[i]][j]+rnd.NormFloat64()*math.Pow(10, float64(j%3-1)))
		}
		if rnd.IntN(10) == 0 {
			y[i] = rnd.IntN(k)
		}
	}
	return X, y
}

// names returns the names of the classes y.
func names(y []int, classes []string) []string {
	var l []string
	for _, c := range y {
		l = append(l, classes[c])
	}
	return l
}

// predictLines runs predict with args and returns its lines, each split
// at tabs.
func predictLines(t *testing.T, args ...string) [][]string {
	t.Helper()
	code, out, errs := runCmd(append([]string{"predict"}, args...)...)
	if code != 0 {
		t.Fatalf("predict %q: exit %d: %s", args, code, errs)
	}
	var lines [][]string
	for l := range strings.SplitSeq(strings.TrimSuffix(out, "\n"), "\n") {
		lines = append(lines, strings.Split(l, "\t"))
	}
	return lines
}

// confusionBlock returns the lines of the confusion matrix of the
// classifier called name in the output of eval.
func confusionBlock(t *testing.T, out, name string) []string {
	t.Helper()
	lines := strings.Split(out, "\n")
	start := slices.Index(lines, name+" on the test rows: true labels down, predicted classes across")
	if start < 0 {
		t.Fatalf("no confusion matrix of %s in\n%s", name, out)
	}
	end := start + 1
	for end < len(lines) && !strings.HasPrefix(lines[end], "precision") {
		end++
	}
	return lines[start+1 : end+1]
}

// wantConfusion returns the confusion matrix, as writeConfusion writes it,
// of rows of the true labels truth predicted as pred, computed here: a row
// per label of labels, a column per class of the first k.
func wantConfusion(truth, pred []string, labels []string, k int) []string {
	var c confusion
	c.labels, c.k = labels, k
	c.counts = make([]int, len(labels)*k)
	for i := range truth {
		c.counts[slices.Index(labels, truth[i])*k+slices.Index(labels[:k], pred[i])]++
	}
	var b bytes.Buffer
	writeConfusion(&b, "x", &c)
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")[2:]
}

// A multiclass CSV file of text labels: train saves a model of three
// classes that predicts, and scores, as the same classifier fitted in
// memory on the same standardised rows; eval -model tests it with the
// confusion matrix of the predictions.
func TestMulticlassCSV(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(11, 11))
	classes := []string{"oak", "ash", "elm"} // in sorted order: ash, elm, oak
	X, y := classData(rnd, 120, 4, 3)
	Xt, yt := classData(rand.New(rand.NewPCG(11, 11)), 40, 4, 3)
	train := writeFile(t, dir, "train.csv", csvNamed(X, names(y, classes), 2, true))
	test := writeFile(t, dir, "test.csv", csvNamed(Xt, names(yt, classes), 2, true))
	for _, c := range classifiers {
		model := filepath.Join(dir, c.name+".json")
		code, out, errs := runCmd("train", "-classifier", c.name, "-epochs", "20", "-header", "-label", "class", "-o", model, train)
		if code != 0 {
			t.Fatalf("train: exit %d: %s", code, errs)
		}
		if want := `3 classes: "ash", "elm", "oak"`; !strings.Contains(out, want) {
			t.Errorf("train says\n%s\nnot %s", out, want)
		}

		// The same fit in memory, of the classes 0 (ash), 1 (elm) and
		// 2 (oak).
		value := map[string]float64{"ash": 0, "elm": 1, "oak": 2}
		var yv []float64
		for _, l := range names(y, classes) {
			yv = append(yv, value[l])
		}
		sc := fitScaler(X)
		Xs, Xts := mat.DenseCopyOf(X), mat.DenseCopyOf(Xt)
		sc.applyDense(Xs)
		sc.applyDense(Xts)
		m, _ := newModel(c.name, &options{epochs: 20})
		if err := m.Fit(Xs, yv); err != nil {
			t.Fatal(err)
		}
		pred, scores := m.PredictRows(nil, Xts), m.ScoreRows(nil, Xts)

		lines := predictLines(t, "-model", model, "-header", "-score", test)
		var got []string
		for i, l := range lines {
			want := []string{[]string{"ash", "elm", "oak"}[int(pred[i])]}
			for _, s := range scores[3*i : 3*i+3] {
				want = append(want, strconv.FormatFloat(s, 'g', -1, 64))
			}
			if !slices.Equal(l, want) {
				t.Fatalf("%s: predict row %d: %q, want %q", c.name, i, l, want)
			}
			got = append(got, l[0])
		}

		code, out, errs = runCmd("eval", "-model", model, "-header", test)
		if code != 0 {
			t.Fatalf("eval -model: exit %d: %s", code, errs)
		}
		truth := names(yt, classes)
		right := 0
		for i := range truth {
			if truth[i] == got[i] {
				right++
			}
		}
		if r := parseTable(t, out)[0]; r.test != percent(float64(right)/40) {
			t.Errorf("%s: eval -model: test accuracy %s, predict is right on %d of 40", c.name, r.test, right)
		}
		if block, want := confusionBlock(t, out, c.name), wantConfusion(truth, got, []string{"ash", "elm", "oak"}, 3); !slices.Equal(block, want) {
			t.Errorf("%s: confusion matrix\n%s\nwant\n%s", c.name, strings.Join(block, "\n"), strings.Join(want, "\n"))
		}
	}
}

// The confusion matrix puts the true labels down and the predicted
// classes across, with each label's recall and each class's precision,
// "-" where no row has the label or none is predicted to be of the class.
func TestWriteConfusion(t *testing.T) {
	c := &confusion{
		labels: []string{"a", "bb", "c", "zz"},
		k:      3,
		counts: []int{
			3, 1, 0, // a
			2, 4, 0, // bb
			0, 0, 0, // c: no rows
			1, 0, 0, // zz: no class
		},
	}
	var b bytes.Buffer
	if err := writeConfusion(&b, "voted", c); err != nil {
		t.Fatal(err)
	}
	want := `
voted on the test rows: true labels down, predicted classes across
                a      bb  c  recall
a               3       1  0  75.00%
bb              2       4  0  66.67%
c               0       0  0       -
zz              1       0  0   0.00%
precision  50.00%  80.00%  -
`
	if b.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", b.String(), want)
	}
}

// The same rows of four classes in CSV, LIBSVM and IDX train the same
// model of the four, and predict writes their class numbers.
func TestMulticlassFormatsAgree(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(12, 12))
	const n, side = 60, 3
	d := side * side
	classes := make([]byte, n)
	pixels := make([]byte, n*d)
	for i := range classes {
		classes[i] = byte(rnd.IntN(4))
		for j := range d {
			if rnd.IntN(3) > 0 {
				pixels[i*d+j] = byte(min(255, rnd.IntN(100)+40*int(classes[i])*(j%2)))
			}
		}
	}
	X := mat.NewDense(n, d, nil)
	var labels []string
	var y []float64
	for i, c := range classes {
		for j, px := range pixels[i*d : (i+1)*d] {
			X.Set(i, j, float64(px)/255)
		}
		labels = append(labels, strconv.Itoa(int(c)))
		y = append(y, float64(c))
	}
	writeFile(t, dir, "train-labels-idx1-ubyte", idxFile(0x08, []int{n}, classes))
	sources := []string{
		writeFile(t, dir, "d.csv", csvNamed(X, labels, d, false)),
		// Without the + of libsvmOf, which would name the classes +1, +2
		// and +3.
		writeFile(t, dir, "d.svm", bytes.ReplaceAll(libsvmOf(X, y), []byte("+"), nil)),
		writeFile(t, dir, "train-images-idx3-ubyte", idxFile(0x08, []int{n, side, side}, pixels)),
	}
	var models [][]byte
	for _, src := range sources {
		model := filepath.Join(dir, "m.json")
		code, out, errs := runCmd("train", "-classifier", "averaged", "-epochs", "5", "-standardize=false", "-o", model, src)
		if code != 0 {
			t.Fatalf("train %s: exit %d: %s", src, code, errs)
		}
		if !strings.Contains(out, `4 classes: "0", "1", "2", "3"`) {
			t.Errorf("train %s says\n%s", src, out)
		}
		b, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, libraryPart(t, b))
		lines := predictLines(t, "-model", model, "-label", "none", writeFile(t, dir, "x.csv", csvNamed(X, nil, -1, false)))
		s, err := loadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range s.m.PredictRows(nil, X) {
			if want := strconv.Itoa(int(v)); lines[i][0] != want {
				t.Fatalf("%s: predict row %d: %q, want %s", src, i, lines[i], want)
			}
		}
	}
	for k := 1; k < len(models); k++ {
		if !bytes.Equal(models[k], models[0]) {
			t.Errorf("%s trains\n%s\nbut %s trains\n%s", sources[k], models[k], sources[0], models[0])
		}
	}
}

// Fashion-MNIST's layout, ten classes in IDX files, in miniature: eval
// of a training and a test set prints the matrix of the ten, and a class
// that no test row has gets a recall of "-".
func TestMulticlassIDX(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(13, 13))
	write := func(prefix string, n int, skip int) string {
		classes := make([]byte, n)
		pixels := make([]byte, n*4)
		for i := range classes {
			for classes[i] = byte(rnd.IntN(10)); int(classes[i]) == skip; classes[i] = byte(rnd.IntN(10)) {
			}
			for j := range 4 {
				pixels[i*4+j] = byte(25*int(classes[i]) + rnd.IntN(10))
			}
		}
		writeFile(t, dir, prefix+"-labels-idx1-ubyte.gz", gzipped(idxFile(0x08, []int{n}, classes)))
		return writeFile(t, dir, prefix+"-images-idx3-ubyte.gz", gzipped(idxFile(0x08, []int{n, 2, 2}, pixels)))
	}
	train, test := write("train", 300, -1), write("t10k", 50, 7)
	code, out, errs := runCmd("eval", "-classifier", "pocket", "-epochs", "10", train, test)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `10 classes: "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"`) {
		t.Errorf("eval says\n%s", out)
	}
	block := confusionBlock(t, out, "pocket")
	if len(block) != 12 || !strings.HasPrefix(block[8], "7 ") || !strings.HasSuffix(block[8], "  -") {
		t.Errorf("confusion matrix\n%s", strings.Join(block, "\n"))
	}
	for _, l := range block[1:11] {
		if f := strings.Fields(l); len(f) != 12 {
			t.Errorf("row %q of %d fields, want a label, 10 counts and a recall", l, len(f))
		}
	}
}

// The rows of labels that are no class of the training rows are counted
// wrong, in rows of their own; with -pos and -neg they are left out, and
// the summary says how many.
func TestOtherLabels(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "train.csv", []byte("1,a\n2,a\n-1,b\n-2,b\n5,c\n"))
	test := writeFile(t, dir, "test.csv", []byte("1.5,a\n-1.5,b\n3,z\n4,c\n"))
	code, out, errs := runCmd("eval", "-classifier", "perceptron", "-standardize=false", "-pos", "a", "-neg", "b", train, test)
	if code != 0 {
		t.Fatalf("-pos and -neg: exit %d: %s", code, errs)
	}
	if first, _, _ := strings.Cut(out, "\n"); !strings.Contains(first, "4 training rows (1 row of other labels left out)") ||
		!strings.Contains(first, "2 test rows (2 rows of other labels left out)") {
		t.Errorf("summary %q", first)
	}
	if r := parseTable(t, out)[0]; r.test != "100.00%" {
		t.Errorf("test accuracy %s, want 100.00%%", r.test)
	}
	code, out, errs = runCmd("eval", "-classifier", "perceptron", "-standardize=false", train, test)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	block := confusionBlock(t, out, "perceptron")
	if len(block) != 6 || !strings.HasPrefix(block[4], "z ") || !strings.HasSuffix(block[4], " 0.00%") {
		t.Errorf("confusion matrix\n%s", strings.Join(block, "\n"))
	}
	// The row of z is wrong whatever the model predicts.
	if r := parseTable(t, out)[0]; r.testAcc > 0.75 {
		t.Errorf("test accuracy %s with a row of no class", r.test)
	}
}

// A training set that lacks a class of the file, as a split may, trains a
// model of every class.
func TestFitKeepsAbsentClasses(t *testing.T) {
	ds := &dataset{
		name:    "d",
		X:       mat.NewDense(4, 1, []float64{1, 2, -1, -2}),
		classes: &classSet{names: []string{"a", "b", "c"}, values: []float64{0, 1, 2}},
		y:       []int{0, 0, 2, 2},
	}
	r, err := fitModel("averaged", &options{}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.m.Classes(); !slices.Equal(got, []float64{0, 1, 2}) {
		t.Errorf("classes %v, want 0, 1 and 2", got)
	}
}

// A model that a program saves with json.Marshal, the library's JSON
// alone, is read by predict and eval -model: its classes are named by
// their values, the label column is the last unless -label says, and
// nothing is standardised.
func TestLibraryModel(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(14, 14))
	X, yc := classData(rnd, 80, 3, 3)
	values := []float64{-2, 5, 7.5}
	var y []float64
	var labels []string
	for _, c := range yc {
		y = append(y, values[c])
		labels = append(labels, strconv.FormatFloat(values[c], 'g', -1, 64))
	}
	for _, m := range []model{&perceptron.Averaged{Epochs: 10}, &perceptron.Kernel{Epochs: 5, Func: perceptron.RBF{}}} {
		if err := m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		model := writeFile(t, dir, "lib.json", b)
		data := writeFile(t, dir, "d.csv", csvNamed(X, labels, 3, false))
		pred, scores := m.PredictRows(nil, X), m.ScoreRows(nil, X)
		right := 0
		for i, l := range predictLines(t, "-model", model, "-score", data) {
			want := []string{strconv.FormatFloat(pred[i], 'g', -1, 64)}
			for _, s := range scores[3*i : 3*i+3] {
				want = append(want, strconv.FormatFloat(s, 'g', -1, 64))
			}
			if !slices.Equal(l, want) {
				t.Fatalf("%T: predict row %d: %q, want %q", m, i, l, want)
			}
			if pred[i] == y[i] {
				right++
			}
		}
		code, out, errs := runCmd("eval", "-model", model, data)
		if code != 0 {
			t.Fatalf("eval -model: exit %d: %s", code, errs)
		}
		if !strings.Contains(out, "the library's JSON alone, not standardised") || !strings.Contains(out, `3 classes: "-2", "5", "7.5"`) {
			t.Errorf("eval -model says\n%s", out)
		}
		if r := parseTable(t, out)[0]; r.test != percent(float64(right)/80) {
			t.Errorf("%T: eval -model: test accuracy %s, want %d of 80", m, r.test, right)
		}
	}
}

// The model file is the library's JSON form of the classifier and one
// member more: without it, the library loads the model, which predicts as
// predict does.
func TestModelFileIsLibraryJSON(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(15, 15))
	X, yc := classData(rnd, 60, 3, 4)
	data := writeFile(t, dir, "d.csv", csvNamed(X, names(yc, []string{"a", "b", "c", "d"}), 3, false))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-classifier", "voted", "-epochs", "5", "-o", model, data); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	var v perceptron.Voted
	if err := json.Unmarshal(libraryPart(t, b), &v); err != nil {
		t.Fatal(err)
	}
	s, err := loadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	Xs := mat.DenseCopyOf(X)
	s.sc.applyDense(Xs)
	lines := predictLines(t, "-model", model, data)
	for i, p := range v.PredictRows(nil, Xs) {
		if want := []string{"a", "b", "c", "d"}[int(p)]; lines[i][0] != want {
			t.Fatalf("row %d: predict %q, the library %s", i, lines[i], want)
		}
	}
}

// A model file in the shape that train writes, the library's JSON with the
// member command, written by hand, predicts the scores computed by hand:
// x standardised by mean (0, 1) and scale (1, 2), then w = (1, -2),
// b = 0.5, classes no (-1) and yes (+1).
func TestHandWrittenModelFile(t *testing.T) {
	dir := t.TempDir()
	model := writeFile(t, dir, "m.json", []byte(`{"type":"Perceptron","version":1,`+
		`"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":null},`+
		`"model":{"classes":[-1,1],"weights":[1,-2],"biases":[0.5],"throughOrigin":false},`+
		`"stats":{"epochs":1,"converged":true,"mistakes":0,"epochMistakes":[0]},`+
		`"command":{"version":3,"features":2,"label":"last","classes":["no","yes"],"picked":true,"mean":[0,1],"scale":[1,2]}}`))
	// (1, 2) → (1, 0.5): 1 - 1 + 0.5; (0, 5) → (0, 2): -4 + 0.5.
	data := writeFile(t, dir, "d.csv", []byte("1,2,yes\n0,5,yes\n"))
	code, out, errs := runCmd("predict", "-model", model, "-score", data)
	if want := "yes\t0.5\nno\t-3.5\n"; code != 0 || out != want {
		t.Errorf("predict: exit %d, %q%s, want %q", code, out, errs, want)
	}
	code, out, errs = runCmd("eval", "-model", model, data)
	if code != 0 || parseTable(t, out)[0].test != "50.00%" {
		t.Errorf("eval -model: exit %d, %s%s", code, out, errs)
	}
}

// Model files of versions 1 and 2 of the command wrapped a form of the
// library's JSON that the library no longer reads: predict and eval -model
// refuse them, saying so, and print nothing.
func TestOldModelFiles(t *testing.T) {
	dir := t.TempDir()
	v1 := writeFile(t, dir, "v1.json", []byte(`{"format":"perceptron-command-model","version":1,"classifier":"perceptron","features":2,"pos":"yes","neg":"no","mean":[0,1],"scale":[1,2],"model":{"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0},"model":{"weights":[1,-2],"bias":0.5},"stats":{"epochs":1,"converged":true,"mistakes":0,"epochMistakes":[0]}}}`))
	v2 := writeFile(t, dir, "v2.json", []byte(`{"format":"perceptron-command-model","version":2,"classifier":"perceptron","features":2,"pos":"+1","neg":"-1","label":"last","mean":[0,0],"scale":[1,2],"model":{"type":"Perceptron","version":2,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"initBias":0,"labels":null},"model":{"classes":[-1,1],"weights":[1,1],"biases":[1]},"stats":{"epochs":2,"converged":true,"mistakes":1,"epochMistakes":[1,0]}}}`))
	data := writeFile(t, dir, "d.csv", []byte("1,2,+1\n-4,-2,-1\n"))
	for _, c := range []struct {
		model   string
		version int
	}{{v1, 1}, {v2, 2}} {
		want := fmt.Sprintf("%s: a model file of the command's old format, version %d, which holds a form of the library's that it no longer reads: train the model again", c.model, c.version)
		for _, args := range [][]string{{"predict", "-model", c.model, "-label", "none", data}, {"eval", "-model", c.model, data}} {
			code, out, errs := runCmd(args...)
			if code != 1 || out != "" || errs != "perceptron: "+want+"\n" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", args, code, out, errs, want)
			}
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Dense rows are standardised unless -standardize=false; sparse rows, only
// with -standardize (TestSparseModel).
func TestStandardizeDefault(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", twoFeatures)
	model := filepath.Join(dir, "m.json")
	for _, c := range []struct {
		flags []string
		means bool
	}{{nil, true}, {[]string{"-standardize=false"}, false}, {[]string{"-standardize"}, true}} {
		code, out, errs := runCmd(append([]string{"train", "-o", model, data}, c.flags...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", c.flags, code, errs)
		}
		var f struct{ Command commandJSON }
		if err := json.Unmarshal(mustRead(t, model), &f); err != nil {
			t.Fatal(err)
		}
		if (f.Command.Mean != nil) != c.means || (f.Command.Scale != nil) != c.means || strings.Contains(out, "standardised") != c.means {
			t.Errorf("%q: means %v, scales %v, summary %q", c.flags, f.Command.Mean, f.Command.Scale, out)
		}
	}
	code, _, errs := runCmd("train", "-o", model, "-standardize=maybe", data)
	if code != 2 || !strings.Contains(errs, `invalid boolean value "maybe" for -standardize: "maybe" is not true or false`) {
		t.Errorf("-standardize=maybe: exit %d, %s", code, errs)
	}
	code, out, _ := runCmd("train", "-h")
	if code != 0 || !strings.Contains(out, "false for sparse rows, LIBSVM, as LIBLINEAR leaves them") {
		t.Errorf("train -h does not say how -standardize defaults:\n%s", out)
	}
}

// The summaries name the classes: which label is +1 and which -1 of two
// picked, and otherwise the labels, the first twenty of many.
func TestDescribeClasses(t *testing.T) {
	many := &classSet{}
	for k := range 25 {
		many.names = append(many.names, strconv.Itoa(k))
		many.values = append(many.values, float64(k))
	}
	for _, c := range []struct {
		c    *classSet
		want string
	}{
		{pickedClasses("M", "B"), `+1 is "M", -1 is "B"`},
		{&classSet{names: []string{"ash", "elm"}, values: []float64{0, 1}}, `2 classes: "ash", "elm" (a score >= 0 is "elm")`},
		{valueClasses([]float64{-2, 5, 7.5}), `3 classes: "-2", "5", "7.5"`},
		{many, `25 classes: "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", …`},
	} {
		if got := c.c.describe(); got != c.want {
			t.Errorf("%v: %s, want %s", c.c.names, got, c.want)
		}
	}
}
