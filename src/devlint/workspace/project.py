"""The project a checked file belongs to, and which of its files an import names.

The root is the nearest directory above the file holding `pyproject.toml`, `setup.cfg`,
`setup.py` or `.git`, else the file's own directory. An import resolves to a file of the
project: `import pkg.mod`, `from pkg import mod`, `from .utils import f`, `from . import x`,
packages under the root or under `src/`, namespace packages (a directory without
`__init__.py`), re-exports through `__init__.py` (the package's summary holds what it imports).
Anything else (torch, installed packages) stays unresolved: devlint's tables know those.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Optional

ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")
MAX_SUMMARY_BYTES = 2_000_000  # a larger file (generated code) gives no summary


@lru_cache(maxsize=4096)
def project_root(directory: str) -> str:
    current = directory
    while True:
        if any(os.path.exists(os.path.join(current, marker)) for marker in ROOT_MARKERS):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return directory
        current = parent


def project_of(path: str) -> "Project":
    return _project(project_root(os.path.dirname(os.path.abspath(path))))


@lru_cache(maxsize=64)
def _project(root: str) -> "Project":
    return Project(root)


class Project:
    def __init__(self, root: str) -> None:
        self.root = root
        src = os.path.join(root, "src")
        self.search = [root] + ([src] if os.path.isdir(src) else [])

    def resolve(self, importer: str, module: str, level: int = 0) -> Optional[str]:
        """The file `module` names, seen from the file `importer`; None outside the project."""
        parts = [p for p in module.split(".") if p]
        if level:
            base = os.path.dirname(os.path.abspath(importer))
            for _ in range(level - 1):
                base = os.path.dirname(base)
            return _module_file(base, parts)
        for top in self.search:
            found = _module_file(top, parts)
            if found is not None:
                return found
        return None


def _module_file(base: str, parts: list) -> Optional[str]:
    """`base/a/b.py`, or the package `base/a/b/__init__.py`; a namespace package (a directory
    only) is a package with nothing in it but its submodules."""
    if not parts:
        init = os.path.join(base, "__init__.py")
        return init if os.path.isfile(init) else None
    path = os.path.join(base, *parts)
    for candidate in (path + ".py", os.path.join(path, "__init__.py")):
        if os.path.isfile(candidate) and not os.path.islink(candidate):
            return candidate
    return path if os.path.isdir(path) else None


def is_namespace(path: str) -> bool:
    return os.path.isdir(path)


def readable_source(path: str) -> Optional[bytes]:
    """The bytes of a project file a summary may be made of: a regular file of sensible size."""
    try:
        if not Path(path).is_file() or os.path.getsize(path) > MAX_SUMMARY_BYTES:
            return None
        return Path(path).read_bytes()
    except OSError:
        return None
