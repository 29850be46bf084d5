"""The guide's training run in PyTorch, for a side-by-side timing.

Same data (the shipped 8x8 digits, with the same seeded train/test split as
`DigitsDataset::train()` / `test()`, reproduced below with the same
SplitMix64 generator), same normalization, same model (two 3x3
convolutions, 2x2 max pool, adaptive average pool to 4x4, linear 512->128,
dropout 0.2, linear 128->10), same optimizer (Adam, lr 2e-3), batch size 32,
12 epochs, 2 threads. Prints the training throughput of each epoch and the
final test accuracy.

    python examples/guide/pytorch/train.py   # from the repository root
"""

import gzip
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(2)
torch.manual_seed(42)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "..", "crates", "burn-dataset", "data", "digits.csv.gz")
MASK = (1 << 64) - 1


class SplitMix64:
    """The generator of burn-dataset's `SeededRng`."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, bound):
        # Lemire's multiply-shift with rejection, as `SeededRng::below`.
        product = self.next_u64() * bound
        if (product & MASK) < bound:
            threshold = (-bound & MASK) % bound
            while (product & MASK) < threshold:
                product = self.next_u64() * bound
        return product >> 64

    def permutation(self, n):
        indices = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            indices[i], indices[j] = indices[j], indices[i]
        return indices


def load_digits():
    rows = [line.split(",") for line in gzip.open(DATA, "rt").read().splitlines() if line.strip()]
    pixels = torch.tensor([[float(v) for v in r[:64]] for r in rows])
    labels = torch.tensor([int(r[64]) for r in rows])
    order = SplitMix64(1998).permutation(len(rows))  # DigitsDataset::SPLIT_SEED
    test_len = round(len(rows) * 0.2)  # DigitsDataset::TEST_FRACTION
    test, train = order[:test_len], order[test_len:]
    images = ((pixels / 16.0 - 0.305) / 0.376).reshape(-1, 1, 8, 8)
    return (images[train], labels[train]), (images[test], labels[test])


class Model(nn.Module):
    def __init__(self, channels=16, hidden=128, classes=10, dropout=0.2):
        super().__init__()
        self.conv1 = nn.Conv2d(1, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, 2 * channels, 3, padding=1)
        self.linear1 = nn.Linear(2 * channels * 16, hidden)
        self.linear2 = nn.Linear(hidden, classes)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.adaptive_avg_pool2d(F.max_pool2d(x, 2, 2), (4, 4))
        x = F.relu(self.linear1(x.flatten(1)))
        return self.linear2(self.dropout(x))


def main(epochs=12, batch_size=32, lr=2e-3):
    (train_x, train_y), (test_x, test_y) = load_digits()
    print(f"digits: {len(train_y)} train / {len(test_y)} test, threads {torch.get_num_threads()}")
    model = Model()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    generator = torch.Generator().manual_seed(42)
    started = time.perf_counter()
    for epoch in range(1, epochs + 1):
        model.train()
        begin = time.perf_counter()
        order = torch.randperm(len(train_y), generator=generator)
        correct = 0
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            logits = model(train_x[idx])
            loss = F.cross_entropy(logits, train_y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            # The Rust run reads every batch's metrics back: do the same.
            correct += (logits.argmax(1) == train_y[idx]).sum().item()
            loss.item()
        seconds = time.perf_counter() - begin
        model.eval()
        with torch.no_grad():
            test_acc = (model(test_x).argmax(1) == test_y).float().mean().item() * 100
        print(
            f"epoch {epoch:2}: {seconds:.3f} s, {len(train_y) / seconds:.0f} images/s, "
            f"train acc {100 * correct / len(train_y):.2f} %, test acc {test_acc:.2f} %"
        )
    print(f"total {time.perf_counter() - started:.1f} s, final test accuracy {test_acc:.2f} %")


if __name__ == "__main__":
    main()
