"""`devlint verify --nproc 2`'s wall time against plain `torchrun --nproc-per-node 2` of the same
DDP script (issue 22).

    python benchmarks/verify_torchrun.py [--repeats 5] [--nproc 2] [SCRIPT]

Each round runs every mode once, in a fresh process, in turn, so that the machine's drift
(other jobs) hits all modes alike; the medians over the rounds are reported. verify runs the
whole script, as torchrun does (--max-batches 0 --max-epochs 0: no data cut):

    torchrun        python -m torch.distributed.run --nproc-per-node N SCRIPT (CPU, gloo)
    verify cpu      devlint verify SCRIPT --nproc N --devices cpu: the same job, under verify
    verify          devlint verify SCRIPT --nproc N: cpu and the simulated cuda, side by side
                    when the cores allow (2N ranks), compared rank by rank
    sequential      the same with --sequential
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCRIPT = ROOT / "tests" / "verify_cases" / "scripts" / "ddp_train.py"


def modes(script: str, nproc: int) -> dict[str, list[str]]:
    devlint = [sys.executable, "-m", "devlint", "verify", script, "-q", "--nproc", str(nproc),
               "--max-batches", "0", "--max-epochs", "0"]
    return {
        "torchrun": [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node",
                     str(nproc), script],
        "verify cpu": devlint + ["--devices", "cpu"],
        "verify": devlint,
        "sequential": devlint + ["--sequential"],
    }


def wall(command: list[str], cwd: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), CUDA_VISIBLE_DEVICES="")
    started = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                          cwd=cwd, check=False, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("script", nargs="?", default=str(DEFAULT_SCRIPT))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--nproc", type=int, default=2)
    args = parser.parse_args()
    script = os.path.abspath(args.script)
    commands = modes(script, args.nproc)
    times: dict[str, list[float]] = {name: [] for name in commands}
    cwd = os.path.dirname(script)
    for _ in range(args.repeats):
        for name, command in commands.items():
            times[name].append(wall(command, cwd))
    base = statistics.median(times["torchrun"])
    print(f"{Path(script).name}, --nproc {args.nproc}, {args.repeats} rounds, "
          f"{os.cpu_count()} cores (median wall seconds; ratio to torchrun)")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:<12} {median:6.2f} s  {median / base:5.2f}x   "
              f"(min {min(values):.2f}, max {max(values):.2f})", flush=True)


if __name__ == "__main__":
    main()
