"""Per-step cost of shadow CUDA (cuda-sim) against the plain CPU run of the same loop.

    python benchmarks/shadow_overhead.py [--repeats 5]

Targets (issue 6): <= 3x on a Linear(4,1) SGD step, <= 1.5x on an MLP step (784-512-512-10,
batch 64, Adam). Plain rounds (device 'cpu') alternate with shadow rounds (device 'cuda', the
shadow installed for those rounds only) so that a busy host slows both alike.
"""
from __future__ import annotations

import argparse
import os
import time

import torch

from devlint.verify import shadow


def linear_step_factory(device: str):
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(32, 4).to(device), torch.randn(32, 1).to(device)

    def step():
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return step


def mlp_step_factory(device: str):
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(),
        torch.nn.Linear(512, 10),
    ).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = torch.randn(64, 784), torch.randint(0, 10, (64,))

    def step():
        xb, yb = x.to(device), y.to(device)  # the batch moves every step, as in real loops
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return step


def mean_step_seconds(step, steps: int) -> float:
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return (time.perf_counter() - start) / steps


BENCHES = (("Linear(4,1) SGD", linear_step_factory, 2000, 3.0),
           ("MLP 784-512-512-10 Adam, batch 64", mlp_step_factory, 60, 1.5))


def compare(make, steps: int, repeats: int) -> tuple[float, float]:
    """Alternate plain and shadow rounds (the shadow is installed for its rounds only), so a
    busy host slows both sides alike; keep the best round of each."""
    plain_step = make("cpu")
    handle = shadow.install(user_root=os.getcwd())
    shadow_step = make("cuda")
    handle.uninstall()
    plain, shadowed = [], []
    for round_number in range(repeats + 1):
        plain.append(mean_step_seconds(plain_step, steps))
        handle = shadow.install(user_root=os.getcwd())
        shadowed.append(mean_step_seconds(shadow_step, steps))
        handle.uninstall()
    return min(plain[1:]), min(shadowed[1:])  # round 0 warms up


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    torch.set_num_threads(1)  # a fair, repeatable comparison on a shared machine
    print(f"torch {torch.__version__}, 1 thread, best of {args.repeats} alternating rounds")
    print(f"{'loop':36} {'plain ms':>9} {'shadow ms':>10} {'ratio':>6} {'target':>7}")
    for name, make, steps, target in BENCHES:
        plain, shadowed = compare(make, steps, args.repeats)
        ratio = shadowed / plain
        print(f"{name:36} {plain * 1e3:9.3f} {shadowed * 1e3:10.3f} {ratio:6.2f} "
              f"{'<=' + str(target):>7}{'' if ratio <= target else '  MISSED'}")
    os._exit(0)


if __name__ == "__main__":
    main()
