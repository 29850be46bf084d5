"""Reference values for the L-BFGS test (tests/lbfgs.rs).

Run with PyTorch (CPU): `python lbfgs.py`. torch.optim.LBFGS without line
search minimises loss(W) = sum((X @ W - Y)^2) + 0.1 * sum(W^4) from a fixed
W; it prints W and the returned loss after each of three `step` calls, as
Rust arrays to paste into the test.
"""

import torch

X = [[1.0, 2.0], [0.5, -1.0], [-1.5, 0.3], [0.2, 0.8]]
Y = [[1.0, 0.0, -1.0], [0.5, 0.5, 0.0], [0.0, -1.0, 1.0], [1.0, 1.0, 1.0]]
W0 = [[0.1, -0.2, 0.3], [0.4, 0.0, -0.1]]

x, y = torch.tensor(X), torch.tensor(Y)
w = torch.tensor(W0, requires_grad=True)
opt = torch.optim.LBFGS([w], lr=0.5, max_iter=5, history_size=3)


def closure():
    opt.zero_grad()
    loss = ((x @ w - y) ** 2).sum() + 0.1 * (w**4).sum()
    loss.backward()
    return loss


print(f"// torch {torch.__version__}")
weights, losses = [], []
for _ in range(3):
    losses.append(float(opt.step(closure)))
    weights.append(w.detach().clone())
print(f"const LOSSES: [f64; 3] = [{', '.join(repr(v) for v in losses)}];")
print("const WEIGHTS: [[[f32; 3]; 2]; 3] = [")
for p in weights:
    rows = ", ".join("[" + ", ".join(f"{v:.8e}" for v in row) + "]" for row in p.tolist())
    print(f"    [{rows}],")
print("];")
print(f"// n_iter {opt.state[w]['n_iter']}, func_evals {opt.state[w]['func_evals']}")
