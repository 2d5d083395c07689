// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"compress/gzip"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// loaderTests are the loaders that fuzzTests leave out, as issue 47
// found: json.Unmarshal into a classifier of the file's type,
// UnmarshalBinary, data.LoadModel of plain and gzipped files, and the
// command's predict -model, each on changed files. Each file that loads
// must score rows, and save and load again into a classifier that saves
// the same bytes and scores the same rows to the bit; each that does not
// must be refused with an error of its kind.
func loaderTests() []test {
	ms, err := models()
	if err != nil {
		panic(err)
	}
	var ts []test
	for k, m := range ms {
		ts = append(ts, test{name: "load/typed/" + m.name, code: 0, lib: func(s *suite, _ []string) (string, error) {
			t := reflect.TypeOf(mustUnmarshal(m.json)).Elem()
			return mutations(s, s.sized(20000, 500), uint64(100+k), m.json, mutate, func(b []byte) (bool, error) {
				c := reflect.New(t).Interface().(perceptron.Scorer)
				if err := json.Unmarshal(b, c); err != nil {
					var syntax *json.SyntaxError
					if errors.As(err, &syntax) {
						return false, nil // encoding/json's, before the library reads it
					}
					return false, kindOf(err, perceptron.ErrFormat, perceptron.ErrTooLarge)
				}
				return true, reloads(c)
			})
		}})
		if _, ok := mustUnmarshal(m.json).(encoding.BinaryMarshaler); !ok {
			continue
		}
		ts = append(ts, test{name: "load/binary/" + m.name, code: 0, lib: func(s *suite, _ []string) (string, error) {
			c := mustUnmarshal(m.json)
			b, err := c.(encoding.BinaryMarshaler).MarshalBinary()
			if err != nil {
				return "", err
			}
			t := reflect.TypeOf(c).Elem()
			return mutations(s, s.sized(20000, 500), uint64(200+k), b, mutateBinary, func(b []byte) (bool, error) {
				c := reflect.New(t).Interface().(perceptron.Scorer)
				if err := c.(encoding.BinaryUnmarshaler).UnmarshalBinary(b); err != nil {
					return false, kindOf(err, perceptron.ErrFormat, perceptron.ErrTooLarge)
				}
				again, err := c.(encoding.BinaryMarshaler).MarshalBinary()
				if err != nil {
					return true, fmt.Errorf("the loaded %s does not save: %v", t.Name(), err)
				}
				if !bytes.Equal(again, b) {
					return true, fmt.Errorf("the loaded %s saves %d bytes other than the %d it loaded", t.Name(), len(again), len(b))
				}
				return true, reloads(c)
			})
		}})
	}
	ts = append(ts,
		test{name: "load/model-file", code: 0, lib: func(s *suite, _ []string) (string, error) {
			return modelFileMutations(s, false, false)
		}},
		test{name: "load/model-file-gzip", code: 0, lib: func(s *suite, _ []string) (string, error) {
			return modelFileMutations(s, true, false)
		}},
		test{name: "load/model-file-idf-predict-only", code: 0, lib: func(s *suite, _ []string) (string, error) {
			return modelFileMutations(s, false, true)
		}},
		test{name: "load/predict-model", code: 0, args: func(s *suite) ([]string, error) {
			set, err := s.file("predict.csv", text("1,0,0\n0,1,1\n2,1,0\n0,2,1\n"))
			return []string{s.cmd, set}, err
		}, lib: predictMutations},
	)
	return ts
}

// mutations loads the file b and, from a source of the seed, n changed
// copies of it that change makes, with load, which reports whether a
// file loaded, or an error if it did not load as it must. b itself must
// load. It returns a note of the counts, or the first error, with the
// file.
func mutations(s *suite, n int, seed uint64, b []byte, change func(*rand.Rand, []byte) []byte, load func([]byte) (bool, error)) (string, error) {
	if ok, err := load(b); !ok || err != nil {
		return "", fmt.Errorf("the file itself: loaded %t, %v", ok, err)
	}
	rng := rand.New(rand.NewPCG(s.seed, seed))
	loaded := 0
	for i := range n {
		c := change(rng, b)
		ok, err := catch(func() (bool, error) { return load(c) })
		if err != nil {
			return "", fmt.Errorf("change %d, seed %d: %v: %.2000q", i, s.seed, err, c)
		}
		if ok {
			loaded++
		}
	}
	return fmt.Sprintf("%d changed files: %d loaded, saved and loaded again, %d refused", n, loaded, n-loaded), nil
}

// catch calls f and returns its panic, if any, as an error, but a panic
// of kind ErrShape, which a model of another width than its rows raises.
func catch(f func() (bool, error)) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// kindOf returns nil if err is of one of the kinds, and an error that
// says so otherwise.
func kindOf(err error, kinds ...error) error {
	for _, k := range kinds {
		if errors.Is(err, k) {
			return nil
		}
	}
	return fmt.Errorf("an error of no kind of %v: %v", kinds, err)
}

