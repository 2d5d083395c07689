// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// The weights of the classes: the setting ClassWeight of every classifier,
// Balanced, which computes scikit-learn's "balanced" weights, and the
// weight of each class of a data set, by which its mistakes step.

// Balanced returns the weight of each class of the labels y that
// balances the classes, as scikit-learn's class_weight="balanced"
// computes it: n/(K·n_c) for a class of n_c of the n labels, K being the
// number of distinct labels, so that each class weighs n/K in all. It
// returns nil if y is empty, and panics if a label is NaN, which no map
// can hold as a key. It costs O(n log K) time, and holds the K classes and
// their counts.
func Balanced(y []float64) map[float64]float64 {
	if len(y) == 0 {
		return nil
	}
	if i := slices.IndexFunc(y, math.IsNaN); i >= 0 {
		panic(fmt.Sprintf("perceptron: Balanced: y[%d] is NaN", i))
	}
	classes := distinct(y)
	count := make([]int, len(classes))
	if len(classes) == 2 {
		for _, v := range y {
			if v == classes[1] {
				count[1]++
			}
		}
		count[0] = len(y) - count[1]
	} else {
		for _, v := range y {
			c, _ := slices.BinarySearch(classes, v)
			count[c]++
		}
	}
	// As scikit-learn's compute_class_weight: len(y) / (K * bincount(y)),
	// in float64, which gives the same bits.
	w := make(map[float64]float64, len(classes))
	K := float64(len(classes))
	for c, v := range classes {
		w[v] = float64(len(y)) / (K * float64(count[c]))
	}
	return w
}

// classWeights returns the weight of each of the classes, in their
// order, that the setting ClassWeight w gives: its value for a class it
// has, and 1 for one it lacks; or nil if w is empty, every weight 1. It
// returns an error, naming the least class at fault, if a weight is not a
// finite value > 0, or if w weighs a value that is not one of the
// classes, as a mistyped class would.
func classWeights(w map[float64]float64, classes []float64) ([]float64, error) {
	if len(w) == 0 {
		return nil, nil
	}
	pairs := weightPairs(w)
	weight := make([]float64, len(classes))
	for c := range weight {
		weight[c] = 1
	}
	for _, p := range pairs {
		c, ok := slices.BinarySearch(classes, p.Class)
		switch {
		case !(p.Weight > 0) || !finite(p.Weight):
			return nil, badSetting(p.Weight, "perceptron: ClassWeight[%v] is %v, want a finite weight > 0", p.Class, p.Weight)
		case !ok:
			return nil, badSetting(p.Class, "perceptron: ClassWeight weighs %v, which is not one of the classes %v", p.Class, classes)
		}
		weight[c] = p.Weight
	}
	return weight, nil
}

// classWeightJSON is the JSON form of the weight of a class. ClassWeight
// saves as a list of them in the order of the classes: JSON's object keys
// are strings, which a class value would have to be parsed from.
type classWeightJSON struct {
	Class  float64 `json:"class"`
	Weight float64 `json:"weight"`
}

// weightPairs returns the weights of w in the order of their classes, a
// NaN class first.
func weightPairs(w map[float64]float64) []classWeightJSON {
	if len(w) == 0 {
		return nil
	}
	pairs := make([]classWeightJSON, 0, len(w))
	for c, v := range w {
		pairs = append(pairs, classWeightJSON{c, v})
	}
	slices.SortFunc(pairs, func(a, b classWeightJSON) int { return cmp.Compare(a.Class, b.Class) })
	return pairs
}

// weightMap returns the setting ClassWeight that the saved pairs give,
// or nil if there are none.
func weightMap(pairs []classWeightJSON) map[float64]float64 {
	if len(pairs) == 0 {
		return nil
	}
	w := make(map[float64]float64, len(pairs))
	for _, p := range pairs {
		w[p.Class] = p.Weight
	}
	return w
}

// checkWeights returns an error if the saved pairs are not in the order
// of their classes, each once, as ClassWeight saves, or not weights that
// Fit would take for the classes.
func checkWeights(pairs []classWeightJSON, classes []float64) error {
	if len(pairs) > len(classes) {
		// Checked before weightMap allocates.
		return errorf(ErrSetting, "perceptron: ClassWeight has %d weights for %d classes, want at most one a class", len(pairs), len(classes))
	}
	for k := 1; k < len(pairs); k++ {
		if !(pairs[k].Class > pairs[k-1].Class) {
			return errorf(ErrSetting, "perceptron: ClassWeight weighs %v after %v, want the classes ascending, each once", pairs[k].Class, pairs[k-1].Class)
		}
	}
	_, err := classWeights(weightMap(pairs), classes)
	return err
}

// checkClassSettings returns an error if the settings Labels, if not nil,
// and ClassWeight, as its pairs, are not valid for a model of the classes.
func checkClassSettings(labels []float64, pairs []classWeightJSON, classes []float64) error {
	if labels != nil {
		if _, err := checkLabels(labels); err != nil {
			return err
		}
	}
	return checkWeights(pairs, classes)
}

// weigh sets the weight of each class of ds to what the setting
// ClassWeight cw gives, and that of each row to w, if it is not empty, or
// returns an error naming the first weight at fault: w must hold a finite
// weight >= 0 for each row.
func (ds *dataset) weigh(cw map[float64]float64, w []float64) error {
	weight, err := classWeights(cw, ds.classes)
	if err != nil {
		return err
	}
	if len(w) == 0 {
		w = nil
	} else if len(w) != ds.n {
		return errorf(ErrShape, "perceptron: w has length %d, want %d (the number of rows of X)", len(w), ds.n)
	}
	for i, v := range w {
		switch {
		case !finite(v):
			return errorAt(ErrNonFinite, i, -1, "perceptron: w[%d] is %v, want a finite weight >= 0", i, v)
		case v < 0:
			return errorAt(ErrSetting, i, -1, "perceptron: w[%d] is %v, want a finite weight >= 0", i, v)
		}
	}
	ds.weight, ds.rowWeight = weight, w
	return nil
}

// rate returns the step of a mistake on row i at the learning rate rate:
// rate times the product of the weights of the row's class and of the
// row, as scikit-learn's SGD forms it. Its sign is the rule's to give.
func (ds *dataset) rate(i int, rate float64) float64 {
	w := ds.weightOf(i)
	if ds.weight != nil {
		w *= ds.weight[ds.class(i)]
	}
	return rate * w
}

// weightOf returns the weight of row i.
func (ds *dataset) weightOf(i int) float64 {
	if ds.rowWeight == nil {
		return 1
	}
	return ds.rowWeight[i]
}
