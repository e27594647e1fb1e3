"""What the model of where every value lives costs, next to the libcst parse it needs.

    python benchmarks/model_cost.py [TREE] [--sample K]

For every file devlint's prefilter lets through (the files it analyses), times CPython's parse,
libcst's parse, the interpreter (`lint.model.analyze`) and the rules' decisions, in this one
process, and prints the totals and the ratio interpreter / libcst parse (the target: at most
0.5). TREE defaults to the installed torch package. Files the interpreter gives up on (a call
budget) still count.
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from devlint.lint.model import analyze  # noqa: E402
from devlint.lint.parse import parse_module  # noqa: E402
from devlint.lint.prefilter import could_match  # noqa: E402
from devlint.lint.rules import ALL_RULES  # noqa: E402
from devlint.workspace.discovery import iter_files  # noqa: E402


def default_tree() -> Path:
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        sys.exit("no TREE given and torch is not installed")
    return Path(spec.origin).parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("tree", nargs="?", type=Path)
    parser.add_argument("--sample", type=int, default=1, metavar="K", help="every K-th file")
    args = parser.parse_args()
    tree = args.tree or default_tree()
    files = [p for p in iter_files([str(tree)]) if isinstance(p, Path) and p.suffix == ".py"]
    files = files[:: args.sample]
    codes = [rule.code for rule in ALL_RULES]
    totals = {"cpython": 0.0, "libcst": 0.0, "model": 0.0, "rules": 0.0}
    analysed = 0
    slowest: list[tuple[float, str]] = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if not could_match(text, codes):
            continue
        started = time.process_time()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(text)
            parsed = time.process_time()
            module = parse_module(text)
        except Exception:
            continue
        analysed += 1
        libcst_done = time.process_time()
        model = analyze(module, text, str(path))
        modelled = time.process_time()
        for rule in ALL_RULES:
            list(rule().check(model))
        done = time.process_time()
        totals["cpython"] += parsed - started
        totals["libcst"] += libcst_done - parsed
        totals["model"] += modelled - libcst_done
        totals["rules"] += done - modelled
        slowest.append((modelled - libcst_done, str(path)))
    print(f"{tree}: {len(files)} files, {analysed} analysed")
    for name, seconds in totals.items():
        print(f"  {name:8} {seconds:8.2f} CPU s")
    ratio = totals["model"] / totals["libcst"] if totals["libcst"] else 0.0
    print(f"  interpreter / libcst parse: {ratio:.2f}x (target <= 0.5)")
    print(f"  rules / libcst parse: {totals['rules'] / totals['libcst'] if totals['libcst'] else 0:.3f}x")
    for seconds, path in sorted(slowest, reverse=True)[:5]:
        print(f"  slowest interpretation: {seconds:.2f} s {path}")


if __name__ == "__main__":
    main()
