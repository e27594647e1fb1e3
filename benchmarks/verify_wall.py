"""`devlint verify`'s wall time against one plain `python SCRIPT` run (issue 21: at most 1.3x on
the seed-sized script), and what line coverage and running the devices side by side cost.

    python benchmarks/verify_wall.py [--repeats 7] [SCRIPT]

Each round runs every mode once, in a fresh process, in turn, so that the machine's drift
(other jobs) hits all modes alike; the medians over the rounds are reported:

    plain        python SCRIPT
    verify       devlint verify SCRIPT -q (cpu and the simulated cuda, side by side when the
                 cores allow; the launcher imports torch once for both)
    sequential   the same with --sequential
    no-coverage  the same without the never-ran-lines tracing (through the Python API)
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
NO_COVERAGE = ("import sys; from pathlib import Path; "
               "from devlint.verify.runner import VerifyOptions; "
               "from devlint.verify.session import verify; "
               "r = verify(VerifyOptions(script=Path(sys.argv[1]), coverage=False), print); "
               "sys.exit(r.exit_code)")


def modes(script: str) -> dict[str, list[str]]:
    devlint = [sys.executable, "-m", "devlint", "verify", script, "-q"]
    return {
        "plain": [sys.executable, script],
        "verify": devlint,
        "sequential": devlint + ["--sequential"],
        "no-coverage": [sys.executable, "-c", NO_COVERAGE, script],
    }


def wall(command: list[str]) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), CUDA_VISIBLE_DEVICES="")
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                   check=False)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("script", nargs="?", default=str(ROOT / "examples" / "seed_loop.py"))
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    commands = modes(args.script)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.repeats):
        for name, command in commands.items():
            times[name].append(wall(command))
    plain = statistics.median(times["plain"])
    print(f"{Path(args.script).name}, {args.repeats} rounds, {os.cpu_count()} cores "
          f"(median wall seconds; ratio to plain)")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:<12} {median:6.2f} s  {median / plain:5.2f}x   "
              f"(min {min(values):.2f}, max {max(values):.2f})", flush=True)


if __name__ == "__main__":
    main()
