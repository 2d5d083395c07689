# Writes text_sklearn.json, the rows that scikit-learn's HashingVectorizer
# gives a few texts, for TestHashingSklearn: run it with Debian's python3
# and python3-sklearn (1.2.1) from this directory,
#
#   /usr/bin/python3 text_sklearn.py > text_sklearn.json
#
# The texts are words of letters and digits between spaces and
# punctuation, on which scikit-learn's token pattern \w+ finds the words
# that Hashing does. Its "binary" is not Hashing's with signs: it sets
# every value to 1, so the cases of Values "binary" are unsigned.
import json

import sklearn
from sklearn.feature_extraction.text import HashingVectorizer

assert sklearn.__version__ == "1.2.1", sklearn.__version__

texts = [
    "Hello, World! hello world",
    "new york new york new york is in new york state",
    "a b a b a b a b a b c",
    "École école Straße señor ÜBER über naïve 3 14",
    "the quick brown fox jumps over the lazy dog 42 times",
    "",
    "x",
]

cases = []
for ngrams, bits, signed, values, norm in [
    (1, 20, False, "count", True),
    (2, 20, False, "count", True),
    (2, 18, True, "count", True),
    (3, 10, True, "count", False),
    (2, 4, True, "count", False),
    (2, 3, False, "binary", False),
    (2, 16, False, "binary", True),
    (1, 30, True, "count", True),
]:
    v = HashingVectorizer(
        n_features=2**bits,
        ngram_range=(1, ngrams),
        alternate_sign=signed,
        binary=values == "binary",
        norm="l2" if norm else None,
        token_pattern=r"(?u)\b\w+\b",
    )
    X = v.transform(texts).tocsr()
    X.sort_indices()
    cases.append({
        "hashing": {"ngrams": ngrams, "bits": bits, "seed": 0, "signed": signed,
                    "values": values, "noNorm": not norm},
        "texts": texts,
        "indptr": X.indptr.tolist(),
        "indices": X.indices.tolist(),
        "data": [float(x) for x in X.data],
    })
json.dump(cases, __import__("sys").stdout, indent=1, ensure_ascii=False)
print()
