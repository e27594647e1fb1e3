"""Measure devlint's recall and precision on the recall corpus in benchmarks/recall/scripts/.

Every script marks its truth inline, on the line where devlint should report:

    loss = criterion(out, y)  # expect: DEV004
    out = model(x)            # also: DEV002

`expect` marks a real bug that devlint should find (it counts towards recall). `also`
marks a finding that would be true but is not required, typically a consequence of a
marked bug on another line (a discarded `x.to(device)` leaves `model(x)` with a CPU
batch): such a finding counts as true for precision and is left out of recall. A script
without an `expect` mark is a correct look-alike, where every finding is a false one.

The comparison is per (file, line, code); in a notebook (`scripts/*.ipynb`) per (file, cell, line
in the cell, code), the marks read from its code cells' comments. This is a measurement, not a test: it prints
the figures and exits 0 whatever they are (2 only when devlint produced no report).

    python benchmarks/recall/measure.py            # per-script table, then totals
    python benchmarks/recall/measure.py -q         # totals, misses and false findings only
    python benchmarks/recall/measure.py --json out.json
    python benchmarks/recall/measure.py --corpus benchmarks/recall/turn3   # another set, measured on its own
"""
from __future__ import annotations

import argparse
import io
import json
import re
import shutil
import subprocess
import sys
import tokenize
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = HERE / "scripts"
PROJECTS = HERE / "projects"  # multi-file projects: one folder each, checked whole
MARK = re.compile(r"#\s*(expect|also)\s*:\s*((?:DEV\d{3}\s*,?\s*)+)", re.IGNORECASE)
CODE = re.compile(r"DEV\d{3}", re.IGNORECASE)


def _sources(path: Path) -> list[tuple[object, str]]:
    """The Python text of a file with the cell it is in: a script is one text (cell None), a
    notebook's code cells are one each, numbered from 1 in notebook order (markdown counted),
    as devlint names them."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return [(None, text)]
    cells = json.loads(text).get("cells", [])
    return [(n, "".join(c["source"]) if isinstance(c.get("source"), list) else c.get("source", ""))
            for n, c in enumerate(cells, 1) if c.get("cell_type") == "code"]


def _line_key(cell, line: int):
    """A line of a script (an int), or of a notebook's cell (`cell_3:2`)."""
    return line if cell is None else f"cell_{cell}:{line}"


def read_marks(path: Path) -> tuple[set[tuple[int, str]], set[tuple[int, str]]]:
    """(line, code) pairs marked `expect` and `also`, read from comment tokens only."""
    expect: set[tuple[int, str]] = set()
    also: set[tuple[int, str]] = set()
    for cell, source in _sources(path):
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type != tokenize.COMMENT:
                continue
            for kind, codes in MARK.findall(tok.string):
                target = expect if kind.lower() == "expect" else also
                for code in CODE.findall(codes):
                    target.add((_line_key(cell, tok.start[0]), code.upper()))
    return expect, also


def devlint_command() -> list[str]:
    exe = shutil.which("devlint")
    return [exe] if exe else [sys.executable, "-m", "devlint"]


