"""Prints the reference values that `src/digits.rs`'s tests check.

Run from this directory: `python3 reference.py`. Uses only the standard
library, reading `digits.csv.gz` independently of the Rust loader.
"""

import collections
import csv
import gzip
import hashlib

with open("digits.csv.gz", "rb") as f:
    raw = f.read()
print("sha256", hashlib.sha256(raw).hexdigest())

rows = list(csv.reader(gzip.decompress(raw).decode().splitlines()))
print("rows", len(rows), "fields", {len(r) for r in rows})
labels = [int(r[64]) for r in rows]
counts = collections.Counter(labels)
print("label counts", [counts[d] for d in range(10)])
print("first label", labels[0], "first pixels", [int(x) for x in rows[0][:64]])
print("last label", labels[-1], "last pixel sum", sum(int(x) for x in rows[-1][:64]))
print("max pixel", max(int(x) for r in rows for x in r[:64]))
