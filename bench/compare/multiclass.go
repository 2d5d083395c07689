// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/bench/sets"
)

// The multiclass sets: every class of Fashion-MNIST
// and of the Debian sections data set, on which this library's Averaged
// learns the classes together and scikit-learn's averaged SGDClassifier
// one against the rest, both visiting the rows in a fresh random order
// every epoch; and a check of OneVsRest against scikit-learn's
// Perceptron, which learns more than two classes one against the rest.

// Epochs of the multiclass sets, on both sides, chosen so that Averaged
// meets its accuracy target with room to spare (see the README's
// performance section for the runs they were chosen from).
const (
	fashionEpochs = 10
	debianEpochs  = 10
)

// orderSeed seeds the order in which Averaged visits the rows of the
// multiclass sets: rand.New(rand.NewPCG(orderSeed, 0)), afresh for every
// fit, so that every fit of -repeat trains the same model.
const orderSeed = 1

// sklearnSeed is the random_state with which scikit-learn's averaged
// SGDClassifier shuffles the rows every epoch, as sklearn_fit.py sets it
// for the key sgd-avg-shuffled.
const sklearnSeed = 0

// Targets of the multiclass sets: Averaged's test accuracy at least the
// goal's, its epoch at most classFloorRatio times the floor of the set,
// one pass of the scores of every class, and the goal's targets against
// scikit-learn and the stream floor.
const classFloorRatio = 1.1

// classGoal is what Averaged must reach on a multiclass set.
type classGoal struct {
	minTest float64 // the test accuracy, at least

	// minPeer is the least ratio of the fit time of scikit-learn's
	// averaged SGDClassifier, one against the rest, to Averaged's, at a
	// test accuracy no higher than Averaged's.
	minPeer float64

	// maxStream, if not 0, is the most that Averaged's epoch may take,
	// in times the stream floor of the training rows; maxPredict, if not
	// 0, the most that its PredictRows of the test rows may take, in
	// times the stream floor of those rows.
	maxStream, maxPredict float64
}

// The goals of issue 35, on one core.
var (
	fashionGoal = classGoal{minTest: 0.840, minPeer: 10, maxStream: 1.5, maxPredict: 1.2}
	debianGoal  = classGoal{minTest: 0.830, minPeer: 8}
)

// onevsrestRows is the number of training rows of the OneVsRest check,
// the first of Fashion-MNIST's training set.
const onevsrestRows = 10_000

// averagedShuffled returns the entry of Averaged for a multiclass set of
// the given epochs.
func averagedShuffled(epochs int) entry {
	return entry{name: "Averaged", epochs: epochs, repeat: true, new: func(e int) perceptron.Scorer {
		return &perceptron.Averaged{Epochs: e, Rand: rand.New(rand.NewPCG(orderSeed, 0))}
	}}
}

// sgdShuffled returns scikit-learn's averaged SGDClassifier for a
// multiclass set of the given epochs, set against Averaged.
func sgdShuffled(epochs int) peer {
	return peer{system: "scikit-learn", name: "SGDClassifier averaged, one-vs-rest", key: "sgd-avg-shuffled",
		vs: "Averaged", epochs: epochs, repeat: true, group: "sklearn"}
}

// liblinearPeers are LIBLINEAR's solvers, by their number, -s: its
// default, the L2-regularized L2-loss support vector machine by the dual
// coordinate descent of Hsieh et al. (2008), one class against the rest,
// and Crammer and Singer's multiclass support vector machine (2001),
// which learns the classes together, as Averaged does.
var liblinearPeers = []peer{
	{system: "LIBLINEAR", name: "liblinear-train -s 1", key: "1", epochs: noEpochs, group: "liblinear"},
	{system: "LIBLINEAR", name: "liblinear-train -s 4", key: "4", epochs: noEpochs, group: "liblinear"},
}

// multiclassSettings says what the models of the two sets that set
// Averaged against scikit-learn's averaged SGDClassifier are.
func multiclassSettings(epochs int, scaled string) string {
	return fmt.Sprintf(`models (E = %d on both sides; every row visited once an epoch, in a fresh random order):
     this library   Averaged{Epochs: %d, Rand: rand.New(rand.NewPCG(%d, 0))}: the multiclass perceptron, the classes learned together, %s
     scikit-learn   SGDClassifier(loss='perceptron', learning_rate='constant', eta0=1, penalty=None, alpha=0, average=True,
                        shuffle=True, random_state=%d, tol=None, max_iter=%d): one against the rest`,
		epochs, epochs, orderSeed, scaled, sklearnSeed, epochs)
}

// fashionAll returns every image of the Fashion-MNIST files in dir whose
// names start with prefix, one a row, with their classes as labels, and
// pixel values divided by scale.
func fashionAll(dir, prefix string, scale float64) (*mat.Dense, []float64, error) {
	return sets.FashionAll(dir, prefix, scale)
}

