# Copyright ©2026 The perceptron Authors. All rights reserved.
# Use of this source code is governed by a BSD-style
# license that can be found in the LICENSE file.

"""Calibrate the scores that bench/compare wrote with scikit-learn's
CalibratedClassifierCV(method="sigmoid"), and measure the probabilities.

bench/compare embeds this script, writes it next to the data and runs it
with /usr/bin/python3. The data are raw little-endian float64 files, rows
in the order of the Go side, S scores a row (one for two classes, one for
each class for more) and the class of each row, 0 to K-1:

  cal.scores, cal.y     the scores to calibrate on, of rows that the
                        classifier did not train on
  test.scores, test.y   the scores of the test rows

The estimator that CalibratedClassifierCV calibrates, with cv="prefit", is
Scores, whose decision function is its input: it is fitted on the scores
and applies its sigmoids to scores, as it does to a classifier's
decision_function, so that both sides calibrate the same numbers. With
ensemble=False, CalibratedClassifierCV fits its sigmoids on the
out-of-fold scores of cross_val_predict, which cal.scores may be, and
predicts with the classifier fitted on all the rows, whose test scores
test.scores may be: the same computation. The script prints the versions,
then one JSON object with the slope a_ and the intercept b_ of each
sigmoid, and writes the probabilities of the test rows into
sklearn.probs, K a row.

With --folds F it also fits the sigmoids of each fold i, on foldI.scores
and foldI.y, the scores of the rows of fold i by the classifier fitted on
the other folds, and averages the probabilities of the test rows that each
gives of that classifier's scores of them, foldI.test: CalibratedClassifierCV
with its default ensemble=True, on the same folds. With --probs NAME,...
it reads the Go side's probabilities of the test rows from NAME.probs,
K a row, for each NAME. It then prints one JSON object a system (sklearn,
sklearn-ensemble and each NAME), with the log-loss (sklearn.metrics.log_loss),
the Brier score (the mean over the rows of the squared differences of the
probabilities of all K classes from 1 for the row's class and 0 for the
others, Brier's (1950) score, twice scikit-learn's brier_score_loss for two
classes) and the accuracy of the most probable class.

Exit status 3, with a JSON object naming what is missing, means that
scikit-learn or numpy is not installed.
"""

import argparse
import json
import os
import sys

try:
    import numpy as np
    import sklearn
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.metrics import log_loss
except ImportError as err:
    print(json.dumps({"missing": str(err)}), flush=True)
    sys.exit(3)


class Scores(ClassifierMixin, BaseEstimator):
    """A fitted classifier of K classes whose decision function is its
    input: one column for two classes, K for more."""

    def __init__(self, K=2):
        self.K = K
        self.classes_ = np.arange(K, dtype=np.float64)

    def fit(self, X, y):
        return self

    def decision_function(self, X):
        return X[:, 0] if X.shape[1] == 1 else X


def load(path, cols):
    a = np.fromfile(path, dtype="<f8")
    if a.size % cols:
        raise SystemExit("calibrate.py: %s holds %d values, not rows of %d" % (path, a.size, cols))
    return a.reshape(-1, cols)


def calibrate(scores, y, test, K):
    """Fit CalibratedClassifierCV on scores and y, and return it and its
    probabilities of the test scores."""
    c = CalibratedClassifierCV(Scores(K), method="sigmoid", cv="prefit")
    c.fit(scores, y)
    return c, c.predict_proba(test)


def measure(system, y, probs, K):
    onehot = np.eye(K)[y.astype(int)]
    return {
        "system": system,
        "log_loss": float(log_loss(y, probs, labels=np.arange(K))),
        "brier": float(np.mean(np.sum((probs - onehot) ** 2, axis=1))),
        "accuracy": float(np.mean(np.argmax(probs, axis=1) == y)),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--K", type=int, required=True)
    ap.add_argument("--folds", type=int, default=0)
    ap.add_argument("--probs", default="")
    args = ap.parse_args()
    K = args.K
    S = 1 if K == 2 else K

    def path(name):
        return os.path.join(args.dir, name)

    print(json.dumps({"versions": {"scikit-learn": sklearn.__version__, "numpy": np.__version__}}), flush=True)
    cal, ycal = load(path("cal.scores"), S), load(path("cal.y"), 1)[:, 0]
    test, ytest = load(path("test.scores"), S), load(path("test.y"), 1)[:, 0]
    c, probs = calibrate(cal, ycal, test, K)
    sig = c.calibrated_classifiers_[0].calibrators
    print(json.dumps({"a": [float(s.a_) for s in sig], "b": [float(s.b_) for s in sig]}), flush=True)
    probs.astype("<f8").tofile(path("sklearn.probs"))
    if not args.folds and not args.probs:
        return
    print(json.dumps(measure("sklearn", ytest, probs, K)), flush=True)
    if args.folds:
        mean = np.zeros_like(probs)
        for i in range(args.folds):
            fold = path("fold%d." % i)
            _, p = calibrate(load(fold + "scores", S), load(fold + "y", 1)[:, 0], load(fold + "test", S), K)
            mean += p
        print(json.dumps(measure("sklearn-ensemble", ytest, mean / args.folds, K)), flush=True)
    for name in filter(None, args.probs.split(",")):
        print(json.dumps(measure(name, ytest, load(path(name + ".probs"), K), K)), flush=True)


if __name__ == "__main__":
    main()
