// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package data reads data sets for the classifiers of package perceptron,
// splits and scales them, keeps a classifier with the steps before it as a
// Model, which a file saves and loads, and reports how a classifier does.
//
// The readers take the formats of LIBSVM, CSV and IDX (MNIST's), and
// return a Set: rows of features, dense as a *mat.Dense or sparse as a
// *perceptron.CSR, and the class of each row as an index into the names of
// the classes. They refuse a line longer than a limit by its number, and
// name the line and the field of anything they refuse; their errors start
// there, with no prefix, for the caller to put the file's name before. A
// text may start with a byte-order mark, which they skip, and hold none
// elsewhere; a label holds no control character, such as a tab or an end
// of line.
//
// The values of the text formats are decimal numbers, as C's printf and
// Go's strconv.FormatFloat write them: an optional sign, digits with an
// optional decimal point, or a point and digits, and an optional exponent,
// e or E, an optional sign and digits, as 1, -0.5, .5, 3., 1e-3 and 2.5E+10
// are. Each is the float64 nearest it, as strconv.ParseFloat gives it, to
// the bit. The infinities and NaN (inf, -Infinity, nan, in any case) and
// numbers beyond float64 are refused as not finite, and Go's hexadecimal
// numbers (0x1p3) and digits apart by underscores (1_000) as no numbers.
// A label is a number if it is one of this grammar, and a text otherwise.
//
// Text reads text, a document a line, in fastText's supervised format
// (__label__NAME tokens and the text) or as a label, a tab and the text,
// and turns each line into a sparse row of word n-grams hashed into
// 2^Bits columns, as its Hashing says. The same Hashing turns new texts
// into rows for prediction, with Transform, and saves with encoding/json
// in a stable form, for a model file to keep beside its classifier.
//
// # Memory
//
// A Set holds what its input implies: 8 bytes for each value of dense rows,
// rows × features, or 16 bytes for each non-zero and 8 bytes for each row of
// sparse rows, 8 bytes for the class of each row and for its weight if it has
// one, and the names of the classes and of the features. The functions of the package hold no more than a small
// multiple of what they return and what they are given, which each states, and
// before each allocation of a size that their input gives, they check it
// against the memory left to the process: what Go's memory limit
// (runtime/debug.SetMemoryLimit, GOMEMLIMIT) leaves and, on Linux, what the
// limit of address space (ulimit -v) and the machine's memory and swap leave.
// Under a limit of address space, a check also keeps room for the 64 MiB arena
// that Go's runtime may reserve to make the allocation. A size that does not
// fit is an error of kind perceptron.ErrTooLarge (test it with errors.Is),
// never a fatal error of Go's allocator.
//
// A reader grows its arrays as append does, by a quarter at a time once they
// are large, so that while it reads it holds at most 2.25 times the Set it
// returns, and the Set itself at most 1.25 times what it needs. A reader of
// text whose size it can tell, that of a file or a bytes.Reader, or the
// size a gzipped file's end gives, grows them at once to what the lines
// read so far make of the whole text, and at the end cuts them to 1.25
// times what the Set needs, if they hold more: the 2.25 times then hold for
// a text whose lines are alike, as those of a data set are. Besides, it
// holds its text in a buffer of 256 KiB, or of at most twice the longest
// line, and three times while it grows, a record of CSV with quoted fields
// in 16 more bytes for each field, and each distinct label once.
// Text holds besides, for the words of a line and their n-grams, arrays of
// (5.5 + 2·NGrams) bytes for each byte of the longest line. The arrays that
// growing leaves behind are Go's garbage to collect: until it does, the
// process's memory holds them too.
//
// # Rows one at a time
//
// Each reader also gives its rows one at a time, as an iter.Seq2 of Rows and
// errors that its method Rows returns, with the limits and the errors of
// Read, in memory that does not grow with the rows: its buffers, the values
// of a row, and each distinct label once. The class of a Row is an index
// into its Classes: those of the reader, then the labels that are none of
// them, in the order in which they first come, where Read sorts them, by
// value if they are all numbers and by text otherwise. A reader given the
// Classes of a first pass over the rows, or of a training Set, numbers
// them as those do. An error ends the sequence, as its last element; the
// first label that is a number but not finite, which Read refuses only if
// every label is a number, is an error at the end.
//
// Ranging over the sequence again reads the rows again, for another epoch,
// from where the io.Reader was at the first range, if it is an io.Seeker, as
// a file is; otherwise a second range gives an error. One goroutine at a
// time ranges over a sequence.
//
//	f, err := os.Open("train.svm.gz")
//	...
//	rows := data.LIBSVM{Cols: 1 << 20}.Rows(f)
//	for range epochs {
//		for row, err := range rows {
//			if err != nil {
//				...
//			}
//			learn(row.Ind, row.Val, row.Class) // the row, valid until the next
//		}
//	}
//
// A Model trains on such rows with FitStream, a chunk of rows at a time,
// reading them again for each epoch, in memory independent of their number,
// to the bits of its Fit on a Set of the same rows in their order. Its
// steps fit to them as they come (NewScalerRows, NewIDFRows); SortClasses
// sorts the labels that a first pass finds as Read sorts them, for a reader
// to number the classes by them as Read does:
//
//	rows := data.LIBSVM{Cols: 1 << 20, Classes: classes}.Rows(f)
//	idf, err := data.NewIDFRows(rows, 1<<20)
//	...
//	m := data.Model{Classifier: &perceptron.Averaged{}, Scaler: idf, Normalize: true}
//	err = m.FitStream(ctx, data.Stream{Rows: rows, Dir: os.TempDir()})
//
// # Models
//
// A Model is a fitted classifier with the steps that come before it, the
// Hashing of its texts, a Scaler and the scaling of each row to unit
// length, and the labels of its classes: it predicts from rows as a reader
// returns them. Its file, which Save writes and LoadModel reads, and which
// the command perceptron saves, holds it in one of two forms of the same
// content, which load to the same bits: the binary form, which WriteTo
// writes, written and read at the speed of memory, and the JSON form,
// which MarshalJSON writes, for people to read. Save writes the JSON form
// where the name ends in .json or .json.gz; either may be gzipped.
//
// The binary form of a Model, version 1, is a header, a head and
// sections; its integers are little-endian:
//
//	header    "PCPM", the version (uint16, 1), two bytes of 0, and the
//	          length of the head in bytes (uint64)
//	head      the columns of the rows the Model takes, Classes, Names, Label,
//	          Hashing, the kind of the Scaler (0 none, 1 scales alone, 2 means
//	          and scales), Normalize, and the statistics of the training rows
//	sections  each a tag of 4 bytes, the length of its body in bytes
//	          (uint64) and the body: SCAL, the means and the scales of the
//	          Scaler, if it has one; CALB, the Calibration, if it has one, as
//	          its JSON form's values; then CLSF, the classifier's binary form
//
// The head comes first, so that a reader checks rows against it before it
// reads the rest, as LoadModelHead does; a step that a later version
// saves is a section of its own before the classifier's. The classifier's
// binary form, version 3 of package perceptron's, as perceptron.Marshal
// writes it, is:
//
//	header  "PCPT", the version (uint16, 3), the type (uint16: 1 Perceptron,
//	        2 Averaged, 3 Pocket, 4 Voted, 5 Kernel, 6 OneVsRest), and the
//	        columns d, the scores S and the length of the head in bytes
//	        (each a uint64)
//	head    the number of tables and the encoding of each: 0 dense, or 1
//	        sparse and the length of its body in bytes; then the values of
//	        the settings, the model without its tables, and the stats of
//	        the classifier's JSON form
//	tables  the tables of d·S weights, each feature's S together: an
//	        Averaged's sums of the weights, what it predicts with, then its
//	        weights; the weights of the other linear classifiers; none for
//	        Kernel and OneVsRest, whose model holds its classifiers' forms
//
// The values follow the members of the JSON forms in their order, without
// names: a bool is a byte, 0 or 1; an integer a varint, zigzag if signed;
// a float its 8 bytes; a string the uvarint of its length and its UTF-8
// bytes; an object that may be null a byte, 0 for null and 1 before it; an
// array the uvarint of its length plus one, 0 for null, and its elements;
// and an array of floats a uvarint, 0 for null, 1 dense or 2 sparse, the
// uvarint of its length and its body. A body is dense, the floats, or
// sparse: the fill, a float, the uvarint of the number of the others, and
// each of those as the uvarint of its gap since the last (its index for
// the first, the difference less one after) and its float. A table's
// body has no encoding nor length before it. A list is sparse where that
// is shorter, the fill the more common of 0 and the most common of 64
// values spread over it: the weights, mostly zero, and the scales of
// NewIDF, one value for the columns that no training row holds and others.
// Every float is finite, as in JSON. LoadModel checks every size against
// the bytes that hold it and the memory left before it allocates it; a
// table takes 8·d·S bytes, as its header gives, whatever its bytes.
//
// The JSON form is one object:
//
//	{"version": 1,
//	 "classes": ["0", "1", ...],
//	 "names": ["admin", "devel", ...],
//	 "label": "last",
//	 "hashing": {"ngrams": 2, "bits": 20, "seed": 0, "signed": false,
//	             "values": "", "noNorm": true},
//	 "scaler": {"mean": [...], "scale": [...]},
//	 "normalize": true,
//	 "rows": {"rows": 48081, "nonZeros": {"mean": 91.4, "sd": 55.7},
//	          "length": {"mean": 9.21, "sd": 2.57}},
//	 "calibration": {"oneVsRest": false, "a": [-3.1, ...], "b": [0.2, ...]},
//	 "classifier": {"type": "Averaged", "version": 1, ...}}
//
// The members are the format's version, 1; the labels of the classes, in
// the order of the classifier's classes (Model's Classes); their names, if
// any (Names); the label column of CSV rows (Label); the Hashing of a
// model of text, as encoding/json writes a Hashing, whose 2^Bits columns
// must be the classifier's features (Hashing); the means and the scales
// of the Scaler, if any, the means left out for sparse rows; whether rows
// are scaled to unit length (Normalize); the statistics of the training
// rows that CheckRows compares rows with; the Calibration, if any, as
// encoding/json writes it; and, last, the classifier, in
// the library's JSON form, as json.Marshal of it writes it and
// perceptron.Unmarshal reads it, byte for byte. Only version, classes and
// classifier are required; a member of hashing that is left out means
// what the zero value of its field means. A member that the format does
// not define, here or in an object within, is an error, as in the
// library's JSON, and so is a hashing that Hashing's Transform does not
// take, and a calibration of other than a slope and an intercept for each
// score of a row. LoadModel also reads the library's classifier alone, in
// either form, whose classes it names by their values, and the model
// files of version 4 of the command, the library's JSON with a member
// "command" added.
//
// A Model of text takes the rows that its Hashing makes of texts, so that
// a program predicts the classes of new texts with a model that the
// command perceptron trained on text in three calls:
//
//	m, err := data.LoadModel("topics.json")
//	...
//	X, err := m.Hashing.Transform([]string{"The home team lost the final"})
//	...
//	pred, err := m.Predict(X) // the class of each text, an index into m.Classes
//
// and Text{Hashing: *m.Hashing}.Read reads a file of such texts, with
// their labels if they have them, into the rows that Predict takes.
package data

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/memory"

	"github.com/seed5ae3614e/perceptron"
)

