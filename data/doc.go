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
// of line. JSON reads rows as a service takes them in the body of a
// request, an object of an array of rows, and names the row of what it
// refuses. The methods of the readers share nothing: any of them may run
// concurrently with any other, of one reader or of many.
//
// Every error of the package is a *perceptron.Error of one of the kinds
// of package perceptron, which errors.Is finds: of kind ErrFormat for a
// malformed file, ErrLabels, ErrShape, ErrNonFinite, ErrSetting and the
// others as that package says. errors.As gives the Error, with the Line
// and the column of the rows, Col, of a field that a reader refuses, and
// the Row at fault. An error of an io.Reader or of os.Open is wrapped as
// it is: errors.Is(err, fs.ErrNotExist) finds a file that does not exist.
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
// rows × features, or 16 bytes for each non-zero and 8 bytes for each row
// of sparse rows, 8 bytes for the class of each row and for its weight if
// it has one, and the names of the classes and of the features. The
// functions of the package hold no more than a small multiple of what they
// return and what they are given, which each states, and before each
// allocation of a size that their input gives, they check it against the
// memory left to the process: what Go's memory limit
// (runtime/debug.SetMemoryLimit, GOMEMLIMIT) leaves and, on Linux, what the
// limit of address space (ulimit -v) and the machine's memory and swap
// leave. Under a limit of address space, a check also keeps room for the
// 64 MiB arena that Go's runtime may reserve to make the allocation. A size
// that does not fit is an error of kind perceptron.ErrTooLarge (test it
// with errors.Is), never a fatal error of Go's allocator. MemoryLeft gives
// a program the room the checks see, and CheckMemory the same check for its
// own allocations.
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
// (5.5 + 8·NGrams) bytes for each byte of the longest line. The arrays that
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
// The binary form of a Model, version 2, is a header, a head and
// sections; its integers are little-endian:
//
//	header    "PCPM", the version (uint16: 2 with a section IDFC, and
//	          otherwise 1, which older readers read), two bytes of 0, and
//	          the length of the head in bytes (uint64)
//	head      the columns of the rows the Model takes, Classes, Names, Label,
//	          Hashing, the kind of the Scaler (0 none, 1 scales alone, 2 means
//	          and scales), Normalize, and the statistics of the training rows
//	sections  each a tag of 4 bytes, the length of its body in bytes
//	          (uint64) and the body: SCAL, the means and the scales of the
//	          Scaler, if it has one, or, for a Scaler of scales alone that
//	          NewIDFCounts makes, to the bit, of the rows of the head's
//	          statistics, IDFC: the number of those rows (a varint), the
//	          gaps of the columns that some rows hold (each the column's
//	          index for the first and otherwise its index less the last's
//	          less one) and the count of the rows that hold each, two arrays
//	          of varints; CALB, the Calibration, if it has one, as its JSON
//	          form's values; then CLSF, the classifier's binary form
//
// The head comes first, so that a reader checks rows against it before it
// reads the rest, as LoadModelHead does; a step that a later version
// saves is a section of its own before the classifier's. The classifier's
// binary form, version 4 of package perceptron's, as perceptron.Marshal
// writes it, is:
//
//	header  "PCPT", the version (uint16: 4 if a table is absent, and
//	        otherwise 3, which older readers read), the type (uint16: 1
//	        Perceptron, 2 Averaged, 3 Pocket, 4 Voted, 5 Kernel, 6
//	        OneVsRest), and the columns d, the scores S and the length of
//	        the head in bytes (each a uint64)
//	head    the number of tables and the encoding of each: 0 dense, 1
//	        sparse and the length of its body in bytes, or 2 absent, of no
//	        body; then the values of the settings, the model without its
//	        tables, and the stats of the classifier's JSON form
//	tables  the tables of d·S weights, each feature's S together: an
//	        Averaged's sums of the weights, what it predicts with, then its
//	        weights, absent (null in the JSON form) if
//	        perceptron.PredictOnly dropped them; the weights of the other
//	        linear classifiers; none for Kernel and OneVsRest, whose model
//	        holds its classifiers' forms
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
