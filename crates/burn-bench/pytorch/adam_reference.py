"""Reference losses of the `train_steps_lower_the_loss_as_pytorch_does` test
in src/mlp.rs: three Adam steps (lr 1e-3, PyTorch's defaults) on the fixed
3-4-4-5 network and 6-example batch that the test builds.

    ~/torch/bin/python crates/burn-bench/pytorch/adam_reference.py
"""
import math

import torch

WIDTHS = [3, 4, 4, 5]


def fixed_mlp():
    params = []
    for l, (d_in, d_out) in enumerate(zip(WIDTHS, WIDTHS[1:])):
        w = [[0.5 * math.sin(1 + 7 * l + 3 * i + j) for j in range(d_out)] for i in range(d_in)]
        b = [0.2 + 0.1 * math.cos(l + j) for j in range(d_out)]
        params.append(torch.tensor(w, dtype=torch.float32, requires_grad=True))
        params.append(torch.tensor(b, dtype=torch.float32, requires_grad=True))
    return params


def forward(params, x):
    h = x
    layers = len(params) // 2
    for l in range(layers):
        h = h @ params[2 * l] + params[2 * l + 1]
        if l < layers - 1:
            h = torch.relu(h)
    return h


def main():
    x = torch.tensor([math.cos(k) for k in range(18)], dtype=torch.float32).reshape(6, 3)
    t = torch.tensor([[0], [1], [2], [3], [4], [0]])
    params = fixed_mlp()
    optimizer = torch.optim.Adam(params, lr=1e-3)
    losses = []
    for _ in range(3):
        optimizer.zero_grad()
        loss = -torch.log_softmax(forward(params, x), dim=1).gather(1, t).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print("losses:", ", ".join(f"{v:.7f}" for v in losses))


if __name__ == "__main__":
    main()