// Set is a data set: rows of features, and their classes.
type Set struct {
	// X holds the rows, one sample in each row: a *mat.Dense, or a
	// *perceptron.CSR for the sparse rows of LIBSVM and Text.
	X mat.Matrix

	// Y holds the class of each row, as an index into Classes, or is nil
	// if the rows were read without their labels.
	Y []float64

	// Classes holds the names of the classes: the labels as the data
	// write them.
	Classes []string

	// Features names the columns of X, as a CSV header does, or is nil.
	Features []string

	// Dropped is the number of values that a reader of a fixed width left
	// out, as they were in columns beyond it.
	Dropped int

	// Weights, if not nil, holds the weight of each row, a finite value
	// >= 0, by which Model's Fit and Learn weigh the step of a mistake on
	// the row, as perceptron.FitContext does; nil weighs every row 1.
	// Subset and Rows keep the weights of their rows.
	Weights []float64
}

// check returns an error if s is not a Set that the functions of the
// package take: a nil Set or X, Y that is not nil and not the class of
// each row of X, a whole number that indexes Classes, or Weights that are
// not nil and not a finite weight >= 0 for each row. The errors of Y and
// Weights are of kinds perceptron.ErrShape and perceptron.ErrNonFinite.
func (s *Set) check() error {
	return s.checkRows(0, -1)
}

