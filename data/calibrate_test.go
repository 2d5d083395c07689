// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/seed5ae3614e/perceptron"
)

// identity is a perceptron.Scorer of K classes whose scores of a row are
// the row's values: one column for two classes, K for more.
type identity struct{ K int }

func (c identity) Fit(mat.Matrix, []float64) error { return nil }

func (c identity) Classes() []float64 {
	v := make([]float64, c.K)
	for k := range v {
		v[k] = float64(k)
	}
	return v
}

func (c identity) ScoreRows(dst []float64, X mat.Matrix) []float64 {
	n, d := X.Dims()
	if d != scoresOf(c.K) {
		panic("identity: wrong columns")
	}
	if dst == nil {
		dst = make([]float64, n*d)
	}
	for i := range n {
		for j := range d {
			dst[i*d+j] = X.At(i, j)
		}
	}
	return dst
}

func (c identity) Predict(x []float64) float64 { return float64(choose(x)) }

func (c identity) PredictRows(dst []float64, X mat.Matrix) []float64 {
	n, d := X.Dims()
	s := c.ScoreRows(nil, X)
	if dst == nil {
		dst = make([]float64, n)
	}
	for i := range n {
		dst[i] = float64(choose(s[i*d : (i+1)*d]))
	}
	return dst
}

// identityModel returns a Model of K classes whose scores are the values
// of its rows.
func identityModel(K int) *Model {
	m := &Model{Classifier: identity{K}}
	for k := range K {
		m.Classes = append(m.Classes, string(rune('a'+k)))
	}
	return m
}

// naiveGradient returns the gradient of the objective of the sigmoid of A
// and B, as scikit-learn's _sigmoid_calibration writes it, in the units of
// the scores f: sums over the rows of (t-p)·f and of t-p, p =
// 1/(1+exp(A·f+B)), t the target of the row, of class or not.
func naiveGradient(f []float64, class []bool, A, B float64) (ga, gb float64) {
	pos := 0
	for _, c := range class {
		if c {
			pos++
		}
	}
	hi, lo := (float64(pos)+1)/(float64(pos)+2), 1/(float64(len(f)-pos)+2)
	for i, v := range f {
		t := lo
		if class[i] {
			t = hi
		}
		p := 1 / (1 + math.Exp(A*v+B))
		ga += (t - p) * v
		gb += t - p
	}
	return ga, gb
}

// naiveObjective returns the objective of the sigmoid of A and B, as
// naiveGradient.
func naiveObjective(f []float64, class []bool, A, B float64) float64 {
	pos := 0
	for _, c := range class {
		if c {
			pos++
		}
	}
	hi, lo := (float64(pos)+1)/(float64(pos)+2), 1/(float64(len(f)-pos)+2)
	sum := 0.0
	for i, v := range f {
		t := lo
		if class[i] {
			t = hi
		}
		p := 1 / (1 + math.Exp(A*v+B))
		sum -= t*math.Log(p) + (1-t)*math.Log(1-p)
	}
	return sum
}

// column returns the scores of column k of the S scores of each row, and
// whether each row is of the class of the column: the second class for
// one score, class k for more.
func column(scores, y []float64, S, k int) (f []float64, class []bool) {
	for i, c := range y {
		f = append(f, scores[i*S+k])
		if S == 1 {
			class = append(class, c == 1)
		} else {
			class = append(class, c == float64(k))
		}
	}
	return f, class
}

