// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ipmNaive is iterative parameter mixing as McDonald, Hall and Mann (2010)
// describe it, in plain loops: in each round every shard's copy of the
// mixed model visits the shard's rows once, in order, and the mixture is
// the sum of the copies' weights times μ_k, in the order of the shards,
// μ_k being 1/K, or with byMistakes the shard's share of the round's
// mistakes. For the averaged perceptron it sums the weights after every
// visit of every copy. It stops after a round with no mistake, or after
// epochs rounds, and then, for the average, goes on adding the last
// weights for the visits of the rounds left, as many times as there are
// rows.
type ipmNaive struct {
	m        *learnNaive
	sum      *learnNaive // the sums, for the average
	visits   int
	mistakes []int // per round
}

func runIPMNaive(shards []learnData, classes []float64, w0 []float64, d int, bias bool, rate float64, epochs int, byMistakes bool) *ipmNaive {
	S := scores(classes)
	r := &ipmNaive{m: newLearnNaive(d, S, w0, bias, rate), sum: newLearnNaive(d, S, nil, bias, rate)}
	rows := 0
	for _, sh := range shards {
		rows += len(sh.rows)
	}
	for round := 1; round <= epochs; round++ {
		copies := make([]*learnNaive, len(shards))
		made := make([]int, len(shards))
		total := 0
		for k, sh := range shards {
			c := r.m.clone()
			for i, x := range sh.rows {
				cls, _ := slices.BinarySearch(classes, sh.y[i])
				if c.visit(x, cls) {
					made[k]++
				}
				r.sum.add(c, 1)
				r.visits++
			}
			copies[k] = c
			total += made[k]
		}
		mixed := newLearnNaive(d, S, nil, bias, rate)
		for k, c := range copies {
			mu := 1 / float64(len(shards))
			if byMistakes && total > 0 {
				mu = float64(made[k]) / float64(total)
			}
			mixed.add(c, mu)
		}
		r.m = mixed
		r.mistakes = append(r.mistakes, total)
		if total == 0 {
			left := (epochs - round) * rows
			r.sum.add(r.m, float64(left))
			r.visits += left
			break
		}
	}
	return r
}

func (m *learnNaive) clone() *learnNaive {
	c := &learnNaive{b: slices.Clone(m.b), bias: m.bias, rate: m.rate}
	for _, w := range m.w {
		c.w = append(c.w, slices.Clone(w))
	}
	return c
}

// add adds a times the weights and biases of o to m's.
func (m *learnNaive) add(o *learnNaive, a float64) {
	for c := range m.w {
		for j := range m.w[c] {
			m.w[c][j] += a * o.w[c][j]
		}
		m.b[c] += a * o.b[c]
	}
}

// ipmShards cuts the rows of data into k shards of at least one row, of
// random sizes, in order.
func ipmShards(rnd *rand.Rand, data learnData, k int) ([]learnData, []mat.Matrix, [][]float64) {
	n := len(data.rows)
	cuts := append(rnd.Perm(n - 1)[:k-1], n-1)
	for i := range cuts {
		cuts[i]++
	}
	slices.Sort(cuts)
	var parts []learnData
	var X []mat.Matrix
	var y [][]float64
	lo := 0
	for _, hi := range cuts {
		part := learnData{rows: data.rows[lo:hi], y: data.y[lo:hi], classes: data.classes}
		parts = append(parts, part)
		X = append(X, mat.NewDense(hi-lo, len(data.rows[0]), slices.Concat(part.rows...)))
		y = append(y, part.y)
		lo = hi
	}
	return parts, X, y
}

// ipmData draws a set of learnDraw that has rows of two classes at least,
// with its rows and labels filled in.
func ipmData(rnd *rand.Rand, n, d, K int, integer, separable bool) learnData {
	data := learnDraw(rnd, n, d, K, integer, separable)
	for !ipmTwoClasses(data.cls) {
		data = learnDraw(rnd, n, d, K, integer, separable)
	}
	data.rows = make([][]float64, n)
	for i := range n {
		data.rows[i] = data.X.RawRowView(i)
		data.y[i] = data.classes[data.cls[i]]
	}
	return data
}

