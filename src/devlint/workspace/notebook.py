"""Jupyter notebooks: the code cells, in order, checked as one program (a model moved in cell 2
and a loop in cell 5 meet as they do when the notebook runs), reported per cell as
`nb.ipynb:cell_5:3:9` (the finding's path is the file, its cell a field of its own, and
`in_file` the place in the JSON text), and fixed by rewriting only the cells a fix changed.

IPython lines (`%time`, `!pip install`, `x = !ls`, `obj?`) become `pass` with the same
indentation while checking, so positions do not move; a cell magic (`%%bash`) hides its cell.
Cells are numbered from 1 in notebook order, markdown cells included, as Jupyter shows them.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Optional

from devlint.lint.findings import Finding, Location, Related
from devlint.lint.selection import Selection

if TYPE_CHECKING:
    from devlint.workspace.notebook_positions import NotebookText

BOUNDARY = "# devlint: cell boundary"
_IPYTHON_LINE = re.compile(
    r"^\s*(?:[%!]|\?|[\w.]+\?\??\s*$|[\w.,\s()\[\]]+=\s*[%!])"
)


class NotebookError(Exception):
    pass


@dataclass
class Program:
    """The code cells joined, and where each one starts."""

    text: str
    cells: list[tuple[int, int, int]] = field(default_factory=list)  # (cell no, first line, lines)
    placeholders: dict[str, str] = field(default_factory=dict)  # `pass  # devlint-ipython-N` -> line
    indents: dict[int, str] = field(default_factory=dict)  # cell no -> the indent IPython strips

    def locate(self, line: int) -> tuple[int, int]:
        """(cell number, line inside the cell) of a line of the joined text."""
        for number, first, count in reversed(self.cells):
            if line >= first:
                return number, min(line - first + 1, max(count, 1))
        return (self.cells[0][0] if self.cells else 1), line

    def describe(self, line: int) -> str:
        number, inner = self.locate(line)
        return f"{inner} of cell {number}"


def load(data: bytes) -> dict:
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise NotebookError(f"not a notebook: {exc}") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise NotebookError("not a notebook: no list of cells")
    for cell in notebook["cells"]:
        if not isinstance(cell, dict) or not isinstance(cell.get("source", ""), (str, list)):
            raise NotebookError("not a notebook: a cell without a source")
    return notebook


def cell_source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def program(notebook: dict) -> Program:
    prog = Program("")
    parts: list[str] = []
    line = 1
    for number, cell in enumerate(notebook["cells"], start=1):
        if cell.get("cell_type") != "code":
            continue
        lines = cell_source(cell).splitlines()
        indent = re.match(r"[ \t]*", lines[0]).group() if lines else ""
        if indent:
            # IPython runs ` x = 1\n y = 2` as if unindented: the first line's indent goes.
            prog.indents[number] = indent
            lines = [text[len(indent):] if text.startswith(indent) else text for text in lines]
        if lines and lines[0].lstrip().startswith("%%"):
            lines = [_placeholder(prog, text, "") for text in lines]  # the cell is not Python
        else:
            lines = [_placeholder(prog, text, re.match(r"\s*", text).group())
                     if _IPYTHON_LINE.match(text) else text for text in lines]
        prog.cells.append((number, line, len(lines)))
        parts.extend(text + "\n" for text in lines)
        parts.append(BOUNDARY + "\n")
        line += len(lines) + 1
    prog.text = "".join(parts)
    return prog


def _placeholder(prog: Program, original: str, indent: str) -> str:
    token = f"{indent}pass  # devlint-ipython-{len(prog.placeholders)}"
    prog.placeholders[token] = original
    return token


def analyze_notebook(data: bytes, path: str, selection: Selection = Selection()) -> list[Finding]:
    from devlint.lint.analyze import analyze_source, parse_error
    from devlint.lint.parse import SourceError

    try:
        prog = program(load(data))
    except NotebookError as exc:
        return [parse_error(path, SourceError(1, 1, str(exc)))] if selection.enabled("DEV999") else []
    findings = analyze_source(prog.text, path, selection, describe_line=prog.describe)
    return in_cells(findings, prog, data)


def in_cells(findings: list[Finding], prog: Program, data: bytes) -> list[Finding]:
    """Findings of the joined program, placed in their cells and in the notebook's text."""
    if not findings:
        return []
    from devlint.workspace.notebook_positions import NotebookText

    text = NotebookText(data.decode("utf-8-sig"))
    return [to_cells(f, prog, text) for f in findings]


def to_cells(finding: Finding, prog: Program, text: "NotebookText") -> Finding:
    number, line = prog.locate(finding.line)
    column = finding.column + len(prog.indents.get(number, ""))  # columns as the cell shows them
    related = finding.related
    if related is not None:
        cell, inner = prog.locate(related.location.line)
        rcolumn = related.location.column + len(prog.indents.get(cell, ""))
        related = Related(Location(inner, rcolumn), f"{related.label} (cell {cell})", cell,
                          text.locate(cell, inner, rcolumn))
    return replace(finding, line=line, column=column, related=related, cell=number,
                   in_file=text.locate(number, line, column))


@dataclass
class NotebookFix:
    data: Optional[bytes]  # the new notebook, None when nothing changed
    findings: list[Finding]  # before fixing, per cell
    remaining: list[Finding]
    error: Optional[str] = None


def fix_notebook(data: bytes, path: str, selection: Selection, unsafe: bool) -> NotebookFix:
    from devlint.lint.analyze import analyze_source
    from devlint.lint.fix import apply_fixes

    try:
        notebook = load(data)
    except NotebookError:
        findings = analyze_notebook(data, path, selection)
        return NotebookFix(None, findings, findings)
    prog = program(notebook)
    raw = analyze_source(prog.text, path, selection, describe_line=prog.describe)
    findings = in_cells(raw, prog, data)
    outcome = apply_fixes(prog.text, raw, unsafe=unsafe)
    if outcome.error or not outcome.applied:
        return NotebookFix(None, findings, findings, outcome.error)
    sources = outcome.text.split(BOUNDARY + "\n")[:-1]
    if len(sources) != len(prog.cells):
        return NotebookFix(None, findings, findings, "a fix crossed a cell boundary; nothing written")
    for (number, _, _), source in zip(prog.cells, sources):
        cell = notebook["cells"][number - 1]
        restored = _restore(source, prog, cell_source(cell), prog.indents.get(number, ""))
        if restored != cell_source(cell):
            cell["source"] = (restored.splitlines(keepends=True)
                              if isinstance(cell["source"], list) else restored)
    new = dump(notebook, data)
    remaining = analyze_notebook(new, path, selection)
    return NotebookFix(new, findings, remaining)


def _restore(source: str, prog: Program, original: str, indent: str = "") -> str:
    lines = [prog.placeholders.get(line, line) for line in source.splitlines()]
    lines = [indent + line if indent and line else line for line in lines]
    text = "\n".join(lines)
    return text + "\n" if original.endswith("\n") else text


def dump(notebook: dict, original: bytes) -> bytes:
    """Written as Jupyter writes it (indent 1, non-ASCII kept), or with the file's own indent."""
    text = original.decode("utf-8-sig")
    match = re.match(r"\{\r?\n( +)\"", text)
    indent = len(match.group(1)) if match else None
    out = json.dumps(notebook, indent=indent, ensure_ascii=False)
    return (out + ("\n" if text.endswith("\n") else "")).encode("utf-8")
