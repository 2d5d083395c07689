// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// A mistyped flag or command is answered with the name nearest to it.

// nearest returns the one of names that is nearest to s, a mistyped name,
// by the edits of single letters, swaps of two neighbours included, that
// turn one into the other: none for names of up to 2 letters, which an
// edit makes any other, at most 1 for names of up to 4, and 2 for longer;
// or "" if none is so near.
func nearest(s string, names []string) string {
	best, most := "", 0
	switch {
	case len(s) > 4:
		most = 2
	case len(s) > 2:
		most = 1
	}
	for _, name := range names {
		if d := edits(s, name); d <= most {
			best, most = name, d-1
		}
	}
	return best
}

// edits returns the optimal string alignment distance of a and b: the
// fewest insertions, deletions and substitutions of a letter, and swaps of
// two neighbouring letters, that turn a into b.
func edits(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
