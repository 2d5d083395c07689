// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"cmp"
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

	"github.com/seed5ae3614e/perceptron/data"
)

// calibrationData writes, in dir, 240 training and 90 test rows of 4
// features of the classes "a", "b" and "c", as CSV files, and returns
// their paths and the training rows as a Set.
func calibrationData(t *testing.T, dir string) (train, test string, set *data.Set) {
	rnd := rand.New(rand.NewPCG(4, 4))
	X, y := classData(rnd, 330, 4, 3)
	labels := make([]string, 330)
	for i, c := range y {
		labels[i] = string(rune('a' + c))
	}
	tr, te := X.Slice(0, 240, 0, 4).(*mat.Dense), X.Slice(240, 330, 0, 4).(*mat.Dense)
	train = writeFile(t, dir, "train.csv", csvNamed(tr, labels[:240], 4, false))
	test = writeFile(t, dir, "test.csv", csvNamed(te, labels[240:], 4, false))
	set, err := data.CSV{}.Read(strings.NewReader(string(csvNamed(tr, labels[:240], 4, false))))
	if err != nil {
		t.Fatal(err)
	}
	return train, test, set
}

// train -calibrate K fits its model's Calibration to the scores of the
// rows of each of K folds by the model that train fits to the rows of the
// other folds, the steps before it and all: here each fold's training rows
// are written to a file of their own, trained on by the command and
// scored by its predict -score, and the Calibration that the library fits
// to those scores is the model's, to the bit. train -model keeps it.
func TestTrainCalibrate(t *testing.T) {
	dir := t.TempDir()
	train, _, set := calibrationData(t, dir)
	model := filepath.Join(dir, "m.json")
	code, out, errs := runCmd("train", "-resumable", "-calibrate", "3", "-seed", "7", "-o", model, train)
	if code != 0 || !strings.Contains(out, "calibrated the probabilities of the classes on the scores of the rows of each of 3 folds by the classifier trained on the others: the softmax") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	m, err := data.LoadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	var scores, y []float64
	for i := range 3 {
		tr, te, err := data.Fold(set, 3, i, 7)
		if err != nil {
			t.Fatal(err)
		}
		labels := func(s *data.Set) []string {
			var l []string
			for _, c := range s.Y {
				l = append(l, s.Classes[int(c)])
			}
			return l
		}
		ftrain := writeFile(t, dir, fmt.Sprintf("fold%d.csv", i), csvNamed(tr.X.(*mat.Dense), labels(tr), 4, false))
		ftest := writeFile(t, dir, fmt.Sprintf("held%d.csv", i), csvNamed(te.X.(*mat.Dense), labels(te), 4, false))
		fmodel := filepath.Join(dir, fmt.Sprintf("fold%d.json", i))
		if code, _, errs := runCmd("train", "-seed", "7", "-o", fmodel, ftrain); code != 0 {
			t.Fatal(errs)
		}
		code, out, errs := runCmd("predict", "-model", fmodel, "-score", ftest)
		if code != 0 {
			t.Fatal(errs)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			for _, f := range strings.Split(line, "\t")[1:] {
				v, err := strconv.ParseFloat(f, 64)
				if err != nil {
					t.Fatal(err)
				}
				scores = append(scores, v)
			}
		}
		y = append(y, te.Y...)
	}
	want := &data.Calibration{}
	if err := want.Fit(scores, y, 3); err != nil {
		t.Fatal(err)
	}
	if m.Calibration == nil || m.Calibration.OneVsRest || !slices.Equal(m.Calibration.A, want.A) || !slices.Equal(m.Calibration.B, want.B) {
		t.Errorf("the model's Calibration %+v, the folds' %+v", m.Calibration, want)
	}
	// Trained further, the model keeps its Calibration, and says so.
	more := filepath.Join(dir, "more.json")
	code, _, errs = runCmd("train", "-model", model, "-o", more, train)
	if code != 0 || !strings.Contains(errs, "note: the model keeps its calibration, fitted to its scores before this training") {
		t.Fatalf("train -model: exit %d: %s", code, errs)
	}
	if m2, err := data.LoadModel(more); err != nil || m2.Calibration == nil || !slices.Equal(m2.Calibration.A, m.Calibration.A) {
		t.Errorf("train -model: %v, Calibration %+v, want %+v", err, m2.Calibration, m.Calibration)
	}
}

// predict -k writes the most probable classes of each row and their
// probabilities, as the model's Top gives them, and with -threshold those
// at least that probable; on rows with labels, it says their precision
// and recall on stderr.
func TestPredictTop(t *testing.T) {
	dir := t.TempDir()
	train, test, _ := calibrationData(t, dir)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-calibrate", "4", "-o", model, train); code != 0 {
		t.Fatal(errs)
	}
	m, err := data.LoadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(test)
	rows, err := data.CSV{Classes: m.Classes}.Read(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args      []string
		k         int
		threshold float64
	}{
		{[]string{"-k", "2"}, 2, 0},
		{[]string{"-k", "9"}, 3, 0},
		{[]string{"-threshold", "0.8"}, 1, 0.8},
		{[]string{"-k", "3", "-threshold", "0.2"}, 3, 0.2},
	} {
		code, out, errs := runCmd(append(append([]string{"predict", "-model", model}, c.args...), test)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		top, probs, err := m.Top(rows.X, c.k, c.threshold)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		for i := range len(top) / c.k {
			var f []string
			for j := i * c.k; j < (i+1)*c.k; j++ {
				if top[j] >= 0 {
					f = append(f, m.Classes[top[j]], strconv.FormatFloat(probs[j], 'g', -1, 64))
				}
			}
			want.WriteString(strings.Join(f, "\t") + "\n")
		}
		if out != want.String() {
			t.Errorf("%v: stdout\n%s\nwant\n%s", c.args, out, want.String())
		}
		p, r := naivePrecisionRecall(rows.Y, top, c.k)
		line := fmt.Sprintf("P@%d = %s, R@%d = %s\n", c.k, strconv.FormatFloat(p, 'g', 6, 64), c.k, strconv.FormatFloat(r, 'g', 6, 64))
		if !strings.HasSuffix(errs, line) {
			t.Errorf("%v: stderr %q, want it to end in %q", c.args, errs, line)
		}
	}
}

