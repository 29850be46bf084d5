"""Writes iris.csv from scikit-learn's copy of the iris data.

    pip download scikit-learn --no-deps -d /tmp/skl
    unzip /tmp/skl/*.whl 'sklearn/datasets/data/iris.csv' -d /tmp/skl
    python3 make_iris_csv.py /tmp/skl/sklearn/datasets/data/iris.csv

scikit-learn's file starts with a line `150,4,setosa,versicolor,virginica`
(row count, feature count, class names) and gives each class as an index;
this script writes a plain CSV with a header and the class names instead.
The measurements are copied unchanged.
"""

import csv
import sys

with open(sys.argv[1], newline="") as source:
    rows = list(csv.reader(source))
count, _, *names = rows[0]
assert int(count) == len(rows) - 1

with open("iris.csv", "w", newline="") as out:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["sepal_length", "sepal_width", "petal_length", "petal_width", "species"])
    for row in rows[1:]:
        writer.writerow(row[:4] + [names[int(row[4])]])
