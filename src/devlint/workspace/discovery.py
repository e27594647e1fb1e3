"""Which files a run checks: the paths given, and `.py` and `.ipynb` files below given
directories."""
from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence, Union

SKIPPED_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "__pycache__", "build", "dist",
        ".eggs", ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules", "site-packages",
        ".devlint_cache", ".ipynb_checkpoints",
    }
)


NOTEBOOK_SUFFIX = ".ipynb"
CHECKED_SUFFIXES = (".py", NOTEBOOK_SUFFIX)


def is_notebook(path: Union[str, Path]) -> bool:
    """A notebook is analysed as its joined code cells and fixed cell by cell."""
    return str(path).endswith(NOTEBOOK_SUFFIX)


@dataclass(frozen=True)
class PathError:
    path: str
    reason: str


def iter_files(
    paths: Sequence[str], exclude: Sequence[str] = ()
) -> Iterator[Union[Path, PathError]]:
    """Files in a stable order. Exclusions apply to what is found by walking, not to what the
    user named: `devlint check fixtures/bad.py` checks that file even when `fixtures` is
    excluded."""
    seen: set[str] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for found in _walk(path, exclude):
                key = os.path.normcase(os.path.abspath(found))
                if key not in seen:
                    seen.add(key)
                    yield found
        elif path.exists() or path.is_symlink():
            key = os.path.normcase(os.path.abspath(path))
            if key not in seen:
                seen.add(key)
                yield path
        else:
            yield PathError(raw, "no such file or directory")


def _walk(root: Path, exclude: Sequence[str]) -> Iterator[Path]:
    # followlinks=False: a symlink loop can never make the walk run forever.
    for directory, dirnames, filenames in os.walk(root, followlinks=False, onerror=None):
        here = Path(directory)
        dirnames[:] = sorted(d for d in dirnames if not _skipped_dir(here / d, root, exclude))
        for name in sorted(filenames):
            if name.endswith(CHECKED_SUFFIXES) and not _excluded(here / name, root, exclude):
                yield here / name


def _skipped_dir(path: Path, root: Path, exclude: Sequence[str]) -> bool:
    name = path.name
    return (name in SKIPPED_DIRS or name.endswith(".egg-info") or (path / "pyvenv.cfg").exists()
            or _excluded(path, root, exclude))


def walk_skips(path: Path, root: Path, exclude: Sequence[str] = ()) -> bool:
    """Whether walking `root` would never reach the file `path`: the editor stays as quiet
    about a file as `devlint check` on the project is. A file outside `root` is not skipped."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return False
    directory = root
    for part in parts[:-1]:
        directory = directory / part
        if _skipped_dir(directory, root, exclude):
            return True
    return _excluded(path, root, exclude)


def _excluded(path: Path, root: Path, patterns: Sequence[str]) -> bool:
    if not patterns:
        return False
    rel = path.relative_to(root).as_posix()
    candidates = (path.name, rel, path.as_posix())
    return any(fnmatch.fnmatch(c, p.rstrip("/")) for p in patterns for c in candidates)
