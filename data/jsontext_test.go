// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// FuzzObjectMembers checks the members found in place against those that
// encoding/json decodes, and that cutting one leaves the others, as valid
// JSON.
func FuzzObjectMembers(f *testing.F) {
	for _, b := range modelFiles(f) {
		f.Add(b)
	}
	f.Add([]byte(` { "a" : [1, {"b}": "\"]"}] , "c":-1.5e3,"d" :{}, "e":"x\\\\"} `))
	f.Add([]byte(`{"a":[],"b":[ ],"c":[1,[2,3],"4"]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		var want map[string]json.RawMessage
		members, err := objectMembers(b)
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
			got[m.name] = m.of(b)
			var elems []json.RawMessage
			if json.Unmarshal(m.of(b), &elems) == nil && arrayLength(m.of(b)) != len(elems) {
				t.Errorf("%s: the array %s has %d elements, not %d", b, m.of(b), len(elems), arrayLength(m.of(b)))
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%s: members %v, want %v", b, got, want)
		}
		for name, v := range want {
			if !bytes.Equal(got[name], v) && !slices.ContainsFunc(members, func(m member) bool { return m.name == name && bytes.Equal(m.of(b), v) }) {
				t.Errorf("%s: member %q is %s, want %s", b, name, got[name], v)
			}
		}
		for k := range members {
			rest := removeMember(slices.Clone(b), members, k)
			var left map[string]json.RawMessage
			if err := json.Unmarshal(rest, &left); err != nil || len(left) > len(want) {
				t.Fatalf("%s without member %d: %s: %v", b, k, rest, err)
			}
			if names, _ := objectMembers(rest); len(names) != len(members)-1 {
				t.Errorf("%s without member %d: %s", b, k, rest)
			}
		}
	})
}
