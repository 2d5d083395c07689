// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import ()

// The saved forms of Voted.

// votedJSON is the JSON form of the voters of Voted, as Voted keeps them.
// The running weights are not saved: they are the first moved by the
// update of every mistake, and loading computes them so.
type votedJSON struct {
	linearJSON              // the classes, and w_0 and b_0
	Rows        rowsJSON    `json:"rows"`  // the distinct rows of the mistakes, in the order of their first
	Steps       numbersJSON `json:"steps"` // the step of each row
	MistakeRows []int       `json:"mistakeRows"`
	MistakeUp   []int       `json:"mistakeUp,omitempty"`
	MistakeDown []int       `json:"mistakeDown,omitempty"` // the classes each mistake moved, with more than two
	Counts      []int       `json:"counts"`                // c_0, then the count of the voter each mistake made
}

// MarshalJSON returns the saved form of the fitted voted perceptron, as
// Perceptron's MarshalJSON does, with the voters as Voted keeps them.
func (v Voted) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (v Voted) saved(method string) (saved, error) {
	c := v.seen()
	if c == nil {
		return newSaved(method, false, nil, saved{})
	}
	seen := *c // the voters as predictions read them, with v's settings
	seen.copySettings(&v)
	v = seen
	m := votedJSON{
		linearJSON:  linearJSON{v.classes, v.first.json()},
		Rows:        rowsToJSON(v.rows),
		Steps:       v.steps,
		MistakeRows: make([]int, len(v.votes)-1),
		Counts:      make([]int, len(v.votes)),
	}
	if v.moves != nil {
		m.MistakeUp, m.MistakeDown = make([]int, len(v.moves)), make([]int, len(v.moves))
	}
	for k, vt := range v.votes {
		if k > 0 {
			m.MistakeRows[k-1] = vt.row
		}
		m.Counts[k] = vt.count
	}
	for k, mv := range v.moves {
		m.MistakeUp[k], m.MistakeDown[k] = mv.up, mv.down
	}
	s := v.settings(nil).json(v.Labels)
	return newSaved(method, true, func() error { return s.check(v.classes, v.first.dim()) },
		saved{typ: "Voted", settings: s, model: m, stats: &v.stats, d: v.first.dim(), S: len(v.first.b)})
}

// UnmarshalJSON sets the voted perceptron to the one saved in data, as
// Perceptron's UnmarshalJSON does.
func (v *Voted) UnmarshalJSON(data []byte) error { return unmarshalJSON(v, data) }

// load sets the voted perceptron to the one saved in f.
func (v *Voted) load(f form) error {
	var s settingsJSON
	var m votedJSON
	first, st, err := loadTable(f, "Voted", &s, &m, &m.linearJSON)
	if err != nil {
		return err
	}
	nv := Voted{votedState: &votedState{first: first, classes: m.Classes, stats: st}, Rand: v.Rand, OnUpdate: v.OnUpdate}
	if err := nv.loadVoters(&m, st.Mistakes); err != nil {
		return wrap("Voted", err)
	}
	s.setOn(&nv)
	*v = nv
	v.publish(nil)
	return nil
}

// loadVoters sets the voters of v, whose first and last weights are w_0,
// to those of m, of the given number of mistakes.
func (v *Voted) loadVoters(m *votedJSON, mistakes int) error {
	rows, err := m.Rows.rows(v.first.dim())
	if err != nil {
		return err
	}
	n, S := len(m.MistakeRows), len(v.first.b)
	switch {
	case len(m.Steps) != rows.n:
		return errorf(ErrFormat, "it has %d rows and %d steps, want as many", rows.n, len(m.Steps))
	case len(m.Counts) != n+1:
		return errorf(ErrFormat, "it has %d mistakes and %d counts, want one count more", n, len(m.Counts))
	case S > 1 && (len(m.MistakeUp) != n || len(m.MistakeDown) != n):
		return errorf(ErrFormat, "it has %d mistakes and %d and %d classes they moved, want as many", n, len(m.MistakeUp), len(m.MistakeDown))
	case S == 1 && (m.MistakeUp != nil || m.MistakeDown != nil):
		return errorf(ErrFormat, "it has two classes and the classes its mistakes moved")
	case n != mistakes:
		return errorf(ErrFormat, "it has %d mistakes, but its stats %d", n, mistakes)
	case m.Counts[0] < 0 || m.Counts[0] > maxCount:
		return errorf(ErrFormat, "its first count is %d, want 0 to 2^53", m.Counts[0])
	}
	if j := nonFinite(m.Steps); j >= 0 {
		return errorf(ErrFormat, "its step %d is %v, want a finite value", j, m.Steps[j])
	}
	v.rows, v.steps, v.votes = rows, m.Steps, make([]vote, n+1)
	v.votes[0] = vote{row: -1, count: m.Counts[0]}
	visits, seen := m.Counts[0], 0
	for k, r := range m.MistakeRows {
		c := m.Counts[k+1]
		switch {
		case r < 0 || r > seen || r >= rows.n:
			// Rows are stored in the order of their first mistake.
			return errorf(ErrFormat, "its mistake %d is on row %d, want one of the first %d of its %d rows", k+1, r, seen+1, rows.n)
		case c < 1 || c > maxCount-visits:
			return errorf(ErrFormat, "its count %d is %d, want 1 or more, and 2^53 in all", k+1, c)
		}
		if r == seen {
			seen++
		}
		visits += c
		v.votes[k+1] = vote{row: r, count: c}
		if S > 1 {
			mv := moved{up: m.MistakeUp[k], down: m.MistakeDown[k]}
			if mv.up < 0 || mv.up >= S || mv.down < 0 || mv.down >= S || mv.up == mv.down {
				return errorf(ErrFormat, "its mistake %d moves classes %d and %d, want two of the %d", k+1, mv.up, mv.down, S)
			}
			v.moves = append(v.moves, moved{mv.up, mv.down})
		}
	}
	if seen != rows.n {
		return errorf(ErrFormat, "it has %d rows, but its mistakes are on %d", rows.n, seen)
	}
	v.visits, v.made = visits, visits-v.votes[n].count
	return nil
}
