// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"fmt"

	"github.com/seed5ae3614e/perceptron"
)

// kindError is an error of one of the kinds of package perceptron, such
// as perceptron.ErrTooLarge: its message, and the kind and the error it
// wraps, if any.
type kindError struct {
	msg  string
	kind error
	err  error
}

func (e *kindError) Error() string { return e.msg }

func (e *kindError) Unwrap() []error {
	if e.err == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.err}
}

// errorf returns an error of the kind with the message of
// fmt.Sprintf(format, args...).
func errorf(kind error, format string, args ...any) error {
	return &kindError{msg: fmt.Sprintf(format, args...), kind: kind}
}

// tooLarge returns err, an error of the budget, as an error of kind
// perceptron.ErrTooLarge whose message starts with what fmt.Sprintf(format,
// args...) says: "line 7: holding the rows up to it needs 2.0 GiB of memory,
// more than ...".
func tooLarge(err error, format string, args ...any) error {
	return &kindError{msg: fmt.Sprintf(format, args...) + " " + err.Error(), kind: perceptron.ErrTooLarge, err: err}
}
