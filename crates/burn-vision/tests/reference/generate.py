"""Writes the reference values the burn-vision tests compare against.

Run with the repository's reference environment (NumPy, SciPy, scikit-image,
PyTorch, torchvision):

    ~/torch/bin/python crates/burn-vision/tests/reference/generate.py

Outputs, beside this file:
- labels.json: scipy.ndimage.label labels (4- and 8-connectivity) and
  skimage.measure.regionprops stats (area, bbox, centroid).
- nms.json: torchvision.ops.nms kept indices.
- morphology.json: flat-kernel erosion/dilation and their compositions,
  computed by a direct NumPy definition (pad, then min/max over the kernel
  offsets, OpenCV's anchor convention) and cross-checked against
  scipy.ndimage.minimum_filter/maximum_filter where SciPy has the same mode.
- filters.json: scipy.ndimage.correlate (every BorderType, and every
  PadMode of filter2d), median_filter (float and int), uniform_filter,
  skimage rgb2hsv and gray2rgb, torchvision rgb_to_grayscale, torch
  affine_grid + grid_sample (zeros, border, reflection).
"""

import json
import os

import numpy as np
import scipy.ndimage as ndi
import skimage.color
import skimage.measure
import torch
import torchvision.ops
import torchvision.transforms.functional as TF

HERE = os.path.dirname(os.path.abspath(__file__))


def dump(name, obj):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(obj, f, separators=(",", ":"))


def r4(a):
    return [round(float(v), 6) for v in np.asarray(a).ravel()]


# ---------------------------------------------------------------- labels
def label_cases():
    rng = np.random.default_rng(7)
    images = {
        "random30": rng.random((12, 15)) < 0.3,
        "random50": rng.random((12, 15)) < 0.5,
        "random70": rng.random((13, 11)) < 0.7,
        "borders": np.pad(np.zeros((4, 5), bool), 2, constant_values=True),
        "background": np.zeros((5, 7), bool),
        "single": np.ones((1, 1), bool),
        "foreground": np.ones((3, 4), bool),
        "diagonal": np.eye(6, dtype=bool),
        "checker": (np.indices((6, 7)).sum(0) % 2 == 0),
        "row": rng.random((1, 20)) < 0.5,
        "column": rng.random((20, 1)) < 0.5,
    }
    structures = {"four": ndi.generate_binary_structure(2, 1), "eight": np.ones((3, 3), bool)}
    cases = []
    for name, img in images.items():
        for conn, st in structures.items():
            labels, n = ndi.label(img, structure=st)
            # skimage numbers the same way (raster order of first pixel).
            sk = skimage.measure.label(img, connectivity=1 if conn == "four" else 2)
            assert (sk == labels).all(), name
            props = skimage.measure.regionprops(labels)
            cases.append({
                "name": name,
                "connectivity": conn,
                "shape": list(img.shape),
                "image": [int(v) for v in img.ravel()],
                "labels": [int(v) for v in labels.ravel()],
                "n": int(n),
                "area": [int(p.area) for p in props],
                # bbox: (min_row, min_col, max_row + 1, max_col + 1)
                "bbox": [[int(v) for v in p.bbox] for p in props],
                "centroid": [[float(p.centroid[1]), float(p.centroid[0])] for p in props],
            })
    dump("labels.json", cases)


# ---------------------------------------------------------------- nms
def nms_cases():
    rng = np.random.default_rng(11)
    cases = []
    for n, iou, ties, seed_scale in [(200, 0.5, False, 60), (200, 0.3, False, 60), (150, 0.7, True, 40), (120, 0.5, True, 30)]:
        xy = rng.random((n, 2)) * 100
        wh = rng.random((n, 2)) * seed_scale + 1
        boxes = np.concatenate([xy, xy + wh], 1).astype(np.float32)
        scores = rng.random(n).astype(np.float32)
        if ties:
            scores = (np.floor(scores * 5) / 5).astype(np.float32)
        keep = torchvision.ops.nms(torch.from_numpy(boxes), torch.from_numpy(scores), iou)
        cases.append({
            "boxes": [float(v) for v in boxes.ravel()],
            "scores": [float(v) for v in scores],
            "iou_threshold": iou,
            "keep": [int(v) for v in keep],
        })
    dump("nms.json", cases)


# ---------------------------------------------------------------- morphology
def ellipse(h, w):
    """OpenCV's getStructuringElement(MORPH_ELLIPSE)."""
    k = np.zeros((h, w), bool)
    r, c = h // 2, w // 2
    inv_r2 = 1.0 / (r * r) if r else 0.0
    for i in range(h):
        dy = i - r
        if abs(dy) <= r:
            dx = int(round(c * np.sqrt(max((r * r - dy * dy) * inv_r2, 0.0))))
            j1, j2 = max(c - dx, 0), min(c + dx + 1, w)
            k[i, j1:j2] = True
    return k


