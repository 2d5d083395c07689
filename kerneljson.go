// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// kernelVersion is the version of the JSON form of Kernel. Version 1 saved
// two classes, -1 and +1, one sum of steps and the support vectors as
// arrays of numbers; version 2 the classes and the labels setting, a sum
// of steps per score, the support vectors in the compact form of
// rowsJSON, dense or sparse, and with more than two classes the classes
// that each mistake moved.
const kernelVersion = 2

// kernelFuncJSON is the JSON form of a kernel function: its name, linear,
// poly or rbf, and the parameters of Poly and RBF. The parameters that a
// kernel does not have are zero.
type kernelFuncJSON struct {
	Name   string  `json:"name"`
	Degree int     `json:"degree"`
	Gamma  float64 `json:"gamma"`
	Coef0  float64 `json:"coef0"`
}

// kernelSettingsJSON is the JSON form of the settings of Kernel. Func is
// null for a nil Func.
type kernelSettingsJSON struct {
	Func       *kernelFuncJSON `json:"func"`
	Prediction string          `json:"prediction"`
	Budget     int             `json:"budget"`
	Epochs     int             `json:"epochs"`
	Rate       float64         `json:"rate"`
	NoBias     bool            `json:"noBias"`
	Labels     []float64       `json:"labels"`
}

// kernelModelJSON is the JSON form of a fitted kernel perceptron, as Kernel
// keeps it. The coefficients and the sum of the steps are saved, not summed
// again on loading, since a Budget's removals subtract from them.
type kernelModelJSON struct {
	Classes        []float64       `json:"classes,omitempty"` // version 2
	Kernel         kernelFuncJSON  `json:"kernel"`            // with its parameters as Fit resolved them
	Features       int             `json:"features"`          // the length of the rows
	ThroughOrigin  bool            `json:"throughOrigin"`     // trained without a bias
	SupportVectors json.RawMessage `json:"supportVectors"`
	Coefficients   []float64       `json:"coefficients"`       // of each support vector in the last hypothesis, one per score
	StepSum        *float64        `json:"stepSum,omitempty"`  // version 1: the sum of the steps
	StepSums       []float64       `json:"stepSums,omitempty"` // version 2: per score, the sum of its steps: its bias, unless through the origin
	MistakeVectors []int           `json:"mistakeVectors"`     // the support vector of each mistake
	MistakeSteps   []float64       `json:"mistakeSteps"`       // the step of each mistake
	MistakeVisits  []int           `json:"mistakeVisits"`      // the visit, counted from 1, of each mistake
	MistakeUp      []int           `json:"mistakeUp,omitempty"`
	MistakeDown    []int           `json:"mistakeDown,omitempty"` // the classes each mistake moved, with more than two
	Visits         int             `json:"visits"`
	Removed        int             `json:"removed"` // the visit of the last removal by Budget, or 0
}

// kernelFuncToJSON returns the JSON form of f, or an error if f, such as a
// Custom kernel, cannot be saved.
func kernelFuncToJSON(f KernelFunc) (*kernelFuncJSON, error) {
	switch f := f.(type) {
	case nil:
		return nil, nil
	case Linear:
		return &kernelFuncJSON{Name: "linear"}, nil
	case Poly:
		return &kernelFuncJSON{Name: "poly", Degree: f.Degree, Gamma: f.Gamma, Coef0: f.Coef0}, nil
	case RBF:
		return &kernelFuncJSON{Name: "rbf", Gamma: f.Gamma}, nil
	case Custom:
		return nil, errors.New("perceptron: MarshalJSON: a Custom kernel is a Go function, which cannot be saved")
	}
	return nil, fmt.Errorf("perceptron: MarshalJSON: a kernel of type %T cannot be saved: use Linear, Poly or RBF", f)
}

// kernelFunc returns the kernel function of j.
func (j *kernelFuncJSON) kernelFunc() (KernelFunc, error) {
	switch j.Name {
	case "linear":
		if j.Degree != 0 || j.Gamma != 0 || j.Coef0 != 0 {
			return nil, errors.New("perceptron: Kernel model: the linear kernel has no parameters, want degree, gamma and coef0 0")
		}
		return Linear{}, nil
	case "poly":
		return Poly{Degree: j.Degree, Gamma: j.Gamma, Coef0: j.Coef0}, nil
	case "rbf":
		if j.Degree != 0 || j.Coef0 != 0 {
			return nil, errors.New("perceptron: Kernel model: the rbf kernel has gamma alone, want degree and coef0 0")
		}
		return RBF{Gamma: j.Gamma}, nil
	}
	return nil, fmt.Errorf("perceptron: Kernel model: unknown kernel %q, want linear, poly or rbf", j.Name)
}

// json returns the JSON form of the resolved kernel k, which is not a
// Custom one.
func (k *kern) json() kernelFuncJSON {
	name := map[kernelKind]string{linearKernel: "linear", polyKernel: "poly", rbfKernel: "rbf"}[k.kind]
	return kernelFuncJSON{Name: name, Degree: k.degree, Gamma: k.gamma, Coef0: k.coef0}
}

