"""Shared helpers of the autodiff reference generators (imported by the
scripts beside it; run those, not this file).

Each case builds float64 leaves, applies the op, runs
`output.backward(upstream)` (the Rust tests' `backward_with`) and prints
the inputs, the upstream gradient, the output and the gradient of every
tracked leaf as Rust array literals, ready to paste.
"""
import warnings

warnings.filterwarnings("ignore")  # torch warns when numpy is absent

import torch  # noqa: E402

F64 = torch.float64


def rust(value):
    """A nested Rust array literal of a tensor's values."""
    if isinstance(value, torch.Tensor):
        value = value.detach().tolist()
    if isinstance(value, list):
        return "[" + ", ".join(rust(v) for v in value) + "]"
    return repr(float(value))


def case(title, op, inputs, upstream, untracked=()):
    """Prints the gradients of `op(**inputs)` seeded with `upstream`.

    `inputs` maps names to nested lists (passed to `op` in order); names in `untracked` are constants
    (their gradient must be absent). `op` returns a tensor of the shape the
    Rust op returns (full reductions: shape [1]).
    """
    leaves = {
        name: torch.tensor(values, dtype=F64, requires_grad=name not in untracked)
        for name, values in inputs.items()
    }
    output = op(*leaves.values())
    output.backward(torch.tensor(upstream, dtype=F64))
    print(f"// {title}")
    for name, values in inputs.items():
        kind = "untracked" if name in untracked else "tracked"
        print(f"{name} ({kind}): {rust(values)}")
    print(f"upstream: {rust(upstream)}")
    print(f"output: {rust(output)}")
    for name, leaf in leaves.items():
        if name in untracked:
            print(f"{name}.grad: none")
        else:
            print(f"{name}.grad: {rust(leaf.grad)}")
    print()
