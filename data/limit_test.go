// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
	"github.com/seed5ae3614e/perceptron/internal/limit"
)

// The tests of the memory contract run the readers on the inputs of issue
// 31, small gzipped files that expand to gigabytes, in a child process of
// the test binary under a lowered limit of address space: each must end
// in an error, never in a fatal error of Go's allocator.

// childEnv names the bomb that the test binary, run as a child, reads.
const childEnv = "DATA_LIMIT_CHILD"

// startSize is the address space of the test binary when it starts, in
// KiB, on which the tests lower the limit; 0 if it cannot tell.
var startSize int

func TestMain(m *testing.M) {
	if name := os.Getenv(childEnv); name != "" {
		os.Exit(child(name))
	}
	startSize = procKiB("VmSize")
	os.Exit(m.Run())
}

// procKiB returns the field name of /proc/self/status, in KiB, or 0.
func procKiB(name string) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}

// child reads the bomb name from its standard input, and writes to its
// standard output whether the error is of kind ErrTooLarge and the peak
// of its resident memory, and to its standard error the error, as a
// command would. It returns the exit status: 1 for an error, 0 for none.
func child(name string) int {
	in := io.Reader(os.Stdin)
	var err error
	switch name {
	case "idx":
		_, err = data.IDX{}.Read(in, bytes.NewReader(idxFile([]uint32{2}, []byte{0, 1})))
	case "libsvm", "libsvm-line":
		_, err = data.LIBSVM{}.Read(in)
	case "csv", "csv-line":
		_, err = data.CSV{}.Read(in)
	case "labels":
		// Lines of distinct labels, made as they are read.
		_, err = data.LIBSVM{}.Read(&labelLines{})
	default:
		fmt.Fprintf(os.Stderr, "no bomb %q\n", name)
		return 3
	}
	fmt.Printf("too large: %v\npeak: %d KiB\n", errors.Is(err, perceptron.ErrTooLarge), procKiB("VmHWM"))
	if err == nil {
		return 0
	}
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	return 1
}

// labelLines is a reader of endless LIBSVM lines of distinct labels.
type labelLines struct {
	k    int    // the label of the next line
	buf  []byte // the line last made
	line []byte // what is left of it to read
}

func (r *labelLines) Read(p []byte) (int, error) {
	n := 0
	for {
		if len(r.line) == 0 {
			r.buf = append(strconv.AppendInt(r.buf[:0], int64(r.k), 10), " 1:1\n"...)
			r.line = r.buf
			r.k++
		}
		k := copy(p[n:], r.line)
		n += k
		r.line = r.line[k:]
		if n == len(p) {
			return n, nil
		}
	}
}

// repeated is a reader of n copies of a line, made as they are read.
type repeated struct {
	line string
	n    int
	off  int // the bytes of the current copy read
}

func (r *repeated) Read(p []byte) (int, error) {
	k := 0
	for k < len(p) && r.n > 0 {
		c := copy(p[k:], r.line[r.off:])
		k += c
		if r.off += c; r.off == len(r.line) {
			r.off, r.n = 0, r.n-1
		}
	}
	if k == 0 {
		return 0, io.EOF
	}
	return k, nil
}

// gzipTimes returns a gzip file of head, if it is not nil, and then times
// copies of text, each gzipped once and written as a member of the file
// again and again, which gzip.Reader reads as one stream.
func gzipTimes(t *testing.T, head, text []byte, times int) []byte {
	t.Helper()
	var out bytes.Buffer
	if head != nil {
		out.Write(gzipped(t, head))
	}
	one := gzipped(t, text)
	for range times {
		out.Write(one)
	}
	return out.Bytes()
}

