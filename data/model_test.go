// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// modelData returns n rows of d features of k classes, dense, whose
// features are far from standardised, and the same rows sparse, with
// about a third of their values zero.
func modelData(rnd *rand.Rand, n, d, k int) (dense, sparse *data.Set) {
	X := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		y[i] = float64(rnd.IntN(k))
		for j := range d {
			if rnd.IntN(3) > 0 {
				X.Set(i, j, 50+10*rnd.NormFloat64()+5*y[i]*float64(j%3))
			}
		}
	}
	classes := []string{"alpha", "beta", "gamma", "delta"}[:k]
	return &data.Set{X: X, Y: y, Classes: classes}, &data.Set{X: sparseOf(X), Y: y, Classes: classes}
}

// sparseOf returns the non-zeros of X as a *perceptron.CSR.
func sparseOf(X *mat.Dense) *perceptron.CSR {
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

// Transform standardises as the Scaler does, and then scales each row to
// unit length: each row comes out parallel to the standardised row, of
// length 1, as a sum of squares computed here gives it.
func TestModelTransform(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, sparse := range []bool{false, true} {
		dense, sp := modelData(rnd, 200, 7, 3)
		set := dense
		if sparse {
			set = sp
		}
		sc, err := data.NewScaler(set.X)
		if err != nil {
			t.Fatal(err)
		}
		std, err := sc.Transform(set.X)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []*data.Model{{Scaler: sc}, {Normalize: true}, {Scaler: sc, Normalize: true}} {
			Z, err := m.Transform(set.X)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := Z.(*perceptron.CSR); ok != sparse {
				t.Errorf("sparse %v: Transform gives a %T", sparse, Z)
			}
			before := set.X
			if m.Scaler != nil {
				before = std
			}
			if !m.Normalize {
				if !mat.Equal(Z, std) {
					t.Errorf("sparse %v: Transform does not standardise as the Scaler does", sparse)
				}
				continue
			}
			n, _ := Z.Dims()
			for i := range n {
				x, z := mat.Row(nil, i, before), mat.Row(nil, i, Z)
				var ss float64
				for _, v := range x {
					ss += v * v
				}
				norm := math.Sqrt(ss)
				var zz float64
				for j := range z {
					zz += z[j] * z[j]
					if math.Abs(z[j]-x[j]/norm) > 1e-15 {
						t.Fatalf("sparse %v, scaler %v: row %d: %v, want %v", sparse, m.Scaler != nil, i, z, x)
					}
				}
				if math.Abs(zz-1) > 1e-14 {
					t.Errorf("row %d has the squared length %v", i, zz)
				}
			}
		}
	}
	// A row of zeros stays so, and X itself is what a Model of no steps
	// transforms.
	X := mat.NewDense(2, 2, []float64{0, 0, 3, 4})
	Z, err := (&data.Model{Normalize: true}).Transform(X)
	if err != nil || !mat.Equal(Z, mat.NewDense(2, 2, []float64{0, 0, 0.6, 0.8})) {
		t.Errorf("Transform = %v, %v", mat.Formatted(Z), err)
	}
	if Z, _ := (&data.Model{}).Transform(X); Z != mat.Matrix(X) {
		t.Error("a Model of no steps copies the rows")
	}
}

// Predict and Score give what the classifier gives of the rows that
// Transform gives, and Fit names the classes as the Set does, even when a
// class has no row.
func TestModelPredict(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{2, 4} {
		dense, sparse := modelData(rnd, 300, 50, k)
		for _, set := range []*data.Set{dense, sparse} {
			sc, err := data.NewScaler(set.X)
			if err != nil {
				t.Fatal(err)
			}
			m := &data.Model{Classifier: &perceptron.Averaged{Epochs: 1}, Scaler: sc, Normalize: true}
			if err := m.Fit(set); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.Classes, set.Classes) || m.Features() != 50 {
				t.Fatalf("Classes %q, features %d", m.Classes, m.Features())
			}
			Z, err := m.Transform(set.X)
			if err != nil {
				t.Fatal(err)
			}
			want := m.Classifier.PredictRows(nil, Z)
			wantScores := m.Classifier.ScoreRows(nil, Z)
			pred, err := m.Predict(set.X)
			if err != nil {
				t.Fatal(err)
			}
			scores, err := m.Score(set.X)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(pred, want) || !slices.Equal(scores, wantScores) {
				t.Errorf("%d classes: Predict and Score differ from the classifier's", k)
			}
		}
	}
	// A class without a row is a class of the Set that the Classifier
	// does not know, unless its Labels name it.
	set := &data.Set{X: mat.NewDense(4, 1, []float64{1, 2, -1, -2}), Y: []float64{0, 0, 2, 2}, Classes: []string{"a", "b", "c"}}
	m := &data.Model{Classifier: &perceptron.Perceptron{}}
	if err := m.Fit(set); err != nil || !slices.Equal(m.Classes, []string{"a", "c"}) {
		t.Errorf("Classes %q: %v", m.Classes, err)
	}
	if pred, err := m.Predict(mat.NewDense(2, 1, []float64{5, -5})); err != nil || !slices.Equal(pred, []float64{0, 1}) {
		t.Errorf("Predict = %v, %v", pred, err)
	}
	m = &data.Model{Classifier: &perceptron.Perceptron{Labels: []float64{0, 1, 2}}}
	if err := m.Fit(set); err != nil || !slices.Equal(m.Classes, set.Classes) {
		t.Errorf("with Labels: Classes %q: %v", m.Classes, err)
	}
}