// MarshalJSON returns the JSON form of the fitted kernel perceptron: its
// type and format version, the settings Func, Prediction, Budget, Epochs,
// Rate and NoBias, the model as Kernel keeps it (the kernel it was fitted
// with, with its parameters resolved, the support vectors and their
// coefficients, and every mistake of the hypothesis, with its support
// vector, step and visit), and Stats. Rand and OnUpdate are not saved.
//
// MarshalJSON returns an error if the Kernel has not been fitted, if its
// kernel, or the one it was fitted with, is a Custom one (a Go function,
// which no file can hold) or of a type other than Linear, Poly and RBF, or
// if the settings are not valid.
func (k Kernel) MarshalJSON() ([]byte, error) {
	if k.m == nil {
		return nil, errors.New("perceptron: MarshalJSON called before Fit")
	}
	m := k.m
	if m.k.kind == customKernel {
		return nil, errors.New("perceptron: MarshalJSON: the Kernel was fitted with a Custom kernel, a Go function, which cannot be saved")
	}
	f, err := kernelFuncToJSON(k.Func)
	if err != nil {
		return nil, err
	}
	if _, _, err := k.resolve(m.d); err != nil {
		return nil, err
	}
	s := kernelSettingsJSON{Func: f, Prediction: k.Prediction.String(), Budget: k.Budget, Epochs: k.Epochs, Rate: k.Rate, NoBias: k.NoBias, Labels: k.Labels}
	sv, err := json.Marshal(rowsToJSON(m.sv))
	if err != nil {
		return nil, err
	}
	h := &m.h
	j := kernelModelJSON{
		Classes:        m.classes,
		Kernel:         m.k.json(),
		Features:       m.d,
		ThroughOrigin:  m.beta == 0,
		SupportVectors: sv,
		Coefficients:   m.last,
		StepSums:       h.sums,
		MistakeVectors: make([]int, len(h.mistakes)),
		MistakeSteps:   make([]float64, len(h.mistakes)),
		MistakeVisits:  make([]int, len(h.mistakes)),
		Visits:         h.visits,
		Removed:        h.removed,
	}
	multi := m.scores() > 1
	if multi {
		j.MistakeUp, j.MistakeDown = make([]int, len(h.mistakes)), make([]int, len(h.mistakes))
	}
	for i, u := range h.mistakes {
		j.MistakeVectors[i], j.MistakeSteps[i], j.MistakeVisits[i] = u.v, u.a, u.t
		if multi {
			j.MistakeUp[i], j.MistakeDown[i] = u.class, u.down
		}
	}
	return marshalModel("Kernel", kernelVersion, s, j, k.stats)
}

// UnmarshalJSON sets the kernel perceptron to the fitted model in data, as
// written by MarshalJSON: its settings, model and Stats. Rand and OnUpdate
// keep the values they had. The loaded Kernel predicts exactly as the saved
// one did, under each Prediction rule, and Learn goes on from its
// hypothesis; with a Budget and a nil Rand, Learn draws the mistakes to
// remove from a fresh source with the fixed seed, not from where the saved
// Kernel's source had got to.
//
// UnmarshalJSON returns an error, and changes nothing, if data is not the
// JSON form of a Kernel of format version 1 or 2 or is not valid, as when a
// kernel or a prediction rule is unknown, a kernel parameter or a setting
// is not valid, or the parts of the model do not agree with each other. As
// encoding/json asks, the JSON null changes nothing.
func (k *Kernel) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	version, err := modelVersion(data, "Kernel")
	if err != nil {
		return err
	}
	if version != 1 {
		version = kernelVersion
	}
	var s kernelSettingsJSON
	var j kernelModelJSON
	st, err := unmarshalModel(data, "Kernel", version, &s, &j)
	if err != nil {
		return err
	}
	set := Kernel{Budget: s.Budget, Epochs: s.Epochs, Rate: s.Rate, NoBias: s.NoBias, Labels: s.Labels}
	if s.Func != nil {
		if set.Func, err = s.Func.kernelFunc(); err != nil {
			return err
		}
	}
	switch s.Prediction {
	case "last":
		set.Prediction = PredictLast
	case "voted":
		set.Prediction = PredictVoted
	case "averaged":
		set.Prediction = PredictAveraged
	default:
		return fmt.Errorf("perceptron: Kernel model: prediction %q, want last, voted or averaged", s.Prediction)
	}
	if j.Features < 1 {
		return fmt.Errorf("perceptron: Kernel model has %d features, want at least 1", j.Features)
	}
	if _, _, err := set.resolve(j.Features); err != nil {
		return err
	}
	m, err := j.model(version)
	if err != nil {
		return err
	}
	k.Func, k.Prediction, k.Budget, k.Epochs, k.Rate, k.NoBias, k.Labels = set.Func, set.Prediction, set.Budget, set.Epochs, set.Rate, set.NoBias, set.Labels
	k.m, k.stats = m, st
	return nil
}

