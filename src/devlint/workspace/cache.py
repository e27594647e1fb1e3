"""Findings of unchanged files, kept between runs.

An entry's key is the 256-bit BLAKE2b digest of the file's bytes and of the rule selection
that applied to the file, in an index kept per devlint version, so an edit, an upgrade or a
config change can never serve stale findings; the path is not part of the key (a moved file
hits) and is put back on read.

One JSON file per devlint version, replaced atomically: a reader sees the old file or the new
one, never half of one. Two runs writing at once each keep their own results and one of the
two files wins; the loser's new entries are simply computed again next time. A file that does
not parse as this format is treated as empty. Any OS error disables the cache for the run.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

try:
    # CPython's own BLAKE2: `import hashlib` loads OpenSSL first, 4 MB of memory in every run.
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - another interpreter
    from hashlib import blake2b

from devlint import __version__
from devlint.lint.selection import Selection
from devlint.workspace.discovery import is_notebook
from devlint.lint.findings import Applicability, Finding, Fix, Location, Related, TextEdit

FORMAT = 5  # 4: keys are BLAKE2b digests; 5: of the file's kind too (a notebook or Python)
MAX_ENTRIES = 200_000  # about 40 MB of index at most; the oldest entries go first
CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by devlint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


def file_key(data: bytes, selection: Selection, kind: str) -> str:
    """`kind`: how the bytes are read (`kind_of`): an empty `Untitled.ipynb` is a malformed
    notebook, the same empty bytes as `__init__.py` a clean module."""
    digest = blake2b(data, digest_size=32)
    digest.update(b"\0" + repr((kind, selection.select, selection.ignore)).encode())
    return digest.hexdigest()


def kind_of(path) -> str:
    return "notebook" if is_notebook(path) else "python"


@dataclass
class Cache:
    directory: Path
    entries: dict[str, list] = field(default_factory=dict)
    added: dict[str, list] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    hits: int = 0

    @property
    def index(self) -> Path:
        return self.directory / f"devlint-{__version__}.json"

    @classmethod
    def open(cls, directory: Path) -> "Cache":
        cache = cls(directory)
        cache.entries = _read_entries(cache.index)
        return cache

    def get(self, key: str, path: str) -> Optional[list[Finding]]:
        rows = self.entries.get(key)
        if rows is None:
            return None
        try:
            findings = [_finding(path, row) for row in _listed(rows)]
        except ValueError:
            return None  # a hand-edited or foreign entry: compute it again, and replace it
        self.used.add(key)
        self.hits += 1
        return findings

    def put(self, key: str, findings: list[Finding], path: str) -> None:
        self.added[key] = [_row(f, path) for f in findings]

    def save(self) -> Optional[str]:
        """Write this run's entries; the reason when the cache could not be written."""
        if not self.added:
            return None
        latest = _read_entries(self.index)  # what other runs wrote since this one started
        merged = {**latest, **self.entries, **self.added}
        if len(merged) > MAX_ENTRIES:
            keep = set(self.added) | self.used
            old = [k for k in merged if k not in keep][: len(merged) - MAX_ENTRIES]
            for key in old:
                del merged[key]
        try:
            _prepare(self.directory)
            _write_atomically(self.index, json.dumps({"format": FORMAT, "entries": merged}))
        except OSError as exc:
            return f"cannot write the cache in {self.directory}: {exc.strerror or exc}"
        return None


def default_directory(project_root: Optional[Path]) -> Path:
    """DEVLINT_CACHE_DIR, else `.devlint_cache` in the project root (the directory of the
    pyproject.toml holding [tool.devlint]), else in the working directory."""
    override = os.environ.get("DEVLINT_CACHE_DIR")
    if override:
        return Path(override)
    return (project_root or Path.cwd()) / ".devlint_cache"


def _read_entries(index: Path) -> dict[str, list]:
    """The index's entries; {} for anything that is not this format (the next save rewrites
    it): not JSON, `Infinity` or `NaN` (valid to Python's reader, never written here),
    nesting too deep for the reader."""
    try:
        payload = json.loads(index.read_bytes(), parse_constant=_not_a_number)
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        return {}
    entries = payload.get("entries")
    return entries if isinstance(entries, dict) else {}


def _prepare(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    tag = directory / "CACHEDIR.TAG"
    if not tag.exists():
        tag.write_text(CACHEDIR_TAG, encoding="utf-8")
    ignore = directory / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# Automatically created by devlint.\n*\n", encoding="utf-8")


def _write_atomically(path: Path, text: str) -> None:
    import tempfile  # only when something changed: a run served from the cache never needs it

    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, 0o644)  # mkstemp's 0600 would lock out the rest of a team
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _row(finding: Finding, path: str) -> list:
    related = None
    if finding.related is not None:
        related = [finding.related.location.line, finding.related.location.column,
                   finding.related.label]
    fix = None
    if finding.fix is not None:
        # Text edits, for SARIF's fixes; --fix itself never reads the cache.
        fix = [finding.fix.description, finding.fix.applicability.value,
               [[e.start, e.end, e.text] for e in finding.fix.edits]]
    # What follows the file's path in the finding's (a notebook's `:cell_3`).
    suffix = finding.path[len(path):] if finding.path.startswith(path) else ""
    return [finding.line, finding.column, finding.code, finding.message, related, fix, suffix]


def _not_a_number(name: str) -> float:
    raise ValueError(f"{name} is not a number this cache writes")


def _finding(path: str, row: list) -> Finding:
    """The finding a row stores, checked field by field: a ValueError for any other shape."""
    line, column, code, message, related, fix, suffix = _listed(row, 7)
    if not (_CODE.fullmatch(_text(code)) and _CELL.fullmatch(_text(suffix))):
        raise ValueError(f"not a finding: {row!r}")
    if related is not None:
        r_line, r_column, label = _listed(related, 3)
        related = Related(Location(_count(r_line), _count(r_column)), _text(label))
    if fix is not None:
        description, applicability, edits = _listed(fix, 3)
        fix = Fix(_text(description), Applicability(applicability),
                  tuple(_edit(edit) for edit in _listed(edits)))
    return Finding(path + suffix, _count(line), _count(column), code, _text(message), related, fix)


_CODE = re.compile(r"DEV\d{3}")
_CELL = re.compile(r"(:cell_\d+)?")


def _edit(edit) -> TextEdit:
    start, end, text = _listed(edit, 3)
    if _count(end, 0) < _count(start, 0):
        raise ValueError(f"not an edit: {edit!r}")
    return TextEdit(start, end, _text(text))


def _listed(value, length: Optional[int] = None) -> list:
    if type(value) is not list or (length is not None and len(value) != length):
        raise ValueError(f"not a list of {length or 'any'}: {value!r}")
    return value


def _count(value, least: int = 1) -> int:
    if type(value) is not int or value < least:  # not a float, not a bool
        raise ValueError(f"not a count: {value!r}")
    return value


def _text(value) -> str:
    if type(value) is not str:
        raise ValueError(f"not a string: {value!r}")
    return value
