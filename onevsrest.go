// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
	"github.com/seed5ae3614e/perceptron/internal/live"
)

// OneVsRest is a multiclass classifier made of binary ones, one per class:
// the classifier of class c learns c, its second class (+1), against the
// rest, its first (-1), and OneVsRest predicts the class whose classifier
// scores highest, the first of those if several tie. With two classes it
// trains one classifier, of the classes themselves. This is how
// scikit-learn's linear classifiers, its Perceptron among them, learn more
// than two classes; every classifier of this package also learns many
// classes together, the other way.
//
// Fit trains the classifiers on GOMAXPROCS goroutines, each class's that
// shuffles with a source seeded from its Rand in the order of the classes.
// The zero value is ready to use: it trains a zero Perceptron per class.
type OneVsRest struct {
	// New, if not nil, returns a new classifier of this package, with the
	// settings every class's is to have; Fit calls it once per class, in
	// the order of the classes, and gives each classifier its classes,
	// whatever its Labels say. If nil, Fit makes a &Perceptron{}.
	New func() Scorer

	// Labels are the classes, as in Perceptron.
	Labels []float64

	// ClassWeight, if not nil, holds the weights of classes, as in
	// Perceptron, and weighs each class against the rest as scikit-learn's
	// linear classifiers do: the classifier of class c weighs c by
	// ClassWeight[c] and the rest by 1; with two classes the one
	// classifier weighs both as ClassWeight says. The classifiers that New
	// returns must have no ClassWeight of their own.
	ClassWeight map[float64]float64

	*oneVsRestState
}

// oneVsRestState is the classifiers of OneVsRest and their classes. A
// Learn publishes the models of the classes together, under mu, which the
// prediction methods hold to read them (live.go). They lie behind a
// pointer, so that a copy of the OneVsRest, as a value receiver makes,
// reads nothing that a Learn writes.
type oneVsRestState struct {
	mu      live.Lock
	models  []Scorer
	classes []float64
}

