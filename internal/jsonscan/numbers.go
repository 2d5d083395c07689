// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package jsonscan

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// Numbers is float64s in JSON as an array of numbers, as encoding/json
// writes a []float64, which it decodes without reflection: into the slice
// that Decode made the array's length, or into a new one.
type Numbers []float64

// UnmarshalJSON decodes the JSON array of numbers data into f, reusing its
// memory, and leaves to encoding/json what is not such an array. It checks
// the array's syntax as it parses it, so that text that is not JSON is
// encoding/json's to refuse.
func (f *Numbers) UnmarshalJSON(data []byte) error {
	v := (*f)[:0]
	if v == nil {
		v = Numbers{} // [] is an empty slice, not nil
	}
	s := bytes.TrimSpace(data)
	if len(s) < 2 || s[0] != '[' {
		return json.Unmarshal(data, (*[]float64)(f))
	}
	i := Space(s, 1)
	if i < len(s) && s[i] == ']' {
		i++
	} else {
		for {
			start := i
			if i = number(s, i); i < 0 {
				// Not a number: encoding/json decides.
				return json.Unmarshal(data, (*[]float64)(f))
			}
			x, err := strconv.ParseFloat(string(s[start:i]), 64)
			if err != nil {
				// Out of range: encoding/json says so.
				return json.Unmarshal(data, (*[]float64)(f))
			}
			v = append(v, x)
			if i = Space(s, i); i < len(s) && s[i] == ',' {
				i = Space(s, i+1)
				continue
			}
			if i < len(s) && s[i] == ']' {
				i++
				break
			}
			return json.Unmarshal(data, (*[]float64)(f))
		}
	}
	if i != len(s) {
		return json.Unmarshal(data, (*[]float64)(f))
	}
	*f = v
	return nil
}

// Floats is float64s in JSON as their little-endian bytes in base64:
// exact, and about half as long as the shortest decimals of most values.
type Floats []float64

// MarshalJSON returns f's bytes, little-endian, as a base64 JSON string.
func (f Floats) MarshalJSON() ([]byte, error) {
	b := make([]byte, 8*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return json.Marshal(b)
}

// UnmarshalJSON decodes the floats of data into a new slice, after it
// checks their memory; an error of the memory wraps the *memory.Error of
// memory.Check.
func (f *Floats) UnmarshalJSON(data []byte) error {
	// A string of base64 has no escapes to undo: it is decoded where it
	// stands, a chunk of whole float64s at a time, into a slice of its
	// length.
	s := bytes.TrimSpace(data)
	if len(s) < 2 || s[0] != '"' || bytes.IndexByte(s, '\\') >= 0 {
		var str string
		if err := json.Unmarshal(data, &str); err != nil {
			return err
		}
		s = []byte(str)
	} else {
		s = s[1 : len(s)-1]
	}
	enc := base64.StdEncoding
	most := enc.DecodedLen(len(s)) / 8
	if err := memory.Check(8 * float64(most)); err != nil {
		return fmt.Errorf("%d float64s %w", most, err)
	}
	v := make(Floats, 0, most)
	var buf [6 * 1024]byte // 8 KiB of base64 makes 768 float64s
	size := 0
	for at := 0; at < len(s); at += 8 * 1024 {
		n, err := enc.Decode(buf[:], s[at:min(len(s), at+8*1024)])
		if e, ok := err.(base64.CorruptInputError); ok {
			return base64.CorruptInputError(int64(at) + int64(e))
		} else if err != nil {
			return err
		}
		size += n
		for k := 0; k+8 <= n; k += 8 {
			v = append(v, math.Float64frombits(binary.LittleEndian.Uint64(buf[k:])))
		}
	}
	if size%8 != 0 {
		return fmt.Errorf("%d bytes of float64s, want a multiple of 8", size)
	}
	*f = v
	return nil
}
