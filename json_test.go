// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// twoPoints is the data set of the hand traces of the saved forms: x = 1
// labelled +1 and x = -1 labelled -1. From zero the perceptron makes two
// mistakes in epoch 1, moving (w, b) from (0, 0) to (1, 1) at the first
// visit and on to (2, 0) at the second, and none in epoch 2.
func twoPoints() (*mat.Dense, []float64) {
	return mat.NewDense(2, 1, []float64{1, -1}), []float64{1, -1}
}

// jtThreeRows is the data set of the hand traces of more classes, with
// the classes 0, 1 and 2 of Labels: x = 1 of class 2 and x = -1 of class
// 0, class 1 having no row. With zero weights every score is 0, so the
// first row's class, 2, goes up and the first of the others, 0, down:
// w = (-1, 0, 1), b = (-1, 0, 1), the weight and bias of class c at c. At
// x = -1 the scores are then (0, 0, 0): class 0 goes up and the first
// other, 1, down: w = (-2, 1, 1), b = (0, -1, 1), which scores x = 1 as
// (-2, 0, 2) and x = -1 as (2, -2, 0), both right, in epoch 2.
func jtThreeRows() (*mat.Dense, []float64) {
	return mat.NewDense(2, 1, []float64{1, -1}), []float64{2, 0}
}

// jtNumber returns the saved form of the number v, as encoding/json
// writes a float64.
func jtNumber(v float64) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// jtB64 returns the saved form of stored values: their float64s,
// little-endian, in base64.
func jtB64(v ...float64) string {
	b := make([]byte, 0, 8*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// The pieces of the saved forms of the hand traces.
const (
	// The settings of the zero value of a linear classifier, and with the
	// Labels of the three classes; no Stop saves as null.
	jtLinear     = `{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":null,"stop":null}`
	jtLinear3    = `{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":[0,1,2],"stop":null}`
	jtLinearLrn  = `{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":[-1,1],"stop":null}`
	jtKernelZero = `{"func":null,"prediction":"last","budget":0,"epochs":0,"rate":0,"noBias":false,"labels":null,"stop":null}`
	jtKernel3    = `{"func":null,"prediction":"last","budget":0,"epochs":0,"rate":0,"noBias":false,"labels":[0,1,2],"stop":null}`
	jtKernelLrn  = `{"func":null,"prediction":"last","budget":0,"epochs":0,"rate":0,"noBias":false,"labels":[-1,1],"stop":null}`

	// The stats of the traces' Fit, of two epochs of two and no mistakes;
	// of that Fit and a Learn with one mistake; and of a Learn alone, with
	// two mistakes and no epochs of Fit.
	//
	// The losses of the epochs: a visit's loss is max(0, -y·score), or
	// with more classes max(0, greatest other score - the row class's
	// score), which is 0 at every row classified right and at every
	// mistake on a score of 0. Of twoPoints, epoch 1's two mistakes are on
	// the score 0 of (0, 0) at x = 1 and the score 1·(-1)+1 = 0 of (1, 1)
	// at x = -1: a loss of max(0, -1·0) + max(0, 1·0) = 0. Of jtThreeRows,
	// they are on the scores (0, 0, 0) of the zero weights and (0, 0, 0)
	// of the weights after the first update: max(0, 0-0) twice, 0. Epoch
	// 2 classifies every row right: 0. Learn records no loss, as it runs
	// no epoch of Fit: null alone, and after Fit those of Fit.
	jtFitStats      = `{"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0],"epochLoss":[0,0]}`
	jtFitLearnStats = `{"epochs":2,"converged":true,"mistakes":3,"epochMistakes":[2,0],"epochLoss":[0,0]}`
	jtLearnStats    = `{"epochs":0,"converged":false,"mistakes":2,"epochMistakes":null,"epochLoss":null}`

	// The polynomial kernel (x·z)^1.
	jtPoly1 = `{"name":"poly","degree":1,"gamma":1,"coef0":0}`
)

// jtPoly1Func is the polynomial kernel (x·z)^1, which is x·z exactly.
var jtPoly1Func = Poly{Degree: 1, Gamma: 1}

// jtSaved returns the envelope of a saved classifier.
func jtSaved(typ, settings, model, stats string) string {
	s := `{"type":"` + typ + `","version":1,"settings":` + settings + `,"model":` + model
	if stats != "" {
		s += `,"stats":` + stats
	}
	return s + "}"
}

// The hand-traced saved forms of the zero values of the classifiers, and
// of their variants, fitted on twoPoints, of 1000 epochs, 2000 visits,
// those of Fit being run or counted in closed form after convergence.
var (
	// Perceptron: (w, b) = (2, 0), of every class's weights and biases
	// laid out as Weights lays them out.
	jtPerceptron = jtSaved("Perceptron", jtLinear, `{"classes":[-1,1],"weights":[2],"biases":[0],"throughOrigin":false}`, jtFitStats)

	// Pocket: the starting weights (0, 0) and (1, 1), made by the first
	// update, misclassify x = -1, and (2, 0), made by the second, no row,
	// so it is the exact pocket. The ratchet's pocket starts empty, of
	// count 2; the starting weights and those made at visit 1 live no
	// visit before the next mistake, and (2, 0), made at visit 2, lives the
	// two of epoch 2, a run longer than none, and misclassifies no row: the
	// same pocket.
	jtPocket        = jtSaved("Pocket", jtLinear[:len(jtLinear)-1]+`,"ratchet":false}`, `{"classes":[-1,1],"weights":[2],"biases":[0],"throughOrigin":false}`, jtFitStats)
	jtPocketRatchet = jtSaved("Pocket", jtLinear[:len(jtLinear)-1]+`,"ratchet":true}`, `{"classes":[-1,1],"weights":[2],"biases":[0],"throughOrigin":false}`, jtFitStats)

	// Averaged: the weights after the 2000 visits are (1, 1) once, then
	// (2, 0) 1999 times, whose sums are (3999, 1); after Fit none are
	// ahead.
	jtAveraged = jtSaved("Averaged", jtLinear, `{"classes":[-1,1],"weights":[2],"biases":[0],"throughOrigin":false,"sumWeights":[3999],"sumBiases":[1],"ahead":0,"visits":2000}`, jtFitStats)

	// Voted: (0, 0) survives no visit, (1, 1) its own, and (2, 0) its own
	// and the other 1998. Each row was a mistake once, in order, with the
	// step of its label.
	jtVoted = jtSaved("Voted", jtLinear, `{"classes":[-1,1],"weights":[0],"biases":[0],"throughOrigin":false,"rows":{"rows":2,"cols":1,"sparse":false,"values":"`+jtB64(1, -1)+`"},"steps":[1,-1],"mistakeRows":[0,1],"counts":[0,1,1999]}`, jtFitStats)

	// Kernel: with the linear kernel it makes the perceptron's mistakes,
	// storing x = 1 with step +1 at visit 1 and x = -1 with step -1 at
	// visit 2, whose coefficients they are, and whose sum, 0, is the bias.
	jtKernelModel = `{"classes":[-1,1],"kernel":{"name":"linear","degree":0,"gamma":0,"coef0":0},"features":1,"throughOrigin":false,"supportVectors":{"rows":2,"cols":1,"sparse":false,"values":"` + jtB64(1, -1) + `"},"coefficients":[1,-1],"stepSums":[0],"mistakeVectors":[0,1],"mistakeSteps":[1,-1],"mistakeVisits":[1,2],"visits":2000,"removed":0}`
	jtKernelTrace = jtSaved("Kernel", jtKernelZero, jtKernelModel, jtFitStats)

	// Kernel of the polynomial kernel (x·z)^1, the linear kernel: the same
	// trace, saved with the kernel's parameters.
	jtKernelPoly1 = jtSaved("Kernel", strings.Replace(jtKernelZero, `"func":null`, `"func":`+jtPoly1, 1),
		strings.Replace(jtKernelModel, `"kernel":{"name":"linear","degree":0,"gamma":0,"coef0":0}`, `"kernel":`+jtPoly1, 1), jtFitStats)

	// OneVsRest of two classes trains one classifier, of the classes
	// themselves: the Perceptron of the trace.
	jtOneVsRest = jtSaved("OneVsRest", `{"labels":null}`, `{"classes":[-1,1],"models":[`+jtPerceptron+`]}`, "")
)

// jtTrace is a classifier that a hand trace saves.
type jtTrace struct {
	name string
	fit  func() (Scorer, error)
	want string
}

// jtFitOn returns a function that fits m on the data of data.
func jtFitOn(m Scorer, data func() (*mat.Dense, []float64)) func() (Scorer, error) {
	return func() (Scorer, error) {
		X, y := data()
		return m, m.Fit(X, y)
	}
}

// jtFitLearn returns a function that fits m on twoPoints, if fit, and
// then learns x = -1 labelled +1: the trace's last weights (2, 0), or its
// expansion, score it -2, a mistake, whose update is by +1·(-1, 1).
func jtFitLearn(m onlineLearner, fit bool) func() (Scorer, error) {
	return func() (Scorer, error) {
		X, y := twoPoints()
		if fit {
			if err := m.Fit(X, y); err != nil {
				return nil, err
			}
			return m, learnOne(m, []float64{-1}, 1)
		}
		return m, m.Learn(X, y)
	}
}

// jtTraces returns the hand traces of the saved forms.
func jtTraces() []jtTrace {
	three := []float64{0, 1, 2}
	minus := []float64{-1, 1}
	return []jtTrace{
		{"Perceptron", jtFitOn(&Perceptron{}, twoPoints), jtPerceptron},
		{"Pocket", jtFitOn(&Pocket{}, twoPoints), jtPocket},
		{"Pocket/ratchet", jtFitOn(&Pocket{Ratchet: true}, twoPoints), jtPocketRatchet},
		{"Averaged", jtFitOn(&Averaged{}, twoPoints), jtAveraged},
		{"Voted", jtFitOn(&Voted{}, twoPoints), jtVoted},
		{"Kernel", jtFitOn(&Kernel{}, twoPoints), jtKernelTrace},
		{"Kernel/poly1", jtFitOn(&Kernel{Func: jtPoly1Func}, twoPoints), jtKernelPoly1},
		{"OneVsRest", jtFitOn(&OneVsRest{}, twoPoints), jtOneVsRest},

		// Sparse rows are saved sparse: row i's values from starts[i] to
		// starts[i+1], at the columns indices.
		{"Voted/sparse", func() (Scorer, error) {
			X, y := twoPoints()
			v := &Voted{}
			return v, v.Fit(jtCSR(X), y)
		}, strings.Replace(jtVoted, `"sparse":false,`, `"sparse":true,"starts":[0,1,2],"indices":[0,0],`, 1)},
		{"Kernel/sparse", func() (Scorer, error) {
			X, y := twoPoints()
			k := &Kernel{}
			return k, k.Fit(jtCSR(X), y)
		}, strings.Replace(jtKernelTrace, `"sparse":false,`, `"sparse":true,"starts":[0,1,2],"indices":[0,0],`, 1)},

		// The RBF kernel of the zero Gamma is exp(-||x-z||²/d): at x = (1, 0)
		// the empty hypothesis scores 0, a mistake; at x = (-1, 0) it scores
		// exp(-2) > 0, a mistake of label -1; in epoch 2 the rows score
		// ±(1 - exp(-2)), both right. The settings are saved as given, the
		// kernel as resolved, and the sum of the steps also through the
		// origin. Epoch 1's loss is max(0, -1·0) + max(0, -(-1)·exp(-2)) =
		// exp(-2), epoch 2's 0.
		{"Kernel/rbf", func() (Scorer, error) {
			k := &Kernel{Func: RBF{}, Prediction: PredictVoted, Budget: 5, NoBias: true}
			return k, k.Fit(mat.NewDense(2, 2, []float64{1, 0, -1, 0}), []float64{1, -1})
		}, jtSaved("Kernel",
			`{"func":{"name":"rbf","degree":0,"gamma":0,"coef0":0},"prediction":"voted","budget":5,"epochs":0,"rate":0,"noBias":true,"labels":null,"stop":null}`,
			`{"classes":[-1,1],"kernel":{"name":"rbf","degree":0,"gamma":0.5,"coef0":0},"features":2,"throughOrigin":true,"supportVectors":{"rows":2,"cols":2,"sparse":false,"values":"`+jtB64(1, 0, -1, 0)+`"},"coefficients":[1,-1],"stepSums":[0],"mistakeVectors":[0,1],"mistakeSteps":[1,-1],"mistakeVisits":[1,2],"visits":2000,"removed":0}`,
			`{"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0],"epochLoss":[`+jtNumber(math.Exp(-2))+`,0]}`)},

		// A Budget of one mistake: at visit 2, x = -1 scores 1·(-1) + 1 = 0,
		// a mistake, which first removes the one of x = 1, the only one to
		// draw; then every visit scores 0 under the one mistake on the other
		// row, ±(1·(-1)) ∓ 1, and removes it: 2000 mistakes, the last on
		// x = -1 at visit 2000, after the last removal. Every mistake is on
		// a score of 0, a loss of 0: every epoch's loss is 0.
		{"Kernel/poly1/budget", jtFitOn(&Kernel{Func: jtPoly1Func, Budget: 1}, twoPoints), jtSaved("Kernel",
			`{"func":`+jtPoly1+`,"prediction":"last","budget":1,"epochs":0,"rate":0,"noBias":false,"labels":null,"stop":null}`,
			`{"classes":[-1,1],"kernel":`+jtPoly1+`,"features":1,"throughOrigin":false,"supportVectors":{"rows":1,"cols":1,"sparse":false,"values":"`+jtB64(-1)+`"},"coefficients":[-1],"stepSums":[-1],"mistakeVectors":[0],"mistakeSteps":[-1],"mistakeVisits":[2000],"visits":2000,"removed":2000}`,
			`{"epochs":1000,"converged":false,"mistakes":2000,"epochMistakes":[`+strings.Repeat("2,", 999)+`2],"epochLoss":[`+strings.Repeat("0,", 999)+`0]}`)},

		// Learn alone, from Labels, makes the two mistakes of epoch 1 in
		// two visits. Averaged adds to its sums a mistake's update times
		// the visits before it, negated, 0 then 1·(-1, 1), and keeps the
		// two visits ahead: the sums after each visit are
		// (-1, 1) + 2·(2, 0) = (3, 1), those of (1, 1) and (2, 0).
		{"Perceptron/learn", jtFitLearn(&Perceptron{Labels: minus}, false), jtSaved("Perceptron", jtLinearLrn, `{"classes":[-1,1],"weights":[2],"biases":[0],"throughOrigin":false}`, jtLearnStats)},
		{"Averaged/learn", jtFitLearn(&Averaged{Labels: minus}, false), jtSaved("Averaged", jtLinearLrn, `{"classes":[-1,1],"weights":[2],"biases":[0],"throughOrigin":false,"sumWeights":[-1],"sumBiases":[1],"ahead":2,"visits":2}`, jtLearnStats)},
		{"Voted/learn", jtFitLearn(&Voted{Labels: minus}, false), jtSaved("Voted", jtLinearLrn, `{"classes":[-1,1],"weights":[0],"biases":[0],"throughOrigin":false,"rows":{"rows":2,"cols":1,"sparse":false,"values":"`+jtB64(1, -1)+`"},"steps":[1,-1],"mistakeRows":[0,1],"counts":[0,1,1]}`, jtLearnStats)},
		{"Kernel/learn", jtFitLearn(&Kernel{Labels: minus}, false), jtSaved("Kernel", jtKernelLrn, strings.Replace(jtKernelModel, `"visits":2000`, `"visits":2`, 1), jtLearnStats)},

		// Fit, then Learn of x = -1 labelled +1 at visit 2001. Averaged:
		// the update comes after no visit of the Learn, so the sums stay,
		// and (1, 1) is one visit ahead: the sums are (3999, 1) + (1, 1).
		// Voted: (2, 0) counts 1999 visits, and the new voter 1, its row
		// stored apart from x = -1 of step -1. Kernel: the mistake's vector
		// is the stored x = -1, whose coefficient goes from -1 to 0, and
		// the sum of the steps, the bias, to 1.
		{"Perceptron/fit+learn", jtFitLearn(&Perceptron{}, true), jtSaved("Perceptron", jtLinear, `{"classes":[-1,1],"weights":[1],"biases":[1],"throughOrigin":false}`, jtFitLearnStats)},
		{"Averaged/fit+learn", jtFitLearn(&Averaged{}, true), jtSaved("Averaged", jtLinear, `{"classes":[-1,1],"weights":[1],"biases":[1],"throughOrigin":false,"sumWeights":[3999],"sumBiases":[1],"ahead":1,"visits":2001}`, jtFitLearnStats)},
		{"Voted/fit+learn", jtFitLearn(&Voted{}, true), jtSaved("Voted", jtLinear, `{"classes":[-1,1],"weights":[0],"biases":[0],"throughOrigin":false,"rows":{"rows":3,"cols":1,"sparse":false,"values":"`+jtB64(1, -1, -1)+`"},"steps":[1,-1,1],"mistakeRows":[0,1,2],"counts":[0,1,1999,1]}`, jtFitLearnStats)},
		{"Kernel/fit+learn", jtFitLearn(&Kernel{}, true), jtSaved("Kernel", jtKernelZero, `{"classes":[-1,1],"kernel":{"name":"linear","degree":0,"gamma":0,"coef0":0},"features":1,"throughOrigin":false,"supportVectors":{"rows":2,"cols":1,"sparse":false,"values":"`+jtB64(1, -1)+`"},"coefficients":[1,0],"stepSums":[1],"mistakeVectors":[0,1,1],"mistakeSteps":[1,-1,1],"mistakeVisits":[1,2,2001],"visits":2001,"removed":0}`, jtFitLearnStats)},

		// Three classes, of jtThreeRows. The exact pocket is the weights
		// after the first update, which classify both rows right (x = -1
		// by the first of three tied scores), the first such; the
		// ratchet's is the last weights, whose run, epoch 2, is the first
		// to beat none. Averaged: the weights (-1, 0, 1), (-1, 0, 1) once,
		// then (-2, 1, 1), (0, -1, 1) 1999 times. Voted and Kernel keep the
		// classes each mistake moved up and down, with the step Rate.
		{"Perceptron/3", jtFitOn(&Perceptron{Labels: three}, jtThreeRows), jtSaved("Perceptron", jtLinear3, `{"classes":[0,1,2],"weights":[-2,1,1],"biases":[0,-1,1],"throughOrigin":false}`, jtFitStats)},
		{"Pocket/3", jtFitOn(&Pocket{Labels: three}, jtThreeRows), jtSaved("Pocket", jtLinear3[:len(jtLinear3)-1]+`,"ratchet":false}`, `{"classes":[0,1,2],"weights":[-1,0,1],"biases":[-1,0,1],"throughOrigin":false}`, jtFitStats)},
		{"Pocket/ratchet/3", jtFitOn(&Pocket{Labels: three, Ratchet: true}, jtThreeRows), jtSaved("Pocket", jtLinear3[:len(jtLinear3)-1]+`,"ratchet":true}`, `{"classes":[0,1,2],"weights":[-2,1,1],"biases":[0,-1,1],"throughOrigin":false}`, jtFitStats)},
		{"Averaged/3", jtFitOn(&Averaged{Labels: three}, jtThreeRows), jtSaved("Averaged", jtLinear3, `{"classes":[0,1,2],"weights":[-2,1,1],"biases":[0,-1,1],"throughOrigin":false,"sumWeights":[-3999,1999,2000],"sumBiases":[-1,-1999,2000],"ahead":0,"visits":2000}`, jtFitStats)},
		{"Voted/3", jtFitOn(&Voted{Labels: three}, jtThreeRows), jtSaved("Voted", jtLinear3, `{"classes":[0,1,2],"weights":[0,0,0],"biases":[0,0,0],"throughOrigin":false,"rows":{"rows":2,"cols":1,"sparse":false,"values":"`+jtB64(1, -1)+`"},"steps":[1,1],"mistakeRows":[0,1],"mistakeUp":[2,0],"mistakeDown":[0,1],"counts":[0,1,1999]}`, jtFitStats)},
		{"Kernel/3", jtFitOn(&Kernel{Labels: three}, jtThreeRows), jtSaved("Kernel", jtKernel3, `{"classes":[0,1,2],"kernel":{"name":"linear","degree":0,"gamma":0,"coef0":0},"features":1,"throughOrigin":false,"supportVectors":{"rows":2,"cols":1,"sparse":false,"values":"`+jtB64(1, -1)+`"},"coefficients":[-1,0,1,1,-1,0],"stepSums":[0,-1,1],"mistakeVectors":[0,1],"mistakeSteps":[1,1],"mistakeVisits":[1,2],"mistakeUp":[2,0],"mistakeDown":[0,1],"visits":2000,"removed":0}`, jtFitStats)},

		// OneVsRest of three classes: class 0 against the rest is x = -1
		// against x = 1, (w, b) = (-2, 0); class 1, of no row, two
		// mistakes of label -1, (-1, -1) then (0, -2); class 2 the trace of
		// twoPoints.
		{"OneVsRest/3", jtFitOn(&OneVsRest{Labels: three}, jtThreeRows), jtSaved("OneVsRest", `{"labels":[0,1,2]}`, `{"classes":[0,1,2],"models":[`+
			jtSaved("Perceptron", jtLinear, `{"classes":[-1,1],"weights":[-2],"biases":[0],"throughOrigin":false}`, jtFitStats)+`,`+
			jtSaved("Perceptron", jtLinear, `{"classes":[-1,1],"weights":[0],"biases":[-2],"throughOrigin":false}`, jtFitStats)+`,`+
			jtPerceptron+`]}`, "")},
	}
}

// TestJSONTraces checks that MarshalJSON writes the hand-traced saved
// forms, and that each loads, with Unmarshal and with json.Unmarshal into
// the zero value, to a classifier of the same type that scores every row
// as the saved one and writes the same form again.
func TestJSONTraces(t *testing.T) {
	for _, tr := range jtTraces() {
		t.Run(tr.name, func(t *testing.T) {
			m, err := tr.fit()
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(m)
			if err != nil || string(got) != tr.want {
				t.Fatalf("MarshalJSON gives\n%s (%v)\nwant\n%s", got, err, tr.want)
			}
			jtCheckRoundTrip(t, tr.name, m, jtTraceRows(jtWidth(m)))
		})
	}
}

// jtTraceRows returns rows of d columns to score the hand traces on: the
// traces' rows, others, and rows far from the origin and near it.
func jtTraceRows(d int) *mat.Dense {
	vals := []float64{1, -1, 0, 0.5, -0.25, 3, -1e300, 1e-300}
	X := mat.NewDense(len(vals), d, nil)
	for i, v := range vals {
		for j := range d {
			X.Set(i, j, v*float64(1-2*(j%2)))
		}
	}
	return X
}

// TestJSONTracesPredict checks the loaded hand traces against the models
// they describe, computed by hand: Perceptron's w·x+b, Averaged's average
// weights, and Voted's vote.
func TestJSONTracesPredict(t *testing.T) {
	T := mat.NewDense(4, 1, []float64{1, -1, 0.75, -0.25})
	for k, c := range []struct {
		data   string
		scores []float64
	}{
		// 2x.
		{jtPerceptron, []float64{2, -2, 1.5, -0.5}},
		// (3999x + 1)/2000.
		{jtAveraged, []float64{4000.0 / 2000, -3998.0 / 2000, (3999*0.75 + 1) / 2000, (3999*-0.25 + 1) / 2000}},
		// sign(0)·0 + sign(x+1)·1 + sign(2x)·1999.
		{jtVoted, []float64{2000, -1998, 2000, -1998}},
		// (1, 1) at visit 1 then (2, 0): at x = -1 the score of (1, 1) is 0,
		// a vote of +1.
		{strings.Replace(jtVoted, `"counts":[0,1,1999]`, `"counts":[0,1,1]`, 1), []float64{2, 0, 2, 0}},
		// 1·(1·x) + (-1)·(-1·x): the coefficients 1 and -1 of the vectors 1
		// and -1, and the bias 0.
		{jtKernelTrace, []float64{2, -2, 1.5, -0.5}},
		{jtKernelPoly1, []float64{2, -2, 1.5, -0.5}},
		// Three classes: x·(-2, 1, 1) + (0, -1, 1).
		{jtSaved("Perceptron", jtLinear3, `{"classes":[0,1,2],"weights":[-2,1,1],"biases":[0,-1,1],"throughOrigin":false}`, jtFitStats),
			[]float64{-2, 0, 2, 2, -2, 0, -1.5, -0.25, 1.75, 0.5, -1.25, 0.75}},
	} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			var m Scorer
			var err error
			m, err = Unmarshal([]byte(c.data))
			if err != nil {
				t.Fatalf("%s: %v", c.data, err)
			}
			if got := m.ScoreRows(nil, T); !floats.Equal(got, c.scores) {
				t.Errorf("%.60s: scores %v, want %v", c.data, got, c.scores)
			}
		})
	}
}

