// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/seed5ae3614e/perceptron/bench/timed"
)

// fastTextSetting is a run of fastText's supervised mode: its flags, and
// whether it reads the text preprocessed as fastText's tutorial does.
type fastTextSetting struct {
	args []string
	prep bool
}

func (s fastTextSetting) String() string {
	out := strings.Join(s.args, " ")
	if out == "" {
		out = "defaults"
	}
	if s.prep {
		out += ", preprocessed"
	}
	return out
}

// preprocess is the preprocessing of fastText's tutorial of text
// classification: punctuation set apart from words, and upper case
// lowered, by sed and tr.
const preprocess = `sed -e "s/\([.\!?,'/()]\)/ \1 /g" < "$0" | tr "[:upper:]" "[:lower:]" > "$1"`

// run is a program's run, measured.
type run = timed.Result

// measure runs the program name with args and measures it.
func measure(name string, args ...string) (run, error) { return timed.Run(exec.Command(name, args...)) }

// fastText trains fastText as s says on the training lines of dir, with
// one thread, predicts the test lines, and measures both, in tmp.
func fastText(dir, tmp string, s fastTextSetting) (train, test run, accuracy float64, err error) {
	trainFile, testFile := filepath.Join(dir, "train.txt"), filepath.Join(dir, "test.txt")
	if s.prep {
		for _, f := range []*string{&trainFile, &testFile} {
			out := filepath.Join(tmp, "prep-"+filepath.Base(*f))
			if _, err := os.Stat(out); err != nil {
				if _, err := measure("sh", "-c", preprocess, *f, out); err != nil {
					return train, test, 0, err
				}
			}
			*f = out
		}
	}
	model := filepath.Join(tmp, "model")
	args := append([]string{"supervised", "-input", trainFile, "-output", model, "-thread", "1"}, s.args...)
	if train, err = measure("fasttext", args...); err != nil {
		return train, test, 0, err
	}
	if test, err = measure("fasttext", "predict", model+".bin", testFile); err != nil {
		return train, test, 0, err
	}
	for _, ext := range []string{".bin", ".vec"} {
		os.Remove(model + ext)
	}
	labels, err := firstLabels(testFile)
	if err != nil {
		return train, test, 0, err
	}
	pred := strings.Split(strings.TrimSuffix(string(test.Stdout), "\n"), "\n")
	if len(pred) != len(labels) {
		return train, test, 0, fmt.Errorf("fastText predicted %d lines of %d", len(pred), len(labels))
	}
	right := 0
	for i, p := range pred {
		if p == labels[i] {
			right++
		}
	}
	return train, test, float64(right) / float64(len(labels)), nil
}

// firstLabels returns the first token of each line of the file, its label.
func firstLabels(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var labels []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		label, _, _ := strings.Cut(sc.Text(), " ")
		labels = append(labels, label)
	}
	return labels, sc.Err()
}
