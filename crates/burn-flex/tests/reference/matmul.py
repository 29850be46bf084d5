"""Reference values for the hand-worked cases of tests/matmul.rs.

Plain Python (no NumPy/PyTorch): run `python3 tests/reference/matmul.py`.
The larger cases of the test file use a naive f64 product computed in the
test itself from the same inputs.
"""


def matmul(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]


def wrap(v, bits, signed):
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


print("f32 2x3 by 3x2:", matmul([[1, 2, 3], [4, 5, 6]], [[7, 8], [9, 10], [11, 12]]))
print("signed ints:", matmul([[1, -2], [3, 4]], [[5, 6, -1], [7, 0, 2]]))
print("unsigned ints:", matmul([[1, 2], [3, 4]], [[5, 6, 1], [7, 0, 2]]))
print("u8 wrap:", wrap(matmul([[16, 1]], [[16], [1]])[0][0], 8, False))
print("i8 wrap:", wrap(matmul([[100, 100]], [[2], [1]])[0][0], 8, True))
a = [[[1, 2]], [[3, 4]]]
b = [[[1], [1]], [[1], [-1]]]
print("broadcast [2,1,1,2] x [2,2,1]:", [[matmul(ai, bj) for bj in b] for ai in a])
k = 2049
print("half accumulation:", 1 + (k - 1) * 2.0**-12)
