"""The project a checked file belongs to, and which of its files an import names.

The root is the nearest directory above the file holding `pyproject.toml`, `setup.cfg`,
`setup.py` (one that installs modules, not only a compiled extension) or `.git`, else the
folder that holds the file's top package (where CPython finds
the package: `exp/` with an `__init__.py` is imported from the folder above it), else the
file's own directory. An import resolves to a file of the
project: `import pkg.mod`, `from pkg import mod`, `from .utils import f`, `from . import x`,
packages under the root or under `src/`, namespace packages (a directory without
`__init__.py`), re-exports through `__init__.py` (the package's summary holds what it imports).
Anything else (torch, installed packages) stays unresolved: devlint's tables know those.
"""
from __future__ import annotations

import os
import re
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Optional

try:
    from _blake2 import blake2b  # CPython's own: hashlib would load OpenSSL first
except ImportError:  # pragma: no cover - another interpreter
    from hashlib import blake2b

ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")
MAX_SUMMARY_BYTES = 2_000_000  # a larger file (generated code) gives no summary


# What a `setup.py` installs: Python modules of the project, or only compiled extensions.
MODULES = re.compile(rb"\b(?:packages|py_modules|package_dir|find_packages|find_namespace_packages)\b")
EXTENSIONS_ONLY = re.compile(rb"\bext_modules\s*=")


def builds_only_extensions(setup: str) -> bool:
    """Whether the `setup.py` at `setup` builds compiled extensions and installs none of the
    project's modules (`setup(name="Align1D", ext_modules=[CppExtension(...)])`, no
    `packages`, `py_modules` or `package_dir`): a build script for a kernel, kept in a folder
    of the repository, not the root of a package others install."""
    try:
        with open(setup, "rb") as handle:
            text = handle.read(1 << 20)
    except OSError:
        return False
    return EXTENSIONS_ONLY.search(text) is not None and MODULES.search(text) is None


@lru_cache(maxsize=4096)
def project_root(directory: str) -> str:
    """(G-TAD's `gtad_lib/setup.py`, which only builds the `Align1D` kernel, marks no root:
    the repository above is the project.)"""
    current = directory
    while True:
        if any(os.path.exists(os.path.join(current, marker)) and not (
                marker == "setup.py" and builds_only_extensions(os.path.join(current, marker)))
               for marker in ROOT_MARKERS):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return _above_packages(directory)
        current = parent


def _above_packages(directory: str) -> str:
    """The folder above the top package that holds `directory` (`proj/` of `proj/exp/` when
    `exp/__init__.py` exists): where an unmarked tree's absolute imports are found from."""
    current = directory
    while os.path.isfile(os.path.join(current, "__init__.py")):
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return current


def project_of(path: str) -> "Project":
    return _project(project_root(os.path.dirname(os.path.abspath(path))))


@lru_cache(maxsize=64)
def _project(root: str) -> "Project":
    return Project(root)


