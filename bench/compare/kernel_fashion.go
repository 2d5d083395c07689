// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	_ "embed"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/seed5ae3614e/perceptron"
)

// kernelFashionSet is the name by which -sets selects the section that
// sets this library's multiclass Kernel against scikit-learn's SVC on all
// ten classes of Fashion-MNIST, against a target. It is not in
// the default sets: SVC's fit takes many minutes.
const kernelFashionSet = "fashion10-kernel"

// The target: the Kernel's test accuracy is at least targetAccuracy and
// at least SVC's, and scikit-learn's SVC takes at least targetRatio times
// as long to fit, in the same run (issue 35).
const (
	targetAccuracy = 0.885
	targetRatio    = 5
)

// kernelFashionAbout describes the model that kernelFashionModel returns.
const kernelFashionAbout = "Kernel{Func: RBF{Gamma: 0.03}, Epochs: 3, Rand: rand.New(rand.NewPCG(1, 1)), Prediction: PredictAveraged}"

// kernelFashionModel returns the Kernel that the section fits: the RBF
// kernel with about three times the gamma of SVC's gamma="scale" (0.0102
// on these data), three epochs in a fresh random order each, the averaged
// rule.
func kernelFashionModel() *perceptron.Kernel {
	return &perceptron.Kernel{
		Func:       perceptron.RBF{Gamma: 0.03},
		Epochs:     3,
		Rand:       rand.New(rand.NewPCG(1, 1)),
		Prediction: perceptron.PredictAveraged,
	}
}

//go:embed kernel_fashion.py
var kernelFashionScript []byte

// svcFit is what kernel_fashion.py reports of its fit.
type svcFit struct {
	Seconds float64 `json:"seconds"`
	Test    float64 `json:"test"`
	Support int     `json:"support"`
	Gamma   float64 `json:"gamma"`
}

// loadFashion10 returns every Fashion-MNIST image of dir, pixels scaled
// to [0, 1], labelled with its class 0 to 9.
func loadFashion10(dir string) (*dataSet, error) {
	Xtr, ytr, err := fashionAll(dir, "train", 255)
	if err != nil {
		return nil, err
	}
	Xte, yte, err := fashionAll(dir, "t10k", 255)
	if err != nil {
		return nil, err
	}
	return &dataSet{
		name:  kernelFashionSet,
		about: "Fashion-MNIST, all ten classes, pixels scaled to [0, 1]",
		train: Xtr, ytrain: ytr, test: Xte, ytest: yte,
	}, nil
}