// set makes models, of the classes, the classifiers, unless nil,
// publishing each member's Learn on ds to the prediction methods, all at
// once.
func (o *OneVsRest) set(models []Scorer, classes []float64, members []member, ds *dataset) {
	if o.oneVsRestState == nil {
		o.oneVsRestState = new(oneVsRestState)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, m := range members {
		m.publish(ds)
	}
	if models != nil {
		o.models, o.classes = models, classes
	}
}

// reading holds the classifiers for a prediction method, which calls
// RUnlock of the lock it returns when it has read them, panicking in the
// manner of gonum if OneVsRest has not been fitted; method names the
// caller.
func (o *OneVsRest) reading(method string) *sync.RWMutex {
	if o.oneVsRestState == nil {
		panic(notFitted(method))
	}
	return o.mu.RLock()
}

// Fit trains the classifiers of OneVsRest on the rows of X with labels y.
// It returns the errors that Perceptron's Fit returns about X, y and
// ClassWeight, and those of the classifiers' Fit, naming the class; it
// returns an error of kind ErrSetting if New returns nil, a classifier of
// another package, one with a ClassWeight, or one it returned before. A
// failed Fit leaves OneVsRest as it was.
func (o *OneVsRest) Fit(X mat.Matrix, y []float64) error { return o.fit(X, y, nil, nil) }

// fit is Fit, with the weights of the rows w, stopped by h if it is not
// nil.
func (o *OneVsRest) fit(X mat.Matrix, y, w []float64, h *halt) error {
	ds, err := trainSet(X, y, w, o.Labels, o.ClassWeight)
	if err != nil {
		return err
	}
	ds.halt = h
	K := scores(ds.classes)
	models, err := o.newModels(ds.classes)
	if err != nil {
		return err
	}
	srcs := make([]*rand.Rand, K)
	for c, m := range models {
		if rnd := m.(model).settings(nil).source; rnd != nil {
			srcs[c] = rand.New(rand.NewPCG(rnd.Uint64(), rnd.Uint64()))
		}
	}
	errs := eachClass(ds, h, func(c int, set *dataset) error { return models[c].(model).fit(set, srcs[c]) })
	if err := classError(errs, ds.classes, h); err != nil {
		return err
	}
	o.set(models, ds.classes, nil, nil)
	return nil
}

// newModels returns the classifiers that New makes, one per class of
// classes, or of a class against the rest, in their order.
func (o *OneVsRest) newModels(classes []float64) ([]Scorer, error) {
	models := make([]Scorer, scores(classes))
	class := make(map[Scorer]int, len(models)) // of each classifier, to find one that New returns twice
	for c := range models {
		var s Scorer = &Perceptron{}
		if o.New != nil {
			if s = o.New(); s == nil {
				return nil, errorf(ErrSetting, "perceptron: OneVsRest.New returned nil")
			}
		}
		m, ok := s.(model)
		switch {
		case !ok:
			return nil, errorf(ErrSetting, "perceptron: OneVsRest.New returned %T, want a classifier of this package", s)
		case isNil(s):
			return nil, errorf(ErrSetting, "perceptron: OneVsRest.New returned a nil %T", s)
		case m.settings(nil).weights != nil:
			// Its classes are those of a class against the rest, which
			// OneVsRest weighs.
			return nil, errorf(ErrSetting, "perceptron: OneVsRest.New returned a %T with a ClassWeight: set OneVsRest's ClassWeight", s)
		}
		// The classifiers train at once: each must be one of its own.
		if e, ok := class[s]; ok {
			return nil, errorf(ErrSetting, "perceptron: OneVsRest.New returned the same %T for class %v as for class %v, want a new classifier at each call", s, classes[c], classes[e])
		}
		class[s] = c
		models[c] = s
	}
	return models, nil
}

// eachClass calls train with each class c of ds and its rows against the
// rest, or ds itself with two classes, on GOMAXPROCS goroutines, and
// returns the errors of the calls. Once h stops, the classes left cost a
// poll each, not their labels' pass over the rows.
func eachClass(ds *dataset, h *halt, train func(c int, set *dataset) error) []error {
	K := scores(ds.classes)
	errs := make([]error, K)
	parallel(K, func() func(int) {
		return func(c int) {
			if errs[c] = h.err(); errs[c] != nil {
				return
			}
			set := ds
			if K > 1 {
				set = ds.against(c)
			}
			errs[c] = train(c, set)
		}
	})
	return errs
}

// against returns the rows of ds with the classes -1, the rest, and +1,
// class c: the rest weighing 1 and class c its weight in ds, as
// scikit-learn weighs them, and each row its weight in ds.
func (ds *dataset) against(c int) *dataset {
	set := &dataset{rows: ds.rows, classes: []float64{-1, 1}, y: make([]float64, ds.n), rowWeight: ds.rowWeight, halt: ds.halt}
	if ds.weight != nil {
		set.weight = []float64{1, ds.weight[c]}
	}
	for i := range set.y {
		set.y[i] = -1
		if ds.class(i) == c {
			set.y[i] = 1
		}
	}
	return set
}

// Predict returns the class of x whose classifier scores highest, the
// first of those if several tie; with two classes, the class that their
// classifier predicts. It panics if OneVsRest has not been fitted, or as
// the classifiers' Predict panics. It may run concurrently with the
// prediction methods and with one Learn, whose classes' models it reads
// as the Learn left them all, but not with Fit or a load. While a Learn
// publishes those models, under a lock that waits for the predictions
// already reading, it waits.
func (o *OneVsRest) Predict(x []float64) float64 {
	defer o.reading("Predict").RUnlock()
	if len(o.models) == 1 {
		return o.models[0].Predict(x)
	}
	checkLength(x, o.models[0].(model).width())
	buf := getBuffer(len(o.models))
	defer putBuffer(buf)
	for c, m := range o.models {
		r, ok := m.(rowScorer)
		if !ok {
			return o.predictRows(nil, mat.NewDense(1, len(x), x))[0]
		}
		r.scoreRow((*buf)[c:c+1], x)
	}
	return decide(o.classes, *buf)
}

// rowScorer is a classifier whose scores of one dense row, which
// scoreRow sets dst to as its ScoreRows gives them, cost little more than
// the scores: the linear types and Voted. Kernel's ScoreRows takes rows in
// blocks, whose scores round otherwise.
type rowScorer interface {
	scoreRow(dst, x []float64)
}

// ScoreRows returns the scores of the rows of X, as Scorer says: for two
// classes that of their classifier, and for more the score of each class's
// classifier, each from its ScoreRows. It may run concurrently as Predict.
func (o *OneVsRest) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	defer o.reading("ScoreRows").RUnlock()
	return o.scoreRows(dst, X)
}

// scoreRows is ScoreRows, with the classifiers held.
func (o *OneVsRest) scoreRows(dst []float64, X mat.Matrix) []float64 {
	n, _ := dims(X)
	S := len(o.models)
	dst = rowsDst(dst, n*S)
	if S == 1 {
		return o.models[0].ScoreRows(dst, X)
	}
	col := make([]float64, n)
	for c, m := range o.models {
		m.ScoreRows(col, X)
		for i, v := range col {
			dst[i*S+c] = v
		}
	}
	return dst
}

// PredictRows returns the classes of the rows of X, as Predict chooses
// them. It may run concurrently as Predict.
func (o *OneVsRest) PredictRows(dst []float64, X mat.Matrix) []float64 {
	defer o.reading("PredictRows").RUnlock()
	return o.predictRows(dst, X)
}

// predictRows is PredictRows, with the classifiers held.
func (o *OneVsRest) predictRows(dst []float64, X mat.Matrix) []float64 {
	if len(o.models) == 1 {
		return o.models[0].PredictRows(dst, X)
	}
	n, _ := dims(X)
	dst = rowsDst(dst, n)
	s, S := o.scoreRows(nil, X), len(o.models)
	for i := range dst {
		dst[i] = decide(o.classes, s[i*S:i*S+S])
	}
	return dst
}