// Scores of two values, of rows of either class, are fitted exactly: the
// sigmoid at each value is the mean of the targets of its rows, which A
// and B then solve. The errors of the means are those that the gradient,
// within its tolerance, leaves: solved from its two sums.
func TestCalibrationTwoValues(t *testing.T) {
	type group struct {
		score     float64
		rows, pos int
	}
	for _, c := range []struct {
		K      int // classes
		groups [2]group
	}{
		{2, [2]group{{-1, 30, 10}, {2, 20, 15}}},
		{2, [2]group{{0.5, 7, 0}, {0.75, 3, 3}}},
		{3, [2]group{{-4, 100, 1}, {3, 50, 49}}},
	} {
		var scores, y []float64
		S := scoresOf(c.K)
		for _, g := range c.groups {
			for i := range g.rows {
				class := 0.0 // of the column's class, or another
				if i < g.pos {
					class = 1
				}
				for range S {
					scores = append(scores, g.score)
				}
				if S > 1 {
					// Column 0 of every row scores the group; its class is
					// 0 for the positives, 1 or 2 for the others.
					if class == 1 {
						class = 0
					} else {
						class = float64(1 + i%2)
					}
				}
				y = append(y, class)
			}
		}
		cal := &Calibration{OneVsRest: true}
		if err := cal.Fit(scores, y, c.K); err != nil {
			t.Fatal(err)
		}
		n, pos := 0, 0
		for _, g := range c.groups {
			n, pos = n+g.rows, pos+g.pos
		}
		hi, lo := (float64(pos)+1)/(float64(pos)+2), 1/(float64(n-pos)+2)
		scale := max(math.Abs(c.groups[0].score), math.Abs(c.groups[1].score))
		// The gradient's sums are Σ rows_g·d_g·score_g/scale and Σ rows_g·d_g,
		// d_g the mean target less the sigmoid at g's score: each at most
		// gradientTolerance·n, which bounds each d_g through the inverse.
		M := mat.NewDense(2, 2, []float64{
			float64(c.groups[0].rows) * c.groups[0].score / scale, float64(c.groups[1].rows) * c.groups[1].score / scale,
			float64(c.groups[0].rows), float64(c.groups[1].rows),
		})
		var inv mat.Dense
		if err := inv.Inverse(M); err != nil {
			t.Fatal(err)
		}
		for j, g := range c.groups {
			mean := (float64(g.pos)*hi + float64(g.rows-g.pos)*lo) / float64(g.rows)
			p := 1 / (1 + math.Exp(cal.A[0]*g.score+cal.B[0]))
			bound := (math.Abs(inv.At(j, 0)) + math.Abs(inv.At(j, 1))) * gradientTolerance * float64(n)
			if math.Abs(p-mean) > bound+1e-15 {
				t.Errorf("%d classes, %v: the sigmoid at %v is %v, want the mean target %v within %.3g", c.K, c.groups, g.score, p, mean, bound)
			}
		}
	}
}

// randomScores returns the scores of trial, of n rows of K classes, at
// random: some that separate the classes, some whole numbers with many
// ties, some all alike, some of a class with no rows.
func randomScores(rnd *rand.Rand, trial int) (scores, y []float64, K int) {
	n := 1 + rnd.IntN(2000)
	K = []int{2, 2, 3, 5}[trial%4]
	S := scoresOf(K)
	scale := math.Pow(10, 6*rnd.Float64()-3)
	sep := 6 * rnd.Float64()
	scores = make([]float64, n*S)
	y = make([]float64, n)
	absent := trial%7 == 3 && K > 2
	for i := range y {
		y[i] = float64(rnd.IntN(K))
		if absent && y[i] == 1 {
			y[i] = 0
		}
		for k := range S {
			signal := 0.0
			if (S == 1 && y[i] == 1) || (S > 1 && y[i] == float64(k)) {
				signal = sep
			}
			v := scale * (rnd.NormFloat64() + signal)
			switch trial % 5 {
			case 1:
				v = math.Round(v / scale)
			case 4:
				v = 0.25
			}
			scores[i*S+k] = v
		}
	}
	return scores, y, K
}

