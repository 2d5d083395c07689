// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import "net/http"

// httpError is an error with the status of its answer.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

// badRequest returns an error of status 400, of the message of err.
func badRequest(err error) error {
	return &httpError{http.StatusBadRequest, errText(err)}
}
