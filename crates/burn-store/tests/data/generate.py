"""Writes the PyTorch and SafeTensors files the burn-store tests read, and
the values PyTorch holds for them (expected.json), so the tests check our
readers against PyTorch itself.

Run from this directory with the PyTorch the workspace uses:

    ~/torch/bin/python generate.py

Needs torch, numpy and safetensors. Every tensor is small and seeded; the
files are committed, so the tests need no Python.
"""

import collections
import json
import struct

import torch
from safetensors.torch import save_file

torch.manual_seed(2024)


def every_dtype():
    """One tensor per dtype torch.save writes, plus a scalar and an empty one."""
    sd = collections.OrderedDict()
    sd["f32"] = torch.randn(2, 3)
    sd["f64"] = torch.randn(3, dtype=torch.float64)
    sd["f16"] = torch.randn(2, 2).half()
    sd["bf16"] = torch.randn(5).bfloat16()
    sd["i64"] = torch.tensor([-(2**40), -1, 0, 7, 2**40])
    sd["i32"] = torch.tensor([-(2**30), 3, 2**30], dtype=torch.int32)
    sd["i16"] = torch.tensor([-300, 300], dtype=torch.int16)
    sd["i8"] = torch.tensor([-128, 0, 127], dtype=torch.int8)
    sd["u8"] = torch.tensor([0, 200, 255], dtype=torch.uint8)
    sd["bool"] = torch.tensor([[True, False], [False, True]])
    sd["u16"] = torch.tensor([1, 65535], dtype=torch.uint16)
    sd["u32"] = torch.tensor([1, 2**32 - 1], dtype=torch.uint32)
    sd["u64"] = torch.tensor([1, 2**50], dtype=torch.uint64)
    sd["scalar"] = torch.tensor(3.5)
    sd["empty"] = torch.zeros(0, 4)
    return sd


def layouts():
    """Views sharing storages: transposed, sliced, strided, offset, expanded."""
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    cube = torch.arange(60, dtype=torch.float32).reshape(3, 4, 5)
    sd = collections.OrderedDict()
    sd["base"] = base
    sd["transposed"] = base.t()
    sd["rows"] = base[1:3]
    sd["column"] = base[:, 2]
    sd["strided"] = base[::2, 1::2]
    sd["permuted"] = cube.permute(2, 0, 1)
    sd["narrow"] = cube[1:, 1:3, ::2]
    sd["expanded"] = torch.tensor([1.0, 2.0, 3.0]).expand(2, 3)
    sd["linear.weight"] = torch.randn(3, 4)
    return sd


def checkpoint():
    """A training checkpoint: nested dicts, parameters, non-tensor values."""
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
    return {
        "epoch": 7,
        "name": "run-1",
        "lr": 0.01,
        "model_state_dict": model.state_dict(keep_vars=True),  # Parameters
        "extra": {"history": [torch.tensor([1.0, 2.0]), torch.tensor([3.0])]},
    }


def modules():
    """Layers whose PyTorch names and layouts differ from Burn's, with a
    forward pass to compare against."""
    torch.manual_seed(7)
    mods = collections.OrderedDict()
    mods["linear"] = torch.nn.Linear(4, 3)
    mods["conv"] = torch.nn.Conv2d(2, 3, 3, padding=1)
    mods["bn"] = torch.nn.BatchNorm2d(3)
    mods["ln"] = torch.nn.LayerNorm(4)
    mods["emb"] = torch.nn.Embedding(5, 4)
    mods["attn"] = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    mods["lstm"] = torch.nn.LSTM(3, 4, batch_first=True)
    model = torch.nn.ModuleDict(mods)
    # Non-trivial running statistics and affine parameters.
    with torch.no_grad():
        model["bn"].running_mean.copy_(torch.randn(3))
        model["bn"].running_var.copy_(torch.rand(3) + 0.5)
        model["bn"].weight.copy_(torch.randn(3))
        model["bn"].bias.copy_(torch.randn(3))
        model["ln"].weight.copy_(torch.randn(4))
        model["ln"].bias.copy_(torch.randn(4))
    model.eval()
    torch.manual_seed(8)
    x_lin = torch.randn(2, 4)
    x_img = torch.randn(1, 2, 4, 4)
    x_seq = torch.randn(2, 3, 8)
    x_lstm = torch.randn(2, 5, 3)
    with torch.no_grad():
        outputs = {
            "linear": (x_lin, model["linear"](x_lin)),
            "conv_bn": (x_img, model["bn"](model["conv"](x_img))),
            "ln": (x_lin, model["ln"](x_lin)),
            "attn": (x_seq, model["attn"](x_seq, x_seq, x_seq, need_weights=False)[0]),
            "lstm": (x_lstm, model["lstm"](x_lstm)[0]),
        }
    return model, outputs


def describe(t):
    t = t.detach()
    values = t.to(torch.float64) if t.dtype.is_floating_point else t
    if t.dtype in (torch.uint16, torch.uint32, torch.uint64):
        values = t.to(torch.int64)
    out = {
        "dtype": str(t.dtype).removeprefix("torch."),
        "shape": list(t.shape),
        "values": [float(v) if t.dtype.is_floating_point else int(v) for v in values.flatten().tolist()],
    }
    if t.dtype.is_floating_point:
        # The exact bits of each value as an f64: JSON readers need not
        # parse decimals to the last bit.
        out["f64_bits"] = [struct.unpack("<Q", struct.pack("<d", v))[0] for v in out["values"]]
    return out


def flatten(obj, prefix=""):
    out = collections.OrderedDict()
    if isinstance(obj, torch.Tensor):
        out[prefix] = describe(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            out.update(flatten(v, f"{prefix}.{i}" if prefix else str(i)))
    return out


def main():
    expected = {}

    def save(name, obj, **kwargs):
        torch.save(obj, name, **kwargs)
        expected[name] = flatten(obj)

    save("dtypes.pt", every_dtype())
    save("layouts.pt", layouts())
    save("layouts_legacy.pt", layouts(), _use_new_zipfile_serialization=False)
    legacy_dtypes = every_dtype()
    for unsigned in ("u16", "u32", "u64"):
        del legacy_dtypes[unsigned]  # the legacy format has no storage type for them
    save("dtypes_legacy.pt", legacy_dtypes, _use_new_zipfile_serialization=False)
    save("protocol4.pt", layouts(), pickle_protocol=4)
    save("protocol5.pt", every_dtype(), pickle_protocol=5)
    save("checkpoint.pt", checkpoint())

    contiguous = collections.OrderedDict((k, v.contiguous()) for k, v in every_dtype().items())
    save_file(contiguous, "dtypes.safetensors")
    expected["dtypes.safetensors"] = flatten(contiguous)

    model, outputs = modules()
    save("modules.pt", model.state_dict())
    save_file(model.state_dict(), "modules.safetensors")
    expected["modules.pt"] = flatten(model.state_dict())
    expected["modules.outputs"] = {
        name: {"input": describe(x), "output": describe(y)} for name, (x, y) in outputs.items()
    }

    with open("expected.json", "w") as f:
        json.dump(expected, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
