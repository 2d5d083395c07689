// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/seed5ae3614e/perceptron/internal/jsonscan"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// Every fitted classifier saves as one JSON object of the same shape, its
// envelope:
//
//	{"type": "Perceptron", "version": 1,
//	 "settings": {...}, "model": {...}, "stats": {...}}
//
// The type names the classifier and the version the format, which is one
// for every type. The settings are the classifier's exported settings but
// Rand, OnUpdate and New, which are not data; the model is what the
// classifier predicts and learns with, exactly; stats is Stats, which
// OneVsRest has not. A member that the format does not define is an
// error. Floats are written in the shortest form that reads back to the
// same bits, and rows of data as their bytes, so that a loaded model
// predicts exactly as the saved one did.
//
// Loading checks every size and count of a file before it uses it, so
// that a file allocates no more than its length implies and a model that
// loads predicts without a panic, and saves to a file that loads.

// formatVersion is the version of the format.
const formatVersion = 1

// envelope is the JSON form of a fitted classifier.
type envelope struct {
	Type     string       `json:"type"`
	Version  int          `json:"version"`
	Settings jsonscan.Raw `json:"settings"`
	Model    jsonscan.Raw `json:"model"`
	Stats    *statsJSON   `json:"stats,omitempty"`
}

// statsJSON is the JSON form of Stats, whose fields it has, in order, so
// that either converts to the other.
type statsJSON struct {
	Epochs        int       `json:"epochs"`
	Converged     bool      `json:"converged"`
	Mistakes      int       `json:"mistakes"`
	EpochMistakes []int     `json:"epochMistakes"`
	EpochLoss     []float64 `json:"epochLoss"`
	EpochAccuracy []float64 `json:"epochAccuracy,omitempty"`
}

// saved is a fitted classifier as its forms hold it: its type, its
// settings, model and Stats in the types of the JSON form, and the
// columns d and scores S of its rows, which the binary form's header
// gives. Each type's saved method returns it, for the method that saves
// it: Marshal and MarshalBinary write the binary form, MarshalJSON the
// JSON form, of the classifiers within it too. While the method saves
// it, s holds the view of a model that a Learn may be training beside
// (live.go), which done, if not nil, lets go of.
type saved struct {
	typ             string
	settings, model any
	stats           *Stats // nil for OneVsRest
	d, S            int
	done            func()
}

// newSaved returns s, or an error if its classifier has not been fitted
// or if check, the check of its settings, fails: a saved classifier
// loads. The error of check keeps its kind. On an error, or a panic of
// check, it lets go of the view that s holds: a read left counted would
// keep the next Learn but one waiting for ever, in a server that recovers
// the panic too.
func newSaved(method string, fitted bool, check func() error, s saved) (saved, error) {
	kept := false
	defer func() {
		if !kept {
			s.release()
		}
	}()
	if !fitted {
		return saved{}, notFitted(method)
	}
	if err := check(); err != nil {
		return saved{}, wrapf(err, "perceptron: %s: %s", method, strings.TrimPrefix(err.Error(), "perceptron: "))
	}
	kept = true
	return s, nil
}

// release lets go of the view that s holds, if any.
func (s *saved) release() {
	if s.done != nil {
		s.done()
	}
}

// marshalJSON returns the JSON form of c, the envelope.
func marshalJSON(c interface{ saved(string) (saved, error) }) ([]byte, error) {
	s, err := c.saved("MarshalJSON")
	if err != nil {
		return nil, err
	}
	defer s.release()
	// The settings' and the model's encodings each grow a buffer by
	// doubling, and the envelope copies them.
	n := text(reflect.ValueOf(s.settings)) + text(reflect.ValueOf(s.model))
	if err := memory.Check(4 * n); err != nil {
		return nil, tooLarge(err, "MarshalJSON of %s of numbers", memory.Bytes(n))
	}
	settings, err := json.Marshal(s.settings)
	if err != nil {
		return nil, err
	}
	m, err := json.Marshal(s.model)
	if err != nil {
		return nil, err
	}
	return json.Marshal(envelope{Type: s.typ, Version: formatVersion, Settings: settings, Model: m, Stats: (*statsJSON)(s.stats)})
}

