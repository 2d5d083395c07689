// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

//go:embed sklearn_fit.py
var sklearnScript []byte

// errMissing reports that a peer is not installed; its message says how to
// install it.
type errMissing struct{ what, install string }

func (e errMissing) Error() string {
	return fmt.Sprintf("%s is not installed: skipped (install it with: %s)", e.what, e.install)
}

var missingWeka = errMissing{"Weka", "apt-get install weka"}

func missingSklearn(python string) errMissing {
	return errMissing{"scikit-learn (for " + python + ")", "apt-get install python3-sklearn, and -python /usr/bin/python3"}
}

// sklearnFit is one fit that the script reports, in the order of the fits
// asked for.
type sklearnFit struct {
	Seconds  []float64 `json:"seconds"`
	NIter    int       `json:"n_iter"`
	Train    float64   `json:"train"`
	Test     float64   `json:"test"`
	Warnings []string  `json:"warnings"`
}

// fastest returns the shortest of the fit times.
func (f *sklearnFit) fastest() time.Duration {
	return time.Duration(slices.Min(f.Seconds) * float64(time.Second))
}

// sklearnFiles writes the data set and the script into dir: the rows as
// raw float64, or if they are sparse as the three slices of a CSR matrix,
// and the weights of the training rows, if any.
func sklearnFiles(dir string, ds *dataSet) error {
	files := map[string]*mat.Dense{
		"train.y": mat.NewDense(len(ds.ytrain), 1, ds.ytrain),
		"test.y":  mat.NewDense(len(ds.ytest), 1, ds.ytest),
	}
	if ds.wtrain != nil {
		files["train.w"] = mat.NewDense(len(ds.wtrain), 1, ds.wtrain)
	}
	if ds.sparse() {
		for name, X := range map[string]mat.Matrix{"train": ds.train, "test": ds.test} {
			if err := writeCSR(filepath.Join(dir, name), X.(*perceptron.CSR)); err != nil {
				return err
			}
		}
	} else {
		files["train.x"], files["test.x"] = ds.dense()
	}
	for name, X := range files {
		err := create(filepath.Join(dir, name), func(w io.Writer) error { return writeFloats(w, X) })
		if err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "sklearn_fit.py"), sklearnScript, 0o644)
}

// runSklearn runs the script on the data that sklearnFiles wrote into dir,
// for the fits given as KEY:EPOCHS:REPEAT. It returns the fits in order and
// the versions that the script reports.
func runSklearn(python, dir string, ds *dataSet, fits []string) ([]sklearnFit, map[string]string, error) {
	if _, err := exec.LookPath(python); err != nil {
		return nil, nil, missingSklearn(python)
	}
	n, d := ds.train.Dims()
	nt, _ := ds.test.Dims()
	args := []string{filepath.Join(dir, "sklearn_fit.py"), "--dir", dir,
		"--n", strconv.Itoa(n), "--ntest", strconv.Itoa(nt), "--d", strconv.Itoa(d)}
	if ds.sparse() {
		args = append(args, "--csr")
	}
	if ds.wtrain != nil {
		args = append(args, "--weights")
	}
	res, versions, err := runPython[sklearnFit](python, append(args, fits...))
	if err != nil {
		return nil, nil, err
	}
	if len(res) != len(fits) {
		return nil, nil, fmt.Errorf("scikit-learn: %d results for %d fits", len(res), len(fits))
	}
	return res, versions, nil
}

// runPython runs python with args, a script of this harness and its
// arguments, and decodes its output: one JSON object a line, each a result
// of type T but for one line with the member "versions". Exit status 3
// means that scikit-learn is missing.
func runPython[T any](python string, args []string) ([]T, map[string]string, error) {
	cmd := exec.Command(python, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 3 {
		return nil, nil, missingSklearn(python)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("scikit-learn: %v\n%s", err, stderr.Bytes())
	}
	var (
		res      []T
		versions map[string]string
	)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var v struct {
			Versions map[string]string `json:"versions"`
		}
		var r T
		err := json.Unmarshal(sc.Bytes(), &v)
		if err == nil && v.Versions == nil {
			err = json.Unmarshal(sc.Bytes(), &r)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("scikit-learn: bad output line %q: %v", sc.Text(), err)
		}
		if v.Versions != nil {
			versions = v.Versions
			continue
		}
		res = append(res, r)
	}
	return res, versions, sc.Err()
}

// wekaFit is what Weka reports of one run of VotedPerceptron.
type wekaFit struct {
	build       time.Duration // "Time taken to build model"
	train, test classified
}

// classified is the number of rows of a set that a model classifies
// right, of its rows.
type classified struct{ right, rows int }

// accuracy returns the fraction of the rows classified right.
func (c classified) accuracy() float64 { return float64(c.right) / float64(c.rows) }

// runWeka runs Weka's VotedPerceptron with exponent e for one iteration on
// the ARFF files train and test.
func runWeka(jar, train, test string, e int) (*wekaFit, error) {
	if _, err := os.Stat(jar); err != nil {
		return nil, missingWeka
	}
	if _, err := exec.LookPath("java"); err != nil {
		return nil, missingWeka
	}
	cmd := exec.Command("java", "-cp", jar, "weka.classifiers.functions.VotedPerceptron",
		"-t", train, "-T", test, "-I", "1", "-E", strconv.Itoa(e), "-S", strconv.Itoa(wekaSeed))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("weka: %v\n%s", err, stderr.Bytes())
	}
	return parseWeka(out)
}

var (
	wekaBuild   = regexp.MustCompile(`Time taken to build model: ([0-9.]+) seconds`)
	wekaCorrect = regexp.MustCompile(`Correctly Classified Instances\s+([0-9]+)`)
	wekaTotal   = regexp.MustCompile(`Total Number of Instances\s+([0-9]+)`)
)

// parseWeka reads the build time and the training and test accuracy from
// the output of a Weka classifier run with -t and -T.
func parseWeka(out []byte) (*wekaFit, error) {
	m := wekaBuild.FindSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("weka: no build time in its output:\n%s", out)
	}
	sec, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		return nil, fmt.Errorf("weka: build time %q: %v", m[1], err)
	}
	f := &wekaFit{build: time.Duration(sec * float64(time.Second))}
	for _, sec := range []struct {
		head string
		c    *classified
	}{
		{"=== Error on training data ===", &f.train},
		{"=== Error on test data ===", &f.test},
	} {
		_, part, ok := bytes.Cut(out, []byte(sec.head))
		if !ok {
			return nil, fmt.Errorf("weka: no %q in its output", sec.head)
		}
		if next := bytes.Index(part, []byte("=== Error on")); next >= 0 {
			part = part[:next]
		}
		c, t := wekaCorrect.FindSubmatch(part), wekaTotal.FindSubmatch(part)
		if c == nil || t == nil {
			return nil, fmt.Errorf("weka: no instance counts after %q", sec.head)
		}
		right, _ := strconv.Atoi(string(c[1]))
		rows, _ := strconv.Atoi(string(t[1]))
		if rows == 0 {
			return nil, fmt.Errorf("weka: no instances after %q", sec.head)
		}
		*sec.c = classified{right, rows}
	}
	return f, nil
}

// wekaVersion returns the version of the Weka jar, from its file name,
// which Debian links to the versioned jar.
func wekaVersion(jar string) string {
	p, err := filepath.EvalSymlinks(jar)
	if err != nil {
		return "?"
	}
	return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "weka-"), ".jar")
}
