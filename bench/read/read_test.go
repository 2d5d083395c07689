// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package read benchmarks the readers of package data on the data sets of
// the benchmarks, held in memory, plain and gzipped, whole (Read) and a
// row at a time (Rows), and reports the bytes of plain text they read a
// second, whether they read it plain or gzipped: the Debian sections as
// LIBSVM, their descriptions as fastText's text hashed into word pairs
// (as Hashing's defaults and as the command hash them),
// Fashion-MNIST as IDX and as CSV. It also times the two decoders of gzip,
// compress/gzip and github.com/klauspost/compress/gzip, which package data
// uses; and the steps of scaling, beside a copy of the rows. Data sets that
// are not there are skipped:
//
//	go test ./bench/read -run '^$' -bench . -args -debian ../shared/data/debian-sections -text /tmp/debian-text
package read

import (
	"bytes"
	stdgzip "compress/gzip"
	"flag"
	"fmt"
	"io"
	"iter"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/bench/sets"
	"github.com/seed5ae3614e/perceptron/data"
)

var (
	debianDir = flag.String("debian", filepath.Join("../..", sets.DebianDir), "the directory of the Debian sections data set")
	textDir   = flag.String("text", "/tmp/debian-text", "the directory of the Debian descriptions as fastText's text (go run ./bench/text -build)")
)

// input is a file of a benchmark, plain and gzipped.
type input struct {
	plain, gz []byte
	err       error
}

var (
	inputs   = map[string]*input{}
	inputsMu sync.Mutex
)

// load returns the input called name, which make makes the first time.
func load(b *testing.B, name string, make func() ([]byte, error)) *input {
	inputsMu.Lock()
	defer inputsMu.Unlock()
	in, ok := inputs[name]
	if !ok {
		in = &input{}
		if in.plain, in.err = make(); in.err == nil {
			in.gz, in.err = gzipped(in.plain)
		}
		inputs[name] = in
	}
	if in.err != nil {
		b.Skip(in.err)
	}
	return in
}

// file returns the file at path, gunzipped if it is gzipped.
func file(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b, err
	}
	r, err := stdgzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// gzipped returns b gzipped, as gzip -6 writes it.
func gzipped(b []byte) ([]byte, error) {
	var out bytes.Buffer
	w := stdgzip.NewWriter(&out)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	err := w.Close()
	return out.Bytes(), err
}

// fashionCSV returns the Fashion-MNIST test images as CSV: a header, then
// the label and the 784 pixels of each image, as whole numbers from 0 to
// 255, as Kaggle's fashion-mnist_test.csv has them, or with floats, the
// pixels divided by 255 as strconv.FormatFloat and Python's repr write
// them, of up to 17 digits.
func fashionCSV(floats bool) ([]byte, error) {
	s, err := data.IDX{}.ReadFile(filepath.Join(sets.FashionDir, "t10k-images-idx3-ubyte.gz"), "")
	if err != nil {
		return nil, err
	}
	var b []byte
	b = append(b, "label"...)
	n, d := s.X.Dims()
	for j := range d {
		b = fmt.Appendf(b, ",pixel%d", j+1)
	}
	b = append(b, '\n')
	for i := range n {
		b = append(b, s.Classes[int(s.Y[i])]...)
		for j := range d {
			v := s.X.At(i, j)
			b = append(b, ',')
			if floats {
				b = strconv.AppendFloat(b, v, 'g', -1, 64)
			} else {
				b = strconv.AppendInt(b, int64(math.Round(v*255)), 10)
			}
		}
		b = append(b, '\n')
	}
	return b, nil
}

// reader is a reader of the benchmarks, of one input.
type reader struct {
	name string
	in   func(b *testing.B) *input
	read func(r io.Reader) error
	rows func(r io.Reader) iter.Seq2[data.Row, error]
}

var (
	debianLIBSVM = func(b *testing.B) *input {
		return load(b, "libsvm", func() ([]byte, error) {
			return file(filepath.Join(*debianDir, "debian-sections.train.svm.gz"))
		})
	}
	debianText = func(b *testing.B) *input {
		return load(b, "text", func() ([]byte, error) { return file(filepath.Join(*textDir, "train.txt")) })
	}
	fashionImages = func(b *testing.B) *input {
		return load(b, "idx", func() ([]byte, error) {
			return file(filepath.Join(sets.FashionDir, "train-images-idx3-ubyte.gz"))
		})
	}
	csvInts   = func(b *testing.B) *input { return load(b, "csv", func() ([]byte, error) { return fashionCSV(false) }) }
	csvFloats = func(b *testing.B) *input {
		return load(b, "csv-floats", func() ([]byte, error) { return fashionCSV(true) })
	}
)