// mustUnmarshal returns the classifier of the JSON b, which must load.
func mustUnmarshal(b []byte) perceptron.Scorer {
	c, err := perceptron.Unmarshal(b)
	if err != nil {
		panic(err)
	}
	return c
}

// reloads returns an error if c, a classifier that loaded, does not score
// rows of its width, or does not save and load again into a classifier
// that saves the same JSON and scores those rows to the same bits.
func reloads(c perceptron.Scorer) error {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("the loaded %T does not save: %v", c, err)
	}
	again, err := perceptron.Unmarshal(b)
	if err != nil {
		return fmt.Errorf("the loaded %T saves a file that does not load: %v", c, err)
	}
	if b2, err := json.Marshal(again); err != nil || !bytes.Equal(b2, b) {
		return fmt.Errorf("the loaded %T, saved and loaded, saves other bytes: %v", c, err)
	}
	for _, X := range rowsOf(width(c)) {
		if !sameBits(c.ScoreRows(nil, X), again.ScoreRows(nil, X)) {
			return fmt.Errorf("the loaded %T, saved and loaded, scores otherwise", c)
		}
	}
	return nil
}

// width returns the number of columns of the rows that c scores, which
// the message of the panic of rows of another width gives.
func width(c perceptron.Scorer) (d int) {
	d = 1
	defer func() {
		r := recover()
		if err, ok := r.(error); ok && errors.Is(err, perceptron.ErrShape) {
			_, after, _ := strings.Cut(err.Error(), "want ")
			fmt.Sscan(after, &d)
		} else if r != nil {
			panic(r)
		}
	}()
	c.ScoreRows(nil, mat.NewDense(1, 1, nil))
	return d
}

// rowsOf returns rows of d columns to score: eight sparse ones of up to
// three values, and, if d is small, the same rows dense.
func rowsOf(d int) []mat.Matrix {
	rng := rand.New(rand.NewPCG(uint64(d), 7))
	ptr, ind, val := []int{0}, []int(nil), []float64(nil)
	for range 8 {
		cols := map[int]bool{}
		for range rng.IntN(4) {
			cols[rng.IntN(d)] = true
		}
		row := make([]int, 0, len(cols))
		for j := range cols {
			row = append(row, j)
		}
		slices.Sort(row)
		for _, j := range row {
			ind, val = append(ind, j), append(val, math.Round(rng.NormFloat64()*8)/4)
		}
		ptr = append(ptr, len(ind))
	}
	X, err := perceptron.NewCSR(8, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	if d > 1000 {
		return []mat.Matrix{X}
	}
	dense := mat.NewDense(8, d, nil)
	for i := range 8 {
		for k := ptr[i]; k < ptr[i+1]; k++ {
			dense.Set(i, ind[k], val[k])
		}
	}
	return []mat.Matrix{X, dense}
}

// sameBits reports whether a and b hold the same float64s, bit for bit.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// mutateBinary returns b with one to three random changes: a byte
// changed, a word of 8 bytes set to a number at the edge of what a size
// or a float64 holds, a span deleted or repeated, or the end cut off.
func mutateBinary(rng *rand.Rand, b []byte) []byte {
	b = bytes.Clone(b)
	words := []uint64{0, 1, 1 << 31, 1 << 53, 1 << 62, math.MaxUint64, math.Float64bits(math.NaN()), math.Float64bits(math.Inf(1)), math.Float64bits(-1)}
	for range 1 + rng.IntN(3) {
		if len(b) == 0 {
			return b
		}
		i := rng.IntN(len(b))
		j := min(len(b), i+1+rng.IntN(32))
		switch rng.IntN(6) {
		case 0, 1:
			b[i] = byte(rng.Uint32())
		case 2:
			if i+8 <= len(b) {
				w := words[rng.IntN(len(words))]
				for k := range 8 {
					b[i+k] = byte(w >> (8 * k))
				}
			}
		case 3:
			b = append(b[:i:i], b[j:]...)
		case 4:
			k := rng.IntN(len(b))
			b = append(append(b[:k:k], b[i:j]...), b[k:]...)
		case 5:
			b = b[:i]
		}
	}
	return b
}

// modelFile returns a small data.Model of three classes, with a scaler
// and the classes' names, fitted, and its rows; with idf, the scaler is
// NewIDF's, which the binary form holds as counts, and the classifier
// holds what its predictions read alone (perceptron.PredictOnly).
func modelFile(idf bool) (*data.Model, mat.Matrix, error) {
	dense, _, _, y3 := rows3()
	newScaler := data.NewScaler
	if idf {
		newScaler = data.NewIDF
	}
	sc, err := newScaler(dense)
	if err != nil {
		return nil, nil, err
	}
	m := &data.Model{Classifier: &perceptron.Averaged{Epochs: 5}, Scaler: sc, Names: []string{"a", "b", "c"}, Label: "class"}
	if err = m.Fit(&data.Set{X: dense, Y: y3, Classes: []string{"a", "b", "c"}}); err == nil && idf {
		err = perceptron.PredictOnly(m.Classifier)
	}
	return m, dense, err
}

// modelFileMutations loads, with data.LoadModel, changed copies of the
// file of a data.Model, gzipped if gz: each is refused with an error of
// kind ErrFormat or ErrTooLarge, or loads into a Model that predicts, and
// saves and loads again into one that predicts the same. Changes are made
// to the text, and for a gzipped file, or the Model of IDF counts that
// idf makes (modelFile), to its bytes as well, and it is cut at every
// byte.
func modelFileMutations(s *suite, gz, idf bool) (string, error) {
	m, X, err := modelFile(idf)
	if err != nil {
		return "", err
	}
	var text bytes.Buffer
	if _, err := m.WriteTo(&text); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "stress-model")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	name := "m.json"
	if gz {
		name += ".gz"
	}
	path := filepath.Join(dir, name)
	load := func(b []byte) (bool, error) {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return false, err
		}
		l, err := data.LoadModel(path)
		if err != nil {
			return false, kindOf(err, perceptron.ErrFormat, perceptron.ErrTooLarge)
		}
		return true, modelReloads(l, X, filepath.Join(dir, "again.json"))
	}
	zip := func(b []byte) []byte {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(b)
		w.Close()
		return z.Bytes()
	}
	file := text.Bytes()
	if gz {
		file = zip(file)
	}
	n := s.sized(5000, 150)
	note, err := mutations(s, n, 300, text.Bytes(), mutate, func(b []byte) (bool, error) {
		if gz {
			b = zip(b)
		}
		return load(b)
	})
	if err != nil || !gz && !idf {
		return note, err
	}
	// The bytes of a gzipped file, and those of the binary form of a
	// Model of IDF counts and an absent table, changed and cut.
	more, err := mutations(s, n, 301, file, mutateBinary, load)
	if err != nil {
		return "", err
	}
	for n := range len(file) {
		if ok, err := load(file[:n]); ok || err != nil {
			return "", fmt.Errorf("the file cut to %d of %d bytes: loaded %t, %v", n, len(file), ok, err)
		}
	}
	return fmt.Sprintf("text: %s; bytes: %s; %d cut files refused", note, more, len(file)), nil
}

