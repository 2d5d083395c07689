// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/seed5ae3614e/perceptron"
)

// The fits of a Calibration: the problems of the sigmoid of one score, and
// of the softmax of all, and the method that minimises them.

// gradientTolerance is the largest element of the gradient of the
// objective of a calibration, in the units of scores of magnitude 1 at most,
// at which the fit stops, divided by the number of rows. Each term of the
// gradient's sums is at most 1 in magnitude, and their rounding, which
// grows in practice as the square root of their number times 2⁻⁵³, stays
// orders of magnitude below it.
const gradientTolerance = 1e-9

// platt is the problem of fitting the sigmoid of one score: the column
// col of the S scores of each row, divided by scale, the largest of their
// magnitudes, for the rows of class against the others, whose targets are
// hi and lo.
type platt struct {
	scores    []float64
	S, col    int
	y         []float64
	class     float64
	scale     float64
	hi, lo    float64
	at        [2]float64 // where grad and hess were last evaluated
	grad      [2]float64
	hess      [3]float64 // the elements aa, ab and bb
	evaluated bool
}

// objective returns the cross-entropy of the sigmoid of parameters x, A and
// B in units of the scale, against the targets.
func (p *platt) objective(x []float64) float64 {
	sum := 0.0
	for i, v := range p.y {
		t := p.lo
		if v == p.class {
			t = p.hi
		}
		z := x[0]*(p.scores[i*p.S+p.col]/p.scale) + x[1]
		// -(t·ln q + (1-t)·ln(1-q)), q = 1/(1+e^z), without overflow.
		if z >= 0 {
			sum += t*z + math.Log1p(math.Exp(-z))
		} else {
			sum += (t-1)*z + math.Log1p(math.Exp(z))
		}
	}
	return sum
}

// derivatives sets p.grad and p.hess to the gradient and the Hessian of
// the objective at x, in one pass over the rows, unless they are those of
// x already: Newton's method asks for both at each point.
func (p *platt) derivatives(x []float64) {
	if p.evaluated && p.at == [2]float64{x[0], x[1]} {
		return
	}
	var ga, gb, aa, ab, bb float64
	for i, v := range p.y {
		t := p.lo
		if v == p.class {
			t = p.hi
		}
		f := p.scores[i*p.S+p.col] / p.scale
		q := sigmoid(x[0]*f + x[1])
		d, w := t-q, q*(1-q)
		ga += d * f
		gb += d
		aa += w * f * f
		ab += w * f
		bb += w
	}
	p.at, p.grad, p.hess, p.evaluated = [2]float64{x[0], x[1]}, [2]float64{ga, gb}, [3]float64{aa, ab, bb}, true
}

// fitSigmoid returns A and B of the sigmoid of the scores of column col of
// the S scores of each row, for the rows of class against the others, as
// NewCalibration fits them.
func fitSigmoid(scores []float64, S, col int, y []float64, class float64) (a, b float64, err error) {
	p := &platt{scores: scores, S: S, col: col, y: y, class: class}
	pos := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, v := range y {
		if v == class {
			pos++
		}
		f := scores[i*S+col]
		lo, hi = min(lo, f), max(hi, f)
	}
	neg := len(y) - pos
	p.hi, p.lo = (float64(pos)+1)/(float64(pos)+2), 1/(float64(neg)+2)
	if lo == hi {
		// Scores all alike tell the rows apart by nothing: the sigmoid is
		// the mean of the targets, whatever A is.
		mean := (float64(pos)*p.hi + float64(neg)*p.lo) / float64(len(y))
		return 0, math.Log((1 - mean) / mean), nil
	}
	p.scale = max(-lo, hi)
	problem := optimize.Problem{
		Func: p.objective,
		Grad: func(grad, x []float64) {
			p.derivatives(x)
			copy(grad, p.grad[:])
		},
		Hess: func(hess *mat.SymDense, x []float64) {
			p.derivatives(x)
			hess.SetSym(0, 0, p.hess[0])
			hess.SetSym(0, 1, p.hess[1])
			hess.SetSym(1, 1, p.hess[2])
		},
	}
	x, err := minimize(problem, []float64{0, math.Log((float64(neg) + 1) / (float64(pos) + 1))}, len(y))
	if err != nil {
		return 0, 0, err
	}
	return x[0] / p.scale, x[1], nil
}

// minimize returns the minimum of the problem, whose objective is convex,
// from x0, by Newton's method with slopeSearch, to a gradient whose largest
// element is below gradientTolerance times the rows.
func minimize(problem optimize.Problem, x0 []float64, rows int) ([]float64, error) {
	settings := &optimize.Settings{
		GradientThreshold: gradientTolerance * float64(rows),
		MajorIterations:   100,
		Converger:         optimize.NeverTerminate{},
	}
	res, err := optimize.Minimize(problem, x0, settings, &optimize.Newton{Linesearcher: &slopeSearch{}})
	if err != nil {
		return nil, errorf(perceptron.ErrNotConverged, "%w", err)
	}
	if res.Status != optimize.GradientThreshold {
		return nil, errorf(perceptron.ErrNotConverged, "the method of Newton ended by %v", res.Status)
	}
	return res.X, nil
}