// bigrams hashes the text into word pairs as Hashing's defaults do, and
// command as the command does.
var (
	bigrams = data.Text{Hashing: data.Hashing{NGrams: 2}}
	command = data.Text{Hashing: data.Hashing{NGrams: 2, Bits: 19, NoNorm: true}}
)

var readers = []reader{
	{"libsvm", debianLIBSVM, func(r io.Reader) error { _, err := data.LIBSVM{}.Read(r); return err }, data.LIBSVM{}.Rows},
	{"text", debianText, func(r io.Reader) error { _, err := bigrams.Read(r); return err }, bigrams.Rows},
	{"text-command", debianText, func(r io.Reader) error { _, err := command.Read(r); return err }, command.Rows},
	{"csv", csvInts, func(r io.Reader) error { _, err := data.CSV{Header: true, Label: "first"}.Read(r); return err },
		data.CSV{Header: true, Label: "first"}.Rows},
	{"csv-floats", csvFloats, func(r io.Reader) error { _, err := data.CSV{Header: true, Label: "first"}.Read(r); return err },
		data.CSV{Header: true, Label: "first"}.Rows},
	{"idx", fashionImages, func(r io.Reader) error { _, err := data.IDX{}.Read(r, nil); return err },
		func(r io.Reader) iter.Seq2[data.Row, error] { return data.IDX{}.Rows(r, nil) }},
}