// model returns the model that j, of the given format version,
// describes, or an error if it is not valid.
func (j *kernelModelJSON) model(version int) (*kmodel, error) {
	f, err := j.Kernel.kernelFunc()
	if err != nil {
		return nil, err
	}
	kn, err := f.kernel(j.Features)
	if err != nil {
		return nil, err
	}
	if kn.json() != j.Kernel {
		// Resolving filled in a default: Fit would have saved it.
		return nil, fmt.Errorf("perceptron: Kernel model: the %s kernel has degree %d and gamma %v, want the values it was fitted with, > 0", j.Kernel.Name, j.Kernel.Degree, j.Kernel.Gamma)
	}
	d, n := j.Features, len(j.MistakeVectors)
	if version == 1 {
		if j.Classes != nil || j.StepSums != nil || j.StepSum == nil || j.MistakeUp != nil || j.MistakeDown != nil {
			return nil, errors.New("perceptron: Kernel model of format version 1 without stepSum, or with the classes, stepSums or mistakeUp and mistakeDown of version 2")
		}
		j.Classes, j.StepSums = defaultClasses, []float64{*j.StepSum}
	} else if j.StepSum != nil {
		return nil, errors.New("perceptron: Kernel model of format version 2 with stepSum, which version 1 had")
	}
	if err := loadClasses("Kernel", j.Classes); err != nil {
		return nil, err
	}
	S := scores(j.Classes)
	var sv *rows
	if version == 1 {
		var x [][]float64
		if err = json.Unmarshal(j.SupportVectors, &x); err == nil {
			sv, err = denseRows(x, d, "support vector")
		}
	} else {
		var r rowsJSON
		if err = json.Unmarshal(j.SupportVectors, &r); err == nil {
			sv, err = r.rows("support vectors")
		}
		if err == nil && r.Cols != d {
			err = fmt.Errorf("support vectors of %d columns, want %d", r.Cols, d)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("perceptron: Kernel model's %v", err)
	}
	u := sv.n
	switch {
	case len(j.Coefficients) != u*S:
		return nil, fmt.Errorf("perceptron: Kernel model has %d support vectors and %d coefficients, want %d", u, len(j.Coefficients), u*S)
	case len(j.StepSums) != S:
		return nil, fmt.Errorf("perceptron: Kernel model has %d sums of steps for %d classes, want %d", len(j.StepSums), len(j.Classes), S)
	case S > 1 && (len(j.MistakeUp) != n || len(j.MistakeDown) != n):
		return nil, fmt.Errorf("perceptron: Kernel model has %d mistakes and %d and %d classes they moved, want as many", n, len(j.MistakeUp), len(j.MistakeDown))
	case S == 1 && (j.MistakeUp != nil || j.MistakeDown != nil):
		return nil, errors.New("perceptron: Kernel model of two classes with the classes its mistakes moved")
	case len(j.MistakeSteps) != n || len(j.MistakeVisits) != n:
		return nil, fmt.Errorf("perceptron: Kernel model has %d mistake vectors, %d steps and %d visits, want as many", n, len(j.MistakeSteps), len(j.MistakeVisits))
	case j.Visits < 1:
		return nil, fmt.Errorf("perceptron: Kernel model has %d visits, want at least 1", j.Visits)
	case j.Removed < 0 || j.Removed > j.Visits:
		return nil, fmt.Errorf("perceptron: Kernel model's last removal is at visit %d, want 0 to %d", j.Removed, j.Visits)
	}
	m := newModel(kn, d, j.Classes, !j.ThroughOrigin, sv.sparse())
	m.sv = sv
	if kn.norms() {
		for v := range u {
			m.norm = append(m.norm, sv.row(v).norm2())
		}
	}
	h := &m.h
	m.last, h.refs, h.vectors = j.Coefficients, make([]int, u), u
	h.mistakes = make([]mistake, n)
	for i, v := range j.MistakeVectors {
		t := j.MistakeVisits[i]
		switch {
		case v < 0 || v >= u:
			return nil, fmt.Errorf("perceptron: Kernel model's mistake %d is on support vector %d, want one of its %d", i+1, v, u)
		case t < 1 || t > j.Visits || i > 0 && t <= j.MistakeVisits[i-1]:
			// A visit makes at most one mistake.
			return nil, fmt.Errorf("perceptron: Kernel model's mistake %d is at visit %d, want one after the last mistake's and at most %d", i+1, t, j.Visits)
		}
		u := mistake{v: v, a: j.MistakeSteps[i], t: t, down: -1}
		if S > 1 {
			u.class, u.down = j.MistakeUp[i], j.MistakeDown[i]
			if u.class < 0 || u.class >= S || u.down < 0 || u.down >= S || u.class == u.down {
				return nil, fmt.Errorf("perceptron: Kernel model's mistake %d moves classes %d and %d, want two of the %d", i+1, u.class, u.down, S)
			}
		}
		h.mistakes[i] = u
		h.refs[v]++
	}
	if v := slices.Index(h.refs, 0); v >= 0 {
		return nil, fmt.Errorf("perceptron: Kernel model's support vector %d has no mistake", v)
	}
	h.sums, h.visits, h.removed = j.StepSums, j.Visits, j.Removed
	return m, nil
}
