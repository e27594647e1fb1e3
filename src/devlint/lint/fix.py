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

from devlint.core.findings import Applicability, Finding, TextEdit
from devlint.workspace.discovery import is_notebook
from devlint.lint.model.summaries import REACH_LEVELS, forget_summaries
from devlint.workspace.importers import new_run

if TYPE_CHECKING:
    from devlint.lint.report import RunResult


@dataclass
class FixOutcome:
    text: str
    applied: list[Finding] = field(default_factory=list)
    error: str = ""  # what was dropped and why, when a fix would have broken the file
    edits: list[TextEdit] = field(default_factory=list)  # what was spliced into `text`


def fixable(finding: Finding, unsafe: bool) -> bool:
    if finding.fix is None or not finding.fix.edits:
        return False
    return unsafe or finding.fix.applicability is Applicability.SAFE


def apply_fixes(text: str, findings: list[Finding], unsafe: bool = False) -> FixOutcome:
    """Splice every applicable fix that does not overlap an earlier one; identical edits
    proposed by several findings (one tuple move for `x` and `y`) are applied once. When the
    result would not parse, the fixes are tried one at a time and only the ones that break it
    are dropped."""
    chosen = _compatible(findings, unsafe)
    if not chosen:
        return FixOutcome(text)
    fixed, edits = _splice(text, chosen)
    if parses(fixed):
        return FixOutcome(fixed, chosen, edits=edits)
    kept: list[Finding] = []
    dropped: list[Finding] = []
    for finding in chosen:
        candidate, candidate_edits = _splice(text, kept + [finding])
        if parses(candidate):
            kept.append(finding)
            fixed, edits = candidate, candidate_edits
        else:
            dropped.append(finding)
    error = "; ".join(f"the {f.code} fix at line {f.line} was dropped: with it the file would "
                      f"not parse" for f in dropped)
    return FixOutcome(fixed if kept else text, kept, error, edits if kept else [])


def _compatible(findings: list[Finding], unsafe: bool) -> list[Finding]:
    """The fixes to apply together, in file order: each one's edits overlap no earlier one's."""
    chosen: list[Finding] = []
    taken: set[tuple[int, int, str]] = set()
    spans: list[tuple[int, int]] = []
    for finding in sorted(findings, key=Finding.sort_key):
        if not fixable(finding, unsafe):
            continue
        new = [(e.start, e.end, e.text) for e in finding.fix.edits if (e.start, e.end, e.text) not in taken]
        if any(_overlaps(start, end, spans) for start, end, _ in new):
            continue
        taken.update(new)
        spans.extend(edit[:2] for edit in new)
        chosen.append(finding)
    return chosen


def _splice(text: str, findings: list[Finding]) -> tuple[str, list[TextEdit]]:
    unique: dict[tuple[int, int, str], None] = {}
    for finding in findings:
        for edit in finding.fix.edits:
            unique.setdefault((edit.start, edit.end, edit.text), None)
    # From the end, so earlier offsets stay valid; two inserts at one offset keep their order.
    ordered = sorted(enumerate(unique), key=lambda item: (item[1][0], item[1][1], item[0]),
                     reverse=True)
    for _, (start, end, replacement) in ordered:
        text = text[:start] + replacement + text[end:]
    return text, [TextEdit(*edit) for edit in unique]


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    for other_start, other_end in spans:
        if start < other_end and other_start < end:
            return True
        if start == end and other_start < start < other_end:
            return True
    return False


def parses(text: str) -> bool:
    """CPython and libcst: the script must run, and the next run (and fix) must read it."""
    from devlint.core.limits import Unanalysable, deep_recursion
    from devlint.core.source_text import SourceError
    from devlint.lint.parse import read_module

    try:
        with deep_recursion():
            read_module(text)
    except (SourceError, Unanalysable):
        return False
    return True


class NotWritten(Exception):
    """The fixed file was not written, for a reason worth one line (the file is as it was)."""


def refuse_write(path: Path, roots: Sequence[str]) -> Optional[str]:
    """Why a fix must not be written to `path`, or None. A symlink is fixed at its target only
    when the target lies inside the paths being checked: fixing a file elsewhere (a shared
    checkout, site-packages) is not what `devlint check --fix src/` asked for."""
    target = Path(os.path.realpath(path))
    if path.is_symlink() and not any(_inside(target, Path(os.path.realpath(r))) for r in roots):
        return f"a symlink to {target}, outside the checked paths"
    if not target.stat().st_mode & 0o222:
        return "the file is read-only"  # even for root: a read-only file says "do not edit"
    # The fix is written beside the file and renamed over it, which the directory's
    # permissions allow even where the file's own do not: ask about both.
    if not _may(target, os.W_OK):
        return "you do not have permission to write it"
    if not _may(target.parent, os.W_OK | os.X_OK):
        return f"you do not have permission to create files in {target.parent}"
    return None


