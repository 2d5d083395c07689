// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// The second part of the max-margin solver of nearest.go: its start, and
// the passes over the data and the cycles on the working set that solve
// it to the stopping rule.

// marginIterations is the most iterations of DatasetMargin and
// NovikoffBound, each a pass over the data and work on the few rows that
// the pass picks; a few tens are usual. Tests lower it.
var marginIterations = 1000

// workingCandidates is the number of rows of least score that each group
// adds to the working set, besides the corral.
const workingCandidates = 32

// newNearest returns the solver for the rows of ds in groups groups, each
// augmented with aug, started. It returns an error if the scale r of the
// points is so large or so small that the squares the solver takes would
// overflow or lose their precision in underflow.
func newNearest(ds *dataset, groups int, aug, tol float64) (*nearest, error) {
	np := &nearest{
		ds:     ds,
		groups: groups,
		aug:    aug,
		tol:    tol,
		limit:  marginIterations,
		alpha:  make([]float64, ds.n),
		s:      make([]float64, ds.n),
		p:      make([]float64, ds.d),
		wp:     make([]float64, ds.d),
	}
	if err := np.start(); err != nil {
		return nil, err
	}
	if np.r > 0x1p200 || np.r > 0 && np.r < 0x1p-200 {
		return nil, errorf(ErrNonFinite, "perceptron: the scale of the rows, %g, is outside [2^-200, 2^200], where the margin's arithmetic would overflow or underflow: scale X", np.r)
	}
	return np, nil
}

// start sets the scale r and puts all the weight of each group on one row:
// through the origin the row nearest it, and with two groups the row of
// each class nearest the mean of the other. It returns the error of the
// halt of the rows if it stops it.
func (np *nearest) start() error {
	ds := np.ds
	halt, mask := ds.halt, ds.rowMask(1)
	first := [2]int{-1, -1}
	if np.groups == 1 {
		best := math.Inf(1)
		for i := range ds.n {
			if err := halt.poll(i, mask); err != nil {
				return err
			}
			nz := math.Hypot(ds.row(i).norm(), np.aug)
			if nz < best {
				best, first[0] = nz, i
			}
			np.r = math.Max(np.r, nz)
		}
	} else {
		var count [2]float64
		means := [2][]float64{make([]float64, ds.d), make([]float64, ds.d)}
		for i := range ds.n {
			if err := halt.poll(i, mask); err != nil {
				return err
			}
			g := np.group(i)
			x := ds.row(i)
			x.addTo(means[g], 1)
			count[g]++
		}
		mean := make([]float64, ds.d)
		np.center = mean
		floats.AddScaledTo(mean, means[1], 1, means[0])
		floats.Scale(1/(count[0]+count[1]), mean)
		floats.Scale(1/count[0], means[0])
		floats.Scale(1/count[1], means[1])
		np.cc = floats.Dot(mean, mean)
		norms := [2]float64{floats.Dot(means[0], means[0]), floats.Dot(means[1], means[1])}
		best := [2]float64{math.Inf(1), math.Inf(1)}
		for i := range ds.n {
			if err := halt.poll(i, mask); err != nil {
				return err
			}
			x, g := ds.row(i), np.group(i)
			np.r = math.Max(np.r, x.distance(mean, np.cc))
			if dist := x.distance(means[1-g], norms[1-g]); dist < best[g] {
				best[g], first[g] = dist, i
			}
		}
	}
	for g := range np.groups {
		np.alpha[first[g]] = 1
	}
	np.recompute()
	return nil
}

// solve runs the algorithm until the stopping rule of DatasetMargin holds,
// and leaves the hyperplane and its certificate in np.
func (np *nearest) solve() error {
	last := math.Inf(1)
	for {
		if err := np.pass(); err != nil {
			return err
		}
		norm := np.norm()
		np.upper = norm / float64(np.groups)
		lower := math.Inf(-1)
		if norm > 0 {
			lower = (np.least[0] + np.least[1]) / (float64(np.groups) * norm)
		}
		if np.done(lower) {
			if err := np.finish(); err != nil {
				return err
			}
			if np.done(np.lower) {
				return nil
			}
		}
		// Every cycle of Wolfe's algorithm brings p nearer the origin, and
		// while the rule does not hold the working set holds a point that
		// does; if p has not moved, rounding has stopped it. The score
		// of a point is known to about ε·R², against a gap that must fall
		// to Tol·γ², so this happens when (R/γ)² nears Tol/ε.
		if np.upper >= last || np.iters == np.limit {
			if err := np.finish(); err != nil {
				return err
			}
			if np.iters == np.limit {
				return errorf(ErrNotConverged, "perceptron: the margin did not converge in %d iterations: it lies in [%g, %g]", np.iters, np.lower, np.upper)
			}
			return errorf(ErrNotConverged, "perceptron: rounding stops the margin short of the tolerance: it lies in [%g, %g]", np.lower, np.upper)
		}
		last = np.upper
		np.iters++
		if err := np.work(); err != nil {
			return err
		}
	}
}