// checkRows is check with the classes of Y and the Weights checked from
// row lo to hi-1 alone, or to the end if hi is negative.
func (s *Set) checkRows(lo, hi int) error {
	switch {
	case s == nil:
		return errors.New("data: the Set is nil")
	case s.X == nil:
		return errors.New("data: the Set has no rows: X is nil")
	}
	n, _ := s.X.Dims()
	if hi < 0 {
		hi = n
	}
	if s.Weights != nil {
		if len(s.Weights) != n {
			return errorf(perceptron.ErrShape, "data: Weights has %d weights and X %d rows, want one a row", len(s.Weights), n)
		}
		for i, w := range s.Weights[lo:hi] {
			i += lo
			switch {
			case math.IsNaN(w) || math.IsInf(w, 0):
				return errorf(perceptron.ErrNonFinite, "data: Weights[%d] is %v, want a finite weight >= 0", i, w)
			case w < 0:
				return fmt.Errorf("data: Weights[%d] is %v, want a finite weight >= 0", i, w)
			}
		}
	}
	if s.Y == nil {
		return nil
	}
	if len(s.Y) != n {
		return errorf(perceptron.ErrShape, "data: Y has %d classes and X %d rows, want one a row", len(s.Y), n)
	}
	k := len(s.Classes)
	for i, y := range s.Y[lo:hi] {
		i += lo
		switch {
		case math.IsNaN(y) || math.IsInf(y, 0):
			return errorf(perceptron.ErrNonFinite, "data: Y[%d] is %v, want a class: an index into Classes", i, y)
		case k == 0:
			return fmt.Errorf("data: Y[%d] is %v, and Classes is empty: want a class for each index of Y", i, y)
		case y != math.Trunc(y) || y < 0 || y >= float64(k):
			return fmt.Errorf("data: Y[%d] is %v, want a class: a whole number from 0 to %d, an index into the %d Classes", i, y, k-1, k)
		}
	}
	return nil
}

