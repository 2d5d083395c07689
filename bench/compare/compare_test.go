// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/synth"
)

func TestWriteARFF(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{
		0, 1.0 / 3,
		1, -2.5,
		1e-300, math.Nextafter(0.3, 1),
	})
	y := []float64{1, -1, 1}
	var buf bytes.Buffer
	if err := writeARFF(&buf, "tiny", X, y, []int{2, 0, 1}); err != nil {
		t.Fatal(err)
	}
	want := `@relation tiny

@attribute x1 numeric
@attribute x2 numeric
@attribute class {neg,pos}

@data
1e-300,0.30000000000000004,pos
0,0.3333333333333333,pos
1,-2.5,neg
`
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Every value reads back to the float64 it was written from.
	_, data, _ := strings.Cut(want, "@data\n")
	for k, line := range strings.Split(strings.TrimSpace(data), "\n") {
		i := []int{2, 0, 1}[k]
		for j, f := range strings.Split(line, ",")[:2] {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || v != X.At(i, j) {
				t.Errorf("row %d column %d: %q reads as %v, want %v", i, j, f, v, X.At(i, j))
			}
		}
	}
	if err := writeARFF(&buf, "bad", X, []float64{1, 0, 1}, nil); err == nil {
		t.Error("a label 0 was written")
	}
}

func TestFloatsRoundTrip(t *testing.T) {
	big := mat.NewDense(4, 3, []float64{
		1, 2, 3,
		4, math.Pi, 6,
		7, -8, math.SmallestNonzeroFloat64,
		10, 11, 12,
	})
	// A view with a stride longer than its rows.
	X := big.Slice(1, 3, 1, 3).(*mat.Dense)
	path := filepath.Join(t.TempDir(), "x")
	if err := create(path, func(w io.Writer) error { return writeFloats(w, X) }); err != nil {
		t.Fatal(err)
	}
	got, err := readFloats(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{math.Pi, 6, -8, math.SmallestNonzeroFloat64}
	if !floats.Same(got, want) {
		t.Errorf("read back %v, want %v", got, want)
	}
}

// needWeka skips the test unless Weka and java are installed, and returns
// Weka's jar.
func needWeka(t *testing.T) string {
	const jar = "/usr/share/java/weka.jar"
	if _, err := os.Stat(jar); err != nil {
		t.Skip("Weka is not installed (apt-get install weka)")
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed")
	}
	return jar
}

// TestWekaOrder checks, with Weka itself, that the rows written in the
// order of wekaOrder reach VotedPerceptron's training loop in their own
// order, and that javaRandom is java.util.Random.
func TestWekaOrder(t *testing.T) {
	t.Parallel()
	jar := needWeka(t)
	const n = 1000
	X := mat.NewDense(n, 1, nil)
	y := make([]float64, n)
	for i := range n {
		X.Set(i, 0, float64(i))
		y[i] = 1
	}
	path := filepath.Join(t.TempDir(), "ids.arff")
	if err := create(path, func(w io.Writer) error { return writeARFF(w, "ids", X, y, wekaOrder(n, wekaSeed)) }); err != nil {
		t.Fatal(err)
	}
	// Bounds of each kind: a power of two, a small one, and one so large
	// that Java rejects about half the draws.
	const rseed = 42
	bounds := []int32{1 << 20, 1000, 1<<30 + 1}
	args := []string{"-cp", jar, "testdata/WekaOrder.java", path, strconv.Itoa(wekaSeed), strconv.Itoa(rseed)}
	for _, b := range bounds {
		args = append(args, strconv.Itoa(int(b)))
	}
	out, err := exec.Command("java", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, out)
	}
	lines := strings.Fields(string(out))
	if len(lines) != n+8*len(bounds) {
		t.Fatalf("java printed %d lines, want %d:\n%s", len(lines), n+8*len(bounds), out)
	}
	for i, l := range lines[:n] {
		if l != strconv.Itoa(i) {
			t.Fatalf("Weka visits row %s %d-th, want row %d", l, i, i)
		}
	}
	r := newJavaRandom(rseed)
	k := n
	for _, b := range bounds {
		for range 8 {
			if got := strconv.Itoa(int(r.nextInt(b))); got != lines[k] {
				t.Errorf("nextInt(%d): got %s, Java %s", b, got, lines[k])
			}
			k++
		}
	}
}

