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
from typing import Iterable, Optional

from devlint.workspace.project import Project, project_of, readable_source, same_file

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


def _levels() -> int:
    # Imported only once a file has importers: the model package imports libcst, which a
    # flake8 run over files nobody imports should never pay for.
    from devlint.lint.model.summaries import LEVELS

    return max(1, LEVELS)


_WALKS: dict = {}  # root -> its sources, for walks with the default exclusions (flake8's)
_IMPORTS: dict = {}  # (path, size, mtime) -> the project files its imports resolve to


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


def _imports_of(path: Path, project: Project) -> frozenset:
    """The project files `path`'s import lines resolve to (keys), once per process and version."""
    try:
        stat = os.stat(path)
    except OSError:
        return frozenset()
    memo = (str(path), stat.st_size, stat.st_mtime_ns)
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


# --- what importers' runs show in one file, for the flake8 plugin and the language server -----

_RUNS: dict = {}  # (importer, selection) -> (its findings in other files, what they stood on)


def routed_to(filename: str, selection, cached=None) -> list:
    """What the runs of the project files importing `filename` show in its code (a CPU tensor
    in a `forward` that train.py's values reach), named and deduplicated as `devlint check`
    reports it. Each importer's run is kept per process while its bytes and what it stood on
    (the file itself among them) are unchanged. `cached(path)`: an importer's outcome from a
    cache (`runner.FileOutcome`, its findings in other files' code included), or None."""
    if filename in ("stdin", "-") or not filename.endswith(".py") or not os.path.isfile(filename):
        return []
    from devlint.lint.runner import shown

    target = same_file(filename)
    found, seen = [], set()
    for importer in context_files([filename]):
        for finding in _foreign_findings(str(importer), selection, cached):
            spot = (finding.line, finding.column, finding.code)
            if same_file(finding.path) == target and spot not in seen:
                seen.add(spot)
                found.append(shown(finding, filename, {target: filename}))
    return sorted(found, key=lambda f: (f.line, f.column, f.code))


def _foreign_findings(path: str, selection, cached=None) -> list:
    from devlint.lint.model.summaries import recording
    from devlint.workspace.project import portable, source_digest, still_holds

    from devlint.lint.prefilter import REQUIREMENTS, could_match

    data = readable_source(path)
    if data is None or not could_match(data.decode("utf-8", errors="replace"), REQUIREMENTS):
        return []  # nothing a rule looks for: not worth importing the engine
    key = (path, selection)
    known = _RUNS.get(key)
    digest = source_digest(data)
    if known is not None and known[1] == digest and still_holds(path, known[2], {}):
        return known[0]
    outcome = cached(path) if cached is not None and path.endswith(".py") else None
    if outcome is not None:
        foreign = [f for f in outcome.findings if f.path != path]
        if not outcome.cached:  # a cached one says nothing of what it stood on: asked again
            _RUNS[key] = (foreign, digest, outcome.dependencies or [])
        return foreign
    from devlint.lint.analyze import analyze_bytes
    from devlint.workspace.notebook import analyze_notebook

    analyze = analyze_notebook if path.endswith(".ipynb") else analyze_bytes
    with recording() as used:
        findings = analyze(data, path, selection, keep_foreign=True)
    foreign = [f for f in findings if f.path != path]
    _RUNS[key] = (foreign, digest, portable(path, used.files, used.probes))
    return foreign
