"""The long fuzz campaign: `python scripts/fuzz.py [--seconds N] [--examples N] [--tree DIR]`.

Every round draws programs from three sources and puts each through the checks that fit it
(all in devlint.fuzzing, which tests/test_fuzz.py runs as a bounded slice in CI):

- mutated real code (the fixtures, the examples and the Python files of --tree, by default the
  installed torch package, found without importing it): the engine's invariants, the prefilter
  differential (the same findings with the text prefilter off) and `--fix` (the result parses,
  a second fix changes nothing, nothing outside the edits changes);
- the real files themselves, cut into notebooks of every shape: the notebook's findings are
  the script's, at the same places, and its `--fix` changes only code cells' sources;
- hypothesmith programs (from the grammar and from libcst's nodes): invariants and `--fix`;
- the same notebooks with a code cell that does not parse inserted anywhere: one DEV999 in
  that cell, every other cell's findings as without it;
- small projects with hostile import layouts (a package beside a same-named module, namespace
  packages, star imports chained, attributes stored on imported modules, cycles): every import
  resolves as CPython's path finder resolves it, and each file's findings are the same in a
  whole-project run, in any order, and checked alone;
- trees of nested `[tool.devlint]` tables: each file's rules are its nearest table's, and the
  walk leaves out exactly what each folder's nearest table excludes;
- the language server (one, for the whole campaign, when pygls is installed), sent random
  edits of the real files as fast as an editor types: the last version's diagnostics are what
  `devlint check` finds in that text.

A failure is written to fuzz-crashes/ (the input and the traceback). The figures print at the
end: per check, programs and failures, and the CPU time spent.
"""
from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Callable, Iterator, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from devlint.fuzzing import (  # noqa: E402
    check_broken_cell, check_fix, check_invariants, check_nested_configs, check_notebook,
    check_prefilter, check_project_layout, check_server_edits, mutate,
)
from devlint.lint.analyze import analyze_source  # noqa: E402

SERVING = importlib.util.find_spec("pygls") is not None
MAX_FILE_BYTES = 60_000  # the big generated files of a tree add time, not new shapes


def generated(count: int, seed: int) -> list[str]:
    import hypothesmith
    from hypothesis import HealthCheck, given, settings

    found: list[str] = []

    @settings(max_examples=count, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(hypothesmith.from_grammar() | hypothesmith.from_node())
    def collect(source: str) -> None:
        found.append(source)

    collect()
    return found


def corpus(tree: Optional[Path]) -> list[str]:
    paths = sorted((ROOT / "fixtures").rglob("*.py")) + sorted((ROOT / "examples").glob("*.py"))
    if tree is not None:
        paths += sorted(p for p in tree.rglob("*.py") if p.stat().st_size <= MAX_FILE_BYTES)
    texts = []
    for path in paths:
        try:
            texts.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    return texts


def default_tree() -> Optional[Path]:
    spec = importlib.util.find_spec("torch")
    return Path(spec.origin).parent if spec is not None and spec.origin else None


def invariants(text: str) -> None:
    check_invariants(text, analyze_source(text, "fuzz.py"))


def in_folder(check: Callable, seed: int) -> None:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="devlint-fuzz-") as folder:
        check(folder, random.Random(seed))


class Server:
    """One language server for the campaign, started at its first check."""

    client = None
    folder = None

    @classmethod
    def edits(cls, text: str, seed: int) -> None:
        if cls.client is None:
            import tempfile

            from devlint.server.client import Client, server_command

            cls.folder = tempfile.TemporaryDirectory(prefix="devlint-fuzz-server-")
            cls.client = Client(server_command(), cwd=Path(cls.folder.name))
            cls.client.initialize(Path(cls.folder.name))
        check_server_edits(cls.client, cls.folder.name, text, random.Random(seed))


def round_of_checks(texts: list[str], rng: random.Random, batch: int) -> Iterator[tuple[str, str, Callable]]:
    """(check name, input, the check) for one round."""
    for _ in range(batch):
        mutant = mutate(rng.choice(texts), rng)
        yield "invariants", mutant, lambda text=mutant: invariants(text)
        yield "prefilter", mutant, lambda text=mutant: check_prefilter(text)
        yield "fix", mutant, lambda text=mutant: check_fix(text)
        script = rng.choice(texts)
        seed = rng.randrange(2**32)
        yield "notebook", script, lambda text=script, seed=seed: check_notebook(text, random.Random(seed))
        yield "broken cell", script, lambda text=script, seed=seed: check_broken_cell(text, random.Random(seed))
        yield "import layout", f"seed {seed}", lambda seed=seed: in_folder(check_project_layout, seed)
        yield "nested config", f"seed {seed}", lambda seed=seed: in_folder(check_nested_configs, seed)
        if SERVING:
            yield "server edits", script, lambda text=script, seed=seed: Server.edits(text, seed)
    for program in generated(batch, rng.randrange(2**32)):
        yield "invariants", program, lambda text=program: invariants(text)
        yield "fix", program, lambda text=program: check_fix(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000, help="programs, all checks together")
    parser.add_argument("--seconds", type=float, default=float("inf"), help="wall-clock budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tree", type=Path, default=None,
                        help="a tree of real Python files (default: the installed torch package)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    texts = corpus(args.tree or default_tree())
    crashes_dir = ROOT / "fuzz-crashes"
    start, cpu = time.monotonic(), time.process_time()
    tried: Counter = Counter()
    failed: Counter = Counter()
    batch = max(1, min(200, args.examples // 40))
    while sum(tried.values()) < args.examples and time.monotonic() - start < args.seconds:
        for name, text, check in round_of_checks(texts, rng, batch):
            tried[name] += 1
            try:
                check()
            except BaseException:  # noqa: BLE001 - every failure is a finding of the campaign
                failed[name] += 1
                number = sum(failed.values())
                crashes_dir.mkdir(exist_ok=True)
                stem = name.replace(" ", "_")
                (crashes_dir / f"{stem}-{number:04d}.py").write_text(text, encoding="utf-8")
                (crashes_dir / f"{stem}-{number:04d}.txt").write_text(traceback.format_exc())
        print(f"\r{sum(tried.values())} checks, {sum(failed.values())} failures, "
              f"{time.monotonic() - start:.0f} s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"corpus: {len(texts)} files")
    for name in sorted(tried):
        print(f"{name}: {tried[name]} programs, {failed[name]} failures")
    print(f"CPU seconds: {time.process_time() - cpu:.0f}; wall seconds: {time.monotonic() - start:.0f}")
    if Server.client is not None:
        Server.client.shutdown()
        Server.folder.cleanup()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
