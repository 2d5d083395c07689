// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// naiveVoter is a weight vector of the naive run, its count, and the row
// whose mistake made it, -1 for the starting weights.
type naiveVoter struct {
	w     []float64
	b     float64
	count int
	row   int
}

// pavVotersOf returns the weight vectors of a naive run from w0 and a
// zero bias with the given visits, each with the number of visits after
// which it was the current one, as Freund and Schapire count them.
func pavVotersOf(w0 []float64, visits []pavVisit) []naiveVoter {
	voters := []naiveVoter{{slices.Clone(w0), 0, 0, -1}}
	for _, v := range visits {
		if v.mistake {
			voters = append(voters, naiveVoter{v.w, v.b, 0, v.row})
		}
		voters[len(voters)-1].count++
	}
	return voters
}

// naiveVoters returns every weight vector of the naive run of all its
// epochs with its count.
func naiveVoters(X [][]float64, y []float64, tr pavTrial) []naiveVoter {
	visits, _ := pavVisits(X, y, tr, false)
	return pavVotersOf(pavStart(tr, len(X[0])).w, visits)
}

// naiveVote returns sum_k c_k·sign(w_k·x+b_k), each score computed afresh.
func naiveVote(voters []naiveVoter, x []float64) float64 {
	vote := 0
	for _, v := range voters {
		a := v.b
		for j := range x {
			a += v.w[j] * x[j]
		}
		vote += v.count * int(sign(a))
	}
	return float64(vote)
}

// pavCheckVoters checks v, trained on integers, where every score is exact,
// against the naive voters: the votes and predictions of its running
// scores on the rows of test, its last weights, and its storage: a count
// for every voter, and one copy of each distinct row and step of the
// mistakes, where a mistake's row and step are X[r] and rate·y[r] for the
// row r of the naive voter it made.
func pavCheckVoters(t *testing.T, name string, v *Voted, voters []naiveVoter, X [][]float64, y []float64, rate float64, test [][]float64) {
	t.Helper()
	d := len(X[0])
	last := voters[len(voters)-1]
	if !slices.Equal(v.last.w, last.w) || v.last.b[0] != last.b {
		t.Fatalf("%s: last weights w=%v b=%v, want w=%v b=%v", name, v.last.w, v.last.b, last.w, last.b)
	}
	T := mat.NewDense(len(test), d, nil)
	for i, x := range test {
		T.SetRow(i, x)
	}
	scores, preds := v.ScoreRows(nil, T), v.PredictRows(nil, T)
	for i, x := range test {
		want := naiveVote(voters, x)
		if got := rowScores(v, x)[0]; got != want || scores[i] != want {
			t.Fatalf("%s: vote on %v is %v, by ScoreRows of all %v, want %v", name, x, got, scores[i], want)
		}
		if got := v.Predict(x); got != sign(want) || preds[i] != sign(want) {
			t.Fatalf("%s: prediction of %v is %v, by PredictRows %v, want %v", name, x, got, preds[i], sign(want))
		}
	}
	st := v.Stats()
	if len(v.votes) != len(voters) || len(v.votes) != st.Mistakes+1 {
		t.Fatalf("%s: %d votes for %d voters and %d mistakes", name, len(v.votes), len(voters), st.Mistakes)
	}
	type pair struct {
		row  string
		step float64
	}
	distinct := map[pair]bool{}
	for k, vt := range v.votes {
		if vt.count != voters[k].count {
			t.Fatalf("%s: voter %d has count %d, want %d", name, k, vt.count, voters[k].count)
		}
		if k == 0 {
			continue
		}
		r := voters[k].row
		distinct[pair{fmt.Sprint(X[r]), rate * y[r]}] = true
		if vt.row < 0 || vt.row >= len(v.steps) {
			t.Fatalf("%s: mistake %d is on stored row %d of %d", name, k, vt.row, len(v.steps))
		}
		if got := v.rows.row(vt.row).val; !slices.Equal(got, X[r]) || v.steps[vt.row] != rate*y[r] {
			t.Fatalf("%s: mistake %d is on stored row %v with step %v, want row %d, %v with step %v",
				name, k, got, v.steps[vt.row], r, X[r], rate*y[r])
		}
	}
	// Each mistake's slot holds its row and step, so distinct pairs have
	// distinct slots; as many slots as pairs leave no two slots alike.
	m := len(v.steps)
	if v.rows.n != m || len(v.rows.data) != m*d || m != len(distinct) {
		t.Fatalf("%s: %d stored rows of %d values, with %d steps, for %d distinct rows and steps of %d mistakes",
			name, v.rows.n, len(v.rows.data), m, len(distinct), st.Mistakes)
	}
}

