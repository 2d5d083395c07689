// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/seed5ae3614e/perceptron"
)

// errorf returns a *perceptron.Error of the kind with the message of
// fmt.Errorf(format, args...), which also wraps what %w marks, about the
// place of what it wraps, or about no line, row or column.
func errorf(kind error, format string, args ...any) error {
	return errorAt(kind, 0, -1, -1, format, args...)
}

// errorAt returns the error of errorf about line of a text, from 1, or 0
// where none, and row i and column j of the data, from 0, or -1 where none.
func errorAt(kind error, line, i, j int, format string, args ...any) error {
	w := fmt.Errorf(format, args...)
	e := &perceptron.Error{Kind: kind, Msg: w.Error(), Row: i, Col: j, Line: line}
	switch u := w.(type) {
	case interface{ Unwrap() error }:
		e.Err = u.Unwrap()
	case interface{ Unwrap() []error }:
		e.Err = w
	}
	var in *perceptron.Error
	if line == 0 && i < 0 && j < 0 && errors.As(e.Err, &in) {
		// errors.As finds the first *perceptron.Error: this one, about the
		// place.
		e.Row, e.Col, e.Line = in.Row, in.Col, in.Line
	}
	return e
}

// wrapf returns the error of wrapAt about the place of err.
func wrapf(err error, format string, args ...any) error {
	return wrapAt(err, 0, -1, -1, format, args...)
}

// wrapAt returns the error of fmt.Errorf(format, args...), about err, which
// the format's %w marks or whose message it holds: of the kind of err, and
// about line, row i and column j, or where 0 or -1 those of err, if err is
// a *perceptron.Error; and otherwise of the kind of err, such as an
// io.Reader's or os.Open's, as fmt.Errorf wraps it.
func wrapAt(err error, line, i, j int, format string, args ...any) error {
	var in *perceptron.Error
	if !errors.As(err, &in) {
		return fmt.Errorf(format, args...)
	}
	if i < 0 {
		i = in.Row
	}
	if j < 0 {
		j = in.Col
	}
	return errorAt(in.Kind, cmp.Or(line, in.Line), i, j, format, args...)
}

// tooLarge returns err, an error of the budget, as an error of kind
// perceptron.ErrTooLarge whose message starts with what fmt.Sprintf(format,
// args...) says: "line 7: holding the rows up to it needs 2.0 GiB of memory,
// more than ...".
func tooLarge(err error, format string, args ...any) error {
	return errorf(perceptron.ErrTooLarge, format+" %w", append(args, err)...)
}