func TestParseWeka(t *testing.T) {
	// The layout of Weka 3.6's output with -t and -T.
	out := []byte(`
Options: -I 1 -E 3

VotedPerceptron: Number of perceptrons=39

Time taken to build model: 13.27 seconds
Time taken to test model on training data: 0.01 seconds

=== Error on training data ===

Correctly Classified Instances         190               95      %
Incorrectly Classified Instances        10                5      %
Total Number of Instances              200


=== Error on test data ===

Correctly Classified Instances          49               98      %
Incorrectly Classified Instances         1                2      %
Total Number of Instances               50
`)
	f, err := parseWeka(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.build != 13270*time.Millisecond || f.train != (classified{190, 200}) || f.test != (classified{49, 50}) {
		t.Errorf("got %+v, want 13.27s, 190 of 200 and 49 of 50 right", *f)
	}
	if _, err := parseWeka(bytes.ReplaceAll(out, []byte("test data"), nil)); err == nil {
		t.Error("output without test figures parsed")
	}
}

func TestCompareWeights(t *testing.T) {
	ours := []float64{0.5, -1.25, 3, 2}
	for _, c := range []struct {
		theirs []float64
		ok     bool
	}{
		{[]float64{0.5, -1.25, 3, 2}, true},
		{[]float64{0.5, -1.25, 3 + 1e-12, 2}, true},
		{[]float64{0.5, -1.25 + 1.0/255, 3, 2}, false},
		{[]float64{0.5, -1.25, 3, 3}, false},
		{[]float64{0.5, -1.25, 3}, false},
		{[]float64{0.5, math.NaN(), 3, 2}, false},
	} {
		if got := compareWeights(ours, c.theirs); got.ok != c.ok {
			t.Errorf("theirs %v: agree is %t, want %t (%s)", c.theirs, got.ok, c.ok, got.detail)
		}
	}
}

func TestCompareScaled(t *testing.T) {
	coef := []float64{2, -4, 6, 1}
	for _, c := range []struct {
		w  []float64
		b  float64
		ok bool
	}{
		{[]float64{1, -2, 3}, 0.5, true},
		{[]float64{2, -4, 6}, 1, true},
		{[]float64{-1, 2, -3}, -0.5, false},
		{[]float64{1, -2, 3.01}, 0.5, false},
		{[]float64{1, -2, 3}, 0.6, false},
	} {
		if got := compareScaled(c.w, c.b, coef, 1e-9); got.ok != c.ok {
			t.Errorf("w %v b %v: agree is %t, want %t (%s)", c.w, c.b, got.ok, c.ok, got.detail)
		}
	}
}

func TestComparePredictions(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{
		1, 0,
		0, 1,
		1, 1,
		0, 0,
	})
	// Scores of the peer's weights: 1, -1, 0 and 0.
	coef := []float64{1, -1, 0}
	dec := []float64{1, -1, 0, 0}
	pred := []float64{1, -1, -1, -1}
	if got := comparePredictions([]float64{1, -1, -1, -1}, pred, dec, X, coef, 1e-9); !got.ok {
		t.Errorf("equal predictions disagree: %s", got.detail)
	}
	// At a score of zero scikit-learn says -1 and this library +1.
	if got := comparePredictions([]float64{1, -1, 1, 1}, pred, dec, X, coef, 1e-9); !got.ok || !strings.Contains(got.detail, "2 differ on a score within rounding") {
		t.Errorf("ties: agree is %t (%s), want true with 2 ties", got.ok, got.detail)
	}
	if got := comparePredictions([]float64{1, 1, 1, -1}, pred, dec, X, coef, 1e-9); got.ok {
		t.Errorf("a clear disagreement passed: %s", got.detail)
	}
}