// naivePrecisionRecall returns the precision and the recall of the k
// classes of each row of top, -1 for none, for the rows of classes y.
func naivePrecisionRecall(y []float64, top []int, k int) (precision, recall float64) {
	var given, right float64
	for i, c := range y {
		for _, t := range top[i*k : (i+1)*k] {
			if t >= 0 {
				given++
			}
			if t == int(c) {
				right++
			}
		}
	}
	return right / given, right / float64(len(y))
}

// eval -calibrate and eval -model of a calibrated model print the
// log-loss, the Brier score and P@k and R@k of the probabilities of the
// test rows, which are here computed from the model's probabilities.
func TestEvalCalibrate(t *testing.T) {
	dir := t.TempDir()
	train, test, _ := calibrationData(t, dir)
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-calibrate", "3", "-o", model, train); code != 0 {
		t.Fatal(errs)
	}
	m, err := data.LoadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(test)
	rows, err := data.CSV{Classes: m.Classes}.Read(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	probs, err := m.Probabilities(rows.X)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 2} {
		var logLoss, brier float64
		var top []int
		for i, c := range rows.Y {
			p := probs[3*i : 3*i+3]
			logLoss -= math.Log(p[int(c)])
			for j, v := range p {
				if j == int(c) {
					v = 1 - v
				}
				brier += v * v
			}
			order := []int{0, 1, 2}
			slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p[b], p[a]) })
			top = append(top, order[:k]...)
		}
		n := float64(len(rows.Y))
		P, R := naivePrecisionRecall(rows.Y, top, k)
		head := []string{"classifier", "log-loss", "Brier", fmt.Sprintf("P@%d", k), fmt.Sprintf("R@%d", k)}
		want := []string{"averaged", fmt.Sprintf("%.4f", logLoss/n), fmt.Sprintf("%.4f", brier/n), percent(P), percent(R)}
		for _, args := range [][]string{
			{"eval", "-model", model, "-k", strconv.Itoa(k), test},
			{"eval", "-classifier", "averaged", "-calibrate", "3", "-k", strconv.Itoa(k), train, test},
		} {
			code, out, errs := runCmd(args...)
			lines := strings.Split(out, "\n")
			at := slices.IndexFunc(lines, func(l string) bool { return slices.Equal(strings.Fields(l), head) })
			if code != 0 || at < 0 || !slices.Equal(strings.Fields(lines[at+1]), want) {
				t.Errorf("%v: exit %d: %s%s\nwant\n%q\n%q", args, code, out, errs, head, want)
			}
		}
	}
}

// The flags of calibration and of the most probable classes refuse
// values out of their range, each other where they contradict, and models
// without a calibration.
func TestCalibrateFlags(t *testing.T) {
	dir := t.TempDir()
	train, test, _ := calibrationData(t, dir)
	plain := filepath.Join(dir, "plain.json")
	if code, _, errs := runCmd("train", "-o", plain, train); code != 0 {
		t.Fatal(errs)
	}
	out := filepath.Join(dir, "m.json")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"train", "-calibrate", "1", "-o", out, train}, 2, "-calibrate 1: want 2 folds or more, or 0 for none"},
		{[]string{"train", "-calibrate", "-3", "-o", out, train}, 2, "-calibrate -3: want 2 folds or more"},
		{[]string{"train", "-calibrate", "81", "-o", out, train}, 1, `-calibrate 81: the class "a" has 80 rows, fewer than the folds`},
		{[]string{"train", "-model", plain, "-calibrate", "3", "-o", out, train}, 2, "-calibrate: train -model goes on training a saved model"},
		{[]string{"predict", "-model", plain, "-k", "2", test}, 1, "plain.json: the model has no calibration of the probabilities of its classes, by which -k and -threshold rank them: train it with -calibrate K"},
		{[]string{"predict", "-model", plain, "-threshold", "0.5", test}, 1, "the model has no calibration"},
		{[]string{"predict", "-model", plain, "-k", "0", test}, 2, "-k 0: want 1 or more"},
		{[]string{"predict", "-model", plain, "-threshold", "1.5", test}, 2, "-threshold 1.5: want a probability, from 0 to 1"},
		{[]string{"predict", "-model", plain, "-k", "2", "-score", test}, 2, "-score and -k: give one"},
		{[]string{"eval", "-model", plain, "-k", "2", test}, 1, "the model has no calibration"},
		{[]string{"eval", "-k", "2", train, test}, 2, "-k and -threshold rank the classes by the probabilities that -calibrate K fits: give it"},
		{[]string{"eval", "-calibrate", "3", "-folds", "3", train}, 2, "-calibrate: -folds cross-validates the accuracy alone"},
	} {
		code, _, errs := runCmd(c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused train wrote %s: %v", out, err)
	}
}
