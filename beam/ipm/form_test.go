// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/seed5ae3614e/perceptron"
)

// fitted returns the binary form of a Perceptron or an Averaged of the
// classes fitted on rows of d columns from the problem's seed, and the
// model.
func fitted(t *testing.T, averaged bool, d int, classes []float64, seed uint64) ([]byte, perceptron.Classifier) {
	t.Helper()
	sets := problem{shards: 1, rows: 30, d: d, classes: classes, noise: 0.2, seed: seed}.make()
	m := model{Averaged: averaged, Epochs: 3, Labels: classes}.fresh()
	if err := m.Fit(sets[0].X, sets[0].y); err != nil {
		t.Fatal(err)
	}
	b, err := m.(interface{ MarshalBinary() ([]byte, error) }).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b, m
}

// TestBlocks checks that the blocks of a model's binary form are the
// forms of models of their features: each loads, with the weights of its
// features, and they join to the form they were cut from.
func TestBlocks(t *testing.T) {
	t.Parallel()
	for _, averaged := range []bool{false, true} {
		for _, classes := range [][]float64{{-1, 1}, {1, 2, 3}} {
			const d = 7
			form, m := fitted(t, averaged, d, classes, 12)
			wantS, wantTables := len(classes), 1
			if len(classes) == 2 {
				wantS = 1
			}
			if averaged {
				wantTables = 2
			}
			gd, S, head, tables, err := layout(form)
			if err != nil || gd != d || S != wantS || tables != wantTables {
				t.Fatalf("layout: %d columns, %d scores, head %d, %d tables, %v", gd, S, head, tables, err)
			}
			w, _ := m.(interface{ Weights() ([]float64, []float64) }).Weights()
			for _, n := range []int{1, 2, 3, 7, 10} {
				var cut [][]byte
				for b := range blocks(d, n) {
					lo, hi := blockRange(b, n, d)
					f := withWidth(form[:head], hi-lo)
					for tb := range tables {
						f = append(f, tableRows(form, d, S, head, tb, lo, hi)...)
					}
					piece, err := model{Averaged: averaged}.decode(f)
					if err != nil {
						t.Fatalf("averaged %t, %d classes, blocks of %d: block %d: %v", averaged, len(classes), n, b, err)
					}
					pw, _ := piece.(interface{ Weights() ([]float64, []float64) }).Weights()
					if !sameBits(pw, w[lo*S:hi*S]) {
						t.Errorf("averaged %t, blocks of %d: block %d has the weights %v, want %v", averaged, n, b, pw, w[lo*S:hi*S])
					}
					cut = append(cut, f)
				}
				joined, err := join(d, n, func(b int) ([]byte, error) { return cut[b], nil })
				if err != nil || !bytes.Equal(joined, form) {
					t.Errorf("averaged %t, blocks of %d: the blocks join to another form (%v)", averaged, n, err)
				}
			}
		}
	}
}

