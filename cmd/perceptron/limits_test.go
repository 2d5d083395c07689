// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/seed5ae3614e/perceptron/internal/limit"
)

// The limits of address space of the tests of the command's memory, in
// KiB, as ulimit -v takes them: 3 GB, on a machine of more memory, and 2
// GB, which leaves a Go program some 650 MB, for the data that take long
// to read until they pass it.
const (
	limitKiB = 3000000
	lowKiB   = 2000000
)

// limited runs the command, as main runs it, under ulimit -v kib, and
// checks that it ends within a minute of CPU time, which a loaded machine
// does not stretch, with exit status code, no fatal error of Go's
// runtime, and a stderr of at most 2 kB that holds want.
func limited(t *testing.T, kib, code int, want string, args ...string) {
	t.Helper()
	if !limit.Supported() {
		t.Skip("no limit of address space here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	r, err := limit.Run(time.Minute, kib, nil, []string{"PERCEPTRON_TEST_CHILD=main"}, exe, args...)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	if r.Code != code || r.Fatal() || len(r.Stderr) > 2000 || !bytes.Contains(r.Stderr, []byte(want)) {
		t.Errorf("%q under ulimit -v %d: exit %d after %v of CPU time, %d bytes of stderr: %.600q; want exit %d and %q",
			args, kib, r.Code, r.CPU.Round(time.Millisecond), len(r.Stderr), r.Stderr, code, want)
	}
}

// wideModel writes to path the model file of a Perceptron of two classes
// and d zero weights, as train saves it if command is set, and otherwise
// the library's JSON alone: d·2 bytes of JSON, which the library loads
// into 8·d bytes.
func wideModel(t *testing.T, path string, d int, command bool) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if command {
		fmt.Fprint(f, `{"version":1,"classes":["-1","1"],"classifier":`)
	}
	fmt.Fprint(f, `{"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":[-1,1],"stop":null},`+
		`"model":{"classes":[-1,1],"weights":[`)
	zeros := bytes.Repeat([]byte("0,"), 1<<20)
	for left := d - 1; left > 0; left -= 1 << 20 {
		f.Write(zeros[:2*min(left, 1<<20)])
	}
	fmt.Fprint(f, `0],"biases":[0],"throughOrigin":false},"stats":{"epochs":1,"converged":true,"mistakes":0,"epochMistakes":[0],"epochLoss":[0]}`)
	if command {
		fmt.Fprint(f, "}")
	}
	if _, err := fmt.Fprint(f, "}\n"); err != nil {
		t.Fatal(err)
	}
	return path
}

