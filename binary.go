// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"github.com/seed5ae3614e/perceptron/internal/binform"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// The binary form holds what the JSON form holds, the values of its
// settings, model and stats, encoded by package binform, whose
// documentation gives the encoding, with the long tables of weights
// after them. Package data documents the layout, version 4, beside the
// model file that holds it:
//
//	header  "PCPT", the version (uint16, 4 if a table is absent and
//	        otherwise 3), the type (uint16, binaryTypes),
//	        the columns d, the scores S and the length of the head in bytes
//	        (each a uint64), little-endian
//	head    the tables' encodings, then the settings, the model without its
//	        tables, and Stats (but for OneVsRest), as the JSON form holds them
//	tables  the tables of d·S weights, an Averaged's sums first, then
//	        its running weights, absent after PredictOnly
//
// An Averaged's sums are what it predicts with unless it has learned since
// its Fit, so that a reader of the prediction reads the first table.

// binaryTypes are the types of the binary form, by their number.
var binaryTypes = []string{1: "Perceptron", 2: "Averaged", 3: "Pocket", 4: "Voted", 5: "Kernel", 6: "OneVsRest"}

// binaryType returns the number of the type typ in the binary form.
func binaryType(typ string) uint16 {
	for k, t := range binaryTypes {
		if t == typ {
			return uint16(k)
		}
	}
	panic("perceptron: no binary form of " + typ)
}

// article returns typ with its article.
func article(typ string) string {
	if typ == "Averaged" || typ == "OneVsRest" {
		return "an " + typ
	}
	return "a " + typ
}

// Marshal returns the binary form of the fitted classifier c: its JSON
// form's content at the speed of memory, which Unmarshal reads and package
// data documents. It fails as MarshalJSON does, and may run beside c's
// predictions.
func Marshal(c Scorer) ([]byte, error) {
	s, ok := c.(interface {
		saved(method string) (saved, error)
	})
	if !ok {
		return nil, errorf(ErrSetting, "perceptron: Marshal of a %T, which is no classifier of this package", c)
	}
	sv, err := s.saved("Marshal")
	if err != nil {
		return nil, err
	}
	defer sv.release()
	return sv.binary(true)
}

// MarshalBinary returns the binary form of the fitted perceptron, as
// Marshal does, but with its weights dense: the bytes of features [lo, hi)
// are those from 8·S·lo to 8·S·hi of the table, for iterative parameter
// mixing to cut into blocks.
func (p Perceptron) MarshalBinary() ([]byte, error) { return marshalBinary(p) }

// UnmarshalBinary sets the perceptron to the one whose binary form is
// data, as UnmarshalJSON does with the JSON form, with its errors: Rand
// and OnUpdate keep their values. It holds about len(data) bytes.
func (p *Perceptron) UnmarshalBinary(data []byte) error {
	return p.load(form{data: data, binary: true})
}

// MarshalBinary returns the binary form of the fitted averaged perceptron,
// as Perceptron's MarshalBinary does.
func (a Averaged) MarshalBinary() ([]byte, error) { return marshalBinary(a) }

// UnmarshalBinary sets the averaged perceptron to the one whose binary
// form is data, as Perceptron's UnmarshalBinary does.
func (a *Averaged) UnmarshalBinary(data []byte) error {
	return a.load(form{data: data, binary: true})
}

// marshalBinary returns the binary form of c with its tables dense.
func marshalBinary(c interface{ saved(string) (saved, error) }) ([]byte, error) {
	s, err := c.saved("MarshalBinary")
	if err != nil {
		return nil, err
	}
	defer s.release()
	return s.binary(false)
}

// binary returns the binary form of s, its lists sparse where that is
// shorter if sparse is set, and otherwise all dense.
func (s *saved) binary(sparse bool) ([]byte, error) {
	e := binform.Encoder{Sparse: sparse, MaxSparse: maxSparse(uint64(s.d), uint64(s.S))}
	values := []any{s.settings, s.model}
	if s.stats != nil {
		values = append(values, statsJSON(*s.stats))
	}
	for _, v := range values {
		if err := e.Encode(v); err != nil {
			return nil, errorf(ErrNonFinite, "perceptron: the binary form of %s: %w", article(s.typ), err)
		}
	}
	h := binform.Header{Type: binaryType(s.typ), D: uint64(s.d), S: uint64(s.S)}
	b, err := binform.Form(h, &e, memory.Check)
	if err != nil {
		return nil, formatError(err, "perceptron: the binary form of %s:", article(s.typ))
	}
	return b, nil
}

