"""One root cause, one finding, across the files of one run.

A finding can name a cause that other files share (`Finding.root_cause`): DEV001's
"no-device-choice" is a script that never chooses a device with a CPU fallback and names CUDA
anyway. In a research project whose training scripts all call `.cuda()` (SSL4MIS's 29
`train_*.py`, each importing the same `networks` and `dataloaders`), that is one decision,
made once for the whole code base: the project never passes a device around. A run over such
files reports it once, at the first file in path order, and says how many connected files
share it and where the next one is; each file's own finding stays what `devlint check` on that
file alone (pre-commit, the editor, flake8) reports.

Files are connected when their imports reach a common project file (or one reaches the
other), as far as `workspace.importers.imports_of` reads them: scripts of one code base. A
folder of unrelated scripts (a tutorial's lessons, devlint's own fixtures) shares nothing, so
each keeps its finding. A file that does choose a device and bypasses the choice has a cause of
its own and is never folded (DEV001 gives it no root cause).
"""
from __future__ import annotations

import os
from dataclasses import replace
from typing import Iterable

from devlint.core.findings import Finding, Location, Related
from devlint.workspace.importers import imports_of
from devlint.workspace.project import project_of, same_file

MAX_REACHED = 4096  # project files followed from the members' imports, in all


def fold(findings: list[Finding]) -> list[Finding]:
    """`findings` with each group of connected files sharing a root cause reported once (in
    the order given; the group's finding takes its first member's place)."""
    members = [f for f in findings if f.root_cause and f.cell is None]
    if len({f.path for f in members}) < 2:
        return findings
    component = components(sorted({f.path for f in members}))
    groups: dict = {}
    for finding in members:
        groups.setdefault((finding.code, finding.root_cause, component[finding.path]),
                          []).append(finding)
    kept: dict = {}
    dropped: set = set()
    for group in groups.values():
        files = sorted({f.path for f in group})
        if len(files) < 2:
            continue
        first, *folded = sorted(group, key=Finding.sort_key)
        kept[id(first)] = _representative(first, folded, len(files) - 1)
        dropped.update(id(f) for f in folded)
    return [kept.get(id(f), f) for f in findings if id(f) not in dropped]


def _representative(first: Finding, folded: list[Finding], n: int) -> Finding:
    """`first`, standing for the `folded` findings of `n` other files (path order)."""
    after = next(f for f in folded if f.path != first.path)
    message = (f"{first.message}; {n} more file{'s' if n > 1 else ''} of this code base "
               f"never choose{'s' if n == 1 else ''} a device with a CPU fallback (the next: "
               f"{_relative(after.path)}:{after.line}): one finding for them all")
    related = first.related
    if related is None:
        related = Related(Location(after.line, after.column),
                          "another file that never chooses a device", path=after.path)
    same = tuple(Related(Location(f.line, f.column), "the same root cause", path=f.path)
                 for f in folded)
    return replace(first, message=message, related=related, same_cause=same)


def components(paths: Iterable[str]) -> dict:
    """Each path's component: its project's root and a representative of the files it is
    connected to through the project files its imports reach (at most MAX_REACHED followed)."""
    parent: dict = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    reached = 0
    own = {}
    for path in paths:
        key = own[path] = same_file(path)
        project = project_of(path)
        seen, pending = {key}, [key]
        while pending and reached < MAX_REACHED:
            for imported in imports_of(pending.pop(), project):
                parent[find(imported)] = find(key)
                if imported not in seen:
                    seen.add(imported)
                    pending.append(imported)
                    reached += 1
    return {path: (project_of(path).root, find(own[path])) for path in paths}


def _relative(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path
