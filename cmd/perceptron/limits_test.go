// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
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

// Under a limit of address space of 1 GB, train reads a file of three
// times as many bytes of LIBSVM text, gzipped, whose rows would take 2.3
// GB in memory, a block at a time, as it tells by itself from the size
// that the file's gzip end gives, and trains on it, reading it again for
// an epoch and for the training accuracy; predict then labels its rows, in
// memory independent of their number. Values of 15 decimals, whose
// parsing the bytes of the file pay for, keep each pass to some 10 s of
// CPU time. (bench/stress does the same with a file written whole.)
func TestTrainStreamUnderLimit(t *testing.T) {
	if !limit.Supported() {
		t.Skip("no limit of address space here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	const kib = streamLimitKiB
	dir := t.TempDir()
	path := filepath.Join(dir, "big.svm.gz")
	// Two classes, each of its 60 features, and a row of one class with
	// the features of the other among every 24, on which the perceptron
	// errs: 24 rows of 29 KiB, as many times as make the block, which
	// deflate takes as repeats of what comes 29 KiB before.
	var unit bytes.Buffer
	x := uint64(1)
	for i := range 24 {
		label, lo := "1", 1
		if i%2 == 1 {
			label, lo = "-1", 61
		}
		if i == 23 {
			lo = 62 - lo
		}
		unit.WriteString(label)
		for j := lo; j < lo+60; j++ {
			x = x*6364136223846793005 + 1442695040888963407
			fmt.Fprintf(&unit, " %d:%.15f", j, 0.5+float64(x>>11)/(1<<54))
		}
		unit.WriteString("\n")
	}
	block := bytes.NewBuffer(bytes.Repeat(unit.Bytes(), 48))
	n := 3 * 1024 * kib / block.Len()
	if err := gzipRepeated(path, block.Bytes(), n); err != nil {
		t.Fatal(err)
	}
	rows := n * 24 * 48
	model := filepath.Join(dir, "m.bin")
	for _, c := range []struct {
		args []string
		out  string
	}{
		{[]string{"train", "-classifier", "perceptron", "-epochs", "1", "-no-stop", "-o", model, path}, fmt.Sprintf("%d rows", rows)},
		{[]string{"predict", "-model", model, "-o", filepath.Join(dir, "pred.txt"), path}, ""},
	} {
		r, err := limit.Run(5*time.Minute, kib, nil, []string{"PERCEPTRON_TEST_CHILD=main"}, exe, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		if r.Code != 0 || r.Fatal() || !bytes.Contains(r.Stdout, []byte(c.out)) || c.args[0] == "train" && !bytes.Contains(r.Stderr, []byte("reading them a block at a time")) {
			t.Fatalf("%q under ulimit -v %d: exit %d after %v of CPU time: %.600s%.600s", c.args, kib, r.Code, r.CPU.Round(time.Millisecond), r.Stdout, r.Stderr)
		}
	}
	// The classes written: one a row.
	f, err := os.Open(filepath.Join(dir, "pred.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := 0
	for sc := bufio.NewScanner(f); sc.Scan(); lines++ {
	}
	if lines != rows {
		t.Errorf("predict wrote %d lines for %d rows", lines, rows)
	}
}

// streamLimitKiB is the limit of address space of TestTrainStreamUnderLimit.
const streamLimitKiB = 1000000

// gzipRepeated writes to path a gzip file of one member, whose end tells
// the size of its text, of n copies of block, of at least 32 KiB,
// compressed once: after the first copy, each is the compressed block that
// refers to the window of the copy before it, as a deflate stream may.
func gzipRepeated(path string, block []byte, n int) error {
	var first, next, end bytes.Buffer
	for _, c := range []struct {
		buf  *bytes.Buffer
		dict []byte
	}{{&first, nil}, {&next, block[len(block)-32<<10:]}} {
		// Level 2 or more: BestSpeed leaves a dictionary out.
		zw, err := flate.NewWriterDict(c.buf, flate.DefaultCompression, c.dict)
		if err != nil {
			return err
		}
		zw.Write(block)
		zw.Flush() // ends on a byte, the stream not final
	}
	zw, _ := flate.NewWriter(&end, flate.DefaultCompression)
	zw.Close() // a final block of nothing
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	crc := uint32(0)
	for k := range n {
		crc = crc32.Update(crc, crc32.IEEETable, block)
		if k == 0 {
			w.Write(first.Bytes())
		} else {
			w.Write(next.Bytes())
		}
	}
	w.Write(end.Bytes())
	w.Write(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, crc), uint32(n*len(block))))
	return errors.Join(w.Flush(), f.Close())
}
