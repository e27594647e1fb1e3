"""The ecosystem check: devlint on a pinned corpus of real PyTorch projects, compared with a
committed triage of every finding (the way ruff's ecosystem check and mypy_primer guard their
rules).

    python scripts/ecosystem.py             # download (once), check, compare, print figures
    python scripts/ecosystem.py --accept    # record the present findings as the new baseline
    python scripts/ecosystem.py --list      # every present finding with its verdict

The corpus is `benchmarks/ecosystem/corpus.json`: `name==version` source distributions from the
package index, each verified by its sha256 and kept in a cache outside the repository
(`$DEVLINT_ECOSYSTEM_CACHE`, else `~/.cache/devlint-ecosystem`): a second run downloads nothing.
The triage is `benchmarks/ecosystem/triage.tsv`: one row per finding ever seen (project, path,
line, code, verdict, idiom, present, note). How verdicts are decided: benchmarks/ecosystem/README.md.

Exit status: 0 when every present finding has a verdict, no `true` finding went away without a
note, and devlint raised no internal error; 1 otherwise; 2 when the corpus cannot be had.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import subprocess
import sys
import tarfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "benchmarks" / "ecosystem"
CORPUS = HERE / "corpus.json"
TRIAGE = HERE / "triage.tsv"
COLUMNS = ("project", "path", "line", "code", "verdict", "idiom", "present", "note")
VERDICTS = ("true", "false", "debatable")
# pip's own default; PIP_INDEX_URL (as pip reads it) points elsewhere, e.g. a mirror.
DEFAULT_INDEX = "https://pypi.org/simple"


def cache_dir() -> Path:
    found = os.environ.get("DEVLINT_ECOSYSTEM_CACHE")
    return Path(found) if found else Path.home() / ".cache" / "devlint-ecosystem"


# --- the corpus --------------------------------------------------------------------------------

def _sdist_url(name: str, version: str, index: str) -> str:
    """The sdist's address, asked of the index's JSON simple API (PEP 691)."""
    request = urllib.request.Request(f"{index.rstrip('/')}/{name}/",
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        files = json.load(answer)["files"]
    wanted = re.compile(rf"^{re.sub(r'[-_.]+', '[-_.]+', name)}-{re.escape(version)}\.tar\.gz$", re.I)
    for entry in files:
        if wanted.match(entry["filename"]):
            return entry["url"]
    raise LookupError(f"{name}=={version}: no sdist on {index}")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(entry: dict, cache: Path, index: str) -> Path:
    """The project's unpacked source folder, downloading and verifying it the first time."""
    name, version, sha = entry["name"], entry["version"], entry["sha256"]
    folder = cache / "src" / f"{name}=={version}"
    done = folder / ".devlint-verified"
    if done.exists() and done.read_text() == sha:
        return folder
    archive = cache / "sdists" / f"{name}-{version}.tar.gz"
    archive.parent.mkdir(parents=True, exist_ok=True)
    if not archive.exists() or _sha256(archive) != sha:
        partial = archive.with_suffix(".part")
        urllib.request.urlretrieve(_sdist_url(name, version, index), partial)
        if _sha256(partial) != sha:
            partial.unlink()
            raise ValueError(f"{name}=={version}: sha256 does not match the corpus")
        partial.replace(archive)
    if folder.exists():
        subprocess.run(["rm", "-rf", str(folder)], check=True)
    folder.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if m.isfile() and ".." not in Path(m.name).parts
                   and not m.name.startswith("/")]
        tar.extractall(folder, members=members)  # noqa: S202 (checked members, files only)
    top = [p for p in folder.iterdir() if p.is_dir()]
    if len(top) == 1:  # `name-version/` inside: lift its contents one level up
        for child in top[0].iterdir():
            child.rename(folder / child.name)
        top[0].rmdir()
    done.write_text(sha)
    return folder


# --- running devlint ---------------------------------------------------------------------------

@dataclass
class Run:
    files: int = 0
    findings: list = field(default_factory=list)  # (project, path, line, code, message)
    errors: list = field(default_factory=list)
    cpu: float = 0.0
    wall: float = 0.0


def check(project: str, folder: Path, devlint: list[str]) -> tuple[int, list, list, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(devlint + ["check", "--no-cache", "--exit-zero", "--output-format", "json", "."],
                          cwd=folder, capture_output=True, text=True, timeout=3600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1, 2) or not done.stdout.strip():
        return 0, [], [f"{project}: devlint exited {done.returncode}: {done.stderr.strip()[-300:]}"], cpu
    report = json.loads(done.stdout)
    found = [(project, f["path"], int(f["line"]), f["code"], f["message"]) for f in report["findings"]]
    return report["files_checked"], found, [f"{project}: {e}" for e in report.get("errors", [])], cpu


def run_corpus(folders: dict[str, Path], devlint: list[str]) -> Run:
    run = Run()
    start = time.monotonic()
    for project, folder in folders.items():
        files, found, errors, cpu = check(project, folder, devlint)
        run.files += files
        run.findings += found
        run.errors += errors
        run.cpu += cpu
    run.wall = time.monotonic() - start
    return run


# --- the triage --------------------------------------------------------------------------------

Key = tuple  # (project, path, line, code)


def read_triage(path: Path) -> dict[Key, dict]:
    rows: dict[Key, dict] = {}
    if not path.exists():
        return rows
    lines = path.read_text(encoding="utf-8").splitlines()
    header = tuple(lines[0].split("\t")) if lines else COLUMNS
    if header != COLUMNS:
        raise SystemExit(f"ecosystem: {path}: the header must be {' '.join(COLUMNS)}")
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) != len(COLUMNS):
            raise SystemExit(f"ecosystem: {path}:{number}: {len(cells)} columns, expected {len(COLUMNS)}")
        row = dict(zip(COLUMNS, cells))
        row["line"] = int(row["line"])
        rows[(row["project"], row["path"], row["line"], row["code"])] = row
    return rows


