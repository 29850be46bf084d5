"""The PyTorch side of the benchmark suite: the workloads of burn-bench,
timed with the same policy and written in the same JSON layout, so that
`burn-bench compare BURN.json TORCH.json` can print them side by side.

    python crates/burn-bench/pytorch/bench.py [--device cpu|cuda] [--threads N] [--filter S] [--quick] [--json FILE]

The thread count defaults to what Flex uses: BURN_FLEX_THREADS if set,
otherwise every core this process may run on. Eager mode, CPU, no
torch.compile. PyTorch CPU tensors already live in host memory, so an
iteration ends when the last op returns (Burn's ends with `into_data()`).

With `--device cuda` it runs the GPU workloads (burn-bench `--device cuda`):
inputs on the GPU, an iteration ends with `torch.cuda.synchronize()`, as
Burn's ends with `Device::sync()`. f32 matmuls run in strict f32 (PyTorch's
default, TF32 off), the precision Burn's CubeCL f32 matmul keeps.
"""

import argparse
import json
import math
import os
import statistics
import sys
import time

import torch

# --------------------------------------------------------------- the policy
# The numbers of src/timing.rs (Policy::FULL and Policy::QUICK); change both.
FULL = dict(warmup_iters=2, warmup_time=0.3, min_iters=5, budget=2.0, max_iters=10_000)
QUICK = dict(warmup_iters=1, warmup_time=0.0, min_iters=3, budget=0.2, max_iters=1_000)


def measure(policy, iteration):
    """Warm up, then time single iterations; returns the list of seconds.
    The result of an iteration is freed after the clock stops."""
    start = time.perf_counter()
    done = 0
    while done < policy["warmup_iters"] or time.perf_counter() - start < policy["warmup_time"]:
        iteration()
        done += 1
    samples = []
    start = time.perf_counter()
    while len(samples) < policy["max_iters"] and (
        len(samples) < policy["min_iters"] or time.perf_counter() - start < policy["budget"]
    ):
        t0 = time.perf_counter()
        result = iteration()
        samples.append(time.perf_counter() - t0)
        del result
    return samples


# ------------------------------------------------------------ the workloads
# Names, amounts of work and kinds as in src/workloads.rs.


def uniform(*shape, dtype=torch.float32):
    return torch.rand(*shape).to(dtype)


def matmul_square(n, dtype):
    def setup():
        lhs, rhs = uniform(n, n, dtype=dtype), uniform(n, n, dtype=dtype)
        return lambda: lhs @ rhs

    # The f32 peak does not bound f16/bf16 (AMX, AVX-512 FP16): no fraction of it.
    return ("matmul" if dtype == torch.float32 else "matmul_half"), 2.0 * n**3, setup


def matmul_batched(batch, n):
    def setup():
        lhs, rhs = uniform(batch, n, n), uniform(batch, n, n)
        return lambda: lhs @ rhs

    return "matmul", 2.0 * batch * n**3, setup


def conv2d_3x3(batch, channels, size):
    def setup():
        x = uniform(batch, channels, size, size)
        weight = uniform(channels, channels, 3, 3)
        return lambda: torch.nn.functional.conv2d(x, weight, padding=1)

    return "matmul", 2.0 * batch * channels * size * size * channels * 9, setup


def unary_2d(n, nbytes, op, fusible=False):
    def setup():
        x = uniform(n, n)
        f = torch.compile(op) if COMPILE and fusible else op
        return lambda: f(x)

    return "memory", float(nbytes), setup


