// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package jsonscan_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
)

// modelFiles returns the files of a Model of every classifier of the
// library, fitted to rows of three classes with a Scaler, as WriteTo
// writes them.
func modelFiles(t testing.TB) [][]byte {
	t.Helper()
	X := mat.NewDense(9, 3, []float64{
		1, 2, 0, -1, -2, 0.5, 2, 1, 0,
		-2, 0, 1, 0, 3, -1, 3, 3, 0,
		-3, -1, 2, 1, -1, 0, 0, 0, 0,
	})
	y := []float64{0, 1, 2, 0, 1, 2, 0, 1, 2}
	sc, err := data.NewScaler(X)
	if err != nil {
		t.Fatal(err)
	}
	var files [][]byte
	for _, c := range []perceptron.Scorer{
		&perceptron.Perceptron{Epochs: 5}, &perceptron.Pocket{Epochs: 5}, &perceptron.Averaged{Epochs: 5},
		&perceptron.Voted{Epochs: 5}, &perceptron.Kernel{Epochs: 2}, &perceptron.OneVsRest{},
	} {
		m := &data.Model{Classifier: c, Scaler: sc, Names: []string{"first one", "second", "third"}}
		if err := m.Fit(&data.Set{X: X, Y: y, Classes: []string{"a", "b", "c"}}); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := m.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		files = append(files, b.Bytes())
	}
	return files
}

// FuzzMembers checks the members found in place against those that
// encoding/json decodes, and that cutting one leaves the others, as valid
// JSON; and that the Scanner ends on text that is not JSON.
func FuzzMembers(f *testing.F) {
	for _, b := range modelFiles(f) {
		f.Add(b)
	}
	f.Add([]byte(` { "a" : [1, {"b}": "\"]"}] , "c":-1.5e3,"d" :{}, "e":"x\\\\"} `))
	f.Add([]byte(`{"a":[],"b":[ ],"c":[1,[2,3],"4"]}`))
	f.Add([]byte(`{}`))
	// Arrays that Skip passes at once, and arrays it must walk: of
	// strings that hold brackets, of arrays, of objects.
	f.Add([]byte(`{"w":[1,-2.5e-3,true,null,0],"x":[[1,2],[3]],"y":["]","[",1],"z":[{"a":[1]},2],"v":[1,[2,[3,[4]]]]}`))
	f.Add([]byte("{\"\xff\":1,\"\xfe\":2,\"\\u00e9\xff\":[true,null]}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			// Text that is not JSON is read to an end without a panic.
			jsonscan.Members(b)
			jsonscan.Length(b)
			s := jsonscan.Scanner{Text: b}
			for at := -1; s.I > at && s.Next(); {
				at = s.I
				s.Name()
				s.Skip()
			}
			return
		}
		var want map[string]json.RawMessage
		members, err := jsonscan.Members(b)
		if json.Unmarshal(b, &want) != nil || want == nil {
			if err == nil {
				t.Fatalf("%s: members %v of no object", b, members)
			}
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		got := map[string]json.RawMessage{}
		for _, m := range members {
			got[m.Name] = m.Of(b)
			var elems []json.RawMessage
			if json.Unmarshal(m.Of(b), &elems) == nil && jsonscan.Length(m.Of(b)) != len(elems) {
				t.Errorf("%s: the array %s has %d elements, not %d", b, m.Of(b), len(elems), jsonscan.Length(m.Of(b)))
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%s: members %v, want %v", b, got, want)
		}
		for name, v := range want {
			if !bytes.Equal(got[name], v) && !slices.ContainsFunc(members, func(m jsonscan.Member) bool { return m.Name == name && bytes.Equal(m.Of(b), v) }) {
				t.Errorf("%s: member %q is %s, want %s", b, name, got[name], v)
			}
		}
		for k := range members {
			rest := jsonscan.Remove(slices.Clone(b), members, k)
			var left map[string]json.RawMessage
			if err := json.Unmarshal(rest, &left); err != nil || len(left) > len(want) {
				t.Fatalf("%s without member %d: %s: %v", b, k, rest, err)
			}
			if names, _ := jsonscan.Members(rest); len(names) != len(members)-1 {
				t.Errorf("%s without member %d: %s", b, k, rest)
			}
		}
	})
}
