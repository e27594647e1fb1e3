"""Findings of unchanged files, kept between runs.

An entry's key is the 256-bit BLAKE2b digest of the file's bytes and of the rule selection
that applied to the file, in an index kept per devlint version and per digest of devlint's own
analysis code (a checkout that changes the rules without a version bump gets a fresh index), so
an edit, an upgrade or a config change can never serve stale findings; the path is not part of the key (a moved file
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
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional

try:
    # CPython's own BLAKE2: `import hashlib` loads OpenSSL first, 4 MB of memory in every run.
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - another interpreter
    from hashlib import blake2b

from devlint import __version__
from devlint.workspace.atomic import replace_file
from devlint.core.selection import Selection
from devlint.workspace.discovery import is_notebook
from devlint.core.findings import Applicability, Finding, Fix, Location, Related, TextEdit

FORMAT = 8  # 4: BLAKE2b keys; 5: a notebook's cell and place; 6: of the file's kind too;
# 7: what a result stands on in other files of the project (`dependencies`); 8: findings in
# other files' code (a row's target path and `reached`, paths relative to the file's folder)
MAX_ENTRIES = 200_000  # about 40 MB of index at most; the oldest entries go first
CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by devlint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


_ENGINE_DIGEST: Optional[str] = None


def engine_digest() -> str:
    """A digest of the code that decides findings (`devlint/lint`, `devlint/core`, the notebook
    reader)."""
    global _ENGINE_DIGEST
    if _ENGINE_DIGEST is None:
        package = Path(__file__).resolve().parent.parent
        digest = blake2b(digest_size=8)
        sources = sorted([*(package / "lint").rglob("*.py"), *(package / "core").rglob("*.py")])
        sources.append(package / "workspace" / "notebook.py")
        for source in sources:
            try:
                digest.update(source.relative_to(package).as_posix().encode() + b"\0" + source.read_bytes())
            except OSError:
                digest.update(b"?")
        _ENGINE_DIGEST = digest.hexdigest()
    return _ENGINE_DIGEST


def file_key(data: bytes, selection: Selection, kind: str) -> str:
    """`kind`: how the bytes are read (`kind_of`): an empty `Untitled.ipynb` is a malformed
    notebook, the same empty bytes as `__init__.py` a clean module."""
    digest = blake2b(data, digest_size=32)
    digest.update(b"\0" + repr((kind, selection.select, selection.ignore, selection.project)).encode())
    return digest.hexdigest()


def kind_of(path) -> str:
    return "notebook" if is_notebook(path) else "python"


@dataclass
class Cache:
    directory: Path
    entries: dict[str, list] = field(default_factory=dict)
    added: dict[str, list] = field(default_factory=dict)
    # key -> rows of `workspace.project.portable`: the other files a result was computed from
    dependencies: dict[str, list] = field(default_factory=dict)
    digests: dict = field(default_factory=dict)  # of the project files looked at in this run
    used: set[str] = field(default_factory=set)
    hits: int = 0

    @property
    def index(self) -> Path:
        return self.directory / f"devlint-{__version__}-{engine_digest()}.json"

    @classmethod
    def open(cls, directory: Path) -> "Cache":
        cache = cls(directory)
        cache.entries, cache.dependencies = _read_index(cache.index)
        return cache

    def get(self, key: str, path: str) -> Optional[list[Finding]]:
        rows = self.added.get(key, self.entries.get(key))  # this run's own results too
        if rows is None:
            return None
        standing_on = self.dependencies.get(key)
        if standing_on is not None:
            from devlint.workspace.project import still_holds

            if not isinstance(standing_on, list) or not still_holds(path, standing_on, self.digests):
                return None  # an imported file changed: this file is checked again
        try:
            findings = [_finding(path, row) for row in _listed(rows)]
        except ValueError:
            return None  # a hand-edited or foreign entry: compute it again, and replace it
        self.used.add(key)
        self.hits += 1
        return findings

    def put(self, key: str, path: str, findings: list[Finding],
            dependencies: Optional[list] = None) -> None:
        self.added[key] = [_row(f, path) for f in findings]
        if dependencies:
            self.dependencies[key] = dependencies
        else:
            self.dependencies.pop(key, None)

    def save(self) -> Optional[str]:
        """Write this run's entries; the reason when the cache could not be written."""
        if not self.added:
            return None
        try:
            _prepare(self.directory)
            with _locked(self.directory):  # flake8's workers end together: no update lost
                self._merge_and_write()
        except OSError as exc:
            return f"cannot write the cache in {self.directory}: {exc.strerror or exc}"
        return None

    def _merge_and_write(self) -> None:
        latest, latest_dependencies = _read_index(self.index)  # what other runs wrote since
        merged = {**latest, **self.entries, **self.added}
        dependencies = {**latest_dependencies, **self.dependencies}
        for key in self.added:  # this run's entries stand on what this run saw
            if key not in self.dependencies:
                dependencies.pop(key, None)
        if len(merged) > MAX_ENTRIES:
            keep = set(self.added) | self.used
            old = [k for k in merged if k not in keep][: len(merged) - MAX_ENTRIES]
            for key in old:
                del merged[key]
        dependencies = {k: v for k, v in dependencies.items() if k in merged}
        payload = json.dumps({"format": FORMAT, "entries": merged,
                              "dependencies": dependencies}).encode("utf-8")
        replace_file(self.index, payload, mode=0o644, durable=False)


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """The cache directory's lock, held while an index is read, merged and replaced: two
    processes saving at once would each merge what was there before the other wrote. Where
    there is no `fcntl` (Windows), saves are not serialised and a lost entry is computed again."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(directory / ".lock", "ab") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


_PROCESS_CACHE: list = []  # the one cache of this process, once opened


def process_cache() -> Cache:
    """The cache of a process that is handed files one at a time (the flake8 plugin, in
    flake8's own process or in each of its workers): where `devlint check` keeps it without a
    `[tool.devlint]` table (`default_directory`), opened on first use, and written once, when
    the process ends (a pool worker that exits normally included), merged with what the other
    processes wrote meanwhile."""
    if not _PROCESS_CACHE:
        from multiprocessing.util import Finalize

        cache = Cache.open(default_directory(None))
        _PROCESS_CACHE.append(cache)
        Finalize(None, cache.save, exitpriority=10)  # its error: the next run computes again
    return _PROCESS_CACHE[0]


def new_process_run() -> None:
    """A new run in a process whose cache stays open (flake8 used as a library runs again):
    the project files it read may have changed since, so what it remembers of their digests
    goes; its entries stay, each asked again whether what it stood on still holds."""
    for cache in _PROCESS_CACHE:
        cache.digests.clear()


def default_directory(project_root: Optional[Path]) -> Path:
    """DEVLINT_CACHE_DIR, else `.devlint_cache` in the project root (the directory of the
    pyproject.toml holding [tool.devlint]), else in the working directory."""
    override = os.environ.get("DEVLINT_CACHE_DIR")
    if override:
        return Path(override)
    return (project_root or Path.cwd()) / ".devlint_cache"


def _read_index(index: Path) -> tuple[dict[str, list], dict[str, list]]:
    """The index's entries and their dependencies; empty for anything that is not this format
    (the next save rewrites it): not JSON, `Infinity` or `NaN` (valid to Python's reader, never
    written here), nesting too deep for the reader."""
    try:
        payload = json.loads(index.read_bytes(), parse_constant=_not_a_number)
    except (OSError, ValueError, RecursionError):
        return {}, {}
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        return {}, {}
    entries = payload.get("entries")
    dependencies = payload.get("dependencies")
    return (entries if isinstance(entries, dict) else {},
            dependencies if isinstance(dependencies, dict) else {})


def _prepare(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    tag = directory / "CACHEDIR.TAG"
    if not tag.exists():
        tag.write_text(CACHEDIR_TAG, encoding="utf-8")
    ignore = directory / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# Automatically created by devlint.\n*\n", encoding="utf-8")


def _row(finding: Finding, path: str) -> list:
    """A finding as a JSON row. Paths of other files are relative to the folder of `path`, the
    file the result is of ("" is that file itself), so a moved tree still hits."""
    base = os.path.dirname(os.path.abspath(path))
    fix = None
    if finding.fix is not None:
        # Text edits, for SARIF's fixes; --fix itself never reads the cache.
        fix = [finding.fix.description, finding.fix.applicability.value,
               [[e.start, e.end, e.text] for e in finding.fix.edits]]
    target = None if finding.path == path else _relative(finding.path, path, base)
    return [finding.line, finding.column, finding.code, finding.message,
            _related_row(finding.related, path, base), fix, finding.cell,
            _location_row(finding.in_file), target, _related_row(finding.reached, path, base),
            finding.root_cause]


def _related_row(related: Optional[Related], path: str, base: str) -> Optional[list]:
    if related is None:
        return None
    where = None if related.path is None else _relative(related.path, path, base)
    return [related.location.line, related.location.column, related.label, related.cell,
            _location_row(related.in_file), where]


def _relative(other: str, path: str, base: str) -> str:
    return "" if other == path else os.path.relpath(os.path.abspath(other), base).replace(os.sep, "/")


def _absolute(row_path, path: str) -> str:
    """A row's path back: "" is the file itself, anything else lies relative to its folder."""
    text = _text(row_path)
    if text == "":
        return path
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), text))