// jtRules are the prediction rules of Kernel.
var jtRules = []Prediction{PredictLast, PredictVoted, PredictAveraged}

// jtScores returns the scores and the classes of the rows of T, dense and
// as a CSR, under m: for a Kernel under every rule.
func jtScores(m Scorer, T *mat.Dense) (scores, classes []float64) {
	S := jtCSR(T)
	k, _ := m.(*Kernel)
	rules := []Prediction{0}
	if k != nil {
		rules = jtRules
		defer func(p Prediction) { k.Prediction = p }(k.Prediction)
	}
	for _, p := range rules {
		if k != nil {
			k.Prediction = p
		}
		for _, X := range []mat.Matrix{T, S} {
			scores = append(scores, m.ScoreRows(nil, X)...)
			classes = append(classes, m.PredictRows(nil, X)...)
		}
	}
	return scores, classes
}

// jtCheckRoundTrip saves m and loads it with Unmarshal and with
// json.Unmarshal into the zero value, and saves it in the binary form
// and loads that, as btCheckBinary and btCheckDense do. Each must give a
// classifier of m's
// type, settings, classes and Stats, that scores and classifies the rows
// of T as m does, to the bit, dense and sparse and for a Kernel under
// every rule, that has m's weights, or support vectors and coefficients,
// to the bit, and that saves to the same bytes. It returns the loaded
// zero value.
func jtCheckRoundTrip(t *testing.T, name string, m Scorer, T *mat.Dense) Scorer {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("%s: Marshal: %v", name, err)
	}
	u, err := Unmarshal(data)
	if err != nil {
		t.Fatalf("%s: Unmarshal: %v\n%s", name, err, data)
	}
	q := jtFresh(m)
	if err := json.Unmarshal(data, q); err != nil {
		t.Fatalf("%s: json.Unmarshal: %v\n%s", name, err, data)
	}
	// The width that package data asks of a classifier: the columns of
	// the rows that it scores.
	if _, d := T.Dims(); widthOf(u) != d || widthOf(m) != d {
		t.Fatalf("%s: widthOf gives %d loaded, %d saved, want %d", name, widthOf(u), widthOf(m), d)
	}
	loaded := []Scorer{u, q, btCheckBinary(t, name, m)}
	if d, ok := m.(encoding.BinaryMarshaler); ok {
		loaded = append(loaded, btCheckDense(t, name, d))
	}
	wantScores, wantClasses := jtScores(m, T)
	for _, l := range loaded {
		if reflect.TypeOf(l) != reflect.TypeOf(m) {
			t.Fatalf("%s: loaded a %T, saved a %T", name, l, m)
		}
		again, err := json.Marshal(l)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("%s: the loaded classifier saves as\n%s (%v)\nthe saved one as\n%s", name, again, err, data)
		}
		if diff := jtSameSettings(l, m); diff != "" {
			t.Fatalf("%s: settings loaded and saved differ: %s", name, diff)
		}
		if !slices.Equal(l.Classes(), m.Classes()) {
			t.Fatalf("%s: classes %v loaded, %v saved", name, l.Classes(), m.Classes())
		}
		if sl, ok := jtStats(l); ok {
			if sm, _ := jtStats(m); !reflect.DeepEqual(sl, sm) {
				t.Fatalf("%s: Stats %+v loaded, %+v saved", name, sl, sm)
			}
		}
		scores, classes := jtScores(l, T)
		if !sameBits(scores, wantScores) || !slices.Equal(classes, wantClasses) {
			t.Fatalf("%s: the loaded classifier scores\n%v, classes %v\nthe saved one\n%v, %v", name, scores, classes, wantScores, wantClasses)
		}
		switch l := l.(type) {
		case interface{ Weights() ([]float64, []float64) }:
			w, b := l.Weights()
			mw, mb := m.(interface{ Weights() ([]float64, []float64) }).Weights()
			if !sameBits(w, mw) || !sameBits(b, mb) {
				t.Fatalf("%s: weights %v, %v loaded, %v, %v saved", name, w, b, mw, mb)
			}
		case *Kernel:
			jtSameExpansion(t, name, m.(*Kernel), l)
		}
	}
	return q
}

// jtSameExpansion checks that the Kernels p and q have the same support
// vectors, stored the same way, and the same coefficients and biases to
// the bit, under every rule.
func jtSameExpansion(t *testing.T, name string, p, q *Kernel) {
	t.Helper()
	defer func(a, b Prediction) { p.Prediction, q.Prediction = a, b }(p.Prediction, q.Prediction)
	for _, rule := range jtRules {
		p.Prediction, q.Prediction = rule, rule
		svp, cp, bp := p.SupportVectors()
		svq, cq, bq := q.SupportVectors()
		if reflect.TypeOf(svp) != reflect.TypeOf(svq) || !mat.Equal(svp, svq) || !sameBits(cp, cq) || !sameBits(bp, bq) {
			t.Fatalf("%s, rule %d: support vectors %T %v, coefficients %v, biases %v loaded; %T %v, %v, %v saved",
				name, rule, svq, mat.Formatted(svq), cq, bq, svp, mat.Formatted(svp), cp, bp)
		}
	}
}

// jtKind is a kind of classifier of the round trips.
type jtKind struct {
	name  string
	learn bool // it has Learn
	// make returns the classifier with random settings valid for rows of
	// d columns and the classes; trial picks among the settings that every
	// kind must be saved with.
	make func(rnd *rand.Rand, trial, d int, classes []float64) Scorer
}

