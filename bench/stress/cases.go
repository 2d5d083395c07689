// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"syscall"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// tests are the cases, in the order they run.
var tests = slices.Concat(dataTests, streamTests, modelTests, binaryTests(), jsonTests(), fuzzTests(), loaderTests(), libTests(), issue47Tests(), cmdTests, serveTests)

// The data bombs of issue 31: a few hundred kilobytes of gzip that claim
// gigabytes, read by the command's train, whole (-stream=false), and by
// the readers themselves. Each must end in an error that names the file
// and the line (or the part of an IDX pair), never in a fatal error.
var dataTests = []test{
	{name: "data/idx", kib: quickData, code: 1, want: `bomb-images-idx3-ubyte\.gz: .*needs .* of memory`, args: train((*suite).idxPair)},
	{name: "data/libsvm-lines", kib: quickData, code: 1, want: `lines\.svm\.gz: .*needs .* of memory`, args: trainWhole((*suite).libsvmLines)},
	{name: "data/csv-lines", kib: quickData, code: 1, want: `lines\.csv\.gz: .*needs .* of memory`, args: trainWhole((*suite).csvLines)},
	{name: "data/csv-long-line", kib: commandLineKiB, code: 1, want: `long\.csv\.gz: line 1: longer than 16777216 bytes`, args: train((*suite).longLine)},
	{name: "data/read-idx", kib: quickData, code: 1, want: `^images: `, args: files((*suite).idxPair), lib: func(_ *suite, args []string) (string, error) {
		images, labels, _ := strings.Cut(args[0], ",")
		return "", readGz(images, func(im io.Reader) error {
			return readGz(labels, func(lb io.Reader) error { _, err := data.IDX{}.Read(im, lb); return err })
		})
	}},
	{name: "data/read-libsvm-lines", kib: quickData, code: 1, want: `needs .* of memory`, args: files((*suite).libsvmLines), lib: readWith(data.LIBSVM{}.Read)},
	{name: "data/read-csv-lines", kib: quickData, code: 1, want: `needs .* of memory`, args: files((*suite).csvLines), lib: readWith(data.CSV{}.Read)},
	{name: "data/read-csv-long-line", kib: lineKiB, code: 1, want: `^line 1: longer than 16777216 bytes`, args: files((*suite).longLine), lib: readWith(data.CSV{}.Read)},
}

// idxPair returns the IDX files of two images of 2^27 pixels each, all
// there, 2 GiB as float64s, and of their labels, as the command names a
// pair: "images,labels".
func (s *suite) idxPair() (string, error) {
	const rows = 1 << 13
	images, err := s.file("bomb-images-idx3-ubyte.gz", gzipped(idx([]uint32{2, rows, 1 << 14}, nil), make([]byte, 1<<20), rows/32, nil))
	if err != nil {
		return "", err
	}
	labels, err := s.file("bomb-labels-idx1-ubyte", text(string(idx([]uint32{2}, []byte{0, 1}))))
	return images + "," + labels, err
}

// libsvmLines returns a file of 40 M short LIBSVM lines, 12 M in a quick run.
func (s *suite) libsvmLines() (string, error) {
	return s.file("lines.svm.gz", gzipped(nil, bytes.Repeat([]byte("1 1:1\n-1 2:1\n"), 1<<19), s.sized(40, 12), nil))
}

// csvLines returns a file of 45 M short CSV lines, 12 M in a quick run.
func (s *suite) csvLines() (string, error) {
	return s.file("lines.csv.gz", gzipped(nil, bytes.Repeat([]byte("1,1\n2,0\n"), 1<<19), s.sized(45, 12), nil))
}

// longLine returns a CSV file of one line of 2^24+1 bytes, one more than
// the readers take.
func (s *suite) longLine() (string, error) {
	return s.file("long.csv.gz", gzipped(nil, bytes.Repeat([]byte("1,"), 1<<20), 8, []byte("1\n")))
}

// wideData returns the LIBSVM lines "1 100000000:1" and "-1 1:1", or
// "1 10000000:1" in a quick run.
func (s *suite) wideData() (string, error) {
	return s.file("wide.svm", text(fmt.Sprintf("1 %d:1\n-1 1:1\n", s.sized(1e8, 1e7))))
}

// The limits under which a quick run checks smaller files than a full
// run: 1.5 GB, some 250 MB above what a Go program holds at its start,
// for the data, and 1.7 GB for the models, which must fit in it. The
// room that the command finds left under a limit varies from run to run
// by about an arena of the heap, 64 MiB, as the runtime places them: under
// 1.6 GB, the JSON save of the quick wide model, which needs 76.3 MiB
// beside the model, found 57.2 MiB in 3 runs of 25, and CI failed once.
func quickData(s *suite) int  { return s.sized(defaultKiB, 1500000) }
func quickModel(s *suite) int { return s.sized(defaultKiB, 1700000) }