func TestVotedMatchesNaive(t *testing.T) {
	// On whole numbers every score is exact, so the running scores must
	// give each voter's sign as the naive scores do.
	rnd := rand.New(rand.NewPCG(51, 52))
	early := 0  // the runs that converge before their last epoch
	shared := 0 // the runs whose mistakes share a stored row
	for k := range 400 {
		n, d := 1+rnd.IntN(25), 1+rnd.IntN(5)
		rows, X, y := intSet(rnd, n, d)
		tr := pavRandomTrial(rnd, d)
		v := tr.voted()
		if err := v.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		st := v.Stats()
		if st.Converged && st.Epochs < tr.epochs {
			early++
		}
		voters := naiveVoters(rows, y, tr)
		test, _, _ := intSet(rnd, 30, d)
		name := fmt.Sprintf("trial %d (%+v)", k, tr)
		pavCheckVoters(t, name, v, voters, rows, y, pavStart(tr, d).rate, append(test, rows...))
		total := 0
		for _, vt := range v.votes {
			total += vt.count
		}
		if total != tr.epochs*n {
			t.Fatalf("%s: counts sum to %d, want %d visits", name, total, tr.epochs*n)
		}
		// intSet repeats rows where d is small.
		seen := map[int]bool{}
		for _, vr := range voters[1:] {
			seen[vr.row] = true
		}
		if len(v.steps) < len(seen) {
			shared++
		}
	}
	if early == 0 {
		t.Error("no run converged before its last epoch: the epochs left are not tested")
	}
	if shared == 0 {
		t.Error("no two rows of the mistakes were equal: their sharing is not tested")
	}
}

// TestVotedLearnMatchesNaive checks the voters that Learn keeps against
// the naive run: after each of several calls of Learn on batches of rows
// in any order, repeated or not, from a fresh model or after a Fit, whose
// last voter the first visits of Learn go on counting. Equal rows with
// equal steps share a stored row across the calls.
func TestVotedLearnMatchesNaive(t *testing.T) {
	rnd := rand.New(rand.NewPCG(53, 54))
	fitted, fresh := 0, 0
	for k := range 300 {
		n, d := 1+rnd.IntN(20), 1+rnd.IntN(4)
		rows, X, y := intSet(rnd, n, d)
		tr := pavRandomTrial(rnd, d)
		start := pavStart(tr, d)
		var v *Voted
		var visits []pavVisit
		var s *pavState
		if rnd.IntN(2) == 0 {
			v = tr.voted()
			if err := v.Fit(X, y); err != nil {
				t.Fatal(err)
			}
			visits, _ = pavVisits(rows, y, tr, false)
			last := visits[len(visits)-1]
			s = &pavState{w: slices.Clone(last.w), b: last.b, rate: start.rate, bias: tr.bias}
			fitted++
		} else {
			v = &Voted{Rate: tr.rate, NoBias: !tr.bias, InitWeights: tr.w0, Labels: binaryLabels}
			s = pavStart(tr, d)
			fresh++
		}
		// The rows of the batches, as Learn sees them: B's rows are
		// numbered from base in all.
		all, ys := slices.Clone(rows), slices.Clone(y)
		test, _, _ := intSet(rnd, 20, d)
		for call := range 1 + rnd.IntN(4) {
			m := 1 + rnd.IntN(2*n)
			B := mat.NewDense(m, d, nil)
			yb := make([]float64, m)
			for i := range m {
				r := rnd.IntN(n)
				B.SetRow(i, rows[r])
				yb[i] = y[r]
			}
			if err := v.Learn(B, yb); err != nil {
				t.Fatal(err)
			}
			base := len(all)
			for i := range m {
				x := B.RawRowView(i)
				all, ys = append(all, x), append(ys, yb[i])
				visits = append(visits, s.visit(base+i, x, yb[i]))
			}
			name := fmt.Sprintf("trial %d (%+v), Learn %d", k, tr, call+1)
			pavCheckVoters(t, name, v, pavVotersOf(start.w, visits), all, ys, start.rate, append(test, rows...))
		}
	}
	if fitted == 0 || fresh == 0 {
		t.Errorf("%d fitted and %d fresh models: both starts are not tested", fitted, fresh)
	}
}

