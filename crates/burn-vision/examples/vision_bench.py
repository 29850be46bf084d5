"""Times the references on the inputs of `vision_bench.rs`, then runs it.

    ~/torch/bin/python crates/burn-vision/examples/vision_bench.py

Writes the inputs (fixed seed) to target/vision_bench_inputs.bin:
u32 height, u32 width, height*width bytes (0/1), u32 n, n*4 f32 boxes
(x1, y1, x2, y2), n f32 scores; all little-endian. Then times
scipy.ndimage.label, skimage.measure.label and torchvision.ops.nms (CPU,
2 threads, median of 10 runs) and runs the Rust example on the same file.
"""

import os
import statistics
import struct
import subprocess
import time

import numpy as np
import scipy.ndimage as ndi
import skimage.measure
import torch
import torchvision.ops

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
PATH = os.path.join(ROOT, "target", "vision_bench_inputs.bin")
RUNS = 10


def median_ms(f):
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def main():
    torch.set_num_threads(2)
    rng = np.random.default_rng(2024)
    noise = ndi.gaussian_filter(rng.standard_normal((4096, 4096)).astype(np.float32), 2.0)
    img = noise > np.median(noise)
    n = 20000
    xy = rng.random((n, 2)).astype(np.float32) * 1000
    wh = rng.random((n, 2)).astype(np.float32) * 50 + 10
    boxes = np.concatenate([xy, xy + wh], 1).astype(np.float32)
    scores = rng.random(n).astype(np.float32)
    with open(PATH, "wb") as f:
        f.write(struct.pack("<II", *img.shape))
        f.write(img.astype(np.uint8).tobytes())
        f.write(struct.pack("<I", n))
        f.write(boxes.astype("<f4").tobytes())
        f.write(scores.astype("<f4").tobytes())

    print(f"image {img.shape[0]}x{img.shape[1]}, foreground {img.mean():.3f}; {n} boxes")
    eight = np.ones((3, 3), bool)
    four = ndi.generate_binary_structure(2, 1)
    _, n8 = ndi.label(img, structure=eight)
    _, n4 = ndi.label(img, structure=four)
    print(f"components: 8-conn {n8}, 4-conn {n4}")
    print(f"scipy.ndimage.label 8-conn      {median_ms(lambda: ndi.label(img, structure=eight)):8.1f} ms")
    print(f"scipy.ndimage.label 4-conn      {median_ms(lambda: ndi.label(img, structure=four)):8.1f} ms")
    print(f"skimage.measure.label 8-conn    {median_ms(lambda: skimage.measure.label(img, connectivity=2)):8.1f} ms")
    print(f"skimage.measure.label 4-conn    {median_ms(lambda: skimage.measure.label(img, connectivity=1)):8.1f} ms")
    tb, ts = torch.from_numpy(boxes), torch.from_numpy(scores)
    kept = torchvision.ops.nms(tb, ts, 0.5)
    print(f"torchvision.ops.nms kept {len(kept)}")
    print(f"torchvision.ops.nms (iou 0.5)   {median_ms(lambda: torchvision.ops.nms(tb, ts, 0.5)):8.1f} ms")
    with open(PATH + ".keep", "wb") as f:
        f.write(kept.numpy().astype("<i8").tobytes())

    subprocess.run(
        ["cargo", "run", "--release", "-q", "-p", "burn-vision", "--example", "vision_bench", "--", PATH],
        cwd=ROOT,
        check=True,
    )


if __name__ == "__main__":
    main()