// BenchmarkRead reads each data set whole, from plain and gzipped text,
// and reports the plain bytes read a second.
func BenchmarkRead(b *testing.B) {
	for _, r := range readers {
		for _, gz := range []bool{false, true} {
			b.Run(name(r.name, gz), func(b *testing.B) {
				in := r.in(b)
				text := pick(in, gz)
				cpuMBs(b, len(in.plain), func() {
					if err := r.read(bytes.NewReader(text)); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// BenchmarkRows reads each data set a row at a time, from plain and
// gzipped text, and reports the plain bytes read a second.
func BenchmarkRows(b *testing.B) {
	for _, r := range readers {
		for _, gz := range []bool{false, true} {
			b.Run(name(r.name, gz), func(b *testing.B) {
				in := r.in(b)
				text := pick(in, gz)
				b.ReportAllocs()
				cpuMBs(b, len(in.plain), func() {
					for _, err := range r.rows(bytes.NewReader(text)) {
						if err != nil {
							b.Fatal(err)
						}
					}
				})
			})
		}
	}
}

// jsonRows returns the rows of the set that in holds, read by read, as the
// JSON that data.JSON reads, each an object of its label and of its values
// written as strconv.FormatFloat writes them, the shortest that read back
// to the bit: a dense row its values, a sparse row those not zero and their
// indices.
func jsonRows(in *input, read func(io.Reader) (*data.Set, error)) ([]byte, error) {
	s, err := read(bytes.NewReader(in.plain))
	if err != nil {
		return nil, err
	}
	b := []byte(`{"rows": [`)
	n, _ := s.X.Dims()
	for i := range n {
		if i > 0 {
			b = append(b, ",\n"...)
		}
		b = append(b, `{"label": `...)
		b = strconv.AppendQuote(b, s.Classes[int(s.Y[i])])
		var ind []int
		var val []float64
		if csr, ok := s.X.(*perceptron.CSR); ok {
			csr.DoRowNonZero(i, func(_, j int, v float64) { ind, val = append(ind, j+1), append(val, v) })
			b = append(b, `, "indices": [`...)
			for k, j := range ind {
				if k > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(j), 10)
			}
			b = append(b, ']')
		} else {
			val = mat.Row(nil, i, s.X)
		}
		b = append(b, `, "values": [`...)
		for k, v := range val {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
		b = append(b, "]}"...)
	}
	return append(b, "]}\n"...), nil
}

// BenchmarkJSON reads rows as JSON, as a server takes them in a body: the
// Fashion-MNIST test images, dense rows of pixels/255 of up to 17 digits,
// and the Debian sections' training rows, sparse, and reports the bytes
// read a second.
func BenchmarkJSON(b *testing.B) {
	for _, set := range []struct {
		name string
		in   func(b *testing.B) *input
		read func(io.Reader) (*data.Set, error)
	}{
		{"dense", csvFloats, data.CSV{Header: true, Label: "first"}.Read},
		{"sparse", debianLIBSVM, data.LIBSVM{}.Read},
	} {
		b.Run(set.name, func(b *testing.B) {
			src := set.in(b)
			in := load(b, "json-"+set.name, func() ([]byte, error) { return jsonRows(src, set.read) })
			s, err := set.read(bytes.NewReader(src.plain))
			if err != nil {
				b.Fatal(err)
			}
			_, d := s.X.Dims()
			f := data.JSON{Cols: d}
			cpuMBs(b, len(in.plain), func() {
				if _, err := f.Read(bytes.NewReader(in.plain)); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkGunzip decodes the gzipped files of the data sets with
// compress/gzip and with github.com/klauspost/compress/gzip, and reports
// the plain bytes a second.
func BenchmarkGunzip(b *testing.B) {
	for _, set := range []struct {
		name string
		in   func(b *testing.B) *input
	}{{"libsvm", debianLIBSVM}, {"text", debianText}, {"idx", fashionImages}} {
		for _, dec := range []struct {
			name string
			open func(io.Reader) (io.Reader, error)
		}{
			{"std", func(r io.Reader) (io.Reader, error) { return stdgzip.NewReader(r) }},
			{"klauspost", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		} {
			b.Run(set.name+"/"+dec.name, func(b *testing.B) {
				in := set.in(b)
				buf := make([]byte, 64<<10)
				cpuMBs(b, len(in.plain), func() {
					r, err := dec.open(bytes.NewReader(in.gz))
					if err != nil {
						b.Fatal(err)
					}
					if _, err := io.CopyBuffer(io.Discard, r, buf); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// cpuMBs runs f b.N times, and reports besides the time of the runs the
// plain bytes a second of the processor time that the process took, which
// a shared machine's other work does not inflate as it does the time.
func cpuMBs(b *testing.B, size int, f func()) {
	b.SetBytes(int64(size))
	start := cpuTime()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if took := cpuTime() - start; took > 0 {
		b.ReportMetric(float64(size)*float64(n)/took.Seconds()/1e6, "cpu-MB/s")
	}
}

// cpuTime returns the processor time that the process has taken.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// name names the benchmark of a reader of plain or gzipped text.
func name(reader string, gz bool) string {
	if gz {
		return reader + ".gz"
	}
	return reader
}

// pick returns the plain or the gzipped text of in.
func pick(in *input, gz bool) []byte {
	if gz {
		return in.gz
	}
	return in.plain
}

// BenchmarkScale times the steps before a classifier on the rows that the
// readers return, and a copy of the rows beside them: NewScaler, Transform
// and the transform in place of Fashion-MNIST's training images, and
// NewIDF and Transform of the Debian sections, weighed and normalised.
func BenchmarkScale(b *testing.B) {
	images, err := data.IDX{}.ReadFile(filepath.Join(sets.FashionDir, "train-images-idx3-ubyte.gz"), "")
	if err != nil {
		b.Skip(err)
	}
	X := images.X.(*mat.Dense)
	n, d := X.Dims()
	sc, err := data.NewScaler(X)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		run  func()
	}{
		{"fashion/copy", func() { mat.DenseCopyOf(X) }},
		{"fashion/NewScaler", func() { data.NewScaler(X) }},
		{"fashion/Transform", func() { sc.Transform(X) }},
	} {
		b.Run(bc.name, func(b *testing.B) { cpuMBs(b, 8*n*d, bc.run) })
	}
	b.Run("fashion/TransformInPlace", func(b *testing.B) {
		b.SetBytes(int64(8 * n * d))
		m := &data.Model{Scaler: sc}
		Y := mat.DenseCopyOf(X)
		for b.Loop() {
			b.StopTimer()
			Y.Copy(X)
			b.StartTimer()
			if _, err := m.TransformInPlace(Y); err != nil {
				b.Fatal(err)
			}
		}
	})
	sparse, err := data.LIBSVM{}.ReadFile(filepath.Join(*debianDir, "debian-sections.train.svm.gz"))
	if err != nil {
		return
	}
	rows, _ := sparse.X.Dims()
	idf, err := data.NewIDF(sparse.X)
	if err != nil {
		b.Fatal(err)
	}
	m := &data.Model{Scaler: idf, Normalize: true}
	for _, bc := range []struct {
		name string
		run  func()
	}{
		{"debian/copy", func() { sparse.Rows(0, rows) }},
		{"debian/NewIDF", func() { data.NewIDF(sparse.X) }},
		{"debian/Transform", func() { m.Transform(sparse.X) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				bc.run()
			}
		})
	}
}
