"""List the findings that differ between two versions of devlint on the same files.

    python scripts/core_diff.py BASE_REV PATH...

BASE_REV is checked out into a temporary worktree; both versions run `devlint check --format
json --no-cache` on PATH (fixtures, examples, fetched repositories) and every finding that only
one of them reports is printed as `old-only`/`new-only` with its line of code, for triage.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def findings(src: Path, paths: list[str]) -> set[tuple]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-m", "devlint", "check", "--format", "json", "--no-cache", *paths],
        capture_output=True, text=True, env=env, cwd=ROOT,
    )
    report = json.loads(done.stdout or "{}")
    return {(f["path"], f["line"], f["code"]) for f in report.get("findings", [])}


def _line(path: str, line: int) -> str:
    """The finding's line; a notebook's finding (`nb.ipynb:cell_3`) is shown by its place."""
    if ":cell_" in path:
        return ""
    lines = Path(path).read_text(errors="replace").splitlines()
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    base, paths = argv[0], argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["git", "worktree", "add", "--detach", tmp, base], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            old = findings(Path(tmp) / "src", paths)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", tmp], cwd=ROOT, capture_output=True)
    new = findings(ROOT / "src", paths)
    for label, only in (("old-only", old - new), ("new-only", new - old)):
        for path, line, code in sorted(only):
            print(f"{label} {path}:{line} {code}  {_line(path, line)[:100]}")
    print(f"old {len(old)}, new {len(new)}, same {len(old & new)}, "
          f"old-only {len(old - new)}, new-only {len(new - old)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
