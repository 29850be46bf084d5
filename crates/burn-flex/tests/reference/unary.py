"""Reference values for tests/unary.rs (and the float parts of binary.rs).

Only Python's `math` module is used (no NumPy/PyTorch needed); the values are
f64 results, which the f32 tests compare with the default f32 tolerance.
Run `python3 tests/reference/unary.py` and paste the printed arrays.
"""
import math

INPUTS = {
    "exp": [-3.0, -0.5, 0.0, 0.5, 1.0, 4.0],
    "log": [0.1, 0.5, 1.0, 2.0, 10.0, 1000.0],
    "log1p": [-0.5, -1e-6, 0.0, 1e-6, 1.0, 100.0],
    "sqrt": [0.0, 0.25, 1.0, 2.0, 9.0, 1e6],
    "sin": [-3.0, -1.0, 0.0, 0.5, 1.5, 6.0],
    "cos": [-3.0, -1.0, 0.0, 0.5, 1.5, 6.0],
    "tan": [-1.2, -0.5, 0.0, 0.3, 1.0, 1.4],
    "sinh": [-3.0, -0.5, 0.0, 0.5, 1.0, 4.0],
    "cosh": [-3.0, -0.5, 0.0, 0.5, 1.0, 4.0],
    "tanh": [-5.0, -0.5, 0.0, 0.1, 1.0, 3.0],
    "asin": [-1.0, -0.5, 0.0, 0.3, 0.9, 1.0],
    "acos": [-1.0, -0.5, 0.0, 0.3, 0.9, 1.0],
    "atan": [-10.0, -1.0, 0.0, 0.3, 1.0, 100.0],
    "asinh": [-10.0, -1.0, 0.0, 0.3, 1.0, 100.0],
    "acosh": [1.0, 1.5, 2.0, 3.0, 10.0, 100.0],
    "atanh": [-0.9, -0.5, 0.0, 0.3, 0.5, 0.99],
    "erf": [-3.0, -1.0, -0.1, 0.0, 0.5, 2.0],
}

FUNCS = {name: getattr(math, name) for name in INPUTS}

for name, xs in INPUTS.items():
    ys = [FUNCS[name](x) for x in xs]
    print(f"// {name}")
    print(f"({name!r}, {xs}, {[float(repr(y)) for y in ys]}),".replace("'", '"'))

# erf on a fine grid, for the f64 accuracy test: x = -4 + k/8, k = 0..64.
grid = [-4 + k / 8 for k in range(65)]
print("ERF_GRID =", [math.erf(x) for x in grid])

# atan2 quadrants used in binary.rs.
pairs = [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0), (0.0, -1.0), (2.0, 0.0)]
print("ATAN2 =", [math.atan2(y, x) for y, x in pairs])
