// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
)

// The kinds of error. Every error and panic of the package and of package
// data is an *Error of one of them, or wraps an error of the caller's, such
// as ctx.Err() or that of os.Open: test them with errors.Is.
var (
	// ErrNotFitted is the kind of a classifier used before a Fit, a
	// Learn or a load gave it a model.
	ErrNotFitted = errors.New("perceptron: not fitted")
	// ErrShape is the kind of data of dimensions that do not fit: no
	// rows, or rows, labels or a column index of the wrong size.
	ErrShape = errors.New("perceptron: dimension mismatch")
	// ErrNonFinite is the kind of a NaN or an infinity in data, labels
	// or settings, and of weights that would overflow.
	ErrNonFinite = errors.New("perceptron: NaN or infinite value")
	// ErrFormat is the kind of malformed input: not a saved classifier
	// or model, a file of data not in its format, a CSR out of order.
	ErrFormat = errors.New("perceptron: malformed input")
	// ErrNotConverged is the kind of a computation that did not reach
	// its tolerance within its iterations.
	ErrNotConverged = errors.New("perceptron: not converged")
	// ErrTooLarge is the kind of a size beyond the memory left to the
	// process, as the package documentation says, or the counts it keeps.
	ErrTooLarge = errors.New("perceptron: too large")
	// ErrSetting is the kind of a setting or an argument out of its
	// range but finite: a negative Rate, a Pocket given to Mix.
	ErrSetting = errors.New("perceptron: invalid setting")
	// ErrLabels is the kind of labels that give no classes to learn: a
	// single class, a label not among Labels or a model's classes.
	ErrLabels = errors.New("perceptron: invalid labels")
)

// An Error is an error of a kind, and of the error that caused it, with a
// message that names the row, the value or the member at fault; errors.As
// gives it with its place in the data, as encoding/csv's ParseError.
type Error struct {
	Kind     error  // ErrShape, ErrFormat or another of the Err variables
	Msg      string // what Error returns
	Row, Col int    // the 0-based row and column at fault, or -1
	Line     int    // the 1-based line of a text that package data read, or 0
	Err      error  // the error that caused this one, or nil
}

func (e *Error) Error() string { return e.Msg }

func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// errorf returns an error of the kind with the message of
// fmt.Errorf(format, args...), which also wraps what %w marks, about the
// place of what it wraps or about no one row or column.
func errorf(kind error, format string, args ...any) error {
	return errorAt(kind, -1, -1, format, args...)
}

// errorAt returns the error of errorf about row i and column j of the data,
// each -1 where it is about no one row or column.
func errorAt(kind error, i, j int, format string, args ...any) *Error {
	w := fmt.Errorf(format, args...)
	e := &Error{Kind: kind, Msg: w.Error(), Row: i, Col: j}
	switch u := w.(type) {
	case interface{ Unwrap() error }:
		e.Err = u.Unwrap()
	case interface{ Unwrap() []error }:
		e.Err = w
	}
	var in *Error
	if i < 0 && j < 0 && errors.As(e.Err, &in) {
		// errors.As finds the first *Error: this one, about the place.
		e.Row, e.Col, e.Line = in.Row, in.Col, in.Line
	}
	return e
}

// wrapf returns the error of fmt.Errorf(format, args...), about err, which
// the format's %w marks or whose message it holds: of the kind and the
// place of err if err is an *Error, and otherwise of the kind of err, such
// as a context's, as fmt.Errorf wraps it.
func wrapf(err error, format string, args ...any) error {
	var in *Error
	if !errors.As(err, &in) {
		return fmt.Errorf(format, args...)
	}
	return errorf(in.Kind, format, args...)
}

// notFitted returns the error of method called on a classifier that has
// not been fitted, of kind ErrNotFitted.
func notFitted(method string) error {
	return errorf(ErrNotFitted, "perceptron: %s called before Fit", method)
}

// tooLarge returns err, of memory.Check, wrapped in an error of kind
// ErrTooLarge about what the format and args describe. The callers format
// only when the check fails: formatting allocates.
func tooLarge(err error, format string, args ...any) error {
	return errorf(ErrTooLarge, "perceptron: "+format+" %w", append(args, err)...)
}

// badSetting returns the error of a setting of the value v that is out
// of its range: of kind ErrNonFinite if v is NaN or infinite, and of kind
// ErrSetting otherwise.
func badSetting(v float64, format string, args ...any) error {
	if !finite(v) {
		return errorf(ErrNonFinite, format, args...)
	}
	return errorf(ErrSetting, format, args...)
}

// finite reports whether v is neither NaN nor an infinity.
func finite(v float64) bool { return v-v == 0 }

// nonFinite returns the index of the first NaN or infinity in x, or -1.
func nonFinite(x []float64) int {
	for j, v := range x {
		if !finite(v) {
			return j
		}
	}
	return -1
}