// unmarshalJSON is the UnmarshalJSON of c: it loads the JSON form data,
// and, as encoding/json asks, the JSON null changes nothing.
func unmarshalJSON(c interface{ load(form) error }, data []byte) error {
	if string(data) == "null" {
		return nil
	}
	return c.load(form{data: data})
}

// text returns the most bytes of text that the numbers in the slices of
// v, and of the structs and pointers within it, take in a saved form: 2 for
// a zero and its comma, the most of a model's numbers in a sparse problem,
// 25 for any other float64, 21 for an int, and the base64 of 8 bytes for a
// float64 of floatsJSON.
func text(v reflect.Value) float64 {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return text(v.Elem())
		}
	case reflect.Struct:
		n := 0.0
		for i := range v.NumField() {
			n += text(v.Field(i))
		}
		return n
	case reflect.Slice:
		switch {
		case v.Type() == reflect.TypeFor[floatsJSON]():
			return float64(base64.StdEncoding.EncodedLen(8 * v.Len()))
		case v.Type().Elem().Kind() == reflect.Float64:
			n := 0.0
			for _, x := range v.Convert(reflect.TypeFor[[]float64]()).Interface().([]float64) {
				n += 2
				if x != 0 {
					n += 23
				}
			}
			return n
		}
		return 21 * float64(v.Len())
	}
	return 0
}

// unmarshal decodes the envelope of the JSON form f of a classifier of
// type typ into its settings and model, and returns its Stats, checked, or
// an error naming what is wrong. It decodes nothing into settings and
// model on error in the envelope.
func unmarshal(f form, typ string, settings, model any) (_ Stats, err error) {
	// The envelope, the settings and the model are each checked as they
	// are decoded, and the errors are those of a check of all first.
	defer func() {
		if err != nil {
			err = f.syntaxFirst(typ, err)
		}
	}()
	var e envelope
	if err := jsonscan.Decode(f.data, &e); err != nil {
		return Stats{}, formatError(err, "perceptron: not a saved %s:", typ)
	}
	switch {
	case e.Type != typ:
		return Stats{}, errorf(ErrFormat, "perceptron: the saved classifier is of type %.40q, not %s", e.Type, typ)
	case e.Version != formatVersion:
		return Stats{}, errorf(ErrFormat, "perceptron: saved %s of format version %d, want %d", typ, e.Version, formatVersion)
	case (e.Stats == nil) != (typ == "OneVsRest"):
		return Stats{}, errorf(ErrFormat, "perceptron: saved %s with stats %v, want them for every type but OneVsRest", typ, e.Stats != nil)
	}
	if err := jsonscan.Decode(e.Settings, settings); err != nil {
		return Stats{}, formatError(err, "perceptron: saved %s's settings:", typ)
	}
	if err := jsonscan.Decode(e.Model, model); err != nil {
		return Stats{}, formatError(err, "perceptron: saved %s's model:", typ)
	}
	return savedStats(typ, e.Stats)
}

// savedStats returns the saved Stats st of a typ, checked, or none if st
// is nil, as for OneVsRest, which saves none of its own.
func savedStats(typ string, st *statsJSON) (Stats, error) {
	if st == nil {
		return Stats{}, nil
	}
	s := Stats(*st)
	if err := s.check(); err != nil {
		return Stats{}, errorf(ErrFormat, "perceptron: saved %s's stats: %w", typ, err)
	}
	return s, nil
}