// Predict, Score and Fit refuse what they cannot take, with an error of
// the kind it is.
func TestModelErrors(t *testing.T) {
	X := mat.NewDense(2, 2, []float64{1, 2, -1, -2})
	set := &data.Set{X: X, Y: []float64{0, 1}, Classes: []string{"a", "b"}}
	m := &data.Model{Classifier: &perceptron.Perceptron{}}
	if err := m.Fit(set); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m    *data.Model
		X    mat.Matrix
		kind error
		want string
	}{
		{m, mat.NewDense(1, 3, nil), perceptron.ErrShape, "the rows have 3 columns, and the model takes 2"},
		{m, mat.NewDense(1, 2, []float64{1e308, 1e308}), perceptron.ErrNonFinite, "row 1: the model's score is -Inf"},
		{&data.Model{Classifier: m.Classifier, Classes: []string{"a"}}, X, perceptron.ErrShape, "1 Classes, and its Classifier 2 classes"},
		{&data.Model{Classifier: m.Classifier, Classes: m.Classes, Names: []string{"x"}}, X, perceptron.ErrShape, "1 Names and 2 Classes"},
		{&data.Model{Classifier: m.Classifier, Classes: m.Classes, Scaler: &data.Scaler{Scale: []float64{1e-300, 1}}}, mat.NewDense(2, 2, []float64{1, 2, 1e10, 0}), perceptron.ErrNonFinite, "row 2, column 1: standardising overflows"},
	} {
		for _, f := range []func() error{
			func() error { _, err := c.m.Predict(c.X); return err },
			func() error { _, err := c.m.Score(c.X); return err },
		} {
			if err := f(); !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want %q", err, c.want)
			}
		}
	}
	if err := (&data.Model{}).Fit(set); err == nil || !strings.Contains(err.Error(), "no Classifier") {
		t.Errorf("Fit without a classifier: %v", err)
	}
	if err := m.Fit(&data.Set{X: X}); err == nil || !strings.Contains(err.Error(), "labels") {
		t.Errorf("Fit without labels: %v", err)
	}
	if err := (&data.Model{Classifier: &perceptron.Perceptron{Labels: []float64{0, 1, 7}}}).Fit(set); err == nil || !strings.Contains(err.Error(), "the class 7") {
		t.Errorf("Fit with Labels that are no classes: %v", err)
	}
}

