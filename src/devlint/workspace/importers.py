"""The files of a project that import the checked ones: the context a partial run reads.

pre-commit passes only the staged files and an editor one buffer, but a bug in `model.py`'s
`forward` may show only with the values `train.py` passes it. A partial run therefore also
analyses the project files that import a checked file (and their importers, as deep as
summaries reach), for what their runs show in the checked files' code; nothing else of theirs
is reported. The walk is the one a whole-project run makes (the same excludes and .gitignore),
so a staged file gets the findings a whole-project run gives it.

Finding importers reads text, never parses: a file is an importer when one of its import lines
resolves (through `Project.resolve`) to a checked file; each file's imports are read once per
process. Only files the run does not check are read (a whole-project run reads none). An
import this reading misses only costs context.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable, Iterator, Optional

from devlint.workspace.project import (Project, forget_module_files, project_of, readable_source,
                                       same_file)

MAX_CONTEXT = 256  # importers read for one run: past it the run stays partial (never wrong)
MAX_PROJECT_FILES = 20_000  # a walk past this many files is not a project: no context

FROM_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+(?P<dots>\.*)[ \t]*(?P<module>[\w.]*)[ \t]+import[ \t]+"
    r"(?:\((?P<grouped>[^)]*)\)|(?P<names>[^\n#;]*))", re.M)
PLAIN_IMPORT = re.compile(r"^[ \t]*import[ \t]+(?P<names>[^\n#;]+)", re.M)


def context_files(files: Iterable[Path], exclusions=None) -> list[Path]:
    """The importers of `files` (and their importers, LEVELS steps in all) that are not among
    them, in the walk's order."""
    from devlint.workspace.discovery import is_notebook

    targets = {same_file(p) for p in files if not is_notebook(p) and str(p).endswith(".py")}
    if not targets:
        return []
    found: list[Path] = []
    by_root: dict[str, set] = {}
    for target in targets:
        by_root.setdefault(project_of(target).root, set()).add(target)
    for root in sorted(by_root):
        sources = _project_sources(root, exclusions)
        if sources is None:
            continue
        project = project_of(next(iter(by_root[root])))
        known, frontier = set(targets), by_root[root]
        for depth in range(MAX_CONTEXT):
            importers = [p for p in sources if same_file(p) not in known
                         and _imports_of(p, project) & frontier]
            if not importers:
                break
            found += importers
            frontier = {same_file(p) for p in importers}
            known |= frontier
            if len(found) >= MAX_CONTEXT:
                return found[:MAX_CONTEXT]
            if depth + 1 >= _levels():
                break
    return found


def imports_between(files: Iterable[Path]) -> bool:
    """Whether one of `files` (scripts or notebooks) imports another of them."""
    keys = {same_file(p) for p in files if str(p).endswith(".py")}
    for path in files:
        if str(path).endswith((".py", ".ipynb")) and keys - {same_file(path)} and \
                _imports_of(Path(path), project_of(str(path))) & (keys - {same_file(path)}):
            return True
    return False


def importers_of(path: str) -> Optional[frozenset]:
    """The files of `path`'s project (the default walk) whose import lines name it, as keys
    (`same_file`); None where that is not known: no project walk (too many files), or a
    notebook. Each project's import map is read once per process (and per file version)."""
    if not str(path).endswith(".py"):
        return None
    project = project_of(str(path))
    sources = _project_sources(project.root, None)
    if sources is None:
        return None
    return _imported_by(project, sources).get(same_file(path), frozenset())


def version(path) -> Optional[tuple]:
    """(size, mtime) of the file at `path`, None where it cannot be read: looked at once per
    run (`new_run`), as many questions as the run asks of it."""
    key = str(path)
    found = _VERSIONS.get(key, False)
    if found is False:
        try:
            status = os.stat(key)
            found = (status.st_size, status.st_mtime_ns)
        except OSError:
            found = None
        _VERSIONS[key] = found
    return found


def current_run() -> int:
    """Which run the questions asked now belong to (`new_run` starts the next)."""
    return _RUN[0]


def new_run() -> None:
    """Files may have changed since the last question: the next one looks at every file's
    version again (a check run, each analysis of the editor's server). Within a run the
    project's import map is read once, not once per file checked: asking every source of a
    project of N files again for each of its N files cost a run N * N `stat` calls."""
    _RUN[0] += 1
    _VERSIONS.clear()
    forget_module_files()