// lineKiB is the limit of the line just over 16 MiB, in every run: the
// 250 MB it leaves above what a Go program holds at its start are 15
// times the line, which the readers must refuse in less.
func lineKiB(*suite) int { return 1500000 }

// commandLineKiB is lineKiB for the command, which reads the rows whole
// first under a share of the memory left and, where they do not fit,
// again as a stream, and what the first read mapped stays mapped under a
// limit of address space: a run in CI once found only 13.6 MiB left for
// the line. 100 MB more leave it 21 times the line.
func commandLineKiB(*suite) int { return 1600000 }

// The model files of issue 31: large ones that load in memory in
// proportion to their numbers, and crafted ones that load in time in
// proportion to their size.
var modelTests = []test{
	// A model of 10^8 weights, 200 MB, as train saves a perceptron with
	// no steps before it (wideFlags) on the lines "1 100000000:1" and
	// "-1 1:1", which it holds in 800 MB, and which predict loads; a quick
	// run has 10^7 under 1.7 GB.
	{name: "model/wide-train", kib: quickModel, code: 0, args: func(s *suite) ([]string, error) {
		svm, err := s.wideData()
		return append(append([]string{"train"}, wideFlags...), "-o", filepath.Join(s.dir, "m.json"), svm), err
	}},
	{name: "model/wide-predict", kib: quickModel, code: 0, want: `Accuracy = 100% \(2/2\)`, args: func(s *suite) ([]string, error) {
		svm, err := s.wideData()
		if err != nil {
			return nil, err
		}
		m, err := s.file("wide.json", s.trained(svm))
		return []string{"predict", "-model", m, svm}, err
	}},
	// The library's model alone, 50 MB of 25·10^6 weights, under 2 GB; a
	// quick run has 10^7 under 1.6 GB.
	{name: "model/bare", kib: func(s *suite) int { return s.sized(2000000, 1600000) }, code: 0, want: `Accuracy = 100% \(2/2\)`, args: func(s *suite) ([]string, error) {
		d := s.sized(25e6, 1e7)
		svm, err := s.file("bare.svm", text(fmt.Sprintf("1 %d:1\n-1 1:1\n", d)))
		if err != nil {
			return nil, err
		}
		m, err := s.file("bare.json", bareModel(d))
		return []string{"predict", "-model", m, svm}, err
	}},
	// A OneVsRest of 3,000 classes on 10 features, 0.9 MB: loading
	// allocates at most 10 times its size. It holds the text and its
	// numbers, 8 bytes each of at least 2 bytes of text: 5 times the
	// text; and it may allocate as much again on the way.
	{name: "model/onevsrest-3000", code: 0, lib: func(s *suite, _ []string) (string, error) {
		b, err := oneVsRestFile(3000, 10)
		if err != nil {
			return "", err
		}
		return load(b, 0, 10)
	}},
	// A Voted file of one dense row of 100,000 columns and 1,000,000
	// mistakes on it, 5.9 MB (100,000 mistakes, 2.2 MB, in a quick run):
	// it loads in under a second of CPU, in time in proportion to its
	// size, not to the weights of its voters, 10^11 numbers, and
	// allocates at most 10 times its size, as a OneVsRest.
	{name: "model/voted-mistakes", code: 0, lib: func(s *suite, _ []string) (string, error) {
		return load(votedFile(100000, s.sized(1000000, 100000)), time.Second, 10)
	}},
}

// load returns what loading the model file b took, or an error if it
// failed, took more than cpu of CPU time (if not zero), or allocated more
// than alloc times the size of b.
func load(b []byte, cpu time.Duration, alloc float64) (string, error) {
	runtime.GC()
	c0, a0 := cpuTime(), allocated()
	if _, err := perceptron.Unmarshal(b); err != nil {
		return "", err
	}
	c, a := cpuTime()-c0, float64(allocated()-a0)/float64(len(b))
	note := fmt.Sprintf("a file of %.1f MB loaded in %.2fs of CPU, allocating %.1f times its size", float64(len(b))/1e6, c.Seconds(), a)
	if cpu > 0 && c > cpu {
		return "", fmt.Errorf("%s; want at most %v of CPU", note, cpu)
	}
	if a > alloc {
		return "", fmt.Errorf("%s; want at most %g times", note, alloc)
	}
	return note, nil
}