// TestJoinErrors checks that blocks that do not fit together do not join.
func TestJoinErrors(t *testing.T) {
	t.Parallel()
	form, _ := fitted(t, true, 4, []float64{1, 2, 3}, 13)
	other, _ := fitted(t, true, 4, []float64{1, 2, 3}, 14) // another head: other stats
	_, S, head, tables, err := layout(form)
	if err != nil {
		t.Fatal(err)
	}
	block := func(f []byte, lo, hi int) []byte {
		_, _, h, _, _ := layout(f)
		b := withWidth(f[:h], hi-lo)
		for tb := range tables {
			b = append(b, tableRows(f, 4, S, h, tb, lo, hi)...)
		}
		return b
	}
	for _, tc := range []struct {
		name   string
		blocks [][]byte
		want   string
	}{
		{"other head", [][]byte{block(form, 0, 2), block(other, 2, 4)}, "block 1 is of"},
		{"wider", [][]byte{block(form, 0, 2), block(form, 1, 4)}, "block 1 is of 3 columns"},
		{"short", [][]byte{block(form, 0, 2), block(form, 2, 4)[:head+8]}, "block 1: a model of"},
		{"no model", [][]byte{[]byte("PCPT")}, "block 0: a model of 4 bytes"},
	} {
		_, err := join(4, 2, func(b int) ([]byte, error) { return tc.blocks[b], nil })
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, _, _, _, err := layout(append(slices.Clone(form), 0)); err == nil {
		t.Error("layout of a form and a byte: no error")
	}
}

// TestDelta checks that a delta codes its words exactly, against a
// reference and against zeros, that it is short where most words are the
// reference's or zero, and that a malformed delta is an error.
func TestDelta(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(15, 16))
	words := func(n int, f func(i int) uint64) []byte {
		b := make([]byte, 8*n)
		for i := range n {
			binary.LittleEndian.PutUint64(b[8*i:], f(i))
		}
		return b
	}
	const n = 1000
	ref := words(n, func(int) uint64 { return math.Float64bits(rnd.NormFloat64()) })
	for _, density := range []float64{0, 0.01, 0.5, 1} {
		x := words(n, func(i int) uint64 {
			switch r := rnd.Float64(); {
			case r < density/2:
				return math.Float64bits(rnd.NormFloat64())
			case r < density:
				return 0 // and -0, below
			case i%97 == 0:
				return math.Float64bits(math.Copysign(0, -1))
			}
			return binary.LittleEndian.Uint64(ref[8*i:])
		})
		for _, r := range [][]byte{ref, nil} {
			delta := appendDelta(nil, x, r)
			got := make([]byte, len(x))
			if err := applyDelta(got, delta, r); err != nil || !bytes.Equal(got, x) {
				t.Fatalf("density %v, reference %t: the delta decodes to other words (%v)", density, r != nil, err)
			}
			if density == 0.01 && r != nil && len(delta) > len(x)/10 {
				t.Errorf("a delta of %d bytes for %d words of which 1%% differ", len(delta), n)
			}
		}
	}
	x := words(4, func(i int) uint64 { return uint64(i) + 7 })
	delta := appendDelta(nil, x, nil)
	for _, tc := range []struct {
		name  string
		delta []byte
		size  int
	}{
		{"long", delta, 3 * 8},
		{"short", delta, 5 * 8},
		{"cut", delta[:len(delta)-1], 4 * 8},
		{"no kind", binary.AppendUvarint(nil, 1<<2|3), 8},
		{"bad varint", []byte{0xff}, 8},
	} {
		if err := applyDelta(make([]byte, tc.size), tc.delta, nil); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestBlockParts checks the mix of one block against perceptron.Mix of
// the whole models: the parts of shards, cut into blocks and coded as the
// learn step codes them, mix to the blocks of Mix's model.
func TestBlockParts(t *testing.T) {
	t.Parallel()
	classes := []float64{1, 2, 3}
	const d = 5
	sets := problem{shards: 3, rows: 20, d: d, classes: classes, noise: 0.3, seed: 17}.make()
	for _, averaged := range []bool{false, true} {
		m := model{Averaged: averaged, Epochs: 4, Labels: classes}
		start := m.fresh()
		// The model learned from: after a round of Mix.
		var parts []perceptron.Classifier
		for _, s := range sets {
			p, err := perceptron.LearnShard(start, s.X, s.y)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, p)
		}
		if err := perceptron.Mix(start, parts, true); err != nil {
			t.Fatal(err)
		}
		startForm, err := start.(interface{ MarshalBinary() ([]byte, error) }).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		parts = parts[:0]
		for _, s := range sets {
			p, err := perceptron.LearnShard(start, s.X, s.y)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, p)
		}
		want, err := m.decode(startForm)
		if err != nil {
			t.Fatal(err)
		}
		if err := perceptron.Mix(want, parts, true); err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(want)
		const n = 2
		dir := t.TempDir()
		from, to := dir+"/from", dir+"/to"
		_, S, sh, tables, _ := layout(startForm)
		for b := range blocks(d, n) {
			lo, hi := blockRange(b, n, d)
			f := withWidth(startForm[:sh], hi-lo)
			for tb := range tables {
				f = append(f, tableRows(startForm, d, S, sh, tb, lo, hi)...)
			}
			if err := writeFile(t.Context(), blockFile(from, b), f); err != nil {
				t.Fatal(err)
			}
		}
		mix := &mixFn{Model: m, Shards: len(sets), Epoch: 2, ByMistakes: true, Cols: d, Block: n, From: from, To: to}
		for b := range blocks(d, n) {
			lo, hi := blockRange(b, n, d)
			var bps []blockPart
			for k := len(parts) - 1; k >= 0; k-- { // in another order
				form, _ := parts[k].(interface{ MarshalBinary() ([]byte, error) }).MarshalBinary()
				_, _, head, _, _ := layout(form)
				var delta []byte
				for tb := range tables {
					delta = appendDelta(delta, tableRows(form, d, S, head, tb, lo, hi), tableRows(startForm, d, S, sh, tb, lo, hi))
				}
				bps = append(bps, blockPart{Block: b, Shard: k, Head: withWidth(form[:head], hi-lo), Tables: tables, Delta: delta})
			}
			f, err := mix.mix(t.Context(), b, bps)
			if err == nil {
				err = writeFile(t.Context(), blockFile(to, b), f)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := m.load(t.Context(), to, d, n)
		if err != nil {
			t.Fatal(err)
		}
		if gotJSON, _ := json.Marshal(got); !bytes.Equal(gotJSON, wantJSON) {
			t.Errorf("averaged %t: the blocks mix to\n%s\nMix to\n%s", averaged, gotJSON, wantJSON)
		}
		// A shard missing, or twice.
		if _, err := mix.mix(t.Context(), 0, nil); err == nil {
			t.Errorf("averaged %t: the mix of no part: no error", averaged)
		}
	}
}