func ipmTwoClasses(cls []int) bool {
	return slices.ContainsFunc(cls, func(c int) bool { return c != cls[0] })
}

// TestFitShardsMatchesNaive checks FitShards of Perceptron and Averaged
// against ipmNaive, on random integer sets in 1, 2 or 4 shards of random
// sizes, of two classes and more, separable or not, with and without
// bias, InitWeights and Rate: with uniform mixing the mixtures are
// fractions of a power of two, every sum is exact, and the weights, the
// averages and the Stats are the naive ones to the bit. With byMistakes
// the mixtures round: the Stats are the naive ones unless a score is
// within 1e-9 of a tie, and the weights are within a bound of the rounding
// of the sums.
func TestFitShardsMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(0x1b3, 26))
	skipped, trials := 0, 0
	for trial := range 240 {
		K := []int{2, 2, 3, 4}[trial%4]
		k := []int{1, 2, 4}[rnd.IntN(3)]
		d := 1 + rnd.IntN(4)
		data := ipmData(rnd, k+2*K+rnd.IntN(30), d, K, true, trial%3 != 0)
		parts, X, y := ipmShards(rnd, data, k)
		S := scores(data.classes)
		var w0 []float64
		if rnd.IntN(3) == 0 {
			w0 = make([]float64, d*S)
			for j := range w0 {
				w0[j] = float64(rnd.IntN(5) - 2)
			}
		}
		bias := rnd.IntN(4) > 0
		rate := []float64{0, 0.5, 2}[rnd.IntN(3)]
		epochs := 1 + rnd.IntN(10)
		byMistakes := trial%2 == 1
		naive := runIPMNaive(parts, data.classes, w0, d, bias, rate, epochs, byMistakes)
		name := fmt.Sprintf("trial %d (%d rows of %d classes in %d shards, bias %t, rate %v, w0 %v, epochs %d, byMistakes %t)", trial, len(data.rows), K, k, bias, rate, w0, epochs, byMistakes)
		if byMistakes && ipmNearTie(parts, data.classes, w0, d, bias, rate, epochs) {
			skipped++
			continue
		}
		trials++
		p := &Perceptron{Epochs: epochs, NoBias: !bias, Rate: rate, InitWeights: w0, Labels: data.classes}
		a := &Averaged{Epochs: epochs, NoBias: !bias, Rate: rate, InitWeights: w0, Labels: data.classes}
		for _, m := range []Classifier{p, a} {
			if err := FitShards(m, X, y, byMistakes); err != nil {
				t.Fatalf("%s: %T: %v", name, m, err)
			}
		}
		st := p.Stats()
		converged := naive.mistakes[len(naive.mistakes)-1] == 0
		if st.Epochs != len(naive.mistakes) || !slices.Equal(st.EpochMistakes, naive.mistakes) || st.Converged != converged || st.EpochLoss != nil {
			t.Fatalf("%s: Stats %+v, want the mistakes %v", name, st, naive.mistakes)
		}
		if ast := a.Stats(); !statsEqual(ast, st) {
			t.Fatalf("%s: the Averaged's Stats %+v, the Perceptron's %+v", name, ast, st)
		}
		w, b := p.Weights()
		nw, nb := naive.m.flat()
		aw, ab := a.Weights()
		sw, sb := naive.sum.flat()
		for j := range sw {
			sw[j] /= float64(naive.visits)
		}
		for c := range sb {
			sb[c] /= float64(naive.visits)
		}
		if !byMistakes {
			if !slices.Equal(w, nw) || !slices.Equal(b, nb) {
				t.Fatalf("%s: weights %v %v, want %v %v", name, w, b, nw, nb)
			}
			if !slices.Equal(aw, sw) || !slices.Equal(ab, sb) {
				t.Fatalf("%s: averaged weights %v %v, want %v %v", name, aw, ab, sw, sb)
			}
			continue
		}
		// Each weight is a sum of at most one term per visit of every round,
		// each of magnitude at most max|x|·Rate, and each mixture adds one
		// rounding of 2⁻⁵³ per shard to each weight: the error is below
		// rounds·(visits+shards)·eps times the largest partial sum.
		bound := float64(epochs*(len(data.rows)+k+2)) * esU * ipmScale(rate, 3, nw, nb, sw, sb)
		for _, c := range []struct{ got, want []float64 }{{w, nw}, {b, nb}, {aw, sw}, {ab, sb}} {
			for j := range c.want {
				if math.Abs(c.got[j]-c.want[j]) > bound {
					t.Fatalf("%s: %v, want %v within %g", name, c.got, c.want, bound)
				}
			}
		}
	}
	if skipped > trials/4 {
		t.Errorf("%d trials skipped for near ties, %d run", skipped, trials)
	}
}

