// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	benchsets "github.com/seed5ae3614e/perceptron/bench/sets"
	"github.com/seed5ae3614e/perceptron/data"
)

// calibrationSet is the name by which -sets selects the section that
// calibrates the scores of Averaged on three data sets, by data's
// Calibration, softmax and sigmoids against the rest, and by scikit-learn's
// CalibratedClassifierCV(method="sigmoid") on the same scores, and sets
// their probabilities of the test rows side by side. It is not in the
// default sets.
const calibrationSet = "calibration"

// calibrationFolds is the number of stratified folds of the training rows
// whose out-of-fold scores the sigmoids are fitted to, as the command's
// train -calibrate 5 and CalibratedClassifierCV's default cv=5 take them.
const calibrationFolds = 5

// calibrationAbout describes the classifier that the section calibrates.
const calibrationAbout = "Averaged{Epochs: 10, Rand: rand.New(rand.NewPCG(1, 0)), Labels: every class}"

//go:embed calibrate.py
var calibrateScript []byte

// calibrationData is a data set of the section: its training and test
// rows, and the steps before the classifier that the command takes by
// default for their kind, which steps fits to a set of training rows.
type calibrationData struct {
	name, about string
	train, test *data.Set
	steps       func(train *data.Set) (*data.Model, error)
}

// sparseSteps are the command's steps for sparse rows: each column
// weighed by its inverse document frequency, each row scaled to unit
// length.
func sparseSteps(train *data.Set) (*data.Model, error) {
	idf, err := data.NewIDF(train.X)
	return &data.Model{Scaler: idf, Normalize: true}, err
}

// denseSteps are the command's steps for dense rows: each column
// standardised.
func denseSteps(train *data.Set) (*data.Model, error) {
	sc, err := data.NewScaler(train.X)
	return &data.Model{Scaler: sc}, err
}

// numbered returns a Set of the rows X of classes y, numbered 0 to K-1,
// whose labels are their numbers.
func numbered(X mat.Matrix, y []float64, K int) *data.Set {
	s := &data.Set{X: X, Y: y}
	for k := range K {
		s.Classes = append(s.Classes, strconv.Itoa(k))
	}
	return s
}

// loadCalibrationData returns the data set called name: debian-35, the
// Debian sections of the LIBSVM files of sdir; debian-text, the text of
// tdir, as bench/text builds it; or fashion-10, Fashion-MNIST of fdir.
func loadCalibrationData(name, fdir, sdir, tdir string) (*calibrationData, error) {
	switch name {
	case "debian-35":
		Xtr, ytr, Xte, yte, err := benchsets.DebianAll(sdir)
		if err != nil {
			return nil, fmt.Errorf("%v (the data set is in ../shared/data beside the module; -sparse names its directory)", err)
		}
		return &calibrationData{name: name, about: "the Debian sections, LIBSVM, word presence; each column weighed by its IDF, each row scaled to unit length",
			train: numbered(Xtr, ytr, benchsets.DebianClasses), test: numbered(Xte, yte, benchsets.DebianClasses), steps: sparseSteps}, nil
	case "debian-text":
		h := data.Hashing{NGrams: 2, Bits: 20, NoNorm: true}
		train, err := readText(filepath.Join(tdir, "train.txt"), data.Text{Hashing: h})
		if err != nil {
			return nil, fmt.Errorf("%v (go run ./bench/text -build writes it; -text names its directory)", err)
		}
		test, err := readText(filepath.Join(tdir, "test.txt"), data.Text{Hashing: h, Classes: train.Classes})
		if err != nil {
			return nil, err
		}
		return &calibrationData{name: name, about: "the Debian descriptions, text: words and pairs of words hashed into 2^20 columns; each column weighed by its IDF, each row scaled to unit length",
			train: train, test: test, steps: sparseSteps}, nil
	case "fashion-10":
		Xtr, ytr, err := fashionAll(fdir, "train", 1)
		if err != nil {
			return nil, fmt.Errorf("%v (install the data with: apt-get install dataset-fashion-mnist)", err)
		}
		Xte, yte, err := fashionAll(fdir, "t10k", 1)
		if err != nil {
			return nil, err
		}
		return &calibrationData{name: name, about: "Fashion-MNIST, all 10 classes; each pixel standardised",
			train: numbered(Xtr, ytr, 10), test: numbered(Xte, yte, 10), steps: denseSteps}, nil
	}
	return nil, fmt.Errorf("no calibration data set %q", name)
}

