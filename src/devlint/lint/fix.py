"""Apply fixes: minimal text edits, all-or-nothing per fix, re-parsed before anything is written;
and `check --fix`/`--diff` over files, one at a time.

Edits are byte-exact splices into the original text, so comments, quotes, blank lines and line
endings outside the edited spans stay as they were. Files are written atomically.
"""
from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, Optional, Sequence

from devlint.lint.findings import Applicability, Finding
from devlint.workspace.discovery import is_notebook

if TYPE_CHECKING:
    from devlint.lint.report import RunResult


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
    from devlint.lint.parse import SourceError, parse_module

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
    the new one, never half of one. The file's mode is kept; a symlink is written through.
    The temp file's name is chosen before it exists, so an interrupt at any point (Ctrl-C
    inside `open`, too) leaves no temp file behind."""
    target = Path(os.path.realpath(path))
    mode = target.stat().st_mode
    temp = os.path.join(target.parent, f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.devlint")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
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


def fix_files(files: list[Path], selection_for, args, fail: Callable[[str], None],
              result: RunResult, sources: Mapping[Path, bytes] = {}) -> None:
    """Fixes run in this process, one file at a time, and never use the cache: they need the
    nodes the findings point at. Each file --fix replaces is listed in `result.rewritten` as
    soon as it is, so that Ctrl-C can say which files were already fixed."""
    from devlint.workspace.source import ReadError, read_source

    for path in files:
        try:
            data = sources[path] if path in sources else read_source(path)
        except ReadError as exc:
            fail(f"{path}: {exc}")
            continue
        result.files_checked += 1
        before = None if path in sources else _identity(path)
        try:
            check_and_fix(path, data, selection_for(path), args, fail, result)
        except Exception as exc:  # a bug in devlint must not hide the other files' findings
            fail(f"{path}: internal error: {type(exc).__name__}: {exc}")
        finally:
            # Also when Ctrl-C lands between the rename and the return: the file is replaced.
            if before is not None and not args.diff and _identity(path) != before:
                result.rewritten.append(str(path))


def _identity(path: Path) -> Optional[tuple[int, int, int]]:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_ino, found.st_mtime_ns, found.st_size


def check_and_fix(path: Path, data: bytes, selection, args, fail, result: RunResult) -> None:
    """Fix one file: only findings that `noqa` left and `--select` chose are ever fixed."""
    from devlint.lint.analyze import analyze_bytes, analyze_source
    from devlint.lint.parse import SourceError, decode_source_with_encoding

    if is_notebook(path):
        fix_notebook_file(path, data, selection, args, fail, result)
        return
    try:
        text, encoding = decode_source_with_encoding(data)
    except SourceError:
        result.findings.extend(analyze_bytes(data, str(path), selection))
        return
    findings = analyze_source(text, str(path), selection)
    outcome = apply_fixes(text, findings, unsafe=args.unsafe_fixes)
    if outcome.error:
        fail(f"{path}: {outcome.error}")
    written = outcome.applied and (args.diff or write_fix(path, outcome.text.encode(encoding), args, fail))
    if not written:
        result.findings.extend(findings)
        return
    remaining = analyze_source(outcome.text, str(path), selection)
    result.fixed += len(findings) - len(remaining)
    result.findings.extend(remaining)
    if args.diff:
        result.diffs.append(unified_diff(str(path), text, outcome.text))


def fix_notebook_file(path: Path, data: bytes, selection, args, fail, result: RunResult) -> None:
    """Only the cells a fix changed are rewritten; outputs and metadata stay as they were."""
    from devlint.workspace.notebook import fix_notebook

    outcome = fix_notebook(data, str(path), selection, unsafe=args.unsafe_fixes)
    if outcome.error:
        fail(f"{path}: {outcome.error}")
    if outcome.data is None or not (args.diff or write_fix(path, outcome.data, args, fail)):
        result.findings.extend(outcome.findings)
        return
    result.fixed += len(outcome.findings) - len(outcome.remaining)
    result.findings.extend(outcome.remaining)
    if args.diff:
        result.diffs.append(unified_diff(str(path), data.decode("utf-8-sig"),
                                         outcome.data.decode("utf-8")))


def write_fix(path: Path, data: bytes, args, fail: Callable[[str], None]) -> bool:
    """Write a fixed file; a read-only file, a symlink leading out of the checked paths or a
    failed write is one error line, and the file stays as it was."""
    reason = refuse_write(path, args.paths)
    if reason is None:
        try:
            write_atomically(path, data)
            return True
        except OSError as exc:
            reason = f"cannot write: {exc.strerror or exc}"
    fail(f"{path}: not fixed: {reason}")
    return False


def unified_diff(path: str, before: str, after: str) -> str:
    """git's headers: `a/` and `b/` before the path, an absolute one without its leading `/`
    (`a/abs/path`, as `git diff --no-index` writes it), so `patch -p1` and `git apply` read it."""
    import difflib

    name = path.lstrip("/") if os.path.isabs(path) else path
    return "".join(difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True),
        fromfile=f"a/{name}", tofile=f"b/{name}",
    ))