// TestBombs reads the inputs of issue 31 in a child under a limit of
// address space 256 MiB above what the test binary holds at its start:
// each must end in an error, of kind ErrTooLarge if it does not fit, or
// that its line is too long, in a short message on the standard error,
// within a minute. The files are those of the issue; the limit is lower
// than its ulimit -v 3000000, so that a reader refuses them sooner.
func TestBombs(t *testing.T) {
	if !limit.Supported() {
		t.Skip("no RLIMIT_AS here")
	}
	if startSize == 0 {
		t.Skip("no /proc/self/status here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A line just over the 16 MiB that the readers take by default.
	var libsvmLine []byte
	libsvmLine = append(libsvmLine, '1')
	for j := 1; len(libsvmLine) <= 1<<24; j++ {
		libsvmLine = append(strconv.AppendInt(append(libsvmLine, ' '), int64(j), 10), ":1"...)
	}
	for _, tc := range []struct {
		name     string
		in       []byte
		tooLarge bool   // whether the error is of kind ErrTooLarge
		msg      string // what it holds
		peak     int    // the most resident memory the child may reach, in MiB, or 0
	}{
		// 2 images of 2^27 pixels: 2 GiB as float64 values.
		{"idx", gzipTimes(t, idxFile([]uint32{2, 1 << 27}, nil), make([]byte, 1<<20), 256), true, "images: ", 0},
		// 40 M short lines of LIBSVM, and 45 M of CSV.
		{"libsvm", gzipTimes(t, nil, []byte(strings.Repeat("1 1:1\n0 2:1\n", 1<<19)), 40), true, "holding ", 0},
		{"csv", gzipTimes(t, nil, []byte(strings.Repeat("1,a\n2,b\n", 1<<19)), 43), true, "holding ", 0},
		// Lines of distinct labels, without end.
		{"labels", nil, true, "distinct labels", 0},
		// A line just over 16 MiB: refused, the reader holding at most
		// 3.5 times it, and the process as much again at most in the
		// arrays that growing left behind, until Go's collector frees
		// them.
		{"csv-line", gzipped(t, []byte(strings.Repeat("1,", 1<<23)+"1,a\n")), false, "line 1: longer than 16777216 bytes", 7 * 16},
		{"libsvm-line", gzipped(t, append(libsvmLine, '\n')), false, "line 1: longer than 16777216 bytes", 7 * 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := limit.Run(time.Minute, startSize+256<<10, tc.in, []string{childEnv + "=" + tc.name}, exe)
			if err != nil {
				t.Fatal(err)
			}
			out, errs := string(r.Stdout), string(r.Stderr)
			t.Logf("%d KiB of input; in %v: exit %d, %s%s", len(tc.in)>>10, r.Elapsed.Round(time.Millisecond), r.Code, out, errs)
			if r.Code != 1 || r.Fatal() || len(errs) > 2048 || !strings.Contains(errs, tc.msg) {
				t.Fatalf("exit %d, stderr %.600q: want exit 1 and an error holding %q", r.Code, errs, tc.msg)
			}
			if want := fmt.Sprintf("too large: %v\n", tc.tooLarge); !strings.Contains(out, want) {
				t.Errorf("stdout %q, want %q", out, want)
			}
			var peak int
			if _, after, ok := strings.Cut(out, "peak: "); !ok {
				t.Fatalf("stdout %q: no peak", out)
			} else if _, err := fmt.Sscanf(after, "%d KiB", &peak); err != nil {
				t.Fatalf("stdout %q: %v", out, err)
			}
			if tc.peak > 0 && peak > tc.peak<<10 {
				t.Errorf("peak of %d MiB resident, want at most %d", peak>>10, tc.peak)
			}
		})
	}
}

// withMemoryLimit runs f under a Go memory limit of the memory that the
// process holds and room more bytes.
func withMemoryLimit(room int64, f func()) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	debug.FreeOSMemory()
	// What counts toward Go's memory limit: all that the runtime has
	// mapped, less what it has returned to the system.
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	debug.SetMemoryLimit(int64(s[0].Value.Uint64()-s[1].Value.Uint64()) + room)
	f()
}

// checkTooLarge fails t unless err is of kind ErrTooLarge, and short and
// printable.
func checkTooLarge(t *testing.T, err error, subs ...string) {
	t.Helper()
	if !errors.Is(err, perceptron.ErrTooLarge) {
		t.Fatalf("error %v, want one of kind ErrTooLarge", err)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not hold %q", err, s)
		}
	}
	checkShortPrintable(t, err.Error())
}

