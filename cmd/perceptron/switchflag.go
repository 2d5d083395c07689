// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"strconv"
)

// switchFlag is the value of a flag of true or false that may be unset,
// whose default then depends on the rows: -standardize and -normalize.
type switchFlag struct{ set, on bool }

func (s *switchFlag) String() string {
	if s == nil || !s.set {
		return ""
	}
	return strconv.FormatBool(s.on)
}

func (s *switchFlag) Set(v string) error {
	on, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("%s is not true or false", quote(v))
	}
	s.set, s.on = true, on
	return nil
}

func (s *switchFlag) IsBoolFlag() bool { return true }

// or returns the value of the flag, or def if it is unset.
func (s switchFlag) or(def bool) bool {
	if s.set {
		return s.on
	}
	return def
}
