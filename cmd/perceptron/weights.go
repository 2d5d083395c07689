// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// The weights of the training rows, -weights FILE: a number a line for
// each row of the data file, in its order, as the weighted builds of
// LIBSVM and LIBLINEAR read a file of instance weights (-W). A file
// beside the data, not a column of it as in Vowpal Wabbit's format: every
// format takes weights alike, without a column that its readers would
// have to tell from a feature, and the data file stays one that every
// other tool reads, weighed or not.

// weightsFlag defines -weights. It comes before the -wNAME flags of the
// class weights, which would take it for the weight of the class "eights".
func (j *job) weightsFlag(fs *flag.FlagSet) {
	fs.StringVar(&j.weights, "weights", "", "weigh the training rows by the numbers of `FILE`, one a line for each row of the data file, in its order, as LIBSVM's weighted train -W reads them: a mistake on a row steps by its weight (times its class's), as scikit-learn's sample_weight does; a row of weight 0 makes none")
}

// readWeights reads the weights of the n rows of the data file name from
// the file at path: a number a line, blank lines aside, each finite and
// >= 0. It returns an error naming the line at fault, or if the file
// holds other than n weights.
func readWeights(path string, n int, name string) ([]float64, error) {
	if err := memory.Check(8 * float64(n)); err != nil {
		return nil, fmt.Errorf("-weights %s: the weights of %s do not fit in the memory left: %v", path, plural(n, "row"), err)
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
