# Copyright ©2026 The perceptron Authors. All rights reserved.
# Use of this source code is governed by a BSD-style
# license that can be found in the LICENSE file.

"""Fit scikit-learn's SVC with the RBF kernel on the data that bench/compare
wrote for its fashion10-kernel section.

bench/compare embeds this script, writes it next to the data and runs it
with /usr/bin/python3. The data are raw little-endian float64 files:
train.x, train.y, test.x and test.y, rows in the order of the Go side, as
sklearn_fit.py reads them. The model is SVC(kernel="rbf", C=1,
gamma="scale"), scikit-learn's defaults; only fit is timed, with
time.perf_counter. The script prints one JSON object with the versions and
one with the fit.

Exit status 3, with a JSON object naming what is missing, means that
scikit-learn or numpy is not installed.
"""

import argparse
import json
import os
import sys
import time

try:
    import numpy as np
    import sklearn
    from sklearn.svm import SVC
except ImportError as err:
    print(json.dumps({"missing": str(err)}), flush=True)
    sys.exit(3)


def load(path, rows, cols):
    a = np.fromfile(path, dtype="<f8")
    if a.size != rows * cols:
        raise SystemExit("kernel_fashion.py: %s holds %d values, want %d" % (path, a.size, rows * cols))
    return a.reshape(rows, cols) if cols > 1 else a


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--ntest", type=int, required=True)
    ap.add_argument("--d", type=int, required=True)
    args = ap.parse_args()

    print(json.dumps({"versions": {"scikit-learn": sklearn.__version__, "numpy": np.__version__}}), flush=True)
    X = load(os.path.join(args.dir, "train.x"), args.n, args.d)
    y = load(os.path.join(args.dir, "train.y"), args.n, 1)
    Xt = load(os.path.join(args.dir, "test.x"), args.ntest, args.d)
    yt = load(os.path.join(args.dir, "test.y"), args.ntest, 1)

    m = SVC(kernel="rbf", C=1.0, gamma="scale")
    t0 = time.perf_counter()
    m.fit(X, y)
    seconds = time.perf_counter() - t0
    out = {
        "seconds": seconds,
        "test": float(np.mean(m.predict(Xt) == yt)),
        "support": int(np.sum(m.n_support_)),
        "gamma": float(m._gamma),
    }
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
