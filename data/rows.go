// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"io"
	"iter"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
)

// Row is a row of a data set, as the Rows of a reader give it, one at a
// time, in memory that does not grow with the rows: its slices are the
// reader's, which the next row overwrites, so that a caller copies what it
// keeps.
type Row struct {
	// Ind holds the columns of the values of a sparse row, from 0, in
	// increasing order, or is nil for a dense row.
	Ind []int

	// Val holds the values of the row: those of the columns Ind of a
	// sparse row, whose other values are zero, or every value of a dense
	// row.
	Val []float64

	// Class is the class of the row, an index into Classes, or -1 if the
	// rows were read without their labels.
	Class int

	// Classes are the classes of the rows read so far: the reader's
	// Classes, then the labels that are none of them, in the order of the
	// rows in which they first come. A row of a new label adds it at the
	// end; the classes before it stay as they are.
	Classes []string

	// Line is the line of the text on which the row starts, or, for IDX,
	// the number of the image, from 1.
	Line int

	// Dropped is the number of values of the row that a reader of a fixed
	// width left out, as they were in columns beyond it, as a Set's
	// Dropped counts those of all its rows.
	Dropped int

	// Weight is the weight of the row, as a Set's Weights hold them, which
	// a Stream whose rows are Weighted trains by. The readers leave it 0.
	Weight float64
}

// rowReader reads rows one at a time.
type rowReader interface {
	// row reads the next row into row; io.EOF at the end.
	row(row *Row) error
}

// rowSeq returns the rows that the rowReader of start reads from the
// readers rs, as a sequence that reads them again, each time it is ranged
// over, from where they were at its first range, if they are all
// io.Seekers, as files are; otherwise a second range gives an error. The
// sequence yields an error at most once, as its last element.
func rowSeq(rs []io.Reader, start func() (rowReader, error)) iter.Seq2[Row, error] {
	var at []int64 // where each reader was at the first range
	ranged, seekable := false, true
	return func(yield func(Row, error) bool) {
		var err error
		if !ranged {
			ranged = true
			for _, r := range rs {
				s, ok := r.(io.Seeker)
				var off int64
				if ok && r != nil {
					off, err = s.Seek(0, io.SeekCurrent)
				}
				seekable = seekable && ok && r != nil && err == nil
				at = append(at, off)
			}
			err = nil
		} else if !seekable {
			err = errorf(perceptron.ErrSetting, "the rows of an io.Reader that is no io.Seeker are read once, and were read")
		} else {
			for k, r := range rs {
				if r != nil && err == nil {
					_, err = r.(io.Seeker).Seek(at[k], io.SeekStart)
				}
			}
		}
		var rows rowReader
		if err == nil {
			rows, err = start()
		}
		var row Row
		for err == nil {
			if err = rows.row(&row); err == nil && !yield(row, nil) {
				return
			}
		}
		if err != io.EOF {
			yield(Row{}, err)
		}
	}
}

// rowCol returns the column of value k of the row.
func rowCol(row Row, k int) int {
	if row.Ind == nil {
		return k
	}
	return row.Ind[k]
}

// denseRow returns row i of X, in place if raw, X's raw data, is not nil,
// and otherwise in buf, or a new slice if buf is nil, which it returns.
func denseRow(X mat.Matrix, raw mat.RawMatrixer, i int, buf []float64) []float64 {
	if raw != nil {
		m := raw.RawMatrix()
		return m.Data[i*m.Stride : i*m.Stride+m.Cols]
	}
	return mat.Row(buf, i, X)
}

// rowOf returns row i of X: in place for a *mat.Dense, and a copy
// otherwise.
func rowOf(X mat.Matrix, i int) []float64 {
	if m, ok := X.(*mat.Dense); ok {
		return m.RawRowView(i)
	}
	return mat.Row(nil, i, X)
}
