// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/binform"
)

// fittedModels returns Models of every classifier of the library, fitted
// to rows of two and of three classes, dense and sparse, with each kind of
// step before the classifier: none, a Scaler, Normalize, and both.
func fittedModels(t testing.TB) []*Model {
	t.Helper()
	X := mat.NewDense(9, 3, []float64{
		1, 2, 0, -1, -2, 0.5, 2, 1, 0,
		-2, 0, 1, 0, 3, -1, 3, 3, 0,
		-3, -1, 2, 1, -1, 0, 0, 0, 0,
	})
	csr := csrOf(X)
	var ms []*Model
	for _, labels := range [][]string{{"a", "b"}, {"x", "y", "z"}} {
		y := make([]float64, 9)
		for i := range y {
			y[i] = float64(i % len(labels))
		}
		for _, rows := range []mat.Matrix{X, csr} {
			set := &Set{X: rows, Y: y, Classes: labels}
			sc, err := NewScaler(rows)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []func() perceptron.Scorer{
				func() perceptron.Scorer { return &perceptron.Perceptron{Epochs: 5} },
				func() perceptron.Scorer { return &perceptron.Pocket{Epochs: 5} },
				func() perceptron.Scorer { return &perceptron.Averaged{Epochs: 5} },
				func() perceptron.Scorer { return &perceptron.Voted{Epochs: 5} },
				func() perceptron.Scorer { return &perceptron.Kernel{Epochs: 2} },
				func() perceptron.Scorer { return &perceptron.OneVsRest{} },
			} {
				for _, steps := range []Model{{}, {Scaler: sc}, {Normalize: true}, {Scaler: sc, Normalize: true, Names: names(len(labels))}} {
					m := steps
					m.Classifier = c()
					if err := m.Fit(set); err != nil {
						t.Fatal(err)
					}
					ms = append(ms, &m)
				}
			}
		}
	}
	return ms
}

// names returns k names of classes, with spaces inside.
func names(k int) []string {
	return []string{"first one", "second one", "third one"}[:k]
}

// csrOf returns the non-zeros of X as a *perceptron.CSR.
func csrOf(X *mat.Dense) *perceptron.CSR {
	n, d := X.Dims()
	ptr := []int{0}
	var ind []int
	var val []float64
	for i := range n {
		for j, v := range X.RawRowView(i) {
			if v != 0 {
				ind = append(ind, j)
				val = append(val, v)
			}
		}
		ptr = append(ptr, len(ind))
	}
	c, err := perceptron.NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	return c
}

// modelFiles returns the files of fittedModels, and of a Model of text,
// in both forms: as WriteTo and MarshalJSON write them.
func modelFiles(t testing.TB) [][]byte {
	h := Hashing{NGrams: 2, Bits: 4, Signed: true}
	set, err := Text{Hashing: h}.Read(strings.NewReader("__label__a one two three\n__label__b four five\n__label__a two three\n"))
	if err != nil {
		t.Fatal(err)
	}
	text := &Model{Classifier: &perceptron.Averaged{Epochs: 3}, Hashing: &h, Normalize: true}
	if err := text.Fit(set); err != nil {
		t.Fatal(err)
	}
	text.Calibration = &Calibration{A: []float64{-1.5}, B: []float64{0.25}}
	var files [][]byte
	for _, m := range append(fittedModels(t), text) {
		var b bytes.Buffer
		if _, err := m.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		j, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b.Bytes(), j)
	}
	return files
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A model file of 16 MiB of zero bytes, gzipped into 16 KB, is refused
// once its first 64 KiB are read.
func TestModelBomb(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zeros := make([]byte, 1<<20)
	for range 16 {
		zw.Write(zeros)
	}
	zw.Close()
	c := &countingReader{r: bytes.NewReader(gz.Bytes())}
	start := time.Now()
	_, err := readModel(c)
	if !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), "not a model") || c.n > 64<<10 {
		t.Errorf("read %d bytes of the file: %v", c.n, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the refusal took %v", d)
	}
}

