// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/data"
)

// The shards are read as the command perceptron reads a training file:
// LIBSVM rows with data.LIBSVM, or lines of text with data.Text, in
// fastText's format or as a label, a tab and a text, as the first line of
// each shard says, hashed as the Hashing says. The steps before the
// classifier are the command's defaults for such rows, which are sparse:
// each column weighed by its inverse document frequency over all the
// shards, and each row then scaled to unit length, as data.Model's
// Transform does with the Scaler of data.NewIDF and Normalize.

// Formats of the shards.
const (
	formatLIBSVM = "libsvm"
	formatText   = "text"
)

// defaultHashing is the Hashing of text of the command perceptron's
// defaults: the words and the pairs of words of a line, in 2^19 columns,
// counted and not scaled, as the IDF and the unit length after it weigh
// and scale them.
var defaultHashing = data.Hashing{NGrams: 2, Bits: 19, NoNorm: true}

// reading says how the shards are read.
type reading struct {
	Format  string       // formatLIBSVM or formatText
	Hashing data.Hashing // of text
}

// headSize is how much of a shard tells its format: 64 KiB, as the command
// reads.
const headSize = 64 << 10

// head returns the first headSize bytes of the text of r, gunzipped if r is
// gzipped, without reading r.
func head(r *bufio.Reader) []byte {
	b, _ := r.Peek(headSize)
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil
		}
		text := make([]byte, headSize)
		n, _ := io.ReadFull(zr, text)
		return text[:n]
	}
	return b
}

// firstLine returns the first line of text that is not blank, nor a
// comment of LIBSVM, #.
func firstLine(text []byte) string {
	for line := range strings.Lines(string(text)) {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			return line
		}
	}
	return ""
}

// isLabel reports whether the token s is a label of fastText's format.
func isLabel(s string) bool { return strings.HasPrefix(s, "__label__") }

// tabbed reports whether the line is a label, a tab and a text, as
// data.Text reads it with Tab: a line with a tab and no token of fastText's
// labels.
func tabbed(line string) bool {
	return strings.Contains(line, "\t") && !slices.ContainsFunc(strings.Fields(line), isLabel)
}

// formatOf returns the format of the shard of the name whose text starts
// with text, as the command tells a training file's: LIBSVM if the name,
// gzipped or not, ends in .svm, .libsvm or .svmlight; otherwise by its
// first line that is not blank nor a comment: text if a token starts with
// __label__, LIBSVM if its fields after the first are INDEX:VALUE, and text
// if it is a label, a tab and words.
func formatOf(name string, text []byte) (string, error) {
	base := strings.TrimSuffix(strings.ToLower(path.Base(name)), ".gz")
	for _, ext := range []string{".svm", ".libsvm", ".svmlight"} {
		if strings.HasSuffix(base, ext) {
			return formatLIBSVM, nil
		}
	}
	line := firstLine(text)
	f := strings.Fields(line)
	switch {
	case slices.ContainsFunc(f, isLabel):
		return formatText, nil
	case len(f) >= 2 && indexValues(f[1:]):
		return formatLIBSVM, nil
	case labelled(line):
		return formatText, nil
	}
	return "", fmt.Errorf("cannot tell the format of %s from its name nor its first line: give the format, libsvm or text", name)
}

// labelled reports whether the line is, beyond doubt, a label, a tab and a
// text: one tab, before it a label of no comma nor quote, as a CSV line
// would have, and after it words apart.
func labelled(line string) bool {
	label, text, _ := strings.Cut(line, "\t")
	label, text = strings.TrimSpace(label), strings.TrimSpace(text)
	return strings.Count(line, "\t") == 1 && label != "" && !strings.ContainsAny(label, ",\"") && strings.Contains(text, " ")
}

// indexValues reports whether the fields f, up to the first that starts a
// comment, are one or more values of LIBSVM, INDEX:VALUE.
func indexValues(f []string) bool {
	n := 0
	for _, v := range f {
		if strings.HasPrefix(v, "#") {
			break
		}
		index, _, ok := strings.Cut(v, ":")
		if !ok || index == "" || index != "qid" && strings.Trim(index, "0123456789") != "" {
			return false
		}
		n++
	}
	return n > 0
}

// shardReads counts the shards that readShard reads, for the tests.
var shardReads atomic.Int64

// readShard reads the rows of the shard sh as rd says, with the width cols
// of LIBSVM rows, if not zero, and the classes, if not nil, opening it on
// its Beam file system. Its errors name the shard's file, and the line.
func readShard(ctx context.Context, sh shard, rd reading, cols int, classes []string) (*data.Set, error) {
	shardReads.Add(1)
	set, err := func() (*data.Set, error) {
		fsys, err := filesystem.New(ctx, sh.Path)
		if err != nil {
			return nil, fmt.Errorf("cannot open it: %w", err)
		}
		defer fsys.Close()
		f, err := fsys.OpenRead(ctx, sh.Path)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) && pe.Path == sh.Path {
				err = pe.Err // the error names the file anyway
			}
			return nil, fmt.Errorf("cannot open it: %w", err)
		}
		defer f.Close()
		r := bufio.NewReaderSize(f, headSize)
		var set *data.Set
		switch rd.Format {
		case formatLIBSVM:
			set, err = data.LIBSVM{Cols: cols, Classes: classes}.Read(r)
		case formatText:
			set, err = data.Text{Hashing: rd.Hashing, Tab: tabbed(firstLine(head(r))), Classes: classes}.Read(r)
		default:
			return nil, fmt.Errorf("no format %q", rd.Format)
		}
		if err == nil && set.Y == nil {
			err = errors.New("its lines have no labels to train on")
		}
		return set, err
	}()
	if err != nil {
		return nil, shardError(sh, err)
	}
	if classes != nil && len(set.Classes) > len(classes) {
		// A label among none of the classes became a class after them.
		i := slices.IndexFunc(set.Y, func(c float64) bool { return int(c) >= len(classes) })
		return nil, shardError(sh, fmt.Errorf("row %d: the label %q is none of the classes %q", i+1, set.Classes[int(set.Y[i])], classes))
	}
	if set.Dropped > 0 {
		dropped.Inc(ctx, int64(set.Dropped))
	}
	return set, nil
}

// documents returns the number of the rows of X in which each column is
// not zero, as data.NewIDF counts them.
func documents(X mat.Matrix) []int {
	n, d := X.Dims()
	df := make([]int, d)
	nz := X.(mat.RowNonZeroDoer) // the readers' rows are sparse
	for i := range n {
		nz.DoRowNonZero(i, func(_, j int, v float64) {
			if v != 0 {
				df[j]++
			}
		})
	}
	return df
}

// steps returns the steps before the classifier: the IDF weights of the
// Scaler, if not nil, and the unit length of each row if normalize is set.
func steps(idf *data.Scaler, normalize bool) *data.Model {
	return &data.Model{Scaler: idf, Normalize: normalize}
}

// order returns the order in which the rows of shard k of n rows are
// visited in epoch e, drawn from seed: a permutation of the rows that
// depends on these alone, so that each epoch of each shard visits its rows
// in the same order on any runner and any worker, however often the
// runner runs its step, as the command's -shuffle visits the rows of a
// training file in a fresh order each epoch.
func order(n int, seed uint64, k, e int) []int {
	return rand.New(rand.NewPCG(seed, uint64(k)<<32|uint64(e))).Perm(n)
}