// jtLinearSettings returns random settings of the linear classifiers
// valid for rows of d columns and the classes: Epochs, Rate, Rand,
// NoBias, InitWeights and Labels.
func jtLinearSettings(rnd *rand.Rand, d int, classes []float64) (epochs int, rate float64, r *rand.Rand, noBias bool, w0, labels []float64) {
	epochs = 1 + rnd.IntN(20)
	if rnd.IntN(2) == 0 {
		rate = rnd.Float64() * 3
	}
	if rnd.IntN(2) == 0 {
		r = rand.New(rand.NewPCG(rnd.Uint64(), 1))
	}
	noBias = rnd.IntN(3) == 0
	S := len(classes)
	if S == 2 {
		S = 1
	}
	if rnd.IntN(2) == 0 {
		w0 = make([]float64, d*S)
		for j := range w0 {
			w0[j] = rnd.NormFloat64()
		}
	}
	if rnd.IntN(2) == 0 {
		// Labels, in another order and with a repeat, which Fit
		// accepts.
		labels = append(slices.Clone(classes), classes[0])
		rnd.Shuffle(len(labels), func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	}
	return
}

// jtKinds returns every kind of classifier of the round trips: the
// linear ones, Pocket with and without the ratchet, Kernel under every
// kernel, with and without Budget, and OneVsRest of each.
func jtKinds() []jtKind {
	var kinds []jtKind
	for _, name := range []string{"Perceptron", "Pocket", "Pocket/ratchet", "Averaged", "Voted"} {
		learn := name == "Perceptron" || name == "Averaged" || name == "Voted"
		kinds = append(kinds, jtKind{name, learn, func(rnd *rand.Rand, _, d int, classes []float64) Scorer {
			e, rate, r, noBias, w0, labels := jtLinearSettings(rnd, d, classes)
			switch name {
			case "Perceptron":
				return &Perceptron{Epochs: e, Rate: rate, Rand: r, NoBias: noBias, InitWeights: w0, Labels: labels}
			case "Averaged":
				return &Averaged{Epochs: e, Rate: rate, Rand: r, NoBias: noBias, InitWeights: w0, Labels: labels}
			case "Voted":
				return &Voted{Epochs: e, Rate: rate, Rand: r, NoBias: noBias, InitWeights: w0, Labels: labels}
			}
			return &Pocket{Epochs: e, Rate: rate, Rand: r, NoBias: noBias, InitWeights: w0, Labels: labels, Ratchet: name == "Pocket/ratchet"}
		}})
	}
	for _, f := range []string{"linear", "poly", "rbf"} {
		for _, budget := range []bool{false, true} {
			name := "Kernel/" + f
			if budget {
				name += "/budget"
			}
			kinds = append(kinds, jtKind{name, true, func(rnd *rand.Rand, trial, d int, classes []float64) Scorer {
				e, rate, r, noBias, _, labels := jtLinearSettings(rnd, d, classes)
				k := &Kernel{Epochs: e, Rate: rate, Rand: r, NoBias: noBias, Labels: labels, Prediction: jtRules[trial%3]}
				switch f {
				case "poly":
					// Degree and Gamma zero at times, for their
					// defaults.
					k.Func = Poly{Degree: rnd.IntN(4), Gamma: rnd.Float64() / float64(d) * float64(rnd.IntN(2)), Coef0: rnd.NormFloat64()}
				case "rbf":
					k.Func = RBF{Gamma: rnd.Float64() * float64(rnd.IntN(2))}
				}
				if budget {
					k.Budget = 1 + rnd.IntN(6)
				}
				return k
			}})
		}
	}
	// OneVsRest of each kind, its members made with the settings of one
	// random classifier of two classes, sharing its Rand.
	for _, member := range slices.Clone(kinds) {
		kinds = append(kinds, jtKind{"OneVsRest/" + member.name, false, func(rnd *rand.Rand, trial, d int, classes []float64) Scorer {
			proto := member.make(rnd, trial, d, []float64{-1, 1})
			o := &OneVsRest{New: func() Scorer {
				m := jtFresh(proto)
				reflect.ValueOf(m).Elem().Set(reflect.ValueOf(proto).Elem())
				return m
			}}
			if rnd.IntN(2) == 0 {
				o.Labels = slices.Clone(classes)
			}
			return o
		}})
	}
	return kinds
}

// TestJSONRoundTrip saves and loads every kind of classifier, fitted on
// random problems of two classes and more, dense and sparse, of features
// on many scales or of small integers, with random settings: after Fit,
// after Fit and Learn, and after Learn alone, for the kinds that learn,
// Kernel under every rule and kernel, with and without Budget. Each loads
// as jtCheckRoundTrip says, and the loaded classifier learns on as the
// saved one does, to the same saved bytes; that the loaded Voted
// recomputes its running weights from its voters to the bit shows there.
func TestJSONRoundTrip(t *testing.T) {
	trials := 18 // every rule, dense and sparse, and every stage for every kind
	if testing.Short() || raceEnabled {
		trials = 6
	}
	for k, kind := range jtKinds() {
		t.Run(kind.name, func(t *testing.T) {
			for trial := range trials {
				// Each trial's data from its own source, whatever the one
				// before met.
				rnd := rand.New(rand.NewPCG(uint64(trial), uint64(k)))
				jtRoundTripTrial(t, rnd, kind, trial)
			}
		})
	}
}

// jtRoundTripTrial is one trial of TestJSONRoundTrip: trial picks the
// rule of a Kernel, dense or sparse data, and the stage.
func jtRoundTripTrial(t *testing.T, rnd *rand.Rand, kind jtKind, trial int) {
	sparse := trial/3%2 == 1
	stage := trial / 6 % 3 // Fit, Fit and Learn, Learn
	name := fmt.Sprintf("trial %d, %s, sparse %t, stage %d", trial, kind.name, sparse, stage)
	n, d, K := 2+rnd.IntN(30), 1+rnd.IntN(8), 2+rnd.IntN(3)
	scaled := rnd.IntN(2) == 0
	X, y := jtClassData(rnd, n, d, K, scaled)
	classes := slices.Compact(slices.Sorted(slices.Values(y)))
	T, _ := jtClassData(rnd, 20, d, 2, true)
	T = mat.NewDense(20+n, d, append(slices.Clone(T.RawMatrix().Data), X.RawMatrix().Data...))
	var data mat.Matrix = X
	if sparse {
		data = jtCSR(X)
	}
	m := kind.make(rnd, trial, d, classes)
	if !kind.learn || stage < 2 {
		if err := m.Fit(data, y); err != nil {
			t.Fatalf("%s: Fit: %v", name, err)
		}
	}
	if kind.learn && stage > 0 {
		l := m.(onlineLearner)
		if stage == 2 {
			reflect.ValueOf(m).Elem().FieldByName("Labels").Set(reflect.ValueOf(classes))
		}
		for range 1 + rnd.IntN(2) {
			cl := l.Classes()
			if cl == nil {
				cl = classes
			}
			if err := l.Learn(data, jtOtherLabels(y, cl)); err != nil {
				t.Fatalf("%s: Learn: %v", name, err)
			}
		}
	}
	q := jtCheckRoundTrip(t, name, m, T)
	if !kind.learn {
		return
	}
	// The loaded classifier learns on as the saved one does. A Kernel with
	// a Budget draws its removals from Rand: both get the same.
	p := m.(onlineLearner)
	if _, ok := m.(*Kernel); ok {
		seed := rnd.Uint64()
		jtSetRand(p, rand.New(rand.NewPCG(seed, 3)))
		jtSetRand(q, rand.New(rand.NewPCG(seed, 3)))
	}
	Xl, _ := jtClassData(rnd, 1+rnd.IntN(10), d, 2, scaled)
	yl := jtOtherLabels(slices.Repeat([]float64{p.Classes()[0]}, Xl.RawMatrix().Rows), p.Classes())
	errP, errQ := p.Learn(Xl, yl), q.(onlineLearner).Learn(Xl, yl)
	if errP != nil || errQ != nil {
		t.Fatalf("%s: Learn after the round trip: %v saved, %v loaded", name, errP, errQ)
	}
	bp, errP := json.Marshal(p)
	bq, errQ := json.Marshal(q)
	if errP != nil || errQ != nil || !bytes.Equal(bp, bq) {
		t.Fatalf("%s: after Learn the saved classifier saves as\n%s (%v)\nthe loaded one as\n%s (%v)", name, bp, errP, bq, errQ)
	}
	jtCheckRoundTrip(t, name+", learned on", p, T)
}

// jtOtherLabels returns labels of the classes, each the class after that
// of y in classes, so that a model that has learned y errs on them.
func jtOtherLabels(y, classes []float64) []float64 {
	o := make([]float64, len(y))
	for i, v := range y {
		c := slices.Index(classes, v)
		o[i] = classes[(c+1)%len(classes)]
	}
	return o
}

// jtZeros returns the zero value of every classifier of the package.
func jtZeros() []Scorer {
	return []Scorer{&Perceptron{}, &Pocket{}, &Averaged{}, &Voted{}, &Kernel{}, &OneVsRest{}}
}

// jtCopy returns a shallow copy of the classifier m.
func jtCopy(m Scorer) Scorer {
	c := jtFresh(m)
	reflect.ValueOf(c).Elem().Set(reflect.ValueOf(m).Elem())
	return c
}

// TestJSONNull checks that the JSON null changes nothing, in a fitted
// classifier or not, through UnmarshalJSON and json.Unmarshal, as
// encoding/json asks of UnmarshalJSON.
func TestJSONNull(t *testing.T) {
	X, y := twoPoints()
	for _, fitted := range []bool{false, true} {
		for _, m := range jtZeros() {
			reflect.ValueOf(m).Elem().FieldByName("Labels").Set(reflect.ValueOf([]float64{1, -1}))
			var saved []byte
			if fitted {
				if err := m.Fit(X, y); err != nil {
					t.Fatal(err)
				}
				var err error
				if saved, err = json.Marshal(m); err != nil {
					t.Fatal(err)
				}
			}
			before := jtCopy(m)
			for k, load := range []func() error{
				func() error { return m.(json.Unmarshaler).UnmarshalJSON([]byte("null")) },
				func() error { return json.Unmarshal([]byte("null"), m) },
			} {
				if err := load(); err != nil {
					t.Errorf("%T, fitted %t, load %d of null: %v", m, fitted, k, err)
				}
				if !reflect.DeepEqual(m, before) {
					t.Errorf("%T, fitted %t: load %d of null changes it to %+v", m, fitted, k, m)
				}
				if fitted {
					if again, err := json.Marshal(m); err != nil || !bytes.Equal(again, saved) {
						t.Errorf("%T: after load %d of null it saves as %s (%v), before as %s", m, k, again, err, saved)
					}
				}
			}
		}
	}
	// Unmarshal has no classifier to leave as it was: null is not one.
	if m, err := Unmarshal([]byte("null")); m != nil || err == nil || err.Error() != "perceptron: not a saved classifier: it has no type" {
		t.Errorf("Unmarshal(null) = %v, %v", m, err)
	}
}

// TestJSONBeforeFit checks that MarshalJSON of a classifier that has not
// been fitted, or whose Fit failed, is an error, through a pointer and as
// a value, that its width is 0, and that Unmarshal of nothing is an error
// too.
func TestJSONBeforeFit(t *testing.T) {
	const want = "perceptron: MarshalJSON called before Fit"
	for _, m := range jtZeros() {
		for k, v := range []any{m, reflect.ValueOf(m).Elem().Interface()} {
			if b, err := json.Marshal(v); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%T, marshal %d before Fit: %s, %v", m, k, b, err)
			}
		}
		// A failed Fit leaves it unfitted.
		if err := m.Fit(mat.NewDense(2, 1, []float64{1, math.NaN()}), []float64{1, -1}); err == nil {
			t.Fatalf("%T: Fit on a NaN succeeds", m)
		}
		if b, err := m.(json.Marshaler).MarshalJSON(); err == nil || err.Error() != want {
			t.Errorf("%T after a failed Fit: MarshalJSON gives %s, %v", m, b, err)
		}
		if d := widthOf(m); d != 0 {
			t.Errorf("%T after a failed Fit: widthOf gives %d, want 0", m, d)
		}
	}
}

// TestJSONCustomKernel checks that a Kernel fitted with a Custom kernel,
// or given one after Fit, cannot be saved, alone or in OneVsRest, as a
// Custom kernel is Go code.
func TestJSONCustomKernel(t *testing.T) {
	X, y := twoPoints()
	dot := Custom(func(x, z []float64) float64 { return floats.Dot(x, z) })
	for _, c := range []struct {
		m    Scorer
		edit func(m Scorer)
		want string
	}{
		{&Kernel{Func: dot}, func(Scorer) {}, "perceptron: MarshalJSON: a Custom kernel is a Go function, which cannot be saved"},
		{&Kernel{Func: dot}, func(m Scorer) { m.(*Kernel).Func = nil }, "perceptron: MarshalJSON: the Kernel was fitted with a Custom kernel"},
		{&Kernel{Func: dot}, func(m Scorer) { m.(*Kernel).Func = RBF{} }, "perceptron: MarshalJSON: the Kernel was fitted with a Custom kernel"},
		{&Kernel{}, func(m Scorer) { m.(*Kernel).Func = dot }, "perceptron: MarshalJSON: a Custom kernel is a Go function, which cannot be saved"},
		{&OneVsRest{New: func() Scorer { return &Kernel{Func: dot} }}, func(Scorer) {}, "perceptron: MarshalJSON: a Custom kernel is a Go function, which cannot be saved"},
		{&OneVsRest{New: func() Scorer { return &Kernel{Func: dot} }}, func(m Scorer) {
			for _, k := range m.(*OneVsRest).Models() {
				k.(*Kernel).Func = nil
			}
		}, "perceptron: MarshalJSON: the Kernel was fitted with a Custom kernel"},
	} {
		if err := c.m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		c.edit(c.m)
		for k, v := range []any{c.m, reflect.ValueOf(c.m).Elem().Interface()} {
			if b, err := json.Marshal(v); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%T, marshal %d: %s, %v, want an error containing %q", c.m, k, b, err, c.want)
			}
		}
	}
	// A pointer to a Poly or an RBF is the kernel it points to, and saves
	// as that value.
	for _, f := range []KernelFunc{&RBF{Gamma: 0.5}, &Poly{Degree: 2, Gamma: 1}} {
		k := &Kernel{Func: f}
		if err := k.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(k)
		if err != nil {
			t.Fatalf("Marshal of a Kernel of a %T: %v", f, err)
		}
		var l Kernel
		if err := json.Unmarshal(b, &l); err != nil || !reflect.DeepEqual(l.Func, reflect.ValueOf(f).Elem().Interface()) {
			t.Errorf("a Kernel of a %T loads with the kernel %#v (%v)", f, l.Func, err)
		}
	}
}

// TestJSONUnknownMembers checks that a member that the format does not
// define is an error wherever it is: beside the envelope's, in the
// settings, the model, the stats, and the objects within them.
func TestJSONUnknownMembers(t *testing.T) {
	for _, tr := range jtTraces() {
		m, err := tr.fit()
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		// The top, and every object that the format defines.
		places := []string{`{`, `"settings":{`, `"model":{`, `"stats":{`, `"supportVectors":{`, `"rows":{`, `"kernel":{`, `"func":{`}
		tried := 0
		for _, at := range places {
			if !strings.Contains(s, at) {
				continue
			}
			tried++
			for _, member := range []string{`"bogus":1,`, `"bogus":null,`, `"initBias":0,`, `"first":{},`} {
				bad := strings.Replace(s, at, at+member, 1)
				name := strings.SplitN(member, ":", 2)[0]
				_, err := Unmarshal([]byte(bad))
				if err == nil || !strings.HasPrefix(err.Error(), "perceptron: ") || !strings.Contains(err.Error(), "unknown field "+name) {
					t.Errorf("%s: a member %s after %s gives %v", tr.name, member, at, err)
				}
			}
		}
		if tried < 3 {
			t.Fatalf("%s: members tried in %d places", tr.name, tried)
		}
	}
}

// jtTraceWant returns the saved form of the hand trace of the name.
func jtTraceWant(name string) string {
	for _, tr := range jtTraces() {
		if tr.name == name {
			return tr.want
		}
	}
	panic("no trace " + name)
}

// jtEdits returns a function that makes the replacements of pairs, old
// and new, in s, each once, failing t if an old one is not in it.
func jtEdits(t *testing.T, s string) func(pairs ...string) string {
	return func(pairs ...string) string {
		t.Helper()
		e := s
		for i := 0; i < len(pairs); i += 2 {
			if !strings.Contains(e, pairs[i]) {
				t.Fatalf("%s not in %s", pairs[i], e)
			}
			e = strings.Replace(e, pairs[i], pairs[i+1], 1)
		}
		return e
	}
}