class Project:
    def __init__(self, root: str) -> None:
        self.root = root
        # found by a marker (`.git`, `pyproject.toml`), not the file's own folder for want of one
        self.marked = any(os.path.exists(os.path.join(root, m)) for m in ROOT_MARKERS)
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
        namespace = None
        for top in self._search_from(importer):
            found = _module_file(top, parts)
            if found is not None and found.endswith(".py"):
                return found
            namespace = namespace or found  # only when no folder on the path has a module
        return namespace or self._from_a_script_above(importer, parts)

    def _from_a_script_above(self, importer: str, parts: list) -> Optional[str]:
        """`from utils.tools import EarlyStopping` in `exp/exp_main.py`, a folder of modules
        without `__init__.py`: the script that runs it (`run_longExp.py` beside `exp/` and
        `utils/`) puts its own folder on sys.path. The nearest folder above, within the
        project (or three levels when the project has no root marker), holding the module."""
        here = os.path.dirname(os.path.abspath(importer))
        if os.path.isfile(os.path.join(here, "__init__.py")):
            # `import siamesenet` in `siamfc/training.py`, beside `siamfc/siamesenet.py`: Python 3
            # has no implicit relative import, so it works only where the folder is on sys.path,
            # as when the file runs as a script (`python siamfc/training.py`): the module beside it
            beside = _module_file(here, parts)
            if beside is not None and beside.endswith(".py") and \
                    os.path.abspath(beside) != os.path.abspath(importer):
                return beside
            # A package's module: its absolute imports go through the path, and the script
            # that imports the package (`main_informer.py` beside `exp/` and `utils/`, in a
            # folder of the repository) put the folder above the top package there.
            top = _above_packages(here)
            if top == here or not top.startswith(self.root + os.sep):
                return None
            found = _module_file(top, parts)
            return found if found is not None and found.endswith(".py") else None
        bounded = self.marked
        current = here
        for _ in range(3):
            parent = os.path.dirname(current)
            if parent == current or (bounded and not parent.startswith(self.root)):
                return None
            current = parent
            found = _module_file(current, parts)
            if found is not None and found.endswith(".py"):
                return found
            if bounded and current == self.root:
                return None
        return None


    def _search_from(self, importer: str) -> list:
        """Where an absolute import looks: the importer's own folder first when it is a script's
        folder (no `__init__.py`: `python scripts/train.py` puts `scripts/` first on sys.path),
        then the root and `src/`; the folders the importer puts on `sys.path` itself
        (`workspace.sys_path`) before them, or after them where it appends."""
        from devlint.workspace.sys_path import path_edits

        here = os.path.dirname(os.path.abspath(importer))
        if here in self.search or os.path.isfile(os.path.join(here, "__init__.py")):
            search = self.search
        else:
            search = [here] + self.search
        if self.marked:
            inserted, appended = path_edits(os.path.abspath(importer), self.root)
            if inserted or appended:
                search = list(inserted) + [s for s in search if s not in inserted] + \
                    [a for a in appended if a not in search and a not in inserted]
        return search


def _module_file(base: str, parts: list) -> Optional[str]:
    """The package `base/a/b/__init__.py`, else `base/a/b.py`, in the order CPython's
    FileFinder tries them (a package wins over a module of the same name beside it); a
    namespace package (a directory only) is a package with nothing in it but its submodules.
    Asked once per run (`forget_module_files`): every file of a project resolves the same
    imports from the same folders, which cost a run on 1,230 sdist files 290,000 `stat` calls."""
    key = (base, *parts)
    found = _MODULE_FILES.get(key, _UNASKED)
    if found is _UNASKED:
        if len(_MODULE_FILES) >= MAX_MODULE_FILES:
            _MODULE_FILES.clear()
        found = _MODULE_FILES[key] = _find_module_file(base, parts)
    return found


def forget_module_files() -> None:
    """A new run: files may have come or gone since the last (`importers.new_run`)."""
    _MODULE_FILES.clear()


_MODULE_FILES: dict = {}  # (base, *parts) -> what `_find_module_file` found, within a run
_UNASKED = object()
MAX_MODULE_FILES = 1 << 16


def _find_module_file(base: str, parts: list) -> Optional[str]:
    if not parts:
        init = os.path.join(base, "__init__.py")
        return init if os.path.isfile(init) else None
    path = os.path.join(base, *parts)
    for candidate in (os.path.join(path, "__init__.py"), path + ".py"):
        if os.path.isfile(candidate) and not os.path.islink(candidate):
            return candidate
    return path if os.path.isdir(path) else None


