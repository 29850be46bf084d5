"""PyTorch's side of `load_bench`: writes the state dict both tools load,
and times `torch.load(mmap=True)` + `load_state_dict` on it.

    python load_bench.py generate DIR SIZE_MB
    python load_bench.py time DIR RUNS      # prints one JSON line
    python load_bench.py serve DIR          # one timed load per "run" line on stdin,
                                            # one JSON line each (interleaved rounds)
"""

import json
import os
import statistics
import sys
import time

import torch
from safetensors.torch import save_file

WIDTH = 4096


def model(layers):
    return torch.nn.Sequential(*[torch.nn.Linear(WIDTH, WIDTH) for _ in range(layers)])


def layers_for(size_mb):
    per_layer = (WIDTH * WIDTH + WIDTH) * 4
    return max(1, round(size_mb * 2**20 / per_layer))


def status(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    raise KeyError(field)


def reset_peak():
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def main():
    command, directory = sys.argv[1], sys.argv[2]
    torch.set_num_threads(int(os.environ.get("BENCH_THREADS", "2")))
    if command == "generate":
        layers = layers_for(float(sys.argv[3]))
        with torch.no_grad():
            state = model(layers).state_dict()
        torch.save(state, os.path.join(directory, "model.pt"))
        save_file(state, os.path.join(directory, "model.safetensors"))
        print(json.dumps({"layers": layers, "width": WIDTH}))
        return
    layers = len(torch.load(os.path.join(directory, "model.pt"), mmap=True)) // 2
    # Built (allocated and initialised) before any load's timing starts;
    # how long that took is reported beside it, for context.
    start = time.perf_counter()
    net = model(layers)
    build_s = time.perf_counter() - start

    def one():
        """One timed load: the timer covers `torch.load(mmap=True)` and
        `load_state_dict` (a copy into the resident parameters)."""
        reset_peak()
        before = status("VmRSS")
        start = time.perf_counter()
        state = torch.load(os.path.join(directory, "model.pt"), mmap=True)
        net.load_state_dict(state)
        elapsed = time.perf_counter() - start
        extra = status("VmHWM") - before
        del state
        return elapsed, extra

    if command == "serve":
        print(json.dumps({"ready": True, "build_s": build_s}), flush=True)
        for line in sys.stdin:
            if line.strip() != "run":
                break
            elapsed, extra = one()
            print(json.dumps({"s": elapsed, "peak_extra_bytes": extra}), flush=True)
        return
    runs = int(sys.argv[3])
    times, extra = [], []
    for _ in range(runs):
        elapsed, peak = one()
        times.append(elapsed)
        extra.append(peak)
    print(json.dumps({"median_s": statistics.median(times), "times_s": times, "peak_extra_bytes": max(extra)}))


if __name__ == "__main__":
    main()
