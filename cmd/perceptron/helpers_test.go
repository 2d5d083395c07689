// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/seed5ae3614e/perceptron"
)

// TestMain runs the command itself, as main does, in a child process
// that a test starts with PERCEPTRON_TEST_CHILD set: to "main"; to
// "pause", which stops once a temporary file is made, for a signal; or to
// "training", which says on stderr when training starts, and, when a
// signal is caught, the CPU time the process has taken (cpuTime).
func TestMain(m *testing.M) {
	switch os.Getenv("PERCEPTRON_TEST_CHILD") {
	case "":
		os.Exit(m.Run())
	case "pause":
		afterTemp = func(name string) {
			fmt.Fprintln(os.Stderr, "temporary file "+name)
			select {}
		}
	case "training":
		beforeTraining = func() { fmt.Fprintln(os.Stderr, "training") }
		caughtSignal = func(os.Signal) {
			var u syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &u)
			fmt.Fprintf(os.Stderr, "caught after %d ns of CPU\n", cpuTime(&u))
		}
	}
	main()
}

// cpuTime returns the CPU time, of the user and of the system, of u.
func cpuTime(u *syscall.Rusage) time.Duration {
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// runCmd runs the command with args and returns its exit code and output.
func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// runBoth runs the command with args writing stdout and stderr to one
// buffer, so that their order shows.
func runBoth(args ...string) (code int, both string) {
	var b bytes.Buffer
	code = run(args, &b, &b)
	return code, b.String()
}

// tableRow is a row of the table that demo, train and eval print.
type tableRow struct {
	name, kernel, rule, ended string
	epochs, mistakes          int
	train, test               string
}

// parseTable returns the rows of the table in out, after its header.
func parseTable(t *testing.T, out string) []tableRow {
	t.Helper()
	lines := strings.Split(out, "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "classifier ") })
	if start < 0 {
		t.Fatalf("no table in\n%s", out)
	}
	head := strings.Fields(lines[start])
	want := []string{"classifier", "kernel", "prediction", "epochs", "ended", "mistakes", "train", "acc", "test", "acc", "fit", "time"}
	// The training accuracy is a column where some classifier measured it.
	train := slices.Equal(head, want)
	if without := slices.Delete(slices.Clone(want), 6, 8); !train && !slices.Equal(head, without) {
		t.Fatalf("table header %q, want %q or %q", head, want, without)
	}
	var rows []tableRow
	for _, l := range lines[start+1:] {
		// Cells are apart by two spaces at least; a kernel's has one.
		var f []string
		for _, c := range strings.Split(l, "  ") {
			if c = strings.TrimSpace(c); c != "" {
				f = append(f, c)
			}
		}
		if !train && len(f) == 8 {
			f = slices.Insert(f, 6, "")
		}
		if len(f) != 9 {
			break
		}
		if utf8.RuneCountInString(l) != utf8.RuneCountInString(lines[start]) {
			t.Errorf("table row %q is not as wide as the header %q", l, lines[start])
		}
		r := tableRow{name: f[0], kernel: f[1], rule: f[2], ended: f[4], train: f[6], test: f[7]}
		var err1, err2 error
		r.epochs, err1 = strconv.Atoi(f[3])
		r.mistakes, err2 = strconv.Atoi(f[5])
		if err1 != nil || err2 != nil {
			t.Fatalf("table row %q", l)
		}
		rows = append(rows, r)
	}
	return rows
}

func writeFile(t *testing.T, dir, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// idxFile returns an IDX file of element type typ with dimensions dims.
func idxFile(typ byte, dims []int, data []byte) []byte {
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, uint32(d))
	}
	return append(b, data...)
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// randomData returns n rows of d features on varied scales, labelled by a
// random hyperplane with some labels flipped.
func randomData(rnd *rand.Rand, n, d int) (*mat.Dense, []float64) {
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	w := make([]float64, d)
	for j := range w {
		w[j] = rnd.NormFloat64()
	}
	for i := range n {
		s := 0.0
		for j := range d {
			v := rnd.NormFloat64()
			X.Set(i, j, 3+v*math.Pow(10, float64(j%5-2)))
			s += w[j] * v
		}
		y[i] = 1
		if s < 0 {
			y[i] = -1
		}
		if rnd.IntN(10) == 0 {
			y[i] = -y[i]
		}
	}
	return X, y
}

// classData returns n rows of d features in k classes around k random
// centres, and the class of each.
func classData(rnd *rand.Rand, n, d, k int) (*mat.Dense, []int) {
	centres := mat.NewDense(k, d, nil)
	for c := range k {
		for j := range d {
			centres.Set(c, j, 3*rnd.NormFloat64())
		}
	}
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := range n {
		y[i] = i % k
		for j := range d {
			X.Set(i, j, centres.At(y[i], j)+rnd.NormFloat64())
		}
	}
	return X, y
}

// csvNamed writes X as CSV, with labels in column lc (from 0), or no
// label if lc is negative, and a header if header is set.
func csvNamed(X *mat.Dense, labels []string, lc int, header bool) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	n, d := X.Dims()
	if header {
		names := []string{}
		for j := range d {
			names = append(names, fmt.Sprintf("f%d", j+1))
		}
		if lc >= 0 {
			names = slices.Insert(names, lc, "class")
		}
		w.Write(names)
	}
	for i := range n {
		var f []string
		for _, v := range X.RawRowView(i) {
			f = append(f, strconv.FormatFloat(v, 'g', -1, 64))
		}
		if lc >= 0 {
			f = slices.Insert(f, lc, labels[i])
		}
		w.Write(f)
	}
	w.Flush()
	return b.Bytes()
}

// signs returns the labels of y, -1 or +1, as text.
func signs(y []float64) []string {
	var s []string
	for _, v := range y {
		s = append(s, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return s
}

// libsvmOf writes the dense X with the labels in the LIBSVM format,
// leaving out zeros.
func libsvmOf(X *mat.Dense, labels []string) []byte {
	var b bytes.Buffer
	n, _ := X.Dims()
	for i := range n {
		b.WriteString(labels[i])
		for j, v := range X.RawRowView(i) {
			if v != 0 {
				fmt.Fprintf(&b, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// standardise returns the rows of each of Xs standardised by the means and
// the deviations of the columns of the first, computed here with gonum's
// stat, apart from package data; a column of one value is divided by 1.
func standardise(Xs ...*mat.Dense) []*mat.Dense {
	_, d := Xs[0].Dims()
	var out []*mat.Dense
	for _, X := range Xs {
		out = append(out, mat.DenseCopyOf(X))
	}
	for j := range d {
		mean, sd := stat.PopMeanStdDev(mat.Col(nil, j, Xs[0]), nil)
		if sd == 0 {
			sd = 1
		}
		for _, X := range out {
			n, _ := X.Dims()
			for i := range n {
				X.Set(i, j, (X.At(i, j)-mean)/sd)
			}
		}
	}
	return out
}

// fitted returns the classifier called name fitted with the command's
// default settings, as the library gives them, on X and y.
func fitted(t *testing.T, name string, X mat.Matrix, y []float64) perceptron.Scorer {
	t.Helper()
	stop := &perceptron.Stop{Tol: 1e-3, NoChange: 5}
	rnd := rand.New(rand.NewPCG(1, 1)) // -shuffle of -seed 1
	var m perceptron.Scorer
	switch name {
	case "perceptron":
		m = &perceptron.Perceptron{Stop: stop, Rand: rnd}
	case "pocket":
		m = &perceptron.Pocket{Stop: stop, Rand: rnd}
	case "averaged":
		m = &perceptron.Averaged{Stop: stop, Rand: rnd}
	case "voted":
		m = &perceptron.Voted{Stop: stop, Rand: rnd}
	case "kernel":
		m = &perceptron.Kernel{Func: perceptron.RBF{}, Prediction: perceptron.PredictAveraged, Stop: stop, Rand: rnd}
	}
	if err := m.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	return m
}

// child returns the command that runs the test binary as the command,
// in mode, with args.
func child(t *testing.T, mode string, args ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "PERCEPTRON_TEST_CHILD="+mode)
	return cmd
}

// gzipFile writes to path a gzip file of head, count times block and
// tail, a member each: the block is compressed once, so that a file of
// gigabytes of text takes a moment to write and little space.
func gzipFile(t *testing.T, path string, head, block []byte, count int, tail []byte) string {
	t.Helper()
	member := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(member(head))
	m := member(block)
	for range count {
		if _, err := f.Write(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.Write(member(tail)); err != nil {
		t.Fatal(err)
	}
	return path
}
