"""Reference learning rates for the scheduler tests (tests/lr_schedulers.rs).

Run with PyTorch (CPU): `python lr_schedulers.py`. Each case records the
learning rate used by each optimizer step (read before `optimizer.step()`,
then `scheduler.step()`), as Rust arrays to paste into the tests. For
ReduceLROnPlateau, the rate after each reported metric.
"""

import torch
from torch.optim import SGD
from torch.optim import lr_scheduler as s


def rates(make, steps, lr=0.1):
    opt = SGD([torch.zeros(1, requires_grad=True)], lr=lr)
    sched = make(opt)
    out = []
    for _ in range(steps):
        out.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return out


def plateau(metrics):
    opt = SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = s.ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1, threshold=0.1)
    out = []
    for m in metrics:
        sched.step(m)
        out.append(opt.param_groups[0]["lr"])
    return out


PLATEAU_METRICS = [1.0, 0.95, 0.96, 0.5, 0.5, 0.5, 0.5, 0.5, 0.2, 0.3, 0.3, 0.3]

CASES = {
    "STEP": lambda: rates(lambda o: s.StepLR(o, step_size=3, gamma=0.5), 10),
    "EXPONENTIAL": lambda: rates(lambda o: s.ExponentialLR(o, gamma=0.9), 6),
    "LINEAR": lambda: rates(lambda o: s.LinearLR(o, start_factor=0.1, end_factor=1.0, total_iters=4), 7),
    "COSINE": lambda: rates(lambda o: s.CosineAnnealingLR(o, T_max=5, eta_min=0.01), 6),
    "COSINE_RESTARTS": lambda: rates(
        lambda o: s.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001), 12
    ),
    "ONE_CYCLE": lambda: rates(lambda o: s.OneCycleLR(o, max_lr=1.0, total_steps=10), 10),
    "ONE_CYCLE_CUSTOM": lambda: rates(
        lambda o: s.OneCycleLR(
            o, max_lr=0.5, total_steps=12, pct_start=0.25, div_factor=10.0, final_div_factor=100.0
        ),
        12,
    ),
    "PLATEAU": lambda: plateau(PLATEAU_METRICS),
}

if __name__ == "__main__":
    print(f"// torch {torch.__version__}")
    print(f"const PLATEAU_METRICS: [f64; {len(PLATEAU_METRICS)}] = {PLATEAU_METRICS};")
    for name, case in CASES.items():
        values = case()
        body = ", ".join(repr(v) for v in values)
        print(f"const {name}: [f64; {len(values)}] = [{body}];")