// On random scores, each sigmoid against the rest is the minimum of the
// objective as scikit-learn writes it: its gradient, summed here afresh,
// is below the tolerance, and a step of each parameter either way raises
// the objective.
func TestCalibrationMinimum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 11))
	for trial := range 60 {
		scores, y, K := randomScores(rnd, trial)
		n, S := len(y), scoresOf(K)
		cal := &Calibration{OneVsRest: true}
		if err := cal.Fit(scores, y, K); err != nil {
			t.Fatalf("trial %d: %d rows, %d classes: %v", trial, n, K, err)
		}
		for k := range S {
			f, class := column(scores, y, S, k)
			A, B := cal.A[k], cal.B[k]
			top := 0.0
			for _, v := range f {
				top = max(top, math.Abs(v))
			}
			ga, gb := naiveGradient(f, class, A, B)
			// The tolerance is of the gradient in units of the largest
			// score; the two sums round differently by far less.
			tol := gradientTolerance*float64(n) + 1e-12*float64(n)
			if top > 0 && math.Abs(ga/top) > tol || math.Abs(gb) > tol {
				t.Errorf("trial %d, score %d of %d rows: A %v, B %v: gradient (%v, %v), over %v", trial, k, n, A, B, ga/top, gb, tol)
			}
			F := naiveObjective(f, class, A, B)
			for _, d := range []float64{-1, 1} {
				da, db := d*1e-3/max(top, 1e-300), d*1e-3
				if top > 0 && naiveObjective(f, class, A+da, B) < F || naiveObjective(f, class, A, B+db) < F {
					t.Errorf("trial %d, score %d: A %v, B %v is not the minimum: a step of %v lowers the objective", trial, k, A, B, d*1e-3)
				}
			}
		}
	}
}

// naiveSoftmax returns the objective of the softmax of the K scores of
// each row of slopes A and intercepts B against the targets that Fit
// documents, and its gradient, in the units of the scores: the sums over
// the rows of (t_k-p_k)·s_k and of t_k-p_k for each class k.
func naiveSoftmax(scores, y, A, B []float64) (F float64, gA, gB []float64) {
	K := len(A)
	count := make([]float64, K)
	for _, c := range y {
		count[int(c)]++
	}
	gA, gB = make([]float64, K), make([]float64, K)
	for i, c := range y {
		s := scores[i*K : (i+1)*K]
		z := make([]float64, K)
		sum := 0.0
		for k := range K {
			z[k] = A[k]*s[k] + B[k]
			sum += math.Exp(-z[k])
		}
		for k := range K {
			t := (1 - (count[int(c)]+1)/(count[int(c)]+2)) / float64(K-1)
			if k == int(c) {
				t = (count[k] + 1) / (count[k] + 2)
			}
			p := math.Exp(-z[k]) / sum
			F -= t * math.Log(p)
			gA[k] += (t - p) * s[k]
			gB[k] += t - p
		}
	}
	return F, gA, gB
}

// On random scores of more than two classes, the softmax is the minimum of
// its objective: the gradient, summed here afresh, is below the
// tolerance, the last intercept is 0 and the slope of scores all alike 0,
// and a step of each other parameter either way raises the objective.
func TestCalibrationSoftmaxMinimum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 12))
	for trial := range 60 {
		scores, y, K := randomScores(rnd, trial)
		if K == 2 {
			continue
		}
		n := len(y)
		cal := &Calibration{}
		if err := cal.Fit(scores, y, K); err != nil {
			t.Fatalf("trial %d: %d rows, %d classes: %v", trial, n, K, err)
		}
		F, gA, gB := naiveSoftmax(scores, y, cal.A, cal.B)
		tol := gradientTolerance*float64(n) + 1e-12*float64(n)
		if cal.B[K-1] != 0 {
			t.Errorf("trial %d: the last intercept is %v", trial, cal.B[K-1])
		}
		for k := range K {
			top := 0.0
			alike := true
			for i := range n {
				top = max(top, math.Abs(scores[i*K+k]))
				alike = alike && scores[i*K+k] == scores[k]
			}
			if alike && cal.A[k] != 0 {
				t.Errorf("trial %d: scores %d all alike, of slope %v", trial, k, cal.A[k])
			}
			if !alike && math.Abs(gA[k]/top) > tol || math.Abs(gB[k]) > tol {
				t.Errorf("trial %d, score %d of %d rows: gradient (%v, %v), over %v", trial, k, n, gA[k]/top, gB[k], tol)
			}
			for _, d := range []float64{-1, 1} {
				A, B := slices.Clone(cal.A), slices.Clone(cal.B)
				if !alike {
					A[k] += d * 1e-3 / top
					if f, _, _ := naiveSoftmax(scores, y, A, cal.B); f < F {
						t.Errorf("trial %d: a step of %v of slope %d lowers the objective", trial, d*1e-3, k)
					}
				}
				if k < K-1 {
					B[k] += d * 1e-3
					if f, _, _ := naiveSoftmax(scores, y, cal.A, B); f < F {
						t.Errorf("trial %d: a step of %v of intercept %d lowers the objective", trial, d*1e-3, k)
					}
				}
			}
		}
	}
}