// check returns an error if s is not a description that Fit and Learn
// could have produced.
func (s Stats) check() error {
	if s.Epochs < 0 || len(s.EpochMistakes) != s.Epochs {
		return errorf(ErrFormat, "%d epochs with %d epoch mistake counts", s.Epochs, len(s.EpochMistakes))
	}
	sum := 0
	for e, m := range s.EpochMistakes {
		if m < 0 || m > maxCount-sum {
			return errorf(ErrFormat, "epoch %d has %d mistakes, want 0 to 2^53 in all", e+1, m)
		}
		sum += m
	}
	switch {
	case s.Mistakes < sum || s.Mistakes > maxCount:
		return errorf(ErrFormat, "%d mistakes, but the epochs made %d", s.Mistakes, sum)
	case s.Converged && (s.Epochs == 0 || s.EpochMistakes[s.Epochs-1] != 0):
		return errorf(ErrFormat, "converged, but the last epoch made mistakes")
	case s.EpochLoss != nil && len(s.EpochLoss) != s.Epochs || s.EpochAccuracy != nil && len(s.EpochAccuracy) != s.Epochs:
		return errorf(ErrFormat, "%d epochs with %d losses and %d accuracies", s.Epochs, len(s.EpochLoss), len(s.EpochAccuracy))
	}
	for e, l := range s.EpochLoss {
		if !(l >= 0 && l <= math.MaxFloat64) {
			return errorf(ErrFormat, "epoch %d has the loss %v", e+1, l)
		}
	}
	for e, a := range s.EpochAccuracy {
		if !(a >= 0 && a <= 1) {
			return errorf(ErrFormat, "epoch %d has the accuracy %v, want one in [0, 1]", e+1, a)
		}
	}
	return nil
}

// settingsJSON is the JSON form of the settings of the linear
// classifiers; Ratchet is Pocket's. ClassWeight is left out when it is
// empty, as in the files saved before it.
type settingsJSON struct {
	Epochs      int               `json:"epochs"`
	Rate        float64           `json:"rate"`
	NoBias      bool              `json:"noBias"`
	InitWeights numbersJSON       `json:"initWeights"`
	Labels      []float64         `json:"labels"`
	ClassWeight []classWeightJSON `json:"classWeight,omitempty"`
	Stop        *stopJSON         `json:"stop"`
	Ratchet     *bool             `json:"ratchet,omitempty"`
}

// stopJSON is the JSON form of Stop, whose fields it has, in order, so
// that either converts to the other.
type stopJSON struct {
	Tol        float64 `json:"tol"`
	NoChange   int     `json:"noChange"`
	Validation float64 `json:"validation"`
}

// setOn sets the settings of the linear classifier c, a *Perceptron,
// *Pocket, *Averaged or *Voted, each of which names them alike, to s.
func (s *settingsJSON) setOn(c any) {
	v := reflect.ValueOf(c).Elem()
	for name, x := range map[string]any{"Epochs": s.Epochs, "Rate": s.Rate, "NoBias": s.NoBias, "InitWeights": []float64(s.InitWeights),
		"Labels": s.Labels, "ClassWeight": weightMap(s.ClassWeight), "Stop": (*Stop)(s.Stop)} {
		v.FieldByName(name).Set(reflect.ValueOf(x))
	}
	if s.Ratchet != nil {
		v.FieldByName("Ratchet").SetBool(*s.Ratchet)
	}
}

func (s settings) json(labels []float64) settingsJSON {
	return settingsJSON{Epochs: s.epochs, Rate: s.rate, NoBias: s.noBias, InitWeights: s.w0, Labels: labels, ClassWeight: weightPairs(s.weights), Stop: (*stopJSON)(s.stop)}
}

// check returns an error if the settings are not valid for a model of the
// classes on rows of length d, as Fit would.
func (j *settingsJSON) check(classes []float64, d int) error {
	if err := checkClassSettings(j.Labels, j.ClassWeight, classes); err != nil {
		return err
	}
	_, err := settings{epochs: j.Epochs, rate: j.Rate, w0: j.InitWeights, stop: (*Stop)(j.Stop)}.resolve(d, scores(classes))
	return err
}

// linearJSON is the JSON form of the model of a classifier of one weight
// table: its classes and the table.
type linearJSON struct {
	Classes []float64 `json:"classes"`
	tableJSON
}

