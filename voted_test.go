// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// naiveVoter is a weight vector of the naive run and its count.
type naiveVoter struct {
	w     []float64
	b     float64
	count int
}

// naiveVoters returns every weight vector of the naive run of all its
// epochs with the number of visits after which it was the current one, as
// Freund and Schapire count them.
func naiveVoters(X [][]float64, y []float64, tr trial) []naiveVoter {
	w0 := make([]float64, len(X[0]))
	copy(w0, tr.w0)
	voters := []naiveVoter{{w0, tr.b0, 0}}
	visits, _ := naiveVisits(X, y, tr, false)
	for _, v := range visits {
		if v.mistake {
			voters = append(voters, naiveVoter{v.w, v.b, 0})
		}
		voters[len(voters)-1].count++
	}
	return voters
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

func TestVotedMatchesNaive(t *testing.T) {
	// On whole numbers every score is exact, so the running scores of
	// Score must give each voter's sign as the naive scores do.
	rnd := rand.New(rand.NewPCG(51, 52))
	early := 0 // the runs that converge before their last epoch
	for k := range 400 {
		n, d := 1+rnd.IntN(25), 1+rnd.IntN(5)
		rows, X, y := intSet(rnd, n, d)
		tr := randomTrial(rnd, d)
		var v Voted
		set(&v, tr.settings())
		if err := v.Fit(X, y); err != nil {
			t.Fatal(err)
		}
		if st := v.Stats(); st.Converged && st.Epochs < tr.epochs {
			early++
		}
		voters := naiveVoters(rows, y, tr)
		last := voters[len(voters)-1]
		if !slices.Equal(v.Weights(), last.w) || v.Bias() != last.b {
			t.Fatalf("trial %d: last weights w=%v b=%v, want w=%v b=%v", k, v.Weights(), v.Bias(), last.w, last.b)
		}
		test, _, _ := intSet(rnd, 30, d)
		for _, x := range append(test, rows...) {
			if got, want := v.Score(x), naiveVote(voters, x); got != want {
				t.Fatalf("trial %d (%+v): vote on %v is %v, want %v", k, tr, x, got, want)
			}
			if got, want := v.Predict(x), sign(naiveVote(voters, x)); got != want {
				t.Fatalf("trial %d: prediction of %v is %v, want %v", k, x, got, want)
			}
		}
		// The storage: a count for every voter, which sum to the visits,
		// and one copy of each distinct row that was a mistake.
		st := v.Stats()
		if len(v.votes) != len(voters) || len(v.votes) != st.Mistakes+1 {
			t.Fatalf("trial %d: %d votes for %d voters and %d mistakes", k, len(v.votes), len(voters), st.Mistakes)
		}
		total := 0
		for i, vt := range v.votes {
			if vt.count != voters[i].count {
				t.Fatalf("trial %d: voter %d has count %d, want %d", k, i, vt.count, voters[i].count)
			}
			total += vt.count
		}
		if total != tr.epochs*n {
			t.Fatalf("trial %d: counts sum to %d, want %d visits", k, total, tr.epochs*n)
		}
		m := len(v.steps)
		if v.rows.n != m || len(v.rows.data) != m*d || m > min(n, st.Mistakes) {
			t.Fatalf("trial %d: %d stored rows of %d values for %d rows and %d mistakes", k, m, len(v.rows.data), n, st.Mistakes)
		}
		for r := range m {
			if !slices.ContainsFunc(rows, func(x []float64) bool { return slices.Equal(x, v.rows.row(r).val) }) {
				t.Fatalf("trial %d: stored row %v is not a row of X", k, v.rows.row(r).val)
			}
		}
	}
	if early == 0 {
		t.Error("no run converged before its last epoch: the epochs left are not tested")
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

func TestVotedTrace(t *testing.T) {
	// ExampleVoted: the voters of the line, their counts and the votes
	// worked by hand.
	X := mat.NewDense(5, 1, []float64{2, 1, -1, -2, 3})
	v := &Voted{Epochs: 2}
	if err := v.Fit(X, []float64{1, 1, -1, -1, -1}); err != nil {
		t.Fatal(err)
	}
	var counts []int
	for _, vt := range v.votes {
		counts = append(counts, vt.count)
	}
	if want := []int{0, 4, 1, 2, 2, 1}; !slices.Equal(counts, want) {
		t.Errorf("counts %v, want %v", counts, want)
	}
	var votes []float64
	for i := range 5 {
		votes = append(votes, v.Score(X.RawRowView(i)))
	}
	if want := []float64{6, 6, -2, -6, 6}; !slices.Equal(votes, want) {
		t.Errorf("votes %v, want %v", votes, want)
	}
}