// A model whose text is longer than the memory left holds, white space
// that JSON allows, is refused once that much is read; with the memory,
// the same text is not a model, but not too long.
func TestModelText(t *testing.T) {
	text := "{" + strings.Repeat(" ", 16<<20) + "}"
	if _, err := readModel(strings.NewReader(text)); err == nil || errors.Is(err, perceptron.ErrTooLarge) {
		t.Errorf("with the memory: %v", err)
	}
	defer limitAbove(4 << 20)()
	c := &countingReader{r: strings.NewReader(text)}
	_, err := readModel(c)
	if !errors.Is(err, perceptron.ErrTooLarge) || !strings.HasPrefix(err.Error(), "reading the model's text of more than") || c.n > 8<<20 {
		t.Errorf("read %d bytes: %v", c.n, err)
	}
}

// FuzzDecodeModel checks that a model file of either form that loads
// predicts rows of its features, and saves in both forms to files that
// load to the same bytes: the same Model; and that a text loads as
// decodeAnyModel, which checks its syntax first, loads it.
func FuzzDecodeModel(f *testing.F) {
	for _, b := range modelFiles(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if n := tableFloats(b); n > 1<<20 {
			t.Skip("a binary form of more than 2^20 weights")
		}
		m, err := decodeText(bytes.Clone(b))
		if !isModelForm(b) && !isClassifierForm(b) {
			// One walk of the package's own form says what a check of
			// the syntax and a walk of the members say.
			any, anyErr := decodeAnyModel(bytes.Clone(b))
			if (err == nil) != (anyErr == nil) || err != nil && err.Error() != anyErr.Error() {
				t.Fatalf("%q: %v; decodeAnyModel: %v", b, err, anyErr)
			}
			if err == nil {
				j1, err1 := m.MarshalJSON()
				j2, err2 := any.MarshalJSON()
				if err1 != nil || err2 != nil || !bytes.Equal(j1, j2) {
					t.Fatalf("%q: loads as %s (%v); decodeAnyModel: %s (%v)", b, j1, err1, j2, err2)
				}
			}
		}
		if err != nil {
			if !errors.Is(err, perceptron.ErrFormat) && !errors.Is(err, perceptron.ErrTooLarge) {
				t.Fatalf("%q: an error of no kind: %v", b, err)
			}
			return
		}
		if _, err := m.Predict(mat.NewDense(1, m.Features(), nil)); err != nil && !errors.Is(err, perceptron.ErrNonFinite) {
			t.Fatalf("%q: %v", b, err)
		}
		var bin bytes.Buffer
		if _, err := m.WriteTo(&bin); err != nil {
			t.Fatalf("loaded %q, cannot save it: %v", b, err)
		}
		text, err := m.MarshalJSON()
		if err != nil {
			t.Fatalf("loaded %q, cannot save it as JSON: %v", b, err)
		}
		for _, out := range [][]byte{bin.Bytes(), text} {
			m2, err := decodeText(bytes.Clone(out))
			if err != nil {
				t.Fatalf("saved %q, cannot load it: %v", out, err)
			}
			var again bytes.Buffer
			if _, err := m2.WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), bin.Bytes()) {
				t.Fatalf("saved %q, then %q (%v)", bin.Bytes(), again.Bytes(), err)
			}
			if j, err := m2.MarshalJSON(); err != nil || !bytes.Equal(j, text) {
				t.Fatalf("saved %s, then %s (%v)", text, j, err)
			}
		}
	})
}

// tableFloats returns the floats of the tables that the headers of the
// classifiers' binary forms in b give, two tables each.
func tableFloats(b []byte) uint64 {
	var n uint64
	for k := 0; ; k++ {
		i := bytes.Index(b[k:], []byte(binform.Magic))
		if i < 0 || k+i+binform.HeaderSize > len(b) {
			return n
		}
		k += i
		h := binform.ReadHeader(b[k:])
		if h.S != 0 && h.D*h.S/h.S != h.D {
			return math.MaxUint64
		}
		n += 2 * h.D * h.S
	}
}

