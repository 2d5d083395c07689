// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
)

// jsonWhole is the size of the largest saved model that the dump prints
// whole.
const jsonWhole = 2048

// json prints the bytes of a saved model: whole if they are few or the
// printer says so, and otherwise member by member in the order of the
// text, a long string or array by its length, its hash and its first
// elements.
func (p *printer) json(name string, b []byte) {
	h := fnv.New64a()
	h.Write(b)
	p.printf("%s: %d bytes, hash %x", name, len(b), h.Sum64())
	if p.jsonText || len(b) <= jsonWhole {
		p.text(name, string(b))
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if _, _, err := p.jsonValue(dec, name); err != nil {
		p.printf("%s: %v", name, err)
	}
}

// jsonValue reads the next value of dec. It prints an object or an array
// of objects and arrays member by member, named from path, and returns
// the text of any other value, and whether it is one.
func (p *printer) jsonValue(dec *json.Decoder, path string) (string, bool, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", false, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return "", false, err
				}
				k := fmt.Sprint(key)
				v, scalar, err := p.jsonValue(dec, path+"."+k)
				if err != nil {
					return "", false, err
				}
				if scalar {
					p.printf("%s.%s: %s", path, k, short(v))
				}
			}
			_, err := dec.Token()
			return "", false, err
		}
		var elems []string
		for i := 0; dec.More(); i++ {
			v, scalar, err := p.jsonValue(dec, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return "", false, err
			}
			if scalar {
				elems = append(elems, v)
			}
		}
		if _, err := dec.Token(); err != nil {
			return "", false, err
		}
		if len(elems) > 0 {
			p.printf("%s: %s", path, shortArray(elems))
		}
		return "", false, nil
	case string:
		b, _ := json.Marshal(t)
		return string(b), true, nil
	case nil:
		return "null", true, nil
	}
	return fmt.Sprint(tok), true, nil
}

// short returns v, or its length, hash and beginning if it is long.
func short(v string) string {
	if len(v) <= 120 {
		return v
	}
	h := fnv.New64a()
	h.Write([]byte(v))
	return fmt.Sprintf("%d bytes, hash %x: %s...", len(v), h.Sum64(), v[:80])
}

// shortArray returns the elements of an array, or their number, hash and
// first ones if they are many.
func shortArray(e []string) string {
	if len(e) <= 24 {
		return fmt.Sprintf("[%d] %s", len(e), strings.Join(e, " "))
	}
	h := fnv.New64a()
	for _, v := range e {
		h.Write([]byte(v))
		h.Write([]byte{' '})
	}
	return fmt.Sprintf("[%d] hash %x: %s ...", len(e), h.Sum64(), strings.Join(e[:12], " "))
}