// cpuTime returns the CPU time the process has taken.
func cpuTime() time.Duration {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// allocated returns the bytes allocated on the heap so far.
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// jsonTests are crafted model files: each must be refused with an error
// of the library, never a panic, a fatal error or a long wait.
func jsonTests() []test {
	const big = "4611686018427387904" // 2^62
	deep := strings.Repeat("[", 1e6) + strings.Repeat("]", 1e6)
	ts := []test{}
	for _, c := range []struct {
		name, model string
		path        string // the member whose value is replaced, after the members before its dots
		value, want string
	}{
		{"duplicate-member", "Perceptron", "version", `1,"version":1`, `version`},
		{"duplicate-nested", "Perceptron", "biases", `[0],"biases":[0]`, `biases`},
		{"settings-null", "Perceptron", "settings", `null`, `settings`},
		{"model-null", "Averaged", "model", `null`, `model`},
		{"rows-2^62", "Voted", "rows.rows", big, `rows`},
		{"sparse-rows-2^62", "Voted3", "rows.rows", big, `rows`},
		{"cols-2^62", "Kernel", "cols", big, `columns`},
		{"features-2^62", "KernelRBF", "features", big, `features`},
		{"nan", "Perceptron", "weights", `[NaN,0,0]`, `invalid character`},
		{"infinity", "Averaged", "sumWeights", `[1e999,0]`, `1e999`},
		{"deep", "Perceptron", "settings", deep, `depth`},
		{"version-0", "Perceptron", "version", `0`, `version`},
		{"version-2", "Kernel", "version", `2`, `version`},
		{"version-minus", "Voted", "version", `-1`, `version`},
		{"version-half", "Averaged", "version", `1.5`, `version`},
		{"version-string", "Pocket3", "version", `"1"`, `version`},
		{"version-null", "OneVsRest", "version", `null`, `version`},
		{"version-inner", "OneVsRest", "models.version", `7`, `version`},
	} {
		ts = append(ts, test{name: "json/" + c.name, code: 1, want: `^perceptron: .*(` + c.want + `)`, lib: func(*suite, []string) (string, error) {
			b, err := setMember(modelJSON(c.model), c.path, c.value)
			if err != nil {
				return "", err
			}
			_, err = perceptron.Unmarshal(b)
			return "loaded", err
		}})
	}
	return append(ts, test{name: "json/truncated", code: 0, lib: func(*suite, []string) (string, error) {
		ms, err := models()
		if err != nil {
			return "", err
		}
		n := 0
		for _, m := range ms {
			for i := range m.json {
				if _, err := perceptron.Unmarshal(m.json[:i]); err == nil {
					return "", fmt.Errorf("the %s file cut to %d bytes of %d loads", m.name, i, len(m.json))
				}
				n++
			}
		}
		return fmt.Sprintf("%d cut files of %d types refused", n, len(ms)), nil
	}})
}

// fuzzTests are a seeded loop of random changes to a valid file of every
// type and form: each changed file is refused with an error, or loads into
// a classifier that scores rows, refuses rows of another width with a
// panic of kind ErrShape, and saves, never a fatal error.
func fuzzTests() []test {
	ms, err := models()
	if err != nil {
		panic(err)
	}
	var ts []test
	for k, m := range ms {
		ts = append(ts, test{name: "fuzz/" + m.name, code: 0, lib: func(s *suite, _ []string) (string, error) {
			rng := rand.New(rand.NewPCG(s.seed, uint64(k)))
			n, loaded := s.sized(20000, 500), 0
			for i := range n {
				b := mutate(rng, m.json)
				if use(b, func() {
					fmt.Fprintf(os.Stderr, "stress: mutation %d of the %s file, seed %d: %.2000q\n", i, m.name, s.seed, b)
				}) {
					loaded++
				}
			}
			return fmt.Sprintf("%d changed files: %d loaded, %d refused", n, loaded, n-loaded), nil
		}})
	}
	return ts
}

// use loads the model file b and, if it loads, scores and saves it, and
// reports whether it loaded. On a panic, other than of ErrShape, it calls
// said and panics again.
func use(b []byte, said func()) bool {
	defer func() {
		if r := recover(); r != nil {
			said()
			panic(r)
		}
	}()
	m, err := perceptron.Unmarshal(b)
	if err != nil {
		return false
	}
	dense, sparse, _, _ := rows3()
	for _, X := range []mat.Matrix{dense, sparse} {
		shaped(func() { m.ScoreRows(nil, X) })
		shaped(func() { m.PredictRows(nil, X) })
	}
	json.Marshal(m)
	return true
}

// shaped calls f, and recovers a panic of kind ErrShape, which a model of
// another width than the rows raises.
func shaped(f func()) {
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(error); !ok || !errors.Is(err, perceptron.ErrShape) {
				panic(r)
			}
		}
	}()
	f()
}