// Scores that are all alike fit the intercepts alone, with the slopes 0:
// the probabilities are the mean targets, of two classes and, of three, of
// the softmax and of the sigmoids against the rest.
func TestCalibrationAlike(t *testing.T) {
	y := []float64{1, 0, 0, 1, 1}
	cal := &Calibration{}
	if err := cal.Fit([]float64{3, 3, 3, 3, 3}, y, 2); err != nil {
		t.Fatal(err)
	}
	mean := (3*(4.0/5) + 2*(1.0/4)) / 5
	if cal.A[0] != 0 || math.Abs(1/(1+math.Exp(cal.B[0]))-mean) > 1e-15 {
		t.Errorf("two classes: A %v, B %v, want 0 and a sigmoid of %v", cal.A[0], cal.B[0], mean)
	}
	// Of 3 rows of class 0, 2 of class 1 and 1 of class 2, the targets of
	// a row of a class of N rows are (N+1)/(N+2) and half the rest.
	y = []float64{0, 1, 0, 2, 1, 0}
	scores := []float64{1, -2, 7, 1, -2, 7, 1, -2, 7, 1, -2, 7, 1, -2, 7, 1, -2, 7}
	softmean := []float64{
		(3*4.0/5 + 2*1.0/8 + 1*1.0/6) / 6,
		(3*1.0/10 + 2*3.0/4 + 1*1.0/6) / 6,
		(3*1.0/10 + 2*1.0/8 + 1*2.0/3) / 6,
	}
	cal = &Calibration{}
	if err := cal.Fit(scores, y, 3); err != nil {
		t.Fatal(err)
	}
	p := make([]float64, 3)
	cal.probabilities(p, scores[:3])
	for k := range 3 {
		if cal.A[k] != 0 || math.Abs(p[k]-softmean[k]) > 1e-15 {
			t.Errorf("softmax: A %v, probabilities %v, want slopes 0 and %v", cal.A, p, softmean)
		}
	}
	cal = &Calibration{OneVsRest: true}
	if err := cal.Fit(scores, y, 3); err != nil {
		t.Fatal(err)
	}
	for k, N := range []float64{3, 2, 1} {
		mean := (N*(N+1)/(N+2) + (6-N)/(6-N+2)) / 6
		if q := 1 / (1 + math.Exp(cal.B[k])); cal.A[k] != 0 || math.Abs(q-mean) > 1e-15 {
			t.Errorf("one against the rest: class %d: A %v, sigmoid %v, want 0 and %v", k, cal.A[k], q, mean)
		}
	}
}

func TestCalibrationFitErrors(t *testing.T) {
	for _, c := range []struct {
		scores, y []float64
		K         int
		want      string
		kind      error
	}{
		{[]float64{1}, []float64{0}, 1, "1 classes, want 2 or more", perceptron.ErrLabels},
		{nil, nil, 2, "no rows", perceptron.ErrShape},
		{[]float64{1, 2}, []float64{0}, 2, "2 scores of 1 rows, want 1 for each row of 2 classes", perceptron.ErrShape},
		{[]float64{1, 2}, []float64{0, 1}, 3, "2 scores of 2 rows, want 3", perceptron.ErrShape},
		{[]float64{1, 2}, []float64{0, 2}, 2, "y[1] is 2, want a class: a whole number from 0 to 1", perceptron.ErrLabels},
		{[]float64{1, 2}, []float64{0.5, 1}, 2, "y[0] is 0.5", perceptron.ErrLabels},
		{[]float64{1, 2}, []float64{math.NaN(), 1}, 2, "y[0] is NaN", perceptron.ErrNonFinite},
		{[]float64{1, 0, 0, 2, 0, math.Inf(1)}, []float64{0, 1}, 3, "row 2: a score is +Inf", perceptron.ErrNonFinite},
	} {
		var cal Calibration
		err := cal.Fit(c.scores, c.y, c.K)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "data: ") || c.kind != nil && !errors.Is(err, c.kind) {
			t.Errorf("%v, %v, %d classes: %v, want %q", c.scores, c.y, c.K, err, c.want)
		}
	}
}

