// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"errors"
	"fmt"
)

// The kinds of error that a caller may need to tell apart. The errors of
// the package wrap one of them, where one applies, under a message of
// their own that names the row, the value or the member at fault: test
// them with errors.Is. The panics of the prediction methods are such
// errors too.
var (
	// ErrNotFitted is the kind of the errors and panics of a classifier
	// used before a Fit, a Learn or a load gave it a model.
	ErrNotFitted = errors.New("perceptron: not fitted")

	// ErrShape is the kind of the errors and panics of data of dimensions
	// that do not match: rows or labels of the wrong length.
	ErrShape = errors.New("perceptron: dimension mismatch")

	// ErrNonFinite is the kind of the errors of a NaN or an infinity in
	// data, labels or settings, or of weights that would overflow.
	ErrNonFinite = errors.New("perceptron: NaN or infinite value")

	// ErrFormat is the kind of the errors of loading what is not a saved
	// classifier, or one that is malformed.
	ErrFormat = errors.New("perceptron: not a saved classifier")

	// ErrNotConverged is the kind of the error of a computation that did
	// not reach its tolerance within its iterations.
	ErrNotConverged = errors.New("perceptron: not converged")

	// ErrTooLarge is the kind of the errors of a size beyond the memory
	// left to the process, which the package documentation describes.
	ErrTooLarge = errors.New("perceptron: too large for the memory")

	// ErrSetting is the kind of the errors of a setting out of its range,
	// other than a NaN or an infinity: a negative Rate, Labels of one
	// class, a OneVsRest.New that returns one classifier twice.
	ErrSetting = errors.New("perceptron: invalid setting")
)

// notFitted returns the error of method called on a classifier that has
// not been fitted, of kind ErrNotFitted.
func notFitted(method string) error {
	return errorf(ErrNotFitted, "perceptron: %s called before Fit", method)
}

// kindError is an error of a kind: its own message, and the kind and the
// error it wraps, if any.
type kindError struct {
	err  error
	kind error
}

func (e *kindError) Error() string   { return e.err.Error() }
func (e *kindError) Unwrap() []error { return []error{e.kind, e.err} }

// errorf returns an error of the kind with the message of
// fmt.Errorf(format, args...), which also wraps what %w marks.
func errorf(kind error, format string, args ...any) error {
	return &kindError{fmt.Errorf(format, args...), kind}
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