// cmdTests are the command's exit statuses: a bad flag value is a usage
// error, exit status 2, found before any data is read (the file named
// does not exist, which is exit status 1); a label nan names its line.
var cmdTests = []test{
	flagTest("rate", "-1"),
	flagTest("rate", "NaN"),
	flagTest("rate", "Inf"),
	flagTest("gamma", "-1", "-classifier", "kernel", "-kernel", "rbf"),
	flagTest("gamma", "NaN", "-classifier", "kernel", "-kernel", "rbf"),
	flagTest("degree", "-1", "-classifier", "kernel", "-kernel", "poly"),
	flagTest("coef0", "Inf", "-classifier", "kernel", "-kernel", "poly"),
	{name: "cmd/label-nan", code: 1, want: `n\.svm: line 2: `, args: train(func(s *suite) (string, error) {
		return s.file("n.svm", text("1 1:1\nnan 2:1\n"))
	})},
}

// flagTest returns the case of train with the flag -name value, and the
// flags with, on a file that does not exist.
func flagTest(name, value string, with ...string) test {
	return test{name: "cmd/flag-" + name + "=" + value, code: 2, want: "^perceptron: -" + regexp.QuoteMeta(name) + " ", args: func(s *suite) ([]string, error) {
		args := append([]string{"train"}, with...)
		return append(args, "-"+name, value, "-o", filepath.Join(s.dir, "m.json"), filepath.Join(s.dir, "missing.svm")), nil
	}}
}

// trainWhole returns the arguments of the command's train on the file
// that file makes, read whole, not a block at a time.
func trainWhole(file func(*suite) (string, error)) func(*suite) ([]string, error) {
	return func(s *suite) ([]string, error) {
		path, err := file(s)
		return []string{"train", "-stream=false", "-o", filepath.Join(s.dir, "m.json"), path}, err
	}
}

// The streams of issue 43: a file of LIBSVM text of three times the bytes
// of the limit, one gzip member, whose rows would take 11 GB in memory,
// which train reads a block at a time, by itself, and trains on, reading
// it again for an epoch, and predict labels, in memory independent of the
// rows; a quick run reads one of 200 MB so, with -stream.
var streamTests = []test{
	{name: "stream/train", kib: streamKiB, code: 0, want: `^$|reading them a block at a time`, timeout: 10 * time.Minute, args: func(s *suite) ([]string, error) {
		path, err := s.file("big.svm.gz", s.bigText)
		args := []string{"train", "-classifier", "perceptron", "-epochs", "1", "-no-stop", "-o", filepath.Join(s.dir, "big.json"), path}
		if s.quick {
			args = slices.Insert(args, 1, "-stream")
		}
		return args, err
	}},
	{name: "stream/predict", kib: streamKiB, code: 0, want: `Accuracy = 100% `, timeout: 10 * time.Minute, args: func(s *suite) ([]string, error) {
		path, err := s.file("big.svm.gz", s.bigText)
		return []string{"predict", "-model", filepath.Join(s.dir, "big.json"), "-o", filepath.Join(s.dir, "big.txt"), path}, err
	}},
}

// streamKiB is the limit of the streams: 1 GB.
func streamKiB(*suite) int { return 1000000 }

// bigText writes a gzip file of lines of LIBSVM text of two classes, each
// of 60 features, of three times the bytes of streamKiB, or 200 MB in a
// quick run, as one member, whose end tells its size.
func (s *suite) bigText(path string) error {
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
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	for size := 0; size < s.sized(3*1024*streamKiB(s), 200<<20); size += block.Len() {
		zw.Write(block.Bytes())
	}
	return errors.Join(zw.Close(), f.Close())
}

// train returns the arguments of the command's train on the file that
// file makes.
func train(file func(*suite) (string, error)) func(*suite) ([]string, error) {
	return func(s *suite) ([]string, error) {
		path, err := file(s)
		return []string{"train", "-o", filepath.Join(s.dir, "m.json"), path}, err
	}
}

// files returns the arguments of a library case: the file that file makes.
func files(file func(*suite) (string, error)) func(*suite) ([]string, error) {
	return func(s *suite) ([]string, error) {
		path, err := file(s)
		return []string{path}, err
	}
}

// readWith returns a library case that reads its file with read.
func readWith(read func(io.Reader) (*data.Set, error)) func(*suite, []string) (string, error) {
	return func(_ *suite, args []string) (string, error) {
		return "read", readGz(args[0], func(r io.Reader) error { _, err := read(r); return err })
	}
}

// readGz calls read with the file path, gunzipped if its name ends in .gz.
func readGz(path string, read func(io.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return err
		}
		r = z
	}
	return read(r)
}
