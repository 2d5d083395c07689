// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/json"
	"slices"

	"github.com/seed5ae3614e/perceptron/internal/binform"
)

// Loading a saved classifier of any type: Unmarshal.

// Unmarshal returns the classifier saved in data by json.Marshal or
// Marshal, of whichever type and form it is, fitted and with its
// settings. It returns an error if data is not such a classifier, naming
// what is wrong.
func Unmarshal(data []byte) (Scorer, error) {
	typ, err := savedType(data)
	if err != nil {
		return nil, err
	}
	return unmarshalAs(data, typ)
}

// unmarshalAs is Unmarshal of data whose type savedType has told.
func unmarshalAs(data []byte, typ string) (Scorer, error) {
	var m interface {
		Scorer
		load(form) error
	}
	switch typ {
	case "Perceptron":
		m = &Perceptron{}
	case "Pocket":
		m = &Pocket{}
	case "Averaged":
		m = &Averaged{}
	case "Voted":
		m = &Voted{}
	case "Kernel":
		m = &Kernel{}
	case "OneVsRest":
		m = &OneVsRest{}
	}
	if err := m.load(form{data: data, binary: isBinary(data)}); err != nil {
		return nil, err
	}
	return m, nil
}

// savedType returns the type of the classifier saved in data, JSON or
// binary, or an error if it is not one of this package's.
func savedType(data []byte) (string, error) {
	if isBinary(data) {
		if len(data) < binform.HeaderSize {
			return "", errorf(ErrFormat, "perceptron: not a saved classifier: %d bytes, fewer than the header of a binary form", len(data))
		}
		t := binform.ReadHeader(data).Type
		if int(t) >= len(binaryTypes) || binaryTypes[t] == "" {
			return "", errorf(ErrFormat, "perceptron: not a saved classifier: the binary form of type %d, which is no classifier of this package", t)
		}
		return binaryTypes[t], nil
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", errorf(ErrFormat, "perceptron: not a saved classifier: %v", err)
	}
	switch {
	case head.Type == "":
		return "", errorf(ErrFormat, "perceptron: not a saved classifier: it has no type")
	case !slices.Contains(binaryTypes, head.Type):
		return "", errorf(ErrFormat, "perceptron: not a saved classifier: type %.40q is not a classifier of this package", head.Type)
	}
	return head.Type, nil
}
