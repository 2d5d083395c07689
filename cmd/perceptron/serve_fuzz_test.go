// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"io"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// FuzzJSONRows checks that the rows of any JSON body, of a model of dense
// rows and of a model of text, labelled or not, are read or refused with
// an error, never a panic, and that rows read are as many as the body
// has, within -max-rows, of the model's width, with a class each if they
// have labels.
func FuzzJSONRows(f *testing.F) {
	for _, b := range []string{
		`{"rows": [[1, 2, 3, 4]]}`, `{"rows": [{"values": [1, 2], "indices": [1, 4], "label": "a"}]}`,
		`{"rows": [{"values": [1, 2, 3, 4], "label": "b"}, {"text": "the team", "label": "a"}]}`, `{"rows": [{"text": "more words", "label": "b"}]}`,
		`{"rows": ["a text", {"text": "more words", "label": "b"}]}`, `{"rows": [{"values": [1, 2, 3, 4], "label": 1}]}`,
		`{"rows": [[1, 2, 1e400, 4]]}`, `{"rows": [{"indices": [3, 0], "values": [1, 2]}]}`, `{"rows": []}`, `[]`,
		`{"rows": [null, true, "\u00e9\xff"]}`, `{"rows": [{"values": null}]}`, `{"rows": [[` + strings.Repeat("0,", 20) + `0]]}`,
	} {
		f.Add([]byte(b))
	}
	two := []string{"a", "b"}
	dense := &data.Model{Classifier: &perceptron.Perceptron{}}
	if err := dense.Fit(&data.Set{X: mat.NewDense(2, 4, []float64{1, 0, 0, 1, 0, 1, 1, 0}), Y: []float64{0, 1}, Classes: two}); err != nil {
		f.Fatal(err)
	}
	h := data.Hashing{Bits: 6}
	X, err := h.Transform([]string{"the team won", "the vote was lost"})
	if err != nil {
		f.Fatal(err)
	}
	text := &data.Model{Hashing: &h, Classifier: &perceptron.Perceptron{}}
	if err := text.Fit(&data.Set{X: X, Y: []float64{0, 1}, Classes: two}); err != nil {
		f.Fatal(err)
	}
	flags := serveFlags{limits: serveLimits{maxBody: 1 << 20, maxRows: 8}}
	servers := []*server{newServer(dense, flags, io.Discard, io.Discard), newServer(text, flags, io.Discard, io.Discard)}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, s := range servers {
			for _, labelled := range []bool{false, true} {
				set, err := s.jsonRows(body, labelled)
				if err != nil {
					continue
				}
				n, d := set.X.Dims()
				switch {
				case n < 1 || n > flags.limits.maxRows:
					t.Errorf("text %v, labelled %v: %d rows read, want 1 to %d", s.text, labelled, n, flags.limits.maxRows)
				case d != s.width:
					t.Errorf("text %v, labelled %v: rows of %d columns, want %d", s.text, labelled, d, s.width)
				case set.Y != nil && len(set.Y) != n:
					t.Errorf("text %v: %d labels for %d rows", s.text, len(set.Y), n)
				}
			}
		}
	})
}