// Classes returns a copy of the classes, as Scorer says. It may run
// concurrently as Predict.
func (o *OneVsRest) Classes() []float64 {
	if o.oneVsRestState == nil {
		return nil
	}
	defer o.reading("Classes").RUnlock()
	return slices.Clone(o.classes)
}

// Models returns the fitted classifiers: for two classes the one of both,
// and for more that of each class in the order of Classes. It returns nil
// if OneVsRest has not been fitted. It may run concurrently as Predict;
// each classifier's own methods read it as its own Learn left it.
func (o *OneVsRest) Models() []Scorer {
	if o.oneVsRestState == nil {
		return nil
	}
	defer o.reading("Models").RUnlock()
	return slices.Clone(o.models)
}

// oneVsRestJSON is the JSON form of the model of OneVsRest: its classes,
// and the saved form of each class's classifier.
type oneVsRestJSON struct {
	Classes []float64      `json:"classes"`
	Models  []jsonscan.Raw `json:"models"`
}

// MarshalJSON returns the saved form of the fitted OneVsRest, as Unmarshal
// reads it: Labels, ClassWeight, its classes and each classifier's saved
// form. It returns an error if OneVsRest has not been fitted or one cannot
// be saved.
func (o OneVsRest) MarshalJSON() ([]byte, error) { return marshalJSON(o) }

func (o OneVsRest) saved(method string) (saved, error) {
	if o.oneVsRestState == nil {
		return newSaved(method, false, nil, saved{})
	}
	defer o.reading(method).RUnlock()
	m := oneVsRestJSON{Classes: o.classes}
	for _, c := range o.models {
		b, err := json.Marshal(c)
		if method != "MarshalJSON" {
			b, err = Marshal(c)
		}
		if err != nil {
			return saved{}, err
		}
		m.Models = append(m.Models, b)
	}
	s := oneVsRestSettings{o.Labels, weightPairs(o.ClassWeight)}
	d := 0
	if len(o.models) > 0 {
		if c, ok := o.models[0].(model); ok {
			d = c.width()
		}
	}
	return newSaved(method, true, func() error { return checkClassSettings(s.Labels, s.ClassWeight, o.classes) }, saved{typ: "OneVsRest", settings: s, model: m, d: d, S: len(o.models)})
}

// UnmarshalJSON sets OneVsRest to the one saved in data, as Perceptron's
// UnmarshalJSON does; New keeps its value.
func (o *OneVsRest) UnmarshalJSON(data []byte) error { return unmarshalJSON(o, data) }

// load sets OneVsRest to the one saved in f, whose classifiers are saved
// in the same form.
func (o *OneVsRest) load(f form) (err error) {
	// The classifiers' JSON is checked as each is decoded, and the errors
	// are those of a check of all first.
	defer func() {
		if err != nil {
			err = f.syntaxFirst("OneVsRest", err)
		}
	}()
	var s oneVsRestSettings
	var m oneVsRestJSON
	if _, err := f.decode("OneVsRest", &s, &m); err != nil {
		return err
	}
	if err := checkClasses(m.Classes); err != nil {
		return wrap("OneVsRest", err)
	}
	if err := checkClassSettings(s.Labels, s.ClassWeight, m.Classes); err != nil {
		return settingsError("OneVsRest", err)
	}
	K := scores(m.Classes)
	if len(m.Models) != K {
		return wrap("OneVsRest", errorf(ErrFormat, "it has %d classifiers for %d classes, want %d", len(m.Models), len(m.Classes), K))
	}
	want := []float64{-1, 1}
	if K == 1 {
		want = m.Classes
	}
	models := make([]Scorer, K)
	d := 0
	for c, b := range m.Models {
		if isBinary(b) != f.binary {
			return wrap("OneVsRest", errorf(ErrFormat, "its classifier %d is not in the form of the OneVsRest", c))
		}
		mf := form{data: b, binary: f.binary}
		typ, err := mf.savedType()
		if typ == "OneVsRest" {
			// Each level would decode those within it again.
			return wrap("OneVsRest", errorf(ErrFormat, "its classifier %d is a OneVsRest", c))
		}
		var s Scorer
		if err == nil {
			s, err = unmarshalAs(mf, typ)
		}
		if err != nil {
			return wrapf(err, "%w (classifier %d of a saved OneVsRest)", err, c)
		}
		if got := s.Classes(); !slices.Equal(got, want) {
			return wrap("OneVsRest", errorf(ErrFormat, "its classifier %d has the classes %v, want %v", c, got, want))
		}
		if s.(model).settings(nil).weights != nil {
			return wrap("OneVsRest", errorf(ErrFormat, "its classifier %d has a ClassWeight of its own, which OneVsRest's Fit refuses", c))
		}
		w := s.(model).width()
		if c > 0 && w != d {
			return wrap("OneVsRest", errorf(ErrFormat, "its classifier %d has %d columns, the first %d", c, w, d))
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

// oneVsRestSettings is the JSON form of the settings of OneVsRest.
type oneVsRestSettings struct {
	Labels      []float64         `json:"labels"`
	ClassWeight []classWeightJSON `json:"classWeight,omitempty"`
}