// loadTable decodes the form of a saved typ into its settings s and its
// model, whose classes and table are lin, and returns the table and
// Stats, checked.
func loadTable(f form, typ string, s *settingsJSON, model any, lin *linearJSON) (table, Stats, error) {
	st, err := f.decode(typ, s, model)
	if err != nil {
		return table{}, Stats{}, err
	}
	t, err := checkTable(f, typ, s, lin)
	return t, st, err
}

// loadLinear sets c, a *Perceptron or a *Pocket, to the typ saved in f.
func loadLinear(f form, typ string, c interface{ set(linearModel) }) error {
	var s settingsJSON
	var m linearJSON
	t, st, err := loadTable(f, typ, &s, &m, &m)
	if err != nil {
		return err
	}
	s.setOn(c)
	c.set(linearModel{w: t, classes: m.Classes, stats: st})
	return nil
}

// checkTable returns the table of lin, of a typ decoded from f with the
// settings s, checked against its classes, its settings and f's header.
func checkTable(f form, typ string, s *settingsJSON, lin *linearJSON) (table, error) {
	if err := checkClasses(lin.Classes); err != nil {
		return table{}, wrap(typ, err)
	}
	t, err := lin.table(lin.Classes, "it")
	if err != nil {
		return table{}, wrap(typ, err)
	}
	if err := s.check(lin.Classes, t.dim()); err != nil {
		return table{}, settingsError(typ, err)
	}
	if (s.Ratchet != nil) != (typ == "Pocket") {
		return table{}, errorf(ErrFormat, "perceptron: saved %s's settings: ratchet is Pocket's setting alone", typ)
	}
	return t, f.shape(typ, t.dim(), len(t.b))
}

// tableJSON is the JSON form of a weight table, laid out as Weights lays
// it out.
type tableJSON struct {
	Weights       numbersJSON `json:"weights" bin:"table,1"`
	Biases        numbersJSON `json:"biases"`
	ThroughOrigin bool        `json:"throughOrigin"`
}

func (l *table) json() tableJSON { return tableJSON{l.w, l.b, l.noBias} }

// table returns the table of a model of the classes, or an error naming
// what of the model is wrong. Its numbers are finite, as both forms hold
// only finite numbers.
func (j *tableJSON) table(classes []float64, what string) (table, error) {
	S := scores(classes)
	switch {
	case len(j.Biases) != S:
		return table{}, errorf(ErrFormat, "%s has %d biases for %d classes, want %d", what, len(j.Biases), len(classes), S)
	case len(j.Weights) == 0 || len(j.Weights)%S != 0:
		return table{}, errorf(ErrFormat, "%s has %d weights for %d biases, want a multiple, at least 1", what, len(j.Weights), S)
	case j.ThroughOrigin && nonZero(j.Biases):
		return table{}, errorf(ErrFormat, "%s is through the origin, but its biases are %v", what, j.Biases)
	}
	return table{w: j.Weights, b: j.Biases, noBias: j.ThroughOrigin}, nil
}

// checkClasses returns an error if the classes of a model are not at
// least two finite values, ascending.
func checkClasses(classes []float64) error {
	if j := nonFinite(classes); j >= 0 {
		return errorf(ErrFormat, "class %d is %v, want a finite value", j, classes[j])
	}
	if len(classes) < 2 || !slices.IsSorted(classes) || len(slices.Compact(slices.Clone(classes))) != len(classes) {
		return errorf(ErrFormat, "the classes %v are not at least two, ascending", classes)
	}
	return nil
}

// rowsJSON is the JSON form of stored rows, exact to the bit: Values
// holds their float64s, little-endian, in base64. Dense rows hold every
// value, one row after another; the elements of sparse row i are the
// Values from Starts[i] up to Starts[i+1], at the columns Indices.
type rowsJSON struct {
	Rows    int        `json:"rows"`
	Cols    int        `json:"cols"`
	Sparse  bool       `json:"sparse"`
	Starts  []int      `json:"starts,omitempty"`
	Indices []int      `json:"indices,omitempty"`
	Values  floatsJSON `json:"values"`
}

