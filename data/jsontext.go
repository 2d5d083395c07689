// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"encoding/json"
	"errors"
)

// The members of a model file are found in its text, which json.Valid has
// accepted, by where they lie, without copying them: encoding/json would
// copy each into a json.RawMessage, and the classifier's text, the bulk of
// the file, with them.

// member is a member of a JSON object: its name, and the offsets in the
// object's text of its name's opening quote, of its value and of the end
// of its value.
type member struct {
	name            string
	key, value, end int
}

// of returns the value of m in text, the text of its object.
func (m member) of(text []byte) []byte { return text[m.value:m.end] }

// objectMembers returns the members of the JSON value text, which is
// valid JSON, in their order, or an error if it is not an object.
func objectMembers(text []byte) ([]member, error) {
	i := skipSpace(text, 0)
	if i == len(text) || text[i] != '{' {
		return nil, errors.New("not an object")
	}
	var members []member
	for i = skipSpace(text, i+1); text[i] != '}'; {
		key := i
		i = skipValue(text, key)
		var name string
		if err := json.Unmarshal(text[key:i], &name); err != nil {
			return nil, err
		}
		value := skipSpace(text, skipSpace(text, i)+1) // after the colon
		i = skipValue(text, value)
		members = append(members, member{name: name, key: key, value: value, end: i})
		if i = skipSpace(text, i); text[i] == ',' {
			i = skipSpace(text, i+1)
		}
	}
	return members, nil
}

// arrayLength returns the number of elements of the JSON array text,
// which is valid JSON, or 0 if it is not an array.
func arrayLength(text []byte) int {
	i := skipSpace(text, 0)
	if i == len(text) || text[i] != '[' {
		return 0
	}
	n := 0
	for i = skipSpace(text, i+1); text[i] != ']'; n++ {
		if i = skipSpace(text, skipValue(text, i)); text[i] == ',' {
			i = skipSpace(text, i+1)
		}
	}
	return n
}

// skipSpace returns the offset of the first byte of text from i on that is
// not JSON's white space, or len(text).
func skipSpace(text []byte, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the offset just after the JSON value that starts at
// text[i], in text that is valid JSON.
func skipValue(text []byte, i int) int {
	depth := 0
	for ; i < len(text); i++ {
		switch text[i] {
		case '"':
			for i++; text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the end of the object or array that holds a number or a literal
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// removeMember removes members[k] from text, the text of their object,
// with the comma that parts it from another, moving the text after it in
// place, and returns the text left.
func removeMember(text []byte, members []member, k int) []byte {
	from, to := members[k].key, members[k].end
	switch {
	case k > 0:
		from = members[k-1].end
	case len(members) > 1:
		to = members[1].key
	}
	return append(text[:from], text[to:]...)
}
