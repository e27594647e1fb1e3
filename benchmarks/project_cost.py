"""What devlint's default run (project mode) costs next to the floor of a libcst analyzer and
its peers: one interleaved session over each tree, every row its own process tree.

    python benchmarks/project_cost.py [TREE ...] [--rounds N] [--jobs J] [--peers-bin DIR]
                                      [--skip ROW] [--flake8-alone PYTHON]

TREE defaults to the installed torch package (found without importing torch); a TREE may hold
many projects (the ecosystem check's sdists: each finds its own root). Each round runs, per
tree and in this order: a bare `libcst.parse_module` of every `.py` file devlint discovers (in
one child process), `devlint check --no-cache --no-project`, `devlint check --no-cache`
(project mode, the default), `devlint check` with a fresh cache and again warm, `flake8
--select DEV` (the plugin) with a fresh devlint cache and again warm, and TorchFix where its
command is found (PATH or --peers-bin). `--flake8-alone PYTHON`: an interpreter with the same
flake8 and no devlint adds a row for flake8's own checkers, so the plugin's share of a flake8 run
(the flake8 row less that one) is set against `devlint check`. devlint and flake8 get the same number of processes
(`--jobs`, default every core). CPU seconds are user + system of the whole process tree (pool
workers included), wall seconds and peak memory (the largest single process) come from wait4.
Medians over the rounds; ratios are within the session, never across sessions (the machine's
speed drifts several-fold between hours).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARSE = "libcst parse, every file"
NO_PROJECT = "devlint --no-project, cold"
PROJECT = "devlint (project mode), cold"
WARM = "devlint, warm cache"
FLAKE8 = "flake8 --select DEV, cold"
FLAKE8_WARM = "flake8 --select DEV, warm cache"
TORCHFIX = "TorchFix"
FLAKE8_ALONE = "flake8 alone (no devlint)"


def torch_tree() -> Path:
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        raise SystemExit("torch is not installed: name a tree")
    return Path(spec.origin).parent


def measure(command: list[str], env: dict, cwd: str) -> tuple[float, float, float]:
    """(cpu s, wall s, peak MiB of the largest process) of one run."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=env, cwd=cwd)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {code}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def rows(tree: Path, scratch: Path, listing: Path, jobs: int, torchfix: str | None,
         flake8_alone: str | None = None) -> list:
    py = sys.executable
    check = [py, "-m", "devlint", "check", "-q", "--exit-zero", "-j", str(jobs)]
    flake8 = [py, "-m", "flake8", "--isolated", "--select", "DEV", "--exit-zero", "-j", str(jobs)]
    shutil.rmtree(scratch / "cache", ignore_errors=True)
    shutil.rmtree(scratch / "flake8-cache", ignore_errors=True)
    out = [
        (PARSE, [py, str(Path(__file__).resolve().parent / "lint_speed.py"), "--parse-list",
                 str(listing)], {}),
        (NO_PROJECT, check + ["--no-cache", "--no-project", str(tree)], {}),
        (PROJECT, check + ["--no-cache", str(tree)], {}),
        (WARM, check + ["--cache-dir", str(scratch / "cache"), str(tree)], {}),
        (WARM, check + ["--cache-dir", str(scratch / "cache"), str(tree)], {}),
        (FLAKE8, flake8 + [str(tree)], {"DEVLINT_CACHE_DIR": str(scratch / "flake8-cache")}),
        (FLAKE8_WARM, flake8 + [str(tree)], {"DEVLINT_CACHE_DIR": str(scratch / "flake8-cache")}),
    ]
    if flake8_alone:
        # no PYTHONPATH: devlint's source tree holds its entry point, and flake8 would load it
        out.append((FLAKE8_ALONE, [flake8_alone] + flake8[1:] + [str(tree)], {"PYTHONPATH": ""}))
    if torchfix:
        out.append((TORCHFIX, [torchfix, str(tree)], {}))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=0, help="processes (0: every core)")
    parser.add_argument("--peers-bin", help="a directory holding torchfix")
    parser.add_argument("--skip", action="append", default=[], help="a row to leave out")
    parser.add_argument("--flake8-alone", metavar="PYTHON",
                        help="an interpreter with flake8 and without devlint")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    from devlint.workspace.discovery import iter_files

    jobs = args.jobs or len(os.sched_getaffinity(0))
    path = os.pathsep.join(p for p in (args.peers_bin, os.environ.get("PATH", "")) if p)
    torchfix = shutil.which("torchfix", path=path)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    for tree in args.trees or [torch_tree()]:
        tree = tree.resolve()
        with tempfile.TemporaryDirectory(prefix="devlint-project-cost-") as name:
            scratch = Path(name)
            files = [p for p in iter_files([str(tree)]) if isinstance(p, Path) and p.suffix == ".py"]
            listing = scratch / "files.txt"
            listing.write_text("\n".join(map(str, files)), encoding="utf-8")
            results: dict[str, list] = {}
            for round_no in range(args.rounds):
                for row, command, extra in rows(tree, scratch, listing, jobs, torchfix, args.flake8_alone):
                    if row in args.skip:
                        continue
                    measured = measure(command, dict(env, **extra), cwd=name)
                    if row == WARM and row not in results:
                        results[row] = []  # the first of the pair fills the cache
                        continue
                    results.setdefault(row, []).append(measured)
                    print(f"round {round_no + 1}: {row}: {measured[0]:.1f} CPU s, "
                          f"{measured[1]:.1f} s, {measured[2]:.0f} MiB", file=sys.stderr, flush=True)
        print(f"\n{tree}: {len(files)} .py files, {args.rounds} round(s), {jobs} processes, "
              f"{os.cpu_count()} cores")
        medians = {row: [statistics.median(r[i] for r in runs) for i in range(3)]
                   for row, runs in results.items() if runs}
        base = medians.get(PARSE, [0.0])[0]
        print("| run | CPU s | wall s | peak MiB | CPU / parse |")
        print("|---|---:|---:|---:|---:|")
        for row, (cpu, wall, peak) in medians.items():
            ratio = f"{cpu / base:.2f}x" if base else "-"
            print(f"| {row} | {cpu:.1f} | {wall:.1f} | {peak:.0f} | {ratio} |")

        def ratio(a: str, b: str) -> str:
            if a in medians and b in medians and medians[b][0]:
                return f"{medians[a][0] / medians[b][0]:.2f}x"
            return "-"

        print(f"- project mode / bare parse: {ratio(PROJECT, PARSE)} (goal <= 1.3x)")
        print(f"- project mode / --no-project: {ratio(PROJECT, NO_PROJECT)} (goal <= 1.3x)")
        print(f"- TorchFix / project mode: {ratio(TORCHFIX, PROJECT)} (goal >= 15x)")
        print(f"- flake8 cold / devlint cold: {ratio(FLAKE8, PROJECT)} (goal <= 1.2x)")
        print(f"- flake8 warm / devlint warm: {ratio(FLAKE8_WARM, WARM)} (goal <= 1.2x)")
        if FLAKE8_ALONE in medians and PROJECT in medians and medians[PROJECT][0]:
            alone = medians[FLAKE8_ALONE][0]
            for row, against in ((FLAKE8, PROJECT), (FLAKE8_WARM, WARM)):
                if row in medians and medians[against][0]:
                    share = medians[row][0] - alone
                    print(f"- the plugin's share of {row} ({share:.1f} CPU s) / {against}: "
                          f"{share / medians[against][0]:.2f}x (goal <= 1.2x)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