// Predict and Score of rows in parts of a multiple of BlockRows rows give
// what they give of all the rows at once, to the bit; of a linear
// classifier, they give what it gives of the rows that Transform gives, in
// blocks of any size. The rows that an error names are counted from the
// first of all.
func TestPredictBlocks(t *testing.T) {
	n := 2*BlockRows + 100
	X := mat.NewDense(n, 3, nil)
	for i := range n {
		X.SetRow(i, []float64{float64(i%7) - 3, float64(i%5) - 2, float64(i % 3)})
	}
	for _, m := range fittedModels(t) {
		for _, rows := range []mat.Matrix{X, csrOf(X)} {
			Z, err := m.Transform(rows)
			if err != nil {
				continue // a Scaler of sparse rows and dense rows
			}
			pred, err1 := m.Predict(rows)
			scores, err2 := m.Score(rows)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			var parts, partScores []float64
			for _, r := range [][2]int{{0, BlockRows}, {BlockRows, 2 * BlockRows}, {2 * BlockRows, n}} {
				B, _ := rowRange(rows, r[0], r[1])
				p, _ := m.Predict(B)
				s, _ := m.Score(B)
				parts, partScores = append(parts, p...), append(partScores, s...)
			}
			if !slices.Equal(parts, pred) || !slices.Equal(partScores, scores) {
				t.Errorf("%T: parts of BlockRows rows give other scores", m.Classifier)
			}
			if _, ok := m.Classifier.(*perceptron.Kernel); ok {
				continue
			}
			// A few rows in blocks of every size.
			few, _ := rowRange(rows, 0, 40)
			Z, _ = rowRange(Z, 0, 40)
			want, wantScores := m.Classifier.PredictRows(nil, Z), m.Classifier.ScoreRows(nil, Z)
			for k, v := range want {
				want[k] = float64(slices.Index(m.Classifier.Classes(), v))
			}
			for _, values := range []int{1 << 24, 20, 1} {
				blockValues = values
				pred, err1 := m.Predict(few)
				scores, err2 := m.Score(few)
				blockValues = 1 << 24
				if err1 != nil || err2 != nil || !slices.Equal(pred, want) || !slices.Equal(scores, wantScores) {
					t.Fatalf("%T: blocks of %d values: %v, %v", m.Classifier, values, err1, err2)
				}
			}
		}
	}
	m := &Model{Classifier: &perceptron.Perceptron{}}
	if err := m.Fit(&Set{X: mat.NewDense(4, 1, []float64{1, 2, -1, -2}), Y: []float64{0, 0, 1, 1}, Classes: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	blockValues = 2
	defer func() { blockValues = 1 << 24 }()
	_, err := m.Predict(mat.NewDense(4, 1, []float64{1, 2, 3, math.MaxFloat64}))
	if err == nil || !strings.Contains(err.Error(), "row 4: the model's score is") {
		t.Errorf("%v, want an error of row 4", err)
	}
}

// A model whose steps hold a number for each of many features loads
// them into slices of their length: its text is some 20 bytes a number
// and loading allocates at most 2 times the text, which holds the text
// once and the numbers, 8 bytes each, with the classifier's.
func TestModelStepsMemory(t *testing.T) {
	const d = 1 << 20
	ptr, ind, val := []int{0, 1, 2}, []int{d - 1, 0}, []float64{1, 1}
	X, err := perceptron.NewCSR(2, d, ptr, ind, val)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := NewIDF(X)
	if err != nil {
		t.Fatal(err)
	}
	m := &Model{Classifier: &perceptron.Perceptron{}, Scaler: sc}
	if err := m.Fit(&Set{X: X, Y: []float64{0, 1}, Classes: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	text, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	loaded, err := decodeModel(text)
	runtime.ReadMemStats(&after)
	n := after.TotalAlloc - before.TotalAlloc
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(loaded.Scaler.Scale, sc.Scale) {
		t.Error("the weights of the features differ after loading")
	}
	if n > uint64(2*len(text)) {
		t.Errorf("loading a model of %d bytes allocated %d bytes, %.1f times", len(text), n, float64(n)/float64(len(text)))
	}
}

// TestModelJSONMemory checks that a model's JSON whose scaler needs more
// memory than is left is refused before the scaler's array is made, with
// an error of kind ErrTooLarge that names the array, and that the same
// text decodes with the memory.
func TestModelJSONMemory(t *testing.T) {
	const n = 4 << 20 // 32 MiB of numbers in 8 MiB of text
	text := []byte(`{"version":1,"classes":["a","b"],"scaler":{"scale":[` + strings.Repeat("1,", n-1) + `1]},"classifier":{}}`)
	if _, err := decodeText(text); err == nil || errors.Is(err, perceptron.ErrTooLarge) || !strings.HasPrefix(err.Error(), "classifier: ") {
		t.Errorf("with the memory: %v, want the error of the empty classifier", err)
	}
	defer limitAbove(16 << 20)()
	_, err := decodeText(text)
	if want := "reading the model: scaler: scale: an array of 4194304 numbers needs 32.0 MiB of memory"; !errors.Is(err, perceptron.ErrTooLarge) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("under a limit: %v, want %q", err, want)
	}
}

// limitAbove sets Go's memory limit room bytes above the memory that the
// process holds, once it has returned what it holds free, and returns the
// function that restores the limit.
func limitAbove(room int64) (restore func()) {
	old := debug.SetMemoryLimit(-1)
	debug.FreeOSMemory()
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	debug.SetMemoryLimit(int64(s[0].Value.Uint64()-s[1].Value.Uint64()) + room)
	return func() { debug.SetMemoryLimit(old) }
}

// TestDecodeModelOnce checks that the package's own JSON form, refused
// for what is wrong after its classifier has loaded, loads the classifier
// once: it allocates about what the same file allocates when it loads,
// not twice that, which under a limit of memory would refuse it for the
// memory of a second load rather than say what is wrong.
func TestDecodeModelOnce(t *testing.T) {
	const d = 1 << 20
	X, err := perceptron.NewCSR(2, d, []int{0, 1, 2}, []int{0, d - 1}, []float64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	m := &Model{Classifier: &perceptron.Perceptron{}, Classes: []string{"a", "b"}}
	if err := m.Classifier.(*perceptron.Perceptron).Fit(X, []float64{0, 1}); err != nil {
		t.Fatal(err)
	}
	good, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if firstMember(good) != "version" {
		t.Fatalf("the form starts %.40s", good)
	}
	// A Scaler of one column, where the classifier has d.
	bad := bytes.Replace(good, []byte(`"classes":`), []byte(`"scaler":{"scale":[1]},"classes":`), 1)
	allocated := func(text []byte) (uint64, error) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := decodeModel(text)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	}
	loads, err := allocated(good)
	if err != nil {
		t.Fatal(err)
	}
	refused, err := allocated(bad)
	if err == nil || !strings.HasPrefix(err.Error(), "scaler: 1 scales") {
		t.Fatalf("a Scaler of 1 column: %v", err)
	}
	if refused > loads+loads/4 {
		t.Errorf("refusing the file allocates %d bytes, loading it %d", refused, loads)
	}
}

// TestAccepts checks the columns that a Model's Predict takes: those of a
// classifier of package perceptron, which Features gives, and those that
// another Scorer's methods take without a panic, which Features cannot
// give.
func TestAccepts(t *testing.T) {
	p := &perceptron.Perceptron{}
	if err := p.Fit(mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, 1}), []float64{0, 1}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m        *Model
		features int
		want     string
	}{
		{&Model{Classifier: p, Classes: []string{"a", "b"}}, 3, "data: the rows have 2 columns, and the model takes 3"},
		{&Model{Classifier: identity{3}, Classes: []string{"a", "b", "c"}}, 0, "data: the rows have 2 columns, which the model does not take"},
	} {
		if got := c.m.Features(); got != c.features {
			t.Errorf("%T: Features %d, want %d", c.m.Classifier, got, c.features)
		}
		if _, err := c.m.Predict(mat.NewDense(1, 3, nil)); err != nil {
			t.Errorf("%T: rows of 3 columns: %v", c.m.Classifier, err)
		}
		if _, err := c.m.Predict(mat.NewDense(1, 2, nil)); err == nil || !errors.Is(err, perceptron.ErrShape) || err.Error() != c.want {
			t.Errorf("%T: rows of 2 columns: %v, want %q", c.m.Classifier, err, c.want)
		}
	}
}
