// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/binform"
	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
	"github.com/seed5ae3614e/perceptron/internal/memory"
	"github.com/seed5ae3614e/perceptron/internal/scorer"
)

// WriteTo writes the Model to w in its binary form, which the package's
// documentation gives, and returns the number of bytes written and the
// first error. It returns an error, having written nothing, if the Model
// is not one that Predict takes, if its Classes or Names are not labels
// that a reader gives, if its Hashing or its Scaler are not of its
// Classifier's columns, or if its Classifier cannot be saved, as one that
// has not been fitted or of another package. It holds the binary form of
// the Classifier, as perceptron.Marshal returns it. It may run
// concurrently with the methods that predict and with other saves, but not
// with Fit or Learn.
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	if err := m.checkSave(); err != nil {
		return 0, err
	}
	return m.writeBinary(w)
}

// checkSave returns an error if the Model is not one that its forms save.
func (m *Model) checkSave() error {
	if err := m.check(); err != nil {
		return err
	}
	if err := checkNames(m.Classes, m.Names); err != nil {
		return wrapf(err, "data: %w", err)
	}
	if m.Scaler != nil {
		if err := m.Scaler.check(); err != nil {
			return err
		}
	}
	if m.Calibration != nil {
		return m.Calibration.check(scoresOf(len(m.Classes)))
	}
	return nil
}

// Save writes the Model to the file at path, in the JSON form if the name
// ends in .json or .json.gz and in the binary form otherwise, gzipped if
// the name ends in .gz. It replaces the file atomically: it writes a new
// file in the same directory, syncs it and renames it to path, which if
// it is a symbolic link stays one, to the file replaced; a failed Save
// leaves the file as it was, and no new file. The new file has the
// permissions of the file it replaces, or those that os.Create gives. It
// returns the errors of WriteTo and MarshalJSON, and of the files. It may
// run concurrently as WriteTo.
func (m *Model) Save(path string) error {
	name := strings.ToLower(path)
	gz := strings.HasSuffix(name, ".gz")
	var write func(io.Writer) error
	if strings.HasSuffix(strings.TrimSuffix(name, ".gz"), ".json") {
		b, err := m.MarshalJSON()
		if err != nil {
			return err
		}
		write = func(w io.Writer) error {
			_, err := w.Write(append(b, '\n'))
			return err
		}
	} else {
		if err := m.checkSave(); err != nil {
			return err
		}
		write = func(w io.Writer) error {
			_, err := m.writeBinary(w)
			return err
		}
	}
	return replaceFile(path, func(w io.Writer) error {
		if !gz {
			return write(w)
		}
		zw := gzip.NewWriter(w)
		if err := write(zw); err != nil {
			return err
		}
		return zw.Close()
	})
}

// replaceFile replaces the file at path, or the file it links to, with
// one that write writes, atomically, as Save says.
func replaceFile(path string, write func(io.Writer) error) (err error) {
	if t, err := filepath.EvalSymlinks(path); err == nil {
		path = t
	}
	// A new file gets what the umask leaves of 0666, as os.Create gives
	// it; a replaced one keeps its bits.
	perm, keep := fs.FileMode(0o666), false
	if fi, err := os.Stat(path); err == nil {
		perm, keep = fi.Mode().Perm(), true
	}
	dir, base := filepath.Split(path)
	var f *os.File
	for range 100 {
		tmp := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		if f, err = os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm); !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if keep {
		if err := f.Chmod(perm); err != nil {
			return err
		}
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	// The rename lasts once the directory is synced.
	if d, err := os.Open(filepath.Clean(dir + ".")); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// LoadModel returns the Model saved in the file at path, gzipped or not,
// which it tells by the file's first bytes: a Model in the binary form
// that WriteTo writes or in the JSON form that MarshalJSON writes, the
// library's classifier alone in either of its forms, as perceptron.Marshal
// and json.Marshal write them, or a model file of version 4 of the command
// perceptron. Its error names the path, and what is not a model in the
// file, with an error of kind perceptron.ErrFormat, or that the file does
// not fit in memory, with an error of kind perceptron.ErrTooLarge.
//
// LoadModel reads the file once, into one buffer of the size that the
// file tells, or, gzipped, that the end of the file tells of its text,
// which it checks against the memory left before it allocates it; it
// refuses a file whose first bytes are not those of a form before it
// holds more than 64 KiB. It holds the text while the Model loads, and
// the Model, whose sizes it checks first. A binary form loads in time
// proportional to its bytes, but for the tables of the classifier's
// weights, which it allocates as its head gives them.
func LoadModel(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := readModel(f)
	if err != nil {
		return nil, wrapf(err, "%s: %w", path, err)
	}
	return m, nil
}

// readModel reads a model file from r, gzipped or not.
func readModel(r io.Reader) (*Model, error) {
	text, err := readText(r)
	if err != nil {
		return nil, err
	}
	return decodeText(text)
}

// decodeText returns the Model of a model file's text, of any form.
func decodeText(text []byte) (*Model, error) {
	switch {
	case isModelForm(text):
		return decodeBinary(text)
	case isClassifierForm(text):
		c, d, err := loadClassifier(text)
		if err != nil {
			return nil, err
		}
		return &Model{Classifier: c, features: d, Classes: classValues(c)}, nil
	}
	return decodeModel(text)
}

// readText returns the text of r, gunzipped if it is gzipped, read once:
// after its first 64 KiB, into one buffer of the size that a file tells,
// the size of the file or the size of a gzip file's text that its end
// gives, and otherwise grown by a quarter at a time. It checks that the
// memory left holds the buffer before it allocates or grows it, and
// refuses at once a text that does not start as a JSON object or a binary
// form does.
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
	gzipped := false
	if magic, _ := br.Peek(2); string(magic) == "\x1f\x8b" {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, gzipError(err)
		}
		in, size, gzipped = zr, gzipSize, true
	}
	var text []byte
	for {
		if len(text) == cap(text) {
			grow := max(64<<10, len(text)/4)
			if len(text) > 0 {
				grow = max(grow, size-len(text))
			}
			if err := memory.Check(float64(len(text) + grow)); err != nil {
				return nil, tooLarge(err, "reading the model's text of more than %s:", memory.Bytes(float64(len(text))))
			}
			text = slices.Grow(text, grow)
		}
		n, err := in.Read(text[len(text):cap(text)])
		first := len(text) == 0 && n > 0
		text = text[:len(text)+n]
		if i := jsonscan.Space(text, 0); first && i < len(text) && text[i] != '{' && !startsForm(text) {
			return nil, errorf(perceptron.ErrFormat, "not a model: the file starts with %s, where a JSON object starts with { and a binary form with %s or %s", quote(string(text[i:min(i+8, len(text))])), modelMagic, binform.Magic)
		}
		if err == io.EOF {
			return text, nil
		}
		if err != nil && gzipped {
			return nil, gzipError(err)
		}
		if err != nil {
			return nil, err
		}
	}
}

