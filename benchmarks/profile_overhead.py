"""What `devlint verify --profile` costs (issue 34: at most 1.3x verify's wall time without it),
and what it costs per step on the simulated GPU.

    python benchmarks/profile_overhead.py [--repeats 7] [SCRIPT]

Each round runs `devlint verify SCRIPT -q` and `devlint verify SCRIPT -q --profile` once each,
in fresh processes, in turn (the order alternates from round to round), so that the machine's
drift hits both alike; the medians over the rounds are reported, with the median step time of
the cuda-sim row from each run's JSON (the profiler's hooks are on that row only).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(script: str, profile: bool) -> tuple[float, float]:
    """(wall seconds, the accelerator row's median step in seconds)."""
    command = [sys.executable, "-m", "devlint", "verify", script, "-q", "--json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), CUDA_VISIBLE_DEVICES="")
    started = time.perf_counter()
    done = subprocess.run(command + (["--profile"] if profile else []), capture_output=True,
                          text=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    report = json.loads(done.stdout)
    steps = [d["median_step_s"] for d in report["devices"] if d["device"] != "cpu"]
    return elapsed, steps[0] or 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("script", nargs="?", default=str(ROOT / "examples" / "seed_loop.py"))
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    walls: dict[bool, list[float]] = {False: [], True: []}
    steps: dict[bool, list[float]] = {False: [], True: []}
    for round_ in range(args.repeats):
        for profile in ((False, True) if round_ % 2 == 0 else (True, False)):
            wall, step = run(args.script, profile)
            walls[profile].append(wall)
            steps[profile].append(step)
    base, with_profile = statistics.median(walls[False]), statistics.median(walls[True])
    print(f"{Path(args.script).name}, {args.repeats} interleaved rounds, {os.cpu_count()} cores "
          f"(medians)")
    print(f"  verify            {base:6.2f} s wall   cuda-sim step "
          f"{statistics.median(steps[False]) * 1000:6.2f} ms")
    print(f"  verify --profile  {with_profile:6.2f} s wall   cuda-sim step "
          f"{statistics.median(steps[True]) * 1000:6.2f} ms")
    print(f"  ratio             {with_profile / base:6.2f}x wall   "
          f"{statistics.median(steps[True]) / statistics.median(steps[False]):6.2f}x step")


if __name__ == "__main__":
    main()
