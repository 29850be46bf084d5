#!/usr/bin/env python3
"""Reference gradients of the tensor-scalar ops: add_scalar, sub_scalar,
mul_scalar, div_scalar (scalar on either side), powf_scalar, clamp_min,
clamp_max and clamp.

Run: ~/torch/bin/python tests/autodiff/reference/scalar.py
(PyTorch, float64). Each block is pasted into the test of the same title.
"""
import torch

from common import case

X = [[1.5, -2.0, 0.5], [3.0, 0.25, -1.25]]
G = [[1.0, -2.0, 0.5], [3.0, 1.5, -1.0]]

case("add_scalar.rs add_scalar", lambda x: x + 2.5, {"x": X}, G)
case("sub_scalar.rs sub_scalar", lambda x: x - 2.5, {"x": X}, G)
case("sub_scalar.rs scalar_minus_tensor", lambda x: 2.5 - x, {"x": X}, G)
case("mul_scalar.rs mul_scalar", lambda x: x * -1.5, {"x": X}, G)
case("div_scalar.rs div_scalar", lambda x: x / 4.0, {"x": X}, G)
case("div_scalar.rs scalar_over_tensor", lambda x: 3.0 / x, {"x": X}, G)

P = [[1.5, 0.5, 2.0], [3.0, 0.25, 1.25]]
case("powf_scalar.rs fractional_exponent", lambda x: x ** 2.5, {"x": P}, G)
case("powf_scalar.rs negative_exponent", lambda x: x ** -1.5, {"x": P}, G)
case("powf_scalar.rs square_root", lambda x: x ** 0.5, {"x": P}, G)
# Negative bases are in the domain of integral exponents.
case("powf_scalar.rs integral_exponent_negative_bases", lambda x: x ** 3.0, {"x": X}, G)
case("powf_scalar.rs zero_exponent", lambda x: x ** 0.0, {"x": X}, G)

# Values on each bound: PyTorch passes the gradient there (x >= min, x <= max).
C = [[1.5, -2.0, 0.5], [3.0, -1.0, 2.0]]
case("clamp_min.rs clamp_min", lambda x: x.clamp_min(0.5), {"x": C}, G)
case("clamp_max.rs clamp_max", lambda x: x.clamp_max(0.5), {"x": C}, G)
case("clamp.rs clamp", lambda x: x.clamp(-1.0, 2.0), {"x": C}, G)