// startsForm reports whether b starts as a binary form does, as far as it
// goes.
func startsForm(b []byte) bool {
	k := min(len(b), 4)
	return string(b[:k]) == modelMagic[:k] || string(b[:k]) == binform.Magic[:k]
}

// gzipError returns err, of gunzipping a model file, as an error of kind
// perceptron.ErrFormat if it says that the file is cut short or damaged,
// and as it is if it is an error of reading the file.
func gzipError(err error) error {
	var corrupt flate.CorruptInputError
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &corrupt) {
		return errorf(perceptron.ErrFormat, "not a model: a gzip file cut short or damaged: %v", err)
	}
	return err
}

// loadClassifier returns the classifier of the library's form lib, JSON
// or binary, and the number of features of its rows, at least 1, as the
// library loads no classifier of none.
func loadClassifier(lib []byte) (perceptron.Scorer, int, error) {
	c, err := perceptron.Unmarshal(lib)
	if err != nil {
		return nil, 0, wrapf(err, "classifier: %s", strings.TrimPrefix(err.Error(), "perceptron: "))
	}
	return c, scorer.Width(c), nil
}

// checkLoaded returns an error if the Model, loaded, is not one that
// Predict takes and WriteTo writes.
func (m *Model) checkLoaded() error {
	switch cols, err := m.hashingCols(); {
	case err != nil:
		return errorf(perceptron.ErrFormat, "hashing: %s", strings.TrimPrefix(err.Error(), "data: the Hashing's "))
	case cols > 0 && cols != m.features:
		return errorf(perceptron.ErrFormat, "hashing: %d columns, and the classifier has %d features", cols, m.features)
	}
	if err := m.check(); err != nil {
		return errorf(perceptron.ErrFormat, "%s", strings.TrimPrefix(err.Error(), "data: the Model has "))
	}
	if err := checkNames(m.Classes, m.Names); err != nil {
		return errorf(perceptron.ErrFormat, "%v", err)
	}
	if s := m.Scaler; s != nil {
		switch {
		case len(s.Scale) != m.features:
			return errorf(perceptron.ErrFormat, "scaler: %d scales, and the classifier has %d features", len(s.Scale), m.features)
		case s.Mean != nil && len(s.Mean) != len(s.Scale):
			return errorf(perceptron.ErrFormat, "scaler: %d means and %d scales, want as many", len(s.Mean), len(s.Scale))
		}
		if err := s.check(); err != nil {
			return errorf(perceptron.ErrFormat, "scaler: %s", strings.TrimPrefix(err.Error(), "data: the Scaler's "))
		}
	}
	if c := m.Calibration; c != nil {
		if err := c.check(scoresOf(len(m.Classes))); err != nil {
			return errorf(perceptron.ErrFormat, "calibration: %s", strings.TrimPrefix(err.Error(), "data: the Calibration's "))
		}
	}
	return nil
}

// checkNames returns an error if classes are not labels that a reader
// gives, each once, or if names, unless nil, are not as many texts of one
// line, each once.
func checkNames(classes, names []string) error {
	if _, err := newClasses(classes); err != nil {
		return wrapf(err, "class labels: %w", err)
	}
	for _, l := range classes {
		if strings.TrimSpace(l) != l {
			return errorf(perceptron.ErrLabels, "class labels: the label %s has spaces around it, which the readers trim", quote(l))
		}
	}
	if names == nil {
		return nil
	}
	if _, err := newClasses(names); err != nil {
		return wrapf(err, "class names: %w", err)
	}
	return nil
}