// ipmScale returns the largest magnitude of the weights, and of the
// updates of the rate on rows of elements at most xmax, times 8.
func ipmScale(rate float64, xmax float64, ws ...[]float64) float64 {
	if rate == 0 {
		rate = 1
	}
	big := rate * (xmax + 1)
	for _, w := range ws {
		for _, v := range w {
			big = max(big, math.Abs(v))
		}
	}
	return 8 * big
}

// ipmNearTie reports whether a run of ipmNaive with byMistakes scores a
// row within 1e-9 of a tie with weights that are not whole numbers, where
// rounding may decide a visit.
func ipmNearTie(parts []learnData, classes, w0 []float64, d int, bias bool, rate float64, epochs int) bool {
	S := scores(classes)
	m := newLearnNaive(d, S, w0, bias, rate)
	for range epochs {
		copies := make([]*learnNaive, len(parts))
		made := make([]int, len(parts))
		total := 0
		for k, sh := range parts {
			c := m.clone()
			for i, x := range sh.rows {
				cls, _ := slices.BinarySearch(classes, sh.y[i])
				if c.nearTie(x, cls) && !c.integer() {
					return true
				}
				if c.visit(x, cls) {
					made[k]++
				}
			}
			copies[k] = c
			total += made[k]
		}
		if total == 0 {
			return false
		}
		m = newLearnNaive(d, S, nil, bias, rate)
		for k, c := range copies {
			m.add(c, float64(made[k])/float64(total))
		}
	}
	return false
}

// integer reports whether the weights and biases of m are whole numbers,
// whose scores on the integer rows are exact.
func (m *learnNaive) integer() bool {
	fraction := func(v float64) bool { return v != math.Trunc(v) }
	for c := range m.w {
		if fraction(m.b[c]) || slices.ContainsFunc(m.w[c], fraction) {
			return false
		}
	}
	return true
}

// nearTie reports whether the score of x's class is within 1e-9 of the
// greatest other, or y times the score of 0 with two classes, or the two
// greatest others within 1e-9 of each other, which decides the class that
// an update lowers.
func (m *learnNaive) nearTie(x []float64, c int) bool {
	s := make([]float64, len(m.b))
	for k := range s {
		s[k] = m.b[k]
		for j := range x {
			s[k] += m.w[k][j] * x[j]
		}
	}
	if len(s) == 1 {
		return math.Abs(s[0]) < 1e-9
	}
	o := argmax(s, c)
	near := math.Abs(s[c]-s[o]) < 1e-9
	s[c] = math.Inf(-1)
	return near || math.Abs(s[o]-s[argmax(s, o)]) < 1e-9
}

// statsEqual reports whether a and b are equal, field by field.
func statsEqual(a, b Stats) bool {
	return a.Epochs == b.Epochs && a.Converged == b.Converged && a.Mistakes == b.Mistakes &&
		slices.Equal(a.EpochMistakes, b.EpochMistakes) && slices.Equal(a.EpochLoss, b.EpochLoss) &&
		slices.Equal(a.EpochAccuracy, b.EpochAccuracy)
}