// slopeSearch is a line search, an optimize.Linesearcher, for a convex
// objective by its derivative along the line alone: the objective of a
// sigmoid, a sum over many rows, rounds too coarsely near its minimum to
// tell apart the points that its derivative tells apart. It takes the
// first step at which the derivative is at most 0 and at least
// slopeCurvature times its value at the start, where the objective is
// lower, as it is convex, and the strong Wolfe condition of curvature
// holds. It doubles the step until it finds one past the minimum, and then
// closes in on the minimum from both sides by the secant of the
// derivative, with the Illinois rule (Dowell and Jarratt, 1971).
type slopeSearch struct {
	d0       float64 // the derivative at the start
	lo, hi   float64 // steps short of the minimum and past it; hi is +Inf until one is found
	dlo, dhi float64 // the derivatives there, as the Illinois rule weighs them
	step     float64 // the step whose derivative is asked for
	moved    int     // the end that the last step moved: -1 lo, +1 hi, 0 neither
}

// slopeCurvature is the most that the derivative's magnitude may be at the
// step that slopeSearch takes, in times its magnitude at the start:
// gonum's Bisection's default.
const slopeCurvature = 0.9

// Init starts a line search from a derivative d0 < 0 with a first step.
func (s *slopeSearch) Init(_, d0, step float64) optimize.Operation {
	*s = slopeSearch{d0: d0, dlo: d0, hi: math.Inf(1), step: step}
	return optimize.GradEvaluation
}

// Iterate takes the derivative at the step asked for, and returns the step
// taken or the next to ask for.
func (s *slopeSearch) Iterate(_, d float64) (optimize.Operation, float64, error) {
	switch {
	case math.IsNaN(d):
		return optimize.NoOperation, s.step, optimize.ErrLinesearcherFailure
	case d <= 0 && d >= slopeCurvature*s.d0:
		return optimize.MajorIteration, s.step, nil
	case d < 0:
		if s.moved == -1 {
			s.dhi /= 2
		}
		s.lo, s.dlo, s.moved = s.step, d, -1
	default:
		if s.moved == 1 {
			s.dlo /= 2
		}
		s.hi, s.dhi, s.moved = s.step, d, 1
	}
	next := 2 * s.step
	if !math.IsInf(s.hi, 1) {
		next = s.lo + (s.hi-s.lo)*s.dlo/(s.dlo-s.dhi)
	}
	if !(next > s.lo && next < s.hi) {
		// The steps are as close as float64 takes them.
		return optimize.NoOperation, s.step, optimize.ErrLinesearcherFailure
	}
	s.step = next
	return optimize.GradEvaluation, next, nil
}

// sigmoid returns 1/(1+e^z), without overflow.
func sigmoid(z float64) float64 {
	if z >= 0 {
		e := math.Exp(-z)
		return e / (1 + e)
	}
	return 1 / (1 + math.Exp(z))
}

// softmaxFit is the problem of fitting the softmax of the K scores of each
// row, each score divided by scale, the largest of its magnitudes: the
// parameters x are the slopes of the scores that are not all alike, at
// slot, and then the intercepts of all the classes but the last, which is
// 0.
type softmaxFit struct {
	scores []float64 // K a row
	y      []float64
	K      int
	scale  []float64 // of each score, 0 for scores all alike
	slot   []int     // the place in x of the slope of each score, -1 for scores all alike
	own    []float64 // the target of a row's own class, by class; the others share the rest

	z, v      []float64 // of a row: the arguments, then the probabilities; and Σ_k p_k ∂z_k/∂x
	at        []float64 // where grad and hess were last evaluated
	grad      []float64
	hess      blas64.Symmetric
	evaluated bool
}

// dim returns the number of the parameters.
func (p *softmaxFit) dim() int { return len(p.v) }

// row sets p.z to the logarithms of the probabilities of the classes of
// row i of the parameters x, and returns the row's cross-entropy against
// its targets.
func (p *softmaxFit) row(x []float64, i int) float64 {
	K := p.K
	s := p.scores[i*K : (i+1)*K]
	nA := p.dim() - (K - 1)
	own, other := p.target(i)
	c := int(p.y[i])
	cross := 0.0
	for k := range K {
		z := 0.0
		if j := p.slot[k]; j >= 0 {
			z = x[j] * (s[k] / p.scale[k])
		}
		if k < K-1 {
			z += x[nA+k]
		}
		t := other
		if k == c {
			t = own
		}
		cross += t * z
		p.z[k] = -z
	}
	top := math.Inf(-1)
	for _, v := range p.z {
		top = max(top, v)
	}
	sum := 0.0
	for _, v := range p.z {
		sum += math.Exp(v - top)
	}
	lse := top + math.Log(sum)
	for k := range p.z {
		p.z[k] -= lse
	}
	return cross + lse
}

