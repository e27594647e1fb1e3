"""A notebook through the lint pipeline: the program its code cells make (see
`devlint.workspace.notebook`) is analysed like a file, and its findings are placed back in
their cells; a fix round rewrites only the cells a fix changed."""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from devlint.core.findings import Finding, Location, Related
from devlint.core.selection import Selection
from devlint.lint.analyze import analyze_source, parse_error
from devlint.core.source_text import SourceError
from devlint.workspace.notebook import (
    NotebookError, Program, broken_cells, in_cells, load, program, restore, rewrite_sources,
    runs_python,
)
from devlint.workspace.notebook_positions import NotebookText


def analyze_notebook(data: bytes, path: str, selection: Selection = Selection(),
                     keep_foreign: bool = False) -> list[Finding]:
    """`keep_foreign`: also what the notebook's run shows in other files' code (a model it
    imports and moves), each reached from a place in one of its cells."""
    try:
        notebook = load(data)
    except NotebookError as exc:
        return [parse_error(path, SourceError(1, 1, str(exc)))] if selection.enabled("DEV999") else []
    if not runs_python(notebook):
        return []  # a Julia or R notebook: no Python to check
    prog = program(notebook)
    findings = analyze_source(prog.text, path, selection, describe_line=prog.describe,
                              keep_foreign=keep_foreign, unit_of=prog.cell_of)
    own = sorted([f for f in findings if f.path == path] + broken_cells(prog, path, selection),
                 key=Finding.sort_key)
    foreign = [f for f in findings if f.path != path]
    if not foreign:
        return in_cells(own, prog, data)
    text = NotebookText(data.decode("utf-8-sig"))
    return in_cells(own, prog, data) + [
        replace(f, related=_related_in_cells(f.related, path, prog, text),
                reached=_related_in_cells(f.reached, path, prog, text)) for f in foreign]


def _related_in_cells(related: Optional[Related], path: str, prog: Program,
                      text: "NotebookText") -> Optional[Related]:
    """A place in the notebook's joined program that another file's finding points at, in the
    cell that holds it."""
    if related is None or related.path != path:
        return related
    cell, inner = prog.locate(related.location.line)
    column = related.location.column + len(prog.indents.get(cell, ""))
    return Related(Location(inner, column), related.label, cell,
                   text.locate(cell, inner, column), path)


def fix_round(data: bytes, path: str, selection: Selection, unsafe: bool):
    """One round of fixes, for `devlint.lint.fix.settle`: (the new notebook's bytes or None,
    what went wrong, the findings of `data`, per cell)."""
    from devlint.lint.fix import apply_fixes

    try:
        notebook = load(data)
    except NotebookError:
        return None, None, analyze_notebook(data, path, selection)
    if not runs_python(notebook):
        return None, None, []
    prog = program(notebook)
    raw = analyze_source(prog.text, path, selection, describe_line=prog.describe, unit_of=prog.cell_of)
    findings = in_cells(sorted(raw + broken_cells(prog, path, selection), key=Finding.sort_key),
                        prog, data)
    outcome = apply_fixes(prog.text, raw, unsafe=unsafe)
    if not outcome.applied:
        return None, outcome.error, findings
    cells = restore(prog, outcome.text, outcome.edits)
    if cells is None:
        return None, "a fix crossed a cell boundary; nothing written", findings
    changed = {n: lines for n, lines in cells.items() if [t for t, _ in lines] != prog.sources[n]}
    try:
        return rewrite_sources(data, changed), outcome.error, findings
    except NotebookError as exc:
        return None, str(exc), findings
