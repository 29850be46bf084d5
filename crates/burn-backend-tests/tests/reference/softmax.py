#!/usr/bin/env python3
"""Reference values of the softmax and log-softmax tests (softmax.rs,
log_softmax.rs) that exercise every dim, extreme values and half dtypes.

Run: ~/torch/bin/python tests/reference/softmax.py
PyTorch computes every reference in float64; the f16/bf16 ones are then
rounded once to the half dtype, as the backend under test does (compute
in f32, round once).
"""
import torch

inf = float("inf")


def show(name, t):
    """Prints a tensor as the nested Rust array literal pasted into the test."""

    def fmt(v):
        if v != v:
            return "f64::NAN"
        if v == inf:
            return "f64::INFINITY"
        if v == -inf:
            return "f64::NEG_INFINITY"
        return repr(float(v))

    def nest(x):
        if x.dim() == 0:
            return fmt(x.item())
        return "[" + ", ".join(nest(r) for r in x) + "]"

    print(f"{name}: {nest(t)}")


X3 = torch.tensor(
    [
        [[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.0], [3.0, 3.0, 3.0, 3.0]],
        [[-2.0, 0.0, 1.5, 1.0], [10.0, -10.0, 5.0, 0.25], [-0.5, 1.5, -2.5, 0.0]],
    ],
    dtype=torch.float64,
)
for dim in range(3):
    show(f"softmax_3d_dim{dim}", torch.softmax(X3, dim))
    show(f"log_softmax_3d_dim{dim}", torch.log_softmax(X3, dim))

LARGE = torch.tensor(
    [[1000.0, 1001.0, 1002.0, 999.0], [-1000.0, -1001.0, -1003.0, -1000.5]],
    dtype=torch.float64,
)
for dim in range(2):
    show(f"softmax_large_dim{dim}", torch.softmax(LARGE, dim))
    show(f"log_softmax_large_dim{dim}", torch.log_softmax(LARGE, dim))

INF = torch.tensor(
    [[-inf, 0.0, 1.0, -inf], [-inf, -inf, -inf, -inf], [inf, 0.0, 1.0, 2.0]],
    dtype=torch.float64,
)
for dim in range(2):
    show(f"softmax_inf_dim{dim}", torch.softmax(INF, dim))
    show(f"log_softmax_inf_dim{dim}", torch.log_softmax(INF, dim))

# A long row: every lane, block and remainder path of a vectorized kernel.
LONG = torch.tensor([[(i % 17) * 0.5 - 3.0 for i in range(2001)], [(i % 5) * -2.0 for i in range(2001)]], dtype=torch.float64)
PICK = [0, 1, 16, 1000, 2000]
show("softmax_long_picked", torch.softmax(LONG, 1)[:, PICK])
show("log_softmax_long_picked", torch.log_softmax(LONG, 1)[:, PICK])

# Half dtypes: the float64 result on the half-rounded inputs, rounded once
# to the half dtype (the correctly rounded answer). PyTorch's own half
# kernel is not used: its log_softmax of [0.1, -0.2, 0.3, 8.0] in f16 gives
# -0.000976 for the last entry, whose value is -0.0010976.
HALF = torch.tensor([[1.0, 2.0, 3.0, 4.0], [0.1, -0.2, 0.3, 8.0]])
for dtype, name in [(torch.float16, "f16"), (torch.bfloat16, "bf16")]:
    x = HALF.to(dtype).double()
    for dim in range(2):
        show(f"softmax_{name}_dim{dim}", torch.softmax(x, dim).to(dtype).double())
        show(f"log_softmax_{name}_dim{dim}", torch.log_softmax(x, dim).to(dtype).double())