def _location_row(location: Optional[Location]) -> Optional[list]:
    return None if location is None else [location.line, location.column]


def _location(row: Optional[list]) -> Optional[Location]:
    if row is None:
        return None
    line, column = _listed(row, 2)
    return Location(_count(line), _count(column))


def _cell(value) -> Optional[int]:
    return None if value is None else _count(value)


def _not_a_number(name: str) -> float:
    raise ValueError(f"{name} is not a number this cache writes")


def _finding(path: str, row: list) -> Finding:
    """The finding a row stores, checked field by field: a ValueError for any other shape."""
    line, column, code, message, related, fix, cell, in_file, target, reached, cause = \
        _listed(row, 11)
    if not _CODE.fullmatch(_text(code)):
        raise ValueError(f"not a finding: {row!r}")
    if fix is not None:
        description, applicability, edits = _listed(fix, 3)
        fix = Fix(_text(description), Applicability(applicability),
                  tuple(_edit(edit) for edit in _listed(edits)))
    return Finding(path if target is None else _absolute(target, path), _count(line),
                   _count(column), code, _text(message), _related(related, path), fix,
                   _cell(cell), _location(in_file), _related(reached, path),
                   root_cause=_text(cause))


def _related(row, path: str) -> Optional[Related]:
    if row is None:
        return None
    line, column, label, cell, in_file, where = _listed(row, 6)
    return Related(Location(_count(line), _count(column)), _text(label), _cell(cell),
                   _location(in_file), None if where is None else _absolute(where, path))


_CODE = re.compile(r"DEV\d{3}")


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
