# Copyright ©2026 The perceptron Authors. All rights reserved.
# Use of this source code is governed by a BSD-style
# license that can be found in the LICENSE file.

"""Fit scikit-learn's models on the data that bench/compare wrote.

bench/compare embeds this script, writes it next to the data and runs it
with /usr/bin/python3. The data are raw little-endian float64 files:
train.x, train.y, test.x and test.y, rows in the order of the Go side.
With --csr the rows are sparse, and train.x and test.x are each three
files, NAME.indptr and NAME.indices (int64) and NAME.data (float64), the
slices of a CSR matrix, which the script fits on as a scipy.sparse
csr_matrix with 32-bit indices, the form scikit-learn trains on without a
copy.

Each FIT argument is KEY:EPOCHS:REPEAT, or for the perceptron
KEY:EPOCHS:REPEAT:WEIGHTS, its class_weight: balanced, or CLASS=WEIGHT
pairs separated by commas. The key perceptron-tol is the perceptron
stopped by its loss, with tol=1e-3 and n_iter_no_change=5. With
--weights, train.w holds a float64 weight for each training row, the
sample_weight of every fit. The script fits the model REPEAT times,
timing only fit with time.perf_counter, and prints one JSON object per
fit on stdout. For the linear models it writes, into DIR, the files
KEY-EPOCHS.coef (coef_ then intercept_), KEY-EPOCHS.standard (for the
averaged model: the last, unaveraged weights; scikit-learn does not keep
the last intercept when it averages),
KEY-EPOCHS.pred.train, .pred.test (predict) and .dec.train, .dec.test
(decision_function), all float64; the files of a fit with WEIGHTS are
named KEY-EPOCHS-wN, N the place of its FIT among the FIT arguments,
counted from 0.

Exit status 3, with a JSON object naming what is missing, means that
scikit-learn or numpy is not installed.
"""

import argparse
import json
import os
import sys
import time
import warnings

try:
    import numpy as np
    import scipy.sparse
    import sklearn
    from sklearn.linear_model import Perceptron, SGDClassifier
    from sklearn.svm import SVC, LinearSVC
except ImportError as err:
    print(json.dumps({"missing": str(err)}), flush=True)
    sys.exit(3)


def make(key, epochs, class_weight=None):
    """Return the model named key, set to run epochs epochs, with the
    class_weight given, which only the perceptron takes."""
    if key == "perceptron":
        return Perceptron(shuffle=False, tol=None, eta0=1, max_iter=epochs, class_weight=class_weight)
    if key == "perceptron-tol":
        return Perceptron(shuffle=False, tol=1e-3, n_iter_no_change=5, eta0=1, max_iter=epochs, class_weight=class_weight)
    if class_weight is not None:
        raise SystemExit("sklearn_fit.py: class weights are the perceptron's alone, not " + key)
    if key in ("sgd-avg", "sgd-avg-shuffled"):
        # sgd-avg-shuffled visits the rows in a fresh random order every
        # epoch; with more than two classes, both learn one against the
        # rest.
        shuffled = key == "sgd-avg-shuffled"
        return SGDClassifier(
            loss="perceptron",
            learning_rate="constant",
            eta0=1,
            penalty=None,
            alpha=0,
            average=True,
            shuffle=shuffled,
            random_state=0 if shuffled else None,
            tol=None,
            max_iter=epochs,
        )
    if key == "linearsvc":
        return LinearSVC(random_state=0)
    if key == "svc-rbf":
        return SVC(kernel="rbf", C=10)
    if key == "svc-poly":
        return SVC(kernel="poly", degree=3, C=10)
    raise SystemExit("sklearn_fit.py: unknown model " + key)


def class_weight(spec):
    """Return the class_weight of a FIT's WEIGHTS: "balanced", or a dict
    of the classes, as float64s as the labels are, to their weights."""
    if spec == "balanced":
        return spec
    weights = {}
    for pair in spec.split(","):
        c, w = pair.split("=")
        weights[float(c)] = float(w)
    return weights


def load(path, rows, cols):
    a = np.fromfile(path, dtype="<f8")
    if a.size != rows * cols:
        raise SystemExit("sklearn_fit.py: %s holds %d values, want %d" % (path, a.size, rows * cols))
    return a.reshape(rows, cols) if cols > 1 else a


def load_csr(base, rows, cols):
    indptr = np.fromfile(base + ".indptr", dtype="<i8")
    indices = np.fromfile(base + ".indices", dtype="<i8")
    data = np.fromfile(base + ".data", dtype="<f8")
    if indptr.size != rows + 1 or indices.size != data.size or indptr[-1] != data.size:
        raise SystemExit("sklearn_fit.py: %s: %d row pointers, %d indices and %d values for %d rows"
                         % (base, indptr.size, indices.size, data.size, rows))
    X = scipy.sparse.csr_matrix(
        (data, indices.astype(np.int32), indptr.astype(np.int32)), shape=(rows, cols))
    X.has_sorted_indices = True
    return X


def save(path, *parts):
    np.concatenate([np.ravel(p) for p in parts]).astype("<f8").tofile(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--ntest", type=int, required=True)
    ap.add_argument("--d", type=int, required=True)
    ap.add_argument("--csr", action="store_true")
    ap.add_argument("--weights", action="store_true")
    ap.add_argument("fits", nargs="+", metavar="FIT")
    args = ap.parse_args()

    print(json.dumps({"versions": {"scikit-learn": sklearn.__version__, "numpy": np.__version__,
                                   "scipy": scipy.__version__}}), flush=True)
    if args.csr:
        X = load_csr(os.path.join(args.dir, "train"), args.n, args.d)
        Xt = load_csr(os.path.join(args.dir, "test"), args.ntest, args.d)
    else:
        X = load(os.path.join(args.dir, "train.x"), args.n, args.d)
        Xt = load(os.path.join(args.dir, "test.x"), args.ntest, args.d)
    y = load(os.path.join(args.dir, "train.y"), args.n, 1)
    yt = load(os.path.join(args.dir, "test.y"), args.ntest, 1)
    sw = load(os.path.join(args.dir, "train.w"), args.n, 1) if args.weights else None

    for place, spec in enumerate(args.fits):
        key, epochs, repeat, *weights = spec.split(":")
        epochs, repeat = int(epochs), int(repeat)
        cw = class_weight(weights[0]) if weights else None
        times = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(repeat):
                m = make(key, epochs, cw)
                t0 = time.perf_counter()
                m.fit(X, y, sample_weight=sw)
                times.append(time.perf_counter() - t0)
        pred = {"train": m.predict(X), "test": m.predict(Xt)}
        out = {
            "key": key,
            "epochs": epochs,
            "seconds": times,
            "n_iter": int(np.max(m.n_iter_)) if hasattr(m, "n_iter_") else 0,
            "train": float(np.mean(pred["train"] == y)),
            "test": float(np.mean(pred["test"] == yt)),
            "warnings": sorted({str(w.message).split("\n")[0] for w in caught}),
        }
        if key in ("perceptron", "perceptron-tol", "sgd-avg"):
            base = os.path.join(args.dir, "%s-%d." % (key, epochs))
            if cw is not None:
                base = os.path.join(args.dir, "%s-%d-w%d." % (key, epochs, place))
            save(base + "coef", m.coef_, m.intercept_)
            if key == "sgd-avg":
                save(base + "standard", m._standard_coef)
            for name, data in (("train", X), ("test", Xt)):
                save(base + "pred." + name, pred[name])
                save(base + "dec." + name, m.decision_function(data))
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
