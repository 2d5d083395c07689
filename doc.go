// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package perceptron implements the perceptron and its classical variants:
// online, mistake-driven linear and kernel classifiers of two classes or
// many, on dense or sparse rows.
//
// # The model
//
// Labels are class values, any finite float64s. With two classes a
// perceptron (Rosenblatt, 1958) is a hyperplane w·x + b = 0: it gives the
// first class the label y = -1 and the second y = +1, and predicts
//
//	ŷ = sign(w·x + b),
//
// a score of exactly zero being +1, the second class. The score divided
// by the norm of w is the signed distance of x from the hyperplane. With
// K classes it keeps a weight vector w_c and a bias b_c per class, and
// predicts the class of the greatest score w_c·x + b_c, the first of those
// if several tie.
//
// # Learning from mistakes
//
// Training visits the examples (x, y) one at a time. With two classes an
// example is a mistake when y(w·x + b) <= 0, on the wrong side of the
// hyperplane or on it, and only a mistake changes the model:
//
//	w += r·y·x,  b += r·y
//
// where r is the learning rate, so that y(w·x + b) on that example grows by
// r(||x||² + 1). With K classes an example of class t is a mistake unless
// its score is strictly the greatest; the mistake adds r·x and r to class
// t and takes them from the other class of greatest score (Collins, 2002;
// Crammer and Singer, 2003). One pass over the data is an epoch; Fit stops
// at the end of the first epoch without a mistake, or at an epoch limit.
// From zero weights the rate only scales the model, unless a Stop that
// measures the loss, which the rate scales, decides when training ends.
// With class weights, the setting ClassWeight of every classifier, r is
// the learning rate times the weight of the example's class, as with
// scikit-learn's class_weight; [Balanced] gives the weights that balance
// the classes. [FitContext] and [LearnContext] weigh the rows too, as its
// sample_weight does: r is multiplied by the row's weight, a row of weight
// 0 makes no update, and a visit counts once in averages and votes.
//
// # When it converges, and when it does not
//
// Block (1962) and Novikoff (1962): if a unit vector u separates the data
// through the origin with margin γ > 0 (every y·(u·x) >= γ), and every
// ||x|| <= R, the perceptron started from zero makes at most (R/γ)²
// mistakes, whatever the order of the examples and the rate. With a bias,
// R and γ are those of the rows (x, 1); with K classes, at most 2R²/γ²,
// by Kesler's construction (Duda and Hart, 1973), which makes of each row
// K-1 rows of a binary problem on the K classes' weights taken as one
// vector: the row in its class's place, and its negative in another's. On
// data that no hyperplane separates, such as XOR, the weights cycle, and
// training stops at the epoch limit, or earlier by a Stop rule.
//
// # Which type to use
//
// Every classifier is a [Scorer], trains with Fit on the rows of a
// [gonum.org/v1/gonum/mat.Matrix], and is ready to use as a zero value.
// [Perceptron] is the perceptron itself; [Pocket] keeps the weights of the
// run that misclassify the fewest rows (Gallant, 1990); [Averaged] and
// [Voted] predict with the average and the vote of the weights after every
// visit (Freund and Schapire, 1999), and usually generalise better on data
// that are not separable, Averaged being the usual choice for text;
// [Kernel] works in the feature space of a kernel, to separate what no
// hyperplane does; [OneVsRest] learns many classes with a binary
// classifier per class, as scikit-learn does. All but Pocket, and
// OneVsRest of them, also learn online with Learn, and [FitShards] trains
// a Perceptron or an Averaged on shards of the data, on many cores or,
// with [LearnShard] and [Mix], many machines. [GeometricMargin],
// [FunctionalMargin], [PerceptronCriterion], [ZeroOneError],
// [DatasetMargin], [NovikoffBound] and [Separable] measure hyperplanes and
// data of the labels -1 and +1.
//
// # Data, models and errors
//
// Rows are samples. A [gonum.org/v1/gonum/mat.RawMatrixer], such as a
// *mat.Dense, and a [CSR] are read in place; any other
// [gonum.org/v1/gonum/mat.RowNonZeroDoer] is copied once, sparse, and any
// other matrix once, dense. Fit keeps no reference to the data.
//
// A fitted classifier saves with encoding/json and loads with
// json.Unmarshal into its type, or with [Unmarshal] whatever its type;
// the loaded model predicts to the same bits.
//
// # Memory
//
// Every size that comes from data, a file or a setting is checked before
// it is allocated, against the memory left to the process by Go's memory
// limit (runtime/debug.SetMemoryLimit, or GOMEMLIMIT) and, on Linux, by
// the limit of address space (ulimit -v) and the machine's memory and
// swap. A size beyond it is an error of kind [ErrTooLarge], never a fatal
// error of Go's allocator. With S scores, one for two classes and one per
// class for more, a table of weights on rows of d columns is S·(d+1)
// numbers of 8 bytes. Beyond X, Fit and Learn hold a table once for
// Perceptron, twice for Voted, three times for Averaged, and for Pocket
// twice and a batch of candidates of at most 32 MiB; a copy of X unless it
// is read in place, and of the rows that a Stop's Validation trains on; a
// few numbers per row (Pocket up to 20), and S more for Averaged's Fit,
// 1.25·S of 16 scores or more, and 2·S more for Kernel's, which hold at
// least 8·S·(3·(d+1)+n) and 16·S·n bytes on n rows. Voted and Kernel also
// keep the distinct rows of their mistakes, at most a copy of X, up to 96 bytes for each mistake, and
// Kernel S numbers for each of those rows. OneVsRest holds a classifier of
// one score per class, GOMAXPROCS of them training at once. Predictions
// that run at once on a model that Learn writes, or on a OneVsRest, count
// themselves on counters or locks of their own cache lines: at most 17
// KiB for each classifier, a OneVsRest's of each class among them, and 8
// KiB more for a OneVsRest. Loading a
// saved classifier holds its data and the numbers that it writes, 8 bytes
// each.
//
// Fit returns an error for data it cannot train on, naming the row and the
// value, and a failed Fit leaves the classifier as it was. The long calls
// have forms that a context stops, from another goroutine: [FitContext],
// [LearnContext], [FitShardsContext], [DatasetMarginContext] and
// [NovikoffBoundContext]. They poll the context after at most about 2^20
// multiplications of work, and return at once if it is done before the
// call; a stopped call returns an error that wraps ctx.Err(), and leaves
// the classifier as it was. With a context that is never done, such as
// context.Background(), each is the call without a context. Predict and the
// other prediction methods panic if the classifier has not been fitted or
// if the data have the wrong width, as gonum does. They, Marshal and
// MarshalJSON may run concurrently with each other and with one Learn,
// each seeing the model as a whole Learn left it; Fit, UnmarshalJSON and
// UnmarshalBinary run alone. The package
// never prints, logs or reads the environment. It spreads the work of
// many rows over GOMAXPROCS goroutines, and its results do not depend on
// their number.
package perceptron