// defaultMaxLine is the longest line a reader takes when its MaxLine is
// zero: 16 MiB, far beyond the longest line of text data sets.
const defaultMaxLine = 1 << 24

// classes turns the labels of a file into classes. With known classes, a
// label among them is its class, by its text or, for a number, by its
// value, and any other label becomes a class after them; without, the
// classes are the labels, sorted by value if all are numbers and by text
// otherwise. If all the labels and the known classes are numbers, a label
// that is NaN, infinite or beyond the range of float64 is an error.
//
// It holds a class for each row, and each distinct label once: the labels
// of a million rows of two classes take 8 MB, not a string a row.
type classes struct {
	names   []string       // the known classes, then the labels read in the order of their first rows
	values  []float64      // the value of each name, NaN if it is no number
	numbers bool           // whether every name is a number, finite or not
	ids     map[string]int // the index in names of each label text read
	fixed   int            // the number of classes known in advance
	y       []float64      // the index in names of the label of each row
	checked int            // the number of distinct labels whose memory was checked
	held    int            // the bytes of their text
	bad     string         // the error of the first label that is a number but not finite
}

// perLabel is what a distinct label holds besides its text, at most: its
// entry in ids, while the map grows too, its name and its value.
const perLabel = 128

// newClasses returns the classes of the labels of a file, with the known
// classes first. It returns an error if a known class is twice in known,
// by its text or, for a number, by its value, or is no label a reader
// takes.
func newClasses(known []string) (*classes, error) {
	c := &classes{ids: map[string]int{}, fixed: len(known), numbers: true}
	for k, s := range known {
		if first, ok := c.ids[s]; ok {
			return nil, fmt.Errorf("the known classes %d and %d are both %s", first+1, k+1, quote(s))
		}
		if _, err := c.label(s, 0, 0); err != nil {
			return nil, fmt.Errorf("known class %d: %w", k+1, err)
		}
		if v := c.values[k]; !math.IsNaN(v) {
			if first := slices.Index(c.values[:k], v); first >= 0 {
				return nil, fmt.Errorf("the known classes %d and %d, %s and %s, are the same number", first+1, k+1, quote(c.names[first]), quote(s))
			}
		}
	}
	return c, nil
}

// index returns the class of the label of a row, which is at field of
// line, or the whole line if field is 0, having made it a class if it is
// none. It returns an error if the label is empty, would break a line of
// output, as control characters such as tabs and ends of lines would, holds
// a byte-order mark or bytes that are not UTF-8, or does not fit in the
// memory left.
func (c *classes) index(label string, line, field int) (int, error) {
	if k, ok := c.ids[label]; ok {
		return k, nil
	}
	return c.label(label, line, field)
}

// push holds the class k of the next row.
func (c *classes) push(k int) error {
	if len(c.y) == cap(c.y) {
		var err error
		if c.y, err = grow(c.y, 1); err != nil {
			return tooLarge(err, "holding a class for each row up to it")
		}
	}
	c.y = append(c.y, float64(k))
	return nil
}

