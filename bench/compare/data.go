// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/bench/sets"
	"github.com/seed5ae3614e/perceptron/internal/synth"
)

// dataSet is a training and a test set that every system sees row for row.
type dataSet struct {
	name  string
	about string

	// train and test are both *mat.Dense or both *perceptron.CSR.
	train  mat.Matrix
	ytrain []float64
	test   mat.Matrix
	ytest  []float64

	// wtrain, if not nil, weighs the training rows, for scikit-learn's
	// fits alone.
	wtrain []float64

	// linearOnly leaves out the kernel models and their peers, whose
	// cost grows with the square of the rows.
	linearOnly bool

	// timedOnly leaves out every model but those timed against
	// scikit-learn's Perceptron and SGDClassifier.
	timedOnly bool

	// entries and peers, if not nil, are the models that run on the set,
	// in place of the package's entries and peers; check, if not nil,
	// checks them, in place of the checks of two classes.
	entries []entry
	peers   []peer
	check   func(*run)
}

// sparse reports whether the rows of ds are sparse.
func (ds *dataSet) sparse() bool {
	_, ok := ds.train.(*perceptron.CSR)
	return ok
}

// dense returns the rows of a dense ds, for the peers and checks that
// read dense rows only: Weka's, and those of the weights.
func (ds *dataSet) dense() (train, test *mat.Dense) {
	train, ok := ds.train.(*mat.Dense)
	if !ok {
		panic("compare: " + ds.name + " is sparse")
	}
	return train, ds.test.(*mat.Dense)
}

// Shape of the synthetic set: n training rows, nTest test rows, d features.
const (
	synthN     = 100_000
	synthNTest = 10_000
	synthD     = 100
)

// loadFashion returns the Fashion-MNIST pair called name from dir.
func loadFashion(dir, name string) (*dataSet, error) {
	for _, p := range sets.FashionPairs {
		if p.Name != name {
			continue
		}
		Xtr, ytr, Xte, yte, err := sets.FashionPair(dir, p.Pos, p.Neg)
		if err != nil {
			return nil, err
		}
		return &dataSet{
			name:   name,
			about:  fmt.Sprintf("Fashion-MNIST classes %d (+1) and %d (-1), pixels scaled to [0, 1]", p.Pos, p.Neg),
			train:  Xtr,
			ytrain: ytr,
			test:   Xte,
			ytest:  yte,
		}, nil
	}
	return nil, fmt.Errorf("no Fashion-MNIST pair called %q", name)
}

// debianPairs are the class pairs of the Debian sections data set that
// the command runs on: the first class is +1 and the second -1.
var debianPairs = map[string][2]int{
	"libs-libdevel": {sets.Libs, sets.LibDevel},
}

// loadDebian returns the Debian sections pair called name from dir, as
// CSR matrices.
func loadDebian(dir, name string) (*dataSet, error) {
	pair, ok := debianPairs[name]
	if !ok {
		return nil, fmt.Errorf("no Debian sections pair called %q", name)
	}
	Xtr, ytr, Xte, yte, err := sets.DebianPair(dir, pair[0], pair[1])
	if err != nil {
		return nil, err
	}
	return &dataSet{
		name: name,
		about: fmt.Sprintf("Debian sections %d (+1) and %d (-1), word presence, sparse: %d non-zeros in the training rows, a CSR of %.2f MB",
			pair[0], pair[1], Xtr.NNZ(), mb(csrBytes(Xtr))),
		train:     Xtr,
		ytrain:    ytr,
		test:      Xte,
		ytest:     yte,
		timedOnly: true,
	}, nil
}

// csrBytes returns the size of the slices of m: rows+1 and NNZ ints, and
// NNZ float64 values.
func csrBytes(m *perceptron.CSR) uint64 {
	r, _ := m.Dims()
	return uint64(8 * (r + 1 + 2*m.NNZ()))
}

// csrSlices returns the three slices of the compressed sparse rows of m,
// copied from DoRowNonZero, for the loops that read the rows bare: row i
// holds the values val[ptr[i]:ptr[i+1]] at the columns ind[ptr[i]:ptr[i+1]].
func csrSlices(m *perceptron.CSR) (ptr, ind []int, val []float64) {
	r, _ := m.Dims()
	ptr = make([]int, 1, r+1)
	ind = make([]int, 0, m.NNZ())
	val = make([]float64, 0, m.NNZ())
	for i := range r {
		m.DoRowNonZero(i, func(_, j int, v float64) {
			ind = append(ind, j)
			val = append(val, v)
		})
		ptr = append(ptr, len(ind))
	}
	return ptr, ind, val
}

func mb(bytes uint64) float64 { return float64(bytes) / 1e6 }

// loadSynthetic returns synth.Data's set of synthN+synthNTest rows, split
// into its first synthN rows for training and the rest for testing.
func loadSynthetic() *dataSet {
	X, y := synth.Data(synthN+synthNTest, synthD)
	return &dataSet{
		name:       "synthetic",
		about:      fmt.Sprintf("synth.Data(%d, %d): dense, uniform in [0, 1), 5%% of labels flipped", synthN+synthNTest, synthD),
		train:      X.Slice(0, synthN, 0, synthD).(*mat.Dense),
		ytrain:     y[:synthN],
		test:       X.Slice(synthN, synthN+synthNTest, 0, synthD).(*mat.Dense),
		ytest:      y[synthN:],
		linearOnly: true,
	}
}

