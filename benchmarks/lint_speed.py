"""How fast devlint lints a tree, next to its peers, measured in one interleaved run.

    python benchmarks/lint_speed.py [TREE] [--rounds N] [--peers-bin DIR] [--sample K]
    python benchmarks/lint_speed.py TREE --check-prefilter

TREE defaults to the installed torch package (found without importing torch). Each round runs
every tool once, in the same order, each as its own process tree; CPU seconds (user + system
of the whole tree, pool workers included), wall seconds and peak memory (the largest single
process) come from wait4. Tools: devlint cold (fresh cache, all cores), devlint warm (the
same cache again), devlint -j1 without cache, `flake8 --select DEV` through the plugin, and,
where their commands are found (PATH or --peers-bin): TorchFix, Fixit, ruff. Two baselines run
in a child of this script: a bare `libcst.parse_module` of every file, and of only the files
devlint's prefilter lets through (the files it analyzes); plus the parse of the largest
analyzed file alone, the memory any libcst linter needs for that file.

--sample K checks every K-th file only (a symlinked copy of the tree, the same for every tool),
for peers too slow to run on a whole tree in one sitting.
--check-prefilter analyzes every file the prefilter skips, without the prefilter, and lists
any finding (there must be none).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator, Optional

HERE = Path(__file__).resolve()


@dataclass
class Measure:
    tool: str
    cpu_s: float
    wall_s: float
    peak_mb: float
    exit_code: int


def default_tree() -> Path:
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        sys.exit("no TREE given and torch is not installed")
    return Path(spec.origin).parent


def python_files(tree: Path) -> list[Path]:
    sys.path.insert(0, str(HERE.parent.parent / "src"))
    from devlint.workspace.discovery import iter_files

    return [p for p in iter_files([str(tree)]) if isinstance(p, Path)]


def prefiltered(files: list[Path]) -> Iterator[tuple[Path, str, bool]]:
    """(path, text, whether the prefilter lets it through) for every UTF-8 file."""
    from devlint.lint.prefilter import could_match
    from devlint.lint.rules import ALL_RULES

    codes = [rule.code for rule in ALL_RULES]
    for path in files:
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        yield path, text, could_match(text, codes)


def analyzed_files(files: list[Path]) -> list[Path]:
    return [path for path, _, passes in prefiltered(files) if passes]


def measure(tool: str, command: list[str], cwd: Optional[Path] = None) -> Measure:
    """One process tree; its CPU and peak memory include every child it waited for."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               cwd=cwd)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return Measure(tool, usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024,
                   process.returncode)


def sampled_tree(files: list[Path], root: Path, every: int, into: Path) -> Path:
    for path in files[::every]:
        target = into / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)  # copies, not links: some tools skip symlinks
    return into


# What any warm run pays before reading a file: on a tree of a hundred files it bounds the
# warm/cold ratio (pytorch/examples: ~0.04 s of a ~0.06 s warm run on a 2-core machine).
FLOOR = "python + argparse, dataclasses, json, pathlib"


def tool_commands(tree: Path, scratch: Path, round_no: int, peers: dict[str, str],
                  lists: dict[str, Path]) -> list[tuple[str, list[str]]]:
    py = sys.executable
    cache = scratch / f"cache-{round_no}"
    commands = [
        ("devlint cold", [py, "-m", "devlint", "check", "--cache-dir", str(cache), str(tree)]),
        ("devlint warm", [py, "-m", "devlint", "check", "--cache-dir", str(cache), str(tree)]),
        ("devlint -j1", [py, "-m", "devlint", "check", "-j1", "--no-cache", str(tree)]),
        ("flake8 --select DEV", [py, "-m", "flake8", "--isolated", "--select", "DEV", str(tree)]),
    ]
    if "torchfix" in peers:
        commands.append(("TorchFix", [peers["torchfix"], str(tree)]))
    if "fixit" in peers:
        commands.append(("Fixit", [peers["fixit"], "lint", str(tree)]))
    if "ruff" in peers:
        commands.append(("ruff (all rules)", [peers["ruff"], "check", "--isolated", "--no-cache",
                                              "--select", "ALL", "--exit-zero", str(tree)]))
    for name, listing in lists.items():
        commands.append((name, [py, str(HERE), "--parse-list", str(listing)]))
    commands.append((FLOOR, [py, "-c", "import argparse, dataclasses, json, pathlib, re, typing"]))
    return commands


def find_peers(extra_bin: Optional[str]) -> dict[str, str]:
    path = os.pathsep.join(p for p in (extra_bin, os.environ.get("PATH", "")) if p)
    found = {}
    for name in ("torchfix", "fixit", "ruff"):
        where = shutil.which(name, path=path)
        if where:
            found[name] = where
    return found


def parse_list(listing: Path) -> None:
    """A child process of its own: the bare libcst parse of every listed file."""
    import libcst

    for line in listing.read_text(encoding="utf-8").splitlines():
        try:
            libcst.parse_module(Path(line).read_bytes())
        except Exception:  # a file libcst cannot parse costs what it cost
            pass


def check_prefilter(files: list[Path]) -> int:
    from devlint.lint import analyze as engine

    engine.could_match = lambda text, codes: True  # this process only: analyze everything
    skipped = misses = 0
    for path, text, passes in prefiltered(files):  # asks devlint.lint.prefilter, not engine's copy
        if passes:
            continue
        skipped += 1
        for finding in engine.analyze_source(text, str(path)):
            if finding.code != "DEV999":
                misses += 1
                print(f"MISSED {finding.path}:{finding.line}: {finding.code} {finding.message}")
    print(f"{len(files)} files, {skipped} skipped by the prefilter, {misses} findings in them")
    return 1 if misses else 0