class ProjectFiles:
    """The files around a checked one, as the model asks for them
    (`lint.model.summaries.ModuleFiles`): imports resolve within each importer's project."""

    def resolve(self, importer: str, module: str, level: int) -> Optional[str]:
        return project_of(importer).resolve(importer, module, level)

    def child(self, folder: str, name: str) -> Optional[str]:
        return _module_file(folder, [name])

    def project(self, path: str) -> str:
        return project_root(os.path.dirname(os.path.abspath(path)))

    def importers(self, path: str) -> Optional[frozenset]:
        from devlint.workspace.importers import importers_of

        return importers_of(path)

    def host_saving(self, path: str) -> Optional[bool]:
        from devlint.workspace.saves import host_saving

        return host_saving(path)

    def git_submodules(self, path: str) -> bool:
        return os.path.isfile(os.path.join(project_of(os.path.abspath(path)).root, ".gitmodules"))

    def cuda_extensions(self, path: str) -> tuple:
        from devlint.workspace.accelerators import cuda_extensions

        return cuda_extensions(path)

    def gpu_deployment(self, path: str) -> bool:
        from devlint.workspace.deploy import gpu_deployment

        return gpu_deployment(path)

    def gpu_only_importers(self, path: str) -> bool:
        from devlint.workspace.accelerators import gpu_only_importers

        return gpu_only_importers(path)

    def names_accelerator(self, path: str) -> Optional[bool]:
        from devlint.workspace.accelerators import names_accelerator

        return names_accelerator(path)

    def default_elsewhere(self, path: str) -> Optional[bool]:
        from devlint.workspace.accelerators import default_elsewhere

        return default_elsewhere(path)

    def unnamed_elsewhere(self, path: str) -> Optional[tuple]:
        from devlint.workspace.liveness import unnamed_elsewhere

        return unnamed_elsewhere(path)

    def sys_path_folders(self, path: str) -> Optional[tuple]:
        from devlint.workspace.sys_path import known_folders

        found = known_folders(os.path.abspath(path), project_of(path).root)
        if found is None:
            return None
        here = os.path.dirname(os.path.abspath(path))
        return tuple(sorted(os.path.relpath(folder, here) for folder in found))

    # A run asks for the same files again and again (each importer's summaries, and whether
    # what a memo stood on still holds): their bytes are kept while the file's status says it
    # is unchanged, and their digests by the bytes. A fifth of a project-mode run was reading
    # and hashing files it had read already.
    def __init__(self) -> None:
        self._read = _Kept()  # path -> (status, bytes)
        self._digests = _Kept()  # bytes -> digest

    def read(self, path: str) -> Optional[bytes]:
        try:
            status = os.stat(path)
        except (OSError, ValueError):
            return None
        key = (status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino)
        known = self._read.get(path)
        if known is not None and known[0] == key:
            return known[1]
        data = readable_source(path)
        if data is not None:
            self._read.put(path, (key, data), len(data))
        return data

    def digest(self, data: bytes) -> str:
        known = self._digests.get(data)
        if known is None:
            known = source_digest(data)
            self._digests.put(data, known, len(data))
        return known


class _Kept:
    """A memo of at most _KEPT_FILES entries and _KEPT_BYTES bytes of files: the least
    recently used goes first."""

    def __init__(self) -> None:
        self._entries: "OrderedDict[object, tuple]" = OrderedDict()  # key -> (value, bytes)
        self._bytes = 0

    def get(self, key):
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        return entry[0]

    def put(self, key, value, size: int) -> None:
        old = self._entries.pop(key, None)
        self._bytes += size - (old[1] if old is not None else 0)
        self._entries[key] = (value, size)
        while len(self._entries) > _KEPT_FILES or self._bytes > _KEPT_BYTES:
            self._bytes -= self._entries.popitem(last=False)[1][1]


_KEPT_FILES = 1024
_KEPT_BYTES = 64 << 20


PROJECT_FILES = ProjectFiles()


def same_file(path) -> str:
    """One key per file however it was named (relative, absolute, case on Windows)."""
    return os.path.normcase(os.path.abspath(str(path)))


def readable_source(path: str) -> Optional[bytes]:
    """The bytes of a project file a summary may be made of: a regular file of sensible size."""
    try:
        if not Path(path).is_file() or os.path.getsize(path) > MAX_SUMMARY_BYTES:
            return None
        return Path(path).read_bytes()
    except OSError:
        return None


def source_digest(data: bytes) -> str:
    """What a summary and a cached result name a project file's bytes by."""
    return blake2b(data, digest_size=16).hexdigest()


# --- what a cached result stands on ------------------------------------------------------------
# Rows name paths relative to the checked file's folder, so that a moved tree still hits and two
# identical files in different folders each check their own neighbours.