// rowsToJSON returns the JSON form of r, a store from newRows or
// rowsJSON.rows.
func rowsToJSON(r *rows) rowsJSON {
	j := rowsJSON{Rows: r.n, Cols: r.d, Sparse: r.sparse()}
	if !j.Sparse {
		j.Values = r.data[:r.n*r.d]
		return j
	}
	nnz := r.ptr[r.n]
	j.Starts, j.Indices, j.Values = r.ptr[:r.n+1], r.ind[:nnz], r.data[:nnz]
	return j
}

// rows returns the store that j describes, of d columns, or an error
// naming what is wrong with it.
func (j *rowsJSON) rows(d int) (*rows, error) {
	switch {
	case j.Cols != d:
		return nil, errorf(ErrFormat, "rows of %d columns, want %d", j.Cols, d)
	case j.Rows < 0 || !j.Sparse && (j.Rows > len(j.Values)/d || j.Rows*d != len(j.Values)):
		return nil, errorf(ErrFormat, "%d values for %d rows of %d, want as many", len(j.Values), j.Rows, d)
	case !j.Sparse && (j.Starts != nil || j.Indices != nil):
		return nil, errorf(ErrFormat, "dense rows with starts or indices")
	case j.Sparse && len(j.Starts) != j.Rows+1:
		return nil, errorf(ErrFormat, "%d starts for %d sparse rows, want one more", len(j.Starts), j.Rows)
	case j.Sparse && (j.Starts[0] != 0 || j.Starts[j.Rows] != len(j.Values) || len(j.Indices) != len(j.Values)):
		return nil, errorf(ErrFormat, "starts from %d to %d for %d indices and %d values, want from 0 to as many as both", j.Starts[0], j.Starts[j.Rows], len(j.Indices), len(j.Values))
	}
	if !j.Sparse {
		if k := nonFinite(j.Values); k >= 0 {
			return nil, errorAt(ErrFormat, k/d, k%d, "row %d: column %d is %v, want a finite value", k/d, k%d, j.Values[k])
		}
		return &rows{n: j.Rows, d: d, stride: d, data: j.Values}, nil
	}
	for i := range j.Rows {
		lo, hi := j.Starts[i], j.Starts[i+1]
		if lo < 0 || hi < lo || hi > len(j.Values) {
			return nil, errorf(ErrFormat, "row %d spans [%d, %d)", i, lo, hi)
		}
		if err := checkSparseRow(i, j.Indices[lo:hi], j.Values[lo:hi], d); err != nil {
			return nil, wrapf(err, "row %d: %w", i, err)
		}
	}
	ind := j.Indices
	if ind == nil {
		ind = noColumns
	}
	return &rows{n: j.Rows, d: d, ptr: j.Starts, ind: ind, data: j.Values}, nil
}

// numbersJSON and floatsJSON are the JSON forms of float64s: as an array
// of numbers, and as their bytes in base64.
type (
	numbersJSON = jsonscan.Numbers
	floatsJSON  = jsonscan.Floats
)

// formatError returns err, an error of loading a saved classifier, after
// what the format and args say, as an error of kind ErrFormat, but an
// error of kind ErrTooLarge as it is: a saved classifier too large for
// the memory may be well formed.
func formatError(err error, format string, args ...any) error {
	kind := ErrFormat
	if errors.Is(err, ErrTooLarge) || memory.Refused(err) { // Refused: package jsonscan's checks
		kind = ErrTooLarge
	}
	return errorf(kind, format+" %w", append(args, err)...)
}

// settingsError returns err, of the settings of a saved typ, as an error
// of the file.
func settingsError(typ string, err error) error {
	return errorf(ErrFormat, "perceptron: saved %s's settings: %s", typ, strings.TrimPrefix(err.Error(), "perceptron: "))
}

// wrap returns err as an error of the model of a saved typ.
func wrap(typ string, err error) error {
	return errorf(ErrFormat, "perceptron: saved %s's model: %w", typ, err)
}
