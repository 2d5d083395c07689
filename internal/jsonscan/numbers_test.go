// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package jsonscan

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// Numbers decodes as encoding/json decodes a []float64: the same
// numbers, bit for bit, and the same errors, within a struct as a saved
// form holds it.
func TestNumbers(t *testing.T) {
	for _, text := range []string{
		`[]`, `[0]`, `[ 1 , -2.5e-3,0.1,  -0 ]`, `[1e308, 4.9e-324, 2.2250738585072014e-308]`,
		`[0.30000000000000004, 123456789012345678901234567890]`, `[1e999]`, `[-1e999]`,
		`[1, null, 2]`, `null`, `["1"]`, `[1, "a,b"]`, `[true]`, `[[1]]`, `[{"a":1}]`, `{}`, `"x"`, `3`,
		"[\n\t1,\r\n2\n]",
	} {
		var want struct {
			W []float64 `json:"w"`
		}
		var got struct {
			W Numbers `json:"w"`
		}
		doc := []byte(`{"w":` + text + `}`)
		errWant := json.Unmarshal(doc, &want)
		errGot := json.Unmarshal(doc, &got)
		if fmt.Sprint(errGot) != fmt.Sprint(errWant) {
			t.Errorf("%s: error %v, want %v", text, errGot, errWant)
			continue
		}
		if len(got.W) != len(want.W) || (got.W == nil) != (want.W == nil) {
			t.Errorf("%s: %v, want %v", text, got.W, want.W)
			continue
		}
		for i := range want.W {
			if math.Float64bits(got.W[i]) != math.Float64bits(want.W[i]) {
				t.Errorf("%s: element %d is %v, want %v", text, i, got.W[i], want.W[i])
			}
		}
	}
}