// TestFitShardsOneShard checks that FitShards of one shard is Fit in
// index order: a round of one shard is an epoch. The Perceptron is Fit's
// to the bit on real data, and the Averaged on integer data, where Fit's
// closed form and Learn's running sums are both exact; the Stats are Fit's
// but for the loss.
func TestFitShardsOneShard(t *testing.T) {
	rnd := rand.New(rand.NewPCG(0x1, 26))
	for trial := range 60 {
		K := 2 + trial%3
		integer := trial%2 == 0
		data := ipmData(rnd, 5+rnd.IntN(40), 1+rnd.IntN(6), K, integer, trial%4 < 2)
		epochs := 1 + rnd.IntN(12)
		name := fmt.Sprintf("trial %d", trial)
		p, ps := &Perceptron{Epochs: epochs}, &Perceptron{Epochs: epochs}
		a, as := &Averaged{Epochs: epochs}, &Averaged{Epochs: epochs}
		for _, m := range []Classifier{p, a} {
			if err := m.Fit(data.X, data.y); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range []Classifier{ps, as} {
			if err := FitShards(m, []mat.Matrix{data.X}, [][]float64{data.y}, trial%3 == 0); err != nil {
				t.Fatal(err)
			}
		}
		want := p.Stats()
		want.EpochLoss = nil
		if got := ps.Stats(); !statsEqual(got, want) {
			t.Fatalf("%s: Stats %+v, want %+v", name, got, want)
		}
		if got := as.Stats(); !statsEqual(got, want) {
			t.Fatalf("%s: Averaged Stats %+v, want %+v", name, got, want)
		}
		w, b := p.Weights()
		sw, sb := ps.Weights()
		if !slices.Equal(w, sw) || !slices.Equal(b, sb) {
			t.Fatalf("%s: weights %v %v, want Fit's %v %v", name, sw, sb, w, b)
		}
		if !integer {
			continue
		}
		w, b = a.Weights()
		sw, sb = as.Weights()
		if !slices.Equal(w, sw) || !slices.Equal(b, sb) {
			t.Fatalf("%s: averaged weights %v %v, want Fit's %v %v", name, sw, sb, w, b)
		}
	}
}

// TestMixMistakeBound checks the bound of Theorem 3 of McDonald, Hall and
// Mann (2010) on random separable sets in 2 to 8 shards, mixing uniformly
// and by mistakes, from zero weights: over the rounds, the mistakes k_i of
// each shard times its mixing weight μ_i sum to at most R²/γ², R bounding
// the norm of the difference of the joint features of two classes of a
// row and γ the margin of a unit separator. As every round with a mistake
// adds at least 1 by mistakes and 1/S uniformly, the run converges within
// R²/γ² rounds, or S times that.
func TestMixMistakeBound(t *testing.T) {
	rnd := rand.New(rand.NewPCG(0xb0, 26))
	for trial := range 120 {
		K := 2 + trial%3
		d := 1 + rnd.IntN(5)
		data := ipmData(rnd, 10+rnd.IntN(80), d, K, trial%2 == 0, true)
		_, X, y := ipmShards(rnd, data, 2+rnd.IntN(7))
		R2, gamma := ipmBound(data)
		bound := R2 / (gamma * gamma)
		S := float64(len(X))
		for _, byMistakes := range []bool{false, true} {
			for _, m := range []Classifier{&Perceptron{Labels: distinct(data.y)}, &Averaged{Labels: distinct(data.y)}} {
				weighted, rounds := 0.0, 0
				for {
					shards := make([]Classifier, len(X))
					k := make([]float64, len(X))
					total := 0.0
					for i := range X {
						s, err := LearnShard(m, X[i], y[i])
						if err != nil {
							t.Fatal(err)
						}
						shards[i] = s
						k[i] = float64(s.(interface{ Stats() Stats }).Stats().Mistakes)
						total += k[i]
					}
					if total == 0 {
						break
					}
					rounds++
					for _, ki := range k {
						mu := 1 / S
						if byMistakes {
							mu = ki / total
						}
						weighted += mu * ki
					}
					if err := Mix(m, shards, byMistakes); err != nil {
						t.Fatal(err)
					}
					if weighted > bound || !byMistakes && float64(rounds) > S*bound || byMistakes && float64(rounds) > bound {
						t.Fatalf("trial %d: %T, byMistakes %t: after %d rounds the weighted mistakes are %v; the bound is %v", trial, m, byMistakes, rounds, weighted, bound)
					}
				}
			}
		}
	}
}

// ipmBound returns R² and γ of a separable set: R the greatest norm of
// the difference of the joint features of two classes of a row, the row
// with a 1 for the bias in each of two blocks, or once with two classes;
// γ the least margin of the unit separator that Perceptron's Fit finds,
// run to convergence on all the rows. Any separator bounds the mistakes.
func ipmBound(data learnData) (R2, gamma float64) {
	// A separator: the Perceptron run to convergence, whose weights
	// separate the rows with some margin.
	p := &Perceptron{Epochs: 100000}
	if err := p.Fit(data.X, data.y); err != nil || !p.Stats().Converged {
		panic(fmt.Sprintf("a separable set: %v, %+v", err, p.Stats()))
	}
	w, b := p.Weights()
	S := len(b)
	norm := 0.0
	for _, v := range append(slices.Clone(w), b...) {
		norm += v * v
	}
	norm = math.Sqrt(norm)
	classes := distinct(data.y)
	gamma = math.Inf(1)
	for i, x := range data.rows {
		s := make([]float64, S)
		for c := range S {
			s[c] = b[c]
			for j := range x {
				s[c] += w[j*S+c] * x[j]
			}
		}
		x2 := 1.0
		for _, v := range x {
			x2 += v * v
		}
		c := slices.Index(classes, data.y[i])
		if S == 1 {
			R2 = max(R2, x2)
			gamma = min(gamma, float64(2*c-1)*s[0]/norm)
			continue
		}
		// The joint features of two classes differ by the row in each of
		// two blocks.
		R2 = max(R2, 2*x2)
		gamma = min(gamma, (s[c]-s[argmax(s, c)])/norm)
	}
	return R2, gamma
}

// TestMixByHand checks that rounds of LearnShard and Mix, the way a
// pipeline that runs them on other machines does, give FitShards' model
// to the bit, and that LearnShard leaves the model alone.
func TestMixByHand(t *testing.T) {
	rnd := rand.New(rand.NewPCG(0x4a, 26))
	for trial := range 40 {
		data := ipmData(rnd, 20+rnd.IntN(40), 1+rnd.IntN(5), 2+trial%3, false, trial%2 == 0)
		_, X, y := ipmShards(rnd, data, 1+rnd.IntN(5))
		byMistakes := trial%4 < 2
		for _, kind := range []string{"Perceptron", "Averaged"} {
			fresh := func() Classifier {
				if kind == "Perceptron" {
					return &Perceptron{Epochs: 6, Labels: data.classes}
				}
				return &Averaged{Epochs: 6, Labels: data.classes}
			}
			want := fresh()
			if err := FitShards(want, X, y, byMistakes); err != nil {
				t.Fatal(err)
			}
			m := fresh()
			rounds := want.(interface{ Stats() Stats }).Stats().Epochs
			for range rounds {
				before := mustJSON(t, m)
				shards := make([]Classifier, len(X))
				for k := range X {
					s, err := LearnShard(m, X[k], y[k])
					if err != nil {
						t.Fatal(err)
					}
					shards[k] = s
				}
				if after := mustJSON(t, m); !bytes.Equal(before, after) {
					t.Fatalf("trial %d: LearnShard changed the model:\n%s\n%s", trial, before, after)
				}
				if err := Mix(m, shards, byMistakes); err != nil {
					t.Fatal(err)
				}
			}
			if got, w := mustJSON(t, m), mustJSON(t, want); !bytes.Equal(got, w) {
				t.Fatalf("trial %d: %s by hand:\n%s\nby FitShards:\n%s", trial, kind, got, w)
			}
		}
	}
}

// mustJSON returns the saved form of m, or an empty one if it is not
// fitted.
func mustJSON(t *testing.T, m Classifier) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil && !strings.Contains(err.Error(), "called before Fit") {
		t.Fatal(err)
	}
	return b
}

