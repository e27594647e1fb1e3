"""What following the project's imports costs: `devlint check` of a whole tree, cold (no cache),
with project mode (the default) and with `--no-project`, in the same run, interleaved.

    python benchmarks/project_cost.py [TREE ...] [--rounds N] [--jobs J]

TREE defaults to the installed torch package (found without importing torch). Each round runs
both modes once per tree, each as its own process tree; CPU seconds (user + system of the whole
tree, pool workers included), wall seconds and peak memory (the largest single process) come
from wait4. Medians over the rounds; the ratio is project / no-project.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def torch_tree() -> Path:
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        raise SystemExit("torch is not installed: name a tree")
    return Path(spec.origin).parent


def measure(command: list[str]) -> tuple[float, float, float]:
    """(cpu s, wall s, peak MiB of the largest process) of one run."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    with tempfile.TemporaryDirectory() as cache:
        env["DEVLINT_CACHE_DIR"] = cache
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {code}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=0, help="devlint -j (0: every core)")
    args = parser.parse_args()
    trees = args.trees or [torch_tree()]
    base = [sys.executable, "-m", "devlint", "check", "-q", "--exit-zero", "--no-cache"]
    if args.jobs:
        base += ["-j", str(args.jobs)]
    modes = {"project": [], "no-project": ["--no-project"]}
    for tree in trees:
        files = sum(1 for _ in tree.rglob("*.py"))
        results: dict[str, list] = {mode: [] for mode in modes}
        for _ in range(args.rounds):
            for mode, extra in modes.items():
                results[mode].append(measure(base + extra + [str(tree)]))
        print(f"{tree} ({files} .py files), {args.rounds} rounds, {os.cpu_count()} cores")
        medians = {mode: [statistics.median(r[i] for r in runs) for i in range(3)]
                   for mode, runs in results.items()}
        for mode, (cpu, wall, peak) in medians.items():
            print(f"  {mode:<11} cpu {cpu:7.1f} s  wall {wall:6.1f} s  peak {peak:6.0f} MiB")
        p, n = medians["project"], medians["no-project"]
        print(f"  ratio       cpu {p[0] / n[0]:.2f}x  wall {p[1] / n[1]:.2f}x  peak {p[2] / n[2]:.2f}x",
              flush=True)


if __name__ == "__main__":
    main()