// loadFashionClasses returns the ten classes of Fashion-MNIST from dir,
// pixels scaled to [0, 1].
func loadFashionClasses(dir string) (*dataSet, error) {
	Xtr, ytr, err := fashionAll(dir, "train", 255)
	if err != nil {
		return nil, err
	}
	Xte, yte, err := fashionAll(dir, "t10k", 255)
	if err != nil {
		return nil, err
	}
	return &dataSet{
		name: "fashion-10",
		about: "Fashion-MNIST, all 10 classes, pixels scaled to [0, 1]\n   " +
			multiclassSettings(fashionEpochs, "pixels scaled to [0, 1] by dividing by 255;\n                        a shuffled epoch asks for the cache lines of its next dense row while it visits one"),
		train: Xtr, ytrain: ytr, test: Xte, ytest: yte,
		entries: []entry{averagedShuffled(fashionEpochs)},
		peers:   []peer{sgdShuffled(fashionEpochs)},
		check:   func(r *run) { r.classTargets(fashionGoal) },
	}, nil
}

// loadDebianClasses returns the 35 classes of the Debian sections data
// set from dir, as CSR matrices.
func loadDebianClasses(dir string) (*dataSet, error) {
	Xtr, ytr, Xte, yte, err := sets.DebianAll(dir)
	if err != nil {
		return nil, err
	}
	Xtr, Xte = sets.Normalize(Xtr), sets.Normalize(Xte)
	return &dataSet{
		name: "debian-35",
		about: fmt.Sprintf("Debian sections, all %d classes, word presence, every row scaled to unit length, sparse: %d non-zeros in the training rows, a CSR of %.2f MB; the files are in package-name order\n   ",
			sets.DebianClasses, Xtr.NNZ(), mb(csrBytes(Xtr))) +
			multiclassSettings(debianEpochs, "on the CSR of the rows scaled to unit length, as every system sees them") + "\n" +
			"     LIBLINEAR      liblinear-train -s 1 (its default: L2-regularized L2-loss SVC, dual, one against the rest) and -s 4\n" +
			"                        (Crammer and Singer's multiclass SVM, the classes together, as Averaged learns them),\n" +
			"                        otherwise default options (-c 1 -e 0.1, no bias), on the same rows written as a LIBSVM file",
		train: Xtr, ytrain: ytr, test: Xte, ytest: yte,
		entries: []entry{averagedShuffled(debianEpochs)},
		peers:   append([]peer{sgdShuffled(debianEpochs)}, liblinearPeers...),
		check:   func(r *run) { r.classTargets(debianGoal) },
	}, nil
}

// loadOneVsRest returns the first onevsrestRows training images of
// Fashion-MNIST and its test images, with pixels as the integers 0 to
// 255 that the files hold, so that every sum of the perceptron's training
// and scoring is exact in float64, whatever the order of its terms: then
// OneVsRest and scikit-learn's Perceptron, which order their sums
// differently, must make the same mistakes and the same predictions.
func loadOneVsRest(dir string) (*dataSet, error) {
	Xtr, ytr, err := fashionAll(dir, "train", 1)
	if err != nil {
		return nil, err
	}
	Xte, yte, err := fashionAll(dir, "t10k", 1)
	if err != nil {
		return nil, err
	}
	n, d := Xtr.Dims()
	n = min(n, onevsrestRows)
	return oneVsRest(&dataSet{
		name:  "onevsrest",
		about: fmt.Sprintf("Fashion-MNIST, all 10 classes, the first %d training images and every test image, pixels the integers 0 to 255 of the files", n),
		train: Xtr.Slice(0, n, 0, d).(*mat.Dense), ytrain: ytr[:n], test: Xte, ytest: yte,
	}), nil
}

// oneVsRest returns ds with the models and the check of the OneVsRest
// check, for dense rows whose sums are exact.
func oneVsRest(ds *dataSet) *dataSet {
	ds.about += "\n   " + `models (E is -epochs; rows visited in order, from zero, rate 1, with a bias):
     this library   OneVsRest{New: func() Scorer { return &Perceptron{Epochs: E} }}, over GOMAXPROCS goroutines
     scikit-learn   Perceptron(shuffle=False, tol=None, eta0=1, max_iter=E): one against the rest, on one core`
	ds.entries = []entry{{name: "OneVsRest Perceptron", repeat: true, new: func(e int) perceptron.Scorer {
		return &perceptron.OneVsRest{New: func() perceptron.Scorer { return &perceptron.Perceptron{Epochs: e} }}
	}}}
	ds.peers = []peer{{system: "scikit-learn", name: "Perceptron, one-vs-rest", key: "perceptron",
		vs: "OneVsRest Perceptron", repeat: true, group: "sklearn"}}
	ds.check = (*run).checkOneVsRest
	return ds
}