// writeCSR writes the slices of the rows of m, which numpy reads with
// np.fromfile, into three files: base+".indptr" and base+".indices", as
// little-endian int64, and base+".data", as little-endian float64.
func writeCSR(base string, m *perceptron.CSR) error {
	r, _ := m.Dims()
	ptr := make([]int64, 1, r+1)
	ind := make([]int64, 0, m.NNZ())
	val := make([]float64, 0, m.NNZ())
	for i := range r {
		m.DoRowNonZero(i, func(_, j int, v float64) {
			ind = append(ind, int64(j))
			val = append(val, v)
		})
		ptr = append(ptr, int64(len(ind)))
	}
	for ext, data := range map[string]any{".indptr": ptr, ".indices": ind, ".data": val} {
		err := create(base+ext, func(w io.Writer) error { return binary.Write(w, binary.LittleEndian, data) })
		if err != nil {
			return err
		}
	}
	return nil
}

// writeFloats writes the rows of X, then nothing else, as little-endian
// float64: the bits the Go side trains on, which numpy reads with
// np.fromfile(path, dtype="<f8").
func writeFloats(w io.Writer, X *mat.Dense) error {
	n, _ := X.Dims()
	for i := range n {
		if err := binary.Write(w, binary.LittleEndian, X.RawRowView(i)); err != nil {
			return err
		}
	}
	return nil
}

// create writes the file at path with write.
func create(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readFloats reads a file of little-endian float64 values.
func readFloats(path string) ([]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("%s: %d bytes is not a whole number of float64 values", path, len(b))
	}
	v := make([]float64, len(b)/8)
	_, err = binary.Decode(b, binary.LittleEndian, v)
	return v, err
}

// writeARFF writes X and the labels y as an ARFF file with numeric
// attributes x1, x2, ... and a nominal class {neg, pos}, for labels -1
// and +1. Row order[k] of X is written k-th; a nil order writes the rows
// in order. Values are written in the shortest form that reads back to the
// same float64, so Weka trains on the same numbers as everyone else.
func writeARFF(w io.Writer, relation string, X *mat.Dense, y []float64, order []int) error {
	n, d := X.Dims()
	line := fmt.Appendf(nil, "@relation %s\n\n", relation)
	for j := range d {
		line = fmt.Appendf(line, "@attribute x%d numeric\n", j+1)
	}
	line = append(line, "@attribute class {neg,pos}\n\n@data\n"...)
	if _, err := w.Write(line); err != nil {
		return err
	}
	for k := range n {
		i := k
		if order != nil {
			i = order[k]
		}
		line = line[:0]
		for _, v := range X.RawRowView(i) {
			line = strconv.AppendFloat(line, v, 'g', -1, 64)
			line = append(line, ',')
		}
		switch y[i] {
		case 1:
			line = append(line, "pos\n"...)
		case -1:
			line = append(line, "neg\n"...)
		default:
			return fmt.Errorf("label y[%d] is %v, want -1 or +1", i, y[i])
		}
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// wekaSeed is the seed with which Weka's VotedPerceptron shuffles its
// training set (its -S option, default 1).
const wekaSeed = 1

// wekaOrder returns the order in which to write n training rows to an ARFF
// file so that Weka, after the shuffle that VotedPerceptron.buildClassifier
// makes with Instances.randomize(new Random(seed)), visits them in their
// own order 0, 1, ..., n-1 like every other system in the comparison.
func wekaOrder(n int, seed int64) []int {
	// at[i] is the file position of the row that the shuffle moves to i.
	at := make([]int, n)
	for i := range at {
		at[i] = i
	}
	r := newJavaRandom(seed)
	// Instances.randomize: a Fisher–Yates shuffle from the end.
	for j := n - 1; j > 0; j-- {
		k := int(r.nextInt(int32(j + 1)))
		at[j], at[k] = at[k], at[j]
	}
	order := make([]int, n)
	for i, p := range at {
		order[p] = i
	}
	return order
}

// javaRandom is java.util.Random, the 48-bit linear congruential generator
// whose algorithm its documentation specifies.
type javaRandom struct{ seed uint64 }

const (
	javaMultiplier = 0x5DEECE66D
	javaMask       = 1<<48 - 1
)

func newJavaRandom(seed int64) *javaRandom {
	return &javaRandom{seed: (uint64(seed) ^ javaMultiplier) & javaMask}
}

func (r *javaRandom) next(bits uint) int32 {
	r.seed = (r.seed*javaMultiplier + 0xB) & javaMask
	return int32(r.seed >> (48 - bits))
}

// nextInt returns a value in [0, bound), as Random.nextInt(int) does.
func (r *javaRandom) nextInt(bound int32) int32 {
	u := r.next(31)
	m := bound - 1
	if bound&m == 0 {
		return int32((int64(bound) * int64(u)) >> 31)
	}
	// Java rejects the top values that would bias the remainder; the test
	// relies on int32 wrapping round, as Java's int does.
	for v := u % bound; ; v = u % bound {
		if u-v+m >= 0 {
			return v
		}
		u = r.next(31)
	}
}
