// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/binform"
)

// textModel returns a Model of text hashed into 2^16 columns, of which
// its three lines hold a few, weighed by their inverse document
// frequency.
func textModel(t testing.TB) *Model {
	h := Hashing{NGrams: 2, Bits: 16}
	set, err := Text{Hashing: h}.Read(strings.NewReader("__label__a one two three\n__label__b four five\n__label__c two three six\n"))
	if err != nil {
		t.Fatal(err)
	}
	idf, err := NewIDF(set.X)
	if err != nil {
		t.Fatal(err)
	}
	m := &Model{Classifier: &perceptron.Averaged{Epochs: 3}, Hashing: &h, Scaler: idf, Normalize: true, Names: []string{"A", "B", "C"}}
	if err := m.Fit(set); err != nil {
		t.Fatal(err)
	}
	return m
}

// The binary form of a Model of text of many columns, few of them held
// by its rows, holds its weights and the scales of its IDF as what they
// are: a size of the columns and classes that its rows hold, not of all.
// It loads to the Model, the JSON form of the same.
func TestBinaryModelSize(t *testing.T) {
	m := textModel(t)
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 4000 {
		t.Errorf("a Model of 2^16 columns and 11 n-grams takes %d bytes", b.Len())
	}
	l, err := decodeText(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := m.MarshalJSON()
	j2, _ := l.MarshalJSON()
	if !bytes.Equal(j1, j2) {
		t.Error("the binary form loads to another Model")
	}
	// Version 2 with the section IDFC, and version 1, which older
	// readers read, without it.
	bare := *m
	bare.Scaler = nil
	for _, c := range []struct {
		m       *Model
		version byte
	}{{m, 2}, {&bare, 1}} {
		if v := formOf(t, c.m)[4]; v != c.version {
			t.Errorf("the binary form of version %d, want %d", v, c.version)
		}
	}
}

// TestPredictOnlyModel checks a Model whose Averaged holds what its
// predictions read alone: saved in both forms, plain and gzipped, it loads
// to a Model that predicts and scores its rows to the bit, whose forms are
// those it loaded from, a binary form smaller by its running weights, and whose
// Learn fails with ErrNotFitted, changing nothing.
func TestPredictOnlyModel(t *testing.T) {
	m := textModel(t)
	set, err := Text{Hashing: *m.Hashing}.Read(strings.NewReader("__label__a one two three\n__label__b four five\n__label__c two three six seven\n"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Score(set.X)
	if err != nil {
		t.Fatal(err)
	}
	full := formOf(t, m)
	if err := perceptron.PredictOnly(m.Classifier); err != nil {
		t.Fatal(err)
	}
	short := formOf(t, m)
	if len(short) >= len(full) {
		t.Errorf("the binary form of %d bytes after PredictOnly, %d before", len(short), len(full))
	}
	dir := t.TempDir()
	for _, name := range []string{"m.model", "m.model.gz", "m.json", "m.json.gz"} {
		path := filepath.Join(dir, name)
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		l, err := LoadModel(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := l.Score(set.X)
		if err != nil || !sameBits(got, want) {
			t.Fatalf("%s: scores %v (%v), want %v", name, got, err, want)
		}
		if !bytes.Equal(formOf(t, l), short) {
			t.Errorf("%s: the loaded Model's binary form is not the one saved", name)
		}
		before, _ := l.MarshalJSON()
		if err := l.Learn(set); !errors.Is(err, perceptron.ErrNotFitted) {
			t.Errorf("%s: Learn: %v, want an error of kind ErrNotFitted", name, err)
		}
		if after, _ := l.MarshalJSON(); !bytes.Equal(before, after) {
			t.Errorf("%s: a failed Learn changed the Model", name)
		}
	}
}

// formOf returns the binary form of m.
func formOf(t testing.TB, m *Model) []byte {
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestBinaryModelErrors checks that LoadModel refuses a binary form that
// WriteTo does not write, saying what is wrong.
func TestBinaryModelErrors(t *testing.T) {
	m := textModel(t)
	good := formOf(t, m)
	head := modelHeaderSize + int(binary.LittleEndian.Uint64(good[8:]))
	scal := head // the section of the Scaler
	clsf := scal + 12 + int(binary.LittleEndian.Uint64(good[scal+4:]))
	edit := func(off int, v ...byte) []byte {
		c := slices.Clone(good)
		copy(c[off:], v)
		return c
	}
	section := func(tag string) []byte {
		return binary.LittleEndian.AppendUint64([]byte(tag), 0)
	}
	rows := threeRows(t)
	p := &perceptron.Averaged{}
	if err := p.Fit(rows.X, rows.Y); err != nil {
		t.Fatal(err)
	}
	lib, _ := perceptron.Marshal(p)
	mine, _ := perceptron.Marshal(m.Classifier)
	clsfOf := func(lib []byte) []byte {
		return append(binary.LittleEndian.AppendUint64([]byte("CLSF"), uint64(len(lib))), lib...)
	}
	// withHead returns a form of the head h and the sections of good.
	withHead := func(h modelHead, sections []byte) []byte {
		e := binform.Encoder{}
		if err := e.Encode(h); err != nil {
			t.Fatal(err)
		}
		b := binary.LittleEndian.AppendUint64([]byte(modelMagic+"\x02\x00\x00\x00"), uint64(len(e.B)))
		return slices.Concat(b, e.B, sections)
	}
	// withIDF returns good with the section IDFC of c.
	withIDF := func(c idfSection) []byte {
		e := binform.Encoder{}
		if err := e.Encode(c); err != nil {
			t.Fatal(err)
		}
		return slices.Concat(good[:scal], binary.LittleEndian.AppendUint64([]byte("IDFC"), uint64(len(e.B))), e.B, good[clsf:])
	}
	// scalOf returns the section SCAL of s.
	scalOf := func(s *Scaler) []byte {
		e := binform.Encoder{}
		if err := e.Encode(scalerJSON{Scale: s.Scale}); err != nil {
			t.Fatal(err)
		}
		return slices.Concat(binary.LittleEndian.AppendUint64([]byte("SCAL"), uint64(len(e.B))), e.B)
	}
	h := modelHead{Features: 1 << 16, Classes: m.Classes, Names: m.Names, Hashing: m.Hashing, Scaler: scalesAlone, Normalize: true, Rows: m.rows}
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"version", edit(4, 3), "a model of binary version 3, want 1 to 2"},
		{"version", edit(4, 0), "a model of binary version 0, want 1 to 2"},
		{"counts in version 1", edit(4, 1), `a section "IDFC", which version 1 does not know`},
		{"reserved", edit(6, 1), "at byte 6: the header's bytes 6 and 7 are 1, want 0"},
		{"head", edit(8, 0xff, 0xff, 0xff), "at byte 8: a head of 16777215 bytes"},
		{"head value", edit(modelHeaderSize, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80), "the head: features at byte 16: no varint"},
		{"same head", withHead(h, good[scal:]), ""},
		{"no features", withHead(modelHead{Classes: m.Classes}, good[clsf:]), "0 features, want 1 to 2^45"},
		{"scaler kind", withHead(modelHead{Features: 1 << 16, Scaler: 5}, good[clsf:]), "a Scaler of kind 5"},
		{"rows", withHead(modelHead{Features: 1 << 16, Rows: rowStats{Rows: -1}}, good[clsf:]), "rows: -1 rows, want 1 or more"},
		{"rows", withHead(modelHead{Features: 1 << 16, Rows: rowStats{NonZeros: moments{Mean: 1}}}, good[clsf:]), "rows: statistics of no rows"},
		{"no scaler", withHead(modelHead{Features: 1 << 16, Classes: m.Classes}, good[scal:]), "a section IDFC, and the head has no Scaler of scales alone"},
		{"means", withHead(modelHead{Features: 1 << 16, Classes: m.Classes, Scaler: meansAndScales}, good[scal:]), "a section IDFC, and the head has no Scaler of scales alone"},
		{"features", withHead(modelHead{Features: 3, Classes: m.Classes}, good[clsf:]), "the classifier has 65536 features, and the head 3"},
		{"unknown", edit(scal, 'X'), `a section "XDFC", which version 2 does not know`},
		{"order", slices.Concat(good[:clsf], good[scal:clsf], good[clsf:]), "the section IDFC after the section IDFC"},
		{"order", slices.Concat(good[:scal], good[clsf:], good[scal:clsf]), "no section SCAL or IDFC, and the head has a Scaler"},
		{"size", edit(scal+4, 0xff, 0xff, 0xff, 0xff), "a section IDFC of 4294967295"},
		{"short", slices.Concat(good, []byte{1, 2}), "a section of 2 bytes, fewer than the 12"},
		{"scales and counts", slices.Concat(good[:scal], scalOf(m.Scaler), good[scal:]), "the sections SCAL and IDFC"},
		{"counts", withIDF(idfSection{Rows: m.rows.Rows, Gaps: []int{1}}), "1 gaps and 0 counts"},
		{"counts", withIDF(idfSection{Rows: 2, Gaps: []int{}, Counts: []int{}}), "counts are of 2 rows, and the head's of 3"},
		{"counts", withIDF(idfSection{Rows: 3, Gaps: []int{-1}, Counts: []int{1}}), "a gap of -1 after column -1"},
		{"counts", withIDF(idfSection{Rows: 3, Gaps: []int{5, 1 << 16}, Counts: []int{1, 1}}), "a gap of 65536 after column 5 of 65536"},
		{"counts", withIDF(idfSection{Rows: 3, Gaps: []int{5}, Counts: []int{0}}), "a count of 0"},
		{"counts", withIDF(idfSection{Rows: 3, Gaps: []int{5}, Counts: []int{4}}), "column 6: a count of 4 rows, want 0 to 3"},
		{"no classifier", good[:clsf], "it ends before the section CLSF"},
		{"not a classifier", slices.Concat(good[:clsf], section("CLSF")), "the section CLSF is not the binary form of a classifier"},
		{"classifier", slices.Concat(good[:clsf], clsfOf(lib)), "classifier has 3 features, and the head 65536"},
		{"broken classifier", slices.Concat(good[:clsf], clsfOf(mine[:len(mine)-1])), "classifier: not the binary form of an Averaged"},
	}
	for _, c := range cases {
		_, err := decodeText(c.b)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	for n := range len(good) {
		if _, err := decodeText(good[:n]); err == nil {
			t.Fatalf("the first %d of %d bytes load", n, len(good))
		}
	}
}

// threeRows returns three rows of 3 columns and their classes.
func threeRows(t testing.TB) *Set {
	set, err := CSV{Label: "last"}.Read(strings.NewReader("1,2,0,a\n0,1,2,b\n2,0,1,c\n"))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// LoadModelHead reads the head of a binary form, gzipped or not, and the
// whole of a JSON form.
func TestLoadModelHead(t *testing.T) {
	m := textModel(t)
	dir := t.TempDir()
	for _, name := range []string{"m.model", "m.model.gz", "m.json"} {
		path := filepath.Join(dir, name)
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		h, err := LoadModelHead(path)
		if err != nil {
			t.Fatal(err)
		}
		if h.Features() != 1<<16 || *h.Hashing != *m.Hashing || !slices.Equal(h.Classes, m.Classes) || !slices.Equal(h.Names, m.Names) || !h.Normalize || h.Scaler == nil || h.Label != m.Label {
			t.Errorf("%s: head %+v", name, h)
		}
		if whole := name == "m.json"; (h.Classifier != nil) != whole || (h.Scaler.Scale != nil) != whole {
			t.Errorf("%s: the head has a Classifier %v", name, h.Classifier != nil)
		}
	}
	// A cut head, of a file gzipped or not.
	good := formOf(t, m)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(good[:modelHeaderSize+3])
	zw.Close()
	for name, b := range map[string][]byte{"cut": good[:modelHeaderSize+3], "cut.gz": gz.Bytes()} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, b, 0o644)
		if _, err := LoadModelHead(path); !errors.Is(err, perceptron.ErrFormat) || !strings.Contains(err.Error(), "the file ends within the head") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// LoadModel reads the library's binary form of a classifier alone, as
// its JSON alone, its classes named by their values.
func TestLoadModelBareBinary(t *testing.T) {
	set := threeRows(t)
	p := &perceptron.Averaged{}
	if err := p.Fit(set.X, set.Y); err != nil {
		t.Fatal(err)
	}
	b, _ := perceptron.Marshal(p)
	path := filepath.Join(t.TempDir(), "bare")
	os.WriteFile(path, b, 0o644)
	m, err := LoadModel(path)
	if err != nil || !slices.Equal(m.Classes, []string{"0", "1", "2"}) || m.Features() != 3 {
		t.Fatalf("%+v, %v", m, err)
	}
	if h := binform.ReadHeader(b); h.D != 3 {
		t.Errorf("header %+v", h)
	}
}

// Save replaces a file atomically: a failed Save leaves the file and its
// directory as they were, and a Save keeps the file's permissions and
// its symbolic link.
func TestSaveAtomic(t *testing.T) {
	dir := t.TempDir()
	m := textModel(t)
	path := filepath.Join(dir, "m.model")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := *m
	bad.Classes = []string{"a", "b"} // of another number than the classifier's
	if err := bad.Save(path); err == nil {
		t.Fatal("Save of a bad Model")
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("m.model", link); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("a failed Save changed the file to %q", b)
	}
	if err := m.Save(link); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the directory holds %d files after Save, want 2", len(entries))
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is no longer one: %v", err)
	}
	fi, _ = os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the file has the permissions %v, want 0600", fi.Mode().Perm())
	}
	if _, err := LoadModel(path); err != nil {
		t.Error(err)
	}
	// A directory that cannot be written: no file.
	if err := m.Save(filepath.Join(dir, "none", "m.model")); err == nil {
		t.Error("Save into a missing directory")
	}
}

// TestIDFCounts checks that the counts that the binary form of a Model
// holds for a Scaler of NewIDFCounts are those it was made of, for many
// seeded counts of rows, and that a Scaler that no counts give, to the
// bit, has none.
func TestIDFCounts(t *testing.T) {
	rnd := rand.New(rand.NewPCG(71, 1))
	for trial := range 200 {
		n := 1 + rnd.IntN(1<<uint(1+trial%24))
		df := make([]int, 1+rnd.IntN(50))
		for j := range df {
			switch rnd.IntN(4) {
			case 0:
			case 1:
				df[j] = n
			default:
				df[j] = rnd.IntN(n + 1)
			}
		}
		s, err := NewIDFCounts(n, df)
		if err != nil {
			t.Fatal(err)
		}
		got, err := idfCounts(s, n)
		if err != nil || !slices.Equal(got, df) {
			t.Fatalf("%d rows: the counts %v, want %v (%v)", n, got, df, err)
		}
		j := rnd.IntN(len(df))
		s.Scale[j] = math.Nextafter(s.Scale[j], 2)
		if got, err := idfCounts(s, n); got != nil || err != nil {
			t.Fatalf("%d rows: counts %v (%v) for a scale one bit off", n, got, err)
		}
	}
	for _, s := range []*Scaler{
		{Scale: []float64{0.5, 1}, Mean: []float64{0, 0}},
		{Scale: []float64{0}},
		{Scale: []float64{-1}},
		{Scale: []float64{math.NaN()}},
		{Scale: []float64{math.Inf(1)}},
		{Scale: []float64{2}},
	} {
		if got, err := idfCounts(s, 10); got != nil || err != nil {
			t.Fatalf("%v: counts %v (%v)", s, got, err)
		}
	}
}