def write_triage(path: Path, rows: dict[Key, dict]) -> None:
    ordered = sorted(rows.values(), key=lambda r: (r["project"], r["path"], r["line"], r["code"]))
    text = "\t".join(COLUMNS) + "\n" + "".join(
        "\t".join(str(r[c]) for c in COLUMNS) + "\n" for r in ordered)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


@dataclass
class Comparison:
    untriaged: list  # present findings without a verdict
    new: list  # present now, absent at the last accepted run
    gone: list  # present at the last accepted run, absent now
    true_gone_unexplained: list
    counts: dict


def compare(rows: dict[Key, dict], run: Run) -> Comparison:
    present = {f[:4]: f for f in run.findings}  # two columns of one line and code are one row
    untriaged = [f for k, f in present.items() if rows.get(k, {}).get("verdict") not in VERDICTS]
    new = [f for k, f in present.items() if rows.get(k, {}).get("present") != "yes"]
    gone = [r for k, r in rows.items() if r["present"] == "yes" and k not in present]
    unexplained = [r for k, r in rows.items()
                   if k not in present and r["verdict"] == "true" and not r["note"].strip()]
    counts = {v: sum(1 for k in present if rows.get(k, {}).get("verdict") == v) for v in VERDICTS}
    return Comparison(untriaged, new, gone, unexplained, counts)


def source_line(folders: dict[str, Path], project: str, path: str, line: int) -> str:
    try:
        text = (folders[project] / path).read_text(encoding="utf-8", errors="replace").splitlines()
        return text[line - 1].strip() if 0 < line <= len(text) else ""
    except OSError:
        return ""


def summary(run: Run, comparison: Comparison) -> str:
    t, x, d = (comparison.counts[v] for v in VERDICTS)
    n = len({f[:4] for f in run.findings})
    precision = f"{100 * t / (t + x):.1f}%" if t + x else "n/a"
    per100 = f"{100 * n / run.files:.2f}" if run.files else "n/a"
    return (f"ecosystem: {run.files} files, {n} findings ({t} true, {x} false, {d} debatable), "
            f"precision {precision}, {per100} per 100 files")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accept", action="store_true",
                        help="record the present findings as the baseline (every one must have a verdict)")
    parser.add_argument("--list", action="store_true", help="print every present finding with its verdict")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the corpus (default: %(default)s)")
    parser.add_argument("--triage", type=Path, default=TRIAGE, help="the triage (default: %(default)s)")
    parser.add_argument("--sources", type=Path,
                        help="a folder of already unpacked projects (one sub-folder each, named "
                             "`name==version`) instead of downloading the corpus")
    parser.add_argument("--only", action="append", default=[], help="check only this project (repeatable)")
    parser.add_argument("--devlint", default=f"{sys.executable} -m devlint",
                        help="the devlint command to run (default: this Python's)")
    args = parser.parse_args(argv)

    entries = json.loads(args.corpus.read_text(encoding="utf-8"))
    if args.only:
        entries = [e for e in entries if e["name"] in args.only]
    folders: dict[str, Path] = {}
    if args.sources is not None:
        for entry in entries:
            folders[entry["name"]] = args.sources / f"{entry['name']}=={entry['version']}"
    else:
        cache = cache_dir()
        index = os.environ.get("PIP_INDEX_URL", DEFAULT_INDEX)
        for entry in entries:
            try:
                folders[entry["name"]] = fetch(entry, cache, index)
            except (OSError, ValueError, LookupError) as exc:
                print(f"ecosystem: cannot get {entry['name']}=={entry['version']}: {exc}", file=sys.stderr)
                return 2

    rows = read_triage(args.triage)
    if args.only:
        rows = {k: r for k, r in rows.items() if k[0] in args.only}
    run = run_corpus(folders, args.devlint.split())
    comparison = compare(rows, run)
    verdicts = {k: r["verdict"] for k, r in rows.items()}

    for label, items in (("new finding", comparison.new), ("went away", comparison.gone)):
        for item in items:
            if isinstance(item, dict):
                project, path, line, code = item["project"], item["path"], item["line"], item["code"]
                what = f"[{item['verdict']}: {item['idiom']}]"
            else:
                project, path, line, code, message = item
                what = f"[{verdicts.get(item[:4], 'untriaged')}] {message}"
            print(f"{label}: {project}/{path}:{line}: {code} {what}")
            print(f"    {source_line(folders, project, path, line)}")
    if args.list:
        for f in sorted(run.findings):
            print(f"{f[0]}/{f[1]}:{f[2]}: {f[3]} [{verdicts.get(f[:4], 'untriaged')}]")
    for error in run.errors:
        print(f"internal error: {error}")
    for f in comparison.untriaged:
        print(f"untriaged: {f[0]}/{f[1]}:{f[2]}: {f[3]} (add a row to {args.triage.name})")
    for r in comparison.true_gone_unexplained:
        print(f"true finding went away without a note: {r['project']}/{r['path']}:{r['line']}: {r['code']}")

    if args.accept:
        if comparison.untriaged:
            print("ecosystem: --accept refused: triage the findings above first", file=sys.stderr)
            return 1
        present = {f[:4] for f in run.findings}
        for key, row in rows.items():
            row["present"] = "yes" if key in present else "no"
        full = read_triage(args.triage)
        full.update(rows)
        write_triage(args.triage, full)

    print(f"cpu: {run.cpu:.1f} s for devlint on {len(folders)} projects ({run.wall:.1f} s wall)")
    print(summary(run, comparison))
    failed = comparison.untriaged or comparison.true_gone_unexplained or run.errors
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