def _imported_by(project: Project, sources: list) -> dict:
    """Each project file (key) -> the files whose import lines name it, for this run."""
    known = _REVERSE.get(project.root)
    if known is not None and known[0] == _RUN[0]:
        return known[2]
    stamps = [version(source) for source in sources]
    if known is not None and known[1] == stamps:
        _REVERSE[project.root] = (_RUN[0], stamps, known[2])
        return known[2]
    reverse: dict = {}
    for source in sources:
        key = same_file(source)
        for target in _imports_of(source, project):
            if target != key:
                reverse.setdefault(target, set()).add(key)
    found = {target: frozenset(keys) for target, keys in reverse.items()}
    _REVERSE[project.root] = (_RUN[0], stamps, found)
    return found


def _levels() -> int:
    from devlint.core.limits import IMPORT_LEVELS

    return max(1, IMPORT_LEVELS)


_WALKS: dict = {}  # root -> its sources, for walks with the default exclusions (flake8's)
_IMPORTS: dict = {}  # (path, size, mtime) -> the project files its imports resolve to
_RUN = [0]  # which run the questions belong to (`new_run`)
_VERSIONS: dict = {}  # path -> `version` in this run
_REVERSE: dict = {}  # root -> (run, the sources' (size, mtime), `_imported_by`'s map)


def project_sources(root: str) -> Optional[list[Path]]:
    """The `.py` and `.ipynb` files of the project at `root` (the default walk, once per
    process); None past MAX_PROJECT_FILES."""
    return _project_sources(root, None)


def file_facts(sources: Iterable, memo: dict, fact, budget: int) -> Iterator:
    """`fact(bytes)` of each source (`fact(None)` for one that cannot be read), kept in `memo`
    per file version, so each is read once per process and version; None, and nothing after
    it, once the files not read before would take more than `budget` bytes (a monorepo's first
    question must not read without end; later questions read on)."""
    left = budget
    for source in sources:
        stat = version(source)
        if stat is None:
            yield fact(None)
            continue
        key = (str(source),) + stat
        if key not in memo:
            left -= stat[0]
            if left < 0:
                yield None
                return
            memo[key] = fact(readable_source(str(source)))
        yield memo[key]


def _project_sources(root: str, exclusions) -> Optional[list[Path]]:
    from devlint.workspace.discovery import iter_files

    if exclusions is None and root in _WALKS:
        return _WALKS[root]
    sources: Optional[list[Path]] = []
    for item in iter_files([root], exclusions):
        if isinstance(item, Path) and str(item).endswith((".py", ".ipynb")):
            sources.append(item)
            if len(sources) > MAX_PROJECT_FILES:
                sources = None
                break
    if exclusions is None:
        _WALKS[root] = sources
    return sources


def imports_of(path: str, project: Project) -> frozenset:
    """The project files (keys) the import lines of the project file `path` resolve to."""
    return _imports_of(Path(path), project)


def _imports_of(path: Path, project: Project) -> frozenset:
    """The project files `path`'s import lines resolve to (keys), once per process and version."""
    stat = version(path)
    if stat is None:
        return frozenset()
    memo = (str(path),) + stat
    if memo in _IMPORTS:
        return _IMPORTS[memo]
    data = readable_source(str(path))
    resolved = set()
    text = _program_text(path, data) if data is not None else None
    if text is not None:
        importer = str(path)
        for module, level, names in _imports(text):
            for candidate in [module] + [f"{module}.{name}" if module else name for name in names]:
                if candidate or level:
                    found = project.resolve(importer, candidate, level)
                    if found is not None:
                        resolved.add(same_file(found))
    _IMPORTS[memo] = frozenset(resolved)
    return _IMPORTS[memo]


def _program_text(path: Path, data: bytes) -> Optional[str]:
    """A notebook's code cells joined, as devlint checks it; a script's text."""
    if not str(path).endswith(".ipynb"):
        return data.decode("utf-8", errors="replace")
    from devlint.workspace.notebook import NotebookError, load, program

    try:
        return program(load(data)).text
    except (NotebookError, ValueError, RecursionError, MemoryError):
        return None


def _imports(text: str):
    """(module, level, imported names) of each import statement, read from the text."""
    for match in FROM_IMPORT.finditer(text):
        names = match.group("grouped") if match.group("grouped") is not None else match.group("names")
        flat = (names or "").replace("\\\n", " ").replace("(", " ").replace(")", " ")
        listed = [part.split()[0] for part in flat.split(",")
                  if part.split() and part.split()[0] != "*"]
        yield match.group("module"), len(match.group("dots")), listed
    for match in PLAIN_IMPORT.finditer(text):
        for part in match.group("names").split(","):
            words = part.split()
            if words:
                yield words[0], 0, []