// TestFitShardsDeterministic checks that FitShards gives the same model
// at every GOMAXPROCS, on real sparse rows wide enough that the mixture
// is summed in parts on several goroutines.
func TestFitShardsDeterministic(t *testing.T) {
	rnd := rand.New(rand.NewPCG(0xde, 26))
	const n, d, K = 60, 30000, 3
	ptr := []int{0}
	var ind []int
	var val []float64
	y := make([]float64, n)
	for i := range n {
		ind = append(ind, rnd.Perm(d)[:20]...)
		slices.Sort(ind[ptr[i]:])
		for range 20 {
			val = append(val, rnd.NormFloat64())
		}
		ptr = append(ptr, len(ind))
		y[i] = float64(rnd.IntN(K))
	}
	var X []mat.Matrix
	var ys [][]float64
	for lo := 0; lo < n; lo += 15 {
		c, err := NewCSR(15, d, rebase(ptr[lo:lo+16]), ind[ptr[lo]:ptr[lo+15]], val[ptr[lo]:ptr[lo+15]])
		if err != nil {
			t.Fatal(err)
		}
		X, ys = append(X, c), append(ys, y[lo:lo+15])
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, byMistakes := range []bool{false, true} {
		var first [][]byte
		for _, procs := range []int{1, 2, 4} {
			runtime.GOMAXPROCS(procs)
			var got [][]byte
			for _, m := range []Classifier{&Perceptron{Epochs: 5}, &Averaged{Epochs: 5}} {
				if err := FitShards(m, X, ys, byMistakes); err != nil {
					t.Fatal(err)
				}
				got = append(got, mustJSON(t, m))
			}
			if first == nil {
				first = got
			} else if !slices.EqualFunc(got, first, bytes.Equal) {
				t.Fatalf("byMistakes %t, GOMAXPROCS %d: another model than at 1", byMistakes, procs)
			}
		}
	}
}

// rebase returns ptr less its first element.
func rebase(ptr []int) []int {
	r := make([]int, len(ptr))
	for i, p := range ptr {
		r[i] = p - ptr[0]
	}
	return r
}

// TestMixErrors checks the errors of LearnShard, Mix and FitShards, and
// that a failed Mix or FitShards leaves the model as it was.
func TestMixErrors(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{1, 0, 0, 1, -1, 0, 0, -1})
	y := []float64{1, 1, -1, -1}
	fitted := &Perceptron{}
	if err := fitted.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	shard := func(m Classifier, X mat.Matrix, y []float64) Classifier {
		s, err := LearnShard(m, X, y)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	good := shard(fitted, X, y)
	wide := shard(&Perceptron{Labels: []float64{-1, 1}}, mat.NewDense(2, 3, []float64{1, 0, 0, -1, 0, 0}), []float64{1, -1})
	three := shard(&Perceptron{Labels: []float64{1, 2, 3}}, mat.NewDense(3, 2, []float64{1, 0, 0, 1, -1, 0}), []float64{1, 2, 3})
	avg := shard(&Averaged{Labels: []float64{-1, 1}}, X, y)
	noBias := shard(&Perceptron{Labels: []float64{-1, 1}, NoBias: true}, X, y)
	for _, c := range []struct {
		m      Classifier
		shards []Classifier
		want   string
	}{
		{fitted, nil, "perceptron: Mix of no shards"},
		{&Voted{}, []Classifier{good}, "perceptron: Mix of a *perceptron.Voted: only a Perceptron or an Averaged mixes"},
		{fitted, []Classifier{good, avg}, "perceptron: Mix: shard 1 is a *perceptron.Averaged, not a *perceptron.Perceptron"},
		{fitted, []Classifier{good, &Perceptron{}}, "perceptron: Mix: shard 1 has not learned"},
		{fitted, []Classifier{good, three}, "perceptron: Mix: shard 1 has the classes [1 2 3], want [-1 1]"},
		{fitted, []Classifier{good, wide}, "perceptron: Mix: shard 1 has 3 columns, shard 0 2"},
		{fitted, []Classifier{good, noBias}, "perceptron: Mix: shard 1 has NoBias true, shard 0 false"},
		{fitted, []Classifier{good, (*Perceptron)(nil)}, "perceptron: Mix: shard 1 is a nil *perceptron.Perceptron"},
		{(*Perceptron)(nil), []Classifier{good}, "perceptron: Mix of a nil *perceptron.Perceptron"},
		{(*Averaged)(nil), []Classifier{avg}, "perceptron: Mix of a nil *perceptron.Averaged"},
		{fitted, []Classifier{wide}, "perceptron: Mix: the shards have 3 columns and NoBias false, the model 2 and false"},
	} {
		before := mustJSON(t, c.m)
		err := Mix(c.m, c.shards, false)
		if err == nil || err.Error() != c.want {
			t.Errorf("Mix: %v, want %q", err, c.want)
		}
		if after := mustJSON(t, c.m); !bytes.Equal(before, after) {
			t.Errorf("a failed Mix (%q) changed the model", c.want)
		}
	}

	// A round without a mistake counts the rounds left in closed form,
	// which must not pass 2^53 visits.
	a := &Averaged{Epochs: 1 << 62, Labels: []float64{-1, 1}}
	sep := mat.NewDense(2, 1, []float64{1, -1})
	for round := 1; round <= 2; round++ {
		before := mustJSON(t, a)
		s, err := LearnShard(a, sep, []float64{1, -1})
		if err != nil {
			t.Fatal(err)
		}
		err = Mix(a, []Classifier{s}, false)
		switch {
		case round == 1 && err != nil:
			t.Fatalf("round 1, of mistakes: %v", err)
		case round == 2 && (err == nil || err.Error() != "perceptron: 4611686018427387904 epochs of 2 rows pass 2^53 visits, the most a model counts exactly"):
			t.Errorf("Mix of a round without a mistake of 2^62 epochs: %v", err)
		case round == 2 && !bytes.Equal(before, mustJSON(t, a)):
			t.Errorf("a failed Mix changed the model")
		}
	}

	if _, err := LearnShard((*Averaged)(nil), X, y); err == nil || err.Error() != "perceptron: LearnShard of a *perceptron.Averaged: only a Perceptron or an Averaged mixes" {
		t.Errorf("LearnShard of a nil *Averaged: %v", err)
	}
	if _, err := LearnShard(&Pocket{}, X, y); err == nil || err.Error() != "perceptron: LearnShard of a *perceptron.Pocket: only a Perceptron or an Averaged mixes" {
		t.Errorf("LearnShard of a Pocket: %v", err)
	}
	if _, err := LearnShard(fitted, X, []float64{1, 1, 2, -1}); err == nil || !strings.Contains(err.Error(), "2") {
		t.Errorf("LearnShard of a label not among the classes: %v", err)
	}
	if _, err := LearnShard(&Perceptron{}, X, y); err == nil || !strings.Contains(err.Error(), "Labels") {
		t.Errorf("LearnShard of a model with neither weights nor Labels: %v", err)
	}

	nan := mat.NewDense(2, 2, []float64{1, 0, math.NaN(), 1})
	before := mustJSON(t, fitted)
	for _, c := range []struct {
		m    Classifier
		X    []mat.Matrix
		y    [][]float64
		want string
	}{
		{fitted, nil, nil, "perceptron: FitShards of 0 shards of rows and 0 of labels, want as many, at least one"},
		{fitted, []mat.Matrix{X}, [][]float64{y, y}, "perceptron: FitShards of 1 shards of rows and 2 of labels, want as many, at least one"},
		{&Kernel{}, []mat.Matrix{X}, [][]float64{y}, "perceptron: FitShards of a *perceptron.Kernel: only a Perceptron or an Averaged mixes"},
		{&Perceptron{Epochs: -1}, []mat.Matrix{X}, [][]float64{y}, "perceptron: Epochs is -1, want >= 0"},
		{fitted, []mat.Matrix{X, X}, [][]float64{y, {1, 1, math.Inf(1), -1}}, "perceptron: y[2] is +Inf, want a finite class value (shard 1)"},
		{&Perceptron{}, []mat.Matrix{X, X}, [][]float64{{1, 1, 1, 1}, {1, 1, 1, 1}}, "perceptron: y has the single class 1 in every shard: want at least two classes"},
		{&Perceptron{}, []mat.Matrix{X, mat.NewDense(2, 3, nil)}, [][]float64{y, {1, -1}}, "perceptron: X has 3 columns, want 2, those of shard 0 (shard 1)"},
		{(*Perceptron)(nil), []mat.Matrix{X}, [][]float64{y}, "perceptron: FitShards of a nil *perceptron.Perceptron"},
		{(*Averaged)(nil), []mat.Matrix{X}, [][]float64{y}, "perceptron: FitShards of a nil *perceptron.Averaged"},
		{fitted, []mat.Matrix{X, nan}, [][]float64{y, {1, -1}}, "perceptron: X[1, 0] is NaN, want a finite value (shard 1)"},
		{fitted, []mat.Matrix{X, X}, [][]float64{y, {1, -1}}, "perceptron: len(y) is 2, want 4 (the number of rows of X) (shard 1)"},
		{&Averaged{Epochs: 1<<62 + 1}, []mat.Matrix{X}, [][]float64{y}, "perceptron: 4611686018427387905 epochs of 4 rows pass 2^53 visits, the most a model counts exactly"},
	} {
		err := FitShards(c.m, c.X, c.y, true)
		if err == nil || err.Error() != c.want {
			t.Errorf("FitShards: %v, want %q", err, c.want)
		}
	}
	if after := mustJSON(t, fitted); !bytes.Equal(before, after) {
		t.Errorf("a failed FitShards changed the model:\n%s\n%s", before, after)
	}
}

// TestMixedJSON checks that a model of FitShards, whose Stats hold no
// loss, is saved and read back with its predictions and Stats.
func TestMixedJSON(t *testing.T) {
	rnd := rand.New(rand.NewPCG(0x15, 26))
	data := ipmData(rnd, 40, 3, 3, false, true)
	_, X, y := ipmShards(rnd, data, 3)
	for _, m := range []Scorer{&Perceptron{}, &Averaged{}} {
		if err := FitShards(m, X, y, true); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Unmarshal(b)
		if err != nil {
			t.Fatalf("%T: %v\n%s", m, err, b)
		}
		for _, x := range data.rows {
			if got, want := back.Predict(x), m.Predict(x); got != want {
				t.Fatalf("%T read back predicts %v, want %v", m, got, want)
			}
		}
		type stater interface{ Stats() Stats }
		if got, want := back.(stater).Stats(), m.(stater).Stats(); !statsEqual(got, want) {
			t.Fatalf("%T read back: Stats %+v, want %+v", m, got, want)
		}
	}
}

// TestMixKeepsConverged checks that a round without a mistake leaves the
// weights as they were, to the bit, where an average of three shards would
// round them (3.33/3 three times is 3.3299999999999996), and that
// FitShards takes no part of Stop, Rand or OnUpdate, even of a Stop that
// Fit would refuse.
func TestMixKeepsConverged(t *testing.T) {
	X := mat.NewDense(6, 2, []float64{1, 0.1, 0.3, 1, 0.7, 0.2, -1, -0.1, -0.3, -1, -0.7, -0.2})
	y := []float64{1, 1, 1, -1, -1, -1}
	w0 := []float64{3.33, 0.7} // separates the rows
	for _, byMistakes := range []bool{false, true} {
		m := &Perceptron{Labels: []float64{-1, 1}, InitWeights: w0}
		var shards []Classifier
		for k := range 3 {
			p, err := LearnShard(m, X.Slice(2*k, 2*k+2, 0, 2), y[2*k:2*k+2])
			if err != nil {
				t.Fatal(err)
			}
			shards = append(shards, p)
		}
		if err := Mix(m, shards, byMistakes); err != nil {
			t.Fatal(err)
		}
		if w, _ := m.Weights(); !m.Stats().Converged || !slices.Equal(w, w0) {
			t.Errorf("byMistakes %t: a round without a mistake (converged %t) gave the weights %v, want %v", byMistakes, m.Stats().Converged, w, w0)
		}
	}

	calls := 0
	odd := &Perceptron{Stop: &Stop{Tol: -1}, Rand: rand.New(rand.NewPCG(1, 2)), OnUpdate: func(Update) { calls++ }}
	plain := &Perceptron{}
	for _, p := range []*Perceptron{odd, plain} {
		if err := FitShards(p, []mat.Matrix{X}, [][]float64{y}, false); err != nil {
			t.Fatal(err)
		}
	}
	ow, ob := odd.Weights()
	pw, pb := plain.Weights()
	if calls != 0 || !slices.Equal(ow, pw) || !slices.Equal(ob, pb) {
		t.Errorf("FitShards with Stop, Rand and OnUpdate: weights %v %v and %d calls; want %v %v and none", ow, ob, calls, pw, pb)
	}
}