// jtCase is a saved form that does not load, and a part of its error.
type jtCase struct{ data, want string }

// testUnmarshalJSONErrors loads good into c, a classifier of the type of
// good with Rand and OnUpdate, or New, set, and then each case's data,
// which must fail with an error that starts with perceptron: and contains
// the case's want, and leave c as it was: the same saved form, settings,
// and Rand and OnUpdate or New.
func testUnmarshalJSONErrors(t *testing.T, c Scorer, good string, cases []jtCase) {
	t.Helper()
	if err := json.Unmarshal([]byte(good), c); err != nil {
		t.Fatalf("good model: %v\n%s", err, good)
	}
	v := reflect.ValueOf(c).Elem()
	if f := v.FieldByName("Rand"); f.IsValid() {
		f.Set(reflect.ValueOf(rand.New(rand.NewPCG(1, 2))))
		v.FieldByName("OnUpdate").Set(reflect.ValueOf(func(Update) {}))
	} else {
		v.FieldByName("New").Set(reflect.ValueOf(func() Scorer { return &Voted{} }))
	}
	before, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	kept := jtCopy(c)
	for _, tc := range cases {
		if tc.data == good {
			t.Fatalf("case %q is the good model", tc.want)
		}
		err := c.(json.Unmarshaler).UnmarshalJSON([]byte(tc.data))
		if err == nil || !strings.HasPrefix(err.Error(), "perceptron: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("UnmarshalJSON(%s):\nerror %v\nwant one starting perceptron: and containing %q", tc.data, err, tc.want)
		}
		if after, err := json.Marshal(c); err != nil || !bytes.Equal(after, before) {
			t.Errorf("UnmarshalJSON(%s) changed the classifier to %s (%v)", tc.data, after, err)
		}
		w := reflect.ValueOf(kept).Elem()
		for k := range v.NumField() {
			if f := v.Type().Field(k); f.IsExported() && v.Field(k).Kind() == reflect.Func {
				if v.Field(k).Pointer() != w.Field(k).Pointer() {
					t.Errorf("UnmarshalJSON(%s) changed %s", tc.data, f.Name)
				}
			} else if f.IsExported() && !reflect.DeepEqual(v.Field(k).Interface(), w.Field(k).Interface()) {
				t.Errorf("UnmarshalJSON(%s) changed %s", tc.data, f.Name)
			}
		}
	}
}

// jtEnvelopeCases are the errors of every type's envelope and Stats, for
// the good saved form g of the type typ, whose stats are jtFitStats.
func jtEnvelopeCases(t *testing.T, typ, g string) []jtCase {
	r := jtEdits(t, g)
	quoted := `"` + typ + `"`
	cases := []jtCase{
		{`[1,2]`, "perceptron: not a saved " + typ + ": json: cannot unmarshal array"},
		{`{"type":` + quoted, "perceptron: not a saved " + typ + ": unexpected EOF"},
		{``, "perceptron: not a saved " + typ + ": EOF"},
		{g + `x`, "perceptron: not a saved " + typ + ": data after the value"},
		{g + ` {}`, "perceptron: not a saved " + typ + ": data after the value"},
		{r(quoted, `"Margin"`), `perceptron: the saved classifier is of type "Margin", not ` + typ},
		{r(`"type":`+quoted+`,`, ``), `perceptron: the saved classifier is of type "", not ` + typ},
		{r(`"version":1`, `"version":2`), "perceptron: saved " + typ + " of format version 2, want 1"},
		{r(`"version":1,`, ``), "perceptron: saved " + typ + " of format version 0, want 1"},
		{r(`"version":1`, `"version":"1"`), "cannot unmarshal string"},
		{r(`{"type"`, `{"bogus":1,"type"`), `perceptron: not a saved ` + typ + `: json: unknown field "bogus"`},
		{r(`"settings":{`, `"settings":{"bogus":1,`), `perceptron: saved ` + typ + `'s settings: json: unknown field "bogus"`},
		{r(`"model":{`, `"model":{"bogus":1,`), `perceptron: saved ` + typ + `'s model: json: unknown field "bogus"`},
		{r(`"settings":`, `"settings":[],"x":`), `unknown field "x"`},
		{r(`"settings":`, `"setting":`), `unknown field "setting"`},
		{r(`"model":`, `"models":`), `unknown field "models"`},
	}
	if typ == "OneVsRest" {
		return append(cases, jtCase{g[:len(g)-1] + `,"stats":` + jtFitStats + `}`, "perceptron: saved OneVsRest with stats true, want them for every type but OneVsRest"})
	}
	return append(cases,
		jtCase{r(`,"stats":`+jtFitStats, ``), "perceptron: saved " + typ + " with stats false, want them for every type but OneVsRest"},
		jtCase{r(`"stats":`+jtFitStats, `"stats":null`), "perceptron: saved " + typ + " with stats false"},
		jtCase{r(`"stats":{`, `"stats":{"bogus":1,`), `perceptron: not a saved ` + typ + `: stats: json: unknown field "bogus"`},
		jtCase{r(`"epochMistakes":[2,0]`, `"epochMistakes":[2]`), "perceptron: saved " + typ + "'s stats: 2 epochs with 1 epoch mistake counts"},
		jtCase{r(`"epochs":2,"converged":true,"mistakes":2,"epochMistakes":[2,0]`, `"epochs":-1,"converged":false,"mistakes":2,"epochMistakes":[]`), "stats: -1 epochs with 0 epoch mistake counts"},
		jtCase{r(`"epochMistakes":[2,0]`, `"epochMistakes":[-1,0]`), "stats: epoch 1 has -1 mistakes, want 0 to 2^53 in all"},
		jtCase{r(`"mistakes":2,`, `"mistakes":1,`), "stats: 1 mistakes, but the epochs made 2"},
		jtCase{r(`"mistakes":2,`, `"mistakes":9007199254740993,`), "stats: 9007199254740993 mistakes, but the epochs made 2"},
		jtCase{r(`"epochMistakes":[2,0]`, `"epochMistakes":[1,1]`), "stats: converged, but the last epoch made mistakes"},
		jtCase{r(`"epochs":2,"converged":true`, `"epochs":0,"converged":true`, `"epochMistakes":[2,0]`, `"epochMistakes":[]`), "stats: converged, but the last epoch made mistakes"},
		jtCase{r(`"converged":true`, `"converged":1`), "cannot unmarshal number"},
		// The crafted stats of the issue: counts whose sum wraps around.
		jtCase{r(`"converged":true,"mistakes":2,"epochMistakes":[2,0]`, `"converged":false,"mistakes":2,"epochMistakes":[9223372036854775807,1]`), "stats: epoch 1 has 9223372036854775807 mistakes, want 0 to 2^53 in all"},
		jtCase{r(`"converged":true,"mistakes":2,"epochMistakes":[2,0]`, `"converged":false,"mistakes":2,"epochMistakes":[9007199254740992,1]`), "stats: epoch 2 has 1 mistakes, want 0 to 2^53 in all"},
		jtCase{r(`"converged":true,"mistakes":2,"epochMistakes":[2,0]`, `"converged":false,"mistakes":2,"epochMistakes":[1,9223372036854775807]`), "stats: epoch 2 has 9223372036854775807 mistakes"},
	)
}

// jtLinearCases are the errors of the settings and the table of a linear
// classifier of the type typ, for its good saved form g of two classes,
// whose model is (w, b) = (2, 0).
func jtLinearCases(t *testing.T, typ, g string) []jtCase {
	r := jtEdits(t, g)
	model := "perceptron: saved " + typ + "'s model: "
	settings := "perceptron: saved " + typ + "'s settings: "
	return []jtCase{
		{r(`"biases":[0]`, `"biases":[0,0]`), model + "it has 2 biases for 2 classes, want 1"},
		{r(`"biases":[0]`, `"biases":[]`), model + "it has 0 biases for 2 classes, want 1"},
		{r(`"biases":[0]`, `"bias":0`), `unknown field "bias"`},
		{r(`"classes":[-1,1]`, `"classes":[1,-1]`), model + "the classes [1 -1] are not at least two, ascending"},
		{r(`"classes":[-1,1]`, `"classes":[1]`), model + "the classes [1] are not at least two, ascending"},
		{r(`"classes":[-1,1]`, `"classes":[-1,-1]`), model + "the classes [-1 -1] are not at least two, ascending"},
		{r(`"classes":[-1,1],`, ``), model + "the classes [] are not at least two, ascending"},
		{r(`"classes":[-1,1]`, `"classes":[-1,1,2]`), model + "it has 1 biases for 3 classes, want 3"},
		{r(`"weights":[2]`, `"weights":[2,"a"]`), "cannot unmarshal string"},
		{r(`"weights":[2]`, `"weights":[1e999]`), "cannot unmarshal number 1e999"},
		{r(`"weights":[2]`, `"weights":[]`), model + "it has 0 weights for 1 biases, want a multiple, at least 1"},
		{r(`"weights":[2]`, `"weights":null`), model + "it has 0 weights for 1 biases"},
		{r(`"biases":[0],"throughOrigin":false`, `"biases":[0.5],"throughOrigin":true`), model + "it is through the origin, but its biases are [0.5]"},
		{r(`"labels":null`, `"labels":[1,1]`), settings + "Labels lists the classes [1], want at least two"},
		{r(`"labels":null`, `"labels":[1,1e999]`), "cannot unmarshal number 1e999"},
		{r(`"initWeights":null`, `"initWeights":[1,2]`), settings + "InitWeights has length 2, want 1"},
		{r(`"rate":0`, `"rate":-1`), settings + "Rate is -1"},
		{r(`"epochs":0`, `"epochs":-2`), settings + "Epochs is -2"},
		{r(`"noBias":false`, `"noBias":0`), "cannot unmarshal number"},
	}
}

func TestPerceptronUnmarshalJSONErrors(t *testing.T) {
	g := jtPerceptron
	r := jtEdits(t, g)
	cases := append(jtEnvelopeCases(t, "Perceptron", g), jtLinearCases(t, "Perceptron", g)...)
	cases = append(cases,
		jtCase{r(`"labels":null`, `"labels":null,"ratchet":false`), "perceptron: saved Perceptron's settings: ratchet is Pocket's setting alone"},
		jtCase{r(`"model":{"classes":[-1,1],"weights":[2],"biases":[0],"throughOrigin":false}`, `"model":null`), "perceptron: saved Perceptron's model: null, want an object"},
		jtCase{r(`"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":null,"stop":null}`, `"settings":null`), "perceptron: saved Perceptron's settings: null, want an object"},
		jtCase{r(`"stats":{"epochs":2,`, `"stats":{"epochs":2,"epochs":2,`), `perceptron: not a saved Perceptron: stats: member "epochs" more than once`},
		jtCase{r(`"settings":{"epochs":0,`, `"settings":{"epochs":0,"epochs":0,`), `perceptron: saved Perceptron's settings: member "epochs" more than once`},
		jtCase{r(`"version":1,`, `"version":1,"version":1,`), `perceptron: not a saved Perceptron: member "version" more than once`},
		jtCase{r(`"model":{"classes":[-1,1],`, `"model":{"classes":[-1,1],"classes":[-1,1],`), `perceptron: saved Perceptron's model: member "classes" more than once`},
		jtCase{r(`"settings":`+jtLinear+`,`, ``), "perceptron: saved Perceptron's settings: missing"},
		jtCase{r(`,"model":{"classes":[-1,1],"weights":[2],"biases":[0],"throughOrigin":false}`, ``), "perceptron: saved Perceptron's model: missing"},
	)
	testUnmarshalJSONErrors(t, &Perceptron{}, g, cases)
}

func TestPocketUnmarshalJSONErrors(t *testing.T) {
	g := jtPocket
	r := jtEdits(t, g)
	cases := append(jtEnvelopeCases(t, "Pocket", g), jtLinearCases(t, "Pocket", g)...)
	cases = append(cases,
		jtCase{r(`"ratchet":false`, `"ratchet":"yes"`), "cannot unmarshal string"},
		jtCase{r(`,"ratchet":false`, ``), "perceptron: saved Pocket's settings: ratchet is Pocket's setting alone"},
		jtCase{r(`"ratchet":false`, `"ratchet":null`), "perceptron: saved Pocket's settings: ratchet is Pocket's setting alone"},
		jtCase{r(`"ratchet":false`, `"ratchet":false,"checkAll":true`), `unknown field "checkAll"`},
		jtCase{r(`"throughOrigin":false`, `"throughOrigin":false,"misclassified":0`), `unknown field "misclassified"`},
	)
	testUnmarshalJSONErrors(t, &Pocket{}, g, cases)
	// The ratchet's saved pocket loads as such, and the exact one too.
	for _, c := range []struct {
		data    string
		ratchet bool
	}{{jtPocket, false}, {jtPocketRatchet, true}} {
		var p Pocket
		if err := json.Unmarshal([]byte(c.data), &p); err != nil || p.Ratchet != c.ratchet {
			t.Errorf("%s: %v, Ratchet %t", c.data, err, p.Ratchet)
		}
	}
}

func TestAveragedUnmarshalJSONErrors(t *testing.T) {
	g := jtAveraged
	r := jtEdits(t, g)
	model := "perceptron: saved Averaged's model: "
	cases := append(jtEnvelopeCases(t, "Averaged", g), jtLinearCases(t, "Averaged", g)...)
	cases = append(cases,
		jtCase{r(`"sumWeights":[3999]`, `"sumWeights":[3999,1]`), model + "it has 1 weights and 2 sums of weights, want as many"},
		jtCase{r(`"sumWeights":[3999],`, ``), model + "its sum has 0 weights for 1 biases, want a multiple, at least 1"},
		jtCase{r(`"sumBiases":[1]`, `"sumBiases":[1,1]`), model + "its sum has 2 biases for 2 classes, want 1"},
		jtCase{r(`"throughOrigin":false`, `"throughOrigin":true`), model + "its sum is through the origin, but its biases are [1]"},
		jtCase{r(`"sumWeights":[3999]`, `"sumWeights":[1e999]`), "cannot unmarshal number 1e999"},
		jtCase{r(`"visits":2000`, `"visits":0`), model + "it has 0 visits, 0 ahead, want 1 to 2^53 and at most as many ahead"},
		jtCase{r(`"visits":2000`, `"visits":-3`), model + "it has -3 visits, 0 ahead"},
		jtCase{r(`"visits":2000`, `"visits":9007199254740993`), model + "it has 9007199254740993 visits, 0 ahead"},
		// The crafted visits of the issue.
		jtCase{r(`"visits":2000`, `"visits":9223372036854775807`), model + "it has 9223372036854775807 visits, 0 ahead"},
		jtCase{r(`"visits":2000`, `"visits":9223372036854775808`), "cannot unmarshal number 9223372036854775808"},
		jtCase{r(`"ahead":0`, `"ahead":-1`), model + "it has 2000 visits, -1 ahead"},
		jtCase{r(`"ahead":0`, `"ahead":2001`), model + "it has 2000 visits, 2001 ahead"},
		jtCase{r(`"visits":2000`, `"visits":2000,"count":4`), `unknown field "count"`},
		jtCase{r(`"labels":null`, `"labels":null,"ratchet":true`), "ratchet is Pocket's setting alone"},
	)
	testUnmarshalJSONErrors(t, &Averaged{}, g, cases)
}