// classTargets checks the targets of a multiclass set: Averaged's test
// accuracy, its fit time against scikit-learn's averaged SGDClassifier,
// one against the rest, its epoch against the floor and the stream floor,
// and its prediction of the test rows against their stream floor, as g
// sets them. It also notes how the fit time of LIBLINEAR compares with
// Averaged's.
func (r *run) classTargets(g classGoal) {
	ours, ok := r.library("Averaged")
	if !ok {
		return
	}
	r.target(fmt.Sprintf("Averaged: test accuracy %.2f%%", 100*ours.test), ours.test >= g.minTest, fmt.Sprintf(">= %.1f%%", 100*g.minTest))
	for _, p := range r.rows {
		switch {
		case p.vs == "Averaged":
			ratio := p.fit.Seconds() / ours.fit.Seconds()
			r.target(fmt.Sprintf("Averaged: %s %s fit / ours %.2fx, both %d epochs, test accuracy %.2f%% against ours %.2f%%",
				p.system, p.model, ratio, p.epochs, 100*p.test, 100*ours.test),
				ratio >= g.minPeer && ours.test >= p.test, fmt.Sprintf(">= %gx at no lower accuracy", g.minPeer))
		case p.system == "LIBLINEAR":
			r.checkLines = append(r.checkLines, fmt.Sprintf("LIBLINEAR %s fit / Averaged's: %.1fx", strings.TrimPrefix(p.model, "liblinear-train "), p.fit.Seconds()/ours.fit.Seconds()))
		}
	}
	ratio := perEpoch(ours) / r.floor.Seconds()
	r.target(fmt.Sprintf("Averaged: ours per epoch / floor %.2fx", ratio), ratio <= classFloorRatio, fmt.Sprintf("<= %gx", classFloorRatio))
	if r.stream > 0 {
		ratio := perEpoch(ours) / r.stream.Seconds()
		what := fmt.Sprintf("Averaged: ours per epoch / stream floor %.2fx", ratio)
		if g.maxStream > 0 {
			r.target(what, ratio <= g.maxStream, fmt.Sprintf("<= %gx", g.maxStream))
		} else {
			r.checkLines = append(r.checkLines, what+" (no target)")
		}
	}
	if r.testStream > 0 && ours.predict > 0 {
		ratio := ours.predict.Seconds() / r.testStream.Seconds()
		what := fmt.Sprintf("Averaged: PredictRows of the test rows / their stream floor %.2fx", ratio)
		if g.maxPredict > 0 {
			r.target(what, ratio <= g.maxPredict, fmt.Sprintf("<= %gx", g.maxPredict))
		} else {
			r.checkLines = append(r.checkLines, what+" (no target)")
		}
	}
}

// checkOneVsRest checks that OneVsRest over Perceptron and scikit-learn's
// Perceptron, on data whose sums are exact, make the same predictions,
// every one, and end with the same weights and biases, bit for bit.
func (r *run) checkOneVsRest() {
	o, ok := r.fitted["OneVsRest Perceptron"].(*perceptron.OneVsRest)
	if !ok || !r.ran("scikit-learn", "perceptron") || !r.sklearnRan {
		return
	}
	base := filepath.Join(r.dir, fmt.Sprintf("perceptron-%d.", r.epochs))
	for _, set := range []struct {
		name string
		X    mat.Matrix
	}{{"train", r.ds.train}, {"test", r.ds.test}} {
		what := fmt.Sprintf("OneVsRest Perceptron = scikit-learn Perceptron after %d epochs: %s predictions", r.epochs, set.name)
		theirs, err := readFloats(base + "pred." + set.name)
		if err != nil {
			r.verdict(what, outcome{false, err.Error()})
			continue
		}
		r.verdict(what, samePredictions(o.PredictRows(nil, set.X), theirs))
	}
	what := fmt.Sprintf("OneVsRest Perceptron = scikit-learn Perceptron after %d epochs: weights and biases of every class", r.epochs)
	coef, err := readFloats(base + "coef")
	if err != nil {
		r.verdict(what, outcome{false, err.Error()})
		return
	}
	// scikit-learn's coef_ holds a row of weights per class, then
	// intercept_ a bias per class.
	var w, b []float64
	for _, m := range o.Models() {
		pw, pb := m.(*perceptron.Perceptron).Weights()
		w = append(w, pw...)
		b = append(b, pb...)
	}
	r.verdict(what, compareWeights(append(w, b...), coef))
}

// samePredictions compares our predictions with a peer's, which must all
// be equal.
func samePredictions(ours, theirs []float64) outcome {
	if len(ours) != len(theirs) {
		return outcome{false, fmt.Sprintf("the peer has %d predictions, want %d", len(theirs), len(ours))}
	}
	same := 0
	first := -1
	for i, v := range ours {
		if v == theirs[i] {
			same++
		} else if first < 0 {
			first = i
		}
	}
	detail := fmt.Sprintf("%d of %d rows predicted alike", same, len(ours))
	if first >= 0 {
		return outcome{false, fmt.Sprintf("%s; the first that differs is row %d: ours %v, theirs %v", detail, first, ours[first], theirs[first])}
	}
	return outcome{true, detail}
}

// scoresOf returns the number of scores of a model of the classes of y:
// one for two classes and one per class for more.
func scoresOf(y []float64) int {
	k := len(slices.Compact(slices.Sorted(slices.Values(y))))
	if k == 2 {
		return 1
	}
	return k
}
