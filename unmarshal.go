// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/seed5ae3614e/perceptron/internal/binform"
)

// Loading a saved classifier of any type: Unmarshal, and the UnmarshalJSON
// of OneVsRest, whose classifiers are of any type.

// Unmarshal returns the classifier saved in data by json.Marshal or
// Marshal, of whichever type and form it is, fitted and with its
// settings. It returns an error if data is not such a classifier, naming
// what is wrong.
func Unmarshal(data []byte) (Scorer, error) {
	typ, err := savedType(data)
	if err != nil {
		return nil, err
	}
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

// UnmarshalJSON sets OneVsRest to the one saved in data, as Perceptron's
// UnmarshalJSON does; New keeps its value.
func (o *OneVsRest) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	return o.load(form{data: data})
}

// load sets OneVsRest to the one saved in f, whose classifiers are saved
// in the same form.
func (o *OneVsRest) load(f form) error {
	var s oneVsRestSettings
	var m oneVsRestJSON
	if _, err := f.decode("OneVsRest", &s, &m); err != nil {
		return err
	}
	if err := checkClasses(m.Classes); err != nil {
		return wrap("OneVsRest", err)
	}
	if err := s.check(m.Classes); err != nil {
		return settingsError("OneVsRest", err)
	}
	K := scores(m.Classes)
	if len(m.Models) != K {
		return wrap("OneVsRest", fmt.Errorf("it has %d classifiers for %d classes, want %d", len(m.Models), len(m.Classes), K))
	}
	want := []float64{-1, 1}
	if K == 1 {
		want = m.Classes
	}
	models := make([]Scorer, K)
	d := 0
	for c, b := range m.Models {
		if isBinary(b) != f.binary {
			return wrap("OneVsRest", fmt.Errorf("its classifier %d is not in the form of the OneVsRest", c))
		}
		if typ, _ := savedType(b); typ == "OneVsRest" {
			// Each level would decode those within it again.
			return wrap("OneVsRest", fmt.Errorf("its classifier %d is a OneVsRest", c))
		}
		s, err := Unmarshal(b)
		if err != nil {
			return fmt.Errorf("%w (classifier %d of a saved OneVsRest)", err, c)
		}
		if got := s.Classes(); !slices.Equal(got, want) {
			return wrap("OneVsRest", fmt.Errorf("its classifier %d has the classes %v, want %v", c, got, want))
		}
		if s.(model).classWeight() != nil {
			return wrap("OneVsRest", fmt.Errorf("its classifier %d has a ClassWeight of its own, which OneVsRest's Fit refuses", c))
		}
		w := s.(model).width()
		if c > 0 && w != d {
			return wrap("OneVsRest", fmt.Errorf("its classifier %d has %d columns, the first %d", c, w, d))
		}
		models[c], d = s, w
	}
	if err := f.shape("OneVsRest", d, K); err != nil {
		return err
	}
	o.Labels, o.ClassWeight = s.Labels, weightMap(s.ClassWeight)
	o.set(models, m.Classes, nil, nil)
	return nil
}
