"""Expected values of tests/api_numeric.rs, computed with Python's math module only.

Run: python3 crates/burn-tensor/tests/reference/api_numeric.py
"""
import math


def softmax(xs):
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    s = sum(e)
    return [v / s for v in e]


def log_softmax(xs):
    m = max(xs)
    lse = m + math.log(sum(math.exp(x - m) for x in xs))
    return [x - lse for x in xs]


def gelu(x):  # exact (erf) form, PyTorch's default
    return x * 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def softplus(x, beta=1.0, threshold=20.0):  # torch.nn.functional.softplus
    return x if beta * x > threshold else math.log1p(math.exp(beta * x)) / beta


def mish(x):
    return x * math.tanh(softplus(x))


def var(xs, correction=1):
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - correction)


print("softmax([1,2,3])      =", softmax([1.0, 2.0, 3.0]))
print("softmax([1000,1001])  =", softmax([1000.0, 1001.0]))
print("log_softmax([1,2,3])  =", log_softmax([1.0, 2.0, 3.0]))
print("softmin([1,2,3])      =", softmax([-1.0, -2.0, -3.0]))
print("gelu([-1,0,0.5,2])    =", [gelu(x) for x in [-1.0, 0.0, 0.5, 2.0]])
print("sigmoid([-2,0,3])     =", [sigmoid(x) for x in [-2.0, 0.0, 3.0]])
print("log_sigmoid([-2,0,3]) =", [math.log(sigmoid(x)) for x in [-2.0, 0.0, 3.0]])
print("silu([-2,0,3])        =", [x * sigmoid(x) for x in [-2.0, 0.0, 3.0]])
print("softplus([-1,0,1,30]) =", [softplus(x) for x in [-1.0, 0.0, 1.0, 30.0]])
print("softplus(beta=2)([0.5, 15]) =", [softplus(x, 2.0) for x in [0.5, 15.0]])
print("mish([-1,0,1])        =", [mish(x) for x in [-1.0, 0.0, 1.0]])
print("var([1,2,3,4])        =", var([1, 2, 3, 4]), " var_bias =", var([1, 2, 3, 4], 0))
print("var([2,4,6,8])        =", var([2, 4, 6, 8]), " var_bias =", var([2, 4, 6, 8], 0))
print("floor div / remainder (Python // and %):",
      [(a, b, a // b, a % b) for a, b in [(7, 3), (-7, 3), (7, -3), (-7, -3)]])
print("float remainder 5.5 % -2 =", 5.5 % -2.0, "; -5.5 % 2 =", -5.5 % 2.0)
print("bitwise: 12&10 =", 12 & 10, " 12|10 =", 12 | 10, " 12^10 =", 12 ^ 10,
      " ~5 =", ~5, " 3<<2 =", 3 << 2, " -16>>2 =", -16 >> 2)
print("atan2(1,-1) =", math.atan2(1.0, -1.0))