def render(results: dict[str, list[Measure]], files: int, analyzed: int, tree: Path) -> str:
    def med(tool: str, attr: str) -> float:
        return statistics.median(getattr(m, attr) for m in results[tool])

    base_cpu, base_wall = med("devlint cold", "cpu_s"), med("devlint cold", "wall_s")
    lines = [
        f"tree: {tree} ({files} files; devlint's prefilter lets {analyzed} through to libcst)",
        f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
        f"median of {len(next(iter(results.values())))} interleaved round(s)",
        "",
        "| tool | CPU s | wall s | peak MB | CPU / devlint cold | wall / devlint cold |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for tool in results:
        cpu, wall, peak = med(tool, "cpu_s"), med(tool, "wall_s"), med(tool, "peak_mb")
        lines.append(f"| {tool} | {cpu:.1f} | {wall:.1f} | {peak:.0f} | "
                     f"{cpu / base_cpu:.2f}x | {wall / base_wall:.2f}x |")
    lines.append("")
    lines += targets(results, med)
    return "\n".join(lines) + "\n"


def targets(results: dict[str, list[Measure]], med) -> list[str]:
    """Issue 8's bar, each ratio next to its limit."""
    out = []

    def line(what: str, value: float, limit: float, better: str) -> None:
        ok = value <= limit if better == "<=" else value >= limit
        out.append(f"- {what}: {value:.3f} ({better} {limit}) {'ok' if ok else 'MISSED'}")

    cold_cpu, cold_wall = med("devlint cold", "cpu_s"), med("devlint cold", "wall_s")
    if "TorchFix" in results:
        line("devlint cold CPU / TorchFix CPU", cold_cpu / med("TorchFix", "cpu_s"), 0.1, "<=")
        line("devlint cold wall / TorchFix wall", cold_wall / med("TorchFix", "wall_s"), 0.1, "<=")
    if "libcst parse (analyzed files)" in results:
        line("devlint cold CPU / bare parse of the analyzed files",
             cold_cpu / med("libcst parse (analyzed files)", "cpu_s"), 1.5, "<=")
    line("devlint cold wall / warm wall", cold_wall / med("devlint warm", "wall_s"), 20, ">=")
    line("devlint cold CPU / warm CPU", cold_cpu / max(med("devlint warm", "cpu_s"), 1e-3), 20, ">=")
    if FLOOR in results:
        out.append(f"- a warm run's floor: {med(FLOOR, 'wall_s'):.3f} s wall to start Python and "
                   f"import the standard modules a CLI like devlint needs (the '{FLOOR}' row)")
    if "libcst parse (largest analyzed file)" in results:
        peak = max(med("devlint cold", "peak_mb"), med("devlint -j1", "peak_mb"))
        line("devlint peak memory / parse of the largest analyzed file",
             peak / med("libcst parse (largest analyzed file)", "peak_mb"), 1.2, "<=")
    return out


def compile_bytecode() -> None:
    """Give devlint's modules their bytecode, as `pip install` does and as the peers' installed
    packages have it. From a source checkout with PYTHONDONTWRITEBYTECODE set (as on the machine
    these numbers came from) every run would otherwise compile the 6,000 lines of its checker again:
    ~0.1 CPU s and 6 MB of peak memory that no installed copy pays."""
    import compileall

    import devlint

    compileall.compile_dir(Path(devlint.__file__).parent, quiet=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", type=Path)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--peers-bin", help="a directory holding torchfix, fixit, ruff")
    parser.add_argument("--sample", type=int, default=1, metavar="K", help="every K-th file")
    parser.add_argument("--skip", action="append", default=[], help="a tool name to leave out")
    parser.add_argument("--json", type=Path, help="also write the measurements here")
    parser.add_argument("--check-prefilter", action="store_true")
    parser.add_argument("--parse-list", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.parse_list:
        parse_list(args.parse_list)
        return 0
    tree = (args.tree or default_tree()).resolve()
    files = python_files(tree)
    if args.check_prefilter:
        return check_prefilter(files)
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="devlint-bench-") as scratch_name:
        scratch = Path(scratch_name)
        if args.sample > 1:
            tree = sampled_tree(files, tree, args.sample, scratch / "tree")
            files = python_files(tree)
        analyzed = analyzed_files(files)
        lists = {}
        for name, chosen in (("libcst parse (all files)", files),
                             ("libcst parse (analyzed files)", analyzed),
                             ("libcst parse (largest analyzed file)",
                              [max(analyzed, key=lambda p: p.stat().st_size)] if analyzed else [])):
            listing = scratch / f"{len(lists)}.txt"
            listing.write_text("\n".join(map(str, chosen)), encoding="utf-8")
            lists[name] = listing
        peers = find_peers(args.peers_bin)
        results: dict[str, list[Measure]] = {}
        for round_no in range(args.rounds):
            for tool, command in tool_commands(tree, scratch, round_no, peers, lists):
                if tool in args.skip:
                    continue
                m = measure(tool, command, cwd=scratch)
                results.setdefault(tool, []).append(m)
                print(f"round {round_no + 1}: {tool}: {m.cpu_s:.1f} CPU s, {m.wall_s:.1f} s, "
                      f"{m.peak_mb:.0f} MB (exit {m.exit_code})", file=sys.stderr, flush=True)
        report = render(results, len(files), len(analyzed), args.tree or default_tree())
        print(report)
        if args.json:
            args.json.write_text(json.dumps({
                "tree": str(args.tree or default_tree()), "files": len(files), "analyzed": len(analyzed),
                "sample": args.sample, "results": {k: [asdict(m) for m in v] for k, v in results.items()},
            }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