func TestVotedDistinctRows(t *testing.T) {
	// XOR in order makes 4 mistakes an epoch, on its 4 rows: over 100
	// epochs Voted stores 399 votes but 4 rows.
	v := &Voted{Epochs: 100}
	if err := v.Fit(mat.NewDense(4, 2, []float64{0, 0, 1, 1, 0, 1, 1, 0}), []float64{1, 1, -1, -1}); err != nil {
		t.Fatal(err)
	}
	if len(v.votes) != 3+4*99+1 || len(v.steps) != 4 || len(v.rows.data) != 8 {
		t.Fatalf("%d votes, %d rows of %d values; want 400 votes, 4 rows of 8 values", len(v.votes), len(v.steps), len(v.rows.data))
	}
}

// TestVotedDuplicateRows checks by hand that Voted stores equal rows with
// equal steps once, however many rows of X hold them, and equal rows with
// opposite steps apart, in Fit and across the calls of Learn.
func TestVotedDuplicateRows(t *testing.T) {
	type want struct {
		perEpoch []int
		rows     []int // the stored row of each mistake
		counts   []int
		stored   [][]float64
		steps    []float64
		w        []float64
		b        float64
	}
	for _, tc := range []struct {
		name string
		X    *mat.Dense
		y    []float64
		want want
	}{
		// XOR with every row twice, in order, 2 epochs. Epoch 1: (0,0)+
		// scores 0, to w=(0,0) b=1; its copy and (1,1)+ twice score 1;
		// (0,1)- scores 1, to (0,-1) b=0; its copy -1; (1,0)- 0, to
		// (-1,-1) b=-1; its copy -2. Epoch 2: (0,0)+ scores -1, to
		// (-1,-1) b=0, and its copy 0, to b=1; (1,1)+ -1, to (0,0) b=2;
		// its copy 2; (0,1)- 2, to (0,-1) b=1, and its copy 0, to (0,-2)
		// b=0; (1,0)- 0, to (-1,-2) b=-1; its copy -2. 9 mistakes on 8
		// rows of X but 4 values, stored in the order of their first
		// mistake; the voters live 0, 4, 2, 2, 1, 1, 2, 1, 1, 2 visits.
		{"XOR twice", mat.NewDense(8, 2, []float64{0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0}),
			[]float64{1, 1, 1, 1, -1, -1, -1, -1},
			want{[]int{3, 6}, []int{0, 1, 2, 0, 0, 3, 1, 1, 2}, []int{0, 4, 2, 2, 1, 1, 2, 1, 1, 2},
				[][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, []float64{1, -1, -1, 1}, []float64{-1, -2}, -1}},
		// One value with alternating labels: from (0; 0) every visit is a
		// mistake, to (1; 1) on +1, scoring 2, and back to (0; 0) on -1,
		// scoring 0. Two stored rows, equal but for their steps.
		{"alternating labels", mat.NewDense(4, 1, []float64{1, 1, 1, 1}), []float64{1, -1, 1, -1},
			want{[]int{4, 4}, []int{0, 1, 0, 1, 0, 1, 0, 1}, []int{0, 1, 1, 1, 1, 1, 1, 1, 1},
				[][]float64{{1}, {1}}, []float64{1, -1}, []float64{0}, 0}},
	} {
		n, d := tc.X.Dims()
		fit := &Voted{Epochs: 2}
		if err := fit.Fit(tc.X, tc.y); err != nil {
			t.Fatal(err)
		}
		// Learn twice on X, and Learn on each row in turn, as two epochs.
		twice := &Voted{Labels: binaryLabels}
		byRow := &Voted{Labels: binaryLabels}
		for range 2 {
			if err := twice.Learn(tc.X, tc.y); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if err := learnOne(byRow, tc.X.RawRowView(i), tc.y[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, c := range []struct {
			how string
			v   *Voted
		}{{"Fit", fit}, {"Learn twice", twice}, {"Learn by row", byRow}} {
			v := c.v
			var rows, counts []int
			for k, vt := range v.votes {
				if k > 0 {
					rows = append(rows, vt.row)
				}
				counts = append(counts, vt.count)
			}
			var stored [][]float64
			for r := range v.rows.n {
				stored = append(stored, v.rows.row(r).val)
			}
			if !slices.Equal(rows, tc.want.rows) || !slices.Equal(counts, tc.want.counts) || v.Stats().Mistakes != len(tc.want.rows) {
				t.Errorf("%s, %s: mistakes on stored rows %v, counts %v; want %v, %v", tc.name, c.how, rows, counts, tc.want.rows, tc.want.counts)
			}
			if !slices.EqualFunc(stored, tc.want.stored, slices.Equal) || !slices.Equal(v.steps, tc.want.steps) || len(v.rows.data) != len(tc.want.stored)*d {
				t.Errorf("%s, %s: stored rows %v with steps %v, want %v with %v", tc.name, c.how, stored, v.steps, tc.want.stored, tc.want.steps)
			}
			if !slices.Equal(v.last.w, tc.want.w) || v.last.b[0] != tc.want.b {
				t.Errorf("%s, %s: last weights w=%v b=%v, want w=%v b=%v", tc.name, c.how, v.last.w, v.last.b, tc.want.w, tc.want.b)
			}
		}
		if !slices.Equal(fit.Stats().EpochMistakes, tc.want.perEpoch) {
			t.Errorf("%s: mistakes per epoch %v, want %v", tc.name, fit.Stats().EpochMistakes, tc.want.perEpoch)
		}
	}

	// The votes of the alternating labels: on 1 the four voters (1; 1)
	// score 2 and the four (0; 0) score 0, all +1; on -3 the first score
	// -2, a tie that goes to the second class.
	v := &Voted{Epochs: 2}
	if err := v.Fit(mat.NewDense(4, 1, []float64{1, 1, 1, 1}), []float64{1, -1, 1, -1}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ x, vote, class float64 }{{1, 8, 1}, {-3, 0, 1}} {
		if got, class := rowScores(v, []float64{tc.x})[0], v.Predict([]float64{tc.x}); got != tc.vote || class != tc.class {
			t.Errorf("alternating labels: vote on %v is %v, predicting %v; want %v, %v", tc.x, got, class, tc.vote, tc.class)
		}
	}
}

func TestVotedTrace(t *testing.T) {
	// ExampleVoted: the voters of the line, their counts and the votes
	// worked by hand, by Fit of 2 epochs and by Learn on the rows twice.
	X := mat.NewDense(5, 1, []float64{2, 1, -1, -2, 3})
	y := []float64{1, 1, -1, -1, -1}
	fit := &Voted{Epochs: 2}
	if err := fit.Fit(X, y); err != nil {
		t.Fatal(err)
	}
	learned := &Voted{Labels: []float64{-1, 1}}
	for range 2 {
		if err := learned.Learn(X, y); err != nil {
			t.Fatal(err)
		}
	}
	for name, v := range map[string]*Voted{"Fit": fit, "Learn": learned} {
		var counts []int
		for _, vt := range v.votes {
			counts = append(counts, vt.count)
		}
		if want := []int{0, 4, 1, 2, 2, 1}; !slices.Equal(counts, want) {
			t.Errorf("%s: counts %v, want %v", name, counts, want)
		}
		var votes []float64
		for i := range 5 {
			votes = append(votes, rowScores(v, X.RawRowView(i))[0])
		}
		if want := []float64{6, 6, -2, -6, 6}; !slices.Equal(votes, want) {
			t.Errorf("%s: votes %v, want %v", name, votes, want)
		}
	}
}