def _may(path: Path, mode: int) -> bool:
    effective = os.access in os.supports_effective_ids
    return os.access(path, mode, effective_ids=effective)


def _inside(target: Path, root: Path) -> bool:
    return target == root or root in target.parents


def write_atomically(path: Path, data: bytes, expected: Optional[bytes] = None) -> None:
    """Temp file in the same directory, fsync, rename over: a crash leaves the old file or
    the new one, never half of one. The file's mode and owner are kept (or nothing is
    written); a symlink is written through. With `expected`, the file must still hold those
    bytes just before the rename: an edit saved while devlint was fixing it is kept. The temp
    file's name is chosen before it exists, so an interrupt at any point (Ctrl-C inside
    `open`, too) leaves no temp file behind."""
    target = Path(os.path.realpath(path))
    before = target.stat()
    temp = os.path.join(target.parent, f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.devlint")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        _keep_owner(temp, before)
        os.chmod(temp, before.st_mode & 0o7777)  # after chown, which clears set-id bits
        if expected is not None and not _still_holds(target, before, expected):
            raise NotWritten("it changed while devlint was fixing it; your edit is kept")
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def _keep_owner(temp: str, before: os.stat_result) -> None:
    made = os.stat(temp)
    if (made.st_uid, made.st_gid) == (before.st_uid, before.st_gid) or not hasattr(os, "chown"):
        return
    try:
        os.chown(temp, before.st_uid, before.st_gid)
    except PermissionError:
        raise NotWritten(f"it belongs to user {before.st_uid}, group {before.st_gid}; "
                         "rewriting it would change its owner") from None


def _still_holds(target: Path, before: os.stat_result, expected: bytes) -> bool:
    now = target.stat()
    if (now.st_ino, now.st_size, now.st_mtime_ns) != (before.st_ino, before.st_size, before.st_mtime_ns):
        return False
    return target.read_bytes() == expected  # an edit within the clock's resolution


def fix_files(files: list[Path], selection_for, args, fail: Callable[[str], None],
              result: RunResult, sources: Mapping[Path, bytes] = {}) -> None:
    """Fixes run in this process, one file at a time, and never use the cache: they need the
    nodes the findings point at. Each file --fix replaces is listed in `result.rewritten` as
    soon as it is, so that Ctrl-C can say which files were already fixed."""
    pending, checked = list(files), set()
    for _ in range(MAX_ROUNDS):
        written = _fix_pass(pending, selection_for, args, fail, result, sources, checked)
        if not written or args.diff:
            return
        # A fix in one file may uncover a finding in another: a helper module's `.cuda()`,
        # reached only past the script's own before (`Interpreter.reached_only_with_a_stop`).
        # The files a rewritten one imports, and those importing it, are checked again, so that
        # a second `--fix` finds nothing to do.
        pending = _neighbours(written, files)
        if not pending:
            return
    fail(f"fixes still changed the project's files after {MAX_ROUNDS} rounds; stopped there")


def _fix_pass(files: list[Path], selection_for, args, fail: Callable[[str], None],
              result: RunResult, sources: Mapping[Path, bytes], checked: set) -> list[Path]:
    """One pass of `fix_files` over `files`; returns those it rewrote. A file checked in an
    earlier pass is counted once, and its findings are the ones this pass leaves."""
    from devlint.workspace.source import ReadError, read_source

    written = []
    for path in files:
        try:
            data = sources[path] if path in sources else read_source(path)
        except ReadError as exc:
            fail(f"{path}: {exc}")
            continue
        if path in checked:
            result.findings[:] = [f for f in result.findings if f.path != str(path)]
        else:
            checked.add(path)
            result.files_checked += 1
        before = None if path in sources else _identity(path)
        try:
            if check_and_fix(path, data, selection_for(path), args, fail, result):
                written.append(path)  # (not one the user edited meanwhile: that is no fix's)
        except Exception as exc:  # a bug in devlint must not hide the other files' findings
            fail(f"{path}: internal error: {type(exc).__name__}: {exc}")
        finally:
            # Also when Ctrl-C lands between the rename and the return: the file is replaced.
            if before is not None and not args.diff:
                _record_if_replaced(path, before, result)
    return written


def _neighbours(written: list[Path], files: list[Path]) -> list[Path]:
    """The files of `files` (in their order) within REACH_LEVELS imports of a rewritten file,
    either way, as the project's import lines say (`workspace.importers`): as far as a finding
    a fix uncovers may lie (a helper module asks that many importers up, `stopped_before`)."""
    from devlint.workspace.importers import importers_of, imports_of
    from devlint.workspace.project import project_of, same_file

    near: set = {same_file(path) for path in written}
    frontier = [str(path) for path in written]
    for _ in range(REACH_LEVELS):
        found: set = set()
        for path in frontier:
            found |= importers_of(path) or frozenset()
            found |= imports_of(path, project_of(path))
        frontier = [str(path) for path in found - near]
        near |= found
    return [path for path in files if same_file(path) in near and path.suffix == ".py"]


def _record_if_replaced(path: Path, before: tuple, result: RunResult) -> None:
    """List `path` as rewritten if --fix replaced it. A Ctrl-C that lands while this asks (the
    file renamed, not yet listed) is answered first, then goes on: the list Ctrl-C prints
    holds every replaced file."""
    try:
        if _identity(path) != before and str(path) not in result.rewritten:
            result.rewritten.append(str(path))
    except KeyboardInterrupt:
        if str(path) not in result.rewritten and _identity(path) != before:
            result.rewritten.append(str(path))
        raise


def _identity(path: Path) -> Optional[tuple[int, int, int]]:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_ino, found.st_mtime_ns, found.st_size


MAX_ROUNDS = 10


@dataclass
class Settled:
    """Where fixing ended: a fix may uncover another, or unblock one it overlapped
    (`x.to('cuda')`: DEV005 rewrites the line, then DEV001 fixes the literal on it), so fixes
    run until nothing fixable is left and a second `--fix` finds nothing to do."""

    content: object  # the fixed text (a notebook's bytes)
    findings: list[Finding]  # before any fix
    remaining: list[Finding]
    errors: list[str] = field(default_factory=list)
    changed: bool = False


def settle(fix_round: Callable, content) -> Settled:
    """`fix_round(content)` -> (fixed content or None, error, findings of `content`)."""
    errors: list[str] = []
    first: Optional[list[Finding]] = None
    changed = False
    for _ in range(MAX_ROUNDS):
        fixed, error, findings = fix_round(content)
        first = findings if first is None else first
        if error and error not in errors:
            errors.append(error)
        if fixed is None:
            return Settled(content, first, findings, errors, changed)
        content, changed = fixed, True
    _, _, findings = fix_round(content)
    errors.append(f"fixes still changed the file after {MAX_ROUNDS} rounds; stopped there")
    return Settled(content, first or [], findings, errors, changed)


def check_and_fix(path: Path, data: bytes, selection, args, fail, result: RunResult) -> bool:
    """Fix one file: only findings that `noqa` left and `--select` chose are ever fixed.
    Returns whether a fix was written (or, with `--diff`, shown)."""
    from devlint.lint.analyze import analyze_bytes, analyze_source
    from devlint.core.source_text import SourceError, decode_source_with_encoding

    if is_notebook(path):
        return fix_notebook_file(path, data, selection, args, fail, result)
    try:
        text, encoding = decode_source_with_encoding(data)
    except SourceError:
        result.findings.extend(analyze_bytes(data, str(path), selection))
        return False

    def fix_round(current: str):
        findings = analyze_source(current, str(path), selection)
        outcome = apply_fixes(current, findings, unsafe=args.unsafe_fixes)
        return (outcome.text if outcome.applied else None), outcome.error, findings

    settled = settle(fix_round, text)
    new = settled.content.encode(encoding) if settled.changed else None
    fixed = finish(path, data, new, settled, args, fail, result)
    if fixed and args.diff:
        result.diffs.append(unified_diff(str(path), text, settled.content))
    return fixed


def fix_notebook_file(path: Path, data: bytes, selection, args, fail, result: RunResult) -> bool:
    """Only the cells a fix changed are rewritten; outputs and metadata stay as they were."""
    from devlint.lint.notebooks import fix_round

    settled = settle(lambda current: fix_round(current, str(path), selection, args.unsafe_fixes), data)
    new = settled.content if settled.changed else None
    fixed = finish(path, data, new, settled, args, fail, result)
    if fixed and args.diff:
        result.diffs.append(unified_diff(str(path), data.decode("utf-8-sig"), new.decode("utf-8")))
    return fixed


def finish(path: Path, data: bytes, new: Optional[bytes], settled: Settled, args, fail,
           result: RunResult) -> bool:
    """Count and write what was fixed (`--diff` writes nothing); False when nothing was."""
    for line in settled.errors:
        fail(f"{path}: {line}")
    if new is None or not (args.diff or write_fix(path, data, new, args, fail)):
        result.findings.extend(settled.findings)
        return False
    result.fixed += max(0, len(settled.findings) - len(settled.remaining))
    result.findings.extend(settled.remaining)
    return True


def write_fix(path: Path, before: bytes, data: bytes, args, fail: Callable[[str], None],
              undone: str = "not fixed") -> bool:
    """Write a fixed file; a file the user may not write, a symlink leading out of the checked
    paths, a file edited meanwhile or a failed write is one error line, and the file stays as
    it was."""
    reason = refuse_write(path, args.paths)
    if reason is None:
        try:
            write_atomically(path, data, expected=before)
            new_run()  # a file changed: what the next file's analysis asks of it is asked again
            forget_summaries()  # and what its importers' summaries hold of it
            return True
        except NotWritten as exc:
            reason = str(exc)
        except OSError as exc:
            reason = f"cannot write: {exc.strerror or exc}"
    fail(f"{path}: {undone}: {reason}")
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