// The probabilities are those that the Calibration's documentation gives,
// computed here naively, within rounding: one sigmoid and its complement
// for two classes; for more, the softmax of the arguments, whose exp
// overflows here, not there, or with OneVsRest the sigmoids divided by
// their sum, and, where every sigmoid underflows, the division made in
// logarithms; of sigmoids or arguments that are all 0 in logarithms, the
// classes are alike.
func TestCalibrationProbabilities(t *testing.T) {
	two := &Calibration{A: []float64{-2}, B: []float64{0.5}}
	p := make([]float64, 2)
	for _, s := range []float64{-3, 0, 0.25, 7, 400} {
		two.probabilities(p, []float64{s})
		// The naive sigmoid rounds otherwise, by an ulp or two.
		q := 1 / (1 + math.Exp(-2*s+0.5))
		if math.Abs(p[1]-q) > 0x1p-51*q || p[0] != 1-p[1] {
			t.Errorf("score %v: %v, want %v", s, p, []float64{1 - q, q})
		}
	}
	soft := &Calibration{A: []float64{-1, -2, -0.5}, B: []float64{0, 1, -1}}
	p = make([]float64, 3)
	for _, s := range [][]float64{{0, 0, 0}, {3, -1, 2}, {-5, 5, 0}} {
		soft.probabilities(p, s)
		var e []float64
		sum := 0.0
		for k, v := range s {
			e = append(e, math.Exp(-(soft.A[k]*v + soft.B[k])))
			sum += e[k]
		}
		for k := range e {
			if math.Abs(p[k]-e[k]/sum) > 1e-15 {
				t.Errorf("softmax of scores %v: %v, want %v", s, p, e[k]/sum)
			}
		}
	}
	soft.probabilities(p, []float64{1000, 499, 0})
	e := 1 + math.Exp(-3)
	for k, want := range []float64{1 / e, math.Exp(-3) / e, 0} {
		if math.Abs(p[k]-want) > 1e-15 {
			t.Errorf("softmax of arguments -1000, -997, -1: %v, want %v", p, want)
		}
	}
	three := &Calibration{OneVsRest: true, A: []float64{-1, -2, -0.5}, B: []float64{0, 1, -1}}
	for _, s := range [][]float64{{0, 0, 0}, {3, -1, 2}, {-5, 5, 0}} {
		three.probabilities(p, s)
		var sig []float64
		sum := 0.0
		for k, v := range s {
			sig = append(sig, 1/(1+math.Exp(three.A[k]*v+three.B[k])))
			sum += sig[k]
		}
		for k := range sig {
			if math.Abs(p[k]-sig[k]/sum) > 1e-15 {
				t.Errorf("scores %v: %v, want %v", s, p, sig)
			}
		}
	}
	// exp(-800) and below underflow: the probabilities are those of
	// exp(-800), exp(-801), exp(-802) relative to each other.
	under := &Calibration{OneVsRest: true, A: []float64{0, 0, 0}, B: []float64{800, 801, 802}}
	under.probabilities(p, []float64{1, 2, 3})
	e = 1 + math.Exp(-1) + math.Exp(-2)
	for k, want := range []float64{1 / e, math.Exp(-1) / e, math.Exp(-2) / e} {
		if math.Abs(p[k]-want) > 1e-15 {
			t.Errorf("underflow: %v, want %v", p, want)
		}
	}
	for _, ovr := range []bool{false, true} {
		inf := &Calibration{OneVsRest: ovr, A: []float64{1e308, 1e308, 1e308}, B: []float64{0, 0, 0}}
		inf.probabilities(p, []float64{10, 20, 30})
		if !slices.Equal(p, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}) {
			t.Errorf("OneVsRest %t, arguments +Inf: %v, want the classes alike", ovr, p)
		}
	}
}