// modelReloads returns an error if the loaded Model l does not predict
// rows of its width, or does not save to path and load again into a Model
// that predicts them the same.
func modelReloads(l *data.Model, X mat.Matrix, path string) error {
	var rows []mat.Matrix
	if _, c := X.Dims(); c == l.Features() {
		rows = append(rows, X)
	}
	rows = append(rows, rowsOf(max(1, l.Features()))...)
	// WriteTo is what Save writes, without its sync, which takes long.
	var b bytes.Buffer
	if _, err := l.WriteTo(&b); err != nil {
		return fmt.Errorf("the loaded model does not save: %v", err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return err
	}
	again, err := data.LoadModel(path)
	if err != nil {
		return fmt.Errorf("the loaded model saves a file that does not load: %v", err)
	}
	for _, X := range rows {
		p1, err1 := l.Predict(X)
		p2, err2 := again.Predict(X)
		if (err1 == nil) != (err2 == nil) || !sameBits(p1, p2) {
			return fmt.Errorf("the loaded model, saved and loaded, predicts otherwise: %v, %v", err1, err2)
		}
	}
	return nil
}

// predictMutations runs the command's predict -model, args[0], on the
// rows of the file args[1], which have no label, with changed copies of a model file, plain and
// gzipped: each must end with exit status 0 and a prediction a row, or 1
// and one line of error, never a crash.
func predictMutations(s *suite, args []string) (string, error) {
	m, _, err := modelFile(false)
	if err != nil {
		return "", err
	}
	var text bytes.Buffer
	if _, err := m.WriteTo(&text); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "stress-predict")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	rng := rand.New(rand.NewPCG(s.seed, 400))
	n, loaded := s.sized(400, 40), 0
	for i := range n {
		b, name := text.Bytes(), "m.json"
		if i > 0 {
			b = mutate(rng, b)
		}
		if i%2 == 1 {
			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			w.Write(b)
			w.Close()
			b, name = z.Bytes(), "m.json.gz"
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return "", err
		}
		cmd := exec.Command(args[0], "predict", "-label", "none", "-model", path, args[1])
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		switch {
		case err != nil && code != 1:
			return "", fmt.Errorf("change %d, seed %d: %v: %s: %.2000q", i, s.seed, err, clip(stderr.String(), 2000), b)
		case code == 1 && (stderr.Len() > maxStderr || strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), "perceptron: ")):
			return "", fmt.Errorf("change %d, seed %d: the error is not one line of the command's: %s", i, s.seed, clip(stderr.String(), 2000))
		case code == 0 && strings.Count(stdout.String(), "\n") != 4:
			return "", fmt.Errorf("change %d, seed %d: predictions %q, want 4 lines", i, s.seed, clip(stdout.String(), 200))
		case i == 0 && code != 0:
			return "", fmt.Errorf("the model itself: %s", stderr.String())
		case code == 0:
			loaded++
		}
	}
	return fmt.Sprintf("%d model files, plain and gzipped: %d predicted, %d refused", n, loaded, n-loaded), nil
}