// maxSparse returns the most floats of a list written sparse, but the
// tables, in the binary form of a classifier of d columns and S scores:
// those of InitWeights. A form's bytes do not bound the length of a
// sparse list, which its shape thus bounds.
func maxSparse(d, S uint64) uint64 { return d * S }

// isBinary reports whether data starts as a binary form does.
func isBinary(data []byte) bool { return len(data) >= 4 && string(data[:4]) == binform.Magic }

// form is a saved classifier: its bytes, and whether they are its binary
// form or its JSON form.
type form struct {
	data   []byte
	binary bool
}

// decode decodes the form of a saved typ into its settings and model, and
// returns its Stats, checked, or an error naming what is wrong. It decodes
// nothing into settings and model on an error in the envelope or the
// header.
func (f form) decode(typ string, settings, model any) (Stats, error) {
	if !f.binary {
		return unmarshal(f, typ, settings, model)
	}
	h, err := f.header(typ)
	if err != nil {
		return Stats{}, err
	}
	fail := func(err error) (Stats, error) {
		return Stats{}, formatError(err, "perceptron: not the binary form of %s:", article(typ))
	}
	d := binform.NewDecoder(f.data[:binform.HeaderSize+int(h.Head)], binform.HeaderSize)
	d.Check = memory.Check
	d.MaxSparse = maxSparse(h.D, h.S)
	d.TableHeads(h.Version)
	d.Decode(settings)
	d.Decode(model)
	var st *statsJSON
	if typ != "OneVsRest" {
		st = new(statsJSON)
		d.Decode(st)
	}
	if err := d.Err(); err != nil {
		return fail(wrapf(err, "the head: %w", err))
	}
	if d.Left() != 0 {
		return fail(errorf(ErrFormat, "the head holds %d bytes after its values", d.Left()))
	}
	if err := d.Tables(f.data, h.D*h.S); err != nil {
		if memory.Refused(err) {
			return Stats{}, tooLarge(err, "loading %s of %d columns by %d scores:", article(typ), h.D, h.S)
		}
		return fail(err)
	}
	return savedStats(typ, st)
}

// header returns the header of the binary form f of a typ, checked.
func (f form) header(typ string) (binform.Header, error) {
	fail := func(format string, args ...any) (binform.Header, error) {
		return binform.Header{}, errorf(ErrFormat, "perceptron: not the binary form of %s: "+format, append([]any{article(typ)}, args...)...)
	}
	if len(f.data) < binform.HeaderSize || !isBinary(f.data) {
		return fail("it does not start with a header of %d bytes and %q", binform.HeaderSize, binform.Magic)
	}
	h := binform.ReadHeader(f.data)
	switch {
	case h.Version < binform.MinVersion || h.Version > binform.Version:
		return fail("version %d, want %d to %d", h.Version, binform.MinVersion, binform.Version)
	case h.Type != binaryType(typ):
		if int(h.Type) < len(binaryTypes) && binaryTypes[h.Type] != "" {
			return fail("it is that of %s", article(binaryTypes[h.Type]))
		}
		return fail("type %d, want %d", h.Type, binaryType(typ))
	case h.D < 1 || h.S < 1 || h.D > maxElements/h.S:
		return fail("%d columns by %d scores, want 1 to 2^45 numbers", h.D, h.S)
	case h.Head > uint64(len(f.data)-binform.HeaderSize):
		return fail("a head of %d bytes, but %d bytes follow the header", h.Head, len(f.data)-binform.HeaderSize)
	}
	return h, nil
}

// shape returns an error if f is a binary form whose header does not
// give d columns and S scores, those of the typ it loaded.
func (f form) shape(typ string, d, S int) error {
	if !f.binary {
		return nil
	}
	h := binform.ReadHeader(f.data)
	if h.D != uint64(d) || h.S != uint64(S) {
		return errorf(ErrFormat, "perceptron: not the binary form of %s: its header gives %d columns by %d scores, and its model %d by %d", article(typ), h.D, h.S, d, S)
	}
	return nil
}
