// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"strings"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// The model files of the command: train writes them, and predict, eval
// -model and train -model read them, in either form of data.Model.

// forSaving readies the model m that train saves: unless resumable
// (-resumable), to hold what prediction reads alone.
func forSaving(m *data.Model, resumable bool) error {
	if resumable {
		return nil
	}
	return perceptron.PredictOnly(m.Classifier)
}

// modelWriter returns the function that writes the model m to the file at
// path: in the JSON form if the name ends in .json or .json.gz, and in
// the binary form otherwise, gzipped if the name ends in .gz.
func modelWriter(m *data.Model, path string) func(io.Writer) error {
	name := strings.ToLower(path)
	return func(w io.Writer) error {
		var zw *gzip.Writer
		if strings.HasSuffix(name, ".gz") {
			zw = gzip.NewWriter(w)
			w = zw
		}
		if strings.HasSuffix(strings.TrimSuffix(name, ".gz"), ".json") {
			b, err := m.MarshalJSON()
			if err != nil {
				return err
			}
			if _, err := w.Write(append(b, '\n')); err != nil {
				return err
			}
		} else if _, err := m.WriteTo(w); err != nil {
			return err
		}
		if zw != nil {
			return zw.Close()
		}
		return nil
	}
}

// loadModel returns the model of the file at path, for the rows of the
// data file input, read as spec says. It reads the model's head first,
// and refuses rows that the model cannot take, as far as the name and the
// first bytes of input tell, before it reads the rest: lines of text for a
// model that hashes text, rows of other features for another, and IDX
// images of another width.
func loadModel(path, input string, spec readSpec) (*data.Model, error) {
	m, err := data.LoadModelHead(path)
	if err != nil {
		return nil, err
	}
	if err := checkInput(path, m, input, spec); err != nil {
		return nil, err
	}
	if m.Classifier != nil {
		// A file of the JSON form, which the head read whole.
		return m, nil
	}
	return data.LoadModel(path)
}

// checkInput returns an error if the data file input, as far as its name
// and first bytes tell, holds rows that the model m of the file model
// does not take, saying what it takes.
func checkInput(model string, m *data.Model, input string, spec readSpec) error {
	if input == "-" || spec.format != "" {
		// Standard input is read once; -format says what the rows are,
		// which modelSpec checks.
		return nil
	}
	images, _, _ := strings.Cut(input, ",")
	format, err := formatOf(images, spec)
	if m.Hashing != nil {
		// A model of text reads a file of any name as text: its first
		// bytes alone tell that it is not.
		format, err = sniffFile(images, spec)
	}
	if err != nil {
		// Neither the name nor the first line tell: lines of text to
		// label, for a model of text, or an error that reading gives.
		return nil
	}
	switch {
	case m.Hashing != nil && (format == "libsvm" || format == "idx"):
		return fmt.Errorf("%s is %s, and the model %s was trained on text: it takes lines of text, whose n-grams it hashes into 2^%d features (-format text reads the file as text)",
			images, formatName(format), model, bits.Len(uint(m.Features()))-1)
	case m.Hashing == nil && format == "text":
		return fmt.Errorf("%s: lines of text, and the model was not trained on text: it takes rows of %s", images, plural(m.Features(), "feature"))
	case m.Hashing == nil && format == "idx":
		if d, ok := idxWidth(images); ok && d != m.Features() {
			return fmt.Errorf("%s: IDX rows of %s, and the model %s takes %s", images, plural(d, "feature"), model, plural(m.Features(), "feature"))
		}
	}
	return nil
}

// sniffFile returns the format of the data file at path as its first
// bytes tell it, whatever its name.
func sniffFile(path string, spec readSpec) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return sniff(bufio.NewReaderSize(f, 1<<16), quote(path), spec.comma)
}

// formatName names a format of data files in messages.
func formatName(format string) string {
	switch format {
	case "libsvm":
		return "LIBSVM"
	case "idx":
		return "IDX"
	}
	return format
}

// idxWidth returns the features of a row of the IDX file at path, gzipped
// or not, as its header gives them: the product of its dimensions after
// the first.
func idxWidth(path string) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	head := peekText(bufio.NewReaderSize(f, 1<<16))
	if len(head) < 4 || head[0] != 0 || head[1] != 0 || int(head[3]) < 1 || len(head) < 4+4*int(head[3]) {
		return 0, false
	}
	d := int64(1)
	for k := 1; k < int(head[3]); k++ {
		d *= int64(binary.BigEndian.Uint32(head[4+4*k:]))
		if d > min(1<<40, math.MaxInt) {
			return 0, false
		}
	}
	return int(d), true
}

// modelSpec returns spec set to read rows for the model m: its width, its
// classes, unless spec knows them, and its label column, unless -label
// names another.
func modelSpec(spec readSpec, m *data.Model) (readSpec, error) {
	if spec.label == "" {
		spec.label, spec.labelFlag = cmp.Or(m.Label, defaultLabel), "the model's -label"
	}
	spec.labels = spec.label != "none"
	switch {
	case m.Hashing != nil && spec.format != "" && spec.format != "text":
		return spec, usagef("-format %s: the model was trained on text, and reads its rows as text", spec.format)
	case m.Hashing != nil:
		spec.format, spec.hashing = "text", m.Hashing
	case spec.format == "text":
		return spec, usagef("-format text: the model was not trained on text: it takes rows of features")
	}
	if spec.known == nil {
		spec.known = newClassSet(m.Classes, m.Names)
	}
	spec.width = m.Features()
	return spec, nil
}