// done reports whether the stopping rule holds for the lower bound lower
// and np.upper.
func (np *nearest) done(lower float64) bool {
	if lower > 0 {
		return np.upper-lower <= np.tol*np.upper
	}
	return np.upper <= np.tol*np.r
}

func (np *nearest) norm() float64 {
	return math.Hypot(floats.Norm(np.p, 2), np.pc)
}

// pass computes the scores z_i·p of all rows and the least score of each
// group. It returns an error if a score overflows, or that of the halt of
// the rows if it stops it.
func (np *nearest) pass() error {
	ds := np.ds
	halt, mask := ds.halt, ds.rowMask(1)
	np.least = [2]float64{math.Inf(1), math.Inf(1)}
	if np.groups == 1 {
		np.least[1] = 0
	}
	off := np.aug * np.pc
	if np.center != nil {
		np.pcen = floats.Dot(np.p, np.center)
		off = -np.pcen
	}
	for i := range ds.n {
		if err := halt.poll(i, mask); err != nil {
			return err
		}
		x := ds.row(i)
		s := ds.sign(i) * (x.dot(np.p) + off)
		if !(math.Abs(s) <= math.MaxFloat64) {
			return errorAt(ErrNonFinite, i, -1, "perceptron: a score overflows at row %d: the data are too large", i)
		}
		np.s[i] = s
		g := np.group(i)
		np.least[g] = math.Min(np.least[g], s)
	}
	return nil
}

// work runs Wolfe's cycles on a working set until its stopping rule holds
// there with half the tolerance, or rounding stops them, and recomputes p
// from the weights. It returns the error of the halt of the rows if it
// stops it, which it polls at every row of the Gram matrix and every
// cycle, each of the order of a pass over the working set.
func (np *nearest) work() error {
	np.choose()
	ds, set := np.ds, np.set
	m, d := len(set), ds.d
	if ds.sparse() {
		np.xc = slices.Grow(np.xc[:0], m)[:m]
		for a, i := range set {
			np.xc[a] = 0
			if np.center != nil {
				x := ds.row(i)
				np.xc[a] = x.dot(np.center)
			}
		}
	} else {
		np.rows = slices.Grow(np.rows[:0], m*d)[:m*d]
		for a, i := range set {
			z := np.rows[a*d : a*d+d]
			ds.row(i).denseTo(z)
			if np.center != nil {
				floats.Sub(z, np.center)
			}
			floats.Scale(ds.sign(i), z)
		}
	}
	np.gram = slices.Grow(np.gram[:0], m*m)[:m*m]
	aug2 := np.aug * np.aug
	np.shift = 0
	for a := range set {
		if err := ds.halt.err(); err != nil {
			return err
		}
		for c := range a + 1 {
			g := np.product(a, c) + aug2*ds.sign(set[a])*ds.sign(set[c])
			np.gram[a*m+c], np.gram[c*m+a] = g, g
		}
		np.shift = math.Max(np.shift, np.gram[a*m+a])
	}
	np.ws = slices.Grow(np.ws[:0], m)[:m]
	np.l = slices.Grow(np.l[:0], (m+1)*(m+1))[:(m+1)*(m+1)]
	np.col = slices.Grow(np.col[:0], m+1)[:m+1]
	np.q = slices.Grow(np.q[:0], 3*(m+1))[:3*(m+1)]
	np.corral = np.corral[:0]
	for a, i := range set {
		if np.alpha[i] > 0 {
			np.corral = append(np.corral, a)
		}
	}
	if !np.factor() {
		return nil
	}

	// Each major cycle adds a point, and the minor cycles after it drop at
	// most as many; in exact arithmetic no corral repeats, and the limit
	// only guards against rounding.
	minor := false
	last := math.Inf(1)
	for range 4 * m {
		if err := ds.halt.err(); err != nil {
			return err
		}
		k, add, ok := np.cycle(minor)
		if !ok {
			break
		}
		if add && !np.add(k) {
			break
		}
		pp := np.pp
		var dropped bool
		if dropped, ok = np.step(); !ok || !add && !dropped && !(pp < last) {
			break
		}
		minor, last = dropped, pp
	}
	np.recompute()
	return nil
}