def run_devlint(paths: list[Path]) -> list[dict]:
    cmd = devlint_command() + ["check", "--format", "json", "--no-cache", "--exit-zero", *map(str, paths)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(f"devlint produced no JSON report (exit {proc.returncode}):\n{proc.stderr}{proc.stdout[:2000]}\n")
        raise SystemExit(2)
    return report.get("findings", [])


def measured_units(paths: list[Path], corpus: Path = HERE) -> list[tuple[str, list[Path]]]:
    """What is measured: each script alone, each project under projects/ whole (its files in
    one run, so imports between them are followed). `corpus` is the folder that holds them."""
    if paths:
        return [(p.name, [p.resolve()]) for p in sorted(paths)]
    units = [(p.name, [p]) for p in sorted((corpus / "scripts").glob("*.py"))
             + sorted((corpus / "scripts").glob("*.ipynb"))]
    projects = corpus / "projects"
    if projects.is_dir():
        units += [(f"{d.name}/", sorted(d.rglob("*.py"))) for d in sorted(projects.iterdir())
                  if d.is_dir()]
    return units


def _at(name: str, line) -> str:
    return f"{name}{line}" if name.endswith("/") else f"{name}:{line}"


def _distance(a, b) -> float:
    """Lines apart (a project's lines are "file:line"; other files are far)."""
    if isinstance(a, int) and isinstance(b, int):
        return abs(a - b)
    fa, _, la = str(a).rpartition(":")
    fb, _, lb = str(b).rpartition(":")
    return abs(int(la) - int(lb)) if fa == fb else 1e9


def _split_line(rows: list[dict]) -> str:
    """Recall and precision of a part of the rows (the scripts, or the projects)."""
    hit = sum(len(r["hits"]) for r in rows)
    marked = sum(r["marked"] for r in rows)
    true = hit + sum(len(r["also"]) for r in rows)
    found = true + sum(len(r["false"]) for r in rows)
    correct = [r for r in rows if r["kind"] == "correct"]
    return (f"recall {pct(hit, marked).strip()} ({hit}/{marked}), precision {pct(true, found).strip()} ({true}/{found}), "
            f"{len(rows) - len(correct)} buggy, {len(correct)} correct, "
            f"{sum(1 for r in correct if r['false'])} correct with a false finding")


def pct(num: int, den: int) -> str:
    return f"{100.0 * num / den:5.1f}%" if den else "   n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="scripts to measure (default: every script in scripts/)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no per-script table")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--corpus", type=Path, metavar="DIR", default=HERE,
                        help="the folder with scripts/ and projects/ to measure (default: this one; "
                             "turn3/ is the set written for issue 28, measured on its own)")
    args = parser.parse_args(argv)
    corpus = args.corpus.resolve()
    scripts_dir, projects_dir = corpus / "scripts", corpus / "projects"

    units = measured_units(args.paths, corpus)
    if not units:
        print("no scripts to measure")
        return 0
    files = [path for _, paths in units for path in paths]
    marks = {p: read_marks(p) for p in files}
    by_file: dict[Path, dict[tuple[int, str], str]] = defaultdict(dict)
    for f in run_devlint(files):
        path = (HERE / f["path"]).resolve()
        by_file[path].setdefault((_line_key(f.get("cell"), int(f["line"])), f["code"]), f.get("message", ""))
    # A unit's truth and findings as (line, code) pairs, a project's lines named by file.
    scripts, truth, found = [], {}, {}
    for name, paths in units:
        scripts.append(name)
        single = len(paths) == 1 and paths[0].parent == scripts_dir
        tag = (lambda path, line: line) if single else (
            lambda path, line: f"{path.relative_to(projects_dir / name.split('/')[0]).as_posix()}:{line}")
        truth[name] = tuple({(tag(p, line), code) for p in paths for line, code in marks[p][i]}
                            for i in (0, 1))
        found[name] = {(tag(p, line), code): message for p in paths
                       for (line, code), message in by_file.get(p, {}).items()}

    rows = []
    per_rule = defaultdict(lambda: [0, 0])  # code -> [found, marked]
    false_per_rule = defaultdict(int)
    misses, falses = [], []
    tot_hit = tot_neutral = tot_false = tot_marked = 0
    false_on_correct = correct_with_false = mislocated = 0
    for path in scripts:
        expect, also = truth[path]
        got = found.get(path, {})
        hits = expect & got.keys()
        missed = expect - got.keys()
        neutral = (got.keys() - expect) & also
        false = got.keys() - expect - also
        for _, code in expect:
            per_rule[code][1] += 1
        for _, code in hits:
            per_rule[code][0] += 1
        for _, code in false:
            false_per_rule[code] += 1
        tot_hit += len(hits)
        tot_neutral += len(neutral)
        tot_false += len(false)
        tot_marked += len(expect)
        if not expect:
            false_on_correct += len(false)
            correct_with_false += bool(false)
        name = path
        # A miss whose code devlint reported on another line of the same script: found, but mislocated.
        spare = sorted(false)
        for line, code in sorted(missed):
            same = [f for f in spare if f[1] == code]
            where = min(same, key=lambda f: _distance(f[0], line))[0] if same else None
            if where is not None:
                spare.remove((where, code))
                mislocated += 1
            misses.append((name, line, code, where))
        falses += [(name, line, code, got[(line, code)]) for line, code in sorted(false)]
        rows.append({"script": name, "kind": "buggy" if expect else "correct", "marked": len(expect),
                     "hits": sorted(hits), "misses": sorted(missed), "also": sorted(neutral), "false": sorted(false)})

    if not args.quiet:
        width = max(len(r["script"]) for r in rows)
        print(f"{'script':<{width}}  kind     marked  hit  miss  false  also")
        for r in rows:
            print(f"{r['script']:<{width}}  {r['kind']:<7}  {r['marked']:>6}  {len(r['hits']):>3}  "
                  f"{len(r['misses']):>4}  {len(r['false']):>5}  {len(r['also']):>4}")
        print()

    n_buggy = sum(1 for r in rows if r["kind"] == "buggy")
    n_correct = len(rows) - n_buggy
    n_findings = tot_hit + tot_neutral + tot_false
    print(f"scripts: {len(rows)} ({n_buggy} buggy, {n_correct} correct); marked bugs: {tot_marked}")
    print(f"findings: {n_findings} ({tot_hit} marked, {tot_neutral} allowed by `also`, {tot_false} false)")
    print(f"recall:    {pct(tot_hit, tot_marked)}  ({tot_hit}/{tot_marked} marked bugs found)")
    print(f"precision: {pct(tot_hit + tot_neutral, n_findings)}  ({tot_hit + tot_neutral}/{n_findings} findings true)")
    print(f"correct scripts with a false finding: {correct_with_false}/{n_correct} ({false_on_correct} findings)")
    parts = [("scripts", [r for r in rows if not r["script"].endswith("/")]),
             ("projects", [r for r in rows if r["script"].endswith("/")])]
    if all(part for _, part in parts):
        for label, part in parts:
            print(f"  {label + ':':<10} {_split_line(part)}")
    print(f"misses reported with the same code on another line of the script: {mislocated} "
          f"(recall counting those: {pct(tot_hit + mislocated, tot_marked).strip()})")
    print()
    print("per rule      recall            false findings")
    for code in sorted(set(per_rule) | set(false_per_rule)):
        hit, marked = per_rule.get(code, (0, 0))
        print(f"  {code}    {pct(hit, marked)} ({hit:>2}/{marked:>2})   {false_per_rule.get(code, 0):>3}")
    if misses:
        print("\nmisses (marked, not found):")
        for name, line, code, where in misses:
            print(f"  {_at(name, line)}: {code}" + (f"  (reported at line {where} instead)" if where else ""))
    if falses:
        print("\nfalse findings (found, not marked):")
        for name, line, code, message in falses:
            print(f"  {_at(name, line)}: {code} {message}")

    if args.json:
        summary = {"scripts": len(rows), "buggy": n_buggy, "correct": n_correct, "marked": tot_marked,
                   "found_marked": tot_hit, "found_also": tot_neutral, "false": tot_false, "mislocated": mislocated,
                   "recall": tot_hit / tot_marked if tot_marked else None,
                   "precision": (tot_hit + tot_neutral) / n_findings if n_findings else None,
                   "per_rule": {c: {"found": v[0], "marked": v[1]} for c, v in sorted(per_rule.items())},
                   "false_per_rule": dict(sorted(false_per_rule.items())),
                   "misses": [{"script": n, "line": l, "code": c, "reported_at": w} for n, l, c, w in misses],
                   "false_findings": [{"script": n, "line": l, "code": c, "message": m} for n, l, c, m in falses],
                   "rows": rows}
        args.json.write_text(json.dumps(summary, indent=2, default=list) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