// kernelFashion runs the section: it fits the Kernel and SVC on the data
// of fdir, through python, with the data files in a directory under tmp,
// prints their fit times, test accuracies and the ratio of the times, and
// whether they meet the target. It returns 1 if the target is missed or
// SVC fails to run, and 0 otherwise; missing data or a missing
// scikit-learn skip the section or SVC with a message.
func kernelFashion(fdir, python, tmp string, keep bool) int {
	ds, err := loadFashion10(fdir)
	if err != nil {
		fmt.Printf("== %s: skipped: %v (install the data with: apt-get install dataset-fashion-mnist)\n\n", kernelFashionSet, err)
		return 0
	}
	n, d := ds.train.Dims()
	nt, _ := ds.test.Dims()
	fmt.Printf("== %s: %d training rows, %d test rows, %d features, 10 classes\n   %s\n", ds.name, n, nt, d, ds.about)
	fmt.Printf("   target: this library's Kernel reaches %.1f%% test accuracy, and no less than SVC, in at most 1/%d of SVC's fit time\n",
		100*targetAccuracy, targetRatio)

	progress("%s: this library's %s", ds.name, kernelFashionAbout)
	k := kernelFashionModel()
	runtime.GC()
	start := time.Now()
	err = k.Fit(ds.train, ds.ytrain)
	ours := time.Since(start)
	if err != nil {
		fmt.Printf("   !!! this library: %v\n\n", err)
		return 1
	}
	oursTest := accuracy(k.PredictRows(nil, ds.test), ds.ytest)
	st := k.Stats()

	dir := filepath.Join(tmp, ds.name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(2)
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	progress("%s: scikit-learn SVC(kernel='rbf', C=1, gamma='scale'): this takes many minutes", ds.name)
	svc, versions, err := runSVC(python, dir, ds)

	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "system\tmodel\tfit s\tSVC/ours\ttest %\t")
	fmt.Fprintf(tw, "this library\t%s\t%.1f\t\t%.2f\t\n", kernelFashionAbout, ours.Seconds(), 100*oursTest)
	if err == nil {
		ratio := svc.Seconds / ours.Seconds()
		fmt.Fprintf(tw, "scikit-learn\tSVC(kernel='rbf', C=1, gamma='scale')\t%.1f\t%sx\t%.2f\t\n",
			svc.Seconds, strconv.FormatFloat(ratio, 'f', decimals(ratio), 64), 100*svc.Test)
	}
	tw.Flush()
	fmt.Printf("   this library: %d epochs, mistakes per epoch %v, %d support vectors, GOMAXPROCS=%d; SVC uses one core\n",
		st.Epochs, st.EpochMistakes, supportVectors(k), runtime.GOMAXPROCS(0))
	if err != nil {
		var missing errMissing
		if errors.As(err, &missing) {
			fmt.Printf("   %v\n   target: not measured\n\n", err)
			return 0
		}
		fmt.Printf("   !!! %v\n   target: not measured\n\n", err)
		return 1
	}
	fmt.Printf("   scikit-learn %s, numpy %s; SVC: %d support vectors, gamma %.5g\n",
		versions["scikit-learn"], versions["numpy"], svc.Support, svc.Gamma)
	verdict, met := kernelTarget(oursTest, svc.Test, ours.Seconds(), svc.Seconds)
	fmt.Printf("   %s\n\n", verdict)
	if !met {
		return 1
	}
	return 0
}

// kernelTarget returns the line that says whether a Kernel of test
// accuracy acc, fitted in ours seconds where SVC took svc to reach
// svcAcc, meets the target, and whether it does.
func kernelTarget(acc, svcAcc, ours, svc float64) (string, bool) {
	ratio := svc / ours
	want := max(targetAccuracy, svcAcc)
	met := acc >= want && ratio >= targetRatio
	line := fmt.Sprintf("target: Kernel: test %.2f%% (want >= %.2f%%), SVC/ours fit time %.2fx (want >= %d): ",
		100*acc, 100*want, ratio, targetRatio)
	if met {
		return line + "met", true
	}
	return "!!! " + line + "MISSED", false
}

// supportVectors returns the number of support vectors of k.
func supportVectors(k *perceptron.Kernel) int {
	sv, _, _ := k.SupportVectors()
	r, _ := sv.Dims()
	return r
}

// runSVC writes ds and kernel_fashion.py into dir and runs the script with
// python. It returns the fit and the versions that the script reports.
func runSVC(python, dir string, ds *dataSet) (*svcFit, map[string]string, error) {
	if _, err := exec.LookPath(python); err != nil {
		return nil, nil, missingSklearn(python)
	}
	if err := sklearnFiles(dir, ds); err != nil {
		return nil, nil, fmt.Errorf("scikit-learn: writing the data: %v", err)
	}
	script := filepath.Join(dir, "kernel_fashion.py")
	if err := os.WriteFile(script, kernelFashionScript, 0o644); err != nil {
		return nil, nil, fmt.Errorf("scikit-learn: %v", err)
	}
	n, d := ds.train.Dims()
	nt, _ := ds.test.Dims()
	fits, versions, err := runPython[svcFit](python, []string{script, "--dir", dir,
		"--n", strconv.Itoa(n), "--ntest", strconv.Itoa(nt), "--d", strconv.Itoa(d)})
	if err != nil {
		return nil, nil, err
	}
	if len(fits) != 1 {
		return nil, nil, fmt.Errorf("scikit-learn: %d fits in the output, want 1", len(fits))
	}
	return &fits[0], versions, nil
}