// TestSklearnAND runs the whole comparison against scikit-learn on the
// AND gate, whose perceptron run is traced by hand in examples_test.go (from zero,
// in order, rate 1: epoch 9 is the first without a mistake, at w=(3,2),
// b=-4), for more epochs than that, so that Averaged stops passing over
// the data early and must still average over every epoch, as
// scikit-learn does. It then
// checks by hand what the harness's checks rest on: scikit-learn's
// Perceptron counts a score of zero as a mistake (if it did not, it would
// never leave zero) and runs every epoch, and its averaged SGDClassifier
// returns the mean of the weights after every visit, from the first.
func TestSklearnAND(t *testing.T) {
	t.Parallel()
	X := mat.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1})
	y := []float64{-1, -1, -1, 1}
	const epochs = 12
	r := &run{
		ds:     &dataSet{name: "and", about: "the AND gate", train: X, ytrain: y, test: X, ytest: y},
		dir:    t.TempDir(),
		epochs: epochs, repeat: 1,
		python: "/usr/bin/python3",
		skip:   []string{"svc", "weka"},
		fitted: map[string]perceptron.Scorer{},
	}
	if failed := r.all(); failed != 0 {
		t.Fatalf("%d failures: %q %q", failed, r.notes, r.checkLines)
	}
	if !r.sklearnRan {
		t.Skip(r.notes)
	}
	if a, _ := r.library("Averaged"); a.epochs != 9 {
		t.Errorf("Averaged passed %d epochs over the data, want 9", a.epochs)
	}
	want := []string{
		"check: Perceptron = scikit-learn Perceptron after 12 epochs: weights and bias: agree (equal bit for bit)",
		"check: Averaged = scikit-learn averaged SGDClassifier after 12 epochs: train predictions: agree (4 of 4 rows predicted alike)",
		"check: Averaged = scikit-learn averaged SGDClassifier after 12 epochs: test predictions: agree (4 of 4 rows predicted alike)",
		"check: Averaged = scikit-learn averaged SGDClassifier after 12 epochs: weights and bias up to a positive factor: agree",
		"check: Perceptron = scikit-learn averaged SGDClassifier's last, unaveraged weights after 12 epochs: agree (equal bit for bit)",
	}
	if len(r.checkLines) != len(want) {
		t.Fatalf("checks:\n%s\nwant %d", strings.Join(r.checkLines, "\n"), len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(r.checkLines[i], w) {
			t.Errorf("check %d: got\n%s\nwant\n%s", i, r.checkLines[i], w)
		}
	}
	for _, w := range r.rows {
		if w.system == "scikit-learn" && w.epochs != epochs {
			t.Errorf("scikit-learn's %s ran %d epochs, want %d: it stopped early", w.model, w.epochs, epochs)
		}
	}

	read := func(name string) []float64 {
		v, err := readFloats(filepath.Join(r.dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if got, want := read(fmt.Sprintf("perceptron-%d.coef", epochs)), []float64{3, 2, -4}; !floats.Equal(got, want) {
		t.Errorf("Perceptron: coef_ and intercept_ %v, want %v", got, want)
	}
	// The naive average: run the rule and add up the weights after every
	// visit, for every epoch that scikit-learn runs.
	w, sum := make([]float64, 3), make([]float64, 3)
	for range epochs {
		for i := range 4 {
			x := append(mat.Row(nil, i, X), 1)
			if y[i]*floats.Dot(w, x) <= 0 {
				floats.AddScaled(w, y[i], x)
			}
			floats.Add(sum, w)
		}
	}
	floats.Scale(1.0/(4*epochs), sum)
	if got := read(fmt.Sprintf("sgd-avg-%d.coef", epochs)); !floats.EqualApprox(got, sum, 1e-12) {
		t.Errorf("SGDClassifier averaged: coef_ and intercept_ %v, want the mean of the visited weights %v", got, sum)
	}
	if got := read(fmt.Sprintf("sgd-avg-%d.standard", epochs)); !floats.Equal(got, w[:2]) {
		t.Errorf("SGDClassifier averaged: last weights %v, want %v", got, w[:2])
	}
}

func TestWekaClassified(t *testing.T) {
	y := []float64{1, 1, -1, -1, 1}
	// Weka takes pos for a vote plus j above zero, and neg for a tie.
	votes := []float64{-1, -3, -2, 0, -2}
	for _, c := range []struct {
		j    int
		want int
	}{
		{0, 2}, // -1, -3, -2, 0, -2: all neg, the tie too
		{1, 1}, // 0, -2, -1, 1, -1: neg, neg, neg, pos, neg
		{2, 2}, // 1, -1, 0, 2, 0: pos, neg, neg, pos, neg
		{4, 3}, // all above zero: all pos
	} {
		got := wekaClassified(votes, c.j, y)
		if got != (classified{c.want, len(y)}) {
			t.Errorf("j=%d: got %+v, want %d of %d right", c.j, got, c.want, len(y))
		}
	}
	for _, c := range []struct {
		y    []float64
		want int
	}{
		{[]float64{-1, 1}, 0},
		{[]float64{1, 1, -1, 1}, 2},
		{[]float64{1, 1}, 2},
	} {
		if got := wekaStart(c.y); got != c.want {
			t.Errorf("wekaStart(%v) = %d, want %d", c.y, got, c.want)
		}
	}
}

// TestCheckWeka runs the harness with Weka on two small sets and checks
// that this library's Voted and Kernel, fitted from Weka's first mistake
// on, classify as many rows right as Weka's VotedPerceptron does. On the
// first set it checks by hand what the check rests on. Weka visits pos
// (1, 0), then neg (0, 1). A score of zero is no mistake on a pos row, so
// the empty hypothesis survives the first visit and the second is
// Weka's only mistake, which makes f(x) = -(x₂·x+1)^E. Then the vote on
// (1, 0) is +1 for the empty hypothesis and -1 for f, a tie that Weka
// gives to neg: of the two rows, Weka classifies only (0, 1) right. Under
// this library's rule the first visit would be a mistake too. After the
// Kernel's check the harness compares the two rules over shuffled orders.
func TestCheckWeka(t *testing.T) {
	t.Parallel()
	jar := needWeka(t)
	X, y := synth.Data(300, 5)
	y[0], y[1] = 1, 1 // so that Weka's first mistake is not on the first visit
	for _, ds := range []*dataSet{
		{name: "two", train: mat.NewDense(2, 2, []float64{1, 0, 0, 1}), ytrain: []float64{1, -1}},
		{name: "synth", train: X, ytrain: y},
	} {
		ds.about, ds.test, ds.ytest = ds.name, ds.train, ds.ytrain
		r := &run{
			ds: ds, dir: t.TempDir(), epochs: 10, repeat: 1, orders: 3, wekaJar: jar,
			skip:   []string{"sklearn", "svc"},
			fitted: map[string]perceptron.Scorer{},
		}
		if failed := r.all(); failed != 0 {
			t.Fatalf("%s: %d failures: %q %q", ds.name, failed, r.notes, r.checkLines)
		}
		if len(r.wekaRuns) != 2 {
			t.Fatalf("%s: %d runs of Weka, want 2: %q", ds.name, len(r.wekaRuns), r.notes)
		}
		j := wekaStart(ds.ytrain)
		for i, w := range r.wekaRuns {
			if ds.name == "two" && w.fit.train != (classified{1, 2}) {
				t.Errorf("Weka %s on two rows: %d of %d right, want 1 of 2", w.name, w.fit.train.right, w.fit.train.rows)
			}
			want := fmt.Sprintf("check: %s from Weka's first mistake, visit %d, = Weka VotedPerceptron -E %s -I 1: rows right: agree", w.vs, j+1, w.key)
			if !strings.HasPrefix(r.checkLines[i], want) {
				t.Errorf("%s: check %d: got\n%s\nwant\n%s", ds.name, i, r.checkLines[i], want)
			}
		}
		want := "orders: Kernel poly 3 voted over 3 shuffled orders: mean test accuracy "
		if len(r.checkLines) != 3 || !strings.HasPrefix(r.checkLines[2], want) {
			t.Errorf("%s: got\n%s\nwant a third line that starts\n%s", ds.name, strings.Join(r.checkLines, "\n"), want)
		}
	}
}

// TestSklearnCSR runs scikit-learn's Perceptron on the AND gate as the
// command hands it sparse rows, and checks that it trains on the same
// rows by the rule that check.go describes for sparse input, the
// intercept stepped by 0.01·eta0·y.
func TestSklearnCSR(t *testing.T) {
	t.Parallel()
	X, err := perceptron.NewCSR(4, 2, []int{0, 0, 1, 2, 4}, []int{1, 0, 0, 1}, []float64{1, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	y := []float64{-1, -1, -1, 1}
	ds := &dataSet{name: "and", train: X, ytrain: y, test: X, ytest: y}
	dir := t.TempDir()
	if err := sklearnFiles(dir, ds); err != nil {
		t.Fatal(err)
	}
	const epochs = 12
	res, _, err := runSklearn("/usr/bin/python3", dir, ds, []string{fmt.Sprintf("perceptron:%d:1", epochs)})
	if _, ok := err.(errMissing); ok {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	coef, err := readFloats(filepath.Join(dir, fmt.Sprintf("perceptron-%d.coef", epochs)))
	if err != nil {
		t.Fatal(err)
	}
	w, b := make([]float64, 2), 0.0
	for range epochs {
		for i := range 4 {
			x := mat.Row(nil, i, X)
			if y[i]*(floats.Dot(w, x)+b) <= 0 {
				floats.AddScaled(w, y[i], x)
				b += 0.01 * y[i]
			}
		}
	}
	if want := append(w, b); !floats.EqualApprox(coef, want, 1e-12) {
		t.Errorf("coef_ and intercept_ %v, want %v", coef, want)
	}
	if res[0].NIter != epochs {
		t.Errorf("scikit-learn ran %d epochs, want %d", res[0].NIter, epochs)
	}
}

// runPython decodes one result a line and the versions line, and tells a
// missing scikit-learn (exit status 3) and bad output from a result.
func TestRunPython(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := script("good.sh", `echo '{"versions": {"scikit-learn": "1.2.1"}}'
echo '{"seconds": [0.5, 0.25], "train": 0.75, "test": 0.5}'
echo '{"seconds": [1], "n_iter": 3}'
`)
	res, versions, err := runPython[sklearnFit]("/bin/sh", []string{good})
	if err != nil {
		t.Fatal(err)
	}
	if versions["scikit-learn"] != "1.2.1" || len(res) != 2 ||
		res[0].fastest() != 250*time.Millisecond || res[0].Train != 0.75 || res[0].Test != 0.5 || res[1].NIter != 3 {
		t.Errorf("got %+v and versions %v", res, versions)
	}
	if _, _, err := runPython[sklearnFit]("/bin/sh", []string{script("bad.sh", "echo '{\"seconds\": \"x\"}'\n")}); err == nil || !strings.Contains(err.Error(), "bad output line") {
		t.Errorf("a bad line: error %v", err)
	}
	var missing errMissing
	if _, _, err := runPython[sklearnFit]("/bin/sh", []string{script("missing.sh", "exit 3\n")}); !errors.As(err, &missing) {
		t.Errorf("exit status 3: error %v, want errMissing", err)
	}
	if _, _, err := runPython[sklearnFit]("/bin/sh", []string{script("fail.sh", "echo oops >&2; exit 1\n")}); err == nil || !strings.Contains(err.Error(), "oops") {
		t.Errorf("exit status 1: error %v, want the script's stderr", err)
	}
}