// Probabilities and Top of a Model whose scores are its rows: the
// probabilities of each row sum to 1, Top ranks them, the first of ties
// first, leaves out those below the threshold, and takes k beyond the
// classes as K.
func TestModelTop(t *testing.T) {
	m := identityModel(3)
	m.Calibration = &Calibration{A: []float64{-1, -1, -1}, B: []float64{0, 0, 0}}
	X := mat.NewDense(4, 3, []float64{
		0, 0, 0,
		2, 1, 3,
		-1, 5, -1,
		0.5, 0.5, -9,
	})
	probs, err := m.Probabilities(X)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		var sum float64
		for _, v := range probs[i*3 : i*3+3] {
			sum += v
		}
		if math.Abs(sum-1) > 4e-16 {
			t.Errorf("row %d: probabilities %v sum to %v", i, probs[i*3:i*3+3], sum)
		}
	}
	for _, c := range []struct {
		k         int
		threshold float64
		classes   []int
	}{
		{1, 0, []int{0, 2, 1, 0}},
		{2, 0, []int{0, 1, 2, 0, 1, 0, 0, 1}},
		{3, 0.34, []int{-1, -1, -1, 2, -1, -1, 1, -1, -1, 0, 1, -1}},
		{9, 0, []int{0, 1, 2, 2, 0, 1, 1, 0, 2, 0, 1, 2}},
		{1, 1, []int{-1, -1, -1, -1}},
	} {
		classes, p, err := m.Top(X, c.k, c.threshold)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(classes, c.classes) {
			t.Errorf("top %d, threshold %v: %v, want %v", c.k, c.threshold, classes, c.classes)
		}
		k := len(classes) / 4
		for j, cl := range classes {
			i := j / k
			want := 0.0
			if cl >= 0 {
				want = probs[i*3+cl]
			}
			if p[j] != want {
				t.Errorf("top %d, threshold %v: probability %d is %v, want %v", c.k, c.threshold, j, p[j], want)
			}
		}
	}
}

func TestModelTopErrors(t *testing.T) {
	X := mat.NewDense(1, 3, []float64{1, 2, 3})
	for _, c := range []struct {
		cal       *Calibration
		k         int
		threshold float64
		want      string
	}{
		{nil, 1, 0, "the Model has no Calibration"},
		{&Calibration{A: []float64{1, 2}, B: []float64{1, 2}}, 1, 0, "slopes and intercepts are 2 and 2, want 3 of each"},
		{&Calibration{A: []float64{1, 2, 3}, B: []float64{1, math.NaN(), 2}}, 1, 0, "score 2 has the slope or intercept NaN"},
		{&Calibration{A: []float64{1, 2, 3}, B: []float64{1, 2, 3}}, 0, 0, "the top 0 classes, want 1 or more"},
		{&Calibration{A: []float64{1, 2, 3}, B: []float64{1, 2, 3}}, 1, math.NaN(), "a threshold of probability NaN, want one in [0, 1]"},
		{&Calibration{A: []float64{1, 2, 3}, B: []float64{1, 2, 3}}, 1, 1.5, "a threshold of probability 1.5"},
	} {
		m := identityModel(3)
		m.Calibration = c.cal
		_, _, err := m.Top(X, c.k, c.threshold)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Top: %v, want %q", err, c.want)
		}
		if c.k == 1 && c.threshold == 0 {
			if _, err := m.Probabilities(X); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Probabilities: %v, want %q", err, c.want)
			}
		}
	}
}