// target returns the targets of row i: of its own class, and of each other.
func (p *softmaxFit) target(i int) (own, other float64) {
	own = p.own[int(p.y[i])]
	return own, (1 - own) / float64(p.K-1)
}

// objective returns the cross-entropy of the probabilities of the
// parameters x against the targets.
func (p *softmaxFit) objective(x []float64) float64 {
	sum := 0.0
	for i := range p.y {
		sum += p.row(x, i)
	}
	return sum
}

// derivatives sets p.grad and p.hess to the gradient and the Hessian of
// the objective at x, unless they are those of x already. Of a row whose
// probabilities are p and the derivatives of whose arguments are the
// columns d_k, the Hessian is Σ_k p_k d_k d_kᵀ − v vᵀ, v = Σ_k p_k d_k.
func (p *softmaxFit) derivatives(x []float64) {
	if p.evaluated && slices.Equal(p.at, x) {
		return
	}
	K, dim := p.K, p.dim()
	nA := dim - (K - 1)
	clear(p.grad)
	clear(p.hess.Data)
	H := p.hess.Data
	for i := range p.y {
		p.row(x, i)
		s := p.scores[i*K : (i+1)*K]
		own, other := p.target(i)
		c := int(p.y[i])
		clear(p.v)
		for k := range K {
			q := math.Exp(p.z[k])
			t := other
			if k == c {
				t = own
			}
			a, b := p.slot[k], -1
			if k < K-1 {
				b = nA + k
			}
			f := 0.0
			if a >= 0 {
				f = s[k] / p.scale[k]
				p.grad[a] += (t - q) * f
				p.v[a] = q * f
				H[a*dim+a] += q * f * f
			}
			if b >= 0 {
				p.grad[b] += t - q
				p.v[b] = q
				H[b*dim+b] += q
				if a >= 0 {
					H[min(a, b)*dim+max(a, b)] += q * f
				}
			}
		}
		blas64.Syr(-1, blas64.Vector{N: dim, Inc: 1, Data: p.v}, p.hess)
	}
	p.at = append(p.at[:0], x...)
	p.evaluated = true
}

// fitSoftmax sets A and B to the slopes and the intercepts of the softmax of
// the K scores of each row, K the length of A, for the classes y, as a
// Calibration's Fit fits them.
func fitSoftmax(A, B, scores, y []float64) error {
	K, n := len(A), len(y)
	p := &softmaxFit{scores: scores, y: y, K: K, scale: make([]float64, K), slot: make([]int, K), own: make([]float64, K)}
	lo, hi := make([]float64, K), make([]float64, K)
	for k := range K {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	count := make([]float64, K)
	for i, c := range y {
		count[int(c)]++
		for k, v := range scores[i*K : (i+1)*K] {
			lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
		}
	}
	nA := 0
	for k := range K {
		p.own[k] = (count[k] + 1) / (count[k] + 2)
		p.slot[k] = -1
		if lo[k] < hi[k] {
			p.scale[k], p.slot[k] = max(-lo[k], hi[k]), nA
			nA++
		}
	}
	dim := nA + K - 1
	// Besides this one, optimize.Minimize keeps the Hessian of its
	// location and of the best, and Newton a copy and its factor.
	if err := checkMemory(5*8*float64(dim)*float64(dim), "the Hessians of the softmax of %d classes", K); err != nil {
		return err
	}
	p.z, p.v, p.grad = make([]float64, K), make([]float64, dim), make([]float64, dim)
	p.hess = blas64.Symmetric{Uplo: blas.Upper, N: dim, Stride: dim, Data: make([]float64, dim*dim)}
	// The slopes 0, and the intercepts of the mean targets, the minimum
	// of those of the slopes 0.
	mean := make([]float64, K)
	for k := range K {
		own := p.own[k]
		other := (1 - own) / float64(K-1)
		for j := range K {
			if j == k {
				mean[j] += count[k] * own
			} else {
				mean[j] += count[k] * other
			}
		}
	}
	x0 := make([]float64, dim)
	for k := range K - 1 {
		x0[nA+k] = math.Log(mean[K-1] / mean[k])
	}
	problem := optimize.Problem{
		Func: p.objective,
		Grad: func(grad, x []float64) {
			p.derivatives(x)
			copy(grad, p.grad)
		},
		Hess: func(hess *mat.SymDense, x []float64) {
			p.derivatives(x)
			for a := range dim {
				for b := a; b < dim; b++ {
					hess.SetSym(a, b, p.hess.Data[a*dim+b])
				}
			}
		},
	}
	x, err := minimize(problem, x0, n)
	if err != nil {
		return err
	}
	for k := range K {
		A[k], B[k] = 0, 0
		if j := p.slot[k]; j >= 0 {
			A[k] = x[j] / p.scale[k]
		}
		if k < K-1 {
			B[k] = x[nA+k]
		}
	}
	return nil
}