def cross(h, w, ax, ay):
    k = np.zeros((h, w), bool)
    k[ay, :] = True
    k[:, ax] = True
    return k


NP_MODES = {"replicate": "edge", "reflect": "symmetric", "reflect101": "reflect", "wrap": "wrap"}
SCIPY_MODES = {"replicate": "nearest", "reflect": "reflect", "reflect101": "mirror", "wrap": "wrap"}


def flat(img, kernel, anchor, border, value, extreme):
    """img [h, w]; OpenCV's erode (min) / dilate (max), no kernel reflection."""
    kh, kw = kernel.shape
    ax, ay = anchor
    pads = ((ay, kh - 1 - ay), (ax, kw - 1 - ax))
    if border == "constant":
        if value is None:
            value = np.inf if extreme == "min" else -np.inf
        p = np.pad(img.astype(np.float64), pads, mode="constant", constant_values=value)
    else:
        p = np.pad(img.astype(np.float64), pads, mode=NP_MODES[border])
    h, w = img.shape
    stack = [p[dy:dy + h, dx:dx + w] for dy in range(kh) for dx in range(kw) if kernel[dy, dx]]
    out = np.min(stack, 0) if extreme == "min" else np.max(stack, 0)
    if border != "constant" and (ax, ay) == (kw // 2, kh // 2) and kh % 2 and kw % 2:
        f = ndi.minimum_filter if extreme == "min" else ndi.maximum_filter
        ref = f(img.astype(np.float64), footprint=kernel, mode=SCIPY_MODES[border])
        assert np.array_equal(ref, out), (border, kernel)
    return out


def morph(img, op, kernel, anchor, border, value, iterations):
    def er(x):
        for _ in range(iterations):
            x = flat(x, kernel, anchor, border, value, "min")
        return x

    def di(x):
        for _ in range(iterations):
            x = flat(x, kernel, anchor, border, value, "max")
        return x

    return {
        "erode": lambda x: er(x),
        "dilate": lambda x: di(x),
        "open": lambda x: di(er(x)),
        "close": lambda x: er(di(x)),
        "gradient": lambda x: di(x) - er(x),
        "tophat": lambda x: x - di(er(x)),
        "blackhat": lambda x: er(di(x)) - x,
    }[op](img)


def morph_cases():
    rng = np.random.default_rng(3)
    h, w = 8, 9
    images = {
        "float": np.round(rng.random((h, w, 2)), 4).astype(np.float32),
        "int": rng.integers(-50, 50, (h, w, 1)).astype(np.int64),
        "bool": rng.random((h, w, 1)) < 0.5,
    }
    kernels = {
        "rect3x3": (np.ones((3, 3), bool), "rect", [3, 3]),
        "rect5x3": (np.ones((3, 5), bool), "rect", [5, 3]),
        "cross3x3": (cross(3, 3, 1, 1), "cross", [3, 3]),
        "ellipse5x5": (ellipse(5, 5), "ellipse", [5, 5]),
        "ellipse7x5": (ellipse(5, 7), "ellipse", [7, 5]),
    }
    cases = []

    def add(kind, op, kname, border, value, anchor=None, iterations=1):
        k = kernels[kname][0]
        kh, kw = k.shape
        a = anchor or (kw // 2, kh // 2)
        img = images[kind]
        out = np.stack([
            morph(img[..., c].astype(np.float64), op, k, a, border, value, iterations)
            for c in range(img.shape[2])
        ], -1)
        cases.append({
            "kind": kind, "op": op, "kernel": kname, "border": border, "value": value,
            "anchor": list(a) if anchor else None, "iterations": iterations,
            "output": r4(out),
        })

    for kind in images:
        for op in ["erode", "dilate", "open", "close", "gradient", "tophat", "blackhat"]:
            add(kind, op, "rect3x3", "constant", None)
            add(kind, op, "ellipse5x5", "reflect101", None)
        for kname in kernels:
            for border in ["constant", "replicate", "reflect", "reflect101", "wrap"]:
                for op in ["erode", "dilate"]:
                    add(kind, op, kname, border, None)
        add(kind, "erode", "rect3x3", "constant", 0.0 if kind != "bool" else 0)
        add(kind, "dilate", "cross3x3", "constant", 1.0 if kind != "bool" else 1)
        add(kind, "erode", "rect5x3", "replicate", None, anchor=(0, 0))
        add(kind, "dilate", "ellipse7x5", "reflect", None, anchor=(5, 1))
        add(kind, "erode", "cross3x3", "reflect101", None, iterations=2)
    dump("morphology.json", {
        "shape": [h, w],
        "images": {k: {"channels": int(v.shape[2]), "values": r4(v)} for k, v in images.items()},
        "kernels": {k: {"size": v[2], "shape": v[1], "mask": [int(b) for b in v[0].ravel()]} for k, v in kernels.items()},
        "cases": cases,
    })


# ---------------------------------------------------------------- filters
def filter_cases():
    rng = np.random.default_rng(5)
    img = np.round(rng.random((2, 2, 7, 8)), 4).astype(np.float32)  # [b, c, h, w]
    kernel = np.round(rng.standard_normal((3, 4)), 4).astype(np.float32)
    out = {"image": r4(img), "shape": list(img.shape), "kernel": r4(kernel), "kernel_shape": [3, 4]}
    corr = {}
    for border, mode in [("constant", "constant"), ("replicate", "nearest"), ("reflect", "reflect"),
                         ("reflect101", "mirror"), ("wrap", "wrap")]:
        # OpenCV's anchor for an even kernel is kw // 2: SciPy's centre too.
        res = np.stack([[ndi.correlate(img[b, c].astype(np.float64), kernel.astype(np.float64), mode=mode, cval=0.0)
                         for c in range(2)] for b in range(2)])
        corr[border] = r4(res)
    out["correlate"] = corr
    box = np.stack([[ndi.uniform_filter(img[b, c].astype(np.float64), size=(3, 5), mode="mirror") for c in range(2)] for b in range(2)])
    out["box3x5_reflect101"] = r4(box)

    rgb = np.round(rng.random((2, 3, 5, 6)), 4).astype(np.float32)
    rgb[0, :, 0, 0] = [0.5, 0.5, 0.5]  # grey: hue 0, saturation 0
    rgb[0, :, 0, 1] = [0.0, 0.0, 0.0]  # black
    out["rgb"] = r4(rgb)
    out["gray"] = r4(TF.rgb_to_grayscale(torch.from_numpy(rgb)).numpy())
    hsv = skimage.color.rgb2hsv(np.moveaxis(rgb, 1, -1))
    out["hsv"] = r4(np.moveaxis(hsv, -1, 1))

    theta = [[0.8, -0.3, 0.1], [0.25, 0.9, -0.2]]
    t = torch.tensor(theta, dtype=torch.float32).unsqueeze(0).expand(2, 2, 3)
    grid = torch.nn.functional.affine_grid(t, (2, 2, 7, 8), align_corners=True)
    x = torch.from_numpy(img)
    out["affine_theta"] = theta
    out["affine_border"] = r4(torch.nn.functional.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=True).numpy())
    out["affine_zeros"] = r4(torch.nn.functional.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True).numpy())
    out["affine_reflection"] = r4(torch.nn.functional.grid_sample(x, grid, mode="bilinear", padding_mode="reflection", align_corners=True).numpy())

    def planes(f, a):
        return np.stack([[f(a[b, c]) for c in range(a.shape[1])] for b in range(a.shape[0])])

    # filter2d's PadMode: Constant(v) = SciPy constant with cval v, Reflect = mirror, Edge = nearest.
    pad = {}
    for name, mode, cval in [("constant_0.25", "constant", 0.25), ("reflect", "mirror", 0.0), ("edge", "nearest", 0.0)]:
        pad[name] = r4(planes(lambda p: ndi.correlate(p.astype(np.float64), kernel.astype(np.float64), mode=mode, cval=cval), img))
    out["filter2d_padmode"] = pad
    # median repeats the edge; BoxBlur is a k x k mean with a mirror border.
    out["median_nearest"] = {str(k): r4(planes(lambda p: ndi.median_filter(p, size=k, mode="nearest"), img)) for k in [3, 5]}
    rng2 = np.random.default_rng(11)
    ints = rng2.integers(-40, 60, (2, 2, 7, 8)).astype(np.int64)
    out["int_image"] = [int(v) for v in ints.ravel()]
    out["median_int3_nearest"] = [int(v) for v in planes(lambda p: ndi.median_filter(p, size=3, mode="nearest"), ints).ravel()]
    out["box3_mirror"] = r4(planes(lambda p: ndi.uniform_filter(p.astype(np.float64), size=3, mode="mirror"), img))
    gray = np.round(rng2.random((2, 1, 5, 6)), 4).astype(np.float32)
    out["gray_in"] = r4(gray)
    out["gray2rgb"] = r4(np.moveaxis(skimage.color.gray2rgb(gray[:, 0]), -1, 1))
    dump("filters.json", out)


if __name__ == "__main__":
    label_cases()
    nms_cases()
    morph_cases()
    filter_cases()
