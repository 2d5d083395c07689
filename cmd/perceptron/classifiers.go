// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"flag"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/seed5ae3614e/perceptron"
)

// classifiers are the classifiers that the command trains, in the order of
// its tables. Each builds its classifier from the settings flags.
var classifiers = []struct {
	name string
	make func(o *options) perceptron.Scorer
}{
	{"perceptron", func(o *options) perceptron.Scorer {
		return &perceptron.Perceptron{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, ClassWeight: o.classWeight, OnUpdate: o.onUpdate(), Stop: o.stopRule()}
	}},
	{"pocket", func(o *options) perceptron.Scorer {
		return &perceptron.Pocket{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, ClassWeight: o.classWeight, OnUpdate: o.onUpdate(), Ratchet: o.ratchet, Stop: o.stopRule()}
	}},
	{"averaged", func(o *options) perceptron.Scorer {
		return &perceptron.Averaged{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, ClassWeight: o.classWeight, OnUpdate: o.onUpdate(), Stop: o.stopRule()}
	}},
	{"voted", func(o *options) perceptron.Scorer {
		return &perceptron.Voted{Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias,
			InitWeights: o.initWeights, Labels: o.labels, ClassWeight: o.classWeight, OnUpdate: o.onUpdate(), Stop: o.stopRule()}
	}},
	{"kernel", func(o *options) perceptron.Scorer {
		return &perceptron.Kernel{Func: o.kernelFunc(), Prediction: o.prediction, Budget: o.budget,
			Epochs: o.epochs, Rate: o.rate, Rand: o.rand(), NoBias: o.noBias, Labels: o.labels, ClassWeight: o.classWeight, OnUpdate: o.onUpdate(), Stop: o.stopRule()}
	}},
}

// defaultClassifier is the classifier that train fits without
// -classifier: the averaged perceptron, the most accurate of those whose
// cost grows with the rows alone, as the peers' defaults are accurate.
const defaultClassifier = "averaged"

