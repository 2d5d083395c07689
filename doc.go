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
// From zero weights the rate only scales the model.
//
// # When it converges, and when it does not
//
// Block (1962) and Novikoff (1962): if a unit vector u separates the data
// through the origin with margin γ > 0 (every y·(u·x) >= γ), and every
// ||x|| <= R, the perceptron started from zero makes at most (R/γ)²
// mistakes, whatever the order of the examples and the rate. With a bias,
// R and γ are those of the rows (x, 1). With K classes, Kesler's
// construction (Duda and Hart, 1973) gives at most 2R²/γ² mistakes.
//
// The theorem promises nothing else. On data that no hyperplane separates,
// such as XOR, the weights cycle and training stops only at the epoch
// limit. The order of the examples and the scaling of the features change
// the hyperplane found, and the number of mistakes below the bound.
//
// # Which type to use
//
// Every classifier is a [Scorer], trains with Fit on the rows of a
// [gonum.org/v1/gonum/mat.Matrix], and is ready to use as a zero value.
//
//   - [Perceptron] is the perceptron itself.
//   - [Pocket] predicts with the weights of the run that misclassify the
//     fewest training rows (Gallant, 1990): for data almost separable.
//   - [Averaged] predicts with the average of the weights after every
//     visit, and [Voted] with their vote (Freund and Schapire, 1999); on
//     data that are not separable both usually generalise better than the
//     last weights. Averaged is the usual choice for text.
//   - [Kernel] is the perceptron in the feature space of a kernel, in dual
//     form, to separate data that no hyperplane separates.
//   - [OneVsRest] learns many classes with a binary classifier per class,
//     as scikit-learn does; the others learn them together.
//
// Perceptron, Averaged, Voted and Kernel also learn online, a batch of rows
// at a time, with Learn. [GeometricMargin], [FunctionalMargin],
// [PerceptronCriterion] and [ZeroOneError] measure a hyperplane on data of
// the labels -1 and +1; [DatasetMargin] finds the largest margin of the
// data, [NovikoffBound] the mistake bound, and [Separable] whether any
// hyperplane separates them.
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
// Fit returns an error for data it cannot train on, naming the row and the
// value, and a failed Fit leaves the classifier as it was. Predict and the
// other prediction methods panic if the classifier has not been fitted or
// if the data have the wrong width, as gonum does; they may run
// concurrently with each other, but not with Fit or Learn. The package
// never prints, logs or reads the environment, and its results do not
// depend on GOMAXPROCS.
package perceptron
