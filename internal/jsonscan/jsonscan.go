// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package jsonscan walks JSON text in place and without copying it, for
// the strict loading of package perceptron's saved classifiers and package
// data's model files: Valid, which checks the text's syntax as json.Valid
// does, in one pass; a Scanner that moves over white space, values,
// members and elements, and on it the members of an object, the length of
// an array, and Decode, which checks a value's syntax, and the value
// against the Go value it decodes into, as it decodes it, each member
// where it stands, so that a model's text is checked and parsed once
// (its arrays are measured first, many bytes at a time); and Numbers and
// Floats, the JSON forms of float64s that Decode prepares.
//
// The Scanner and the functions read text that is valid JSON, as Valid
// says, but for Valid, Syntax and Decode, which check the syntax, and
// Space: on other text they end without a panic, and what they return
// means nothing.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// Scanner is a position in JSON text that is valid.
type Scanner struct {
	Text []byte
	I    int // the offset of the next byte to read
}

// Space moves past white space.
func (s *Scanner) Space() { s.I = Space(s.Text, s.I) }

// Skip moves past white space and the value that follows it.
func (s *Scanner) Skip() {
	t, depth := s.Text, 0
	i := Space(t, s.I)
	plain := i // a [ before it is not tried: a try searched past it
	for ; i < len(t); i++ {
		if !stops[t[i]] {
			continue
		}
		if t[i] == '[' && i >= plain {
			// An array of numbers and literals, as a model's weights are,
			// ends at the first ], which bytes.IndexByte finds many bytes
			// at a time; if the array holds more, the bytes up to that ]
			// are not searched again, so that Skip stays linear.
			end, ok := scalarArray(t, i)
			if ok {
				i = end - 1
				if depth == 0 {
					s.I = end
					return
				}
				continue
			}
			plain = end
		}
		switch t[i] {
		case '"':
			for i++; i < len(t) && t[i] != '"'; i++ {
				if t[i] == '\\' {
					i++
				}
			}
			if i >= len(t) {
				s.I = len(t) // text that is not JSON, which Skip ends safely
				return
			}
			if depth == 0 {
				s.I = i + 1
				return
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				s.I = i // the end of the object or array that holds a number or a literal
				return
			}
			if depth--; depth == 0 {
				s.I = i + 1
				return
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				s.I = i
				return
			}
		}
	}
	s.I = i
}

// scalarArray reports whether the array that starts at text[i] holds
// numbers and literals alone, no string, array or object, which it tells
// many bytes at a time from the text up to the first ], where such an
// array ends; end is the offset after that ], or len(text) if there is
// none.
func scalarArray(text []byte, i int) (end int, ok bool) {
	e := bytes.IndexByte(text[i:], ']')
	if e < 0 {
		return len(text), false
	}
	in := text[i+1 : i+e]
	return i + e + 1, bytes.IndexByte(in, '"') < 0 && bytes.IndexByte(in, '[') < 0 && bytes.IndexByte(in, '{') < 0
}

// stops are the bytes that Skip stops at; it passes the digits and
// letters of numbers and literals, most of the bytes of a saved model, at
// a glance.
var stops = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true, ',': true, ' ': true, '\t': true, '\n': true, '\r': true}

// Next moves past white space and the '{' or '[' that opens an object or
// an array, or the ',' that follows one of its members or elements, and
// reports whether a member or an element follows, at s.I; if none does,
// it moves past the '}' or ']' that closes the object or the array. On a
// number, a string or a literal it moves past white space alone, and
// reports true.
func (s *Scanner) Next() bool {
	s.Space()
	if s.I < len(s.Text) {
		if c := s.Text[s.I]; c == '{' || c == '[' || c == ',' {
			s.I++
			s.Space()
		}
	}
	if s.I == len(s.Text) {
		return false // text that is not JSON, which Next ends safely
	}
	if c := s.Text[s.I]; c == '}' || c == ']' {
		s.I++
		return false
	}
	return true
}

// Name returns the name of the member at s.I, as encoding/json decodes
// it, and moves past it, its colon and white space, to its value.
func (s *Scanner) Name() (string, error) {
	start := s.I
	s.Skip()
	key := s.Text[start:s.I]
	s.I = min(len(s.Text), Space(s.Text, Space(s.Text, s.I)+1))
	if len(key) < 2 || key[0] != '"' {
		return "", errSyntax // text that is not JSON
	}
	// Without escapes and in UTF-8 the text is the name, which spares
	// a call to encoding/json for each member.
	if bytes.IndexByte(key, '\\') < 0 && utf8.Valid(key) {
		return string(key[1 : len(key)-1]), nil
	}
	var name string
	err := json.Unmarshal(key, &name)
	return name, err
}

// Space returns the offset of the first byte of text from i on that is
// not white space, or len(text). The text need not be valid JSON.
func Space(text []byte, i int) int {
	for i < len(text) && isSpace(text[i]) {
		i++
	}
	return i
}

// Member is a member of a JSON object: its name, and the offsets in the
// object's text of its name's opening quote, of its value and of the end
// of its value.
type Member struct {
	Name            string
	Key, Value, End int
}

// Of returns the value of m in text, the text of its object.
func (m Member) Of(text []byte) []byte { return text[m.Value:m.End] }

// Members returns the members of the JSON value text in their order, or
// an error if it is not an object.
func Members(text []byte) ([]Member, error) {
	s := Scanner{Text: text}
	s.Space()
	if s.I == len(text) || text[s.I] != '{' {
		return nil, errors.New("not an object")
	}
	var members []Member
	for s.Next() {
		key := s.I
		name, err := s.Name()
		if err != nil {
			return nil, err
		}
		value := s.I
		s.Skip()
		members = append(members, Member{Name: name, Key: key, Value: value, End: s.I})
	}
	return members, nil
}

// Length returns the number of elements of the JSON value text, or 0 if
// it is not an array.
func Length(text []byte) int {
	s := Scanner{Text: text}
	s.Space()
	if s.I == len(text) || text[s.I] != '[' {
		return 0
	}
	if n, _, ok := countScalars(text, s.I); ok {
		return n
	}
	n := 0
	for ; s.Next(); n++ {
		s.Skip()
	}
	return n
}

// countScalars returns the number of elements of the array that starts at
// text[i], and the offset after it, if the elements are numbers and
// literals alone, one more than their commas, which it counts many bytes
// at a time; ok is false if they are not.
func countScalars(text []byte, i int) (n, end int, ok bool) {
	if end, ok = scalarArray(text, i); !ok {
		return 0, 0, false
	}
	if in := text[i+1 : end-1]; Space(in, 0) < len(in) {
		n = bytes.Count(in, []byte(",")) + 1
	}
	return n, end, true
}

// Remove removes members[k] from text, the text of their object, with the
// comma that parts it from another, moving the text after it in place,
// and returns the text left.
func Remove(text []byte, members []Member, k int) []byte {
	from, to := members[k].Key, members[k].End
	switch {
	case k > 0:
		from = members[k-1].End
	case len(members) > 1:
		to = members[1].Key
	}
	return append(text[:from], text[to:]...)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