def matvec(k, n, scheme):
    # PyTorch's CPU counterparts of a weight-only quantized matvec: the f32
    # product, int8 dynamic quantization (FBGEMM/oneDNN's int8 Linear:
    # activations quantized too) for q8, and for q4 the dequantize-then-
    # matmul route (no weight-only 4-bit CPU kernel in eager PyTorch).
    def setup():
        x = uniform(1, k)
        w = uniform(k, n) - 0.5
        if scheme is None:
            return lambda: x @ w
        if scheme == "q8":
            lin = torch.nn.Linear(k, n, bias=False)
            with torch.no_grad():
                lin.weight.copy_(w.t())
            qlin = torch.ao.quantization.quantize_dynamic(lin, {torch.nn.Linear}, dtype=torch.qint8)
            return lambda: qlin(x)
        # q4 per block of 32 along n, int8 storage of the 4-bit codes.
        blocks = w.reshape(k, n // 32, 32)
        scale = blocks.abs().amax(dim=-1, keepdim=True) / 7
        codes = torch.clamp(torch.round(blocks / scale), -7, 7).to(torch.int8)
        return lambda: x @ (codes.to(torch.float32) * scale).reshape(k, n)

    return "memory", float(4 * k * n), setup


def add_tiny(autodiff):
    def setup():
        a, b = uniform(8, 8).requires_grad_(autodiff), uniform(8, 8).requires_grad_(autodiff)
        return lambda: a + b

    return "overhead", 0.0, setup


def add_tiny_x100():
    """What Burn's capture workload records, run eagerly: 100 adds of the
    same two 8x8 tensors (PyTorch has no recording-only device)."""

    def setup():
        a, b = uniform(8, 8), uniform(8, 8)

        def run():
            last = None
            for _ in range(100):
                last = a + b
            return last

        return run

    return "overhead", 0.0, setup


WIDTHS = [784, 512, 512, 10]
BATCH = 256
LR = 1e-3


def targets(count, classes):
    """The class indices of src/mlp.rs: the same 64-bit LCG, high bits."""
    state, out = 0x2545F4914F6CDD1D, []
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        out.append((state >> 33) % classes)
    return torch.tensor(out, dtype=torch.int64).reshape(count, 1)


def forward_flops():
    return sum(2.0 * BATCH * i * o for i, o in zip(WIDTHS, WIDTHS[1:]))


def backward_flops():
    layers = [2.0 * BATCH * i * o for i, o in zip(WIDTHS, WIDTHS[1:])]
    return sum(layers) + sum(layers[1:])


def mlp_step(pass_):
    """pass_: 'forward' (no graph), 'forward_autodiff' (graph recorded),
    'forward_backward' (backward, gradients read), 'train_step' (backward
    and a torch.optim.Adam step, lr 1e-3, defaults otherwise; the parameters
    and Adam's moments carry over between iterations)."""
    requires_grad = pass_ != "forward"

    def setup():
        params = []
        for i, o in zip(WIDTHS, WIDTHS[1:]):
            bound = 1.0 / math.sqrt(i)
            # weight: [d_input, d_output] as in Burn's nn; x @ w + b.
            w = (torch.rand(i, o) * 2 - 1) * bound
            b = (torch.rand(o) * 2 - 1) * bound
            params += [w.requires_grad_(requires_grad), b.requires_grad_(requires_grad)]
        x = torch.rand(BATCH, WIDTHS[0])
        t = targets(BATCH, WIDTHS[-1])

        def loss_fn():
            h = x
            for layer in range(len(params) // 2):
                # h: [batch, d_in] @ w: [d_in, d_out] + b: [d_out]
                h = h @ params[2 * layer] + params[2 * layer + 1]
                if layer < len(params) // 2 - 1:
                    h = torch.relu(h)
            return -torch.log_softmax(h, dim=1).gather(1, t).mean()

        if pass_ == "train_step":
            optimizer = torch.optim.Adam(params, lr=LR)

            def train_step():
                optimizer.zero_grad(set_to_none=True)  # as Burn: fresh gradients
                loss = loss_fn()
                loss.backward()
                optimizer.step()
                return loss.detach()

            return train_step

        if pass_ != "forward_backward":
            return loss_fn

        def step():
            for p in params:
                p.grad = None  # Burn computes fresh gradients; do not accumulate
            loss = loss_fn()
            loss.backward()
            return [p.grad for p in params] + [loss.detach()]

        return step

    # Adam's work is element-wise: the train step counts the flops of forward + backward.
    backward = pass_ in ("forward_backward", "train_step")
    flops = forward_flops() + (backward_flops() if backward else 0.0)
    return "model", flops, setup


def chain(x):
    return (x * 2 + 1).exp().tanh()


def chain5(x):
    return (x * 2 + 1).exp().tanh() * 0.5


def gelu_tanh(x):
    cubic = x**3 * 0.044715
    inner = (x + cubic) * math.sqrt(2.0 / math.pi)
    return x * 0.5 * (inner.tanh() + 1)


def one_pass(x):
    return x.clone()


def masked_softmax(x, mask):
    return torch.softmax(x * 0.125 + mask, dim=-1)


def layer_norm_composed(x, gamma, beta):
    """burn::nn::LayerNorm's forward, op for op (what torch.compile fuses)."""
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + 1e-5) * gamma + beta


def masked_softmax_2d(n, make, sync, fusible=True):
    def setup():
        x, mask = make(n, n), make(1, n)
        f = torch.compile(masked_softmax) if COMPILE and fusible else masked_softmax
        run = lambda: f(x, mask)
        return synced(run) if sync else run

    return "memory", float(2 * 4 * n * n), setup


def layer_norm_2d(n, make, sync):
    """Eager: torch's own layer_norm kernel; --compile: the composed forward
    through torch.compile."""
    def setup():
        x = make(n, n)
        gamma, beta = torch.ones(n, device=x.device), torch.zeros(n, device=x.device)
        if COMPILE:
            f = torch.compile(layer_norm_composed)
            run = lambda: f(x, gamma, beta)
        else:
            run = lambda: torch.nn.functional.layer_norm(x, (n,), gamma, beta, 1e-5)
        return synced(run) if sync else run

    return "memory", float(2 * 4 * n * n), setup


N = 4096
ELEMENTS = N * N
WORKLOADS = {
    "matmul_f32_256": matmul_square(256, torch.float32),
    "matmul_f32_1024": matmul_square(1024, torch.float32),
    "matmul_f32_2048": matmul_square(2048, torch.float32),
    "matmul_f32_4096": matmul_square(4096, torch.float32),
    "matmul_f32_batched_64x128": matmul_batched(64, 128),
    "conv2d_f32_b16_c64_56x56_k3": conv2d_3x3(16, 64, 56),
    "matmul_f16_1024": matmul_square(1024, torch.float16),
    "matmul_bf16_1024": matmul_square(1024, torch.bfloat16),
    # Four ops, each reading and writing the tensor (the stream-time definition).
    "chain_f32_4096x4096": unary_2d(N, 4 * 2 * 4 * ELEMENTS, chain),
    "softmax_last_f32_4096x4096": unary_2d(N, 2 * 4 * ELEMENTS, lambda x: torch.softmax(x, dim=-1)),
    "one_pass_f32_4096x4096": unary_2d(N, 2 * 4 * ELEMENTS, one_pass),
    "chain5_f32_4096x4096": unary_2d(N, 2 * 4 * ELEMENTS, chain5, fusible=True),
    "masked_softmax_f32_4096x4096": masked_softmax_2d(N, lambda *s: uniform(*s), False),
    "layer_norm_f32_4096x4096": layer_norm_2d(N, lambda *s: uniform(*s), False),
    "gelu_tanh_f32_4096x4096": unary_2d(N, 2 * 4 * ELEMENTS, gelu_tanh, fusible=True),
    "sum_dim_last_f32_4096x4096": unary_2d(
        N, 4 * ELEMENTS + 4 * N, lambda x: x.sum(dim=-1, keepdim=True)
    ),
    "matvec_f32_1x4096x4096": matvec(N, N, None),
    "matvec_q8_b32_1x4096x4096": matvec(N, N, "q8"),
    "matvec_q4_b32_1x4096x4096": matvec(N, N, "q4"),
    "add_f32_8x8": add_tiny(False),
    "add_f32_8x8_autodiff": add_tiny(True),
    # The router and capture rows of the Rust suite are read against the
    # same eager add: PyTorch has no counterpart of either layer.
    "add_f32_8x8_router": add_tiny(False),
    "add_f32_8x8_capture_x100": add_tiny_x100(),
    "mlp_forward": mlp_step("forward"),
    "mlp_forward_autodiff": mlp_step("forward_autodiff"),
    "mlp_forward_backward": mlp_step("forward_backward"),
    "mlp_train_step": mlp_step("train_step"),
}


# ----------------------------------------------------------- GPU workloads
# Names and sizes as in src/workloads.rs `gpu()`.
GPU = "cuda"


def gpu_uniform(*shape, dtype=torch.float32):
    return torch.rand(*shape, device=GPU).to(dtype)


def synced(fn):
    def run():
        out = fn()
        torch.cuda.synchronize()
        return out

    return run


def gpu_matmul(n, dtype):
    def setup():
        lhs, rhs = gpu_uniform(n, n, dtype=dtype), gpu_uniform(n, n, dtype=dtype)
        return synced(lambda: lhs @ rhs)

    return ("matmul" if dtype == torch.float32 else "matmul_half"), 2.0 * n**3, setup


def gpu_matmul_tf32(n):
    """f32 matmul with TF32 allowed for the product only."""

    def setup():
        a = gpu_uniform(n, n)
        b = gpu_uniform(n, n)

        def run():
            torch.backends.cuda.matmul.allow_tf32 = True
            out = a @ b
            torch.backends.cuda.matmul.allow_tf32 = False
            torch.cuda.synchronize()
            return out

        return run

    return "matmul_half", 2.0 * n**3, setup


# `--compile`: the fusible workloads' ops through torch.compile.
COMPILE = False


def gpu_unary(n, nbytes, op, fusible=False):
    def setup():
        x = gpu_uniform(n, n)
        f = torch.compile(op) if COMPILE and fusible else op
        return synced(lambda: f(x))

    return "memory", float(nbytes), setup


QUEUED = 8


def gpu_unary_queued(n, nbytes, op):
    """gpu_unary with QUEUED launches before each sync (device throughput
    on back-to-back ops, without one host round trip per op)."""

    def setup():
        x = gpu_uniform(n, n)

        def run():
            for _ in range(QUEUED):
                op(x)
            torch.cuda.synchronize()

        return run

    return "memory", float(QUEUED * nbytes), setup


def gpu_conv2d(batch, channels, size):
    def setup():
        x = gpu_uniform(batch, channels, size, size)
        weight = gpu_uniform(channels, channels, 3, 3)
        return synced(lambda: torch.nn.functional.conv2d(x, weight, padding=1))

    return "matmul", 2.0 * batch * channels * size * size * channels * 9, setup


def gpu_mlp_train_step():
    kind, flops, setup = mlp_step("train_step")

    def gpu_setup():
        # The same step with the default device set to the GPU.
        with torch.device(GPU):
            step = setup()
        return synced(step)

    return kind, flops, gpu_setup


GN = 16384
GPU_ELEMENTS = GN * GN
GPU_WORKLOADS = {
    "gpu_matmul_f32_4096": gpu_matmul(4096, torch.float32),
    "gpu_matmul_f32_8192": gpu_matmul(8192, torch.float32),
    "gpu_matmul_tf32_4096": gpu_matmul_tf32(4096),
    "gpu_matmul_tf32_8192": gpu_matmul_tf32(8192),
    "gpu_matmul_f16_4096": gpu_matmul(4096, torch.float16),
    "gpu_matmul_f16_8192": gpu_matmul(8192, torch.float16),
    "gpu_matmul_bf16_4096": gpu_matmul(4096, torch.bfloat16),
    "gpu_matmul_bf16_8192": gpu_matmul(8192, torch.bfloat16),
    "gpu_chain_f32_16384x16384": gpu_unary(GN, 4 * 2 * 4 * GPU_ELEMENTS, chain),
    # --compile runs the first two through torch.compile.
    "gpu_chain5_f32_4096x4096": gpu_unary(4096, 2 * 4 * 4096 * 4096, chain5, fusible=True),
    "gpu_gelu_tanh_f32_16384x16384": gpu_unary(GN, 2 * 4 * GPU_ELEMENTS, gelu_tanh, fusible=True),
    "gpu_one_pass_f32_16384x16384": gpu_unary(GN, 2 * 4 * GPU_ELEMENTS, one_pass),
    "gpu_softmax_last_f32_16384x16384": gpu_unary(
        GN, 2 * 4 * GPU_ELEMENTS, lambda x: torch.softmax(x, dim=-1)
    ),
    "gpu_masked_softmax_f32_16384x16384": masked_softmax_2d(GN, lambda *s: gpu_uniform(*s), True),
    "gpu_layer_norm_f32_16384x16384": layer_norm_2d(GN, lambda *s: gpu_uniform(*s), True),
    "gpu_sum_dim_last_f32_16384x16384": gpu_unary(
        GN, 4 * GPU_ELEMENTS + 4 * GN, lambda x: x.sum(dim=-1, keepdim=True)
    ),
    "gpu_softmax_last_f32_16384x16384_queued": gpu_unary_queued(
        GN, 2 * 4 * GPU_ELEMENTS, lambda x: torch.softmax(x, dim=-1)
    ),
    "gpu_sum_dim_last_f32_16384x16384_queued": gpu_unary_queued(
        GN, 4 * GPU_ELEMENTS + 4 * GN, lambda x: x.sum(dim=-1, keepdim=True)
    ),
    "gpu_conv2d_f32_b64_c64_56x56_k3": gpu_conv2d(64, 64, 56),
    "gpu_mlp_train_step": gpu_mlp_train_step(),
}


def default_threads():
    env = os.environ.get("BURN_FLEX_THREADS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return len(os.sched_getaffinity(0))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name":
                    return value.strip()
    except OSError:
        pass
    return "unknown CPU"


def load_average():
    try:
        with open("/proc/loadavg") as f:
            return [float(v) for v in f.read().split()[:3]]
    except OSError:
        return None


def format_ms(ms):
    if ms < 1.0:
        return f"{ms * 1e3:.2f} µs"
    if ms < 1000.0:
        return f"{ms:.2f} ms"
    return f"{ms / 1e3:.3f} s"


def rate(kind, work, median_ms):
    per_s = work / (median_ms / 1e3) / 1e9
    if kind in ("matmul", "matmul_half", "model"):
        return f"{per_s:.1f} GFLOP/s"
    if kind == "memory":
        return f"{per_s:.1f} GB/s"
    return "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--threads", type=int, default=default_threads())
    parser.add_argument("--filter", default=None)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", default=None)
    parser.add_argument(
        "--compile",
        action="store_true",
        help="run the fusible workloads (chain5, gelu_tanh, masked_softmax, layer_norm; CPU and GPU) through torch.compile",
    )
    args = parser.parse_args()
    global COMPILE
    COMPILE = args.compile

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    policy, policy_name = (QUICK, "quick") if args.quick else (FULL, "full")
    workloads = WORKLOADS
    if args.device == "cuda":
        workloads = GPU_WORKLOADS
        # Strict f32 on both sides, as burn computes f32 matmul and conv.
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    selected = [n for n in workloads if args.filter is None or args.filter in n]
    if not selected:
        sys.exit(f"bench.py: no workload matches {args.filter!r}")

    load_before = load_average()
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    cpu = cpu_model()
    if args.device == "cuda":
        cpu = f"{torch.cuda.get_device_name(0)} (host: {cpu})"
    print(f"pytorch {torch.__version__} — {date} — {cpu} — {torch.get_num_threads()} threads — policy {policy_name}")
    if load_before:
        print("load average before: {:.2f} {:.2f} {:.2f}".format(*load_before))
    print(f"\n{'workload':<28} {'median':>11} {'min':>11} {'iters':>6} {'rate':>15}")

    results = []
    for name in selected:
        kind, work, setup = workloads[name]
        samples = measure(policy, setup())
        median_ms = statistics.median(samples) * 1e3
        min_ms = min(samples) * 1e3
        results.append(
            dict(name=name, kind=kind, work=work, median_ms=median_ms, min_ms=min_ms, iters=len(samples))
        )
        print(
            f"{name:<28} {format_ms(median_ms):>11} {format_ms(min_ms):>11} {len(samples):>6} "
            f"{rate(kind, work, median_ms):>15}",
            flush=True,
        )

    notes = [
        ("pytorch: torch.compile for the fusible workloads (chain5, gelu_tanh, masked_softmax, "
         "layer_norm composed), eager for the rest; "
         if COMPILE else "")
        + "pytorch: eager CPU ops; mlp_forward_backward is forward + cross-entropy + backward "
        "(gradients set to None first so they are not accumulated); mlp_train_step adds "
        "torch.optim.Adam(lr=1e-3).step() (defaults: on CPU, the per-tensor loop, not foreach)"
    ]
    for note in notes:
        print(f"note: {note}")
    load_after = load_average()
    if load_after:
        print("load average after: {:.2f} {:.2f} {:.2f}".format(*load_after))

    if args.json:
        report = dict(
            framework="pytorch",
            version=torch.__version__,
            date=date,
            command=" ".join([os.path.basename(sys.executable)] + sys.argv),
            policy=policy_name,
            cpu=cpu,
            threads=torch.get_num_threads(),
            machine=None,
            load_before=load_before,
            load_after=load_after,
            notes=notes,
            results=results,
        )
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
