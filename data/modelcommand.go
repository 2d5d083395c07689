// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"math"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
)

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
	var c commandJSON
	if err := jsonscan.DecodeValid(text, &c); err != nil {
		return nil, decodeError(err, "member command: ")
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
