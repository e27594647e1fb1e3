"""What the runs of a file's importers show in its code, for the flake8 plugin and the
language server: a partial run (one file) gets the findings a whole-project run gives that
file. Which files import it is the workspace's import map (`devlint.workspace.importers`);
running them is linting's."""
from __future__ import annotations

import os
from typing import Optional

from devlint.lint.runner import shown
from devlint.workspace.importers import context_files
from devlint.workspace.project import (
    portable, readable_source, same_file, source_digest, still_holds,
)

_RUNS: dict = {}  # (importer, selection) -> (its findings in other files, what they stood on)


def routed_to(filename: str, selection, cached=None, seen_files: Optional[dict] = None,
              memo: Optional[dict] = None) -> list:
    """What the runs of the project files importing `filename` show in its code (a CPU tensor
    in a `forward` that train.py's values reach), named and deduplicated as `devlint check`
    reports it. Each importer's run is kept per process while its bytes and what it stood on
    (the file itself among them) are unchanged. `cached(path)`: an importer's outcome from a
    cache (`runner.FileOutcome`, its findings in other files' code included), or None.
    `seen_files`: what the caller's run has read of the project's files so far
    (`workspace.project.still_holds`), for a caller whose files do not change during a run
    (flake8); by default they are read again. `memo`: a dict the caller keeps for one run whose
    files do not change, where each importer's findings are kept."""
    if filename in ("stdin", "-") or not filename.endswith(".py") or not os.path.isfile(filename):
        return []
    target = same_file(filename)
    found, seen = [], set()
    seen_files = {} if seen_files is None else seen_files
    for importer in context_files([filename]):
        for finding in _foreign_findings(str(importer), selection, cached, seen_files, memo):
            spot = (finding.line, finding.column, finding.code)
            if same_file(finding.path) == target and spot not in seen:
                seen.add(spot)
                found.append(shown(finding, filename, {target: filename}))
    return sorted(found, key=lambda f: (f.line, f.column, f.code))


def _foreign_findings(path: str, selection, cached=None, seen_files: Optional[dict] = None,
                      memo: Optional[dict] = None) -> list:
    """An importer's findings in other files' code; once per run where the caller keeps a
    `memo` for the run (flake8: every file an importer imports asks for it)."""
    if memo is None:
        return _foreign_findings_of(path, selection, cached, seen_files)
    key = (path, selection)
    if key not in memo:
        memo[key] = _foreign_findings_of(path, selection, cached, seen_files)
    return memo[key]


def _foreign_findings_of(path: str, selection, cached=None, seen_files: Optional[dict] = None) -> list:
    data = readable_source(path)
    if data is None:
        return []
    # (an importer that names nothing a rule looks for may still call code of the file that
    # does, with the values it builds: `lint.analyze` decides, as for `devlint check`)
    key = (path, selection)
    known = _RUNS.get(key)
    digest = source_digest(data)
    if known is not None and known[1] == digest and still_holds(
            path, known[2], {} if seen_files is None else seen_files):
        return known[0]
    outcome = cached(path) if cached is not None and path.endswith(".py") else None
    if outcome is not None:
        foreign = [f for f in outcome.findings if f.path != path]
        if not outcome.cached:  # a cached one says nothing of what it stood on: asked again
            _RUNS[key] = (foreign, digest, outcome.dependencies or [])
        return foreign
    from devlint.lint.analyze import analyze_bytes
    from devlint.lint.model.summaries import recording  # the engine, only for a run
    from devlint.lint.notebooks import analyze_notebook

    analyze = analyze_notebook if path.endswith(".ipynb") else analyze_bytes
    with recording() as used:
        findings = analyze(data, path, selection, keep_foreign=True)
    foreign = [f for f in findings if f.path != path]
    _RUNS[key] = (foreign, digest, portable(path, used.files, used.probes))
    return foreign