// cycle computes p and the scores on the working set directly from the
// coordinates of the points, so that they are as accurate as those of a
// pass, and decides the next cycle. It reports false if the stopping rule
// holds on the working set with half the tolerance. Otherwise it returns
// the point of least score in the group where it falls furthest below the
// scores of the corral, and whether to add it to the corral: a major cycle
// adds it, unless the last step stopped at an emptied weight (minor is
// true) or the scores of the corral are still spread too widely for it to
// be affinely independent of the corral, when the next step only moves p
// nearer the point of least norm of the corral's affine hull.
func (np *nearest) cycle(minor bool) (k int, add, ok bool) {
	set, ws := np.set, np.ws
	wp := np.wp
	clear(wp)
	wpc, shift := 0.0, 0.0
	for _, c := range np.corral {
		a := np.alpha[set[c]]
		shift += np.addPoint(wp, c, a)
		wpc += a * np.ds.sign(set[c])
	}
	if shift != 0 {
		floats.AddScaled(wp, -shift, np.center)
	}
	wpc *= np.aug
	wcen := 0.0
	if np.ds.sparse() && np.center != nil {
		wcen = floats.Dot(wp, np.center)
	}
	for a, i := range set {
		ws[a] = np.pointDot(wp, a, wcen) + np.aug*np.ds.sign(i)*wpc
	}

	lo := [2]float64{math.Inf(1), math.Inf(1)}
	hi := [2]float64{math.Inf(-1), math.Inf(-1)}
	np.pp = 0
	for _, c := range np.corral {
		g := np.group(set[c])
		hi[g] = math.Max(hi[g], ws[c])
		lo[g] = math.Min(lo[g], ws[c])
		np.pp += np.alpha[set[c]] * ws[c]
	}
	spread := hi[0] - lo[0]
	least := lo
	var at [2]int
	for a, i := range set {
		if g := np.group(i); ws[a] < least[g] {
			least[g], at[g] = ws[a], a
		}
	}
	if np.groups == 1 {
		hi[1], least[1] = 0, 0
	} else {
		spread += hi[1] - lo[1]
	}
	tol := np.tol / 2
	if hi[0]-least[0]+hi[1]-least[1] <= tol*np.pp {
		return 0, false, false
	}
	if least[0]+least[1] <= 0 && math.Sqrt(math.Max(np.pp, 0)) <= tol*np.r*float64(np.groups) {
		return 0, false, false
	}
	g := 0
	if np.groups == 2 && hi[1]-least[1] > hi[0]-least[0] {
		g = 1
	}
	if least[g] < lo[g] && !minor && lo[g]-least[g] > 2*spread {
		return at[g], true, true
	}
	return 0, false, true
}

// choose sets the working set to the corral, the rows with weight, and in
// each group the workingCandidates rows without weight of least score.
func (np *nearest) choose() {
	np.set = np.set[:0]
	for i, a := range np.alpha {
		if a > 0 {
			np.set = append(np.set, i)
		}
	}
	for g := range np.groups {
		cand := np.cand[:0]
		for i, s := range np.s {
			if np.alpha[i] > 0 || np.group(i) != g {
				continue
			}
			if len(cand) == workingCandidates && s >= np.s[cand[len(cand)-1]] {
				continue
			}
			at, _ := slices.BinarySearchFunc(cand, s, func(c int, s float64) int { return cmp.Compare(np.s[c], s) })
			if len(cand) < workingCandidates {
				cand = append(cand, 0)
			}
			copy(cand[at+1:], cand[at:])
			cand[at] = i
		}
		np.set = append(np.set, cand...)
		np.cand = cand
	}
}

// recompute sets p to Σ α_i z_i.
func (np *nearest) recompute() {
	clear(np.p)
	np.pc = 0
	for i, a := range np.alpha {
		if a > 0 {
			x := np.ds.row(i)
			x.addTo(np.p, a*np.ds.sign(i))
			np.pc += a * np.ds.sign(i)
		}
	}
	if np.center != nil {
		// Σ α_i y_i is 0 but for rounding.
		floats.AddScaled(np.p, -np.pc, np.center)
	}
	np.pc *= np.aug
}

// finish sets the hyperplane and its margin np.lower from p and the last
// pass. With two groups the bias puts the hyperplane halfway between the
// least scores of the classes; with the augmented coordinate the bias is
// pc and the margin is measured with the norm of (p, pc).
func (np *nearest) finish() error {
	np.b = 0
	if np.groups == 2 {
		np.b = -(np.least[0]-np.least[1])/2 - np.pcen
	}
	if np.aug != 0 {
		np.b = np.pc * np.aug
	}
	m, err := np.ds.functionalMargin(np.p, np.b)
	if err != nil {
		return err
	}
	// Without the augmented coordinate pc is 0, and the norm that of p.
	np.lower = geometric(m, np.norm())
	// The margin of a hyperplane cannot exceed the margin of the data;
	// where rounding says otherwise, the attained margin is the better
	// upper bound.
	np.upper = math.Max(np.upper, np.lower)
	return nil
}