// A Model saves to a file, gzipped or not, that loads to a Model that
// predicts as it does and saves to the same bytes; the library's JSON of
// its classifier is the file's member classifier.
func TestModelSaveLoad(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(5, 6))
	dense, sparse := modelData(rnd, 300, 6, 3)
	for _, set := range []*data.Set{dense, sparse} {
		sc, _ := data.NewScaler(set.X)
		for _, c := range []perceptron.Scorer{&perceptron.Averaged{Epochs: 4}, &perceptron.Kernel{Epochs: 1}, &perceptron.OneVsRest{}} {
			m := &data.Model{Classifier: c, Scaler: sc, Normalize: true, Names: []string{"one", "two", "three"}, Label: "first"}
			if err := m.Fit(set); err != nil {
				t.Fatal(err)
			}
			want, err := m.Predict(set.X)
			if err != nil {
				t.Fatal(err)
			}
			text, err := m.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			var form bytes.Buffer
			if _, err := m.WriteTo(&form); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"m.json", "m.json.gz", "m.JSON.GZ", "m.model", "m.gz"} {
				path := filepath.Join(dir, name)
				if err := m.Save(path); err != nil {
					t.Fatal(err)
				}
				b, _ := os.ReadFile(path)
				if gz := bytes.HasPrefix(b, []byte{0x1f, 0x8b}); gz != strings.HasSuffix(strings.ToLower(name), ".gz") {
					t.Errorf("%s: gzipped %v", name, gz)
				}
				if gz, _ := gzip.NewReader(bytes.NewReader(b)); gz != nil {
					b, _ = io.ReadAll(gz)
				}
				if want := append(slices.Clone(text), '\n'); !strings.Contains(strings.ToLower(name), ".json") {
					if !bytes.Equal(b, form.Bytes()) {
						t.Errorf("%s: not the binary form", name)
					}
				} else if !bytes.Equal(b, want) {
					t.Errorf("%s: not the JSON form", name)
				}
				l, err := data.LoadModel(path)
				if err != nil {
					t.Fatal(err)
				}
				got, err := l.Predict(set.X)
				if err != nil || !slices.Equal(got, want) {
					t.Errorf("%s: the loaded %T predicts otherwise: %v", name, c, err)
				}
				again, _ := l.MarshalJSON()
				var againForm bytes.Buffer
				l.WriteTo(&againForm)
				if !bytes.Equal(again, text) || !bytes.Equal(againForm.Bytes(), form.Bytes()) || l.Label != "first" || !slices.Equal(l.Names, m.Names) || l.Features() != 6 {
					t.Errorf("%s: saved\n%s\nthen\n%s", name, text, again)
				}
			}
			var file map[string]json.RawMessage
			if err := json.Unmarshal(text, &file); err != nil {
				t.Fatal(err)
			}
			lib, err := perceptron.Unmarshal(file["classifier"])
			if err != nil {
				t.Fatal(err)
			}
			if mine, _ := json.Marshal(m.Classifier); !bytes.Equal(file["classifier"], mine) {
				t.Errorf("the member classifier is not the library's JSON of %T", lib)
			}
		}
	}
	if _, err := data.LoadModel(filepath.Join(dir, "none.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// LoadModel reads the library's JSON of a classifier alone, its classes
// named by their values, and a model file of version 4 of the command,
// the library's JSON with the member "command"; it refuses, naming the
// path, what is not a Model.
func TestLoadModelForms(t *testing.T) {
	dir := t.TempDir()
	X := mat.NewDense(4, 2, []float64{1, 2, -1, -2, 2, 1, -2, 0})
	p := &perceptron.Perceptron{}
	if err := p.Fit(X, []float64{-1, 1, -1, 1}); err != nil {
		t.Fatal(err)
	}
	lib, _ := json.Marshal(p)
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	m, err := data.LoadModel(write("bare.json", lib))
	if err != nil || !slices.Equal(m.Classes, []string{"-1", "1"}) || m.Scaler != nil || m.Features() != 2 {
		t.Fatalf("bare: %+v, %v", m, err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(lib)
	zw.Close()
	if m, err := data.LoadModel(write("bare.gz", gz.Bytes())); err != nil || m.Features() != 2 {
		t.Errorf("gzipped bare: %v", err)
	}
	v4 := append(bytes.TrimSuffix(lib, []byte("}")), `,"command":{"version":4,"features":2,"label":"first","classes":["no","yes"],"names":["No","Yes"],"picked":true,"mean":[1,2],"scale":[3,4],"rms":1.5}}`...)
	m, err = data.LoadModel(write("v4.json", v4))
	if err != nil || !slices.Equal(m.Classes, []string{"no", "yes"}) || !slices.Equal(m.Names, []string{"No", "Yes"}) || m.Label != "first" ||
		!slices.Equal(m.Scaler.Mean, []float64{1, 2}) || !slices.Equal(m.Scaler.Scale, []float64{3, 4}) {
		t.Fatalf("version 4: %+v, %v", m, err)
	}
	// The version 4 file predicts as its classifier does of the rows
	// standardised.
	pred, _ := m.Predict(X)
	Z := mat.NewDense(4, 2, nil)
	Z.Apply(func(_, j int, v float64) float64 { return (v - []float64{1, 2}[j]) / []float64{3, 4}[j] }, X)
	for i, v := range p.PredictRows(nil, Z) {
		if pred[i] != (v+1)/2 {
			t.Errorf("version 4 predicts %v, want the class of %v", pred, p.PredictRows(nil, Z))
		}
	}
	good, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	// hashed returns good with the member hashing, of the JSON h.
	hashed := func(h string) []byte {
		return bytes.Replace(good, []byte(`{"version":1,`), []byte(`{"version":1,"hashing":`+h+`,`), 1)
	}
	for _, c := range []struct {
		name string
		text []byte
		want string
	}{
		{"old.json", []byte(`{"format":"perceptron-command-model","version":3}`), "the command's old format"},
		{"csv.json", []byte("1,2,3\n"), `not a model: the file starts with "1,2,3\n"`},
		{"cut.json", good[:len(good)/2], "not a model: unexpected end of JSON input"},
		{"none.json", []byte(`{"a":1}`), "not a model: no member classifier, nor type"},
		{"v5.json", bytes.Replace(v4, []byte(`"version":4`), []byte(`"version":5`), 1), "member command of version 5, want 4"},
		{"v4width.json", bytes.Replace(v4, []byte(`"features":2`), []byte(`"features":3`), 1), "member command: 3 features, but the classifier has 2"},
		{"v4member.json", bytes.Replace(v4, []byte(`"rms"`), []byte(`"RMS"`), 1), `member command: unknown member "RMS"`},
		{"version.json", bytes.Replace(good, []byte(`{"version":1`), []byte(`{"version":2`), 1), "a model of version 2, want 1"},
		{"unknown.json", bytes.Replace(good, []byte(`{"version":1`), []byte(`{"version":1,"extra":0`), 1), `not a model: json: unknown field "extra"`},
		{"twice.json", bytes.Replace(good, []byte(`{"version":1`), []byte(`{"version":1,"version":1`), 1), `the member "version" twice`},
		{"nested.json", bytes.Replace(good, []byte(`"scaler":{`), []byte(`"scaler":{"centre":[0,0],`), 1), `not a model: scaler: json: unknown field "centre"`},
		{"width.json", bytes.Replace(good, []byte(`"scale":[3,4]`), []byte(`"scale":[3,4,5]`), 1), "scaler: 3 scales, and the classifier has 2 features"},
		{"zero.json", bytes.Replace(good, []byte(`"scale":[3,4]`), []byte(`"scale":[0,4]`), 1), "scaler: Scale[0] is 0"},
		{"space.json", bytes.Replace(good, []byte(`"no"`), []byte(`" no"`), 1), `the label " no" has spaces around it`},
		{"tab.json", bytes.Replace(good, []byte(`"no"`), []byte(`"n\to"`), 1), "holds a tab"},
		{"same.json", bytes.Replace(good, []byte(`"no"`), []byte(`"yes"`), 1), `both "yes"`},
		{"number.json", bytes.Replace(bytes.Replace(good, []byte(`"no"`), []byte(`"1"`), 1), []byte(`"yes"`), []byte(`"1.0"`), 1), "the same number"},
		{"classes.json", bytes.Replace(good, []byte(`"classes":["no","yes"]`), []byte(`"classes":["no","yes","maybe"]`), 1), "3 Classes, and its Classifier 2 classes"},
		{"names.json", bytes.Replace(good, []byte(`"No"`), []byte(`"Yes"`), 1), `class names: the known classes 1 and 2 are both "Yes"`},
		{"classifier.json", bytes.Replace(good, []byte(`"type":"Perceptron"`), []byte(`"type":"Perceptrons"`), 1), "classifier: not a saved classifier"},
		{"hashwidth.json", hashed(`{"bits":2}`), "hashing: 4 columns, and the classifier has 2 features"},
		{"hashdefault.json", hashed(`{}`), "hashing: 1048576 columns, and the classifier has 2 features"},
		{"hashmember.json", hashed(`{"bits":1,"ngram":2}`), `not a model: hashing: json: unknown field "ngram"`},
		{"hashvalues.json", hashed(`{"bits":1,"values":"tfidf"}`), `hashing: Values is "tfidf", want`},
		{"hashbits.json", hashed(`{"bits":40}`), "hashing: Bits is 40, want"},
		{"hashngrams.json", hashed(`{"bits":1,"ngrams":-1}`), "hashing: NGrams is -1, want"},
		{"hashtype.json", hashed(`{"bits":"1"}`), "not a model: hashing: bits: json: cannot unmarshal string"},
	} {
		_, err := data.LoadModel(write(c.name, c.text))
		if !errors.Is(err, perceptron.ErrFormat) || !strings.HasPrefix(err.Error(), filepath.Join(dir, c.name)+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A Hashing of the classifier's columns loads, its members left out
	// the zero values of its fields.
	if m, err := data.LoadModel(write("hashing.json", hashed(`{"bits":1,"signed":true}`))); err != nil || *m.Hashing != (data.Hashing{Bits: 1, Signed: true}) {
		t.Errorf("a model of text: %v", err)
	}
	// Names with spaces inside, which no label has, load.
	spaced := bytes.Replace(good, []byte(`"No"`), []byte(`"No, never"`), 1)
	if m, err := data.LoadModel(write("spaced.json", spaced)); err != nil || m.Names[0] != "No, never" {
		t.Errorf("names with spaces: %v", err)
	}
}

// CheckRows is silent on rows of the training rows' kind, however few,
// and says what differs of rows of another kind or scaled otherwise.
func TestCheckRows(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	// Sparse rows of 1000 features, about 10 non-zeros a row of values
	// near 1, of the kind of text.
	rows := func(n, perRow int, scale float64) *perceptron.CSR {
		X := mat.NewDense(n, 1000, nil)
		for i := range n {
			for range rnd.IntN(2*perRow) + 1 {
				X.Set(i, rnd.IntN(1000), scale*(1+rnd.Float64()))
			}
		}
		return sparseOf(X)
	}
	train := rows(2000, 10, 1)
	y := make([]float64, 2000)
	for i := range y {
		y[i] = float64(i % 2)
	}
	m := &data.Model{Classifier: &perceptron.Perceptron{Epochs: 1}, Normalize: true}
	if err := m.Fit(&data.Set{X: train, Y: y, Classes: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		X    mat.Matrix
		want string
	}{
		{train, ""},
		{rows(500, 10, 1), ""},
		{rows(1, 10, 1), ""},
		{rows(500, 40, 1), "non-zero values on average, and the model's 2000 training rows had"},
		{rows(500, 10, 100), "are they scaled as the training rows were?"},
		{rows(500, 10, 0.01), "are they scaled as the training rows were?"},
	} {
		err := m.CheckRows(c.X)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
	if err := (&data.Model{}).CheckRows(train); err != nil {
		t.Errorf("a Model without statistics: %v", err)
	}
	// The statistics go with the model into its file.
	path := filepath.Join(t.TempDir(), "m.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	l, err := data.LoadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.CheckRows(rows(500, 40, 1)); err == nil {
		t.Error("the loaded model has no statistics")
	}
}

// NewIDF weighs each column by ln((1+n)/(1+df)) + 1, as scikit-learn's
// TfidfTransformer does, counted here column by column: Transform
// multiplies a value by the weight of its column, up to the rounding of
// dividing by its inverse, and keeps the zeros of sparse rows.
func TestNewIDF(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	dense, sparse := modelData(rnd, 100, 6, 2)
	X := dense.X.(*mat.Dense)
	X.Set(0, 5, 0)
	for i := 1; i < 100; i++ {
		X.Set(i, 5, float64(i%2)) // a column of half its rows
	}
	sparse.X = sparseOf(X)
	for _, set := range []*data.Set{dense, sparse} {
		s, err := data.NewIDF(set.X)
		if err != nil {
			t.Fatal(err)
		}
		if s.Mean != nil || len(s.Scale) != 6 {
			t.Fatalf("Mean %v, %d scales", s.Mean, len(s.Scale))
		}
		for j := range 6 {
			df := 0.0
			for _, v := range mat.Col(nil, j, X) {
				if v != 0 {
					df++
				}
			}
			idf := math.Log(101/(1+df)) + 1
			if math.Abs(1/s.Scale[j]-idf) > 1e-15*idf {
				t.Errorf("column %d: weight %v, want %v", j, 1/s.Scale[j], idf)
			}
		}
		Z, err := s.Transform(set.X)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			for j := range 6 {
				if want := X.At(i, j) / s.Scale[j]; Z.At(i, j) != want {
					t.Fatalf("row %d, column %d: %v, want %v", i, j, Z.At(i, j), want)
				}
			}
		}
		if z, ok := Z.(*perceptron.CSR); ok && z.NNZ() != set.X.(*perceptron.CSR).NNZ() {
			t.Errorf("%d non-zeros of %d", z.NNZ(), set.X.(*perceptron.CSR).NNZ())
		}
	}
	if _, err := data.NewIDF(mat.NewDense(1, 2, nil).Slice(0, 0, 0, 2)); err == nil {
		t.Error("NewIDF of no rows")
	}
}

// A Model of rows whose lengths overflow float64 keeps no statistics of
// them, and saves and loads as one that has none.
func TestModelOverflowingRows(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{1.5e308, 1.5e308, -1e308, -1e308, 1, 2, -1, -2})
	m := &data.Model{Classifier: &perceptron.Perceptron{Epochs: 1}}
	if err := m.Fit(&data.Set{X: X, Y: []float64{0, 1, 0, 1}, Classes: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	if err := m.CheckRows(mat.NewDense(1, 2, []float64{1e9, 1e9})); err != nil {
		t.Errorf("statistics of rows that overflow: %v", err)
	}
	path := filepath.Join(t.TempDir(), "m.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := data.LoadModel(path); err != nil {
		t.Fatal(err)
	}
}

// A Model of text saves its Hashing in its file, and the Model loaded
// predicts from the rows that the Hashing makes of the texts, as Text
// reads them or as Transform makes them, what the Model fitted predicts
// of the training rows, to the bits of the scores.
func TestModelHashing(t *testing.T) {
	h := data.Hashing{NGrams: 2, Bits: 8, NoNorm: true}
	set, err := data.Text{Hashing: h}.Read(strings.NewReader(headlines))
	if err != nil {
		t.Fatal(err)
	}
	idf, err := data.NewIDF(set.X)
	if err != nil {
		t.Fatal(err)
	}
	m := &data.Model{Classifier: &perceptron.Averaged{Epochs: 5}, Hashing: &h, Scaler: idf, Normalize: true}
	if err := m.Fit(set); err != nil {
		t.Fatal(err)
	}
	want, err := m.Score(set.X)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for line := range strings.Lines(headlines) {
		_, text, _ := strings.Cut(strings.TrimSpace(line), " ")
		texts = append(texts, text)
	}
	path := filepath.Join(t.TempDir(), "m.json.gz")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	l, err := data.LoadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	if l.Hashing == nil || *l.Hashing != h || l.Features() != 256 {
		t.Fatalf("loaded the Hashing %+v, %d features", l.Hashing, l.Features())
	}
	read, err := data.Text{Hashing: *l.Hashing, Classes: l.Classes}.Read(strings.NewReader(headlines))
	if err != nil {
		t.Fatal(err)
	}
	made, err := l.Hashing.Transform(texts)
	if err != nil {
		t.Fatal(err)
	}
	for _, X := range []mat.Matrix{read.X, made} {
		if got, err := l.Score(X); err != nil || !slices.Equal(got, want) {
			t.Errorf("the loaded model scores %v, want %v (%v)", got, want, err)
		}
	}
	file, _ := m.MarshalJSON()
	again, _ := l.MarshalJSON()
	if !bytes.Equal(file, again) || !bytes.Contains(file, []byte(`"hashing":{"ngrams":2,"bits":8,"seed":0,"signed":false,"values":"","noNorm":true}`)) {
		t.Errorf("saved\n%.300s\nthen\n%.300s", file, again)
	}
	if f := (&data.Model{Hashing: &data.Hashing{Bits: 5}}).Features(); f != 32 {
		t.Errorf("a Model of a Hashing of 5 bits has %d features", f)
	}

	// A Hashing of other columns than the rows', or that Transform does
	// not take, is refused by Fit, Learn, Predict, Score and WriteTo.
	wide := data.Hashing{Bits: 9}
	for _, c := range []struct {
		h    *data.Hashing
		kind error
		fit  string // the error of Fit and Learn
		use  string // the error of Predict, Score and WriteTo of m with the Hashing
	}{
		{&wide, perceptron.ErrShape, "the rows have 256 columns, and the Model's Hashing gives 512", "the Model's Hashing gives 512 columns, which its Classifier does not take"},
		{&data.Hashing{Bits: 31}, nil, "the Hashing's Bits is 31", "the Hashing's Bits is 31"},
	} {
		for _, f := range []func() error{
			func() error { return (&data.Model{Classifier: &perceptron.Averaged{}, Hashing: c.h}).Fit(set) },
			func() error { return (&data.Model{Classifier: &perceptron.Perceptron{}, Hashing: c.h}).Learn(set) },
		} {
			if err := f(); err == nil || c.kind != nil && !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.fit) {
				t.Errorf("%+v: %v, want %q", c.h, err, c.fit)
			}
		}
		bad := *l
		bad.Hashing = c.h
		for _, f := range []func() error{
			func() error { _, err := bad.Predict(read.X); return err },
			func() error { _, err := bad.Score(read.X); return err },
			func() error { _, err := bad.WriteTo(io.Discard); return err },
		} {
			if err := f(); err == nil || c.kind != nil && !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.use) {
				t.Errorf("%+v: %v, want %q", c.h, err, c.use)
			}
		}
	}
}
