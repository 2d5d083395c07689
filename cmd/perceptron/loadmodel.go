// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// Loading a model holds its text once: the command reads the file, or
// gunzips it as it reads it, into one buffer, finds the members of the
// object in place, decodes the member "command" where it lies, and cuts
// it out of the buffer, which then holds the library's JSON alone.

// loadModel reads the model file at path, gzipped or not.
func loadModel(path string) (*saved, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := readModel(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// readModel reads a model file from r, gzipped or not.
func readModel(r io.Reader) (*saved, error) {
	text, err := readText(r)
	if err != nil {
		return nil, err
	}
	return decodeModel(text)
}

// readText returns the text of r, gunzipped if it is gzipped, read once:
// after its first 64 KiB, into one buffer of the size that a file tells,
// the size of the file or the size of a gzip file's text that its end
// gives, and otherwise grown by a quarter at a time. It checks that the
// memory left holds the buffer before it allocates or grows it, and
// refuses at once a text that does not start as a JSON object does.
func readText(r io.Reader) ([]byte, error) {
	size, gzipSize := 0, 0 // the text's, and one byte more to read its end; 0 if not known
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = int(fi.Size()) + 1
			// A gzip file ends with the size of the text of its last
			// member modulo 2³², which is that of the whole text if the
			// file is one member of less than 4 GiB, as gzip writes it;
			// deflate shrinks text by 1032 times at most.
			var end [4]byte
			if _, err := f.ReadAt(end[:], fi.Size()-4); err == nil {
				if n := int64(binary.LittleEndian.Uint32(end[:])); n <= 1032*fi.Size() {
					gzipSize = int(n) + 1
				}
			}
		}
	}
	br := bufio.NewReader(r)
	var in io.Reader = br
	if magic, _ := br.Peek(2); string(magic) == "\x1f\x8b" {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		in, size = zr, gzipSize
	}
	var text []byte
	for {
		if len(text) == cap(text) {
			grow := max(64<<10, len(text)/4)
			if len(text) > 0 {
				grow = max(grow, size-len(text))
			}
			if err := memory.Check(float64(len(text) + grow)); err != nil {
				return nil, fmt.Errorf("reading the model's text of more than %s: %w", memory.Bytes(float64(len(text))), err)
			}
			text = slices.Grow(text, grow)
		}
		n, err := in.Read(text[len(text):cap(text)])
		first := len(text) == 0 && n > 0
		text = text[:len(text)+n]
		if i := skipSpace(text, 0); first && i < len(text) && text[i] != '{' {
			return nil, fmt.Errorf("not a model: the file starts with %s, where a JSON object starts with {", quote(string(text[i:min(i+8, len(text))])))
		}
		if err == io.EOF {
			return text, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// decodeModel returns the model of a model file's text, which it cuts the
// member "command" out of.
func decodeModel(text []byte) (*saved, error) {
	if !json.Valid(text) {
		// Unmarshal names the offset of the first error.
		return nil, fmt.Errorf("not a model: %s", shortError(json.Unmarshal(text, new(struct{}))))
	}
	members, err := objectMembers(text)
	if err != nil {
		return nil, fmt.Errorf("not a model: %v", err)
	}
	by := map[string]member{}
	for _, m := range members {
		if _, ok := by[m.name]; ok {
			return nil, fmt.Errorf("not a model: the member %s twice", quote(m.name))
		}
		by[m.name] = m
	}
	if _, ok := by["format"]; ok {
		return nil, errors.New("a model file of the command's old format, which holds a form of the library's that it no longer reads: train the model again")
	}
	var typ string
	if t, ok := by["type"]; !ok || json.Unmarshal(t.of(text), &typ) != nil || typ == "" {
		return nil, errors.New("not a model file of this command, nor a model of the library: no type")
	}
	m, ok := newModel(strings.ToLower(typ), &options{})
	if !ok || reflect.TypeOf(m).Elem().Name() != typ {
		return nil, fmt.Errorf("the model is of type %s, which the command does not know: want %s", quote(typ), typeNames())
	}
	var c *commandJSON
	lib := text
	if cm, ok := by["command"]; ok {
		if c, err = decodeCommand(cm.of(text)); err != nil {
			return nil, err
		}
		lib = removeMember(text, members, slices.Index(members, cm))
	}
	if err := m.UnmarshalJSON(lib); err != nil {
		return nil, errors.New(libError(err))
	}
	s := &saved{classifier: strings.ToLower(typ), m: m, features: modelFeatures(lib)}
	if c == nil {
		s.bare, s.label, s.classes = true, defaultLabel, valueClasses(m.Classes())
		return s, nil
	}
	values := m.Classes()
	switch {
	case c.Version != modelVersion:
		return nil, fmt.Errorf("member command of version %d, want %d: train the model again", c.Version, modelVersion)
	case c.Features != s.features:
		return nil, fmt.Errorf("%s, but the model has %d", plural(c.Features, "feature"), s.features)
	case c.Label == "" || !validText(c.Label):
		return nil, errors.New("no label column, want the -label of training")
	case len(c.Classes) != len(values):
		return nil, fmt.Errorf("%d class labels, but the model has %d classes", len(c.Classes), len(values))
	case c.Names != nil && len(c.Names) != len(values):
		return nil, fmt.Errorf("%d class names, but the model has %d classes", len(c.Names), len(values))
	case c.Picked && !slices.Equal(values, []float64{-1, 1}):
		return nil, fmt.Errorf("classes picked by -pos and -neg, but the model's classes are %v, not -1 and +1", values)
	case !(c.RMS >= 0 && c.RMS <= math.MaxFloat64):
		return nil, fmt.Errorf("rms %v, want a finite number >= 0", c.RMS)
	}
	if err := checkLabels("class label", c.Classes, sameLabel); err != nil {
		return nil, err
	}
	if c.Names == nil {
		c.Names = c.Classes
	} else if err := checkLabels("class name", c.Names, func(a, b string) bool { return a == b }); err != nil {
		return nil, err
	}
	sc, err := checkScaler(c.Mean, c.Scale, c.Features)
	if err != nil {
		return nil, err
	}
	s.label, s.sc, s.rms = c.Label, sc, c.RMS
	s.classes = &classSet{labels: c.Classes, names: c.Names, values: values, picked: c.Picked}
	return s, nil
}

// decodeCommand returns the member "command" of a model file, whose JSON
// is text: an object of the members of commandJSON, each at most once by
// its exact name.
func decodeCommand(text []byte) (*commandJSON, error) {
	members, err := objectMembers(text)
	if err != nil {
		return nil, fmt.Errorf("member command: %v", err)
	}
	t := reflect.TypeFor[commandJSON]()
	for k, m := range members {
		known := slices.ContainsFunc(reflect.VisibleFields(t), func(f reflect.StructField) bool {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			return name == m.name
		})
		switch {
		case !known:
			return nil, fmt.Errorf("member command: unknown member %s", quote(m.name))
		case slices.ContainsFunc(members[:k], func(o member) bool { return o.name == m.name }):
			return nil, fmt.Errorf("member command: the member %s twice", quote(m.name))
		}
	}
	var c commandJSON
	if err := json.Unmarshal(text, &c); err != nil {
		return nil, fmt.Errorf("member command: %s", shortError(err))
	}
	return &c, nil
}

// shortError returns the message of err cut to a short prefix: a JSON
// error may quote much of the file.
func shortError(err error) string {
	s := err.Error()
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// modelFeatures returns the number of features of the rows that the model
// of the library's JSON lib scores, which has loaded: the "features" of
// its "model", or the length of its "weights" over that of its "biases".
// Of the types, only Perceptron, Pocket and Averaged tell it, and through
// Weights, which copies them.
func modelFeatures(lib []byte) int {
	top, _ := objectMembers(lib)
	i := slices.IndexFunc(top, func(m member) bool { return m.name == "model" })
	if i < 0 {
		return 0
	}
	model := top[i].of(lib)
	members, _ := objectMembers(model)
	length := map[string]int{}
	for _, m := range members {
		switch m.name {
		case "features":
			var d int
			json.Unmarshal(m.of(model), &d)
			return d
		case "weights", "biases":
			length[m.name] = arrayLength(m.of(model))
		}
	}
	return length["weights"] / max(length["biases"], 1)
}