func TestVotedUnmarshalJSONErrors(t *testing.T) {
	g := jtVoted
	r := jtEdits(t, g)
	model := "perceptron: saved Voted's model: "
	vals := `"values":"` + jtB64(1, -1) + `"`
	cases := append(jtEnvelopeCases(t, "Voted", g), jtLinearCases(t, "Voted", strings.NewReplacer(`"weights":[0]`, `"weights":[2]`).Replace(g))...)
	// jtLinearCases takes weights [2]; the voted trace's first are [0].
	for k := range cases {
		cases[k].data = strings.Replace(cases[k].data, `"weights":[2]`, `"weights":[0]`, 1)
	}
	cases = append(cases,
		jtCase{r(`"throughOrigin":false`, `"throughOrigin":false,"first":{"weights":[0],"biases":[0]}`), `unknown field "first"`},
		jtCase{r(`"weights":[0]`, `"weights":[0,0]`), model + "rows of 1 columns, want 2"},
		jtCase{r(`"rows":2,"cols":1`, `"rows":3,"cols":1`), model + "2 values for 3 rows of 1, want as many"},
		jtCase{r(`"rows":2,"cols":1`, `"rows":1,"cols":1`), model + "2 values for 1 rows of 1, want as many"},
		jtCase{r(`"rows":2,"cols":1`, `"rows":-1,"cols":1`), model + "2 values for -1 rows of 1, want as many"},
		// The crafted sizes of the issue.
		jtCase{r(`"rows":2,"cols":1`, `"rows":4611686018427387904,"cols":1`), model + "2 values for 4611686018427387904 rows of 1, want as many"},
		jtCase{r(`"rows":2,"cols":1`, `"rows":9223372036854775807,"cols":1`), model + "2 values for 9223372036854775807 rows of 1, want as many"},
		jtCase{r(`"rows":2,"cols":1,"sparse":false,`, `"rows":9223372036854775807,"cols":1,"sparse":true,"starts":[0,1,2],"indices":[0,0],`), model + "3 starts for 9223372036854775807 sparse rows, want one more"},
		jtCase{r(vals, `"values":"AAAA"`), model + "rows: values: 3 bytes of float64s, want a multiple of 8"},
		jtCase{r(vals, `"values":"!!!!"`), model + "rows: values: illegal base64 data"},
		jtCase{r(vals, `"values":12`), "cannot unmarshal number"},
		jtCase{r(vals, `"values":"`+jtB64(1, math.Inf(1))+`"`), model + "row 1: column 0 is +Inf, want a finite value"},
		jtCase{r(`"sparse":false,`, `"sparse":false,"starts":[0,1,2],`), model + "dense rows with starts or indices"},
		jtCase{r(`"sparse":false,`, `"sparse":false,"indices":[0,0],`), model + "dense rows with starts or indices"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[0,1,2],"indices":[0,1],`), model + "row 1: column 1 is out of range [0, 1)"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[0,1,2],"indices":[0,-1],`), model + "row 1: column -1 is out of range [0, 1)"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[0,2,2],"indices":[0,0],`), model + "row 0: column 0 appears twice"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[0,1],"indices":[0,0],`), model + "2 starts for 2 sparse rows, want one more"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[0,1,3],"indices":[0,0],`), model + "starts from 0 to 3 for 2 indices and 2 values, want from 0 to as many as both"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[1,1,2],"indices":[0,0],`), model + "starts from 1 to 2"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[0,1,2],"indices":[0],`), model + "starts from 0 to 2 for 1 indices and 2 values"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[0,3,2],"indices":[0,0],`), model + "row 0 spans [0, 3)"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[0,-1,2],"indices":[0,0],`), model + "row 0 spans [0, -1)"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[0,1,2],"indices":[0,0],`, vals, `"values":"`+jtB64(math.NaN(), -1)+`"`), model + "row 0: column 0 is NaN, want a finite value"},
		jtCase{r(`"rows":{`, `"rows":{"bogus":1,`), `unknown field "bogus"`},
		jtCase{r(`"steps":[1,-1]`, `"steps":[1]`), model + "it has 2 rows and 1 steps, want as many"},
		jtCase{r(`"counts":[0,1,1999]`, `"counts":[0,1]`), model + "it has 2 mistakes and 2 counts, want one count more"},
		jtCase{r(`"mistakes":2,"epochMistakes":[2,0]`, `"mistakes":3,"epochMistakes":[3,0]`), model + "it has 2 mistakes, but its stats 3"},
		jtCase{r(`"counts":[0,1,1999]`, `"counts":[-1,1,1999]`), model + "its first count is -1, want 0 to 2^53"},
		jtCase{r(`"counts":[0,1,1999]`, `"counts":[0,0,1999]`), model + "its count 1 is 0, want 1 or more, and 2^53 in all"},
		// Counts whose sum passes 2^53, or wraps around.
		jtCase{r(`"counts":[0,1,1999]`, `"counts":[9223372036854775807,1,1999]`), model + "its first count is 9223372036854775807, want 0 to 2^53"},
		jtCase{r(`"counts":[0,1,1999]`, `"counts":[0,1,9223372036854775807]`), model + "its count 2 is 9223372036854775807, want 1 or more, and 2^53 in all"},
		jtCase{r(`"counts":[0,1,1999]`, `"counts":[9007199254740992,1,1]`), model + "its count 1 is 1, want 1 or more, and 2^53 in all"},
		jtCase{r(`"counts":[0,1,1999]`, `"counts":[0,9007199254740991,2]`), model + "its count 2 is 2, want 1 or more, and 2^53 in all"},
		jtCase{r(`"mistakeRows":[0,1]`, `"mistakeRows":[0,2]`), model + "its mistake 2 is on row 2, want one of the first 2 of its 2 rows"},
		jtCase{r(`"mistakeRows":[0,1]`, `"mistakeRows":[0,-1]`), model + "its mistake 2 is on row -1"},
		jtCase{r(`"mistakeRows":[0,1]`, `"mistakeRows":[1,0]`), model + "its mistake 1 is on row 1, want one of the first 1 of its 2 rows"},
		jtCase{r(`"mistakeRows":[0,1]`, `"mistakeRows":[0,0]`), model + "it has 2 rows, but its mistakes are on 1"},
		jtCase{r(`"counts"`, `"mistakeUp":[0,0],"mistakeDown":[0,0],"counts"`), model + "it has two classes and the classes its mistakes moved"},
		jtCase{r(`"steps":[1,-1]`, `"steps":[1,1e999]`), "cannot unmarshal number 1e999"},
		jtCase{r(`"biases":[0],"throughOrigin":false`, `"biases":[0.5],"throughOrigin":true`), model + "it is through the origin, but its biases are [0.5]"},
	)
	testUnmarshalJSONErrors(t, &Voted{}, g, cases)

	// Steps whose last weights overflow, 1e308·2: loading leaves the last
	// weights to the first Learn, which refuses them.
	var v Voted
	if err := json.Unmarshal([]byte(r(vals, `"values":"`+jtB64(2, -1)+`"`, `"steps":[1,-1]`, `"steps":[1e308,-1e308]`)), &v); err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(v)
	err := v.Learn(mat.NewDense(1, 1, []float64{1}), []float64{1})
	if after, _ := json.Marshal(v); err == nil || !strings.Contains(err.Error(), "the last weights of the loaded voted perceptron overflow") || string(after) != string(before) {
		t.Errorf("Learn on a Voted whose last weights overflow: %v, changed %t", err, string(after) != string(before))
	}

	g3 := jtTraceWant("Voted/3")
	r3 := jtEdits(t, g3)
	testUnmarshalJSONErrors(t, &Voted{}, g3, []jtCase{
		{r3(`"mistakeUp":[2,0],`, ``), model + "it has 2 mistakes and 0 and 2 classes they moved, want as many"},
		{r3(`"mistakeDown":[0,1]`, `"mistakeDown":[0]`), model + "it has 2 mistakes and 2 and 1 classes they moved, want as many"},
		{r3(`"mistakeUp":[2,0]`, `"mistakeUp":[2,1]`), model + "its mistake 2 moves classes 1 and 1, want two of the 3"},
		{r3(`"mistakeUp":[2,0]`, `"mistakeUp":[3,0]`), model + "its mistake 1 moves classes 3 and 0, want two of the 3"},
		{r3(`"mistakeDown":[0,1]`, `"mistakeDown":[-1,1]`), model + "its mistake 1 moves classes 2 and -1, want two of the 3"},
		{r3(`"weights":[0,0,0]`, `"weights":[0,0]`), model + "it has 2 weights for 3 biases, want a multiple, at least 1"},
		{r3(`"classes":[0,1,2]`, `"classes":[0,1]`), model + "it has 3 biases for 2 classes, want 1"},
	})
}

func TestKernelUnmarshalJSONErrors(t *testing.T) {
	// The good model is the trace of the kernel (x·z)^1: that of the
	// linear kernel does not load, a known bug, tested below.
	g := jtKernelPoly1
	r := jtEdits(t, g)
	fn := `"func":` + jtPoly1
	kn := `"kernel":` + jtPoly1
	model := "perceptron: saved Kernel's model: "
	settings := "perceptron: saved Kernel's settings: "
	cases := append(jtEnvelopeCases(t, "Kernel", g),
		jtCase{r(fn, `"func":{"name":"sigmoid","degree":0,"gamma":0,"coef0":0}`), settings + `kernel "sigmoid" with degree 0, gamma 0 and coef0 0, want linear, poly or rbf with their parameters alone`},
		jtCase{r(fn, `"func":{"name":"linear","degree":0,"gamma":1,"coef0":0}`), settings + `kernel "linear" with degree 0, gamma 1 and coef0 0, want linear`},
		jtCase{r(fn, `"func":{"name":"rbf","degree":2,"gamma":1,"coef0":0}`), settings + `kernel "rbf" with degree 2, gamma 1 and coef0 0`},
		jtCase{r(fn, `"func":{"name":"rbf","gamma":1,"coef0":0.5}`), settings + `kernel "rbf" with degree 0, gamma 1 and coef0 0.5`},
		jtCase{r(fn, `"func":{"name":"poly","degree":-1,"gamma":0,"coef0":0}`), settings + "Poly.Degree is -1, want >= 0"},
		jtCase{r(fn, `"func":{"name":"poly","degree":2,"gamma":-1,"coef0":0}`), settings + "Poly.Gamma is -1, want a finite value >= 0"},
		jtCase{r(fn, `"func":{"name":"rbf","gamma":-1}`), settings + "RBF.Gamma is -1, want a finite value >= 0"},
		jtCase{r(fn, `"func":{"name":"rbf","sigma":1}`), `unknown field "sigma"`},
		jtCase{r(fn, `"func":"rbf"`), "cannot unmarshal string"},
		jtCase{r(`"prediction":"last"`, `"prediction":"median"`), settings + `prediction "median", want last, voted or averaged`},
		jtCase{r(`"prediction":"last",`, ``), settings + `prediction "", want last, voted or averaged`},
		jtCase{r(`"prediction":"last"`, `"prediction":1`), "cannot unmarshal number"},
		jtCase{r(`"budget":0`, `"budget":-1`), settings + "Budget is -1, want >= 0"},
		jtCase{r(`"rate":0`, `"rate":-2`), settings + "Rate is -2"},
		jtCase{r(`"epochs":0`, `"epochs":-1`), settings + "Epochs is -1"},
		jtCase{r(`"labels":null`, `"labels":[1]`), settings + "Labels lists the classes [1], want at least two"},
		jtCase{r(`"labels":null`, `"labels":null,"initWeights":null`), `unknown field "initWeights"`},
		jtCase{r(kn, `"kernel":{"name":"poly","degree":0,"gamma":1,"coef0":0}`), model + "its poly kernel has degree 0 and gamma 1, want the values it was fitted with, > 0"},
		jtCase{r(kn, `"kernel":{"name":"poly","degree":1,"gamma":0,"coef0":0}`), model + "its poly kernel has degree 1 and gamma 0, want the values it was fitted with, > 0"},
		jtCase{r(kn, `"kernel":{"name":"poly","degree":-1,"gamma":1,"coef0":0}`), model + "perceptron: Poly.Degree is -1, want >= 0"},
		jtCase{r(kn, `"kernel":{"name":"rbf","degree":0,"gamma":0,"coef0":0}`), model + "its rbf kernel has degree 0 and gamma 0, want the values it was fitted with"},
		jtCase{r(kn, `"kernel":{"name":"rbf","degree":0,"gamma":-0.5,"coef0":0}`), model + "perceptron: RBF.Gamma is -0.5"},
		jtCase{r(kn, `"kernel":{"name":"sigmoid","degree":0,"gamma":0,"coef0":0}`), model + `kernel "sigmoid" with degree 0, gamma 0 and coef0 0`},
		jtCase{r(kn, `"kernel":{"name":"linear","degree":1,"gamma":1,"coef0":0}`), model + `kernel "linear" with degree 1, gamma 1 and coef0 0`},
		jtCase{r(kn, `"kernel":{"name":"poly","degree":1,"gamma":1,"coef0":0,"sigma":1}`), `unknown field "sigma"`},
		jtCase{r(`"features":1`, `"features":0`), model + "it has 0 features, want 1 to 2^45"},
		jtCase{r(`"features":1`, `"features":-1`), model + "it has -1 features, want 1 to 2^45"},
		jtCase{r(`"features":1`, `"features":35184372088833`), model + "it has 35184372088833 features, want 1 to 2^45"},
		jtCase{r(`"features":1`, `"features":2`), model + "its support vectors: rows of 1 columns, want 2"},
		jtCase{r(`"rows":2,"cols":1`, `"rows":4611686018427387904,"cols":1`), model + "its support vectors: 2 values for 4611686018427387904 rows of 1, want as many"},
		jtCase{r(`"sparse":false,`, `"sparse":true,"starts":[0,1,2],"indices":[0,1],`), model + "its support vectors: row 1: column 1 is out of range [0, 1)"},
		jtCase{r(`"coefficients":[1,-1]`, `"coefficients":[1]`), model + "it has 2 support vectors and 1 coefficients, want 2"},
		jtCase{r(`"coefficients":[1,-1]`, `"coefficients":[1,1e999]`), "cannot unmarshal number 1e999"},
		jtCase{r(`"stepSums":[0]`, `"stepSums":[0,0]`), model + "it has 2 sums of steps for 2 classes, want 1"},
		jtCase{r(`"stepSums":[0]`, `"stepSum":0`), `unknown field "stepSum"`},
		jtCase{r(`"mistakeSteps":[1,-1]`, `"mistakeSteps":[1]`), model + "it has 2 mistake vectors, 1 steps and 2 visits, want as many"},
		jtCase{r(`"mistakeVisits":[1,2]`, `"mistakeVisits":[1,2,3]`), model + "it has 2 mistake vectors, 2 steps and 3 visits, want as many"},
		jtCase{r(`"mistakes":2,"epochMistakes":[2,0]`, `"mistakes":1,"epochMistakes":[1,0]`), model + "it has 2 mistakes, but its stats 1"},
		jtCase{r(`"visits":2000`, `"visits":0`), model + "it has 0 visits, want 1 to 2^53"},
		jtCase{r(`"visits":2000`, `"visits":9007199254740993`), model + "it has 9007199254740993 visits, want 1 to 2^53"},
		// The crafted visits of the issue.
		jtCase{r(`"visits":2000`, `"visits":9223372036854775807`), model + "it has 9223372036854775807 visits, want 1 to 2^53"},
		jtCase{r(`"removed":0`, `"removed":2001`), model + "its last removal is at visit 2001, want 0 to 2000"},
		jtCase{r(`"removed":0`, `"removed":-1`), model + "its last removal is at visit -1, want 0 to 2000"},
		jtCase{r(`"mistakeVectors":[0,1]`, `"mistakeVectors":[0,2]`), model + "its mistake 2 is on support vector 2, want one of its 2"},
		jtCase{r(`"mistakeVectors":[0,1]`, `"mistakeVectors":[0,-1]`), model + "its mistake 2 is on support vector -1, want one of its 2"},
		jtCase{r(`"mistakeVectors":[0,1]`, `"mistakeVectors":[0,0]`), model + "its support vector 1 has no mistake"},
		jtCase{r(`"mistakeVisits":[1,2]`, `"mistakeVisits":[2,2]`), model + "its mistake 2 is at visit 2, want one after the last mistake's and at most 2000"},
		jtCase{r(`"mistakeVisits":[1,2]`, `"mistakeVisits":[2,1]`), model + "its mistake 2 is at visit 1, want one after the last mistake's"},
		jtCase{r(`"mistakeVisits":[1,2]`, `"mistakeVisits":[0,2]`), model + "its mistake 1 is at visit 0, want one after the last mistake's and at most 2000"},
		jtCase{r(`"mistakeVisits":[1,2]`, `"mistakeVisits":[1,2001]`), model + "its mistake 2 is at visit 2001"},
		jtCase{r(`"mistakeVisits":[1,2]`, `"mistakeVisits":[1,9223372036854775807]`), model + "its mistake 2 is at visit 9223372036854775807"},
		jtCase{r(`"classes":[-1,1]`, `"classes":[-1,1,2]`), model + "it has 2 support vectors and 2 coefficients, want 6"},
		jtCase{r(`"classes":[-1,1]`, `"classes":[1,-1]`), model + "the classes [1 -1] are not at least two, ascending"},
		jtCase{r(`"visits"`, `"mistakeUp":[0,0],"mistakeDown":[0,0],"visits"`), model + "it has two classes and the classes its mistakes moved"},
	)
	testUnmarshalJSONErrors(t, &Kernel{}, g, cases)

	// Three classes, of the kernel (x·z)^1.
	g3 := strings.NewReplacer(`"func":null`, fn, `"kernel":{"name":"linear","degree":0,"gamma":0,"coef0":0}`, kn).Replace(jtTraceWant("Kernel/3"))
	r3 := jtEdits(t, g3)
	testUnmarshalJSONErrors(t, &Kernel{}, g3, []jtCase{
		{r3(`"mistakeUp":[2,0],`, ``), model + "it has 2 mistakes and 0 and 2 classes they moved, want as many"},
		{r3(`"mistakeUp":[2,0]`, `"mistakeUp":[0,0]`), model + "its mistake 1 moves classes 0 and 0, want two of the 3"},
		{r3(`"mistakeDown":[0,1]`, `"mistakeDown":[0,3]`), model + "its mistake 2 moves classes 0 and 3, want two of the 3"},
		{r3(`"stepSums":[0,-1,1]`, `"stepSums":[0,-1]`), model + "it has 2 sums of steps for 3 classes, want 3"},
	})

	// The saved linear kernel, which the known bug keeps from loading: its
	// errors are those of the others.
	t.Run("linear", func(t *testing.T) {
		r := jtEdits(t, jtKernelTrace)
		func() {
			testUnmarshalJSONErrors(t, &Kernel{}, jtKernelTrace, []jtCase{
				{r(`"features":1`, `"features":2`), model + "its support vectors: rows of 1 columns, want 2"},
				{r(`"kernel":{"name":"linear","degree":0,"gamma":0`, `"kernel":{"name":"linear","degree":0,"gamma":1`), model + `kernel "linear" with degree 0, gamma 1 and coef0 0`},
				{r(`"rows":2,"cols":1`, `"rows":4611686018427387904,"cols":1`), model + "its support vectors: 2 values for 4611686018427387904 rows of 1, want as many"},
				{r(`"mistakeVectors":[0,1]`, `"mistakeVectors":[0,0]`), model + "its support vector 1 has no mistake"},
			})
		}()
	})
}

