// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/binform"
	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// modelVersion is the version of the format of a Model's file.
const modelVersion = 1

// modelJSON is the JSON form of a Model, but its classifier, which follows
// it as the member "classifier".
type modelJSON struct {
	Version   int         `json:"version"`
	Classes   []string    `json:"classes"`
	Names     []string    `json:"names,omitempty"`
	Label     string      `json:"label,omitempty"`
	Hashing   *Hashing    `json:"hashing,omitempty"`
	Scaler    *scalerJSON `json:"scaler,omitempty"`
	Normalize bool        `json:"normalize,omitempty"`
	Rows      *rowStats   `json:"rows,omitempty"`

	Calibration *Calibration `json:"calibration,omitempty"`
}

type scalerJSON struct {
	Mean  []float64 `json:"mean,omitempty"`
	Scale []float64 `json:"scale"`
}

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

// MarshalJSON returns the Model in its JSON form, which the package's
// documentation gives, as WriteTo writes the binary form, with its
// errors, and errors of the Classifier's MarshalJSON. It holds the JSON of
// the Classifier, and the form, twice the size. It may run concurrently as
// WriteTo.
func (m *Model) MarshalJSON() ([]byte, error) {
	if err := m.checkSave(); err != nil {
		return nil, err
	}
	marshaler, ok := m.Classifier.(json.Marshaler)
	if !ok {
		return nil, fmt.Errorf("data: the Classifier, a %T, has no MarshalJSON", m.Classifier)
	}
	lib, err := marshaler.MarshalJSON()
	if err != nil {
		return nil, err
	}
	d, _ := modelFeatures(lib)
	if err := m.fitsWidth(d); err != nil {
		return nil, err
	}
	head := modelJSON{Version: modelVersion, Classes: m.Classes, Names: m.Names, Label: m.Label, Hashing: m.Hashing, Normalize: m.Normalize, Calibration: m.Calibration}
	if m.Scaler != nil {
		head.Scaler = &scalerJSON{Mean: m.Scaler.Mean, Scale: m.Scaler.Scale}
	}
	if m.rows.Rows > 0 {
		head.Rows = &m.rows
	}
	hb, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	if err := checkMemory(float64(len(hb)+len(lib)), "data: the JSON form of the Model, of %d bytes:", len(hb)+len(lib)); err != nil {
		return nil, err
	}
	return slices.Concat(hb[:len(hb)-1], []byte(`,"classifier":`), lib, []byte("}")), nil
}