// Under a limit of address space smaller than what a model or its
// training needs, the command ends with exit status 1 and a short line
// naming the file, within a minute of CPU time, never with a fatal error
// of Go's runtime; what fits in the limit works.
func TestModelsUnderLimit(t *testing.T) {
	if !limit.Supported() {
		t.Skip("no limit of address space here")
	}
	dir := t.TempDir()
	one := writeFile(t, dir, "one.svm", []byte("1 1:1\n"))
	big := bigIndex(t, dir)
	huge := writeFile(t, dir, "huge.svm", []byte("1 1099511627776:1\n-1 1:1\n"))
	m := filepath.Join(dir, "m.json")
	// Training whose weights would take gigabytes or terabytes.
	limited(t, limitKiB, 1, "big.svm: training averaged: a model of 10 classes on 67108864 columns, trained on 10 rows, needs 15.0 GiB of memory", "eval", "-classifier", "averaged", big, big)
	limited(t, limitKiB, 1, "huge.svm: training perceptron: a model of 2 classes on 1099511627776 columns, trained on 2 rows, needs 8.0 TiB", "train", "-classifier", "perceptron", "-idf=false", "-o", m, huge)
	// The weight of each feature, by default for sparse rows, is refused
	// as cleanly.
	limited(t, limitKiB, 1, "huge.svm: weighing 1099511627776 columns needs 8.0 TiB of memory", "train", "-o", m, huge)
	// A kernel perceptron holds its support vectors, not weights.
	limited(t, limitKiB, 0, "", "train", "-classifier", "kernel", "-idf=false", "-o", m, huge)
	// A model of 10⁸ weights, 200 MB of JSON, as train saves it on the
	// LIBSVM lines "1 100000000:1" and "-1 1:1", and the library's model
	// alone, of 50 MB, under 2 GB: each loads into 8 bytes a weight.
	limited(t, limitKiB, 0, "Accuracy = 100% (1/1)", "predict", "-model", wideModel(t, filepath.Join(dir, "wide.json"), 1e8, true), one)
	limited(t, 2000000, 0, "Accuracy = 100% (1/1)", "predict", "-model", wideModel(t, filepath.Join(dir, "bare.json"), 25e6, false), one)
	// Under 1.5 GB, some 250 MB above what Go holds at its start, the
	// weights of the 50 MB model do not fit.
	limited(t, 1500000, 1, "bare.json: classifier: saved Perceptron's model: weights: an array of 25000000 numbers needs 190.7 MiB of memory", "predict", "-model", filepath.Join(dir, "bare.json"), one)
	// Text hashed into 2^30 columns: the weights of the features, or of
	// the classifier, do not fit; a kernel perceptron, which holds its
	// support vectors, does, and predicts text hashed so.
	text := writeFile(t, dir, "t.txt", []byte("__label__a one two three\n__label__b four five\n__label__c six seven eight\n"))
	limited(t, limitKiB, 1, "t.txt: weighing 1073741824 columns needs 8.0 GiB of memory", "train", "-bits", "30", "-o", m, text)
	limited(t, limitKiB, 1, "t.txt: training averaged: a model of 3 classes on 1073741824 columns, trained on 3 rows, needs 72.0 GiB of memory", "train", "-bits", "30", "-idf=false", "-o", m, text)
	limited(t, limitKiB, 0, "", "train", "-bits", "30", "-idf=false", "-classifier", "kernel", "-o", m, text)
	limited(t, limitKiB, 0, "Accuracy = ", "predict", "-model", m, text)
	// A classifier that the library does not save so.
	ovr := writeFile(t, dir, "ovr.json", []byte(`{"type":"OneVsRest","version":1,"settings":{},"model":{}}`))
	limited(t, limitKiB, 1, "ovr.json: classifier: saved OneVsRest", "predict", "-model", ovr, one)
	// A kernel of 2⁴⁰ features scores sparse rows in proportion to their
	// non-zeros.
	if code, _, errs := runCmd("train", "-classifier", "kernel", "-idf=false", "-normalize=false", "-o", m, writeFile(t, dir, "k.svm", []byte("1 1:1\n-1 2:1\n"))); code != 0 {
		t.Fatal(errs)
	}
	b, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	kb := bytes.ReplaceAll(b, []byte(`"features":2,`), []byte(`"features":1099511627776,`))
	kb = bytes.Replace(kb, []byte(`"cols":2,`), []byte(`"cols":1099511627776,`), 1)
	limited(t, limitKiB, 0, "Accuracy = 100% (1/1)", "predict", "-model", writeFile(t, dir, "kbig.json", kb), one)
}

