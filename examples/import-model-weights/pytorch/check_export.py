"""Loads the SafeTensors file the Rust example exported (in PyTorch's
layout, through BurnToPyTorchAdapter) into the PyTorch network with
`load_state_dict`, and checks it computes the logits of expected.json.

    cargo run --release -p import-model-weights
    ~/torch/bin/python pytorch/check_export.py /tmp/digits_cnn_export.safetensors
"""

import json
import pathlib
import sys

import torch
from safetensors.torch import load_file

from train import OUT, Net


def main():
    state = load_file(sys.argv[1])
    net = Net()
    result = net.load_state_dict(state, strict=False)
    # Burn has no counterpart of BatchNorm's step counter.
    assert all(k.endswith("num_batches_tracked") for k in result.missing_keys), result
    assert not result.unexpected_keys, result
    net.eval()
    expected = json.loads((OUT / "expected.json").read_text())
    images = torch.tensor(expected["images"], dtype=torch.float32).reshape(-1, 1, 8, 8) / 16.0
    with torch.no_grad():
        logits = net(images)
    diff = (logits - torch.tensor(expected["logits"])).abs().max().item()
    print(f"PyTorch loaded {len(state)} tensors; largest logit difference {diff:.2e}")
    assert diff < 1e-4


if __name__ == "__main__":
    main()