// checkSave returns an error if the Model is not one that its forms save.
func (m *Model) checkSave() error {
	if err := m.check(); err != nil {
		return err
	}
	if err := checkNames(m.Classes, m.Names); err != nil {
		return fmt.Errorf("data: %v", err)
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
		return nil, fmt.Errorf("%s: %w", path, err)
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

// decodeModel returns the Model of a model file's text, in which it may
// cut out the member "command" of a file of the command's version 4.
func decodeModel(text []byte) (*Model, error) {
	notModel := func(format string, args ...any) error {
		return errorf(perceptron.ErrFormat, "not a model: "+format, args...)
	}
	if !json.Valid(text) {
		// Unmarshal names the offset of the first error.
		return nil, notModel("%s", shortError(json.Unmarshal(text, new(struct{}))))
	}
	members, err := jsonscan.Members(text)
	if err != nil {
		return nil, notModel("%v", err)
	}
	by := map[string]jsonscan.Member{}
	for _, m := range members {
		if _, ok := by[m.Name]; ok {
			return nil, notModel("the member %s twice", quote(m.Name))
		}
		by[m.Name] = m
	}
	if _, ok := by["format"]; ok {
		return nil, errorf(perceptron.ErrFormat, "a model file of the command's old format, which holds a form of the library's that is no longer read: train the model again")
	}
	if c, ok := by["classifier"]; ok {
		return decodePipeline(text, c.Of(text))
	}
	if _, ok := by["type"]; !ok {
		return nil, notModel("no member classifier, nor type, as the library's JSON of a classifier has")
	}
	lib := text
	var old *commandJSON
	if cm, ok := by["command"]; ok {
		if old, err = decodeCommand(cm.Of(text)); err != nil {
			return nil, err
		}
		lib = jsonscan.Remove(text, members, slices.Index(members, cm))
	}
	c, d, err := loadClassifier(lib)
	if err != nil {
		return nil, err
	}
	m := &Model{Classifier: c, features: d}
	if old == nil {
		// The library's JSON alone: the classes are named by their values.
		m.Classes = classValues(c)
		return m, nil
	}
	if err := old.check(d); err != nil {
		return nil, err
	}
	m.Classes, m.Names, m.Label = old.Classes, old.Names, old.Label
	if old.Scale != nil {
		m.Scaler = &Scaler{Mean: old.Mean, Scale: old.Scale}
	}
	return m, m.checkLoaded()
}

// decodePipeline returns the Model of a file of the package's own form,
// whose members are those of the text and whose classifier's JSON is lib.
func decodePipeline(text, lib []byte) (*Model, error) {
	if err := strictMembers("", text, reflect.TypeFor[modelJSON](), "classifier"); err != nil {
		return nil, err
	}
	// Each member but the classifier is decoded from its place in the
	// text, without a copy. The scaler's numbers, the bulk of the rest,
	// go into slices made to their length, 8 bytes a number, which
	// encoding/json fills without growing them; the names hold at most
	// twice their text.
	members, _ := jsonscan.Members(text)
	var mj modelJSON
	var names float64
	mean, scale := -1, -1 // the lengths of the scaler's arrays, if it has them
	for _, m := range members {
		switch m.Name {
		case "classifier":
		case "scaler":
			inner, err := jsonscan.Members(m.Of(text))
			if err != nil {
				return nil, errorf(perceptron.ErrFormat, "not a model: scaler: %v", err)
			}
			for _, f := range inner {
				switch f.Name {
				case "mean":
					mean = jsonscan.Length(f.Of(m.Of(text)))
				case "scale":
					scale = jsonscan.Length(f.Of(m.Of(text)))
				}
			}
		case "calibration":
			// A number of at least two bytes of text, in a slice that
			// grows as append grows it.
			names += 8 * float64(m.End-m.Key)
		default:
			names += float64(m.End - m.Key)
		}
	}
	if err := memory.Check(8*float64(max(mean, 0)+max(scale, 0)) + 2*names); err != nil {
		head := float64(len(text) - len(lib))
		return nil, tooLarge(err, "reading the %s of the model besides its classifier:", memory.Bytes(head))
	}
	if slices.ContainsFunc(members, func(m jsonscan.Member) bool { return m.Name == "scaler" }) {
		mj.Scaler = new(scalerJSON)
		if mean >= 0 {
			mj.Scaler.Mean = make([]float64, 0, mean)
		}
		if scale >= 0 {
			mj.Scaler.Scale = make([]float64, 0, scale)
		}
	}
	fields := jsonscan.Fields(reflect.TypeFor[modelJSON]())
	for _, m := range members {
		if m.Name == "classifier" {
			continue
		}
		// A member that strictMembers has accepted decodes into its
		// field; the scaler into the scalerJSON made for it.
		k := slices.IndexFunc(fields, func(f jsonscan.Field) bool { return f.Name == m.Name })
		if k < 0 {
			panic("data: modelJSON has no field " + m.Name + ", which strictMembers accepted")
		}
		into := reflect.ValueOf(&mj).Elem().FieldByIndex(fields[k].Index).Addr().Interface()
		if m.Name == "scaler" {
			into = mj.Scaler
		}
		if err := json.Unmarshal(m.Of(text), into); err != nil {
			return nil, errorf(perceptron.ErrFormat, "not a model: %s: %s", m.Name, shortError(err))
		}
	}
	if mj.Version != modelVersion {
		return nil, errorf(perceptron.ErrFormat, "a model of version %d, want %d", mj.Version, modelVersion)
	}
	c, d, err := loadClassifier(lib)
	if err != nil {
		return nil, err
	}
	m := &Model{Classifier: c, features: d, Classes: mj.Classes, Names: mj.Names, Label: mj.Label, Hashing: mj.Hashing, Normalize: mj.Normalize, Calibration: mj.Calibration}
	if mj.Scaler != nil {
		m.Scaler = &Scaler{Mean: mj.Scaler.Mean, Scale: mj.Scaler.Scale}
	}
	if mj.Rows != nil {
		if err := mj.Rows.check(); err != nil {
			return nil, errorf(perceptron.ErrFormat, "rows: %v", err)
		}
		m.rows = *mj.Rows
	}
	return m, m.checkLoaded()
}

// loadClassifier returns the classifier of the library's form lib, JSON
// or binary, and the number of features of its rows.
func loadClassifier(lib []byte) (perceptron.Scorer, int, error) {
	c, err := perceptron.Unmarshal(lib)
	if err != nil {
		return nil, 0, &kindError{msg: "classifier: " + strings.TrimPrefix(err.Error(), "perceptron: "), kind: err}
	}
	if isClassifierForm(lib) {
		// The header gives the columns, which the classifier has.
		return c, int(binform.ReadHeader(lib).D), nil
	}
	d, ok := modelFeatures(lib)
	if !ok || !accepts(c, d) {
		return nil, 0, errorf(perceptron.ErrFormat, "classifier: the number of its features is not where the library's JSON of a %T keeps it", c)
	}
	return c, d, nil
}

// modelFeatures returns the number of features of the rows that the
// classifier of the library's JSON lib scores, which has loaded: the
// "features" of its "model", or the length of its "weights" over that of
// its "biases", or that of the first of its "models" for OneVsRest. A
// Scorer does not tell it; loadClassifier checks it with accepts.
func modelFeatures(lib []byte) (int, bool) {
	top, _ := jsonscan.Members(lib)
	i := slices.IndexFunc(top, func(m jsonscan.Member) bool { return m.Name == "model" })
	if i < 0 {
		return 0, false
	}
	model := top[i].Of(lib)
	members, _ := jsonscan.Members(model)
	length := map[string]int{}
	for _, m := range members {
		switch m.Name {
		case "features":
			var d int
			err := json.Unmarshal(m.Of(model), &d)
			return d, err == nil
		case "weights", "biases", "sumWeights", "sumBiases":
			length[m.Name] = jsonscan.Length(m.Of(model))
		case "models":
			// The first classifier of OneVsRest, an object in an array.
			s := jsonscan.Scanner{Text: m.Of(model)}
			if s.Next() && s.Text[s.I] == '{' {
				j := s.I
				s.Skip()
				return modelFeatures(s.Text[j:s.I])
			}
			return 0, false
		}
	}
	if length["biases"] == 0 {
		// An Averaged that holds what its predictions read alone.
		length["weights"], length["biases"] = length["sumWeights"], length["sumBiases"]
	}
	if length["biases"] == 0 {
		return 0, false
	}
	return length["weights"] / length["biases"], true
}

// strictMembers returns an error if the JSON object text, valid JSON, has
// a member that is not the JSON name of a field of the struct type t, nor
// one of more, or a member twice, by its exact name, here or in an object
// that a field of struct type holds; what names the object in messages.
func strictMembers(what string, text []byte, t reflect.Type, more ...string) error {
	members, err := jsonscan.Members(text)
	if err != nil {
		return errorf(perceptron.ErrFormat, "%s%v", what, err)
	}
	fields := jsonscan.Fields(t)
	for k, m := range members {
		f := slices.IndexFunc(fields, func(f jsonscan.Field) bool { return f.Name == m.Name })
		switch {
		case slices.Contains(more, m.Name):
			continue
		case f < 0:
			return errorf(perceptron.ErrFormat, "%sunknown member %s", what, quote(m.Name))
		case slices.ContainsFunc(members[:k], func(o jsonscan.Member) bool { return o.Name == m.Name }):
			return errorf(perceptron.ErrFormat, "%sthe member %s twice", what, quote(m.Name))
		}
		ft := t.FieldByIndex(fields[f].Index).Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if v := m.Of(text); ft.Kind() == reflect.Struct && v[0] == '{' {
			if err := strictMembers(what+m.Name+": ", v, ft); err != nil {
				return err
			}
		}
	}
	return nil
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
		return fmt.Errorf("class labels: %v", err)
	}
	for _, l := range classes {
		if strings.TrimSpace(l) != l {
			return fmt.Errorf("class labels: the label %s has spaces around it, which the readers trim", quote(l))
		}
	}
	if names == nil {
		return nil
	}
	if _, err := newClasses(names); err != nil {
		return fmt.Errorf("class names: %v", err)
	}
	return nil
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

// commandJSON is the member "command" of a model file of version 4 of the
// command perceptron, which held the library's JSON of the classifier with
// this member added.
type commandJSON struct {
	Version  int       `json:"version"`
	Features int       `json:"features"`
	Label    string    `json:"label"`
	Classes  []string  `json:"classes"`
	Names    []string  `json:"names,omitempty"`
	Picked   bool      `json:"picked"`
	Mean     []float64 `json:"mean"`
	Scale    []float64 `json:"scale"`
	RMS      float64   `json:"rms"`
}

// decodeCommand returns the member "command" of a model file of version 4,
// whose JSON is text.
func decodeCommand(text []byte) (*commandJSON, error) {
	if err := strictMembers("member command: ", text, reflect.TypeFor[commandJSON]()); err != nil {
		return nil, err
	}
	if err := memory.Check(16 * float64(len(text))); err != nil {
		return nil, tooLarge(err, "reading the member command of %s:", memory.Bytes(float64(len(text))))
	}
	var c commandJSON
	if err := json.Unmarshal(text, &c); err != nil {
		return nil, errorf(perceptron.ErrFormat, "member command: %s", shortError(err))
	}
	return &c, nil
}

// check returns an error if the member is not one of version 4 for a
// classifier of d features.
func (c *commandJSON) check(d int) error {
	switch {
	case c.Version != 4:
		return errorf(perceptron.ErrFormat, "member command of version %d, want 4: train the model again", c.Version)
	case c.Features != d:
		return errorf(perceptron.ErrFormat, "member command: %d features, but the classifier has %d", c.Features, d)
	case c.Label == "":
		return errorf(perceptron.ErrFormat, "member command: no label column")
	case !(c.RMS >= 0 && c.RMS <= math.MaxFloat64):
		return errorf(perceptron.ErrFormat, "member command: rms %v, want a finite number >= 0", c.RMS)
	}
	return nil
}
