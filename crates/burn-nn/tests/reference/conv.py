"""Reference values for tests/conv.rs: Conv1d/2d/3d and ConvTranspose1d/2d/3d
layers (stride, padding, dilation, groups, output padding), forward and the
gradients of the input, weight and bias.

Run: ~/torch/bin/python crates/burn-nn/tests/reference/conv.py
"""

import torch
import torch.nn.functional as F

from common import Writer, rounded

w = Writer("conv_data.rs", "conv.py")


def case(name, f, x_shape, w_shape, bias_len, seed, **options):
    x = rounded(*x_shape, seed=seed).requires_grad_(True)
    weight = rounded(*w_shape, scale=0.5, seed=seed + 1).requires_grad_(True)
    bias = rounded(bias_len, scale=0.5, seed=seed + 2).requires_grad_(True) if bias_len else None
    y = f(x, weight, bias, **options)
    g = rounded(*y.shape, seed=seed + 3)
    y.backward(g)
    for part, t in [("x", x), ("weight", weight), ("g", g), ("y", y)]:
        w.tensor(f"{name}_{part}", t)
    w.tensor(f"{name}_dx", x.grad)
    w.tensor(f"{name}_dweight", weight.grad)
    if bias is not None:
        w.tensor(f"{name}_bias", bias)
        w.tensor(f"{name}_dbias", bias.grad)


# Conv2d [4 -> 6], kernel [3, 2], stride [2, 1], dilation [1, 2], groups 2, padding (1, 1).
case("conv2d", F.conv2d, [2, 4, 6, 7], [6, 2, 3, 2], 6, 20,
     stride=[2, 1], padding=[1, 1], dilation=[1, 2], groups=2)
# Conv1d [3 -> 4], kernel 3, dilation 2, `Same` padding (2), no bias.
case("conv1d", F.conv1d, [2, 3, 8], [4, 3, 3], 0, 30, padding=2, dilation=2)
# Conv3d [2 -> 2], kernel [2, 3, 1], stride [1, 2, 1], padding (1, 0, 0).
case("conv3d", F.conv3d, [1, 2, 3, 5, 2], [2, 2, 2, 3, 1], 2, 40,
     stride=[1, 2, 1], padding=[1, 0, 0])
# ConvTranspose2d [4 -> 6], kernel [3, 3], stride 2, padding 1, output padding [1, 0], groups 2.
case("conv_transpose2d", F.conv_transpose2d, [2, 4, 3, 4], [4, 3, 3, 3], 6, 50,
     stride=2, padding=1, output_padding=[1, 0], groups=2)
# ConvTranspose1d [3 -> 2], kernel 4, stride 3, dilation 1, no bias.
case("conv_transpose1d", F.conv_transpose1d, [1, 3, 5], [3, 2, 4], 0, 60, stride=3)
# ConvTranspose3d [2 -> 2], kernel [2, 2, 2], stride [2, 1, 1], dilation [1, 1, 2].
case("conv_transpose3d", F.conv_transpose3d, [1, 2, 2, 3, 2], [2, 2, 2, 2, 2], 2, 70,
     stride=[2, 1, 1], dilation=[1, 1, 2])

w.save()
