"""Shared helpers of the reference scripts of the per-op shape, indexing,
running, sort and activation tests (imported, not run).

Every case builds float64 leaves with `leaf`, reduces the op's output with
`weighted_sum` (the same loss as `weighted_sum` in tests/autodiff/expect.rs:
`sum(w * y)` with `w = 1, 2, ..., n` in row-major order, so every output
element has its own upstream gradient), runs PyTorch's backward, and prints
the gradients as Rust array literals to paste into the test files.
"""
import warnings

warnings.filterwarnings("ignore")  # torch warns when NumPy is missing

import torch  # noqa: E402

torch.set_default_dtype(torch.float64)


def leaf(data):
    return torch.tensor(data, dtype=torch.float64, requires_grad=True)


def weighted_sum(y):
    w = torch.arange(1, y.numel() + 1, dtype=torch.float64).reshape(y.shape)
    return (y * w).sum()


def literal(value):
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    return repr(float(value))


def show(name, tensor):
    print(f"  {name}: {literal(tensor.detach().tolist())}")


def case(title):
    print(f"# {title}")