// label returns the class of a label s not read before, at field of line,
// having made it a class if it is none, and checked the memory of the
// labels to come as that of the labels so far, each time their number
// doubles.
func (c *classes) label(s string, line, field int) (int, error) {
	switch {
	case s == "":
		return 0, errors.New("the label is empty")
	case !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == '\ufeff' }):
		return 0, fmt.Errorf("the label %s holds a tab or another control character, U+FEFF or bytes not UTF-8", quote(s))
	}
	if len(c.ids) >= c.checked {
		n := max(2*c.checked, 64)
		each := perLabel + float64(c.held+len(s))/float64(len(c.ids)+1)
		if err := memory.Check(float64(n) * each); err != nil {
			return 0, tooLarge(err, "holding %d distinct labels", n)
		}
		c.checked = n
	}
	s = strings.Clone(s) // not the line it was cut from
	v, kind := parseNumber([]byte(s))
	number := kind != numSyntax
	if kind == numNonFinite && c.bad == "" && line > 0 {
		c.bad = fmt.Sprintf("line %d: ", line)
		if field > 0 {
			c.bad += fmt.Sprintf("field %d: ", field)
		}
		c.bad += fmt.Sprintf("the label %s is not a finite number", quote(s))
	}
	k := -1
	if number && len(c.ids) >= c.fixed {
		k = slices.Index(c.values[:c.fixed], v)
	}
	if k < 0 {
		k = len(c.names)
		if !number {
			v, c.numbers = math.NaN(), false
		}
		c.names = append(c.names, s)
		c.values = append(c.values, v)
	}
	c.ids[s] = k
	c.held += len(s)
	return k, nil
}

// badNumber returns the error of the first label that is a number but not
// finite, if every label and every known class is a number, and nil
// otherwise.
func (c *classes) badNumber() error {
	if c.numbers && c.bad != "" {
		return errors.New(c.bad)
	}
	return nil
}

// finish returns the classes and the class of each row. It returns an
// error naming the first label that is a number but not finite, if every
// label and every known class is a number.
func (c *classes) finish() ([]string, []float64, error) {
	if err := c.badNumber(); err != nil {
		return nil, nil, err
	}
	if c.fixed > 0 {
		return c.names, c.y, nil
	}
	// The labels in order, and the class of each, where two labels may
	// be one class: equal numbers written otherwise, 1 and 1.0.
	k := len(c.names)
	if err := memory.Check(float64(k) * 32); err != nil {
		return nil, nil, tooLarge(err, "sorting %d distinct labels", k)
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	if c.numbers {
		slices.SortFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(c.values[a], c.values[b]), strings.Compare(c.names[a], c.names[b]))
		})
	} else {
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(c.names[a], c.names[b]) })
	}
	class := make([]float64, k)
	names := make([]string, 0, k)
	for i, a := range order {
		if i == 0 || !c.numbers || c.values[a] != c.values[order[i-1]] {
			names = append(names, c.names[a])
		}
		class[a] = float64(len(names) - 1)
	}
	for i, id := range c.y {
		c.y[i] = class[int(id)]
	}
	return names, c.y, nil
}

// SortClasses returns the classes of the labels of rows, as Read makes
// them of the labels of a file: sorted by value if every label is a
// number, the labels of one value one class, and by text otherwise; and
// the class of each label, an index into classes. The Rows of a reader
// give the labels of their rows as they come, which SortClasses sorts, and
// a reader given the classes numbers the rows as Read does. It returns an
// error naming a label that the readers refuse.
func SortClasses(labels []string) (classes []string, class []int, err error) {
	c, _ := newClasses(nil)
	for _, l := range labels {
		k, err := c.index(l, 0, 0)
		if err == nil {
			err = c.push(k)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("data: %w", err)
		}
	}
	classes, y, _ := c.finish()
	class = make([]int, len(y))
	for i, k := range y {
		class[i] = int(k)
	}
	return classes, class, nil
}

// quote returns s quoted, cut to its first 40 bytes: an error quotes a
// short, printable prefix of a bad token, however long the token.
func quote(s string) string {
	const most = 40
	if len(s) <= most {
		return strconv.QuoteToASCII(s)
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.QuoteToASCII(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
}

// number parses a feature value, which must be a finite number, with white
// space around it or none.
func number(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, errors.New("empty, want a number")
	}
	v, kind := parseNumber([]byte(t))
	switch kind {
	case numSyntax:
		return 0, fmt.Errorf("%s is not a number", quote(s))
	case numNonFinite:
		return 0, fmt.Errorf("%s is not a finite number", quote(s))
	}
	return v, nil
}
