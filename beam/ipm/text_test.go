// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// writeText writes shards of lines of text to dir, each of a label among
// classes and words of which most are of the label's own, some shared,
// with capitals and punctuation: in fastText's format, or with tab as a
// label, a tab and the text; the shards of gz gzipped. It returns their
// paths.
func writeText(t *testing.T, dir string, shards, lines int, classes []string, tab bool, gz map[int]bool, seed uint64) []string {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, 3))
	shared := []string{"the", "a", "of", "Library", "tool", "for", "and", "with"}
	var paths []string
	for k := range shards {
		var b strings.Builder
		for range lines {
			c := rnd.IntN(len(classes))
			if tab {
				fmt.Fprintf(&b, "%s\t", classes[c])
			} else {
				fmt.Fprintf(&b, "__label__%s ", classes[c])
			}
			for w := range 3 + rnd.IntN(8) {
				if w > 0 {
					b.WriteString([]string{" ", ", ", " - ", "; "}[rnd.IntN(4)])
				}
				if rnd.IntN(3) == 0 {
					b.WriteString(shared[rnd.IntN(len(shared))])
				} else {
					// A word of the class, or of another one at times.
					o := c
					if rnd.IntN(5) == 0 {
						o = rnd.IntN(len(classes))
					}
					fmt.Fprintf(&b, "%s%d", classes[o], rnd.IntN(6))
				}
			}
			b.WriteString(".\n")
		}
		text := []byte(b.String())
		name := fmt.Sprintf("part-%02d.txt", k)
		if gz[k] {
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(text)
			zw.Close()
			text, name = z.Bytes(), name+".gz"
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, text, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

// TestText checks that the pipelines train, on shards of text, the model
// of perceptron.FitShards of the rows that the command's steps make of
// them, to the bit: the lines hashed, the columns weighed by the IDF of
// all the shards, the rows of unit length; in fastText's format and as a
// label, a tab and a text, gzipped or not, their format told by their
// first lines; and shuffled, that of LearnShard and Mix round by round.
func TestText(t *testing.T) {
	t.Parallel()
	h := &data.Hashing{NGrams: 2, Bits: 7, NoNorm: true}
	for _, tc := range []struct {
		name    string
		tab     bool
		classes []string
		c       Config
	}{
		{"fastText", false, []string{"doc", "games", "libs"}, Config{Hashing: h, Epochs: 3, InOrder: true, NoStop: true}},
		{"tab/mistakes", true, []string{"x", "y"}, Config{Hashing: h, Epochs: 3, InOrder: true, NoStop: true, ByMistakes: true}},
		{"fastText/perceptron/words", false, []string{"doc", "games", "libs"}, Config{Hashing: &data.Hashing{Bits: 5}, Epochs: 2, InOrder: true, NoStop: true, Perceptron: true}},
		{"fastText/shuffled", false, []string{"a", "b", "c", "d"}, Config{Hashing: h, Epochs: 4, NoStop: true, Seed: 3}},
		{"tab/stopped", true, []string{"x", "y", "z"}, Config{Hashing: h, Epochs: 40, NoChange: 2, Tol: 0.05}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := tc.c
			c.Shards = writeText(t, t.TempDir(), 3, 30, tc.classes, tc.tab, map[int]bool{1: true}, 5)
			c.block = 40
			want, _ := reference(t, c.Shards, Config{Format: formatText, Hashing: c.Hashing, Epochs: c.Epochs, InOrder: c.InOrder, NoStop: c.NoStop,
				ByMistakes: c.ByMistakes, Perceptron: c.Perceptron, Seed: c.Seed, Tol: c.Tol, NoChange: c.NoChange})
			c.Output = filepath.Join(t.TempDir(), "model.bin")
			c.Runner = runner()
			res, err := Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(c.Output)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("the model of the pipelines is not the reference's (%v):\n got %.1000s\nwant %.1000s", err, got, want)
			}
			if res.Model.Hashing == nil || *res.Model.Hashing != *c.Hashing {
				t.Errorf("the model's Hashing is %+v, want %+v", res.Model.Hashing, c.Hashing)
			}
			st := res.Model.Classifier.(interface{ Stats() perceptron.Stats }).Stats()
			if !c.NoStop && st.Epochs >= c.Epochs {
				t.Errorf("the rule did not stop the run before epoch %d: the data do not test what they should", c.Epochs)
			}
			if res.Cols != 1<<c.Hashing.Bits {
				t.Errorf("%d columns, want 2^%d", res.Cols, c.Hashing.Bits)
			}
			// The model reads the lines it was trained on, as the
			// command reads them.
			m, err := data.LoadModel(c.Output)
			if err != nil {
				t.Fatal(err)
			}
			set, err := data.Text{Hashing: *m.Hashing, Tab: tc.tab, Classes: m.Classes}.Read(bytes.NewReader(plain(t, c.Shards[0])))
			if err == nil {
				_, err = m.Predict(set.X)
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
}

// TestReading checks the format and the Hashing that a run reads the
// shards with: the Config's, or the first shard's by its name or its
// first line, and the command's Hashing of text.
func TestReading(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text, format, err string
	}{
		{name: "a.svm", text: "anything", format: formatLIBSVM},
		{name: "a.LIBSVM.gz", text: "", format: formatLIBSVM},
		{name: "a.txt", text: "\n# a comment\n1 3:1 7:0.5\n", format: formatLIBSVM},
		{name: "a.txt", text: "a first line __label__x and words\n", format: formatText},
		{name: "a.txt", text: "x\tsome words\n", format: formatText},
		{name: "a", text: "+1 qid:3 1:2 # a comment\n", format: formatLIBSVM},
		{name: "a.csv", text: "1,2,3\n", err: "cannot tell the format of"},
		{name: "a.csv", text: "a,b\tsome words\n", err: "cannot tell the format of"},
		{name: "a.txt", text: "x\tone\n", err: "cannot tell the format of"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		r := &run{shards: []shard{{Path: path}}}
		rd, err := r.reading(context.Background())
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s of %q: format %q, error %v, want %q", tc.name, tc.text, rd.Format, err, tc.err)
		case tc.err == "" && (err != nil || rd.Format != tc.format):
			t.Errorf("%s of %q: format %q, error %v, want %q", tc.name, tc.text, rd.Format, err, tc.format)
		}
		os.Remove(path)
	}
	// The Hashing of the command perceptron's defaults: -ngrams 2, -bits
	// 19, counts that its -idf and -normalize then weigh and scale.
	r := &run{Config: Config{Format: formatText}}
	if rd, err := r.reading(context.Background()); err != nil || rd.Hashing != (data.Hashing{NGrams: 2, Bits: 19, NoNorm: true}) {
		t.Errorf("the Hashing of a zero Config is %+v (%v)", rd.Hashing, err)
	}
	r.Cols = 10
	if _, err := r.reading(context.Background()); err == nil {
		t.Error("Cols of text: no error")
	}
}