func TestOneVsRestUnmarshalJSONErrors(t *testing.T) {
	g := jtOneVsRest
	r := jtEdits(t, g)
	model := "perceptron: saved OneVsRest's model: "
	three := jtTraceWant("OneVsRest/3")
	r3 := jtEdits(t, three)
	member := "(classifier 0 of a saved OneVsRest)"
	// A member of two columns.
	wide := strings.Replace(jtPerceptron, `"weights":[2]`, `"weights":[2,1]`, 1)
	cases := append(jtEnvelopeCases(t, "OneVsRest", g),
		jtCase{r(`"labels":null`, `"labels":[1]`), "perceptron: saved OneVsRest's settings: Labels lists the classes [1], want at least two"},
		jtCase{r(`"labels":null`, `"labels":null,"new":null`), `unknown field "new"`},
		jtCase{r(`"classes":[-1,1],"models"`, `"classes":[1,-1],"models"`), model + "the classes [1 -1] are not at least two, ascending"},
		jtCase{r(`"classes":[-1,1],"models"`, `"classes":[0,1],"models"`), model + "its classifier 0 has the classes [-1 1], want [0 1]"},
		jtCase{r(`"models":[`+jtPerceptron+`]`, `"models":[]`), model + "it has 0 classifiers for 2 classes, want 1"},
		jtCase{r(`"models":[`+jtPerceptron+`]`, `"models":null`), model + "it has 0 classifiers for 2 classes, want 1"},
		jtCase{r(`"models":[`+jtPerceptron+`]`, `"models":[`+jtPerceptron+`,`+jtPerceptron+`]`), model + "it has 2 classifiers for 2 classes, want 1"},
		jtCase{r(`"version":1,"settings":`+jtLinear, `"version":2,"settings":`+jtLinear), "perceptron: saved Perceptron of format version 2, want 1 " + member},
		jtCase{r(`"models":[`+jtPerceptron+`]`, `"models":[[1]]`), "perceptron: not a saved classifier: json: cannot unmarshal array into Go value"},
		jtCase{r(`"models":[`+jtPerceptron+`]`, `"models":[null]`), "perceptron: not a saved classifier: it has no type " + member},
		jtCase{r(`"models":[`+jtPerceptron+`]`, `"models":[{"type":"Margin"}]`), `perceptron: not a saved classifier: type "Margin" is not a classifier of this package ` + member},
		jtCase{r3(`"classes":[-1,1],"weights":[0]`, `"classes":[-1,1],"weights":[0,0]`), model + "its classifier 1 has 2 columns, the first 1"},
		jtCase{r3(`"classes":[-1,1],"weights":[-2]`, `"classes":[0,1],"weights":[-2]`), model + "its classifier 0 has the classes [0 1], want [-1 1]"},
		jtCase{r3(`"models":[`, `"models":[`+wide+`,`), model + "it has 4 classifiers for 3 classes, want 3"},
		jtCase{r3(`"classes":[0,1,2]`, `"classes":[0,1,2,3]`), model + "it has 3 classifiers for 4 classes, want 4"},
	)
	testUnmarshalJSONErrors(t, &OneVsRest{}, g, cases)
}

// TestJSONTrailingData checks that a saved classifier followed by any
// text but white space is an error of UnmarshalJSON, which changes
// nothing, and of Unmarshal.
func TestJSONTrailingData(t *testing.T) {
	for _, tail := range []string{"x", " {}", " 1", "]", "}", "]}}", " ] garbage", "\n}"} {
		t.Run(fmt.Sprintf("%q", tail), func(t *testing.T) {
			for _, good := range []string{jtPerceptron, jtPocket, jtAveraged, jtVoted, jtKernelPoly1, jtOneVsRest} {
				data := []byte(good + tail)
				if m, err := Unmarshal(data); m != nil || err == nil || !strings.HasPrefix(err.Error(), "perceptron: not a saved classifier: ") {
					t.Errorf("Unmarshal(%s): %v, %v", data, m, err)
				}
				m, err := Unmarshal([]byte(good))
				if err != nil {
					t.Fatal(err)
				}
				if isBinary(data) {
					err = m.(interface{ load(form) error }).load(form{data: data, binary: true})
				} else {
					err = m.(json.Unmarshaler).UnmarshalJSON(data)
				}
				if err == nil || !strings.HasSuffix(err.Error(), ": data after the value") {
					t.Errorf("%T.UnmarshalJSON(%s): %v", m, data, err)
				}
				if b, _ := json.Marshal(m); string(b) != good {
					t.Errorf("a failed %T.UnmarshalJSON changes it to %s", m, b)
				}
			}
		})
	}
	// White space after the value is no data.
	for _, good := range []string{jtPerceptron, jtOneVsRest} {
		if _, err := Unmarshal([]byte(good + " \n\t\r")); err != nil {
			t.Errorf("Unmarshal of a saved form and white space: %v", err)
		}
	}
}

// TestJSONInvalidSettingsSaved checks that a classifier whose settings
// were made invalid after Fit either cannot be saved or saves to a file
// that loads, to the same bytes: MarshalJSON never writes a file that
// Unmarshal refuses.
func TestJSONInvalidSettingsSaved(t *testing.T) {
	X, y := twoPoints()
	for _, c := range []struct {
		m      Scorer
		change func(m Scorer)
	}{
		{&Perceptron{}, func(m Scorer) { m.(*Perceptron).Rate = -1 }},
		{&Perceptron{}, func(m Scorer) { m.(*Perceptron).Rate = math.NaN() }},
		{&Perceptron{}, func(m Scorer) { m.(*Perceptron).Labels = []float64{3, 3} }},
		{&Pocket{}, func(m Scorer) { m.(*Pocket).InitWeights = []float64{1, 2} }},
		{&Averaged{}, func(m Scorer) { m.(*Averaged).Epochs = -1 }},
		{&Voted{}, func(m Scorer) { m.(*Voted).InitWeights = []float64{math.Inf(1)} }},
		{&Kernel{Func: RBF{}}, func(m Scorer) { m.(*Kernel).Budget = -1 }},
		{&Kernel{Func: RBF{}}, func(m Scorer) { m.(*Kernel).Func = Poly{Degree: -1} }},
		{&OneVsRest{}, func(m Scorer) { m.(*OneVsRest).Labels = []float64{1} }},
	} {
		if err := c.m.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		c.change(c.m)
		b, err := json.Marshal(c.m)
		if err != nil {
			continue // it cannot be saved
		}
		l, err := Unmarshal(b)
		if err != nil {
			t.Errorf("%T saves as %s, which does not load: %v", c.m, b, err)
			continue
		}
		if again, err := json.Marshal(l); err != nil || !bytes.Equal(again, b) {
			t.Errorf("%T saves as %s, which loads to %s (%v)", c.m, b, again, err)
		}
	}
}

// TestNewSavedLetsGo checks that newSaved lets go of the view that its
// saved holds, once, when it returns an error and when check panics, and
// keeps it when it returns the saved classifier.
func TestNewSavedLetsGo(t *testing.T) {
	for _, c := range []struct {
		name   string
		fitted bool
		check  func() error
		let    int // the times the view is let go of
	}{
		{"saved", true, func() error { return nil }, 0},
		{"not fitted", false, nil, 1},
		{"invalid settings", true, func() error { return errorf(ErrSetting, "perceptron: Rate is -1") }, 1},
		{"a panic of check", true, func() error { panic("check") }, 1},
	} {
		let := 0
		func() {
			defer func() {
				if r := recover(); (r != nil) != (c.name == "a panic of check") {
					t.Errorf("%s: recovered %v", c.name, r)
				}
			}()
			s, err := newSaved("MarshalJSON", c.fitted, c.check, saved{done: func() { let++ }})
			if (err != nil) != (c.let == 1) || (err == nil) != (s.done != nil) {
				t.Errorf("%s: returned a saved with done %t and the error %v", c.name, s.done != nil, err)
			}
		}()
		if let != c.let {
			t.Errorf("%s: the view let go of %d times, want %d", c.name, let, c.let)
		}
	}
}

// TestJSONCraftedWideKernel checks a crafted Kernel of 2^40 features
// whose support vectors, none, are stored dense: it must not load, or
// predict and learn a sparse row without exhausting memory. As running
// out of memory kills the process, the test runs in one of its own.
func TestJSONCraftedWideKernel(t *testing.T) {
	const features = "1099511627776"
	in := strings.NewReplacer(`"features":4`, `"features":`+features,
		`"supportVectors":{"rows":1,"cols":4,"sparse":false,"values":"`+jtB64(1, 0, 0, 0)+`"}`, `"supportVectors":{"rows":0,"cols":`+features+`,"sparse":false,"values":""}`,
		`"coefficients":[1]`, `"coefficients":[]`, `"stepSums":[1]`, `"stepSums":[0]`,
		`"mistakeVectors":[0],"mistakeSteps":[1],"mistakeVisits":[1]`, `"mistakeVectors":[],"mistakeSteps":[],"mistakeVisits":[]`,
		`"mistakes":1,"epochMistakes":[1,0]`, `"mistakes":0,"epochMistakes":[0,0]`, `"converged":true`, `"converged":false`).Replace(jtKernel4)
	if os.Getenv("JT_WIDE_KERNEL") == "1" {
		m, err := Unmarshal([]byte(in))
		if err != nil {
			fmt.Println("refused:", err)
			return
		}
		X, err := NewCSR(1, 1<<40, []int{0, 1}, []int{5}, []float64{-1})
		if err != nil {
			t.Fatal(err)
		}
		m.PredictRows(nil, X)
		err = m.(*Kernel).Learn(X, []float64{1})
		fmt.Println("learned:", err)
		if err == nil {
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Unmarshal(b); err != nil {
				t.Fatalf("after Learn it does not load: %v", err)
			}
		}
		return
	}
	if _, err := Unmarshal([]byte(in)); err != nil {
		return // refused: no need of a process
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestJSONCraftedWideKernel$", "-test.v")
	cmd.Env = append(os.Environ(), "JT_WIDE_KERNEL=1")
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Fatalf("the process of the crafted Kernel: %v\n%.2000s", err, out)
	case !bytes.Contains(out, []byte("learned:")):
		t.Fatalf("the process of the crafted Kernel did not learn:\n%.2000s", out)
	}
}

// TestUnmarshalErrors checks the errors of Unmarshal itself, before it
// knows the type.
func TestUnmarshalErrors(t *testing.T) {
	for _, c := range []jtCase{
		{`null`, "perceptron: not a saved classifier: it has no type"},
		{`{}`, "perceptron: not a saved classifier: it has no type"},
		{`{"type":""}`, "perceptron: not a saved classifier: it has no type"},
		{``, "perceptron: not a saved classifier: unexpected end of JSON input"},
		{`[]`, "perceptron: not a saved classifier: json: cannot unmarshal array"},
		{`{"type":1}`, "perceptron: not a saved classifier: type: json: cannot unmarshal number"},
		{`{"Type":"Perceptron"}`, `perceptron: not a saved classifier: unknown member "Type"`},
		{`{"type":"Margin"}`, `perceptron: not a saved classifier: type "Margin" is not a classifier of this package`},
		{`{"type":"perceptron"}`, `type "perceptron" is not a classifier`},
		{jtPerceptron + `x`, "perceptron: not a saved classifier: invalid character 'x' after top-level value"},
		// A long type is cut short in the message.
		{`{"type":"` + strings.Repeat("a", 1000) + `"}`, `type "` + strings.Repeat("a", 40) + `" is not a classifier`},
	} {
		m, err := Unmarshal([]byte(c.data))
		if m != nil || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Unmarshal(%.80s) = %v, %v, want an error containing %q", c.data, m, err, c.want)
		}
		if err != nil && len(err.Error()) > 200 {
			t.Errorf("Unmarshal(%.80s): an error of %d bytes", c.data, len(err.Error()))
		}
	}
}

