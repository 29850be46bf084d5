"""Trains the small digits CNN of this example in PyTorch and saves what the
Rust side loads: the weights as a `torch.save` state dict and as
SafeTensors, and 20 test images with PyTorch's logits for them.

Run from the example's directory (CPU, about ten seconds):

    ~/torch/bin/python pytorch/train.py

The data are the 8x8 UCI digits that burn-dataset ships
(crates/burn-dataset/data/digits.csv.gz), so nothing is downloaded.
"""

import csv
import gzip
import json
import pathlib

import torch
import torch.nn.functional as F
from torch import nn
from safetensors.torch import save_file

HERE = pathlib.Path(__file__).resolve().parent.parent
DIGITS = HERE.parent.parent / "crates" / "burn-dataset" / "data" / "digits.csv.gz"
OUT = HERE / "weights"


class Net(nn.Module):
    """conv(1→8) bn relu, conv(8→16) bn relu, 2x2 max pool, fc(256→32) relu, fc(32→10)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(16)
        self.fc1 = nn.Linear(16 * 4 * 4, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):  # x: [batch, 1, 8, 8], pixels / 16
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)  # [batch, 16, 4, 4]
        x = F.relu(self.fc1(x.flatten(1)))
        return self.fc2(x)


def load_digits():
    with gzip.open(DIGITS, "rt") as f:
        rows = [list(map(int, row)) for row in csv.reader(f) if row]
    pixels = torch.tensor([r[:64] for r in rows], dtype=torch.float32).reshape(-1, 1, 8, 8) / 16.0
    labels = torch.tensor([r[64] for r in rows])
    return pixels, labels


def main():
    torch.manual_seed(0)
    pixels, labels = load_digits()
    order = torch.randperm(len(labels))
    test, train = order[:360], order[360:]
    model = Net()
    optim = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(15):
        model.train()
        for batch in train[torch.randperm(len(train))].split(64):
            loss = F.cross_entropy(model(pixels[batch]), labels[batch])
            optim.zero_grad()
            loss.backward()
            optim.step()
    model.eval()
    with torch.no_grad():
        accuracy = (model(pixels[test]).argmax(1) == labels[test]).float().mean().item()
        shown = test[:20]
        logits = model(pixels[shown])
    print(f"test accuracy {accuracy:.3f} on {len(test)} images")

    OUT.mkdir(exist_ok=True)
    state = model.state_dict()
    torch.save(state, OUT / "digits_cnn.pt")
    save_file(state, OUT / "digits_cnn.safetensors")
    expected = {
        "images": (pixels[shown] * 16).round().int().reshape(20, 64).tolist(),
        "labels": labels[shown].tolist(),
        "logits": logits.tolist(),
        "predictions": logits.argmax(1).tolist(),
        "test_accuracy": accuracy,
    }
    (OUT / "expected.json").write_text(json.dumps(expected) + "\n")


if __name__ == "__main__":
    main()
