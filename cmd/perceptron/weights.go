// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/seed5ae3614e/perceptron/data"
)

// readWeights reads the weights of the n rows of the data file name from
// the file at path: a number a line, blank lines aside, each finite and
// >= 0. It returns an error naming the line at fault, or if the file
// holds other than n weights.
func readWeights(path string, n int, name string) ([]float64, error) {
	if err := data.CheckMemory(8 * float64(n)); err != nil {
		return nil, fmt.Errorf("-weights %s: the weights of %s do not fit in the memory left: %s", path, plural(n, "row"), errText(err))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := make([]float64, 0, n)
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		v, err := parseWeight(s, path, line)
		switch {
		case err != nil:
			return nil, err
		case len(w) == n:
			return nil, fmt.Errorf("%s: more weights than the %s of %s, want one a row", path, plural(n, "row"), name)
		}
		w = append(w, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(w) != n {
		return nil, fmt.Errorf("%s: %s for the %s of %s, want one a row", path, plural(len(w), "weight"), plural(n, "row"), name)
	}
	return w, nil
}

// parseWeight returns the weight s, which line of the file at path holds,
// or an error if it is not a finite number >= 0.
func parseWeight(s, path string, line int) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%s: line %d: %s is not a number, want the weight of a row", path, line, quote(s))
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0:
		return 0, fmt.Errorf("%s: line %d: %s, want a finite weight >= 0", path, line, quote(s))
	}
	return v, nil
}

// describeRowWeights describes the weights of the rows of ds, if it has
// them, read from path, for a summary: a line that ends in a newline, or
// "".
func describeRowWeights(ds *dataset, path string) string {
	if ds.Weights == nil {
		return ""
	}
	sum, zeros := 0.0, 0
	for _, v := range ds.Weights {
		sum += v
		if v == 0 {
			zeros++
		}
	}
	return fmt.Sprintf("row weights (-weights %s): mean %.4g, %s of weight 0\n", path, sum/float64(len(ds.Weights)), plural(zeros, "row"))
}

// weightLines are the weights of -weights, read a line at a time.
type weightLines struct {
	f    *os.File
	sc   *bufio.Scanner
	path string
	line int
}

func openWeights(path string) (*weightLines, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &weightLines{f: f, sc: bufio.NewScanner(f), path: path}, nil
}

func (w *weightLines) close() { w.f.Close() }

// next returns the next weight, of row i of the file name, as readWeights
// reads it.
func (w *weightLines) next(i int, name string) (float64, error) {
	for w.sc.Scan() {
		w.line++
		if s := strings.TrimSpace(w.sc.Text()); s != "" {
			return parseWeight(s, w.path, w.line)
		}
	}
	if err := w.sc.Err(); err != nil {
		return 0, fmt.Errorf("%s: %w", w.path, err)
	}
	return 0, fmt.Errorf("%s: %s for the rows of %s, more than that, want one a row", w.path, plural(i, "weight"), name)
}

// end returns an error if weights are left after those of the n rows of
// the file name.
func (w *weightLines) end(n int, name string) error {
	for w.sc.Scan() {
		if strings.TrimSpace(w.sc.Text()) != "" {
			return fmt.Errorf("%s: more weights than the %s of %s, want one a row", w.path, plural(n, "row"), name)
		}
	}
	return w.sc.Err()
}

// describeRowWeightsOf describes the weights of the rows of the file path,
// if any, which a stream does not hold to say more.
func describeRowWeightsOf(path string) string {
	if path == "" {
		return ""
	}
	return fmt.Sprintf("row weights (-weights %s)\n", path)
}

// rowWeights describes the weights of the rows, if any, of the file path.
func rowWeights(rows rowBlocks, path string) string {
	if ds, ok := rows.(*dataset); ok {
		return describeRowWeights(ds, path)
	}
	return describeRowWeightsOf(path)
}