// Data files that claim more rows or pixels than the memory holds, in a
// few hundred kilobytes of gzip, read whole (-stream=false), end in exit
// status 1 and a line naming the file and its line, as the readers check
// what they will hold before they hold it. (By default, the command reads
// a file of rows that do not fit a block at a time, and trains on it:
// TestTrainStreamUnderLimit.)
func TestDataBombs(t *testing.T) {
	if !limit.Supported() {
		t.Skip("no limit of address space here")
	}
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	// 24 million short lines of LIBSVM, and of CSV.
	svm := gzipFile(t, filepath.Join(dir, "lines.svm.gz"), nil, bytes.Repeat([]byte("1 1:1\n-1 2:1\n"), 1<<19), 24, nil)
	csv := gzipFile(t, filepath.Join(dir, "lines.csv.gz"), nil, bytes.Repeat([]byte("1,1\n2,0\n"), 1<<19), 24, nil)
	// 24 million short lines of text, and a line of text just over the
	// limit of 16 MiB.
	text := gzipFile(t, filepath.Join(dir, "lines.txt.gz"), nil, bytes.Repeat([]byte("__label__a one two\n__label__b three four five\n"), 1<<19), 24, nil)
	longText := gzipFile(t, filepath.Join(dir, "long.txt.gz"), []byte("__label__a"), bytes.Repeat([]byte(" word"), 1<<20), 4, []byte("\n"))
	// A CSV line just over the readers' limit of 16 MiB.
	long := gzipFile(t, filepath.Join(dir, "long.csv.gz"), nil, bytes.Repeat([]byte("1,"), 1<<20), 8, []byte("1\n"))
	// Two images of 2²⁷ pixels each, all there, and their labels.
	header := make([]byte, 16)
	binary.BigEndian.PutUint32(header, 0x803)
	binary.BigEndian.PutUint32(header[4:], 2)
	binary.BigEndian.PutUint32(header[8:], 1<<13)
	binary.BigEndian.PutUint32(header[12:], 1<<14)
	images := gzipFile(t, filepath.Join(dir, "bomb-images-idx3-ubyte.gz"), header, make([]byte, 1<<20), 256, nil)
	labels := writeFile(t, dir, "bomb-labels-idx1-ubyte", idxFile(0x08, []int{2}, []byte{0, 1}))
	for _, c := range []struct {
		file, want string
		kib        int
	}{
		{svm, "lines.svm.gz: line ", lowKiB},
		{csv, "lines.csv.gz: line ", lowKiB},
		{long, "long.csv.gz: line 1: longer than 16777216 bytes", limitKiB},
		{text, "lines.txt.gz: line ", lowKiB},
		{longText, "long.txt.gz: line 1: longer than 16777216 bytes", limitKiB},
		{images + "," + labels, "bomb-images-idx3-ubyte.gz", lowKiB},
	} {
		limited(t, c.kib, 1, c.want, "train", "-stream=false", "-o", m, c.file)
	}
}

// Under a limit of address space of 1 GB, train reads a file of 1.1 GiB
// of LIBSVM text, whose rows would take 4 GB in memory, a block at a time,
// as it tells by itself from the size that the file's gzip end gives, and
// trains on it, in three passes: for the weights of the features, for an
// epoch, and for the training accuracy. (bench/stress trains on a file of
// three times the limit, and predicts it.)
func TestTrainStreamUnderLimit(t *testing.T) {
	if !limit.Supported() {
		t.Skip("no limit of address space here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "big.svm.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// Two classes, each of its 60 features.
	var block bytes.Buffer
	for range 1 << 10 {
		block.WriteString("1")
		for j := 1; j <= 60; j++ {
			fmt.Fprintf(&block, " %d:1", j)
		}
		block.WriteString("\n-1")
		for j := 61; j <= 120; j++ {
			fmt.Fprintf(&block, " %d:1", j)
		}
		block.WriteString("\n")
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	rows := 0
	for size := 0; size < 1100<<20; size += block.Len() {
		zw.Write(block.Bytes())
		rows += 2 << 10
	}
	if err := errors.Join(zw.Close(), f.Close()); err != nil {
		t.Fatal(err)
	}
	args := []string{"train", "-classifier", "perceptron", "-epochs", "1", "-no-stop", "-o", filepath.Join(dir, "m.json"), path}
	r, err := limit.Run(5*time.Minute, 1000000, nil, []string{"PERCEPTRON_TEST_CHILD=main"}, exe, args...)
	if err != nil {
		t.Fatal(err)
	}
	if r.Code != 0 || r.Fatal() || !bytes.Contains(r.Stderr, []byte("reading them a block at a time")) || !bytes.Contains(r.Stdout, fmt.Appendf(nil, "%d rows", rows)) {
		t.Errorf("%q under ulimit -v 1000000: exit %d after %v: %.600s%.600s", args, r.Code, r.Elapsed.Round(time.Millisecond), r.Stdout, r.Stderr)
	}
}