// Calibrate fits to the Model's scores of the rows what Fit fits to them; the Set's classes must start with the Model's, and a row
// of another class is an error that changes nothing. Fit drops the
// Calibration, and Learn keeps it.
func TestModelCalibrate(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	X := mat.NewDense(400, 4, nil)
	y := make([]float64, 400)
	for i := range 400 {
		y[i] = float64(i % 3)
		for j := range 4 {
			X.Set(i, j, rnd.NormFloat64()+float64(j%3)*y[i])
		}
	}
	set := &Set{X: X, Y: y, Classes: []string{"a", "b", "c"}}
	train, held, err := Split(set, 0.3, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := &Model{Classifier: &perceptron.Averaged{Epochs: 3}}
	if err := m.Fit(train); err != nil {
		t.Fatal(err)
	}
	if err := m.Calibrate(held); err != nil {
		t.Fatal(err)
	}
	scores, err := m.Score(held.X)
	if err != nil {
		t.Fatal(err)
	}
	want := &Calibration{}
	if err := want.Fit(scores, held.Y, 3); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Calibration.A, want.A) || !slices.Equal(m.Calibration.B, want.B) {
		t.Errorf("Calibrate fitted %+v, Fit of its scores %+v", m.Calibration, want)
	}
	fitted := m.Calibration

	more := &Set{X: held.X, Y: held.Y, Classes: []string{"a", "b", "c", "d"}}
	if err := m.Calibrate(more); err != nil {
		t.Errorf("classes that start with the Model's: %v", err)
	}
	other := &Set{X: held.X, Y: slices.Clone(held.Y), Classes: []string{"a", "b", "c", "d"}}
	other.Y[5] = 3
	for _, c := range []struct {
		s    *Set
		want string
	}{
		{&Set{X: held.X, Y: held.Y, Classes: []string{"b", "a", "c"}}, `the Set's classes "b", "a", "c", want the Model's, "a", "b", "c", first`},
		{other, `row 6 is of the class "d", which is none of the Model's`},
		{&Set{X: held.X, Classes: []string{"a", "b", "c"}}, "the Set has none"},
	} {
		m.Calibration = fitted
		if err := m.Calibrate(c.s); err == nil || !strings.Contains(err.Error(), c.want) || m.Calibration != fitted {
			t.Errorf("%v, want %q and the Calibration as it was", err, c.want)
		}
	}
	if err := m.Classifier.(*perceptron.Averaged).Learn(held.X, held.Y); err != nil {
		t.Fatal(err)
	}
	if err := m.Learn(held); err != nil || m.Calibration != fitted {
		t.Errorf("Learn: %v, Calibration %p, want %p", err, m.Calibration, fitted)
	}
	if err := m.Fit(train); err != nil || m.Calibration != nil {
		t.Errorf("Fit: %v, Calibration %+v, want none", err, m.Calibration)
	}
}

// slopeSearch finds the minimum of a quadratic in one secant step past a
// step too long, doubles a step too short, accepts a step within its
// curvature at once, and closes in on the minimum of a function whose
// derivative is far from linear by the Illinois rule.
func TestSlopeSearch(t *testing.T) {
	for _, c := range []struct {
		name  string
		deriv func(s float64) float64 // of a convex function, < 0 at 0
		step  float64
		steps []float64 // asked for, the last taken
	}{
		{"quadratic past", func(s float64) float64 { return 10 * (s - 0.8) }, 1, []float64{1, 0.8}},
		{"within curvature", func(s float64) float64 { return 10 * (s - 3) }, 1, []float64{1}},
		{"short", func(s float64) float64 { return s - 10 }, 0.01, []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28}},
		{"cubic", func(s float64) float64 { return math.Pow(s, 3) - 1 }, 2, nil},
	} {
		var ls slopeSearch
		op := ls.Init(math.NaN(), c.deriv(0), c.step)
		step := c.step
		var asked []float64
		for op == optimize.GradEvaluation {
			asked = append(asked, step)
			var err error
			op, step, err = ls.Iterate(math.NaN(), c.deriv(step))
			if err != nil {
				t.Fatalf("%s: %v after %v", c.name, err, asked)
			}
			if len(asked) > 100 {
				t.Fatalf("%s: no step after %v", c.name, asked)
			}
		}
		if op != optimize.MajorIteration {
			t.Fatalf("%s: %v", c.name, op)
		}
		d := c.deriv(step)
		if !(d <= 0 && d >= slopeCurvature*c.deriv(0)) {
			t.Errorf("%s: took %v, of derivative %v", c.name, step, d)
		}
		if c.steps != nil && !slices.Equal(asked, c.steps) {
			t.Errorf("%s: asked for %v, want %v", c.name, asked, c.steps)
		}
	}
}