// readText reads the text file at path as f reads it.
func readText(path string, f data.Text) (*data.Set, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s, err := f.Read(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// calibrationResult is one line of calibrate.py's output: the sigmoids
// that scikit-learn fitted, or the measures of a system's probabilities.
type calibrationResult struct {
	A []float64 `json:"a"`
	B []float64 `json:"b"`

	System   string  `json:"system"`
	LogLoss  float64 `json:"log_loss"`
	Brier    float64 `json:"brier"`
	Accuracy float64 `json:"accuracy"`
}

// calibrationFiles are the scores that calibrate.py reads, S a row, with
// the classes of their rows: those to calibrate on, those of the test
// rows, and, for the folds of CalibratedClassifierCV's ensemble, the
// out-of-fold scores and the test scores of each fold's classifier; and
// the Go side's probabilities of the test rows, K a row, by the name of
// each system.
type calibrationFiles struct {
	K           int
	cal, ycal   []float64
	test, ytest []float64
	folds       [][3][]float64 // scores, classes, test scores
	probs       map[string][]float64
}

// runCalibrate writes f and calibrate.py into dir and runs the script with
// python. It returns the sigmoids of scikit-learn, its probabilities of the
// test rows, K a row, the measures of each system if f has folds or
// probabilities, and the versions that the script reports.
func runCalibrate(python, dir string, f *calibrationFiles) (sig calibrationResult, probs []float64, measures []calibrationResult, versions map[string]string, err error) {
	if _, err := exec.LookPath(python); err != nil {
		return sig, nil, nil, nil, missingSklearn(python)
	}
	files := map[string][]float64{"cal.scores": f.cal, "cal.y": f.ycal, "test.scores": f.test, "test.y": f.ytest}
	for i, fold := range f.folds {
		for k, suffix := range []string{"scores", "y", "test"} {
			files[fmt.Sprintf("fold%d.%s", i, suffix)] = fold[k]
		}
	}
	args := []string{filepath.Join(dir, "calibrate.py"), "--dir", dir, "--K", strconv.Itoa(f.K)}
	if len(f.folds) > 0 {
		args = append(args, "--folds", strconv.Itoa(len(f.folds)))
	}
	var names []string
	for _, name := range slices.Sorted(maps.Keys(f.probs)) {
		files[name+".probs"] = f.probs[name]
		names = append(names, name)
	}
	if names != nil {
		args = append(args, "--probs", strings.Join(names, ","))
	}
	for name, v := range files {
		err := create(filepath.Join(dir, name), func(w io.Writer) error { return writeFloats(w, mat.NewDense(len(v), 1, v)) })
		if err != nil {
			return sig, nil, nil, nil, err
		}
	}
	if err := os.WriteFile(args[0], calibrateScript, 0o644); err != nil {
		return sig, nil, nil, nil, err
	}
	res, versions, err := runPython[calibrationResult](python, args)
	if err != nil {
		return sig, nil, nil, nil, err
	}
	if len(res) == 0 || res[0].A == nil {
		return sig, nil, nil, nil, fmt.Errorf("scikit-learn: no sigmoids in the output of calibrate.py")
	}
	probs, err = readFloats(filepath.Join(dir, "sklearn.probs"))
	if err == nil && len(probs) != len(f.ytest)*f.K {
		err = fmt.Errorf("scikit-learn: %d probabilities of %d test rows of %d classes", len(probs), len(f.ytest), f.K)
	}
	return res[0], probs, res[1:], versions, err
}

// sigmoidGradient returns the gradient of the objective of the sigmoid of
// slope A and intercept B, as scikit-learn's _sigmoid_calibration writes
// it, of the scores f of rows of which those of the class are pos: the
// sums over the rows of (t-p)·f and of t-p, p = 1/(1+exp(A·f+B)), t
// Platt's target of the row.
func sigmoidGradient(f []float64, pos []bool, A, B float64) (ga, gb float64) {
	n1 := 0
	for _, c := range pos {
		if c {
			n1++
		}
	}
	hi, lo := (float64(n1)+1)/(float64(n1)+2), 1/(float64(len(f)-n1)+2)
	for i, v := range f {
		t := lo
		if pos[i] {
			t = hi
		}
		d := t - 1/(1+math.Exp(A*v+B))
		ga += d * v
		gb += d
	}
	return ga, gb
}

// column returns the scores of column k of the S scores of each row, and
// whether each row is of the class of the column: the second class for
// one score, class k for more.
func column(scores, y []float64, S, k int) (f []float64, pos []bool) {
	for i, c := range y {
		f = append(f, scores[i*S+k])
		pos = append(pos, (S == 1 && c == 1) || (S > 1 && c == float64(k)))
	}
	return f, pos
}

// calibrationModel returns the classifier of the section with the steps
// of cd fitted to train, fitted to train.
func calibrationModel(cd *calibrationData, train *data.Set) (*data.Model, error) {
	m, err := cd.steps(train)
	if err != nil {
		return nil, err
	}
	labels := make([]float64, len(cd.train.Classes))
	for k := range labels {
		labels[k] = float64(k)
	}
	m.Classifier = &perceptron.Averaged{Epochs: 10, Rand: rand.New(rand.NewPCG(orderSeed, 0)), Labels: labels}
	return m, m.Fit(train)
}

// calibration runs the section on the sets names, with the data of fdir,
// sdir and tdir, python's scikit-learn, and data files in a directory
// under tmp. It returns the number of targets missed and runs failed;
// missing data or a missing scikit-learn skip a set or the peer with a
// message.
func calibration(names []string, fdir, sdir, tdir, python, tmp string, keep bool) int {
	fmt.Printf("== %s: %s, calibrated on the out-of-fold scores of %d stratified folds of the training rows (data.Fold,\n", calibrationSet, calibrationAbout, calibrationFolds)
	fmt.Print(`   seed 1, each fold's steps before the classifier fitted to its training rows), and applied to the test scores of the
   classifier fitted to all the training rows, as train -calibrate makes it: by data.Calibration, the softmax of its zero
   value and the sigmoids against the rest of OneVsRest; and by scikit-learn's CalibratedClassifierCV(method="sigmoid",
   cv="prefit") of an estimator whose decision function is the scores, the computation of CalibratedClassifierCV(ensemble=False)
   on the same scores. CalibratedClassifierCV(ensemble=True), its default, averages the probabilities of the classifiers of
   the folds, each calibrated on its fold's scores.
   target: the softmax's log-loss and Brier score of the test rows at most scikit-learn's, with either ensemble
`)
	failed := 0
	for _, name := range names {
		cd, err := loadCalibrationData(name, fdir, sdir, tdir)
		if err != nil {
			fmt.Printf("   %s: skipped: %v\n", name, err)
			continue
		}
		dir := filepath.Join(tmp, calibrationSet+"-"+name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "compare:", err)
			os.Exit(2)
		}
		failed += calibrateSet(cd, python, dir)
		if !keep {
			os.RemoveAll(dir)
		}
	}
	fmt.Println()
	return failed
}

// calibrateSet runs the section on cd, with its files in dir.
func calibrateSet(cd *calibrationData, python, dir string) int {
	K := len(cd.train.Classes)
	S := 1
	if K > 2 {
		S = K
	}
	// Test rows of labels that the training rows lack have no probability.
	var keep []int
	for i, y := range cd.test.Y {
		if int(y) < K {
			keep = append(keep, i)
		}
	}
	test, err := cd.test.Subset(keep)
	if err != nil {
		fmt.Printf("   !!! %s: %v\n", cd.name, err)
		return 1
	}
	n, _ := cd.train.X.Dims()
	nt, _ := test.X.Dims()
	fmt.Printf("\n   %s: %d training rows, %d test rows (%d of other labels left out), %d classes; %s\n", cd.name, n, nt, len(cd.test.Y)-nt, K, cd.about)
	f := &calibrationFiles{K: K, ytest: test.Y, probs: map[string][]float64{}}
	for i := range calibrationFolds {
		progress("%s: %s: fold %d of %d", calibrationSet, cd.name, i+1, calibrationFolds)
		tr, te, err := data.Fold(cd.train, calibrationFolds, i, 1)
		if err != nil {
			fmt.Printf("   !!! %s: %v\n", cd.name, err)
			return 1
		}
		m, err := calibrationModel(cd, tr)
		var s, st []float64
		if err == nil {
			s, err = m.Score(te.X)
		}
		if err == nil {
			st, err = m.Score(test.X)
		}
		if err != nil {
			fmt.Printf("   !!! %s: fold %d: %v\n", cd.name, i+1, err)
			return 1
		}
		f.cal, f.ycal = append(f.cal, s...), append(f.ycal, te.Y...)
		f.folds = append(f.folds, [3][]float64{s, te.Y, st})
	}
	progress("%s: %s: all the training rows", calibrationSet, cd.name)
	m, err := calibrationModel(cd, cd.train)
	var pred []float64
	if err == nil {
		f.test, err = m.Score(test.X)
	}
	if err == nil {
		pred, err = m.Predict(test.X)
	}
	// The Calibration of each kind, fitted to the out-of-fold scores, of
	// the classifier of all the training rows, as train -calibrate makes
	// it, and its probabilities of the test rows.
	cals := map[string]*data.Calibration{"softmax": {}, "onevsrest": {OneVsRest: true}}
	took := map[string]time.Duration{}
	for _, name := range []string{"softmax", "onevsrest"} {
		if err != nil {
			break
		}
		start := time.Now()
		err = cals[name].Fit(f.cal, f.ycal, K)
		took[name] = time.Since(start)
		if err == nil {
			m.Calibration = cals[name]
			f.probs[name], err = m.Probabilities(test.X)
		}
	}
	if err != nil {
		fmt.Printf("   !!! %s: this library: %v\n", cd.name, err)
		return 1
	}
	sig, probs, measures, versions, err := runCalibrate(python, dir, f)
	var missing errMissing
	if errors.As(err, &missing) {
		fmt.Printf("   %v\n", err)
		return 0
	}
	if err != nil || len(measures) != 4 {
		fmt.Printf("   !!! %s: scikit-learn: %v (%d measures)\n", cd.name, err, len(measures))
		return 1
	}
	byName := map[string]calibrationResult{}
	for _, r := range measures {
		byName[r.System] = r
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "   calibration\tlog-loss\tBrier\taccuracy of the most probable\tfit\t")
	for _, row := range []struct{ key, name string }{
		{"softmax", "this library, Calibration{}: the softmax"},
		{"onevsrest", "this library, Calibration{OneVsRest: true}"},
		{"sklearn", "scikit-learn, ensemble=False"},
		{"sklearn-ensemble", "scikit-learn, ensemble=True"},
	} {
		r := byName[row.key]
		fit := ""
		if d, ok := took[row.key]; ok {
			fit = fmt.Sprintf("%.2f s", d.Seconds())
		}
		fmt.Fprintf(tw, "   %s\t%.6f\t%.6f\t%.2f%%\t%s\t\n", row.name, r.LogLoss, r.Brier, 100*r.Accuracy, fit)
	}
	tw.Flush()
	fmt.Printf("   Predict's accuracy, by the scores: %.2f%%; scikit-learn %s, numpy %s\n", 100*data.Accuracy(test.Y, pred), versions["scikit-learn"], versions["numpy"])
	// How far each side's sigmoids against the rest are from the minimum:
	// the largest element of the gradient at each, as scikit-learn's
	// stopping rule measures it, in the units of the scores.
	ovr := cals["onevsrest"]
	var gOurs, gSk float64
	for k := range S {
		col, pos := column(f.cal, f.ycal, S, k)
		ga, gb := sigmoidGradient(col, pos, ovr.A[k], ovr.B[k])
		gOurs = max(gOurs, math.Abs(ga), math.Abs(gb))
		ga, gb = sigmoidGradient(col, pos, sig.A[k], sig.B[k])
		gSk = max(gSk, math.Abs(ga), math.Abs(gb))
	}
	dp := 0.0
	for i, p := range f.probs["onevsrest"] {
		dp = max(dp, math.Abs(p-probs[i]))
	}
	fmt.Printf("   one against the rest, the sigmoids' largest gradient: this library %.3g, scikit-learn %.3g (its gtol is 1e-5);\n", gOurs, gSk)
	fmt.Printf("   their probabilities differ by at most %.3g\n", dp)
	ours := byName["softmax"]
	met := true
	for _, peer := range []string{"sklearn", "sklearn-ensemble"} {
		r := byName[peer]
		met = met && ours.LogLoss <= r.LogLoss && ours.Brier <= r.Brier
	}
	verdict := fmt.Sprintf("target: the softmax's log-loss %.6f and Brier score %.6f at most scikit-learn's, %.6f and %.6f (ensemble=False), %.6f and %.6f (ensemble=True): ",
		ours.LogLoss, ours.Brier, byName["sklearn"].LogLoss, byName["sklearn"].Brier, byName["sklearn-ensemble"].LogLoss, byName["sklearn-ensemble"].Brier)
	if !met {
		fmt.Printf("   !!! %sMISSED\n", verdict)
		return 1
	}
	fmt.Printf("   %smet\n", verdict)
	return 0
}
