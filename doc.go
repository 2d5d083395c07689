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
// first class the value y = -1 and the second y = +1, and labels a point x
// by the side of the hyperplane it falls on,
//
//	ŷ = sign(w·x + b),
//
// a score of exactly zero being +1, the second class. The score w·x + b,
// divided by the norm of w, is the signed distance of x from the
// hyperplane. With K classes it keeps a weight vector w_c and a bias b_c
// per class, and labels x by the class of the greatest score w_c·x + b_c,
// the first of those if several tie.
//
// # Learning from mistakes
//
// Training visits the examples (x, y) one at a time. With two classes an
// example is a mistake when
//
//	y(w·x + b) <= 0
//
// that is, when it falls on the wrong side of the hyperplane or on it. Only
// a mistake changes the model, by
//
//	w += r·y·x,  b += r·y
//
// where r is the learning rate. The update turns w towards x if y = +1 and
// away from it if y = -1, so that y(w·x + b) on that example grows by
// r(||x||² + 1), or by r||x||² through the origin. With K classes an
// example of class t is a mistake unless w_t·x + b_t is strictly greater
// than every other score; the mistake adds r·x and r to class t and takes
// them from the other class of greatest score (Collins, 2002; Crammer and
// Singer, 2003). One pass over the data is an epoch; training stops at the
// end of the first epoch without a mistake, or at an epoch limit. From
// zero initial weights and bias the rate only scales the weights, so in
// exact arithmetic it changes no prediction; in floating point only a
// power of two scales exactly (short of underflow), and another rate can
// tip a tie either way, and so change the run.
//
// # When it converges, and when it does not
//
// The convergence theorem of Block (1962) and Novikoff (1962) says: if a
// unit vector u separates the data through the origin with margin γ > 0
// (every y·(u·x) >= γ), and every ||x|| <= R, then the perceptron started
// from zero weights makes at most (R/γ)² mistakes, whatever the order of
// the examples and the rate. With a bias, the perceptron is the one
// through the origin on the rows (x, 1), so R and γ are those of these
// rows. With K classes, Kesler's construction (Duda and Hart, 1973) makes the multiclass
// perceptron a perceptron on vectors of norm √2·R, so it makes at most
// 2R²/γ² mistakes on data that weight vectors of unit joint norm separate
// with margin γ, each true score exceeding every other by γ.
//
// The theorem promises nothing else. On data that no hyperplane separates,
// such as XOR, the perceptron never converges: its weights cycle and it
// stops only at the epoch limit, with whatever hyperplane it holds then.
// The order of the examples matters too: different orders give different
// hyperplanes, and different numbers of mistakes below the bound. Scaling
// the features matters as well, since it changes R and γ.
//
// # Which type to use
//
// Every classifier implements [Scorer], trains with Fit on the rows of a
// [gonum.org/v1/gonum/mat.Matrix], and shares the same settings: Epochs,
// Rate, Rand (to shuffle each epoch), NoBias, InitWeights and InitBias
// (which Kernel has not), Labels (to fix the classes) and OnUpdate (to
// watch training). The zero value of each is ready to use.
//
//   - [Perceptron] is the perceptron itself, for data a hyperplane
//     separates, and for learning one example at a time with Learn.
//   - [Pocket] runs the perceptron and predicts with the weights of the
//     run that misclassify the fewest training rows, or, with Ratchet,
//     those that Gallant's (1990) ratchet keeps. The choice when the
//     data are almost separable.
//   - [Averaged] predicts with the average of the weights after every
//     example visit, at the cost of a single perceptron, and [Voted] with
//     the vote of every weight vector of the run, each weighted by the
//     visits it survived (Freund and Schapire, 1999). On data that are not
//     separable both usually generalise better than the last hyperplane;
//     Averaged is the usual choice for text.
//   - [Kernel] is the perceptron in the feature space of a kernel
//     ([Linear], [Poly], [RBF] or a [Custom] function), in dual form, to
//     separate data that no hyperplane separates. It predicts with the last
//     hypothesis, or with the vote or the average of all of them, and a
//     Budget bounds the support vectors it keeps on long streams.
//   - [OneVsRest] learns many classes with a binary classifier per class,
//     as scikit-learn does, where the others learn them together.
//   - [GeometricMargin] and [FunctionalMargin] measure a hyperplane's
//     margin on a data set, [DatasetMargin] the largest margin any
//     hyperplane attains, with a certificate, and [NovikoffBound] the
//     mistake bound of the convergence theorem; [Separable] says by linear
//     programming whether a hyperplane separates the data at all, and
//     [PerceptronCriterion] and [ZeroOneError] are the perceptron's loss
//     and the fraction of rows a hyperplane gets wrong. They take the
//     labels -1 and +1.
//
// # Reading the data
//
// Rows are samples. A [gonum.org/v1/gonum/mat.RawMatrixer], such as a
// *mat.Dense, is read in place through its raw data; a matrix with the
// method DoRowNonZero of [gonum.org/v1/gonum/mat.RowNonZeroDoer] is read
// as sparse rows in O(non-zeros): this package's [CSR] in place, any other
// copied once, sparse. Nothing then costs time or memory in proportion to
// the number of columns times the rows. Any other matrix is copied once,
// densely, through At. Fit never modifies the data and keeps no reference
// to them.
//
// # Saving and loading
//
// Every classifier but OneVsRest saves its fitted model with
// encoding/json and loads it with json.Unmarshal into a zero value: its
// settings, the model exactly as Predict reads it, and Stats, under a
// type name and a format version of its own, so that a file of another
// type or version gives a clear error, as does an unknown field within
// them; other members beside them are ignored, so that a program may keep
// its own data in the same file, as the command does. A loaded classifier
// scores every x to the same bits as the saved one. Rand and OnUpdate are not saved, and
// neither is a Custom kernel, which is Go code: MarshalJSON returns an
// error for it.
//
// # Errors and panics
//
// Fit returns an error for data it cannot train on: no rows, labels that
// are NaN or infinite or of a single class, NaN or infinite values,
// values or a Rate so large that training overflows, or invalid settings;
// the error names the row and the value. A failed Fit leaves the
// classifier as it was. Predict and the scoring methods panic if the
// classifier has not been fitted or if x has the wrong length, as gonum
// does for mismatched dimensions. They may run concurrently with each
// other, but not with Fit or Learn.
package perceptron