# The workspace's facts about a file that a cached result records with their answer: each is
# a method of `ProjectFiles` that `still_holds` asks again.
FACT_PROBES = ("host_saving", "gpu_deployment", "gpu_only_importers", "names_accelerator",
               "default_elsewhere", "unnamed_elsewhere", "git_submodules", "sys_path_folders",
               "cuda_extensions")


def portable(path: str, files: set, probes: set) -> list:
    """The dependency rows of the file `path` for the cache."""
    base = os.path.dirname(os.path.abspath(path))
    rows: list = [["file", _rel(p, base), digest] for p, digest in files]
    for probe in probes:
        if probe[0] == "import":
            _, importer, module, level, found = probe
            rows.append(["import", _rel(importer, base), module, level, _rel(found, base)])
        elif probe[0] == "importers":
            _, imported, found = probe
            # (None: not known, as for a file in a folder too big to read within the budget)
            rows.append(["importers", _rel(imported, base),
                         None if found is None else sorted(_rel(p, base) for p in found)])
        elif probe[0] in FACT_PROBES:
            kind, checked, found = probe
            rows.append([kind, _rel(checked, base), list(found) if type(found) is tuple else found])
        else:
            _, folder, name, found = probe
            rows.append(["child", _rel(folder, base), name, _rel(found, base)])
    return sorted(rows, key=repr)


def still_holds(path: str, rows, digests: dict) -> bool:
    """Whether every dependency of a cached result of `path` is as it was: each file has the
    same bytes, each import resolves to the same file. Any other shape of row (a hand-edited
    cache) is stale. `digests`: what this run has read of the files so far (their digests, and
    where an import or a submodule resolves), valid while no file changes: a run's, or one
    request's in the server."""
    base = os.path.dirname(os.path.abspath(path))
    try:
        for row in rows:
            kind = row[0]
            if kind == "file":
                _, rel, digest = row
                if _digest(os.path.join(base, rel), digests) != digest:
                    return False
            elif kind == "import":
                _, importer, module, level, found = row
                importer = os.path.normpath(os.path.join(base, importer))
                key = ("import", importer, module, int(level))
                if key not in digests:
                    digests[key] = project_of(importer).resolve(importer, module, int(level))
                if _rel(digests[key], base) != found:
                    return False
            elif kind == "importers":
                _, imported, found = row
                imported = os.path.normpath(os.path.join(base, imported))
                key = ("importers", imported)
                if key not in digests:
                    digests[key] = PROJECT_FILES.importers(imported)
                now = digests[key]
                if (now is None) != (found is None) or \
                        now is not None and sorted(_rel(p, base) for p in now) != list(found):
                    return False
            elif kind in FACT_PROBES:
                _, checked, found = row
                key = (kind, os.path.normpath(os.path.join(base, checked)))
                if key not in digests:
                    digests[key] = getattr(PROJECT_FILES, kind)(key[1])
                now = digests[key]
                if (list(now) if type(now) is tuple else now) != found:
                    return False
            elif kind == "child":
                _, folder, name, found = row
                key = ("child", os.path.normpath(os.path.join(base, folder)), name)
                if key not in digests:
                    digests[key] = _module_file(key[1], [name])
                if _rel(digests[key], base) != found:
                    return False
            else:
                return False
    except (TypeError, ValueError, OSError):
        return False
    return True


def _rel(path: Optional[str], base: str) -> Optional[str]:
    return None if path is None else _relative(path, base)


@lru_cache(maxsize=1 << 16)
def _relative(path: str, base: str) -> str:
    # A checked file's rows name the same few dozen files and imports as its neighbours':
    # `os.path.relpath` of each, every time, was a twentieth of a project-mode run.
    return os.path.relpath(path, base).replace(os.sep, "/")


def _digest(path: str, digests: dict) -> Optional[str]:
    path = os.path.normpath(path)
    if path not in digests:
        data = readable_source(path)
        digests[path] = None if data is None else source_digest(data)
    return digests[path]
