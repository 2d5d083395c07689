// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package jsonscan

// maxDepth is the deepest nesting of arrays and objects that Valid
// accepts: encoding/json's scanner refuses deeper text.
const maxDepth = 10000

// Valid reports whether data is one JSON value with only white space
// around it, as json.Valid does, in one pass over it: a model's text is
// mostly numbers, which encoding/json's scanner takes a call of a state
// function a byte to check.
func Valid(data []byte) bool {
	i := valueEnd(data, 0, 0)
	return i >= 0 && Space(data, i) == len(data)
}

// valueEnd returns the offset after the JSON value that starts at i,
// after white space, within depth arrays and objects, or -1 if no valid
// value starts there.
func valueEnd(data []byte, i, depth int) int {
	// open holds, for each array or object the value at i is in, whether
	// it is an object.
	var open []bool
	i = Space(data, i)
	for {
		// A value at i.
		if i >= len(data) {
			return -1
		}
		switch c := data[i]; {
		case c == '{' || c == '[':
			if depth+len(open) == maxDepth {
				return -1
			}
			open = append(open, c == '{')
			i = Space(data, i+1)
			if i < len(data) && (c == '{' && data[i] == '}' || c == '[' && data[i] == ']') {
				open = open[:len(open)-1]
				i++
				break
			}
			if c == '{' {
				if i = member(data, i); i < 0 {
					return -1
				}
			}
			continue
		case c == '"':
			if i = str(data, i); i < 0 {
				return -1
			}
		case c == '-' || c >= '0' && c <= '9':
			if i = number(data, i); i < 0 {
				return -1
			}
		default:
			if i = literal(data, i); i < 0 {
				return -1
			}
		}
		// After a value: the end of the text, or what follows it in the
		// array or object it is in.
		for {
			if len(open) == 0 {
				return i
			}
			i = Space(data, i)
			if i == len(data) {
				return -1
			}
			obj := open[len(open)-1]
			if c := data[i]; obj && c == '}' || !obj && c == ']' {
				open = open[:len(open)-1]
				i++
				continue
			}
			if data[i] != ',' {
				return -1
			}
			i = Space(data, i+1)
			if obj {
				if i = member(data, i); i < 0 {
					return -1
				}
			}
			break
		}
	}
}

// member returns the offset of the value of the member whose name starts
// at i, past its colon and the space around it, or -1 if there is none.
func member(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	if i = str(data, i); i < 0 {
		return -1
	}
	if i = Space(data, i); i >= len(data) || data[i] != ':' {
		return -1
	}
	return Space(data, i+1)
}

// str returns the offset after the string that starts at i, or -1 if it
// is not one: bytes of at least 0x20 but the quote and the backslash,
// and escapes, as encoding/json takes them, UTF-8 or not.
func str(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(data) {
				return -1
			}
			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(data) {
					return -1
				}
				for _, h := range data[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

// number returns the offset after the number that starts at i, or -1 if
// it is not one: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func number(data []byte, i int) int {
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && '1' <= data[i] && data[i] <= '9':
		i = digits(data, i)
	default:
		return -1
	}
	if i < len(data) && data[i] == '.' {
		if j := digits(data, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if j := digits(data, i); j > i {
			i = j
		} else {
			return -1
		}
	}
	return i
}

// digits returns the offset of the first byte from i on that is not a
// decimal digit.
func digits(data []byte, i int) int {
	for i < len(data) && '0' <= data[i] && data[i] <= '9' {
		i++
	}
	return i
}

// literal returns the offset after true, false or null at i, or -1 if
// none starts there.
func literal(data []byte, i int) int {
	for _, l := range [...]string{"true", "false", "null"} {
		if len(data)-i >= len(l) && string(data[i:i+len(l)]) == l {
			return i + len(l)
		}
	}
	return -1
}