// TestReadersUnderGoLimit reads, under a Go memory limit 16 MiB above the
// memory in use, inputs that need more than it: each reader refuses them
// with an error of kind ErrTooLarge that names the line.
func TestReadersUnderGoLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func() error
		subs []string
	}{
		{"LIBSVM rows", func() error {
			_, err := data.LIBSVM{}.Read(&repeated{line: "1 1:1 2:2 3:3\n", n: 4 << 20})
			return err
		}, []string{"line ", ": holding ", " needs "}},
		{"CSV rows", func() error {
			_, err := data.CSV{}.Read(&repeated{line: "1,2,3,a\n", n: 4 << 20})
			return err
		}, []string{"line ", ": holding ", " needs "}},
		{"LIBSVM labels", func() error {
			_, err := data.LIBSVM{}.Read(&labelLines{})
			return err
		}, []string{"line ", "distinct labels"}},
		{"IDX header", func() error {
			_, err := data.IDX{}.Read(bytes.NewReader(idxFile([]uint32{2, 1 << 26}, nil)), nil)
			return err
		}, []string{"images: holding the 134217728 bytes that the header gives"}},
		{"IDX labels", func() error {
			images := bytes.NewReader(idxFile([]uint32{2, 1}, []byte{1, 2}))
			_, err := data.IDX{}.Read(images, bytes.NewReader(idxFile([]uint32{1 << 28}, nil)))
			return err
		}, []string{"labels: holding the 268435456 bytes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			withMemoryLimit(16<<20, func() { err = tc.read() })
			checkTooLarge(t, err, tc.subs...)
		})
	}
}

// TestSetsUnderGoLimit checks that Split, Subset, NewScaler, Transform and
// NewReport refuse, before they allocate it, what does not fit under a Go
// memory limit 64 MiB above the memory in use: they allocate little of it,
// Split only the 9 bytes a row with which it draws the sets.
func TestSetsUnderGoLimit(t *testing.T) {
	// 2^20 rows of 16 columns: 128 MiB to copy.
	const n, d = 1 << 20, 16
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range y {
		y[i] = float64(i % 2)
	}
	set := &data.Set{X: X, Y: y, Classes: []string{"a", "b"}}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	wide, err := perceptron.NewCSR(2, 1<<40, []int{0, 1, 2}, []int{0, 1 << 39}, []float64{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	scaler := &data.Scaler{Scale: make([]float64, d)}
	for j := range scaler.Scale {
		scaler.Scale[j] = 1
	}
	classes := make([]string, 1<<13)
	for _, tc := range []struct {
		name  string
		call  func() error
		subs  []string
		alloc uint64 // the most bytes it may allocate
	}{
		{"Split", func() error { _, _, err := data.Split(set, 0.5, 1); return err }, []string{"data: a copy of "}, 9*n + 1<<20},
		{"Subset", func() error { _, err := set.Subset(all); return err }, []string{"data: a copy of 1048576 rows of 16 columns"}, 1 << 20},
		{"NewScaler", func() error { _, err := data.NewScaler(wide); return err }, []string{"data: scaling 1099511627776 columns"}, 1 << 20},
		{"Transform", func() error { _, err := scaler.Transform(X); return err }, []string{"data: standardising 1048576 rows"}, 1 << 20},
		{"NewReport", func() error {
			_, err := data.NewReport(classes, []float64{0}, []float64{1})
			return err
		}, []string{"data: a confusion matrix of 8192 classes"}, 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			var alloc uint64
			withMemoryLimit(64<<20, func() { alloc = allocated(func() { err = tc.call() }) })
			checkTooLarge(t, err, tc.subs...)
			if alloc > tc.alloc {
				t.Errorf("%d bytes allocated before the error, want at most %d", alloc, tc.alloc)
			}
		})
	}
}

// TestCheckMemory checks MemoryLeft and CheckMemory under a Go memory limit
// 16 MiB above the memory in use: the room is at most the 16 MiB, a need
// within it passes, and one beyond it is refused with an error of kind
// ErrTooLarge that gives the need and the limit.
func TestCheckMemory(t *testing.T) {
	var left float64
	var within, beyond, small error
	withMemoryLimit(16<<20, func() {
		left = data.MemoryLeft()
		within = data.CheckMemory(left / 2)
		beyond = data.CheckMemory(64 << 20)
		small = data.CheckMemory(64 << 10)
	})
	if left <= 0 || left > 16<<20 {
		t.Errorf("MemoryLeft gives %.0f bytes under a limit 16 MiB above the memory in use", left)
	}
	if within != nil {
		t.Errorf("CheckMemory of half the room: %v", within)
	}
	if small != nil {
		t.Errorf("CheckMemory of 64 KiB: %v", small)
	}
	checkTooLarge(t, beyond, "data: needs 64.0 MiB of memory, more than the ", " left under Go's memory limit")
	if left := data.MemoryLeft(); left <= 16<<20 {
		t.Errorf("MemoryLeft gives %.0f bytes with no Go memory limit", left)
	}
}
