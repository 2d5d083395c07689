// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/binform"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// The binary form of a Model, which the package documentation gives.
const (
	modelMagic         = "PCPM"
	modelBinaryVersion = 2 // version 1 without the section IDFC, as a Model without it is written
	modelHeaderSize    = 16
)

// The sections of the binary form, in their order: the Scaler, as its
// values or as the counts that NewIDFCounts makes it of, and the
// Calibration, if the Model has them, and the classifier, last. A new
// step saved with the Model is a new section, of a new tag, before the
// classifier.
var sectionTags = []string{"SCAL", "IDFC", "CALB", "CLSF"}

// idfSection is the body of the section IDFC: the rows and, for each column
// that some of them hold, in order, its gap since the last such column
// (its index for the first, and otherwise its index less the last's less
// one) and the count of the rows that hold it, from which NewIDFCounts
// makes the Scaler.
type idfSection struct {
	Rows   int   `json:"rows"`
	Gaps   []int `json:"gaps"`
	Counts []int `json:"counts"`
}

// modelHead is the head of the binary form of a Model: what it takes and
// its steps, but for the values of its Scaler, which follow in a section.
type modelHead struct {
	Features  int      `json:"features"`
	Classes   []string `json:"classes"`
	Names     []string `json:"names"`
	Label     string   `json:"label"`
	Hashing   *Hashing `json:"hashing"`
	Scaler    int      `json:"scaler"` // 0 none, 1 scales alone, 2 means and scales
	Normalize bool     `json:"normalize"`
	Rows      rowStats `json:"rows"`
}

// The kinds of Scaler in the head.
const (
	noScaler = iota
	scalesAlone
	meansAndScales
)

