// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/data"
)

// identity is a perceptron.Scorer of K classes whose scores of a row are
// the row's values: one column for two classes, K for more. It stands for
// the classifier whose scores both sides calibrate, as calibrate.py's
// Scores does.
type identity struct{ K int }

func (c identity) S() int {
	if c.K == 2 {
		return 1
	}
	return c.K
}

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
	if d != c.S() {
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

func (c identity) Predict([]float64) float64 { panic("identity: Predict") }

func (c identity) PredictRows([]float64, mat.Matrix) []float64 { panic("identity: PredictRows") }

// randomScores returns n rows of S scores of K classes, at random, the score
// of a row's class raised by sep, all times scale.
func randomScores(rnd *rand.Rand, n, K int, sep, scale float64) (scores, y []float64) {
	S := identity{K}.S()
	for range n {
		c := rnd.IntN(K)
		y = append(y, float64(c))
		for k := range S {
			v := rnd.NormFloat64()
			if (S == 1 && c == 1) || (S > 1 && c == k) {
				v += sep
			}
			scores = append(scores, scale*v)
		}
	}
	return scores, y
}

// TestSklearnSigmoid fits the sigmoids against the rest, Calibration
// {OneVsRest: true}, and scikit-learn's CalibratedClassifierCV(method=
// "sigmoid", cv="prefit") to the same scores of two classes and of more,
// and requires that they agree within the stopping rules of their
// optimisers.
//
// Both minimise the same convex objective F of A and B. scikit-learn's
// fmin_bfgs stops where the largest element of the gradient is below its
// gtol, 1e-5; Fit stops where it is below 1e-9 times the rows n, in the
// units of the scores divided by the largest magnitude s among them: a
// slope's element below 1e-9·n·s in the scores' units, an intercept's
// below 1e-9·n. The test first requires that each side meets its rule, as
// the gradient summed here measures it, to its rounding. Then, between
// the two points, g(θ₂) − g(θ₁) = H̄·(θ₂−θ₁), H̄ the mean of the Hessian
// Σ w_i (f_i, 1)(f_i, 1)ᵀ along the segment, w_i = p_i(1−p_i). The
// logarithm of each w_i changes by at most the change of its argument
// A·f_i+B, as |d ln w / dz| = |1−2p| ≤ 1: at most δ, the largest change of
// an argument between the points, so that H̄ ⪰ e^-δ·H(θ₁) and
// |θ₂−θ₁| ≤ e^δ·(|g(θ₁)| + |g(θ₂)|)/λ, λ the least eigenvalue of H(θ₁),
// the gradients' norms bounded by the stopping rules. The probabilities
// then differ as the arguments do: the logarithm of a sigmoid, or of its
// complement, moves by at most the change of its argument, and of a
// sigmoid divided by the sum of them all by at most twice the largest:
// |Δp| ≤ p·(e^(2·Δz) − 1).
func TestSklearnSigmoid(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		name       string
		n, K       int
		sep, scale float64
	}{
		{"two classes", 3000, 2, 1, 1},
		{"two classes apart", 400, 2, 4, 0.5},
		{"three classes", 2000, 3, 1.5, 2},
		{"five classes", 1500, 5, 2, 0.3},
	} {
		cal, ycal := randomScores(rnd, c.n, c.K, c.sep, c.scale)
		test, ytest := randomScores(rnd, 500, c.K, c.sep, c.scale)
		ours := &data.Calibration{OneVsRest: true}
		if err := ours.Fit(cal, ycal, c.K); err != nil {
			t.Fatal(err)
		}
		sig, probs, _, _, err := runCalibrate("/usr/bin/python3", t.TempDir(), &calibrationFiles{K: c.K, cal: cal, ycal: ycal, test: test, ytest: ytest})
		var missing errMissing
		if errors.As(err, &missing) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		S := identity{c.K}.S()
		if len(sig.A) != S || len(sig.B) != S {
			t.Fatalf("%s: scikit-learn fitted %d and %d parameters, want %d of each", c.name, len(sig.A), len(sig.B), S)
		}
		n := float64(c.n)
		maxDz := 0.0 // over the test scores
		for k := range S {
			f, pos := column(cal, ycal, S, k)
			s := 0.0
			for _, v := range f {
				s = max(s, math.Abs(v))
			}
			// The sums' rounding, here and there: n terms of at most s+1.
			round := 4 * n * 0x1p-53 * (s + 1)
			ga, gb := sigmoidGradient(f, pos, sig.A[k], sig.B[k])
			if max(math.Abs(ga), math.Abs(gb)) > 1e-5+round {
				t.Errorf("%s, score %d: scikit-learn stopped at the gradient (%v, %v), beyond its gtol 1e-5", c.name, k, ga, gb)
			}
			oa, ob := sigmoidGradient(f, pos, ours.A[k], ours.B[k])
			if math.Abs(oa) > 1e-9*n*s+round || math.Abs(ob) > 1e-9*n+round {
				t.Errorf("%s, score %d: Fit stopped at the gradient (%v, %v), beyond (%v, %v)", c.name, k, oa, ob, 1e-9*n*s, 1e-9*n)
			}
			var aa, ab, bb, delta float64
			dA, dB := ours.A[k]-sig.A[k], ours.B[k]-sig.B[k]
			for _, v := range f {
				p := 1 / (1 + math.Exp(ours.A[k]*v+ours.B[k]))
				w := p * (1 - p)
				aa, ab, bb = aa+w*v*v, ab+w*v, bb+w
				delta = max(delta, math.Abs(dA*v+dB))
			}
			lambda := (aa+bb)/2 - math.Sqrt((aa-bb)*(aa-bb)/4+ab*ab)
			g := math.Sqrt2*(1e-5+round) + math.Hypot(1e-9*n*s, 1e-9*n) + math.Sqrt2*round
			bound := math.Exp(delta) * g / lambda
			if d := math.Hypot(dA, dB); !(d <= bound) {
				t.Errorf("%s, score %d: A, B (%v, %v) here and (%v, %v) there, %.3g apart, beyond %.3g", c.name, k, ours.A[k], ours.B[k], sig.A[k], sig.B[k], d, bound)
			}
			for i := range ytest {
				v := test[i*S+k]
				maxDz = max(maxDz, math.Abs(dA*v+dB))
			}
		}
		m := &data.Model{Classifier: identity{c.K}, Calibration: ours}
		for k := range c.K {
			m.Classes = append(m.Classes, fmt.Sprint(k))
		}
		got, err := m.Probabilities(mat.NewDense(len(ytest), S, test))
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range got {
			if bound := p*math.Expm1(2*maxDz) + 1e-15; !(math.Abs(p-probs[i]) <= bound) {
				t.Errorf("%s: probability %d of test row %d is %v here and %v there, beyond %.3g", c.name, i%c.K, i/c.K, p, probs[i], bound)
			}
		}
	}
}