// classifierNames returns the names of the classifiers, for messages.
func classifierNames() string {
	var names []string
	for _, c := range classifiers {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ") + ", or " + ovr + "NAME of one of them"
}

// ovr is the prefix of a classifier that learns each class against the
// rest with the classifier it names, as perceptron.OneVsRest does:
// ovr:averaged.
const ovr = "ovr:"

// newModel returns the classifier called name built with o, or false if no
// classifier has that name: one of classifiers, or ovr: and one of them.
func newModel(name string, o *options) (perceptron.Scorer, bool) {
	if inner, ok := strings.CutPrefix(name, ovr); ok {
		// OneVsRest fits its classifiers on goroutines of their own, which
		// the progress, told of every update, cannot follow; it weighs
		// each class against the rest itself.
		each := *o
		each.progress, each.classWeight = nil, nil
		if _, ok := newModel(inner, &each); !ok || strings.HasPrefix(inner, ovr) {
			return nil, false
		}
		return &perceptron.OneVsRest{Labels: o.labels, ClassWeight: o.classWeight, New: func() perceptron.Scorer {
			m, _ := newModel(inner, &each)
			return m
		}}, true
	}
	for _, c := range classifiers {
		if c.name == name {
			return c.make(o), true
		}
	}
	return nil, false
}

// baseName returns the name of the classifier that the classifier called
// name fits: name, without ovr:.
func baseName(name string) string { return strings.TrimPrefix(name, ovr) }

// modelEpochs returns the epoch limit of the fitted m.
func modelEpochs(m perceptron.Scorer) int {
	e := 0
	switch m := m.(type) {
	case *perceptron.OneVsRest:
		return modelEpochs(m.Models()[0])
	case *perceptron.Perceptron:
		e = m.Epochs
	case *perceptron.Pocket:
		e = m.Epochs
	case *perceptron.Averaged:
		e = m.Epochs
	case *perceptron.Voted:
		e = m.Epochs
	case *perceptron.Kernel:
		e = m.Epochs
	}
	if e == 0 {
		e = defaultEpochs
	}
	return e
}

// statsOf returns the Stats of the training run of m, or none if it does
// not tell them; of a OneVsRest, those of its classifiers together: the
// most epochs, the mistakes of all, converged if all did.
func statsOf(m perceptron.Scorer) perceptron.Stats {
	switch m := m.(type) {
	case interface{ Stats() perceptron.Stats }:
		return m.Stats()
	case *perceptron.OneVsRest:
		if m.Models() == nil {
			return perceptron.Stats{}
		}
		all := perceptron.Stats{Converged: true}
		for _, c := range m.Models() {
			st := statsOf(c)
			all.Epochs = max(all.Epochs, st.Epochs)
			all.Mistakes += st.Mistakes
			all.Converged = all.Converged && st.Converged
			for e, n := range st.EpochMistakes {
				if e == len(all.EpochMistakes) {
					all.EpochMistakes = append(all.EpochMistakes, 0)
				}
				all.EpochMistakes[e] += n
			}
		}
		return all
	}
	return perceptron.Stats{}
}

// typeName returns the name of the classifier m as -classifier names it:
// its type's, in lower case, or ovr: and that of its classifiers.
func typeName(m perceptron.Scorer) string {
	if o, ok := m.(*perceptron.OneVsRest); ok && len(o.Models()) > 0 {
		return ovr + typeName(o.Models()[0])
	}
	return strings.ToLower(reflect.TypeOf(m).Elem().Name())
}

// kernelOf describes the kernel of m: linear for all but a Kernel.
func kernelOf(m perceptron.Scorer) string {
	if o, ok := m.(*perceptron.OneVsRest); ok && len(o.Models()) > 0 {
		return kernelOf(o.Models()[0])
	}
	k, ok := m.(*perceptron.Kernel)
	if !ok {
		return "linear"
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
	switch f := k.Func.(type) {
	case perceptron.RBF:
		if f.Gamma == 0 {
			return "rbf γ=1/d"
		}
		return "rbf γ=" + g(f.Gamma)
	case perceptron.Poly:
		if f.Degree == 0 {
			return "poly 3" // as Poly documents its zero Degree
		}
		return fmt.Sprintf("poly %d", f.Degree)
	case nil:
		return "linear"
	}
	return "custom"
}

// ruleOf names the prediction rule of m.
func ruleOf(m perceptron.Scorer) string {
	switch m := m.(type) {
	case *perceptron.OneVsRest:
		if len(m.Models()) > 0 {
			return ruleOf(m.Models()[0])
		}
	case *perceptron.Kernel:
		return [...]string{"last", "voted", "averaged"}[m.Prediction]
	case *perceptron.Pocket:
		if m.Ratchet {
			return "pocket, ratchet"
		}
		return "pocket"
	case *perceptron.Averaged:
		return "averaged"
	case *perceptron.Voted:
		return "voted"
	}
	return "last"
}

// only names the classifiers that take a settings flag, for the flags
// that not every classifier takes.
var only = map[string][]string{
	"init-weights": {"perceptron", "pocket", "averaged", "voted"},
	"ratchet":      {"pocket"},
	"kernel":       {"kernel"},
	"degree":       {"kernel"},
	"gamma":        {"kernel"},
	"coef0":        {"kernel"},
	"budget":       {"kernel"},
	"prediction":   {"kernel"},
}

// check returns an error if fs set a flag that none of the classifiers
// called names takes, or that gives a kernel a parameter it does not have,
// which would otherwise be ignored.
func (o *options) check(fs *flag.FlagSet, names []string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		if takers, ok := only[f.Name]; ok && !slices.ContainsFunc(names, func(n string) bool { return slices.Contains(takers, baseName(n)) }) {
			err = usagef("-%s: only -classifier %s takes this flag", f.Name, joinWords(takers, "or"))
			return
		}
		switch {
		case f.Name == "init-weights" && slices.ContainsFunc(names, func(n string) bool { return n != baseName(n) }):
			err = usagef("-init-weights: %s learns each class against the rest with weights of its own", ovr+"NAME")
		case f.Name == "degree" && o.kernel != "poly":
			err = usagef("-degree: only -kernel poly has a degree")
		case f.Name == "coef0" && o.kernel != "poly":
			err = usagef("-coef0: only -kernel poly has coef0")
		case f.Name == "gamma" && o.kernel != "poly" && o.kernel != "rbf":
			err = usagef("-gamma: only -kernel poly and rbf have gamma")
		}
	})
	return err
}
