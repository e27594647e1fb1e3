"""Apply fixes: minimal text edits, all-or-nothing per fix, re-parsed before anything is written.

Edits are byte-exact splices into the original text, so comments, quotes, blank lines and line
endings outside the edited spans stay as they were. Files are written atomically.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from devlint.findings import Applicability, Finding


@dataclass
class FixOutcome:
    text: str
    applied: list[Finding] = field(default_factory=list)
    error: str = ""  # why nothing was applied, when the fixed text would not parse


def fixable(finding: Finding, unsafe: bool) -> bool:
    if finding.fix is None or not finding.fix.edits:
        return False
    return unsafe or finding.fix.applicability is Applicability.SAFE


def apply_fixes(text: str, findings: list[Finding], unsafe: bool = False) -> FixOutcome:
    """Splice every applicable fix that does not overlap an earlier one; identical edits
    proposed by several findings (one tuple move for `x` and `y`) are applied once."""
    chosen: list[Finding] = []
    taken: dict[tuple[int, int, str], None] = {}
    spans: list[tuple[int, int]] = []
    for finding in sorted(findings, key=Finding.sort_key):
        if not fixable(finding, unsafe):
            continue
        new = [(e.start, e.end, e.text) for e in finding.fix.edits if (e.start, e.end, e.text) not in taken]
        if any(_overlaps(start, end, spans) for start, end, _ in new):
            continue
        for edit in new:
            taken[edit] = None
            spans.append(edit[:2])
        chosen.append(finding)
    if not chosen:
        return FixOutcome(text)
    fixed = text
    # From the end, so earlier offsets stay valid; two inserts at one offset keep their order.
    ordered = sorted(enumerate(taken), key=lambda item: (item[1][0], item[1][1], item[0]),
                     reverse=True)
    for _, (start, end, replacement) in ordered:
        fixed = fixed[:start] + replacement + fixed[end:]
    error = _parse_error(fixed)
    if error:
        return FixOutcome(text, error=f"fixes dropped, the result would not parse: {error}")
    return FixOutcome(fixed, chosen)


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    for other_start, other_end in spans:
        if start < other_end and other_start < end:
            return True
        if start == end and other_start < start < other_end:
            return True
    return False


def _parse_error(text: str) -> str:
    from devlint.engine import SourceError, parse_module

    try:
        parse_module(text)
    except SourceError as exc:
        return exc.reason
    return ""


def refuse_write(path: Path, roots: Sequence[str]) -> Optional[str]:
    """Why a fix must not be written to `path`, or None. A symlink is fixed at its target only
    when the target lies inside the paths being checked: fixing a file elsewhere (a shared
    checkout, site-packages) is not what `devlint check --fix src/` asked for."""
    target = Path(os.path.realpath(path))
    if path.is_symlink() and not any(_inside(target, Path(os.path.realpath(r))) for r in roots):
        return f"a symlink to {target}, outside the checked paths"
    if not target.stat().st_mode & 0o222:
        return "the file is read-only"
    return None


def _inside(target: Path, root: Path) -> bool:
    return target == root or root in target.parents


def write_atomically(path: Path, data: bytes) -> None:
    """Temp file in the same directory, fsync, rename over: a crash leaves the old file or
    the new one, never half of one. The file's mode is kept; a symlink is written through."""
    target = Path(os.path.realpath(path))
    mode = target.stat().st_mode
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".devlint")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode & 0o7777)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