// writeBinary writes the binary form of the Model, checked, to w.
func (m *Model) writeBinary(w io.Writer) (int64, error) {
	lib, err := perceptron.Marshal(m.Classifier)
	if err != nil {
		return 0, err
	}
	d := int(binform.ReadHeader(lib).D)
	if err := m.fitsWidth(d); err != nil {
		return 0, err
	}
	head := modelHead{Features: d, Classes: m.Classes, Names: m.Names, Label: m.Label, Hashing: m.Hashing, Normalize: m.Normalize, Rows: m.rows}
	e := binform.Encoder{Sparse: true, MaxSparse: uint64(d)}
	if s := m.Scaler; s != nil {
		head.Scaler = scalesAlone
		if s.Mean != nil {
			head.Scaler = meansAndScales
		}
	}
	if err := e.Encode(head); err != nil {
		return 0, wrapf(err, "data: the Model's %w", err)
	}
	b := make([]byte, modelHeaderSize, 1<<10)
	copy(b, modelMagic)
	binary.LittleEndian.PutUint16(b[4:], 1)
	binary.LittleEndian.PutUint64(b[8:], uint64(len(e.B)))
	b = append(b, e.B...)
	if s := m.Scaler; s != nil {
		e.B = e.B[:0]
		tag := "SCAL"
		df, err := idfCounts(s, m.rows.Rows)
		if err != nil {
			return 0, err
		}
		if df != nil {
			// A column and its count take a few bytes, where a scale of
			// NewIDF's takes 8, and its column more.
			c := idfSection{Rows: m.rows.Rows, Gaps: []int{}, Counts: []int{}}
			last := -1
			for j, f := range df {
				if f != 0 {
					c.Gaps, c.Counts, last = append(c.Gaps, j-last-1), append(c.Counts, f), j
				}
			}
			tag, err = "IDFC", e.Encode(c)
		} else {
			err = e.Encode(scalerJSON{Mean: s.Mean, Scale: s.Scale})
		}
		if err != nil {
			return 0, wrapf(err, "data: the Model's Scaler: %w", err)
		}
		b = appendSection(b, tag, e.B)
		if tag == "IDFC" {
			binary.LittleEndian.PutUint16(b[4:], modelBinaryVersion)
		}
	}
	if c := m.Calibration; c != nil {
		e.B = e.B[:0]
		if err := e.Encode(*c); err != nil {
			return 0, wrapf(err, "data: the Model's Calibration: %w", err)
		}
		b = appendSection(b, "CALB", e.B)
	}
	b = appendSection(b, "CLSF", nil)
	binary.LittleEndian.PutUint64(b[len(b)-8:], uint64(len(lib)))
	var n int64
	for _, part := range [][]byte{b, lib} {
		k, err := w.Write(part)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// appendSection appends the section of the tag and the body to b.
func appendSection(b []byte, tag string, body []byte) []byte {
	b = append(b, tag...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(body)))
	return append(b, body...)
}

// fitsWidth returns an error unless the Model's Hashing, if any, and its
// Scaler, if any, are of the d columns of its Classifier: the file that
// the Model writes would not load.
func (m *Model) fitsWidth(d int) error {
	cols, _ := m.hashingCols()
	switch {
	case cols > 0 && cols != d:
		return errorf(perceptron.ErrShape, "data: the Model's Hashing gives %d columns, and its Classifier takes %d", cols, d)
	case m.Scaler != nil && len(m.Scaler.Scale) != d:
		return errorf(perceptron.ErrShape, "data: the Model's Scaler scales %d columns, and its Classifier takes %d", len(m.Scaler.Scale), d)
	}
	return nil
}

// decodeBinary returns the Model of the binary form b.
func decodeBinary(b []byte) (*Model, error) {
	m, at, err := decodeHead(b)
	if err != nil {
		return nil, err
	}
	next := 0 // the rank of the next section
	version := binary.LittleEndian.Uint16(b[4:])
	for at < len(b) {
		if len(b)-at < 12 {
			return nil, notBinary(at, "a section of %d bytes, fewer than the 12 of its tag and its length", len(b)-at)
		}
		tag := string(b[at : at+4])
		size := binary.LittleEndian.Uint64(b[at+4:])
		rank := slices.Index(sectionTags, tag)
		switch {
		case rank < 0 || tag == "IDFC" && version < 2:
			return nil, notBinary(at, "a section %s, which version %d does not know", quote(tag), version)
		case rank < next:
			return nil, notBinary(at, "the section %s after the section %s", tag, sectionTags[next-1])
		case size > uint64(len(b)-at-12):
			return nil, notBinary(at, "a section %s of %d bytes, more than the %d left", tag, size, len(b)-at-12)
		case tag == "IDFC" && next == 1:
			return nil, notBinary(at, "the sections SCAL and IDFC, which each give the Scaler")
		case tag == "CLSF" && m.Scaler != nil && next == 0:
			return nil, notBinary(at, "no section SCAL or IDFC, and the head has a Scaler")
		}
		if err := m.decodeSection(tag, b[at+12:at+12+int(size)]); err != nil {
			return nil, err
		}
		at, next = at+12+int(size), rank+1
	}
	if m.Classifier == nil {
		return nil, notBinary(at, "it ends before the section CLSF, the classifier")
	}
	return m, m.checkLoaded()
}

// decodeBody decodes body, the whole of it, into v, a pointer, with what
// in its errors; maxSparse bounds its sparse float arrays.
func decodeBody(body []byte, what string, v any, maxSparse uint64) error {
	d := binform.NewDecoder(body, 0)
	d.Check, d.MaxSparse = memory.Check, maxSparse
	d.Decode(v)
	switch {
	case d.Err() != nil:
		return binaryError(what, d.Err())
	case d.Left() != 0:
		return errorf(perceptron.ErrFormat, "not a model: %s: %d bytes after its values", what, d.Left())
	}
	return nil
}

// decodeSection decodes the section of the tag, whose bytes are body,
// into m, whose head is decoded.
func (m *Model) decodeSection(tag string, body []byte) error {
	switch tag {
	case "SCAL":
		if m.Scaler == nil {
			return errorf(perceptron.ErrFormat, "not a model: a section SCAL, and the head has no Scaler")
		}
		var s scalerJSON
		if err := decodeBody(body, "the Scaler", &s, uint64(m.features)); err != nil {
			return err
		}
		if (s.Mean != nil) != (m.Scaler.Mean != nil) {
			return errorf(perceptron.ErrFormat, "not a model: the Scaler has means %t, and the head says %t", s.Mean != nil, m.Scaler.Mean != nil)
		}
		m.Scaler.Mean, m.Scaler.Scale = s.Mean, s.Scale
	case "IDFC":
		if m.Scaler == nil || m.Scaler.Mean != nil {
			return errorf(perceptron.ErrFormat, "not a model: a section IDFC, and the head has no Scaler of scales alone")
		}
		var c idfSection
		if err := decodeBody(body, "the Scaler's counts", &c, 0); err != nil {
			return err
		}
		switch {
		case c.Rows != m.rows.Rows:
			return errorf(perceptron.ErrFormat, "not a model: the Scaler's counts are of %d rows, and the head's of %d", c.Rows, m.rows.Rows)
		case len(c.Gaps) != len(c.Counts):
			return errorf(perceptron.ErrFormat, "not a model: the Scaler's counts: %d gaps and %d counts, want as many", len(c.Gaps), len(c.Counts))
		}
		if err := checkMemory(8*float64(m.features), "data: counting %d columns", m.features); err != nil {
			return err
		}
		df, j := make([]int, m.features), -1
		for k, g := range c.Gaps {
			if g < 0 || g >= m.features-j-1 || c.Counts[k] < 1 {
				return errorf(perceptron.ErrFormat, "not a model: the Scaler's counts: a gap of %d after column %d of %d and a count of %d, want a column in range and a count of 1 or more", g, j, m.features, c.Counts[k])
			}
			j += g + 1
			df[j] = c.Counts[k]
		}
		s, err := NewIDFCounts(c.Rows, df)
		if err != nil {
			return errorf(perceptron.ErrFormat, "not a model: the Scaler's counts: %v", err)
		}
		m.Scaler.Scale = s.Scale
	case "CALB":
		var c Calibration
		if err := decodeBody(body, "the Calibration", &c, 0); err != nil {
			return err
		}
		m.Calibration = &c
	case "CLSF":
		if !isClassifierForm(body) {
			return errorf(perceptron.ErrFormat, "not a model: the section CLSF is not the binary form of a classifier")
		}
		c, d, err := loadClassifier(body)
		if err != nil {
			return err
		}
		if d != m.features {
			return errorf(perceptron.ErrFormat, "not a model: the classifier has %d features, and the head %d", d, m.features)
		}
		m.Classifier = c
	}
	return nil
}

// decodeHead returns the Model of the head of the binary form b, without
// its Classifier and the values of its Scaler, and the offset after the
// head, or an error if b does not start with the header and the head of a
// Model's binary form.
func decodeHead(b []byte) (*Model, int, error) {
	if len(b) < modelHeaderSize || !isModelForm(b) {
		return nil, 0, errorf(perceptron.ErrFormat, "not a model: it does not start with the %d bytes of the header of a binary form, %q", modelHeaderSize, modelMagic)
	}
	version, reserved, n := binary.LittleEndian.Uint16(b[4:]), binary.LittleEndian.Uint16(b[6:]), binary.LittleEndian.Uint64(b[8:])
	switch {
	case version < 1 || version > modelBinaryVersion:
		return nil, 0, errorf(perceptron.ErrFormat, "a model of binary version %d, want 1 to %d", version, modelBinaryVersion)
	case reserved != 0:
		return nil, 0, notBinary(6, "the header's bytes 6 and 7 are %d, want 0", reserved)
	case n > uint64(len(b)-modelHeaderSize):
		return nil, 0, notBinary(8, "a head of %d bytes, but %d bytes follow the header", n, len(b)-modelHeaderSize)
	}
	d := binform.NewDecoder(b[:modelHeaderSize+int(n)], modelHeaderSize)
	d.Check = memory.Check
	var h modelHead
	d.Decode(&h)
	switch {
	case d.Err() != nil:
		return nil, 0, binaryError("the head", d.Err())
	case d.Left() != 0:
		return nil, 0, notBinary(d.Offset(), "%d bytes after the values of the head", d.Left())
	case h.Features < 1 || int64(h.Features) > 1<<45:
		return nil, 0, errorf(perceptron.ErrFormat, "not a model: %d features, want 1 to 2^45", h.Features)
	case h.Scaler < noScaler || h.Scaler > meansAndScales:
		return nil, 0, errorf(perceptron.ErrFormat, "not a model: a Scaler of kind %d, want 0, 1 or 2", h.Scaler)
	}
	if h.Rows.Rows != 0 {
		if err := h.Rows.check(); err != nil {
			return nil, 0, errorf(perceptron.ErrFormat, "rows: %v", err)
		}
	} else if h.Rows != (rowStats{}) {
		return nil, 0, errorf(perceptron.ErrFormat, "rows: statistics of no rows")
	}
	m := &Model{Classes: h.Classes, Names: h.Names, Label: h.Label, Hashing: h.Hashing, Normalize: h.Normalize, features: h.Features, rows: h.Rows}
	switch h.Scaler {
	case scalesAlone:
		m.Scaler = &Scaler{}
	case meansAndScales:
		m.Scaler = &Scaler{Mean: []float64{}}
	}
	return m, modelHeaderSize + int(n), nil
}

// notBinary returns an error of the byte at of a binary form.
func notBinary(at int, format string, args ...any) error {
	return errorf(perceptron.ErrFormat, "not a model: at byte %d: "+format, append([]any{at}, args...)...)
}

// binaryError returns err, of decoding what of a binary form, as an error
// of the form, or of the memory.
func binaryError(what string, err error) error {
	if memory.Refused(err) {
		return tooLarge(err, "reading %s of the model:", what)
	}
	return errorf(perceptron.ErrFormat, "not a model: %s: %v", what, err)
}

// isClassifierForm reports whether b starts as the binary form of a
// classifier does.
func isClassifierForm(b []byte) bool { return len(b) >= 4 && string(b[:4]) == binform.Magic }

// isModelForm reports whether b starts as the binary form of a Model does.
func isModelForm(b []byte) bool { return len(b) >= 4 && string(b[:4]) == modelMagic }

// LoadModelHead returns what LoadModel returns of the file at path, but
// for a file of the binary form without its Classifier and the values of
// its Scaler (a Scaler of none, or of an empty Mean for a Scaler of
// dense rows): its Classes, Names, Label, Hashing, Normalize and
// Features, for a caller to check the rows it has against them before it
// loads the Model, at the cost of the head alone, a few kilobytes. A
// file of the JSON form, which has no head to read alone, it loads whole,
// as LoadModel does. It returns the errors of LoadModel.
func LoadModelHead(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := readHead(f)
	if err != nil {
		return nil, wrapf(err, "%s: %w", path, err)
	}
	return m, nil
}

// readHead reads the head of the model file r, or the whole Model if it is
// not of the binary form of a Model.
func readHead(f *os.File) (*Model, error) {
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); string(magic) == "\x1f\x8b" {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, errorf(perceptron.ErrFormat, "not a model: gzip: %v", err)
		}
		r = bufio.NewReader(zr)
	}
	head := make([]byte, modelHeaderSize)
	if k, _ := io.ReadFull(r, head); k < modelHeaderSize || !isModelForm(head) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		return readModel(f)
	}
	// The head's bytes are read as they come, the memory of each part
	// checked.
	n := binary.LittleEndian.Uint64(head[8:])
	for uint64(len(head)) < modelHeaderSize+n {
		part := int(min(modelHeaderSize+n-uint64(len(head)), uint64(max(len(head), 64<<10))))
		if err := checkMemory(float64(len(head)+part), "reading the head of the model:"); err != nil {
			return nil, err
		}
		head = slices.Grow(head, part)
		k, err := io.ReadFull(r, head[len(head):len(head)+part])
		head = head[:len(head)+k]
		if err != nil {
			return nil, notBinary(len(head), "the file ends within the head of %d bytes", n)
		}
	}
	m, _, err := decodeHead(head)
	return m, err
}

// classValues returns the classes of c named by their values.
func classValues(c perceptron.Scorer) []string {
	var classes []string
	for _, v := range c.Classes() {
		classes = append(classes, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return classes
}