// TestJSONSpecialFloats checks that floats that JSON writes in decimal,
// and those that the saved rows hold as their bits, load to the same bits
// and save to the same bytes: the sign of zero, subnormals, the largest
// float64, and fractions that decimals do not hold.
func TestJSONSpecialFloats(t *testing.T) {
	w := []float64{math.Copysign(0, -1), math.SmallestNonzeroFloat64, 1e-300, -math.MaxFloat64, 0.1, 1.0 / 3}
	const ws = `[-0,5e-324,1e-300,-1.7976931348623157e+308,0.1,0.3333333333333333]`
	data := jtSaved("Perceptron", `{"epochs":0,"rate":0,"noBias":false,"initWeights":`+ws+`,"labels":null,"stop":null}`,
		`{"classes":[-1,1],"weights":`+ws+`,"biases":[-0],"throughOrigin":false}`, jtFitStats)
	var p Perceptron
	if err := json.Unmarshal([]byte(data), &p); err != nil {
		t.Fatal(err)
	}
	if gw, gb := p.Weights(); !sameBits(gw, w) || !sameBits(gb, []float64{math.Copysign(0, -1)}) || !sameBits(p.InitWeights, w) {
		t.Errorf("loaded weights %v, biases %v, InitWeights %v", gw, gb, p.InitWeights)
	}
	if again, err := json.Marshal(p); err != nil || string(again) != data {
		t.Errorf("saved as\n%s (%v)\nloaded from\n%s", again, err, data)
	}

	rows := []float64{math.SmallestNonzeroFloat64, math.Copysign(0, -1), -math.MaxFloat64 / 4, 1.0 / 3}
	vdata := strings.NewReplacer(`"rows":{"rows":2,"cols":1,"sparse":false,"values":"`+jtB64(1, -1)+`"}`, `"rows":{"rows":4,"cols":1,"sparse":false,"values":"`+jtB64(rows...)+`"}`,
		`"steps":[1,-1]`, `"steps":[1,-1,1,1]`, `"mistakeRows":[0,1]`, `"mistakeRows":[0,1,2,3]`,
		`"counts":[0,1,1999]`, `"counts":[0,1,1,1,1996]`, `"mistakes":2,"epochMistakes":[2,0]`, `"mistakes":4,"epochMistakes":[4,0]`).Replace(jtVoted)
	var v Voted
	if err := json.Unmarshal([]byte(vdata), &v); err != nil {
		t.Fatal(err)
	}
	if !sameBits(v.rows.data, rows) {
		t.Errorf("loaded rows %v, want %v", v.rows.data, rows)
	}
	if again, err := json.Marshal(v); err != nil || string(again) != vdata {
		t.Errorf("saved as\n%s (%v)\nloaded from\n%s", again, err, vdata)
	}
}

// TestJSONKeepsRandAndOnUpdate checks that Rand, OnUpdate and New, which
// are not data, keep their values when a classifier loads, and serve it
// on.
func TestJSONKeepsRandAndOnUpdate(t *testing.T) {
	for _, data := range []string{jtPerceptron, jtAveraged, jtVoted, jtKernelPoly1} {
		m, err := Unmarshal([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		q := jtFresh(m)
		r := rand.New(rand.NewPCG(1, 2))
		var updates []Update
		v := reflect.ValueOf(q).Elem()
		v.FieldByName("Rand").Set(reflect.ValueOf(r))
		v.FieldByName("OnUpdate").Set(reflect.ValueOf(func(u Update) { updates = append(updates, u) }))
		if err := json.Unmarshal([]byte(data), q); err != nil {
			t.Fatal(err)
		}
		if v.FieldByName("Rand").Interface() != r || v.FieldByName("OnUpdate").IsNil() {
			t.Fatalf("%T: Rand or OnUpdate lost", q)
		}
		// x = -1 labelled +1 is a mistake of every trace: the update of
		// Learn's row 0.
		if err := learnOne(q.(onlineLearner), []float64{-1}, 1); err != nil || len(updates) != 1 || updates[0].Epoch != 0 || updates[0].Row != 0 {
			t.Errorf("%T: Learn after load: %v, updates %+v", q, err, updates)
		}
	}
	newer := func() Scorer { return &Averaged{} }
	o := &OneVsRest{New: newer}
	if err := json.Unmarshal([]byte(jtOneVsRest), o); err != nil {
		t.Fatal(err)
	}
	if reflect.ValueOf(o.New).Pointer() != reflect.ValueOf(newer).Pointer() {
		t.Error("OneVsRest: New lost")
	}
	if _, ok := o.Models()[0].(*Perceptron); !ok {
		t.Errorf("OneVsRest loads a %T, saved a Perceptron", o.Models()[0])
	}
}

// TestMarshalValue checks that every classifier saves the same as a value
// and through a pointer, so that a struct holding one by value saves it,
// and loads it back.
func TestMarshalValue(t *testing.T) {
	X, y := jtClassData(rand.New(rand.NewPCG(223, 224)), 30, 3, 3, false)
	for _, m := range append(jtZeros(), &Kernel{Func: RBF{}}) {
		t.Run(fmt.Sprintf("%T", m), func(t *testing.T) {
			if err := m.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			val := reflect.ValueOf(m).Elem().Interface()
			if got, err := json.Marshal(val); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%T marshals as a value to %s (%v), through a pointer to %s", m, got, err, want)
			}
			// A struct holding it by value.
			holder := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "M", Type: reflect.TypeOf(val), Tag: `json:"m"`}}))
			holder.Elem().Field(0).Set(reflect.ValueOf(val))
			b, err := json.Marshal(holder.Interface())
			if err != nil || string(b) != `{"m":`+string(want)+`}` {
				t.Fatalf("%T in a struct saves as %s (%v)", m, b, err)
			}
			back := reflect.New(holder.Elem().Type())
			err = json.Unmarshal(b, back.Interface())
			if err != nil {
				t.Fatal(err)
			}
			if again, err := json.Marshal(back.Elem().Field(0).Addr().Interface()); err != nil || !bytes.Equal(again, want) {
				t.Fatalf("%T in a struct loads to %s (%v)", m, again, err)
			}
		})
	}
}

// TestJSONSettingsChangedAfterFit checks that settings changed after Fit
// save and load, while the model keeps what it was fitted with: it scores
// as before the change, under every rule, after a load.
func TestJSONSettingsChangedAfterFit(t *testing.T) {
	X, y := jtClassData(rand.New(rand.NewPCG(225, 226)), 20, 2, 3, false)
	T, _ := jtClassData(rand.New(rand.NewPCG(227, 228)), 20, 2, 2, true)
	for k, c := range []struct {
		m      Scorer
		change func(m Scorer)
	}{
		{&Perceptron{}, func(m Scorer) { p := m.(*Perceptron); p.Rate, p.Epochs, p.Labels = 3, 5, []float64{-7, 2.5, 4, 100} }},
		{&Pocket{}, func(m Scorer) { m.(*Pocket).Ratchet = true }},
		{&Averaged{}, func(m Scorer) { a := m.(*Averaged); a.Epochs, a.InitWeights = 2, []float64{1, 2, 3, 4, 5, 6} }},
		{&Voted{}, func(m Scorer) { m.(*Voted).NoBias = true }},
		{&Kernel{}, func(m Scorer) {
			k := m.(*Kernel)
			k.Func, k.NoBias, k.Prediction, k.Budget = RBF{Gamma: 2}, true, PredictAveraged, 3
		}},
		{&Kernel{Func: jtPoly1Func, Prediction: PredictVoted}, func(m Scorer) {
			k := m.(*Kernel)
			k.Func, k.NoBias, k.Prediction, k.Epochs, k.Labels = nil, true, PredictLast, 4, []float64{-7, 2.5, 4}
		}},
		{&OneVsRest{}, func(m Scorer) { m.(*OneVsRest).Labels = []float64{-7, 2.5, 4} }},
	} {
		t.Run(fmt.Sprintf("%T/%d", c.m, k), func(t *testing.T) {
			if err := c.m.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			before, classes := jtScores(c.m, T)
			c.change(c.m)
			func() {
				q := jtCheckRoundTrip(t, fmt.Sprintf("%T", c.m), c.m, T)
				if after, cl := jtScores(q, T); !sameBits(after, before) || !slices.Equal(cl, classes) {
					t.Errorf("%T: scores %v after the change and a load, %v before", c.m, after, before)
				}
			}()
		})
	}
	// A Prediction out of range cannot be saved: MarshalJSON returns an
	// error, as Predict panics with one.
	for _, p := range []Prediction{3, -1} {
		t.Run(fmt.Sprintf("Prediction %d", p), func(t *testing.T) {
			k := &Kernel{}
			if err := k.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			k.Prediction = p
			var b []byte
			var err error
			b, err = json.Marshal(k)
			if err == nil || !strings.Contains(err.Error(), "perceptron: ") {
				t.Errorf("Marshal of a Kernel of Prediction %d: %s, %v", p, b, err)
			}
		})
	}
}

// jtKernel4 is a Kernel of four features, made by hand: x = (1, 0, 0, 0)
// of label +1 was its one mistake, at visit 1 of the 8 of two epochs of
// four rows, under the kernel (x·z)^1; its settings name the linear
// kernel, which it would be fitted with today. The mistake is on the
// empty hypothesis's score 0, a loss of 0, and epoch 2 makes none: the
// losses are 0 and 0.
var jtKernel4 = jtSaved("Kernel", jtKernelZero, `{"classes":[-1,1],"kernel":`+jtPoly1+`,"features":4,"throughOrigin":false,"supportVectors":{"rows":1,"cols":4,"sparse":false,"values":"`+jtB64(1, 0, 0, 0)+`"},"coefficients":[1],"stepSums":[1],"mistakeVectors":[0],"mistakeSteps":[1],"mistakeVisits":[1],"visits":8,"removed":0}`,
	`{"epochs":2,"converged":true,"mistakes":1,"epochMistakes":[1,0],"epochLoss":[0,0]}`)

// jtCrafted are the crafted inputs of the issue, and others like them:
// sizes and counts that would allocate far beyond the file, or wrap
// around, if used before they are checked.
func jtCrafted() []jtCase {
	sv := `"supportVectors":{"rows":1,"cols":4,"sparse":false,"values":"` + jtB64(1, 0, 0, 0) + `"}`
	k := func(repl string, want string) jtCase {
		return jtCase{strings.Replace(jtKernel4, sv, repl, 1), want}
	}
	r := func(g string, pairs ...string) string { return strings.NewReplacer(pairs...).Replace(g) }
	return []jtCase{
		k(`"supportVectors":{"rows":4611686018427387904,"cols":4,"sparse":false,"values":"`+jtB64(1, 0, 0, 0)+`"}`, "its support vectors: 4 values for 4611686018427387904 rows of 4, want as many"),
		k(`"supportVectors":{"rows":4611686018427387904,"cols":4,"sparse":false,"values":""}`, "its support vectors: 0 values for 4611686018427387904 rows of 4, want as many"),
		k(`"supportVectors":{"rows":4611686018427387904,"cols":4,"sparse":true,"starts":[0,1],"indices":[0],"values":"`+jtB64(1)+`"}`, "its support vectors: 2 starts for 4611686018427387904 sparse rows, want one more"),
		k(`"supportVectors":{"rows":9223372036854775807,"cols":4,"sparse":true,"starts":[0,1],"indices":[0],"values":"`+jtB64(1)+`"}`, "its support vectors: 2 starts for 9223372036854775807 sparse rows, want one more"),
		k(`"supportVectors":{"rows":1,"cols":4611686018427387904,"sparse":false,"values":"`+jtB64(1, 0, 0, 0)+`"}`, "its support vectors: rows of 4611686018427387904 columns, want 4"),
		{r(jtKernel4, `"features":4`, `"features":4611686018427387904`), "it has 4611686018427387904 features, want 1 to 2^45"},
		{r(jtKernel4, `"mistakeVisits":[1]`, `"mistakeVisits":[9223372036854775807]`), "its mistake 1 is at visit 9223372036854775807"},
		{r(jtKernel4, `"visits":8`, `"visits":9223372036854775807`), "it has 9223372036854775807 visits, want 1 to 2^53"},
		{r(jtKernel4, `"epochMistakes":[1,0]`, `"epochMistakes":[9223372036854775807,1]`, `"converged":true`, `"converged":false`), "stats: epoch 1 has 9223372036854775807 mistakes, want 0 to 2^53 in all"},
		{r(jtPerceptron, `"epochMistakes":[2,0]`, `"epochMistakes":[9223372036854775807,1]`, `"converged":true`, `"converged":false`), "stats: epoch 1 has 9223372036854775807 mistakes, want 0 to 2^53 in all"},
		{r(jtAveraged, `"visits":2000`, `"visits":9223372036854775807`), "it has 9223372036854775807 visits, 0 ahead"},
		{r(jtAveraged, `"visits":2000`, `"visits":9223372036854775807`, `"ahead":0`, `"ahead":9223372036854775807`), "it has 9223372036854775807 visits, 9223372036854775807 ahead"},
		{r(jtVoted, `"counts":[0,1,1999]`, `"counts":[0,1,9223372036854775807]`), "its count 2 is 9223372036854775807"},
		{r(jtVoted, `"counts":[0,1,1999]`, `"counts":[9223372036854775807,9223372036854775807,9223372036854775807]`), "its first count is 9223372036854775807"},
		{r(jtVoted, `"rows":2,"cols":1`, `"rows":4611686018427387904,"cols":1`), "2 values for 4611686018427387904 rows of 1, want as many"},
		{r(jtPerceptron, `"classes":[-1,1]`, `"classes":[-1,1,2,3,4,5,6,7,8,9]`, `"weights":[2]`, `"weights":[2,2,2,2,2,2,2,2,2]`), "it has 1 biases for 10 classes, want 10"},
	}
}

// TestJSONCrafted checks that the crafted inputs give their errors, with
// no panic, allocating little, through Unmarshal and UnmarshalJSON; and
// that the hand-made Kernel they are made from loads, and predicts by
// its one support vector.
func TestJSONCrafted(t *testing.T) {
	k, err := Unmarshal([]byte(jtKernel4))
	if err != nil {
		t.Fatal(err)
	}
	// f(x) = x_0 + 1.
	if got := k.ScoreRows(nil, mat.NewDense(2, 4, []float64{1, 5, 5, 5, -3, 0, 0, 1})); !slices.Equal(got, []float64{2, -2}) {
		t.Errorf("the hand-made Kernel scores %v, want [2 -2]", got)
	}
	for _, c := range jtCrafted() {
		var m Scorer
		alloc := jtAllocated(func() { m, err = Unmarshal([]byte(c.data)) })
		if m != nil || err == nil || !strings.HasPrefix(err.Error(), "perceptron: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Unmarshal(%s):\n%v, %v, want an error containing %q", c.data, m, err, c.want)
		}
		if alloc > 64*uint64(len(c.data))+1<<20 {
			t.Errorf("Unmarshal(%s) allocates %d bytes", c.data, alloc)
		}
	}
}

