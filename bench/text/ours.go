// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// setting is a run of the averaged perceptron on hashed n-grams: its
// Hashing, its epochs and Stop, and the seed of its shuffles.
type setting struct {
	Hashing data.Hashing
	Epochs  int
	Stop    *perceptron.Stop
	Seed    uint64
}

func (s setting) String() string {
	h := s.Hashing
	out := fmt.Sprintf("n-grams %d, bits %d, %s", cmp.Or(h.NGrams, 1), cmp.Or(h.Bits, 20), cmp.Or(h.Values, "count"))
	if h.Signed {
		out += ", signed"
	}
	if !h.NoNorm {
		out += ", L2"
	}
	out += fmt.Sprintf(", %d epochs", s.Epochs)
	if s.Stop != nil {
		var fields []string
		if s.Stop.Tol != 0 {
			fields = append(fields, fmt.Sprintf("Tol: %g", s.Stop.Tol))
		}
		if s.Stop.NoChange != 0 {
			fields = append(fields, fmt.Sprintf("NoChange: %d", s.Stop.NoChange))
		}
		if s.Stop.Validation != 0 {
			fields = append(fields, fmt.Sprintf("Validation: %g", s.Stop.Validation))
		}
		out = fmt.Sprintf("%s, Stop{%s} (at most %d epochs)", strings.TrimSuffix(out, fmt.Sprintf(", %d epochs", s.Epochs)), strings.Join(fields, ", "), s.Epochs)
	}
	return out
}

// flags returns the setting as the flags of the child that runs it.
func (s setting) flags() []string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return []string{"-child", string(b)}
}

// childResult is what the child that runs a setting writes: the accuracy
// on the test lines, and the wall and processor time of training, reading
// the training lines included, and of testing, reading the test lines
// included.
type childResult struct {
	Accuracy            float64
	Epochs              int
	TrainWall, TrainCPU time.Duration
	TestWall, TestCPU   time.Duration
}

// child runs the setting of the JSON text arg on one core and writes its
// childResult to the standard output. With valid, it trains on four
// fifths of the training lines and tests on the rest, every fifth line.
func child(arg string, dir string, valid bool) error {
	runtime.GOMAXPROCS(1)
	var s setting
	if err := json.Unmarshal([]byte(arg), &s); err != nil {
		return err
	}
	trainIn, testIn, err := inputs(dir, valid)
	if err != nil {
		return err
	}
	defer trainIn.Close()
	defer testIn.Close()
	var r childResult
	start, cpu := time.Now(), cpuTime()
	train, err := data.Text{Hashing: s.Hashing}.Read(trainIn)
	if err != nil {
		return err
	}
	clf := perceptron.Averaged{Epochs: s.Epochs, Rand: rand.New(rand.NewPCG(s.Seed, 1)), Stop: s.Stop}
	if err := clf.Fit(train.X, train.Y); err != nil {
		return err
	}
	r.TrainWall, r.TrainCPU = time.Since(start), cpuTime()-cpu
	r.Epochs = clf.Stats().Epochs

	start, cpu = time.Now(), cpuTime()
	test, err := data.Text{Hashing: s.Hashing, Classes: train.Classes}.Read(testIn)
	if err != nil {
		return err
	}
	pred := clf.PredictRows(nil, test.X)
	r.TestWall, r.TestCPU = time.Since(start), cpuTime()-cpu
	right := 0
	for i, p := range pred {
		if p == test.Y[i] {
			right++
		}
	}
	r.Accuracy = float64(right) / float64(len(pred))
	return json.NewEncoder(os.Stdout).Encode(r)
}

// inputs returns the training and the test lines: the files of dir, or
// with valid, four fifths of the training file and the rest of it.
func inputs(dir string, valid bool) (train, test io.ReadCloser, err error) {
	trainFile, testFile := filepath.Join(dir, "train.txt"), filepath.Join(dir, "test.txt")
	if !valid {
		if train, err = os.Open(trainFile); err != nil {
			return nil, nil, err
		}
		if test, err = os.Open(testFile); err != nil {
			train.Close()
			return nil, nil, err
		}
		return train, test, nil
	}
	b, err := os.ReadFile(trainFile)
	if err != nil {
		return nil, nil, err
	}
	var fit, held strings.Builder
	k := 0
	for line := range strings.Lines(string(b)) {
		if k%5 == 4 {
			held.WriteString(line)
		} else {
			fit.WriteString(line)
		}
		k++
	}
	return io.NopCloser(strings.NewReader(fit.String())), io.NopCloser(strings.NewReader(held.String())), nil
}

// childFlag is the flag of the child that runs a setting.
var childFlag = flag.String("child", "", "run the setting of this JSON text, as the command does in a child (internal)")