// The gradients and the Hessians of the objectives of the sigmoid and of
// the softmax are their central differences, within what the differences'
// truncation and rounding leave, at points at random.
func TestCalibrationDerivatives(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 9))
	scores, y, K := randomScores(rnd, 2) // of 3 classes
	n := len(y)
	count := make([]float64, K)
	for _, c := range y {
		count[int(c)]++
	}
	// Of the scores divided by the largest of their magnitudes, as the
	// fits divide them, a third derivative of each row is at most a few
	// units, which bounds the differences' truncation far below the
	// tolerance, and their rounding too.
	sm := &softmaxFit{scores: scores, y: y, K: K, scale: make([]float64, K), slot: []int{0, -1, 1}, own: make([]float64, K)}
	for k := range K {
		sm.own[k] = (count[k] + 1) / (count[k] + 2)
		for i := range n {
			sm.scale[k] = max(sm.scale[k], math.Abs(scores[i*K+k]))
		}
	}
	dim := 2 + K - 1
	sm.z, sm.v, sm.grad = make([]float64, K), make([]float64, dim), make([]float64, dim)
	sm.hess.Uplo, sm.hess.N, sm.hess.Stride, sm.hess.Data = blas.Upper, dim, dim, make([]float64, dim*dim)
	pl := &platt{scores: scores, S: K, col: 2, y: y, class: 2, scale: sm.scale[2], hi: 0.9, lo: 0.05}
	for range 5 {
		x := make([]float64, dim)
		for j := range x {
			x[j] = rnd.NormFloat64()
		}
		const h = 1e-5
		check := func(name string, f func([]float64) float64, grad func([]float64) []float64, hess func([]float64, int, int) float64, x []float64) {
			g := slices.Clone(grad(x))
			for a := range x {
				xp, xm := slices.Clone(x), slices.Clone(x)
				xp[a] += h
				xm[a] -= h
				if d := (f(xp) - f(xm)) / (2 * h); math.Abs(d-g[a]) > 1e-6*float64(n) {
					t.Errorf("%s: gradient %d is %v, its difference %v", name, a, g[a], d)
				}
				gp, gm := slices.Clone(grad(xp)), slices.Clone(grad(xm))
				for b := range x {
					if d := (gp[b] - gm[b]) / (2 * h); math.Abs(d-hess(x, a, b)) > 1e-6*float64(n) {
						t.Errorf("%s: Hessian (%d, %d) is %v, its difference %v", name, a, b, hess(x, a, b), d)
					}
				}
			}
		}
		check("softmax", sm.objective, func(x []float64) []float64 { sm.derivatives(x); return sm.grad },
			func(x []float64, a, b int) float64 { sm.derivatives(x); return sm.hess.Data[min(a, b)*dim+max(a, b)] }, x)
		check("sigmoid", pl.objective, func(x []float64) []float64 { pl.derivatives(x); return pl.grad[:] },
			func(x []float64, a, b int) float64 { pl.derivatives(x); return pl.hess[a+b] }, x[:2])
	}
}

// The softmax of many classes checks the memory of its Hessians before it
// allocates them: under a memory limit of 64 MiB more than is in use, the
// 640 MB of those of 2000 classes are an error of kind ErrTooLarge.
func TestCalibrationMemory(t *testing.T) {
	const K = 2000
	scores := make([]float64, 2*K)
	for k := range K {
		scores[k], scores[K+k] = float64(k), -float64(k)
	}
	y := []float64{0, 1}
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	debug.FreeOSMemory()
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	debug.SetMemoryLimit(int64(s[0].Value.Uint64()-s[1].Value.Uint64()) + 64<<20)
	var cal Calibration
	err := cal.Fit(scores, y, K)
	if !errors.Is(err, perceptron.ErrTooLarge) || !strings.Contains(err.Error(), "the Hessians of the softmax of 2000 classes") || cal.A != nil {
		t.Errorf("%v, A %v", err, cal.A)
	}
}