// TestJSONVisitLimit checks that counts of visits stop at 2^53, the
// largest count a float64 holds exactly: a model saved at 2^53-1 visits
// learns one row more, to 2^53, and then returns an error rather than
// wrap around, changing nothing; and Fit of 2^53 visits runs, while one
// of more returns an error.
func TestJSONVisitLimit(t *testing.T) {
	const below, limit = "9007199254740991", "9007199254740992"
	for _, c := range []struct {
		name, data, after string
	}{
		{"Averaged", strings.Replace(jtAveraged, `"visits":2000`, `"visits":`+below, 1), `"visits":` + limit},
		{"Voted", strings.Replace(jtVoted, `"counts":[0,1,1999]`, `"counts":[0,1,9007199254740990]`, 1), `"counts":[0,1,9007199254740990,1]`},
		{"Kernel", strings.Replace(jtKernelPoly1, `"visits":2000`, `"visits":`+below, 1), `"visits":` + limit},
	} {
		m, err := Unmarshal([]byte(c.data))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		l := m.(onlineLearner)
		// Two rows would pass the limit.
		X, y := twoPoints()
		if err := l.Learn(X, y); err == nil || !strings.Contains(err.Error(), "2^53") {
			t.Errorf("%s: Learn of 2 rows at 2^53-1 visits: %v", c.name, err)
		}
		if b, _ := json.Marshal(m); string(b) != c.data {
			t.Errorf("%s: a failed Learn changes the model to %s", c.name, b)
		}
		// x = -1 labelled +1 is a mistake of every trace.
		if err := learnOne(l, []float64{-1}, 1); err != nil {
			t.Fatalf("%s: Learn of the row that reaches 2^53 visits: %v", c.name, err)
		}
		at, _ := json.Marshal(m)
		if !strings.Contains(string(at), c.after) {
			t.Errorf("%s: after the visit that reaches 2^53 it saves as %s, want it to contain %s", c.name, at, c.after)
		}
		if _, err := Unmarshal(at); err != nil {
			t.Errorf("%s: at 2^53 visits it does not load: %v", c.name, err)
		}
		for _, yl := range []float64{1, -1} {
			if err := learnOne(l, []float64{-1}, yl); err == nil || !strings.HasPrefix(err.Error(), "perceptron: ") || !strings.Contains(err.Error(), "2^53") {
				t.Errorf("%s: Learn at 2^53 visits: %v", c.name, err)
			}
		}
		if b, _ := json.Marshal(m); !bytes.Equal(b, at) {
			t.Errorf("%s: a failed Learn at 2^53 visits changes the model to %s", c.name, b)
		}
		if s := m.ScoreRows(nil, X); nonFinite(s) >= 0 {
			t.Errorf("%s: scores %v at 2^53 visits", c.name, s)
		}
	}
	// Fit: two rows for 2^52 epochs are 2^53 visits, counted in closed
	// form after the run converges; one epoch more is an error.
	X, y := twoPoints()
	for _, m := range []Scorer{&Averaged{}, &Voted{}, &Kernel{Func: jtPoly1Func}} {
		v := reflect.ValueOf(m).Elem().FieldByName("Epochs")
		v.SetInt(1 << 52)
		if err := m.Fit(X, y); err != nil {
			t.Fatalf("%T: Fit of 2^53 visits: %v", m, err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Unmarshal(b); err != nil {
			t.Errorf("%T: a Fit of 2^53 visits does not load: %v", m, err)
		}
		if err := learnOne(m.(onlineLearner), []float64{-1}, 1); err == nil || !strings.Contains(err.Error(), "2^53") {
			t.Errorf("%T: Learn after a Fit of 2^53 visits: %v", m, err)
		}
		v.SetInt(1<<52 + 1)
		if err := m.Fit(X, y); err == nil || err.Error() != "perceptron: 4503599627370497 epochs of 2 rows pass 2^53 visits, the most a model counts exactly" {
			t.Errorf("%T: Fit of more than 2^53 visits: %v", m, err)
		}
	}
}

// jtAllocLimit is the most bytes that Unmarshal may allocate on an input
// of n bytes: 64·n + 1 MiB. Decoding reads the input a bounded number of
// times, each costing a few times its length: a scan for the type, the
// envelope's decoder (whose buffer grows by doubling, up to about 4n in
// all) and its copies of the settings and the model, the model's decoder
// likewise, and the values, where each number of at least two bytes
// ("0,") becomes 8 bytes of an int or a float64 in a slice grown by
// doubling (8n at most), and base64 becomes 3/4 of its length in bytes
// and again in float64s; loading then copies what it checks (Voted's
// running weights, Kernel's norms and mistakes, some 40 bytes per mistake
// of at least 6 bytes), and OneVsRest decodes its classifiers once more.
// That is some 30n at worst; 64n leaves room, while a size or count used
// before it is checked, or a structure decoded once per level of its
// nesting, passes it on any input of some length. The 1 MiB is for
// what does not grow with n: the types encoding/json caches on first
// use, and the messages of errors.
func jtAllocLimit(n int) uint64 { return 64*uint64(n) + 1<<20 }

// TestUnmarshalAllocs checks the allocations of Unmarshal against
// jtAllocLimit on large inputs, valid and not: long arrays, many rows and
// mistakes, and OneVsRest, whose classifiers decode twice.
func TestUnmarshalAllocs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(231, 232))
	var inputs []string
	// Long arrays of the shortest numbers.
	weights := "[" + strings.Repeat("0,", 300000) + "0]"
	inputs = append(inputs,
		strings.Replace(jtPerceptron, `"weights":[2]`, `"weights":`+weights, 1),
		strings.Replace(jtPerceptron, `"epochMistakes":[2,0]`, `"epochMistakes":`+weights, 1),
		strings.Replace(jtVoted, `"mistakeRows":[0,1]`, `"mistakeRows":`+weights, 1),
		strings.Replace(jtKernelPoly1, `"mistakeVectors":[0,1]`, `"mistakeVectors":`+weights, 1),
		strings.Replace(jtVoted, `"values":"`+jtB64(1, -1)+`"`, `"values":"`+strings.Repeat("A", 400000)+`"`, 1),
		// Long arrays of what is not a number, and many members.
		strings.Replace(jtOneVsRest, `"models":[`+jtPerceptron+`]`, `"models":`+weights, 1),
		strings.Replace(jtPerceptron, `{"type":"Perceptron",`, `{"type":"Perceptron",`+strings.Repeat(`"":0,`, 200000), 1),
	)
	// Models of many rows and mistakes, saved.
	X, y := jtClassData(rnd, 3000, 20, 2, true)
	for _, m := range []Scorer{
		&Voted{Epochs: 3}, &Kernel{Epochs: 2, Func: jtPoly1Func}, &Kernel{Epochs: 2, Func: RBF{}, Prediction: PredictVoted}, &Averaged{Epochs: 2},
		&OneVsRest{New: func() Scorer { return &Voted{Epochs: 2} }},
	} {
		yy := y
		if _, ok := m.(*OneVsRest); ok {
			_, yy = jtClassData(rnd, 3000, 20, 4, true)
		}
		if err := m.Fit(jtCSR(X), yy); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(b))
	}
	// Warm up the caches of encoding/json.
	for _, in := range inputs {
		Unmarshal([]byte(in))
	}
	for _, in := range inputs {
		var err error
		alloc := jtAllocated(func() { _, err = Unmarshal([]byte(in)) })
		if alloc > jtAllocLimit(len(in)) {
			t.Errorf("Unmarshal of %d bytes (%.60s...) allocates %d bytes, %.1f a byte; loads: %v", len(in), in, alloc, float64(alloc)/float64(len(in)), err)
		}
	}
}

// jtNested returns a saved OneVsRest nested depth times, whose innermost
// classifier is inner: each level has the classes -1 and +1, its one
// classifier's.
func jtNested(depth int, inner string) string {
	return strings.Repeat(`{"type":"OneVsRest","version":1,"settings":{"labels":null},"model":{"classes":[-1,1],"models":[`, depth) + inner + strings.Repeat(`]}}`, depth)
}

// TestUnmarshalNestedOneVsRest checks that a saved OneVsRest whose
// classifier is a saved OneVsRest, which Fit never makes, is an error, at
// any depth, and that nesting does not make a file allocate beyond
// jtAllocLimit.
func TestUnmarshalNestedOneVsRest(t *testing.T) {
	// OneVsRest.Fit refuses one of its own kind as a classifier.
	o := &OneVsRest{New: func() Scorer { return &OneVsRest{} }}
	X, y := twoPoints()
	if err := o.Fit(X, y); err == nil || err.Error() != "perceptron: OneVsRest.New returned *perceptron.OneVsRest, want a classifier of this package" {
		t.Errorf("Fit of OneVsRest of OneVsRest: %v", err)
	}
	func() {
		for _, depth := range []int{2, 3, 10} {
			in := jtNested(depth, jtPerceptron)
			m, err := Unmarshal([]byte(in))
			if m != nil || err == nil || !strings.HasPrefix(err.Error(), "perceptron: ") {
				t.Errorf("Unmarshal of OneVsRest nested %d deep: %v, %v", depth, m, err)
			}
		}
	}()
	// Deep nesting of classifiers that are not one, which fail at the
	// bottom, once every level has been decoded.
	for _, depth := range []int{100, 1000} {
		in := jtNested(depth, "1")
		var err error
		alloc := jtAllocated(func() { _, err = Unmarshal([]byte(in)) })
		if err == nil {
			t.Errorf("Unmarshal of OneVsRest nested %d deep loads", depth)
		}
		if alloc > jtAllocLimit(len(in)) || len(err.Error()) > 10000 {
			t.Errorf("Unmarshal of a OneVsRest nested %d deep, %d bytes, allocates %d bytes and errs with %d bytes of message", depth, len(in), alloc, len(err.Error()))
		}
	}
}

// jtFuzzModels are a saved classifier of every type, for FuzzUnmarshal to
// load into before it loads its input.
var jtFuzzModels = sync.OnceValue(func() map[string][]byte {
	saved := map[string][]byte{}
	X, y := jtThreeRows()
	for _, m := range jtZeros() {
		reflect.ValueOf(m).Elem().FieldByName("Labels").Set(reflect.ValueOf([]float64{0, 1, 2}))
		if k, ok := m.(*Kernel); ok {
			k.Func = jtPoly1Func
		}
		if err := m.Fit(X, y); err != nil {
			panic(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			panic(err)
		}
		saved[reflect.TypeOf(m).Elem().Name()] = b
	}
	return saved
})

// jtFuzzSeeds returns the seeds of FuzzUnmarshal: the hand traces, of
// Stop too, a classifier of every kind fitted on random data, dense and
// sparse, the crafted inputs, the binary forms of btForms, and nested
// OneVsRest.
func jtFuzzSeeds() []string {
	var seeds []string
	for _, tr := range append(jtTraces(), esJSONTraces()...) {
		seeds = append(seeds, tr.want)
	}
	rnd := rand.New(rand.NewPCG(233, 234))
	for k, kind := range jtKinds() {
		X, y := jtClassData(rnd, 6, 1+rnd.IntN(3), 2+k%2, k%3 == 0)
		m := kind.make(rnd, k, X.RawMatrix().Cols, slices.Compact(slices.Sorted(slices.Values(y))))
		var data mat.Matrix = X
		if k%2 == 1 {
			data = jtCSR(X)
		}
		if err := m.Fit(data, y); err != nil {
			panic(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			panic(err)
		}
		seeds = append(seeds, string(b))
	}
	for _, c := range jtCrafted() {
		seeds = append(seeds, c.data)
	}
	for _, b := range btForms(nil) {
		seeds = append(seeds, string(b))
	}
	seeds = append(seeds, poFuzzSeeds()...)
	return append(seeds, jtKernel4, jtNested(2, jtPerceptron), jtNested(3, "1"), "null", "{}", `{"type":"Kernel"}`)
}

// jtFuzzRows returns rows of d columns, from the bytes of data: dense if
// d is small enough to hold them so, and always as a CSR.
func jtFuzzRows(d int, data []byte) []mat.Matrix {
	const n = 3
	vals := [n]float64{0, 1.5, -1e300}
	for k, b := range data[:min(len(data), n)] {
		vals[k] = float64(int8(b)) / 4
	}
	ptr, ind, val := []int{0}, []int{}, []float64{}
	for i := range n {
		for _, j := range []int{0, d / 2, d - 1} {
			if len(ind) > ptr[i] && ind[len(ind)-1] >= j {
				continue
			}
			ind, val = append(ind, j), append(val, vals[i]*float64(j+1))
		}
		ptr = append(ptr, len(ind))
	}
	S, err := NewCSR(n, d, ptr, ind, val)
	if err != nil {
		panic(err)
	}
	rows := []mat.Matrix{S}
	if d <= 1<<12 {
		X := mat.NewDense(n, d, nil)
		X.Copy(S)
		rows = append(rows, X)
	}
	return rows
}

// FuzzUnmarshal checks Unmarshal on any input: it must not panic, nor
// allocate beyond jtAllocLimit and two tables of the weights that the
// headers of binary forms in it give; an error must start with
// perceptron:, that of text that is not JSON name its syntax, and
// UnmarshalJSON of the type the input names must fail too and leave its
// classifier as it was; and a classifier that loads must save, to a form
// that loads to a classifier that saves to the same bytes, and that
// scores and classifies rows of its width, dense and sparse, without a
// panic and as the first one does; a binary form's model too as
// btCheckLoad says.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range jtFuzzSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tables := btTableFloats(data)
		if tables > 1<<20 {
			t.Skip("a binary form of more than 2^20 weights")
		}
		var m Scorer
		var err error
		alloc := jtAllocated(func() { m, err = Unmarshal(data) })
		if alloc > jtAllocLimit(len(data))+16*tables {
			t.Fatalf("Unmarshal of %d bytes allocates %d: %q", len(data), alloc, data)
		}
		// Text that is not JSON is refused for its syntax, whatever else
		// is wrong with it, as a check of its syntax first would.
		if !isBinary(data) && !json.Valid(data) {
			want := "perceptron: not a saved classifier: " + json.Unmarshal(data, new(struct{})).Error()
			if err == nil || err.Error() != want {
				t.Fatalf("Unmarshal(%q): %v, want %q", data, err, want)
			}
		}
		if err != nil {
			if m != nil || !strings.HasPrefix(err.Error(), "perceptron: ") {
				t.Fatalf("Unmarshal returns %v and the error %q", m, err)
			}
			jtFuzzFailedLoad(t, data)
			return
		}
		if isBinary(data) {
			btCheckLoad(t, data)
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("loaded %q but cannot save it: %v", data, err)
		}
		again, err := Unmarshal(out)
		if err != nil {
			t.Fatalf("saved %s but cannot load it: %v", out, err)
		}
		if b, err := json.Marshal(again); err != nil || !bytes.Equal(b, out) {
			t.Fatalf("saved %s, then %s (%v)", out, b, err)
		}
		for _, X := range jtFuzzRows(jtWidth(m), data) {
			s1, s2 := m.ScoreRows(nil, X), again.ScoreRows(nil, X)
			c1, c2 := m.PredictRows(nil, X), again.PredictRows(nil, X)
			if !sameBits(s1, s2) || !sameBits(c1, c2) {
				t.Fatalf("%s: scores %v, classes %v; loaded again %v, %v", out, s1, c1, s2, c2)
			}
		}
	})
}

// jtFuzzFailedLoad checks that UnmarshalJSON of data, which Unmarshal
// refuses, into a fitted classifier of the type data names, or a
// Perceptron, fails too and leaves it as it was. The JSON null loads as
// nothing.
func jtFuzzFailedLoad(t *testing.T, data []byte) {
	var head struct{ Type string }
	json.Unmarshal(data, &head)
	if isBinary(data) {
		head.Type, _ = (&form{data: data, binary: true}).savedType()
	}
	saved, ok := jtFuzzModels()[head.Type]
	if !ok {
		head.Type, saved = "Perceptron", jtFuzzModels()["Perceptron"]
	}
	m, err := Unmarshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	if isBinary(data) {
		err = m.(interface{ load(form) error }).load(form{data: data, binary: true})
	} else {
		err = m.(json.Unmarshaler).UnmarshalJSON(data)
	}
	if string(data) == "null" {
		if err != nil {
			t.Fatalf("%s.UnmarshalJSON(null): %v", head.Type, err)
		}
	} else if err == nil || !strings.HasPrefix(err.Error(), "perceptron: ") {
		t.Fatalf("Unmarshal refuses %q, but %s.UnmarshalJSON returns %v", data, head.Type, err)
	}
	if b, err := json.Marshal(m); err != nil || !bytes.Equal(b, saved) {
		t.Fatalf("a failed %s.UnmarshalJSON(%q) changes it to %s (%v)", head.Type, data, b, err)
	}
}
